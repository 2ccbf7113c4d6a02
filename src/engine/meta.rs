//! Turning a committed change set into the ledger's writes and the transaction's
//! metadata, as rippled's `ApplyStateTable::apply` does: threading (PreviousTxnID /
//! PreviousTxnLgrSeq on every touched threaded entry and on the owners of created and
//! deleted ones), then CreatedNode / ModifiedNode / DeletedNode sorted by index.

use std::collections::BTreeMap;
use std::sync::Arc;

use super::sandbox::{Action, Item};
use crate::ledger::entry_types::{self, Owners, THREAD_OWNERS};
use crate::ledger::keylet;
use crate::ledger::rules::Rules;
use crate::ledger::sf::{sf, StExt};
use crate::ledger::view::ReadView;
use crate::protocol::amount::Amount;
use crate::protocol::definitions::Field;
use crate::protocol::st::{StObject, StValue};
use crate::protocol::types::{AccountId, Hash256};

/// The state writes of one transaction: `None` deletes.
pub type Writes = Vec<(Hash256, Option<Arc<StObject>>)>;

/// How a field appears in metadata (rippled `SField::sMD_*`).
#[derive(Clone, Copy, PartialEq, Eq)]
enum MetaClass {
    /// Never in metadata (LedgerEntryType, Indexes).
    Never,
    /// Only in a deleted node's FinalFields (the threading fields).
    DeleteFinal,
    /// Always in FinalFields, and everywhere a default field goes (RootIndex).
    Always,
    /// Everything else.
    Default,
}

fn class(f: Field) -> MetaClass {
    let s = sf();
    if f == s.ledger_entry_type || f == s.indexes {
        MetaClass::Never
    } else if f == s.previous_txn_id || f == s.previous_txn_lgr_seq {
        MetaClass::DeleteFinal
    } else if f == s.root_index {
        MetaClass::Always
    } else {
        MetaClass::Default
    }
}

/// Metadata threads the entry under `rules` (its row says; rippled `isThreadedType`).
fn is_threaded(o: &StObject, rules: &Rules) -> bool {
    entry_types::of(o).is_some_and(|t| t.threaded.applies(rules))
}

/// The accounts whose roots a created or deleted entry threads (rippled `threadOwners`,
/// as its row names them).
fn owners(o: &StObject) -> Vec<AccountId> {
    let s = sf();
    match entry_types::of(o).map_or(THREAD_OWNERS, |t| t.owners) {
        Owners::None => vec![],
        Owners::LineIssuers => [s.low_limit, s.high_limit]
            .iter()
            .filter_map(|f| match o.amount_of(*f)? {
                Amount::Iou { issuer, .. } => Some(issuer),
                Amount::Xrp(_) => None,
            })
            .collect(),
        Owners::Fields(fields) => fields
            .iter()
            .filter_map(|f| o.account_of(f.field()))
            .collect(),
    }
}

/// Threads `o` to the transaction; returns the previous (id, ledger) when the entry had
/// one and was not already threaded to this transaction.
fn thread(o: &mut StObject, tx_id: &Hash256, seq: u32) -> Option<Option<(Hash256, u32)>> {
    let s = sf();
    let old = o.h256_of(s.previous_txn_id).unwrap_or(Hash256::ZERO);
    if old == *tx_id {
        return None;
    }
    let old_seq = o.u32_of(s.previous_txn_lgr_seq).unwrap_or(0);
    o.set(s.previous_txn_id, StValue::Hash256(*tx_id));
    o.set(s.previous_txn_lgr_seq, StValue::UInt32(seq));
    Some(if old.is_zero() {
        None
    } else {
        Some((old, old_seq))
    })
}

struct Node {
    action: Action,
    orig: Option<Arc<StObject>>,
    cur: StObject,
    /// Present in the change set itself (not only threaded as an owner).
    changed: bool,
    prev_thread: Option<(Hash256, u32)>,
}

/// Builds the writes and the metadata of a committed change set.
pub fn finalize(
    items: BTreeMap<Hash256, Item>,
    base: &dyn ReadView,
    tx_id: &Hash256,
    tx_index: u32,
    result_code: u8,
    delivered: Option<Amount>,
) -> (StObject, Writes) {
    let mut nodes = changed_nodes(items);
    add_owner_nodes(&mut nodes, base);
    thread_nodes(&mut nodes, tx_id, base.info().seq, &base.info().rules);
    let s = sf();
    let mut affected = Vec::with_capacity(nodes.len());
    let mut writes = Vec::with_capacity(nodes.len());
    for (key, node) in nodes {
        let (wrapper, inner) = affected_node(&key, &node);
        // An owner threaded for the first time (no previous thread) gets no node.
        if node.changed || inner.get(s.previous_txn_id).is_some() {
            affected.push((wrapper, inner));
        }
        writes.push((
            key,
            match node.action {
                Action::Erase => None,
                _ => Some(Arc::new(node.cur)),
            },
        ));
    }
    (
        meta_object(tx_index, result_code, affected, delivered),
        writes,
    )
}

