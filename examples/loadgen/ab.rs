//! `--mode submit-ab --before BIN [--rounds 5] [--accounts 100] [--each 300]`: the submit
//! run against two builds interleaved round by round, a fresh server of each per round
//! (the order swapped every round), and their medians and ratio. "after" is the
//! `ledgerd` beside this generator; "before" is `BIN` (another build's release binary).
//!
//! Both servers run `serve --conf xrpld.cfg -a --close-interval 1` with a
//! `[transaction_queue]` whose standalone minimum (1,000,000 transactions a ledger) keeps
//! the open ledger below escalation, so every payment applies at once: this measures what
//! the queue's door costs a submission that goes straight through. (A build without the
//! queue reads the section and ignores it.)

use super::ledger;
use std::path::{Path, PathBuf};

/// xrpld.cfg: one admin port on loopback, and a queue that never escalates here.
const CONFIG: &str = "[server]\nport_admin\n\n\
    [port_admin]\nport = 0\nip = 127.0.0.1\nadmin = 127.0.0.1\nprotocol = http,ws\n\n\
    [transaction_queue]\nminimum_txn_in_ledger_standalone = 1000000\n";

/// What the A/B run takes.
pub struct Ab {
    pub before: PathBuf,
    pub after: PathBuf,
    pub rounds: usize,
    pub connections: usize,
    pub depth: usize,
    pub accounts: usize,
    pub each: u32,
}

/// One submit run against a fresh server of `bin`: applied tx/s.
async fn one(bin: &Path, conf: &str, ab: &Ab) -> f64 {
    let args = ["serve", "--conf", conf, "-a", "--close-interval", "1"].map(String::from);
    let (mut child, addr) = crate::spawn_binary(bin, &args);
    let rate = ledger::submit_mode(&addr, ab.connections, ab.depth, ab.accounts, ab.each).await;
    let _ = child.kill();
    let _ = child.wait();
    rate
}

pub async fn submit_ab(ab: Ab) {
    let dir = tempfile::tempdir().expect("tempdir");
    let conf = dir.path().join("xrpld.cfg");
    std::fs::write(&conf, CONFIG).expect("write xrpld.cfg");
    let conf = conf.to_string_lossy().into_owned();
    println!(
        "submit A/B: before {}, after {}; {} rounds",
        ab.before.display(),
        ab.after.display(),
        ab.rounds
    );
    let (mut before, mut after) = (Vec::new(), Vec::new());
    for round in 0..ab.rounds {
        let after_first = round % 2 == 1;
        for is_after in [after_first, !after_first] {
            let bin = if is_after { &ab.after } else { &ab.before };
            let rate = one(bin, &conf, &ab).await;
            println!(
                "round {}: {} {rate:.0} tx/s",
                round + 1,
                if is_after { "after " } else { "before" }
            );
            match is_after {
                true => after.push(rate),
                false => before.push(rate),
            }
        }
    }
    let ratios: Vec<f64> = after.iter().zip(&before).map(|(a, b)| a / b).collect();
    let list = |v: &[f64], digits: usize| {
        v.iter()
            .map(|x| format!("{x:.digits$}"))
            .collect::<Vec<_>>()
            .join(", ")
    };
    println!("before (tx/s): {}", list(&before, 0));
    println!("after  (tx/s): {}", list(&after, 0));
    println!("after / before per round: {}", list(&ratios, 2));
    println!(
        "medians: before {:.0} tx/s, after {:.0} tx/s; median of the rounds' ratios {:.2}",
        crate::median(before),
        crate::median(after),
        crate::median(ratios)
    );
}
