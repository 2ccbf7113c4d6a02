//! fixCleanup3_3_0's freeze checks for an asset moving into or out of a vault's or a loan
//! broker's pseudo-account (rippled `TokenHelpers.cpp`: `checkDepositFreeze`,
//! `checkWithdrawFreeze`; VaultDeposit / VaultWithdraw and LoanBrokerCoverDeposit /
//! CoverWithdraw). Each answers `tecFROZEN` for an issued currency and `tecLOCKED`
//! for an MPT; XRP is never frozen.
//!
//! Before the fix, VaultDeposit and VaultWithdraw asked `isFrozen` of the asset for one
//! account and of the vault's shares for the submitter, and a share is frozen whenever
//! the asset is frozen for the vault's pseudo-account or the submitter: a frozen
//! pseudo-account line of an issued currency came out as `tecLOCKED` (the shares'
//! answer), a holder whose own line was frozen could not withdraw to itself, and nothing
//! could be withdrawn to a globally frozen issuer.

use super::VaultAsset;
use crate::engine::funds;
use crate::engine::ter::Ter;
use crate::ledger::flags::lsf_mpt;
use crate::ledger::sf::StExt;
use crate::ledger::view::ReadView;
use crate::protocol::types::AccountId;

/// The answer for a frozen `asset`.
fn frozen_ter(asset: &VaultAsset) -> Ter {
    match asset {
        VaultAsset::Mpt(_) => Ter::tecLOCKED,
        VaultAsset::Token(_) => Ter::tecFROZEN,
    }
}

fn answer(asset: &VaultAsset, frozen: bool) -> Result<(), Ter> {
    if frozen {
        Err(frozen_ter(asset))
    } else {
        Ok(())
    }
}

/// `checkGlobalFrozen`: the issuer's GlobalFreeze, or the issuance's lock.
fn global(view: &dyn ReadView, asset: &VaultAsset) -> Result<(), Ter> {
    let frozen = match asset {
        VaultAsset::Token(i) => !i.is_xrp() && funds::is_global_frozen(view, &i.issuer),
        VaultAsset::Mpt(id) => {
            crate::engine::mpt::issuance(view, id).is_some_and(|iss| iss.is_flag(lsf_mpt::LOCKED))
        }
    };
    answer(asset, frozen)
}

/// `checkIndividualFrozen`: the issuer froze `account`'s line, or locked its MPToken (a
/// global freeze does not count).
fn individual(view: &dyn ReadView, account: &AccountId, asset: &VaultAsset) -> Result<(), Ter> {
    let frozen = match asset {
        VaultAsset::Token(i) => funds::is_individual_frozen(view, account, i),
        VaultAsset::Mpt(id) => crate::engine::mpt::mptoken(view, id, account)
            .is_some_and(|t| t.is_flag(lsf_mpt::LOCKED)),
    };
    answer(asset, frozen)
}

/// `checkDeepFrozen`: either side deep-froze `account`'s line; for an MPT, frozen at all
/// (a locked MPT neither sends nor receives).
pub fn deep(view: &dyn ReadView, account: &AccountId, asset: &VaultAsset) -> Result<(), Ter> {
    match asset {
        VaultAsset::Token(i) => answer(
            asset,
            funds::deep_frozen(view, account, &i.issuer, &i.currency),
        ),
        VaultAsset::Mpt(_) => {
            global(view, asset)?;
            individual(view, account, asset)
        }
    }
}

/// `checkDepositFreeze`: `src` pays `asset` into the pseudo-account `pseudo`. Refused when
/// the asset is globally frozen, when `src` (unless it issues the asset) is frozen, or
/// when the pseudo-account is: it could not pay a regular-frozen deposit back out.
pub fn check_deposit_freeze(
    view: &dyn ReadView,
    src: &AccountId,
    pseudo: &AccountId,
    asset: &VaultAsset,
) -> Result<(), Ter> {
    global(view, asset)?;
    if asset.issuer() != Some(*src) {
        individual(view, src, asset)?;
    }
    individual(view, pseudo, asset)
}

/// `checkWithdrawFreeze`: `submitter` has the pseudo-account `pseudo` pay `asset` to
/// `dst`. Always allowed to the issuer; otherwise refused when the asset is globally
/// frozen, the pseudo-account is frozen, the submitter is frozen (only when it pays
/// someone else: a regular freeze does not stop a withdrawal to oneself), or `dst` is
/// deep frozen.
pub fn check_withdraw_freeze(
    view: &dyn ReadView,
    pseudo: &AccountId,
    submitter: &AccountId,
    dst: &AccountId,
    asset: &VaultAsset,
) -> Result<(), Ter> {
    if asset.issuer() == Some(*dst) {
        return Ok(());
    }
    global(view, asset)?;
    individual(view, pseudo, asset)?;
    if submitter != dst {
        individual(view, submitter, asset)?;
    }
    deep(view, dst, asset)
}
