//! rippled's skip lists (`Ledger::updateSkipList`): LedgerHashes entries that let a reader
//! find old ledger hashes from a ledger's state. Written at every close after all
//! transactions are applied, so they appear in no transaction's metadata.
//!
//! For new ledger `seq` (its parent is `prev = seq - 1`):
//! - when `prev % 256 == 0`, the parent's hash is appended to the long list at
//!   [`keylet::skip_long`]`(prev)` (one list per 65536 ledgers, at most 256 hashes);
//! - always, the parent's hash is appended to the short list at [`keylet::skip`], which
//!   keeps the 256 most recent hashes (the oldest drops out).
//!
//! Each list records `LastLedgerSequence = prev`. A new list has `Flags` 0 and empty
//! `Hashes`; an existing list keeps its other fields (old mainnet lists still carry
//! `FirstLedgerSequence`, modern rippled never sets it).

use std::sync::Arc;

use crate::ledger::flags::lt;
use crate::ledger::keylet;
use crate::ledger::sf::sf;
use crate::protocol::st::{StObject, StValue};
use crate::protocol::types::Hash256;

/// Hashes a skip list holds at most.
pub const SKIP_LIST_LEN: usize = 256;

/// The skip list entries to write when ledger `seq` closes on a parent hashed
/// `parent_hash`, given `read`, the state's current entries. Genesis (seq ≤ 1) has none.
pub fn skip_list_writes(
    seq: u32,
    parent_hash: Hash256,
    read: impl Fn(&Hash256) -> Option<Arc<StObject>>,
) -> Vec<(Hash256, Arc<StObject>)> {
    if seq <= 1 {
        return Vec::new();
    }
    let prev = seq - 1;
    let mut writes = Vec::with_capacity(2);
    if prev & 0xFF == 0 {
        let key = keylet::skip_long(prev);
        writes.push((key, appended(read(&key), prev, parent_hash, false)));
    }
    let key = keylet::skip();
    writes.push((key, appended(read(&key), prev, parent_hash, true)));
    writes
}

/// `old` (or a new LedgerHashes entry) with `hash` appended and `LastLedgerSequence`
/// set to `prev`; a full short list drops its oldest hash first.
fn appended(old: Option<Arc<StObject>>, prev: u32, hash: Hash256, short: bool) -> Arc<StObject> {
    let s = sf();
    let mut o = match old {
        Some(o) => (*o).clone(),
        None => {
            let mut o = StObject::new();
            o.set(s.ledger_entry_type, StValue::UInt16(lt::LEDGER_HASHES));
            o.set(s.flags, StValue::UInt32(0));
            o
        }
    };
    let mut hashes = match o.get(s.hashes) {
        Some(StValue::Vector256(v)) => v.clone(),
        _ => Vec::new(),
    };
    if short && hashes.len() >= SKIP_LIST_LEN {
        hashes.drain(..=hashes.len() - SKIP_LIST_LEN);
    }
    hashes.push(hash);
    o.set(s.hashes, StValue::Vector256(hashes));
    o.set(s.last_ledger_sequence, StValue::UInt32(prev));
    Arc::new(o)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn h(n: u32) -> Hash256 {
        let mut b = [0u8; 32];
        b[28..].copy_from_slice(&n.to_be_bytes());
        Hash256(b)
    }

    fn hashes(o: &StObject) -> Vec<Hash256> {
        match o.get(sf().hashes) {
            Some(StValue::Vector256(v)) => v.clone(),
            _ => panic!("no Hashes"),
        }
    }

    #[test]
    fn short_list_keeps_256_and_long_list_every_256th() {
        let mut state = std::collections::HashMap::new();
        assert!(skip_list_writes(1, h(0), |_| None).is_empty());
        for seq in 2..=600u32 {
            let w = skip_list_writes(seq, h(seq - 1), |k| state.get(k).cloned());
            assert_eq!(w.len(), if (seq - 1) % 256 == 0 { 2 } else { 1 });
            state.extend(w);
        }
        let short = &state[&keylet::skip()];
        let v = hashes(short);
        assert_eq!(v.len(), 256);
        assert_eq!(v[0], h(344));
        assert_eq!(v[255], h(599));
        assert_eq!(
            short.get(sf().last_ledger_sequence),
            Some(&StValue::UInt32(599))
        );
        assert_eq!(short.get(sf().flags), Some(&StValue::UInt32(0)));
        let long = &state[&keylet::skip_long(256)];
        assert_eq!(hashes(long), vec![h(256), h(512)]);
        assert_eq!(
            long.get(sf().last_ledger_sequence),
            Some(&StValue::UInt32(512))
        );
    }
}
