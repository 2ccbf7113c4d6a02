//! AMMWithdraw (rippled `AMMWithdraw.cpp`, fixAMMv1_1..v1_3 rounding): LP tokens back
//! for pool assets, in one of seven modes chosen by one flag of [`tf::WITHDRAW_SUB_TX`]:
//! - `tfLPToken`: LPTokenIn, both assets in proportion;
//! - `tfWithdrawAll`: every LP token held, both assets;
//! - `tfOneAssetWithdrawAll`: every LP token held, one asset (Amount as a minimum);
//! - `tfSingleAsset`: Amount of one asset;
//! - `tfTwoAsset`: both assets up to Amount and Amount2;
//! - `tfOneAssetLPToken`: LPTokenIn for one asset (Amount as a minimum);
//! - `tfLimitLPToken`: one asset at an effective price of at least EPrice.
//!
//! The last LP out empties the AMM, which is deleted (or left empty for AMMDelete when
//! it has too many trust lines).

use std::cmp::Ordering;

use super::amm_math::{
    adjust_asset_out_by_tokens, adjust_lp_tokens, amm_asset_out, cmp, faulted, frac_by_tokens,
    get_fee, lp_tokens_in, num, rounded_asset, rounded_asset_by, rounded_lp_tokens,
    rounded_lp_tokens_by, st_divide, sub, Side,
};
use super::{
    amm_holds, delete_amm_account, invalid_amm_amount, is_individual_frozen, lp_holds,
    preflight_mode, tf, trading_fee, tx_amm, verify_and_adjust_lp_balance, AmmEntry, ModeAmounts,
};
use crate::engine::funds::{frozen_issue, require_auth};
use crate::engine::sandbox::Sandbox;
use crate::engine::ter::Ter;
use crate::engine::transactor::ApplyContext;
use crate::ledger::keylet;
use crate::ledger::sf::{sf, StExt};
use crate::ledger::view::ReadView;
use crate::protocol::amount::Amount;
use crate::protocol::number::Number;
use crate::protocol::st::{StObject, StValue};
use crate::protocol::types::{AccountId, Issue};

/// The optional fields of a withdrawal.
struct Fields {
    amount: Option<Amount>,
    amount2: Option<Amount>,
    e_price: Option<Amount>,
    lp_tokens: Option<Amount>,
}

fn fields(tx: &StObject) -> Fields {
    let s = sf();
    Fields {
        amount: tx.amount_of(s.amount),
        amount2: tx.amount_of(s.amount2),
        e_price: tx.amount_of(s.e_price),
        lp_tokens: tx.amount_of(s.lp_token_in),
    }
}

/// The fields each mode takes: false for a combination rippled refuses.
fn fields_fit_mode(flags: u32, f: &Fields) -> bool {
    let (a, a2, ep, lp) = (
        f.amount.is_some(),
        f.amount2.is_some(),
        f.e_price.is_some(),
        f.lp_tokens.is_some(),
    );
    if flags & tf::LP_TOKEN != 0 {
        lp && !a && !a2 && !ep
    } else if flags & tf::WITHDRAW_ALL != 0 {
        !lp && !a && !a2 && !ep
    } else if flags & (tf::ONE_ASSET_WITHDRAW_ALL | tf::SINGLE_ASSET) != 0 {
        a && !lp && !a2 && !ep
    } else if flags & tf::TWO_ASSET != 0 {
        a && a2 && !lp && !ep
    } else if flags & tf::ONE_ASSET_LP_TOKEN != 0 {
        a && lp && !a2 && !ep
    } else {
        a && ep && !lp && !a2
    }
}

/// Every LP token held is withdrawn (`isWithdrawAll`).
fn withdraw_all(flags: u32) -> bool {
    flags & (tf::WITHDRAW_ALL | tf::ONE_ASSET_WITHDRAW_ALL) != 0
}

