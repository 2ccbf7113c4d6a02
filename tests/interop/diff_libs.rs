//! Differential tests: ledgerd's protocol core against the real client libraries,
//! xrpl-py 5.2.0 and xrpl.js 5.3.0 (ripple-binary-codec 2.11.0, ripple-keypairs 3.1.0),
//! on random inputs.
//!
//! The libraries are installed by the test itself into `tests/difftest/` (a Python venv
//! and `node_modules`, cached between runs; see `support/tools.rs`). Each test makes
//! its random cases from a fixed seed, sends them to one process per library in one
//! batch, and compares the answers with ours. The seed is printed in every failure;
//! `DIFFTEST_SEED=<n>` replays a run and `DIFFTEST_CASES=<n>` changes the batch size.
//!
//! 1. keys: seeds of both key types, public keys, addresses, RFC 1751 words, signatures
//!    (deterministic for both key types, so byte-equal) and cross-verification.
//! 2. claims: payment channel claim messages and signatures.
//! 3. codec: random transactions of the types in scope: binary form, signing data,
//!    signing hash, transaction ID, and the decoded JSON (rippled's forms normalized:
//!    see `support/difftest/norm.rs`).
//! 4. deviations: inputs where rippled deliberately differs from the libraries; both
//!    behaviours are asserted so a change on either side is noticed.
//!
//! Runtime: about 30 s on the 2-core machine after the first install (xrpl-py's pure
//! Python secp256k1 dominates); the first install (venv + pip, npm ci) adds about 30 s.

use crate::support;

use ledgerd::protocol::claim::{claim_message, sign_claim, verify_claim};
use ledgerd::protocol::codec::{decode, encode, from_json, to_json};
use ledgerd::protocol::keys::{KeyPair, KeyType, PublicKey};
use ledgerd::protocol::rfc1751::Rfc1751Error;
use ledgerd::protocol::seed::{parse_ripple_lib_seed, Seed, SeedError};
use ledgerd::protocol::sign::verify;
use ledgerd::protocol::tx::{signing_data, signing_hash, transaction_id_of};
use ledgerd::protocol::types::Hash256;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use serde_json::{json, Value};
use support::difftest::{gen, norm, oracle};

/// The default seed of the random cases (any run can be replayed with DIFFTEST_SEED).
const DEFAULT_SEED: u64 = 0x1edc_e7d0_2025;
/// Cases per category unless DIFFTEST_CASES says otherwise.
const DEFAULT_CASES: usize = 300;

fn env_u64(name: &str) -> Option<u64> {
    std::env::var(name).ok()?.parse().ok()
}

/// The run's RNG seed and case count; each category mixes in its own salt so the
/// categories do not share a stream.
fn params(salt: u64) -> (u64, StdRng, usize) {
    let seed = env_u64("DIFFTEST_SEED").unwrap_or(DEFAULT_SEED);
    let n = env_u64("DIFFTEST_CASES").map_or(DEFAULT_CASES, |n| n as usize);
    (seed, StdRng::seed_from_u64(seed ^ salt), n)
}

/// Collects mismatches and fails once, with the seed and the first few.
struct Failures {
    seed: u64,
    what: &'static str,
    items: Vec<String>,
    /// The input of each failing case, by case number.
    inputs: std::collections::BTreeMap<usize, String>,
}

impl Failures {
    fn new(seed: u64, what: &'static str) -> Failures {
        Failures {
            seed,
            what,
            items: Vec::new(),
            inputs: Default::default(),
        }
    }

    fn check(&mut self, ok: bool, msg: impl FnOnce() -> String) {
        if !ok {
            self.items.push(msg());
        }
    }

    /// Like `check`, and remembers the case's input for the report.
    fn check_case(&mut self, case: usize, input: &Value, ok: bool, msg: impl FnOnce() -> String) {
        if !ok {
            self.items.push(msg());
            self.inputs.entry(case).or_insert_with(|| input.to_string());
        }
    }

