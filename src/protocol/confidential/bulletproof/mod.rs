//! Bulletproof range proofs over secp256k1 as mpt-crypto makes them: one or two 64-bit values,
//! committed as `v·G + γ·H`, bound to a transaction by its context hash.
//!
//! The proof layout is `secp256k1_bulletproof_verify_agg`'s (`bulletproof_aggregated.c`):
//! `m ∈ {1, 2}`, length `292 + 66·log2(64·m)` (688 and 754 bytes), the points
//! `A, S, T1, T2, L_0.., R_0..` compressed and `a, b, t̂, τx, μ` as scalars in `[1, n)`.
//!
//! - [`transcript`]: the Fiat-Shamir challenges.
//! - [`verify`]: the verification equations ([`verify_range`]).
//! - [`msm`]: the multi-scalar multiplication they come to.
//! - [`prove`]: the wallet's side ([`prove_range`]).

mod msm;
mod prove;
mod transcript;
mod verify;

pub use prove::prove_range;
pub use verify::verify_range;

use k256::{ProjectivePoint, Scalar};

use super::point::{decode_nonzero_scalar, decode_point};
use super::{POINT_SIZE, SCALAR_SIZE};

/// Bits per value.
pub const BITS: usize = 64;
/// The most values one proof covers (mpt-crypto's `BP_MAX_VALUES` as the ledger uses it).
pub const MAX_VALUES: usize = 2;

/// The inner-product argument's rounds for `m` values: `log2(64·m)`.
pub fn rounds(m: usize) -> usize {
    (BITS * m).trailing_zeros() as usize
}

/// The length of a proof for `m` values: `4` points, `2·rounds` points, `5` scalars.
pub fn proof_len(m: usize) -> usize {
    4 * POINT_SIZE + 5 * SCALAR_SIZE + 2 * POINT_SIZE * rounds(m)
}

/// `1, y, .., y^{n−1}`.
fn powers(y: &Scalar, n: usize) -> Vec<Scalar> {
    let mut out = Vec::with_capacity(n);
    let mut p = Scalar::ONE;
    for _ in 0..n {
        out.push(p);
        p *= y;
    }
    out
}

/// A range proof unpacked as mpt-crypto lays it out.
#[derive(Clone, Debug)]
pub struct RangeProof {
    /// `A`, the commitment to the bits.
    pub a_commit: ProjectivePoint,
    /// `S`, the commitment to the blinding vectors.
    pub s_commit: ProjectivePoint,
    /// `T1`, the commitment to `t1`.
    pub t1: ProjectivePoint,
    /// `T2`, the commitment to `t2`.
    pub t2: ProjectivePoint,
    /// The inner-product argument's left points, one per round.
    pub l: Vec<ProjectivePoint>,
    /// The inner-product argument's right points, one per round.
    pub r: Vec<ProjectivePoint>,
    /// The final `a` of the inner-product argument.
    pub a: Scalar,
    /// The final `b` of the inner-product argument.
    pub b: Scalar,
    /// `t̂ = <l, r>`.
    pub t_hat: Scalar,
    /// `τx`, the blinding of `t̂`.
    pub tau_x: Scalar,
    /// `μ`, the blinding of `A` and `S`.
    pub mu: Scalar,
}

