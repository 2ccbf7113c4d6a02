//! Ledger-entry flags (`LedgerFormats.h`); the entry types' codes are
//! [`super::entry_types`]'s.

/// LedgerEntryType codes (beside their rows in [`super::entry_types`]).
pub use super::entry_types::lt;

/// Credential flags.
pub mod lsf_credential {
    /// The subject accepted the credential (and owns it since).
    pub const ACCEPTED: u32 = 0x0001_0000;
}

/// MPTokenIssuance and MPToken flags.
pub mod lsf_mpt {
    /// Issuance: every holder is locked; MPToken: this holder is locked.
    pub const LOCKED: u32 = 0x0000_0001;
    /// Issuance: the issuer may lock.
    pub const CAN_LOCK: u32 = 0x0000_0002;
    /// Issuance: holders need the issuer's authorization.
    pub const REQUIRE_AUTH: u32 = 0x0000_0004;
    /// Issuance: may be escrowed.
    pub const CAN_ESCROW: u32 = 0x0000_0008;
    /// Issuance: may be traded on the DEX.
    pub const CAN_TRADE: u32 = 0x0000_0010;
    /// Issuance: holders may pay each other.
    pub const CAN_TRANSFER: u32 = 0x0000_0020;
    /// Issuance: the issuer may claw back.
    pub const CAN_CLAWBACK: u32 = 0x0000_0040;
    /// Issuance: holders may hold confidential balances (ConfidentialTransfer).
    pub const CAN_HOLD_CONFIDENTIAL_BALANCE: u32 = 0x0000_0080;
    /// MPToken: the issuer authorized this holder.
    pub const AUTHORIZED: u32 = 0x0000_0002;
}

/// NFTokenOffer flags, and the flags of the NFToken offer directories' pages.
pub mod lsf_nft {
    /// NFTokenOffer: an offer to sell (else to buy).
    pub const SELL_NFTOKEN: u32 = 0x0000_0001;
    /// DirectoryNode: the buy offers of one NFToken.
    pub const NFTOKEN_BUY_OFFERS: u32 = 0x0000_0001;
    /// DirectoryNode: the sell offers of one NFToken.
    pub const NFTOKEN_SELL_OFFERS: u32 = 0x0000_0002;
}

/// Offer flags.
pub mod lsf_offer {
    /// Placed with tfPassive: does not cross offers of equal quality.
    pub const PASSIVE: u32 = 0x0001_0000;
    /// Placed with tfSell: sells all of TakerGets even for more than TakerPays.
    pub const SELL: u32 = 0x0002_0000;
    /// Placed with tfHybrid: in its domain's book and in the open book (AdditionalBooks).
    pub const HYBRID: u32 = 0x0004_0000;
}

/// AccountRoot flags.
pub mod lsf {
    /// Legacy: the free SetRegularKey was used.
    pub const PASSWORD_SPENT: u32 = 0x0001_0000;
    /// Incoming payments need a destination tag.
    pub const REQUIRE_DEST_TAG: u32 = 0x0002_0000;
    /// Holders of this account's issues need its authorization.
    pub const REQUIRE_AUTH: u32 = 0x0004_0000;
    /// Advisory: the account does not want XRP.
    pub const DISALLOW_XRP: u32 = 0x0008_0000;
    /// The master key may not sign.
    pub const DISABLE_MASTER: u32 = 0x0010_0000;
    /// The account gave up the ability to freeze (permanent).
    pub const NO_FREEZE: u32 = 0x0020_0000;
    /// Every line of this issuer is frozen.
    pub const GLOBAL_FREEZE: u32 = 0x0040_0000;
    /// New lines to this account allow rippling by default.
    pub const DEFAULT_RIPPLE: u32 = 0x0080_0000;
    /// Incoming payments need preauthorization.
    pub const DEPOSIT_AUTH: u32 = 0x0100_0000;
    /// No incoming NFToken offers.
    pub const DISALLOW_INCOMING_NFTOKEN_OFFER: u32 = 0x0400_0000;
    /// No incoming checks.
    pub const DISALLOW_INCOMING_CHECK: u32 = 0x0800_0000;
    /// No incoming payment channels.
    pub const DISALLOW_INCOMING_PAYCHAN: u32 = 0x1000_0000;
    /// No incoming trust lines.
    pub const DISALLOW_INCOMING_TRUSTLINE: u32 = 0x2000_0000;
    /// The issuer may claw back (permanent).
    pub const ALLOW_TRUSTLINE_CLAWBACK: u32 = 0x8000_0000;
    /// Holders may escrow this account's issued currencies (TokenEscrow).
    pub const ALLOW_TRUSTLINE_LOCKING: u32 = 0x4000_0000;

