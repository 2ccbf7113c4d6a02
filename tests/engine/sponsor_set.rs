//! Sponsor (XLS-68), the Sponsorship entry and its two transactors: SponsorshipSet
//! (rippled `SponsorshipSet.cpp`, the Delta form) and SponsorshipTransfer
//! (`SponsorshipTransfer.cpp`), with the numbers of rippled's `Sponsor_test.cpp`
//! (`testInvalidSponsorshipSet`, `testSimpleSponsorshipSet`, `testTransferSponsor`) and
//! the sponsorship invariants (`SponsorshipInvariant.cpp`). The amendment stays
//! `Lacking` until the whole feature is in; these stories force it on.

use crate::support;

use ledgerd::engine::sponsor::{entry_flags, set_flags};
use ledgerd::engine::Ter;
use ledgerd::ledger::keylet;
use ledgerd::ledger::sf::{sf, StExt};
use ledgerd::ledgers::LedgerConfig;
use ledgerd::protocol::definitions::Field;
use ledgerd::protocol::features::Feature;
use ledgerd::protocol::st::{StObject, StValue};
use ledgerd::protocol::types::Issue;
use std::sync::Arc;
use support::engine::*;

/// A standalone ledger checking signatures, with Sponsor forced on (or left off).
pub fn sponsor_env(on: bool) -> Env {
    let mut cfg = LedgerConfig::default();
    cfg.apply.signature_check = Some(Arc::new(ledgerd::engine::transactor::verify_signature));
    if on {
        cfg.rule_book.presets.insert(Feature::Sponsor);
    } else {
        cfg.rule_book.presets.remove(Feature::Sponsor);
    }
    let env = Env::with_config(cfg);
    assert_eq!(env.store.rules().enabled(Feature::Sponsor), on);
    env
}

/// A SponsorshipSet naming the sponsee (sent by the sponsor).
pub fn sponsorship_set(sponsee: &Account) -> Tx {
    Tx::new("SponsorshipSet").account("Sponsee", &sponsee.id)
}

/// With `RemainingOwnerCountDelta`.
pub fn count_delta(tx: Tx, delta: i32) -> Tx {
    let mut tx = tx;
    tx.0.set(
        Field::named("RemainingOwnerCountDelta"),
        StValue::Int32(delta),
    );
    tx
}

/// `sponsor`'s Sponsorship of `sponsee`.
pub fn sponsorship(env: &Env, sponsor: &Account, sponsee: &Account) -> Option<Arc<StObject>> {
    env.read(&keylet::sponsorship(&sponsor.id, &sponsee.id))
}

fn fee_amount(env: &Env, sponsor: &Account, sponsee: &Account) -> i64 {
    sponsorship(env, sponsor, sponsee).map_or(0, |e| e.drops_of(sf().fee_amount))
}

fn remaining(env: &Env, sponsor: &Account, sponsee: &Account) -> Option<u32> {
    sponsorship(env, sponsor, sponsee).and_then(|e| e.u32_of(sf().remaining_owner_count))
}

/// The reserve of an account owning `n` objects.
fn reserve(env: &Env, n: i64) -> i64 {
    let f = env.store.fees();
    f.reserve_base_drops as i64 + n * f.reserve_inc_drops as i64
}

const XRP1: i64 = 1_000_000;

// ---------------------------------------------------------------------------------------
// Story 5: SponsorshipSet's preflight and preclaim (testInvalidSponsorshipSet)

#[test]
fn sponsorship_set_needs_the_amendment() {
    let mut env = sponsor_env(false);
    let [sponsor, alice] = env.funded(["sponsor", "alice"]);
    let tx = count_delta(sponsorship_set(&alice), 1);
    assert_eq!(env.submit(&sponsor, tx), Ter::temDISABLED);
    assert!(sponsorship(&env, &sponsor, &alice).is_none());
}

#[test]
fn sponsorship_set_preflight_refuses_malformed_requests() {
    use set_flags::*;
    let mut env = sponsor_env(true);
    let [sponsor, alice] = env.funded(["sponsor", "alice"]);
    let ok = || count_delta(sponsorship_set(&alice), 1);
    let cases: Vec<(Tx, Ter)> = vec![
        (
            ok().flags(SET_REQUIRE_SIGN_FOR_FEE | CLEAR_REQUIRE_SIGN_FOR_FEE),
            Ter::temINVALID_FLAG,
        ),
        (
            ok().flags(SET_REQUIRE_SIGN_FOR_RESERVE | CLEAR_REQUIRE_SIGN_FOR_RESERVE),
            Ter::temINVALID_FLAG,
        ),
        (ok().flags(0x0100_0000), Ter::temINVALID_FLAG),
        // Neither or both counterparties.
        (count_delta(Tx::new("SponsorshipSet"), 1), Ter::temMALFORMED),
        (
            ok().account("CounterpartySponsor", &sponsor.id),
            Ter::temMALFORMED,
        ),
        // Sponsoring oneself.
        (count_delta(sponsorship_set(&sponsor), 1), Ter::temMALFORMED),
        // A delete carries nothing else.
        (
            sponsorship_set(&alice).flags(DELETE_OBJECT | SET_REQUIRE_SIGN_FOR_FEE),
            Ter::temINVALID_FLAG,
        ),
        (
            sponsorship_set(&alice)
                .flags(DELETE_OBJECT)
                .amount("MaxFee", drops(10)),
            Ter::temMALFORMED,
        ),
        (
            count_delta(sponsorship_set(&alice).flags(DELETE_OBJECT), 1),
            Ter::temMALFORMED,
        ),
        // Amounts and counts.
        (
            sponsorship_set(&alice).amount("FeeAmountDelta", drops(0)),
            Ter::temBAD_AMOUNT,
        ),
        (
            sponsorship_set(&alice).amount("FeeAmountDelta", sponsor.iou("USD", 10)),
            Ter::temBAD_AMOUNT,
        ),
        (
            sponsorship_set(&alice).amount("MaxFee", drops(-1)),
            Ter::temBAD_AMOUNT,
        ),
        (count_delta(sponsorship_set(&alice), 0), Ter::temINVALID),
        (sponsorship_set(&alice), Ter::temREDUNDANT),
    ];
    let before = env.balance(&sponsor);
    for (i, (tx, want)) in cases.into_iter().enumerate() {
        assert_eq!(env.submit(&sponsor, tx), want, "case {i}");
    }
    // Only the sponsor creates or updates: the sponsee naming its sponsor may only delete.
    let by_sponsee = count_delta(
        Tx::new("SponsorshipSet").account("CounterpartySponsor", &sponsor.id),
        1,
    );
    assert_eq!(env.submit(&alice, by_sponsee), Ter::temMALFORMED);
    assert_eq!(env.balance(&sponsor), before, "a tem claims no fee");
    assert!(sponsorship(&env, &sponsor, &alice).is_none());
}

