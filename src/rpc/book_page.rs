//! What `book_offers` and `subscribe` (`books` with `snapshot`) share: one page of an order
//! book as rippled's `NetworkOPs::getBookPage` prints it — each offer's ledger entry plus
//! `quality` (its directory's rate), `owner_funds` (on an owner's first offer of the page)
//! and `taker_gets_funded` / `taker_pays_funded` when the owner's funds, left after its
//! better offers and the issuer's transfer fee, do not cover the offer — and the text of a
//! book directory's rate.

use std::collections::HashMap;

use crate::engine::ripple::QUALITY_ONE;
use crate::ledger::book::for_each_book_offer_in;
use crate::ledger::flags::lsf;
use crate::ledger::keylet;
use crate::ledger::sf::{sf, StExt};
use crate::ledger::view::ReadView;
use crate::protocol::amount::{Amount, IouValue, Rounding};
use crate::protocol::types::{AccountId, Hash256, Issue};
use crate::render::ledger::entry_json;
use crate::rpc::error::{ErrorCode, RpcError};
use crate::rpc::params::{as_bool, as_string, parse_hash256};
use serde_json::Value;

/// An order book: takers pay `pays` and get `gets` (rippled `Book{in, out, domain}`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Book {
    /// What a taker pays (the offers' TakerPays issue).
    pub pays: Issue,
    /// What a taker gets (the offers' TakerGets issue).
    pub gets: Issue,
    /// A permissioned domain's book (None: the open book).
    pub domain: Option<Hash256>,
}

impl Book {
    /// The other side of the market (rippled `reversed`).
    pub fn reversed(&self) -> Book {
        Book {
            pays: self.gets,
            gets: self.pays,
            domain: self.domain,
        }
    }
}

/// A book directory's rate as a value (rippled `amountFromQuality`): the key's low 56 bits
/// are the mantissa, its top byte the exponent plus 100.
pub fn quality_value(quality: u64) -> IouValue {
    let mantissa = quality & 0x00FF_FFFF_FFFF_FFFF;
    let exponent = (quality >> 56) as i32 - 100;
    IouValue::from_parts(u128::from(mantissa), exponent, false, Rounding::Nearest)
        .unwrap_or(IouValue::ZERO)
}

/// The `quality` text of an offer on the book directory page `dir` (rippled prints
/// `amountFromQuality(getQuality(dir)).getText()`).
pub fn quality_text(dir: &Hash256) -> String {
    quality_value(keylet::book_quality_of(dir)).to_text()
}

/// A quantity of one side of the book: drops kept exact, issued values as rippled's.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Qty {
    Drops(i64),
    Iou(IouValue),
}

impl Qty {
    fn of(a: &Amount) -> Qty {
        match a {
            Amount::Xrp(d) => Qty::Drops(*d),
            Amount::Iou { value, .. } => Qty::Iou(*value),
        }
    }

    fn zero(issue: &Issue) -> Qty {
        if issue.is_xrp() {
            Qty::Drops(0)
        } else {
            Qty::Iou(IouValue::ZERO)
        }
    }

    fn value(&self) -> IouValue {
        match self {
            Qty::Drops(d) => {
                IouValue::from_parts(u128::from(d.unsigned_abs()), 0, *d < 0, Rounding::Nearest)
                    .unwrap_or(IouValue::ZERO)
            }
            Qty::Iou(v) => *v,
        }
    }

    /// A value in this quantity's kind (drops rounded to nearest).
    fn like(&self, v: IouValue) -> Qty {
        match self {
            Qty::Iou(_) => Qty::Iou(v),
            Qty::Drops(_) => Qty::Drops(to_drops(v)),
        }
    }

    fn less_than(&self, other: &Qty) -> bool {
        match (self, other) {
            (Qty::Drops(a), Qty::Drops(b)) => a < b,
            _ => self.value() < other.value(),
        }
    }

    fn min(self, other: Qty) -> Qty {
        if other.less_than(&self) {
            other
        } else {
            self
        }
    }

    fn minus(&self, other: &Qty) -> Qty {
        match (self, other) {
            (Qty::Drops(a), Qty::Drops(b)) => Qty::Drops(a.saturating_sub(*b)),
            _ => Qty::Iou(
                self.value()
                    .checked_sub(&other.value())
                    .unwrap_or(IouValue::ZERO),
            ),
        }
    }

