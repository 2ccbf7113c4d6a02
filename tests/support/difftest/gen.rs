//! Random inputs for the differential tests: seeds, messages, claims and transactions
//! of the types in scope, with issued values drawn from the awkward corners.
//!
//! Every input here is one that rippled, xrpl-py and ripple-binary-codec all accept
//! (the places where they disagree are probed separately, with fixed inputs).

use ledgerd::protocol::keys::{KeyPair, KeyType};
use ledgerd::protocol::seed::Seed;
use ledgerd::protocol::types::AccountId;
use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand::Rng;
use serde_json::{json, Map, Value};

/// rippled's `isoCharSet` (UintTypes.cpp).
const ISO_CHARS: &[u8] =
    b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789<>(){}[]|?!@#$%^&*";
/// Codes seen on the ledger, so that ordinary ones are common.
const COMMON_CODES: [&str; 8] = ["USD", "EUR", "BTC", "JPY", "CNY", "usd", "Eur", "a1$"];

/// Random bytes.
pub fn bytes(rng: &mut StdRng, n: usize) -> Vec<u8> {
    (0..n).map(|_| rng.gen()).collect()
}

/// Upper-case hex of `n` random bytes.
pub fn hex_bytes(rng: &mut StdRng, n: usize) -> String {
    hex::encode_upper(bytes(rng, n))
}

/// A random key type.
pub fn key_type(rng: &mut StdRng) -> KeyType {
    if rng.gen() {
        KeyType::Secp256k1
    } else {
        KeyType::Ed25519
    }
}

/// A random 16-byte seed.
pub fn seed(rng: &mut StdRng) -> Seed {
    let mut b = [0u8; 16];
    rng.fill(&mut b);
    // The corners: all zero and all 0xFF.
    match rng.gen_range(0..40) {
        0 => b = [0; 16],
        1 => b = [0xFF; 16],
        _ => {}
    }
    Seed::from_bytes(b)
}

/// A random classic address.
pub fn address(rng: &mut StdRng) -> String {
    let mut b = [0u8; 20];
    rng.fill(&mut b);
    AccountId(b).to_address()
}

/// A currency code as JSON: three characters from rippled's set (never `XRP`), or 40
/// hex digits of a non-standard code (first byte non-zero, as the convention wants).
pub fn currency(rng: &mut StdRng) -> String {
    match rng.gen_range(0..10) {
        0..=3 => COMMON_CODES
            .choose(rng)
            .copied()
            .unwrap_or("USD")
            .to_string(),
        4..=7 => loop {
            let c: String = (0..3)
                .map(|_| *ISO_CHARS.choose(rng).unwrap_or(&b'A') as char)
                .collect();
            if c != "XRP" {
                break c;
            }
        },
        _ => {
            let mut b = bytes(rng, 20);
            b[0] = rng.gen_range(1..=255);
            // Upper case: the libraries refuse lower-case hex codes (rippled takes both;
            // probed in the deviations test).
            hex::encode_upper(b)
        }
    }
}

/// Decimal digits of `m`, with `e` as the power of ten of its last digit, written as a
/// plain decimal (no exponent).
fn plain(m: u64, e: i32) -> String {
    let d = m.to_string();
    if e >= 0 {
        return format!("{d}{}", "0".repeat(e as usize));
    }
    let point = d.len() as i32 + e;
    if point > 0 {
        let (a, b) = d.split_at(point as usize);
        format!("{a}.{b}")
    } else {
        format!("0.{}{d}", "0".repeat((-point) as usize))
    }
}

/// How many digits [`plain`] writes.
fn plain_digits(len: i32, e: i32) -> i32 {
    if e >= 0 {
        len + e
    } else if len + e > 0 {
        len
    } else {
        1 - e
    }
}

