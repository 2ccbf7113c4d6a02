//! Confidential-MPT verifications per second on one core: what a validator spends on each
//! proof ledgerd checks today (the key proof of a Convert, the revealed amount of a Convert,
//! a Clawback, and the sigma part of ConvertBack; Send's sigma part and the range proofs are
//! not measured yet).
//!
//! ```text
//! cargo run --release --example confidential_verify -- [--rounds 5] [--per-round 200]
//! ```
//! Inputs are made once with `protocol::confidential::client`; each verification must succeed.
//! Prints the median over rounds. Compare with mpt-crypto's own C verifiers:
//! `tests/interop/.venv/bin/python examples/confidential/mpt_crypto_c_bench.py`.

#[path = "common/args.rs"]
mod args;
use args::arg;
use std::time::Instant;

use ledgerd::protocol::confidential::{
    self as ct, client, convert_back_proof::verify_convert_back_sigma, Participant,
};

fn median_rate(rounds: usize, per_round: usize, verify: impl Fn() -> bool) -> f64 {
    let mut rates: Vec<f64> = (0..rounds)
        .map(|_| {
            let start = Instant::now();
            for _ in 0..per_round {
                assert!(verify(), "a valid proof was refused");
            }
            per_round as f64 / start.elapsed().as_secs_f64()
        })
        .collect();
    rates.sort_by(f64::total_cmp);
    rates[rates.len() / 2]
}

fn main() {
    let (rounds, per_round) = (arg("--rounds", 5), arg("--per-round", 200));
    let ctx = [9u8; 32];
    let (sk, pk) = client::generate_keypair();
    let (_, issuer) = client::generate_keypair();
    let r = client::generate_blinding_factor();
    let key_proof = client::prove_key(&sk, &ctx).unwrap();
    let holder_ct = client::encrypt_amount(500, &pk, &r).unwrap();
    let issuer_ct = client::encrypt_amount(500, &issuer, &r).unwrap();
    let claw = client::prove_clawback(&sk, 500, &holder_ct, &ctx).unwrap();
    let rho = client::generate_blinding_factor();
    let spending = client::encrypt_amount(1000, &pk, &client::generate_blinding_factor()).unwrap();
    let pc_b = client::pedersen_commitment(1000, &rho).unwrap();
    let back = client::prove_convert_back_sigma(&sk, 1000, &rho, &spending, &ctx).unwrap();
    let whole_back = client::prove_convert_back(&sk, 1000, 400, &rho, &spending, &ctx).unwrap();
    let keys = [pk, issuer, client::generate_keypair().1];
    let send_r = client::generate_blinding_factor();
    let witness = client::SendWitness {
        secret: &sk,
        amount: 300,
        r: &send_r,
        balance: 1000,
        rho: &rho,
        keys: &keys,
        spending: &spending,
    };
    let send = client::prove_send(&witness, &ctx).unwrap();
    let send_cts: Vec<_> = keys
        .iter()
        .map(|k| client::encrypt_amount(300, k, &send_r).unwrap())
        .collect();
    let send_parties = ct::participants(&keys, &send_cts);
    let pc_m = client::pedersen_commitment(300, &send_r).unwrap();
    let holder = Participant {
        key: &pk,
        ciphertext: &holder_ct,
    };
    let issuer_party = Participant {
        key: &issuer,
        ciphertext: &issuer_ct,
    };
    let rows: Vec<(&str, f64)> = vec![
        (
            "key proof (Convert), 64 B",
            median_rate(rounds, per_round, || {
                ct::verify_key_proof(&key_proof, &pk, &ctx)
            }),
        ),
        (
            "revealed amount (Convert), 2 parties",
            median_rate(rounds, per_round, || {
                ct::verify_revealed_amount(500, &r, holder, issuer_party, None)
            }),
        ),
        (
            "Clawback, 64 B",
            median_rate(rounds, per_round, || {
                ct::verify_clawback_proof(&claw, 500, &pk, &holder_ct, &ctx)
            }),
        ),
        (
            "ConvertBack sigma part, 128 B",
            median_rate(rounds, per_round, || {
                verify_convert_back_sigma(&back, &pk, &spending, &pc_b, &ctx)
            }),
        ),
        (
            "ConvertBack whole (sigma + range), 816 B",
            median_rate(rounds, per_round / 10, || {
                ct::verify_convert_back_proof(&whole_back, &pk, &spending, &pc_b, 400, &ctx)
            }),
        ),
        (
            "Send whole (sigma + 2 ranges), 946 B",
            median_rate(rounds, per_round / 10, || {
                ct::verify_send_proof(&send, &send_parties, &spending, &pc_m, &pc_b, &ctx)
            }),
        ),
    ];
    println!("ledgerd confidential verifiers, one core, median of {rounds} rounds of {per_round}:");
    for (name, rate) in rows {
        println!("  {name:38} {rate:10.1} verifications/s");
    }
}
