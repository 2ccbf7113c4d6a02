//! rippled's `chooseLedgerEntryType` (`RPCHelpers.cpp`): the entry type a request's `type`
//! filter names, shared by `account_objects`, `ledger_data` and `ledger`.

use crate::protocol::definitions::defs;
use crate::rpc::error::RpcError;
use crate::rpc::Params;

/// `type` filter names (rippled's `rpcName`s and entry type names) of the entry types.
pub const TYPE_NAMES: &[(&str, &str)] = &[
    ("account", "AccountRoot"),
    ("amendments", "Amendments"),
    ("amm", "AMM"),
    ("bridge", "Bridge"),
    ("check", "Check"),
    ("credential", "Credential"),
    ("deposit_preauth", "DepositPreauth"),
    ("did", "DID"),
    ("directory", "DirectoryNode"),
    ("escrow", "Escrow"),
    ("fee", "FeeSettings"),
    ("hashes", "LedgerHashes"),
    ("mpt_issuance", "MPTokenIssuance"),
    ("mptoken", "MPToken"),
    ("nft_offer", "NFTokenOffer"),
    ("nft_page", "NFTokenPage"),
    ("nunl", "NegativeUNL"),
    ("offer", "Offer"),
    ("oracle", "Oracle"),
    ("payment_channel", "PayChannel"),
    ("permissioned_domain", "PermissionedDomain"),
    ("signer_list", "SignerList"),
    ("state", "RippleState"),
    ("ticket", "Ticket"),
    ("delegate", "Delegate"),
    ("vault", "Vault"),
    ("loan_broker", "LoanBroker"),
    ("loan", "Loan"),
    ("xchain_owned_claim_id", "XChainOwnedClaimID"),
    (
        "xchain_owned_create_account_claim_id",
        "XChainOwnedCreateAccountClaimID",
    ),
];

/// The ledger entry type code of an entry type name.
pub fn type_code(name: &str) -> Option<u16> {
    defs().ledger_entry_types.get(name).copied()
}

/// rippled's `chooseLedgerEntryType`: the entry type name a `type` value names.
pub fn chosen_type(params: &Params) -> Result<Option<&'static str>, RpcError> {
    let Some(v) = params.get("type") else {
        return Ok(None);
    };
    let text = v
        .as_str()
        .ok_or_else(|| RpcError::expected_field("type", "string"))?;
    TYPE_NAMES
        .iter()
        .find(|(rpc, name)| text.eq_ignore_ascii_case(rpc) || text.eq_ignore_ascii_case(name))
        .map(|(_, name)| Some(*name))
        .ok_or_else(|| RpcError::invalid_field("type"))
}
