//! The pure protocol core: everything that must agree byte for byte with rippled,
//! xrpl.js and xrpl-py. No async runtime, no files, no sockets.
//!
//! - [`hash`]: SHA-512-half, RIPEMD160(SHA256), hash prefixes.
//! - [`base58`]: Base58Check with the XRPL alphabet and token versions.
//! - [`types`]: account IDs, hashes, currency codes, issues.
//! - [`amount`]: XRP drops and issued values: grammar, canonical form, arithmetic, text.
//! - [`amount_sum`]: adding and subtracting amounts, and amounts as Numbers.
//! - [`mpt`]: multi-purpose token IDs, amounts and issues (beside `amount`).
//! - [`secret`]: secret bytes that zeroize on drop and print `***`.
//! - [`seed`]: seeds from entropy, base58, hex, passphrase, RFC 1751; rippled's secret parsing.
//! - [`rfc1751`]: the RFC 1751 word codec.
//! - [`keys`]: key types, key pairs, secp256k1 family derivation and ed25519.
//! - [`sign`]: signing and verification with rippled's canonicality rules.
//! - [`claim`]: payment channel claims (`CLM\0`).
//! - [`confidential`]: confidential MPTs: ElGamal ciphertexts and the proofs a validator checks.
//! - [`definitions`]: the vendored `definitions.json` tables.
//! - [`features`]: the amendment table (names, IDs, xrpld's votes, ledgerd's support) and sets.
//! - [`st`]: the serialized-type object model.
//! - [`codec`]: binary and JSON forms of [`st::StObject`].
//! - [`tx`]: transaction signing data, IDs and multi-signing data.
//! - [`permission`]: delegation permission values and names.
//! - [`validation`]: validations (`STValidation`): signing, verifying, the encoded server version.

pub mod amount;
pub mod amount_math;
pub mod amount_sum;
pub mod base58;
pub mod claim;
pub mod codec;
pub mod condition;
pub mod confidential;
pub mod definitions;
pub mod features;
pub mod hash;
pub mod keys;
pub mod mpt;
pub mod number;
pub mod permission;
pub mod quality;
pub mod rfc1751;
pub mod secret;
pub mod seed;
pub mod sign;
pub mod st;
pub mod time;
pub mod tx;
pub mod types;
pub mod validation;
pub mod xaddress;
pub mod xchain;
