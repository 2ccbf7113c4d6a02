//! fixCleanup3_2_0's vault spots, each run with the amendment and without it (the
//! bundle's other spots are in rules_cleanup320.rs).
//!
//! - VaultDeposit (`VaultDeposit.cpp`, `roundToVaultScale` in preclaim and doApply): an
//!   issued-currency deposit is rounded down to the last digit the vault's AssetsTotal
//!   keeps once the deposit is added; nothing left is `tecPRECISION_LOSS`. Before the fix
//!   the whole amount was taken, its tail below AssetsTotal's last digit counted in
//!   shares.
//! - VaultDeposit preclaim: an issued amount below the last digit of the depositor's
//!   spendable balance is `tecPRECISION_LOSS` (the issuer depositing is not asked); before
//!   the fix the depositor got shares for it.
//! - VaultWithdraw (`shouldWaiveWithdrawal`): the sole shareholder's shares are priced on
//!   AssetsTotal, its LossUnrealized not taken off.
//! - VaultWithdraw's final withdrawal: redeeming every share pays what the vault has on
//!   hand and leaves AssetsTotal and AssetsAvailable at exactly zero.
//! - VaultDeposit: the check that the depositor's line stays at or above zero is dropped.

use crate::support;

use crate::rules::env_with;
use ledgerd::engine::account_set::asf;
use ledgerd::engine::Ter;
use ledgerd::ledger::keylet;
use ledgerd::ledger::sf::{sf, StExt};
use ledgerd::protocol::amount::Amount;
use ledgerd::protocol::features::Feature;
use ledgerd::protocol::mpt::MptId;
use ledgerd::protocol::st::StValue;
use ledgerd::protocol::types::Hash256;
use support::engine::*;

/// ledgerd's rule book with fixCleanup3_2_0 forced on, or without it.
fn env(on: bool) -> Env {
    env_with(Feature::FixCleanup3_2_0, on, &[])
}

/// A USD vault of `scale` opened by `owner`; `holder` trusts `gw` for 10^7 USD and holds
/// `held` of it. Returns the vault's key and share id.
fn usd_vault(
    env: &mut Env,
    [gw, owner, holder]: [&Account; 3],
    scale: u8,
    held: &str,
) -> (Hash256, MptId) {
    env.apply(gw, fset(asf::DEFAULT_RIPPLE), Ter::tesSUCCESS);
    env.apply(holder, trust(gw.iou("USD", 10_000_000)), Ter::tesSUCCESS);
    env.apply(gw, pay(holder, gw.iou_s("USD", held)), Ter::tesSUCCESS);
    let mut create = Tx::new("VaultCreate");
    create
        .0
        .set(sf().asset, StValue::Issue(gw.iou("USD", 0).issue()));
    create.0.set(sf().scale, StValue::UInt8(scale));
    let seq = env.seq(owner);
    let create = with_fee(env, create);
    env.apply(owner, create, Ter::tesSUCCESS);
    let key = keylet::vault(&owner.id, seq);
    let share = env
        .read(&key)
        .and_then(|v| v.mpt_id_of(sf().share_mpt_id))
        .expect("the vault's shares");
    (key, share)
}

fn deposit(vault: Hash256, amount: Amount) -> Tx {
    Tx::new("VaultDeposit")
        .h256("VaultID", vault)
        .amount("Amount", amount)
}

fn shares(env: &Env, share: &MptId, who: &Account) -> u64 {
    env.read(&keylet::mptoken(share, &who.id))
        .and_then(|t| t.u64_of(sf().mpt_amount))
        .unwrap_or(0)
}

// VaultDeposit: roundToVaultScale. The vault holds 1000 USD (AssetsTotal's last digit is
// 10^-12; Scale 15 makes a share 10^-15 USD).
mod deposit_rounded_to_the_vault_scale {
    use super::*;

    /// (answer, shares gained, alice's USD after) for depositing `amount` USD.
    fn answer(on: bool, amount: &str) -> (Ter, u64, String) {
        // fixCleanup3_4_0 also refuses a debit the depositor's balance would not notice
        // (rules_cleanup340_vault.rs): off both ways.
        let off = [Feature::FixCleanup3_4_0];
        let mut env = env_with(Feature::FixCleanup3_2_0, on, &off);
        let [gw, owner, alice] = env.funded(["gw", "owner", "alice"]);
        let (key, share) = usd_vault(&mut env, [&gw, &owner, &alice], 15, "2000");
        env.apply(&alice, deposit(key, gw.iou("USD", 1000)), Ter::tesSUCCESS);
        assert_eq!(shares(&env, &share, &alice), 1_000_000_000_000_000_000);
        let before = shares(&env, &share, &alice);
        let ter = env.submit(&alice, deposit(key, gw.iou_s("USD", amount)));
        let gained = shares(&env, &share, &alice) - before;
        let usd = env.iou_balance(&alice, &gw, "USD").to_text();
        (ter, gained, usd)
    }

