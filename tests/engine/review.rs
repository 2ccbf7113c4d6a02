//! An independent review of the transaction engine against rippled's transactors, rule by
//! rule: AccountSet (`SetAccount.cpp`), TrustSet (`SetTrust.cpp`), the payment channel
//! transactions (`PayChan.cpp`), RequireAuth in payments (`DirectStep.cpp`, `Payment.cpp`)
//! and the common pipeline (`Transactor.cpp`). Each test is a ledger story whose expected
//! results were settled by reading rippled's source and tests.

use crate::support;

use ledgerd::engine::account_set::asf;
use ledgerd::engine::payment_channel_claim::tf as ptf;
use ledgerd::engine::trust_set::tf as tst;
use ledgerd::engine::Ter;
use ledgerd::ledger::flags::lsf;
use ledgerd::ledger::sf::{sf, StExt};
use ledgerd::protocol::amount::IouValue;
use ledgerd::protocol::claim::sign_claim;
use ledgerd::protocol::features::Feature;
use ledgerd::protocol::types::Hash256;
use support::engine::*;

// ---------------------------------------------------------------------------------------
// AccountSet (SetAccount.cpp)

#[test]
fn account_set_preflight_codes_in_rippled_order() {
    let mut env = Env::new();
    let [alice] = env.funded(["alice"]);
    let seq = env.seq(&alice);
    // A non-AccountSet flag bit wins over everything else.
    env.apply(
        &alice,
        fset(asf::REQUIRE_AUTH)
            .u32("ClearFlag", asf::REQUIRE_AUTH)
            .flags(0x0000_0001),
        Ter::temINVALID_FLAG,
    );
    // SetFlag == ClearFlag.
    env.apply(
        &alice,
        fset(asf::DEFAULT_RIPPLE).u32("ClearFlag", asf::DEFAULT_RIPPLE),
        Ter::temINVALID_FLAG,
    );
    // tf / asf contradictions, in both directions, for the three legacy pairs.
    for (tf_set, asf_clear) in [
        (0x0004_0000, asf::REQUIRE_AUTH),
        (0x0001_0000, asf::REQUIRE_DEST),
        (0x0010_0000, asf::DISALLOW_XRP),
    ] {
        env.apply(
            &alice,
            fclear(asf_clear).flags(tf_set),
            Ter::temINVALID_FLAG,
        );
    }
    for (tf_clear, asf_set) in [
        (0x0008_0000, asf::REQUIRE_AUTH),
        (0x0002_0000, asf::REQUIRE_DEST),
        (0x0020_0000, asf::DISALLOW_XRP),
    ] {
        env.apply(&alice, fset(asf_set).flags(tf_clear), Ter::temINVALID_FLAG);
    }
    // The flag checks come before the transfer rate; the rate before the tick size; the
    // tick size before the message key; the message key before the domain.
    env.apply(
        &alice,
        fset(4).u32("ClearFlag", 4).u32("TransferRate", 1),
        Ter::temINVALID_FLAG,
    );
    env.apply(
        &alice,
        account_set()
            .u32("TransferRate", 999_999_999)
            .u8("TickSize", 2),
        Ter::temBAD_TRANSFER_RATE,
    );
    env.apply(
        &alice,
        account_set().u32("TransferRate", 2_000_000_001),
        Ter::temBAD_TRANSFER_RATE,
    );
    env.apply(
        &alice,
        account_set()
            .u8("TickSize", 17)
            .blob("MessageKey", &[1, 2, 3]),
        Ter::temBAD_TICK_SIZE,
    );
    env.apply(
        &alice,
        account_set()
            .blob("MessageKey", &[1, 2, 3])
            .blob("Domain", &[b'a'; 257]),
        Ter::telBAD_PUBLIC_KEY,
    );
    env.apply(
        &alice,
        account_set().blob("Domain", &[b'a'; 257]),
        Ter::telBAD_DOMAIN,
    );
    assert_eq!(env.seq(&alice), seq, "no preflight failure is applied");
    // The bounds themselves are legal.
    env.apply(
        &alice,
        account_set()
            .u32("TransferRate", 2_000_000_000)
            .u8("TickSize", 3)
            .blob("Domain", &[b'a'; 256]),
        Ter::tesSUCCESS,
    );
}

