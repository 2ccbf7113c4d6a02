//! What the three check transactions share (rippled `CreateCheck.cpp`, `CashCheck.cpp`,
//! `CancelCheck.cpp`): expiry, freezes on the lines a check involves, the funds its
//! writer has, and taking a check out of the ledger.

pub mod check_cancel;
pub mod check_cash;
pub mod check_create;

use super::directory::remove_owned;
use super::entry::release;
use super::funds::{deep_frozen, frozen, lp_tokens_frozen_for, xrp_liquid};
use super::ripple::balance_for;
use super::sandbox::Sandbox;
use super::ter::Ter;
use crate::ledger::flags::lt;
use crate::ledger::keylet;
use crate::ledger::sf::{sf, StExt};
use crate::ledger::view::ReadView;
use crate::protocol::amount::{Amount, IouValue};
use crate::protocol::st::StObject;
use crate::protocol::types::{AccountId, Hash256};

/// rippled's `hasExpired`: an Expiration at or before the parent ledger's close time.
pub fn expired(view: &dyn ReadView, expiration: Option<u32>) -> bool {
    expiration.is_some_and(|e| e <= view.info().parent_close_time)
}

/// CheckCash's and CheckCancel's CheckID: absent is malformed, and so, under
/// fixCleanup3_3_0, is the zero ID (rippled `CheckCash::preflight`,
/// `CheckCancel::preflight`).
pub fn check_id_malformed(tx: &StObject) -> bool {
    match tx.h256_of(sf().check_id) {
        None => true,
        Some(id) => {
            id.is_zero()
                && crate::ledger::rules::enabled_now(
                    crate::protocol::features::Feature::FixCleanup3_3_0,
                )
        }
    }
}

/// The check at `key`, if that key holds one.
pub fn check_at(view: &dyn ReadView, key: &Hash256) -> Option<StObject> {
    view.read(key)
        .filter(|c| c.u16_of(sf().ledger_entry_type) == Some(lt::CHECK))
        .map(|c| (*c).clone())
}

/// What `account` can pay of `amount`'s issue: XRP above the reserve, its own issue without
/// bound, or what it holds on an unfrozen line (rippled `accountFunds`, zero if frozen,
/// which under fixFrozenLPTokenTransfer includes an AMM's LP tokens whose asset is frozen).
pub fn funds(view: &dyn ReadView, account: &AccountId, amount: &Amount) -> Amount {
    match amount {
        Amount::Xrp(_) => Amount::Xrp(xrp_liquid(view, account, 0)),
        Amount::Iou {
            currency, issuer, ..
        } => {
            let held = if account == issuer {
                return *amount;
            } else if frozen(view, account, issuer, currency)
                || deep_frozen(view, account, issuer, currency)
                || lp_tokens_frozen_for(view, account, issuer)
            {
                IouValue::ZERO
            } else {
                view.read(&keylet::line(account, issuer, currency))
                    .map(|l| balance_for(&l, account, issuer))
                    .filter(|b| b.signum() > 0)
                    .unwrap_or(IouValue::ZERO)
            };
            Amount::iou(held, *currency, *issuer)
        }
    }
}

/// Takes a check out of both owner directories and the ledger, one owner count less for
/// its writer (and for the sponsor of its reserve, when it has one).
pub fn remove_check(sb: &mut Sandbox, key: &Hash256, check: &StObject) -> Ter {
    let s = sf();
    let (Some(src), Some(dst)) = (check.account_of(s.account), check.account_of(s.destination))
    else {
        return Ter::tefBAD_LEDGER;
    };
    if let Some(page) = check.u64_of(s.destination_node) {
        if !remove_owned(sb, &dst, page, key, true) {
            return Ter::tefBAD_LEDGER;
        }
    }
    let page = check.u64_of(s.owner_node).unwrap_or(0);
    if !remove_owned(sb, &src, page, key, true) {
        return Ter::tefBAD_LEDGER;
    }
    release(sb, &src, check, 1);
    sb.erase(*key);
    Ter::tesSUCCESS
}

/// A positive, legal amount in a currency other than the reserved "XRP" code.
pub fn good_amount(a: &Amount) -> Result<(), Ter> {
    match a {
        Amount::Xrp(d) if *d > 0 && d.unsigned_abs() <= crate::protocol::amount::DROPS_MAX => {
            Ok(())
        }
        Amount::Iou { currency, .. } if currency.is_xrp() => Err(Ter::temBAD_CURRENCY),
        Amount::Iou { value, .. } if value.signum() > 0 => Ok(()),
        _ => Err(Ter::temBAD_AMOUNT),
    }
}
