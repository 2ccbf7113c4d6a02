//! The transaction types this engine applies. Their phases are rows of
//! [`super::registry::TRANSACTORS`].

use super::registry;
use crate::protocol::features::Feature;

/// Transaction types (`TransactionType` codes from definitions.json).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[repr(u16)]
pub enum TxType {
    /// Payment.
    Payment = 0,
    /// OfferCreate.
    OfferCreate = 7,
    /// OfferCancel.
    OfferCancel = 8,
    /// EscrowCreate.
    EscrowCreate = 1,
    /// EscrowFinish.
    EscrowFinish = 2,
    /// AccountSet.
    AccountSet = 3,
    /// EscrowCancel.
    EscrowCancel = 4,
    /// SetRegularKey.
    SetRegularKey = 5,
    /// PaymentChannelCreate.
    PaymentChannelCreate = 13,
    /// PaymentChannelFund.
    PaymentChannelFund = 14,
    /// PaymentChannelClaim.
    PaymentChannelClaim = 15,
    /// TicketCreate.
    TicketCreate = 10,
    /// CheckCreate.
    CheckCreate = 16,
    /// CheckCash.
    CheckCash = 17,
    /// CheckCancel.
    CheckCancel = 18,
    /// SignerListSet.
    SignerListSet = 12,
    /// DepositPreauth.
    DepositPreauth = 19,
    /// TrustSet.
    TrustSet = 20,
    /// AccountDelete.
    AccountDelete = 21,
    /// Clawback.
    Clawback = 30,
    /// AMMClawback.
    AMMClawback = 31,
    /// AMMCreate.
    AMMCreate = 35,
    /// AMMDeposit.
    AMMDeposit = 36,
    /// AMMWithdraw.
    AMMWithdraw = 37,
    /// AMMVote.
    AMMVote = 38,
    /// AMMBid.
    AMMBid = 39,
    /// AMMDelete.
    AMMDelete = 40,
    /// MPTokenIssuanceCreate.
    MPTokenIssuanceCreate = 54,
    /// MPTokenIssuanceDestroy.
    MPTokenIssuanceDestroy = 55,
    /// MPTokenIssuanceSet.
    MPTokenIssuanceSet = 56,
    /// MPTokenAuthorize.
    MPTokenAuthorize = 57,
    /// NFTokenMint.
    NFTokenMint = 25,
    /// NFTokenBurn.
    NFTokenBurn = 26,
    /// NFTokenCreateOffer.
    NFTokenCreateOffer = 27,
    /// NFTokenCancelOffer.
    NFTokenCancelOffer = 28,
    /// NFTokenAcceptOffer.
    NFTokenAcceptOffer = 29,
    /// NFTokenModify.
    NFTokenModify = 61,
    /// LedgerStateFix.
    LedgerStateFix = 53,
    /// XChainCreateBridge.
    XChainCreateBridge = 48,
    /// DIDSet.
    DIDSet = 49,
    /// DIDDelete.
    DIDDelete = 50,
    /// OracleSet.
    OracleSet = 51,
    /// OracleDelete.
    OracleDelete = 52,
    /// CredentialCreate.
    CredentialCreate = 58,
    /// CredentialAccept.
    CredentialAccept = 59,
    /// CredentialDelete.
    CredentialDelete = 60,
    /// PermissionedDomainSet.
    PermissionedDomainSet = 62,
    /// PermissionedDomainDelete.
    PermissionedDomainDelete = 63,
    /// DelegateSet.
    DelegateSet = 64,
    /// VaultCreate.
    VaultCreate = 65,
    /// VaultSet.
    VaultSet = 66,
    /// VaultDelete.
    VaultDelete = 67,
    /// VaultDeposit.
    VaultDeposit = 68,
    /// VaultWithdraw.
    VaultWithdraw = 69,
    /// VaultClawback.
    VaultClawback = 70,
    /// Batch.
    Batch = 71,
    /// XChainModifyBridge.
    XChainModifyBridge = 47,
    /// XChainCreateClaimID.
    XChainCreateClaimID = 41,
    /// XChainCommit.
    XChainCommit = 42,
    /// XChainClaim.
    XChainClaim = 43,
    /// XChainAddClaimAttestation.
    XChainAddClaimAttestation = 45,
    /// XChainAccountCreateCommit.
    XChainAccountCreateCommit = 44,
    /// XChainAddAccountCreateAttestation.
    XChainAddAccountCreateAttestation = 46,
    /// LoanBrokerSet.
    LoanBrokerSet = 74,
    /// LoanBrokerDelete.
    LoanBrokerDelete = 75,
    /// LoanBrokerCoverDeposit.
    LoanBrokerCoverDeposit = 76,
    /// LoanBrokerCoverWithdraw.
    LoanBrokerCoverWithdraw = 77,
    /// LoanBrokerCoverClawback.
    LoanBrokerCoverClawback = 78,
    /// LoanSet (not built: temDISABLED).
    LoanSet = 80,
    /// LoanDelete (not built: temDISABLED).
    LoanDelete = 81,
    /// LoanManage (not built: temDISABLED).
    LoanManage = 82,
    /// LoanPay (not built: temDISABLED).
    LoanPay = 84,
    /// ConfidentialMPTConvert.
    ConfidentialMPTConvert = 85,
    /// ConfidentialMPTMergeInbox.
    ConfidentialMPTMergeInbox = 86,
    /// ConfidentialMPTConvertBack.
    ConfidentialMPTConvertBack = 87,
    /// ConfidentialMPTSend.
    ConfidentialMPTSend = 88,
    /// ConfidentialMPTClawback.
    ConfidentialMPTClawback = 89,
    /// SponsorshipTransfer.
    SponsorshipTransfer = 90,
    /// SponsorshipSet.
    SponsorshipSet = 91,
}

