//! AMMDeposit (rippled `AMMDeposit.cpp`, with or without fixAMMv1_3's rounding): liquidity
//! into an AMM for LP tokens, in one of six modes chosen by one flag of [`tf::DEPOSIT_SUB_TX`]:
//! - `tfLPToken`: LPTokenOut, both assets in proportion (Amount and Amount2 as minimums);
//! - `tfSingleAsset`: Amount of one asset (LPTokenOut as a minimum);
//! - `tfTwoAsset`: both assets up to Amount and Amount2 (LPTokenOut as a minimum);
//! - `tfOneAssetLPToken`: LPTokenOut for at most Amount of one asset;
//! - `tfLimitLPToken`: one asset, at an effective price within EPrice;
//! - `tfTwoAssetIfEmpty`: both assets into an empty AMM, with a new TradingFee.

use std::cmp::Ordering;

use super::amm_math::{
    adjust_amounts_by_lp_tokens, adjust_asset_in_by_tokens, adjust_lp_tokens, amm_asset_in,
    amm_lp_tokens, cmp, fee_mult, fee_mult_half, frac_by_tokens, lp_tokens_out, rounded_asset,
    rounded_asset_by, rounded_lp_tokens, rounded_lp_tokens_by, solve_quadratic, st_divide, v1_3,
    Side,
};
use super::{
    amm_holds, caught_as_internal, init_fee_auction_vote, invalid_amm_amount, lp_holds,
    preflight_mode, tf, trading_fee, tx_amm, uncaught, AmmEntry, ModeAmounts, AMM_TRADING_FEE_MAX,
};
use crate::engine::funds::{
    account_holds, account_send, frozen_issue, is_individual_frozen, require_auth, xrp_liquid,
};
use crate::engine::sandbox::Sandbox;
use crate::engine::ter::Ter;
use crate::engine::transactor::ApplyContext;
use crate::ledger::keylet;
use crate::ledger::sf::{sf, StExt};
use crate::ledger::view::ReadView;
use crate::protocol::amount::Amount;
use crate::protocol::features::Feature;
use crate::protocol::number::{fault_pending, take_fault, Number};
use crate::protocol::st::{StObject, StValue};
use crate::protocol::types::{AccountId, Issue};

/// The optional fields of a deposit.
struct Fields {
    amount: Option<Amount>,
    amount2: Option<Amount>,
    e_price: Option<Amount>,
    lp_tokens: Option<Amount>,
    trading_fee: Option<u16>,
}

fn fields(tx: &StObject) -> Fields {
    let s = sf();
    Fields {
        amount: tx.amount_of(s.amount),
        amount2: tx.amount_of(s.amount2),
        e_price: tx.amount_of(s.e_price),
        lp_tokens: tx.amount_of(s.lp_token_out),
        trading_fee: tx.u16_of(s.trading_fee),
    }
}

/// The fields each mode takes: false for a combination rippled refuses.
fn fields_fit_mode(flags: u32, f: &Fields) -> bool {
    let (a, a2, ep, lp, fee) = (
        f.amount.is_some(),
        f.amount2.is_some(),
        f.e_price.is_some(),
        f.lp_tokens.is_some(),
        f.trading_fee.is_some(),
    );
    if flags & tf::LP_TOKEN != 0 {
        lp && !ep && a == a2 && !fee
    } else if flags & tf::SINGLE_ASSET != 0 {
        a && !a2 && !ep && !fee
    } else if flags & tf::TWO_ASSET != 0 {
        a && a2 && !ep && !fee
    } else if flags & tf::ONE_ASSET_LP_TOKEN != 0 {
        a && lp && !a2 && !ep && !fee
    } else if flags & tf::LIMIT_LP_TOKEN != 0 {
        a && ep && !lp && !a2 && !fee
    } else {
        a && a2 && !ep && !lp
    }
}