#[test]
fn sponsorship_set_preclaim_checks_accounts_entry_and_budget() {
    use set_flags::*;
    let mut env = sponsor_env(true);
    let [sponsor, alice] = env.funded(["sponsor", "alice"]);
    let ghost = Account::new("ghost");
    let fee = env.store.fees().base_drops as i64;
    let b0 = env.balance(&sponsor);
    env.apply(
        &sponsor,
        count_delta(sponsorship_set(&ghost), 1),
        Ter::tecNO_DST,
    );
    env.apply(
        &sponsor,
        sponsorship_set(&alice).flags(DELETE_OBJECT),
        Ter::tecNO_ENTRY,
    );
    // A new entry takes only positive deltas, and must end with a budget.
    env.apply(
        &sponsor,
        sponsorship_set(&alice).amount("FeeAmountDelta", drops(-5)),
        Ter::tecNO_PERMISSION,
    );
    env.apply(
        &sponsor,
        count_delta(sponsorship_set(&alice), -5),
        Ter::tecNO_PERMISSION,
    );
    env.apply(
        &sponsor,
        sponsorship_set(&alice).amount("MaxFee", drops(100)),
        Ter::tecNO_PERMISSION,
    );
    assert_eq!(env.balance(&sponsor), b0 - 5 * fee, "tecs claim the fee");
    assert!(sponsorship(&env, &sponsor, &alice).is_none());

    // RemainingOwnerCount stays within u32: i32::MAX twice fits, 2 more overflow.
    env.apply(
        &sponsor,
        count_delta(sponsorship_set(&alice), i32::MAX),
        Ter::tesSUCCESS,
    );
    env.apply(
        &sponsor,
        count_delta(sponsorship_set(&alice), i32::MAX),
        Ter::tesSUCCESS,
    );
    assert_eq!(remaining(&env, &sponsor, &alice), Some(u32::MAX - 1));
    env.apply(
        &sponsor,
        count_delta(sponsorship_set(&alice), 2),
        Ter::tecLIMIT_EXCEEDED,
    );
    // Taking the whole budget away leaves nothing: refused.
    env.apply(
        &sponsor,
        count_delta(sponsorship_set(&alice), i32::MIN),
        Ter::tesSUCCESS,
    );
    assert_eq!(remaining(&env, &sponsor, &alice), Some(i32::MAX as u32 - 1));
    env.apply(
        &sponsor,
        count_delta(sponsorship_set(&alice), -i32::MAX),
        Ter::tecNO_PERMISSION,
    );
    assert_eq!(remaining(&env, &sponsor, &alice), Some(i32::MAX as u32 - 1));
}

#[test]
fn a_pseudo_account_takes_no_sponsorship() {
    let mut env = sponsor_env(true);
    let [sponsor, owner] = env.funded(["sponsor", "vaultOwner"]);
    let seq = env.seq(&owner);
    let mut create = Tx::new("VaultCreate");
    create.0.set(sf().asset, StValue::Issue(Issue::XRP));
    let create = with_fee(&env, create);
    env.apply(&owner, create, Ter::tesSUCCESS);
    let vault = env.read(&keylet::vault(&owner.id, seq)).expect("a vault");
    let pseudo = vault.account_of(sf().account).expect("its pseudo-account");
    let tx = count_delta(Tx::new("SponsorshipSet").account("Sponsee", &pseudo), 1);
    // rippled's newest SponsorshipSet (the 231 kB test still expects tecNO_PERMISSION).
    env.apply(&sponsor, tx, Ter::tecPSEUDO_ACCOUNT);
    assert!(env
        .read(&keylet::sponsorship(&sponsor.id, &pseudo))
        .is_none());
}

// ---------------------------------------------------------------------------------------
// Story 6: the life cycle with balances (testSimpleSponsorshipSet)