    fn finish(self, cases: usize) {
        let inputs: Vec<String> = self
            .inputs
            .iter()
            .take(5)
            .map(|(i, v)| format!("input of case {i}: {v}"))
            .collect();
        assert!(
            self.items.is_empty(),
            "{}: {} mismatches in {cases} cases (DIFFTEST_SEED={}):\n{}\n{}",
            self.what,
            self.items.len(),
            self.seed,
            self.items
                .iter()
                .take(15)
                .cloned()
                .collect::<Vec<_>>()
                .join("\n"),
            inputs.join("\n")
        );
        eprintln!(
            "{}: {cases} cases agree (DIFFTEST_SEED={})",
            self.what, self.seed
        );
    }
}

fn s(v: &Value) -> String {
    v.as_str().unwrap_or_default().to_string()
}

fn kt_name(kt: KeyType) -> &'static str {
    kt.as_str()
}

// ------------------------------------------------------------------ 1. keys

fn keys_match_libraries() {
    let (seed, mut rng, n) = params(1);
    let mut cases = Vec::new();
    let mut reqs = Vec::new();
    for _ in 0..n {
        let sd = gen::seed(&mut rng);
        let kt = gen::key_type(&mut rng);
        let len = rng.gen_range(0..200);
        let msg = gen::bytes(&mut rng, len);
        let kp = KeyPair::from_seed(&sd, kt).expect("derive");
        let sig = kp.sign(&msg);
        reqs.push(json!({
            "op": "keys",
            "seed_hex": sd.to_hex(),
            "key_type": kt_name(kt),
            "msg_hex": hex::encode_upper(&msg),
            "our_seed": sd.to_base58(kt),
            "our_public_key": kp.public.to_hex(),
            "our_signature": hex::encode_upper(&sig),
            "our_rfc1751": sd.to_rfc1751(),
        }));
        cases.push((sd, kt, msg, kp, sig));
    }
    let (py, js) = oracle::ask_both(&reqs);
    let mut f = Failures::new(seed, "keys");
    let mut yous = 0;
    for (i, (sd, kt, msg, kp, sig)) in cases.iter().enumerate() {
        let ours_seed = sd.to_base58(*kt);
        let ours_pub = kp.public.to_hex();
        let ours_addr = kp.account_id().to_address();
        let ours_sig = hex::encode_upper(sig);
        let ctx = format!("case {i} ({} {kt})", sd.to_hex());
        for (lib, a) in [("xrpl-py", &py[i]), ("xrpl.js", &js[i])] {
            if a.get("error").is_some() {
                f.check(false, || format!("{ctx}: {lib} failed: {a}"));
                continue;
            }
            f.check(s(&a["seed"]) == ours_seed, || {
                format!("{ctx}: {lib} seed {} ours {ours_seed}", a["seed"])
            });
            f.check(s(&a["public_key"]).eq_ignore_ascii_case(&ours_pub), || {
                format!(
                    "{ctx}: {lib} public key {} ours {ours_pub}",
                    a["public_key"]
                )
            });
            f.check(s(&a["address"]) == ours_addr, || {
                format!("{ctx}: {lib} address {} ours {ours_addr}", a["address"])
            });
            f.check(s(&a["signature"]).eq_ignore_ascii_case(&ours_sig), || {
                format!("{ctx}: {lib} signature {} ours {ours_sig}", a["signature"])
            });
            f.check(a["verifies_ours"] == json!(true), || {
                format!("{ctx}: {lib} does not verify our signature")
            });
            f.check(s(&a["decoded_our_seed_hex"]) == sd.to_hex(), || {
                format!(
                    "{ctx}: {lib} reads our seed as {}",
                    a["decoded_our_seed_hex"]
                )
            });
            f.check(s(&a["decoded_our_seed_type"]) == kt_name(*kt), || {
                format!(
                    "{ctx}: {lib} reads our seed's type as {}",
                    a["decoded_our_seed_type"]
                )
            });
            // Their signature verifies with ours (fully canonical required, as rippled).
            let theirs = hex::decode(s(&a["signature"])).unwrap_or_default();
            f.check(verify(&kp.public, msg, &theirs, true), || {
                format!("{ctx}: we do not verify {lib}'s signature")
            });
            // Their seed text parses back to our seed.
            let parsed = match kt {
                KeyType::Secp256k1 => Seed::from_base58(&s(&a["seed"])).ok(),
                KeyType::Ed25519 => parse_ripple_lib_seed(&s(&a["seed"])),
            };
            f.check(parsed.map(|p| p.to_hex()) == Some(sd.to_hex()), || {
                format!("{ctx}: we cannot read {lib}'s seed {}", a["seed"])
            });
            // Their public key parses as an RPC public key of the right type.
            let pk = PublicKey::parse_rpc(&s(&a["public_key"]));
            f.check(pk.as_ref().map(|p| p.key_type()).ok() == Some(*kt), || {
                format!(
                    "{ctx}: we cannot read {lib}'s public key {}",
                    a["public_key"]
                )
            });
        }
        // RFC 1751 (xrpl.js only: xrpl-py has no such codec).
        let words = sd.to_rfc1751();
        f.check(s(&js[i]["rfc1751"]) == words, || {
            format!("{ctx}: xrpl.js words {:?} ours {words:?}", js[i]["rfc1751"])
        });
        f.check(s(&js[i]["rfc1751_of_ours"]) == sd.to_hex(), || {
            format!(
                "{ctx}: xrpl.js reads our words as {}",
                js[i]["rfc1751_of_ours"]
            )
        });
        // rippled's `etob` searches the short words in [0, 570), so the last one, `YOU`
        // (index 570), is written but never read back (RFC1751.cpp `wsrch(..., 0, 570)`);
        // such phrases are passphrases to rippled. xrpl.js reads them.
        let back = Seed::from_rfc1751(&s(&js[i]["rfc1751"])).map(|x| x.to_hex());
        if words.split(' ').any(|w| w == "YOU") {
            yous += 1;
            f.check(
                back == Err(SeedError::Rfc1751(Rfc1751Error::UnknownWord)),
                || format!("{ctx}: rippled cannot read YOU, but we read {words:?} as {back:?}"),
            );
        } else {
            f.check(back.as_deref() == Ok(sd.to_hex().as_str()), || {
                format!("{ctx}: we read xrpl.js's words as {back:?}")
            });
        }
    }
    eprintln!("keys: {yous} phrases hold YOU (unreadable to rippled, read by xrpl.js)");
    f.finish(n);
}

