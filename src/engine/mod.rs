//! The pure transaction engine: the transactor pipeline and one file per transaction
//! type. No async runtime, no files, no sockets.
//!
//! Entry point: [`apply_transaction`] applies one decoded, signed transaction to a read
//! view and returns an [`Outcome`] (result code, metadata, the state writes). The
//! ledgers (`crate::ledgers`) commit the writes; nothing here mutates shared state.
//!
//! The pipeline:
//! - [`ter`]: result codes with rippled's names, numbers and messages.
//! - [`transactor`]: preflight / preclaim / apply / invariants / metadata, common checks.
//! - [`registry`]: the [`registry::TRANSACTORS`] table, one row per transaction type with
//!   its `preflight` / `preclaim` / `do_apply`, looked up by type code.
//! - [`tx_type`]: the [`TxType`] codes.
//! - [`sandbox`]: the change set a transaction applies into.
//! - [`meta`]: threading and AffectedNodes.
//! - [`invariants`]: checks after every transaction.
//!
//! Ledger helpers the types share:
//! - [`entry`]: builders and typed edits of ledger entries.
//! - [`directory`]: owner directory pages.
//! - [`ripple`]: trust line creation, deletion and credit.
//! - [`channel`]: reading, expiring and closing payment channels.
//!
//! The transaction types, one file each, named after rippled's type in snake case; each
//! exposes `preflight` (no ledger, never a tec), `preclaim` (reads only) and `do_apply`
//! (writes into the sandbox), and its flags as `tf`:
//! - [`payment`], [`account_set`], [`set_regular_key`], [`trust_set`],
//!   [`payment_channel_create`], [`payment_channel_fund`], [`payment_channel_claim`].

pub mod account_delete;
pub mod account_set;
pub mod amm;
pub mod amm_bid;
pub mod amm_clawback;
pub mod amm_create;
pub mod amm_delete;
pub mod amm_deposit;
pub mod amm_math;
pub mod amm_vote;
pub mod amm_withdraw;
pub mod batch;
pub mod channel;
pub mod check;
pub mod check_cancel;
pub mod check_cash;
pub mod check_create;
pub mod clawback;
pub mod credential;
pub mod credential_accept;
pub mod credential_create;
pub mod credential_delete;
pub mod delegate;
pub mod delegate_set;
pub mod deposit_preauth;
pub mod did_delete;
pub mod did_set;
pub mod directory;
pub mod entry;
pub mod escrow;
pub mod escrow_cancel;
pub mod escrow_create;
pub mod escrow_finish;
pub mod escrow_token;
pub mod flow;
pub mod funds;
pub mod invariants;
pub mod loan;
pub mod loan_broker;
pub mod loan_broker_cover_clawback;
pub mod loan_broker_cover_deposit;
pub mod loan_broker_cover_withdraw;
pub mod loan_broker_delete;
pub mod loan_broker_set;
pub mod loan_delete;
pub mod loan_manage;
pub mod loan_math;
pub mod loan_pay;
pub mod loan_payment;
pub mod loan_set;
pub mod meta;
pub mod mpt;
pub mod mptoken_authorize;
pub mod mptoken_issuance_create;
pub mod mptoken_issuance_destroy;
pub mod mptoken_issuance_set;
pub mod nft;
pub mod nftoken_accept_offer;
pub mod nftoken_burn;
pub mod nftoken_cancel_offer;
pub mod nftoken_create_offer;
pub mod nftoken_mint;
pub mod nftoken_modify;
pub mod offer;
pub mod offer_cancel;
pub mod offer_create;
pub mod oracle_delete;
pub mod oracle_set;
pub mod payment;
pub mod payment_channel_claim;
pub mod payment_channel_create;
pub mod payment_channel_fund;
pub mod permissioned_dex;
pub mod permissioned_domain_delete;
pub mod permissioned_domain_set;
pub mod registry;
pub mod ripple;
pub mod sandbox;
pub mod set_regular_key;
pub mod signer_list_set;
pub mod ter;
pub mod ticket_create;
pub mod transactor;
pub mod trust_set;
pub mod tx_type;
pub mod vault;
pub mod vault_clawback;
pub mod vault_create;
pub mod vault_delete;
pub mod vault_deposit;
pub mod vault_math;
pub mod vault_set;
pub mod vault_withdraw;
pub mod xchain;
pub mod xchain_account_create_commit;
pub mod xchain_add_account_create_attestation;
pub mod xchain_add_claim_attestation;
pub mod xchain_claim;
pub mod xchain_commit;
pub mod xchain_create_bridge;
pub mod xchain_create_claim_id;
pub mod xchain_modify_bridge;

pub use ter::Ter;
pub use transactor::{apply_transaction, ApplyConfig, Outcome};
pub use tx_type::TxType;
