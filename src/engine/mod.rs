//! The pure transaction engine: the transactor pipeline at the root, the transaction
//! types in family folders. No async runtime, no files, no sockets.

pub mod account;
pub mod amm;
pub mod batch;
pub mod channel;
pub mod check;
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
pub mod ter;
pub mod transactor;
pub mod trust;
pub mod tx_type;
pub mod vault;
pub mod xchain;

pub use ter::Ter;
pub use transactor::{apply_transaction, ApplyConfig, Outcome};
pub use tx_type::TxType;

// The type modules other layers and the tests name by their flags, at the path they had
// before the families.
pub use account::account_set;
pub use channel::payment_channel_claim;
pub use dex::offer_create;
pub use mpt::{mptoken_authorize, mptoken_issuance_create, mptoken_issuance_set};
pub use nft::{nftoken_create_offer, nftoken_mint};
pub use trust::trust_set;
