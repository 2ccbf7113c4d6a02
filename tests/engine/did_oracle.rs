//! DID and price-oracle stories, after rippled's `DID_test.cpp` and `Oracle_test.cpp`:
//! DIDSet creating, editing and emptying a DID with rippled's codes and reserve,
//! DIDDelete; OracleSet creating and updating an oracle (pairs added, repriced, deleted,
//! LastUpdateTime's window, Provider/AssetClass fixed, one or two owner entries),
//! OracleDelete; AccountDelete taking both with the account.

use crate::support;

use ledgerd::engine::Ter;
use ledgerd::ledger::fees::Fees;
use ledgerd::ledger::flags::lt;
use ledgerd::ledger::keylet;
use ledgerd::ledger::sf::{sf, StExt};
use ledgerd::ledger::view::ReadView;
use ledgerd::protocol::definitions::Field;
use ledgerd::protocol::st::{StObject, StValue};
use ledgerd::protocol::time::RIPPLE_EPOCH_OFFSET_SECS;
use support::engine::*;

/// "912810RR9" as a non-standard (hex) currency, as rippled's jtx Oracle writes it.
const BOND: &str = "3931323831305252390000000000000000000000";

const TF_SELL_NFTOKEN: u32 = 0x0000_0001;

fn fees(env: &Env) -> Fees {
    env.store.current().view.info().fees
}

fn did_set(fields: &[(&str, &str)]) -> Tx {
    fields.iter().fold(Tx::new("DIDSet"), |tx, (name, v)| {
        tx.blob(name, v.as_bytes())
    })
}

fn blob(o: &StObject, name: &str) -> Option<String> {
    o.get_blob(name)
        .map(|b| String::from_utf8_lossy(b).into_owned())
}

// ---------------------------------------------------------------------------------------
// DID
// ---------------------------------------------------------------------------------------

#[test]
fn a_did_needs_its_owner_reserve_after_the_fee() {
    let mut env = Env::new();
    let alice = Account::new("alice");
    let f = fees(&env);
    env.fund(&alice, drops(f.account_reserve(0)));
    env.apply(
        &alice,
        did_set(&[("URI", "uri")]),
        Ter::tecINSUFFICIENT_RESERVE,
    );
    assert_eq!(env.owner_count(&alice), 0);
    // Almost enough: the fee is paid before the reserve is judged.
    env.fund(&alice, drops(f.reserve_inc_drops as i64 + 19));
    assert_eq!(
        env.balance(&alice),
        f.account_reserve(0) + f.reserve_inc_drops as i64 + 9
    );
    env.apply(
        &alice,
        did_set(&[("URI", "uri")]),
        Ter::tecINSUFFICIENT_RESERVE,
    );
    env.fund(&alice, drops(11));
    env.apply(&alice, did_set(&[("URI", "uri")]), Ter::tesSUCCESS);
    assert_eq!(env.owner_count(&alice), 1);
    assert_eq!(env.balance(&alice), f.account_reserve(1));
    env.apply(&alice, Tx::new("DIDDelete"), Ter::tesSUCCESS);
    assert_eq!(env.owner_count(&alice), 0);
}

#[test]
fn malformed_did_sets_get_rippleds_codes() {
    let mut env = Env::new();
    let [alice] = env.funded(["alice"]);
    let long = "a".repeat(257);
    let cases: Vec<(Tx, Ter)> = vec![
        (
            did_set(&[("URI", "u")]).flags(0x0001_0000),
            Ter::temINVALID_FLAG,
        ),
        (Tx::new("DIDSet"), Ter::temEMPTY_DID),
        (
            did_set(&[("URI", ""), ("DIDDocument", ""), ("Data", "")]),
            Ter::temEMPTY_DID,
        ),
        (did_set(&[("URI", &long)]), Ter::temMALFORMED),
        (did_set(&[("DIDDocument", &long)]), Ter::temMALFORMED),
        (
            did_set(&[("DIDDocument", "data"), ("Data", &long)]),
            Ter::temMALFORMED,
        ),
        // Some fields empty, none left: fixEmptyDID refuses it after the fee.
        (did_set(&[("URI", "")]), Ter::tecEMPTY_DID),
    ];
    for (tx, want) in cases {
        env.apply(&alice, tx, want);
        assert_eq!(env.owner_count(&alice), 0);
    }
    // 256 bytes is the longest allowed.
    let max = "b".repeat(256);
    env.apply(
        &alice,
        did_set(&[("URI", &max), ("DIDDocument", &max), ("Data", &max)]),
        Ter::tesSUCCESS,
    );
    assert_eq!(env.owner_count(&alice), 1);
}

