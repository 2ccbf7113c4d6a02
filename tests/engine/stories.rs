//! Ledger stories for every rule of the product document: RequireAuth, trust line
//! authorization (per currency, pre-authorization), payments on authorized and
//! unauthorized lines, and the payment channel life. Each transaction is signed, encoded
//! to binary and decoded before it is applied, as the server applies it.

use crate::support;

use ledgerd::engine::account_set::asf;
use ledgerd::engine::trust_set::tf as tst;
use ledgerd::engine::Ter;
use ledgerd::ledger::flags::lsf;
use ledgerd::ledger::keylet;
use ledgerd::ledger::sf::{sf, StExt};
use ledgerd::protocol::amount::IouValue;
use ledgerd::protocol::claim::sign_claim;
use ledgerd::protocol::features::Feature;
use ledgerd::protocol::keys::KeyType;
use support::engine::*;

#[test]
fn genesis_and_new_accounts() {
    let env = Env::new();
    let master = Account::master();
    assert_eq!(master.id.to_address(), "rHb9CJAWyB4rj91VRWn96DkukG4bwdtyTh");
    assert_eq!(
        keylet::account(&master.id).to_hex(),
        "2B6AC232AA4C4BE41BF49D2459FA4A0347E1B543A4C92FCEE0821C0201E2E9A8"
    );
    assert_eq!(env.balance(&master), 100_000_000_000 * 1_000_000);
    assert_eq!(env.seq(&master), 1);
    assert_eq!(env.store.current().seq(), 3);
    assert_eq!(env.store.closed().seq(), 2);

    let mut env = env;
    let [alice] = env.funded(["alice"]);
    // Accounts start at the sequence of the ledger that creates them.
    assert_eq!(env.seq(&alice), 3);
    assert_eq!(env.balance(&alice), 10_000_000_000);
    assert_eq!(env.seq(&master), 2);
    // Too little to create an account: below the 10 XRP base reserve.
    let bob = Account::new("bob");
    env.apply(&master, pay(&bob, xrp(9)), Ter::tecNO_DST_INSUF_XRP);
    assert!(env.root(&bob).is_none());
    assert_eq!(env.seq(&master), 3, "a tec consumes the sequence");
}

#[test]
fn require_auth_with_empty_owner_directory() {
    let mut env = Env::new();
    let [gw] = env.funded(["gateway"]);
    assert!(env.owned(&gw).is_empty());
    env.apply(&gw, fset(asf::REQUIRE_AUTH), Ter::tesSUCCESS);
    assert_eq!(env.flags(&gw) & lsf::REQUIRE_AUTH, 0x0004_0000);
    // Setting it again does no check and succeeds.
    env.apply(&gw, fset(asf::REQUIRE_AUTH), Ter::tesSUCCESS);
    // Clearing has no preconditions.
    env.apply(&gw, fclear(asf::REQUIRE_AUTH), Ter::tesSUCCESS);
    assert_eq!(env.flags(&gw) & lsf::REQUIRE_AUTH, 0);
}

#[test]
fn require_auth_refused_once_the_issuer_has_a_trust_line() {
    let mut env = Env::new();
    let [gw, alice] = env.funded(["gateway", "alice"]);
    env.apply(&alice, trust(gw.iou("USD", 100)), Ter::tesSUCCESS);
    // The line is in the issuer's directory although only alice pays its reserve.
    assert_eq!(env.owner_count(&gw), 0);
    assert_eq!(env.owned(&gw).len(), 1);
    let (bal, seq) = (env.balance(&gw), env.seq(&gw));
    env.apply(&gw, fset(asf::REQUIRE_AUTH), Ter::tecOWNERS);
    assert_eq!(env.flags(&gw) & lsf::REQUIRE_AUTH, 0);
    assert_eq!(env.balance(&gw), bal - FEE, "a tec charges the fee");
    assert_eq!(env.seq(&gw), seq + 1);
    // The legacy tf form is refused the same way.
    env.apply(
        &gw,
        account_set().flags(ledgerd::engine::account_set::tf::REQUIRE_AUTH),
        Ter::tecOWNERS,
    );
    // A zero limit alone is not the default state: alice (no DefaultRipple) must also set
    // NoRipple on her side.
    env.apply(&alice, trust(gw.iou("USD", 0)), Ter::tesSUCCESS);
    assert!(env.line(&alice, &gw, "USD").is_some());
    assert_eq!(env.owner_count(&alice), 1);
    env.apply(
        &alice,
        trust(gw.iou("USD", 0)).flags(tst::SET_NO_RIPPLE),
        Ter::tesSUCCESS,
    );
    // Once the line is gone (back to default) RequireAuth can be enabled.
    assert!(env.line(&alice, &gw, "USD").is_none());
    assert_eq!(env.owner_count(&alice), 0);
    assert!(env.owned(&gw).is_empty());
    env.apply(&gw, fset(asf::REQUIRE_AUTH), Ter::tesSUCCESS);
}

