//! ConfidentialMPTConvertBack's proof, as mpt-crypto's `proof_compact_convertback.c` and
//! `mpt_verify_convert_back_proof`: a 128-byte compact sigma proof that the holder knows
//! `sk`, `b` and `rho` with `P = sk·G`, spending balance `B2 = b·G + sk·B1` and commitment
//! `PC_b = b·G + rho·H`, then a single Bulletproof that `PC_b - m·G` opens to a 64-bit value.
//! The sigma proof is `e || z_b || z_rho || z_sk` with
//! `T_sk1 = z_sk·G - e·P`, `T_sk2 = z_b·G + z_sk·B1 - e·B2`, `T_b = z_b·G + z_rho·H - e·PC_b`
//! and `e = SHA-256("CMPT_CONVERTBACK_SIGMA" || P || B1 || B2 || PC_b || T_sk1 || T_sk2 || T_b
//! || context) mod n`.

use k256::{ProjectivePoint, Scalar};

use super::elgamal::Ciphertext;
use super::point::{decode_nonzero_scalars, decode_point, g_mul, lincomb, minus_amount};
use super::transcript::Transcript;
use super::{bulletproof, generators, CONVERT_BACK_PROOF_SIZE};

const DOMAIN: &[u8] = b"CMPT_CONVERTBACK_SIGMA";
/// The compact sigma part's length; the Bulletproof follows it.
pub const SIGMA_SIZE: usize = 128;

/// The public statement: the holder's key, its spending balance and the balance commitment.
pub(crate) struct Statement {
    pub key: ProjectivePoint,
    pub spending: Ciphertext,
    pub balance_commitment: ProjectivePoint,
}

/// The prover's commitments `T_sk1`, `T_sk2`, `T_b`.
pub(crate) type Commitments = [ProjectivePoint; 3];

/// The Fiat-Shamir challenge; `None` when a point is the identity.
pub(crate) fn challenge(
    statement: &Statement,
    t: &Commitments,
    context: &[u8; 32],
) -> Option<Scalar> {
    let s = statement;
    let transcript = Transcript::new(DOMAIN)
        .points([
            &s.key,
            &s.spending.c1,
            &s.spending.c2,
            &s.balance_commitment,
        ])?
        .points(t)?;
    Some(transcript.challenge(context))
}

/// Whether the 128-byte sigma part holds for `statement`.
pub(crate) fn verify_sigma(sigma: &[u8], statement: &Statement, context: &[u8; 32]) -> bool {
    let Some([e, z_b, z_rho, z_sk]) = decode_nonzero_scalars(sigma) else {
        return false;
    };
    let (zb_g, s) = (g_mul(&z_b), statement);
    let t = [
        g_mul(&z_sk) - s.key * e,
        zb_g + lincomb(&s.spending.c1, &z_sk, &s.spending.c2, &-e),
        zb_g + lincomb(&generators::h(), &z_rho, &s.balance_commitment, &-e),
    ];
    challenge(statement, &t, context) == Some(e)
}

/// Whether the 128-byte sigma part of a ConvertBack proof holds (the Bulletproof aside).
pub fn verify_convert_back_sigma(
    sigma: &[u8],
    holder_key: &[u8],
    spending: &[u8],
    balance_commitment: &[u8],
    context: &[u8; 32],
) -> bool {
    match (
        decode_point(holder_key),
        Ciphertext::decode(spending),
        decode_point(balance_commitment),
    ) {
        (Some(key), Some(spending), Some(balance_commitment)) => {
            sigma.len() == SIGMA_SIZE
                && verify_sigma(
                    sigma,
                    &Statement {
                        key,
                        spending,
                        balance_commitment,
                    },
                    context,
                )
        }
        _ => false,
    }
}

/// Whether `proof` (816 bytes) shows that the holder of `holder_key` owns `spending`, that
/// `balance_commitment` commits to it, and that the balance less `amount` is not negative.
/// Both parts are checked (no early exit), as mpt-crypto does.
pub fn verify_convert_back_proof(
    proof: &[u8],
    holder_key: &[u8],
    spending: &[u8],
    balance_commitment: &[u8],
    amount: u64,
    context: &[u8; 32],
) -> bool {
    if proof.len() != CONVERT_BACK_PROOF_SIZE {
        return false;
    }
    let (Some(key), Some(spending), Some(balance_commitment)) = (
        decode_point(holder_key),
        Ciphertext::decode(spending),
        decode_point(balance_commitment),
    ) else {
        return false;
    };
    let Some(rest) = minus_amount(&balance_commitment, amount) else {
        return false;
    };
    let (sigma, range) = proof.split_at(SIGMA_SIZE);
    let statement = Statement {
        key,
        spending,
        balance_commitment,
    };
    let sigma_ok = verify_sigma(sigma, &statement, context);
    let range_ok = bulletproof::verify_range(range, &[rest], context);
    sigma_ok & range_ok
}
