//! Crypto core costs: seed -> key pair, sign, verify (both key types) and a payment channel
//! claim signature. Compare with `/work/shared/perf.md` ("Primitives, per core").

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion};
use ledgerd::protocol::claim::{sign_claim, verify_claim};
use ledgerd::protocol::keys::{KeyPair, KeyType};
use ledgerd::protocol::seed::{parse_generic_seed, Seed};
use ledgerd::protocol::sign::verify;
use ledgerd::protocol::types::Hash256;

const TYPES: [(KeyType, &str); 2] = [
    (KeyType::Secp256k1, "secp256k1"),
    (KeyType::Ed25519, "ed25519"),
];

fn derive(c: &mut Criterion) {
    let seed = Seed::from_passphrase("bench");
    for (kt, name) in TYPES {
        c.bench_function(&format!("seed_to_keypair/{name}"), |b| {
            b.iter(|| KeyPair::from_seed(black_box(&seed), kt))
        });
    }
    c.bench_function("parse_generic_seed/family_seed", |b| {
        let s = seed.to_base58(KeyType::Secp256k1);
        b.iter(|| parse_generic_seed(black_box(&s)))
    });
}

fn sign_verify(c: &mut Criterion) {
    let seed = Seed::from_passphrase("bench");
    let msg = [0x5Au8; 44];
    for (kt, name) in TYPES {
        let kp = KeyPair::from_seed(&seed, kt).expect("derive");
        let sig = kp.sign(&msg);
        c.bench_function(&format!("sign_44B/{name}"), |b| {
            b.iter(|| kp.sign(black_box(&msg)))
        });
        c.bench_function(&format!("verify_44B/{name}"), |b| {
            b.iter(|| verify(&kp.public, black_box(&msg), black_box(&sig), true))
        });
    }
}

fn claims(c: &mut Criterion) {
    let seed = Seed::from_passphrase("bench");
    let id = Hash256([0x11; 32]);
    for (kt, name) in TYPES {
        let kp = KeyPair::from_seed(&seed, kt).expect("derive");
        c.bench_function(&format!("claim_sign/{name}"), |b| {
            b.iter(|| sign_claim(&kp, black_box(&id), black_box(1_000_000)))
        });
        c.bench_function(&format!("claim_sign_with_derivation/{name}"), |b| {
            b.iter(|| {
                let kp = KeyPair::from_seed(black_box(&seed), kt).expect("derive");
                sign_claim(&kp, black_box(&id), black_box(1_000_000))
            })
        });
        let sig = sign_claim(&kp, &id, 1_000_000);
        c.bench_function(&format!("claim_verify/{name}"), |b| {
            b.iter(|| verify_claim(&kp.public, black_box(&id), black_box(1_000_000), &sig))
        });
    }
}

criterion_group!(benches, derive, sign_verify, claims);
criterion_main!(benches);
