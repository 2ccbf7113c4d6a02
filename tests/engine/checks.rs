//! Check stories (issue 14), after rippled's `Check_test.cpp`: XRP and issued-currency
//! checks created, cashed for an exact Amount or with DeliverMin, cancelled by their
//! parties or (expired) by anyone, with the reserve, freeze, authorization and expiry rules.

use crate::support;

use ledgerd::engine::account_set::asf;
use ledgerd::engine::trust_set::tf as tst;
use ledgerd::engine::Ter;
use ledgerd::ledger::keylet;
use ledgerd::ledger::sf::{sf, StExt};
use support::engine::*;

#[test]
fn an_xrp_check_is_cashed_for_its_amount_or_with_deliver_min() {
    let mut env = Env::new();
    let [alice, bob] = env.funded(["alice", "bob"]);
    let seq = env.seq(&alice);
    env.apply(&alice, check_create(&bob, xrp(100)), Ter::tesSUCCESS);
    let key = keylet::check(&alice.id, seq);
    let c = env.read(&key).expect("check");
    assert_eq!(c.amount_of(sf().send_max), Some(xrp(100)));
    assert_eq!(c.u32_of(sf().sequence), Some(seq));
    assert_eq!(env.owner_count(&alice), 1);
    assert!(
        env.owned(&bob).contains(&key),
        "in the destination's directory too"
    );
    // Only the destination cashes; not more than SendMax.
    env.apply(&alice, check_cash(key, xrp(10)), Ter::tecNO_PERMISSION);
    env.apply(&bob, check_cash(key, xrp(101)), Ter::tecPATH_PARTIAL);
    env.apply(&bob, check_cash(key, bob.iou("USD", 1)), Ter::temMALFORMED);
    let (a, b) = (env.balance(&alice), env.balance(&bob));
    env.apply(&bob, check_cash(key, xrp(60)), Ter::tesSUCCESS);
    assert_eq!(env.balance(&alice), a - 60_000_000);
    assert_eq!(env.balance(&bob), b + 60_000_000 - FEE);
    assert!(env.read(&key).is_none());
    assert_eq!(env.owner_count(&alice), 0);
    let meta = env.last_meta.clone().expect("meta");
    assert_eq!(meta.amount_of(sf().delivered_amount), Some(xrp(60)));

    // DeliverMin: as much as SendMax allows.
    let seq = env.seq(&alice);
    env.apply(&alice, check_create(&bob, xrp(50)), Ter::tesSUCCESS);
    let key = keylet::check(&alice.id, seq);
    let b = env.balance(&bob);
    let min = Tx::new("CheckCash")
        .h256("CheckID", key)
        .amount("DeliverMin", xrp(10));
    env.apply(&bob, min, Ter::tesSUCCESS);
    assert_eq!(env.balance(&bob), b + 50_000_000 - FEE);
}

#[test]
fn a_check_writer_must_have_the_funds_when_it_is_cashed() {
    let mut env = Env::new();
    let [bob] = env.funded(["bob"]);
    let alice = Account::new("alice");
    env.fund(&alice, xrp(300));
    let seq = env.seq(&alice);
    env.apply(&alice, check_create(&bob, xrp(1000)), Ter::tesSUCCESS);
    let key = keylet::check(&alice.id, seq);
    // 300 XRP less one fee, above a 10 XRP reserve (the check's 2 XRP come back).
    env.apply(&bob, check_cash(key, xrp(291)), Ter::tecPATH_PARTIAL);
    let min = Tx::new("CheckCash")
        .h256("CheckID", key)
        .amount("DeliverMin", xrp(200));
    let b = env.balance(&bob);
    env.apply(&bob, min, Ter::tesSUCCESS);
    let got = env.balance(&bob) - b + FEE;
    assert_eq!(
        got,
        300_000_000 - FEE - 10_000_000,
        "everything above the reserve"
    );
}

