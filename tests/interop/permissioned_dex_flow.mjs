// Drive a running ledgerd with xrpl.js, unmodified, over WebSocket through the permissioned
// DEX as xrpl.js's integration tests use it (permissionedDEX): a gateway's domain admits
// holders of its credential; a member places a hybrid offer in the domain (it sits in the
// domain's book and in the open book), another member takes part of it with a domain
// payment and crosses the rest with a domain offer; an outsider is refused; book_offers and
// subscribe accept `domain`. Usage: node permissioned_dex_flow.mjs ws://127.0.0.1:PORT.
// Exits non-zero (naming the failing step) on any mismatch.
import xrpl from 'xrpl'
import { check, connect, finish, fund, req, result, submit } from './flow_lib.mjs'

const { ECDSA, Wallet } = xrpl

const url = process.argv[2]
const client = await connect(url)
const gw = Wallet.generate(ECDSA.secp256k1)
const maker = Wallet.generate(ECDSA.ed25519)
const taker = Wallet.generate(ECDSA.secp256k1)
const outsider = Wallet.generate(ECDSA.ed25519)
await fund(client, [gw, maker, taker, outsider])
const member = xrpl.convertStringToHex('Member')
const ok = async (tx, w, what) => {
  const r = await submit(client, tx, w)
  check(result(r) === 'tesSUCCESS', `${what}: ${result(r)}`)
  return r
}

await ok({ TransactionType: 'AccountSet', Account: gw.address, SetFlag: xrpl.AccountSetAsfFlags.asfDefaultRipple }, gw, 'the gateway ripples')
await ok({ TransactionType: 'PermissionedDomainSet', Account: gw.address, AcceptedCredentials: [{ Credential: { Issuer: gw.address, CredentialType: member } }] }, gw, 'PermissionedDomainSet')
const domainID = (await req(client, { command: 'account_objects', account: gw.address, type: 'permissioned_domain' })).account_objects[0].index
for (const w of [maker, taker]) {
  await ok({ TransactionType: 'CredentialCreate', Account: gw.address, Subject: w.address, CredentialType: member }, gw, 'the gateway issues a credential')
  await ok({ TransactionType: 'CredentialAccept', Account: w.address, Issuer: gw.address, CredentialType: member }, w, 'the member accepts it')
}
const usd = (value) => ({ currency: 'USD', issuer: gw.address, value })
for (const w of [maker, taker, outsider]) {
  await ok({ TransactionType: 'TrustSet', Account: w.address, LimitAmount: usd('1000') }, w, 'a USD trust line')
  await ok({ TransactionType: 'Payment', Account: gw.address, Destination: w.address, Amount: usd('100') }, gw, 'the gateway issues 100 USD')
}

// The maker sells 20 USD for 20 XRP in the domain, hybrid.
const placed = await ok({ TransactionType: 'OfferCreate', Account: maker.address, TakerPays: '20000000', TakerGets: usd('20'), DomainID: domainID, Flags: xrpl.OfferCreateFlags.tfHybrid }, maker, 'a hybrid domain offer')
const offerSeq = placed.result.tx_json.Sequence
let offer = (await req(client, { command: 'ledger_entry', offer: { account: maker.address, seq: offerSeq } })).node
check(offer.DomainID === domainID && offer.Flags === 0x40000, 'the offer names its domain and is hybrid (lsfHybrid)')
check(offer.AdditionalBooks.length === 1 && offer.AdditionalBooks[0].Book.BookDirectory !== offer.BookDirectory, 'AdditionalBooks names the open book')
const page = (await req(client, { command: 'ledger_entry', directory: offer.BookDirectory })).node
check(page.DomainID === domainID && page.Indexes.includes(offer.index), 'the domain book page lists it and names the domain')
const book = { taker_pays: { currency: 'XRP' }, taker_gets: { currency: 'USD', issuer: gw.address } }
let offers = (await req(client, { command: 'book_offers', ...book, domain: domainID })).offers
check(offers.length === 1 && offers[0].DomainID === domainID, 'book_offers of the domain lists it')
offers = (await req(client, { command: 'book_offers', ...book })).offers
check(offers.length === 1 && offers[0].index === offer.index, 'the open book lists the hybrid offer too')
const sub = await client.request({ command: 'subscribe', books: [{ ...book, domain: domainID }] })
check(sub.type === 'response' && Object.keys(sub.result).length === 0, 'subscribe accepts a domain book')

const refused = await submit(client, { TransactionType: 'OfferCreate', Account: outsider.address, TakerPays: '1000000', TakerGets: usd('1'), DomainID: domainID }, outsider)
check(result(refused) === 'tecNO_PERMISSION', `an outsider's domain offer: ${result(refused)}`)

// The taker buys 5 USD in the domain with a payment to itself through the book.
await ok({ TransactionType: 'Payment', Account: taker.address, Destination: taker.address, Amount: usd('5'), SendMax: '5000000', DomainID: domainID, Paths: [[{ currency: 'USD', issuer: gw.address }]] }, taker, 'a domain payment through the book')
offer = (await req(client, { command: 'ledger_entry', offer: { account: maker.address, seq: offerSeq } })).node
check(offer.TakerGets.value === '15' && offer.TakerPays === '15000000', 'the offer has 15 USD left')
// Then crosses the rest with a domain offer.
await ok({ TransactionType: 'OfferCreate', Account: taker.address, TakerPays: usd('15'), TakerGets: '15000000', DomainID: domainID }, taker, 'a crossing domain offer')
for (const w of [maker, taker]) {
  const objs = (await req(client, { command: 'account_objects', account: w.address, type: 'offer' })).account_objects
  check(objs.length === 0, 'both offers are consumed')
}
const lines = (await req(client, { command: 'account_lines', account: taker.address })).lines
check(lines[0].balance === '120', `the taker holds 120 USD: ${lines[0].balance}`)

await finish(client)
