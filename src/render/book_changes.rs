//! The `bookChanges` object (rippled `BookChanges.h`, `computeBookChanges`): per pair of
//! issues, the volume each side traded in one ledger and the high, low, open and close
//! rates, computed from the offers its transactions' metadata shows consumed (modified or
//! deleted with both TakerGets and TakerPays among the previous fields); offers an
//! OfferCancel or OfferCreate cancels by `OfferSequence` are not trades.

use std::collections::BTreeMap;
use std::sync::Arc;

use crate::ledger::flags::lt;
use crate::ledger::sf::{sf, StExt};
use crate::ledgers::TxEntry;
use crate::protocol::amount::{Amount, IouValue, Rounding};
use crate::protocol::st::StObject;
use crate::protocol::types::{Hash256, Issue};
use serde_json::{Map, Value};

/// The ledger a `bookChanges` object describes.
pub struct LedgerRef {
    /// Sequence.
    pub seq: u32,
    /// Hash.
    pub hash: Hash256,
    /// Close time (seconds since the ripple epoch).
    pub close_time: u32,
    /// Whether it is validated.
    pub validated: bool,
}

/// A traded quantity: drops kept exact, issued values as rippled's.
#[derive(Clone, Copy)]
enum Vol {
    Drops(i64),
    Iou(IouValue),
}

impl Vol {
    fn value(&self) -> IouValue {
        match self {
            Vol::Drops(d) => {
                IouValue::from_parts(u128::from(d.unsigned_abs()), 0, *d < 0, Rounding::Nearest)
                    .unwrap_or(IouValue::ZERO)
            }
            Vol::Iou(v) => *v,
        }
    }

    fn abs(self) -> Vol {
        match self {
            Vol::Drops(d) => Vol::Drops(d.saturating_abs()),
            Vol::Iou(v) => Vol::Iou(v.abs()),
        }
    }

    fn plus(self, other: Vol) -> Vol {
        match (self, other) {
            (Vol::Drops(a), Vol::Drops(b)) => Vol::Drops(a.saturating_add(b)),
            _ => Vol::Iou(
                self.value()
                    .checked_add(&other.value())
                    .unwrap_or(self.value()),
            ),
        }
    }

    fn text(&self) -> String {
        match self {
            Vol::Drops(d) => d.to_string(),
            Vol::Iou(v) => v.to_text(),
        }
    }
}

/// `final - previous` of one amount field, with its issue (None when the issues differ).
fn delta(fin: &Amount, prev: &Amount) -> Option<(Issue, Vol)> {
    match (fin, prev) {
        (Amount::Xrp(a), Amount::Xrp(b)) => Some((Issue::XRP, Vol::Drops(a.saturating_sub(*b)))),
        (Amount::Iou { value: a, .. }, Amount::Iou { value: b, .. })
            if fin.issue() == prev.issue() =>
        {
            Some((fin.issue(), Vol::Iou(a.checked_sub(b).ok()?)))
        }
        _ => None,
    }
}

/// rippled's `to_string(Issue)`: `XRP`, or `<issuer>/<currency>`.
fn issue_text(issue: &Issue) -> String {
    if issue.is_xrp() {
        return issue.currency.to_json_string();
    }
    format!(
        "{}/{}",
        issue.issuer.to_address(),
        issue.currency.to_json_string()
    )
}

struct Tally {
    issue_a: Issue,
    issue_b: Issue,
    vol_a: Vol,
    vol_b: Vol,
    high: IouValue,
    low: IouValue,
    open: IouValue,
    close: IouValue,
    /// The last trade's offer's DomainID (rippled keeps the last one).
    domain: Option<crate::protocol::types::Hash256>,
}

