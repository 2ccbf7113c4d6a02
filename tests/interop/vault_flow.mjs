// Drive a running ledgerd with xrpl.js, unmodified, over WebSocket through the vault flow
// of xrpl.js's own integration tests (vaultCreate, vaultDeposit, vaultWithdraw, vaultSet,
// vaultDelete, vault_info): an owner creates an XRP vault, a depositor puts XRP in and gets
// shares, the owner caps it, the depositor takes it all back, the owner deletes it.
// Usage: node vault_flow.mjs ws://127.0.0.1:PORT. Exits non-zero (naming the failing
// step) on any mismatch.
import xrpl from 'xrpl'
import { check, connect, finish, fund, genesis, req, result, submit } from './flow_lib.mjs'

const { ECDSA, Wallet } = xrpl

const url = process.argv[2]
const client = await connect(url)
const owner = Wallet.generate(ECDSA.secp256k1)
const depositor = Wallet.generate(ECDSA.ed25519)
await fund(client, [owner, depositor])
const state = (await req(client, { command: 'server_state' })).state
const increment = String(state.validated_ledger.reserve_inc)

const ownerSeq = (await req(client, { command: 'account_info', account: owner.address })).account_data.Sequence
const created = await submit(client, { TransactionType: 'VaultCreate', Account: owner.address, Asset: { currency: 'XRP' }, Data: xrpl.convertStringToHex('vault'), Fee: increment }, owner)
check(result(created) === 'tesSUCCESS', `VaultCreate: ${result(created)}`)
const objs = (await req(client, { command: 'account_objects', account: owner.address, type: 'vault' })).account_objects
check(objs.length === 1 && objs[0].Owner === owner.address, 'account_objects type vault lists it')
const vaultID = objs[0].index
let info = (await req(client, { command: 'vault_info', owner: owner.address, seq: ownerSeq })).vault
check(info.index === vaultID && info.shares.LedgerEntryType === 'MPTokenIssuance', 'vault_info by owner and seq, with its shares')
const shareID = info.ShareMPTID

const dep = await submit(client, { TransactionType: 'VaultDeposit', Account: depositor.address, VaultID: vaultID, Amount: '5000000' }, depositor)
check(result(dep) === 'tesSUCCESS', `VaultDeposit: ${result(dep)}`)
info = (await req(client, { command: 'vault_info', vault_id: vaultID })).vault
check(info.AssetsTotal === '5000000' && info.shares.OutstandingAmount === '5000000', `5 XRP in, 5000000 shares out: ${info.AssetsTotal} ${info.shares.OutstandingAmount}`)

const capped = await submit(client, { TransactionType: 'VaultSet', Account: owner.address, VaultID: vaultID, AssetsMaximum: '5000000' }, owner)
check(result(capped) === 'tesSUCCESS', `VaultSet AssetsMaximum: ${result(capped)}`)
const over = await submit(client, { TransactionType: 'VaultDeposit', Account: depositor.address, VaultID: vaultID, Amount: '1' }, depositor)
check(result(over) === 'tecLIMIT_EXCEEDED', `a deposit past the cap: ${result(over)}`)

const half = await submit(client, { TransactionType: 'VaultWithdraw', Account: depositor.address, VaultID: vaultID, Amount: { mpt_issuance_id: shareID, value: '2500000' } }, depositor)
check(result(half) === 'tesSUCCESS', `VaultWithdraw by shares: ${result(half)}`)
const rest = await submit(client, { TransactionType: 'VaultWithdraw', Account: depositor.address, VaultID: vaultID, Amount: '2500000' }, depositor)
check(result(rest) === 'tesSUCCESS', `VaultWithdraw by assets: ${result(rest)}`)
const deleted = await submit(client, { TransactionType: 'VaultDelete', Account: owner.address, VaultID: vaultID }, owner)
check(result(deleted) === 'tesSUCCESS', `VaultDelete: ${result(deleted)}`)
const gone = await client.request({ command: 'vault_info', vault_id: vaultID }).then(() => 'found', (e) => e.data && e.data.error)
check(gone === 'entryNotFound', `vault_info after the delete: ${gone}`)
await finish(client)
