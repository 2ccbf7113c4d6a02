//! rippled's JSON renderings, in one place: transactions and their metadata in the API v1
//! and v2 shapes (`delivered_amount`, `DeliverMax`, `ctid`), ledger headers and entries,
//! and the stream messages (`ledgerClosed`, `transaction`). Every handler and every stream
//! renders through here, so a reply and a stream message can never disagree.
//!
//! Pure: no async runtime, no files, no sockets. Above [`crate::ledgers`] (it renders
//! its `TxEntry` and `ClosedLedger`), below the store, the node and the RPC layer.
//!
//! - [`tx`]: a transaction, its metadata, `delivered_amount`, `DeliverMax`, CTIDs.
//! - [`ledger`]: ledger headers, entries, the `ledger` stream's fields.
//! - [`nft`]: the NFToken fields of a transaction's metadata (`nftoken_id`, `offer_id`).
//! - [`queue`]: a transaction in the queue (`account_info` and `ledger` with `queue`).
//! - [`rows`]: rendered account_tx rows, kept by bytes.
//! - [`stream`]: the `transaction` stream message.
//! - [`book_changes`]: the `bookChanges` object (book_changes method and stream).
//! - [`consensus`]: the `consensusPhase` and `validationReceived` stream messages.
//! - [`server_status`]: the `server` stream's `serverStatus` (the fee summary).
//!
//! Times print through [`crate::protocol::time`].

pub mod book_changes;
pub mod consensus;
pub mod ledger;
pub mod nft;
pub mod queue;
pub mod rows;
pub mod server_status;
pub mod stream;
pub mod tx;
