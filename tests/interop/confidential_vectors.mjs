// Vectors for ledgerd's confidential-MPT primitives, made by @xrplf/mpt-crypto (the WASM
// build of the C library xrpld links) and xrpl.js's key derivation: random keys, amounts,
// blinding factors, accounts and issuances; their ciphertexts, sums and differences, the four
// context hashes, a key proof (ConfidentialMPTConvert's ZKProof), a clawback proof and a
// ConvertBack proof with its balance commitment, and a Send proof to three or four parties. Prints one JSON array.
// Usage: node confidential_vectors.mjs COUNT
import { randomBytes } from 'node:crypto'
import xrpl from 'xrpl'
import * as mpt from '@xrplf/mpt-crypto'

const hex = (n) => randomBytes(n).toString('hex').toUpperCase()
const u32 = () => randomBytes(4).readUInt32BE(0)
const count = Number(process.argv[2] ?? 8)
const cases = []
for (let i = 0; i < count; i++) {
  const key = xrpl.deriveConfidentialKeypair()
  const [amount, other] = i === 0 ? [0n, 1n] : [BigInt(randomBytes(2).readUInt16BE(0)), BigInt(randomBytes(2).readUInt16BE(0)) + 1n]
  const blinding = await mpt.generateBlindingFactor()
  const blinding2 = await mpt.generateBlindingFactor()
  const ciphertext = await mpt.encryptAmount(amount, key.publicKey, blinding)
  const ciphertext2 = await mpt.encryptAmount(other, key.publicKey, blinding2)
  const [account, destination, issuance, sequence, version] = [hex(20), hex(20), hex(24), u32(), u32()]
  const context = {
    convert: await mpt.getConvertContextHash(account, issuance, sequence),
    convert_back: await mpt.getConvertBackContextHash(account, issuance, sequence, version),
    send: await mpt.getSendContextHash(account, issuance, sequence, destination, version),
    clawback: await mpt.getClawbackContextHash(account, issuance, sequence, destination),
  }
  // A spending balance of amount + other, of which `amount` is converted back.
  const balance = amount + other
  const rho = await mpt.generateBlindingFactor()
  const spending = await mpt.encryptAmount(balance, key.publicKey, blinding2)
  const balanceCommitment = await mpt.getPedersenCommitment(balance, rho)
  const convertBack = await mpt.getConvertBackProof(key.privateKey, key.publicKey, context.convert_back, amount,
    { commitment: balanceCommitment, amount: balance, ciphertext: spending, blindingFactor: rho })
  // A send of `amount` from that balance to a destination, the issuer and (odd cases) an auditor.
  const r = await mpt.generateBlindingFactor()
  const others = Array.from({ length: i % 2 === 0 ? 2 : 3 }, () => xrpl.deriveConfidentialKeypair().publicKey)
  const participants = []
  for (const publicKey of [key.publicKey, ...others]) {
    participants.push({ publicKey, ciphertext: await mpt.encryptAmount(amount, publicKey, r) })
  }
  const amountCommitment = await mpt.getPedersenCommitment(amount, r)
  const send = await mpt.getConfidentialSendProof({
    privateKey: key.privateKey, publicKey: key.publicKey, amount, participants, txBlindingFactor: r,
    contextHash: context.send, amountCommitment,
    balanceParams: { commitment: balanceCommitment, amount: balance, ciphertext: spending, blindingFactor: rho },
  })
  cases.push({
    secret: key.privateKey, key: key.publicKey, amount: Number(amount), other: Number(other),
    blinding, blinding2, ciphertext, ciphertext2,
    sum: await mpt.addCiphertexts(ciphertext, ciphertext2),
    difference: await mpt.subtractCiphertexts(ciphertext, ciphertext2),
    account, destination, issuance, sequence, version, context,
    key_proof: await mpt.getConvertProof(key.publicKey, key.privateKey, context.convert),
    rho, spending, balance_commitment: balanceCommitment, convert_back_proof: convertBack,
    participants, amount_commitment: amountCommitment, send_proof: send,
    clawback_proof: await mpt.getClawbackProof(key.privateKey, key.publicKey, context.clawback, amount, ciphertext),
  })
}
console.log(JSON.stringify(cases))