// ------------------------------------------------------------------ 2. claims

fn claims_match_libraries() {
    let (seed, mut rng, n) = params(2);
    let mut cases = Vec::new();
    let mut reqs = Vec::new();
    for _ in 0..n {
        let sd = gen::seed(&mut rng);
        let kt = gen::key_type(&mut rng);
        let mut ch = [0u8; 32];
        rng.fill(&mut ch);
        let drops: u64 = match rng.gen_range(0..8) {
            0 => 0,
            1 => u64::MAX,
            2 => (1u64 << 53) + rng.gen_range(1..1000),
            3 => 100_000_000_000_000_000,
            _ => rng.gen(),
        };
        reqs.push(json!({
            "op": "claim",
            "seed_hex": sd.to_hex(),
            "key_type": kt_name(kt),
            "channel": hex::encode_upper(ch),
            "amount": drops.to_string(),
        }));
        cases.push((sd, kt, Hash256(ch), drops));
    }
    let (py, js) = oracle::ask_both(&reqs);
    let mut f = Failures::new(seed, "claims");
    for (i, (sd, kt, ch, drops)) in cases.iter().enumerate() {
        let kp = KeyPair::from_seed(sd, *kt).expect("derive");
        let ours_msg = hex::encode_upper(claim_message(ch, *drops));
        let ours_sig = hex::encode_upper(sign_claim(&kp, ch, *drops));
        let ctx = format!("case {i} ({kt}, {drops} drops)");
        for (lib, a) in [("xrpl-py", &py[i]), ("xrpl.js", &js[i])] {
            f.check(s(&a["message"]).eq_ignore_ascii_case(&ours_msg), || {
                format!("{ctx}: {lib} message {} ours {ours_msg}", a["message"])
            });
            f.check(s(&a["signature"]).eq_ignore_ascii_case(&ours_sig), || {
                format!("{ctx}: {lib} signature {} ours {ours_sig}", a["signature"])
            });
            let theirs = hex::decode(s(&a["signature"])).unwrap_or_default();
            f.check(verify_claim(&kp.public, ch, *drops, &theirs), || {
                format!("{ctx}: we do not verify {lib}'s claim")
            });
        }
    }
    f.finish(n);
}

