//! The protocol core against outside references (`tests/protocol/`): the codec, keys,
//! claims and signing against vectors made by xrpl-py and xrpl.js (`tests/vectors/`),
//! real XRP Ledger ledgers hashed again, and property tests of amounts, the codec,
//! crypto and quality. One test binary: `cargo test --test protocol`.

mod support;

#[path = "protocol/codec_mpt.rs"]
mod codec_mpt;
#[path = "protocol/codec_xchain.rs"]
mod codec_xchain;
#[path = "protocol/ledger_fidelity.rs"]
mod ledger_fidelity;
#[path = "protocol/prop_amount.rs"]
mod prop_amount;
#[path = "protocol/prop_codec.rs"]
mod prop_codec;
#[path = "protocol/prop_crypto.rs"]
mod prop_crypto;
#[path = "protocol/prop_quality.rs"]
mod prop_quality;
#[path = "protocol/vectors_claims.rs"]
mod vectors_claims;
#[path = "protocol/vectors_codec.rs"]
mod vectors_codec;
#[path = "protocol/vectors_keys.rs"]
mod vectors_keys;
#[path = "protocol/vectors_tx_signing.rs"]
mod vectors_tx_signing;
