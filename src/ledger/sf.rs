//! Cached field handles for the fields the ledger and the engine touch on hot paths, and
//! typed accessors on [`StObject`] that take a [`Field`] instead of a name.
//!
//! `Field::named` is a hash lookup; the engine reads a handful of fields per entry per
//! transaction, so the handles are resolved once ([`sf`]) and kept.

use std::sync::OnceLock;

use crate::protocol::amount::Amount;
use crate::protocol::definitions::Field;
use crate::protocol::mpt::{MptAmount, MptId};
use crate::protocol::st::{StObject, StValue};
use crate::protocol::types::{AccountId, Hash128, Hash256};

macro_rules! fields {
    ($($ident:ident => $name:literal),* $(,)?) => {
        /// Handles of the fields the ledger and engine use, resolved once.
        #[allow(missing_docs)]
        #[derive(Debug)]
        pub struct Sf { $(pub $ident: Field,)* }

        fn load() -> Sf {
            Sf { $($ident: Field::named($name),)* }
        }
    };
}

fields! {
    ledger_entry_type => "LedgerEntryType",
    transaction_type => "TransactionType",
    flags => "Flags",
    account => "Account",
    sequence => "Sequence",
    balance => "Balance",
    owner_count => "OwnerCount",
    previous_txn_id => "PreviousTxnID",
    previous_txn_lgr_seq => "PreviousTxnLgrSeq",
    account_txn_id => "AccountTxnID",
    regular_key => "RegularKey",
    email_hash => "EmailHash",
    wallet_locator => "WalletLocator",
    message_key => "MessageKey",
    transfer_rate => "TransferRate",
    domain => "Domain",
    tick_size => "TickSize",
    nftoken_minter => "NFTokenMinter",
    low_limit => "LowLimit",
    high_limit => "HighLimit",
    low_node => "LowNode",
    high_node => "HighNode",
    low_quality_in => "LowQualityIn",
    low_quality_out => "LowQualityOut",
    high_quality_in => "HighQualityIn",
    high_quality_out => "HighQualityOut",
    destination => "Destination",
    amount => "Amount",
    public_key => "PublicKey",
    settle_delay => "SettleDelay",
    expiration => "Expiration",
    cancel_after => "CancelAfter",
    source_tag => "SourceTag",
    destination_tag => "DestinationTag",
    owner_node => "OwnerNode",
    destination_node => "DestinationNode",
    root_index => "RootIndex",
    indexes => "Indexes",
    owner => "Owner",
    index_next => "IndexNext",
    index_previous => "IndexPrevious",
    base_fee => "BaseFee",
    reserve_base => "ReserveBase",
    reserve_increment => "ReserveIncrement",
    reference_fee_units => "ReferenceFeeUnits",
    fee => "Fee",
    signing_pub_key => "SigningPubKey",
    txn_signature => "TxnSignature",
    signers => "Signers",
    last_ledger_sequence => "LastLedgerSequence",
    hashes => "Hashes",
    ticket_sequence => "TicketSequence",
    network_id => "NetworkID",
    set_flag => "SetFlag",
    clear_flag => "ClearFlag",
    limit_amount => "LimitAmount",
    quality_in => "QualityIn",
    quality_out => "QualityOut",
    send_max => "SendMax",
    deliver_min => "DeliverMin",
    paths => "Paths",
    delivered_amount => "DeliveredAmount",
    channel => "Channel",
    signature => "Signature",
    affected_nodes => "AffectedNodes",
    created_node => "CreatedNode",
    modified_node => "ModifiedNode",
    deleted_node => "DeletedNode",
    ledger_index => "LedgerIndex",
    new_fields => "NewFields",
    final_fields => "FinalFields",
    previous_fields => "PreviousFields",
    transaction_index => "TransactionIndex",
    transaction_result => "TransactionResult",
    signer_quorum => "SignerQuorum",
    signer_entries => "SignerEntries",
    signer_entry => "SignerEntry",
    signer_weight => "SignerWeight",
    signer_list_id => "SignerListID",
    ticket_count => "TicketCount",
    authorize => "Authorize",
    unauthorize => "Unauthorize",
    holder => "Holder",
    offer_sequence => "OfferSequence",
    amm_id => "AMMID",
    taker_pays => "TakerPays",
    taker_gets => "TakerGets",
    book_directory => "BookDirectory",
    book_node => "BookNode",
    exchange_rate => "ExchangeRate",
    taker_pays_currency => "TakerPaysCurrency",
    taker_pays_issuer => "TakerPaysIssuer",
    taker_gets_currency => "TakerGetsCurrency",
    taker_gets_issuer => "TakerGetsIssuer",
    condition => "Condition",
    fulfillment => "Fulfillment",
    finish_after => "FinishAfter",
    check_id => "CheckID",
    invoice_id => "InvoiceID",
    asset => "Asset",
    asset2 => "Asset2",
    amount2 => "Amount2",
    trading_fee => "TradingFee",
    vote_slots => "VoteSlots",
    vote_entry => "VoteEntry",
    vote_weight => "VoteWeight",
    auction_slot => "AuctionSlot",
    auth_accounts => "AuthAccounts",
    auth_account => "AuthAccount",
    discounted_fee => "DiscountedFee",
    price => "Price",
    lp_token_balance => "LPTokenBalance",
    lp_token_out => "LPTokenOut",
    lp_token_in => "LPTokenIn",
    e_price => "EPrice",
    bid_min => "BidMin",
    bid_max => "BidMax",
    mpt_issuance_id => "MPTokenIssuanceID",
    issuer => "Issuer",
    outstanding_amount => "OutstandingAmount",
    maximum_amount => "MaximumAmount",
    mpt_amount => "MPTAmount",
    asset_scale => "AssetScale",
    transfer_fee => "TransferFee",
    mptoken_metadata => "MPTokenMetadata",
    nftoken_id => "NFTokenID",
    nftoken => "NFToken",
    nftokens => "NFTokens",
    nftoken_taxon => "NFTokenTaxon",
    uri => "URI",
    minted_nftokens => "MintedNFTokens",
    burned_nftokens => "BurnedNFTokens",
    first_nftoken_sequence => "FirstNFTokenSequence",
    previous_page_min => "PreviousPageMin",
    next_page_min => "NextPageMin",
    nftoken_offer_node => "NFTokenOfferNode",
    nftoken_buy_offer => "NFTokenBuyOffer",
    nftoken_sell_offer => "NFTokenSellOffer",
    nftoken_broker_fee => "NFTokenBrokerFee",
    nftoken_offers => "NFTokenOffers",
    xchain_bridge => "XChainBridge",
    signature_reward => "SignatureReward",
    min_account_create_amount => "MinAccountCreateAmount",
    xchain_claim_id => "XChainClaimID",
    xchain_account_create_count => "XChainAccountCreateCount",
    xchain_account_claim_count => "XChainAccountClaimCount",
    did_document => "DIDDocument",
    data => "Data",
    oracle_document_id => "OracleDocumentID",
    provider => "Provider",
    asset_class => "AssetClass",
    last_update_time => "LastUpdateTime",
    price_data_series => "PriceDataSeries",
    price_data => "PriceData",
    base_asset => "BaseAsset",
    quote_asset => "QuoteAsset",
    asset_price => "AssetPrice",
    scale => "Scale",
    subject => "Subject",
    credential_type => "CredentialType",
    issuer_node => "IssuerNode",
    subject_node => "SubjectNode",
    credential_ids => "CredentialIDs",
    vault_kind => "VaultKind",
    subscription_date => "SubscriptionDate",
    redemption_date => "RedemptionDate",
    memo_data => "MemoData",
    le_version => "LEVersion",
    credential => "Credential",
    authorize_credentials => "AuthorizeCredentials",
    unauthorize_credentials => "UnauthorizeCredentials",
    accepted_credentials => "AcceptedCredentials",
    domain_id => "DomainID",
    immutable_flags => "ImmutableFlags",
    delegate => "Delegate",
    sponsor => "Sponsor",
    sponsor_flags => "SponsorFlags",
    sponsor_signature => "SponsorSignature",
    high_sponsor => "HighSponsor",
    low_sponsor => "LowSponsor",
    counterparty_sponsor => "CounterpartySponsor",
    sponsee => "Sponsee",
    sponsee_node => "SponseeNode",
    fee_amount => "FeeAmount",
    max_fee => "MaxFee",
    fee_amount_delta => "FeeAmountDelta",
    remaining_owner_count => "RemainingOwnerCount",
    remaining_owner_count_delta => "RemainingOwnerCountDelta",
    sponsored_owner_count => "SponsoredOwnerCount",
    sponsoring_owner_count => "SponsoringOwnerCount",
    sponsoring_account_count => "SponsoringAccountCount",
    object_id => "ObjectID",
    permissions => "Permissions",
    permission => "Permission",
    permission_value => "PermissionValue",
    vault_id => "VaultID",
    vault_node => "VaultNode",
    assets_total => "AssetsTotal",
    assets_available => "AssetsAvailable",
    assets_maximum => "AssetsMaximum",
    loss_unrealized => "LossUnrealized",
    share_mpt_id => "ShareMPTID",
    withdrawal_policy => "WithdrawalPolicy",
    raw_transactions => "RawTransactions",
    raw_transaction => "RawTransaction",
    batch_signers => "BatchSigners",
    batch_signer => "BatchSigner",
    parent_batch_id => "ParentBatchID",
    other_chain_source => "OtherChainSource",
    attestation_signer_account => "AttestationSignerAccount",
    attestation_reward_account => "AttestationRewardAccount",
    was_locking_chain_send => "WasLockingChainSend",
    xchain_claim_attestations => "XChainClaimAttestations",
    xchain_claim_proof_sig => "XChainClaimProofSig",
    xchain_create_account_attestations => "XChainCreateAccountAttestations",
    xchain_create_account_proof_sig => "XChainCreateAccountProofSig",
    additional_books => "AdditionalBooks",
    book => "Book",
    reference_holding => "ReferenceHolding",
    loan_broker_id => "LoanBrokerID",
    loan_sequence => "LoanSequence",
    management_fee_rate => "ManagementFeeRate",
    cover_rate_minimum => "CoverRateMinimum",
    cover_rate_liquidation => "CoverRateLiquidation",
    debt_total => "DebtTotal",
    debt_maximum => "DebtMaximum",
    cover_available => "CoverAvailable",
    loan_id => "LoanID",
    loan_broker_node => "LoanBrokerNode",
    borrower => "Borrower",
    counterparty => "Counterparty",
    counterparty_signature => "CounterpartySignature",
    principal_requested => "PrincipalRequested",
    principal_outstanding => "PrincipalOutstanding",
    total_value_outstanding => "TotalValueOutstanding",
    management_fee_outstanding => "ManagementFeeOutstanding",
    periodic_payment => "PeriodicPayment",
    loan_scale => "LoanScale",
    loan_origination_fee => "LoanOriginationFee",
    loan_service_fee => "LoanServiceFee",
    late_payment_fee => "LatePaymentFee",
    close_payment_fee => "ClosePaymentFee",
    overpayment_fee => "OverpaymentFee",
    interest_rate => "InterestRate",
    late_interest_rate => "LateInterestRate",
    close_interest_rate => "CloseInterestRate",
    overpayment_interest_rate => "OverpaymentInterestRate",
    start_date => "StartDate",
    payment_interval => "PaymentInterval",
    grace_period => "GracePeriod",
    payment_total => "PaymentTotal",
    payment_remaining => "PaymentRemaining",
    previous_payment_due_date => "PreviousPaymentDueDate",
    next_payment_due_date => "NextPaymentDueDate",
    locked_amount => "LockedAmount",
    confidential_balance_inbox => "ConfidentialBalanceInbox",
    confidential_balance_spending => "ConfidentialBalanceSpending",
    confidential_balance_version => "ConfidentialBalanceVersion",
    confidential_outstanding_amount => "ConfidentialOutstandingAmount",
    issuer_encrypted_balance => "IssuerEncryptedBalance",
    auditor_encrypted_balance => "AuditorEncryptedBalance",
    holder_encryption_key => "HolderEncryptionKey",
    issuer_encryption_key => "IssuerEncryptionKey",
    auditor_encryption_key => "AuditorEncryptionKey",
    holder_encrypted_amount => "HolderEncryptedAmount",
    issuer_encrypted_amount => "IssuerEncryptedAmount",
    auditor_encrypted_amount => "AuditorEncryptedAmount",
    sender_encrypted_amount => "SenderEncryptedAmount",
    destination_encrypted_amount => "DestinationEncryptedAmount",
    blinding_factor => "BlindingFactor",
    zk_proof => "ZKProof",
    balance_commitment => "BalanceCommitment",
    amount_commitment => "AmountCommitment",
}

