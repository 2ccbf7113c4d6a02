// xrpl.js against two read nodes (serve --read-only over PostgreSQL): a payment submitted
// through one with submitAndWait is seen on the other's transactions stream, and its
// account_tx there lists it. Usage: node read_node.mjs WS_URL_A WS_URL_B
import xrpl from 'xrpl'

const { Client, ECDSA, Wallet } = xrpl
const [a, b] = [new Client(process.argv[2]), new Client(process.argv[3])]
await a.connect()
await b.connect()
const genesis = Wallet.fromSeed('snoPBrXtMeMyMHUVTgbuqAfg1SUTb', { algorithm: ECDSA.secp256k1 })
const dest = Wallet.generate().address
let passed = 0
function check (ok, what) {
  if (!ok) {
    console.log(`FAIL: ${what}`)
    process.exit(1)
  }
  passed += 1
  console.log(`ok ${passed} - ${what}`)
}
await b.request({ command: 'subscribe', streams: ['transactions'] })
const seen = new Promise((resolve) => {
  b.on('transaction', (m) => { if (m.tx_json?.Destination === dest || m.transaction?.Destination === dest) resolve(m) })
})
const r = await a.submitAndWait({ TransactionType: 'Payment', Account: genesis.address, Destination: dest, Amount: '70000000' }, { wallet: genesis })
check(r.result.meta.TransactionResult === 'tesSUCCESS', 'payment validated through read node A')
const m = await seen
check(m.validated === true, 'read node B streamed it validated')
const txs = await b.request({ command: 'account_tx', account: dest })
check(txs.result.transactions.length === 1, 'account_tx on read node B lists it')
console.log(`${passed} passed, 0 failed`)
await a.disconnect()
await b.disconnect()
process.exit(0)
