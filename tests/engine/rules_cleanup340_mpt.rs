//! fixCleanup3_4_0's MPT spot, run under ledgerd's rule book with the amendment off and
//! on (its other spots outside lending are in rules_cleanup340.rs).
//!
//! - S6 (rippled #8004, `MPTokenAuthorize::preclaim`): a holder's tfMPTUnauthorize on an
//!   individually locked, empty MPToken is `tecNO_PERMISSION` under SingleAssetVault or
//!   the fix; with neither the MPToken is deleted.

use crate::rules::env_with;
use crate::support;

use ledgerd::engine::mptoken_authorize::tf as auth_tf;
use ledgerd::engine::mptoken_issuance_create::tf as ctf;
use ledgerd::engine::mptoken_issuance_set::tf as set_tf;
use ledgerd::engine::Ter;
use ledgerd::ledger::flags::lsf_mpt;
use ledgerd::ledger::keylet;
use ledgerd::ledger::sf::StExt;
use ledgerd::protocol::features::Feature;
use support::engine::*;
use support::mpt::{issue, with_id};

/// S6 under (SingleAssetVault, fixCleanup3_4_0): rippled's `testSetEnabled` matrix. Bob
/// opts in, the issuer locks his (empty) MPToken, bob tries to leave.
fn unauthorize_locked(sav: bool, fix: bool) -> (Env, bool) {
    let off: &[Feature] = if sav {
        &[]
    } else {
        &[Feature::SingleAssetVault]
    };
    let mut env = env_with(Feature::FixCleanup3_4_0, fix, off);
    if sav {
        assert!(env.store.rules().enabled(Feature::SingleAssetVault));
    }
    let [alice, bob] = env.funded(["alice", "bob"]);
    let create = Tx::new("MPTokenIssuanceCreate").flags(ctf::CAN_LOCK);
    let id = issue(&mut env, &alice, create);
    let opt_in = with_id(Tx::new("MPTokenAuthorize"), &id);
    env.apply(&bob, opt_in, Ter::tesSUCCESS);
    let lock = with_id(Tx::new("MPTokenIssuanceSet"), &id)
        .flags(set_tf::LOCK)
        .account("Holder", &bob.id);
    env.apply(&alice, lock, Ter::tesSUCCESS);
    let token = env.read(&keylet::mptoken(&id, &bob.id)).unwrap();
    assert!(token.is_flag(lsf_mpt::LOCKED));
    let leave = with_id(Tx::new("MPTokenAuthorize"), &id).flags(auth_tf::UNAUTHORIZE);
    let expect = if sav || fix {
        Ter::tecNO_PERMISSION
    } else {
        Ter::tesSUCCESS
    };
    env.apply(&bob, leave, expect);
    let kept = env.read(&keylet::mptoken(&id, &bob.id)).is_some();
    (env, kept)
}

#[test]
fn s6_locked_mptoken_stays_with_the_fix() {
    assert!(
        unauthorize_locked(false, true).1,
        "fix: the locked MPToken stays"
    );
    assert!(
        !unauthorize_locked(false, false).1,
        "neither: it is deleted"
    );
    assert!(unauthorize_locked(true, false).1, "SingleAssetVault alone");
    assert!(unauthorize_locked(true, true).1, "both");
}
