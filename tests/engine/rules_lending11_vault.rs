//! LendingProtocolV1_1's vault side (XLS-65.1 / 65.1.2 / 65.1.4, rippled PRs #7817,
//! #7921 and #6324), each story run with the amendment and without it:
//!
//! - VaultCreate takes a `VaultKind` (0 open-ended, 1 closed-ended) and, for a
//!   closed-ended vault, a `SubscriptionDate` and a `RedemptionDate` at least 180 s and
//!   less than 946'708'560 s apart (`temMALFORMED` otherwise), both strictly after the
//!   parent ledger's close time (`tecEXPIRED`). Every vault created under the amendment
//!   carries `LEVersion` 1 (cash basis); a closed-ended one its kind and dates.
//!   Without the amendment any of the three fields is `temDISABLED`.
//! - A closed-ended vault subscribes until its SubscriptionDate (inclusive), invests
//!   until its RedemptionDate and redeems from it (phases read from the parent close
//!   time): VaultDeposit is `tecEXPIRED` once the subscription is over, VaultWithdraw
//!   `tecTOO_SOON` while it invests. Without the amendment the same vault entry (set
//!   by editing a snapshot) gates nothing.
//! - VaultDelete's `MemoData`: 1 to 256 bytes (`temMALFORMED`), not stored;
//!   `temDISABLED` without the amendment.

use crate::rules::env_with;
use crate::rules_lending11_loan::{close_at, reshape, VaultShape};
use crate::support;

use ledgerd::engine::Ter;
use ledgerd::ledger::keylet;
use ledgerd::ledger::sf::{sf, StExt};
use ledgerd::protocol::features::Feature;
use ledgerd::protocol::st::StValue;
use ledgerd::protocol::types::{Hash256, Issue};
use support::engine::*;

const MIN_GAP: u32 = 180;
const MAX_GAP: u32 = 946_708_560;

fn env(on: bool) -> Env {
    env_with(Feature::LendingProtocolV1_1, on, &[])
}

fn create() -> Tx {
    let mut tx = Tx::new("VaultCreate");
    tx.0.set(sf().asset, StValue::Issue(Issue::XRP));
    tx
}

fn closed(sub: u32, red: u32) -> Tx {
    create()
        .u8("VaultKind", 1)
        .u32("SubscriptionDate", sub)
        .u32("RedemptionDate", red)
}

/// Submits a VaultCreate (with its owner-reserve fee); the vault's key when it applied.
fn try_create(env: &mut Env, owner: &Account, tx: Tx) -> (Ter, Hash256) {
    let seq = env.seq(owner);
    let tx = with_fee(env, tx);
    (env.submit(owner, tx), keylet::vault(&owner.id, seq))
}

fn deposit(vault: Hash256, n: i64) -> Tx {
    Tx::new("VaultDeposit")
        .h256("VaultID", vault)
        .amount("Amount", xrp(n))
}

fn withdraw(vault: Hash256, n: i64) -> Tx {
    Tx::new("VaultWithdraw")
        .h256("VaultID", vault)
        .amount("Amount", xrp(n))
}

