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
        let mut env = env(on);
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
        // rippled's lifecycle loan, from an open-ended vault: without LendingProtocolV1_1.
        let env = env_with(
            Feature::FixCleanup3_2_0,
            on,
            &[Feature::LendingProtocolV1_1],
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
