// The ledgerd explorer: one page over the public WebSocket API of the port it came from.
// Everything shown is built with DOM nodes and text (never HTML from the ledger), so a
// memo, a domain or a URI cannot inject markup. Routes live in the location's hash.

const settings = JSON.parse(document.querySelector('meta[name="ledgerd-explorer"]').content);
const RIPPLE_EPOCH = 946684800;
const REPLY_TIMEOUT_MS = 30000;
const $ = (sel) => document.querySelector(sel);

// ---------------------------------------------------------------------------------------
// DOM and formatting helpers
// ---------------------------------------------------------------------------------------

function h(tag, attrs, ...kids) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v == null || v === false) continue;
    if (k === 'class') el.className = v;
    else if (k.startsWith('on')) el.addEventListener(k.slice(2), v);
    else el.setAttribute(k, v === true ? '' : String(v));
  }
  for (const kid of kids.flat(Infinity)) {
    if (kid == null || kid === false) continue;
    el.append(kid instanceof Node ? kid : String(kid));
  }
  return el;
}

const link = (href, text, cls) => h('a', { href, class: cls }, text);
const acct = (a) => (a ? link('#/account/' + encodeURIComponent(a), a, 'addr') : '');
const txLink = (hash, text) => link('#/tx/' + hash, text || hash, 'hash');
const ledgerLink = (i) => link('#/ledger/' + i, '#' + i);
const objectLink = (index) => h('a', { href: '#/object/' + index, class: 'hash', title: index }, short(index));
const short = (s, n = 10) => (s && s.length > 2 * n ? s.slice(0, n) + '…' + s.slice(-4) : s);
const chip = (text, cls) => h('span', { class: 'chip ' + (cls || '') }, text);
const panel = (...kids) => h('div', { class: 'panel' }, ...kids);
const section = (title, ...kids) => [h('h2', {}, title), panel(...kids)];

function fields(pairs) {
  const dl = h('dl', { class: 'fields' });
  for (const [k, v] of pairs) {
    if (v == null || v === '' || (Array.isArray(v) && v.length === 0)) continue;
    dl.append(h('dt', {}, k), h('dd', {}, v));
  }
  return dl;
}

function table(head, rows, empty) {
  if (!rows.length) return h('p', { class: 'note' }, empty || 'None.');
  return h('table', {},
    h('thead', {}, h('tr', {}, head.map((c) => h('th', {}, c)))),
    h('tbody', {}, rows.map((r) => (r instanceof Node ? r : h('tr', {}, r.map((c) => h('td', {}, c)))))));
}

function when(t) {
  if (t == null) return '';
  return new Date((Number(t) + RIPPLE_EPOCH) * 1000).toLocaleString();
}

function xrp(drops) {
  let n = BigInt(drops);
  const sign = n < 0n ? '-' : '';
  if (n < 0n) n = -n;
  const frac = (n % 1000000n).toString().padStart(6, '0').replace(/0+$/, '');
  return sign + (n / 1000000n).toLocaleString('en-US') + (frac ? '.' + frac : '');
}

// A currency code as people write it: standard codes, ASCII in the 160-bit form, LP tokens.
function currencyName(c) {
  if (!c || c.length !== 40 || !/^[0-9A-Fa-f]{40}$/.test(c)) return c || '';
  const bytes = c.match(/../g).map((x) => parseInt(x, 16));
  if (bytes.every((b) => b === 0)) return 'XRP';
  if (bytes[0] === 0x03) return 'LP ' + c.slice(2, 10) + '…';
  if (bytes[0] === 0 && bytes.every((b, i) => (i >= 12 && i < 15) || b === 0)) {
    return String.fromCharCode(...bytes.slice(12, 15));
  }
  let end = bytes.length;
  while (end > 0 && bytes[end - 1] === 0) end--;
  const body = bytes.slice(0, end);
  const text = String.fromCharCode(...body);
  // A 160-bit code that reads like XRP or a three-letter code is not one: show its hex.
  if (body.length > 3 && text.toUpperCase() !== 'XRP' && body.every((b) => b >= 0x20 && b < 0x7f)) return text;
  return short(c, 8);
}

function hexText(hex) {
  if (!hex || !/^([0-9A-Fa-f]{2})+$/.test(hex)) return hex || '';
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(
      new Uint8Array(hex.match(/../g).map((x) => parseInt(x, 16))));
  } catch {
    return hex;
  }
}

function amount(a, opts = {}) {
  if (a == null) return '';
  if (typeof a === 'string' || typeof a === 'number') {
    return h('span', { class: 'amt' }, xrp(a), ' ', h('span', { class: 'cur' }, 'XRP'));
  }
  if (a.mpt_issuance_id) {
    return h('span', { class: 'amt' }, a.value, ' ',
      h('span', { class: 'cur', title: a.mpt_issuance_id }, 'MPT ' + short(a.mpt_issuance_id, 6)));
  }
  return h('span', { class: 'amt' }, a.value, ' ', h('span', { class: 'cur', title: a.currency }, currencyName(a.currency)),
    a.issuer && !opts.noIssuer ? [h('span', { class: 'muted' }, ' · '), acct(a.issuer)] : '');
}

function signed(value, text) {
  const neg = String(value).startsWith('-');
  return h('span', { class: neg ? 'neg' : 'pos' }, (neg ? '' : '+') + text);
}

function resultBadge(code) {
  return h('span', { class: 'result ' + (code === 'tesSUCCESS' ? 'ok' : 'fail') }, code || '?');
}

function errorBox(e) {
  const text = e && e.error ? `${e.error}: ${e.message}` : String((e && e.message) || e);
  return h('div', { class: 'error', role: 'alert' }, text);
}

// ---------------------------------------------------------------------------------------
// The WebSocket client: one connection, requests matched to replies by id, streams by type.
// ---------------------------------------------------------------------------------------

class ApiError extends Error {
  constructor(reply) {
    super(reply.error_message || reply.error || 'error');
    this.error = reply.error;
  }
}