#[test]
fn did_delete_without_a_did_and_with_bad_flags() {
    let mut env = Env::new();
    let [alice] = env.funded(["alice"]);
    env.apply(
        &alice,
        Tx::new("DIDDelete").flags(0x0001_0000),
        Ter::temINVALID_FLAG,
    );
    env.apply(&alice, Tx::new("DIDDelete"), Ter::tecNO_ENTRY);
    assert_eq!(env.owner_count(&alice), 0);
}

#[test]
fn each_field_alone_or_together_makes_a_did() {
    let mut env = Env::new();
    let sets: [&[(&str, &str)]; 7] = [
        &[("URI", "uri")],
        &[("DIDDocument", "data")],
        &[("Data", "data")],
        &[("URI", "uri"), ("Data", "attest")],
        &[("URI", "uri"), ("DIDDocument", "data")],
        &[("DIDDocument", "data"), ("Data", "attest")],
        &[("URI", "uri"), ("DIDDocument", "data"), ("Data", "attest")],
    ];
    for (i, fields) in sets.iter().enumerate() {
        let who = Account::new(&format!("did{i}"));
        env.fund(&who, xrp(5_000));
        env.apply(&who, did_set(fields), Ter::tesSUCCESS);
        assert_eq!(env.owner_count(&who), 1);
        let did = env.read(&keylet::did(&who.id)).expect("DID");
        assert_eq!(did.u16_of(sf().ledger_entry_type), Some(lt::DID));
        assert_eq!(did.account_of(sf().account), Some(who.id));
        assert_eq!(did.h256_of(sf().previous_txn_id), env.last_id, "threaded");
        for name in ["URI", "DIDDocument", "Data"] {
            let want = fields.iter().find(|(n, _)| *n == name).map(|(_, v)| *v);
            assert_eq!(blob(&did, name).as_deref(), want, "{name}");
        }
        assert!(env.owned(&who).contains(&keylet::did(&who.id)));
    }
}

#[test]
fn did_set_edits_and_empty_fields_remove() {
    let mut env = Env::new();
    let [alice] = env.funded(["alice"]);
    let key = keylet::did(&alice.id);
    let check = |env: &Env, uri: Option<&str>, doc: Option<&str>, data: Option<&str>| {
        let did = env.read(&key).expect("DID");
        assert_eq!(blob(&did, "URI").as_deref(), uri);
        assert_eq!(blob(&did, "DIDDocument").as_deref(), doc);
        assert_eq!(blob(&did, "Data").as_deref(), data);
        assert_eq!(env.owner_count(&alice), 1);
    };
    env.apply(&alice, did_set(&[("URI", "uri")]), Ter::tesSUCCESS);
    check(&env, Some("uri"), None, None);
    // Removing the only field would leave nothing.
    env.apply(&alice, did_set(&[("URI", "")]), Ter::tecEMPTY_DID);
    check(&env, Some("uri"), None, None);
    env.apply(&alice, did_set(&[("DIDDocument", "data")]), Ter::tesSUCCESS);
    check(&env, Some("uri"), Some("data"), None);
    env.apply(&alice, did_set(&[("Data", "attest")]), Ter::tesSUCCESS);
    check(&env, Some("uri"), Some("data"), Some("attest"));
    env.apply(&alice, did_set(&[("URI", "")]), Ter::tesSUCCESS);
    check(&env, None, Some("data"), Some("attest"));
    env.apply(&alice, did_set(&[("Data", "")]), Ter::tesSUCCESS);
    check(&env, None, Some("data"), None);
    let set = did_set(&[("URI", "uri2"), ("DIDDocument", "")]);
    env.apply(&alice, set, Ter::tesSUCCESS);
    check(&env, Some("uri2"), None, None);
    let set = did_set(&[("URI", ""), ("DIDDocument", "data2")]);
    env.apply(&alice, set, Ter::tesSUCCESS);
    check(&env, None, Some("data2"), None);
    let set = did_set(&[("DIDDocument", ""), ("Data", "randomData")]);
    env.apply(&alice, set, Ter::tesSUCCESS);
    check(&env, None, None, Some("randomData"));
    env.apply(&alice, Tx::new("DIDDelete"), Ter::tesSUCCESS);
    assert!(env.read(&key).is_none());
    assert_eq!(env.owner_count(&alice), 0);
    assert!(env.owned(&alice).is_empty());
}