    /// `self * rate / 10^9` or `self / (rate / 10^9)` (rippled `multiply` / `divide` by a
    /// `Rate`).
    fn with_rate(&self, rate: u32, divide: bool) -> Qty {
        let r = IouValue::from_parts(u128::from(rate), -9, false, Rounding::Nearest)
            .unwrap_or(IouValue::ZERO);
        let v = if divide {
            self.value().checked_div(&r, Rounding::Nearest)
        } else {
            self.value().checked_mul(&r, Rounding::Nearest)
        };
        self.like(v.unwrap_or(IouValue::ZERO))
    }

    fn to_amount(self, issue: &Issue) -> Amount {
        match self {
            Qty::Drops(d) => Amount::Xrp(d),
            Qty::Iou(v) => Amount::iou(v, issue.currency, issue.issuer),
        }
    }

    fn text(&self) -> String {
        match self {
            Qty::Drops(d) => d.to_string(),
            Qty::Iou(v) => v.to_text(),
        }
    }
}

fn to_drops(v: IouValue) -> i64 {
    // Round to a whole number of drops: at exponent >= 0 the value is already whole.
    let e = v.exponent();
    if v.is_zero() {
        return 0;
    }
    let m = i128::from(v.mantissa());
    let n = if e >= 0 {
        m.saturating_mul(10i128.saturating_pow(e.min(30) as u32))
    } else if e < -20 {
        0
    } else {
        let d = 10i128.pow((-e) as u32);
        let (q, r) = (m / d, m % d);
        if r * 2 >= d {
            q + 1
        } else {
            q
        }
    };
    let n = n.min(i128::from(i64::MAX)) as i64;
    if v.is_negative() {
        -n
    } else {
        n
    }
}

/// rippled `isGlobalFrozen`: the issuer (never XRP's) froze all its lines.
fn global_frozen(view: &dyn ReadView, issuer: &AccountId) -> bool {
    *issuer != AccountId::ZERO
        && view
            .read(&keylet::account(issuer))
            .is_some_and(|r| r.is_flag(lsf::GLOBAL_FREEZE))
}

/// rippled `transferRate`: the issuer's TransferRate, parity when none (or XRP).
fn transfer_rate(view: &dyn ReadView, issuer: &AccountId) -> u32 {
    view.read(&keylet::account(issuer))
        .and_then(|r| r.u32_of(sf().transfer_rate))
        .filter(|r| *r != 0)
        .unwrap_or(QUALITY_ONE)
}

/// rippled `accountHolds(..., fhZERO_IF_FROZEN)`, negatives as zero: XRP above the
/// reserve, or the owner's balance on an unfrozen line to the issuer.
fn holds(view: &dyn ReadView, owner: &AccountId, issue: &Issue) -> Qty {
    let held = crate::engine::funds::account_holds(view, owner, issue, true);
    if held.is_negative() {
        return Qty::zero(issue);
    }
    Qty::of(&held)
}

/// One page of `book` in `view`, at most `limit` offers, as seen by `taker` (rippled passes
/// the zero account for book_offers without a taker, `noAccount` for a subscription).
pub fn book_page(view: &dyn ReadView, book: &Book, taker: &AccountId, limit: u32) -> Vec<Value> {
    let mut out = Vec::new();
    if limit == 0 {
        return out;
    }
    let out_issuer = book.gets.issuer;
    let frozen_book = global_frozen(view, &out_issuer) || global_frozen(view, &book.pays.issuer);
    let rate = transfer_rate(view, &out_issuer);
    let mut left: HashMap<AccountId, Qty> = HashMap::new();
    let s = sf();
    let domain = book.domain.as_ref();
    for_each_book_offer_in(view, &book.pays, &book.gets, domain, |dir, key, offer| {
        let (Some(owner), Some(gets), Some(pays)) = (
            offer.account_of(s.account),
            offer.amount_of(s.taker_gets),
            offer.amount_of(s.taker_pays),
        ) else {
            return true;
        };
        let (gets_q, pays_q) = (Qty::of(&gets), Qty::of(&pays));
        let mut first = true;
        let funds = if owner == out_issuer {
            gets_q
        } else if frozen_book {
            Qty::zero(&book.gets)
        } else if let Some(f) = left.get(&owner) {
            first = false;
            *f
        } else {
            holds(view, &owner, &book.gets)
        };
        let charged = rate != QUALITY_ONE && *taker != out_issuer && owner != out_issuer;
        let limit_funds = if charged {
            funds.with_rate(rate, true)
        } else {
            funds
        };
        let mut json = entry_json(key, offer);
        let dir_rate = quality_value(keylet::book_quality_of(dir));
        let funded = if limit_funds.less_than(&gets_q) {
            let pays_funded = pays_q.like(
                limit_funds
                    .value()
                    .checked_mul(&dir_rate, Rounding::Nearest)
                    .unwrap_or(IouValue::ZERO),
            );
            if let Value::Object(o) = &mut json {
                o.insert(
                    "taker_gets_funded".into(),
                    limit_funds.to_amount(&book.gets).to_json(),
                );
                o.insert(
                    "taker_pays_funded".into(),
                    pays_q.min(pays_funded).to_amount(&book.pays).to_json(),
                );
            }
            limit_funds
        } else {
            gets_q
        };
        let owner_pays = if charged {
            funds.min(funded.with_rate(rate, false))
        } else {
            funded
        };
        left.insert(owner, funds.minus(&owner_pays));
        if let Value::Object(o) = &mut json {
            o.insert("quality".into(), Value::from(dir_rate.to_text()));
            if first {
                o.insert("owner_funds".into(), Value::from(funds.text()));
            }
            o.sort_keys();
        }
        out.push(json);
        out.len() < limit as usize
    });
    out
}