/// preflight.
pub fn preflight(tx: &StObject, _account: &AccountId) -> Ter {
    let f = fields(tx);
    let named = ModeAmounts {
        amount: f.amount.as_ref(),
        amount2: f.amount2.as_ref(),
        lp_tokens: f.lp_tokens.as_ref(),
    };
    let flags = tx.flags();
    let pair = match preflight_mode(
        tx,
        tf::WITHDRAW_SUB_TX,
        |fl| fields_fit_mode(fl, &f),
        &named,
    ) {
        Ok(p) => Some(p),
        Err(t) => return t,
    };
    if let Some(a) = &f.amount {
        let zero_ok = flags & (tf::ONE_ASSET_WITHDRAW_ALL | tf::ONE_ASSET_LP_TOKEN) != 0
            || f.e_price.is_some();
        let t = invalid_amm_amount(a, pair, zero_ok);
        if t != Ter::tesSUCCESS {
            return t;
        }
    }
    if let Some(a) = &f.amount2 {
        let t = invalid_amm_amount(a, pair, false);
        if t != Ter::tesSUCCESS {
            return t;
        }
    }
    if let Some(ep) = &f.e_price {
        let t = invalid_amm_amount(ep, None, false);
        if t != Ter::tesSUCCESS {
            return t;
        }
    }
    Ter::tesSUCCESS
}

/// One asset asked for: within the pool, authorized, neither line frozen.
fn check_amount(
    view: &dyn ReadView,
    amm: &AmmEntry,
    account: &AccountId,
    amount: &Amount,
    balance: &Amount,
) -> Ter {
    if cmp(amount, balance) == Ordering::Greater {
        return Ter::tecAMM_BALANCE;
    }
    let issue = amount.issue();
    let t = require_auth(view, &issue, account);
    if t != Ter::tesSUCCESS {
        return t;
    }
    if frozen_issue(view, &amm.account, &issue) || is_individual_frozen(view, account, &issue) {
        return Ter::tecFROZEN;
    }
    Ter::tesSUCCESS
}

/// preclaim.
pub fn preclaim(view: &dyn ReadView, tx: &StObject, account: &AccountId) -> Ter {
    let Some((amm, _)) = tx_amm(view, tx) else {
        return Ter::terNO_AMM;
    };
    let f = fields(tx);
    let holds = amm_holds(
        view,
        &amm,
        f.amount.map(|a| a.issue()),
        f.amount2.map(|a| a.issue()),
        false,
    );
    let (bal1, bal2, lpt) = match holds {
        Ok(b) => b,
        Err(t) => return t,
    };
    if lpt.is_zero() {
        return Ter::tecAMM_EMPTY;
    }
    let positive = |a: &Amount| !a.is_zero() && !a.is_negative();
    if !positive(&bal1) || !positive(&bal2) || lpt.is_negative() {
        return Ter::tecINTERNAL;
    }
    for (a, b) in [(f.amount, &bal1), (f.amount2, &bal2)] {
        let Some(a) = a else { continue };
        let t = check_amount(view, &amm, account, &a, b);
        if t != Ter::tesSUCCESS {
            return t;
        }
    }
    let held = lp_holds(view, &amm, account);
    let withdrawn = if withdraw_all(tx.flags()) {
        Some(held)
    } else {
        f.lp_tokens
    };
    if held.is_zero() || held.is_negative() {
        return Ter::tecAMM_BALANCE;
    }
    if let Some(w) = &withdrawn {
        if w.issue() != held.issue() {
            return Ter::temBAD_AMM_TOKENS;
        }
        if cmp(w, &held) == Ordering::Greater {
            return Ter::tecAMM_INVALID_TOKENS;
        }
    }
    if f.e_price.is_some_and(|ep| ep.issue() != held.issue()) {
        return Ter::temBAD_AMM_TOKENS;
    }
    if tx.flags() & (tf::LP_TOKEN | tf::WITHDRAW_ALL) != 0 {
        for b in [&bal1, &bal2] {
            let t = check_amount(view, &amm, account, b, b);
            if t != Ter::tesSUCCESS {
                return t;
            }
        }
    }
    Ter::tesSUCCESS
}

/// doApply. A fault is an exception: inside `equalWithdrawTokens` (tfLPToken,
/// tfWithdrawAll) rippled catches it as `tecINTERNAL` ([`Withdrawal::equal_tokens`]);
/// in every other mode nothing does (`tefEXCEPTION`).
pub fn do_apply(ctx: &mut ApplyContext) -> Ter {
    let t = apply(ctx);
    if faulted() {
        return Ter::tefEXCEPTION;
    }
    t
}

