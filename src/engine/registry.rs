//! The transactor table: one row per transaction type the engine applies, naming the
//! type's module, whose `preflight` / `preclaim` / `do_apply` are its three phases
//! (rippled's `applySteps.cpp` dispatch), and the [`Rules`] the pipeline follows for it
//! beyond them: its base fee, a counterparty's signature, the inner transactions it
//! carries, the AccountRoots it may delete, the DEX invariant, the granular permissions
//! a delegate may hold for it. The pipeline (`transactor.rs`, `invariants.rs`) reads
//! these and names no type.
//!
//! Adding a type is a file with `preflight` / `preclaim` / `do_apply` in its family's
//! folder, a [`TxType`] variant and a row here.

use super::consequences::TxConsequences;
use super::invariants::{DexCheck, DomainWrite, PseudoOwner, RootDeletion};
use super::ter::Ter;
use super::transactor::{ApplyConfig, ApplyContext, InnerApplied};
use super::tx_type::TxType;
use super::{
    account, amm, batch, channel, check, confidential, credential, delegate, dex, did, domain,
    escrow, loan, mpt, nft, oracle, payment, sponsor, trust, vault, xchain,
};
use crate::ledger::view::ReadView;
use crate::protocol::st::StObject;
use crate::protocol::types::{AccountId, Hash256};

/// Type-specific checks that need no ledger; never returns a tec.
pub type Preflight = fn(&StObject, &AccountId) -> Ter;
/// Type-specific checks that only read the ledger; a tec here still claims the fee.
pub type Preclaim = fn(&dyn ReadView, &StObject, &AccountId) -> Ter;
/// The transaction's effect, written into the sandbox.
pub type DoApply = fn(&mut ApplyContext<'_, '_>) -> Ter;
/// A preflight that also sees the server's configuration (a Batch's, which preflights
/// its inner transactions as they will apply).
pub type PreflightWithConfig = fn(&StObject, &AccountId, &ApplyConfig) -> Ter;
/// Applies the inner transactions of a successful transaction `(view, tx, tx_id,
/// first_index, cfg)`, each on what the previous ones wrote, from ledger position
/// `first_index`; returns the ones the ledger keeps, in order (a Batch's
/// `applyBatchTransactions`).
pub type ApplyInners =
    fn(&dyn ReadView, &StObject, &Hash256, u32, &ApplyConfig) -> Vec<InnerApplied>;
/// checkSign for a second party that signs the transaction (`dry_run`: a simulation,
/// where an unsigned one passes).
pub type CheckCounterparty = fn(&dyn ReadView, &StObject, bool) -> Result<(), Ter>;
/// The type's `checkPermission` for a delegate without the type's own permission:
/// true when the granular permissions it holds (`has`, by name) cover exactly what the
/// transaction does for `account`.
pub type Granular = fn(&dyn ReadView, &StObject, &AccountId, &dyn Fn(&str) -> bool) -> bool;
/// The type's `checkExtraFeatures`: whether the ledger's rules have every amendment what
/// the transaction uses needs beyond its type's own ([`TxType::amendment`]): a field, a
/// kind of amount. False answers `temDISABLED`, right after the type's amendment and
/// before any other check.
pub type ExtraFeatures = fn(&StObject, &crate::ledger::rules::Rules) -> bool;

/// What an [`ExtraFeatures`] asks of one field: absent, or the amendment that brings it
/// enabled.
pub fn field_allowed(
    tx: &StObject,
    field: crate::protocol::definitions::Field,
    rules: &crate::ledger::rules::Rules,
    feature: crate::protocol::features::Feature,
) -> bool {
    tx.get(field).is_none() || rules.enabled(feature)
}

/// How a type's base fee is figured (rippled's `calculateBaseFee` and the types'
/// overrides of it).
#[derive(Clone, Copy)]
pub enum BaseFee {
    /// The reference fee, once more per multi-signer.
    Reference,
    /// As `Reference`, plus one reference fee per unit the transaction carries
    /// (EscrowFinish's fulfillment, LoanSet's counterparty signatures).
    PlusUnits(fn(&StObject) -> u64),
    /// As `Reference`, plus drops of the type's own, given the reference fee and the
    /// owner reserve increment (Batch: its inner transactions and signers).
    PlusDrops(fn(&StObject, u64, u64) -> u64),
    /// One owner reserve increment, whatever the signers (AMMCreate, VaultCreate,
    /// AccountDelete).
    OwnerReserve,
    /// As `Reference`, times a multiple read from the ledger (LoanPay).
    Times(fn(&dyn ReadView, &StObject) -> u64),
    /// As `Reference`, or nothing for an account setting its first regular key with its
    /// master key (SetRegularKey; lsfPasswordSpent records the free use).
    FirstKeyFree,
}