#[test]
fn vault_create_checks_a_closed_ended_vaults_kind_and_dates() {
    for on in [true, false] {
        let mut env = env(on);
        let [owner] = env.funded(["owner"]);
        env.close();
        let sub = env.parent_close() + 1_000;
        let gated = |t: Ter| if on { t } else { Ter::temDISABLED };
        let cases = [
            (create().u8("VaultKind", 2), gated(Ter::temMALFORMED)),
            (create().u8("VaultKind", 255), gated(Ter::temMALFORMED)),
            (
                create().u32("SubscriptionDate", sub),
                gated(Ter::temMALFORMED),
            ),
            (
                create().u8("VaultKind", 0).u32("RedemptionDate", sub),
                gated(Ter::temMALFORMED),
            ),
            (
                create().u8("VaultKind", 1).u32("SubscriptionDate", sub),
                gated(Ter::temMALFORMED),
            ),
            (
                create().u8("VaultKind", 1).u32("RedemptionDate", sub),
                gated(Ter::temMALFORMED),
            ),
            (closed(sub, sub + MIN_GAP - 1), gated(Ter::temMALFORMED)),
            (closed(sub, sub), gated(Ter::temMALFORMED)),
            (closed(sub, sub - 1), gated(Ter::temMALFORMED)),
            (closed(sub, sub + MAX_GAP), gated(Ter::temMALFORMED)),
            // Near u32::MAX the gap is still measured in 64 bits.
            (closed(u32::MAX - 100, u32::MAX), gated(Ter::temMALFORMED)),
            (closed(sub, sub + MIN_GAP), gated(Ter::tesSUCCESS)),
            (closed(sub, sub + MAX_GAP - 1), gated(Ter::tesSUCCESS)),
            (create().u8("VaultKind", 0), gated(Ter::tesSUCCESS)),
        ];
        for (i, (tx, want)) in cases.into_iter().enumerate() {
            let (got, _) = try_create(&mut env, &owner, tx);
            assert_eq!(got, want, "case {i}, amendment {on}");
        }
    }
}

#[test]
fn a_closed_ended_vaults_dates_must_be_ahead_of_the_parent_close() {
    for on in [true, false] {
        let mut env = env(on);
        let [owner] = env.funded(["owner"]);
        env.close();
        let now = env.parent_close();
        let gated = |t: Ter| if on { t } else { Ter::temDISABLED };
        let (got, _) = try_create(&mut env, &owner, closed(now, now + MIN_GAP));
        assert_eq!(got, gated(Ter::tecEXPIRED), "at the parent close, {on}");
        let (got, _) = try_create(&mut env, &owner, closed(now - 10, now + MIN_GAP));
        assert_eq!(got, gated(Ter::tecEXPIRED), "before it, {on}");
        let (got, _) = try_create(&mut env, &owner, closed(now + 1, now + 1 + MIN_GAP));
        assert_eq!(got, gated(Ter::tesSUCCESS), "a second after it, {on}");
    }
}

#[test]
fn every_new_vault_is_cash_basis_and_a_closed_one_keeps_its_kind_and_dates() {
    for on in [true, false] {
        let mut env = env(on);
        let [owner] = env.funded(["owner"]);
        env.close();
        let s = sf();
        let (got, open) = try_create(&mut env, &owner, create());
        assert_eq!(got, Ter::tesSUCCESS);
        let v = env.read(&open).expect("the vault");
        assert_eq!(v.u8_of(s.le_version), on.then_some(1), "{on}");
        assert_eq!(v.u8_of(s.vault_kind), None, "open-ended is not stored");
        assert_eq!(v.u32_of(s.subscription_date), None);
        if !on {
            continue;
        }
        let (got, kind0) = try_create(&mut env, &owner, create().u8("VaultKind", 0));
        assert_eq!(got, Ter::tesSUCCESS);
        let v = env.read(&kind0).expect("the vault");
        assert_eq!(
            v.u8_of(s.vault_kind),
            None,
            "an explicit 0 is not stored either"
        );
        assert_eq!(v.u8_of(s.le_version), Some(1));
        let sub = env.parent_close() + 300;
        let (got, key) = try_create(&mut env, &owner, closed(sub, sub + 3_600));
        assert_eq!(got, Ter::tesSUCCESS);
        let v = env.read(&key).expect("the vault");
        assert_eq!(v.u8_of(s.le_version), Some(1));
        assert_eq!(v.u8_of(s.vault_kind), Some(1));
        assert_eq!(v.u32_of(s.subscription_date), Some(sub));
        assert_eq!(v.u32_of(s.redemption_date), Some(sub + 3_600));
    }
}