const api = {
  nextId: 1,
  requests: 0,
  pending: new Map(),
  listeners: {},
  ws: null,
  // Resolves once the connection is open; a request made while it is down waits for the
  // next one to open.
  ready: null,
  opened: null,
  isOpen: false,

  connect() {
    if (!this.ready) this.waitForOpen();
    const url = (location.protocol === 'https:' ? 'wss://' : 'ws://') + location.host + '/';
    const ws = new WebSocket(url);
    this.ws = ws;
    ws.addEventListener('open', () => {
      this.isOpen = true;
      this.opened();
      this.emit('open', {});
    });
    ws.addEventListener('message', (e) => this.receive(JSON.parse(e.data)));
    ws.addEventListener('close', () => {
      for (const p of this.pending.values()) p.reject(new Error('The connection closed.'));
      this.pending.clear();
      if (this.isOpen) {
        this.isOpen = false;
        this.waitForOpen();
      }
      this.emit('close', {});
      setTimeout(() => this.connect(), 2000);
    });
  },

  waitForOpen() {
    this.ready = new Promise((resolve) => {
      this.opened = resolve;
    });
  },

  async request(command, params = {}) {
    await this.ready;
    const id = this.nextId++;
    this.requests++;
    showRequestCount();
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.ws.send(JSON.stringify({ ...params, id, command, api_version: 2 }));
      setTimeout(() => {
        if (this.pending.delete(id)) reject(new Error(`No reply to ${command} in ${REPLY_TIMEOUT_MS / 1000} s.`));
      }, REPLY_TIMEOUT_MS);
    });
  },

  receive(msg) {
    const p = msg.id != null && this.pending.get(msg.id);
    if (p) {
      this.pending.delete(msg.id);
      if (msg.status === 'success') p.resolve(msg.result);
      else p.reject(new ApiError(msg));
      return;
    }
    if (msg.type) this.emit(msg.type, msg);
  },

  on(type, fn) {
    (this.listeners[type] ||= []).push(fn);
  },

  emit(type, msg) {
    for (const fn of this.listeners[type] || []) fn(msg);
  },
};

// What the page knows of the network, from the ledger stream.
const net = { ledger: null, reserveBase: null, reserveInc: null, feeBase: null };

function showStatus(text, live) {
  const s = $('#status');
  s.textContent = text;
  s.className = 'status ' + (live ? 'live' : 'down');
}

function showRequestCount() {
  window.ledgerdExplorer.requests = api.requests;
  $('#footer').textContent = `ledgerd ${settings.version} · ${api.requests} requests from this page · ` +
    `times in ${Intl.DateTimeFormat().resolvedOptions().timeZone}`;
}

function noteLedger(msg) {
  net.ledger = Number(msg.ledger_index);
  if (msg.reserve_base != null) net.reserveBase = BigInt(msg.reserve_base);
  if (msg.reserve_inc != null) net.reserveInc = BigInt(msg.reserve_inc);
  if (msg.fee_base != null) net.feeBase = msg.fee_base;
  showStatus(`ledger #${net.ledger}`, true);
}

api.on('open', async () => {
  showStatus('connected', true);
  try {
    noteLedger(await api.request('subscribe', { streams: ['ledger'] }));
  } catch (e) {
    showStatus('no ledger stream: ' + e.message, false);
  }
  if (route().name === 'home') render();
});
api.on('close', () => showStatus('disconnected, reconnecting…', false));
api.on('ledgerClosed', (msg) => {
  noteLedger(msg);
  live.closed(msg);
});

// ---------------------------------------------------------------------------------------
// Transactions: the shapes of API v2 (tx_json, meta, hash), summaries, balance changes.
// ---------------------------------------------------------------------------------------

function norm(t) {
  const tx = t.tx_json || t.tx || t;
  return {
    tx,
    meta: t.meta || t.metaData || {},
    hash: t.hash || tx.hash,
    ledger: t.ledger_index ?? tx.ledger_index,
    date: t.close_time_iso ? Date.parse(t.close_time_iso) / 1000 - RIPPLE_EPOCH : tx.date,
  };
}

const TX_FLAGS = {
  Payment: { 0x10000: 'tfNoRippleDirect', 0x20000: 'tfPartialPayment', 0x40000: 'tfLimitQuality' },
  TrustSet: {
    0x10000: 'tfSetfAuth', 0x20000: 'tfSetNoRipple', 0x40000: 'tfClearNoRipple', 0x100000: 'tfSetFreeze',
    0x200000: 'tfClearFreeze', 0x400000: 'tfSetDeepFreeze', 0x800000: 'tfClearDeepFreeze',
  },
  OfferCreate: { 0x10000: 'tfPassive', 0x20000: 'tfImmediateOrCancel', 0x40000: 'tfFillOrKill', 0x80000: 'tfSell' },
  PaymentChannelClaim: { 0x10000: 'tfRenew', 0x20000: 'tfClose' },
  NFTokenMint: { 0x1: 'tfBurnable', 0x2: 'tfOnlyXRP', 0x8: 'tfTransferable', 0x10: 'tfMutable' },
  NFTokenCreateOffer: { 0x1: 'tfSellNFToken' },
  MPTokenAuthorize: { 0x1: 'tfMPTUnauthorize' },
  AMMDeposit: { 0x10000: 'tfLPToken', 0x80000: 'tfSingleAsset', 0x100000: 'tfTwoAsset', 0x200000: 'tfOneAssetLPToken', 0x400000: 'tfLimitLPToken', 0x800000: 'tfTwoAssetIfEmpty' },
  AMMWithdraw: { 0x10000: 'tfLPToken', 0x20000: 'tfWithdrawAll', 0x40000: 'tfOneAssetWithdrawAll', 0x80000: 'tfSingleAsset', 0x100000: 'tfTwoAsset', 0x200000: 'tfOneAssetLPToken', 0x400000: 'tfLimitLPToken' },
};

const ASF = {
  1: 'asfRequireDest', 2: 'asfRequireAuth', 3: 'asfDisallowXRP', 4: 'asfDisableMaster', 5: 'asfAccountTxnID',
  6: 'asfNoFreeze', 7: 'asfGlobalFreeze', 8: 'asfDefaultRipple', 9: 'asfDepositAuth', 10: 'asfAuthorizedNFTokenMinter',
  12: 'asfDisallowIncomingNFTokenOffer', 13: 'asfDisallowIncomingCheck', 14: 'asfDisallowIncomingPayChan',
  15: 'asfDisallowIncomingTrustline', 16: 'asfAllowTrustLineClawback', 17: 'asfAllowTrustLineLocking',
};

function flagNames(type, flags) {
  const names = [];
  for (const [bit, name] of Object.entries(TX_FLAGS[type] || {})) {
    if ((Number(flags) & Number(bit)) >>> 0) names.push(name);
  }
  return names;
}

