// Drive a running ledgerd with xrpl.js, unmodified, over WebSocket: the authorized-trust-line
// flow, the payment-channel flow and subscriptions. Usage: node js_flow.mjs ws://127.0.0.1:PORT
// Exits non-zero (naming the failing step) on any mismatch.
import xrpl from 'xrpl'

// xrpl.js is CommonJS: its enum ECDSA is reachable only through the default export.
const { Client, ECDSA, Wallet, authorizeChannel, encodeForSigningClaim, verifyPaymentChannelClaim, verifyKeypairSignature, multisign, decode, hashes, getNFTokenID, parseNFTokenID, convertStringToHex } = xrpl

const LSF_REQUIRE_AUTH = 0x00040000
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
    const r = await client.submitAndWait(tx, { wallet })
    return r.result.meta.TransactionResult
  } catch (e) {
    // xrpl.js throws for some failures; the message carries the engine result.
    const m = String(e && e.message ? e.message : e)
    const code = m.match(/te[cfmlr][A-Z_]+/)
    return code ? code[0] : m
  }
}

const req = async (client, r) => (await client.request(r)).result
const usd = (issuer, value, currency = 'USD') => ({ currency, issuer: issuer.address, value: String(value) })

// Issue 13's flows with xrpl.js's own helpers: a cold wallet behind a signer list,
// multi-signed payments (xrpl.js multisign through submit_multisigned and submit, and the
// server's sign_for giving the same bytes), tickets, deposit preauthorization, clawback and
// account deletion with xrpl.js's deletion-blocker check.
async function custody(client, genesis) {
  const fund = async (w) => check((await submit(client, { TransactionType: 'Payment', Account: genesis.address, Destination: w.address, Amount: '1000000000' }, genesis)) === 'tesSUCCESS', `genesis funds ${w.address}`)
  const cold = Wallet.generate(ECDSA.secp256k1)
  const hot = Wallet.generate(ECDSA.ed25519)
  const signerA = Wallet.generate(ECDSA.secp256k1)
  const signerB = Wallet.generate(ECDSA.ed25519)
  for (const w of [cold, hot]) await fund(w)
  const entries = [signerA, signerB].map((w) => ({ SignerEntry: { Account: w.address, SignerWeight: 1 } }))
  check((await submit(client, { TransactionType: 'SignerListSet', Account: cold.address, SignerQuorum: 2, SignerEntries: entries }, cold)) === 'tesSUCCESS', 'the cold wallet sets a signer list of two, quorum 2')
  const objs = await req(client, { command: 'account_objects', account: cold.address, type: 'signer_list', ledger_index: 'validated' })
  check(objs.account_objects.length === 1 && objs.account_objects[0].index === hashes.hashSignerListId(cold.address), 'account_objects lists the list at xrpl.js hashSignerListId')
  const info = await req(client, { command: 'account_info', account: cold.address, signer_lists: true, ledger_index: 'validated' })
  check(info.signer_lists[0].SignerQuorum === 2 && info.account_data.signer_lists === undefined, 'account_info signer_lists (xrpl.js asks API v2: top level)')

  const balanceOf = async (w) => Number((await req(client, { command: 'account_info', account: w.address, ledger_index: 'validated' })).account_data.Balance)
  const before = await balanceOf(hot)
  const pay1 = await client.autofill({ TransactionType: 'Payment', Account: cold.address, Destination: hot.address, Amount: '1000000' }, 2)
  const blob1 = multisign([signerA.sign(pay1, true).tx_blob, signerB.sign(pay1, true).tx_blob])
  const viaMs = await req(client, { command: 'submit_multisigned', tx_json: decode(blob1) })
  check(viaMs.engine_result === 'tesSUCCESS', `submit_multisigned of xrpl.js multisign: ${viaMs.engine_result}`)
  const pay2 = await client.autofill({ TransactionType: 'Payment', Account: cold.address, Destination: hot.address, Amount: '2000000', Sequence: pay1.Sequence + 1 }, 2)
  const blob2 = multisign([signerA.sign(pay2, true).tx_blob, signerB.sign(pay2, true).tx_blob])
  const forA = await req(client, { command: 'sign_for', account: signerA.address, secret: signerA.seed, tx_json: { ...pay2, SigningPubKey: '' } })
  const forB = await req(client, { command: 'sign_for', account: signerB.address, secret: signerB.seed, tx_json: forA.tx_json })
  check(forB.tx_blob === blob2, 'sign_for twice gives the bytes xrpl.js multisign gives')
  const viaSubmit = await client.submitAndWait(blob2)
  check(viaSubmit.result.meta.TransactionResult === 'tesSUCCESS', 'the multi-signed blob through submit validates')
  check((await balanceOf(hot)) === before + 3000000, 'both multi-signed payments arrived')
  const single = await submit(client, { TransactionType: 'Payment', Account: cold.address, Destination: hot.address, Amount: '1' }, signerA)
  check(single === 'tefBAD_AUTH', `a signer alone cannot single-sign for the cold wallet: ${single}`)

  check((await submit(client, { TransactionType: 'TicketCreate', Account: hot.address, TicketCount: 2 }, hot)) === 'tesSUCCESS', 'TicketCreate of two')
  const tickets = (await req(client, { command: 'account_objects', account: hot.address, type: 'ticket', ledger_index: 'validated' })).account_objects
  check(tickets.length === 2, 'account_objects type ticket lists both')
  const ticketed = await submit(client, { TransactionType: 'Payment', Account: hot.address, Destination: cold.address, Amount: '1000', Sequence: 0, TicketSequence: tickets[1].TicketSequence }, hot)
  check(ticketed === 'tesSUCCESS', `a payment with the second ticket first: ${ticketed}`)
  const entry = await req(client, { command: 'ledger_entry', ticket: { account: hot.address, ticket_seq: tickets[0].TicketSequence }, ledger_index: 'validated' })
  check(entry.node.TicketSequence === tickets[0].TicketSequence, 'ledger_entry ticket finds the other')

  const shop = Wallet.generate(ECDSA.secp256k1)
  await fund(shop)
  check((await submit(client, { TransactionType: 'AccountSet', Account: shop.address, SetFlag: 9 }, shop)) === 'tesSUCCESS', 'shop requires deposit authorization')
  const refused = await submit(client, { TransactionType: 'Payment', Account: hot.address, Destination: shop.address, Amount: '1000000' }, hot)
  check(refused === 'tecNO_PERMISSION', `an unauthorized deposit is refused: ${refused}`)
  let auth = await req(client, { command: 'deposit_authorized', source_account: hot.address, destination_account: shop.address })
  check(auth.deposit_authorized === false, 'deposit_authorized says no')
  check((await submit(client, { TransactionType: 'DepositPreauth', Account: shop.address, Authorize: hot.address }, shop)) === 'tesSUCCESS', 'shop preauthorizes hot')
  auth = await req(client, { command: 'deposit_authorized', source_account: hot.address, destination_account: shop.address, ledger_index: 'validated' })
  check(auth.deposit_authorized === true, 'deposit_authorized says yes')
  check((await submit(client, { TransactionType: 'Payment', Account: hot.address, Destination: shop.address, Amount: '1000000' }, hot)) === 'tesSUCCESS', 'the preauthorized deposit arrives')

  const token = Wallet.generate(ECDSA.secp256k1)
  await fund(token)
  check((await submit(client, { TransactionType: 'AccountSet', Account: token.address, SetFlag: 16 }, token)) === 'tesSUCCESS', 'issuer allows clawback')
  check((await submit(client, { TransactionType: 'TrustSet', Account: hot.address, LimitAmount: usd(token, 1000) }, hot)) === 'tesSUCCESS', 'hot trusts the issuer')
  check((await submit(client, { TransactionType: 'Payment', Account: token.address, Destination: hot.address, Amount: usd(token, 100) }, token)) === 'tesSUCCESS', 'issuer pays 100 USD')
  check((await submit(client, { TransactionType: 'Clawback', Account: token.address, Amount: usd(hot, 40) }, token)) === 'tesSUCCESS', 'issuer claws back 40')
  const lines = (await req(client, { command: 'account_lines', account: hot.address, ledger_index: 'validated' })).lines
  check(lines[0].balance === '60', `hot holds 60 USD: ${lines[0].balance}`)

  // 256 ledgers later an account can be deleted; xrpl.js refuses one with a trust line first.
  for (let i = 0; i < 256; i++) await req(client, { command: 'ledger_accept' })
  let blocked
  try {
    await client.autofill({ TransactionType: 'AccountDelete', Account: hot.address, Destination: token.address })
  } catch (e) {
    blocked = String(e.message)
  }
  check(blocked && blocked.includes('cannot be deleted'), `xrpl.js's deletion-blocker check stops hot (a trust line): ${blocked}`)
  const del = await client.autofill({ TransactionType: 'AccountDelete', Account: cold.address, Destination: hot.address }, 2)
  const delBlob = multisign([signerA.sign(del, true).tx_blob, signerB.sign(del, true).tx_blob])
  const deleted = await client.submitAndWait(delBlob)
  check(deleted.result.meta.TransactionResult === 'tesSUCCESS' && Number(del.Fee) >= 2000000, `the cold wallet (signer list and all) is deleted by its signers, fee ${del.Fee}`)
  check(typeof deleted.result.meta.delivered_amount === 'string', 'AccountDelete metadata has delivered_amount')
  const after = await client.request({ command: 'account_info', account: cold.address, ledger_index: 'validated' }).catch((e) => e.data)
  check(after && after.error === 'actNotFound', 'account_info of the deleted account: actNotFound')
}