/// The cached handles.
pub fn sf() -> &'static Sf {
    static SF: OnceLock<Sf> = OnceLock::new();
    SF.get_or_init(load)
}

/// Typed reads and writes by [`Field`] handle.
pub trait StExt {
    /// A UInt8 field.
    fn u8_of(&self, f: Field) -> Option<u8>;
    /// A UInt16 field.
    fn u16_of(&self, f: Field) -> Option<u16>;
    /// A UInt32 field.
    fn u32_of(&self, f: Field) -> Option<u32>;
    /// A UInt64 field.
    fn u64_of(&self, f: Field) -> Option<u64>;
    /// A Hash128 field.
    fn h128_of(&self, f: Field) -> Option<Hash128>;
    /// A Hash256 field.
    fn h256_of(&self, f: Field) -> Option<Hash256>;
    /// An AccountID field.
    fn account_of(&self, f: Field) -> Option<AccountId>;
    /// An Amount field.
    fn amount_of(&self, f: Field) -> Option<Amount>;
    /// A Blob field.
    fn blob_of(&self, f: Field) -> Option<&[u8]>;
    /// A Vector256 field.
    fn v256_of(&self, f: Field) -> Option<&[Hash256]>;
    /// A Hash192 field as an MPT issuance ID.
    fn mpt_id_of(&self, f: Field) -> Option<MptId>;
    /// An Amount field holding an MPT amount.
    fn mpt_amount_of(&self, f: Field) -> Option<MptAmount>;
    /// The Flags field, 0 when absent.
    fn flags(&self) -> u32;
    /// True when every bit of `mask` is set in Flags.
    fn is_flag(&self, mask: u32) -> bool {
        self.flags() & mask == mask
    }
    /// XRP drops of an Amount field (0 when absent or not XRP).
    fn drops_of(&self, f: Field) -> i64 {
        self.amount_of(f).and_then(|a| a.as_drops()).unwrap_or(0)
    }
}