function summary(t) {
  const { tx, meta } = t;
  const A = acct(tx.Account);
  const flags = flagNames(tx.TransactionType, tx.Flags || 0);
  switch (tx.TransactionType) {
    case 'Payment':
      return [A, meta.TransactionResult === 'tesSUCCESS' ? ' paid ' : ' tried to pay ', amount(meta.delivered_amount ?? tx.DeliverMax ?? tx.Amount), ' to ', acct(tx.Destination),
        tx.DestinationTag != null ? ` (tag ${tx.DestinationTag})` : ''];
    case 'TrustSet': {
      const l = tx.LimitAmount || {};
      if (flags.includes('tfSetfAuth')) {
        return [A, ' authorized ', acct(l.issuer), ' to hold ', h('span', { class: 'cur' }, currencyName(l.currency))];
      }
      const extra = flags.filter((f) => f !== 'tfSetfAuth').map((f) => chip(f));
      return [A, ' set a trust line to ', acct(l.issuer), ' with limit ', amount(l, { noIssuer: true }), ' ', extra];
    }
    case 'OfferCreate':
      return [A, ' offered ', amount(tx.TakerGets), ' for ', amount(tx.TakerPays)];
    case 'OfferCancel':
      return [A, ` canceled offer #${tx.OfferSequence}`];
    case 'AccountSet': {
      const parts = [];
      if (tx.SetFlag != null) parts.push('set ' + (ASF[tx.SetFlag] || tx.SetFlag));
      if (tx.ClearFlag != null) parts.push('cleared ' + (ASF[tx.ClearFlag] || tx.ClearFlag));
      if (tx.Domain != null) parts.push('domain ' + hexText(tx.Domain));
      return [A, ' ', parts.join(', ') || 'changed account settings'];
    }
    case 'PaymentChannelCreate':
      return [A, ' opened a channel to ', acct(tx.Destination), ' with ', amount(tx.Amount)];
    case 'PaymentChannelFund':
      return [A, ' added ', amount(tx.Amount), ' to channel ', h('span', { class: 'hash' }, short(tx.Channel))];
    case 'PaymentChannelClaim':
      return [A, tx.Balance != null ? [' claimed up to ', amount(tx.Balance)] : ' updated', ' on channel ',
        h('span', { class: 'hash' }, short(tx.Channel)), flags.length ? [' ', flags.map((f) => chip(f))] : ''];
    case 'EscrowCreate':
      return [A, ' escrowed ', amount(tx.Amount), ' for ', acct(tx.Destination)];
    case 'EscrowFinish':
      return [A, ' finished escrow #', tx.OfferSequence, ' of ', acct(tx.Owner)];
    case 'EscrowCancel':
      return [A, ' canceled escrow #', tx.OfferSequence, ' of ', acct(tx.Owner)];
    case 'CheckCreate':
      return [A, ' wrote a check for up to ', amount(tx.SendMax), ' to ', acct(tx.Destination)];
    case 'CheckCash':
      return [A, ' cashed a check for ', amount(tx.Amount ?? tx.DeliverMin)];
    case 'NFTokenMint':
      return [A, ` minted a token (taxon ${tx.NFTokenTaxon})`, tx.URI ? [' ', h('span', { class: 'muted' }, hexText(tx.URI))] : ''];
    case 'NFTokenBurn':
      return [A, ' burned token ', h('span', { class: 'hash' }, short(tx.NFTokenID))];
    case 'NFTokenCreateOffer':
      return [A, flags.includes('tfSellNFToken') ? ' offered to sell ' : ' offered to buy ', h('span', { class: 'hash' }, short(tx.NFTokenID)), ' for ', amount(tx.Amount)];
    case 'NFTokenAcceptOffer':
      return [A, ' accepted an NFT offer'];
    case 'TicketCreate':
      return [A, ` created ${tx.TicketCount} ticket(s)`];
    case 'SignerListSet':
      return [A, ` set a signer list (quorum ${tx.SignerQuorum}, ${(tx.SignerEntries || []).length} signers)`];
    case 'SetRegularKey':
      return [A, tx.RegularKey ? [' set its regular key to ', acct(tx.RegularKey)] : ' removed its regular key'];
    case 'AMMCreate':
      return [A, ' created an AMM pool of ', amount(tx.Amount), ' and ', amount(tx.Amount2)];
    case 'AMMDeposit':
      return [A, ' deposited into an AMM pool', tx.Amount ? [' ', amount(tx.Amount)] : ''];
    case 'AMMWithdraw':
      return [A, ' withdrew from an AMM pool'];
    case 'MPTokenIssuanceCreate':
      return [A, ' created an MPT issuance', tx.MaximumAmount ? ` (max ${tx.MaximumAmount})` : ''];
    case 'MPTokenAuthorize':
      return [A, flags.length ? ' unauthorized ' : ' authorized ', tx.Holder ? acct(tx.Holder) : 'holding', ' for MPT ', h('span', { class: 'hash' }, short(tx.MPTokenIssuanceID, 6))];
    case 'AccountDelete':
      return [A, ' deleted itself, sending the rest to ', acct(tx.Destination)];
    default:
      return [A, ' submitted ', tx.TransactionType];
  }
}

// Token amounts exactly, as decimal strings: a BigInt mantissa and a power of ten.
function decimal(text) {
  const m = String(text ?? '0').trim().match(/^(-?)(\d*)(?:\.(\d*))?(?:e([-+]?\d+))?$/i);
  if (!m) return { n: 0n, e: 0 };
  const frac = m[3] || '';
  const n = BigInt((m[1] || '') + ((m[2] || '') + frac || '0'));
  return { n, e: Number(m[4] || 0) - frac.length };
}

function decimalSub(a, b) {
  const x = decimal(a), y = decimal(b);
  const e = Math.min(x.e, y.e);
  const n = x.n * 10n ** BigInt(x.e - e) - y.n * 10n ** BigInt(y.e - e);
  if (n === 0n) return '0';
  const neg = n < 0n;
  let digits = (neg ? -n : n).toString();
  let text;
  if (e >= 0) text = digits + '0'.repeat(e);
  else {
    digits = digits.padStart(-e + 1, '0');
    text = (digits.slice(0, e) + '.' + digits.slice(e)).replace(/\.?0+$/, '');
  }
  return (neg ? '-' : '') + text;
}

const negate = (t) => (t.startsWith('-') ? t.slice(1) : '-' + t);

// An account's 20 bytes as hex, from its r-address (XRPL's base58 alphabet).
const B58 = 'rpshnaf39wBUDNEGHJKLM4PQRST7VWXYZ2bcdeCg65jkm8oFqi1tuvAxyz';
function accountHex(address) {
  let n = 0n;
  for (const c of address) n = n * 58n + BigInt(B58.indexOf(c));
  return n.toString(16).padStart(50, '0').slice(2, 42).toUpperCase();
}

