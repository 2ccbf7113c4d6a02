//! Apply throughput on one core: pre-signed Payments and TrustSets applied to the open
//! ledger of a standalone store (signing and decoding are outside the timed loop; the
//! server verifies signatures on its CPU pool before the sequencer applies).

use std::sync::Arc;
use std::time::{Duration, Instant};

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use ledgerd::engine::Ter;
use ledgerd::ledgers::{LedgerConfig, Ledgers};
use ledgerd::protocol::amount::{Amount, IouValue};
use ledgerd::protocol::codec;
use ledgerd::protocol::definitions::Field;
use ledgerd::protocol::keys::{KeyPair, KeyType};
use ledgerd::protocol::seed::Seed;
use ledgerd::protocol::st::{StObject, StValue};
use ledgerd::protocol::tx::signing_data;
use ledgerd::protocol::types::{AccountId, Currency};

struct Signed {
    tx: StObject,
}

fn key(name: &str) -> KeyPair {
    KeyPair::from_seed(&Seed::from_passphrase(name), KeyType::Secp256k1).expect("key")
}

fn sign(kp: &KeyPair, mut o: StObject, seq: u32) -> Signed {
    o.set(Field::named("Account"), StValue::AccountId(kp.account_id()));
    o.set(Field::named("Sequence"), StValue::UInt32(seq));
    o.set(Field::named("Fee"), StValue::Amount(Amount::Xrp(10)));
    o.set(
        Field::named("SigningPubKey"),
        StValue::Blob(kp.public.as_bytes().to_vec()),
    );
    let sig = kp.sign(&signing_data(&o));
    o.set(Field::named("TxnSignature"), StValue::Blob(sig));
    // The server decodes before it applies; the round trip keeps the bench honest.
    let tx = codec::decode(&codec::encode(&o)).expect("round trip");
    Signed { tx }
}

fn payment(to: &AccountId, amount: Amount) -> StObject {
    let mut o = StObject::new();
    o.set(Field::named("TransactionType"), StValue::UInt16(0));
    o.set(Field::named("Destination"), StValue::AccountId(*to));
    o.set(Field::named("Amount"), StValue::Amount(amount));
    o
}

fn trust_set(limit: Amount) -> StObject {
    let mut o = StObject::new();
    o.set(Field::named("TransactionType"), StValue::UInt16(20));
    o.set(Field::named("LimitAmount"), StValue::Amount(limit));
    o
}

fn apply_all(store: &Ledgers, txs: &[Signed]) {
    for t in txs {
        let r = store.apply(&t.tx);
        assert_eq!(r.ter, Ter::tesSUCCESS);
    }
}

/// A store where `alice` exists with a USD line to `gw`, both funded.
fn setup(cfg: LedgerConfig) -> (Ledgers, KeyPair, KeyPair, KeyPair) {
    let store = Ledgers::genesis(cfg, 780_000_000);
    let master = key("masterpassphrase");
    let alice = key("alice");
    let gw = key("gateway");
    let usd = Currency::from_json_str("USD").expect("USD");
    let setup = [
        sign(
            &master,
            payment(&alice.account_id(), Amount::Xrp(1_000_000_000_000)),
            1,
        ),
        sign(
            &master,
            payment(&gw.account_id(), Amount::Xrp(1_000_000_000_000)),
            2,
        ),
    ];
    apply_all(&store, &setup);
    let line = sign(
        &alice,
        trust_set(Amount::iou(
            IouValue::from_i64(1_000_000_000),
            usd,
            gw.account_id(),
        )),
        3,
    );
    apply_all(&store, &[line]);
    store.close(780_000_010);
    (store, master, alice, gw)
}

/// Times `iters` transactions made by `make(i)`, signed outside the clock.
fn timed(
    iters: u64,
    cfg: LedgerConfig,
    make: impl Fn(&KeyPair, &KeyPair, &KeyPair, u64) -> Signed,
) -> Duration {
    let (store, master, alice, gw) = setup(cfg);
    let txs: Vec<Signed> = (0..iters).map(|i| make(&master, &alice, &gw, i)).collect();
    let start = Instant::now();
    apply_all(&store, &txs);
    start.elapsed()
}

fn benches(c: &mut Criterion) {
    let mut g = c.benchmark_group("apply");
    g.throughput(Throughput::Elements(1));
    g.measurement_time(Duration::from_secs(5));
    g.sample_size(20);
    g.bench_function("payment_xrp", |b| {
        b.iter_custom(|iters| {
            timed(iters, LedgerConfig::default(), |m, a, _, i| {
                sign(m, payment(&a.account_id(), Amount::Xrp(1)), 3 + i as u32)
            })
        })
    });
    g.bench_function("payment_iou", |b| {
        b.iter_custom(|iters| {
            let usd = Currency::from_json_str("USD").expect("USD");
            timed(iters, LedgerConfig::default(), move |_, a, gw, i| {
                sign(
                    gw,
                    payment(
                        &a.account_id(),
                        Amount::iou(IouValue::from_i64(1), usd, gw.account_id()),
                    ),
                    3 + i as u32,
                )
            })
        })
    });
    g.bench_function("trust_set", |b| {
        b.iter_custom(|iters| {
            let usd = Currency::from_json_str("USD").expect("USD");
            timed(iters, LedgerConfig::default(), move |_, a, gw, i| {
                let limit = Amount::iou(
                    IouValue::from_i64(2_000_000 + i as i64),
                    usd,
                    gw.account_id(),
                );
                sign(a, trust_set(limit), 4 + i as u32)
            })
        })
    });
    g.bench_function("payment_xrp_with_signature_check", |b| {
        b.iter_custom(|iters| {
            let mut cfg = LedgerConfig::default();
            cfg.apply.signature_check =
                Some(Arc::new(ledgerd::engine::transactor::verify_signature));
            timed(iters, cfg, |m, a, _, i| {
                sign(m, payment(&a.account_id(), Amount::Xrp(1)), 3 + i as u32)
            })
        })
    });
    g.finish();
}

criterion_group!(apply, benches);
criterion_main!(apply);