#[test]
fn malformed_and_refused_checks() {
    let mut env = Env::new();
    let [alice, bob, gw] = env.funded(["alice", "bob", "gateway"]);
    let now = env.parent_close();
    let cases = [
        (check_create(&alice, xrp(1)), Ter::temREDUNDANT),
        (check_create(&bob, xrp(0)), Ter::temBAD_AMOUNT),
        (check_create(&bob, xrp(-1)), Ter::temBAD_AMOUNT),
        (
            check_create(&bob, xrp(1)).u32("Expiration", 0),
            Ter::temBAD_EXPIRATION,
        ),
        (check_create(&bob, xrp(1)).flags(1), Ter::temINVALID_FLAG),
        (
            check_create(&Account::new("nobody"), xrp(1)),
            Ter::tecNO_DST,
        ),
        (
            check_create(&bob, xrp(1)).u32("Expiration", now),
            Ter::tecEXPIRED,
        ),
    ];
    for (tx, want) in cases {
        env.apply(&alice, tx, want);
    }
    env.apply(&bob, fset(asf::DISALLOW_INCOMING_CHECK), Ter::tesSUCCESS);
    env.apply(&alice, check_create(&bob, xrp(1)), Ter::tecNO_PERMISSION);
    env.apply(&bob, fclear(asf::DISALLOW_INCOMING_CHECK), Ter::tesSUCCESS);
    env.apply(&bob, fset(asf::REQUIRE_DEST), Ter::tesSUCCESS);
    env.apply(&alice, check_create(&bob, xrp(1)), Ter::tecDST_TAG_NEEDED);
    // A frozen line: the issuer froze alice's USD.
    env.apply(&alice, trust(gw.iou("USD", 100)), Ter::tesSUCCESS);
    env.apply(
        &gw,
        trust(alice.iou("USD", 0)).flags(tst::SET_FREEZE),
        Ter::tesSUCCESS,
    );
    env.apply(
        &alice,
        check_create(&bob, gw.iou("USD", 1)).u32("DestinationTag", 1),
        Ter::tecFROZEN,
    );
    let cash_missing = check_cash(keylet::check(&alice.id, 1), xrp(1));
    env.apply(&bob, cash_missing, Ter::tecNO_ENTRY);
    env.apply(
        &bob,
        Tx::new("CheckCash").h256("CheckID", keylet::check(&alice.id, 1)),
        Ter::temMALFORMED,
    );
    assert_eq!(env.owner_count(&alice), 1, "only the trust line");
}

#[test]
fn a_check_is_cancelled_by_its_parties_or_by_anyone_once_expired() {
    let mut env = Env::new();
    let [alice, bob, carol] = env.funded(["alice", "bob", "carol"]);
    let now = env.parent_close();
    let mut keys = Vec::new();
    for expiration in [None, None, Some(now + 5)] {
        let seq = env.seq(&alice);
        let mut tx = check_create(&bob, xrp(1));
        if let Some(e) = expiration {
            tx = tx.u32("Expiration", e);
        }
        env.apply(&alice, tx, Ter::tesSUCCESS);
        keys.push(keylet::check(&alice.id, seq));
    }
    assert_eq!(env.owner_count(&alice), 3);
    env.apply(&carol, check_cancel(keys[2]), Ter::tecNO_PERMISSION);
    env.apply(&alice, check_cancel(keys[0]), Ter::tesSUCCESS);
    env.apply(&bob, check_cancel(keys[1]), Ter::tesSUCCESS);
    env.close_after(10);
    env.apply(&bob, check_cash(keys[2], xrp(1)), Ter::tecEXPIRED);
    env.apply(&carol, check_cancel(keys[2]), Ter::tesSUCCESS);
    assert_eq!(env.owner_count(&alice), 0);
    assert!(env.owned(&bob).is_empty());
    env.apply(&carol, check_cancel(keys[2]), Ter::tecNO_ENTRY);
}

