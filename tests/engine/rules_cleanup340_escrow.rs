//! fixCleanup3_4_0's escrow reserve recycling (rippled #8142, xrpld 3.4.0's release
//! notes: "Recycles the escrow owner reserve in EscrowCancel and EscrowFinish, so returning
//! IOUs to an owner at the reserve boundary no longer fails with
//! tecNO_LINE_INSUF_RESERVE"), run under ledgerd's rule book with the amendment off and on.
//! The escrow leaves the ledger, and its owner count, before the token is delivered, so the
//! reserve it held pays for the owner's remade line.

use crate::rules::env_with;
use crate::rules_cleanup340_dex::spend_down_to;
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
    spend_down_to(&mut env, &alice, base + inc + inc / 2);
    (env, [alice, gw], seq)
}

/// alice settles her escrow (after `wait` seconds) with `settle`: with the fix her line
/// comes back with her USD 100 on the escrow's reserve; before, `tecNO_LINE_INSUF_RESERVE`
/// and the escrow stays.
fn settles_at_the_boundary(to_self: bool, wait: u32, settle: fn(&Account, u32) -> Tx) {
    for on in [false, true] {
        let (mut env, [alice, gw], seq) = escrowed_all(on, to_self);
        env.close_after(wait);
        let want = if on {
            Ter::tesSUCCESS
        } else {
            Ter::tecNO_LINE_INSUF_RESERVE
        };
        assert_eq!(env.submit(&alice, settle(&alice, seq)), want, "fix {on}");
        let gone = env.read(&keylet::escrow(&alice.id, seq)).is_none();
        let usd = env.iou_balance(&alice, &gw, "USD");
        let held = if on { 100 } else { 0 };
        // One entry either way: the escrow, or the line its reserve now carries.
        let got = (usd, env.owner_count(&alice), gone);
        assert_eq!(got, (IouValue::from_i64(held), 1, on), "fix {on}");
    }
}

#[test]
fn a_cancel_at_the_reserve_boundary_remakes_the_owners_line_with_the_fix() {
    settles_at_the_boundary(false, 200, escrow_cancel);
}

#[test]
fn a_finish_to_oneself_at_the_reserve_boundary_remakes_the_line_with_the_fix() {
    settles_at_the_boundary(true, 5, escrow_finish);
}