// What each account gained or lost, from the metadata: XRP, trust-line tokens and MPTs
// (an issuer's side of an MPT is the change of its issuance's outstanding amount).
function balanceChanges(meta) {
  const out = [];
  for (const wrap of meta.AffectedNodes || []) {
    const [kind, node] = Object.entries(wrap)[0];
    const fin = node.FinalFields || node.NewFields || {};
    const prev = node.PreviousFields || {};
    if (node.LedgerEntryType === 'AccountRoot') {
      const after = BigInt(fin.Balance ?? 0);
      const before = kind === 'CreatedNode' ? 0n : prev.Balance != null ? BigInt(prev.Balance) : after;
      if (after !== before) out.push({ account: fin.Account, change: xrp(after - before), raw: String(after - before), unit: 'XRP' });
    } else if (node.LedgerEntryType === 'RippleState') {
      const bal = fin.Balance || {};
      const after = bal.value ?? '0';
      const before = kind === 'CreatedNode' ? '0' : prev.Balance ? prev.Balance.value : after;
      const delta = decimalSub(after, before);
      if (delta === '0' || !fin.LowLimit || !fin.HighLimit) continue;
      const low = fin.LowLimit.issuer, high = fin.HighLimit.issuer, cur = currencyName(bal.currency);
      out.push({ account: low, change: delta, raw: delta, unit: cur, issuer: high });
      out.push({ account: high, change: negate(delta), raw: negate(delta), unit: cur, issuer: low });
    } else if (node.LedgerEntryType === 'MPToken') {
      const after = BigInt(fin.MPTAmount ?? 0);
      const before = kind === 'CreatedNode' ? 0n : prev.MPTAmount != null ? BigInt(prev.MPTAmount) : after;
      if (kind === 'DeletedNode' || after === before) continue;
      out.push({ account: fin.Account, change: String(after - before), raw: String(after - before), unit: 'MPT ' + short(fin.MPTokenIssuanceID, 6) });
    } else if (node.LedgerEntryType === 'MPTokenIssuance' && fin.Issuer) {
      const after = BigInt(fin.OutstandingAmount ?? 0);
      const before = kind === 'CreatedNode' ? 0n : prev.OutstandingAmount != null ? BigInt(prev.OutstandingAmount) : after;
      if (kind === 'DeletedNode' || after === before) continue;
      const id = Number(fin.Sequence).toString(16).toUpperCase().padStart(8, '0') + accountHex(fin.Issuer);
      out.push({ account: fin.Issuer, change: String(before - after), raw: String(before - after), unit: 'MPT ' + short(id, 6) });
    }
  }
  return out;
}

function compact(v) {
  if (v == null) return '';
  if (typeof v !== 'object') return String(v);
  if (v.currency && v.value != null) return `${v.value} ${currencyName(v.currency)}`;
  if (v.mpt_issuance_id) return `${v.value} MPT`;
  return JSON.stringify(v);
}

function affectedRows(meta) {
  return (meta.AffectedNodes || []).map((wrap) => {
    const [kind, node] = Object.entries(wrap)[0];
    const prev = node.PreviousFields || {};
    const fin = node.FinalFields || node.NewFields || {};
    let changes;
    if (kind === 'ModifiedNode') {
      changes = Object.keys(prev).map((k) => h('div', {}, h('span', { class: 'muted' }, k + ': '), compact(prev[k]), ' → ', compact(fin[k])));
    } else {
      changes = Object.keys(fin).filter((k) => !['Flags', 'OwnerNode', 'PreviousTxnID', 'PreviousTxnLgrSeq'].includes(k))
        .slice(0, 6).map((k) => h('div', {}, h('span', { class: 'muted' }, k + ': '), compact(fin[k])));
    }
    const index = kind === 'DeletedNode' ? h('span', { class: 'hash', title: node.LedgerIndex }, short(node.LedgerIndex)) : objectLink(node.LedgerIndex);
    return [kind.replace('Node', ''), node.LedgerEntryType, index, changes];
  });
}

function txRow(t) {
  return [txLink(t.hash, short(t.hash)), t.tx.TransactionType, resultBadge(t.meta.TransactionResult), h('span', {}, summary(t))];
}

// ---------------------------------------------------------------------------------------
// Views
// ---------------------------------------------------------------------------------------

// The live ledgers: the newest `settings.ledgers` closed ledgers, one `ledger` request each.
const live = {
  el: null,
  shown: [],
  loading: null,

  // The newest ledgers, by hash first; those with a few transactions again, expanded.
  async open() {
    this.el = h('div', { id: 'ledgers' });
    this.shown = [];
    this.loading = [];
    const top = net.ledger;
    const view = [h('h1', {}, 'Ledgers'), h('p', { class: 'note' }, 'Closed ledgers appear here as they close.'), this.el];
    if (top == null) return view;
    const count = Math.min(settings.ledgers, top);
    const ledgers = await Promise.all(Array.from({ length: count }, async (_, i) => {
      const l = await fetchLedger(top - i, false).catch(() => null);
      const small = l && l.txs.length > 0 && l.txs.length <= settings.ledger_txs;
      return small ? fetchLedger(top - i, true).catch(() => l) : l;
    }));
    for (const l of ledgers.filter(Boolean)) this.add(l, false);
    const missed = this.loading;
    this.loading = null;
    await Promise.all(missed.map((msg) => this.closed(msg, true)));
    return view;
  },

  // A ledger the stream says closed (while the view is loading: after it loads).
  async closed(msg, loaded) {
    if (this.loading) {
      this.loading.push(msg);
      return;
    }
    if (!this.el || (!this.el.isConnected && !loaded)) return;
    const expand = Number(msg.txn_count ?? 0) <= settings.ledger_txs;
    const l = await fetchLedger(Number(msg.ledger_index), expand).catch(() => null);
    if (l && (this.el.isConnected || loaded)) this.add(l, true);
  },

  add(l, fresh) {
    if (this.shown.some((s) => s.index === l.index && s.hash === l.hash)) return;
    this.shown.push(l);
    this.shown.sort((a, b) => b.index - a.index);
    this.shown = this.shown.slice(0, settings.ledgers);
    this.el.replaceChildren(...this.shown.map((s) => {
      s.node ||= ledgerCard(s);
      s.node.classList.toggle('fresh', fresh && s === l);
      return s.node;
    }));
  },
};

// A ledger and its transactions: expanded (type, result, summary, fees), or for a large
// ledger in the live view only their hashes, so a busy server's closes stay cheap to watch.
async function fetchLedger(which, expand = true) {
  const key = typeof which === 'number' || /^\d+$/.test(which) ? { ledger_index: Number(which) } : { ledger_hash: which };
  const r = await api.request('ledger', { ...key, transactions: true, expand });
  const l = r.ledger;
  const txs = (l.transactions || []).map((t) => (typeof t === 'string' ? { hash: t, tx: {}, meta: {} } : norm(t)));
  txs.sort((a, b) => (a.meta.TransactionIndex ?? 0) - (b.meta.TransactionIndex ?? 0));
  const fees = expand || !txs.length ? txs.reduce((s, t) => s + BigInt(t.tx.Fee || 0), 0n) : null;
  return { index: Number(l.ledger_index), hash: r.ledger_hash || l.ledger_hash, header: l, txs, fees, validated: r.validated };
}