/// The vault `owner` opens for the phase story: with the amendment a closed-ended
/// VaultCreate; without it an open vault given the same kind and dates by editing a
/// snapshot (so the entry is the same and only the rules differ). Returns the vault
/// and its (SubscriptionDate, RedemptionDate).
fn closed_vault(env: &mut Env, owner: &Account, on: bool) -> (Hash256, u32, u32) {
    env.close();
    if on {
        let sub = env.parent_close() + 100;
        let (got, key) = try_create(env, owner, closed(sub, sub + MIN_GAP));
        assert_eq!(got, Ter::tesSUCCESS);
        return (key, sub, sub + MIN_GAP);
    }
    let (got, key) = try_create(env, owner, create());
    assert_eq!(got, Ter::tesSUCCESS);
    let shape = VaultShape {
        cash: false,
        dates: Some((100, 100 + i64::from(MIN_GAP))),
    };
    reshape(env, key, shape);
    let v = env.read(&key).expect("the vault");
    let s = sf();
    let (sub, red) = (v.u32_of(s.subscription_date), v.u32_of(s.redemption_date));
    (key, sub.expect("sub"), red.expect("red"))
}

#[test]
fn a_closed_ended_vault_takes_deposits_then_invests_then_redeems() {
    for on in [true, false] {
        let mut env = env(on);
        let [owner, alice] = env.funded(["owner", "alice"]);
        let (key, sub, red) = closed_vault(&mut env, &owner, on);
        let gated = |t: Ter| if on { t } else { Ter::tesSUCCESS };
        // Subscription: deposits and withdrawals, up to and at SubscriptionDate.
        env.apply(&alice, deposit(key, 100), Ter::tesSUCCESS);
        env.apply(&alice, withdraw(key, 10), Ter::tesSUCCESS);
        close_at(&mut env, sub);
        env.apply(&alice, deposit(key, 100), Ter::tesSUCCESS);
        // Investment, from a second after SubscriptionDate.
        close_at(&mut env, sub + 1);
        env.apply(&alice, deposit(key, 1), gated(Ter::tecEXPIRED));
        env.apply(&alice, withdraw(key, 1), gated(Ter::tecTOO_SOON));
        close_at(&mut env, red - 1);
        env.apply(&alice, withdraw(key, 1), gated(Ter::tecTOO_SOON));
        // Redemption, from RedemptionDate: withdrawals only.
        close_at(&mut env, red);
        env.apply(&alice, deposit(key, 1), gated(Ter::tecEXPIRED));
        env.apply(&alice, withdraw(key, 5), Ter::tesSUCCESS);
        let v = env.read(&key).expect("the vault");
        let total = ledgerd::engine::vault::number_of(&v, sf().assets_total);
        // 100 - 10 + 100 - 5, and without the gates + 1 - 1 - 1 + 1 more.
        assert_eq!(
            total,
            ledgerd::protocol::number::Number::from_i64(185_000_000)
        );
    }
}

#[test]
fn vault_delete_takes_a_memo_of_one_to_256_bytes() {
    for on in [true, false] {
        let mut env = env(on);
        let [owner] = env.funded(["owner"]);
        let delete = |key: Hash256| Tx::new("VaultDelete").h256("VaultID", key);
        let gated = |t: Ter| if on { t } else { Ter::temDISABLED };
        let (got, key) = try_create(&mut env, &owner, create());
        assert_eq!(got, Ter::tesSUCCESS);
        let cases = [
            (delete(key).blob("MemoData", b""), gated(Ter::temMALFORMED)),
            (
                delete(key).blob("MemoData", &[7; 257]),
                gated(Ter::temMALFORMED),
            ),
            // A zero VaultID is malformed before the memo is looked at.
            (
                delete(Hash256::ZERO).blob("MemoData", b"closing"),
                Ter::temMALFORMED,
            ),
            (
                delete(key).blob("MemoData", &[7; 256]),
                gated(Ter::tesSUCCESS),
            ),
        ];
        for (i, (tx, want)) in cases.into_iter().enumerate() {
            assert_eq!(env.submit(&owner, tx), want, "case {i}, amendment {on}");
        }
        assert_eq!(
            env.read(&key).is_none(),
            on,
            "deleted only with the amendment"
        );
        if on {
            continue;
        }
        env.apply(&owner, delete(key), Ter::tesSUCCESS);
    }
}
