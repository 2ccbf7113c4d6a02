//! Property tests of the codec.
//!
//! 1. Random transaction-like objects over every field type the model carries round-trip
//!    JSON -> binary -> JSON and binary -> JSON -> binary unchanged.
//! 2. The decoder never panics: arbitrary bytes, and valid blobs with bytes flipped,
//!    inserted or removed. Whatever it accepts re-encodes to a blob that decodes to the
//!    same object, and prints as JSON.
//!    (The cargo-fuzz target `fuzz/fuzz_targets/decode.rs` does the same at scale.)

use ledgerd::protocol::amount::{Amount, IouValue, Rounding};
use ledgerd::protocol::codec::{decode, encode, from_json, to_json};
use ledgerd::protocol::definitions::Field;
use ledgerd::protocol::st::{PathStep, StObject, StValue};
use ledgerd::protocol::types::{
    AccountId, Currency, Hash128, Hash160, Hash256, Issue, ISO_CHARSET,
};
use proptest::prelude::*;

fn account() -> impl Strategy<Value = AccountId> {
    // Never zero: a zero account is not a valid issuer or path account.
    any::<[u8; 20]>()
        .prop_filter("non-zero", |b| b.iter().any(|x| *x != 0))
        .prop_map(AccountId)
}

fn issuer() -> impl Strategy<Value = AccountId> {
    account().prop_filter("not noAccount", |a| *a != AccountId::ONE)
}

fn iso_currency() -> impl Strategy<Value = Currency> {
    let chars: Vec<u8> = ISO_CHARSET.bytes().collect();
    proptest::collection::vec(proptest::sample::select(chars), 3)
        .prop_filter("not XRP", |c| c != b"XRP")
        .prop_map(|c| Currency::iso([c[0], c[1], c[2]]))
}

/// A currency an IOU may have: ISO-style or 20 raw bytes, never XRP (zero),
/// rippled's badCurrency ("XRP" in ISO form) or noCurrency (0x...01).
fn iou_currency() -> impl Strategy<Value = Currency> {
    prop_oneof![iso_currency(), any::<[u8; 20]>().prop_map(Currency)].prop_filter(
        "valid issued currency",
        |c| {
            let mut no = [0u8; 20];
            no[19] = 1;
            !c.is_xrp() && !c.is_bad() && c.0 != no
        },
    )
}

fn iou_value() -> impl Strategy<Value = IouValue> {
    prop_oneof![
        Just(IouValue::ZERO),
        (
            1_000_000_000_000_000u64..=9_999_999_999_999_999,
            -96i32..=80,
            any::<bool>()
        )
            .prop_map(|(m, e, neg)| {
                IouValue::from_parts(m as u128, e, neg, Rounding::Nearest).expect("in range")
            }),
    ]
}

fn xrp_amount() -> impl Strategy<Value = Amount> {
    (-100_000_000_000_000_000i64..=100_000_000_000_000_000).prop_map(Amount::Xrp)
}

fn iou_amount() -> impl Strategy<Value = Amount> {
    (iou_value(), iou_currency(), issuer()).prop_map(|(v, c, i)| Amount::iou(v, c, i))
}

fn blob(max: usize) -> impl Strategy<Value = Vec<u8>> {
    proptest::collection::vec(any::<u8>(), 0..max)
}

fn path_step() -> impl Strategy<Value = PathStep> {
    (
        proptest::option::of(account()),
        proptest::option::of(prop_oneof![Just(Currency::XRP), iou_currency()]),
        proptest::option::of(account()),
    )
        .prop_filter("non-empty step", |(a, c, i)| {
            a.is_some() || c.is_some() || i.is_some()
        })
        .prop_map(|(account, currency, issuer)| PathStep {
            account,
            currency,
            issuer,
        })
}

