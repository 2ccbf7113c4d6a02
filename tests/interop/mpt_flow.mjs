// Drive a running ledgerd with xrpl.js, unmodified, over WebSocket through the MPT flow
// of xrpl.js's own integration tests (mptokenIssuanceCreate, mptokenAuthorize,
// mptokenIssuanceSet, mptokenIssuanceDestroy, the MPT parts of payment and clawback):
// create, read back the issuance ID from the tx metadata and account_objects, opt in,
// authorize, pay, lock, claw back, pay back, opt out, destroy.
// Usage: node mpt_flow.mjs ws://127.0.0.1:PORT. Exits non-zero (naming the failing step)
// on any mismatch.
import xrpl from 'xrpl'
import { check, connect, finish, fund, genesis, req, result, submit } from './flow_lib.mjs'

const { ECDSA, Wallet } = xrpl

const url = process.argv[2]
const client = await connect(url)
const issuer = Wallet.generate(ECDSA.secp256k1)
const holder = Wallet.generate(ECDSA.ed25519)
const other = Wallet.generate(ECDSA.secp256k1)
await fund(client, [issuer, holder, other])

// MPTokenIssuanceCreate: tfMPTCanLock | tfMPTRequireAuth | tfMPTCanTransfer | tfMPTCanClawback.
const create = await submit(client, {
  TransactionType: 'MPTokenIssuanceCreate',
  Account: issuer.address,
  Flags: 0x02 | 0x04 | 0x20 | 0x40,
  MaximumAmount: '9223372036854775807',
  AssetScale: 2,
  TransferFee: 100,
  MPTokenMetadata: xrpl.convertStringToHex('ledgerd interop'),
}, issuer)
check(result(create) === 'tesSUCCESS', `MPTokenIssuanceCreate: ${result(create)}`)
const txr = await req(client, { command: 'tx', transaction: create.result.hash })
const mptID = txr.meta.mpt_issuance_id
check(typeof mptID === 'string' && mptID.length === 48, `tx meta carries mpt_issuance_id: ${mptID}`)
const seqHex = (create.result.tx_json ?? create.result).Sequence.toString(16).toUpperCase().padStart(8, '0')
check(mptID.startsWith(seqHex), 'the ID starts with the creating sequence, big-endian')
let objs = (await req(client, { command: 'account_objects', account: issuer.address, type: 'mpt_issuance' })).account_objects
check(objs.length === 1 && objs[0].mpt_issuance_id === mptID, 'account_objects type mpt_issuance lists it with its mpt_issuance_id')
check(objs[0].MaximumAmount === '9223372036854775807' && objs[0].OutstandingAmount === '0', 'MaximumAmount and OutstandingAmount in base ten')

// Opt in, then the issuer authorizes.
check(result(await submit(client, { TransactionType: 'MPTokenAuthorize', Account: holder.address, MPTokenIssuanceID: mptID }, holder)) === 'tesSUCCESS', 'the holder opts in')
objs = (await req(client, { command: 'account_objects', account: holder.address, type: 'mptoken' })).account_objects
check(objs.length === 1 && objs[0].MPTokenIssuanceID === mptID, 'account_objects type mptoken lists the holder\'s token')
const early = await submit(client, { TransactionType: 'Payment', Account: issuer.address, Destination: holder.address, Amount: { mpt_issuance_id: mptID, value: '100' } }, issuer)
check(result(early) === 'tecNO_AUTH', `paying before authorization: ${result(early)}`)
check(result(await submit(client, { TransactionType: 'MPTokenAuthorize', Account: issuer.address, MPTokenIssuanceID: mptID, Holder: holder.address }, issuer)) === 'tesSUCCESS', 'the issuer authorizes the holder')
const paid = await submit(client, { TransactionType: 'Payment', Account: issuer.address, Destination: holder.address, Amount: { mpt_issuance_id: mptID, value: '100' } }, issuer)
check(result(paid) === 'tesSUCCESS', `the issuer pays 100: ${result(paid)}`)
check(paid.result.meta.delivered_amount?.mpt_issuance_id === mptID && paid.result.meta.delivered_amount?.value === '100', 'delivered_amount is the MPT amount')
let token = (await req(client, { command: 'ledger_entry', mptoken: { mpt_issuance_id: mptID, account: holder.address } })).node
check(token.MPTAmount === '100', `ledger_entry mptoken: MPTAmount ${token.MPTAmount}`)
const issuance = (await req(client, { command: 'ledger_entry', mpt_issuance: mptID })).node
check(issuance.OutstandingAmount === '100', `ledger_entry mpt_issuance: OutstandingAmount ${issuance.OutstandingAmount}`)