#[test]
fn account_set_field_set_and_clear() {
    let mut env = Env::new();
    let [alice] = env.funded(["alice"]);
    let s = sf();
    let pk = alice.kp.public.as_bytes().to_vec();
    env.apply(
        &alice,
        account_set()
            .blob("Domain", b"example.com")
            .blob("MessageKey", &pk)
            .u32("TransferRate", 1_500_000_000)
            .u8("TickSize", 5),
        Ter::tesSUCCESS,
    );
    let r = env.root(&alice).unwrap();
    assert_eq!(r.blob_of(s.domain), Some(&b"example.com"[..]));
    assert_eq!(r.blob_of(s.message_key), Some(&pk[..]));
    assert_eq!(r.u32_of(s.transfer_rate), Some(1_500_000_000));
    assert_eq!(r.u8_of(s.tick_size), Some(5));
    // Empty blobs, a rate of exactly 1.0 and a tick size of 16 remove the fields.
    env.apply(
        &alice,
        account_set()
            .blob("Domain", &[])
            .blob("MessageKey", &[])
            .u32("TransferRate", 1_000_000_000)
            .u8("TickSize", 16),
        Ter::tesSUCCESS,
    );
    let r = env.root(&alice).unwrap();
    assert!(r.get(s.domain).is_none());
    assert!(r.get(s.message_key).is_none());
    assert!(r.get(s.transfer_rate).is_none());
    assert!(r.get(s.tick_size).is_none());
    // Zero also removes them.
    env.apply(
        &alice,
        account_set()
            .u32("TransferRate", 1_200_000_000)
            .u8("TickSize", 4),
        Ter::tesSUCCESS,
    );
    env.apply(
        &alice,
        account_set().u32("TransferRate", 0).u8("TickSize", 0),
        Ter::tesSUCCESS,
    );
    let r = env.root(&alice).unwrap();
    assert!(r.get(s.transfer_rate).is_none());
    assert!(r.get(s.tick_size).is_none());
    // An unknown asf value is ignored without error.
    let flags = env.flags(&alice);
    env.apply(&alice, fset(11), Ter::tesSUCCESS);
    env.apply(&alice, fset(99), Ter::tesSUCCESS);
    env.apply(&alice, fclear(99), Ter::tesSUCCESS);
    assert_eq!(env.flags(&alice), flags);
}

#[test]
fn disable_master_needs_master_signature_and_an_alternative_key() {
    let mut env = Env::new();
    let [alice] = env.funded(["alice"]);
    let regular = Account::new("alice-regular");
    // No regular key and no signer list.
    env.apply(
        &alice,
        fset(asf::DISABLE_MASTER),
        Ter::tecNO_ALTERNATIVE_KEY,
    );
    assert_eq!(env.flags(&alice) & lsf::DISABLE_MASTER, 0);
    env.apply(&alice, regular_key(&regular), Ter::tesSUCCESS);
    // Signed by the regular key: the master key is needed.
    assert_eq!(
        env.submit_signed(&alice, &regular.kp, fset(asf::DISABLE_MASTER)),
        Ter::tecNEED_MASTER_KEY
    );
    env.apply(&alice, fset(asf::DISABLE_MASTER), Ter::tesSUCCESS);
    assert_ne!(env.flags(&alice) & lsf::DISABLE_MASTER, 0);
    env.apply(&alice, account_set(), Ter::tefMASTER_DISABLED);
    // With the master disabled, NoFreeze may be set with the regular key.
    assert_eq!(
        env.submit_signed(&alice, &regular.kp, fset(asf::NO_FREEZE)),
        Ter::tesSUCCESS
    );
    // The regular key may re-enable the master key.
    assert_eq!(
        env.submit_signed(&alice, &regular.kp, fclear(asf::DISABLE_MASTER)),
        Ter::tesSUCCESS
    );
    assert_eq!(env.flags(&alice) & lsf::DISABLE_MASTER, 0);
    env.apply(&alice, account_set(), Ter::tesSUCCESS);
}

#[test]
fn no_freeze_is_irreversible_and_pins_global_freeze() {
    let mut env = Env::new();
    let [gw] = env.funded(["gw"]);
    let regular = Account::new("gw-regular");
    env.apply(&gw, regular_key(&regular), Ter::tesSUCCESS);
    // NoFreeze needs the master key while the master key is enabled.
    assert_eq!(
        env.submit_signed(&gw, &regular.kp, fset(asf::NO_FREEZE)),
        Ter::tecNEED_MASTER_KEY
    );
    env.apply(&gw, fset(asf::GLOBAL_FREEZE), Ter::tesSUCCESS);
    env.apply(&gw, fset(asf::NO_FREEZE), Ter::tesSUCCESS);
    env.apply(&gw, fclear(asf::NO_FREEZE), Ter::tesSUCCESS);
    assert_ne!(
        env.flags(&gw) & lsf::NO_FREEZE,
        0,
        "NoFreeze cannot be cleared"
    );
    env.apply(&gw, fclear(asf::GLOBAL_FREEZE), Ter::tesSUCCESS);
    assert_ne!(
        env.flags(&gw) & lsf::GLOBAL_FREEZE,
        0,
        "with NoFreeze a global freeze stays"
    );
}