// ---------------------------------------------------------------------------------------
// Oracle
// ---------------------------------------------------------------------------------------

/// One PriceData: (base, quote, price, scale); no price means "delete this pair".
pub(crate) type Pair<'a> = (&'a str, &'a str, Option<u64>, Option<u8>);

pub(crate) fn series(pairs: &[Pair]) -> StValue {
    let s = sf();
    let items = pairs
        .iter()
        .map(|(base, quote, price, scale)| {
            let mut o = StObject::new();
            o.set(s.base_asset, StValue::Currency(cur(base)));
            o.set(s.quote_asset, StValue::Currency(cur(quote)));
            if let Some(p) = price {
                o.set(s.asset_price, StValue::UInt64(*p));
            }
            if let Some(sc) = scale {
                o.set(s.scale, StValue::UInt8(*sc));
            }
            (Field::named("PriceData"), o)
        })
        .collect();
    StValue::Array(items)
}

fn priced(pairs: &[(&'static str, &'static str, u64, u8)]) -> Vec<Pair<'static>> {
    pairs
        .iter()
        .map(|(b, q, p, s)| (*b, *q, Some(*p), Some(*s)))
        .collect()
}

/// LastUpdateTime (Unix seconds) `offset` seconds from the parent ledger's close.
fn unix_now(env: &Env, offset: i64) -> u32 {
    (i64::from(env.parent_close()) + RIPPLE_EPOCH_OFFSET_SECS as i64 + offset) as u32
}

/// An OracleSet for document `doc` with `pairs`, updated `offset` seconds after the
/// parent close.
fn oracle_update(env: &Env, doc: u32, pairs: &[Pair], offset: i64) -> Tx {
    let mut tx = Tx::new("OracleSet")
        .u32("OracleDocumentID", doc)
        .u32("LastUpdateTime", unix_now(env, offset));
    tx.0.set_named("PriceDataSeries", series(pairs));
    tx
}

/// A creating OracleSet: Provider "provider", AssetClass "currency", URI "URI".
fn oracle_create(env: &Env, doc: u32, pairs: &[Pair]) -> Tx {
    oracle_update(env, doc, pairs, 0)
        .blob("Provider", b"provider")
        .blob("AssetClass", b"currency")
        .blob("URI", b"URI")
}

fn usd() -> Vec<Pair<'static>> {
    priced(&[("XRP", "USD", 740, 1)])
}

fn oracle(env: &Env, owner: &Account, doc: u32) -> Option<std::sync::Arc<StObject>> {
    env.read(&keylet::oracle(&owner.id, doc))
}

/// The stored series as (base, quote, price, scale) text.
fn stored(env: &Env, owner: &Account, doc: u32) -> Vec<(String, String, u64, u8)> {
    let s = sf();
    let o = oracle(env, owner, doc).expect("oracle");
    o.get_array("PriceDataSeries")
        .expect("series")
        .iter()
        .map(|(_, e)| {
            let c = |f| match e.get(f) {
                Some(StValue::Currency(c)) => c.to_json_string(),
                _ => String::new(),
            };
            (
                c(s.base_asset),
                c(s.quote_asset),
                e.u64_of(s.asset_price).unwrap_or(0),
                e.u8_of(s.scale).unwrap_or(0),
            )
        })
        .collect()
}