#[test]
fn set_auth_without_require_auth_is_tef_no_auth_required() {
    let mut env = Env::new();
    let [gw, alice] = env.funded(["gateway", "alice"]);
    env.apply(&alice, trust(gw.iou("USD", 100)), Ter::tesSUCCESS);
    let (bal, seq) = (env.balance(&gw), env.seq(&gw));
    env.apply(&gw, authorize(&alice, "USD"), Ter::tefNO_AUTH_REQUIRED);
    assert_eq!(env.balance(&gw), bal, "a tef charges nothing");
    assert_eq!(env.seq(&gw), seq, "a tef consumes no sequence");
    assert_eq!(env.auth_flags(&alice, &gw, "USD"), (false, false));
}

/// gw with RequireAuth (and DefaultRipple so holders can pay each other).
fn gateway_env() -> (Env, Account, Account, Account) {
    let mut env = Env::new();
    let [gw, alice, bob] = env.funded(["gateway", "alice", "bob"]);
    env.gateway(&gw);
    (env, gw, alice, bob)
}

#[test]
fn issuer_authorizes_each_currency_separately() {
    let (mut env, gw, alice, _) = gateway_env();
    env.apply(&alice, trust(gw.iou("USD", 1000)), Ter::tesSUCCESS);
    env.apply(&alice, trust(gw.iou("EUR", 1000)), Ter::tesSUCCESS);
    // Unauthorized: the issuer cannot pay either line.
    env.apply(&gw, pay(&alice, gw.iou("USD", 10)), Ter::tecPATH_DRY);
    env.apply(&gw, pay(&alice, gw.iou("EUR", 10)), Ter::tecPATH_DRY);

    // The authorization request of the product document: value 0, Flags 65536.
    env.apply(
        &gw,
        trust(alice.iou("USD", 0)).flags(65536),
        Ter::tesSUCCESS,
    );
    // Holder sees peer_authorized, the issuer sees authorized; EUR is untouched.
    assert_eq!(env.auth_flags(&alice, &gw, "USD"), (false, true));
    assert_eq!(env.auth_flags(&gw, &alice, "USD"), (true, false));
    assert_eq!(env.auth_flags(&alice, &gw, "EUR"), (false, false));
    let line = env.line(&alice, &gw, "USD").expect("line");
    let issuer_bit = if gw.id > alice.id {
        lsf::HIGH_AUTH
    } else {
        lsf::LOW_AUTH
    };
    assert_ne!(line.flags() & issuer_bit, 0);

    env.apply(&gw, pay(&alice, gw.iou("USD", 10)), Ter::tesSUCCESS);
    assert_eq!(env.iou_balance(&alice, &gw, "USD"), IouValue::from_i64(10));
    env.apply(&gw, pay(&alice, gw.iou("EUR", 10)), Ter::tecPATH_DRY);

    env.apply(&gw, authorize(&alice, "EUR"), Ter::tesSUCCESS);
    assert_eq!(env.auth_flags(&alice, &gw, "EUR"), (false, true));
    env.apply(&gw, pay(&alice, gw.iou("EUR", 10)), Ter::tesSUCCESS);
    assert_eq!(env.iou_balance(&alice, &gw, "EUR"), IouValue::from_i64(10));
    // Authorizing again is idempotent; no way to revoke by TrustSet.
    env.apply(&gw, authorize(&alice, "EUR"), Ter::tesSUCCESS);
    assert_eq!(env.auth_flags(&alice, &gw, "EUR"), (false, true));
}