#[test]
fn account_txn_id_is_not_advanced_by_a_tec() {
    // Transactor::apply writes AccountTxnID before doApply; on a tec, reset() discards
    // that and charges only the fee and the sequence.
    let mut env = Env::new();
    let [alice] = env.funded(["alice"]);
    let s = sf();
    env.apply(&alice, fset(asf::ACCOUNT_TXN_ID), Ter::tesSUCCESS);
    assert_eq!(
        env.root(&alice).unwrap().h256_of(s.account_txn_id),
        Some(Hash256::ZERO)
    );
    env.apply(&alice, account_set(), Ter::tesSUCCESS);
    let ok_id = env.last_id.unwrap();
    assert_eq!(
        env.root(&alice).unwrap().h256_of(s.account_txn_id),
        Some(ok_id)
    );
    // A tec: too little XRP to create an account.
    let (bal, seq) = (env.balance(&alice), env.seq(&alice));
    env.apply(
        &alice,
        pay(&Account::new("nobody"), xrp(1)),
        Ter::tecNO_DST_INSUF_XRP,
    );
    assert_eq!(env.balance(&alice), bal - FEE);
    assert_eq!(env.seq(&alice), seq + 1);
    assert_eq!(
        env.root(&alice).unwrap().h256_of(s.account_txn_id),
        Some(ok_id),
        "a tec leaves AccountTxnID alone"
    );
    // So the next transaction names the last successful one as its prior.
    env.apply(
        &alice,
        account_set().h256("AccountTxnID", ok_id),
        Ter::tesSUCCESS,
    );
    env.apply(&alice, fclear(asf::ACCOUNT_TXN_ID), Ter::tesSUCCESS);
    assert!(env.root(&alice).unwrap().get(s.account_txn_id).is_none());
}

#[test]
fn require_auth_checks_the_owner_directory_not_the_owner_count() {
    let mut env = Env::new();
    let [gw, alice] = env.funded(["gw", "alice"]);
    // alice trusts gw, then removes the line again (limit 0 and, as alice lacks
    // DefaultRipple, NoRipple set: the default state): gw's directory is empty again and
    // RequireAuth is allowed.
    env.apply(&alice, trust(gw.iou("USD", 10)), Ter::tesSUCCESS);
    env.apply(&gw, fset(asf::REQUIRE_AUTH), Ter::tecOWNERS);
    env.apply(&alice, trust(gw.iou("USD", 0)), Ter::tesSUCCESS);
    assert!(
        env.line(&alice, &gw, "USD").is_some(),
        "NoRipple clear without DefaultRipple is not the default state"
    );
    env.apply(
        &alice,
        trust(gw.iou("USD", 0)).flags(tst::SET_NO_RIPPLE),
        Ter::tesSUCCESS,
    );
    assert!(env.line(&alice, &gw, "USD").is_none());
    env.apply(&gw, fset(asf::REQUIRE_AUTH), Ter::tesSUCCESS);
    // The legacy tf form does no check once the flag is set.
    env.apply(&alice, trust(gw.iou("USD", 10)), Ter::tesSUCCESS);
    env.apply(&gw, account_set().flags(0x0004_0000), Ter::tesSUCCESS);
    // Clearing and setting again is checked again.
    env.apply(&gw, account_set().flags(0x0008_0000), Ter::tesSUCCESS);
    env.apply(&gw, account_set().flags(0x0004_0000), Ter::tecOWNERS);
}

// ---------------------------------------------------------------------------------------
// TrustSet (SetTrust.cpp)

#[test]
fn trust_set_preflight_codes_in_rippled_order() {
    let mut env = Env::new();
    let [gw, alice] = env.funded(["gw", "alice"]);
    // Flags first (an unknown bit; the DeepFreeze bits are valid with the amendment).
    env.apply(
        &alice,
        trust(xrp(1)).flags(0x0100_0000),
        Ter::temINVALID_FLAG,
    );
    // (rippled's isLegalNet -> temBAD_AMOUNT for an XRP limit above 1e17 drops cannot be
    // reached: the binary codec already refuses such an amount.)
    env.apply(&alice, trust(xrp(1)), Ter::temBAD_LIMIT);
    let bad = ledgerd::protocol::types::Currency::from_json_str(
        "0000000000000000000000005852500000000000",
    )
    .unwrap();
    env.apply(
        &alice,
        trust(ledgerd::protocol::amount::Amount::iou(
            val("-1"),
            bad,
            gw.id,
        )),
        Ter::temBAD_CURRENCY,
    );
    env.apply(&alice, trust(gw.iou("USD", -1)), Ter::temBAD_LIMIT);
    env.apply(
        &alice,
        trust(ledgerd::protocol::amount::Amount::iou(
            val("1"),
            cur("USD"),
            ledgerd::protocol::types::AccountId::ONE,
        )),
        Ter::temDST_NEEDED,
    );
    // Preclaim: tefNO_AUTH_REQUIRED comes before temDST_IS_SRC and tecNO_DST.
    env.apply(
        &alice,
        trust(alice.iou("USD", 1)).flags(tst::SET_AUTH),
        Ter::tefNO_AUTH_REQUIRED,
    );
    env.apply(&alice, trust(alice.iou("USD", 1)), Ter::temDST_IS_SRC);
    let nobody = Account::new("nobody");
    env.apply(&alice, trust(nobody.iou("USD", 1)), Ter::tecNO_DST);
}