/// preflight.
pub fn preflight(tx: &StObject, _account: &AccountId) -> Result<(), Ter> {
    let f = fields(tx);
    let named = ModeAmounts {
        amount: f.amount.as_ref(),
        amount2: f.amount2.as_ref(),
        lp_tokens: f.lp_tokens.as_ref(),
    };
    let pair = match preflight_mode(tx, tf::DEPOSIT_SUB_TX, |fl| fields_fit_mode(fl, &f), &named) {
        Ok(p) => Some(p),
        Err(t) => return Err(t),
    };
    if let Some(a) = &f.amount {
        invalid_amm_amount(a, pair, f.e_price.is_some())?;
    }
    if let Some(a) = &f.amount2 {
        invalid_amm_amount(a, pair, false)?;
    }
    if let (Some(a), Some(ep)) = (&f.amount, &f.e_price) {
        invalid_amm_amount(ep, Some((a.issue(), a.issue())), false)?;
    }
    if f.trading_fee.is_some_and(|fee| fee > AMM_TRADING_FEE_MAX) {
        return Err(Ter::temBAD_FEE);
    }
    Ok(())
}

/// `account` can pay `deposit`: XRP above the reserve (one more line when it holds no LP
/// tokens yet), or its balance of an issue. The error when it cannot, for preclaim.
fn preclaim_balance(
    view: &dyn ReadView,
    amm: &AmmEntry,
    account: &AccountId,
    deposit: &Amount,
) -> Ter {
    if deposit.is_xrp() {
        let lpt = amm.lp_issue();
        let has_line = view
            .read(&keylet::line(account, &lpt.issuer, &lpt.currency))
            .is_some();
        let liquid = xrp_liquid(view, account, if has_line { 0 } else { 1 });
        if cmp(&Amount::Xrp(liquid), deposit) != Ordering::Less {
            return Ter::tesSUCCESS;
        }
        return if has_line {
            Ter::tecUNFUNDED_AMM
        } else {
            Ter::tecINSUF_RESERVE_LINE
        };
    }
    if deposit.issue().issuer == *account
        || cmp(
            &account_holds(view, account, &deposit.issue(), false),
            deposit,
        ) != Ordering::Less
    {
        Ter::tesSUCCESS
    } else {
        Ter::tecUNFUNDED_AMM
    }
}

/// preclaim.
pub fn preclaim(view: &dyn ReadView, tx: &StObject, account: &AccountId) -> Result<(), Ter> {
    let Some((amm, _)) = tx_amm(view, tx) else {
        return Err(Ter::terNO_AMM);
    };
    let (bal1, bal2, lpt) = amm_holds(view, &amm, None, None, false)?;
    let empty_state = tx.flags() & tf::TWO_ASSET_IF_EMPTY != 0;
    pool_state_fits(empty_state, &bal1, &bal2, &lpt).into_result()?;
    // AMMClawback: neither of the pool's assets unauthorized or frozen for the account;
    // fixCleanup3_3_0: nor frozen for the pool (rippled's `checkDepositFreeze`).
    let rules = view.info().rules;
    let fix330 = rules.enabled(Feature::FixCleanup3_3_0);
    let both_assets = fix330 || rules.enabled(Feature::AMMClawback);
    for asset in [amm.asset, amm.asset2].iter().filter(|_| both_assets) {
        require_auth(view, asset, account).into_result()?;
        let frozen = if fix330 {
            deposit_frozen(view, account, &amm.account, asset)
        } else {
            frozen_issue(view, account, asset)
        };
        if frozen {
            return Err(Ter::tecFROZEN);
        }
    }
    let f = fields(tx);
    let checks: [(Option<Amount>, bool); 2] = if tx.flags() & tf::LP_TOKEN == 0 {
        [(f.amount, true), (f.amount2, true)]
    } else {
        [(Some(bal1), false), (Some(bal2), false)]
    };
    for (a, check_balance) in checks {
        let Some(a) = a else { continue };
        check_amount(view, &amm, account, &a, check_balance)?;
    }
    if f.lp_tokens.is_some_and(|t| t.issue() != lpt.issue()) {
        return Err(Ter::temBAD_AMM_TOKENS);
    }
    if lp_holds(view, &amm, account).is_zero() && xrp_liquid(view, account, 1) <= 0 {
        return Err(Ter::tecINSUF_RESERVE_LINE);
    }
    Ok(())
}

/// rippled's `checkDepositFreeze` for a deposit of `issue` from `account` into the pool
/// `pool` (the one vaults and loan brokers use): the issue globally frozen, `account`'s
/// line frozen (unless it is the issuer), or the pool's line frozen, which no regular
/// freeze lets a pseudo-account hold.
fn deposit_frozen(
    view: &dyn ReadView,
    account: &AccountId,
    pool: &AccountId,
    issue: &Issue,
) -> bool {
    let asset = crate::engine::vault::VaultAsset::Token(*issue);
    crate::engine::vault::freeze::check_deposit_freeze(view, account, pool, &asset).is_err()
}