// Issue 14's flows: a condition escrow finished with its fulfillment, a check cashed,
// and client.simulate, which answers without changing the ledger.
const CONDITION = 'A0258020E3B0C44298FC1C149AFBF4C8996FB92427AE41E4649B934CA495991B7852B855810100'
const FULFILLMENT = 'A0028000'
async function deferred(client, genesis) {
  const alice = Wallet.generate(ECDSA.secp256k1)
  const bob = Wallet.generate(ECDSA.ed25519)
  for (const w of [alice, bob]) {
    check((await submit(client, { TransactionType: 'Payment', Account: genesis.address, Destination: w.address, Amount: '1000000000' }, genesis)) === 'tesSUCCESS', `genesis funds ${w.address}`)
  }
  const closeTime = (await req(client, { command: 'ledger', ledger_index: 'validated' })).ledger.close_time
  const create = await client.submitAndWait({ TransactionType: 'EscrowCreate', Account: alice.address, Destination: bob.address, Amount: '10000000', Condition: CONDITION, CancelAfter: closeTime + 3600 }, { wallet: alice })
  check(create.result.meta.TransactionResult === 'tesSUCCESS', 'EscrowCreate with a crypto-condition')
  const seq = create.result.tx_json.Sequence
  const finish = await client.submitAndWait({ TransactionType: 'EscrowFinish', Account: bob.address, Owner: alice.address, OfferSequence: seq, Condition: CONDITION, Fulfillment: FULFILLMENT }, { wallet: bob })
  check(finish.result.meta.TransactionResult === 'tesSUCCESS', `EscrowFinish with the fulfillment (xrpl.js autofilled the fee: ${finish.result.tx_json.Fee})`)

  const created = await client.submitAndWait({ TransactionType: 'CheckCreate', Account: alice.address, Destination: bob.address, SendMax: '5000000' }, { wallet: alice })
  const checkNode = created.result.meta.AffectedNodes.find((n) => n.CreatedNode && n.CreatedNode.LedgerEntryType === 'Check')
  check(checkNode !== undefined, 'CheckCreate creates a Check')
  const cashed = await client.submitAndWait({ TransactionType: 'CheckCash', Account: bob.address, CheckID: checkNode.CreatedNode.LedgerIndex, Amount: '3000000' }, { wallet: bob })
  check(cashed.result.meta.TransactionResult === 'tesSUCCESS' && cashed.result.meta.delivered_amount === '3000000', 'CheckCash delivers 3 XRP')

  const before = (await req(client, { command: 'account_info', account: alice.address })).account_data.Balance
  const sim = await client.simulate({ TransactionType: 'Payment', Account: alice.address, Destination: bob.address, Amount: '1000000' })
  check(sim.result.engine_result === 'tesSUCCESS' && sim.result.applied === false && sim.result.meta.TransactionResult === 'tesSUCCESS', 'client.simulate answers tesSUCCESS with metadata')
  const after = (await req(client, { command: 'account_info', account: alice.address })).account_data.Balance
  check(before === after, 'and the ledger did not change')
}