#[test]
fn trust_set_qualities_and_default_state() {
    let mut env = Env::new();
    let [gw, alice] = env.funded(["gw", "alice"]);
    let s = sf();
    let high = alice.id > gw.id;
    let (qin, qout) = if high {
        (s.high_quality_in, s.high_quality_out)
    } else {
        (s.low_quality_in, s.low_quality_out)
    };
    // A zero limit with QualityIn 1.0 on a missing line: QualityIn is not normalized for
    // the redundancy test, so the line is created and keeps QualityIn as given.
    env.apply(
        &alice,
        trust(gw.iou("USD", 0))
            .u32("QualityIn", 1_000_000_000)
            .flags(tst::SET_NO_RIPPLE),
        Ter::tesSUCCESS,
    );
    let line = env.line(&alice, &gw, "USD").expect("created");
    assert_eq!(line.u32_of(qin), Some(1_000_000_000));
    assert_eq!(env.owner_count(&alice), 1);
    // ... but on an existing line QualityIn 1.0 counts as default: with limit 0 the line
    // returns to its default state and is deleted.
    env.apply(
        &alice,
        trust(gw.iou("USD", 0)).u32("QualityIn", 1_000_000_000),
        Ter::tesSUCCESS,
    );
    assert!(env.line(&alice, &gw, "USD").is_none());
    assert_eq!(env.owner_count(&alice), 0);
    // QualityOut 1.0 is normalized to 0 first: on a missing line with limit 0 that is
    // redundant.
    env.apply(
        &alice,
        trust(gw.iou("USD", 0)).u32("QualityOut", 1_000_000_000),
        Ter::tecNO_LINE_REDUNDANT,
    );
    env.apply(
        &alice,
        trust(gw.iou("USD", 5))
            .u32("QualityOut", 1_000_000_000)
            .u32("QualityIn", 900_000_000),
        Ter::tesSUCCESS,
    );
    let line = env.line(&alice, &gw, "USD").expect("created");
    assert!(line.get(qout).is_none());
    assert_eq!(line.u32_of(qin), Some(900_000_000));
    // Absent keeps, zero clears.
    env.apply(&alice, trust(gw.iou("USD", 6)), Ter::tesSUCCESS);
    assert_eq!(
        env.line(&alice, &gw, "USD").unwrap().u32_of(qin),
        Some(900_000_000)
    );
    env.apply(
        &alice,
        trust(gw.iou("USD", 6)).u32("QualityIn", 0),
        Ter::tesSUCCESS,
    );
    assert!(env.line(&alice, &gw, "USD").unwrap().get(qin).is_none());
}

#[test]
fn trust_set_freeze_and_no_ripple_flags() {
    let mut env = Env::new();
    let [gw, alice] = env.funded(["gw", "alice"]);
    env.apply(&alice, trust(gw.iou("USD", 100)), Ter::tesSUCCESS);
    let gw_high = gw.id > alice.id;
    let pick = |low: u32, high: u32| if gw_high { high } else { low };
    // Freezing and unfreezing at once is refused (DeepFreeze's preclaim); setting and
    // clearing NoRipple at once changes nothing.
    let before = env.line(&alice, &gw, "USD").unwrap().flags();
    env.apply(
        &gw,
        trust(alice.iou("USD", 0)).flags(tst::SET_FREEZE | tst::CLEAR_FREEZE),
        Ter::tecNO_PERMISSION,
    );
    env.apply(
        &gw,
        trust(alice.iou("USD", 0)).flags(tst::SET_NO_RIPPLE | tst::CLEAR_NO_RIPPLE),
        Ter::tesSUCCESS,
    );
    let after = env.line(&alice, &gw, "USD").unwrap().flags();
    assert_eq!(
        after & !pick(lsf::LOW_RESERVE, lsf::HIGH_RESERVE),
        before & !pick(lsf::LOW_RESERVE, lsf::HIGH_RESERVE)
    );
    // The issuer freezes, which costs it a reserve on the line.
    env.apply(
        &gw,
        trust(alice.iou("USD", 0)).flags(tst::SET_FREEZE),
        Ter::tesSUCCESS,
    );
    let f = env.line(&alice, &gw, "USD").unwrap().flags();
    assert_ne!(f & pick(lsf::LOW_FREEZE, lsf::HIGH_FREEZE), 0);
    assert_ne!(f & pick(lsf::LOW_RESERVE, lsf::HIGH_RESERVE), 0);
    assert_eq!(env.owner_count(&gw), 1);
    env.apply(
        &gw,
        trust(alice.iou("USD", 0)).flags(tst::CLEAR_FREEZE),
        Ter::tesSUCCESS,
    );
    assert_eq!(env.owner_count(&gw), 0);
    // After NoFreeze, freezing is refused (DeepFreeze's preclaim).
    env.apply(&gw, fset(asf::NO_FREEZE), Ter::tesSUCCESS);
    env.apply(
        &gw,
        trust(alice.iou("USD", 0)).flags(tst::SET_FREEZE),
        Ter::tecNO_PERMISSION,
    );
    let f = env.line(&alice, &gw, "USD").unwrap().flags();
    assert_eq!(f & pick(lsf::LOW_FREEZE, lsf::HIGH_FREEZE), 0);
}

