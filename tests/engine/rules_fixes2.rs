//! Amendments gated both ways, each story run with the amendment off and on and checked
//! against what xrpld decides each way:
//!
//! - fixDirectoryLimit (rippled PR 5935): a directory's new page is refused at
//!   `dirNodeMaxPages` (262,144) only without the amendment; with it only when the page
//!   index would overflow. After rippled's `Credentials_test` "Credentials fail, directory
//!   full", run there with the amendment and without: 63 tickets, the directory's last
//!   page moved to its highest index (`jtx::directory::bumpLastPage` to
//!   `maximumPageIndex`: 262,143 without, `u64::MAX` with), one more entry, then a new
//!   entry is `tecDIR_FULL` both ways; here the new entry is a DID, and the last page also
//!   sits where only one of the two rules refuses the next.

use crate::support;

use std::sync::Arc;

use ledgerd::engine::Ter;
use ledgerd::ledger::directory::DIR_PAGES_MAX;
use ledgerd::ledger::keylet;
use ledgerd::ledger::sf::{sf, StExt};
use ledgerd::ledger::shamap::{state_leaf_hash, ShaMap};
use ledgerd::ledgers::{LedgerConfig, Ledgers};
use ledgerd::protocol::codec;
use ledgerd::protocol::features::Feature;
use ledgerd::protocol::st::{StObject, StValue};
use ledgerd::protocol::types::Hash256;
use support::engine::*;

/// ledgerd's default rule book, with `f` on or off.
fn config(f: Feature, on: bool) -> LedgerConfig {
    let mut cfg = LedgerConfig::default();
    if on {
        cfg.rule_book.presets.insert(f);
    } else {
        cfg.rule_book.presets.remove(f);
    }
    cfg
}

/// Closes the ledger and reopens the store over it with `cfg`'s rules, `entries` edited
/// by `edit` first (the state hash and the header's hash recomputed): what rippled's
/// tests do to the open ledger by hand, and how an amendment comes on mid-story.
fn reopen(env: &mut Env, cfg: LedgerConfig, edit: impl FnOnce(&mut Vec<(Hash256, StObject)>)) {
    env.close();
    let (mut header, entries) = env.store.export_closed();
    let mut entries: Vec<(Hash256, StObject)> = entries
        .into_iter()
        .map(|(k, v)| (k, (*v).clone()))
        .collect();
    edit(&mut entries);
    let bytes: Vec<(Hash256, Vec<u8>)> = entries
        .iter()
        .map(|(k, v)| (*k, codec::encode(v)))
        .collect();
    let mut map = ShaMap::new();
    for (k, b) in &bytes {
        map.insert(*k, state_leaf_hash(k, b));
    }
    header.account_hash = map.hash();
    header.hash = header.compute_hash();
    env.store = Ledgers::from_snapshot_bytes(cfg, header, bytes).expect("reopens");
}

fn entry(env: &Env, key: &Hash256) -> Arc<StObject> {
    env.read(key).expect("entry")
}

// ---------------------------------------------------------------------------------------
// fixDirectoryLimit
// ---------------------------------------------------------------------------------------