/// An issued value as text, in one of the spellings every party accepts: at most 16
/// significant digits, magnitude in `[1e-81, 9999999999999999e80]` (or zero).
pub fn iou_value(rng: &mut StdRng) -> String {
    if rng.gen_range(0..25) == 0 {
        return "0".to_string();
    }
    // Significant digits: 1..=16, biased to the full 16.
    let ndigits: u32 = if rng.gen_bool(0.5) {
        16
    } else {
        rng.gen_range(1..=16)
    };
    let mut m: u64 = match rng.gen_range(0..12) {
        0 => 10u64.pow(ndigits - 1),
        1 => 10u64.pow(ndigits) - 1,
        _ => rng.gen_range(10u64.pow(ndigits - 1)..10u64.pow(ndigits)),
    };
    // The normalized exponent (of a 16-digit mantissa) is in [-96, 80]; near the ends often.
    let norm_e: i32 = match rng.gen_range(0..6) {
        0 => rng.gen_range(-96..=-85),
        1 => rng.gen_range(70..=80),
        2 => rng.gen_range(-30..=5),
        _ => rng.gen_range(-96..=80),
    };
    // m has `ndigits` digits: its last digit's power of ten.
    let mut e = norm_e + 16 - ndigits as i32;
    // xrpl-py refuses a written exponent (of the last digit) above 80, although the value
    // is in range ("5e90"; probed in the deviations test): pad such mantissas.
    while e > 80 {
        m *= 10;
        e -= 1;
    }
    // Drop trailing zeros sometimes, so "1e5"-like spellings appear.
    if rng.gen_bool(0.3) {
        while m.is_multiple_of(10) && e < 80 {
            m /= 10;
            e += 1;
        }
    }
    let neg = rng.gen_range(0..4) == 0;
    let sign = if neg { "-" } else { "" };
    let digits = m.to_string();
    let text = match rng.gen_range(0..4) {
        // Plain decimal, when it stays short (rippled refuses more than 32 digits).
        // Plain decimal. rippled reads all the digits as one u64, so an integer with many
        // trailing zeros is refused (probed in the deviations test); leading zeros after
        // the point are fine in any number ("0.000...01").
        0 if e < 0 || plain_digits(digits.len() as i32, e) <= 19 => plain(m, e),
        // d.ddd e±x
        1 if digits.len() > 1 => {
            let (a, b) = digits.split_at(1);
            let x = e + b.len() as i32;
            let ech = if rng.gen() { 'e' } else { 'E' };
            format!("{a}.{b}{ech}{x}")
        }
        _ => format!("{digits}e{e}"),
    };
    format!("{sign}{text}")
}

/// XRP drops as a string, from 0 to 10^17 with the corners common.
pub fn drops(rng: &mut StdRng) -> String {
    match rng.gen_range(0..10) {
        0 => "0".to_string(),
        1 => "100000000000000000".to_string(),
        2 => "1".to_string(),
        3 => rng.gen_range(1u64..1_000_000).to_string(),
        _ => rng.gen_range(0u64..=100_000_000_000_000_000).to_string(),
    }
}

/// A fee: a small XRP amount.
fn fee(rng: &mut StdRng) -> String {
    rng.gen_range(0u64..2_000_000).to_string()
}

/// An issued amount object.
pub fn iou(rng: &mut StdRng) -> Value {
    json!({"currency": currency(rng), "issuer": address(rng), "value": iou_value(rng)})
}

/// XRP or issued.
pub fn amount(rng: &mut StdRng) -> Value {
    if rng.gen() {
        Value::String(drops(rng))
    } else {
        iou(rng)
    }
}

/// An MPT amount of issuance `id` (48 hex digits): any value up to 2^63 - 1, small ones
/// often.
pub fn mpt_amount(rng: &mut StdRng, id: &str) -> Value {
    let value = if rng.gen() {
        rng.gen_range(0u64..1_000)
    } else {
        rng.gen_range(0..=i64::MAX as u64)
    };
    json!({"mpt_issuance_id": id, "value": value.to_string()})
}

fn paths(rng: &mut StdRng) -> Value {
    let np = rng.gen_range(1..=3);
    let mut out = Vec::new();
    for _ in 0..np {
        let ns = rng.gen_range(1..=3);
        let mut path = Vec::new();
        for _ in 0..ns {
            let mut step = Map::new();
            let kind = rng.gen_range(1u8..=7);
            if kind & 1 != 0 {
                step.insert("account".into(), Value::String(address(rng)));
            }
            if kind & 2 != 0 {
                let c = if rng.gen_range(0..6) == 0 {
                    "XRP".to_string()
                } else {
                    currency(rng)
                };
                step.insert("currency".into(), Value::String(c));
            }
            if kind & 4 != 0 {
                step.insert("issuer".into(), Value::String(address(rng)));
            }
            path.push(Value::Object(step));
        }
        out.push(Value::Array(path));
    }
    Value::Array(out)
}