    /// RippleState: the line counts toward the low account's OwnerCount.
    pub const LOW_RESERVE: u32 = 0x0001_0000;
    /// RippleState: the line counts toward the high account's OwnerCount.
    pub const HIGH_RESERVE: u32 = 0x0002_0000;
    /// RippleState: the low account authorized the high account.
    pub const LOW_AUTH: u32 = 0x0004_0000;
    /// RippleState: the high account authorized the low account.
    pub const HIGH_AUTH: u32 = 0x0008_0000;
    /// RippleState: the low side does not ripple.
    pub const LOW_NO_RIPPLE: u32 = 0x0010_0000;
    /// RippleState: the high side does not ripple.
    pub const HIGH_NO_RIPPLE: u32 = 0x0020_0000;
    /// SignerList: the list counts once toward OwnerCount (MultiSignReserve).
    pub const ONE_OWNER_COUNT: u32 = 0x0001_0000;

    /// RippleState: the low account froze the line.
    pub const LOW_FREEZE: u32 = 0x0040_0000;
    /// RippleState: the high account froze the line.
    pub const HIGH_FREEZE: u32 = 0x0080_0000;
    /// The low account deep-froze the line (DeepFreeze): neither side may send or receive.
    pub const LOW_DEEP_FREEZE: u32 = 0x0200_0000;
    /// The high account deep-froze the line.
    pub const HIGH_DEEP_FREEZE: u32 = 0x0400_0000;
    /// RippleState: one side is an AMM pseudo-account holding a pool asset.
    pub const AMM_NODE: u32 = 0x0100_0000;
}

/// An MPTokenIssuance's ImmutableFlags (DynamicMPT, XLS-94 `lsif*`; the transactions'
/// `tif*` bits are the same). A capability's bit is its `lsf_mpt` bit.
pub mod lsif_mpt {
    /// lsfMPTCanLock can no longer be enabled.
    pub const CAN_LOCK: u32 = 0x0000_0002;
    /// lsfMPTRequireAuth can no longer be enabled.
    pub const REQUIRE_AUTH: u32 = 0x0000_0004;
    /// lsfMPTCanEscrow can no longer be enabled.
    pub const CAN_ESCROW: u32 = 0x0000_0008;
    /// lsfMPTCanTrade can no longer be enabled.
    pub const CAN_TRADE: u32 = 0x0000_0010;
    /// lsfMPTCanTransfer can no longer be enabled.
    pub const CAN_TRANSFER: u32 = 0x0000_0020;
    /// lsfMPTCanClawback can no longer be enabled.
    pub const CAN_CLAWBACK: u32 = 0x0000_0040;
    /// lsfMPTCanHoldConfidentialBalance can no longer be enabled.
    pub const CAN_HOLD_CONFIDENTIAL_BALANCE: u32 = 0x0000_0080;
    /// MPTokenMetadata can no longer change.
    pub const METADATA: u32 = 0x0001_0000;
    /// TransferFee can no longer change.
    pub const TRANSFER_FEE: u32 = 0x0002_0000;
    /// Every defined bit (`~tifMPTokenIssuanceImmutableMask`).
    pub const ALL: u32 = CAN_LOCK
        | REQUIRE_AUTH
        | CAN_ESCROW
        | CAN_TRADE
        | CAN_TRANSFER
        | CAN_CLAWBACK
        | CAN_HOLD_CONFIDENTIAL_BALANCE
        | METADATA
        | TRANSFER_FEE;
}