fn text(pairs: &[(&str, &str, u64, u8)]) -> Vec<(String, String, u64, u8)> {
    pairs
        .iter()
        .map(|(b, q, p, s)| (b.to_string(), q.to_string(), *p, *s))
        .collect()
}

#[test]
fn an_oracle_is_created_with_one_or_two_owner_entries() {
    let six = priced(&[
        ("XRP", "USD", 740, 1),
        ("BTC", "USD", 740, 1),
        ("ETH", "USD", 740, 1),
        ("CAN", "USD", 740, 1),
        ("YAN", "USD", 740, 1),
        ("GBP", "USD", 740, 1),
    ]);
    for (pairs, owners) in [(usd(), 1), (six, 2)] {
        let mut env = Env::new();
        let [owner] = env.funded(["owner"]);
        let tx = oracle_create(&env, 1, &pairs);
        env.apply(&owner, tx, Ter::tesSUCCESS);
        assert_eq!(env.owner_count(&owner), owners);
        let o = oracle(&env, &owner, 1).expect("oracle");
        let s = sf();
        assert_eq!(o.u16_of(s.ledger_entry_type), Some(lt::ORACLE));
        assert_eq!(o.account_of(s.owner), Some(owner.id));
        assert_eq!(blob(&o, "Provider").as_deref(), Some("provider"));
        assert_eq!(blob(&o, "AssetClass").as_deref(), Some("currency"));
        assert_eq!(blob(&o, "URI").as_deref(), Some("URI"));
        assert_eq!(o.u32_of(s.last_update_time), Some(unix_now(&env, 0)));
        // fixIncludeKeyletFields, in ledgerd's default rules: the key's document ID.
        assert_eq!(o.u32_of(s.oracle_document_id), Some(1));
        assert_eq!(o.h256_of(s.previous_txn_id), env.last_id, "threaded");
        assert_eq!(stored(&env, &owner, 1).len(), pairs.len());
        assert!(env.owned(&owner).contains(&keylet::oracle(&owner.id, 1)));
        // Deleting gives the same count back.
        let del = Tx::new("OracleDelete").u32("OracleDocumentID", 1);
        env.apply(&owner, del, Ter::tesSUCCESS);
        assert!(oracle(&env, &owner, 1).is_none());
        assert_eq!(env.owner_count(&owner), 0);
    }
}

#[test]
fn malformed_oracle_sets_get_rippleds_codes() {
    let mut env = Env::new();
    let [owner] = env.funded(["owner"]);
    let eleven: Vec<Pair> = (1..=11)
        .map(|i| {
            (
                "XRP",
                [
                    "US1", "US2", "US3", "US4", "US5", "US6", "US7", "US8", "US9", "U10", "U11",
                ][i - 1],
                Some(740),
                Some(1),
            )
        })
        .collect();
    let big = "0".repeat(257);
    let cases: Vec<(Tx, Ter)> = vec![
        (
            oracle_create(&env, 1, &usd()).flags(TF_SELL_NFTOKEN),
            Ter::temINVALID_FLAG,
        ),
        (
            oracle_create(
                &env,
                1,
                &priced(&[("XRP", "USD", 740, 1), ("XRP", "USD", 750, 1)]),
            ),
            Ter::temMALFORMED,
        ),
        // A pair without a price on a new oracle.
        (
            oracle_create(
                &env,
                1,
                &[
                    ("XRP", "USD", Some(740), Some(1)),
                    ("XRP", "EUR", None, Some(1)),
                ],
            ),
            Ter::temMALFORMED,
        ),
        // One pair both priced and deleted.
        (
            oracle_create(
                &env,
                1,
                &[
                    ("XRP", "USD", Some(740), Some(1)),
                    ("XRP", "USD", None, Some(1)),
                ],
            ),
            Ter::temMALFORMED,
        ),
        (oracle_create(&env, 1, &eleven), Ter::temARRAY_TOO_LARGE),
        (oracle_create(&env, 1, &[]), Ter::temARRAY_EMPTY),
        (
            oracle_create(&env, 1, &usd()).remove("AssetClass"),
            Ter::temMALFORMED,
        ),
        (
            oracle_create(&env, 1, &usd()).remove("Provider"),
            Ter::temMALFORMED,
        ),
        (
            oracle_create(&env, 1, &usd()).blob("AssetClass", &[b'0'; 17]),
            Ter::temMALFORMED,
        ),
        (
            oracle_create(&env, 1, &usd()).blob("Provider", big.as_bytes()),
            Ter::temMALFORMED,
        ),
        (
            oracle_create(&env, 1, &usd()).blob("URI", big.as_bytes()),
            Ter::temMALFORMED,
        ),
        (
            oracle_create(&env, 1, &usd()).blob("AssetClass", b""),
            Ter::temMALFORMED,
        ),
        (
            oracle_create(&env, 1, &usd()).blob("Provider", b""),
            Ter::temMALFORMED,
        ),
        (
            oracle_create(&env, 1, &usd()).blob("URI", b""),
            Ter::temMALFORMED,
        ),
        (
            oracle_create(&env, 1, &priced(&[("USD", "USD", 740, 1)])),
            Ter::temMALFORMED,
        ),
        (
            oracle_create(&env, 1, &priced(&[("USD", "BTC", 740, 21)])),
            Ter::temMALFORMED,
        ),
    ];
    for (tx, want) in cases {
        env.apply(&owner, tx, want);
        assert!(oracle(&env, &owner, 1).is_none());
        assert_eq!(env.owner_count(&owner), 0);
    }
    // The largest scale is fine.
    let tx = oracle_create(&env, 1, &priced(&[("USD", "BTC", 740, 20)]));
    env.apply(&owner, tx, Ter::tesSUCCESS);
}

