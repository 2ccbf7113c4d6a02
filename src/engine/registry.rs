//! The transactor table: one row per transaction type the engine applies, naming the
//! type's three phases (rippled's `applySteps.cpp` dispatch). Adding a type is a new
//! file with `preflight` / `preclaim` / `do_apply`, a [`TxType`] variant and a row here.

use super::delegate::delegate_set;
use super::ter::Ter;
use super::transactor::ApplyContext;
use super::tx_type::TxType;
use super::{
    account::account_delete, account::account_set, account::deposit_preauth,
    account::set_regular_key, account::signer_list_set, account::ticket_create, amm::amm_bid,
    amm::amm_clawback, amm::amm_create, amm::amm_delete, amm::amm_deposit, amm::amm_vote,
    amm::amm_withdraw, channel::payment_channel_claim, channel::payment_channel_create,
    channel::payment_channel_fund, check::check_cancel, check::check_cash, check::check_create,
    dex::offer_cancel, dex::offer_create, did::did_delete, did::did_set, escrow::escrow_cancel,
    escrow::escrow_create, escrow::escrow_finish, mpt::mptoken_authorize,
    mpt::mptoken_issuance_create, mpt::mptoken_issuance_destroy, mpt::mptoken_issuance_set,
    nft::nftoken_accept_offer, nft::nftoken_burn, nft::nftoken_cancel_offer,
    nft::nftoken_create_offer, nft::nftoken_mint, nft::nftoken_modify, oracle::oracle_delete,
    oracle::oracle_set, payment::payment, trust::clawback, trust::trust_set,
    xchain::xchain_create_bridge,
};
use super::{
    credential::credential_accept, credential::credential_create, credential::credential_delete,
    domain::permissioned_domain_delete, domain::permissioned_domain_set,
};
use super::{
    loan::loan_broker_cover_clawback, loan::loan_broker_cover_deposit,
    loan::loan_broker_cover_withdraw, loan::loan_broker_delete, loan::loan_broker_set,
    loan::loan_delete, loan::loan_manage, loan::loan_pay, loan::loan_set,
};
use super::{
    vault::vault_clawback, vault::vault_create, vault::vault_delete, vault::vault_deposit,
    vault::vault_set, vault::vault_withdraw,
};
use super::{xchain::xchain_account_create_commit, xchain::xchain_add_account_create_attestation};
use super::{
    xchain::xchain_add_claim_attestation, xchain::xchain_claim, xchain::xchain_commit,
    xchain::xchain_create_claim_id, xchain::xchain_modify_bridge,
};
use crate::ledger::view::ReadView;
use crate::protocol::st::StObject;
use crate::protocol::types::AccountId;

/// Type-specific checks that need no ledger; never returns a tec.
pub type Preflight = fn(&StObject, &AccountId) -> Ter;
/// Type-specific checks that only read the ledger; a tec here still claims the fee.
pub type Preclaim = fn(&dyn ReadView, &StObject, &AccountId) -> Ter;
/// The transaction's effect, written into the sandbox.
pub type DoApply = fn(&mut ApplyContext<'_, '_>) -> Ter;

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
}

