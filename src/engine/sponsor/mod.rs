//! Sponsorship (XLS-68, amendment `Sponsor`): a sponsor pays another account's
//! transaction fees, its account reserve or the reserves of objects it owns, either
//! co-signing each transaction (`SponsorSignature`) or pre-funding a `Sponsorship` entry.
//! This module holds the shared vocabulary: the flag values and the reads every phase and
//! family makes of a transaction's sponsorship fields (rippled's `SponsorHelpers`).

pub mod checks;
pub mod counters;
pub mod fee;
pub mod invariant;
pub mod sponsorship_set;
pub mod sponsorship_transfer;

use crate::engine::tx_type::TxType;
use crate::ledger::sf::{sf, StExt};
use crate::protocol::st::StObject;
use crate::protocol::types::AccountId;

/// `SponsorFlags`: the sponsor pays the transaction fee (`spfSponsorFee`).
pub const SPF_SPONSOR_FEE: u32 = 0x0000_0001;
/// `SponsorFlags`: the sponsor carries the reserves it creates (`spfSponsorReserve`).
pub const SPF_SPONSOR_RESERVE: u32 = 0x0000_0002;
/// Every `SponsorFlags` bit that means something.
pub const SPF_ALL: u32 = SPF_SPONSOR_FEE | SPF_SPONSOR_RESERVE;

/// Payment: the new account's reserve is sponsored (`tfSponsorCreatedAccount`).
pub const TF_SPONSOR_CREATED_ACCOUNT: u32 = 0x0008_0000;

/// SponsorshipSet flags (`tfSponsorshipSetRequireSignForFee` ...).
pub mod set_flags {
    /// Sponsored fees need the sponsor's signature.
    pub const SET_REQUIRE_SIGN_FOR_FEE: u32 = 0x0001_0000;
    /// Sponsored fees no longer need it.
    pub const CLEAR_REQUIRE_SIGN_FOR_FEE: u32 = 0x0002_0000;
    /// Sponsored reserves need the sponsor's signature.
    pub const SET_REQUIRE_SIGN_FOR_RESERVE: u32 = 0x0004_0000;
    /// Sponsored reserves no longer need it.
    pub const CLEAR_REQUIRE_SIGN_FOR_RESERVE: u32 = 0x0008_0000;
    /// Deletes the Sponsorship (`tfDeleteObject`).
    pub const DELETE_OBJECT: u32 = 0x0010_0000;
}

/// SponsorshipTransfer flags: exactly one is set.
pub mod transfer_flags {
    /// The sponsor stops sponsoring the object or account (`tfSponsorshipEnd`).
    pub const END: u32 = 0x0001_0000;
    /// A sponsor takes over an unsponsored object or account (`tfSponsorshipCreate`).
    pub const CREATE: u32 = 0x0002_0000;
    /// Another sponsor takes over (`tfSponsorshipReassign`).
    pub const REASSIGN: u32 = 0x0004_0000;
}

/// Sponsorship entry flags.
pub mod entry_flags {
    /// Sponsored fees need the sponsor's signature
    /// (`lsfSponsorshipRequireSignForFee`).
    pub const REQUIRE_SIGN_FOR_FEE: u32 = 0x0001_0000;
    /// Sponsored reserves need the sponsor's signature
    /// (`lsfSponsorshipRequireSignForReserve`).
    pub const REQUIRE_SIGN_FOR_RESERVE: u32 = 0x0002_0000;
}

/// The transaction's `Sponsor`, when it names one.
pub fn sponsor_of(tx: &StObject) -> Option<AccountId> {
    tx.account_of(sf().sponsor)
}

/// The transaction's `SponsorFlags` (0 when absent).
pub fn sponsor_flags(tx: &StObject) -> u32 {
    tx.u32_of(sf().sponsor_flags).unwrap_or(0)
}

/// The sponsor paying the transaction's fee, if it has one.
pub fn fee_sponsor(tx: &StObject) -> Option<AccountId> {
    sponsor_of(tx).filter(|_| sponsor_flags(tx) & SPF_SPONSOR_FEE != 0)
}

/// The sponsor carrying the reserves the transaction creates, if it has one.
pub fn reserve_sponsor(tx: &StObject) -> Option<AccountId> {
    sponsor_of(tx).filter(|_| sponsor_flags(tx) & SPF_SPONSOR_RESERVE != 0)
}

/// Whether the sponsor co-signs (`SponsorSignature` present) rather than pre-funds.
pub fn co_signed(tx: &StObject) -> bool {
    tx.get(sf().sponsor_signature).is_some()
}

/// Whether `spfSponsorReserve` is allowed on `tx_type` (rippled's
/// `isReserveSponsorAllowed`; the types whose objects a sponsor can carry).
pub fn reserve_allowed(tx_type: TxType) -> bool {
    use TxType::*;
    matches!(
        tx_type,
        DelegateSet
            | DepositPreauth
            | Payment
            | SignerListSet
            | CheckCancel
            | CheckCash
            | CheckCreate
            | EscrowCancel
            | EscrowCreate
            | EscrowFinish
            | PaymentChannelClaim
            | PaymentChannelCreate
            | PaymentChannelFund
            | Clawback
            | MPTokenAuthorize
            | MPTokenIssuanceCreate
            | MPTokenIssuanceDestroy
            | MPTokenIssuanceSet
            | TrustSet
            | CredentialAccept
            | CredentialCreate
            | CredentialDelete
            | AccountSet
            | SetRegularKey
            | SponsorshipTransfer
    )
}