    #[test]
    fn below_the_totals_last_digit_is_precision_loss_with_the_fix() {
        assert_eq!(
            answer(true, "0.0000000000001"),
            (Ter::tecPRECISION_LOSS, 0, "1000".into())
        );
    }

    #[test]
    fn without_it_the_tail_buys_shares() {
        assert_eq!(
            answer(false, "0.0000000000001"),
            (Ter::tesSUCCESS, 100, "999.9999999999999".into())
        );
    }

    #[test]
    fn with_the_fix_a_ragged_amount_is_cut_to_the_last_digit() {
        assert_eq!(
            answer(true, "0.0000000000015"),
            (Ter::tesSUCCESS, 1000, "999.999999999999".into())
        );
    }

    #[test]
    fn without_it_the_whole_ragged_amount_is_taken() {
        assert_eq!(
            answer(false, "0.0000000000015"),
            (Ter::tesSUCCESS, 1500, "999.9999999999985".into())
        );
    }
}

// VaultDeposit preclaim: the amount against the last digit of the depositor's balance
// (10^6 USD keeps nine decimals). The vault is empty, so AssetsTotal does not round it.
mod deposit_below_the_depositors_last_digit {
    use super::*;

    fn answer(on: bool) -> (Ter, u64) {
        let mut env = env(on);
        let [gw, owner, alice] = env.funded(["gw", "owner", "alice"]);
        let (key, share) = usd_vault(&mut env, [&gw, &owner, &alice], 15, "1000000");
        let ter = env.submit(&alice, deposit(key, gw.iou_s("USD", "0.0000000001")));
        (ter, shares(&env, &share, &alice))
    }

    #[test]
    fn precision_loss_with_the_fix() {
        assert_eq!(answer(true), (Ter::tecPRECISION_LOSS, 0));
    }

    #[test]
    fn without_it_the_depositor_gets_shares() {
        // 10^-10 USD at Scale 15: 10^5 shares.
        assert_eq!(answer(false), (Ter::tesSUCCESS, 100_000));
    }

    #[test]
    fn the_issuer_is_not_asked() {
        let mut env = env(true);
        let [gw, owner, alice] = env.funded(["gw", "owner", "alice"]);
        let (key, share) = usd_vault(&mut env, [&gw, &owner, &alice], 15, "1000000");
        let ter = env.submit(&gw, deposit(key, gw.iou_s("USD", "0.0000000001")));
        assert_eq!((ter, shares(&env, &share, &gw)), (Ter::tesSUCCESS, 100_000));
    }
}

// VaultWithdraw (`shouldWaiveWithdrawal`): the sole shareholder of a vault whose loan is
// impaired. rippled's lifecycle loan (1000 XRP lent from a 10^6 XRP vault) is impaired,
// so LossUnrealized holds what it owes; the depositor, holding every share, withdraws
// 1000 XRP. With the fix its shares are priced on AssetsTotal; without it, on AssetsTotal
// less the loss (each share worth less, so more of them are burnt).
mod sole_shareholder_bears_no_unrealized_loss {
    use super::*;
    use ledgerd::engine::vault::number_of;
    use ledgerd::protocol::number::Number;

    /// tfLoanImpair.
    const TF_IMPAIR: u32 = 0x0002_0000;

    fn whole(n: Number) -> i128 {
        i128::from(n.to_i64().expect("whole drops"))
    }

    /// (shares burnt, the shares the fix's pricing burns, the pre-fix pricing's).
    fn answer(on: bool) -> (i128, i128, i128) {
        // rippled's lifecycle loan, from an open-ended vault (without LendingProtocolV1_1),
        // impaired on time (without fixCleanup3_4_0, which impairs only overdue loans).
        let env = env_with(
            Feature::FixCleanup3_2_0,
            on,
            &[Feature::LendingProtocolV1_1, Feature::FixCleanup3_4_0],
        );
        let (mut env, [owner, depositor, _], vault, _, loan) = crate::loan::lifecycle_in(env, 0);
        let impair = Tx::new("LoanManage").h256("LoanID", loan).flags(TF_IMPAIR);
        env.apply(&owner, impair, Ter::tesSUCCESS);
        let v = env.read(&vault).unwrap();
        let (total, loss) = (
            whole(number_of(&v, sf().assets_total)),
            whole(number_of(&v, sf().loss_unrealized)),
        );
        assert!(loss > 0, "the impaired loan's loss is unrealized");
        let share = v.mpt_id_of(sf().share_mpt_id).unwrap();
        let out = env
            .read(&keylet::mpt_issuance(&share))
            .and_then(|i| i.u64_of(sf().outstanding_amount))
            .unwrap();
        assert_eq!(
            shares(&env, &share, &depositor),
            out,
            "the sole shareholder"
        );
        let wd = Tx::new("VaultWithdraw")
            .h256("VaultID", vault)
            .amount("Amount", xrp(1000));
        env.apply(&depositor, wd, Ter::tesSUCCESS);
        let burnt = i128::from(out - shares(&env, &share, &depositor));
        let out = i128::from(out);
        let drops = 1_000_000_000;
        (burnt, out * drops / total, out * drops / (total - loss))
    }

