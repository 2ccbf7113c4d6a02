//! LendingProtocolV1_1's closed-ended vaults (XLS-65.1.4) and cash-basis accounting
//! (XLS-65.1): a vault's kind, its accounting version and the phase a closed-ended vault
//! is in (rippled `Protocol.h` `VaultKind` / `VaultVersion`, `VaultHelpers.cpp`
//! `getVaultPhase`). Phases are never stored: each is read from the dates and the parent
//! ledger's close time.

use crate::ledger::sf::{sf, StExt};
use crate::ledger::view::ReadView;
use crate::protocol::st::StObject;

/// `VaultKind::OpenEnded`: shares are issued and redeemed at any time.
pub const OPEN_ENDED: u8 = 0;
/// `VaultKind::ClosedEnded`: deposits until `SubscriptionDate`, withdrawals from
/// `RedemptionDate`.
pub const CLOSED_ENDED: u8 = 1;
/// `VaultVersion::CashBasis`, the `LEVersion` every vault created under
/// LendingProtocolV1_1 carries (absent, 0: the accrual accounting of LendingProtocol).
pub const CASH_BASIS: u8 = 1;
/// `kMinInvestmentPeriod`: the least time between the two dates, in seconds.
pub const MIN_INVESTMENT_PERIOD: u64 = 180;
/// `kMaxInvestmentPeriod`: the bound the gap between the two dates stays under.
pub const MAX_INVESTMENT_PERIOD: u64 = 946_708_560;
/// `kLoanRedemptionBuffer`: a loan must mature this many seconds before redemption.
pub const LOAN_REDEMPTION_BUFFER: u64 = 60;

/// Where a vault stands (`VaultPhase`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum VaultPhase {
    /// An open-ended vault (or one of a kind this server does not know).
    NoPhase,
    /// Until and at `SubscriptionDate`: deposits only.
    Subscription,
    /// After `SubscriptionDate`, before `RedemptionDate`: loans only.
    Investment,
    /// From `RedemptionDate`: withdrawals only.
    Redemption,
}

/// The vault's `VaultKind` (soeDEFAULT: absent is open-ended).
pub fn kind(vault: &StObject) -> u8 {
    vault.u8_of(sf().vault_kind).unwrap_or(OPEN_ENDED)
}

/// The vault keeps cash-basis accounts (`LEVersion` 1); every other vault keeps the
/// accrual accounts it was created with, whatever the rules say later.
pub fn is_cash_basis(vault: &StObject) -> bool {
    vault.u8_of(sf().le_version) == Some(CASH_BASIS)
}

/// `hasExpired(..., Exclusive)`: the parent ledger closed strictly after `time`
/// (`loan::has_expired` is the inclusive one).
pub fn has_passed(view: &dyn ReadView, time: u32) -> bool {
    view.info().parent_close_time > time
}

/// `getVaultPhase`: the phase of `vault` at the parent ledger's close time.
pub fn phase(view: &dyn ReadView, vault: &StObject) -> VaultPhase {
    if kind(vault) != CLOSED_ENDED {
        return VaultPhase::NoPhase;
    }
    let s = sf();
    let subscription = vault.u32_of(s.subscription_date).unwrap_or(0);
    let redemption = vault.u32_of(s.redemption_date).unwrap_or(0);
    // The subscription ends when the parent ledger closes after it (`hasExpired`,
    // Exclusive); redemption begins at its date.
    let now = view.info().parent_close_time;
    if now <= subscription {
        VaultPhase::Subscription
    } else if now < redemption {
        VaultPhase::Investment
    } else {
        VaultPhase::Redemption
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::*;
    use crate::ledger::rules::Rules;
    use crate::ledger::state::{stamp, State};
    use crate::ledger::view::{StateView, ViewInfo};
    use crate::protocol::st::StValue;

    fn view_at(parent_close_time: u32) -> StateView {
        let mut info = ViewInfo::open_test(Rules::default());
        info.parent_close_time = parent_close_time;
        StateView::new(Arc::new(State::new()), stamp(1, 0), info)
    }

    fn closed_ended(subscription: u32, redemption: u32) -> StObject {
        let s = sf();
        let mut v = StObject::new();
        v.set(s.vault_kind, StValue::UInt8(CLOSED_ENDED));
        v.set(s.subscription_date, StValue::UInt32(subscription));
        v.set(s.redemption_date, StValue::UInt32(redemption));
        v
    }

    #[test]
    fn a_closed_ended_vault_moves_through_its_phases_at_the_dates() {
        let v = closed_ended(1000, 2000);
        let at = |t| phase(&view_at(t), &v);
        assert_eq!(at(999), VaultPhase::Subscription);
        assert_eq!(at(1000), VaultPhase::Subscription);
        assert_eq!(at(1001), VaultPhase::Investment);
        assert_eq!(at(1999), VaultPhase::Investment);
        assert_eq!(at(2000), VaultPhase::Redemption);
        assert_eq!(at(5000), VaultPhase::Redemption);
    }

    #[test]
    fn an_open_ended_or_unknown_kind_has_no_phase() {
        let mut v = closed_ended(1000, 2000);
        v.set(sf().vault_kind, StValue::UInt8(OPEN_ENDED));
        assert_eq!(phase(&view_at(1500), &v), VaultPhase::NoPhase);
        v.set(sf().vault_kind, StValue::UInt8(7));
        assert_eq!(phase(&view_at(1500), &v), VaultPhase::NoPhase);
        assert_eq!(phase(&view_at(1500), &StObject::new()), VaultPhase::NoPhase);
    }

    #[test]
    fn only_le_version_one_is_cash_basis() {
        let mut v = StObject::new();
        assert!(!is_cash_basis(&v));
        v.set(sf().le_version, StValue::UInt8(CASH_BASIS));
        assert!(is_cash_basis(&v));
        v.set(sf().le_version, StValue::UInt8(2));
        assert!(!is_cash_basis(&v));
    }
}
