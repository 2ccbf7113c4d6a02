//! fixCleanup3_3_0's vault spots, each run with the amendment and without it (the
//! bundle's other spots are in rules_cleanup330.rs).
//!
//! - VaultDeposit preclaim (`checkDepositFreeze`): the asset globally frozen, the
//!   depositor's line frozen (unless it issues the asset) or the vault pseudo-account's
//!   line frozen is `tecFROZEN` (`tecLOCKED` for an MPT). Before the fix the
//!   pseudo-account's frozen line froze the vault's shares: `tecLOCKED`.
//! - VaultWithdraw preclaim (`checkWithdrawFreeze`): paying the issuer is always allowed;
//!   otherwise a global freeze, the pseudo-account's frozen line, the submitter's frozen
//!   line (only when it pays someone else) and the destination's deep freeze refuse it.
//!   Before the fix the destination's regular freeze refused a withdrawal to oneself
//!   (`tecFROZEN`), a global freeze refused paying the issuer, and the pseudo-account's
//!   frozen line came out as the shares' `tecLOCKED`.

use crate::support;

use crate::rules::env_with;
use ledgerd::engine::account_set::asf;
use ledgerd::engine::Ter;
use ledgerd::ledger::keylet;
use ledgerd::ledger::sf::{sf, StExt};
use ledgerd::protocol::amount::Amount;
use ledgerd::protocol::features::Feature;
use ledgerd::protocol::st::StValue;
use ledgerd::protocol::types::{AccountId, Hash256};
use support::engine::*;

/// TrustSet's tfSetFreeze.
const TF_SET_FREEZE: u32 = 0x0010_0000;

/// ledgerd's rule book with fixCleanup3_3_0 forced on, or as it is (off: it is Lacking).
fn env(on: bool) -> Env {
    env_with(Feature::FixCleanup3_3_0, on, &[])
}

struct World {
    env: Env,
    gw: Account,
    alice: Account,
    key: Hash256,
    pseudo: AccountId,
}

/// gw issues USD; alice holds 500 and has deposited 100 into owner's USD vault.
fn world(on: bool) -> World {
    let mut env = env(on);
    let [gw, owner, alice] = env.funded(["gw", "owner", "alice"]);
    env.apply(&gw, fset(asf::DEFAULT_RIPPLE), Ter::tesSUCCESS);
    env.apply(&alice, trust(gw.iou("USD", 1000)), Ter::tesSUCCESS);
    env.apply(&gw, pay(&alice, gw.iou("USD", 500)), Ter::tesSUCCESS);
    let mut create = Tx::new("VaultCreate");
    create
        .0
        .set(sf().asset, StValue::Issue(gw.iou("USD", 0).issue()));
    let seq = env.seq(&owner);
    let create = with_fee(&env, create);
    env.apply(&owner, create, Ter::tesSUCCESS);
    let key = keylet::vault(&owner.id, seq);
    let pseudo = env
        .read(&key)
        .and_then(|v| v.account_of(sf().account))
        .expect("the vault's pseudo-account");
    let mut w = World {
        env,
        gw,
        alice,
        key,
        pseudo,
    };
    let dep = w.deposit(100);
    let alice = w.alice.clone();
    w.env.apply(&alice, dep, Ter::tesSUCCESS);
    w
}

impl World {
    fn deposit(&self, n: i64) -> Tx {
        Tx::new("VaultDeposit")
            .h256("VaultID", self.key)
            .amount("Amount", self.gw.iou("USD", n))
    }

    fn withdraw(&self, n: i64) -> Tx {
        Tx::new("VaultWithdraw")
            .h256("VaultID", self.key)
            .amount("Amount", self.gw.iou("USD", n))
    }

    /// The issuer freezes `holder`'s USD line.
    fn freeze(&mut self, holder: &AccountId) {
        let mut limit = self.gw.iou("USD", 0);
        if let Amount::Iou { issuer, .. } = &mut limit {
            *issuer = *holder;
        }
        let gw = self.gw.clone();
        self.env
            .apply(&gw, trust(limit).flags(TF_SET_FREEZE), Ter::tesSUCCESS);
    }

    fn usd(&self) -> String {
        self.env.iou_balance(&self.alice, &self.gw, "USD").to_text()
    }
}

// The issuer froze the vault pseudo-account's line.
mod pseudo_account_frozen {
    use super::*;

    fn answers(on: bool) -> (Ter, Ter) {
        let mut w = world(on);
        let pseudo = w.pseudo;
        w.freeze(&pseudo);
        let alice = w.alice.clone();
        let dep = w.deposit(10);
        let wd = w.withdraw(10);
        (w.env.submit(&alice, dep), w.env.submit(&alice, wd))
    }

    #[test]
    fn frozen_with_the_fix() {
        assert_eq!(answers(true), (Ter::tecFROZEN, Ter::tecFROZEN));
    }

    #[test]
    fn locked_shares_without_it() {
        assert_eq!(answers(false), (Ter::tecLOCKED, Ter::tecLOCKED));
    }
}