fn apply(ctx: &mut ApplyContext) -> Ter {
    let Some((mut amm, sle)) = tx_amm(&ctx.sb, ctx.tx) else {
        return Ter::tecINTERNAL;
    };
    let mut sle = (*sle).clone();
    let account = ctx.account;
    let t = verify_and_adjust_lp_balance(&mut ctx.sb, &mut amm, &mut sle, &account);
    if t != Ter::tesSUCCESS {
        return t;
    }
    let tfee = trading_fee(&ctx.sb, &sle, &account);
    let f = fields(ctx.tx);
    let holds = amm_holds(
        &ctx.sb,
        &amm,
        f.amount.map(|a| a.issue()),
        f.amount2.map(|a| a.issue()),
        true,
    );
    let (bal1, bal2, lpt) = match holds {
        Ok(b) => b,
        Err(t) => return t,
    };
    let held = lp_holds(&ctx.sb, &amm, &account);
    let flags = ctx.tx.flags();
    let all = withdraw_all(flags);
    let tokens_asked = if all { Some(held) } else { f.lp_tokens };
    let mut w = Withdrawal {
        sb: &mut ctx.sb,
        amm: &amm,
        account,
        tfee,
        all,
        prior_balance: ctx.prior_balance,
        ignore_freeze: false,
    };
    let result = match (f.amount, f.amount2, f.e_price, tokens_asked) {
        (Some(a), Some(a2), _, _) if flags & tf::TWO_ASSET != 0 => {
            w.equal_limit(&bal1, &bal2, &lpt, &a, &a2)
        }
        (Some(a), _, _, Some(t))
            if flags & (tf::ONE_ASSET_LP_TOKEN | tf::ONE_ASSET_WITHDRAW_ALL) != 0 =>
        {
            w.single_tokens(&bal1, &lpt, &a, &t)
        }
        (Some(a), _, Some(ep), _) if flags & tf::LIMIT_LP_TOKEN != 0 => {
            w.single_eprice(&bal1, &lpt, &a, &ep)
        }
        (Some(a), _, _, _) if flags & tf::SINGLE_ASSET != 0 => w.single(&bal1, &lpt, &a),
        (_, _, _, Some(t)) if flags & (tf::LP_TOKEN | tf::WITHDRAW_ALL) != 0 => w
            .equal_tokens(&bal1, &bal2, &lpt, &t)
            .map(|(balance, _, _)| balance),
        _ => Err(Ter::tecINTERNAL),
    };
    let new_balance = match result {
        Ok(b) => b,
        Err(t) => return t,
    };
    delete_if_empty(&mut ctx.sb, &amm, sle, new_balance)
}

/// Deletes the AMM when its last LP left (`deleteAMMAccountIfEmpty`); an AMM with too
/// many lines to delete at once stays, empty, for AMMDelete.
pub fn delete_if_empty(
    sb: &mut Sandbox,
    amm: &AmmEntry,
    mut sle: StObject,
    balance: Amount,
) -> Ter {
    let mut keep = true;
    if balance.is_zero() {
        let t = delete_amm_account(sb, &amm.asset, &amm.asset2);
        if t != Ter::tesSUCCESS && t != Ter::tecINCOMPLETE {
            return t;
        }
        keep = t == Ter::tecINCOMPLETE;
    }
    if keep {
        sle.set(sf().lp_token_balance, StValue::Amount(balance));
        sb.update(amm.key, sle);
    }
    Ter::tesSUCCESS
}

/// What a withdrawal moves: the new LP token balance and the assets paid out.
pub type Withdrawn = Result<(Amount, Amount, Option<Amount>), Ter>;

/// A withdrawal in progress: the LP, its pool and fee, and its XRP before the fee (for
/// the reserve of a new trust line).
pub struct Withdrawal<'s, 'a, 'm> {
    /// The change set.
    pub sb: &'s mut Sandbox<'a>,
    /// The AMM.
    pub amm: &'m AmmEntry,
    /// The liquidity provider.
    pub account: AccountId,
    /// Its trading fee.
    pub tfee: u16,
    /// Every LP token it holds goes (no token rounding).
    pub all: bool,
    /// Its XRP balance before the transaction fee.
    pub prior_balance: i64,
    /// Read the pool's balances through freezes (AMMClawback).
    pub ignore_freeze: bool,
}

