// What the xrpl.js flows share: numbered checks, a submission that turns a thrown engine
// result into a result, the genesis wallet and its funding, and the summary line
// tests/interop/flows.rs looks for.
import xrpl from 'xrpl'

const { Client, ECDSA, Wallet } = xrpl

let steps = 0

// One numbered step; a false `cond` prints FAIL and exits non-zero.
export function check(cond, what) {
  steps += 1
  if (!cond) {
    console.log(`FAIL: ${what}`)
    process.exit(1)
  }
  console.log(`ok ${steps} - ${what}`)
}

// submitAndWait, with a refusal xrpl.js throws read back as its engine result.
export async function submit(client, tx, wallet) {
  try {
    return await client.submitAndWait(tx, { wallet })
  } catch (e) {
    const m = String(e && e.message ? e.message : e)
    const code = m.match(/te[cfmlr][A-Z_]+/)
    return { result: { meta: { TransactionResult: code ? code[0] : m } } }
  }
}
export const result = (r) => r.result.meta.TransactionResult
export const req = async (client, r) => (await client.request(r)).result

export const genesis = Wallet.fromSeed('snoPBrXtMeMyMHUVTgbuqAfg1SUTb', { algorithm: ECDSA.secp256k1 })

export async function connect(url) {
  const client = new Client(url, { connectionTimeout: 10000 })
  await client.connect()
  return client
}

// The summary line the Rust side requires, after the last step.
export async function finish(client) {
  await client.disconnect()
  console.log(`${steps} passed, 0 failed`)
}

// Genesis pays `drops` to each wallet, one validated payment (and one step) each.
export async function fund(client, wallets, drops = '1000000000') {
  for (const w of wallets) {
    const r = await submit(client, { TransactionType: 'Payment', Account: genesis.address, Destination: w.address, Amount: drops }, genesis)
    check(result(r) === 'tesSUCCESS', `genesis funds ${w.address}`)
  }
}
