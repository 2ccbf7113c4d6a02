// Drive a running ledgerd with xrpl.js, unmodified, over WebSocket through Sponsor (XLS-68):
// a sponsored account creation (Payment tfSponsorCreatedAccount), a pre-funded
// Sponsorship (SponsorshipSet) read back by ledger_entry and account_objects, and a
// trust line whose fee and reserve the Sponsorship pays; a trust line whose fee the sponsor
// pays co-signing with `signAsSponsor`; the sponsorship of the first line ended by a
// SponsorshipTransfer; `account_objects`' `sponsored` partition.
// Usage: node sponsor_flow.mjs ws://127.0.0.1:PORT. Exits non-zero (naming the failing
// step) on any mismatch.
import xrpl from 'xrpl'
import { check, connect, finish, fund, req, result, submit } from './flow_lib.mjs'

const { ECDSA, Wallet } = xrpl

const root = async (client, a) => (await req(client, { command: 'account_info', account: a })).account_data

const client = await connect(process.argv[2])
const sponsor = Wallet.generate(ECDSA.secp256k1)
const sponsee = Wallet.generate(ECDSA.ed25519)
const gw = Wallet.generate(ECDSA.secp256k1)
await fund(client, [sponsor, sponsee, gw])

// 1. A sponsored account creation: one drop, the sponsor carries the base reserve.
const fresh = Wallet.generate(ECDSA.secp256k1)
const created = await submit(client, { TransactionType: 'Payment', Account: sponsor.address, Destination: fresh.address, Amount: '1', Flags: xrpl.PaymentFlags.tfSponsorCreatedAccount }, sponsor)
check(result(created) === 'tesSUCCESS', `sponsored account creation: ${result(created)}`)
const freshRoot = await root(client, fresh.address)
check(freshRoot.Sponsor === sponsor.address && freshRoot.Balance === '1', 'the new account has Sponsor and one drop')
check((await root(client, sponsor.address)).SponsoringAccountCount === 1, 'SponsoringAccountCount 1')

// 2. A pre-funded sponsorship.
const set = await submit(client, { TransactionType: 'SponsorshipSet', Account: sponsor.address, Sponsee: sponsee.address, FeeAmountDelta: '1000', RemainingOwnerCountDelta: 2 }, sponsor)
check(result(set) === 'tesSUCCESS', `SponsorshipSet: ${result(set)}`)
const entry = await req(client, { command: 'ledger_entry', sponsorship: { sponsor: sponsor.address, sponsee: sponsee.address } })
check(entry.node.LedgerEntryType === 'Sponsorship' && entry.node.FeeAmount === '1000' && entry.node.RemainingOwnerCount === 2, 'ledger_entry sponsorship')
for (const w of [sponsor, sponsee]) {
  const objs = (await req(client, { command: 'account_objects', account: w.address, type: 'sponsorship' })).account_objects
  check(objs.length === 1 && objs[0].index === entry.index, `account_objects type sponsorship of ${w === sponsor ? 'sponsor' : 'sponsee'}`)
}

// 3. A trust line whose fee and reserve the Sponsorship pays (no SponsorSignature).
const before = (await root(client, sponsee.address)).Balance
const line = await submit(client, { TransactionType: 'TrustSet', Account: sponsee.address, LimitAmount: { currency: 'USD', issuer: gw.address, value: '100' }, Sponsor: sponsor.address, SponsorFlags: 3, Fee: '12' }, sponsee)
check(result(line) === 'tesSUCCESS', `pre-funded sponsored TrustSet: ${result(line)}`)
const lineEntry = await req(client, { command: 'ledger_entry', ripple_state: { accounts: [sponsee.address, gw.address], currency: 'USD' } })
check((lineEntry.node.LowSponsor ?? lineEntry.node.HighSponsor) === sponsor.address, 'the line carries the sponsor on the sponsee side')
const sr = await root(client, sponsee.address)
check(sr.SponsoredOwnerCount === 1 && (await root(client, sponsor.address)).SponsoringOwnerCount === 1, 'SponsoredOwnerCount and SponsoringOwnerCount 1')
check(sr.Balance === before, 'the sponsee paid nothing')
const after = (await req(client, { command: 'ledger_entry', index: entry.index })).node
check(after.FeeAmount === '988' && after.RemainingOwnerCount === 1, 'the Sponsorship paid the fee and one owner count')

// 4. Co-signed: carol's TrustSet, the fee paid by the sponsor's signature (no Sponsorship).
const carol = Wallet.generate(ECDSA.secp256k1)
await fund(client, [carol])
const carolBefore = (await root(client, carol.address)).Balance
const sponsorBefore = BigInt((await root(client, sponsor.address)).Balance)
const prepared = await client.autofill({ TransactionType: 'TrustSet', Account: carol.address, LimitAmount: { currency: 'EUR', issuer: gw.address, value: '5' }, Sponsor: sponsor.address, SponsorFlags: 1 })
const byCarol = carol.sign(prepared)
const cosigned = xrpl.signAsSponsor(sponsor, byCarol.tx_blob)
const sent = await client.submitAndWait(cosigned.tx_blob)
check(result(sent) === 'tesSUCCESS', `co-signed sponsored TrustSet: ${result(sent)}`)
check((await root(client, carol.address)).Balance === carolBefore, 'carol paid no fee')
check(sponsorBefore - BigInt((await root(client, sponsor.address)).Balance) === BigInt(prepared.Fee), 'the sponsor paid the fee')

// 5. The sponsee ends the sponsorship of its line: the sponsor field and the counts go.
const ended = await submit(client, { TransactionType: 'SponsorshipTransfer', Account: sponsee.address, ObjectID: lineEntry.index, Flags: 0x00010000 }, sponsee)
check(result(ended) === 'tesSUCCESS', `SponsorshipTransfer end: ${result(ended)}`)
const lineAfter = (await req(client, { command: 'ledger_entry', index: lineEntry.index })).node
check(lineAfter.LowSponsor === undefined && lineAfter.HighSponsor === undefined, 'the line carries no sponsor')
check((await root(client, sponsee.address)).SponsoredOwnerCount === undefined && (await root(client, sponsor.address)).SponsoringOwnerCount === undefined, 'the counts are gone')

// 6. `sponsored` partitions the sponsee's objects: none sponsored now.
const spon = (await req(client, { command: 'account_objects', account: sponsee.address, sponsored: true })).account_objects
const own = (await req(client, { command: 'account_objects', account: sponsee.address, sponsored: false })).account_objects
const all = (await req(client, { command: 'account_objects', account: sponsee.address })).account_objects
check(spon.length === 0 && own.length === all.length && all.length === 2, `sponsored partition: ${spon.length} + ${own.length} of ${all.length}`)

await finish(client)