#[test]
fn pre_authorization_before_the_holders_trust_set() {
    let (mut env, gw, alice, _) = gateway_env();
    assert!(env.line(&alice, &gw, "USD").is_none());
    env.apply(&gw, authorize(&alice, "USD"), Ter::tesSUCCESS);
    // A zero-limit line exists, charged to the issuer.
    let line = env.line(&alice, &gw, "USD").expect("pre-authorized line");
    assert!(line.amount_of(sf().low_limit).unwrap().is_zero());
    assert!(line.amount_of(sf().high_limit).unwrap().is_zero());
    assert_eq!(env.owner_count(&gw), 1);
    assert_eq!(env.owner_count(&alice), 0);
    assert_eq!(env.auth_flags(&alice, &gw, "USD"), (false, true));
    // The issuer cannot pay yet: the holder accepts nothing (limit 0).
    env.apply(&gw, pay(&alice, gw.iou("USD", 5)), Ter::tecPATH_DRY);

    // The holder's TrustSet sets the limit; the issuer's side, default again, is released.
    env.apply(&alice, trust(gw.iou("USD", 100)), Ter::tesSUCCESS);
    assert_eq!(env.owner_count(&alice), 1);
    assert_eq!(env.owner_count(&gw), 0);
    assert_eq!(env.auth_flags(&alice, &gw, "USD"), (false, true));
    env.apply(&gw, pay(&alice, gw.iou("USD", 100)), Ter::tesSUCCESS);
    assert_eq!(env.iou_balance(&alice, &gw, "USD"), IouValue::from_i64(100));
    // Over the limit.
    env.apply(&gw, pay(&alice, gw.iou("USD", 1)), Ter::tecPATH_DRY);
}

#[test]
fn pre_authorizing_issuer_without_default_ripple_keeps_the_reserve() {
    let mut env = Env::new();
    let [gw, alice] = env.funded(["gateway", "alice"]);
    env.apply(&gw, fset(asf::REQUIRE_AUTH), Ter::tesSUCCESS);
    env.apply(&gw, authorize(&alice, "USD"), Ter::tesSUCCESS);
    env.apply(&alice, trust(gw.iou("USD", 100)), Ter::tesSUCCESS);
    assert_eq!(env.owner_count(&gw), 1);
    assert_eq!(env.owner_count(&alice), 1);
}

#[test]
fn payments_through_the_issuer_need_both_lines_authorized() {
    let (mut env, gw, alice, bob) = gateway_env();
    env.apply(&alice, trust(gw.iou("USD", 1000)), Ter::tesSUCCESS);
    env.apply(&bob, trust(gw.iou("USD", 1000)), Ter::tesSUCCESS);
    env.apply(&gw, authorize(&alice, "USD"), Ter::tesSUCCESS);
    env.apply(&gw, pay(&alice, gw.iou("USD", 100)), Ter::tesSUCCESS);
    // Bob's line is not authorized.
    env.apply(&alice, pay(&bob, gw.iou("USD", 10)), Ter::tecPATH_DRY);
    env.apply(&gw, authorize(&bob, "USD"), Ter::tesSUCCESS);
    env.apply(&alice, pay(&bob, gw.iou("USD", 10)), Ter::tesSUCCESS);
    assert_eq!(env.iou_balance(&alice, &gw, "USD"), IouValue::from_i64(90));
    assert_eq!(env.iou_balance(&bob, &gw, "USD"), IouValue::from_i64(10));
    // Holder pays the issuer back: no limit applies to redeeming.
    env.apply(&bob, pay(&gw, gw.iou("USD", 10)), Ter::tesSUCCESS);
    assert_eq!(env.iou_balance(&bob, &gw, "USD"), IouValue::ZERO);
    // More than it holds.
    env.apply(&alice, pay(&gw, gw.iou("USD", 91)), Ter::tecPATH_PARTIAL);
    // Partial payment delivers what it can.
    env.apply(
        &alice,
        pay(&gw, gw.iou("USD", 91)).flags(ledgerd::engine::payment::tf::PARTIAL_PAYMENT),
        Ter::tesSUCCESS,
    );
    let meta = env.last_meta.clone().expect("meta");
    assert_eq!(
        meta.amount_of(sf().delivered_amount),
        Some(gw.iou("USD", 90))
    );
    assert_eq!(env.iou_balance(&alice, &gw, "USD"), IouValue::ZERO);
}

