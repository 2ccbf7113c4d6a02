// Drive a running ledgerd with xrpl.js, unmodified, over WebSocket through the DID and price
// oracle flows of xrpl.js's own integration tests (didSet, didDelete, oracleSet, oracleDelete,
// getAggregatePrice): transactions signed by the library, read back with ledger_entry and
// account_objects, priced with get_aggregate_price.
// Usage: node did_oracle_flow.mjs ws://127.0.0.1:PORT. Exits non-zero (naming the failing
// step) on any mismatch.
import xrpl from 'xrpl'
import { check, connect, finish, fund, genesis, req, result, submit } from './flow_lib.mjs'

const { Client, ECDSA, Wallet, convertStringToHex } = xrpl

async function reqError(client, r) {
  try {
    await client.request(r)
    return 'no error'
  } catch (e) {
    return e.data?.error ?? String(e)
  }
}
// Unix seconds of the validated ledger's close, as xrpl.js's tests compute LastUpdateTime.
async function closeUnix(client) {
  const l = (await req(client, { command: 'ledger', ledger_index: 'validated' })).ledger
  return Math.floor(new Date(l.close_time_iso).getTime() / 1000)
}

const url = process.argv[2]
const client = await connect(url)
const owner = Wallet.generate(ECDSA.ed25519)
await fund(client, [owner])

// DIDSet, as didSet.test.ts sends it.
const didSet = await submit(client, {
  TransactionType: 'DIDSet',
  Account: owner.address,
  Data: '617474657374',
  DIDDocument: '646F63',
  URI: '6469645F6578616D706C65',
}, owner)
check(result(didSet) === 'tesSUCCESS', `DIDSet: ${result(didSet)}`)
let objs = (await req(client, { command: 'account_objects', account: owner.address, type: 'did' })).account_objects
check(objs.length === 1 && objs[0].LedgerEntryType === 'DID', 'account_objects type did lists the DID')
check(objs[0].Data === '617474657374' && objs[0].DIDDocument === '646F63' && objs[0].URI === '6469645F6578616D706C65', 'its three fields as sent')
let did = (await req(client, { command: 'ledger_entry', did: owner.address })).node
check(did.Account === owner.address && did.index === objs[0].index, 'ledger_entry did finds the same entry')
// An empty field removes it; emptying the last is tecEMPTY_DID.
check(result(await submit(client, { TransactionType: 'DIDSet', Account: owner.address, Data: '', DIDDocument: '' }, owner)) === 'tesSUCCESS', 'DIDSet with empty Data and DIDDocument')
did = (await req(client, { command: 'ledger_entry', did: owner.address })).node
check(did.Data === undefined && did.DIDDocument === undefined && did.URI === '6469645F6578616D706C65', 'only URI is left')
const empty = await submit(client, { TransactionType: 'DIDSet', Account: owner.address, URI: '' }, owner)
check(result(empty) === 'tecEMPTY_DID', `emptying the last field: ${result(empty)}`)
check(result(await submit(client, { TransactionType: 'DIDDelete', Account: owner.address }, owner)) === 'tesSUCCESS', 'DIDDelete')
check(await reqError(client, { command: 'ledger_entry', did: owner.address }) === 'entryNotFound', 'the DID is gone')
const again = await submit(client, { TransactionType: 'DIDDelete', Account: owner.address }, owner)
check(result(again) === 'tecNO_ENTRY', `deleting it again: ${result(again)}`)