impl StExt for StObject {
    fn u8_of(&self, f: Field) -> Option<u8> {
        match self.get(f)? {
            StValue::UInt8(v) => Some(*v),
            _ => None,
        }
    }
    fn u16_of(&self, f: Field) -> Option<u16> {
        match self.get(f)? {
            StValue::UInt16(v) => Some(*v),
            _ => None,
        }
    }
    fn u32_of(&self, f: Field) -> Option<u32> {
        match self.get(f)? {
            StValue::UInt32(v) => Some(*v),
            _ => None,
        }
    }
    fn u64_of(&self, f: Field) -> Option<u64> {
        match self.get(f)? {
            StValue::UInt64(v) => Some(*v),
            _ => None,
        }
    }
    fn h128_of(&self, f: Field) -> Option<Hash128> {
        match self.get(f)? {
            StValue::Hash128(v) => Some(*v),
            _ => None,
        }
    }
    fn h256_of(&self, f: Field) -> Option<Hash256> {
        match self.get(f)? {
            StValue::Hash256(v) => Some(*v),
            _ => None,
        }
    }
    fn account_of(&self, f: Field) -> Option<AccountId> {
        match self.get(f)? {
            StValue::AccountId(v) => Some(*v),
            _ => None,
        }
    }
    fn amount_of(&self, f: Field) -> Option<Amount> {
        match self.get(f)? {
            StValue::Amount(v) => Some(*v),
            _ => None,
        }
    }
    fn blob_of(&self, f: Field) -> Option<&[u8]> {
        match self.get(f)? {
            StValue::Blob(v) => Some(v),
            _ => None,
        }
    }
    fn v256_of(&self, f: Field) -> Option<&[Hash256]> {
        match self.get(f)? {
            StValue::Vector256(v) => Some(v),
            _ => None,
        }
    }
    fn mpt_id_of(&self, f: Field) -> Option<MptId> {
        match self.get(f)? {
            StValue::Fixed(b) => Some(MptId(b.as_slice().try_into().ok()?)),
            _ => None,
        }
    }
    fn mpt_amount_of(&self, f: Field) -> Option<MptAmount> {
        match self.get(f)? {
            StValue::MptAmount(v) => Some(*v),
            _ => None,
        }
    }
    fn flags(&self) -> u32 {
        self.u32_of(sf().flags).unwrap_or(0)
    }
}