#[test]
fn oracle_set_reserve_counts_the_pairs_after_the_update() {
    let mut env = Env::new();
    let owner = Account::new("owner");
    let f = fees(&env);
    env.fund(&owner, drops(f.account_reserve(0)));
    let tx = oracle_create(&env, 1, &usd());
    env.apply(&owner, tx, Ter::tecINSUFFICIENT_RESERVE);

    // Enough for one owner entry and two fees.
    let mut env = Env::new();
    env.fund(&owner, drops(f.account_reserve(1) + 2 * FEE));
    let tx = oracle_create(&env, 1, &usd());
    env.apply(&owner, tx, Ter::tesSUCCESS);
    // Six pairs would count two.
    let five = priced(&[
        ("XRP", "EUR", 740, 1),
        ("XRP", "GBP", 740, 1),
        ("XRP", "CNY", 740, 1),
        ("XRP", "CAD", 740, 1),
        ("XRP", "AUD", 740, 1),
    ]);
    let tx = oracle_update(&env, 1, &five, 1);
    env.apply(&owner, tx, Ter::tecINSUFFICIENT_RESERVE);
    assert_eq!(env.owner_count(&owner), 1);
}

#[test]
fn oracle_updates_add_reprice_and_delete_pairs() {
    let mut env = Env::new();
    let [owner] = env.funded(["owner"]);
    let tx = oracle_create(&env, 1, &usd());
    env.apply(&owner, tx, Ter::tesSUCCESS);
    let mut t = 1;
    let mut update = |env: &mut Env, pairs: &[Pair], want: Ter| {
        let tx = oracle_update(env, 1, pairs, t);
        t += 1;
        env.apply(&owner, tx, want);
    };
    update(
        &mut env,
        &priced(&[("XRP", "USD", 740, 2)]),
        Ter::tesSUCCESS,
    );
    assert_eq!(stored(&env, &owner, 1), text(&[("XRP", "USD", 740, 2)]));
    assert_eq!(env.owner_count(&owner), 1);
    // A new pair; the one left out keeps its assets and loses its price.
    update(
        &mut env,
        &priced(&[("XRP", "EUR", 700, 2)]),
        Ter::tesSUCCESS,
    );
    assert_eq!(
        stored(&env, &owner, 1),
        text(&[("XRP", "EUR", 700, 2), ("XRP", "USD", 0, 0)]),
        "pair order, USD bare"
    );
    let o = oracle(&env, &owner, 1).unwrap();
    let usd_entry = &o.get_array("PriceDataSeries").unwrap()[1].1;
    assert!(usd_entry.get(sf().asset_price).is_none());
    assert!(usd_entry.get(sf().scale).is_none());
    update(
        &mut env,
        &priced(&[("XRP", "USD", 741, 2), ("XRP", "EUR", 710, 2)]),
        Ter::tesSUCCESS,
    );
    assert_eq!(
        stored(&env, &owner, 1),
        text(&[("XRP", "EUR", 710, 2), ("XRP", "USD", 741, 2)])
    );
    assert_eq!(env.owner_count(&owner), 1);
    // Six pairs: two owner entries.
    let four = priced(&[
        ("BTC", "USD", 741, 2),
        ("ETH", "EUR", 710, 2),
        ("YAN", "EUR", 710, 2),
        ("CAN", "EUR", 710, 2),
    ]);
    update(&mut env, &four, Ter::tesSUCCESS);
    assert_eq!(env.owner_count(&owner), 2);
    update(&mut env, &[("BTC", "USD", None, None)], Ter::tesSUCCESS);
    assert_eq!(env.owner_count(&owner), 1, "five pairs count one");
    let last = [
        ("XRP", "USD", Some(742), Some(2)),
        ("XRP", "EUR", Some(711), Some(2)),
        ("ETH", "EUR", None, None),
        ("YAN", "EUR", None, None),
        ("CAN", "EUR", None, None),
    ];
    update(&mut env, &last, Ter::tesSUCCESS);
    assert_eq!(
        stored(&env, &owner, 1),
        text(&[("XRP", "EUR", 711, 2), ("XRP", "USD", 742, 2)])
    );
    assert_eq!(env.owner_count(&owner), 1);
    // Deleting a pair the oracle lacks, deleting every pair, more than ten after the update.
    update(
        &mut env,
        &[("XRP", "GBP", None, None)],
        Ter::tecTOKEN_PAIR_NOT_FOUND,
    );
    update(
        &mut env,
        &[("XRP", "USD", None, None), ("XRP", "EUR", None, None)],
        Ter::tecARRAY_EMPTY,
    );
    let nine: Vec<Pair> = [
        "AA1", "AA2", "AA3", "AA4", "AA5", "AA6", "AA7", "AA8", "AA9",
    ]
    .iter()
    .map(|q| ("XRP", *q, Some(1), None))
    .collect();
    update(&mut env, &nine, Ter::tecARRAY_TOO_LARGE);
    // Added and deleted at once.
    update(
        &mut env,
        &[
            ("XRP", "GBP", None, None),
            ("XRP", "GBP", Some(740), Some(1)),
        ],
        Ter::temMALFORMED,
    );
    assert_eq!(stored(&env, &owner, 1).len(), 2);
}