#[test]
fn an_issued_currency_check_moves_tokens_along_the_default_path() {
    let mut env = Env::new();
    let [gw, alice, bob] = env.funded(["gateway", "alice", "bob"]);
    // Tokens pass between holders through the issuer only if it ripples.
    env.apply(&gw, fset(asf::DEFAULT_RIPPLE), Ter::tesSUCCESS);
    env.apply(&alice, trust(gw.iou("USD", 1000)), Ter::tesSUCCESS);
    env.apply(&bob, trust(gw.iou("USD", 1000)), Ter::tesSUCCESS);
    env.apply(&gw, pay(&alice, gw.iou("USD", 100)), Ter::tesSUCCESS);
    let seq = env.seq(&alice);
    env.apply(
        &alice,
        check_create(&bob, gw.iou("USD", 80)),
        Ter::tesSUCCESS,
    );
    let key = keylet::check(&alice.id, seq);
    env.apply(
        &bob,
        check_cash(key, gw.iou("USD", 81)),
        Ter::tecPATH_PARTIAL,
    );
    env.apply(&bob, check_cash(key, gw.iou("USD", 30)), Ter::tesSUCCESS);
    assert_eq!(env.iou_balance(&alice, &gw, "USD"), val("70"));
    assert_eq!(env.iou_balance(&bob, &gw, "USD"), val("30"));

    // The writer spent its USD meanwhile: DeliverMin above what is left fails.
    let seq = env.seq(&alice);
    env.apply(
        &alice,
        check_create(&bob, gw.iou("USD", 60)),
        Ter::tesSUCCESS,
    );
    let key = keylet::check(&alice.id, seq);
    env.apply(&alice, pay(&gw, gw.iou("USD", 50)), Ter::tesSUCCESS);
    let min = |m: i64| {
        Tx::new("CheckCash")
            .h256("CheckID", key)
            .amount("DeliverMin", gw.iou("USD", m))
    };
    env.apply(&bob, min(21), Ter::tecPATH_PARTIAL);
    env.apply(&bob, min(15), Ter::tesSUCCESS);
    assert_eq!(env.iou_balance(&bob, &gw, "USD"), val("50"));
    assert_eq!(env.iou_balance(&alice, &gw, "USD"), val("0"));

    // RequireAuth: bob's line must be authorized.
    let [issuer, carol] = env.funded(["issuer", "carol"]);
    env.apply(&issuer, fset(asf::REQUIRE_AUTH), Ter::tesSUCCESS);
    env.apply(&carol, trust(issuer.iou("EUR", 10)), Ter::tesSUCCESS);
    let seq = env.seq(&issuer);
    env.apply(
        &issuer,
        check_create(&carol, issuer.iou("EUR", 5)),
        Ter::tesSUCCESS,
    );
    let key = keylet::check(&issuer.id, seq);
    env.apply(
        &carol,
        check_cash(key, issuer.iou("EUR", 5)),
        Ter::tecNO_AUTH,
    );
    env.apply(&issuer, authorize(&carol, "EUR"), Ter::tesSUCCESS);
    env.apply(
        &carol,
        check_cash(key, issuer.iou("EUR", 5)),
        Ter::tesSUCCESS,
    );
    assert_eq!(env.iou_balance(&carol, &issuer, "EUR"), val("5"));
}

/// CheckCashMakesTrustLine: a casher without a trust line to the issuer gets one (limit 0,
/// its reserve), and a casher's limit does not stop a check it signed for.
#[test]
fn cashing_a_check_makes_the_trust_line_it_needs() {
    let mut env = Env::new();
    let [gw, alice, bob, carol] = env.funded(["gateway", "alice", "bob", "carol"]);
    env.apply(&gw, fset(asf::DEFAULT_RIPPLE), Ter::tesSUCCESS);
    env.apply(&alice, trust(gw.iou("USD", 1000)), Ter::tesSUCCESS);
    env.apply(&gw, pay(&alice, gw.iou("USD", 100)), Ter::tesSUCCESS);
    let seq = env.seq(&alice);
    env.apply(
        &alice,
        check_create(&bob, gw.iou("USD", 40)),
        Ter::tesSUCCESS,
    );
    let key = keylet::check(&alice.id, seq);
    assert!(env.line(&bob, &gw, "USD").is_none());
    env.apply(&bob, check_cash(key, gw.iou("USD", 40)), Ter::tesSUCCESS);
    assert_eq!(env.iou_balance(&bob, &gw, "USD"), val("40"));
    assert_eq!(env.owner_count(&bob), 1, "bob pays the new line's reserve");
    let line = env.line(&bob, &gw, "USD").expect("line");
    let mine = if bob.id < gw.id {
        sf().low_limit
    } else {
        sf().high_limit
    };
    assert_eq!(
        line.amount_of(mine).and_then(|a| a.as_iou()),
        Some(val("0")),
        "limit 0"
    );

    // carol trusts the gateway for 10 only; a check for 30 still arrives, the limit stays.
    env.apply(&carol, trust(gw.iou("USD", 10)), Ter::tesSUCCESS);
    let seq = env.seq(&alice);
    env.apply(
        &alice,
        check_create(&carol, gw.iou("USD", 30)),
        Ter::tesSUCCESS,
    );
    env.apply(
        &carol,
        check_cash(keylet::check(&alice.id, seq), gw.iou("USD", 30)),
        Ter::tesSUCCESS,
    );
    assert_eq!(env.iou_balance(&carol, &gw, "USD"), val("30"));
    let line = env.line(&carol, &gw, "USD").expect("line");
    let mine = if carol.id < gw.id {
        sf().low_limit
    } else {
        sf().high_limit
    };
    assert_eq!(
        line.amount_of(mine).and_then(|a| a.as_iou()),
        Some(val("10"))
    );
}
