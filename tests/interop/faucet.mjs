// xrpl.js `client.fundWallet` against ledgerd's faucet, unmodified: with a wallet, with
// an amount, without a wallet, and over the faucet's bound; then a funded wallet signs.
// Usage: node faucet.mjs WS_URL FAUCET_HOST:PORT
import xrpl from 'xrpl'

const { Client, Wallet } = xrpl
const [url, faucetHost] = [process.argv[2], process.argv[3]]
const options = { faucetHost, faucetProtocol: 'http' }
const client = new Client(url, { connectionTimeout: 10000 })
await client.connect()
let passed = 0
let failed = 0
function check(ok, what) {
  if (ok) {
    passed += 1
    console.log(`ok ${passed + failed} - ${what}`)
  } else {
    failed += 1
    console.log(`not ok ${passed + failed} - ${what}`)
  }
}

const mine = Wallet.generate()
const first = await client.fundWallet(mine, options)
check(first.wallet.classicAddress === mine.classicAddress && first.balance === 1000,
  `fundWallet(wallet) funded ${mine.classicAddress} with 1000 XRP (balance ${first.balance})`)
const more = await client.fundWallet(mine, { ...options, amount: '50' })
check(more.balance === 1050, `fundWallet(wallet, { amount: '50' }) brought it to 1050 XRP (${more.balance})`)
check(Number(await client.getXrpBalance(mine.classicAddress)) === 1050, 'getXrpBalance agrees')

const fresh = await client.fundWallet(null, options)
check(fresh.balance === 1000 && fresh.wallet.classicAddress !== mine.classicAddress,
  `fundWallet() made and funded ${fresh.wallet.classicAddress} (balance ${fresh.balance})`)
const pay = await client.submitAndWait(
  { TransactionType: 'Payment', Account: fresh.wallet.classicAddress, Destination: mine.classicAddress, Amount: '1000000' },
  { wallet: fresh.wallet, autofill: true })
check(pay.result.meta.TransactionResult === 'tesSUCCESS', 'the new wallet signs a payment that validates')

let refused = ''
try {
  await client.fundWallet(Wallet.generate(), { ...options, amount: '1000000' })
} catch (e) {
  refused = `${e.name}: ${e.message}`
}
check(refused.includes('XRPLFaucetError') && refused.includes('amountTooLarge'),
  `an amount over the bound is refused (${refused.slice(0, 120)})`)

console.log(`${passed} passed, ${failed} failed`)
await client.disconnect()
process.exit(failed === 0 ? 0 : 1)