/// The change set's entries, less those modified back to what they were.
fn changed_nodes(items: BTreeMap<Hash256, Item>) -> BTreeMap<Hash256, Node> {
    items
        .into_iter()
        .filter(|(_, it)| it.action != Action::Modify || it.orig.as_deref() != Some(&it.cur))
        .map(|(k, it)| {
            (
                k,
                Node {
                    action: it.action,
                    orig: it.orig,
                    cur: it.cur,
                    changed: true,
                    prev_thread: None,
                },
            )
        })
        .collect()
}

/// Adds the roots of the owners of created and deleted entries, unchanged, to be threaded.
fn add_owner_nodes(nodes: &mut BTreeMap<Hash256, Node>, base: &dyn ReadView) {
    let mut owner_keys = Vec::new();
    for node in nodes.values() {
        if node.action != Action::Modify {
            owner_keys.extend(owners(&node.cur).iter().map(keylet::account));
        }
    }
    for key in owner_keys {
        if let std::collections::btree_map::Entry::Vacant(slot) = nodes.entry(key) {
            let Some(orig) = base.read(&key) else {
                continue;
            };
            let cur = (*orig).clone();
            slot.insert(Node {
                action: Action::Modify,
                orig: Some(orig),
                cur,
                changed: false,
                prev_thread: None,
            });
        }
    }
}

/// Threads every remaining entry `rules` thread to the transaction.
fn thread_nodes(nodes: &mut BTreeMap<Hash256, Node>, tx_id: &Hash256, seq: u32, rules: &Rules) {
    for node in nodes.values_mut() {
        if node.action != Action::Erase && is_threaded(&node.cur, rules) {
            if let Some(prev) = thread(&mut node.cur, tx_id, seq) {
                node.prev_thread = prev;
            }
        }
    }
}

/// The node's CreatedNode, ModifiedNode or DeletedNode: the wrapper field and its inner
/// object.
fn affected_node(key: &Hash256, node: &Node) -> (Field, StObject) {
    let s = sf();
    let entry_type = node.cur.u16_of(s.ledger_entry_type).unwrap_or(0);
    let mut inner = StObject::new();
    inner.set(s.ledger_entry_type, StValue::UInt16(entry_type));
    inner.set(s.ledger_index, StValue::Hash256(*key));
    let wrapper = match node.action {
        Action::Insert => {
            let news = fields_where(&node.cur, |f, v| in_final(f) && !v.is_default());
            set_object(&mut inner, s.new_fields, news);
            s.created_node
        }
        Action::Modify => {
            if let Some((id, lseq)) = node.prev_thread {
                inner.set(s.previous_txn_id, StValue::Hash256(id));
                inner.set(s.previous_txn_lgr_seq, StValue::UInt32(lseq));
            }
            if node.changed {
                if let Some(orig) = &node.orig {
                    set_object(
                        &mut inner,
                        s.previous_fields,
                        previous_fields(orig, &node.cur),
                    );
                }
                let finals = fields_where(&node.cur, |f, _| in_final(f));
                set_object(&mut inner, s.final_fields, finals);
            }
            s.modified_node
        }
        Action::Erase => {
            if let Some(orig) = &node.orig {
                set_object(
                    &mut inner,
                    s.previous_fields,
                    previous_fields(orig, &node.cur),
                );
            }
            let finals = fields_where(&node.cur, |f, _| class(f) != MetaClass::Never);
            set_object(&mut inner, s.final_fields, finals);
            s.deleted_node
        }
    };
    (wrapper, inner)
}

/// True for the fields a created or modified node lists.
fn in_final(f: Field) -> bool {
    matches!(class(f), MetaClass::Default | MetaClass::Always)
}

/// The fields of `o` that `keep` keeps.
fn fields_where(o: &StObject, keep: impl Fn(Field, &StValue) -> bool) -> StObject {
    let mut out = StObject::new();
    for (f, v) in o.iter() {
        if keep(f, v) {
            out.set(f, v.clone());
        }
    }
    out
}

/// Sets `field` to `obj` unless `obj` is empty.
fn set_object(inner: &mut StObject, field: Field, obj: StObject) {
    if !obj.is_empty() {
        inner.set(field, StValue::Object(obj));
    }
}

/// The metadata object.
fn meta_object(
    tx_index: u32,
    result_code: u8,
    affected: Vec<(Field, StObject)>,
    delivered: Option<Amount>,
) -> StObject {
    let s = sf();
    let mut meta = StObject::new();
    meta.set(s.transaction_index, StValue::UInt32(tx_index));
    meta.set(s.transaction_result, StValue::UInt8(result_code));
    meta.set(s.affected_nodes, StValue::Array(affected));
    if let Some(d) = delivered {
        meta.set(s.delivered_amount, StValue::Amount(d));
    }
    meta
}

/// Original values of fields that changed or went away.
fn previous_fields(orig: &StObject, cur: &StObject) -> StObject {
    let mut prevs = StObject::new();
    for (f, v) in orig.iter() {
        if class(f) == MetaClass::Default && cur.get(f) != Some(v) {
            prevs.set(f, v.clone());
        }
    }
    prevs
}