// Locks (MPTokenIssuanceSet) stop transfers between holders.
check(result(await submit(client, { TransactionType: 'MPTokenAuthorize', Account: other.address, MPTokenIssuanceID: mptID }, other)) === 'tesSUCCESS', 'another holder opts in')
check(result(await submit(client, { TransactionType: 'MPTokenAuthorize', Account: issuer.address, MPTokenIssuanceID: mptID, Holder: other.address }, issuer)) === 'tesSUCCESS', 'and is authorized')
check(result(await submit(client, { TransactionType: 'MPTokenIssuanceSet', Account: issuer.address, MPTokenIssuanceID: mptID, Flags: 1 }, issuer)) === 'tesSUCCESS', 'the issuer locks the issuance')
const locked = await submit(client, { TransactionType: 'Payment', Account: holder.address, Destination: other.address, Amount: { mpt_issuance_id: mptID, value: '10' }, SendMax: { mpt_issuance_id: mptID, value: '11' } }, holder)
check(result(locked) === 'tecLOCKED', `a holder-to-holder payment while locked: ${result(locked)}`)
check(result(await submit(client, { TransactionType: 'MPTokenIssuanceSet', Account: issuer.address, MPTokenIssuanceID: mptID, Flags: 2 }, issuer)) === 'tesSUCCESS', 'and unlocks it')
const moved = await submit(client, { TransactionType: 'Payment', Account: holder.address, Destination: other.address, Amount: { mpt_issuance_id: mptID, value: '10' }, SendMax: { mpt_issuance_id: mptID, value: '11' } }, holder)
check(result(moved) === 'tesSUCCESS', `holder to holder with the 0.1% fee: ${result(moved)}`)

// Clawback with Holder.
check(result(await submit(client, { TransactionType: 'Clawback', Account: issuer.address, Amount: { mpt_issuance_id: mptID, value: '5' }, Holder: holder.address }, issuer)) === 'tesSUCCESS', 'the issuer claws back 5')
token = (await req(client, { command: 'ledger_entry', mptoken: { mpt_issuance_id: mptID, account: holder.address } })).node
check(token.MPTAmount === '85', `left after paying 10 and losing 5: ${token.MPTAmount}`)

// Destroy waits for everything to come back.
const early2 = await submit(client, { TransactionType: 'MPTokenIssuanceDestroy', Account: issuer.address, MPTokenIssuanceID: mptID }, issuer)
check(result(early2) === 'tecHAS_OBLIGATIONS', `destroy while held: ${result(early2)}`)
for (const [w, v] of [[holder, '85'], [other, '10']]) {
  check(result(await submit(client, { TransactionType: 'Payment', Account: w.address, Destination: issuer.address, Amount: { mpt_issuance_id: mptID, value: v } }, w)) === 'tesSUCCESS', `a holder pays ${v} back`)
  check(result(await submit(client, { TransactionType: 'MPTokenAuthorize', Account: w.address, MPTokenIssuanceID: mptID, Flags: 1 }, w)) === 'tesSUCCESS', 'and opts out')
}
check(result(await submit(client, { TransactionType: 'MPTokenIssuanceDestroy', Account: issuer.address, MPTokenIssuanceID: mptID }, issuer)) === 'tesSUCCESS', 'the issuer destroys the issuance')
objs = (await req(client, { command: 'account_objects', account: issuer.address })).account_objects
check(objs.length === 0, 'nothing left in the issuer\'s account_objects')

await finish(client)