/// One consumed offer's trade: the tally key, both sides' signed deltas and issues.
fn trade(node: &StObject, cancelled: Option<u32>, deleted: bool) -> Option<(String, Tally)> {
    let s = sf();
    let fin = node.get_object("FinalFields")?;
    let prev = node.get_object("PreviousFields")?;
    if deleted && cancelled.is_some() && fin.u32_of(s.sequence) == cancelled {
        return None;
    }
    let (gi, dg) = delta(
        &fin.amount_of(s.taker_gets)?,
        &prev.amount_of(s.taker_gets)?,
    )?;
    let (pi, dp) = delta(
        &fin.amount_of(s.taker_pays)?,
        &prev.amount_of(s.taker_pays)?,
    )?;
    let (g, p) = (issue_text(&gi), issue_text(&pi));
    let noswap = gi.is_xrp() || (!pi.is_xrp() && g < p);
    let (first, second, fi, si) = if noswap {
        (dg, dp, gi, pi)
    } else {
        (dp, dg, pi, gi)
    };
    if second.value().is_zero() {
        return None;
    }
    let rate = first
        .value()
        .checked_div(&second.value(), Rounding::Nearest)
        .ok()?;
    let key = if noswap {
        format!("{g}|{p}")
    } else {
        format!("{p}|{g}")
    };
    Some((
        key,
        Tally {
            issue_a: fi,
            issue_b: si,
            vol_a: first.abs(),
            vol_b: second.abs(),
            high: rate,
            low: rate,
            open: rate,
            close: rate,
            domain: fin.h256_of(s.domain_id),
        },
    ))
}

fn add(tally: &mut BTreeMap<String, Tally>, key: String, t: Tally) {
    match tally.get_mut(&key) {
        None => {
            tally.insert(key, t);
        }
        Some(e) => {
            e.vol_a = e.vol_a.plus(t.vol_a);
            e.vol_b = e.vol_b.plus(t.vol_b);
            if e.high < t.close {
                e.high = t.close;
            }
            if e.low > t.close {
                e.low = t.close;
            }
            e.close = t.close;
            e.domain = t.domain;
        }
    }
}

/// The `bookChanges` object of a ledger whose transactions are `txs` (in any order: they
/// are taken in ID order, as rippled walks a ledger's transaction map).
pub fn book_changes(txs: &[Arc<TxEntry>], ledger: &LedgerRef) -> Map<String, Value> {
    let s = sf();
    let mut sorted: Vec<&Arc<TxEntry>> = txs.iter().collect();
    sorted.sort_by_key(|t| t.id);
    let mut tally = BTreeMap::new();
    for entry in sorted {
        let (tx, meta) = (entry.tx(), entry.meta());
        let kind = tx.get_u16("TransactionType");
        let is_offer_tx = [Some(7u16), Some(8u16)].contains(&kind);
        let cancelled = if is_offer_tx {
            tx.u32_of(s.offer_sequence)
        } else {
            None
        };
        for (f, node) in meta.get_array("AffectedNodes").unwrap_or(&[]) {
            let name = f.name();
            if node.u16_of(s.ledger_entry_type) != Some(lt::OFFER) || name == "CreatedNode" {
                continue;
            }
            if let Some((key, t)) = trade(node, cancelled, name == "DeletedNode") {
                add(&mut tally, key, t);
            }
        }
    }
    let changes: Vec<Value> = tally.values().map(change_json).collect();
    let mut o = Map::new();
    o.insert("type".into(), Value::from("bookChanges"));
    o.insert("validated".into(), Value::from(ledger.validated));
    o.insert("ledger_index".into(), Value::from(ledger.seq));
    o.insert("ledger_hash".into(), Value::from(ledger.hash.to_hex()));
    o.insert("ledger_time".into(), Value::from(ledger.close_time));
    o.insert("changes".into(), Value::Array(changes));
    o
}

fn change_json(t: &Tally) -> Value {
    let side = |issue: &Issue| {
        if issue.is_xrp() {
            "XRP_drops".to_string()
        } else {
            issue_text(issue)
        }
    };
    let mut o = Map::new();
    o.insert("currency_a".into(), Value::from(side(&t.issue_a)));
    o.insert("currency_b".into(), Value::from(side(&t.issue_b)));
    o.insert("volume_a".into(), Value::from(t.vol_a.text()));
    o.insert("volume_b".into(), Value::from(t.vol_b.text()));
    o.insert("high".into(), Value::from(t.high.to_text()));
    o.insert("low".into(), Value::from(t.low.to_text()));
    o.insert("open".into(), Value::from(t.open.to_text()));
    o.insert("close".into(), Value::from(t.close.to_text()));
    if let Some(d) = t.domain {
        o.insert("domain".into(), Value::from(d.to_hex()));
    }
    Value::Object(o)
}