// Issue 15's flows: an order book read with getOrderbook, a cross-currency payment found
// with ripple_path_find and sent with its paths, an AMM created, deposited into, traded
// against and withdrawn, and an unauthorized holder's offer refused.
// Issue 16's NFTokens with xrpl.js's helpers: a mint whose metadata xrpl.js reads the
// NFTokenID from (JSON and binary), account_nfts, a mint with a sell offer (offer_id),
// nft_sell_offers / nft_buy_offers, a brokered sale with a transfer fee, NFTokenModify, a
// burn, account_objects of type nft_page, and Clio's nft_info, nft_history and
// nfts_by_issuer.
async function nfts(client, genesis) {
  const fund = async (w) => check((await submit(client, { TransactionType: 'Payment', Account: genesis.address, Destination: w.address, Amount: '1000000000' }, genesis)) === 'tesSUCCESS', `genesis funds ${w.address}`)
  const [artist, buyer, broker] = [0, 1, 2].map(() => Wallet.generate(ECDSA.secp256k1))
  for (const w of [artist, buyer, broker]) await fund(w)
  const uri = convertStringToHex('ipfs://ledgerd')
  const minted = await client.submitAndWait({ TransactionType: 'NFTokenMint', Account: artist.address, NFTokenTaxon: 7, Flags: 8 + 16, TransferFee: 10000, URI: uri }, { wallet: artist })
  const id = getNFTokenID(minted.result.meta)
  check(typeof id === 'string' && minted.result.meta.nftoken_id === id, `xrpl.js getNFTokenID agrees with the server's nftoken_id: ${id}`)
  const bin = await req(client, { command: 'tx', transaction: minted.result.hash, binary: true })
  check(getNFTokenID(bin.meta_blob) === id, 'getNFTokenID from the binary metadata too')
  const parsed = parseNFTokenID(id)
  check(parsed.Issuer === artist.address && parsed.Taxon === 7 && parsed.TransferFee === 10000 && parsed.Flags === 24, `parseNFTokenID reads issuer, taxon, fee and flags: ${JSON.stringify(parsed)}`)
  const info = await req(client, { command: 'account_info', account: artist.address, ledger_index: 'validated' })
  check(info.account_data.FirstNFTokenSequence === minted.result.tx_json.Sequence && info.account_data.MintedNFTokens === 1, 'FirstNFTokenSequence is the mint\'s Sequence, MintedNFTokens 1')
  const listed = await req(client, { command: 'account_nfts', account: artist.address })
  const nft = listed.account_nfts.find((n) => n.NFTokenID === id)
  check(nft && nft.URI === uri && nft.NFTokenTaxon === 7 && nft.nft_serial === parsed.Sequence && nft.TransferFee === 10000 && listed.account === artist.address, 'account_nfts lists it with URI, taxon, serial and fee')

  const withOffer = await client.submitAndWait({ TransactionType: 'NFTokenMint', Account: artist.address, NFTokenTaxon: 0, Flags: 8, Amount: '1000000', Destination: buyer.address }, { wallet: artist })
  const second = getNFTokenID(withOffer.result.meta)
  const sells = await req(client, { command: 'nft_sell_offers', nft_id: second })
  check(sells.offers.length === 1 && sells.offers[0].nft_offer_index === withOffer.result.meta.offer_id && sells.offers[0].destination === buyer.address, 'a mint with Amount: offer_id names the sell offer nft_sell_offers lists')

  const sellTx = await client.submitAndWait({ TransactionType: 'NFTokenCreateOffer', Account: artist.address, NFTokenID: id, Amount: '10000000', Flags: 1 }, { wallet: artist })
  const sellId = sellTx.result.meta.offer_id
  const buyTx = await client.submitAndWait({ TransactionType: 'NFTokenCreateOffer', Account: buyer.address, NFTokenID: id, Amount: '12000000', Owner: artist.address }, { wallet: buyer })
  const buyId = buyTx.result.meta.offer_id
  const buys = await req(client, { command: 'nft_buy_offers', nft_id: id })
  check(buys.offers.length === 1 && buys.offers[0].nft_offer_index === buyId && buys.offers[0].amount === '12000000' && buys.offers[0].owner === buyer.address, 'nft_buy_offers lists the buy offer')
  const before = Number((await req(client, { command: 'account_info', account: broker.address })).account_data.Balance)
  const brokered = await client.submitAndWait({ TransactionType: 'NFTokenAcceptOffer', Account: broker.address, NFTokenSellOffer: sellId, NFTokenBuyOffer: buyId, NFTokenBrokerFee: '2000000' }, { wallet: broker })
  check(brokered.result.meta.TransactionResult === 'tesSUCCESS' && brokered.result.meta.nftoken_id === id, 'a brokered sale; its metadata names the token')
  const after = Number((await req(client, { command: 'account_info', account: broker.address })).account_data.Balance)
  check(after - before === 2000000 - Number(brokered.result.tx_json.Fee), `the broker keeps its 2 XRP fee: ${after - before}`)
  const owned = await req(client, { command: 'account_nfts', account: buyer.address })
  check(owned.account_nfts.some((n) => n.NFTokenID === id), 'the buyer holds the token')
  const modify = await submit(client, { TransactionType: 'NFTokenModify', Account: artist.address, Owner: buyer.address, NFTokenID: id, URI: convertStringToHex('ipfs://changed') }, artist)
  check(modify === 'tesSUCCESS', `the issuer changes the mutable token's URI: ${modify}`)
  const pages = await req(client, { command: 'account_objects', account: buyer.address, type: 'nft_page' })
  check(pages.account_objects.length === 1 && pages.account_objects[0].NFTokens[0].NFToken.URI === convertStringToHex('ipfs://changed'), 'account_objects type nft_page shows the new URI')
  check((await submit(client, { TransactionType: 'NFTokenBurn', Account: buyer.address, NFTokenID: id }, buyer)) === 'tesSUCCESS', 'the buyer burns it')
  const gone = await req(client, { command: 'account_nfts', account: buyer.address })
  check(gone.account_nfts.length === 0, 'account_nfts is empty after the burn')

  // Clio's NFT methods, through xrpl.js's request with commands it has no models for.
  const burned = await req(client, { command: 'nft_info', nft_id: id })
  check(burned.is_burned === true && burned.owner === buyer.address && burned.issuer === artist.address && burned.nft_taxon === 7, `nft_info: burned, last held by the buyer: ${JSON.stringify(burned)}`)
  const story = await req(client, { command: 'nft_history', nft_id: id, forward: true })
  const kinds = story.transactions.map((t) => (t.tx_json ?? t.tx).TransactionType)
  check(kinds[0] === 'NFTokenMint' && kinds.at(-1) === 'NFTokenBurn' && kinds.includes('NFTokenAcceptOffer') && kinds.includes('NFTokenModify'), `nft_history, oldest first: ${kinds.join(', ')}`)
  const issued = await req(client, { command: 'nfts_by_issuer', issuer: artist.address })
  const issuedIds = issued.nfts.map((n) => n.nft_id)
  check(issuedIds.includes(id) && issuedIds.includes(second) && issued.issuer === artist.address, `nfts_by_issuer lists both of the artist's tokens: ${issuedIds.length}`)
}