#[test]
fn unauthorized_holder_cannot_pay_the_issuer() {
    let (mut env, gw, alice, _) = gateway_env();
    env.apply(&alice, trust(gw.iou("USD", 1000)), Ter::tesSUCCESS);
    env.apply(&alice, pay(&gw, gw.iou("USD", 1)), Ter::tecPATH_DRY);
    // No line at all.
    let carol = Account::new("carol");
    env.fund(&carol, xrp(1000));
    env.apply(&gw, pay(&carol, gw.iou("USD", 1)), Ter::tecPATH_DRY);
    // A currency payment to a missing account.
    let dave = Account::new("dave");
    env.apply(&gw, pay(&dave, gw.iou("USD", 1)), Ter::tecNO_DST);
}

#[test]
fn no_ripple_blocks_holder_to_holder_without_default_ripple() {
    let mut env = Env::new();
    let [gw, alice, bob] = env.funded(["gateway", "alice", "bob"]);
    env.apply(&alice, trust(gw.iou("USD", 1000)), Ter::tesSUCCESS);
    env.apply(&bob, trust(gw.iou("USD", 1000)), Ter::tesSUCCESS);
    env.apply(&gw, pay(&alice, gw.iou("USD", 100)), Ter::tesSUCCESS);
    env.apply(&alice, pay(&bob, gw.iou("USD", 10)), Ter::tecPATH_DRY);
    // The issuer clears NoRipple on both lines.
    env.apply(
        &gw,
        trust(alice.iou("USD", 0)).flags(tst::CLEAR_NO_RIPPLE),
        Ter::tesSUCCESS,
    );
    env.apply(
        &gw,
        trust(bob.iou("USD", 0)).flags(tst::CLEAR_NO_RIPPLE),
        Ter::tesSUCCESS,
    );
    env.apply(&alice, pay(&bob, gw.iou("USD", 10)), Ter::tesSUCCESS);
    assert_eq!(env.iou_balance(&bob, &gw, "USD"), IouValue::from_i64(10));
}

#[test]
fn transfer_rate_needs_send_max() {
    let (mut env, gw, alice, bob) = gateway_env();
    env.apply(
        &gw,
        account_set().u32("TransferRate", 1_002_000_000),
        Ter::tesSUCCESS,
    );
    for h in [&alice, &bob] {
        env.apply(h, trust(gw.iou("USD", 1000)), Ter::tesSUCCESS);
        env.apply(&gw, authorize(h, "USD"), Ter::tesSUCCESS);
    }
    env.apply(&gw, pay(&alice, gw.iou("USD", 100)), Ter::tesSUCCESS);
    env.apply(&alice, pay(&bob, gw.iou("USD", 10)), Ter::tecPATH_PARTIAL);
    env.apply(
        &alice,
        pay(&bob, gw.iou("USD", 10)).amount("SendMax", gw.iou_s("USD", "10.02")),
        Ter::tesSUCCESS,
    );
    assert_eq!(env.iou_balance(&alice, &gw, "USD"), val("89.98"));
    assert_eq!(env.iou_balance(&bob, &gw, "USD"), IouValue::from_i64(10));
}

#[test]
fn trust_line_reserve_rules() {
    let mut env = Env::new();
    let [gw] = env.funded(["gateway"]);
    // Exactly the base reserve plus fees for three TrustSets: the first two lines are free.
    let alice = Account::new("alice");
    env.fund(&alice, drops(10_000_000 + 3 * FEE));
    env.apply(&alice, trust(gw.iou("AAA", 1)), Ter::tesSUCCESS);
    env.apply(&alice, trust(gw.iou("BBB", 1)), Ter::tesSUCCESS);
    assert_eq!(env.owner_count(&alice), 2);
    env.apply(
        &alice,
        trust(gw.iou("CCC", 1)),
        Ter::tecNO_LINE_INSUF_RESERVE,
    );
    assert_eq!(env.owner_count(&alice), 2);
    // Setting a non-existent line to its default is redundant.
    env.apply(&gw, trust(alice.iou("ZZZ", 0)), Ter::tecNO_LINE_REDUNDANT);
    // Malformed limits.
    env.apply(&alice, trust(xrp(1)), Ter::temBAD_LIMIT);
    env.apply(&alice, trust(gw.iou("USD", -1)), Ter::temBAD_LIMIT);
    env.apply(&alice, trust(alice.iou("USD", 1)), Ter::temDST_IS_SRC);
    let ghost = Account::new("ghost");
    env.apply(&alice, trust(ghost.iou("USD", 1)), Ter::tecNO_DST);
}

