//! ledgerd: a ledger server that speaks the XRP Ledger's client API (rippled 2.x) over
//! WebSocket, HTTP JSON-RPC and a command line. One package: this library, and a thin
//! binary (`main.rs`) that parses the command line and calls [`app::start`].
//!
//! # Layout
//! The layers, lowest first; each imports only the ones below it (`tests/architecture.rs`
//! checks it, and that no function runs over 100 lines). docs/ARCHITECTURE.md draws them.
//! - [`protocol`]: keys, seeds, signatures, amounts, `Number`, the binary codec and its
//!   JSON form: byte-exact with rippled, xrpl.js and xrpl-py.
//! - [`ledger`]: ledger entries, keylets, flags, the multi-version state, views, SHAMaps,
//!   headers, directories and order-book indexes.
//! - [`engine`]: the transactor pipeline (preflight, preclaim, apply, invariants, metadata)
//!   and the registry of every transaction type it applies.
//! - [`ledgers`]: the open ledger the single writer applies to, closes in rippled's
//!   canonical order, memory's window of closed ledgers, snapshots and reverts.
//! - [`render`]: rippled's JSON shapes for transactions, metadata, ledgers and stream
//!   messages, written once for every handler and stream.
//! - [`store`]: the journal with group commit, snapshots, recovery and damage checks, and
//!   the history stores (SQLite; PostgreSQL for read nodes).
//! - [`node`]: the single writer (sequencer), closes and publishing, persistence, the
//!   history writer, subscriptions, and a read node's follower.
//! - [`rpc`]: the handler table (one file per method), rippled's error table, parameter
//!   parsing, masking, signing and submission, path finding, the command-line client.
//! - [`server`]: listeners, WebSocket and HTTP on one port, TLS, roles and admin networks,
//!   load accounting, the faucet, `/metrics`, shutdown.
//! - [`app`]: the wiring from a configuration to a running server, the development ledger
//!   (prefunded accounts, genesis files) and `serve --fork`.
//!
//! Beside them, below every layer: [`limits`] (what an operator may tune, documented, with
//! compile-time checks of how they relate), [`metrics`] (the Prometheus collectors) and
//! [`logs`] (the log, its levels and file, which `log_level` and `logrotate` change).
//!
//! `protocol`, `ledger`, `engine`, `ledgers` and `render` are pure: they never touch tokio,
//! files, sockets or processes (a test checks).

#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod app;
pub mod engine;
pub mod ledger;
pub mod ledgers;
pub mod limits;
pub mod logs;
pub mod metrics;
pub mod node;
pub mod protocol;
pub mod render;
pub mod rpc;
pub mod server;
pub mod store;