async function dex(client, genesis) {
  const fund = async (w) => check((await submit(client, { TransactionType: 'Payment', Account: genesis.address, Destination: w.address, Amount: '2000000000' }, genesis)) === 'tesSUCCESS', `genesis funds ${w.address}`)
  const [gw, alice, bob, carol] = [0, 1, 2, 3].map(() => Wallet.generate(ECDSA.secp256k1))
  for (const w of [gw, alice, bob, carol]) await fund(w)
  check((await submit(client, { TransactionType: 'AccountSet', Account: gw.address, SetFlag: 8 }, gw)) === 'tesSUCCESS', 'the gateway ripples by default')
  for (const w of [alice, carol]) {
    check((await submit(client, { TransactionType: 'TrustSet', Account: w.address, LimitAmount: usd(gw, 10000) }, w)) === 'tesSUCCESS', `${w.address} trusts USD`)
  }
  check((await submit(client, { TransactionType: 'Payment', Account: gw.address, Destination: alice.address, Amount: usd(gw, 1000) }, gw)) === 'tesSUCCESS', 'alice holds 1000 USD')
  for (const [xrp, value] of [['110000000', 100], ['50000000', 50]]) {
    check((await submit(client, { TransactionType: 'OfferCreate', Account: alice.address, TakerPays: xrp, TakerGets: usd(gw, value) }, alice)) === 'tesSUCCESS', `alice offers ${value} USD for ${Number(xrp) / 1e6} XRP`)
  }
  const book = await client.getOrderbook({ currency: 'USD', issuer: gw.address }, { currency: 'XRP' }, { limit: 10 })
  const orders = [...book.buy, ...book.sell]
  check(orders.length === 2 && orders.every((o) => o.Account === alice.address), 'getOrderbook lists both of alice\'s offers')
  check(Number(orders[0].quality) <= Number(orders[1].quality), `best quality first: ${orders.map((o) => o.quality).join(', ')}`)
  const offers = await req(client, { command: 'account_offers', account: alice.address })
  check(offers.offers.length === 2, 'account_offers lists them')

  const found = await req(client, { command: 'ripple_path_find', source_account: bob.address, destination_account: carol.address, destination_amount: usd(gw, 10) })
  const alt = found.alternatives && found.alternatives[0]
  check(alt && typeof alt.source_amount === 'string' && Array.isArray(alt.paths_computed), `ripple_path_find finds an XRP source for 10 USD: ${alt && alt.source_amount} drops`)
  const sendMax = String(Math.ceil(Number(alt.source_amount) * 1.01))
  const paid = await client.submitAndWait({ TransactionType: 'Payment', Account: bob.address, Destination: carol.address, Amount: usd(gw, 10), SendMax: sendMax, Paths: alt.paths_computed }, { wallet: bob })
  check(paid.result.meta.TransactionResult === 'tesSUCCESS' && paid.result.meta.delivered_amount.value === '10', 'the payment sent with those paths delivers 10 USD')

  for (const o of (await req(client, { command: 'account_offers', account: alice.address })).offers) {
    check((await submit(client, { TransactionType: 'OfferCancel', Account: alice.address, OfferSequence: o.seq }, alice)) === 'tesSUCCESS', `alice cancels offer ${o.seq}`)
  }
  const create = await client.submitAndWait(await client.autofill({ TransactionType: 'AMMCreate', Account: alice.address, Amount: '100000000', Amount2: usd(gw, 100), TradingFee: 500 }), { wallet: alice })
  check(create.result.meta.TransactionResult === 'tesSUCCESS', `AMMCreate 100 XRP / 100 USD (fee autofilled: ${create.result.tx_json.Fee})`)
  const asset = { currency: 'XRP' }
  const asset2 = { currency: 'USD', issuer: gw.address }
  const info1 = (await req(client, { command: 'amm_info', asset, asset2 })).amm
  check(info1.amount === '100000000' && info1.amount2.value === '100' && info1.trading_fee === 500, 'amm_info shows the pool')
  const dep = await client.submitAndWait({ TransactionType: 'AMMDeposit', Account: alice.address, Asset: asset, Asset2: asset2, Amount: '10000000', Flags: 0x00080000 }, { wallet: alice })
  check(dep.result.meta.TransactionResult === 'tesSUCCESS', 'AMMDeposit of 10 XRP alone (tfSingleAsset)')
  const before = Number((await req(client, { command: 'account_lines', account: carol.address })).lines[0].balance)
  const trade = await client.submitAndWait({ TransactionType: 'Payment', Account: bob.address, Destination: carol.address, Amount: usd(gw, 1), SendMax: '5000000' }, { wallet: bob })
  check(trade.result.meta.TransactionResult === 'tesSUCCESS', 'a payment of 1 USD for XRP trades')
  const after = Number((await req(client, { command: 'account_lines', account: carol.address })).lines[0].balance)
  check(after - before === 1, 'carol received 1 USD')
  const info2 = (await req(client, { command: 'amm_info', asset, asset2 })).amm
  check(Number(info2.amount) > 110000000 && Number(info2.amount2.value) < 100, `the pool took XRP and paid USD: ${info2.amount} drops / ${info2.amount2.value} USD`)
  const all = await client.submitAndWait({ TransactionType: 'AMMWithdraw', Account: alice.address, Asset: asset, Asset2: asset2, Flags: 0x00020000 }, { wallet: alice })
  check(all.result.meta.TransactionResult === 'tesSUCCESS', 'AMMWithdraw tfWithdrawAll by the only provider')
  let gone
  try { await req(client, { command: 'amm_info', asset, asset2 }) } catch (e) { gone = e.data && e.data.error }
  check(gone === 'actNotFound', `the AMM is gone: ${gone}`)

  const gw2 = Wallet.generate(ECDSA.secp256k1)
  await fund(gw2)
  check((await submit(client, { TransactionType: 'AccountSet', Account: gw2.address, SetFlag: 2 }, gw2)) === 'tesSUCCESS', 'gateway 2 requires authorization')
  check((await submit(client, { TransactionType: 'OfferCreate', Account: bob.address, TakerPays: usd(gw2, 10), TakerGets: '10000000' }, bob)) === 'tecNO_LINE', 'an offer to buy its USD without a line: tecNO_LINE')
  check((await submit(client, { TransactionType: 'TrustSet', Account: bob.address, LimitAmount: usd(gw2, 100) }, bob)) === 'tesSUCCESS', 'bob trusts gateway 2')
  check((await submit(client, { TransactionType: 'OfferCreate', Account: bob.address, TakerPays: usd(gw2, 10), TakerGets: '10000000' }, bob)) === 'tecNO_AUTH', 'and without its authorization: tecNO_AUTH')
}

