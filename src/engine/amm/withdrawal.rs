//! How AMMWithdraw and AMMClawback take assets out of a pool (rippled `AMMWithdraw::withdraw`
//! and `deleteAMMAccountIfEmpty`): a [`Withdrawal`] of one or both assets for LP tokens,
//! and deleting the AMM its last LP left.

use std::cmp::Ordering;

use super::amm_math::{
    adjust_amounts_by_lp_tokens, adjust_asset_out_by_tokens, adjust_lp_tokens, amm_asset_out, cmp,
    faulted, frac_by_tokens, get_fee, lp_tokens_in, rounded_asset, rounded_asset_by,
    rounded_lp_tokens, rounded_lp_tokens_by, st_divide, v1_3, Side,
};
use super::{amm_holds, caught_as_internal, delete_amm_account, lp_holds, AmmEntry};
use crate::engine::sandbox::Sandbox;
use crate::engine::ter::Ter;
use crate::ledger::keylet;
use crate::ledger::sf::{sf, StExt};
use crate::protocol::amount::Amount;
use crate::protocol::features::Feature;
use crate::protocol::number::Number;
use crate::protocol::st::{StObject, StValue};
use crate::protocol::types::{AccountId, Issue};

/// Deletes the AMM when its last LP left (`deleteAMMAccountIfEmpty`); an AMM with too
/// many lines to delete at once stays, empty, for AMMDelete.
pub fn delete_if_empty(
    sb: &mut Sandbox,
    amm: &AmmEntry,
    mut sle: StObject,
    balance: Amount,
) -> Result<(), Ter> {
    let keep = if balance.is_zero() {
        match delete_amm_account(sb, &amm.asset, &amm.asset2) {
            Ok(()) => false,
            Err(Ter::tecINCOMPLETE) => true,
            Err(t) => return Err(t),
        }
    } else {
        true
    };
    if keep {
        sle.set(sf().lp_token_balance, StValue::Amount(balance));
        sb.update(amm.key, sle);
    }
    Ok(())
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
    /// A trust line the withdrawal creates needs no reserve (AMMClawback under
    /// fixCleanup3_4_0: a holder cannot dodge a clawback by staying under its reserve).
    pub reserve_free: bool,
}

