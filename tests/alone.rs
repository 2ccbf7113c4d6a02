//! Tests that must be alone in their process (`tests/alone/`): `submit_once` counts the
//! crate's process-wide encodes and transaction IDs, and `ws_hardening` loads both cores
//! with hundreds of megabytes while it measures memory and latency. Each test holds
//! [`ALONE`] for its whole run, so they never overlap, and no other binary's test shares
//! their process. `cargo test --test alone`.

mod support;

/// Held by every test of this binary for its whole run: one test at a time.
pub static ALONE: tokio::sync::Mutex<()> = tokio::sync::Mutex::const_new(());

#[path = "alone/submit_once.rs"]
mod submit_once;
#[path = "alone/ws_hardening.rs"]
mod ws_hardening;