/// What a type carrying inner transactions (Batch) gives the pipeline.
#[derive(Clone, Copy)]
pub struct CarriesInner {
    /// Its preflight with the server's configuration, run instead of `preflight`.
    pub preflight: PreflightWithConfig,
    /// Applies its inner transactions once it succeeded: the ledgers call it after
    /// recording the outer transaction.
    pub apply: ApplyInners,
}

/// What the pipeline does for a type beyond its three phases.
#[derive(Clone, Copy)]
pub struct Rules {
    /// Its base fee.
    pub fee: BaseFee,
    /// A counterparty that signs it too, checked after the sender's signature (LoanSet).
    pub counterparty: Option<CheckCounterparty>,
    /// Set for a type carrying inner transactions (Batch): its preflight with the
    /// server's configuration, and how its inner transactions apply after it succeeded.
    /// Such a type is never itself an inner transaction (`temINVALID`).
    pub carries_inner: Option<CarriesInner>,
    /// The AccountRoots it may delete.
    pub deletes_root: RootDeletion,
    /// The permissioned DEX invariant it is held to.
    pub dex: DexCheck,
    /// Held to rippled's `ValidAMM` withdrawal invariant (AMMWithdraw, AMMClawback).
    pub amm_withdrawal: bool,
    /// What it may do to PermissionedDomains (`ValidPermissionedDomain`).
    pub domain: DomainWrite,
    /// Granular permissions a delegate may hold for it instead of the type's own.
    pub granular: Option<Granular>,
    /// The amendments what it uses needs beyond its type's own (`checkExtraFeatures`).
    pub extra_features: Option<ExtraFeatures>,
    /// What it may do to the account's later transactions (the transaction queue's
    /// `ConsequencesFactory`).
    pub consequences: Consequences,
}

/// How a type's transactions figure their [`TxConsequences`] (rippled's
/// `ConsequencesFactoryType`).
#[derive(Clone, Copy)]
pub enum Consequences {
    /// The fee and one sequence.
    Normal,
    /// A blocker: it changes what the account's later transactions may do (its signing
    /// keys, its existence), so the queue holds it alone.
    Blocker,
    /// The type figures them: the XRP it may spend, the sequences it consumes, whether
    /// its flags make it a blocker.
    Custom(fn(&StObject) -> TxConsequences),
}

impl Rules {
    /// Nothing beyond the three phases: the reference fee, no counterparty, no inner
    /// transactions, no AccountRoot deleted, no DEX invariant, no granular permission, no
    /// amendment beyond the type's.
    pub const NONE: Rules = Rules {
        fee: BaseFee::Reference,
        counterparty: None,
        carries_inner: None,
        deletes_root: RootDeletion::Never,
        dex: DexCheck::None,
        amm_withdrawal: false,
        domain: DomainWrite::None,
        granular: None,
        extra_features: None,
        consequences: Consequences::Normal,
    };

    /// Only the amendments what the type uses needs beyond its own.
    const fn features(extra: ExtraFeatures) -> Rules {
        Rules {
            extra_features: Some(extra),
            ..Rules::NONE
        }
    }
}

/// One transaction type and its phases.
pub struct Transactor {
    /// The type (its discriminant is the `TransactionType` code).
    pub tx_type: TxType,
    /// rippled's name for the type (definitions.json TRANSACTION_TYPES).
    pub name: &'static str,
    /// Checks without the ledger.
    pub preflight: Preflight,
    /// Checks reading the ledger.
    pub preclaim: Preclaim,
    /// The effect.
    pub do_apply: DoApply,
    /// What the pipeline does for it beyond the phases.
    pub rules: Rules,
}

