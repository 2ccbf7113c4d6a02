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

// A closed-ended XRP vault of `owner` (LendingProtocolV1_1, which ledgerd's default rule
// book enables: a new broker needs one) that subscribes for ten minutes, `drops`
// deposited by `depositor` meanwhile, then one ledger_accept whose close_time passes the
// SubscriptionDate: the vault invests, the phase in which it may get a broker and lend.
// Its RedemptionDate is 30 days on. Returns the vault's ID.
export async function investingVault(client, owner, depositor, drops) {
  const state = (await req(client, { command: 'server_state' })).state
  const now = (await req(client, { command: 'ledger', ledger_index: 'validated' })).ledger.close_time
  const subscription = now + 600
  const created = await submit(client, {
    TransactionType: 'VaultCreate', Account: owner.address, Asset: { currency: 'XRP' },
    Fee: String(state.validated_ledger.reserve_inc),
    VaultKind: 1, SubscriptionDate: subscription, RedemptionDate: subscription + 30 * 86400,
  }, owner)
  check(result(created) === 'tesSUCCESS', `VaultCreate closed-ended: ${result(created)}`)
  const vault = (await req(client, { command: 'account_objects', account: owner.address, type: 'vault' })).account_objects[0]
  check(vault.VaultKind === 1 && vault.LEVersion === 1, `a closed-ended, cash-basis vault: ${JSON.stringify(vault)}`)
  const deposit = { TransactionType: 'VaultDeposit', Account: depositor.address, VaultID: vault.index, Amount: drops }
  const dep = await submit(client, deposit, depositor)
  check(result(dep) === 'tesSUCCESS', `VaultDeposit while it subscribes: ${result(dep)}`)
  await req(client, { command: 'ledger_accept', close_time: subscription + 10 })
  const late = await submit(client, deposit, depositor)
  check(result(late) === 'tecEXPIRED', `VaultDeposit once it invests: ${result(late)}`)
  return vault.index
}