/// tfTwoAssetIfEmpty needs an empty AMM, every other mode a funded one.
fn pool_state_fits(empty_state: bool, bal1: &Amount, bal2: &Amount, lpt: &Amount) -> Ter {
    if empty_state {
        if !lpt.is_zero() {
            return Ter::tecAMM_NOT_EMPTY;
        }
        if !bal1.is_zero() || !bal2.is_zero() {
            return Ter::tecINTERNAL;
        }
        return Ter::tesSUCCESS;
    }
    if lpt.is_zero() {
        return Ter::tecAMM_EMPTY;
    }
    let positive = |a: &Amount| !a.is_zero() && !a.is_negative();
    if !positive(bal1) || !positive(bal2) || lpt.is_negative() {
        return Ter::tecINTERNAL;
    }
    Ter::tesSUCCESS
}

/// One deposited asset: authorized, neither the pool's nor the account's line frozen
/// (before fixCleanup3_3_0; with it the preclaim checked both assets' freezes), and (when
/// asked) funded.
fn check_amount(
    view: &dyn ReadView,
    amm: &AmmEntry,
    account: &AccountId,
    amount: &Amount,
    check_balance: bool,
) -> Result<(), Ter> {
    let issue = amount.issue();
    require_auth(view, &issue, account).into_result()?;
    // Under fixCleanup3_3_0 both assets' freezes were checked already.
    let fix330 = view.info().rules.enabled(Feature::FixCleanup3_3_0);
    if !fix330
        && (frozen_issue(view, &amm.account, &issue) || is_individual_frozen(view, account, &issue))
    {
        return Err(Ter::tecFROZEN);
    }
    if check_balance {
        return preclaim_balance(view, amm, account, amount).into_result();
    }
    Ok(())
}

/// What every mode works with.
struct Pool<'c, 'a, 't> {
    ctx: &'c mut ApplyContext<'a, 't>,
    amm: AmmEntry,
    tfee: u16,
}

/// doApply. A fault is an exception (an amount past what an STAmount holds, or the
/// arithmetic overflowing): inside `equalDepositTokens` (tfLPToken) rippled catches it
/// as `tecINTERNAL` ([`Pool::equal_tokens`]); in every other mode nothing does, and
/// rippled answers `tefEXCEPTION` (not applied, no fee), unless fixCleanup3_4_0 is on
/// ([`out_of_range`]).
pub fn do_apply(ctx: &mut ApplyContext) -> Ter {
    uncaught(apply(ctx))
}

fn apply(ctx: &mut ApplyContext) -> Result<(), Ter> {
    let Some((amm, sle)) = tx_amm(&ctx.sb, ctx.tx) else {
        return Err(Ter::tecINTERNAL);
    };
    let f = fields(ctx.tx);
    let holds = amm_holds(
        &ctx.sb,
        &amm,
        f.amount.map(|a| a.issue()),
        f.amount2.map(|a| a.issue()),
        true,
    );
    let (bal1, bal2, lpt) = holds?;
    let tfee = if lpt.is_zero() {
        f.trading_fee.unwrap_or(0)
    } else {
        trading_fee(&ctx.sb, &sle, &ctx.account)
    };
    let mut pool = Pool { ctx, amm, tfee };
    let earlier_fault = fault_pending();
    let result = pool.dispatch(&f, &bal1, &bal2, &lpt);
    let new_balance = out_of_range(&pool.ctx.sb, earlier_fault, result)?;
    // fixCleanup3_3_0 (with fixAMMv1_3): defensive, as rippled marks it unreachable: the
    // deposit formulas round LP tokens down and assets up, so the mean covers them.
    let pair = (&pool.amm.asset, &pool.amm.asset2);
    super::invariant::precision_loss(&pool.ctx.sb, &pool.amm.account, pair, &new_balance)?;
    let mut sle = (*sle).clone();
    sle.set(sf().lp_token_balance, StValue::Amount(new_balance));
    if lpt.is_zero() {
        let account = pool.ctx.account;
        init_fee_auction_vote(&pool.ctx.sb, &mut sle, &account, &lpt.issue(), tfee);
    }
    pool.ctx.sb.update(pool.amm.key, sle);
    Ok(())
}

type Deposited = Result<Amount, Ter>;