function ledgerCard(l) {
  const shown = l.txs.slice(0, settings.ledger_txs);
  const rows = shown.map((t) => (t.tx.TransactionType ? txRow(t) : [txLink(t.hash, short(t.hash)), '', '', '']));
  return panel(
    h('div', { class: 'ledger-head', 'data-ledger': l.index },
      h('span', { class: 'index' }, ledgerLink(l.index)),
      h('span', { class: 'hash muted', title: l.hash }, short(l.hash, 12)),
      h('span', {}, when(l.header.close_time)),
      h('span', {}, `${l.txs.length} transaction${l.txs.length === 1 ? '' : 's'}`),
      l.fees != null ? h('span', {}, 'fees ', amount(String(l.fees))) : ''),
    rows.length ? h('div', { class: 'txs' }, table(['Hash', 'Type', 'Result', 'Summary'], rows)) : '',
    l.txs.length > shown.length ? h('p', { class: 'note' }, `and ${l.txs.length - shown.length} more in `, ledgerLink(l.index)) : '');
}

async function ledgerView(which) {
  const l = await fetchLedger(which);
  const hd = l.header;
  return [
    h('h1', {}, `Ledger #${l.index}`),
    panel(fields([
      ['Hash', h('span', { class: 'hash' }, l.hash)],
      ['Parent', hd.parent_hash ? link('#/ledger/' + hd.parent_hash, hd.parent_hash, 'hash') : ''],
      ['Closed', when(hd.close_time)],
      ['Validated', String(!!l.validated)],
      ['Transactions', String(l.txs.length)],
      ['Fees burned', amount(String(l.fees))],
      ['Total XRP', hd.total_coins ? amount(hd.total_coins) : ''],
      ['Account state hash', h('span', { class: 'hash' }, hd.account_hash)],
      ['Transaction hash', h('span', { class: 'hash' }, hd.transaction_hash)],
      ['Navigate', [l.index > 1 ? ledgerLink(l.index - 1) : '', ' ', ledgerLink(l.index + 1)]],
    ])),
    ...section('Transactions', table(['Hash', 'Type', 'Result', 'Summary'], l.txs.map(txRow), 'No transactions.')),
  ];
}

async function txView(id) {
  const key = /^C[0-9A-F]{15}$/i.test(id) ? { ctid: id.toUpperCase() } : { transaction: id };
  const r = await api.request('tx', key);
  const t = norm(r);
  const tx = t.tx;
  const flags = flagNames(tx.TransactionType, tx.Flags || 0);
  const changes = balanceChanges(t.meta);
  const binary = h('div', {}, h('p', { class: 'note' }, 'Loading…'));
  const details = h('details', { id: 'binary' }, h('summary', {}, 'Binary (tx_blob and meta_blob)'), binary);
  details.addEventListener('toggle', async () => {
    if (!details.open || details.dataset.loaded) return;
    details.dataset.loaded = '1';
    try {
      const b = await api.request('tx', { ...key, binary: true });
      binary.replaceChildren(h('h2', {}, 'tx_blob'), h('pre', {}, b.tx_blob), h('h2', {}, 'meta_blob'), h('pre', {}, b.meta_blob || b.meta));
    } catch (e) {
      binary.replaceChildren(errorBox(e));
    }
  });
  return [
    h('h1', {}, tx.TransactionType, ' ', resultBadge(t.meta.TransactionResult)),
    panel(h('p', { id: 'tx-summary' }, summary(t)), fields([
      ['Hash', h('span', { class: 'hash', id: 'tx-hash' }, t.hash)],
      ['CTID', r.ctid ? h('span', { class: 'mono' }, r.ctid) : ''],
      ['Ledger', t.ledger != null ? ledgerLink(t.ledger) : 'not yet in a closed ledger'],
      ['Validated', String(!!r.validated)],
      ['Closed', t.date != null ? h('span', { id: 'tx-closed' }, when(t.date)) : ''],
      ['Account', acct(tx.Account)],
      ['Fee', amount(tx.Fee)],
      ['Sequence', tx.TicketSequence != null ? `ticket ${tx.TicketSequence}` : String(tx.Sequence ?? '')],
      ['Flags', flags.length ? flags.map((f) => chip(f)) : ''],
      ['Memos', (tx.Memos || []).map((m) => h('div', {}, hexText(m.Memo?.MemoData || '')))],
    ])),
    ...section('Balance changes', h('div', { id: 'changes' }, table(['Account', 'Change', 'Currency'],
      changes.map((c) => h('tr', { 'data-account': c.account }, [acct(c.account), signed(c.raw, c.change),
        [h('span', { class: 'cur' }, c.unit), c.issuer ? [h('span', { class: 'muted' }, ' · '), acct(c.issuer)] : '']].map((x) => h('td', {}, x)))),
      'No balance changed.'))),
    ...section('Affected objects', table(['', 'Type', 'Index', 'Changes'], affectedRows(t.meta))),
    ...section('Raw', h('details', { open: true }, h('summary', {}, 'JSON'), h('pre', { id: 'raw-json' }, JSON.stringify({ tx_json: tx, meta: t.meta }, null, 2))), details),
  ];
}

const LSF_REQUIRE_AUTH = 0x00040000;

