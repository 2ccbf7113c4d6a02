//! The pure transaction engine: the transactor pipeline at the root, the 72 transaction
//! types in family folders. No async runtime, no files, no sockets.
//!
//! Entry point: [`apply_transaction`] applies one decoded, signed transaction to a read
//! view and returns an [`Outcome`] (result code, metadata, the state writes). The
//! ledgers (`crate::ledgers`) commit the writes; nothing here mutates shared state.
//!
//! The pipeline, at the root; it names no transaction type (`tests/architecture.rs`):
//! - [`transactor`]: preflight / preclaim / apply / invariants / metadata, the common
//!   checks (sequence and tickets, fee, signatures, multi-signing, delegates).
//! - [`registry`]: [`registry::TRANSACTORS`], one row per type: its module's `preflight`,
//!   `preclaim` and `do_apply`, and its [`registry::Rules`] (base fee, counterparty,
//!   inner transactions, AccountRoots it may delete, DEX invariant, granular
//!   permissions, the amendments it needs beyond its type's), looked up by type code.
//! - [`tx_type`]: the [`TxType`] codes. [`ter`]: result codes with rippled's names,
//!   numbers and messages.
//! - [`sandbox`]: the change set a transaction applies into. [`meta`]: threading and
//!   AffectedNodes. [`invariants`]: the checks after every transaction.
//! - Ledger helpers every family uses: [`entry`] (builders and typed edits of entries),
//!   [`directory`] (owner directory pages), [`ripple`] (trust lines), [`funds`] (what an
//!   account can spend), and [`flow`], the payment engine Payment and OfferCreate share.
//!
//! The types, one file each named after rippled's type in snake case, in their family's
//! folder; each exposes `preflight` (no ledger, never a tec), `preclaim` (reads only) and
//! `do_apply` (writes into the sandbox), and its flags as `tf`. What a family's types
//! share is in its `mod.rs` or a helper file beside them, never in another type's file:
//! - [`account`]: AccountSet, SetRegularKey, SignerListSet, TicketCreate, DepositPreauth,
//!   AccountDelete; signer lists and preauthorizations.
//! - [`payment`]: Payment. [`trust`]: TrustSet, Clawback. [`dex`]: OfferCreate,
//!   OfferCancel; offers in the ledger, the permissioned DEX (`permissioned_dex.rs`).
//! - [`amm`]: the seven AMM types; the pool, `amm_math.rs`, `withdrawal.rs`.
//! - [`escrow`]: EscrowCreate / Finish / Cancel; escrowed tokens (`token_lock.rs`).
//! - [`check`]: CheckCreate / Cash / Cancel. [`channel`]: PaymentChannelCreate / Fund /
//!   Claim.
//! - [`nft`]: the six NFToken types; token IDs, pages, offers.
//! - [`mpt`]: the four MPToken types; issuances and holdings.
//! - [`vault`]: the six Vault types; shares, the pseudo-account, `vault_math.rs`.
//! - [`loan`]: the five LoanBroker and four Loan types; the broker (`broker.rs`), the
//!   loan arithmetic (`loan_math.rs`) and its payments (`repayment.rs`).
//! - [`xchain`]: the eight XChain types; bridges, attestations, claims.
//! - [`credential`], [`did`], [`oracle`], [`domain`] (PermissionedDomainSet / Delete),
//!   [`delegate`] (DelegateSet; a delegate's permission check), [`batch`] (Batch; applying
//!   its inner transactions).

pub mod account;
pub mod amm;
pub mod batch;
pub mod channel;
pub mod check;
pub mod confidential;
pub mod consequences;
pub mod credential;
pub mod delegate;
pub mod dex;
pub mod did;
pub mod directory;
pub mod domain;
pub mod entry;
pub mod escrow;
pub mod flow;
pub mod funds;
pub mod invariants;
pub mod loan;
pub mod meta;
pub mod mpt;
pub mod nft;
pub mod oracle;
pub mod payment;
pub mod registry;
pub mod ripple;
pub mod sandbox;
pub mod sponsor;
pub mod ter;
pub mod transactor;
pub mod trust;
pub mod tx_type;
pub mod vault;
pub mod xchain;

pub use ter::Ter;
pub use transactor::{apply_transaction, ApplyConfig, Outcome};
pub use tx_type::TxType;

// The type modules other layers and the tests name for their flags, also at the path they
// had before the families.
pub use account::account_set;
pub use channel::payment_channel_claim;
pub use dex::offer_create;
pub use mpt::{mptoken_authorize, mptoken_issuance_create, mptoken_issuance_set};
pub use nft::{nftoken_create_offer, nftoken_mint};
pub use trust::trust_set;
