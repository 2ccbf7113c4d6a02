//! ledgerd: a ledger server that speaks the XRP Ledger's client API.
//!
//! # Layout
//! - [`limits`]: every tuned bound (message sizes, connections, paging), documented.
//! - [`protocol`]: pure; keys, seeds, signatures, amounts, the binary codec: byte-exact
//!   with rippled, xrpl.js and xrpl-py.
//! - [`ledger`]: pure; ledger entries, keylets, the DashMap-backed state, headers and close.
//! - [`engine`]: pure; the transactor pipeline, one file per transaction type, invariants.
//! - [`rpc`]: the handler table, rippled's error table, parameter parsing, masking, and
//!   one file per method.
//! - [`server`]: listeners, WebSocket and HTTP on one port, roles, subscriptions, shutdown.
//! - [`node`]: the single writer (sequencer), ledger closes, persistence, subscriptions.
//! - [`store`]: the journal with group commit, snapshots and recovery.
//!
//! `protocol`, `ledger` and `engine` never touch tokio, files or sockets (a test checks).

#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod app;
pub mod engine;
pub mod ledger;
pub mod ledgers;
pub mod limits;
pub mod metrics;
pub mod node;
pub mod protocol;
pub mod render;
pub mod rpc;
pub mod server;
pub mod store;