// ------------------------------------------------------------------ 3. codec

fn codec_matches_libraries() {
    let (seed, mut rng, n) = params(3);
    let txs: Vec<Value> = (0..n).map(|_| gen::transaction(&mut rng)).collect();
    let reqs: Vec<Value> = txs.iter().map(|t| json!({"op": "tx", "tx": t})).collect();
    let (py, js) = oracle::ask_both(&reqs);
    let mut f = Failures::new(seed, "codec");
    let mut py_model_hashes = 0;
    for (i, tx) in txs.iter().enumerate() {
        let ctx = format!("case {i} ({})", tx["TransactionType"]);
        let obj = match from_json(tx) {
            Ok(o) => o,
            Err(e) => {
                f.check_case(i, tx, false, || format!("{ctx}: we refuse it: {e}"));
                continue;
            }
        };
        let blob = hex::encode_upper(encode(&obj));
        let sd = hex::encode_upper(signing_data(&obj));
        let sh = signing_hash(&obj).to_hex();
        let id = transaction_id_of(&obj).to_hex();
        for (lib, a) in [("xrpl-py", &py[i]), ("xrpl.js", &js[i])] {
            if a.get("error").is_some() {
                f.check_case(i, tx, false, || {
                    format!("{ctx}: {lib} failed: {}", a["error"])
                });
                continue;
            }
            f.check_case(i, tx, s(&a["blob"]) == blob, || {
                format!("{ctx}: {lib} blob\n  {}\n  ours\n  {blob}", a["blob"])
            });
            f.check_case(i, tx, s(&a["signing_data"]) == sd, || {
                format!("{ctx}: {lib} signing data {} ours {sd}", a["signing_data"])
            });
            f.check_case(i, tx, s(&a["signing_hash"]) == sh, || {
                format!("{ctx}: {lib} signing hash {} ours {sh}", a["signing_hash"])
            });
            f.check_case(i, tx, s(&a["hash"]) == id, || {
                format!("{ctx}: {lib} tx id {} ours {id}", a["hash"])
            });
            // Decoding: ours of their blob, against theirs, in the common form.
            let their_blob = hex::decode(s(&a["blob"])).unwrap_or_default();
            match decode(&their_blob) {
                Err(e) => f.check_case(i, tx, false, || {
                    format!("{ctx}: we cannot decode {lib}'s blob: {e}")
                }),
                Ok(o) => {
                    let ours = norm::normalize(&to_json(&o), true);
                    let theirs = norm::normalize(&a["decoded"], false);
                    match (ours, theirs) {
                        (Ok(x), Ok(y)) => f.check_case(i, tx, x == y, || {
                            format!(
                                "{ctx}: decoded JSON differs from {lib}: {}",
                                norm::first_difference(&x, &y, "").unwrap_or_default()
                            )
                        }),
                        (x, y) => f.check_case(i, tx, false, || {
                            format!("{ctx}: cannot normalize: ours {x:?} {lib} {y:?}")
                        }),
                    }
                }
            }
        }
        if py[i]["hash_via"] == json!("model") {
            py_model_hashes += 1;
        }
    }
    eprintln!("codec: xrpl-py hashed {py_model_hashes} of {n} through its Transaction model");
    f.finish(n);
}

// ------------------------------------------------------------------ 4. deviations

/// What one party does with a probe.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Outcome {
    /// Refuses it.
    Refused,
    /// Writes this Amount (hex of the 8 or 48 bytes).
    Writes(&'static str),
}

use Outcome::{Refused, Writes};

const ISSUER: &str = "rGWrZyQqhTp9Xu7G5Pkayo7bXjH4k4QYpf";
const ISSUER_HEX: &str = "AA066C988C712815CC37AF71472B7CBBBD4E2A0A";
const USD: &str = "0000000000000000000000005553440000000000";

