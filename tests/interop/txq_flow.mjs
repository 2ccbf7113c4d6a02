// The transaction queue through xrpl.js, unmodified, over WebSocket, on a server that
// closes only on ledger_accept and whose [transaction_queue] expects 3 transactions per
// ledger (minimum, target and maximum all 3: the expected size never grows), so the open
// ledger escalates after 4 transactions. Usage: node txq_flow.mjs WS_URL autofill|queue
//   autofill: once the open ledger is past its expected size, autofill's Fee (server_info's
//     load_factor x base fee x 1.2) pays the escalated cost and submitAndWait finishes.
//   queue: a burst of base-fee payments from one account over submit: ten terQUEUED
//     (maximum_txn_per_account), the eleventh telCAN_NOT_QUEUE_FULL; a replacement of a
//     queued one at 12 drops is telCAN_NOT_QUEUE_FEE, at 13 (over 125% of 10) queued in
//     its place; ledger_accept drains them, in Sequence order, into validated ledgers, and
//     the eleventh, kept as a local transaction (as xrpld keeps what it was submitted),
//     is retried after each drain and applies once the queue has room; the payment the
//     replacement took the place of never applies.
import xrpl from 'xrpl'
import { check, connect, finish, genesis, req } from './flow_lib.mjs'

const { Wallet } = xrpl
const [url, part] = [process.argv[2], process.argv[3]]
const client = await connect(url)
const BASE_FEE = 10

const submitBlob = (blob) => req(client, { command: 'submit', tx_blob: blob })
const accept = () => req(client, { command: 'ledger_accept' })
const payment = (from, fee) => ({
  TransactionType: 'Payment', Account: from.address, Destination: genesis.address, Amount: '1000000',
  ...(fee === undefined ? {} : { Fee: String(fee) }),
})

// Genesis funds each wallet at the base fee (the open ledger is below its expected size),
// then one close: the next open ledger starts empty, and the escalation multiplier (the
// closed ledger's median fee level, at least 500 x the base level) stays at its least.
async function fund(wallets) {
  for (const w of wallets) {
    const tx = await client.autofill({ ...payment(genesis), Destination: w.address, Amount: '100000000000', Fee: String(BASE_FEE) })
    const r = await submitBlob(genesis.sign(tx).tx_blob)
    check(r.engine_result === 'tesSUCCESS', `genesis funds ${w.address}: ${r.engine_result}`)
  }
  await accept()
}

// Base-fee payments of `filler` into the empty open ledger until one is queued; how many
// it took and the reply of the queued one.
async function escalate(filler) {
  const tx = await client.autofill(payment(filler, BASE_FEE))
  for (let k = 0; k < 10; k += 1) {
    const r = await submitBlob(filler.sign({ ...tx, Sequence: tx.Sequence + k }).tx_blob)
    if (r.engine_result === 'terQUEUED') return { tries: k + 1, reply: r }
    check(r.engine_result === 'tesSUCCESS' && r.applied === true, `filler payment ${k + 1} applies: ${r.engine_result}`)
  }
  check(false, 'ten base-fee payments and none queued: the open ledger never escalated')
}

async function escalated(filler) {
  const { tries, reply } = await escalate(filler)
  const cost = Number(reply.open_ledger_cost)
  check(tries === 5 && reply.queued === true && reply.applied === false && cost > BASE_FEE,
    `4 base-fee payments fill the open ledger (3 expected), the 5th is queued: open_ledger_cost ${cost} drops`)
  return cost
}

async function autofillPart() {
  const [filler, alice] = [Wallet.generate(), Wallet.generate()]
  await fund([filler, alice])
  const cost = await escalated(filler)
  const info = (await req(client, { command: 'server_info' })).info
  const tx = await client.autofill(payment(alice))
  check(Number(tx.Fee) >= cost,
    `autofill (server_info load_factor ${info.load_factor}, base_fee_xrp ${info.validated_ledger?.base_fee_xrp}) pays the escalated fee: Fee ${tx.Fee} >= open_ledger_cost ${cost}`)
  const closer = setInterval(() => { accept().catch(() => {}) }, 1000)
  try {
    const r = await client.submitAndWait(tx, { wallet: alice })
    check(r.result.validated === true && r.result.meta.TransactionResult === 'tesSUCCESS',
      `submitAndWait finishes: ${r.result.meta.TransactionResult} in validated ledger ${r.result.ledger_index}`)
  } finally {
    clearInterval(closer)
  }
}

