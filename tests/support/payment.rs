//! Transactions signed locally, as a client signs them before `submit`: any transaction
//! from its JSON, and XRP payments (the tests' usual traffic) in binary or hex.

use ledgerd::protocol::amount::Amount;
use ledgerd::protocol::codec;
use ledgerd::protocol::definitions::Field;
use ledgerd::protocol::keys::KeyPair;
use ledgerd::protocol::st::{StObject, StValue};
use ledgerd::protocol::tx::signing_data;
use ledgerd::protocol::types::AccountId;
use serde_json::Value;

/// tfFullyCanonicalSig, which clients set on everything they sign.
pub const TF_FULLY_CANONICAL_SIG: u32 = 0x8000_0000;

/// The fee of the payments built here, in drops.
pub const PAYMENT_FEE: u64 = 10;

/// Sets SigningPubKey and TxnSignature: `o` signed by `signer`.
pub fn sign_object(o: &mut StObject, signer: &KeyPair) {
    o.set(
        Field::named("SigningPubKey"),
        StValue::Blob(signer.public.as_bytes().to_vec()),
    );
    let sig = signer.sign(&signing_data(o));
    o.set(Field::named("TxnSignature"), StValue::Blob(sig));
}

/// Signs `tx` (JSON without SigningPubKey / TxnSignature) with `pair`; the blob in hex.
pub fn sign(pair: &KeyPair, tx: Value) -> String {
    let mut obj = codec::from_json(&tx).expect("tx json");
    sign_object(&mut obj, pair);
    hex::encode_upper(codec::encode(&obj))
}

/// A signed XRP Payment of `drops` from `from` (at sequence `seq`) to `to`, in binary.
pub fn payment_blob(from: &KeyPair, seq: u32, to: &AccountId, drops: u64) -> Vec<u8> {
    payment_blob_paying(from, seq, to, drops, PAYMENT_FEE)
}

/// [`payment_blob`] with a Fee of `fee` drops.
pub fn payment_blob_paying(
    from: &KeyPair,
    seq: u32,
    to: &AccountId,
    drops: u64,
    fee: u64,
) -> Vec<u8> {
    let mut o = StObject::new();
    let payment = ledgerd::protocol::definitions::defs().transaction_types["Payment"];
    o.set(Field::named("TransactionType"), StValue::UInt16(payment));
    o.set(
        Field::named("Flags"),
        StValue::UInt32(TF_FULLY_CANONICAL_SIG),
    );
    o.set(
        Field::named("Account"),
        StValue::AccountId(from.account_id()),
    );
    o.set(Field::named("Destination"), StValue::AccountId(*to));
    o.set(
        Field::named("Amount"),
        StValue::Amount(Amount::Xrp(drops as i64)),
    );
    o.set(
        Field::named("Fee"),
        StValue::Amount(Amount::Xrp(fee as i64)),
    );
    o.set(Field::named("Sequence"), StValue::UInt32(seq));
    sign_object(&mut o, from);
    codec::encode(&o)
}

/// The same payment to a classic address, in hex (a `tx_blob`).
pub fn payment(from: &KeyPair, seq: u32, dest: &str, drops: u64) -> String {
    let to = AccountId::from_address(dest).expect("destination address");
    hex::encode_upper(payment_blob(from, seq, &to, drops))
}
