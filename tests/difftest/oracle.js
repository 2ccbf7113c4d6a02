// Answers tests/interop/diff_libs.rs's questions with xrpl.js, ripple-binary-codec and
// ripple-keypairs (pinned in package.json).
//
// Reads one JSON request per line on stdin and writes one JSON answer per line on
// stdout, in order. A request is {"op": ..., ...}; an answer is the library's result,
// or {"error": "..."} when the library threw. One process serves the whole batch.
'use strict'

const crypto = require('crypto')
const codec = require('ripple-binary-codec')
const keypairs = require('ripple-keypairs')
const xrpl = require('xrpl')

function seedOf(r) {
  return xrpl.encodeSeed(
    Buffer.from(r.seed_hex, 'hex'),
    r.key_type === 'ed25519' ? 'ed25519' : 'secp256k1',
  )
}

function opKeys(r) {
  const seed = seedOf(r)
  const kp = keypairs.deriveKeypair(seed)
  const decoded = xrpl.decodeSeed(r.our_seed)
  return {
    seed,
    public_key: kp.publicKey,
    address: keypairs.deriveAddress(kp.publicKey),
    signature: keypairs.sign(r.msg_hex, kp.privateKey),
    verifies_ours: keypairs.verify(r.msg_hex, r.our_signature, r.our_public_key),
    decoded_our_seed_hex: Buffer.from(decoded.bytes).toString('hex').toUpperCase(),
    decoded_our_seed_type: decoded.type,
    rfc1751: xrpl.keyToRFC1751Mnemonic(r.seed_hex),
    rfc1751_of_ours: Buffer.from(xrpl.rfc1751MnemonicToKey(r.our_rfc1751))
      .toString('hex')
      .toUpperCase(),
  }
}

function opClaim(r) {
  const wallet = xrpl.Wallet.fromSeed(seedOf(r), {
    algorithm: r.key_type === 'ed25519' ? xrpl.ECDSA.ed25519 : xrpl.ECDSA.secp256k1,
  })
  return {
    message: codec.encodeForSigningClaim({ channel: r.channel, amount: r.amount }),
    signature: xrpl.authorizeChannel(wallet, r.channel, r.amount),
  }
}

function opTx(r) {
  const blob = codec.encode(r.tx)
  const signing = codec.encodeForSigning(r.tx)
  return {
    blob,
    signing_data: signing,
    signing_hash: crypto
      .createHash('sha512')
      .update(Buffer.from(signing, 'hex'))
      .digest('hex')
      .slice(0, 64)
      .toUpperCase(),
    hash: xrpl.hashes.hashSignedTx(blob),
    decoded: codec.decode(blob),
  }
}

const OPS = {
  keys: opKeys,
  claim: opClaim,
  tx: opTx,
  encode: (r) => ({ blob: codec.encode(r.tx) }),
  decode: (r) => ({ decoded: codec.decode(r.hex) }),
  words: (r) => ({
    key: Buffer.from(xrpl.rfc1751MnemonicToKey(r.words)).toString('hex').toUpperCase(),
  }),
}

function main() {
  const chunks = []
  process.stdin.on('data', (c) => chunks.push(c))
  process.stdin.on('end', () => {
    const out = []
    for (const line of Buffer.concat(chunks).toString('utf8').split('\n')) {
      if (!line.trim()) continue
      const req = JSON.parse(line)
      let ans
      try {
        ans = OPS[req.op](req)
      } catch (e) {
        ans = { error: `${e && e.name}: ${e && e.message}` }
      }
      out.push(JSON.stringify(ans))
    }
    process.stdout.write(out.join('\n') + '\n')
  })
}

main()