#[test]
fn provider_and_asset_class_never_change_and_uri_may() {
    let mut env = Env::new();
    let [owner, some] = env.funded(["owner", "some"]);
    let tx = oracle_create(&env, 1, &usd());
    env.apply(&owner, tx, Ter::tesSUCCESS);
    let tx = oracle_update(&env, 1, &usd(), 1).blob("Provider", b"provider1");
    env.apply(&owner, tx, Ter::temMALFORMED);
    let tx = oracle_update(&env, 1, &usd(), 1).blob("AssetClass", b"currency1");
    env.apply(&owner, tx, Ter::temMALFORMED);
    // The same values, and a new URI, are fine.
    let tx = oracle_create(&env, 1, &usd()).blob("URI", b"URI2");
    let tx = Tx(tx.0).u32("LastUpdateTime", unix_now(&env, 1));
    env.apply(&owner, tx, Ter::tesSUCCESS);
    let o = oracle(&env, &owner, 1).unwrap();
    assert_eq!(blob(&o, "URI").as_deref(), Some("URI2"));
    // Another account's document 1 is its own, new oracle: Provider is required.
    let tx = oracle_update(&env, 1, &usd(), 1);
    env.apply(&some, tx, Ter::temMALFORMED);
    let tx = oracle_create(&env, 1, &priced(&[(BOND, "USD", 740, 1)]));
    env.apply(&some, tx, Ter::tesSUCCESS);
    assert!(oracle(&env, &some, 1).is_some());
    // Deleting a pair of an oracle that does not exist is malformed.
    let tx = oracle_update(&env, 10, &[("XRP", "EUR", None, None)], 1);
    env.apply(&owner, tx, Ter::temMALFORMED);
}

