// Drive a running ledgerd with xrpl.js, unmodified, over WebSocket through the credential
// flow of xrpl.js's own integration tests (credentialCreate, credentialAccept,
// credentialDelete, depositPreauth, depositAuthorized, ledgerEntry): an issuer creates a
// credential, the subject accepts it, a destination requiring deposit authorization
// preauthorizes that credential, and the subject pays it presenting the credential.
// Usage: node credential_flow.mjs ws://127.0.0.1:PORT. Exits non-zero (naming the failing
// step) on any mismatch.
import xrpl from 'xrpl'
import { check, connect, finish, fund, genesis, req, result, submit } from './flow_lib.mjs'

const { ECDSA, Wallet } = xrpl

const url = process.argv[2]
const client = await connect(url)
const issuer = Wallet.generate(ECDSA.secp256k1)
const subject = Wallet.generate(ECDSA.ed25519)
const shop = Wallet.generate(ECDSA.secp256k1)
await fund(client, [issuer, subject, shop])
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

await finish(client)
