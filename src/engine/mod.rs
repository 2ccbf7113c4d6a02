//! The pure transaction engine: the transactor pipeline and one file per transaction
//! type. No async runtime, no files, no sockets.
//!
//! Entry point: [`apply_transaction`] applies one decoded, signed transaction to a read
//! view and returns an [`Outcome`] (result code, metadata, the state writes). The ledger
//! store (`ledgers`) commits the writes; nothing here mutates shared state.
//!
//! - [`ter`]: result codes with rippled's names, numbers and messages.
//! - [`transactor`]: preflight / preclaim / apply / invariants / metadata, common checks.
//! - [`sandbox`]: the change set a transaction applies into.
//! - [`meta`]: threading and AffectedNodes.
//! - [`invariants`]: checks after every transaction.
//! - [`directory`]: owner directory pages.
//! - [`ripple`]: trust line creation, deletion and credit.
//! - [`account_set`], [`set_regular_key`], [`trust_set`], [`payment`], [`pay_chan`]:
//!   the transaction types.

pub mod account_set;
pub mod directory;
pub mod entry;
pub mod invariants;
pub mod meta;
pub mod pay_chan;
pub mod payment;
pub mod ripple;
pub mod sandbox;
pub mod set_regular_key;
pub mod ter;
pub mod transactor;
pub mod trust_set;
pub mod tx_type;

pub use ter::Ter;
pub use transactor::{apply_transaction, ApplyConfig, Outcome};
pub use tx_type::TxType;