/// rippled `to_issuer`: 40 hex digits or a classic address.
pub fn parse_issuer(text: &str) -> Option<AccountId> {
    if text.len() == 40 {
        let mut b = [0u8; 20];
        if hex::decode_to_slice(text, &mut b).is_ok() {
            return Some(AccountId(b));
        }
    }
    AccountId::from_address(text).ok()
}

/// One side of a `books` entry of subscribe / unsubscribe: a currency (else
/// `cur_code`) and an optional issuer consistent with it, never `noAccount` (else
/// `isr_code`).
fn subscription_issue(
    spec: &Value,
    cur_code: ErrorCode,
    isr_code: ErrorCode,
) -> Result<Issue, RpcError> {
    let currency = spec
        .get("currency")
        .and_then(as_string)
        .and_then(|c| crate::protocol::types::Currency::from_json_str(&c).ok())
        .ok_or_else(|| RpcError::new(cur_code))?;
    let issuer = match spec.get("issuer") {
        None => AccountId::ZERO,
        Some(v) => v
            .as_str()
            .and_then(parse_issuer)
            .ok_or_else(|| RpcError::new(isr_code))?,
    };
    if currency.is_xrp() != (issuer == AccountId::ZERO) || issuer == AccountId::ONE {
        return Err(RpcError::new(isr_code));
    }
    Ok(Issue { currency, issuer })
}

/// The book of one `books` entry of subscribe / unsubscribe, with rippled's checks and
/// codes (`invalidParams`, `srcCurMalformed`, `srcIsrMalformed`, `dstAmtMalformed`,
/// `dstIsrMalformed`, `badMarket`).
pub fn subscription_book(entry: &Value) -> Result<Book, RpcError> {
    let side = |name: &str| match entry.get(name) {
        Some(v @ Value::Object(_)) => Ok(v.clone()),
        Some(Value::Null) => Ok(Value::Object(Default::default())),
        _ => Err(RpcError::new(ErrorCode::InvalidParams)),
    };
    if !entry.is_object() {
        return Err(RpcError::new(ErrorCode::InvalidParams));
    }
    let (pays, gets) = (side("taker_pays")?, side("taker_gets")?);
    let pays = subscription_issue(
        &pays,
        ErrorCode::SrcCurMalformed,
        ErrorCode::SrcIsrMalformed,
    )?;
    let gets = subscription_issue(
        &gets,
        ErrorCode::DstAmtMalformed,
        ErrorCode::DstIsrMalformed,
    )?;
    if pays == gets {
        return Err(RpcError::new(ErrorCode::BadMarket));
    }
    Ok(Book {
        pays,
        gets,
        domain: None,
    })
}

/// A `books` entry's optional `domain` (`domainMalformed` unless 64 hex digits).
pub fn subscription_domain(entry: &Value) -> Result<Option<Hash256>, RpcError> {
    match entry.get("domain") {
        None => Ok(None),
        Some(v) => v
            .as_str()
            .and_then(parse_hash256)
            .map(Some)
            .ok_or_else(|| RpcError::new(ErrorCode::DomainMalformed)),
    }
}

