// Drive a running ledgerd with xrpl.js, unmodified, over WebSocket through the delegation
// flow of xrpl.js's own integration test (delegateSet): alice gives bob Payment and
// AccountDomainSet, bob pays for alice and sets her domain, is refused an EmailHash
// (terNO_DELEGATE_PERMISSION), the entry reads back by ledger_entry and account_objects,
// and an empty DelegateSet deletes it.
// Usage: node delegate_flow.mjs ws://127.0.0.1:PORT. Exits non-zero (naming the failing
// step) on any mismatch.
import xrpl from 'xrpl'
import { check, connect, finish, fund, genesis, req, result, submit } from './flow_lib.mjs'

const { ECDSA, Wallet } = xrpl

const balance = async (client, a) => Number((await req(client, { command: 'account_info', account: a })).account_data.Balance)

const client = await connect(process.argv[2])
const alice = Wallet.generate(ECDSA.secp256k1)
const bob = Wallet.generate(ECDSA.ed25519)
const carol = Wallet.generate(ECDSA.secp256k1)
await fund(client, [alice, bob, carol])

const pay = { TransactionType: 'Payment', Account: alice.address, Destination: carol.address, Amount: '1000000', Delegate: bob.address }
const refused = await client.submit(pay, { wallet: bob })
check(refused.result.engine_result === 'terNO_DELEGATE_PERMISSION', `no permission yet: ${refused.result.engine_result}`)

const set = await submit(client, {
  TransactionType: 'DelegateSet',
  Account: alice.address,
  Authorize: bob.address,
  Permissions: [{ Permission: { PermissionValue: 'Payment' } }, { Permission: { PermissionValue: 'AccountDomainSet' } }],
}, alice)
check(result(set) === 'tesSUCCESS', `DelegateSet: ${result(set)}`)
const entry = await req(client, { command: 'ledger_entry', delegate: { account: alice.address, authorize: bob.address } })
check(entry.node.LedgerEntryType === 'Delegate' && entry.node.Authorize === bob.address, 'ledger_entry delegate')
check(entry.node.Permissions.map((p) => p.Permission.PermissionValue).join() === 'Payment,AccountDomainSet', 'permissions read back by name')
const objs = (await req(client, { command: 'account_objects', account: alice.address, type: 'delegate' })).account_objects
check(objs.length === 1 && objs[0].index === entry.index, 'account_objects type delegate')

const [a0, b0, c0] = [await balance(client, alice.address), await balance(client, bob.address), await balance(client, carol.address)]
const paid = await submit(client, { ...pay, Fee: '12' }, bob)
check(result(paid) === 'tesSUCCESS', `bob pays for alice: ${result(paid)}`)
check(paid.result.tx_json.SigningPubKey === bob.publicKey && paid.result.tx_json.Delegate === bob.address, 'signed by bob')
check(await balance(client, alice.address) === a0 - 1000000, 'alice sends the amount')
check(await balance(client, bob.address) === b0 - 12, 'bob pays the fee')
check(await balance(client, carol.address) === c0 + 1000000, 'carol receives')

const domain = await submit(client, { TransactionType: 'AccountSet', Account: alice.address, Delegate: bob.address, Domain: xrpl.convertStringToHex('example.com') }, bob)
check(result(domain) === 'tesSUCCESS', `AccountDomainSet: ${result(domain)}`)
const email = await client.submit({ TransactionType: 'AccountSet', Account: alice.address, Delegate: bob.address, EmailHash: '10000000002000000000300000000012' }, { wallet: bob })
check(email.result.engine_result === 'terNO_DELEGATE_PERMISSION', `EmailHash refused: ${email.result.engine_result}`)

const cleared = await submit(client, { TransactionType: 'DelegateSet', Account: alice.address, Authorize: bob.address, Permissions: [] }, alice)
check(result(cleared) === 'tesSUCCESS', `empty DelegateSet: ${result(cleared)}`)
const gone = (await req(client, { command: 'account_objects', account: alice.address, type: 'delegate' })).account_objects
check(gone.length === 0, 'deleted')

await finish(client)
