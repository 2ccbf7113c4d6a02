//! Bulletproof range proofs over secp256k1 as mpt-crypto makes them: one or two 64-bit values,
//! committed as `v·G + γ·H`, bound to a transaction by its context hash.
//!
//! Placeholder until this wave's Bulletproof helper lands; the signatures are the contract.

use k256::{ProjectivePoint, Scalar};

/// Whether `proof` shows that each commitment (one or two) opens to a value below 2^64.
pub fn verify_range(_proof: &[u8], _commitments: &[ProjectivePoint], _context: &[u8; 32]) -> bool {
    false
}

/// A proof that each value (one or two) is below 2^64, for commitments `v_i·G + γ_i·H`.
pub fn prove_range(_values: &[u64], _blindings: &[Scalar], _context: &[u8; 32]) -> Vec<u8> {
    Vec::new()
}