impl Withdrawal<'_, '_, '_> {
    /// A trust line to the issuer of `issue` would be created: the LP must afford its
    /// reserve (only under fixAMMv1_2; free below two owned entries, as TrustSet).
    fn reserve_for(&self, issue: &Issue) -> Ter {
        if !self.sb.info().rules.enabled(Feature::FixAMMv1_2)
            || self.reserve_free
            || issue.is_xrp()
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
            self.sb.info().fees.reserve_of(&root, 1, 0)
        };
        let balance = root.drops_of(sf().balance);
        if self.prior_balance.max(balance) < reserve {
            return Ter::tecINSUFFICIENT_RESERVE;
        }
        Ter::tesSUCCESS
    }

    /// Pays the assets out and takes the LP tokens back (`AMMWithdraw::withdraw`);
    /// `balance` is the pool's balance of `amount`'s asset.
    pub fn withdraw(
        &mut self,
        balance: &Amount,
        amount: &Amount,
        amount2: Option<Amount>,
        lpt: &Amount,
        tokens: &Amount,
    ) -> Withdrawn {
        let (amount, amount2, tokens) = if self.all {
            (*amount, amount2, *tokens)
        } else {
            let amounts = (*amount, amount2);
            adjust_amounts_by_lp_tokens(balance, amounts, lpt, tokens, self.tfee, Side::Withdraw)
        };
        let (amount, tokens) = (&amount, &tokens);
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
        // fixAMMv1_1: more tokens than the pool's balance cannot happen once the last LP's
        // remainder is squared; before it the checks below decide.
        let fixed = self.sb.info().rules.enabled(Feature::FixAMMv1_1);
        if fixed && cmp(tokens, lpt) == Ordering::Greater {
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
            self.reserve_for(&a.issue()).into_result()?;
            crate::engine::funds::account_send(self.sb, &pool, &account, &a)?;
        }
        crate::engine::funds::account_send(self.sb, &account, &pool, tokens)?;
        Ok((lpt.sub_in_current_mode(tokens), *amount, amount2))
    }

    /// Tokens to redeem after 16-digit rounding (`adjustLPTokensIn`: fixAMMv1_3), except
    /// when every token goes.
    fn tokens_in(&self, lpt: &Amount, tokens: &Amount) -> Amount {
        if self.all || !v1_3() {
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
        caught_as_internal(|| self.equal_tokens_guts(bal1, bal2, lpt, tokens))
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
            return self.withdraw(bal1, bal1, Some(*bal2), lpt, tokens);
        }
        let tokens = self.tokens_in(lpt, tokens);
        if v1_3() && tokens.is_zero() {
            return Err(Ter::tecAMM_INVALID_TOKENS);
        }
        let frac = st_divide(&tokens, lpt, &lpt.issue()).to_number();
        let a1 = rounded_asset(bal1, frac, Side::Withdraw);
        let a2 = rounded_asset(bal2, frac, Side::Withdraw);
        if a1.is_zero() || a2.is_zero() {
            return Err(Ter::tecAMM_FAILED);
        }
        self.withdraw(bal1, &a1, Some(a2), lpt, &tokens)
    }

    /// tfTwoAsset: both assets in proportion, each within its amount
    /// (`equalWithdrawLimit`).
    pub fn equal_limit(
        &mut self,
        bal1: &Amount,
        bal2: &Amount,
        lpt: &Amount,
        amount: &Amount,
        amount2: &Amount,
    ) -> Result<Amount, Ter> {
        let frac = amount.to_number() / bal1.to_number();
        let tokens = rounded_lp_tokens(lpt, frac, Side::Withdraw);
        if v1_3() && tokens.is_zero() {
            return Err(Ter::tecAMM_INVALID_TOKENS);
        }
        let frac = frac_by_tokens(lpt, &tokens, frac);
        let w2 = rounded_asset(bal2, frac, Side::Withdraw);
        if cmp(&w2, amount2) != Ordering::Greater {
            return self
                .withdraw(bal1, amount, Some(w2), lpt, &tokens)
                .map(|r| r.0);
        }
        let frac = amount2.to_number() / bal2.to_number();
        let tokens = rounded_lp_tokens(lpt, frac, Side::Withdraw);
        if v1_3() && tokens.is_zero() {
            return Err(Ter::tecAMM_INVALID_TOKENS);
        }
        let frac = frac_by_tokens(lpt, &tokens, frac);
        let w1 = rounded_asset(bal1, frac, Side::Withdraw);
        // Before fixAMMv1_3 rippled only asserts this (a debug-build check).
        if v1_3() && cmp(&w1, amount) == Ordering::Greater {
            return Err(Ter::tecAMM_FAILED);
        }
        self.withdraw(bal1, &w1, Some(*amount2), lpt, &tokens)
            .map(|r| r.0)
    }

    /// tfSingleAsset: one asset, LP tokens by equation 7 (`singleWithdraw`).
    pub fn single(&mut self, bal: &Amount, lpt: &Amount, amount: &Amount) -> Result<Amount, Ter> {
        let tokens = self.tokens_in(lpt, &lp_tokens_in(bal, amount, lpt, self.tfee));
        if tokens.is_zero() {
            return Err(if v1_3() {
                Ter::tecAMM_INVALID_TOKENS
            } else {
                Ter::tecAMM_FAILED
            });
        }
        let (tokens, out) = adjust_asset_out_by_tokens(bal, amount, lpt, &tokens, self.tfee);
        if v1_3() && tokens.is_zero() {
            return Err(Ter::tecAMM_INVALID_TOKENS);
        }
        self.withdraw(bal, &out, None, lpt, &tokens).map(|r| r.0)
    }

    /// tfOneAssetLPToken / tfOneAssetWithdrawAll: one asset for the tokens, by
    /// equation 8, at least Amount (`singleWithdrawTokens`).
    pub fn single_tokens(
        &mut self,
        bal: &Amount,
        lpt: &Amount,
        amount: &Amount,
        tokens: &Amount,
    ) -> Result<Amount, Ter> {
        let tokens = self.tokens_in(lpt, tokens);
        if v1_3() && tokens.is_zero() {
            return Err(Ter::tecAMM_INVALID_TOKENS);
        }
        let out = amm_asset_out(bal, lpt, &tokens, self.tfee);
        if amount.is_zero() || cmp(&out, amount) != Ordering::Less {
            return self.withdraw(bal, &out, None, lpt, &tokens).map(|r| r.0);
        }
        Err(Ter::tecAMM_FAILED)
    }

    /// tfLimitLPToken: one asset, at an effective price of at least EPrice
    /// (`singleWithdrawEPrice`).
    pub fn single_eprice(
        &mut self,
        bal: &Amount,
        lpt: &Amount,
        amount: &Amount,
        e_price: &Amount,
    ) -> Result<Amount, Ter> {
        let ae = bal.to_number() * e_price.to_number();
        let f = get_fee(self.tfee);
        let t = lpt.to_number();
        let denom = t * f - ae;
        // fixCleanup3_3_0: at `EPrice = T*f/A` the formula would divide by zero (a
        // throw in rippled before, `tefEXCEPTION`).
        if denom == Number::from(0) && self.sb.info().rules.enabled(Feature::FixCleanup3_3_0) {
            return Err(Ter::tecAMM_FAILED);
        }
        let no_round = || t * (t + ae * (f - Number::from(2))) / denom;
        let product = || (t + ae * (f - Number::from(2))) / denom;
        let tokens = rounded_lp_tokens_by(lpt, no_round, product, Side::Withdraw);
        if tokens.is_zero() || tokens.is_negative() {
            return Err(if v1_3() {
                Ter::tecAMM_INVALID_TOKENS
            } else {
                Ter::tecAMM_FAILED
            });
        }
        let per_price = || tokens.to_number() / e_price.to_number();
        let out = rounded_asset_by(amount, per_price, per_price, Side::Withdraw);
        if amount.is_zero() || cmp(&out, amount) != Ordering::Less {
            return self.withdraw(bal, &out, None, lpt, &tokens).map(|r| r.0);
        }
        Err(Ter::tecAMM_FAILED)
    }
}
