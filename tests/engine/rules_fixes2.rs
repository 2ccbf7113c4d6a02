//! Two amendments gated both ways, each story run with the amendment off and on and
//! checked against what xrpld decides each way:
//!
//! - fixIncludeKeyletFields (rippled PR 5646): a new Escrow and PayChannel keep the
//!   `Sequence` (or ticket) their key is made of, a SignerList its `Owner`, an Oracle its
//!   `OracleDocumentID` (an oracle made before the amendment gains it at its next update).
//!   After rippled's `Escrow_test` (tags), `MultiSign_test` (`testSignerListObject`) and
//!   `Oracle_test` (create).
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
use ledgerd::protocol::definitions::Field;
use ledgerd::protocol::features::Feature;
use ledgerd::protocol::keys::KeyType;
use ledgerd::protocol::st::{StObject, StValue};
use ledgerd::protocol::time::RIPPLE_EPOCH_OFFSET_SECS;
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
pub(crate) fn reopen(
    env: &mut Env,
    cfg: LedgerConfig,
    edit: impl FnOnce(&mut Vec<(Hash256, StObject)>),
) {
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
// fixIncludeKeyletFields
// ---------------------------------------------------------------------------------------

/// Escrow_test's tags story: alice escrows 1000 XRP to bob with SourceTag 1 and
/// DestinationTag 2; the escrow keeps alice's sequence only with the amendment.
fn escrow_keeps_its_sequence(on: bool) {
    let mut env = Env::with_config(config(Feature::FixIncludeKeyletFields, on));
    let [alice, bob] = ["alice", "bob"].map(Account::new);
    for a in [&alice, &bob] {
        env.fund(a, xrp(5_000));
    }
    env.close();
    env.apply(
        &bob,
        fset(ledgerd::engine::account_set::asf::REQUIRE_DEST),
        Ter::tesSUCCESS,
    );
    let seq = env.seq(&alice);
    let create = escrow_create(&bob, xrp(1_000))
        .u32("FinishAfter", env.parent_close() + 1)
        .u32("SourceTag", 1)
        .u32("DestinationTag", 2);
    env.apply(&alice, create, Ter::tesSUCCESS);
    let escrow = entry(&env, &keylet::escrow(&alice.id, seq));
    assert_eq!(escrow.u32_of(sf().source_tag), Some(1));
    assert_eq!(escrow.u32_of(sf().destination_tag), Some(2));
    let want = on.then_some(seq);
    assert_eq!(escrow.u32_of(sf().sequence), want, "on: {on}");

    // A ticketed escrow keeps its ticket, as rippled's `getSeqValue`.
    let ticket = env.seq(&alice) + 1;
    env.apply(&alice, ticket_create(1), Ter::tesSUCCESS);
    let create = escrow_create(&bob, xrp(10))
        .u32("FinishAfter", env.parent_close() + 1)
        .u32("DestinationTag", 2);
    env.apply(&alice, with_ticket(create, ticket), Ter::tesSUCCESS);
    let escrow = entry(&env, &keylet::escrow(&alice.id, ticket));
    assert_eq!(escrow.u32_of(sf().sequence), on.then_some(ticket));
}

#[test]
fn an_escrow_has_no_sequence_without_fix_include_keylet_fields() {
    escrow_keeps_its_sequence(false);
}

#[test]
fn an_escrow_keeps_its_sequence_with_fix_include_keylet_fields() {
    escrow_keeps_its_sequence(true);
}

fn channel_keeps_its_sequence(on: bool) {
    let mut env = Env::with_config(config(Feature::FixIncludeKeyletFields, on));
    let [alice, bob] = ["alice", "bob"].map(Account::new);
    for a in [&alice, &bob] {
        env.fund(a, xrp(10_000));
    }
    env.close();
    let seq = env.seq(&alice);
    let chan = env.open_channel(&alice, &bob, xrp(1_000), 3_600);
    assert_eq!(chan.key, keylet::pay_channel(&alice.id, &bob.id, seq));
    let c = entry(&env, &chan.key);
    assert_eq!(c.u32_of(sf().sequence), on.then_some(seq), "on: {on}");
}

#[test]
fn a_channel_has_no_sequence_without_fix_include_keylet_fields() {
    channel_keeps_its_sequence(false);
}

#[test]
fn a_channel_keeps_its_sequence_with_fix_include_keylet_fields() {
    channel_keeps_its_sequence(true);
}

/// MultiSign_test's `testSignerListObject`: alice (ed25519) attaches the phantom signers
/// bogie and demon; the list names alice as its Owner only with the amendment.
fn signer_list_names_its_owner(on: bool) {
    let mut env = Env::with_config(config(Feature::FixIncludeKeyletFields, on));
    let alice = Account::with_type("alice", KeyType::Ed25519);
    env.fund(&alice, xrp(1_000));
    env.close();
    let [bogie, demon] = ["bogie", "demon"].map(Account::new);
    env.apply(
        &alice,
        signer_list(1, &[(&bogie, 1), (&demon, 1)]),
        Ter::tesSUCCESS,
    );
    env.close();
    let list = entry(&env, &keylet::signers(&alice.id));
    let signers = list.get_array("SignerEntries").expect("SignerEntries");
    assert_eq!(signers.len(), 2);
    assert_eq!(
        list.account_of(sf().owner),
        on.then_some(alice.id),
        "on: {on}"
    );
}

#[test]
fn a_signer_list_has_no_owner_without_fix_include_keylet_fields() {
    signer_list_names_its_owner(false);
}

#[test]
fn a_signer_list_names_its_owner_with_fix_include_keylet_fields() {
    signer_list_names_its_owner(true);
}

/// An OracleSet of document `doc` pricing XRP/USD at 740, scale 1, at the parent close.
fn oracle_set(env: &Env, doc: u32, price: u64) -> Tx {
    let s = sf();
    let mut pair = StObject::new();
    pair.set(s.base_asset, StValue::Currency(cur("XRP")));
    pair.set(s.quote_asset, StValue::Currency(cur("USD")));
    pair.set(s.asset_price, StValue::UInt64(price));
    pair.set(s.scale, StValue::UInt8(1));
    let unix = u64::from(env.parent_close()) + RIPPLE_EPOCH_OFFSET_SECS;
    let mut tx = Tx::new("OracleSet")
        .u32("OracleDocumentID", doc)
        .u32("LastUpdateTime", unix as u32);
    tx.0.set(
        Field::named("PriceDataSeries"),
        StValue::Array(vec![(Field::named("PriceData"), pair)]),
    );
    tx
}

fn document_id(env: &Env, owner: &Account, doc: u32) -> Option<u32> {
    entry(env, &keylet::oracle(&owner.id, doc)).u32_of(sf().oracle_document_id)
}

/// Oracle_test's create story: the owner (1000 XRP) creates an oracle of one pair, which
/// costs one owner count; it keeps its document ID only with the amendment.
fn oracle_keeps_its_document_id(on: bool) {
    let mut env = Env::with_config(config(Feature::FixIncludeKeyletFields, on));
    let owner = Account::new("owner");
    env.fund(&owner, xrp(1_000));
    env.close();
    let create = oracle_set(&env, 1, 740)
        .blob("Provider", b"provider")
        .blob("AssetClass", b"currency");
    env.apply(&owner, create, Ter::tesSUCCESS);
    assert_eq!(env.owner_count(&owner), 1);
    let oracle = entry(&env, &keylet::oracle(&owner.id, 1));
    assert_eq!(oracle.account_of(sf().owner), Some(owner.id));
    assert_eq!(document_id(&env, &owner, 1), on.then_some(1), "on: {on}");
}

#[test]
fn an_oracle_has_no_document_id_without_fix_include_keylet_fields() {
    oracle_keeps_its_document_id(false);
}

#[test]
fn an_oracle_keeps_its_document_id_with_fix_include_keylet_fields() {
    oracle_keeps_its_document_id(true);
}

#[test]
fn an_older_oracle_gains_its_document_id_at_its_first_update_after_the_fix() {
    // Made without the amendment, updated without it: still none (SetOracle.cpp writes
    // it on update only when it is absent and the rules hold the fix).
    let mut env = Env::with_config(config(Feature::FixIncludeKeyletFields, false));
    let owner = Account::new("owner");
    env.fund(&owner, xrp(1_000));
    env.close();
    let create = oracle_set(&env, 7, 740)
        .blob("Provider", b"provider")
        .blob("AssetClass", b"currency");
    env.apply(&owner, create, Ter::tesSUCCESS);
    env.close();
    env.apply(&owner, oracle_set(&env, 7, 741), Ter::tesSUCCESS);
    assert_eq!(document_id(&env, &owner, 7), None);
    // The amendment comes on: the next update writes it.
    reopen(
        &mut env,
        config(Feature::FixIncludeKeyletFields, true),
        |_| {},
    );
    assert_eq!(
        document_id(&env, &owner, 7),
        None,
        "untouched until updated"
    );
    env.apply(&owner, oracle_set(&env, 7, 742), Ter::tesSUCCESS);
    assert_eq!(document_id(&env, &owner, 7), Some(7));
    let oracle = entry(&env, &keylet::oracle(&owner.id, 7));
    let series = oracle.get_array("PriceDataSeries").expect("series");
    assert_eq!(series[0].1.u64_of(sf().asset_price), Some(742));
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