async function accountView(address) {
  const q = { account: address };
  let info;
  try {
    info = await api.request('account_info', { ...q, signer_lists: true });
  } catch (e) {
    if (e.error !== 'actNotFound') throw e;
    return [h('h1', {}, address), h('div', { class: 'error' }, 'This account does not exist in the ledger (it was never funded, or was deleted).'), fundHint(address)];
  }
  const [lines, objects, nfts] = await Promise.all([
    api.request('account_lines', { ...q, limit: 400 }),
    api.request('account_objects', { ...q, limit: 400 }),
    api.request('account_nfts', { ...q, limit: 400 }).catch(() => ({ account_nfts: [] })),
  ]);
  const d = info.account_data;
  const byType = {};
  for (const o of objects.account_objects || []) (byType[o.LedgerEntryType] ||= []).push(o);
  const peers = [...new Set((lines.lines || []).map((l) => l.account))].slice(0, 20);
  const peerFlags = Object.fromEntries(await Promise.all(peers.map((p) =>
    api.request('account_info', { account: p }).then((r) => [p, r.account_data.Flags], () => [p, 0]))));
  const owners = BigInt(d.OwnerCount || 0);
  const reserve = net.reserveBase != null ? net.reserveBase + net.reserveInc * owners : null;
  const flagsOn = Object.entries(info.account_flags || {}).filter(([, v]) => v).map(([k]) => chip(k, k === 'requireAuthorization' ? 'warn' : ''));
  const signerLists = info.signer_lists || d.signer_lists || [];
  const txs = h('div', {});
  const none = [];
  const some = (title, list, build) => {
    if (list && list.length) return section(title, build(list));
    none.push(title);
    return [];
  };
  const view = [
    h('h1', {}, address),
    panel(fields([
      ['Balance', amount(d.Balance)],
      ['Reserve', reserve != null ? [amount(String(reserve)), h('span', { class: 'muted' }, ` (${xrp(net.reserveBase)} + ${owners} × ${xrp(net.reserveInc)})`)] : ''],
      ['Available', reserve != null ? amount(String(BigInt(d.Balance) - reserve)) : ''],
      ['Sequence', String(d.Sequence)],
      ['Objects owned', String(d.OwnerCount)],
      ['Flags', flagsOn],
      ['Domain', d.Domain ? hexText(d.Domain) : ''],
      ['Regular key', d.RegularKey ? acct(d.RegularKey) : ''],
      ['AMM', d.AMMID ? link('#/amm/' + address, 'this account holds an AMM pool', 'amm-link') : ''],
      ['Ledger', info.ledger_index != null ? ledgerLink(info.ledger_index) : info.ledger_current_index != null ? `open ledger #${info.ledger_current_index}` : ''],
    ])),
    ...section('Trust lines', trustLines(lines.lines || [], peerFlags)),
    ...some('Payment channels', byType.PayChannel, (l) => channels(address, l)),
    ...some('Offers', byType.Offer, (l) => table(['Sequence', 'Sells (TakerGets)', 'For (TakerPays)', 'Flags'],
      l.map((o) => [String(o.Sequence), amount(o.TakerGets), amount(o.TakerPays), (o.Flags & 0x20000) ? chip('sell') : (o.Flags & 0x10000) ? chip('passive') : '']))),
    ...some('Escrows', byType.Escrow, (l) => table(['Amount', 'From', 'To', 'Finish after', 'Cancel after', 'Condition'],
      l.map((o) => [amount(o.Amount), acct(o.Account), acct(o.Destination), when(o.FinishAfter), when(o.CancelAfter), o.Condition ? chip('crypto-condition') : '']))),
    ...some('Checks', byType.Check, (l) => table(['Send max', 'From', 'To', 'Expires', 'ID'],
      l.map((o) => [amount(o.SendMax), acct(o.Account), acct(o.Destination), when(o.Expiration), h('span', { class: 'hash' }, short(o.index))]))),
    ...some('NFTs', nfts.account_nfts, (l) => table(['Token ID', 'Issuer', 'Taxon', 'Serial', 'URI', 'Flags'],
      l.map((n) => [h('span', { class: 'hash', title: n.NFTokenID }, short(n.NFTokenID, 12)), acct(n.Issuer), String(n.NFTokenTaxon), String(n.nft_serial), hexText(n.URI || ''),
        [n.Flags & 1 ? chip('burnable') : '', n.Flags & 2 ? chip('only XRP') : '', n.Flags & 8 ? chip('transferable') : '']]))),
    ...some('MPTs held', byType.MPToken, mptsHeld),
    ...some('MPTs issued', byType.MPTokenIssuance, mptsIssued),
    ...some('Signer list', signerLists, (l) => l.map((s) => [h('p', {}, `Quorum ${s.SignerQuorum}`),
      table(['Signer', 'Weight'], (s.SignerEntries || []).map((e) => [acct(e.SignerEntry.Account), String(e.SignerEntry.SignerWeight)]))])),
    ...some('Tickets', byType.Ticket, (l) => h('p', {}, l.map((t) => chip('#' + t.TicketSequence)))),
    ...otherObjects(byType),
  ];
  if (none.length) view.push(h('p', { class: 'note', id: 'nothing' }, 'None: ' + none.join(', ') + '.'));
  view.push(...section('Transactions', txs));
  const cut = [[objects, 'owned objects'], [lines, 'trust lines'], [nfts, 'NFTs']].filter(([r]) => r.marker).map(([, what]) => what);
  if (cut.length) view.splice(2, 0, h('p', { class: 'note' }, `Only the first 400 ${cut.join(', ')} are shown.`));
  await accountTxPage(txs, address, undefined);
  return view;
}

function trustLines(lines, peerFlags) {
  return table(['Peer', 'Currency', 'Balance', 'Limit', 'Peer limit', 'Flags'], lines.map((l) => {
    const flags = [
      l.authorized ? chip('authorized', 'good') : '',
      l.peer_authorized ? chip('authorized by peer', 'good') : '',
      l.freeze ? chip('frozen', 'bad') : '',
      l.freeze_peer ? chip('frozen by peer', 'bad') : '',
      l.deep_freeze ? chip('deep frozen', 'bad') : '',
      l.deep_freeze_peer ? chip('deep frozen by peer', 'bad') : '',
      l.no_ripple ? chip('NoRipple') : '',
      l.no_ripple_peer ? chip('peer NoRipple') : '',
      (peerFlags[l.account] & LSF_REQUIRE_AUTH) ? chip('peer requires auth', 'warn') : '',
    ];
    return h('tr', { 'data-peer': l.account, 'data-currency': currencyName(l.currency) },
      [acct(l.account), h('span', { class: 'cur' }, currencyName(l.currency)), l.balance, l.limit, l.limit_peer, flags].map((c) => h('td', {}, c)));
  }));
}

function channels(address, list) {
  return table(['Direction', 'Counterparty', 'Amount', 'Claimed', 'Claimable', 'Settle delay', 'Expires', 'Channel'], list.map((c) => {
    const out = c.Account === address;
    const claimable = BigInt(c.Amount) - BigInt(c.Balance || 0);
    return h('tr', { 'data-channel': c.index },
      [out ? 'outgoing' : 'incoming', acct(out ? c.Destination : c.Account), amount(c.Amount), amount(c.Balance || '0'),
        h('span', { class: 'claimable' }, amount(String(claimable))), `${c.SettleDelay} s`, when(c.Expiration ?? c.CancelAfter),
        h('span', { class: 'hash', title: c.index }, short(c.index))].map((x) => h('td', {}, x)));
  }));
}

function mptsHeld(held) {
  return table(['Issuance', 'Amount', 'Flags'], held.map((m) => [h('span', { class: 'hash', title: m.MPTokenIssuanceID }, short(m.MPTokenIssuanceID, 12)), m.MPTAmount || '0',
    [m.Flags & 1 ? chip('locked', 'bad') : '', m.Flags & 2 ? chip('authorized', 'good') : '']]));
}

function mptsIssued(issued) {
  return table(['Issuance', 'Outstanding', 'Maximum', 'Scale', 'Flags'], issued.map((m) => [h('span', { class: 'hash' }, short(m.mpt_issuance_id || m.index, 12)), m.OutstandingAmount || '0', m.MaximumAmount || '', String(m.AssetScale ?? 0),
    [m.Flags & 1 ? chip('locked', 'bad') : '', m.Flags & 4 ? chip('requires auth', 'warn') : '', m.Flags & 0x20 ? chip('transferable') : '']]));
}

