// Time travel and snapshots through xrpl.js, unmodified: a 30-day escrow finished after one
// ledger_accept with close_time past its FinishAfter (an ISO 8601 close_time), and
// ledger_snapshot / ledger_revert through the library's generic request restoring the
// exact ledger hash. The server closes only on ledger_accept.
// Usage: node time_travel.mjs WS_URL
import xrpl from 'xrpl'

const { Client, ECDSA, Wallet, rippleTimeToISOTime } = xrpl
const client = new Client(process.argv[2], { connectionTimeout: 10000 })
await client.connect()
const genesis = Wallet.fromSeed('snoPBrXtMeMyMHUVTgbuqAfg1SUTb', { algorithm: ECDSA.secp256k1 })
let steps = 0
function check (cond, what) {
  steps += 1
  if (!cond) {
    console.log(`FAIL: ${what}`)
    process.exit(1)
  }
  console.log(`ok ${steps} - ${what}`)
}

const accept = (params = {}) => client.request({ command: 'ledger_accept', ...params })
const closed = async () => (await client.request({ command: 'ledger', ledger_index: 'closed' })).result

// Submit, close, and read the validated result.
async function submitAccept (tx, wallet) {
  const r = await client.submit(tx, { wallet })
  await accept()
  const t = await client.request({ command: 'tx', transaction: r.result.tx_json.hash })
  check(t.result.validated === true, `${tx.TransactionType} validated`)
  return { result: t.result.meta.TransactionResult, tx: t.result }
}

const dest = Wallet.generate()
let r = await submitAccept({ TransactionType: 'Payment', Account: genesis.address, Destination: dest.address, Amount: '50000000' }, genesis)
check(r.result === 'tesSUCCESS', 'genesis funds the destination')

const now = (await closed()).ledger.close_time
const finishAfter = now + 30 * 86400
r = await submitAccept({ TransactionType: 'EscrowCreate', Account: genesis.address, Destination: dest.address, Amount: '10000000', FinishAfter: finishAfter }, genesis)
check(r.result === 'tesSUCCESS', 'a 30-day escrow is created')
const escrowSeq = r.tx.Sequence ?? r.tx.tx_json?.Sequence
const finish = { TransactionType: 'EscrowFinish', Account: dest.address, Owner: genesis.address, OfferSequence: escrowSeq }
r = await submitAccept(finish, dest)
check(r.result === 'tecNO_PERMISSION', `finishing it today is refused (${r.result})`)

const snap = await client.request({ command: 'ledger_snapshot' })
const before = await closed()
check(Number.isInteger(snap.result.snapshot) && snap.result.ledger_hash === before.ledger_hash, `ledger_snapshot ${snap.result.snapshot} at ledger ${before.ledger_index}`)

const jump = rippleTimeToISOTime(finishAfter + 60)
const a = await accept({ close_time: jump })
check(a.result.ledger_current_index === before.ledger_index + 2, `ledger_accept with close_time ${jump}`)
const after = (await closed()).ledger
check(after.close_time >= finishAfter, `the closed ledger's close time ${after.close_time} is past FinishAfter ${finishAfter}`)
const balance = async () => Number(await client.getXrpBalance(dest.address))
const held = await balance()
r = await submitAccept(finish, dest)
check(r.result === 'tesSUCCESS', 'EscrowFinish succeeds after the jump')
check(await balance() > held + 9.9, 'the destination got the escrowed XRP')
const finishHash = r.tx.hash

const rev = await client.request({ command: 'ledger_revert', snapshot: snap.result.snapshot })
check(rev.result.ledger_hash === before.ledger_hash, 'ledger_revert answers the snapshot ledger')
const back = await closed()
check(back.ledger_hash === before.ledger_hash && back.ledger_index === before.ledger_index, 'the closed ledger hash is exactly the snapshot one')
const objects = await client.request({ command: 'account_objects', account: genesis.address, type: 'escrow' })
check(objects.result.account_objects.filter(o => o.Destination === dest.address).length === 1, 'the escrow is back')
let gone = ''
try {
  await client.request({ command: 'tx', transaction: finishHash })
} catch (e) {
  gone = e.data?.error ?? String(e)
}
check(gone === 'txnNotFound', `the undone EscrowFinish is not found (${gone})`)
let again = ''
try {
  await client.request({ command: 'ledger_revert', snapshot: snap.result.snapshot })
} catch (e) {
  again = e.data?.error ?? String(e)
}
check(again === 'snapshotNotFound', `a snapshot reverts once (${again})`)

console.log(`${steps} passed, 0 failed`)
await client.disconnect()
process.exit(0)