/// `sponsor` sets its sponsorship of `sponsee` to the target values with Fee 1 XRP (the
/// jtx helper sends the deltas from the current values).
fn set_to(
    env: &mut Env,
    sponsor: &Account,
    sponsee: &Account,
    target: (u32, i64, i64),
    flags: u32,
) -> Ter {
    let (count, fee_amount, max_fee) = target;
    let cur_count = remaining(env, sponsor, sponsee).unwrap_or(0);
    let cur_fee = fee_amount_of(env, sponsor, sponsee);
    let mut tx = sponsorship_set(sponsee)
        .amount("Fee", drops(XRP1))
        .amount("MaxFee", drops(max_fee))
        .flags(flags);
    if count != cur_count {
        tx = count_delta(tx, count as i32 - cur_count as i32);
    }
    if fee_amount != cur_fee {
        tx = tx.amount("FeeAmountDelta", drops(fee_amount - cur_fee));
    }
    env.submit(sponsor, tx)
}

fn fee_amount_of(env: &Env, sponsor: &Account, sponsee: &Account) -> i64 {
    fee_amount(env, sponsor, sponsee)
}

#[test]
fn a_sponsorship_is_created_updated_and_deleted_by_either_side() {
    use set_flags::*;
    let mut env = sponsor_env(true);
    let [sponsor, alice] = env.funded(["sponsor", "alice"]);
    let s = sf();
    let key = keylet::sponsorship(&sponsor.id, &alice.id);
    let both = SET_REQUIRE_SIGN_FOR_FEE | SET_REQUIRE_SIGN_FOR_RESERVE;
    let r = set_to(&mut env, &sponsor, &alice, (100, 100 * XRP1, XRP1), both);
    assert_eq!(r, Ter::tesSUCCESS);
    assert_eq!(env.balance(&sponsor), xrp_drops(10_000 - 100 - 1));
    let e = env.read(&key).expect("the Sponsorship");
    assert_eq!(e.account_of(s.owner), Some(sponsor.id));
    assert_eq!(e.account_of(s.sponsee), Some(alice.id));
    assert_eq!(e.drops_of(s.fee_amount), 100 * XRP1);
    assert_eq!(e.drops_of(s.max_fee), XRP1);
    assert_eq!(e.u32_of(s.remaining_owner_count), Some(100));
    assert_eq!(
        e.flags(),
        entry_flags::REQUIRE_SIGN_FOR_FEE | entry_flags::REQUIRE_SIGN_FOR_RESERVE
    );
    assert_eq!(e.h256_of(s.previous_txn_id), env.last_id, "threaded");
    // One owner count, the sponsor's; in both owner directories.
    assert_eq!((env.owner_count(&sponsor), env.owner_count(&alice)), (1, 0));
    assert!(in_dir(&env, &sponsor.id, &key) && in_dir(&env, &alice.id, &key));
    assert_eq!(env.balance(&alice), xrp_drops(10_000));

    // Down to (50, 50 XRP, 0.5 XRP): 50 XRP back to the sponsor.
    let r = set_to(&mut env, &sponsor, &alice, (50, 50 * XRP1, XRP1 / 2), 0);
    assert_eq!(r, Ter::tesSUCCESS);
    assert_eq!(env.balance(&sponsor), xrp_drops(10_000 - 50 - 2));
    assert_eq!(remaining(&env, &sponsor, &alice), Some(50));
    assert_eq!(fee_amount(&env, &sponsor, &alice), 50 * XRP1);
    // Up to (200, 200 XRP, 2 XRP); and the fee signature is no longer required.
    let r = set_to(
        &mut env,
        &sponsor,
        &alice,
        (200, 200 * XRP1, 2 * XRP1),
        CLEAR_REQUIRE_SIGN_FOR_FEE,
    );
    assert_eq!(r, Ter::tesSUCCESS);
    assert_eq!(env.balance(&sponsor), xrp_drops(10_000 - 200 - 3));
    let e = env.read(&key).unwrap();
    assert_eq!(
        (e.drops_of(s.fee_amount), e.drops_of(s.max_fee)),
        (200 * XRP1, 2 * XRP1)
    );
    assert_eq!(e.flags(), entry_flags::REQUIRE_SIGN_FOR_RESERVE);
    // MaxFee 0 removes it.
    let tx = sponsorship_set(&alice).amount("MaxFee", drops(0));
    env.apply(&sponsor, tx, Ter::tesSUCCESS);
    assert!(env.read(&key).unwrap().get(s.max_fee).is_none());

    // The sponsor deletes it: its FeeAmount comes back, so does the owner count.
    let b = env.balance(&sponsor);
    let fee = env.store.fees().base_drops as i64;
    env.apply(
        &sponsor,
        sponsorship_set(&alice).flags(DELETE_OBJECT),
        Ter::tesSUCCESS,
    );
    assert!(env.read(&key).is_none());
    assert_eq!(env.balance(&sponsor), b + 200 * XRP1 - fee);
    assert_eq!((env.owner_count(&sponsor), env.owner_count(&alice)), (0, 0));
    assert!(!in_dir(&env, &sponsor.id, &key) && !in_dir(&env, &alice.id, &key));

    // Recreated, then deleted by the sponsee: the FeeAmount still goes to the sponsor.
    let r = set_to(&mut env, &sponsor, &alice, (1, 7 * XRP1, 0), 0);
    assert_eq!(r, Ter::tesSUCCESS);
    let b = env.balance(&sponsor);
    let a = env.balance(&alice);
    let del = Tx::new("SponsorshipSet")
        .account("CounterpartySponsor", &sponsor.id)
        .flags(DELETE_OBJECT);
    env.apply(&alice, del, Ter::tesSUCCESS);
    assert!(env.read(&key).is_none());
    assert_eq!(env.balance(&sponsor), b + 7 * XRP1);
    assert_eq!(env.balance(&alice), a - fee);
    assert_eq!(env.owner_count(&sponsor), 0);
}