#[test]
fn freeze_and_no_ripple_flags() {
    let (mut env, gw, alice, _) = gateway_env();
    env.apply(&alice, trust(gw.iou("USD", 100)), Ter::tesSUCCESS);
    env.apply(
        &gw,
        trust(alice.iou("USD", 0)).flags(tst::SET_AUTH | tst::SET_FREEZE),
        Ter::tesSUCCESS,
    );
    let gw_freeze = if gw.id > alice.id {
        lsf::HIGH_FREEZE
    } else {
        lsf::LOW_FREEZE
    };
    assert_ne!(env.line(&alice, &gw, "USD").unwrap().flags() & gw_freeze, 0);
    env.apply(
        &gw,
        trust(alice.iou("USD", 0)).flags(tst::CLEAR_FREEZE),
        Ter::tesSUCCESS,
    );
    assert_eq!(env.line(&alice, &gw, "USD").unwrap().flags() & gw_freeze, 0);
    // tfSetDeepFreeze (DeepFreeze) on a line not frozen: refused.
    env.apply(
        &alice,
        trust(gw.iou("USD", 100)).flags(0x0040_0000),
        Ter::tecNO_PERMISSION,
    );
    // Any other unknown bit is still malformed.
    env.apply(
        &alice,
        trust(gw.iou("USD", 100)).flags(0x0100_0000),
        Ter::temINVALID_FLAG,
    );
}

#[test]
fn channel_life_secp256k1() {
    channel_life(KeyType::Secp256k1);
}

#[test]
fn channel_life_ed25519() {
    channel_life(KeyType::Ed25519);
}