// `tx` of a hash no ledger holds: txnNotFound.
async function notFound(hash) {
  try {
    await client.request({ command: 'tx', transaction: hash })
    return false
  } catch (e) {
    return e?.data?.error === 'txnNotFound'
  }
}

async function queuePart() {
  const [filler, bob] = [Wallet.generate(), Wallet.generate()]
  await fund([filler, bob])
  await escalated(filler)
  const base = await client.autofill(payment(bob, BASE_FEE))
  const s = base.Sequence
  const signed = (k, fee = BASE_FEE) => bob.sign({ ...base, Sequence: s + k, Fee: String(fee) })
  const replies = []
  for (let k = 0; k <= 10; k += 1) replies.push(await submitBlob(signed(k).tx_blob))
  const queued = replies.slice(0, 10)
  check(queued.every((r) => r.engine_result === 'terQUEUED' && r.queued === true && r.applied === false),
    `ten base-fee payments of one account queued (terQUEUED, queued true, applied false): ${queued.map((r) => r.engine_result)}`)
  check(replies[9].account_sequence_available === s + 10 && replies[9].account_sequence_next === s,
    `after ten queued: account_sequence_next ${replies[9].account_sequence_next}, account_sequence_available ${replies[9].account_sequence_available}`)
  const full = replies[10]
  check(full.engine_result === 'telCAN_NOT_QUEUE_FULL' && full.queued === false && full.applied === false && full.kept === true,
    `the eleventh: ${full.engine_result}, queued ${full.queued}, applied ${full.applied}, kept ${full.kept}`)

  const low = await submitBlob(signed(4, 12).tx_blob)
  check(low.engine_result === 'telCAN_NOT_QUEUE_FEE' && low.queued === false && low.applied === false,
    `replacing Sequence ${s + 4} at 12 drops (under 125% of 10): ${low.engine_result}`)
  const replacement = signed(4, 13)
  const high = await submitBlob(replacement.tx_blob)
  check(high.engine_result === 'terQUEUED' && high.queued === true && high.applied === false,
    `replacing it at 13 drops: ${high.engine_result}, queued ${high.queued}`)

  let closes = 0
  let sequence = s
  while (sequence < s + 11 && closes < 10) {
    await accept()
    closes += 1
    sequence = (await req(client, { command: 'account_info', account: bob.address, ledger_index: 'validated' })).account_data.Sequence
  }
  check(sequence === s + 11, `${closes} ledger_accepts drain bob's ten queued payments and the kept eleventh: Sequence ${sequence}`)
  let previous = [0, -1]
  for (let k = 0; k <= 10; k += 1) {
    const want = k === 4 ? replacement : signed(k)
    const t = (await req(client, { command: 'tx', transaction: want.hash }))
    const at = [t.ledger_index, t.meta.TransactionIndex]
    const inOrder = at[0] > previous[0] || (at[0] === previous[0] && at[1] > previous[1])
    check(t.validated === true && t.meta.TransactionResult === 'tesSUCCESS' && t.tx_json.Sequence === s + k && t.tx_json.Fee === String(k === 4 ? 13 : BASE_FEE) && inOrder,
      `Sequence ${s + k} (Fee ${t.tx_json.Fee}) validated in ledger ${at[0]} at index ${at[1]}, after the one before`)
    previous = at
  }
  check(await notFound(signed(4).hash), `the payment the replacement took the place of is in no ledger`)
  check(await notFound(signed(4, 12).hash), `nor the refused 12-drop replacement`)
}

if (part === 'autofill') await autofillPart()
else if (part === 'queue') await queuePart()
else check(false, `unknown part ${part}`)
await finish(client)
process.exit(0)