fn xrp_drops(n: i64) -> i64 {
    n * XRP1
}

#[test]
fn the_fee_amount_comes_from_the_balance_above_the_reserve() {
    let mut env = sponsor_env(true);
    let alice = Account::new("alice");
    env.fund(&alice, xrp(1_000));
    // Balance 100 + 1 + reserve(1) XRP: 101 XRP of fees with a 1 XRP fee leaves exactly
    // the reserve of one object, measured before the fee.
    let reserve1 = reserve(&env, 1);
    let create = |n: i64| {
        count_delta(sponsorship_set(&alice), 100)
            .amount("FeeAmountDelta", drops(n))
            .amount("Fee", drops(XRP1))
    };
    for (name, extra, want) in [
        ("sponsor2", 0, Ter::tesSUCCESS),
        ("sponsor3", -1, Ter::tecUNFUNDED),
    ] {
        let sp = Account::new(name);
        env.fund(&sp, drops(101 * XRP1 + reserve1 + extra));
        env.apply(&sp, create(101 * XRP1), want);
        if want == Ter::tesSUCCESS {
            // The fee came out of the reserve.
            assert_eq!(env.balance(&sp), reserve1 - XRP1);
            assert_eq!(fee_amount(&env, &sp, &alice), 101 * XRP1);
        } else {
            assert_eq!(env.balance(&sp), 100 * XRP1 + reserve1 - 1);
            assert!(sponsorship(&env, &sp, &alice).is_none());
        }
    }
    // Balance 1000 XRP: 1001 XRP is more than it has; 999 XRP with a 2 XRP fee leaves
    // less than the reserve.
    let sp = Account::new("sponsor4");
    env.fund(&sp, xrp(1_000));
    env.apply(&sp, create(1_001 * XRP1), Ter::tecUNFUNDED);
    let tx = create(999 * XRP1).amount("Fee", drops(2 * XRP1));
    env.apply(&sp, tx, Ter::tecUNFUNDED);
    assert_eq!(env.balance(&sp), xrp_drops(1_000 - 3));
}

#[test]
fn an_update_moves_the_delta_and_keeps_the_reserve() {
    let mut env = sponsor_env(true);
    let [sponsor, alice] = env.funded(["sponsor", "alice"]);
    let fee = env.store.fees().base_drops as i64;
    let tx = sponsorship_set(&alice).amount("FeeAmountDelta", drops(1_000 * XRP1));
    env.apply(&sponsor, tx, Ter::tesSUCCESS);
    // A refund of 200 XRP (1000 -> 800).
    let b = env.balance(&sponsor);
    let tx = sponsorship_set(&alice).amount("FeeAmountDelta", drops(-200 * XRP1));
    env.apply(&sponsor, tx, Ter::tesSUCCESS);
    assert_eq!(env.balance(&sponsor), b + 200 * XRP1 - fee);
    assert_eq!(fee_amount(&env, &sponsor, &alice), 800 * XRP1);
    // More than the balance after the fee: tecUNFUNDED.
    let b = env.balance(&sponsor);
    let tx = sponsorship_set(&alice).amount("FeeAmountDelta", drops(b - fee + 1));
    env.apply(&sponsor, tx, Ter::tecUNFUNDED);
    // Into the reserve of its one object: tecUNFUNDED; exactly down to it: fine.
    let b = env.balance(&sponsor);
    let room = b - reserve(&env, 1);
    let tx = sponsorship_set(&alice).amount("FeeAmountDelta", drops(room + 1));
    env.apply(&sponsor, tx, Ter::tecUNFUNDED);
    let b = env.balance(&sponsor);
    let room = b - reserve(&env, 1);
    let tx = sponsorship_set(&alice).amount("FeeAmountDelta", drops(room));
    env.apply(&sponsor, tx, Ter::tesSUCCESS);
    assert_eq!(env.balance(&sponsor), reserve(&env, 1) - fee);
    assert_eq!(fee_amount(&env, &sponsor, &alice), 800 * XRP1 + room);
    // A refund larger than what it holds is clamped: the field goes, all comes back.
    let held = fee_amount(&env, &sponsor, &alice);
    let b = env.balance(&sponsor);
    let tx =
        count_delta(sponsorship_set(&alice), 3).amount("FeeAmountDelta", drops(-held - 5 * XRP1));
    env.apply(&sponsor, tx, Ter::tesSUCCESS);
    assert_eq!(env.balance(&sponsor), b + held - fee);
    let e = sponsorship(&env, &sponsor, &alice).unwrap();
    assert!(e.get(sf().fee_amount).is_none());
    assert_eq!(e.u32_of(sf().remaining_owner_count), Some(3));
    // A count taken below zero goes absent; with no FeeAmount left that is no budget.
    let tx = count_delta(sponsorship_set(&alice), -4);
    env.apply(&sponsor, tx, Ter::tecNO_PERMISSION);
}

// ---------------------------------------------------------------------------------------
// Story 13: SponsorshipTransfer (testTransferSponsor)

use ledgerd::engine::sponsor::{transfer_flags, SPF_SPONSOR_FEE, SPF_SPONSOR_RESERVE};
use ledgerd::protocol::types::Hash256;