fn payment(amount: Value) -> Value {
    json!({
        "TransactionType": "Payment",
        "Account": "rHb9CJAWyB4rj91VRWn96DkukG4bwdtyTh",
        "Destination": ISSUER,
        "Fee": "10",
        "Sequence": 1,
        "SigningPubKey": "",
        "Amount": amount,
    })
}

fn usd(value: &str) -> Value {
    json!({"currency": "USD", "issuer": ISSUER, "value": value})
}

fn code(currency: &str) -> Value {
    json!({"currency": currency, "issuer": ISSUER, "value": "1"})
}

/// (what, blob, ledgerd's currency (None: refused), xrpl-py's, xrpl.js's).
type DecodeProbe = (
    &'static str,
    String,
    Option<&'static str>,
    Option<&'static str>,
    Option<&'static str>,
);

/// The Amount written in a blob (field header 0x61), as hex.
fn written_amount(blob_hex: &str, want: &str) -> bool {
    blob_hex.contains(&format!("61{want}"))
}

/// Inputs where rippled (and so ledgerd) deliberately differs from xrpl-py and/or
/// xrpl.js (crypto-codec.md §7 and what the random tests found). Each party's behaviour
/// is asserted, so a change on either side is noticed. The rippled rules quoted are
/// from `STAmount.cpp` (`amountFromJson`, `canonicalize`), `STNumber.cpp`
/// (`partsFromString`) and `UintTypes.cpp` (`to_currency`).
fn rippled_deviations_are_pinned() {
    // 1 USD and friends, as 48-byte IOU amounts.
    let one_usd = format!("D4838D7EA4C68000{USD}{ISSUER_HEX}");
    let leak = |s: String| -> &'static str { Box::leak(s.into_boxed_str()) };
    let iou = |word: &str, cur: &str| leak(format!("{word}{cur}{ISSUER_HEX}"));
    let one_usd: &'static str = leak(one_usd);
    let zero_cur = "0000000000000000000000000000000000000000";
    #[rustfmt::skip]
    let probes: Vec<(&str, Value, Outcome, Outcome, Outcome)> = vec![
        // (what, Amount, ledgerd = rippled, xrpl-py, xrpl.js)
        ("XRP as an IOU object: rippled 'XRP may not be specified as an object'",
            code("XRP"), Refused, Writes(iou("D4838D7EA4C68000", zero_cur)), Writes(iou("D4838D7EA4C68000", zero_cur))),
        ("40-hex all-zero currency: rippled's IOU with the native currency is refused",
            code(zero_cur), Refused, Writes(iou("D4838D7EA4C68000", zero_cur)), Writes(iou("D4838D7EA4C68000", zero_cur))),
        ("17 significant digits: rippled rounds to 16 (to nearest), the libraries refuse",
            usd("1.2345678901234567"), Writes(iou("D48462D53C8ABAC1", USD)), Refused, Refused),
        ("17 digits, a tie: rounds to even",
            usd("12345678901234565"), Writes(iou("D88462D53C8ABAC0", USD)), Refused, Refused),
        ("more than 64 bits of digits: rippled's lexical_cast<uint64_t> throws",
            usd("18446744073709551616"), Refused, Refused, Refused),
        ("1e21 written out (22 digits, one significant): over 64 bits for rippled, fine for the libraries",
            usd("1000000000000000000000"), Refused, Writes(iou("D9C38D7EA4C68000", USD)), Writes(iou("D9C38D7EA4C68000", USD))),
        ("1e-82, below the smallest value: rippled and xrpl-py write zero, xrpl.js refuses",
            usd("1e-82"), Writes(iou("8000000000000000", USD)), Writes(iou("8000000000000000", USD)), Refused),
        ("underflow with 16 digits: zero in rippled, both libraries refuse",
            usd("9999999999999999e-97"), Writes(iou("8000000000000000", USD)), Refused, Refused),
        ("5e90 is in range (5000000000000000e75): xrpl-py refuses a written exponent above 80",
            usd("5e90"), Writes(iou("EB11C37937E08000", USD)), Refused, Writes(iou("EB11C37937E08000", USD))),
        ("1e96 overflows everywhere",
            usd("1e96"), Refused, Refused, Refused),
        ("33 digits whose value fits 64 bits: rippled's partsFromString has no length limit",
            usd("0.00000000000000000000000000000001"), Writes(iou("CC838D7EA4C68000", USD)), Writes(iou("CC838D7EA4C68000", USD)), Writes(iou("CC838D7EA4C68000", USD))),
        ("'.5' is outside rippled's grammar; the libraries read 0.5",
            usd(".5"), Refused, Writes(iou("D451C37937E08000", USD)), Writes(iou("D451C37937E08000", USD))),
        ("'5.' is outside rippled's grammar",
            usd("5."), Refused, Writes(iou("D491C37937E08000", USD)), Writes(iou("D491C37937E08000", USD))),
        ("'01' (a leading zero) is outside rippled's grammar",
            usd("01"), Refused, Writes(one_usd), Writes(one_usd)),
        ("'+1' is in everyone's grammar",
            usd("+1"), Writes(one_usd), Writes(one_usd), Writes(one_usd)),
        ("'U-D': '-' is not in rippled's isoCharSet; xrpl.js takes any 3 characters",
            code("U-D"), Refused, Refused, Writes(iou("D4838D7EA4C68000", "000000000000000000000000552D440000000000"))),
        ("lower-case 40-hex code: rippled's parseHex takes either case, the libraries refuse",
            code("3c68b608f0568f83d17320d65390f031ad1dc9ec"), Writes(iou("D4838D7EA4C68000", "3C68B608F0568F83D17320D65390F031AD1DC9EC")), Refused, Refused),
        ("ISO-form 'XRP' as 40 hex (badCurrency): rippled parses it (transactors refuse it later); xrpl-py refuses",
            code("0000000000000000000000005852500000000000"), Writes(iou("D4838D7EA4C68000", "0000000000000000000000005852500000000000")), Refused, Writes(iou("D4838D7EA4C68000", "0000000000000000000000005852500000000000"))),
        ("lower-case 'usd' is kept as given by current rippled and both libraries (older rippled upper-cased)",
            code("usd"), Writes(iou("D4838D7EA4C68000", "0000000000000000000000007573640000000000")), Writes(iou("D4838D7EA4C68000", "0000000000000000000000007573640000000000")), Writes(iou("D4838D7EA4C68000", "0000000000000000000000007573640000000000"))),
        ("negative XRP: rippled's JSON parser takes it (preflight refuses the transaction)",
            json!("-1"), Writes("0000000000000001"), Refused, Refused),
        ("XRP '1e3': rippled scales a positive exponent",
            json!("1e3"), Writes("40000000000003E8"), Refused, Refused),
        ("XRP '10e-1': rippled refuses any negative exponent",
            json!("10e-1"), Refused, Refused, Refused),
        ("XRP '0x10': not rippled's grammar; xrpl.js's BigInt reads hex",
            json!("0x10"), Refused, Refused, Writes("4000000000000010")),
        ("XRP as a JSON integer: rippled takes it, the libraries want a string",
            json!(5), Writes("4000000000000005"), Refused, Refused),
    ];
    let reqs: Vec<Value> = probes
        .iter()
        .map(|(_, a, ..)| json!({"op": "encode", "tx": payment(a.clone())}))
        .collect();
    let (py, js) = oracle::ask_both(&reqs);
    let mut failures = Vec::new();
    let outcome = |blob: Option<&str>, want: Outcome| match (blob, want) {
        (None, Refused) => true,
        (Some(b), Writes(w)) => written_amount(b, w),
        _ => false,
    };
    for (i, (what, amount, ours_want, py_want, js_want)) in probes.iter().enumerate() {
        let ours = from_json(&payment(amount.clone())).map(|o| hex::encode_upper(encode(&o)));
        if !outcome(ours.as_deref().ok(), *ours_want) {
            failures.push(format!("{what}: ledgerd {ours:?}, want {ours_want:?}"));
        }
        if !outcome(py[i]["blob"].as_str(), *py_want) {
            failures.push(format!("{what}: xrpl-py {}, want {py_want:?}", py[i]));
        }
        if !outcome(js[i]["blob"].as_str(), *js_want) {
            failures.push(format!("{what}: xrpl.js {}, want {js_want:?}", js[i]));
        }
    }

    // Decoding: blobs the libraries write but rippled cannot read, and codes printed
    // differently.
    let blob_with = |amount_hex: &str| {
        let base = hex::encode_upper(encode(&from_json(&payment(usd("1"))).expect("base")));
        base.replace(&format!("61{one_usd}"), &format!("61{amount_hex}"))
    };
    #[rustfmt::skip]
    let decodes: Vec<DecodeProbe> = vec![
        // (what, blob, ledgerd's currency (None: refused), xrpl-py's, xrpl.js's)
        ("an IOU with the all-zero currency: rippled 'invalid native currency'",
            blob_with(iou("D4838D7EA4C68000", zero_cur)), None, Some("XRP"), Some("XRP")),
        ("'u<d': rippled and xrpl-py print the code, xrpl.js (no '<' '>' in its set) prints hex",
            blob_with(iou("D4838D7EA4C68000", "000000000000000000000000753C640000000000")),
            Some("u<d"), Some("u<d"), Some("000000000000000000000000753C640000000000")),
        ("ISO-form 'XRP': rippled prints it as hex, never as 'XRP'; xrpl-py refuses to decode it",
            blob_with(iou("D4838D7EA4C68000", "0000000000000000000000005852500000000000")),
            Some("0000000000000000000000005852500000000000"), None, Some("0000000000000000000000005852500000000000")),
    ];
    let reqs: Vec<Value> = decodes
        .iter()
        .map(|(_, b, ..)| json!({"op": "decode", "hex": b}))
        .collect();
    let (py, js) = oracle::ask_both(&reqs);
    for (i, (what, blob, ours_want, py_want, js_want)) in decodes.iter().enumerate() {
        let bytes = hex::decode(blob).expect("hex");
        let ours = decode(&bytes)
            .ok()
            .map(|o| to_json(&o)["Amount"]["currency"].clone());
        let ours = ours.as_ref().and_then(Value::as_str);
        if ours != *ours_want {
            failures.push(format!(
                "decode {what}: ledgerd {ours:?}, want {ours_want:?}"
            ));
        }
        for (lib, a, want) in [("xrpl-py", &py[i], py_want), ("xrpl.js", &js[i], js_want)] {
            let got = a["decoded"]["Amount"]["currency"].as_str();
            if got != *want {
                failures.push(format!("decode {what}: {lib} {a}, want {want:?}"));
            }
        }
    }

    // RFC 1751: rippled never finds the last short word, YOU (RFC1751.cpp searches
    // [0, 570)), so it cannot read back a phrase it wrote with it; xrpl.js can.
    let words = "CASH SON BENT VAN TERM SKID NUN QUOD GUN BABY YOU TEEM";
    let seed_hex = "D17534A85E60792DBB95BE2159AD0764";
    let seed = Seed::from_hex(seed_hex).expect("seed");
    if seed.to_rfc1751() != words {
        failures.push(format!("we write {:?} for {seed_hex}", seed.to_rfc1751()));
    }
    if Seed::from_rfc1751(words).is_ok() {
        failures.push("we read a phrase with YOU; rippled cannot".to_string());
    }
    let (_, js) = oracle::ask_both(&[json!({"op": "words", "words": words})]);
    if js[0]["key"] != json!(seed_hex) {
        failures.push(format!("xrpl.js reads {words:?} as {}", js[0]));
    }

    assert!(
        failures.is_empty(),
        "deviations changed:\n{}",
        failures.join("\n")
    );
    eprintln!(
        "deviations: {} encode probes, {} decode probes, 1 RFC 1751 probe as pinned",
        probes.len(),
        decodes.len()
    );
}

/// This module's trials, slowest first so the last to start are short.
pub fn trials() -> Vec<libtest_mimic::Trial> {
    crate::trials![
        "diff_libs";
        keys_match_libraries,
        claims_match_libraries,
        codec_matches_libraries,
        rippled_deviations_are_pinned,
    ]
}
