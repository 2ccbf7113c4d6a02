// Drive a running ledgerd with xrpl.js, unmodified, over WebSocket through DynamicMPT
// (XLS-94) as xrpl.js's mptokenIssuanceCreate / mptokenIssuanceSet tests use it: an
// issuance made with ImmutableFlags, capabilities enabled one way by tfMPTSet* flags,
// MPTokenMetadata and TransferFee replaced and removed, ImmutableFlags added by
// MPTokenIssuanceSet, and what they forbid refused with tecNO_PERMISSION. Every ledger
// object is read back with account_objects and parsed with xrpl.js's own flag helpers.
// Usage: node dynamic_mpt_flow.mjs ws://127.0.0.1:PORT. Exits non-zero (naming the failing
// step) on any mismatch.
import xrpl from 'xrpl'
import { check, connect, finish, fund, genesis, req, result, submit } from './flow_lib.mjs'

const { Client, ECDSA, Wallet, MPTokenIssuanceSetFlags, MPTokenIssuanceCreateImmutableFlags } = xrpl

const url = process.argv[2]
const client = await connect(url)
const issuer = Wallet.generate(ECDSA.ed25519)
const r0 = await submit(client, { TransactionType: 'Payment', Account: genesis.address, Destination: issuer.address, Amount: '1000000000' }, genesis)
check(result(r0) === 'tesSUCCESS', 'genesis funds the issuer')

async function issue(fields) {
  const r = await submit(client, { TransactionType: 'MPTokenIssuanceCreate', Account: issuer.address, ...fields }, issuer)
  check(result(r) === 'tesSUCCESS', `MPTokenIssuanceCreate ${JSON.stringify(fields)}: ${result(r)}`)
  const tx = await client.request({ command: 'tx', transaction: r.result.hash })
  return tx.result.meta.mpt_issuance_id
}
async function read(id) {
  const objs = (await client.request({ command: 'account_objects', account: issuer.address, type: 'mpt_issuance' })).result.account_objects
  return objs.find((o) => o.mpt_issuance_id === id)
}
const mset = (id, fields) => submit(client, { TransactionType: 'MPTokenIssuanceSet', Account: issuer.address, MPTokenIssuanceID: id, ...fields }, issuer)
const flagsOf = (o) => xrpl.parseMPTokenIssuanceFlags(o.Flags)
const lsifOf = (o) => xrpl.parseMPTokenIssuanceImmutableFlags(o.ImmutableFlags)

// Created with ImmutableFlags: tifMPTCanLock | tifMPTMetadata.
const id = await issue({
  AssetScale: 2,
  MPTokenMetadata: xrpl.convertStringToHex('v1'),
  ImmutableFlags: MPTokenIssuanceCreateImmutableFlags.tifMPTCanLock | MPTokenIssuanceCreateImmutableFlags.tifMPTMetadata,
})
let iss = await read(id)
check(iss.ImmutableFlags === 0x10002, `ImmutableFlags on the issuance: ${iss.ImmutableFlags}`)
check(lsifOf(iss).lsifMPTCanLock && lsifOf(iss).lsifMPTMetadata && !lsifOf(iss).lsifMPTTransferFee, 'xrpl.js parses the lsif bits')
check(result(await mset(id, { Flags: MPTokenIssuanceSetFlags.tfMPTSetCanLock })) === 'tecNO_PERMISSION', 'an immutable capability cannot be enabled')
check(result(await mset(id, { MPTokenMetadata: xrpl.convertStringToHex('v2') })) === 'tecNO_PERMISSION', 'immutable metadata cannot change')

// Capabilities enabled one way; a fee together with tfMPTSetCanTransfer.
const enable = MPTokenIssuanceSetFlags.tfMPTSetCanEscrow | MPTokenIssuanceSetFlags.tfMPTSetCanTransfer | MPTokenIssuanceSetFlags.tfMPTSetCanClawback
check(result(await mset(id, { Flags: enable, TransferFee: 250 })) === 'tesSUCCESS', 'capabilities and a fee in one transaction')
iss = await read(id)
const f = flagsOf(iss)
check(f.lsfMPTCanEscrow && f.lsfMPTCanTransfer && f.lsfMPTCanClawback && !f.lsfMPTCanLock, `flags now ${iss.Flags}`)
check(iss.TransferFee === 250, `TransferFee ${iss.TransferFee}`)
check(result(await mset(id, { Flags: MPTokenIssuanceSetFlags.tfMPTSetCanEscrow })) === 'tesSUCCESS', 're-enabling is a no-op')

// Malformed ones, signed by the server (the library would refuse them itself).
const raw = async (fields) => (await client.request({
  command: 'submit',
  secret: issuer.seed,
  tx_json: { TransactionType: 'MPTokenIssuanceSet', Account: issuer.address, MPTokenIssuanceID: id, ...fields },
})).result.engine_result
check(await raw({ Flags: MPTokenIssuanceSetFlags.tfMPTLock | MPTokenIssuanceSetFlags.tfMPTSetCanTrade }) === 'temMALFORMED', 'a lock with a mutation')
check(await raw({ Flags: 0 }) === 'temMALFORMED', 'nothing to change')
check(await raw({ ImmutableFlags: 1 }) === 'temINVALID_FLAG', 'an undefined ImmutableFlags bit')

// TransferFee removed, then frozen; ImmutableFlags accumulate.
check(result(await mset(id, { TransferFee: 0 })) === 'tesSUCCESS', 'a zero TransferFee')
iss = await read(id)
check(!('TransferFee' in iss), 'removes the field')
check(result(await mset(id, { TransferFee: 100, ImmutableFlags: MPTokenIssuanceCreateImmutableFlags.tifMPTTransferFee })) === 'tesSUCCESS', 'fee set and frozen together')
check(result(await mset(id, { TransferFee: 200 })) === 'tecNO_PERMISSION', 'a frozen fee cannot change')
iss = await read(id)
check(iss.TransferFee === 100 && iss.ImmutableFlags === 0x30002, `fee ${iss.TransferFee}, ImmutableFlags ${iss.ImmutableFlags}`)

// Metadata of a plain issuance: replaced, then removed.
const plain = await issue({ MPTokenMetadata: xrpl.convertStringToHex('first') })
check(result(await mset(plain, { MPTokenMetadata: xrpl.convertStringToHex('second') })) === 'tesSUCCESS', 'metadata replaced')
iss = await read(plain)
check(iss.MPTokenMetadata === xrpl.convertStringToHex('second').toUpperCase(), `metadata ${iss.MPTokenMetadata}`)
check(!('ImmutableFlags' in iss), 'no ImmutableFlags when none were set')
check(result(await mset(plain, { MPTokenMetadata: '' })) === 'tesSUCCESS', 'empty metadata')
iss = await read(plain)
check(!('MPTokenMetadata' in iss), 'removes the field')

const feat = (await client.request({ command: 'feature', feature: 'DynamicMPT' })).result
const entry = Object.values(feat)[0]
check(entry && entry.enabled === true, 'feature DynamicMPT is enabled')

await finish(client)