/// How the sponsor takes part in a transaction.
#[derive(Clone, Copy, PartialEq)]
pub enum Mode {
    /// It signs `SponsorSignature` over the same signing data as the sender.
    CoSigned,
    /// It does not sign: its Sponsorship of the sender pays.
    PreFunded,
}

/// Submits `tx` from `who` with `Sponsor` = `sponsor` and `SponsorFlags` = `flags`,
/// signed by `who`, and by `sponsor` too when co-signed.
pub fn submit_sponsored(
    env: &mut Env,
    who: &Account,
    sponsor: &Account,
    flags: u32,
    mode: Mode,
    tx: Tx,
) -> Ter {
    use ledgerd::protocol::codec;
    let fee = env.store.fees().base_drops as i64;
    let tx = tx
        .account("Sponsor", &sponsor.id)
        .u32("SponsorFlags", flags);
    let mut o = tx.signed(&who.id, env.seq(who), fee, &who.kp);
    if mode == Mode::CoSigned {
        support::sponsor::cosign(&mut o, &support::sponsor::SponsorSig::Single(&sponsor.kp));
    }
    let decoded = codec::decode(&codec::encode(&o)).expect("decodes");
    assert_eq!(decoded, o, "binary round trip");
    let r = env.store.apply(&decoded);
    env.last_meta = r.entry.as_ref().map(|e| e.meta());
    env.last_id = Some(r.id);
    r.ter
}

fn transfer(flags: u32) -> Tx {
    Tx::new("SponsorshipTransfer").flags(flags)
}

fn object_transfer(flags: u32, id: Hash256) -> Tx {
    transfer(flags).h256("ObjectID", id)
}

/// An AccountRoot's counter (0 when absent).
fn count(env: &Env, who: &Account, field: &str) -> u32 {
    env.root(who)
        .and_then(|r| r.u32_of(Field::named(field)))
        .unwrap_or(0)
}

/// Whether the counter field is present at all (they are soeDEFAULT: 0 is absent).
fn has_count(env: &Env, who: &Account, field: &str) -> bool {
    env.root(who)
        .is_some_and(|r| r.get(Field::named(field)).is_some())
}

fn account_sponsor(env: &Env, who: &Account) -> Option<ledgerd::protocol::types::AccountId> {
    env.root(who).and_then(|r| r.account_of(sf().sponsor))
}

/// Funds `who` with exactly `n` drops: the account reserve from the genesis account,
/// then the rest.
fn fund_exactly(env: &mut Env, who: &Account, n: i64) {
    let r = reserve(env, 0);
    env.fund(who, drops(r));
    if n > r {
        let master = Account::master();
        env.apply(&master, pay(who, drops(n - r)), Ter::tesSUCCESS);
    }
    assert_eq!(env.balance(who), n);
}

fn top_up(env: &mut Env, who: &Account, n: i64) {
    let master = Account::master();
    env.apply(&master, pay(who, drops(n)), Ter::tesSUCCESS);
}

const RESERVE: u32 = SPF_SPONSOR_RESERVE;

#[test]
fn sponsorship_transfer_preflight() {
    use transfer_flags::*;
    let mut off = sponsor_env(false);
    let [alice] = off.funded(["alice"]);
    assert_eq!(off.submit(&alice, transfer(END)), Ter::temDISABLED);

    let mut env = sponsor_env(true);
    let [alice, sponsor] = env.funded(["alice", "sponsor"]);
    for flags in [0, CREATE | END, CREATE | REASSIGN, END | 0x0100_0000] {
        assert_eq!(env.submit(&alice, transfer(flags)), Ter::temINVALID_FLAG);
    }
    // Create and Reassign need a reserve sponsor and no Sponsee.
    assert_eq!(env.submit(&alice, transfer(CREATE)), Ter::temMALFORMED);
    let co = Mode::CoSigned;
    let fee_only = submit_sponsored(
        &mut env,
        &alice,
        &sponsor,
        SPF_SPONSOR_FEE,
        co,
        transfer(CREATE),
    );
    assert_eq!(fee_only, Ter::temINVALID_FLAG);
    let with_sponsee = transfer(REASSIGN).account("Sponsee", &sponsor.id);
    let r = submit_sponsored(&mut env, &alice, &sponsor, RESERVE, co, with_sponsee);
    assert_eq!(r, Ter::temMALFORMED);
    // An account's own reserve moves only co-signed.
    let r = submit_sponsored(
        &mut env,
        &alice,
        &sponsor,
        RESERVE,
        Mode::PreFunded,
        transfer(CREATE),
    );
    assert_eq!(r, Ter::temMALFORMED);
    // End names no new sponsor, and no Sponsee that is the sender.
    let r = submit_sponsored(&mut env, &alice, &sponsor, RESERVE, co, transfer(END));
    assert_eq!(r, Ter::temMALFORMED);
    let me = transfer(END).account("Sponsee", &alice.id);
    assert_eq!(env.submit(&alice, me), Ter::temMALFORMED);
    assert_eq!(env.balance(&alice), xrp_drops(10_000), "no fee claimed");
}