impl TxType {
    /// The type with this code, if the engine applies it.
    pub fn from_code(code: u16) -> Option<TxType> {
        registry::transactor(code).map(|t| t.tx_type)
    }

    /// The amendment without which the type is `temDISABLED` (the check each of
    /// rippled's preflights opens with); None for the types of retired amendments, which
    /// are always on.
    pub fn amendment(self) -> Option<Feature> {
        use TxType::*;
        Some(match self {
            AMMCreate | AMMDeposit | AMMWithdraw | AMMVote | AMMBid | AMMDelete => Feature::AMM,
            AMMClawback => Feature::AMMClawback,
            XChainCreateBridge
            | XChainModifyBridge
            | XChainCreateClaimID
            | XChainCommit
            | XChainClaim
            | XChainAddClaimAttestation
            | XChainAccountCreateCommit
            | XChainAddAccountCreateAttestation => Feature::XChainBridge,
            DIDSet | DIDDelete => Feature::DID,
            OracleSet | OracleDelete => Feature::PriceOracle,
            CredentialCreate | CredentialAccept | CredentialDelete => Feature::Credentials,
            PermissionedDomainSet | PermissionedDomainDelete => Feature::PermissionedDomains,
            MPTokenIssuanceCreate
            | MPTokenIssuanceDestroy
            | MPTokenIssuanceSet
            | MPTokenAuthorize => Feature::MPTokensV1,
            NFTokenModify => Feature::DynamicNFT,
            LedgerStateFix => Feature::FixNFTokenPageLinks,
            VaultCreate | VaultSet | VaultDelete | VaultDeposit | VaultWithdraw | VaultClawback => {
                Feature::SingleAssetVault
            }
            LoanBrokerSet
            | LoanBrokerDelete
            | LoanBrokerCoverDeposit
            | LoanBrokerCoverWithdraw
            | LoanBrokerCoverClawback
            | LoanSet
            | LoanDelete
            | LoanManage
            | LoanPay => Feature::LendingProtocol,
            Batch => Feature::BatchV1_1,
            DelegateSet => Feature::PermissionDelegationV1_1,
            SponsorshipSet | SponsorshipTransfer => Feature::Sponsor,
            ConfidentialMPTConvert
            | ConfidentialMPTMergeInbox
            | ConfidentialMPTConvertBack
            | ConfidentialMPTSend
            | ConfidentialMPTClawback => Feature::ConfidentialTransfer,
            _ => return None,
        })
    }
}