const SHOWN_TYPES = ['RippleState', 'PayChannel', 'Offer', 'Escrow', 'Check', 'NFTokenPage', 'MPToken', 'MPTokenIssuance', 'SignerList', 'Ticket', 'DirectoryNode'];

function otherObjects(byType) {
  const rest = Object.entries(byType).filter(([t]) => !SHOWN_TYPES.includes(t));
  if (!rest.length) return [];
  return section('Other objects', rest.map(([type, list]) => h('details', {}, h('summary', {}, `${type} (${list.length})`),
    list.map((o) => [objectLink(o.index), h('pre', {}, JSON.stringify(o, null, 2))]))));
}

// One ledger entry by its index, as `ledger_entry` gives it.
async function objectView(index) {
  const r = await api.request('ledger_entry', { index });
  const node = r.node || {};
  const owner = node.Account || node.Owner || node.Issuer;
  return [
    h('h1', {}, node.LedgerEntryType || 'Ledger entry'),
    panel(fields([
      ['Index', h('span', { class: 'hash', id: 'object-index' }, r.index || index)],
      ['Ledger', r.ledger_index != null ? ledgerLink(r.ledger_index) : r.ledger_current_index != null ? `open ledger #${r.ledger_current_index}` : ''],
      ['Owner', owner ? acct(owner) : ''],
      ['Last changed by', node.PreviousTxnID ? txLink(node.PreviousTxnID, short(node.PreviousTxnID)) : ''],
    ])),
    ...section('Fields', h('pre', { id: 'object-json' }, JSON.stringify(node, null, 2))),
  ];
}

async function accountTxPage(el, address, marker) {
  const r = await api.request('account_tx', { account: address, limit: settings.tx_page, ...(marker ? { marker } : {}) });
  const rows = (r.transactions || []).map(norm).map((t) => [when(t.date), ...txRow(t)]);
  const more = r.marker ? h('button', { type: 'button', id: 'older', onclick: (e) => { e.target.remove(); accountTxPage(el, address, r.marker).catch((err) => el.append(errorBox(err))); } }, 'Older transactions') : '';
  el.append(table(['Closed', 'Hash', 'Type', 'Result', 'Summary'], rows, marker ? 'No older transactions.' : 'No transactions.'), more);
}

// An asset as typed: "XRP", "USD.rIssuer" or a 40-hex code; the API's {currency, issuer}.
function parseAsset(text) {
  text = (text || '').trim();
  if (!text || text.toUpperCase() === 'XRP') return { currency: 'XRP' };
  const [cur, issuer] = text.split(/[./]/);
  let currency = cur;
  if (!/^[0-9A-Fa-f]{40}$/.test(cur) && cur.length !== 3) {
    currency = Array.from(new TextEncoder().encode(cur)).map((b) => b.toString(16).padStart(2, '0')).join('').toUpperCase().padEnd(40, '0');
  }
  return issuer ? { currency, issuer } : { currency };
}

const assetText = (a) => (a.currency === 'XRP' ? 'XRP' : `${currencyName(a.currency)}.${a.issuer}`);
const value = (a) => (typeof a === 'string' ? Number(a) / 1e6 : Number(a.value));

function pairForm(kind, base, quote, hint) {
  const a = h('input', { id: kind + '-base', value: base || '', placeholder: 'XRP or USD.rIssuer…' });
  const b = h('input', { id: kind + '-quote', value: quote || '', placeholder: 'XRP or USD.rIssuer…' });
  const form = h('form', { class: 'form-row', id: kind + '-form' }, a, h('span', {}, '/'), b, h('button', { type: 'submit' }, 'Show'), h('span', { class: 'note' }, hint));
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    location.hash = `#/${kind}/${encodeURIComponent(a.value.trim())}/${encodeURIComponent(b.value.trim())}`;
  });
  return form;
}

async function bookView(base, quote) {
  const form = pairForm('book', base, quote, 'Base / quote, e.g. XRP / USD.r…');
  if (!base || !quote) return [h('h1', {}, 'Order book'), panel(form)];
  const B = parseAsset(base), Q = parseAsset(quote);
  const [asks, bids] = await Promise.all([
    api.request('book_offers', { taker_gets: B, taker_pays: Q, limit: 50 }),
    api.request('book_offers', { taker_gets: Q, taker_pays: B, limit: 50 }),
  ]);
  const side = (offers, selling) => table(['Price', `Amount (${currencyName(B.currency)})`, 'Owner'], offers.map((o) => {
    const gets = o.taker_gets_funded ?? o.TakerGets, pays = o.taker_pays_funded ?? o.TakerPays;
    const price = selling ? value(pays) / value(gets) : value(gets) / value(pays);
    return [price.toPrecision(8), String(+(selling ? value(gets) : value(pays)).toPrecision(12)), acct(o.Account)];
  }), 'No offers.');
  return [
    h('h1', {}, `Order book ${assetText(B)} / ${assetText(Q)}`),
    panel(form),
    h('div', { class: 'split' },
      h('div', {}, ...section(`Bids (buying ${currencyName(B.currency)})`, side(bids.offers || [], false))),
      h('div', {}, ...section(`Asks (selling ${currencyName(B.currency)})`, side(asks.offers || [], true)))),
    h('p', { class: 'note' }, `Prices in ${currencyName(Q.currency)} per ${currencyName(B.currency)}.`),
  ];
}

async function ammView(first, second) {
  const form = pairForm('amm', first, second, 'The pool\'s two assets, or its account alone');
  if (!first) return [h('h1', {}, 'AMM pool'), panel(form)];
  const key = /^r/.test(first) && !second ? { amm_account: first } : { asset: parseAsset(first), asset2: parseAsset(second) };
  const r = await api.request('amm_info', key);
  const a = r.amm;
  const slot = a.auction_slot;
  return [
    h('h1', {}, 'AMM pool'),
    panel(form),
    panel(fields([
      ['Account', acct(a.account)],
      ['Pool', [amount(a.amount), h('br', {}), amount(a.amount2)]],
      ['Price', `${(value(a.amount2) / value(a.amount)).toPrecision(8)} ${currencyName(a.amount2.currency || 'XRP')} per ${currencyName(a.amount.currency || 'XRP')}`],
      ['LP tokens', amount(a.lp_token)],
      ['Trading fee', `${(a.trading_fee / 1000).toFixed(3)} %`],
      ['Frozen', a.asset_frozen || a.asset2_frozen ? chip('frozen', 'bad') : ''],
    ])),
    ...section('Votes', table(['Account', 'Fee', 'Weight'], (a.vote_slots || []).map((v) => [acct(v.account), `${(v.trading_fee / 1000).toFixed(3)} %`, String(v.vote_weight)]))),
    ...section('Auction slot', slot ? fields([['Holder', acct(slot.account)], ['Price', amount(slot.price)], ['Discounted fee', `${(slot.discounted_fee / 1000).toFixed(3)} %`], ['Expires', slot.expiration || '']]) : h('p', { class: 'note' }, 'Nobody holds the slot.')),
  ];
}