#[test]
fn an_accounts_reserve_is_taken_over_reassigned_and_given_back() {
    use transfer_flags::*;
    let mut env = sponsor_env(true);
    let [alice, carol] = env.funded(["alice", "carol"]);
    let (sponsor1, sponsor2) = (Account::new("sponsor1"), Account::new("sponsor2"));
    let two_r = 2 * reserve(&env, 0);
    let co = Mode::CoSigned;
    // The sponsor must hold two account reserves: its own and alice's.
    fund_exactly(&mut env, &sponsor1, two_r - 1);
    let r = submit_sponsored(&mut env, &alice, &sponsor1, RESERVE, co, transfer(CREATE));
    assert_eq!(r, Ter::tecINSUFFICIENT_RESERVE);
    assert_eq!(account_sponsor(&env, &alice), None);
    top_up(&mut env, &sponsor1, 1);
    let r = submit_sponsored(&mut env, &alice, &sponsor1, RESERVE, co, transfer(CREATE));
    assert_eq!(r, Ter::tesSUCCESS);
    assert_eq!(account_sponsor(&env, &alice), Some(sponsor1.id));
    assert_eq!(count(&env, &sponsor1, "SponsoringAccountCount"), 1);
    assert_eq!(env.balance(&sponsor1), two_r, "alice paid the fee");
    // A second Create: already sponsored.
    let r = submit_sponsored(&mut env, &alice, &sponsor1, RESERVE, co, transfer(CREATE));
    assert_eq!(r, Ter::tecNO_PERMISSION);

    fund_exactly(&mut env, &sponsor2, two_r - 1);
    let r = submit_sponsored(&mut env, &alice, &sponsor2, RESERVE, co, transfer(REASSIGN));
    assert_eq!(r, Ter::tecINSUFFICIENT_RESERVE);
    top_up(&mut env, &sponsor2, 1);
    let r = submit_sponsored(&mut env, &alice, &sponsor2, RESERVE, co, transfer(REASSIGN));
    assert_eq!(r, Ter::tesSUCCESS);
    assert_eq!(account_sponsor(&env, &alice), Some(sponsor2.id));
    assert!(!has_count(&env, &sponsor1, "SponsoringAccountCount"));
    assert_eq!(count(&env, &sponsor2, "SponsoringAccountCount"), 1);

    // Neither its sponsor nor the sponsee: refused. The sponsor ends it through Sponsee.
    let third = transfer(END).account("Sponsee", &alice.id);
    env.apply(&carol, third, Ter::tecNO_PERMISSION);
    let by_sponsor = transfer(END).account("Sponsee", &alice.id);
    env.apply(&sponsor2, by_sponsor, Ter::tesSUCCESS);
    assert_eq!(account_sponsor(&env, &alice), None);
    assert!(!has_count(&env, &sponsor2, "SponsoringAccountCount"));
    // Nothing left to end or reassign.
    env.apply(&alice, transfer(END), Ter::tecNO_PERMISSION);
    let r = submit_sponsored(&mut env, &alice, &sponsor2, RESERVE, co, transfer(REASSIGN));
    assert_eq!(r, Ter::tecNO_PERMISSION);
}

#[test]
fn a_sponsee_ending_its_sponsorship_needs_its_own_reserve() {
    use transfer_flags::*;
    let mut env = sponsor_env(true);
    let [sponsor] = env.funded(["sponsor"]);
    let dave = Account::new("dave");
    let r0 = reserve(&env, 0);
    let fee = env.store.fees().base_drops as i64;
    fund_exactly(&mut env, &dave, r0 + fee - 1);
    let co = Mode::CoSigned;
    let r = submit_sponsored(&mut env, &dave, &sponsor, RESERVE, co, transfer(CREATE));
    assert_eq!(r, Ter::tesSUCCESS);
    // R - 1 drop before the fee: it cannot take its reserve back.
    assert_eq!(env.balance(&dave), r0 - 1);
    env.apply(&dave, transfer(END), Ter::tecINSUFFICIENT_RESERVE);
    assert_eq!(account_sponsor(&env, &dave), Some(sponsor.id));
    top_up(&mut env, &dave, fee + 1);
    assert_eq!(env.balance(&dave), r0);
    env.apply(&dave, transfer(END), Ter::tesSUCCESS);
    assert_eq!(account_sponsor(&env, &dave), None);
    assert_eq!(env.balance(&dave), r0 - fee);
    assert!(!has_count(&env, &sponsor, "SponsoringAccountCount"));
}

/// alice's Check to bob, and its key.
fn alice_check(env: &mut Env, alice: &Account, bob: &Account) -> Hash256 {
    let seq = env.seq(alice);
    env.apply(alice, check_create(bob, xrp(10)), Ter::tesSUCCESS);
    keylet::check(&alice.id, seq)
}

fn check_sponsor(env: &Env, key: &Hash256) -> Option<ledgerd::protocol::types::AccountId> {
    env.read(key).and_then(|c| c.account_of(sf().sponsor))
}

