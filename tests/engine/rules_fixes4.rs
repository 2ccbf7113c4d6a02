//! AMM fix amendments gated both ways, each story run under the rules without and with
//! the amendment and checked against what xrpld decides each way:
//!
//! - fixAMMv1_2: an AMMWithdraw that would create a trust line for an asset the LP does
//!   not yet hold checks the reserve of that line first (`tecINSUFFICIENT_RESERVE`);
//!   before the fix the line is created whatever the LP's XRP. After rippled's
//!   `AMM_test.cpp` `testFixReserveCheckOnWithdrawal`: gw and alice start with the
//!   reserve of two entries and five fees, gw creates EUR(1,000) / USD(1,000), alice
//!   deposits USD(1), then withdraws all, EUR(0.1) and USD(0.1) both ways round, and
//!   EUR(0.1) or USD(0.1) alone. (The amendment's other rule, the flow's AMM offering
//!   its largest offer when the spot-price offer fails and it beats the book, has no
//!   story here yet.)

use crate::rules::env_without;
use crate::support;

use ledgerd::engine::account_set::asf;
use ledgerd::engine::amm::{self, tf};
use ledgerd::engine::Ter;
use ledgerd::protocol::definitions::Field;
use ledgerd::protocol::features::Feature;
use ledgerd::protocol::st::StValue;
use ledgerd::protocol::types::Issue;
use support::engine::*;

/// Ledgerd's rule book with `f` on, or with it off.
fn env_with(f: Feature, on: bool) -> Env {
    if on {
        env_without(&[])
    } else {
        env_without(&[f])
    }
}

/// An AMM transaction on the pool of `a` and `b`.
fn amm_tx(name: &str, a: Issue, b: Issue) -> Tx {
    let mut tx = Tx::new(name);
    tx.0.set(Field::named("Asset"), StValue::Issue(a));
    tx.0.set(Field::named("Asset2"), StValue::Issue(b));
    tx
}

// ---------------------------------------------------------------------------------------
// fixAMMv1_2: the reserve of a trust line a withdrawal creates
// ---------------------------------------------------------------------------------------

/// A withdrawal's amounts: none (tfWithdrawAll), one asset or two.
enum Out<'a> {
    All,
    One(&'a str),
    Two(&'a str, &'a str),
}

/// The `testFixReserveCheckOnWithdrawal` world under `on`; alice then withdraws each
/// of `cases` in turn. Returns the results and whether alice ends with an EUR line.
fn reserve_story(on: bool, cases: &[Out]) -> (Vec<Ter>, bool) {
    let mut env = env_with(Feature::FixAMMv1_2, on);
    let gw = Account::new("gateway");
    let alice = Account::new("alice");
    let fees = env.store.fees();
    let base = fees.base_drops as i64;
    // jtx's fund: the amount, plus the fee of the DefaultRipple AccountSet it sends.
    let start = fees.account_reserve(2) + 5 * base;
    for a in [&gw, &alice] {
        env.fund(a, drops(start + base));
        env.apply(a, fset(asf::DEFAULT_RIPPLE), Ter::tesSUCCESS);
        assert_eq!(env.balance(a), start);
    }
    env.close();
    env.apply(&alice, trust(gw.iou("USD", 2_000)), Ter::tesSUCCESS);
    env.close();
    env.apply(&gw, pay(&alice, gw.iou("USD", 2_000)), Ter::tesSUCCESS);
    env.close();
    let (eur, usd) = (gw.iou("EUR", 1_000), gw.iou("USD", 1_000));
    let mut create = Tx::new("AMMCreate")
        .amount("Amount", eur)
        .amount("Amount2", usd)
        .amount("Fee", drops(fees.reserve_inc_drops as i64));
    create.0.set(Field::named("TradingFee"), StValue::UInt16(0));
    env.apply(&gw, create, Ter::tesSUCCESS);
    env.close();
    let (e, u) = (eur.issue(), usd.issue());
    let deposit = amm_tx("AMMDeposit", e, u)
        .amount("Amount", gw.iou("USD", 1))
        .flags(tf::SINGLE_ASSET);
    env.apply(&alice, deposit, Ter::tesSUCCESS);
    env.close();
    assert_eq!(
        env.owner_count(&alice),
        2,
        "the USD line and the LP token line"
    );
    assert!(env.line(&alice, &gw, "EUR").is_none());
    assert!(env.read(&amm::amm_key(&e, &u)).is_some());
    let tenth = |code: &str| gw.iou_s(code, "0.1");
    let results = cases
        .iter()
        .map(|case| {
            let tx = amm_tx("AMMWithdraw", e, u);
            let tx = match case {
                Out::All => tx.flags(tf::WITHDRAW_ALL),
                Out::One(a) => tx.amount("Amount", tenth(a)).flags(tf::SINGLE_ASSET),
                Out::Two(a, b) => tx
                    .amount("Amount", tenth(a))
                    .amount("Amount2", tenth(b))
                    .flags(tf::TWO_ASSET),
            };
            let ter = env.submit(&alice, tx);
            env.close();
            ter
        })
        .collect();
    let eur_line = env.line(&alice, &gw, "EUR").is_some();
    (results, eur_line)
}

#[test]
fn without_fix_amm_v1_2_a_withdrawal_creates_the_line_whatever_the_reserve() {
    use Ter::tesSUCCESS as ok;
    assert_eq!(reserve_story(false, &[Out::All]), (vec![ok], true));
    let two = [Out::Two("EUR", "USD"), Out::Two("USD", "EUR")];
    assert_eq!(reserve_story(false, &two), (vec![ok, ok], true));
    let one = [Out::One("EUR"), Out::One("USD")];
    assert_eq!(reserve_story(false, &one), (vec![ok, ok], true));
}

#[test]
fn with_fix_amm_v1_2_a_withdrawal_needs_the_reserve_of_its_new_line() {
    use Ter::{tecINSUFFICIENT_RESERVE as short, tesSUCCESS as ok};
    assert_eq!(reserve_story(true, &[Out::All]), (vec![short], false));
    let two = [Out::Two("EUR", "USD"), Out::Two("USD", "EUR")];
    assert_eq!(reserve_story(true, &two), (vec![short, short], false));
    // USD goes to alice's own line: no new line, no reserve.
    let one = [Out::One("EUR"), Out::One("USD")];
    assert_eq!(reserve_story(true, &one), (vec![short, ok], false));
}