impl Withdrawal<'_, '_, '_> {
    /// A trust line to the issuer of `issue` would be created: the LP must afford its
    /// reserve (fixAMMv1_2; free below two owned entries, as TrustSet).
    fn reserve_for(&self, issue: &Issue) -> Ter {
        if issue.is_xrp()
            || self
                .sb
                .exists(&keylet::line(&self.account, &issue.issuer, &issue.currency))
        {
            return Ter::tesSUCCESS;
        }
        let Some(root) = self.sb.peek(&keylet::account(&self.account)) else {
            return Ter::tecINTERNAL;
        };
        let owners = root.u32_of(sf().owner_count).unwrap_or(0);
        let reserve = if owners < 2 {
            0
        } else {
            self.sb
                .info()
                .fees
                .account_reserve(owners.saturating_add(1))
        };
        let balance = root.drops_of(sf().balance);
        if self.prior_balance.max(balance) < reserve {
            return Ter::tecINSUFFICIENT_RESERVE;
        }
        Ter::tesSUCCESS
    }

    /// Pays the assets out and takes the LP tokens back (`AMMWithdraw::withdraw`).
    pub fn withdraw(
        &mut self,
        amount: &Amount,
        amount2: Option<Amount>,
        lpt: &Amount,
        tokens: &Amount,
    ) -> Withdrawn {
        let held = lp_holds(self.sb, self.amm, &self.account);
        let (cur1, cur2, _) = amm_holds(
            self.sb,
            self.amm,
            Some(amount.issue()),
            None,
            !self.ignore_freeze,
        )?;
        if tokens.is_zero() || tokens.is_negative() || cmp(tokens, &held) == Ordering::Greater {
            return Err(Ter::tecAMM_INVALID_TOKENS);
        }
        if cmp(tokens, lpt) == Ordering::Greater {
            return Err(Ter::tecINTERNAL);
        }
        let eq2 = amount2.is_some_and(|a| a == cur2);
        if (*amount == cur1 && !eq2) || (eq2 && *amount != cur1) {
            return Err(Ter::tecAMM_BALANCE);
        }
        if tokens == lpt && (*amount != cur1 || !eq2) {
            return Err(Ter::tecAMM_BALANCE);
        }
        let over2 = amount2.is_some_and(|a| cmp(&a, &cur2) == Ordering::Greater);
        if cmp(amount, &cur1) == Ordering::Greater || over2 {
            return Err(Ter::tecAMM_BALANCE);
        }
        let (pool, account) = (self.amm.account, self.account);
        for a in std::iter::once(*amount).chain(amount2) {
            let t = self.reserve_for(&a.issue());
            if t != Ter::tesSUCCESS {
                return Err(t);
            }
            let t = crate::engine::funds::account_send(self.sb, &pool, &account, &a);
            if t != Ter::tesSUCCESS {
                return Err(t);
            }
        }
        let t = crate::engine::funds::account_send(self.sb, &account, &pool, tokens);
        if t != Ter::tesSUCCESS {
            return Err(t);
        }
        Ok((sub(lpt, tokens), *amount, amount2))
    }

    /// Tokens to redeem after 16-digit rounding (`adjustLPTokensIn`), except when every
    /// token goes.
    fn tokens_in(&self, lpt: &Amount, tokens: &Amount) -> Amount {
        if self.all {
            *tokens
        } else {
            adjust_lp_tokens(lpt, tokens, Side::Withdraw)
        }
    }

    /// tfLPToken / tfWithdrawAll: both assets in proportion (`equalWithdrawTokens`).
    pub fn equal_tokens(
        &mut self,
        bal1: &Amount,
        bal2: &Amount,
        lpt: &Amount,
        tokens: &Amount,
    ) -> Withdrawn {
        // rippled's `try`: what threw before it is not caught here.
        if faulted() {
            return Err(Ter::tefEXCEPTION);
        }
        let r = self.equal_tokens_guts(bal1, bal2, lpt, tokens);
        if faulted() {
            return Err(Ter::tecINTERNAL);
        }
        r
    }

    fn equal_tokens_guts(
        &mut self,
        bal1: &Amount,
        bal2: &Amount,
        lpt: &Amount,
        tokens: &Amount,
    ) -> Withdrawn {
        if tokens == lpt {
            self.all = true;
            return self.withdraw(bal1, Some(*bal2), lpt, tokens);
        }
        let tokens = self.tokens_in(lpt, tokens);
        if tokens.is_zero() {
            return Err(Ter::tecAMM_INVALID_TOKENS);
        }
        let frac = num(&st_divide(&tokens, lpt, &lpt.issue()));
        let a1 = rounded_asset(bal1, frac, Side::Withdraw);
        let a2 = rounded_asset(bal2, frac, Side::Withdraw);
        if a1.is_zero() || a2.is_zero() {
            return Err(Ter::tecAMM_FAILED);
        }
        self.withdraw(&a1, Some(a2), lpt, &tokens)
    }

    /// tfTwoAsset: both assets in proportion, each within its amount
    /// (`equalWithdrawLimit`).
    fn equal_limit(
        &mut self,
        bal1: &Amount,
        bal2: &Amount,
        lpt: &Amount,
        amount: &Amount,
        amount2: &Amount,
    ) -> Result<Amount, Ter> {
        let frac = num(amount) / num(bal1);
        let tokens = rounded_lp_tokens(lpt, frac, Side::Withdraw);
        if tokens.is_zero() {
            return Err(Ter::tecAMM_INVALID_TOKENS);
        }
        let frac = frac_by_tokens(lpt, &tokens);
        let w2 = rounded_asset(bal2, frac, Side::Withdraw);
        if cmp(&w2, amount2) != Ordering::Greater {
            return self.withdraw(amount, Some(w2), lpt, &tokens).map(|r| r.0);
        }
        let frac = num(amount2) / num(bal2);
        let tokens = rounded_lp_tokens(lpt, frac, Side::Withdraw);
        if tokens.is_zero() {
            return Err(Ter::tecAMM_INVALID_TOKENS);
        }
        let frac = frac_by_tokens(lpt, &tokens);
        let w1 = rounded_asset(bal1, frac, Side::Withdraw);
        if cmp(&w1, amount) == Ordering::Greater {
            return Err(Ter::tecAMM_FAILED);
        }
        self.withdraw(&w1, Some(*amount2), lpt, &tokens)
            .map(|r| r.0)
    }

    /// tfSingleAsset: one asset, LP tokens by equation 7 (`singleWithdraw`).
    fn single(&mut self, bal: &Amount, lpt: &Amount, amount: &Amount) -> Result<Amount, Ter> {
        let tokens = self.tokens_in(lpt, &lp_tokens_in(bal, amount, lpt, self.tfee));
        if tokens.is_zero() {
            return Err(Ter::tecAMM_INVALID_TOKENS);
        }
        let (tokens, out) = adjust_asset_out_by_tokens(bal, amount, lpt, &tokens, self.tfee);
        if tokens.is_zero() {
            return Err(Ter::tecAMM_INVALID_TOKENS);
        }
        self.withdraw(&out, None, lpt, &tokens).map(|r| r.0)
    }

    /// tfOneAssetLPToken / tfOneAssetWithdrawAll: one asset for the tokens, by
    /// equation 8, at least Amount (`singleWithdrawTokens`).
    fn single_tokens(
        &mut self,
        bal: &Amount,
        lpt: &Amount,
        amount: &Amount,
        tokens: &Amount,
    ) -> Result<Amount, Ter> {
        let tokens = self.tokens_in(lpt, tokens);
        if tokens.is_zero() {
            return Err(Ter::tecAMM_INVALID_TOKENS);
        }
        let out = amm_asset_out(bal, lpt, &tokens, self.tfee);
        if amount.is_zero() || cmp(&out, amount) != Ordering::Less {
            return self.withdraw(&out, None, lpt, &tokens).map(|r| r.0);
        }
        Err(Ter::tecAMM_FAILED)
    }

    /// tfLimitLPToken: one asset, at an effective price of at least EPrice
    /// (`singleWithdrawEPrice`).
    fn single_eprice(
        &mut self,
        bal: &Amount,
        lpt: &Amount,
        amount: &Amount,
        e_price: &Amount,
    ) -> Result<Amount, Ter> {
        let ae = num(bal) * num(e_price);
        let f = get_fee(self.tfee);
        let t = num(lpt);
        let product = || (t + ae * (f - Number::from(2))) / (t * f - ae);
        let tokens = rounded_lp_tokens_by(lpt, product, Side::Withdraw);
        if tokens.is_zero() || tokens.is_negative() {
            return Err(Ter::tecAMM_INVALID_TOKENS);
        }
        let out = rounded_asset_by(amount, || num(&tokens) / num(e_price), Side::Withdraw);
        if amount.is_zero() || cmp(&out, amount) != Ordering::Less {
            return self.withdraw(&out, None, lpt, &tokens).map(|r| r.0);
        }
        Err(Ter::tecAMM_FAILED)
    }
}