#[test]
fn trust_set_reserve_rules() {
    let mut env = Env::new();
    let [gw] = env.funded(["gw"]);
    // Exactly the base reserve plus fees: the first two lines are free, the third is
    // checked against the balance before the fee.
    let poor = Account::new("poor");
    env.fund(&poor, drops(10_000_000 + 3 * FEE));
    env.apply(&poor, trust(gw.iou("AAA", 1)), Ter::tesSUCCESS);
    env.apply(&poor, trust(gw.iou("BBB", 1)), Ter::tesSUCCESS);
    env.apply(
        &poor,
        trust(gw.iou("CCC", 1)),
        Ter::tecNO_LINE_INSUF_RESERVE,
    );
    assert!(env.line(&poor, &gw, "CCC").is_none());
    assert_eq!(env.owner_count(&poor), 2);
    // Dropping a line back to default frees its reserve and deletes it.
    env.apply(
        &poor,
        trust(gw.iou("AAA", 0)).flags(tst::SET_NO_RIPPLE),
        Ter::tesSUCCESS,
    );
    assert!(env.line(&poor, &gw, "AAA").is_none());
    assert_eq!(env.owner_count(&poor), 1);
}

#[test]
fn authorization_is_lost_only_with_the_line() {
    let mut env = Env::new();
    let [gw, alice] = env.funded(["gw", "alice"]);
    env.gateway(&gw);
    env.apply(&alice, trust(gw.iou("USD", 100)), Ter::tesSUCCESS);
    env.apply(&gw, authorize(&alice, "USD"), Ter::tesSUCCESS);
    assert_eq!(env.auth_flags(&alice, &gw, "USD"), (false, true));
    // No TrustSet flag clears it; setting it again is a no-op.
    env.apply(&gw, authorize(&alice, "USD"), Ter::tesSUCCESS);
    assert_eq!(env.auth_flags(&alice, &gw, "USD"), (false, true));
    // Clearing RequireAuth keeps the bit.
    env.apply(&gw, fclear(asf::REQUIRE_AUTH), Ter::tesSUCCESS);
    assert_eq!(env.auth_flags(&alice, &gw, "USD"), (false, true));
    // The holder's limit back to 0 with NoRipple in its default state: the line is
    // default (Auth bits do not count) and goes away, and with it the authorization.
    env.apply(
        &alice,
        trust(gw.iou("USD", 0)).flags(tst::SET_NO_RIPPLE),
        Ter::tesSUCCESS,
    );
    assert!(env.line(&alice, &gw, "USD").is_none());
    assert_eq!(env.owner_count(&alice), 0);
    assert_eq!(env.owner_count(&gw), 0);
}

// ---------------------------------------------------------------------------------------
// RequireAuth in payments (DirectStep.cpp check, Payment.cpp ter -> tecPATH_DRY)

#[test]
fn unauthorized_line_with_a_balance_may_still_redeem() {
    let mut env = Env::new();
    let [gw, alice] = env.funded(["gw", "alice"]);
    env.apply(&gw, fset(asf::REQUIRE_AUTH), Ter::tesSUCCESS);
    // gw trusts alice's USD (the line is in gw's directory, but RequireAuth was set before).
    env.apply(&gw, trust(alice.iou("USD", 100)), Ter::tesSUCCESS);
    env.apply(&alice, pay(&gw, alice.iou("USD", 10)), Ter::tesSUCCESS);
    assert_eq!(env.iou_balance(&gw, &alice, "USD"), val("10"));
    // gw never authorized alice, but the line's balance is not zero: the RequireAuth
    // check of the gw -> alice step does not apply (zero-balance condition).
    env.apply(&gw, pay(&alice, alice.iou("USD", 4)), Ter::tesSUCCESS);
    assert_eq!(env.iou_balance(&gw, &alice, "USD"), val("6"));
    env.apply(&gw, pay(&alice, gw.iou("USD", 6)), Ter::tesSUCCESS);
    assert_eq!(env.iou_balance(&gw, &alice, "USD"), IouValue::ZERO);
    // Now the balance is zero and the line unauthorized: terNO_AUTH -> tecPATH_DRY.
    env.apply(&gw, pay(&alice, gw.iou("USD", 1)), Ter::tecPATH_DRY);
}