fn channel_life(kt: KeyType) {
    // The claim codes before fixCleanup3_2_0, whose tec answers rules_cleanup320.rs shows: this
    // story runs under ledgerd's rule book without it.
    let mut env = crate::rules::env_without(&[Feature::FixCleanup3_2_0]);
    let alice = Account::with_type("alice", kt);
    let bob = Account::new("bob");
    env.fund(&alice, xrp(10_000));
    env.fund(&bob, xrp(10_000));
    let before = env.balance(&alice);
    let chan = env.open_channel(&alice, &bob, xrp(100), 3600);
    let c = env.read(&chan.key).expect("channel");
    assert_eq!(c.drops_of(sf().amount), 100_000_000);
    assert_eq!(c.drops_of(sf().balance), 0);
    assert_eq!(env.balance(&alice), before - 100_000_000 - FEE);
    assert_eq!(env.owner_count(&alice), 1);
    assert_eq!(env.owner_count(&bob), 0);
    // The channel is in both directories.
    assert!(env.owned(&bob).contains(&chan.key));

    // Fund.
    env.apply(&alice, chan.fund(xrp(50)), Ter::tesSUCCESS);
    assert_eq!(
        env.read(&chan.key).unwrap().drops_of(sf().amount),
        150_000_000
    );
    env.apply(&bob, chan.fund(xrp(1)), Ter::tecNO_PERMISSION);
    env.apply(
        &alice,
        channel_fund(&ledgerd::protocol::types::Hash256([7; 32]), xrp(1)),
        Ter::tecNO_ENTRY,
    );

    // Claim with a valid signature.
    let claim = |balance: i64, amount: i64, sig: &[u8]| {
        chan.claim()
            .amount("Balance", drops(balance))
            .amount("Amount", drops(amount))
            .blob("Signature", sig)
            .blob("PublicKey", &chan.pk)
    };
    let sig = sign_claim(&alice.kp, &chan.key, 10_000_000);
    let bob_before = env.balance(&bob);
    env.apply(&bob, claim(10_000_000, 10_000_000, &sig), Ter::tesSUCCESS);
    assert_eq!(env.balance(&bob), bob_before + 10_000_000 - FEE);
    assert_eq!(
        env.read(&chan.key).unwrap().drops_of(sf().balance),
        10_000_000
    );
    // Nothing new to claim.
    env.apply(
        &bob,
        claim(10_000_000, 10_000_000, &sig),
        Ter::tecUNFUNDED_PAYMENT,
    );

    // A changed amount does not match the signature.
    let sig20 = sign_claim(&alice.kp, &chan.key, 20_000_000);
    let bob_before = env.balance(&bob);
    env.apply(
        &bob,
        claim(30_000_000, 30_000_000, &sig20),
        Ter::temBAD_SIGNATURE,
    );
    // A changed signature.
    let mut bad = sig20.clone();
    let last = bad.len() - 2;
    bad[last] ^= 1;
    env.apply(
        &bob,
        claim(20_000_000, 20_000_000, &bad),
        Ter::temBAD_SIGNATURE,
    );
    // Someone else's key.
    let mallory = Account::with_type("mallory", kt);
    let forged = sign_claim(&mallory.kp, &chan.key, 20_000_000);
    env.apply(
        &bob,
        claim(20_000_000, 20_000_000, &forged),
        Ter::temBAD_SIGNATURE,
    );
    assert_eq!(env.balance(&bob), bob_before, "tem: no fee");
    // Destination claims without a signature.
    env.apply(
        &bob,
        chan.claim().amount("Balance", drops(20_000_000)),
        Ter::temBAD_SIGNATURE,
    );
    // More than the channel holds.
    let big = sign_claim(&alice.kp, &chan.key, 200_000_000);
    env.apply(
        &bob,
        claim(200_000_000, 200_000_000, &big),
        Ter::tecUNFUNDED_PAYMENT,
    );
    // The owner can claim without a signature (paying the destination).
    env.apply(
        &alice,
        chan.claim().amount("Balance", drops(20_000_000)),
        Ter::tesSUCCESS,
    );
    assert_eq!(
        env.read(&chan.key).unwrap().drops_of(sf().balance),
        20_000_000
    );

    // The owner asks to close: the channel expires after SettleDelay.
    env.close();
    env.apply(
        &alice,
        chan.claim()
            .flags(ledgerd::engine::payment_channel_claim::tf::CLOSE),
        Ter::tesSUCCESS,
    );
    let exp = env
        .read(&chan.key)
        .unwrap()
        .u32_of(sf().expiration)
        .expect("expiration");
    // Renew clears it again; only the owner may.
    env.apply(
        &bob,
        chan.claim()
            .flags(ledgerd::engine::payment_channel_claim::tf::RENEW),
        Ter::tecNO_PERMISSION,
    );
    assert!(exp > 0);
    // After the settle delay any touch closes it and returns the rest to the owner.
    env.close_after(3700);
    let alice_before = env.balance(&alice);
    env.apply(&alice, chan.fund(xrp(1)), Ter::tesSUCCESS);
    assert!(env.read(&chan.key).is_none());
    assert_eq!(env.balance(&alice), alice_before - FEE + 130_000_000);
    assert_eq!(env.owner_count(&alice), 0);
    env.apply(
        &bob,
        claim(20_000_000, 20_000_000, &sig20),
        Ter::tecNO_TARGET,
    );
}

#[test]
fn destination_closes_a_channel_at_once() {
    let mut env = Env::new();
    let [alice, bob] = env.funded(["alice", "bob"]);
    let pk = alice.kp.public.as_bytes().to_vec();
    let create = channel_create(&bob, xrp(10), 100, &pk).u32("DestinationTag", 7);
    let chan = env.open_channel_with(&alice, &bob, create);
    let sig = sign_claim(&alice.kp, &chan.key, 4_000_000);
    let alice_before = env.balance(&alice);
    env.apply(
        &bob,
        chan.claim()
            .amount("Balance", drops(4_000_000))
            .blob("Signature", &sig)
            .blob("PublicKey", &chan.pk)
            .flags(ledgerd::engine::payment_channel_claim::tf::CLOSE),
        Ter::tesSUCCESS,
    );
    assert!(env.read(&chan.key).is_none());
    assert_eq!(env.balance(&alice), alice_before + 6_000_000);
    // Both owner directories are empty again (the roots are kept, as rippled keeps them),
    // so bob may now enable RequireAuth.
    assert!(env.owned(&bob).is_empty());
    env.apply(&bob, fset(asf::REQUIRE_AUTH), Ter::tesSUCCESS);
}