#[test]
fn an_objects_reserve_is_taken_over_reassigned_and_given_back() {
    use transfer_flags::*;
    let mut env = sponsor_env(true);
    let [alice, bob, carol, sponsor2] = env.funded(["alice", "bob", "carol", "sponsor2"]);
    let check = alice_check(&mut env, &alice, &bob);
    let sponsor1 = Account::new("sponsor1");
    let co = Mode::CoSigned;
    // One more object's reserve on top of its own: R + I.
    let r1 = reserve(&env, 1);
    fund_exactly(&mut env, &sponsor1, r1 - 1);
    let create = || object_transfer(CREATE, check);
    let r = submit_sponsored(&mut env, &alice, &sponsor1, RESERVE, co, create());
    assert_eq!(r, Ter::tecINSUFFICIENT_RESERVE);
    top_up(&mut env, &sponsor1, 1);
    let r = submit_sponsored(&mut env, &alice, &sponsor1, RESERVE, co, create());
    assert_eq!(r, Ter::tesSUCCESS);
    assert_eq!(check_sponsor(&env, &check), Some(sponsor1.id));
    assert_eq!(env.owner_count(&alice), 1, "alice still owns it");
    assert_eq!(count(&env, &alice, "SponsoredOwnerCount"), 1);
    assert_eq!(count(&env, &sponsor1, "SponsoringOwnerCount"), 1);
    assert_eq!(env.owner_count(&sponsor1), 0);
    let r = submit_sponsored(&mut env, &alice, &sponsor2, RESERVE, co, create());
    assert_eq!(r, Ter::tecNO_PERMISSION, "already sponsored");

    let reassign = object_transfer(REASSIGN, check);
    let r = submit_sponsored(&mut env, &alice, &sponsor2, RESERVE, co, reassign);
    assert_eq!(r, Ter::tesSUCCESS);
    assert_eq!(check_sponsor(&env, &check), Some(sponsor2.id));
    assert!(!has_count(&env, &sponsor1, "SponsoringOwnerCount"));
    assert_eq!(count(&env, &sponsor2, "SponsoringOwnerCount"), 1);
    assert_eq!(count(&env, &alice, "SponsoredOwnerCount"), 1);

    let end = || object_transfer(END, check).account("Sponsee", &alice.id);
    env.apply(&carol, end(), Ter::tecNO_PERMISSION);
    env.apply(&sponsor2, end(), Ter::tesSUCCESS);
    assert_eq!(check_sponsor(&env, &check), None);
    assert!(!has_count(&env, &alice, "SponsoredOwnerCount"));
    assert!(!has_count(&env, &sponsor2, "SponsoringOwnerCount"));
    assert_eq!(env.owner_count(&alice), 1);
    env.apply(&alice, object_transfer(END, check), Ter::tecNO_PERMISSION);
    let reassign = object_transfer(REASSIGN, check);
    let r = submit_sponsored(&mut env, &alice, &sponsor2, RESERVE, co, reassign);
    assert_eq!(r, Ter::tecNO_PERMISSION, "not sponsored");
}

#[test]
fn only_the_owners_supported_objects_can_be_transferred() {
    use transfer_flags::*;
    let mut env = sponsor_env(true);
    let [alice, bob, sponsor] = env.funded(["alice", "bob", "sponsor"]);
    let check = alice_check(&mut env, &alice, &bob);
    let ticket_seq = env.seq(&alice) + 1;
    env.apply(&alice, ticket_create(1), Ter::tesSUCCESS);
    let ticket = keylet::ticket(&alice.id, ticket_seq);
    assert!(env.read(&ticket).is_some());
    let co = Mode::CoSigned;
    let attempt = |env: &mut Env, who: &Account, id: Hash256| {
        submit_sponsored(env, who, &sponsor, RESERVE, co, object_transfer(CREATE, id))
    };
    assert_eq!(
        attempt(&mut env, &alice, Hash256([7; 32])),
        Ter::tecNO_ENTRY
    );
    assert_eq!(attempt(&mut env, &bob, check), Ter::tecNO_PERMISSION);
    for id in [
        keylet::account(&alice.id),
        keylet::skip(),
        keylet::fees(),
        keylet::owner_dir(&alice.id),
        ticket,
    ] {
        assert!(env.read(&id).is_some());
        assert_eq!(attempt(&mut env, &alice, id), Ter::tecNO_PERMISSION);
    }
    assert_eq!(attempt(&mut env, &alice, check), Ter::tesSUCCESS);
}

#[test]
fn a_pre_funded_object_transfer_spends_the_remaining_owner_count() {
    use transfer_flags::*;
    let mut env = sponsor_env(true);
    let [alice, bob, sponsor, sponsor2] = env.funded(["alice", "bob", "sponsor", "sponsor2"]);
    let check = alice_check(&mut env, &alice, &bob);
    let pre = Mode::PreFunded;
    let create = || object_transfer(CREATE, check);
    // No Sponsorship: no permission.
    let r = submit_sponsored(&mut env, &alice, &sponsor, RESERVE, pre, create());
    assert_eq!(r, Ter::terNO_PERMISSION);
    // A fee-only Sponsorship has no owner count to give.
    let fees_only = sponsorship_set(&alice).amount("FeeAmountDelta", xrp(10));
    env.apply(&sponsor, fees_only, Ter::tesSUCCESS);
    let r = submit_sponsored(&mut env, &alice, &sponsor, RESERVE, pre, create());
    assert_eq!(r, Ter::tecINSUFFICIENT_RESERVE);
    // Co-signing does not get around the budget of an existing Sponsorship.
    let r = submit_sponsored(
        &mut env,
        &alice,
        &sponsor,
        RESERVE,
        Mode::CoSigned,
        create(),
    );
    assert_eq!(r, Ter::tecINSUFFICIENT_RESERVE);
    env.apply(
        &sponsor,
        count_delta(sponsorship_set(&alice), 100),
        Ter::tesSUCCESS,
    );
    let r = submit_sponsored(&mut env, &alice, &sponsor, RESERVE, pre, create());
    assert_eq!(r, Ter::tesSUCCESS);
    assert_eq!(remaining(&env, &sponsor, &alice), Some(99));
    assert_eq!(count(&env, &sponsor, "SponsoringOwnerCount"), 1);
    assert_eq!(
        fee_amount(&env, &sponsor, &alice),
        10 * XRP1,
        "alice paid the fee"
    );
    // Reassigned to a co-signing sponsor, then ended: the budget is not given back.
    let reassign = object_transfer(REASSIGN, check);
    let r = submit_sponsored(
        &mut env,
        &alice,
        &sponsor2,
        RESERVE,
        Mode::CoSigned,
        reassign,
    );
    assert_eq!(r, Ter::tesSUCCESS);
    env.apply(&alice, object_transfer(END, check), Ter::tesSUCCESS);
    assert_eq!(remaining(&env, &sponsor, &alice), Some(99));
    assert!(!has_count(&env, &sponsor, "SponsoringOwnerCount"));
    assert!(!has_count(&env, &alice, "SponsoredOwnerCount"));
}