/// A row: the [`TxType`] variant (named as rippled names the type), the type's module
/// (`family::type_file`), and its [`Rules`] when it has any beyond [`Rules::NONE`]. A
/// phase returns a [`Ter`], or `Result<(), Ter>` when it is written with `?`
/// ([`Ter::into_result`]); the row takes either.
macro_rules! row {
    ($t:ident, $($m:ident)::+) => {
        row!($t, $($m)::+, Rules::NONE)
    };
    ($t:ident, $($m:ident)::+, $rules:expr) => {
        Transactor {
            tx_type: TxType::$t,
            name: stringify!($t),
            preflight: |tx, account| Ter::from($($m)::+::preflight(tx, account)),
            preclaim: |view, tx, account| Ter::from($($m)::+::preclaim(view, tx, account)),
            do_apply: |ctx| Ter::from($($m)::+::do_apply(ctx)),
            rules: $rules,
        }
    };
}

/// A blocker and nothing else beyond the three phases.
const BLOCKER: Rules = Rules {
    consequences: Consequences::Blocker,
    ..Rules::NONE
};

const ROWS: &[Transactor] = &[
    row!(
        OfferCreate,
        dex::offer_create,
        Rules {
            dex: DexCheck::DomainAndHybrid,
            extra_features: Some(dex::offer_create::extra_features),
            consequences: Consequences::Custom(dex::offer_create::consequences),
            ..Rules::NONE
        }
    ),
    row!(OfferCancel, dex::offer_cancel),
    row!(
        TicketCreate,
        account::ticket_create,
        Rules {
            consequences: Consequences::Custom(account::ticket_create::consequences),
            ..Rules::NONE
        }
    ),
    row!(SignerListSet, account::signer_list_set, BLOCKER),
    row!(
        Payment,
        payment::payment,
        Rules {
            dex: DexCheck::Domain,
            granular: Some(payment::payment::granular_permission),
            extra_features: Some(payment::payment::extra_features),
            consequences: Consequences::Custom(payment::payment::consequences),
            ..Rules::NONE
        }
    ),
    row!(
        AccountSet,
        account::account_set,
        Rules {
            granular: Some(account::account_set::granular_permission),
            consequences: Consequences::Custom(account::account_set::consequences),
            ..Rules::NONE
        }
    ),
    row!(
        SetRegularKey,
        account::set_regular_key,
        Rules {
            fee: BaseFee::FirstKeyFree,
            ..BLOCKER
        }
    ),
    row!(
        PaymentChannelCreate,
        channel::payment_channel_create,
        Rules {
            consequences: Consequences::Custom(channel::payment_channel_create::consequences),
            ..Rules::NONE
        }
    ),
    row!(
        PaymentChannelFund,
        channel::payment_channel_fund,
        Rules {
            consequences: Consequences::Custom(channel::payment_channel_fund::consequences),
            ..Rules::NONE
        }
    ),
    row!(
        PaymentChannelClaim,
        channel::payment_channel_claim,
        Rules::features(channel::payment_channel_claim::extra_features)
    ),
    row!(
        DepositPreauth,
        account::deposit_preauth,
        Rules::features(account::deposit_preauth::extra_features)
    ),
    row!(
        TrustSet,
        trust::trust_set,
        Rules {
            granular: Some(trust::trust_set::granular_permission),
            ..Rules::NONE
        }
    ),
    row!(
        AccountDelete,
        account::account_delete,
        Rules {
            fee: BaseFee::OwnerReserve,
            deletes_root: RootDeletion::Any,
            extra_features: Some(account::account_delete::extra_features),
            ..BLOCKER
        }
    ),
    row!(Clawback, trust::clawback),
    row!(
        EscrowCreate,
        escrow::escrow_create,
        Rules {
            extra_features: Some(escrow::escrow_create::extra_features),
            consequences: Consequences::Custom(escrow::escrow_create::consequences),
            ..Rules::NONE
        }
    ),
    row!(
        EscrowFinish,
        escrow::escrow_finish,
        Rules {
            fee: BaseFee::PlusUnits(escrow::escrow_finish::fee_units),
            extra_features: Some(escrow::escrow_finish::extra_features),
            ..Rules::NONE
        }
    ),
    row!(EscrowCancel, escrow::escrow_cancel),
    row!(CheckCreate, check::check_create),
    row!(CheckCash, check::check_cash),
    row!(CheckCancel, check::check_cancel),
    row!(
        AMMCreate,
        amm::amm_create,
        Rules {
            fee: BaseFee::OwnerReserve,
            ..Rules::NONE
        }
    ),
    row!(AMMDeposit, amm::amm_deposit),
    row!(
        AMMWithdraw,
        amm::amm_withdraw,
        Rules {
            deletes_root: RootDeletion::PseudoOf(PseudoOwner::Amm),
            amm_withdrawal: true,
            ..Rules::NONE
        }
    ),
    row!(AMMVote, amm::amm_vote),
    row!(AMMBid, amm::amm_bid),
    row!(
        AMMDelete,
        amm::amm_delete,
        Rules {
            deletes_root: RootDeletion::PseudoOf(PseudoOwner::Amm),
            ..Rules::NONE
        }
    ),
    row!(
        AMMClawback,
        amm::amm_clawback,
        Rules {
            deletes_root: RootDeletion::PseudoOf(PseudoOwner::Amm),
            amm_withdrawal: true,
            ..Rules::NONE
        }
    ),
    row!(
        MPTokenIssuanceCreate,
        mpt::mptoken_issuance_create,
        Rules::features(mpt::mptoken_issuance_create::extra_features)
    ),
    row!(MPTokenIssuanceDestroy, mpt::mptoken_issuance_destroy),
    row!(
        MPTokenIssuanceSet,
        mpt::mptoken_issuance_set,
        Rules {
            granular: Some(mpt::mptoken_issuance_set::granular_permission),
            extra_features: Some(mpt::mptoken_issuance_set::extra_features),
            ..Rules::NONE
        }
    ),
    row!(MPTokenAuthorize, mpt::mptoken_authorize),
    row!(
        NFTokenMint,
        nft::nftoken_mint,
        Rules::features(nft::nftoken_mint::extra_features)
    ),
    row!(NFTokenBurn, nft::nftoken_burn),
    row!(NFTokenCreateOffer, nft::nftoken_create_offer),
    row!(NFTokenCancelOffer, nft::nftoken_cancel_offer),
    row!(NFTokenAcceptOffer, nft::nftoken_accept_offer),
    row!(NFTokenModify, nft::nftoken_modify),
    row!(
        LedgerStateFix,
        nft::ledger_state_fix,
        Rules {
            fee: BaseFee::OwnerReserve,
            ..Rules::NONE
        }
    ),
    row!(XChainCreateBridge, xchain::xchain_create_bridge),
    row!(DIDSet, did::did_set),
    row!(DIDDelete, did::did_delete),
    row!(OracleSet, oracle::oracle_set),
    row!(OracleDelete, oracle::oracle_delete),
    row!(CredentialCreate, credential::credential_create),
    row!(CredentialAccept, credential::credential_accept),
    row!(CredentialDelete, credential::credential_delete),
    row!(
        PermissionedDomainSet,
        domain::permissioned_domain_set,
        Rules {
            domain: DomainWrite::Set,
            extra_features: Some(domain::permissioned_domain_set::extra_features),
            ..Rules::NONE
        }
    ),
    row!(
        PermissionedDomainDelete,
        domain::permissioned_domain_delete,
        Rules {
            domain: DomainWrite::Delete,
            ..Rules::NONE
        }
    ),
    row!(DelegateSet, delegate::delegate_set),
    row!(
        VaultCreate,
        vault::vault_create,
        Rules {
            fee: BaseFee::OwnerReserve,
            extra_features: Some(vault::vault_create::extra_features),
            ..Rules::NONE
        }
    ),
    row!(
        VaultSet,
        vault::vault_set,
        Rules::features(vault::vault_set::extra_features)
    ),
    row!(
        VaultDelete,
        vault::vault_delete,
        Rules {
            deletes_root: RootDeletion::PseudoOf(PseudoOwner::Vault),
            extra_features: Some(vault::vault_delete::extra_features),
            ..Rules::NONE
        }
    ),
    row!(VaultDeposit, vault::vault_deposit),
    row!(
        VaultWithdraw,
        vault::vault_withdraw,
        Rules::features(vault::vault_withdraw::extra_features)
    ),
    row!(VaultClawback, vault::vault_clawback),
    row!(
        Batch,
        batch::batch,
        Rules {
            fee: BaseFee::PlusDrops(batch::batch::base_fee),
            carries_inner: Some(CarriesInner {
                preflight: |tx, account, cfg| {
                    Ter::from(batch::batch::preflight_with(tx, account, cfg))
                },
                apply: batch::apply_inners,
            }),
            ..Rules::NONE
        }
    ),
    row!(XChainModifyBridge, xchain::xchain_modify_bridge),
    row!(XChainCreateClaimID, xchain::xchain_create_claim_id),
    row!(XChainCommit, xchain::xchain_commit),
    row!(XChainClaim, xchain::xchain_claim, BLOCKER),
    row!(
        XChainAddClaimAttestation,
        xchain::xchain_add_claim_attestation,
        BLOCKER
    ),
    row!(
        XChainAccountCreateCommit,
        xchain::xchain_account_create_commit
    ),
    row!(
        XChainAddAccountCreateAttestation,
        xchain::xchain_add_account_create_attestation,
        BLOCKER
    ),
    row!(LoanBrokerSet, loan::loan_broker_set, LENDING),
    row!(
        LoanBrokerDelete,
        loan::loan_broker_delete,
        Rules {
            deletes_root: RootDeletion::PseudoOf(PseudoOwner::LoanBroker),
            ..LENDING
        }
    ),
    row!(
        LoanBrokerCoverDeposit,
        loan::loan_broker_cover_deposit,
        LENDING
    ),
    row!(
        LoanBrokerCoverWithdraw,
        loan::loan_broker_cover_withdraw,
        LENDING
    ),
    row!(
        LoanBrokerCoverClawback,
        loan::loan_broker_cover_clawback,
        LENDING
    ),
    row!(
        LoanSet,
        loan::loan_set,
        Rules {
            fee: BaseFee::PlusUnits(loan::loan_set::counterparty_signatures),
            counterparty: Some(loan::loan_set::check_counterparty),
            ..LENDING
        }
    ),
    row!(LoanDelete, loan::loan_delete, LENDING),
    row!(LoanManage, loan::loan_manage, LENDING),
    row!(
        LoanPay,
        loan::loan_pay,
        Rules {
            fee: BaseFee::Times(loan::loan_pay::fee_multiple),
            ..LENDING
        }
    ),
    row!(SponsorshipSet, sponsor::sponsorship_set),
    row!(SponsorshipTransfer, sponsor::sponsorship_transfer),
    row!(
        ConfidentialMPTConvert,
        confidential::confidential_mpt_convert,
        CONFIDENTIAL
    ),
    row!(
        ConfidentialMPTMergeInbox,
        confidential::confidential_mpt_merge_inbox,
        CONFIDENTIAL
    ),
    row!(
        ConfidentialMPTConvertBack,
        confidential::confidential_mpt_convert_back,
        CONFIDENTIAL
    ),
    row!(
        ConfidentialMPTSend,
        confidential::confidential_mpt_send,
        Rules {
            extra_features: Some(credential::ids_allowed),
            ..CONFIDENTIAL
        }
    ),
    row!(
        ConfidentialMPTClawback,
        confidential::confidential_mpt_clawback,
        CONFIDENTIAL
    ),
];