    fn close(a: i128, b: i128) -> bool {
        (a - b).abs() <= 1
    }

    #[test]
    fn priced_on_assets_total_with_the_fix() {
        let (burnt, waived, charged) = answer(true);
        assert!(close(burnt, waived), "{burnt} vs {waived}");
        assert!(
            charged - waived > 1000,
            "the loss matters: {waived} {charged}"
        );
    }

    #[test]
    fn priced_net_of_the_loss_without_it() {
        let (burnt, waived, charged) = answer(false);
        assert!(close(burnt, charged), "{burnt} vs {charged}");
        assert!(
            charged - waived > 1000,
            "the loss matters: {waived} {charged}"
        );
    }
}

// VaultDeposit: alice holds 10 USD and gw trusts her for 100 of hers, so she may spend
// 110 (`SpendableHandling::FullBalance`) and deposits 50, taking her line to -40. Before
// the fix doApply's sanity check ("negative balance of account assets") made that
// tefINTERNAL; the fix drops the check.
mod deposit_into_debt {
    use super::*;

    fn answer(on: bool) -> (Ter, String, u64) {
        let mut env = env(on);
        let [gw, owner, alice] = env.funded(["gw", "owner", "alice"]);
        let (key, share) = usd_vault(&mut env, [&gw, &owner, &alice], 0, "10");
        env.apply(&gw, trust(alice.iou("USD", 100)), Ter::tesSUCCESS);
        let ter = env.submit(&alice, deposit(key, gw.iou("USD", 50)));
        let usd = env.iou_balance(&alice, &gw, "USD").to_text();
        (ter, usd, shares(&env, &share, &alice))
    }

    #[test]
    fn the_line_goes_below_zero_with_the_fix() {
        assert_eq!(answer(true), (Ter::tesSUCCESS, "-40".into(), 50));
    }

    #[test]
    fn tef_internal_without_it() {
        assert_eq!(answer(false), (Ter::tefINTERNAL, "10".into(), 0));
    }

    #[test]
    fn past_the_issuers_limit_is_insufficient_funds() {
        let mut env = env(true);
        let [gw, owner, alice] = env.funded(["gw", "owner", "alice"]);
        let (key, _) = usd_vault(&mut env, [&gw, &owner, &alice], 0, "10");
        env.apply(&gw, trust(alice.iou("USD", 100)), Ter::tesSUCCESS);
        let ter = env.submit(&alice, deposit(key, gw.iou("USD", 111)));
        assert_eq!(ter, Ter::tecINSUFFICIENT_FUNDS);
    }
}

// VaultWithdraw's final withdrawal (`VaultWithdraw::doApply`): a loan of a USD vault,
// repaid in full, leaves AssetsTotal with digits AssetsAvailable and the pseudo-account's
// line do not keep (the interest is booked as a 19-digit Number). The depositor, holding
// every share, redeems them all. With the fix it takes what the vault has on hand and both
// totals end at exactly zero, so the owner can delete the vault; before, both drop by the
// shares' worth rounded to the currency, the dust stays in a vault with no shares and
// VaultDelete is `tecHAS_OBLIGATIONS`.
mod final_withdrawal_leaves_no_dust {
    use super::*;
    use crate::loan::{broker_tx, lender, loan_set, submit_loan};
    use ledgerd::engine::vault::number_of;
    use ledgerd::protocol::number::Number;
    use support::mpt::with_mpt;