/// fixCleanup3_4_0 (rippled `AMMDeposit::applyGuts`): a deposit whose solved amount left
/// the asset's range (the conversion throws) is `tecAMM_FAILED`, fee charged, where it
/// was `tefEXCEPTION` before. Only a fault raised while the mode solved its amounts
/// (`earlier` false) is caught, as rippled's try block holds the dispatch alone.
fn out_of_range(sb: &Sandbox, earlier: bool, result: Deposited) -> Deposited {
    if earlier || !sb.info().rules.enabled(Feature::FixCleanup3_4_0) || !fault_pending() {
        return result;
    }
    take_fault();
    Err(Ter::tecAMM_FAILED)
}

impl Pool<'_, '_, '_> {
    fn dispatch(&mut self, f: &Fields, bal1: &Amount, bal2: &Amount, lpt: &Amount) -> Deposited {
        let flags = self.ctx.tx.flags();
        let (a, a2, ep, lp) = (f.amount, f.amount2, f.e_price, f.lp_tokens);
        match (a, a2, ep, lp) {
            (Some(a), Some(a2), _, _) if flags & tf::TWO_ASSET != 0 => {
                self.equal_limit(bal1, bal2, lpt, &a, &a2, lp)
            }
            (Some(a), _, _, Some(lp)) if flags & tf::ONE_ASSET_LP_TOKEN != 0 => {
                self.single_tokens(bal1, &a, lpt, &lp)
            }
            (Some(a), _, Some(ep), _) if flags & tf::LIMIT_LP_TOKEN != 0 => {
                self.single_eprice(bal1, &a, lpt, &ep)
            }
            (Some(a), _, _, _) if flags & tf::SINGLE_ASSET != 0 => self.single(bal1, lpt, &a, lp),
            (_, _, _, Some(lp)) if flags & tf::LP_TOKEN != 0 => {
                self.equal_tokens(bal1, bal2, lpt, &lp, (a, a2))
            }
            (Some(a), Some(a2), _, _) if flags & tf::TWO_ASSET_IF_EMPTY != 0 => {
                let tokens = amm_lp_tokens(&a, &a2, &lpt.issue());
                let empty = Limits::default();
                self.deposit(&a, &a, Some(a2), lpt, &tokens, &empty)
            }
            _ => Err(Ter::tecINTERNAL),
        }
    }

    /// The account can pay `amount` now (`checkBalance` in `deposit`).
    fn funded(&self, amount: &Amount) -> Ter {
        if amount.is_zero() || amount.is_negative() {
            return Ter::temBAD_AMOUNT;
        }
        let sb: &Sandbox = &self.ctx.sb;
        let account = self.ctx.account;
        let ok = if amount.is_xrp() {
            let lpt = self.amm.lp_issue();
            let has_line = sb.exists(&keylet::line(&account, &lpt.issuer, &lpt.currency));
            let liquid = xrp_liquid(sb, &account, if has_line { 0 } else { 1 });
            cmp(&Amount::Xrp(liquid), amount) != Ordering::Less
        } else {
            amount.issue().issuer == account
                || cmp(&account_holds(sb, &account, &amount.issue(), false), amount)
                    != Ordering::Less
        };
        if ok {
            Ter::tesSUCCESS
        } else {
            Ter::tecUNFUNDED_AMM
        }
    }

    /// Moves the assets in and the LP tokens out (`AMMDeposit::deposit`); the new LP
    /// token balance.
    fn deposit(
        &mut self,
        balance: &Amount,
        amount: &Amount,
        amount2: Option<Amount>,
        lpt: &Amount,
        tokens: &Amount,
        min: &Limits,
    ) -> Deposited {
        let (amount, amount2, tokens) = adjust_amounts_by_lp_tokens(
            balance,
            (*amount, amount2),
            lpt,
            tokens,
            self.tfee,
            Side::Deposit,
        );
        let (amount, tokens) = (&amount, &tokens);
        if tokens.is_zero() || tokens.is_negative() {
            return Err(Ter::tecAMM_INVALID_TOKENS);
        }
        let below = |x: Option<&Amount>, m: &Option<Amount>| match (x, m) {
            (Some(x), Some(m)) => cmp(x, m) == Ordering::Less,
            (None, Some(_)) => true,
            _ => false,
        };
        if below(Some(amount), &min.amount)
            || below(amount2.as_ref(), &min.amount2)
            || below(Some(tokens), &min.tokens)
        {
            return Err(Ter::tecAMM_FAILED);
        }
        let (account, pool) = (self.ctx.account, self.amm.account);
        for a in std::iter::once(*amount).chain(amount2) {
            self.funded(&a).into_result()?;
            account_send(&mut self.ctx.sb, &account, &pool, &a)?;
        }
        account_send(&mut self.ctx.sb, &pool, &account, tokens)?;
        Ok(lpt.add_in_current_mode(tokens))
    }

    /// tfLPToken: both assets in proportion to LPTokenOut (`equalDepositTokens`), in
    /// rippled's `try` that answers any exception `tecINTERNAL` (fee charged): LPTokenOut
    /// 10^20 on a 1,000 XRP pool asks for 10^23 drops, which no STAmount holds.
    fn equal_tokens(
        &mut self,
        bal1: &Amount,
        bal2: &Amount,
        lpt: &Amount,
        tokens: &Amount,
        mins: (Option<Amount>, Option<Amount>),
    ) -> Deposited {
        caught_as_internal(|| self.equal_tokens_guts(bal1, bal2, lpt, tokens, mins))
    }

    fn equal_tokens_guts(
        &mut self,
        bal1: &Amount,
        bal2: &Amount,
        lpt: &Amount,
        tokens: &Amount,
        (min1, min2): (Option<Amount>, Option<Amount>),
    ) -> Deposited {
        let tokens = adjust_out(lpt, tokens);
        if v1_3() && tokens.is_zero() {
            return Err(Ter::tecAMM_INVALID_TOKENS);
        }
        let frac = st_divide(&tokens, lpt, &lpt.issue()).to_number();
        let a1 = rounded_asset(bal1, frac, Side::Deposit);
        let a2 = rounded_asset(bal2, frac, Side::Deposit);
        let min = Limits {
            amount: min1,
            amount2: min2,
            tokens: None,
        };
        self.deposit(bal1, &a1, Some(a2), lpt, &tokens, &min)
    }

    /// tfTwoAsset: both assets in proportion, each within its amount
    /// (`equalDepositLimit`).
    fn equal_limit(
        &mut self,
        bal1: &Amount,
        bal2: &Amount,
        lpt: &Amount,
        amount: &Amount,
        amount2: &Amount,
        min_tokens: Option<Amount>,
    ) -> Deposited {
        let min = Limits {
            tokens: min_tokens,
            ..Limits::default()
        };
        let frac = amount.to_number() / bal1.to_number();
        let tokens = rounded_lp_tokens(lpt, frac, Side::Deposit);
        if tokens.is_zero() {
            return Err(zero_tokens());
        }
        let frac = frac_by_tokens(lpt, &tokens, frac);
        let deposit2 = rounded_asset(bal2, frac, Side::Deposit);
        if cmp(&deposit2, amount2) != Ordering::Greater {
            return self.deposit(bal1, amount, Some(deposit2), lpt, &tokens, &min);
        }
        let frac = amount2.to_number() / bal2.to_number();
        let tokens = rounded_lp_tokens(lpt, frac, Side::Deposit);
        if tokens.is_zero() {
            return Err(zero_tokens());
        }
        let frac = frac_by_tokens(lpt, &tokens, frac);
        let deposit1 = rounded_asset(bal1, frac, Side::Deposit);
        if cmp(&deposit1, amount) != Ordering::Greater {
            return self.deposit(bal1, &deposit1, Some(*amount2), lpt, &tokens, &min);
        }
        Err(Ter::tecAMM_FAILED)
    }

    /// tfSingleAsset: one asset, LP tokens by equation 3 (`singleDeposit`).
    fn single(
        &mut self,
        bal: &Amount,
        lpt: &Amount,
        amount: &Amount,
        min_tokens: Option<Amount>,
    ) -> Deposited {
        let tokens = adjust_out(lpt, &lp_tokens_out(bal, amount, lpt, self.tfee));
        if tokens.is_zero() {
            return Err(zero_tokens());
        }
        let (tokens, deposit) = adjust_asset_in_by_tokens(bal, amount, lpt, &tokens, self.tfee);
        if v1_3() && tokens.is_zero() {
            return Err(Ter::tecAMM_INVALID_TOKENS);
        }
        let min = Limits {
            tokens: min_tokens,
            ..Limits::default()
        };
        self.deposit(bal, &deposit, None, lpt, &tokens, &min)
    }

    /// tfOneAssetLPToken: LPTokenOut for one asset, by equation 4, within Amount
    /// (`singleDepositTokens`).
    fn single_tokens(
        &mut self,
        bal: &Amount,
        amount: &Amount,
        lpt: &Amount,
        tokens: &Amount,
    ) -> Deposited {
        let tokens = adjust_out(lpt, tokens);
        if v1_3() && tokens.is_zero() {
            return Err(Ter::tecAMM_INVALID_TOKENS);
        }
        let deposit = amm_asset_in(bal, lpt, &tokens, self.tfee);
        if cmp(&deposit, amount) == Ordering::Greater {
            return Err(Ter::tecAMM_FAILED);
        }
        self.deposit(bal, &deposit, None, lpt, &tokens, &Limits::default())
    }

    /// tfLimitLPToken: one asset at an effective price within EPrice
    /// (`singleDepositEPrice`).
    fn single_eprice(
        &mut self,
        bal: &Amount,
        amount: &Amount,
        lpt: &Amount,
        e_price: &Amount,
    ) -> Deposited {
        let tfee = self.tfee;
        if !amount.is_zero() {
            let tokens = adjust_out(lpt, &lp_tokens_out(bal, amount, lpt, tfee));
            if tokens.is_zero() || tokens.is_negative() {
                return Err(zero_tokens());
            }
            let (tokens, deposit) = adjust_asset_in_by_tokens(bal, amount, lpt, &tokens, tfee);
            if v1_3() && tokens.is_zero() {
                return Err(Ter::tecAMM_INVALID_TOKENS);
            }
            let ep = deposit.to_number() / tokens.to_number();
            if ep <= e_price.to_number() {
                return self.deposit(bal, &deposit, None, lpt, &tokens, &Limits::default());
            }
        }
        let f1 = fee_mult(tfee);
        let f2 = fee_mult_half(tfee) / f1;
        let c = f1 * bal.to_number() / (e_price.to_number() * lpt.to_number());
        let d = f1 + c * f2 - c;
        let a1 = c * c;
        let b1 = c * c * f2 * f2 + Number::from(2) * c - d * d;
        let c1 = Number::from(2) * c * f2 * f2 + Number::from(1) - Number::from(2) * d * f2;
        let deposit = rounded_asset_by(
            bal,
            || f1 * bal.to_number() * solve_quadratic(a1, b1, c1),
            || f1 * solve_quadratic(a1, b1, c1),
            Side::Deposit,
        );
        if deposit.is_zero() || deposit.is_negative() {
            return Err(Ter::tecAMM_FAILED);
        }
        let per_price = || deposit.to_number() / e_price.to_number();
        let tokens = rounded_lp_tokens_by(lpt, per_price, per_price, Side::Deposit);
        let (tokens, deposit) = adjust_asset_in_by_tokens(bal, &deposit, lpt, &tokens, tfee);
        if v1_3() && tokens.is_zero() {
            return Err(Ter::tecAMM_INVALID_TOKENS);
        }
        self.deposit(bal, &deposit, None, lpt, &tokens, &Limits::default())
    }
}

/// LP tokens out squared with the balance (`adjustLPTokensOut`: fixAMMv1_3 only).
fn adjust_out(lpt: &Amount, tokens: &Amount) -> Amount {
    if v1_3() {
        adjust_lp_tokens(lpt, tokens, Side::Deposit)
    } else {
        *tokens
    }
}

/// Tokens that came to zero: `tecAMM_INVALID_TOKENS` under fixAMMv1_3, `tecAMM_FAILED`
/// before it.
fn zero_tokens() -> Ter {
    if v1_3() {
        Ter::tecAMM_INVALID_TOKENS
    } else {
        Ter::tecAMM_FAILED
    }
}

/// The minimums of `deposit` (`depositMin`, `deposit2Min`, `lpTokensDepositMin`).
#[derive(Default)]
struct Limits {
    amount: Option<Amount>,
    amount2: Option<Amount>,
    tokens: Option<Amount>,
}

/// The LP token issue of the pool `a` / `b` whose pseudo-account is `amm`.
pub fn lp_issue(a: &Issue, b: &Issue, amm: &AccountId) -> Issue {
    Issue {
        currency: super::lpt_currency(&a.currency, &b.currency),
        issuer: *amm,
    }
}