// OracleSet, as oracleSet.test.ts sends it (the largest AssetPrice included).
const t0 = (await closeUnix(client)) + 20
const oracleSet = await submit(client, {
  TransactionType: 'OracleSet',
  Account: owner.address,
  OracleDocumentID: 1234,
  LastUpdateTime: t0,
  PriceDataSeries: [
    { PriceData: { BaseAsset: 'XRP', QuoteAsset: 'USD', AssetPrice: 740, Scale: 3 } },
    { PriceData: { BaseAsset: 'XRP', QuoteAsset: 'INR', AssetPrice: 'ffffffffffffffff', Scale: 3 } },
  ],
  Provider: convertStringToHex('chainlink'),
  URI: '6469645F6578616D706C65',
  AssetClass: convertStringToHex('currency'),
}, owner)
check(result(oracleSet) === 'tesSUCCESS', `OracleSet: ${result(oracleSet)}`)
objs = (await req(client, { command: 'account_objects', account: owner.address, type: 'oracle' })).account_objects
check(objs.length === 1, 'account_objects type oracle lists it')
const oracle = objs[0]
check(oracle.Owner === owner.address && oracle.LastUpdateTime === t0 && oracle.Flags === 0, 'Owner, LastUpdateTime, Flags')
check(oracle.Provider === convertStringToHex('chainlink') && oracle.AssetClass === convertStringToHex('currency'), 'Provider and AssetClass')
check(oracle.PriceDataSeries.length === 2 && oracle.PriceDataSeries[0].PriceData.AssetPrice === '2e4' && oracle.PriceDataSeries[0].PriceData.Scale === 3, 'the first pair as xrpl.js expects it')
check(oracle.PriceDataSeries[1].PriceData.AssetPrice === 'ffffffffffffffff', 'the largest AssetPrice round-trips')
const byKey = (await req(client, { command: 'ledger_entry', oracle: { account: owner.address, oracle_document_id: 1234 } })).node
check(byKey.index === oracle.index, 'ledger_entry oracle finds the same entry')

// get_aggregate_price, as getAggregatePrice.test.ts asks it.
let agg = await req(client, {
  command: 'get_aggregate_price',
  base_asset: 'XRP',
  quote_asset: 'USD',
  trim: 20,
  oracles: [{ account: owner.address, oracle_document_id: 1234 }],
})
check(agg.entire_set.mean === '0.74' && agg.entire_set.size === 1 && agg.entire_set.standard_deviation === '0', `entire_set ${JSON.stringify(agg.entire_set)}`)
check(agg.trimmed_set.mean === '0.74' && agg.trimmed_set.size === 1, 'trimmed_set')
check(agg.median === '0.74' && agg.time === t0, `median ${agg.median}, time ${agg.time}`)

// An update reprices USD and leaves INR without a price; the old INR price is still found.
const t1 = Math.max(t0 + 1, (await closeUnix(client)) + 20)
const update = await submit(client, {
  TransactionType: 'OracleSet',
  Account: owner.address,
  OracleDocumentID: 1234,
  LastUpdateTime: t1,
  PriceDataSeries: [{ PriceData: { BaseAsset: 'XRP', QuoteAsset: 'USD', AssetPrice: 750, Scale: 3 } }],
}, owner)
check(result(update) === 'tesSUCCESS', `OracleSet update: ${result(update)}`)
agg = await req(client, { command: 'get_aggregate_price', base_asset: 'XRP', quote_asset: 'USD', oracles: [{ account: owner.address, oracle_document_id: '1234' }] })
check(agg.median === '0.75' && agg.time === t1, `the new price: ${agg.median}`)
agg = await req(client, { command: 'get_aggregate_price', base_asset: 'XRP', quote_asset: 'INR', oracles: [{ account: owner.address, oracle_document_id: 1234 }] })
check(agg.median === '1844674407370955e1' && agg.time === t0, `the INR price from the oracle's history: ${agg.median} at ${agg.time}`)
const stale = await submit(client, { TransactionType: 'OracleSet', Account: owner.address, OracleDocumentID: 1234, LastUpdateTime: t1, PriceDataSeries: [{ PriceData: { BaseAsset: 'XRP', QuoteAsset: 'USD', AssetPrice: 760, Scale: 3 } }] }, owner)
check(result(stale) === 'tecINVALID_UPDATE_TIME', `the same LastUpdateTime again: ${result(stale)}`)
check(await reqError(client, { command: 'get_aggregate_price', base_asset: 'XRP', quote_asset: 'EUR', oracles: [{ account: owner.address, oracle_document_id: 1234 }] }) === 'objectNotFound', 'a pair no oracle prices')

check(result(await submit(client, { TransactionType: 'OracleDelete', Account: owner.address, OracleDocumentID: 1234 }, owner)) === 'tesSUCCESS', 'OracleDelete')
objs = (await req(client, { command: 'account_objects', account: owner.address })).account_objects
check(objs.length === 0, 'nothing left in account_objects')
const info = (await req(client, { command: 'account_info', account: owner.address })).account_data
check(info.OwnerCount === 0, 'OwnerCount back to 0')

await finish(client)