const ROWS: &[Transactor] = &[
    Transactor {
        tx_type: TxType::OfferCreate,
        name: "OfferCreate",
        preflight: offer_create::preflight,
        preclaim: offer_create::preclaim,
        do_apply: offer_create::do_apply,
    },
    Transactor {
        tx_type: TxType::OfferCancel,
        name: "OfferCancel",
        preflight: offer_cancel::preflight,
        preclaim: offer_cancel::preclaim,
        do_apply: offer_cancel::do_apply,
    },
    Transactor {
        tx_type: TxType::TicketCreate,
        name: "TicketCreate",
        preflight: ticket_create::preflight,
        preclaim: ticket_create::preclaim,
        do_apply: ticket_create::do_apply,
    },
    Transactor {
        tx_type: TxType::SignerListSet,
        name: "SignerListSet",
        preflight: signer_list_set::preflight,
        preclaim: signer_list_set::preclaim,
        do_apply: signer_list_set::do_apply,
    },
    Transactor {
        tx_type: TxType::Payment,
        name: "Payment",
        preflight: payment::preflight,
        preclaim: payment::preclaim,
        do_apply: payment::do_apply,
    },
    Transactor {
        tx_type: TxType::AccountSet,
        name: "AccountSet",
        preflight: account_set::preflight,
        preclaim: account_set::preclaim,
        do_apply: account_set::do_apply,
    },
    Transactor {
        tx_type: TxType::SetRegularKey,
        name: "SetRegularKey",
        preflight: set_regular_key::preflight,
        preclaim: set_regular_key::preclaim,
        do_apply: set_regular_key::do_apply,
    },
    Transactor {
        tx_type: TxType::PaymentChannelCreate,
        name: "PaymentChannelCreate",
        preflight: payment_channel_create::preflight,
        preclaim: payment_channel_create::preclaim,
        do_apply: payment_channel_create::do_apply,
    },
    Transactor {
        tx_type: TxType::PaymentChannelFund,
        name: "PaymentChannelFund",
        preflight: payment_channel_fund::preflight,
        preclaim: payment_channel_fund::preclaim,
        do_apply: payment_channel_fund::do_apply,
    },
    Transactor {
        tx_type: TxType::PaymentChannelClaim,
        name: "PaymentChannelClaim",
        preflight: payment_channel_claim::preflight,
        preclaim: payment_channel_claim::preclaim,
        do_apply: payment_channel_claim::do_apply,
    },
    Transactor {
        tx_type: TxType::DepositPreauth,
        name: "DepositPreauth",
        preflight: deposit_preauth::preflight,
        preclaim: deposit_preauth::preclaim,
        do_apply: deposit_preauth::do_apply,
    },
    Transactor {
        tx_type: TxType::TrustSet,
        name: "TrustSet",
        preflight: trust_set::preflight,
        preclaim: trust_set::preclaim,
        do_apply: trust_set::do_apply,
    },
    Transactor {
        tx_type: TxType::AccountDelete,
        name: "AccountDelete",
        preflight: account_delete::preflight,
        preclaim: account_delete::preclaim,
        do_apply: account_delete::do_apply,
    },
    Transactor {
        tx_type: TxType::Clawback,
        name: "Clawback",
        preflight: clawback::preflight,
        preclaim: clawback::preclaim,
        do_apply: clawback::do_apply,
    },
    Transactor {
        tx_type: TxType::EscrowCreate,
        name: "EscrowCreate",
        preflight: escrow_create::preflight,
        preclaim: escrow_create::preclaim,
        do_apply: escrow_create::do_apply,
    },
    Transactor {
        tx_type: TxType::EscrowFinish,
        name: "EscrowFinish",
        preflight: escrow_finish::preflight,
        preclaim: escrow_finish::preclaim,
        do_apply: escrow_finish::do_apply,
    },
    Transactor {
        tx_type: TxType::EscrowCancel,
        name: "EscrowCancel",
        preflight: escrow_cancel::preflight,
        preclaim: escrow_cancel::preclaim,
        do_apply: escrow_cancel::do_apply,
    },
    Transactor {
        tx_type: TxType::CheckCreate,
        name: "CheckCreate",
        preflight: check_create::preflight,
        preclaim: check_create::preclaim,
        do_apply: check_create::do_apply,
    },
    Transactor {
        tx_type: TxType::CheckCash,
        name: "CheckCash",
        preflight: check_cash::preflight,
        preclaim: check_cash::preclaim,
        do_apply: check_cash::do_apply,
    },
    Transactor {
        tx_type: TxType::CheckCancel,
        name: "CheckCancel",
        preflight: check_cancel::preflight,
        preclaim: check_cancel::preclaim,
        do_apply: check_cancel::do_apply,
    },
    Transactor {
        tx_type: TxType::AMMCreate,
        name: "AMMCreate",
        preflight: amm_create::preflight,
        preclaim: amm_create::preclaim,
        do_apply: amm_create::do_apply,
    },
    Transactor {
        tx_type: TxType::AMMDeposit,
        name: "AMMDeposit",
        preflight: amm_deposit::preflight,
        preclaim: amm_deposit::preclaim,
        do_apply: amm_deposit::do_apply,
    },
    Transactor {
        tx_type: TxType::AMMWithdraw,
        name: "AMMWithdraw",
        preflight: amm_withdraw::preflight,
        preclaim: amm_withdraw::preclaim,
        do_apply: amm_withdraw::do_apply,
    },
    Transactor {
        tx_type: TxType::AMMVote,
        name: "AMMVote",
        preflight: amm_vote::preflight,
        preclaim: amm_vote::preclaim,
        do_apply: amm_vote::do_apply,
    },
    Transactor {
        tx_type: TxType::AMMBid,
        name: "AMMBid",
        preflight: amm_bid::preflight,
        preclaim: amm_bid::preclaim,
        do_apply: amm_bid::do_apply,
    },
    Transactor {
        tx_type: TxType::AMMDelete,
        name: "AMMDelete",
        preflight: amm_delete::preflight,
        preclaim: amm_delete::preclaim,
        do_apply: amm_delete::do_apply,
    },
    Transactor {
        tx_type: TxType::AMMClawback,
        name: "AMMClawback",
        preflight: amm_clawback::preflight,
        preclaim: amm_clawback::preclaim,
        do_apply: amm_clawback::do_apply,
    },
    Transactor {
        tx_type: TxType::MPTokenIssuanceCreate,
        name: "MPTokenIssuanceCreate",
        preflight: mptoken_issuance_create::preflight,
        preclaim: mptoken_issuance_create::preclaim,
        do_apply: mptoken_issuance_create::do_apply,
    },
    Transactor {
        tx_type: TxType::MPTokenIssuanceDestroy,
        name: "MPTokenIssuanceDestroy",
        preflight: mptoken_issuance_destroy::preflight,
        preclaim: mptoken_issuance_destroy::preclaim,
        do_apply: mptoken_issuance_destroy::do_apply,
    },
    Transactor {
        tx_type: TxType::MPTokenIssuanceSet,
        name: "MPTokenIssuanceSet",
        preflight: mptoken_issuance_set::preflight,
        preclaim: mptoken_issuance_set::preclaim,
        do_apply: mptoken_issuance_set::do_apply,
    },
    Transactor {
        tx_type: TxType::MPTokenAuthorize,
        name: "MPTokenAuthorize",
        preflight: mptoken_authorize::preflight,
        preclaim: mptoken_authorize::preclaim,
        do_apply: mptoken_authorize::do_apply,
    },
    Transactor {
        tx_type: TxType::NFTokenMint,
        name: "NFTokenMint",
        preflight: nftoken_mint::preflight,
        preclaim: nftoken_mint::preclaim,
        do_apply: nftoken_mint::do_apply,
    },
    Transactor {
        tx_type: TxType::NFTokenBurn,
        name: "NFTokenBurn",
        preflight: nftoken_burn::preflight,
        preclaim: nftoken_burn::preclaim,
        do_apply: nftoken_burn::do_apply,
    },
    Transactor {
        tx_type: TxType::NFTokenCreateOffer,
        name: "NFTokenCreateOffer",
        preflight: nftoken_create_offer::preflight,
        preclaim: nftoken_create_offer::preclaim,
        do_apply: nftoken_create_offer::do_apply,
    },
    Transactor {
        tx_type: TxType::NFTokenCancelOffer,
        name: "NFTokenCancelOffer",
        preflight: nftoken_cancel_offer::preflight,
        preclaim: nftoken_cancel_offer::preclaim,
        do_apply: nftoken_cancel_offer::do_apply,
    },
    Transactor {
        tx_type: TxType::NFTokenAcceptOffer,
        name: "NFTokenAcceptOffer",
        preflight: nftoken_accept_offer::preflight,
        preclaim: nftoken_accept_offer::preclaim,
        do_apply: nftoken_accept_offer::do_apply,
    },
    Transactor {
        tx_type: TxType::NFTokenModify,
        name: "NFTokenModify",
        preflight: nftoken_modify::preflight,
        preclaim: nftoken_modify::preclaim,
        do_apply: nftoken_modify::do_apply,
    },
    Transactor {
        tx_type: TxType::XChainCreateBridge,
        name: "XChainCreateBridge",
        preflight: xchain_create_bridge::preflight,
        preclaim: xchain_create_bridge::preclaim,
        do_apply: xchain_create_bridge::do_apply,
    },
    Transactor {
        tx_type: TxType::DIDSet,
        name: "DIDSet",
        preflight: did_set::preflight,
        preclaim: did_set::preclaim,
        do_apply: did_set::do_apply,
    },
    Transactor {
        tx_type: TxType::DIDDelete,
        name: "DIDDelete",
        preflight: did_delete::preflight,
        preclaim: did_delete::preclaim,
        do_apply: did_delete::do_apply,
    },
    Transactor {
        tx_type: TxType::OracleSet,
        name: "OracleSet",
        preflight: oracle_set::preflight,
        preclaim: oracle_set::preclaim,
        do_apply: oracle_set::do_apply,
    },
    Transactor {
        tx_type: TxType::OracleDelete,
        name: "OracleDelete",
        preflight: oracle_delete::preflight,
        preclaim: oracle_delete::preclaim,
        do_apply: oracle_delete::do_apply,
    },
    Transactor {
        tx_type: TxType::CredentialCreate,
        name: "CredentialCreate",
        preflight: credential_create::preflight,
        preclaim: credential_create::preclaim,
        do_apply: credential_create::do_apply,
    },
    Transactor {
        tx_type: TxType::CredentialAccept,
        name: "CredentialAccept",
        preflight: credential_accept::preflight,
        preclaim: credential_accept::preclaim,
        do_apply: credential_accept::do_apply,
    },
    Transactor {
        tx_type: TxType::CredentialDelete,
        name: "CredentialDelete",
        preflight: credential_delete::preflight,
        preclaim: credential_delete::preclaim,
        do_apply: credential_delete::do_apply,
    },
    Transactor {
        tx_type: TxType::PermissionedDomainSet,
        name: "PermissionedDomainSet",
        preflight: permissioned_domain_set::preflight,
        preclaim: permissioned_domain_set::preclaim,
        do_apply: permissioned_domain_set::do_apply,
    },
    Transactor {
        tx_type: TxType::PermissionedDomainDelete,
        name: "PermissionedDomainDelete",
        preflight: permissioned_domain_delete::preflight,
        preclaim: permissioned_domain_delete::preclaim,
        do_apply: permissioned_domain_delete::do_apply,
    },
    Transactor {
        tx_type: TxType::DelegateSet,
        name: "DelegateSet",
        preflight: delegate_set::preflight,
        preclaim: delegate_set::preclaim,
        do_apply: delegate_set::do_apply,
    },
    Transactor {
        tx_type: TxType::VaultCreate,
        name: "VaultCreate",
        preflight: vault_create::preflight,
        preclaim: vault_create::preclaim,
        do_apply: vault_create::do_apply,
    },
    Transactor {
        tx_type: TxType::VaultSet,
        name: "VaultSet",
        preflight: vault_set::preflight,
        preclaim: vault_set::preclaim,
        do_apply: vault_set::do_apply,
    },
    Transactor {
        tx_type: TxType::VaultDelete,
        name: "VaultDelete",
        preflight: vault_delete::preflight,
        preclaim: vault_delete::preclaim,
        do_apply: vault_delete::do_apply,
    },
    Transactor {
        tx_type: TxType::VaultDeposit,
        name: "VaultDeposit",
        preflight: vault_deposit::preflight,
        preclaim: vault_deposit::preclaim,
        do_apply: vault_deposit::do_apply,
    },
    Transactor {
        tx_type: TxType::VaultWithdraw,
        name: "VaultWithdraw",
        preflight: vault_withdraw::preflight,
        preclaim: vault_withdraw::preclaim,
        do_apply: vault_withdraw::do_apply,
    },
    Transactor {
        tx_type: TxType::VaultClawback,
        name: "VaultClawback",
        preflight: vault_clawback::preflight,
        preclaim: vault_clawback::preclaim,
        do_apply: vault_clawback::do_apply,
    },
    Transactor {
        tx_type: TxType::Batch,
        name: "Batch",
        preflight: super::batch::batch::preflight,
        preclaim: super::batch::batch::preclaim,
        do_apply: super::batch::batch::do_apply,
    },
    Transactor {
        tx_type: TxType::XChainModifyBridge,
        name: "XChainModifyBridge",
        preflight: xchain_modify_bridge::preflight,
        preclaim: xchain_modify_bridge::preclaim,
        do_apply: xchain_modify_bridge::do_apply,
    },
    Transactor {
        tx_type: TxType::XChainCreateClaimID,
        name: "XChainCreateClaimID",
        preflight: xchain_create_claim_id::preflight,
        preclaim: xchain_create_claim_id::preclaim,
        do_apply: xchain_create_claim_id::do_apply,
    },
    Transactor {
        tx_type: TxType::XChainCommit,
        name: "XChainCommit",
        preflight: xchain_commit::preflight,
        preclaim: xchain_commit::preclaim,
        do_apply: xchain_commit::do_apply,
    },
    Transactor {
        tx_type: TxType::XChainClaim,
        name: "XChainClaim",
        preflight: xchain_claim::preflight,
        preclaim: xchain_claim::preclaim,
        do_apply: xchain_claim::do_apply,
    },
    Transactor {
        tx_type: TxType::XChainAddClaimAttestation,
        name: "XChainAddClaimAttestation",
        preflight: xchain_add_claim_attestation::preflight,
        preclaim: xchain_add_claim_attestation::preclaim,
        do_apply: xchain_add_claim_attestation::do_apply,
    },
    Transactor {
        tx_type: TxType::XChainAccountCreateCommit,
        name: "XChainAccountCreateCommit",
        preflight: xchain_account_create_commit::preflight,
        preclaim: xchain_account_create_commit::preclaim,
        do_apply: xchain_account_create_commit::do_apply,
    },
    Transactor {
        tx_type: TxType::XChainAddAccountCreateAttestation,
        name: "XChainAddAccountCreateAttestation",
        preflight: xchain_add_account_create_attestation::preflight,
        preclaim: xchain_add_account_create_attestation::preclaim,
        do_apply: xchain_add_account_create_attestation::do_apply,
    },
    Transactor {
        tx_type: TxType::LoanBrokerSet,
        name: "LoanBrokerSet",
        preflight: loan_broker_set::preflight,
        preclaim: loan_broker_set::preclaim,
        do_apply: loan_broker_set::do_apply,
    },
    Transactor {
        tx_type: TxType::LoanBrokerDelete,
        name: "LoanBrokerDelete",
        preflight: loan_broker_delete::preflight,
        preclaim: loan_broker_delete::preclaim,
        do_apply: loan_broker_delete::do_apply,
    },
    Transactor {
        tx_type: TxType::LoanBrokerCoverDeposit,
        name: "LoanBrokerCoverDeposit",
        preflight: loan_broker_cover_deposit::preflight,
        preclaim: loan_broker_cover_deposit::preclaim,
        do_apply: loan_broker_cover_deposit::do_apply,
    },
    Transactor {
        tx_type: TxType::LoanBrokerCoverWithdraw,
        name: "LoanBrokerCoverWithdraw",
        preflight: loan_broker_cover_withdraw::preflight,
        preclaim: loan_broker_cover_withdraw::preclaim,
        do_apply: loan_broker_cover_withdraw::do_apply,
    },
    Transactor {
        tx_type: TxType::LoanBrokerCoverClawback,
        name: "LoanBrokerCoverClawback",
        preflight: loan_broker_cover_clawback::preflight,
        preclaim: loan_broker_cover_clawback::preclaim,
        do_apply: loan_broker_cover_clawback::do_apply,
    },
    Transactor {
        tx_type: TxType::LoanSet,
        name: "LoanSet",
        preflight: loan_set::preflight,
        preclaim: loan_set::preclaim,
        do_apply: loan_set::do_apply,
    },
    Transactor {
        tx_type: TxType::LoanDelete,
        name: "LoanDelete",
        preflight: loan_delete::preflight,
        preclaim: loan_delete::preclaim,
        do_apply: loan_delete::do_apply,
    },
    Transactor {
        tx_type: TxType::LoanManage,
        name: "LoanManage",
        preflight: loan_manage::preflight,
        preclaim: loan_manage::preclaim,
        do_apply: loan_manage::do_apply,
    },
    Transactor {
        tx_type: TxType::LoanPay,
        name: "LoanPay",
        preflight: loan_pay::preflight,
        preclaim: loan_pay::preclaim,
        do_apply: loan_pay::do_apply,
    },
];

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
}
