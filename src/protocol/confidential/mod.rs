//! Confidential MPTs (XLS-96, amendment ConfidentialTransfer): what a validator checks, written
//! after XRPLF/mpt-crypto (the C library xrpld links) on RustCrypto's `k256`.
//!
//! The server never decrypts and never needs a holder's secret key: it checks that ciphertexts
//! are well formed, re-encrypts revealed amounts, adds and subtracts ciphertexts homomorphically,
//! and verifies zero-knowledge proofs bound to their transaction by a context hash.
//!
//! - [`point`]: 33-byte points and 32-byte scalars.
//! - [`elgamal`]: ciphertexts, their sums, the canonical zero, revealed amounts.
//! - [`context`]: the hashes that bind a proof to its transaction.
//! - [`key_proof`]: the proof of knowledge of a secret key (Convert).
//! - [`clawback_proof`]: the issuer's proof of the amount it claws back.
//! - [`convert_back_proof`]: the holder's proof that it owns what it converts back.
//! - [`send_proof`]: the sender's proof that one amount goes to every party and is covered.
//! - [`bulletproof`]: range proofs of one or two 64-bit values (verified; not yet proved).
//! - [`client`]: the wallet's side (keys, encryption, proving), for tests and examples.
//! - [`generators`]: the NUMS bases `H`, `G_i`, `H_i`, `U`, and Pedersen commitments.
//!
//! Sizes are mpt-crypto's (`mpt_protocol.h`, `secp256k1_mpt.h`).

pub mod bulletproof;
pub mod clawback_proof;
pub mod client;
pub mod context;
pub mod convert_back_proof;
pub mod elgamal;
pub mod generators;
pub mod key_proof;
pub mod point;
pub mod send_proof;
mod transcript;

/// A compressed secp256k1 point: a public key or a Pedersen commitment.
pub const POINT_SIZE: usize = 33;
/// An ElGamal ciphertext: `C1 = r·G` and `C2 = m·G + r·Q`, both compressed.
pub const CIPHERTEXT_SIZE: usize = 66;
/// A scalar: a blinding factor, a challenge or a response.
pub const SCALAR_SIZE: usize = 32;
/// The proof of knowledge of an ElGamal secret key (ConfidentialMPTConvert's ZKProof).
pub const KEY_PROOF_SIZE: usize = 64;
/// ConfidentialMPTClawback's compact sigma proof.
pub const CLAWBACK_PROOF_SIZE: usize = 64;
/// ConfidentialMPTConvertBack's proof: a 128-byte compact sigma proof and a single Bulletproof.
pub const CONVERT_BACK_PROOF_SIZE: usize = 128 + SINGLE_BULLETPROOF_SIZE;
/// ConfidentialMPTSend's proof: a 192-byte compact sigma proof and an aggregated Bulletproof.
pub const SEND_PROOF_SIZE: usize = 192 + DOUBLE_BULLETPROOF_SIZE;
/// A Bulletproof that one 64-bit value is in range.
pub const SINGLE_BULLETPROOF_SIZE: usize = 688;
/// A Bulletproof that two 64-bit values are in range.
pub const DOUBLE_BULLETPROOF_SIZE: usize = 754;

// ---------------------------------------------------------------------------------------------
// The validator's API, as the engine calls it.
// ---------------------------------------------------------------------------------------------

/// One party to a confidential amount: its ElGamal public key and the ciphertext under it.
#[derive(Clone, Copy, Debug)]
pub struct Participant<'a> {
    /// The 33-byte compressed public key.
    pub key: &'a [u8],
    /// The 66-byte ciphertext under it.
    pub ciphertext: &'a [u8],
}

/// The parties to one amount: each key with the ciphertext at the same position.
pub fn participants<'a>(
    keys: &'a [[u8; POINT_SIZE]],
    ciphertexts: &'a [[u8; CIPHERTEXT_SIZE]],
) -> Vec<Participant<'a>> {
    keys.iter()
        .zip(ciphertexts)
        .map(|(key, ciphertext)| Participant { key, ciphertext })
        .collect()
}

pub use clawback_proof::verify_clawback_proof;
pub use context::{
    clawback_context_hash, convert_back_context_hash, convert_context_hash, send_context_hash,
};
pub use convert_back_proof::verify_convert_back_proof;
pub use elgamal::{
    add_ciphertexts, canonical_zero, is_valid_ciphertext, is_valid_point, rerandomize,
    subtract_ciphertexts, verify_revealed_amount,
};
pub use key_proof::verify_key_proof;
pub use send_proof::verify_send_proof;
