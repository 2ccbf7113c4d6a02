//! The real client libraries against ledgerd (`tests/interop/` holds the modules beside
//! the scripts they run): `flows` has xrpl-py, xrpl.js and wscat drive the real binary;
//! `diff_libs` compares the protocol core with xrpl-py and xrpl.js on random inputs
//! (its library oracles live in `tests/difftest/`); `txq` has both libraries meet the
//! transaction queue; `explorer` has Playwright drive the explorer page in Debian's chromium
//! while xrpl-py changes the ledger. They install their pinned packages
//! themselves and fail, never skip, when they cannot. `cargo test --test interop`.
//!
//! This binary has its own harness (`libtest-mimic`: the same filters, `--list`,
//! `--test-threads` and output as the built-in one) for one reason: it runs
//! [`TRIALS_AT_ONCE`] trials at a time by default, where the built-in harness runs as many
//! as there are cores. A flow waits on one-second ledger closes and on the libraries'
//! one-second polls far more than it computes (the 36 flows run one at a time kept a fifth
//! of one core busy: 141 s of CPU in 726 s), so six share the machine's two cores (the
//! four CPU-bound `diff_libs` trials go first, before the flows start).
//! A trial is a plain `fn()` that panics on failure, listed in its module's `trials()`;
//! `tests/architecture.rs` checks that no `#[test]` hides here, where it would never run.

mod support;

#[path = "interop/confidential_crypto.rs"]
mod confidential_crypto;
#[path = "interop/diff_libs.rs"]
mod diff_libs;
#[path = "interop/explorer.rs"]
mod explorer;
#[path = "interop/flows.rs"]
mod flows;
#[path = "interop/txq.rs"]
mod txq;

use libtest_mimic::{Arguments, Trial};
use std::process::ExitCode;

/// Trials running at once unless `--test-threads` says otherwise.
const TRIALS_AT_ONCE: usize = 6;

/// `trials!["module"; f, g]`: one trial per function, named `module::f`.
#[macro_export]
macro_rules! trials {
    ($module:literal; $($f:ident),* $(,)?) => {
        vec![$(libtest_mimic::Trial::test(
            concat!($module, "::", stringify!($f)),
            || {
                $f();
                Ok(())
            },
        )),*]
    };
}

fn main() -> ExitCode {
    let mut args = Arguments::from_args();
    args.test_threads.get_or_insert(TRIALS_AT_ONCE);
    let trials: Vec<Trial> = diff_libs::trials()
        .into_iter()
        .chain(confidential_crypto::trials())
        .chain(explorer::trials())
        .chain(flows::trials())
        .chain(txq::trials())
        .collect();
    libtest_mimic::run(&args, trials).exit_code()
}
