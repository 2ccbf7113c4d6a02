//! ConfidentialMPTSend's proof, as mpt-crypto's `proof_compact_standard.c` and
//! `mpt_verify_send_proof`: a 192-byte compact sigma proof, then an aggregated Bulletproof
//! that the amount commitment `PC_m` and the remainder `PC_b - PC_m` open to 64-bit values.
//!
//! The sigma proof `e || z_m || z_r || z_b || z_rb || z_sk` shows, under one challenge, that
//! every participant's ciphertext `(C1, C2_i)` encrypts one amount `m` with one shared `r`
//! (`T1 = z_r·G - e·C1`, `T2_i = z_r·P_i + z_m·G - e·C2_i`), that `PC_m = m·G + r·H`
//! (`T_PCm = z_m·G + z_r·H - e·PC_m`), that the sender knows its secret key
//! (`K1 = z_sk·G - e·P_A`), that `PC_b = b·G + rb·H` (`T_PCb = z_b·G + z_rb·H - e·PC_b`) and
//! that its spending balance `(B1, B2)` encrypts the same `b` (`K2 = z_sk·B1 + z_b·G - e·B2`).

use k256::{ProjectivePoint, Scalar};

use super::elgamal::Ciphertext;
use super::point::{decode_nonzero_scalars, decode_point, g_mul, lincomb, non_identity};
use super::transcript::Transcript;
use super::{bulletproof, generators, Participant, POINT_SIZE, SEND_PROOF_SIZE};

const DOMAIN: &[u8] = b"CMPT_SEND_SIGMA";
/// The compact sigma part's length; the aggregated Bulletproof follows it.
pub const SIGMA_SIZE: usize = 192;

/// The public statement. `keys[0]` is the sender's.
pub(crate) struct Statement {
    pub keys: Vec<ProjectivePoint>,
    pub c1: ProjectivePoint,
    pub c2: Vec<ProjectivePoint>,
    pub amount_commitment: ProjectivePoint,
    pub balance_commitment: ProjectivePoint,
    pub spending: Ciphertext,
}

/// The prover's commitments, in the challenge's order after `T2_i`:
/// `T_PCm`, `T_PCb`, `K1`, `K2`.
pub(crate) struct Commitments {
    pub t1: ProjectivePoint,
    pub t2: Vec<ProjectivePoint>,
    pub rest: [ProjectivePoint; 4],
}

/// The Fiat-Shamir challenge; `None` when a point is the identity.
pub(crate) fn challenge(s: &Statement, t: &Commitments, context: &[u8; 32]) -> Option<Scalar> {
    let transcript = Transcript::new(DOMAIN)
        .points(&s.keys)?
        .points([&s.keys[0], &s.c1])?
        .points(&s.c2)?
        .points([
            &s.amount_commitment,
            &s.balance_commitment,
            &s.spending.c1,
            &s.spending.c2,
        ])?
        .points([&t.t1])?
        .points(&t.t2)?
        .points(&t.rest)?;
    Some(transcript.challenge(context))
}

/// Whether the 192-byte sigma part holds for `s`.
pub(crate) fn verify_sigma(sigma: &[u8], s: &Statement, context: &[u8; 32]) -> bool {
    let Some([e, z_m, z_r, z_b, z_rb, z_sk]) = decode_nonzero_scalars(sigma) else {
        return false;
    };
    let (h, zm_g, zb_g) = (generators::h(), g_mul(&z_m), g_mul(&z_b));
    let t = Commitments {
        t1: g_mul(&z_r) - s.c1 * e,
        t2: s
            .keys
            .iter()
            .zip(&s.c2)
            .map(|(p, c2)| zm_g + lincomb(p, &z_r, c2, &-e))
            .collect(),
        rest: [
            zm_g + lincomb(&h, &z_r, &s.amount_commitment, &-e),
            zb_g + lincomb(&h, &z_rb, &s.balance_commitment, &-e),
            g_mul(&z_sk) - s.keys[0] * e,
            zb_g + lincomb(&s.spending.c1, &z_sk, &s.spending.c2, &-e),
        ],
    };
    challenge(s, &t, context) == Some(e)
}

/// The statement from the transaction's bytes: 3 or 4 participants (sender first) whose
/// ciphertexts share one `C1`, byte for byte.
pub(crate) fn statement(
    participants: &[Participant],
    spending: &[u8],
    amount_commitment: &[u8],
    balance_commitment: &[u8],
) -> Option<Statement> {
    if !(3..=4).contains(&participants.len()) {
        return None;
    }
    let shared_c1 = participants[0].ciphertext.get(..POINT_SIZE)?;
    let mut keys = Vec::with_capacity(participants.len());
    let mut c2 = Vec::with_capacity(participants.len());
    for party in participants {
        let ct = Ciphertext::decode(party.ciphertext)?;
        if &party.ciphertext[..POINT_SIZE] != shared_c1 {
            return None;
        }
        keys.push(decode_point(party.key)?);
        c2.push(ct.c2);
    }
    Some(Statement {
        c1: decode_point(shared_c1)?,
        keys,
        c2,
        amount_commitment: decode_point(amount_commitment)?,
        balance_commitment: decode_point(balance_commitment)?,
        spending: Ciphertext::decode(spending)?,
    })
}

/// Whether the 192-byte sigma part of a Send proof holds (the Bulletproof aside).
pub fn verify_send_sigma(
    sigma: &[u8],
    participants: &[Participant],
    spending: &[u8],
    amount_commitment: &[u8],
    balance_commitment: &[u8],
    context: &[u8; 32],
) -> bool {
    sigma.len() == SIGMA_SIZE
        && statement(
            participants,
            spending,
            amount_commitment,
            balance_commitment,
        )
        .is_some_and(|s| verify_sigma(sigma, &s, context))
}

/// Whether `proof` (946 bytes) shows that the participants' ciphertexts (sender, destination,
/// issuer, and the auditor if any) encrypt one amount committed in `amount_commitment`, that
/// the sender owns `spending`, committed in `balance_commitment`, and that the amount and the
/// remainder are 64-bit values. Both parts are checked (no early exit), as mpt-crypto does.
pub fn verify_send_proof(
    proof: &[u8],
    participants: &[Participant],
    spending: &[u8],
    amount_commitment: &[u8],
    balance_commitment: &[u8],
    context: &[u8; 32],
) -> bool {
    if proof.len() != SEND_PROOF_SIZE {
        return false;
    }
    let Some(s) = statement(
        participants,
        spending,
        amount_commitment,
        balance_commitment,
    ) else {
        return false;
    };
    let Some(remainder) = non_identity(s.balance_commitment - s.amount_commitment) else {
        return false;
    };
    let (sigma, range) = proof.split_at(SIGMA_SIZE);
    let sigma_ok = verify_sigma(sigma, &s, context);
    let range_ok = bulletproof::verify_range(range, &[s.amount_commitment, remainder], context);
    sigma_ok & range_ok
}
