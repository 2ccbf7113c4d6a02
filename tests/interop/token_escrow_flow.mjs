// Drive a running ledgerd with xrpl.js, unmodified, over WebSocket through token escrows
// (TokenEscrow): an issuer refuses, then allows, trust line locking (asfAllowTrustLineLocking,
// account_info's allowTrustLineLocking); a holder escrows 100 USD to a second holder with a
// transfer rate of 1.25 (the issuer holds it meanwhile and lists the escrow among its
// objects); the destination finishes it and gets 80. Then an MPT with CanEscrow: 300
// escrowed show as LockedAmount on the holder's MPToken and on the issuance; the escrow is
// cancelled back once its CancelAfter has passed.
// Usage: node token_escrow_flow.mjs ws://127.0.0.1:PORT. Exits non-zero (naming the failing
// step) on any mismatch.
import xrpl from 'xrpl'
import { check, connect, finish, fund, req, result, submit } from './flow_lib.mjs'

const { AccountSetAsfFlags, ECDSA, MPTokenIssuanceCreateFlags, Wallet } = xrpl

const client = await connect(process.argv[2])
const issuer = Wallet.generate(ECDSA.secp256k1)
const alice = Wallet.generate(ECDSA.ed25519)
const bob = Wallet.generate(ECDSA.secp256k1)
await fund(client, [issuer, alice, bob])

// How far ahead of the last close an escrow's times lie: far enough that a loaded machine
// cannot close past them before the EscrowCreate applies (tecNO_PERMISSION).
const LEAD = 10
const closeTime = async () => (await req(client, { command: 'ledger', ledger_index: 'validated' })).ledger.close_time
async function waitPast (t) {
  for (let i = 0; i < 60 && (await closeTime()) <= t; i++) await new Promise((resolve) => setTimeout(resolve, 500))
}
const USD = (value) => ({ currency: 'USD', issuer: issuer.address, value })
const lineOf = async (w) => (await req(client, { command: 'account_lines', account: w.address })).lines.find((l) => l.currency === 'USD')

for (const w of [alice, bob]) {
  const t = await submit(client, { TransactionType: 'TrustSet', Account: w.address, LimitAmount: USD('1000') }, w)
  check(result(t) === 'tesSUCCESS', `TrustSet of ${w.address}: ${result(t)}`)
}
const issued = await submit(client, { TransactionType: 'Payment', Account: issuer.address, Destination: alice.address, Amount: USD('500') }, issuer)
check(result(issued) === 'tesSUCCESS', `the issuer pays alice 500 USD: ${result(issued)}`)

let now = await closeTime()
const usdEscrow = { TransactionType: 'EscrowCreate', Account: alice.address, Destination: bob.address, Amount: USD('100'), FinishAfter: now + 2, CancelAfter: now + 600 }
const refused = await submit(client, usdEscrow, alice)
check(result(refused) === 'tecNO_PERMISSION', `an issuer not allowing locking refuses: ${result(refused)}`)
const allow = await submit(client, { TransactionType: 'AccountSet', Account: issuer.address, SetFlag: AccountSetAsfFlags.asfAllowTrustLineLocking, TransferRate: 1250000000 }, issuer)
check(result(allow) === 'tesSUCCESS', `asfAllowTrustLineLocking and a 1.25 transfer rate: ${result(allow)}`)
const info = await req(client, { command: 'account_info', account: issuer.address })
check(info.account_flags.allowTrustLineLocking === true, 'account_info shows allowTrustLineLocking')

now = await closeTime()
const created = await submit(client, { ...usdEscrow, FinishAfter: now + LEAD, CancelAfter: now + 600 }, alice)
check(result(created) === 'tesSUCCESS', `alice escrows 100 USD to bob: ${result(created)}`)
const usdSeq = created.result.tx_json.Sequence
check((await lineOf(alice)).balance === '400', 'the 100 USD left alice\'s line')
const held = (await req(client, { command: 'account_objects', account: issuer.address, type: 'escrow' })).account_objects
check(held.length === 1 && held[0].TransferRate === 1250000000 && held[0].Amount.value === '100', `the issuer lists the escrow with its rate: ${JSON.stringify(held)}`)
await waitPast(now + LEAD)
const finished = await submit(client, { TransactionType: 'EscrowFinish', Account: bob.address, Owner: alice.address, OfferSequence: usdSeq }, bob)
check(result(finished) === 'tesSUCCESS', `bob finishes it: ${result(finished)}`)
check((await lineOf(bob)).balance === '80', `bob got 100 less the 1.25 rate: ${(await lineOf(bob)).balance}`)

const mptCreate = await submit(client, { TransactionType: 'MPTokenIssuanceCreate', Account: issuer.address, Flags: MPTokenIssuanceCreateFlags.tfMPTCanEscrow | MPTokenIssuanceCreateFlags.tfMPTCanTransfer }, issuer)
check(result(mptCreate) === 'tesSUCCESS', `an MPT issuance that may be escrowed: ${result(mptCreate)}`)
const mptId = mptCreate.result.meta.mpt_issuance_id
const optIn = await submit(client, { TransactionType: 'MPTokenAuthorize', Account: alice.address, MPTokenIssuanceID: mptId }, alice)
check(result(optIn) === 'tesSUCCESS', `alice holds the MPT: ${result(optIn)}`)
const mint = await submit(client, { TransactionType: 'Payment', Account: issuer.address, Destination: alice.address, Amount: { mpt_issuance_id: mptId, value: '1000' } }, issuer)
check(result(mint) === 'tesSUCCESS', `the issuer sends alice 1000: ${result(mint)}`)
now = await closeTime()
const mptEscrow = await submit(client, { TransactionType: 'EscrowCreate', Account: alice.address, Destination: bob.address, Amount: { mpt_issuance_id: mptId, value: '300' }, FinishAfter: now + LEAD, CancelAfter: now + LEAD + 2 }, alice)
check(result(mptEscrow) === 'tesSUCCESS', `alice escrows 300 of the MPT: ${result(mptEscrow)}`)
const tokenKey = (await req(client, { command: 'account_objects', account: alice.address, type: 'mptoken' })).account_objects[0].index
let token = (await req(client, { command: 'ledger_entry', index: tokenKey })).node
check(token.MPTAmount === '700' && token.LockedAmount === '300', `the MPToken locks 300: ${JSON.stringify(token)}`)
let issuance = (await req(client, { command: 'ledger_entry', mpt_issuance: mptId })).node
check(issuance.LockedAmount === '300' && issuance.OutstandingAmount === '1000', `the issuance locks 300 of 1000: ${JSON.stringify(issuance)}`)
await waitPast(now + LEAD + 2)
const cancelled = await submit(client, { TransactionType: 'EscrowCancel', Account: bob.address, Owner: alice.address, OfferSequence: mptEscrow.result.tx_json.Sequence }, bob)
check(result(cancelled) === 'tesSUCCESS', `the expired MPT escrow is cancelled: ${result(cancelled)}`)
token = (await req(client, { command: 'ledger_entry', index: tokenKey })).node
check(token.MPTAmount === '1000' && token.LockedAmount === undefined, `back to alice: ${JSON.stringify(token)}`)
issuance = (await req(client, { command: 'ledger_entry', mpt_issuance: mptId })).node
check(issuance.LockedAmount === undefined, 'nothing locked on the issuance')

await finish(client)
