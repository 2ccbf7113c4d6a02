//! fixCleanup3_4_0's escrow reserve recycling (rippled #8142, xrpld 3.4.0's release
//! notes: "Recycles the escrow owner reserve in EscrowCancel and EscrowFinish, so returning
//! IOUs to an owner at the reserve boundary no longer fails with
//! tecNO_LINE_INSUF_RESERVE"), run under ledgerd's rule book with the amendment off and on.
//! The escrow leaves the ledger, and its owner count, before the token is delivered, so the
//! reserve it held pays for the owner's remade line.

use crate::rules::env_with;
use crate::support;

use ledgerd::engine::account_set::asf;
use ledgerd::engine::trust_set::tf as trust_tf;
use ledgerd::engine::Ter;
use ledgerd::ledger::keylet;
use ledgerd::protocol::amount::IouValue;
use ledgerd::protocol::features::Feature;
use support::engine::*;

/// gw allows locking; alice holds USD 100 and escrows all of it (to bob, or to herself),
/// with FinishAfter and CancelAfter; she drops her empty USD line, leaving the escrow as
/// her only entry, and her XRP at the base reserve plus 1.5 owner reserves: enough for one
/// entry, not for two. Returns the env, `[alice, gw]` and the escrow's sequence.
fn escrowed_all(on: bool, to_self: bool) -> (Env, [Account; 2], u32) {
    let mut env = env_with(Feature::FixCleanup3_4_0, on, &[]);
    let [gw, alice, bob] = env.funded(["c340EsGw", "c340EsAlice", "c340EsBob"]);
    env.apply(&gw, fset(asf::ALLOW_TRUSTLINE_LOCKING), Ter::tesSUCCESS);
    env.apply(&alice, trust(gw.iou("USD", 1_000)), Ter::tesSUCCESS);
    env.apply(&gw, pay(&alice, gw.iou("USD", 100)), Ter::tesSUCCESS);
    let now = env.parent_close();
    let seq = env.seq(&alice);
    let to = if to_self { &alice } else { &bob };
    let create = escrow_create(to, gw.iou("USD", 100))
        .u32("FinishAfter", now + 1)
        .u32("CancelAfter", now + 100);
    env.apply(&alice, create, Ter::tesSUCCESS);
    let drop_line = trust(gw.iou("USD", 0)).flags(trust_tf::SET_NO_RIPPLE);
    env.apply(&alice, drop_line, Ter::tesSUCCESS);
    assert!(env.line(&alice, &gw, "USD").is_none());
    assert_eq!(env.owner_count(&alice), 1, "the escrow");
    let fees = env.store.fees();
    let (base, inc) = (
        fees.reserve_base_drops as i64,
        fees.reserve_inc_drops as i64,
    );
    let fee = fees.base_drops as i64;
    let excess = env.balance(&alice) - fee - (base + inc + inc / 2);
    env.apply(
        &alice,
        pay(&Account::master(), drops(excess)),
        Ter::tesSUCCESS,
    );
    (env, [alice, gw], seq)
}

/// Where alice's USD stands: her USD, her owner count, whether the escrow is gone.
fn outcome(env: &Env, alice: &Account, gw: &Account, seq: u32) -> (IouValue, u32, bool) {
    let gone = env.read(&keylet::escrow(&alice.id, seq)).is_none();
    (
        env.iou_balance(alice, gw, "USD"),
        env.owner_count(alice),
        gone,
    )
}

#[test]
fn a_cancel_at_the_reserve_boundary_remakes_the_owners_line_with_the_fix() {
    for on in [false, true] {
        let (mut env, [alice, gw], seq) = escrowed_all(on, false);
        env.close_after(200);
        let want = if on {
            Ter::tesSUCCESS
        } else {
            Ter::tecNO_LINE_INSUF_RESERVE
        };
        assert_eq!(
            env.submit(&alice, escrow_cancel(&alice, seq)),
            want,
            "fix {on}"
        );
        let got = outcome(&env, &alice, &gw, seq);
        if on {
            // The escrow's reserve now carries the line.
            assert_eq!(got, (IouValue::from_i64(100), 1, true), "fix {on}");
        } else {
            assert_eq!(got, (IouValue::ZERO, 1, false), "fix {on}");
        }
    }
}

#[test]
fn a_finish_to_oneself_at_the_reserve_boundary_remakes_the_line_with_the_fix() {
    for on in [false, true] {
        let (mut env, [alice, gw], seq) = escrowed_all(on, true);
        env.close_after(5);
        let want = if on {
            Ter::tesSUCCESS
        } else {
            Ter::tecNO_LINE_INSUF_RESERVE
        };
        assert_eq!(
            env.submit(&alice, escrow_finish(&alice, seq)),
            want,
            "fix {on}"
        );
        let got = outcome(&env, &alice, &gw, seq);
        if on {
            assert_eq!(got, (IouValue::from_i64(100), 1, true), "fix {on}");
        } else {
            assert_eq!(got, (IouValue::ZERO, 1, false), "fix {on}");
        }
    }
}
