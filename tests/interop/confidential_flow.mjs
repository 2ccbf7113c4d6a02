// Drive a running ledgerd with xrpl.js, unmodified, through a confidential MPT lifecycle
// (XLS-96, ConfidentialTransfer), its proofs made by @xrplf/mpt-crypto (the WASM build of
// the C library xrpld links): an issuance with issuer and auditor keys; a holder converts
// 1000, merges, sends 300 to a second holder who merges; both decrypt what they expect and so
// does the auditor; a tampered proof is refused with the ledger unchanged; the first holder
// converts 200 back; the issuer claws back the second holder's balance. At every step the
// public balances plus ConfidentialOutstandingAmount equal OutstandingAmount.
// Usage: node confidential_flow.mjs ws://127.0.0.1:PORT. Exits non-zero naming the failing step.
import xrpl from 'xrpl'
import { decryptAmount } from '@xrplf/mpt-crypto'
import { check, connect, finish, fund, req, result, submit } from './flow_lib.mjs'

const { ECDSA, Wallet } = xrpl
const {
  deriveConfidentialKeypair, getConfidentialBalance, prepareConfidentialClawback,
  prepareConfidentialConvert, prepareConfidentialConvertBack, prepareConfidentialMergeInbox,
  prepareConfidentialSend,
} = xrpl

const client = await connect(process.argv[2])
const issuer = Wallet.generate(ECDSA.secp256k1)
const alice = Wallet.generate(ECDSA.ed25519)
const bob = Wallet.generate(ECDSA.secp256k1)
await fund(client, [issuer, alice, bob])
const [issuerKey, auditorKey, aliceKey, bobKey] = [0, 1, 2, 3].map(() => deriveConfidentialKeypair())

const token = async (w) => (await req(client, { command: 'ledger_entry', mptoken: { mpt_issuance_id: mptID, account: w.address } })).node
const issuance = async () => (await req(client, { command: 'ledger_entry', mpt_issuance: mptID })).node
const ok = async (tx, w, what) => {
  const r = await submit(client, tx, w)
  check(result(r) === 'tesSUCCESS', `${what}: ${result(r)}`)
  return r
}
// Public balances plus the confidential total equal the outstanding amount.
async function conserved(what) {
  const iss = await issuance()
  let pub = 0n
  for (const w of [alice, bob]) pub += BigInt((await token(w)).MPTAmount ?? '0')
  const coa = BigInt(iss.ConfidentialOutstandingAmount ?? '0')
  check(pub + coa === BigInt(iss.OutstandingAmount), `${what}: public ${pub} + confidential ${coa} = outstanding ${iss.OutstandingAmount}`)
  return coa
}

// tfMPTCanLock | tfMPTCanTransfer | tfMPTCanClawback | tfMPTCanHoldConfidentialBalance
const created = await ok({ TransactionType: 'MPTokenIssuanceCreate', Account: issuer.address, Flags: 0x02 | 0x20 | 0x40 | 0x80, MaximumAmount: '9223372036854775807' }, issuer, 'a confidential-capable issuance')
const mptID = (await req(client, { command: 'tx', transaction: created.result.hash })).meta.mpt_issuance_id
await ok({ TransactionType: 'MPTokenIssuanceSet', Account: issuer.address, MPTokenIssuanceID: mptID, IssuerEncryptionKey: issuerKey.publicKey, AuditorEncryptionKey: auditorKey.publicKey }, issuer, 'the issuer registers its key and an auditor\'s')
const iss0 = await issuance()
check(iss0.IssuerEncryptionKey === issuerKey.publicKey && iss0.AuditorEncryptionKey === auditorKey.publicKey, 'ledger_entry shows both keys')
for (const w of [alice, bob]) await ok({ TransactionType: 'MPTokenAuthorize', Account: w.address, MPTokenIssuanceID: mptID }, w, 'a holder opts in')
await ok({ TransactionType: 'Payment', Account: issuer.address, Destination: alice.address, Amount: { mpt_issuance_id: mptID, value: '1000' } }, issuer, 'the issuer pays alice 1000')

