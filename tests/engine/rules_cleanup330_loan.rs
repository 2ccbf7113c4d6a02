//! fixCleanup3_3_0's lending spot, gated both ways: LoanBrokerCoverDeposit and
//! LoanBrokerCoverWithdraw judge freezes by `checkDepositFreeze` / `checkWithdrawFreeze`
//! (rippled `TokenHelpers.cpp`) instead of their own checks.
//!
//! - Deposit: the broker's pseudo-account may not receive under a regular freeze of its
//!   line (`tecFROZEN`); before the fix only a deep freeze stopped it.
//! - Withdraw to a third party: the owner's own line frozen stops it (`tecFROZEN`);
//!   before the fix only the pseudo-account's freeze and the destination's deep freeze
//!   counted. Withdrawing to itself a frozen owner still may, both ways.

use crate::loan::{broker_tx, lender};
use crate::support;

use crate::rules::env_with;
use ledgerd::engine::Ter;
use ledgerd::protocol::amount::Amount;
use ledgerd::protocol::features::Feature;
use ledgerd::protocol::types::{AccountId, Hash256};
use support::engine::*;

/// TrustSet's tfSetFreeze.
const TF_SET_FREEZE: u32 = 0x0010_0000;

/// Without LendingProtocolV1_1, whose LoanBrokerSet refuses these open-ended vaults.
fn env330(on: bool) -> Env {
    env_with(
        Feature::FixCleanup3_3_0,
        on,
        &[Feature::LendingProtocolV1_1],
    )
}

fn cover_tx(kind: &str, broker: Hash256, amount: Amount) -> Tx {
    Tx::new(kind)
        .h256("LoanBrokerID", broker)
        .amount("Amount", amount)
}

/// A USD vault and broker (owner, depositor), with `others` holding USD lines too;
/// returns the broker and its pseudo-account.
fn usd_broker(
    env: &mut Env,
    gw: &Account,
    owner: &Account,
    others: &[&Account],
) -> (Hash256, AccountId) {
    env.apply(gw, fset(8), Ter::tesSUCCESS); // asfDefaultRipple
    for a in std::iter::once(owner).chain(others.iter().copied()) {
        env.apply(a, trust(gw.iou("USD", 10_000)), Ter::tesSUCCESS);
        env.apply(gw, pay(a, gw.iou("USD", 1000)), Ter::tesSUCCESS);
    }
    let (_, broker, pseudo) = lender(
        env,
        (owner, owner),
        gw.iou("USD", 0).issue(),
        gw.iou("USD", 100),
        broker_tx(0, 0, 0),
    );
    (broker, pseudo)
}

/// The issuer freezes `holder`'s USD line.
fn freeze(env: &mut Env, gw: &Account, holder: AccountId) {
    let tx = trust(Amount::iou(val("0"), cur("USD"), holder)).flags(TF_SET_FREEZE);
    env.apply(gw, tx, Ter::tesSUCCESS);
}

#[test]
fn a_deposit_to_a_frozen_broker_pseudo_account_is_refused_only_with_the_fix() {
    for on in [false, true] {
        let mut env = env330(on);
        let [gw, owner] = env.funded(["c330lGw", "c330lOwner"]);
        let (broker, pseudo) = usd_broker(&mut env, &gw, &owner, &[]);
        freeze(&mut env, &gw, pseudo);
        let want = if on { Ter::tecFROZEN } else { Ter::tesSUCCESS };
        let dep = cover_tx("LoanBrokerCoverDeposit", broker, gw.iou("USD", 10));
        env.apply(&owner, dep, want);
    }
}

#[test]
fn a_frozen_owner_withdraws_cover_to_another_only_without_the_fix() {
    for on in [false, true] {
        let mut env = env330(on);
        let [gw, owner, dest] = env.funded(["c330lGw2", "c330lOwner2", "c330lDest2"]);
        let (broker, _) = usd_broker(&mut env, &gw, &owner, &[&dest]);
        let dep = cover_tx("LoanBrokerCoverDeposit", broker, gw.iou("USD", 50));
        env.apply(&owner, dep, Ter::tesSUCCESS);
        freeze(&mut env, &gw, owner.id);
        let to_dest = cover_tx("LoanBrokerCoverWithdraw", broker, gw.iou("USD", 10))
            .account("Destination", &dest.id);
        let want = if on { Ter::tecFROZEN } else { Ter::tesSUCCESS };
        env.apply(&owner, to_dest, want);
        // To itself a frozen owner withdraws, both ways.
        let to_self = cover_tx("LoanBrokerCoverWithdraw", broker, gw.iou("USD", 10));
        env.apply(&owner, to_self, Ter::tesSUCCESS);
    }
}
