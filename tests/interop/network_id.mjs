// On a network id above 1024 xrpl.js must fill NetworkID itself: it does so only for a
// server whose build_version reads as rippled 1.11.0 or later. Usage: node network_id.mjs WS_URL ID
import xrpl from 'xrpl'

const { Client, ECDSA, Wallet } = xrpl
const [url, id] = [process.argv[2], Number(process.argv[3])]
const client = new Client(url, { connectionTimeout: 10000 })
await client.connect()
const genesis = Wallet.fromSeed('snoPBrXtMeMyMHUVTgbuqAfg1SUTb', { algorithm: ECDSA.secp256k1 })
const tx = await client.autofill({ TransactionType: 'Payment', Account: genesis.address, Destination: Wallet.generate().address, Amount: '50000000' })
if (tx.NetworkID !== id) {
  console.log(`FAIL: autofill left NetworkID ${tx.NetworkID} (build_version ${client.buildVersion}, network ${client.networkID})`)
  process.exit(1)
}
const r = await client.submitAndWait(tx, { wallet: genesis })
if (r.result.meta.TransactionResult !== 'tesSUCCESS') {
  console.log(`FAIL: ${r.result.meta.TransactionResult}`)
  process.exit(1)
}
console.log(`ok 1 - xrpl.js autofilled NetworkID ${id} (build_version ${client.buildVersion}) and the payment validated`)
console.log('1 passed, 0 failed')
await client.disconnect()
process.exit(0)
