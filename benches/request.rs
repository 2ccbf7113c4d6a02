//! What one channel_authorize request costs the server besides its signature: parsing the
//! request text, the handler (key cache lookup, field checks, signing, hex), and writing the
//! WebSocket reply; beside the bare signature. The difference is the per-request overhead the
//! load generator's ratio pays for (README, "Benchmarks").
//!
//! Run: `cargo bench --bench request`.

use criterion::{black_box, criterion_group, criterion_main, Criterion};
use ledgerd::protocol::claim::sign_claim;
use ledgerd::protocol::keys::{KeyPair, KeyType};
use ledgerd::protocol::seed::{parse_ripple_lib_seed, Seed};
use ledgerd::protocol::types::Hash256;
use ledgerd::rpc::context::{Context, RpcConfig, Services, Transport};
use ledgerd::rpc::cpu_pool::CpuPool;
use ledgerd::rpc::envelope::ws_reply_text;
use ledgerd::rpc::handlers::channel_authorize;
use ledgerd::rpc::json::parse_object;
use ledgerd::rpc::role::Role;
use std::sync::Arc;

const CHANNEL: &str = "5DB01B7FFED6B67E6B0414DED11E051D2EE2B7619CE0EAA6286D67A3A4D5BDB3";

fn bench(c: &mut Criterion) {
    let cpu = CpuPool::new(1, 16).expect("pool");
    let ctx = Context {
        role: Role::Admin,
        api_version: 1,
        transport: Transport::WebSocket,
        session: None,
        services: Arc::new(Services::standalone(RpcConfig::default(), cpu)),
        forwarded: None,
        raw_json: true,
    };
    let channel = Hash256::from_hex(CHANNEL).expect("channel id");
    for (key_type, secret) in [
        (KeyType::Secp256k1, "snoPBrXtMeMyMHUVTgbuqAfg1SUTb"),
        (KeyType::Ed25519, "sEdVQ4wvD1AaTG6JA54qt38TengAuiz"),
    ] {
        let name = key_type.as_str();
        let text = format!(
            r#"{{"id":1099511627777,"command":"channel_authorize","secret":"{secret}","channel_id":"{CHANNEL}","amount":"1099511627777"}}"#
        );
        let seed = parse_ripple_lib_seed(secret)
            .or_else(|| Seed::from_base58(secret).ok())
            .expect("seed");
        let pair = KeyPair::from_seed(&seed, key_type).expect("pair");
        c.bench_function(&format!("{name}: sign_claim + hex (the bare work)"), |b| {
            b.iter(|| hex::encode_upper(sign_claim(&pair, black_box(&channel), 1_099_511_627_777)))
        });
        let params = parse_object(text.as_bytes()).expect("parses");
        // The first call derives and caches the key; the benchmark measures cached calls.
        channel_authorize::handle(&ctx, &params).expect("signs");
        c.bench_function(
            &format!("{name}: channel_authorize handler (cached key)"),
            |b| b.iter(|| channel_authorize::handle(&ctx, black_box(&params))),
        );
        c.bench_function(&format!("{name}: parse request text"), |b| {
            b.iter(|| parse_object(black_box(text.as_bytes())))
        });
        let result = channel_authorize::handle(&ctx, &params).expect("signs");
        c.bench_function(&format!("{name}: WebSocket reply text"), |b| {
            b.iter(|| ws_reply_text(black_box(&params), Ok(result.clone()), false))
        });
    }
}

criterion_group!(benches, bench);
criterion_main!(benches);
