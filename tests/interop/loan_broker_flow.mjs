// Drive a running ledgerd with xrpl.js, unmodified, over WebSocket through the LoanBroker
// steps of xrpl.js's lendingProtocol integration test: a vault owner opens a broker over
// its XRP vault (LoanBrokerSet), finds it by hashLoanBroker and ledger_entry, reads the
// pseudo-account's LoanBrokerID, deposits and withdraws first-loss cover, updates the
// broker, deletes it, then deletes the vault. A LoanDelete naming the broker (no loan
// there) answers tecNO_ENTRY.
// Usage: node loan_broker_flow.mjs ws://127.0.0.1:PORT. Exits non-zero (naming the
// failing step) on any mismatch.
import xrpl from 'xrpl'
import { hashes } from 'xrpl'
import { check, connect, finish, fund, req, result, submit } from './flow_lib.mjs'

const { ECDSA, Wallet } = xrpl

const url = process.argv[2]
const client = await connect(url)
const owner = Wallet.generate(ECDSA.secp256k1)
const other = Wallet.generate(ECDSA.ed25519)
await fund(client, [owner, other])
const state = (await req(client, { command: 'server_state' })).state
const increment = String(state.validated_ledger.reserve_inc)

const created = await submit(client, { TransactionType: 'VaultCreate', Account: owner.address, Asset: { currency: 'XRP' }, Fee: increment }, owner)
check(result(created) === 'tesSUCCESS', `VaultCreate: ${result(created)}`)
const vaultID = (await req(client, { command: 'account_objects', account: owner.address, type: 'vault' })).account_objects[0].index

const seq = (await req(client, { command: 'account_info', account: owner.address })).account_data.Sequence
const set = await submit(client, { TransactionType: 'LoanBrokerSet', Account: owner.address, VaultID: vaultID, ManagementFeeRate: 100, CoverRateMinimum: 1000, CoverRateLiquidation: 500, DebtMaximum: '1000000000', Data: xrpl.convertStringToHex('js broker') }, owner)
check(result(set) === 'tesSUCCESS', `LoanBrokerSet: ${result(set)}`)
const brokerID = hashes.hashLoanBroker(owner.address, seq)
let broker = (await req(client, { command: 'ledger_entry', index: brokerID })).node
check(broker.LedgerEntryType === 'LoanBroker' && broker.VaultID === vaultID, 'hashLoanBroker names the new broker')
check(broker.ManagementFeeRate === 100 && broker.DebtMaximum === '1000000000', `the broker's fields: ${JSON.stringify(broker)}`)
const bySeq = (await req(client, { command: 'ledger_entry', loan_broker: { owner: owner.address, seq } })).index
check(bySeq === brokerID, 'ledger_entry loan_broker by owner and seq')
const pseudo = (await req(client, { command: 'account_info', account: broker.Account })).account_data
check(pseudo.LoanBrokerID === brokerID, "the pseudo-account's LoanBrokerID")

const stranger = await submit(client, { TransactionType: 'LoanBrokerCoverDeposit', Account: other.address, LoanBrokerID: brokerID, Amount: '1000000' }, other)
check(result(stranger) === 'tecNO_PERMISSION', `a stranger's cover deposit: ${result(stranger)}`)
const dep = await submit(client, { TransactionType: 'LoanBrokerCoverDeposit', Account: owner.address, LoanBrokerID: brokerID, Amount: '5000000' }, owner)
check(result(dep) === 'tesSUCCESS', `LoanBrokerCoverDeposit: ${result(dep)}`)
broker = (await req(client, { command: 'ledger_entry', index: brokerID })).node
check(broker.CoverAvailable === '5000000', `CoverAvailable after the deposit: ${broker.CoverAvailable}`)
const wd = await submit(client, { TransactionType: 'LoanBrokerCoverWithdraw', Account: owner.address, LoanBrokerID: brokerID, Amount: '2000000', Destination: other.address }, owner)
check(result(wd) === 'tesSUCCESS', `LoanBrokerCoverWithdraw to another account: ${result(wd)}`)
const tooMuch = await submit(client, { TransactionType: 'LoanBrokerCoverWithdraw', Account: owner.address, LoanBrokerID: brokerID, Amount: '3000001' }, owner)
check(result(tooMuch) === 'tecINSUFFICIENT_FUNDS', `withdrawing more than the cover: ${result(tooMuch)}`)
broker = (await req(client, { command: 'ledger_entry', index: brokerID })).node
check(broker.CoverAvailable === '3000000', `CoverAvailable after the withdrawal: ${broker.CoverAvailable}`)

const upd = await submit(client, { TransactionType: 'LoanBrokerSet', Account: owner.address, VaultID: vaultID, LoanBrokerID: brokerID, Data: xrpl.convertStringToHex('renamed') }, owner)
check(result(upd) === 'tesSUCCESS', `LoanBrokerSet update: ${result(upd)}`)
const loan = await submit(client, { TransactionType: 'LoanDelete', Account: owner.address, LoanID: brokerID }, owner)
check(result(loan) === 'tecNO_ENTRY', `LoanDelete of no loan: ${result(loan)}`)
const del = await submit(client, { TransactionType: 'LoanBrokerDelete', Account: owner.address, LoanBrokerID: brokerID }, owner)
check(result(del) === 'tesSUCCESS', `LoanBrokerDelete: ${result(del)}`)
const gone = await client.request({ command: 'ledger_entry', index: brokerID }).then(() => 'found', (e) => e.data && e.data.error)
check(gone === 'entryNotFound', `the broker after the delete: ${gone}`)
const vdel = await submit(client, { TransactionType: 'VaultDelete', Account: owner.address, VaultID: vaultID }, owner)
check(result(vdel) === 'tesSUCCESS', `VaultDelete after the broker: ${result(vdel)}`)
await finish(client)