#[test]
fn require_auth_payment_outcomes() {
    let mut env = Env::new();
    let [gw, alice, bob] = env.funded(["gw", "alice", "bob"]);
    env.gateway(&gw);
    // No line at all: terNO_LINE -> tecPATH_DRY, even with the partial flag.
    env.apply(&gw, pay(&alice, gw.iou("USD", 1)), Ter::tecPATH_DRY);
    env.apply(
        &gw,
        pay(&alice, gw.iou("USD", 1)).flags(0x0002_0000),
        Ter::tecPATH_DRY,
    );
    env.apply(&alice, trust(gw.iou("USD", 100)), Ter::tesSUCCESS);
    env.apply(&bob, trust(gw.iou("USD", 100)), Ter::tesSUCCESS);
    // Unauthorized, zero balance.
    env.apply(&gw, pay(&alice, gw.iou("USD", 1)), Ter::tecPATH_DRY);
    env.apply(&gw, authorize(&alice, "USD"), Ter::tesSUCCESS);
    env.apply(&gw, pay(&alice, gw.iou("USD", 50)), Ter::tesSUCCESS);
    // Authorized holder to unauthorized holder.
    env.apply(&alice, pay(&bob, gw.iou("USD", 1)), Ter::tecPATH_DRY);
    // Over the remaining limit without the partial flag.
    env.apply(&gw, pay(&alice, gw.iou("USD", 51)), Ter::tecPATH_PARTIAL);
    // A currency payment to an account that does not exist.
    env.apply(
        &gw,
        pay(&Account::new("nobody"), gw.iou("USD", 1)),
        Ter::tecNO_DST,
    );
    // The unauthorized holder cannot redeem either: it holds nothing.
    env.apply(&bob, pay(&gw, gw.iou("USD", 1)), Ter::tecPATH_DRY);
}

// ---------------------------------------------------------------------------------------
// Payment channels (PayChan.cpp)

#[test]
fn channel_create_reserve_and_permissions() {
    let mut env = Env::new();
    let [alice, bob] = env.funded(["alice", "bob"]);
    let pk = alice.kp.public.as_bytes().to_vec();
    let create = |dst: &Account, amount: i64| channel_create(dst, drops(amount), 100, &pk);
    // The reserve for one more object, from the balance before the fee.
    let poor = Account::new("poor");
    env.fund(&poor, drops(11_000_000));
    let poor_create = channel_create(&bob, drops(1), 100, poor.kp.public.as_bytes());
    env.apply(&poor, poor_create, Ter::tecINSUFFICIENT_RESERVE);
    // Everything but the reserve may go into a channel.
    let reserve = 12_000_000;
    let bal = env.balance(&alice);
    env.apply(&alice, create(&bob, bal - reserve + 1), Ter::tecUNFUNDED);
    // Incoming channels refused.
    env.apply(&bob, fset(asf::DISALLOW_INCOMING_PAYCHAN), Ter::tesSUCCESS);
    env.apply(&alice, create(&bob, 1), Ter::tecNO_PERMISSION);
    env.apply(
        &bob,
        fclear(asf::DISALLOW_INCOMING_PAYCHAN),
        Ter::tesSUCCESS,
    );
    // DisallowXRP is only advisory; DepositAuth is not checked at create time.
    env.apply(&bob, fset(asf::DISALLOW_XRP), Ter::tesSUCCESS);
    env.apply(&bob, fset(asf::DEPOSIT_AUTH), Ter::tesSUCCESS);
    // The check uses the balance before the fee: all of it above the reserve may go.
    let bal = env.balance(&alice);
    env.apply(&alice, create(&bob, bal - reserve), Ter::tesSUCCESS);
    assert_eq!(env.owner_count(&alice), 1);
    assert_eq!(env.balance(&alice), reserve - FEE);
}