/// rippled's `jtx::directory::bumpLastPage` with `adjustOwnerNode`, on the closed ledger:
/// moves the last page of `owner`'s directory (not the root) to index `to`, relinking
/// the page before it and the root, and pointing each moved entry's OwnerNode at it.
fn bump_last_page(env: &mut Env, cfg: LedgerConfig, owner: &Account, to: u64) {
    let s = sf();
    let root = keylet::owner_dir(&owner.id);
    reopen(env, cfg, |entries| {
        let find = |entries: &Vec<(Hash256, StObject)>, k: &Hash256| {
            entries.iter().position(|(key, _)| key == k).expect("entry")
        };
        let r = find(entries, &root);
        let last = entries[r].1.u64_of(s.index_previous).unwrap_or(0);
        assert!(last != 0 && last < to, "a directory of two pages or more");
        let at = find(entries, &keylet::dir_page(&root, last));
        let (_, mut page) = entries.remove(at);
        let before = page.u64_of(s.index_previous).unwrap_or(0);
        let moved: Vec<Hash256> = page.v256_of(s.indexes).expect("Indexes").to_vec();
        for k in &moved {
            let i = find(entries, k);
            entries[i].1.set(s.owner_node, StValue::UInt64(to));
        }
        if before != 0 {
            page.set(s.index_previous, StValue::UInt64(before));
        }
        entries.push((keylet::dir_page(&root, to), page));
        let b = find(entries, &keylet::dir_page(&root, before));
        entries[b].1.set(s.index_next, StValue::UInt64(to));
        let r = find(entries, &root);
        entries[r].1.set(s.index_previous, StValue::UInt64(to));
    });
}

/// alice (100,000 XRP) takes 63 tickets, a root page and a second page of 31; the second
/// page moves to index `last`, one more ticket fills it, and a DIDSet needs a new page
/// after it. Returns the DIDSet's result, and the page the DID went to.
fn did_after_a_full_last_page(on: bool, last: u64) -> (Ter, Option<u64>) {
    let cfg = || config(Feature::FixDirectoryLimit, on);
    let mut env = Env::with_config(cfg());
    let alice = Account::new("alice");
    env.fund(&alice, xrp(100_000));
    env.close();
    env.apply(&alice, ticket_create(63), Ter::tesSUCCESS);
    bump_last_page(&mut env, cfg(), &alice, last);
    env.apply(&alice, ticket_create(1), Ter::tesSUCCESS);
    let root = entry(&env, &keylet::owner_dir(&alice.id));
    assert_eq!(root.u64_of(sf().index_previous), Some(last));
    let page = entry(&env, &keylet::dir_page(&keylet::owner_dir(&alice.id), last));
    assert_eq!(page.v256_of(sf().indexes).map(|v| v.len()), Some(32));
    let did = Tx::new("DIDSet").blob("URI", b"uri");
    let ter = env.submit(&alice, did);
    let node = env
        .read(&keylet::did(&alice.id))
        .and_then(|d| d.u64_of(sf().owner_node));
    (ter, node)
}

#[test]
fn without_fix_directory_limit_page_262144_is_refused() {
    // `all - fixDirectoryLimit`: maximumPageIndex is dirNodeMaxPages - 1.
    let (ter, node) = did_after_a_full_last_page(false, DIR_PAGES_MAX - 1);
    assert_eq!(ter, Ter::tecDIR_FULL);
    assert_eq!(node, None, "no partial DID is left");
}

#[test]
fn with_fix_directory_limit_page_262144_is_just_another_page() {
    let (ter, node) = did_after_a_full_last_page(true, DIR_PAGES_MAX - 1);
    assert_eq!(ter, Ter::tesSUCCESS);
    assert_eq!(node, Some(DIR_PAGES_MAX));
}

#[test]
fn with_fix_directory_limit_only_the_last_u64_page_is_full() {
    // `all`: maximumPageIndex is u64::MAX, and the page after it would overflow.
    let (ter, node) = did_after_a_full_last_page(true, u64::MAX);
    assert_eq!(ter, Ter::tecDIR_FULL);
    assert_eq!(node, None);
    // One page lower there is room for exactly one more.
    let (ter, node) = did_after_a_full_last_page(true, u64::MAX - 1);
    assert_eq!(ter, Ter::tesSUCCESS);
    assert_eq!(node, Some(u64::MAX));
}

#[test]
fn without_fix_directory_limit_a_lower_page_still_grows() {
    // The cap is on the new page's index: a last page at 262,142 leaves one more.
    let (ter, node) = did_after_a_full_last_page(false, DIR_PAGES_MAX - 2);
    assert_eq!(ter, Ter::tesSUCCESS);
    assert_eq!(node, Some(DIR_PAGES_MAX - 1));
}
