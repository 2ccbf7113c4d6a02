//! ConfidentialMPTSend applied end to end: signed, encoded, decoded, its signature and
//! proof checked, applied and its invariants run, through `Ledgers` as the engine tests
//! drive it (no server, no journal). Two holders of one confidential issuance send one
//! unit back and forth; each proof is made first (timed apart), then only the apply is
//! timed.
//!
//! ```text
//! cargo run --release --example confidential_send_apply -- [--sends 200] [--rounds 5]
//! ```
//! Prints the median over rounds of sends applied per second, and proofs made per second.

#[allow(dead_code)]
#[path = "../tests/support/accounts.rs"]
mod accounts;
#[allow(dead_code)]
#[path = "../tests/support/confidential.rs"]
mod confidential;
#[allow(dead_code)]
#[path = "../tests/support/engine.rs"]
mod engine;
#[allow(dead_code)]
#[path = "../tests/support/keys.rs"]
mod keys;
#[allow(dead_code)]
#[path = "../tests/support/mpt.rs"]
mod mpt;
#[allow(dead_code)]
#[path = "../tests/support/payment.rs"]
mod payment;

#[path = "common/args.rs"]
mod args;
use args::arg;
use confidential::world;
use ledgerd::engine::Ter;
use std::time::{Duration, Instant};

fn median(mut xs: Vec<f64>) -> f64 {
    xs.sort_by(f64::total_cmp);
    xs[xs.len() / 2]
}

fn main() {
    let (sends, rounds) = (arg("--sends", 200), arg("--rounds", 5));
    let (mut applied, mut proved) = (Vec::new(), Vec::new());
    for _ in 0..rounds {
        let mut w = world(2, false);
        for i in 0..2 {
            let h = w.holder(i).clone();
            let tx = w.convert(i, 5_000, true);
            assert_eq!(w.env.submit(&h, tx), Ter::tesSUCCESS);
            assert_eq!(w.env.submit(&h, w.merge()), Ter::tesSUCCESS);
        }
        let (mut apply_time, mut prove_time) = (Duration::ZERO, Duration::ZERO);
        for n in 0..sends {
            let (from, to) = (n % 2, 1 - n % 2);
            let start = Instant::now();
            let tx = w.send(from, to, 1);
            prove_time += start.elapsed();
            let sender = w.holder(from).clone();
            let start = Instant::now();
            let ter = w.env.submit(&sender, tx);
            apply_time += start.elapsed();
            assert_eq!(ter, Ter::tesSUCCESS);
        }
        applied.push(sends as f64 / apply_time.as_secs_f64());
        proved.push(sends as f64 / prove_time.as_secs_f64());
    }
    println!("ConfidentialMPTSend end to end, one thread, median of {rounds} rounds of {sends}:");
    println!(
        "  applied (signature, proof, apply, invariants) {:10.1}/s",
        median(applied)
    );
    println!(
        "  proofs made by the wallet side                {:10.1}/s",
        median(proved)
    );
}
