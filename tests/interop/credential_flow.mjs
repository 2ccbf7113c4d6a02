// Drive a running ledgerd with xrpl.js, unmodified, over WebSocket through the credential
// flow of xrpl.js's own integration tests (credentialCreate, credentialAccept,
// credentialDelete, depositPreauth, depositAuthorized, ledgerEntry): an issuer creates a
// credential, the subject accepts it, a destination requiring deposit authorization
// preauthorizes that credential, and the subject pays it presenting the credential.
// Usage: node credential_flow.mjs ws://127.0.0.1:PORT. Exits non-zero (naming the failing
// step) on any mismatch.
import xrpl from 'xrpl'

const { Client, ECDSA, Wallet } = xrpl

let steps = 0
function check(cond, what) {
  steps += 1
  if (!cond) {
    console.log(`FAIL: ${what}`)
    process.exit(1)
  }
  console.log(`ok ${steps} - ${what}`)
}

async function submit(client, tx, wallet) {
  try {
    return await client.submitAndWait(tx, { wallet })
  } catch (e) {
    const m = String(e && e.message ? e.message : e)
    const code = m.match(/te[cfmlr][A-Z_]+/)
    return { result: { meta: { TransactionResult: code ? code[0] : m } } }
  }
}
const result = (r) => r.result.meta.TransactionResult
const req = async (client, r) => (await client.request(r)).result

const url = process.argv[2]
const client = new Client(url, { connectionTimeout: 10000 })
await client.connect()
const genesis = Wallet.fromSeed('snoPBrXtMeMyMHUVTgbuqAfg1SUTb', { algorithm: ECDSA.secp256k1 })
const issuer = Wallet.generate(ECDSA.secp256k1)
const subject = Wallet.generate(ECDSA.ed25519)
const shop = Wallet.generate(ECDSA.secp256k1)
for (const w of [issuer, subject, shop]) {
  const r = await submit(client, { TransactionType: 'Payment', Account: genesis.address, Destination: w.address, Amount: '1000000000' }, genesis)
  check(result(r) === 'tesSUCCESS', `genesis funds ${w.address}`)
}
const kyc = xrpl.convertStringToHex('KYC')

const created = await submit(client, { TransactionType: 'CredentialCreate', Account: issuer.address, Subject: subject.address, CredentialType: kyc, URI: xrpl.convertStringToHex('https://kyc.example') }, issuer)
check(result(created) === 'tesSUCCESS', `CredentialCreate: ${result(created)}`)
let objs = (await req(client, { command: 'account_objects', account: subject.address, type: 'credential' })).account_objects
check(objs.length === 1 && objs[0].Issuer === issuer.address && objs[0].CredentialType === kyc, 'account_objects type credential lists it for the subject')
let entry = await req(client, { command: 'ledger_entry', credential: { subject: subject.address, issuer: issuer.address, credential_type: kyc } })
check(entry.node.LedgerEntryType === 'Credential' && !entry.node.Flags, 'ledger_entry credential: not accepted yet')
const credID = entry.index

const accepted = await submit(client, { TransactionType: 'CredentialAccept', Account: subject.address, Issuer: issuer.address, CredentialType: kyc }, subject)
check(result(accepted) === 'tesSUCCESS', `CredentialAccept: ${result(accepted)}`)
entry = await req(client, { command: 'ledger_entry', credential: credID })
check(entry.node.Flags === 0x10000, 'accepted (lsfAccepted)')
const again = await submit(client, { TransactionType: 'CredentialAccept', Account: subject.address, Issuer: issuer.address, CredentialType: kyc }, subject)
check(result(again) === 'tecDUPLICATE', `accepting twice: ${result(again)}`)

check(result(await submit(client, { TransactionType: 'AccountSet', Account: shop.address, SetFlag: xrpl.AccountSetAsfFlags.asfDepositAuth }, shop)) === 'tesSUCCESS', 'the shop requires deposit authorization')
const pre = await submit(client, { TransactionType: 'DepositPreauth', Account: shop.address, AuthorizeCredentials: [{ Credential: { Issuer: issuer.address, CredentialType: kyc } }] }, shop)
check(result(pre) === 'tesSUCCESS', `DepositPreauth by credentials: ${result(pre)}`)
entry = await req(client, { command: 'ledger_entry', deposit_preauth: { owner: shop.address, authorized_credentials: [{ issuer: issuer.address, credential_type: kyc }] } })
check(entry.node.LedgerEntryType === 'DepositPreauth' && entry.node.AuthorizeCredentials[0].Credential.Issuer === issuer.address, 'ledger_entry deposit_preauth by authorized_credentials')

let da = await req(client, { command: 'deposit_authorized', source_account: subject.address, destination_account: shop.address })
check(da.deposit_authorized === false, 'deposit_authorized without credentials: false')
da = await req(client, { command: 'deposit_authorized', source_account: subject.address, destination_account: shop.address, credentials: [credID] })
check(da.deposit_authorized === true, 'deposit_authorized with the credential: true')

const refused = await submit(client, { TransactionType: 'Payment', Account: subject.address, Destination: shop.address, Amount: '1000000' }, subject)
check(result(refused) === 'tecNO_PERMISSION', `a payment without credentials: ${result(refused)}`)
const paid = await submit(client, { TransactionType: 'Payment', Account: subject.address, Destination: shop.address, Amount: '1000000', CredentialIDs: [credID] }, subject)
check(result(paid) === 'tesSUCCESS', `a payment with CredentialIDs: ${result(paid)}`)

const deleted = await submit(client, { TransactionType: 'CredentialDelete', Account: subject.address, Issuer: issuer.address, CredentialType: kyc }, subject)
check(result(deleted) === 'tesSUCCESS', `CredentialDelete by the subject: ${result(deleted)}`)
objs = (await req(client, { command: 'account_objects', account: issuer.address, type: 'credential' })).account_objects
check(objs.length === 0, 'gone from the issuer\'s objects too')

const domain = await submit(client, { TransactionType: 'PermissionedDomainSet', Account: shop.address, AcceptedCredentials: [{ Credential: { Issuer: issuer.address, CredentialType: kyc } }] }, shop)
check(result(domain) === 'tesSUCCESS', `PermissionedDomainSet: ${result(domain)}`)
objs = (await req(client, { command: 'account_objects', account: shop.address, type: 'permissioned_domain' })).account_objects
check(objs.length === 1 && objs[0].Owner === shop.address, 'account_objects type permissioned_domain lists it')
const gone = await submit(client, { TransactionType: 'PermissionedDomainDelete', Account: shop.address, DomainID: objs[0].index }, shop)
check(result(gone) === 'tesSUCCESS', `PermissionedDomainDelete: ${result(gone)}`)

await client.disconnect()
console.log(`${steps} passed, 0 failed`)
