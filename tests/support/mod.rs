//! Helpers shared by the integration tests. Each test binary (`tests/engine.rs`,
//! `tests/server.rs`, ...) says `mod support;` once, its modules (`#[path]`ed from the
//! folder of the binary's name) `use crate::support;`; what one binary does not use is
//! dead code there, hence the allow. The tests of a binary run side by side as threads of
//! one process: what is process-wide (an install, a counter) is done once or behind a lock.
//!
//! - [`engine`]: the ledger-story environment (accounts with real keys, transactions built
//!   field by field, signed, round-tripped through binary and applied to a standalone store);
//!   the builders more than one family's tests share beside it: [`mpt`], [`xchain`],
//!   [`credentials`], [`batch`], [`sponsor`].
//! - [`server`]: the real binary, the CLI, and in-process servers (`Node`).
//! - [`ws`] and [`http`]: the WebSocket and HTTP clients; [`reply`]: reading error replies.
//! - [`fill`]: a real server's ledgers filled over JSON-RPC (genesis payments, closes).
//! - [`keys`] and [`payment`]: key pairs and well-known values; locally signed transactions.
//! - [`accounts`]: an account's root, sequence and balance in a store's open ledger.
//! - [`market`]: the DEX API tests' harness: a server and a WebSocket on which accounts
//!   are funded, trust gateways, hold IOUs and place offers with real transactions.
//! - [`journal`]: the store's journal on disk: open, replay, list segments.
//! - [`persist`]: a driver playing the sequencer's role over persistence.
//! - [`postgres`]: a throwaway PostgreSQL cluster (installed from Debian when missing).
//! - [`vectors`]: the JSON vectors in `tests/vectors/`.
//! - [`difftest`]: random inputs, normalization and the library oracles of `diff_libs`;
//!   [`tools`]: the Python and Node installs the interop and difference suites make.
#![allow(dead_code)]

pub mod accounts;
pub mod batch;
pub mod confidential;
pub mod credentials;
pub mod difftest;
pub mod engine;
pub mod fill;
pub mod http;
pub mod journal;
pub mod keys;
pub mod market;
pub mod mpt;
pub mod payment;
pub mod persist;
pub mod postgres;
pub mod reply;
pub mod server;
pub mod sponsor;
pub mod tools;
pub mod vectors;
pub mod ws;
pub mod xchain;