// Convert (registering alice's key) and merge.
const convert = await prepareConfidentialConvert(client, { account: alice.address, amount: 1000n, holderKeypair: aliceKey, mptIssuanceID: mptID })
await ok(convert, alice, 'alice converts 1000')
let t = await token(alice)
check(t.HolderEncryptionKey === aliceKey.publicKey && (t.MPTAmount ?? '0') === '0', 'her key is registered and her public balance is spent')
check([t.ConfidentialBalanceInbox, t.ConfidentialBalanceSpending, t.IssuerEncryptedBalance, t.AuditorEncryptedBalance].every((h) => /^[0-9A-F]{132}$/.test(h)), 'inbox, spending, issuer and auditor balances are 66-byte hex ciphertexts')
check(t.ConfidentialBalanceVersion === 0 || t.ConfidentialBalanceVersion === undefined, 'version 0 after the first convert')
check((await conserved('after the convert')) === 1000n, 'ConfidentialOutstandingAmount is 1000')
await ok(await prepareConfidentialMergeInbox(client, { account: alice.address, mptIssuanceID: mptID }), alice, 'alice merges her inbox')
check((await getConfidentialBalance(client, alice.address, mptID, aliceKey.privateKey)) === 1000n, 'alice decrypts 1000 spendable')

// Bob registers his key with a zero convert; alice sends him 300.
await ok(await prepareConfidentialConvert(client, { account: bob.address, amount: 0n, holderKeypair: bobKey, mptIssuanceID: mptID }), bob, 'bob registers his key (convert 0)')
const send = await prepareConfidentialSend(client, { account: alice.address, destination: bob.address, amount: 300n, senderKeypair: aliceKey, mptIssuanceID: mptID })
const tampered = { ...send, ZKProof: send.ZKProof.slice(0, 200) + (send.ZKProof[200] === '0' ? '1' : '0') + send.ZKProof.slice(201) }
const before = await token(alice)
const bad = await submit(client, tampered, alice)
check(result(bad) === 'tecBAD_PROOF', `a send with one proof nibble changed: ${result(bad)}`)
const after = await token(alice)
check(after.ConfidentialBalanceSpending === before.ConfidentialBalanceSpending && after.ConfidentialBalanceVersion === before.ConfidentialBalanceVersion, 'the refused send changed no balance')
const send2 = await prepareConfidentialSend(client, { account: alice.address, destination: bob.address, amount: 300n, senderKeypair: aliceKey, mptIssuanceID: mptID })
await ok(send2, alice, 'alice sends bob 300')
await ok(await prepareConfidentialMergeInbox(client, { account: bob.address, mptIssuanceID: mptID }), bob, 'bob merges his inbox')
check((await getConfidentialBalance(client, alice.address, mptID, aliceKey.privateKey)) === 700n, 'alice decrypts 700')
check((await getConfidentialBalance(client, bob.address, mptID, bobKey.privateKey)) === 300n, 'bob decrypts 300')
check((await decryptAmount((await token(alice)).AuditorEncryptedBalance, auditorKey.privateKey, 1000n)) === 700n, 'the auditor reads alice\'s 700')
check((await decryptAmount((await token(bob)).AuditorEncryptedBalance, auditorKey.privateKey, 1000n)) === 300n, 'the auditor reads bob\'s 300')
check((await decryptAmount((await token(bob)).IssuerEncryptedBalance, issuerKey.privateKey, 1000n)) === 300n, 'the issuer reads bob\'s 300')
check((await conserved('after the send')) === 1000n, 'a send moves no token in or out of the confidential total')

// Convert back 200.
await ok(await prepareConfidentialConvertBack(client, { account: alice.address, amount: 200n, holderKeypair: aliceKey, mptIssuanceID: mptID }), alice, 'alice converts 200 back')
check((await token(alice)).MPTAmount === '200', 'her public balance is 200')
check((await getConfidentialBalance(client, alice.address, mptID, aliceKey.privateKey)) === 500n, 'she decrypts 500 confidential')
check((await conserved('after the convert back')) === 800n, 'the confidential total is 800')

// The issuer claws back bob's confidential balance.
await ok(await prepareConfidentialClawback(client, { account: issuer.address, holder: bob.address, issuerKeypair: issuerKey, mptIssuanceID: mptID }), issuer, 'the issuer claws back bob\'s balance')
check((await getConfidentialBalance(client, bob.address, mptID, bobKey.privateKey)) === 0n, 'bob decrypts 0')
check((await issuance()).OutstandingAmount === '700', 'the outstanding amount fell by 300')
check((await conserved('after the clawback')) === 500n, 'the confidential total is 500')
await finish(client)