#[test]
fn last_update_time_keeps_to_the_window_and_moves_forward() {
    let mut env = Env::new();
    let [owner] = env.funded(["owner"]);
    let tx = oracle_create(&env, 1, &usd());
    env.apply(&owner, tx, Ter::tesSUCCESS);
    env.close_after(400);
    let created = oracle(&env, &owner, 1)
        .unwrap()
        .u32_of(sf().last_update_time)
        .unwrap();
    for (offset, want) in [
        (-301, Ter::tecINVALID_UPDATE_TIME),
        (301, Ter::tecINVALID_UPDATE_TIME),
    ] {
        let tx = oracle_update(&env, 1, &usd(), offset);
        env.apply(&owner, tx, want);
    }
    // The edges of the window are inside it.
    let tx = oracle_update(&env, 1, &usd(), 300);
    env.apply(&owner, tx, Ter::tesSUCCESS);
    let tx = oracle_update(&env, 1, &usd(), -300);
    env.apply(&owner, tx, Ter::tecINVALID_UPDATE_TIME);
    assert!(
        unix_now(&env, -300) > created,
        "refused for not moving forward"
    );
    let same = oracle_update(&env, 1, &usd(), 300);
    env.apply(&owner, same, Ter::tecINVALID_UPDATE_TIME);
    // Before the ripple epoch.
    let tx = Tx(oracle_update(&env, 1, &usd(), 0).0)
        .u32("LastUpdateTime", (RIPPLE_EPOCH_OFFSET_SECS - 1) as u32);
    env.apply(&owner, tx, Ter::tecINVALID_UPDATE_TIME);
    let o = oracle(&env, &owner, 1).unwrap();
    assert_eq!(o.u32_of(sf().last_update_time), Some(unix_now(&env, 300)));
}

#[test]
fn oracle_delete_needs_the_owners_document() {
    let mut env = Env::new();
    let [owner, other] = env.funded(["owner", "other"]);
    let tx = oracle_create(&env, 1, &usd());
    env.apply(&owner, tx, Ter::tesSUCCESS);
    let del = |doc| Tx::new("OracleDelete").u32("OracleDocumentID", doc);
    env.apply(&owner, del(2), Ter::tecNO_ENTRY);
    env.apply(&other, del(1), Ter::tecNO_ENTRY);
    env.apply(&owner, del(1).flags(TF_SELL_NFTOKEN), Ter::temINVALID_FLAG);
    assert!(oracle(&env, &owner, 1).is_some());
    env.apply(&owner, del(1), Ter::tesSUCCESS);
    assert_eq!(env.owner_count(&owner), 0);
}

#[test]
fn account_delete_takes_the_did_and_the_oracles() {
    let mut env = Env::new();
    let [owner, alice] = env.funded(["owner", "alice"]);
    let tx = oracle_create(&env, 1, &usd());
    env.apply(&owner, tx, Ter::tesSUCCESS);
    let tx = oracle_create(&env, 2, &priced(&[("XRP", "EUR", 740, 1)]));
    env.apply(&owner, tx, Ter::tesSUCCESS);
    env.apply(&owner, did_set(&[("URI", "uri")]), Ter::tesSUCCESS);
    assert_eq!(env.owner_count(&owner), 3);
    while env.store.current().seq() < env.seq(&owner) + 255 {
        env.close();
    }
    env.apply(&owner, account_delete(&alice), Ter::tesSUCCESS);
    assert!(env.root(&owner).is_none());
    assert!(oracle(&env, &owner, 1).is_none());
    assert!(oracle(&env, &owner, 2).is_none());
    assert!(env.read(&keylet::did(&owner.id)).is_none());
    assert!(env.read(&keylet::owner_dir(&owner.id)).is_none());
}