// Search: an address, a transaction hash or CTID, a ledger index or hash.
async function searchView(text) {
  text = text.trim();
  if (/^r[1-9A-HJ-NP-Za-km-z]{24,34}$/.test(text)) return go('#/account/' + text);
  if (/^C[0-9A-Fa-f]{15}$/.test(text)) return go('#/tx/' + text.toUpperCase());
  if (/^\d+$/.test(text)) return go('#/ledger/' + Number(text));
  if (/^[0-9A-Fa-f]{64}$/.test(text)) {
    const hash = text.toUpperCase();
    try {
      await api.request('tx', { transaction: hash });
      return go('#/tx/' + hash);
    } catch (e) {
      if (e.error !== 'txnNotFound' && e.error !== 'notFound') throw e;
    }
    try {
      await api.request('ledger', { ledger_hash: hash });
      return go('#/ledger/' + hash);
    } catch (e) {
      if (e.error !== 'lgrNotFound') throw e;
    }
  }
  return [h('h1', {}, 'Search'), h('div', { class: 'error' }, `Nothing found for “${text}”. Search takes an r-address, a transaction hash or CTID, a ledger index or a ledger hash.`)];
}

function go(hash) {
  history.replaceState(null, '', hash);
  return render();
}

// ---------------------------------------------------------------------------------------
// Development actions (admin connections of a writable server only)
// ---------------------------------------------------------------------------------------

function fundHint(address) {
  if (!settings.faucet) return '';
  return h('p', {}, h('button', { type: 'button', onclick: () => fund(address, '1000') }, 'Fund it with 1,000 XRP from the faucet'));
}

async function fund(address, xrpAmount) {
  const out = $('#action-out');
  out.textContent = 'Funding…';
  try {
    const resp = await fetch('/accounts', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ destination: address, xrpAmount }),
    });
    const r = await resp.json();
    if (!resp.ok) throw new Error(r.error_message || r.error || resp.statusText);
    out.replaceChildren('Funded ', acct(r.account.classicAddress || r.account.address || address), ' with ', `${r.amount} XRP`,
      r.transactionHash ? [' in ', txLink(r.transactionHash, short(r.transactionHash))] : '');
  } catch (e) {
    out.replaceChildren(errorBox(e));
  }
}

async function act(what, command, params, describe) {
  const out = $('#action-out');
  out.textContent = what + '…';
  try {
    const r = await api.request(command, params);
    out.textContent = describe(r);
    if (command === 'ledger_revert') {
      net.ledger = Number(r.ledger_index);
      render();
    }
  } catch (e) {
    out.replaceChildren(errorBox(e));
  }
}

function actionsBar() {
  const bar = $('#actions');
  if (!settings.actions) return;
  const addr = h('input', { id: 'fund-address', placeholder: 'r… address to fund', size: 36 });
  const amt = h('input', { id: 'fund-amount', value: '1000', size: 7, 'aria-label': 'XRP to fund' });
  const snap = h('input', { id: 'revert-id', placeholder: 'snapshot #', size: 9 });
  bar.append(
    h('span', { class: 'label', title: 'Shown because this connection is an admin connection of a writable server' }, 'Development actions'),
    h('span', { class: 'group' }, h('button', { type: 'button', id: 'close-ledger', onclick: () => act('Closing', 'ledger_accept', {}, (r) => `Closed ledger #${r.ledger_current_index - 1}.`) }, 'Close ledger')),
    h('span', { class: 'group' }, h('button', { type: 'button', id: 'take-snapshot', onclick: () => act('Saving', 'ledger_snapshot', {}, (r) => { snap.value = r.snapshot; return `Snapshot #${r.snapshot} of ledger #${r.ledger_index}.`; }) }, 'Take snapshot')),
    h('span', { class: 'group' }, snap, h('button', { type: 'button', id: 'revert', onclick: () => act('Reverting', 'ledger_revert', { snapshot: Number(snap.value) }, (r) => `Reverted to snapshot #${r.snapshot}: ledger #${r.ledger_index}.`) }, 'Revert to snapshot')),
    settings.faucet ? h('span', { class: 'group' }, addr, amt, h('button', { type: 'button', id: 'fund', onclick: () => fund(addr.value.trim(), amt.value.trim()) }, 'Fund from faucet')) : '',
    h('span', { class: 'out', id: 'action-out', role: 'status' }));
  bar.hidden = false;
}

// ---------------------------------------------------------------------------------------
// Routing
// ---------------------------------------------------------------------------------------

const ROUTES = [
  ['home', /^#?\/?$/, () => live.open()],
  ['ledger', /^#\/ledger\/([^/]+)$/, ledgerView],
  ['tx', /^#\/tx\/([^/]+)$/, txView],
  ['account', /^#\/account\/([^/]+)$/, accountView],
  ['book', /^#\/book(?:\/([^/]*)\/([^/]*))?$/, bookView],
  ['amm', /^#\/amm(?:\/([^/]*)(?:\/([^/]*))?)?$/, ammView],
  ['object', /^#\/object\/([0-9A-Fa-f]{64})$/, objectView],
  ['search', /^#\/search\/(.+)$/, searchView],
];

function route() {
  for (const [name, re, view] of ROUTES) {
    const m = location.hash.match(re);
    if (!m) continue;
    try {
      return { name, view, args: m.slice(1).map((a) => (a == null ? a : decodeURIComponent(a))) };
    } catch {
      break;
    }
  }
  return { name: 'none', view: async () => [h('h1', {}, 'Not found'), h('p', {}, link('#/', 'Back to the ledgers'))], args: [] };
}

let rendering = 0;

async function render() {
  const token = ++rendering;
  const view = $('#view');
  const hash = location.hash;
  const r = route();
  view.dataset.view = r.name;
  view.dataset.ready = '';
  view.replaceChildren(h('p', { class: 'note' }, 'Loading…'));
  let content;
  try {
    content = await r.view(...r.args);
  } catch (e) {
    content = errorBox(e);
  }
  if (token !== rendering || content === undefined) return;
  view.replaceChildren(...[content].flat(Infinity).filter((x) => x != null && x !== ''));
  view.dataset.route = hash;
  view.dataset.ready = '1';
}

window.ledgerdExplorer = { requests: 0 };
$('#search').addEventListener('submit', (e) => {
  e.preventDefault();
  const text = $('#q').value.trim();
  if (text) location.hash = '#/search/' + encodeURIComponent(text);
});
window.addEventListener('hashchange', render);
actionsBar();
showRequestCount();
api.connect();
if (route().name !== 'home') render();
