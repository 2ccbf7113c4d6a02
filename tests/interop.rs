//! The real client libraries against ledgerd (`tests/interop/` holds the modules beside
//! the scripts they run): `flows` has xrpl-py, xrpl.js and wscat drive the real binary;
//! `diff_libs` compares the protocol core with xrpl-py and xrpl.js on random inputs
//! (its library oracles live in `tests/difftest/`). Both install their pinned packages
//! themselves and fail, never skip, when they cannot. `cargo test --test interop`.

mod support;

#[path = "interop/diff_libs.rs"]
mod diff_libs;
#[path = "interop/flows.rs"]
mod flows;
