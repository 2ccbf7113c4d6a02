//! The proof of knowledge of an ElGamal secret key that registers a holder's key
//! (ConfidentialMPTConvert), as mpt-crypto's `proof_pok_sk.c`: a Schnorr proof `e || s` with
//! `T = s·G - e·Q` and `e = SHA-256("CMPT_POK_SK_REGISTER" || Q || T || context) mod n`.

use k256::{ProjectivePoint, Scalar};

use super::point::{decode_nonzero_scalars, decode_point, g_mul};
use super::transcript::Transcript;
use super::KEY_PROOF_SIZE;

const DOMAIN: &[u8] = b"CMPT_POK_SK_REGISTER";

/// The challenge for key `q` and commitment `t`; `None` when `t` is the identity.
pub(crate) fn challenge(
    q: &ProjectivePoint,
    t: &ProjectivePoint,
    context: &[u8; 32],
) -> Option<Scalar> {
    Some(Transcript::new(DOMAIN).points([q, t])?.challenge(context))
}

/// Whether `proof` (64 bytes) shows knowledge of the secret key of `key`, bound to `context`.
pub fn verify_key_proof(proof: &[u8], key: &[u8], context: &[u8; 32]) -> bool {
    if proof.len() != KEY_PROOF_SIZE {
        return false;
    }
    let (Some(q), Some([e, s])) = (decode_point(key), decode_nonzero_scalars(proof)) else {
        return false;
    };
    challenge(&q, &(g_mul(&s) - q * e), context) == Some(e)
}