/// A `books` entry's flag that has a deprecated alias (`both` / `both_sides`,
/// `snapshot` / `state_now`).
pub fn subscription_flag(entry: &Value, name: &str, alias: &str) -> bool {
    [name, alias]
        .iter()
        .any(|k| entry.get(*k).is_some_and(as_bool))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ledger::fees::Fees;
    use crate::ledger::flags::lt;
    use crate::ledger::state::{stamp, State};
    use crate::ledger::view::{StateView, ViewInfo};
    use crate::protocol::st::{StObject, StValue};
    use crate::protocol::types::Currency;
    use std::sync::Arc;

    fn acct(n: u8) -> AccountId {
        AccountId([n; 20])
    }

    fn usd(gw: AccountId, v: &str) -> Amount {
        Amount::iou(IouValue::parse(v).unwrap(), Currency::iso(*b"USD"), gw)
    }

    fn entry(kind: u16, fields: Vec<(&str, StValue)>) -> Arc<StObject> {
        let mut o = StObject::new();
        o.set(sf().ledger_entry_type, StValue::UInt16(kind));
        o.set(sf().flags, StValue::UInt32(0));
        for (name, v) in fields {
            o.set_named(name, v);
        }
        Arc::new(o)
    }

    fn root(a: AccountId, drops: i64, extra: Vec<(&str, StValue)>) -> (Hash256, Arc<StObject>) {
        let mut f = vec![
            ("Account", StValue::AccountId(a)),
            ("Balance", StValue::Amount(Amount::Xrp(drops))),
            ("OwnerCount", StValue::UInt32(0)),
            ("Sequence", StValue::UInt32(1)),
        ];
        f.extend(extra);
        (keylet::account(&a), entry(lt::ACCOUNT_ROOT, f))
    }

    /// `holder`'s line to `gw` holding `v` USD.
    fn line(holder: AccountId, gw: AccountId, v: &str) -> (Hash256, Arc<StObject>) {
        let bal = IouValue::parse(v).unwrap();
        let bal = if holder < gw { bal } else { bal.negate() };
        let (lo, hi) = if holder < gw {
            (holder, gw)
        } else {
            (gw, holder)
        };
        let lim = |a| StValue::Amount(usd(a, "1000"));
        let f = vec![
            (
                "Balance",
                StValue::Amount(Amount::iou(bal, Currency::iso(*b"USD"), AccountId::ONE)),
            ),
            ("LowLimit", lim(lo)),
            ("HighLimit", lim(hi)),
        ];
        let key = keylet::line(&holder, &gw, &Currency::iso(*b"USD"));
        (key, entry(lt::RIPPLE_STATE, f))
    }

    /// Quality `m * 10^e` as a directory key's low 64 bits.
    fn q(m: u64, e: i32) -> u64 {
        (((e + 100) as u64) << 56) | m
    }

    /// A book where takers pay XRP and get USD/gw, with 2 quality pages: alice 60 USD
    /// and bob 10 USD at 10 XRP/USD, then alice 50 USD and gw 5 USD at 20 XRP/USD.
    fn ledger(gw: AccountId) -> StateView {
        let (alice, bob) = (acct(1), acct(2));
        let book = Book {
            pays: Issue::XRP,
            gets: usd(gw, "1").issue(),
            domain: None,
        };
        let base = keylet::book_base(&book.pays, &book.gets);
        let mut w = vec![
            root(alice, 1_000_000_000, vec![]),
            root(bob, 1_000_000_000, vec![]),
            root(
                gw,
                1_000_000_000,
                vec![("TransferRate", StValue::UInt32(1_250_000_000))],
            ),
            line(alice, gw, "100"),
            line(bob, gw, "20"),
        ];
        let offers = [
            (
                alice,
                1u32,
                "60",
                600_000_000i64,
                q(1_000_000_000_000_000, -8),
            ),
            (bob, 2, "10", 100_000_000, q(1_000_000_000_000_000, -8)),
            (alice, 3, "50", 1_000_000_000, q(2_000_000_000_000_000, -8)),
            (gw, 4, "5", 100_000_000, q(2_000_000_000_000_000, -8)),
        ];
        let mut pages: Vec<(u64, Vec<Hash256>)> = Vec::new();
        for (owner, seq, gets, pays, quality) in offers {
            let key = keylet::offer(&owner, seq);
            let dir = keylet::book_quality_key(&base, quality);
            w.push((
                key,
                entry(
                    lt::OFFER,
                    vec![
                        ("Account", StValue::AccountId(owner)),
                        ("Sequence", StValue::UInt32(seq)),
                        ("TakerGets", StValue::Amount(usd(gw, gets))),
                        ("TakerPays", StValue::Amount(Amount::Xrp(pays))),
                        ("BookDirectory", StValue::Hash256(dir)),
                        ("BookNode", StValue::UInt64(0)),
                        ("OwnerNode", StValue::UInt64(0)),
                    ],
                ),
            ));
            match pages.iter_mut().find(|(qq, _)| *qq == quality) {
                Some((_, keys)) => keys.push(key),
                None => pages.push((quality, vec![key])),
            }
        }
        for (quality, keys) in pages {
            let dir = keylet::book_quality_key(&base, quality);
            let f = vec![
                ("RootIndex", StValue::Hash256(dir)),
                ("Indexes", StValue::Vector256(keys)),
                ("ExchangeRate", StValue::UInt64(quality)),
            ];
            w.push((dir, entry(lt::DIR_NODE, f)));
        }
        let state = Arc::new(State::new());
        let at = stamp(3, 0);
        state.commit(at, w.into_iter().map(|(k, v)| (k, Some(v))));
        let info = ViewInfo {
            seq: 3,
            parent_close_time: 0,
            fees: Fees::default(),
            open: true,
            parent_hash: crate::protocol::types::Hash256::ZERO,
            rules: Default::default(),
        };
        StateView::new(state, at, info)
    }

    fn page(taker: AccountId, limit: u32) -> Vec<Value> {
        let gw = acct(9);
        let view = ledger(gw);
        let book = Book {
            pays: Issue::XRP,
            gets: usd(gw, "1").issue(),
            domain: None,
        };
        book_page(&view, &book, &taker, limit)
    }

    #[test]
    fn funds_follow_rippleds_get_book_page() {
        let p = page(AccountId::ZERO, 60);
        let seqs: Vec<_> = p.iter().map(|o| o["Sequence"].as_u64().unwrap()).collect();
        assert_eq!(seqs, [1, 2, 3, 4], "quality, then time");
        assert_eq!(p[0]["quality"], "10000000");
        assert_eq!(p[2]["quality"], "20000000");
        // Alice: 100 USD, 80 after the 25% transfer fee, covers 60 (paying 75).
        assert_eq!(p[0]["owner_funds"], "100");
        assert!(p[0].get("taker_gets_funded").is_none());
        assert_eq!(p[1]["owner_funds"], "20");
        // Her second offer: 25 left, 20 after the fee; no owner_funds (not her first).
        assert!(p[2].get("owner_funds").is_none());
        assert_eq!(p[2]["taker_gets_funded"]["value"], "20");
        assert_eq!(p[2]["taker_pays_funded"], "400000000");
        // The issuer's own offer is funded by definition.
        assert_eq!(p[3]["owner_funds"], "5");
        assert!(p[3].get("taker_gets_funded").is_none());
        assert_eq!(p[0]["index"], keylet::offer(&acct(1), 1).to_hex());
    }

    #[test]
    fn the_issuer_as_taker_pays_no_fee_and_limit_cuts() {
        let p = page(acct(9), 60);
        assert_eq!(p[2]["taker_gets_funded"]["value"], "40");
        assert_eq!(p[2]["taker_pays_funded"], "800000000");
        assert_eq!(page(AccountId::ZERO, 3).len(), 3);
        assert!(page(AccountId::ZERO, 0).is_empty());
    }

    #[test]
    fn quality_texts_are_rippleds() {
        // 4000 XRP for 10 USD: 4e9 drops / 10 = 4e8, mantissa 4e15, exponent -7.
        let q = (93u64 << 56) | 4_000_000_000_000_000;
        assert_eq!(quality_value(q).to_text(), "400000000");
        let q = (84u64 << 56) | 1_000_000_000_000_000;
        assert_eq!(quality_value(q).to_text(), "0.1");
        assert_eq!(to_drops(IouValue::parse("2.5").unwrap()), 3);
        assert_eq!(to_drops(IouValue::parse("123456789").unwrap()), 123_456_789);
        assert!(Qty::Drops(5).less_than(&Qty::Drops(6)));
        let ten = Qty::Iou(IouValue::from_i64(10));
        assert_eq!(ten.with_rate(1_250_000_000, true).text(), "8");
        assert_eq!(ten.with_rate(1_250_000_000, false).text(), "12.5");
    }
}
