//! ConfidentialMPTClawback's compact sigma proof, as mpt-crypto's `proof_compact_clawback.c`:
//! the issuer shows that its ciphertext `(C1, C2)` of the holder's balance decrypts to the
//! revealed amount `m`, i.e. that it knows `sk` with `P = sk·G` and `C2 - m·G = sk·C1`.
//! The proof is `e || z` with `T1 = z·G - e·P`, `T2 = z·C1 - e·(C2 - m·G)` and
//! `e = SHA-256("CMPT_CLAWBACK_SIGMA" || P || C1 || C2 || m·G || T1 || T2 || context) mod n`
//! (`m·G` written as 33 zero bytes when `m` is 0).

use k256::{ProjectivePoint, Scalar};

use super::elgamal::Ciphertext;
use super::point::{
    amount_scalar, decode_nonzero_scalars, decode_point, encode_point, g_mul, lincomb, minus_amount,
};
use super::transcript::Transcript;
use super::CLAWBACK_PROOF_SIZE;

const DOMAIN: &[u8] = b"CMPT_CLAWBACK_SIGMA";

/// What the challenge commits to besides the prover's `T1` and `T2`.
pub(crate) struct Statement {
    pub key: ProjectivePoint,
    pub ciphertext: Ciphertext,
    pub amount: u64,
}

fn amount_point_bytes(amount: u64) -> Option<[u8; 33]> {
    if amount == 0 {
        return Some([0; 33]);
    }
    encode_point(&g_mul(&amount_scalar(amount)))
}

/// The Fiat-Shamir challenge; `None` when a point is the identity (libsecp256k1 cannot
/// serialize it, so mpt-crypto fails there).
pub(crate) fn challenge(
    statement: &Statement,
    t1: &ProjectivePoint,
    t2: &ProjectivePoint,
    context: &[u8; 32],
) -> Option<Scalar> {
    let s = statement;
    let transcript =
        Transcript::new(DOMAIN).points([&s.key, &s.ciphertext.c1, &s.ciphertext.c2])?;
    let transcript = transcript
        .bytes(&amount_point_bytes(s.amount)?)
        .points([t1, t2])?;
    Some(transcript.challenge(context))
}

/// `C2 - m·G`, which must not be the identity.
pub(crate) fn decrypted_point(statement: &Statement) -> Option<ProjectivePoint> {
    minus_amount(&statement.ciphertext.c2, statement.amount)
}

/// Whether `proof` (64 bytes) shows that `issuer_ciphertext` decrypts to `amount` under the
/// secret key of `issuer_key`, bound to `context`.
pub fn verify_clawback_proof(
    proof: &[u8],
    amount: u64,
    issuer_key: &[u8],
    issuer_ciphertext: &[u8],
    context: &[u8; 32],
) -> bool {
    if proof.len() != CLAWBACK_PROOF_SIZE {
        return false;
    }
    let (Some(key), Some(ciphertext), Some([e, z])) = (
        decode_point(issuer_key),
        Ciphertext::decode(issuer_ciphertext),
        decode_nonzero_scalars(proof),
    ) else {
        return false;
    };
    let statement = Statement {
        key,
        ciphertext,
        amount,
    };
    let Some(target) = decrypted_point(&statement) else {
        return false;
    };
    let t1 = g_mul(&z) - key * e;
    let t2 = lincomb(&ciphertext.c1, &z, &target, &-e);
    challenge(&statement, &t1, &t2, context) == Some(e)
}
