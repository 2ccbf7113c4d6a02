//! Codec throughput on a signed Payment (an IOU payment with SendMax from
//! tests/vectors/tx_signing.json): decode, encode, from_json, to_json, and signing data
//! plus its SHA-512-half.
//!
//! Run: `cargo bench --bench codec`.

use criterion::{black_box, criterion_group, criterion_main, Criterion};
use ledgerd::protocol::codec::{decode, encode, from_json, to_json};
use ledgerd::protocol::hash::sha512_half;
use ledgerd::protocol::tx::{signing_data, transaction_id};
use serde_json::Value;

fn payment() -> (Vec<u8>, Value) {
    let v: Value = serde_json::from_str(include_str!("../tests/vectors/tx_signing.json"))
        .expect("vectors parse");
    let case = v["cases"]
        .as_array()
        .expect("cases")
        .iter()
        .find(|c| {
            c["label"]
                .as_str()
                .is_some_and(|l| l.starts_with("secp256k1: Payment IOU holder->issuer"))
        })
        .expect("payment case")
        .clone();
    let blob = hex::decode(case["signed_blob_hex"].as_str().expect("blob")).expect("hex");
    (blob, case["tx_json_signed"].clone())
}

fn bench(c: &mut Criterion) {
    let (blob, json) = payment();
    let tx = decode(&blob).expect("decodes");
    c.bench_function("decode signed Payment", |b| {
        b.iter(|| decode(black_box(&blob)))
    });
    c.bench_function("encode signed Payment", |b| {
        b.iter(|| encode(black_box(&tx)))
    });
    c.bench_function("from_json signed Payment", |b| {
        b.iter(|| from_json(black_box(&json)))
    });
    c.bench_function("to_json signed Payment", |b| {
        b.iter(|| to_json(black_box(&tx)))
    });
    c.bench_function("signing_data + sha512_half", |b| {
        b.iter(|| sha512_half(&[&signing_data(black_box(&tx))]))
    });
    c.bench_function("transaction_id of blob", |b| {
        b.iter(|| transaction_id(black_box(&blob)))
    });
}

criterion_group!(benches, bench);
criterion_main!(benches);