#[test]
fn channel_claim_preflight_codes_in_rippled_order() {
    // The codes before fixCleanup3_2_0, whose tec answers rules_cleanup320.rs shows: this
    // story runs under ledgerd's rule book without it.
    let mut env = crate::rules::env_without(&[Feature::FixCleanup3_2_0]);
    let [alice, bob] = env.funded(["alice", "bob"]);
    let chan = env.open_channel(&alice, &bob, drops(10_000_000), 100);
    let sig = sign_claim(&alice.kp, &chan.key, 1_000_000);
    // Balance > Amount is checked before the flags.
    env.apply(
        &bob,
        chan.claim()
            .amount("Balance", drops(2))
            .amount("Amount", drops(1))
            .flags(0x0000_0001),
        Ter::temBAD_AMOUNT,
    );
    env.apply(
        &bob,
        chan.claim().amount("Balance", drops(0)),
        Ter::temBAD_AMOUNT,
    );
    env.apply(
        &bob,
        chan.claim().amount("Amount", alice.iou("USD", 1)),
        Ter::temBAD_AMOUNT,
    );
    env.apply(&bob, chan.claim().flags(0x0004_0000), Ter::temINVALID_FLAG);
    env.apply(
        &bob,
        chan.claim().flags(ptf::CLOSE | ptf::RENEW),
        Ter::temMALFORMED,
    );
    // A signature needs a public key and a balance.
    env.apply(
        &bob,
        chan.claim()
            .amount("Balance", drops(1_000_000))
            .blob("Signature", &sig),
        Ter::temMALFORMED,
    );
    env.apply(
        &bob,
        chan.claim()
            .blob("Signature", &sig)
            .blob("PublicKey", &chan.pk),
        Ter::temMALFORMED,
    );
    // A public key of no known type.
    let mut bad_pk = chan.pk.clone();
    bad_pk[0] = 0x04;
    env.apply(
        &bob,
        chan.claim()
            .amount("Balance", drops(1_000_000))
            .blob("Signature", &sig)
            .blob("PublicKey", &bad_pk),
        Ter::temMALFORMED,
    );
    // A valid signature by another key: preflight passes, doApply says temBAD_SIGNER.
    let mallory = Account::new("mallory");
    let msig = sign_claim(&mallory.kp, &chan.key, 1_000_000);
    let bob_before = env.balance(&bob);
    env.apply(
        &bob,
        chan.claim()
            .amount("Balance", drops(1_000_000))
            .blob("Signature", &msig)
            .blob("PublicKey", mallory.kp.public.as_bytes()),
        Ter::temBAD_SIGNER,
    );
    assert_eq!(
        env.balance(&bob),
        bob_before,
        "a tem from doApply charges nothing"
    );
    // A third party may not claim, even with a valid signature.
    let carol = Account::new("carol");
    env.fund(&carol, xrp(1000));
    env.apply(
        &carol,
        chan.claim()
            .amount("Balance", drops(1_000_000))
            .blob("Signature", &sig)
            .blob("PublicKey", &chan.pk),
        Ter::tecNO_PERMISSION,
    );
    // Signed amount above the balance asked for: fine, pays only the balance.
    let sig5 = sign_claim(&alice.kp, &chan.key, 5_000_000);
    env.apply(
        &bob,
        chan.claim()
            .amount("Balance", drops(2_000_000))
            .amount("Amount", drops(5_000_000))
            .blob("Signature", &sig5)
            .blob("PublicKey", &chan.pk),
        Ter::tesSUCCESS,
    );
    assert_eq!(env.balance(&bob), bob_before + 2_000_000 - FEE);
}

#[test]
fn channel_fund_expiration_rules() {
    // The codes before fixCleanup3_2_0, whose tec answers rules_cleanup320.rs shows: this
    // story runs under ledgerd's rule book without it.
    let mut env = crate::rules::env_without(&[Feature::FixCleanup3_2_0]);
    let [alice, bob] = env.funded(["alice", "bob"]);
    let chan = env.open_channel(&alice, &bob, drops(10_000_000), 1000);
    env.close();
    let now = env.parent_close();
    let (bal, seq) = (env.balance(&alice), env.seq(&alice));
    // Earlier than parent close + SettleDelay: a tem from doApply, nothing charged.
    env.apply(
        &alice,
        chan.fund(drops(1)).u32("Expiration", now + 999),
        Ter::temBAD_EXPIRATION,
    );
    assert_eq!((env.balance(&alice), env.seq(&alice)), (bal, seq));
    env.apply(
        &alice,
        chan.fund(drops(1)).u32("Expiration", now + 1000),
        Ter::tesSUCCESS,
    );
    assert_eq!(
        env.read(&chan.key).unwrap().u32_of(sf().expiration),
        Some(now + 1000)
    );
    // Once an Expiration exists, anything at or after it is allowed ...
    env.apply(
        &alice,
        chan.fund(drops(1)).u32("Expiration", now + 1000),
        Ter::tesSUCCESS,
    );
    // ... but not earlier.
    env.apply(
        &alice,
        chan.fund(drops(1)).u32("Expiration", now + 999),
        Ter::temBAD_EXPIRATION,
    );
    // Only the owner funds.
    env.apply(&bob, chan.fund(drops(1)), Ter::tecNO_PERMISSION);
    // The post-fee balance must keep the reserve.
    let bal = env.balance(&alice);
    env.apply(
        &alice,
        chan.fund(drops(bal - FEE - 12_000_000 + 1)),
        Ter::tecUNFUNDED,
    );
    let bal = env.balance(&alice);
    env.apply(
        &alice,
        chan.fund(drops(bal - FEE - 12_000_000)),
        Ter::tesSUCCESS,
    );
    assert_eq!(env.balance(&alice), 12_000_000);
}