#[test]
fn a_trust_line_is_sponsored_on_its_owners_side() {
    use transfer_flags::*;
    let mut env = sponsor_env(true);
    let [gw, alice, sponsor] = env.funded(["gateway", "alice", "sponsor"]);
    env.apply(&alice, trust(gw.iou("USD", 100)), Ter::tesSUCCESS);
    let key = keylet::line(&alice.id, &gw.id, &cur("USD"));
    let co = Mode::CoSigned;
    // The gateway holds no reserve for the line: not its object.
    let r = submit_sponsored(
        &mut env,
        &gw,
        &sponsor,
        RESERVE,
        co,
        object_transfer(CREATE, key),
    );
    assert_eq!(r, Ter::tecNO_PERMISSION);
    let r = submit_sponsored(
        &mut env,
        &alice,
        &sponsor,
        RESERVE,
        co,
        object_transfer(CREATE, key),
    );
    assert_eq!(r, Ter::tesSUCCESS);
    let line = env.read(&key).unwrap();
    let (mine, theirs) = if alice.id < gw.id {
        (sf().low_sponsor, sf().high_sponsor)
    } else {
        (sf().high_sponsor, sf().low_sponsor)
    };
    assert_eq!(line.account_of(mine), Some(sponsor.id));
    assert!(line.get(theirs).is_none() && line.get(sf().sponsor).is_none());
    assert_eq!(count(&env, &alice, "SponsoredOwnerCount"), 1);
    assert_eq!(count(&env, &sponsor, "SponsoringOwnerCount"), 1);
    env.apply(&alice, object_transfer(END, key), Ter::tesSUCCESS);
    assert!(env.read(&key).unwrap().get(mine).is_none());
}

// ---------------------------------------------------------------------------------------
// Delegation: SponsorshipSet is delegable (xrpl-py test_delegate_sponsorship_set_accepted).

#[test]
fn a_delegate_can_set_a_sponsorship_for_its_account() {
    use ledgerd::protocol::permission::value_of_name;
    let mut env = sponsor_env(true);
    let [alice, bob, carol] = env.funded(["alice", "bob", "carol"]);
    let value = value_of_name("SponsorshipSet").expect("a permission");
    assert_eq!(value, 92, "the type's code plus one");
    let mut p = StObject::new();
    p.set(sf().permission_value, StValue::UInt32(value));
    let mut grant = Tx::new("DelegateSet").account("Authorize", &bob.id);
    grant.0.set(
        sf().permissions,
        StValue::Array(vec![(Field::named("Permission"), p)]),
    );
    env.apply(&alice, grant, Ter::tesSUCCESS);
    let (a, b) = (env.balance(&alice), env.balance(&bob));
    let fee = env.store.fees().base_drops as i64;
    let tx = sponsorship_set(&carol)
        .amount("FeeAmountDelta", xrp(5))
        .account("Delegate", &bob.id);
    assert_eq!(env.submit_signed(&alice, &bob.kp, tx), Ter::tesSUCCESS);
    assert_eq!(fee_amount(&env, &alice, &carol), 5 * XRP1);
    assert_eq!(
        env.balance(&alice),
        a - 5 * XRP1,
        "the delegate paid the fee"
    );
    assert_eq!(env.balance(&bob), b - fee);
}

// ---------------------------------------------------------------------------------------
// AccountDelete: a Sponsorship in either owner directory is an obligation (its row's
// Deletion::Blocks).

#[test]
fn a_sponsorship_keeps_both_sides_from_deleting_their_accounts() {
    use set_flags::DELETE_OBJECT;
    let mut env = sponsor_env(true);
    let [sponsor, alice, bob] = env.funded(["sponsor", "alice", "bob"]);
    env.apply(
        &sponsor,
        count_delta(sponsorship_set(&alice), 1),
        Ter::tesSUCCESS,
    );
    while env.store.current().seq() < env.seq(&sponsor) + 256 {
        env.close();
    }
    for who in [&alice, &sponsor] {
        let tx = with_fee(&env, account_delete(&bob));
        env.apply(who, tx, Ter::tecHAS_OBLIGATIONS);
    }
    assert!(env.root(&alice).is_some() && env.root(&sponsor).is_some());
    // The sponsee ends it; then it may go.
    let del = Tx::new("SponsorshipSet")
        .account("CounterpartySponsor", &sponsor.id)
        .flags(DELETE_OBJECT);
    env.apply(&alice, del, Ter::tesSUCCESS);
    while env.store.current().seq() < env.seq(&alice) + 256 {
        env.close();
    }
    let tx = with_fee(&env, account_delete(&bob));
    env.apply(&alice, tx, Ter::tesSUCCESS);
    assert!(env.root(&alice).is_none());
}