/// What the confidential MPT types pay: ten reference fees (`kConfidentialFeeMultiplier`).
const CONFIDENTIAL: Rules = Rules {
    fee: BaseFee::PlusUnits(confidential::extra_fee_units),
    ..Rules::NONE
};

/// What every LoanBroker and Loan type needs beyond LendingProtocol.
const LENDING: Rules = Rules::features(loan::lending_dependencies);

/// Every transaction type the engine applies.
pub static TRANSACTORS: &[Transactor] = ROWS;

/// Type codes the lookup table covers (definitions.json's codes are all below this).
const CODES: usize = 256;
/// A code with no row.
const NO_ROW: u8 = u8::MAX;

/// Row of each type code, built at compile time: the dispatch is one array index.
static ROW_BY_CODE: [u8; CODES] = row_by_code(ROWS);

const fn row_by_code(rows: &[Transactor]) -> [u8; CODES] {
    assert!(rows.len() < NO_ROW as usize, "too many rows for a u8 index");
    let mut by_code = [NO_ROW; CODES];
    let mut i = 0;
    while i < rows.len() {
        let code = rows[i].tx_type as usize;
        assert!(code < CODES, "a type code outside the lookup table");
        assert!(by_code[code] == NO_ROW, "two rows with one type code");
        by_code[code] = i as u8;
        i += 1;
    }
    by_code
}