#[test]
fn channel_with_a_past_cancel_after_is_created_then_closed_by_anyone() {
    // A CancelAfter equal to the parent close time is not yet past, so fixPayChanCancelAfter
    // (tecEXPIRED at create for one past; tests/engine/rules.rs) does not refuse it.
    // Closing at the CancelAfter instant is fixCleanup3_2_0's strictness question
    // (rules_cleanup320.rs): this story runs under ledgerd's rule book without it.
    let mut env = crate::rules::env_without(&[Feature::FixCleanup3_2_0]);
    let [alice, bob, carol] = env.funded(["alice", "bob", "carol"]);
    env.close();
    let now = env.parent_close();
    let before = env.balance(&alice);
    let create =
        channel_create(&bob, xrp(10), 100, alice.kp.public.as_bytes()).u32("CancelAfter", now);
    let key = env.open_channel_with(&alice, &bob, create).key;
    assert!(env.read(&key).is_some());
    // Expired: a third party's claim closes it (expiry comes before the permission check).
    env.apply(&carol, channel_claim(&key), Ter::tesSUCCESS);
    assert!(env.read(&key).is_none());
    assert_eq!(env.balance(&alice), before - FEE);
    assert_eq!(env.owner_count(&alice), 0);
    assert!(!env.owned(&bob).contains(&key));
    assert!(!env.owned(&alice).contains(&key));
}

#[test]
fn channel_close_and_renew_rules() {
    let mut env = Env::new();
    let [alice, bob] = env.funded(["alice", "bob"]);
    let chan = env.open_channel(&alice, &bob, drops(5_000_000), 500);
    env.close();
    let now = env.parent_close();
    // The owner's close request sets Expiration = parent close + SettleDelay ...
    env.apply(&alice, chan.claim().flags(ptf::CLOSE), Ter::tesSUCCESS);
    assert_eq!(
        env.read(&chan.key).unwrap().u32_of(sf().expiration),
        Some(now + 500)
    );
    // ... and a later one does not push it back.
    env.close();
    env.apply(&alice, chan.claim().flags(ptf::CLOSE), Ter::tesSUCCESS);
    assert_eq!(
        env.read(&chan.key).unwrap().u32_of(sf().expiration),
        Some(now + 500)
    );
    // Renew (owner only) removes it.
    env.apply(&bob, chan.claim().flags(ptf::RENEW), Ter::tecNO_PERMISSION);
    env.apply(&alice, chan.claim().flags(ptf::RENEW), Ter::tesSUCCESS);
    assert!(env.read(&chan.key).unwrap().get(sf().expiration).is_none());
    // A claim that empties the channel plus tfClose by the owner closes it at once.
    let bob_before = env.balance(&bob);
    let alice_before = env.balance(&alice);
    env.apply(
        &alice,
        chan.claim()
            .amount("Balance", drops(5_000_000))
            .flags(ptf::CLOSE),
        Ter::tesSUCCESS,
    );
    assert!(env.read(&chan.key).is_none());
    assert_eq!(env.balance(&bob), bob_before + 5_000_000);
    assert_eq!(env.balance(&alice), alice_before - FEE);
    assert_eq!(env.owner_count(&alice), 0);
    // Touching a channel that is gone.
    env.apply(&alice, chan.claim(), Ter::tecNO_TARGET);
    env.apply(&alice, chan.fund(drops(1)), Ter::tecNO_ENTRY);
}

#[test]
fn channel_claim_and_deposit_auth() {
    let mut env = Env::new();
    let [alice, bob] = env.funded(["alice", "bob"]);
    let chan = env.open_channel(&alice, &bob, drops(5_000_000), 500);
    env.apply(&bob, fset(asf::DEPOSIT_AUTH), Ter::tesSUCCESS);
    // The owner may not push funds into a DepositAuth destination ...
    env.apply(
        &alice,
        chan.claim().amount("Balance", drops(1_000_000)),
        Ter::tecNO_PERMISSION,
    );
    // ... the destination may pull them.
    let sig = sign_claim(&alice.kp, &chan.key, 1_000_000);
    env.apply(
        &bob,
        chan.claim()
            .amount("Balance", drops(1_000_000))
            .blob("Signature", &sig)
            .blob("PublicKey", &chan.pk),
        Ter::tesSUCCESS,
    );
    // An owner's claim carrying a wrong signature still fails in preflight.
    let mut bad = sign_claim(&alice.kp, &chan.key, 2_000_000);
    let n = bad.len() - 3;
    bad[n] ^= 0x10;
    env.apply(
        &alice,
        chan.claim()
            .amount("Balance", drops(2_000_000))
            .blob("Signature", &bad)
            .blob("PublicKey", &chan.pk),
        Ter::temBAD_SIGNATURE,
    );
}
