//! Fix amendments gated both ways, each story run with the amendment off and on and
//! checked against what xrpld decides each way:
//!
//! - fixReducedOffersV2 (rippled `TOffer::limitIn`, `AMMOffer::limitIn`): an offer cut
//!   to take at most a given input uses `Quality::ceil_in_strict` with the rounding the
//!   step asks for; without it the older `ceil_in`, which always rounds the output up.
//!   After rippled's `Flow_test` `testBookStep` ("do not produce more in the forward
//!   pass"), run there with and without the amendment.

use crate::rules::env_without;
use crate::support;

use ledgerd::engine::account_set::asf;
use ledgerd::engine::offer_create::tf;
use ledgerd::engine::payment::tf as ptf;
use ledgerd::engine::Ter;
use ledgerd::ledger::keylet;
use ledgerd::ledger::sf::{sf, StExt};
use ledgerd::protocol::amount::Amount;
use ledgerd::protocol::features::Feature;
use ledgerd::protocol::st::PathStep;
use ledgerd::protocol::types::Currency;
use support::engine::*;

/// Ledgerd's rule book with `f` on, or with it off.
fn env_with(f: Feature, on: bool) -> Env {
    if on {
        env_without(&[])
    } else {
        env_without(&[f])
    }
}

/// jtx `env.fund(XRP(n), a...)`: 10,000 XRP and DefaultRipple each.
fn fund(env: &mut Env, who: &[&Account]) {
    for a in who {
        env.fund(a, xrp(10_000));
        env.apply(a, fset(asf::DEFAULT_RIPPLE), Ter::tesSUCCESS);
    }
}

/// jtx `~XRP` and `~CUR`: a book step to XRP or to `issuer`'s `code`.
fn book(to: Option<(&Account, &str)>) -> PathStep {
    PathStep {
        account: None,
        currency: Some(to.map_or(Currency::XRP, |(_, code)| cur(code))),
        issuer: to.map(|(issuer, _)| issuer.id),
    }
}

fn offer(pays: Amount, gets: Amount, flags: u32) -> Tx {
    Tx::new("OfferCreate")
        .amount("TakerPays", pays)
        .amount("TakerGets", gets)
        .flags(flags)
}

// ---------------------------------------------------------------------------------------
// fixReducedOffersV2
// ---------------------------------------------------------------------------------------

/// Flow_test testBookStep, "do not produce more in the forward pass": bob offers USD 1
/// for 2 drops and 1 drop for EUR 1000; alice pays carol EUR 1 through XRP with a
/// SendMax of USD 0.4. With the amendment taking less than half of bob's USD offer would
/// leave a blocking remainder: `tecPATH_DRY`. Without it the payment goes through (carol
/// EUR 1, bob USD 0.4 and EUR 999) and leaves bob's USD offer priced worse than its book.
#[test]
fn reduced_offers_v2_forward_pass() {
    for on in [false, true] {
        let mut env = env_with(Feature::FixReducedOffersV2, on);
        let [alice, bob, carol, gw] = ["alice", "bob", "carol", "gw"].map(Account::new);
        fund(&mut env, &[&alice, &bob, &carol, &gw]);
        for a in [&alice, &bob, &carol] {
            env.apply(a, trust(gw.iou("USD", 1000)), Ter::tesSUCCESS);
            env.apply(a, trust(gw.iou("EUR", 1000)), Ter::tesSUCCESS);
        }
        env.apply(&gw, pay(&alice, gw.iou("USD", 1000)), Ter::tesSUCCESS);
        env.apply(&gw, pay(&bob, gw.iou("EUR", 1000)), Ter::tesSUCCESS);
        let bob_usd_offer = keylet::offer(&bob.id, env.seq(&bob));
        let o1 = offer(gw.iou("USD", 1), drops(2), tf::PASSIVE);
        env.apply(&bob, o1, Ter::tesSUCCESS);
        let o2 = offer(drops(1), gw.iou("EUR", 1000), tf::PASSIVE);
        env.apply(&bob, o2, Ter::tesSUCCESS);
        let tx = pay(&carol, gw.iou("EUR", 1))
            .paths(vec![vec![book(None), book(Some((&gw, "EUR")))]])
            .amount("SendMax", gw.iou_s("USD", "0.4"))
            .flags(ptf::NO_RIPPLE_DIRECT | ptf::PARTIAL_PAYMENT);
        let want = if on {
            Ter::tecPATH_DRY
        } else {
            Ter::tesSUCCESS
        };
        env.apply(&alice, tx, want);
        let usd_offer = env.read(&bob_usd_offer).expect("bob's USD offer stays");
        if on {
            assert_eq!(env.iou_balance(&carol, &gw, "EUR"), val("0"));
            assert_eq!(env.iou_balance(&bob, &gw, "USD"), val("0"));
            assert_eq!(usd_offer.amount_of(sf().taker_pays), Some(gw.iou("USD", 1)));
        } else {
            assert_eq!(env.iou_balance(&carol, &gw, "EUR"), val("1"));
            assert_eq!(env.iou_balance(&bob, &gw, "USD"), val("0.4"));
            assert_eq!(env.iou_balance(&bob, &gw, "EUR"), val("999"));
            assert_eq!(
                usd_offer.amount_of(sf().taker_pays),
                Some(gw.iou_s("USD", "0.6"))
            );
            assert_eq!(usd_offer.amount_of(sf().taker_gets), Some(drops(1)));
        }
    }
}