fn memos(rng: &mut StdRng) -> Value {
    let n = rng.gen_range(1..=3);
    let mut out = Vec::new();
    for _ in 0..n {
        let mut memo = Map::new();
        for name in ["MemoType", "MemoData", "MemoFormat"] {
            if rng.gen_bool(0.6) {
                // Lengths across the one-byte / two-byte VL prefix boundary (192/193).
                let len = match rng.gen_range(0..5) {
                    0 => rng.gen_range(190..=200),
                    1 => 0,
                    _ => rng.gen_range(1..40),
                };
                memo.insert(name.into(), Value::String(hex_bytes(rng, len)));
            }
        }
        if memo.is_empty() {
            memo.insert("MemoData".into(), Value::String(hex_bytes(rng, 4)));
        }
        out.push(json!({"Memo": memo}));
    }
    Value::Array(out)
}

/// A random public key (hex) of a random key type.
fn public_key_hex(rng: &mut StdRng) -> String {
    let kp = KeyPair::from_seed(&seed(rng), key_type(rng)).expect("key derivation");
    kp.public.to_hex()
}

/// A signature-shaped blob: DER-like length for secp256k1, 64 for ed25519.
fn signature_blob(rng: &mut StdRng) -> String {
    let n = if rng.gen() {
        64
    } else {
        rng.gen_range(68..=72)
    };
    hex_bytes(rng, n)
}

fn maybe(rng: &mut StdRng, p: f64) -> bool {
    rng.gen_bool(p)
}