/// The row of a `TransactionType` code, if the engine applies that type.
pub fn transactor(code: u16) -> Option<&'static Transactor> {
    let row = *ROW_BY_CODE.get(code as usize)?;
    TRANSACTORS.get(row as usize)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::definitions::defs;
    use std::collections::HashSet;

    #[test]
    fn rows_agree_with_definitions() {
        let d = defs();
        let mut codes = HashSet::new();
        let mut names = HashSet::new();
        for row in TRANSACTORS {
            let code = row.tx_type as u16;
            assert_eq!(
                d.transaction_types.get(row.name),
                Some(&code),
                "{} has code {code} here",
                row.name
            );
            assert_eq!(d.transaction_type_name(code), Some(row.name));
            assert_eq!(format!("{:?}", row.tx_type), row.name);
            assert!(codes.insert(code), "code {code} appears twice");
            assert!(names.insert(row.name), "{} appears twice", row.name);
        }
    }

    #[test]
    fn lookup_finds_every_row_and_nothing_else() {
        for row in TRANSACTORS {
            let found = transactor(row.tx_type as u16).expect("row found by its code");
            assert!(std::ptr::eq(found, row));
            assert_eq!(TxType::from_code(row.tx_type as u16), Some(row.tx_type));
        }
        let known: HashSet<u16> = TRANSACTORS.iter().map(|r| r.tx_type as u16).collect();
        for code in (0..=u16::MAX).filter(|c| !known.contains(c)) {
            assert!(transactor(code).is_none(), "code {code}");
        }
    }

    #[test]
    fn base_fees_follow_the_rows() {
        use crate::engine::transactor::base_fee;
        use crate::ledger::sf::sf;
        use crate::protocol::st::StValue;
        let s = sf();
        let tx = |t: TxType| {
            let mut o = StObject::new();
            o.set(s.transaction_type, StValue::UInt16(t as u16));
            o
        };
        let (base, inc) = (10, 2_000_000);
        assert_eq!(base_fee(&tx(TxType::Payment), base, inc), 10);
        assert_eq!(base_fee(&tx(TxType::AccountDelete), base, inc), inc);
        assert_eq!(base_fee(&tx(TxType::AMMCreate), base, inc), inc);
        // A fulfillment of 40 bytes: 32 + 40 / 16 more base fees, for EscrowFinish only.
        let mut finish = tx(TxType::EscrowFinish);
        finish.set(s.fulfillment, StValue::Blob(vec![0; 40]));
        assert_eq!(base_fee(&finish, base, inc), 10 * (1 + 34));
        finish.set(s.transaction_type, StValue::UInt16(TxType::Payment as u16));
        assert_eq!(base_fee(&finish, base, inc), 10);
        // An unknown type pays the reference fee.
        let mut unknown = StObject::new();
        unknown.set(s.transaction_type, StValue::UInt16(9999));
        assert_eq!(base_fee(&unknown, base, inc), 10);
    }

    #[test]
    fn only_batch_carries_inner_transactions() {
        use crate::engine::transactor::inner_transactions;
        use crate::ledger::sf::sf;
        use crate::protocol::st::StValue;
        for row in TRANSACTORS {
            let batch = row.tx_type == TxType::Batch;
            assert_eq!(row.rules.carries_inner.is_some(), batch, "{}", row.name);
            let mut tx = StObject::new();
            let code = StValue::UInt16(row.tx_type as u16);
            tx.set(sf().transaction_type, code);
            assert_eq!(inner_transactions(&tx, Ter::tesSUCCESS).is_some(), batch);
            assert!(inner_transactions(&tx, Ter::tecUNFUNDED).is_none());
        }
        assert!(inner_transactions(&StObject::new(), Ter::tesSUCCESS).is_none());
    }
}