fn object_of(fields: Vec<(&'static str, StValue)>) -> StObject {
    let mut o = StObject::new();
    for (name, v) in fields {
        o.set_named(name, v);
    }
    o
}

fn memo() -> impl Strategy<Value = (Field, StObject)> {
    (
        proptest::option::of(blob(40)),
        proptest::option::of(blob(300)),
        proptest::option::of(blob(20)),
    )
        .prop_map(|(t, d, f)| {
            let mut fields = Vec::new();
            for (name, b) in [("MemoType", t), ("MemoData", d), ("MemoFormat", f)] {
                if let Some(b) = b {
                    fields.push((name, StValue::Blob(b)));
                }
            }
            (Field::named("Memo"), object_of(fields))
        })
}

fn signer() -> impl Strategy<Value = (Field, StObject)> {
    (account(), blob(34), blob(72)).prop_map(|(a, pk, sig)| {
        (
            Field::named("Signer"),
            object_of(vec![
                ("Account", StValue::AccountId(a)),
                ("SigningPubKey", StValue::Blob(pk)),
                ("TxnSignature", StValue::Blob(sig)),
            ]),
        )
    })
}

/// Scalar fields: one per type, plus both header forms and the special JSON names.
fn scalar_field() -> impl Strategy<Value = (&'static str, StValue)> {
    prop_oneof![
        any::<u8>().prop_map(|v| ("TickSize", StValue::UInt8(v))),
        any::<u8>().prop_map(|v| ("TransactionResult", StValue::UInt8(v))),
        any::<u16>().prop_map(|v| ("TransactionType", StValue::UInt16(v))),
        any::<u16>().prop_map(|v| ("LedgerEntryType", StValue::UInt16(v))),
        any::<u16>().prop_map(|v| ("TransferFee", StValue::UInt16(v))),
        any::<u32>().prop_map(|v| ("Flags", StValue::UInt32(v))),
        any::<u32>().prop_map(|v| ("Sequence", StValue::UInt32(v))),
        any::<u32>().prop_map(|v| ("SettleDelay", StValue::UInt32(v))),
        any::<u64>().prop_map(|v| ("OwnerNode", StValue::UInt64(v))),
        any::<u64>().prop_map(|v| ("MaximumAmount", StValue::UInt64(v))),
        any::<i32>().prop_map(|v| ("LoanScale", StValue::Int32(v))),
        any::<[u8; 16]>().prop_map(|v| ("EmailHash", StValue::Hash128(Hash128(v)))),
        any::<[u8; 20]>().prop_map(|v| ("TakerPaysCurrency", StValue::Hash160(Hash160(v)))),
        any::<[u8; 32]>().prop_map(|v| ("Channel", StValue::Hash256(Hash256(v)))),
        any::<[u8; 32]>().prop_map(|v| ("InvoiceID", StValue::Hash256(Hash256(v)))),
        any::<[u8; 24]>().prop_map(|v| ("MPTokenIssuanceID", StValue::Fixed(v.to_vec()))),
        xrp_amount().prop_map(|a| ("Fee", StValue::Amount(a))),
        prop_oneof![xrp_amount(), iou_amount()].prop_map(|a| ("Amount", StValue::Amount(a))),
        iou_amount().prop_map(|a| ("SendMax", StValue::Amount(a))),
        blob(13_000).prop_map(|b| ("Domain", StValue::Blob(b))),
        blob(72).prop_map(|b| ("TxnSignature", StValue::Blob(b))),
        blob(33).prop_map(|b| ("SigningPubKey", StValue::Blob(b))),
        account().prop_map(|a| ("Account", StValue::AccountId(a))),
        account().prop_map(|a| ("Destination", StValue::AccountId(a))),
        proptest::collection::vec(any::<[u8; 32]>(), 0..5).prop_map(|v| (
            "Hashes",
            StValue::Vector256(v.into_iter().map(Hash256).collect())
        )),
        proptest::collection::vec(proptest::collection::vec(path_step(), 1..4), 1..4)
            .prop_map(|p| ("Paths", StValue::PathSet(p))),
        prop_oneof![iso_currency(), iou_currency(), Just(Currency::XRP)]
            .prop_map(|c| ("BaseAsset", StValue::Currency(c))),
        prop_oneof![
            Just(Issue::XRP),
            (iou_currency(), issuer()).prop_map(|(currency, issuer)| Issue { currency, issuer })
        ]
        .prop_map(|i| ("Asset", StValue::Issue(i))),
    ]
}

fn tx_like() -> impl Strategy<Value = StObject> {
    (
        proptest::collection::vec(scalar_field(), 0..14),
        proptest::option::of(proptest::collection::vec(memo(), 0..3)),
        proptest::option::of(proptest::collection::vec(signer(), 1..3)),
        proptest::option::of(proptest::collection::vec(scalar_field(), 0..5)),
    )
        .prop_map(|(scalars, memos, signers, inner)| {
            let mut o = object_of(scalars);
            if let Some(m) = memos {
                o.set_named("Memos", StValue::Array(m));
            }
            if let Some(s) = signers {
                o.set_named("Signers", StValue::Array(s));
            }
            if let Some(f) = inner {
                // An inner object (as in metadata), holding scalars of every type.
                o.set_named("NewFields", StValue::Object(object_of(f)));
            }
            o
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn binary_and_json_round_trips(obj in tx_like()) {
        // binary -> object -> binary
        let bin = encode(&obj);
        let back = decode(&bin).expect("our own encoding decodes");
        prop_assert_eq!(&back, &obj);

        // binary -> JSON -> binary
        let j = to_json(&back);
        let parsed = from_json(&j).expect("our own JSON parses");
        prop_assert_eq!(&parsed, &obj);
        prop_assert_eq!(encode(&parsed), bin.clone());

        // JSON -> binary -> JSON
        let j2 = to_json(&decode(&encode(&from_json(&j).expect("parses"))).expect("decodes"));
        prop_assert_eq!(j2, j);
    }

    #[test]
    fn arbitrary_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..600)) {
        check_decoder(&bytes)?;
    }

    #[test]
    fn mutated_blobs_never_panic(
        obj in tx_like(),
        edits in proptest::collection::vec((any::<prop::sample::Index>(), any::<u8>(), 0u8..3), 1..6),
    ) {
        let mut bytes = encode(&obj);
        for (at, byte, op) in edits {
            if bytes.is_empty() {
                bytes.push(byte);
                continue;
            }
            let i = at.index(bytes.len());
            match op {
                0 => bytes[i] = byte,
                1 => bytes.insert(i, byte),
                _ => {
                    bytes.remove(i);
                }
            }
        }
        check_decoder(&bytes)?;
    }
}

/// decode must not panic; what it accepts must re-encode stably and print as JSON.
fn check_decoder(bytes: &[u8]) -> Result<(), TestCaseError> {
    if let Ok(obj) = decode(bytes) {
        let again = encode(&obj);
        prop_assert_eq!(decode(&again).expect("re-encoding decodes"), obj.clone());
        let j = to_json(&obj);
        // Parsing our JSON back may legitimately fail (e.g. a path step whose only
        // account is zero) but must not panic.
        let _ = from_json(&j);
    }
    Ok(())
}