#[test]
fn incoming_channel_blocks_require_auth() {
    let mut env = Env::new();
    let [alice, bob] = env.funded(["alice", "bob"]);
    env.open_channel(&alice, &bob, xrp(10), 100);
    env.apply(&bob, fset(asf::REQUIRE_AUTH), Ter::tecOWNERS);
}

#[test]
fn channel_create_errors() {
    let mut env = Env::new();
    let [alice, bob] = env.funded(["alice", "bob"]);
    let pk = alice.kp.public.as_bytes().to_vec();
    let create = |dst: &Account, amount| channel_create(dst, amount, 100, &pk);
    env.apply(&alice, create(&alice, xrp(1)), Ter::temDST_IS_SRC);
    env.apply(&alice, create(&bob, xrp(0)), Ter::temBAD_AMOUNT);
    env.apply(&alice, create(&bob, bob.iou("USD", 1)), Ter::temBAD_AMOUNT);
    env.apply(
        &alice,
        create(&Account::new("nobody"), xrp(1)),
        Ter::tecNO_DST,
    );
    env.apply(&alice, create(&bob, xrp(1_000_000)), Ter::tecUNFUNDED);
    env.apply(
        &alice,
        create(&bob, xrp(1)).blob("PublicKey", &[1, 2, 3]),
        Ter::temMALFORMED,
    );
    env.apply(&bob, fset(asf::REQUIRE_DEST), Ter::tesSUCCESS);
    env.apply(&alice, create(&bob, xrp(1)), Ter::tecDST_TAG_NEEDED);
    env.apply(
        &alice,
        create(&bob, xrp(1)).u32("DestinationTag", 1),
        Ter::tesSUCCESS,
    );
    env.apply(
        &alice,
        create(&bob, xrp(1)).flags(0x0001_0000),
        Ter::temINVALID_FLAG,
    );
}

#[test]
fn trust_set_permission_and_reserve_failures() {
    let (mut env, gw, alice, bob) = gateway_env();
    // NoRipple cannot be set by the side that owes (negative balance).
    env.apply(&alice, trust(gw.iou("USD", 100)), Ter::tesSUCCESS);
    env.apply(&gw, authorize(&alice, "USD"), Ter::tesSUCCESS);
    env.apply(&gw, pay(&alice, gw.iou("USD", 5)), Ter::tesSUCCESS);
    env.apply(
        &gw,
        trust(alice.iou("USD", 0)).flags(tst::SET_NO_RIPPLE),
        Ter::tecNO_PERMISSION,
    );
    // The holder (positive balance) may.
    env.apply(
        &alice,
        trust(gw.iou("USD", 100)).flags(tst::SET_NO_RIPPLE),
        Ter::tesSUCCESS,
    );
    // Incoming trust lines refused.
    env.apply(&bob, fset(15), Ter::tesSUCCESS);
    env.apply(&alice, trust(bob.iou("USD", 1)), Ter::tecNO_PERMISSION);

    // A pre-authorized line costs the holder a reserve when it sets a limit; with two
    // objects already owned that reserve is enforced.
    let poor = Account::new("poor");
    env.fund(&poor, drops(10_000_000 + 3 * FEE));
    env.apply(&poor, trust(gw.iou("AAA", 1)), Ter::tesSUCCESS);
    env.apply(&poor, trust(gw.iou("BBB", 1)), Ter::tesSUCCESS);
    env.apply(&gw, authorize(&poor, "CCC"), Ter::tesSUCCESS);
    env.apply(&poor, trust(gw.iou("CCC", 1)), Ter::tecINSUF_RESERVE_LINE);
    assert_eq!(env.owner_count(&poor), 2);
    let line = env
        .line(&poor, &gw, "CCC")
        .expect("pre-authorized line stays");
    assert!(line
        .amount_of(if poor.id < gw.id {
            sf().low_limit
        } else {
            sf().high_limit
        })
        .unwrap()
        .is_zero());
}

