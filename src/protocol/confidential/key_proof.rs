//! The proof of knowledge of an ElGamal secret key that registers a holder's key
//! (ConfidentialMPTConvert), as mpt-crypto's `proof_pok_sk.c`: a Schnorr proof `e || s` with
//! `T = s·G - e·Q` and `e = SHA-256("CMPT_POK_SK_REGISTER" || Q || T || context) mod n`.

use k256::Scalar;
use sha2::{Digest, Sha256};

use super::point::{decode_nonzero_scalar, decode_point, encode_point, g_mul, reduce_scalar};
use super::KEY_PROOF_SIZE;

const DOMAIN: &[u8] = b"CMPT_POK_SK_REGISTER";

/// The challenge for key bytes `key`, commitment `t` and `context`.
pub(crate) fn challenge(key: &[u8; 33], t: &[u8; 33], context: &[u8; 32]) -> Scalar {
    let digest: [u8; 32] = Sha256::new()
        .chain_update(DOMAIN)
        .chain_update(key)
        .chain_update(t)
        .chain_update(context)
        .finalize()
        .into();
    reduce_scalar(&digest)
}

/// Whether `proof` (64 bytes) shows knowledge of the secret key of `key`, bound to `context`.
pub fn verify_key_proof(proof: &[u8], key: &[u8], context: &[u8; 32]) -> bool {
    if proof.len() != KEY_PROOF_SIZE {
        return false;
    }
    let (Some(q), Some(e), Some(s)) = (
        decode_point(key),
        decode_nonzero_scalar(&proof[..32]),
        decode_nonzero_scalar(&proof[32..]),
    ) else {
        return false;
    };
    let Some(t) = encode_point(&(g_mul(&s) - q * e)) else {
        return false;
    };
    let key: [u8; 33] = key.try_into().expect("decoded above");
    challenge(&key, &t, context) == e
}