async function main() {
  const url = process.argv[2]
  const client = new Client(url, { connectionTimeout: 10000 })
  await client.connect()
  const genesis = Wallet.fromSeed('snoPBrXtMeMyMHUVTgbuqAfg1SUTb', { algorithm: ECDSA.secp256k1 })
  check(genesis.address === 'rHb9CJAWyB4rj91VRWn96DkukG4bwdtyTh', 'genesis wallet from masterpassphrase seed')

  const ledgers = []
  const txs = []
  client.on('ledgerClosed', (l) => ledgers.push(l))
  client.on('transaction', (t) => txs.push(t))
  const sub = await req(client, { command: 'subscribe', streams: ['ledger', 'transactions'] })
  check(typeof sub.ledger_index === 'number', 'subscribe answers with the current ledger')

  const issuer = Wallet.generate(ECDSA.secp256k1)
  const holder = Wallet.generate(ECDSA.ed25519)
  const holder2 = Wallet.generate(ECDSA.secp256k1)
  const payer = Wallet.generate(ECDSA.secp256k1)
  const payee = Wallet.generate(ECDSA.ed25519)
  for (const w of [issuer, holder, holder2, payer, payee]) {
    const r = await submit(client, { TransactionType: 'Payment', Account: genesis.address, Destination: w.address, Amount: '1000000000' }, genesis)
    check(r === 'tesSUCCESS', `genesis funds ${w.address}`)
  }

  check((await submit(client, { TransactionType: 'AccountSet', Account: issuer.address, SetFlag: 2 }, issuer)) === 'tesSUCCESS', 'issuer turns RequireAuth on')
  const info = await req(client, { command: 'account_info', account: issuer.address, ledger_index: 'validated' })
  check((info.account_data.Flags & LSF_REQUIRE_AUTH) !== 0, 'account_info shows lsfRequireAuth')

  check((await submit(client, { TransactionType: 'TrustSet', Account: holder.address, LimitAmount: usd(issuer, 1000) }, holder)) === 'tesSUCCESS', 'holder creates a USD line')
  check((await submit(client, { TransactionType: 'AccountSet', Account: issuer.address, SetFlag: 2 }, issuer)) === 'tesSUCCESS', 'setting RequireAuth again while already set is a no-op success')
  const payIssued = { TransactionType: 'Payment', Account: issuer.address, Destination: holder.address, Amount: usd(issuer, 10) }
  check((await submit(client, payIssued, issuer)) === 'tecPATH_DRY', 'payment to the unauthorized line fails with tecPATH_DRY')
  check(
    (await submit(client, { TransactionType: 'TrustSet', Account: issuer.address, LimitAmount: usd(holder, 0), Flags: 0x00010000 }, issuer)) === 'tesSUCCESS',
    'issuer authorizes the line (tfSetfAuth)',
  )
  let lines = (await req(client, { command: 'account_lines', account: holder.address, peer: issuer.address, ledger_index: 'validated' })).lines
  check(lines.length === 1 && lines[0].peer_authorized === true, 'holder sees peer_authorized')
  lines = (await req(client, { command: 'account_lines', account: issuer.address, peer: holder.address, ledger_index: 'validated' })).lines
  check(lines.length === 1 && lines[0].authorized === true, 'issuer sees authorized')
  check((await submit(client, payIssued, issuer)) === 'tesSUCCESS', 'payment to the authorized line succeeds')

  check(
    (await submit(client, { TransactionType: 'TrustSet', Account: issuer.address, LimitAmount: usd(holder2, 0), Flags: 0x00010000 }, issuer)) === 'tesSUCCESS',
    'issuer pre-authorizes holder2',
  )
  check((await submit(client, { TransactionType: 'TrustSet', Account: holder2.address, LimitAmount: usd(issuer, 50) }, holder2)) === 'tesSUCCESS', 'holder2 sets its limit')
  lines = (await req(client, { command: 'account_lines', account: holder2.address, peer: issuer.address, ledger_index: 'validated' })).lines
  check(lines.length === 1 && lines[0].peer_authorized === true && lines[0].limit === '50', 'holder2 line is pre-authorized with limit 50')

  const create = { TransactionType: 'PaymentChannelCreate', Account: payer.address, Destination: payee.address, Amount: '10000000', SettleDelay: 3600, PublicKey: payer.publicKey }
  check((await submit(client, create, payer)) === 'tesSUCCESS', 'payer creates a channel')
  const chans = (await req(client, { command: 'account_channels', account: payer.address, ledger_index: 'validated' })).channels
  check(chans.length === 1, 'account_channels lists the channel')
  const channelId = chans[0].channel_id
  check((await submit(client, { TransactionType: 'PaymentChannelFund', Account: payer.address, Channel: channelId, Amount: '1000000' }, payer)) === 'tesSUCCESS', 'payer funds the channel')

  const signed = await req(client, { command: 'channel_authorize', channel_id: channelId, amount: '2500000', seed: payer.seed, key_type: 'secp256k1' })
  const local = authorizeChannel(payer, channelId, '2500000')
  check(local.toUpperCase() === signed.signature.toUpperCase(), 'the claim signed locally by xrpl.js equals the server\'s')
  check(verifyPaymentChannelClaim(channelId, '2.5', signed.signature, payer.publicKey), 'xrpl.js verifies the server\'s claim')
  const msg = encodeForSigningClaim({ channel: channelId, amount: '2500000' })
  check(verifyKeypairSignature(msg, signed.signature, payer.publicKey), 'ripple-keypairs verifies the claim message')
  const ver = await req(client, { command: 'channel_verify', channel_id: channelId, amount: '2500000', public_key: payer.publicKey, signature: signed.signature })
  check(ver.signature_verified === true, 'channel_verify is true')

  const before = Number((await req(client, { command: 'account_info', account: payee.address, ledger_index: 'validated' })).account_data.Balance)
  const claim = { TransactionType: 'PaymentChannelClaim', Account: payee.address, Channel: channelId, Balance: '2500000', Amount: '2500000', Signature: signed.signature, PublicKey: payer.publicKey }
  const res = await client.submitAndWait(claim, { wallet: payee })
  check(res.result.meta.TransactionResult === 'tesSUCCESS', 'payee redeems the claim')
  const after = Number((await req(client, { command: 'account_info', account: payee.address, ledger_index: 'validated' })).account_data.Balance)
  check(after === before + 2500000 - Number(res.result.tx_json ? res.result.tx_json.Fee : res.result.Fee), 'payee balance rose by the claim less the fee')

  // History: the payer's transactions page by page (requestAll follows the markers) equal
  // one large page, newest first, and the claim is the newest; tx finds it.
  const claimHash = res.result.hash
  const one = await req(client, { command: 'account_tx', account: payer.address, limit: 400 })
  const paged = await client.requestAll({ command: 'account_tx', account: payer.address, limit: 1 })
  const pagedHashes = paged.flatMap((p) => p.result.transactions.map((t) => t.hash || t.tx.hash))
  const oneHashes = one.transactions.map((t) => t.hash || t.tx.hash)
  check(oneHashes.length >= 4 && JSON.stringify(pagedHashes) === JSON.stringify(oneHashes), `account_tx pages of 1 (${pagedHashes.length}) equal one page (${oneHashes.length})`)
  check(oneHashes[0] === claimHash, 'account_tx lists the claim first (newest first)')
  const forward = await req(client, { command: 'account_tx', account: payer.address, forward: true, limit: 400 })
  check(JSON.stringify(forward.transactions.map((t) => t.hash || t.tx.hash)) === JSON.stringify([...oneHashes].reverse()), 'forward: true lists them oldest first')
  const found = await req(client, { command: 'tx', transaction: claimHash })
  check(found.validated === true && found.hash === claimHash, 'tx finds the claim, validated')

  // A ledger pushed out of memory (300 closes later) reads as it did: account_info and the
  // ledger_data pages requestAll follows come from the history store.
  const then = await req(client, { command: 'account_info', account: payer.address, ledger_index: 'validated' })
  const stateKeys = async (seq) => {
    const keys = []
    let marker
    for (let i = 0; i < 1000; i++) {
      const page = await req(client, { command: 'ledger_data', ledger_index: seq, limit: 5, marker })
      keys.push(...page.state.map((e) => e.index))
      marker = page.marker
      if (!marker) return keys
    }
    throw new Error('ledger_data paging did not end')
  }
  const keysThen = await stateKeys(then.ledger_index)
  for (let i = 0; i < 300; i++) await req(client, { command: 'ledger_accept' })
  const now = await req(client, { command: 'account_info', account: payer.address, ledger_index: then.ledger_index })
  check(now.account_data.Balance === then.account_data.Balance && now.validated === true, `account_info at ledger ${then.ledger_index}, 300 ledgers back, is as it was`)
  const keysNow = await stateKeys(then.ledger_index)
  check(keysThen.length > 5 && JSON.stringify(keysNow) === JSON.stringify(keysThen), `ledger_data pages of 5 at that ledger list the same ${keysThen.length} entries`)
  const all = (await client.requestAll({ command: 'ledger_data', ledger_index: then.ledger_index })).flatMap((p) => p.result.state.map((e) => e.index))
  check(JSON.stringify(all) === JSON.stringify(keysThen), 'requestAll over ledger_data lists them too')

  for (let i = 0; i < 50 && (ledgers.length === 0 || txs.length === 0); i++) await new Promise((r) => setTimeout(r, 100))
  check(ledgers.length > 0 && typeof ledgers[0].ledger_hash === 'string', 'ledgerClosed messages arrived')
  const seen = txs.find((t) => (t.tx_json || t.transaction || {}).TransactionType === 'PaymentChannelClaim')
  check(seen && seen.validated === true && seen.engine_result === 'tesSUCCESS', 'the claim arrived on the transactions stream')

  await custody(client, genesis)
  await deferred(client, genesis)
  await dex(client, genesis)
  await nfts(client, genesis)

  // xrpl.js closes with 4000 and reports 1000 when the server answers with the same code;
  // a connection cut without a close frame shows as 1006.
  let disconnectCode
  client.on('disconnected', (code) => { disconnectCode = code })
  await client.disconnect()
  check(disconnectCode === 1000, `client.disconnect() sees the server's close frame: code ${disconnectCode}, want 1000`)
  console.log(`${steps} passed, 0 failed`)
  // Open sockets or timers inside the library must not keep the process alive.
  process.exit(0)
}

main().catch((e) => {
  console.log(`FAIL: ${e && e.stack ? e.stack : e}`)
  process.exit(1)
})