impl RangeProof {
    /// Unpacks a proof for `m` values; `None` where mpt-crypto's verifier fails before hashing.
    pub fn parse(proof: &[u8], m: usize) -> Option<Self> {
        if m == 0 || m > MAX_VALUES || !m.is_power_of_two() || proof.len() != proof_len(m) {
            return None;
        }
        let rounds = rounds(m);
        let (points, scalars) = proof.split_at(POINT_SIZE * (4 + 2 * rounds));
        let points = points
            .chunks_exact(POINT_SIZE)
            .map(decode_point)
            .collect::<Option<Vec<_>>>()?;
        let scalars = scalars
            .chunks_exact(SCALAR_SIZE)
            .map(decode_nonzero_scalar)
            .collect::<Option<Vec<_>>>()?;
        Some(RangeProof {
            a_commit: points[0],
            s_commit: points[1],
            t1: points[2],
            t2: points[3],
            l: points[4..4 + rounds].to_vec(),
            r: points[4 + rounds..].to_vec(),
            a: scalars[0],
            b: scalars[1],
            t_hat: scalars[2],
            tau_x: scalars[3],
            mu: scalars[4],
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::confidential::{DOUBLE_BULLETPROOF_SIZE, SINGLE_BULLETPROOF_SIZE};
    use k256::elliptic_curve::ops::MulByGenerator;

    #[test]
    fn sizes_match_mpt_crypto() {
        assert_eq!(rounds(1), 6);
        assert_eq!(rounds(2), 7);
        assert_eq!(proof_len(1), SINGLE_BULLETPROOF_SIZE);
        assert_eq!(proof_len(2), DOUBLE_BULLETPROOF_SIZE);
    }

    fn well_formed(m: usize) -> Vec<u8> {
        let point = ProjectivePoint::mul_by_generator(&Scalar::from(7u64));
        let point = crate::protocol::confidential::point::encode_point(&point).unwrap();
        let mut out = Vec::new();
        for _ in 0..4 + 2 * rounds(m) {
            out.extend_from_slice(&point);
        }
        for _ in 0..5 {
            let mut s = [0u8; 32];
            s[31] = 1;
            out.extend_from_slice(&s);
        }
        out
    }

    #[test]
    fn parses_well_formed_layouts_and_refuses_bad_ones() {
        for m in 1..=2 {
            let proof = well_formed(m);
            let parsed = RangeProof::parse(&proof, m).expect("well formed");
            assert_eq!(parsed.l.len(), rounds(m));
            assert_eq!(parsed.r.len(), rounds(m));
            // Wrong length, wrong m, a bad point prefix, a zero scalar.
            assert!(RangeProof::parse(&proof[1..], m).is_none());
            assert!(RangeProof::parse(&proof, 3 - m).is_none());
            let mut bad = proof.clone();
            bad[0] = 0x04;
            assert!(RangeProof::parse(&bad, m).is_none());
            let mut zero = proof.clone();
            let last = zero.len() - 1;
            zero[last] = 0;
            assert!(RangeProof::parse(&zero, m).is_none());
        }
        assert!(RangeProof::parse(&[], 0).is_none());
        assert!(RangeProof::parse(&well_formed(2), 4).is_none());
    }

    #[test]
    fn a_layout_without_a_proof_behind_it_is_refused() {
        let c = ProjectivePoint::GENERATOR;
        assert!(!verify_range(&well_formed(1), &[c], &[0; 32]));
        assert!(!verify_range(&well_formed(2), &[c, c], &[0; 32]));
    }

    /// ledgerd's proofs verify for 0, 1, 2^64 − 1 and random values, one or two at a time,
    /// and only with their own commitments and context.
    #[test]
    fn proofs_round_trip() {
        use crate::protocol::confidential::generators::commit;
        use k256::elliptic_curve::Field;
        let mut rng = rand::thread_rng();
        let context = [9u8; 32];
        for values in [
            vec![0],
            vec![1],
            vec![u64::MAX],
            vec![rand::random()],
            vec![5, u64::MAX],
        ] {
            let blindings: Vec<Scalar> = values.iter().map(|_| Scalar::random(&mut rng)).collect();
            let commitments: Vec<ProjectivePoint> = values
                .iter()
                .zip(&blindings)
                .map(|(v, g)| commit(*v, g))
                .collect();
            let proof = prove_range(&values, &blindings, &context);
            assert_eq!(proof.len(), proof_len(values.len()));
            assert!(verify_range(&proof, &commitments, &context), "{values:?}");
            assert!(
                !verify_range(&proof, &commitments, &[8; 32]),
                "{values:?} context"
            );
            let mut other = commitments.clone();
            other[0] += ProjectivePoint::GENERATOR;
            assert!(
                !verify_range(&proof, &other, &context),
                "{values:?} commitment"
            );
        }
        assert!(prove_range(&[1, 2, 3], &[Scalar::ONE; 3], &context).is_empty());
        assert!(prove_range(&[1], &[Scalar::ZERO], &context).is_empty());
    }

    /// A "value" of 2^64 (the commitment of u64::MAX plus G) cannot be proven in range:
    /// a proof made for u64::MAX does not verify against it.
    #[test]
    fn a_value_past_64_bits_is_not_in_range() {
        use crate::protocol::confidential::generators::commit;
        let gamma = Scalar::from(77u64);
        let beyond = commit(u64::MAX, &gamma) + ProjectivePoint::GENERATOR;
        let proof = prove_range(&[u64::MAX], &[gamma], &[1; 32]);
        assert!(!verify_range(&proof, &[beyond], &[1; 32]));
    }

    /// A fixture proof (tests/fixtures/confidential_bulletproof.json), its commitments and
    /// context.
    fn fixture(name: &str) -> (Vec<u8>, Vec<ProjectivePoint>, [u8; 32]) {
        let fixture: serde_json::Value = serde_json::from_str(include_str!(
            "../../../../tests/fixtures/confidential_bulletproof.json"
        ))
        .unwrap();
        let f = &fixture[name];
        let hex_of = |v: &serde_json::Value| hex::decode(v.as_str().unwrap()).unwrap();
        let point = |v: &serde_json::Value| decode_point(&hex_of(v)).unwrap();
        let balance = point(&f["balance_commitment"]);
        let commitments = if name == "m1" {
            let amount = f["amount"].as_u64().unwrap();
            vec![balance - ProjectivePoint::GENERATOR * Scalar::from(amount)]
        } else {
            let amount = point(&f["amount_commitment"]);
            vec![amount, balance - amount]
        };
        let context: [u8; 32] = hex_of(&f["context"]).try_into().unwrap();
        (hex_of(&f["proof"]), commitments, context)
    }

    /// mpt-crypto's own proofs verify; any other context, commitment order or a
    /// commitment moved by one unit does not.
    #[test]
    fn mpt_crypto_proofs_verify_and_nothing_else_does() {
        for (name, m) in [("m1", 1), ("m2", 2)] {
            let (proof, commitments, context) = fixture(name);
            assert_eq!(proof.len(), proof_len(m));
            assert!(verify_range(&proof, &commitments, &context), "{name}");
            let mut other = context;
            other[0] ^= 1;
            assert!(
                !verify_range(&proof, &commitments, &other),
                "{name} context"
            );
            let mut moved = commitments.clone();
            moved[0] += ProjectivePoint::GENERATOR;
            assert!(!verify_range(&proof, &moved, &context), "{name} commitment");
            if m == 2 {
                let swapped = vec![commitments[1], commitments[0]];
                assert!(!verify_range(&proof, &swapped, &context), "swapped");
            }
        }
    }

    /// Every single-byte change of a proof is refused (every 7th position, to keep it quick).
    #[test]
    fn every_mutation_is_refused() {
        let (proof, commitments, context) = fixture("m1");
        for i in (0..proof.len()).step_by(7) {
            let mut bad = proof.clone();
            bad[i] ^= 0x01;
            assert!(!verify_range(&bad, &commitments, &context), "byte {i}");
        }
    }
}