#[test]
fn account_lines_view_of_an_authorized_line() {
    use ledgerd::ledger::trust_line::TrustLine;
    let (mut env, gw, alice, _) = gateway_env();
    env.apply(&alice, trust(gw.iou("USD", 100)), Ter::tesSUCCESS);
    env.apply(&gw, authorize(&alice, "USD"), Ter::tesSUCCESS);
    env.apply(&gw, pay(&alice, gw.iou("USD", 30)), Ter::tesSUCCESS);
    let line = env.line(&alice, &gw, "USD").unwrap();
    let mine = TrustLine::from_entry(&line, &alice.id).unwrap();
    assert_eq!(mine.peer, gw.id);
    assert_eq!(mine.balance, IouValue::from_i64(30));
    assert_eq!(mine.limit, IouValue::from_i64(100));
    assert!(mine.peer_authorized && !mine.authorized);
    let theirs = TrustLine::from_entry(&line, &gw.id).unwrap();
    assert_eq!(theirs.balance, IouValue::from_i64(-30));
    assert!(theirs.authorized && !theirs.peer_authorized);
    assert!(theirs.limit.is_zero() && theirs.limit_peer == IouValue::from_i64(100));
    // gw has DefaultRipple, so alice's TrustSet left gw's side rippling; alice asked for
    // no NoRipple either.
    assert!(!theirs.no_ripple && !theirs.no_ripple_peer);
    assert!(TrustLine::from_entry(&line, &Account::new("x").id).is_none());
}

/// At close the ledger is rebuilt in rippled's canonical order (account XOR the hash of
/// the transaction set, then sequence, then ID), whatever order the transactions arrived
/// in; each gets its TransactionIndex in that order, and a transaction that depended on one
/// sorted after it is applied in a later pass of the same close.
#[test]
fn a_closed_ledger_holds_its_transactions_in_canonical_order() {
    use ledgerd::ledgers::tx_set_hash;
    let mut env = Env::new();
    let [alice, bob, carol, dave] = env.funded(["alice", "bob", "carol", "dave"]);
    env.close();
    for (from, to) in [
        (&alice, &carol),
        (&bob, &carol),
        (&carol, &alice),
        (&dave, &bob),
        (&alice, &bob),
    ] {
        env.apply(from, pay(to, xrp(1)), Ter::tesSUCCESS);
    }
    env.close();
    let closed = env.store.closed().ledger.expect("closed");
    assert_eq!(closed.txs.len(), 5);
    let salt = tx_set_hash(closed.txs.iter().map(|t| t.id));
    let key = |t: &ledgerd::ledgers::TxEntry| {
        let mut k = [0u8; 32];
        k[..20].copy_from_slice(&t.tx().account_of(sf().account).unwrap().0);
        for (a, b) in k.iter_mut().zip(salt.0.iter()) {
            *a ^= b;
        }
        (k, t.tx().u32_of(sf().sequence).unwrap(), t.id)
    };
    let keys: Vec<_> = closed.txs.iter().map(|t| key(t)).collect();
    assert!(
        keys.windows(2).all(|w| w[0] < w[1]),
        "sorted by the salted account, then sequence"
    );
    for (i, t) in closed.txs.iter().enumerate() {
        assert_eq!(t.index, i as u32);
        assert_eq!(t.meta().u32_of(sf().transaction_index), Some(i as u32));
    }

    // Erin can pay only with what Frank sends her in the same ledger.
    let [erin, frank] = env.funded(["erin", "frank"]);
    env.close();
    let spend = env.balance(&erin) - 10_000_000 - FEE + 50_000_000;
    env.apply(&frank, pay(&erin, xrp(50)), Ter::tesSUCCESS);
    env.apply(&erin, pay(&alice, drops(spend)), Ter::tesSUCCESS);
    env.close();
    let closed = env.store.closed().ledger.expect("closed");
    assert_eq!(closed.txs.len(), 2);
    assert!(
        closed.txs.iter().all(|t| t.ter == Ter::tesSUCCESS),
        "the later pass applied it"
    );
    assert_eq!(env.balance(&erin), 10_000_000);
}