// The issuer froze alice's own line: she may not deposit either way; withdrawing to
// herself is allowed only with the fix.
mod holder_frozen {
    use super::*;

    fn answers(on: bool) -> (Ter, Ter, String) {
        let mut w = world(on);
        let id = w.alice.id;
        w.freeze(&id);
        let alice = w.alice.clone();
        let dep = w.deposit(10);
        let wd = w.withdraw(40);
        let d = w.env.submit(&alice, dep);
        let r = w.env.submit(&alice, wd);
        (d, r, w.usd())
    }

    #[test]
    fn a_withdrawal_to_oneself_passes_with_the_fix() {
        assert_eq!(
            answers(true),
            (Ter::tecFROZEN, Ter::tesSUCCESS, "440".into())
        );
    }

    #[test]
    fn refused_without_it() {
        assert_eq!(
            answers(false),
            (Ter::tecFROZEN, Ter::tecFROZEN, "400".into())
        );
    }
}

// The issuer set GlobalFreeze: nothing goes in; alice may still send her USD back to
// the issuer with the fix.
mod global_freeze {
    use super::*;

    fn answers(on: bool) -> (Ter, Ter, Ter) {
        let mut w = world(on);
        let gw = w.gw.clone();
        w.env.apply(&gw, fset(asf::GLOBAL_FREEZE), Ter::tesSUCCESS);
        let alice = w.alice.clone();
        let dep = w.deposit(10);
        let to_self = w.withdraw(10);
        let to_issuer = w.withdraw(10).account("Destination", &gw.id);
        (
            w.env.submit(&alice, dep),
            w.env.submit(&alice, to_self),
            w.env.submit(&alice, to_issuer),
        )
    }

    #[test]
    fn the_issuer_is_paid_with_the_fix() {
        assert_eq!(
            answers(true),
            (Ter::tecFROZEN, Ter::tecFROZEN, Ter::tesSUCCESS)
        );
    }

    #[test]
    fn not_even_the_issuer_without_it() {
        assert_eq!(
            answers(false),
            (Ter::tecFROZEN, Ter::tecFROZEN, Ter::tecFROZEN)
        );
    }
}

// An MPT vault: a lock answers tecLOCKED either way, whether of the pseudo-account's
// MPToken, of the holder's (even withdrawing to itself: an MPT lock is a deep freeze) or
// of the whole issuance.
mod mpt_locks {
    use super::*;
    use ledgerd::engine::mptoken_issuance_create::tf as ctf;
    use ledgerd::engine::mptoken_issuance_set::tf as set_tf;
    use ledgerd::protocol::mpt::MptId;
    use support::mpt::{pay_mpt, with_id, with_mpt};

    #[derive(Clone, Copy)]
    enum Lock {
        Pseudo,
        Holder,
        Issuance,
    }

    /// (deposit, withdrawal to oneself) once `lock` is set.
    fn answers(on: bool, lock: Lock) -> (Ter, Ter) {
        let mut env = env(on);
        let [issuer, owner, alice] = env.funded(["issuer", "owner", "alice"]);
        let seq = env.seq(&issuer);
        let create = Tx::new("MPTokenIssuanceCreate").flags(ctf::CAN_TRANSFER | ctf::CAN_LOCK);
        env.apply(&issuer, create, Ter::tesSUCCESS);
        let id = MptId::new(seq, &issuer.id);
        env.apply(
            &alice,
            with_id(Tx::new("MPTokenAuthorize"), &id),
            Ter::tesSUCCESS,
        );
        env.apply(&issuer, pay_mpt(&alice.id, &id, 1000), Ter::tesSUCCESS);
        let mut create = Tx::new("VaultCreate");
        create.0.set(sf().asset, StValue::MptIssue(id));
        let seq = env.seq(&owner);
        let create = with_fee(&env, create);
        env.apply(&owner, create, Ter::tesSUCCESS);
        let key = keylet::vault(&owner.id, seq);
        let pseudo = env.read(&key).unwrap().account_of(sf().account).unwrap();
        let dep = || with_mpt(Tx::new("VaultDeposit").h256("VaultID", key), &id, 10);
        env.apply(&alice, dep(), Ter::tesSUCCESS);
        let set = with_id(Tx::new("MPTokenIssuanceSet"), &id).flags(set_tf::LOCK);
        let set = match lock {
            Lock::Pseudo => set.account("Holder", &pseudo),
            Lock::Holder => set.account("Holder", &alice.id),
            Lock::Issuance => set,
        };
        env.apply(&issuer, set, Ter::tesSUCCESS);
        let wd = with_mpt(Tx::new("VaultWithdraw").h256("VaultID", key), &id, 5);
        (env.submit(&alice, dep()), env.submit(&alice, wd))
    }

    #[test]
    fn locked_with_the_fix_and_without_it() {
        for on in [true, false] {
            for lock in [Lock::Pseudo, Lock::Holder, Lock::Issuance] {
                assert_eq!(answers(on, lock), (Ter::tecLOCKED, Ter::tecLOCKED));
            }
        }
    }
}