    /// (AssetsTotal and AssetsAvailable after the last withdrawal, the depositor's USD
    /// (all it had went into the vault), VaultDelete's answer).
    fn answer(on: bool) -> (String, String, String, Ter) {
        // It lends from an open-ended vault: a ledger without LendingProtocolV1_1.
        let off = [Feature::LendingProtocolV1_1];
        let mut env = env_with(Feature::FixCleanup3_2_0, on, &off);
        let [gw, owner, depositor, borrower] =
            env.funded(["c320fGw", "c320fOwn", "c320fDep", "c320fBor"]);
        env.apply(&gw, fset(asf::DEFAULT_RIPPLE), Ter::tesSUCCESS);
        for a in [&owner, &depositor, &borrower] {
            env.apply(a, trust(gw.iou("USD", 100_000_000)), Ter::tesSUCCESS);
        }
        env.apply(
            &gw,
            pay(&borrower, gw.iou("USD", 1_000_000)),
            Ter::tesSUCCESS,
        );
        let deposit = gw.iou_s("USD", "99999.99999");
        env.apply(&gw, pay(&depositor, deposit), Ter::tesSUCCESS);
        let (vault, broker, _) = lender(
            &mut env,
            (&owner, &depositor),
            gw.iou("USD", 0).issue(),
            deposit,
            broker_tx(100, 0, 0),
        );
        let tx = loan_set(broker, Number::from_i64(77_777))
            .u32("InterestRate", 99_999)
            .u32("PaymentInterval", 60)
            .u32("PaymentTotal", 4);
        assert_eq!(
            submit_loan(&mut env, &borrower, &[&owner], tx),
            Ter::tesSUCCESS
        );
        let loan = keylet::loan(&broker, 1);
        let repay = crate::loan::pay(loan, gw.iou("USD", 200_000));
        env.apply(&borrower, repay, Ter::tesSUCCESS);
        let delete_loan = Tx::new("LoanDelete").h256("LoanID", loan);
        env.apply(&owner, delete_loan, Ter::tesSUCCESS);
        let delete_broker = Tx::new("LoanBrokerDelete").h256("LoanBrokerID", broker);
        env.apply(&owner, delete_broker, Ter::tesSUCCESS);
        let v = env.read(&vault).unwrap();
        let (total, available) = (
            number_of(&v, sf().assets_total),
            number_of(&v, sf().assets_available),
        );
        assert_eq!(total.to_string(), "100000.3695605704491", "19 digits");
        assert_eq!(available.to_string(), "100000.36956057044");
        assert!(number_of(&v, sf().loss_unrealized).is_zero());
        let share = v.mpt_id_of(sf().share_mpt_id).unwrap();
        let all = shares(&env, &share, &depositor);
        assert!(env.iou_balance(&depositor, &gw, "USD").is_zero());
        let redeem = with_mpt(Tx::new("VaultWithdraw").h256("VaultID", vault), &share, all);
        env.apply(&depositor, redeem, Ter::tesSUCCESS);
        let gained = env.iou_balance(&depositor, &gw, "USD");
        let v = env.read(&vault).unwrap();
        let left = |f| number_of(&v, f).to_string();
        let (total, available) = (left(sf().assets_total), left(sf().assets_available));
        let delete = env.submit(&owner, Tx::new("VaultDelete").h256("VaultID", vault));
        (total, available, gained.to_text(), delete)
    }

    #[test]
    fn with_the_fix_the_totals_end_at_zero_and_the_vault_goes() {
        let want = ("0", "0", "100000.3695605704", Ter::tesSUCCESS);
        let (t, a, g, d) = answer(true);
        assert_eq!((t.as_str(), a.as_str(), g.as_str(), d), want);
    }

    #[test]
    fn without_it_the_dust_stays_behind_and_keeps_the_vault() {
        let (t, a, g, d) = answer(false);
        let want = (
            "491e-13",
            "4e-11",
            "100000.3695605704",
            Ter::tecHAS_OBLIGATIONS,
        );
        assert_eq!((t.as_str(), a.as_str(), g.as_str(), d), want);
    }
}

// The pseudo-account's line is created as rippled's `addEmptyHolding` creates it, NoRipple
// on the pseudo-account's side, so a withdrawal that empties it leaves it in place, with
// the fix or without. (Were it deleted, `ValidMPTIssuance`'s rule that only VaultDelete
// deletes a vault's holding would fail every last withdrawal under the fix.)
#[test]
fn the_last_withdrawal_leaves_the_vaults_line_in_place() {
    for on in [false, true] {
        let mut env = env(on);
        let [gw, owner, alice] = env.funded(["c320kGw", "c320kOwner", "c320kAlice"]);
        let (key, share) = usd_vault(&mut env, [&gw, &owner, &alice], 6, "10");
        env.apply(&alice, deposit(key, gw.iou("USD", 10)), Ter::tesSUCCESS);
        let all = shares(&env, &share, &alice);
        let redeem =
            support::mpt::with_mpt(Tx::new("VaultWithdraw").h256("VaultID", key), &share, all);
        env.apply(&alice, redeem, Ter::tesSUCCESS);
        let pseudo = env.read(&key).and_then(|v| v.account_of(sf().account));
        let line = env.read(&keylet::line(&pseudo.unwrap(), &gw.id, &cur("USD")));
        let line = line.unwrap_or_else(|| panic!("the line, fix {on}"));
        assert!(line.amount_of(sf().balance).is_some_and(|b| b.is_zero()));
        assert_eq!(env.iou_balance(&alice, &gw, "USD").to_text(), "10");
    }
}