/// A random transaction of the types in scope, signed-looking (SigningPubKey and
/// TxnSignature present).
pub fn transaction(rng: &mut StdRng) -> Value {
    let kinds = [
        "Payment",
        "TrustSet",
        "AccountSet",
        "SetRegularKey",
        "PaymentChannelCreate",
        "PaymentChannelFund",
        "PaymentChannelClaim",
    ];
    let kind = *kinds.choose(rng).unwrap_or(&"Payment");
    let mut tx = Map::new();
    tx.insert("TransactionType".into(), json!(kind));
    tx.insert("Account".into(), json!(address(rng)));
    tx.insert("Fee".into(), json!(fee(rng)));
    tx.insert("Sequence".into(), json!(rng.gen::<u32>()));
    tx.insert("SigningPubKey".into(), json!(public_key_hex(rng)));
    tx.insert("TxnSignature".into(), json!(signature_blob(rng)));
    if maybe(rng, 0.5) {
        tx.insert("LastLedgerSequence".into(), json!(rng.gen::<u32>()));
    }
    if maybe(rng, 0.2) {
        tx.insert("SourceTag".into(), json!(rng.gen::<u32>()));
    }
    if maybe(rng, 0.3) {
        tx.insert("Memos".into(), memos(rng));
    }
    match kind {
        "Payment" if maybe(rng, 0.2) => {
            // A direct MPT payment: Amount, SendMax and DeliverMin in one issuance.
            let id = hex_bytes(rng, 24);
            tx.insert("Destination".into(), json!(address(rng)));
            tx.insert("Amount".into(), mpt_amount(rng, &id));
            for (field, p) in [("SendMax", 0.4), ("DeliverMin", 0.3)] {
                if maybe(rng, p) {
                    tx.insert(field.into(), mpt_amount(rng, &id));
                }
            }
        }
        "Payment" => {
            tx.insert("Destination".into(), json!(address(rng)));
            tx.insert("Amount".into(), amount(rng));
            if maybe(rng, 0.4) {
                tx.insert("SendMax".into(), amount(rng));
            }
            if maybe(rng, 0.3) {
                tx.insert("DeliverMin".into(), amount(rng));
            }
            if maybe(rng, 0.4) {
                tx.insert("Paths".into(), paths(rng));
            }
            if maybe(rng, 0.5) {
                tx.insert("DestinationTag".into(), json!(rng.gen::<u32>()));
            }
            if maybe(rng, 0.2) {
                tx.insert("InvoiceID".into(), json!(hex_bytes(rng, 32)));
            }
            if maybe(rng, 0.5) {
                let flags = [0u32, 0x0001_0000, 0x0002_0000, 0x0004_0000, 0x8000_0000];
                tx.insert(
                    "Flags".into(),
                    json!(flags.choose(rng).copied().unwrap_or(0)),
                );
            }
        }
        "TrustSet" => {
            tx.insert("LimitAmount".into(), iou(rng));
            if maybe(rng, 0.5) {
                tx.insert("QualityIn".into(), json!(rng.gen::<u32>()));
            }
            if maybe(rng, 0.5) {
                tx.insert("QualityOut".into(), json!(rng.gen::<u32>()));
            }
            if maybe(rng, 0.7) {
                let bits = [
                    0x0001_0000u32,
                    0x0002_0000,
                    0x0004_0000,
                    0x0010_0000,
                    0x0020_0000,
                ];
                let f = bits
                    .iter()
                    .filter(|_| rng.gen_bool(0.3))
                    .fold(0, |a, b| a | b);
                tx.insert("Flags".into(), json!(f));
            }
        }
        "AccountSet" => {
            if maybe(rng, 0.5) {
                let n = rng.gen_range(0..=60);
                let domain: String = (0..n)
                    .map(|_| {
                        *b"abcdefghijklmnopqrstuvwxyz0123456789.-"
                            .choose(rng)
                            .unwrap_or(&b'a') as char
                    })
                    .collect();
                tx.insert("Domain".into(), json!(hex::encode_upper(domain)));
            }
            if maybe(rng, 0.4) {
                tx.insert("EmailHash".into(), json!(hex_bytes(rng, 16)));
            }
            if maybe(rng, 0.4) {
                let key = if rng.gen_range(0..5) == 0 {
                    String::new()
                } else {
                    public_key_hex(rng)
                };
                tx.insert("MessageKey".into(), json!(key));
            }
            if maybe(rng, 0.4) {
                let r = match rng.gen_range(0..3) {
                    0 => 0,
                    1 => 2_000_000_000,
                    _ => rng.gen_range(1_000_000_000u32..=2_000_000_000),
                };
                tx.insert("TransferRate".into(), json!(r));
            }
            if maybe(rng, 0.3) {
                let t = [0u8, 3, 5, 10, 15];
                tx.insert(
                    "TickSize".into(),
                    json!(t.choose(rng).copied().unwrap_or(0)),
                );
            }
            if maybe(rng, 0.4) {
                tx.insert("SetFlag".into(), json!(rng.gen_range(1u32..=16)));
            }
            if maybe(rng, 0.3) {
                tx.insert("ClearFlag".into(), json!(rng.gen_range(1u32..=16)));
            }
            if maybe(rng, 0.2) {
                tx.insert("WalletLocator".into(), json!(hex_bytes(rng, 32)));
            }
            if maybe(rng, 0.3) {
                tx.insert("Flags".into(), json!(rng.gen::<u32>()));
            }
        }
        "SetRegularKey" => {
            if maybe(rng, 0.8) {
                tx.insert("RegularKey".into(), json!(address(rng)));
            }
        }
        "PaymentChannelCreate" => {
            tx.insert("Amount".into(), json!(drops(rng)));
            tx.insert("Destination".into(), json!(address(rng)));
            tx.insert("SettleDelay".into(), json!(rng.gen::<u32>()));
            tx.insert("PublicKey".into(), json!(public_key_hex(rng)));
            if maybe(rng, 0.5) {
                tx.insert("CancelAfter".into(), json!(rng.gen::<u32>()));
            }
            if maybe(rng, 0.5) {
                tx.insert("DestinationTag".into(), json!(rng.gen::<u32>()));
            }
        }
        "PaymentChannelFund" => {
            tx.insert("Channel".into(), json!(hex_bytes(rng, 32)));
            tx.insert("Amount".into(), json!(drops(rng)));
            if maybe(rng, 0.5) {
                tx.insert("Expiration".into(), json!(rng.gen::<u32>()));
            }
        }
        _ => {
            // PaymentChannelClaim
            tx.insert("Channel".into(), json!(hex_bytes(rng, 32)));
            if maybe(rng, 0.7) {
                tx.insert("Balance".into(), json!(drops(rng)));
            }
            if maybe(rng, 0.7) {
                tx.insert("Amount".into(), json!(drops(rng)));
            }
            if maybe(rng, 0.6) {
                tx.insert("Signature".into(), json!(signature_blob(rng)));
                tx.insert("PublicKey".into(), json!(public_key_hex(rng)));
            }
            if maybe(rng, 0.5) {
                let f = [0u32, 0x0001_0000, 0x0002_0000];
                tx.insert("Flags".into(), json!(f.choose(rng).copied().unwrap_or(0)));
            }
        }
    }
    Value::Object(tx)
}
