//! The verifier, equation for equation as `secp256k1_bulletproof_verify_agg`, with each side
//! moved into one multi-scalar multiplication that must come to the identity:
//!
//! 1. `t̂·G + τx·H = Σ_j z^{j+2}·V_j + δ(y,z)·G + x·T1 + x²·T2`, where
//!    `δ = (z − z²)·Σ_k y^k − Σ_j z^{j+3}·(2^64 − 1)`;
//! 2. the inner-product argument on
//!    `P = A + x·S − z·ΣG_k + Σ_k (z·y^k + z^{j+2}·2^i)·H'_k + t̂·u_x·U − μ·H`, with
//!    `H'_k = y^{−k}·H_k`: after its rounds `P + Σ_i (u_i²·L_i + u_i^{−2}·R_i)` must be
//!    `a·G_f + b·H'_f + a·b·u_x·U`, the folded bases weighing `G_k` by `Π_i u_i^{±1}` as the
//!    bits of `k` say (most significant first) and `H'_k` by the inverse.
//!
//! mpt-crypto adds its terms one by one and fails where a partial sum is the identity; here
//! only the totals count, a difference no honest or forged proof can reach without a
//! discrete logarithm between the generators.

use k256::elliptic_curve::group::Group;
use k256::{ProjectivePoint, Scalar};

use super::super::generators::{g_vector, h, h_vector, u};
use super::super::point::encode_scalar;
use super::msm::msm;
use super::transcript::{challenges, ipa_binding, ipa_round, ipa_seed, Challenges};
use super::{powers, RangeProof, BITS};

/// Whether `proof` shows that each commitment (one or two) opens to a value below 2^64.
pub fn verify_range(proof: &[u8], commitments: &[ProjectivePoint], context: &[u8; 32]) -> bool {
    let Some(p) = RangeProof::parse(proof, commitments.len()) else {
        return false;
    };
    let firsts = [&p.a_commit, &p.s_commit, &p.t1, &p.t2];
    let Some(c) = challenges(commitments, firsts, context) else {
        return false;
    };
    polynomial_holds(&p, commitments, &c) && inner_product_holds(&p, &c, context)
}

/// `Σ_j z^{j+2}` for `j < m`, as the list of the powers.
fn z_powers(z: &Scalar, m: usize) -> Vec<Scalar> {
    let mut out = Vec::with_capacity(m);
    let mut zp = z.square();
    for _ in 0..m {
        out.push(zp);
        zp *= z;
    }
    out
}

/// `δ(y, z)`.
fn delta(c: &Challenges, m: usize) -> Scalar {
    let sum_y = powers(&c.y, BITS * m)
        .iter()
        .fold(Scalar::ZERO, |acc, p| acc + p);
    let two_sum = Scalar::from(u64::MAX);
    let cubes = z_powers(&c.z, m)
        .iter()
        .fold(Scalar::ZERO, |acc, zj2| acc + *zj2 * c.z * two_sum);
    (c.z - c.z.square()) * sum_y - cubes
}

/// Equation 1.
fn polynomial_holds(p: &RangeProof, commitments: &[ProjectivePoint], c: &Challenges) -> bool {
    let m = commitments.len();
    let mut terms = vec![
        (p.t_hat - delta(c, m), ProjectivePoint::GENERATOR),
        (p.tau_x, h()),
        (-c.x, p.t1),
        (-c.x.square(), p.t2),
    ];
    for (zj2, v) in z_powers(&c.z, m).into_iter().zip(commitments) {
        terms.push((-zj2, *v));
    }
    bool::from(msm(&terms).is_identity())
}

/// The rounds' challenges `u_i` (the seed's bytes before the first).
fn round_challenges(p: &RangeProof, seed: &[u8; 32]) -> Option<Vec<Scalar>> {
    let mut last = *seed;
    let mut out = Vec::with_capacity(p.l.len());
    for (l, r) in p.l.iter().zip(&p.r) {
        let u = ipa_round(&last, l, r)?;
        last = encode_scalar(&u);
        out.push(u);
    }
    Some(out)
}

/// `s_k = Π_i u_i^{±1}` for every `k < 2^rounds`: `u_i` where bit `rounds−1−i` of `k` is set,
/// `u_i^{−1}` where it is not.
fn fold_weights(us: &[Scalar], inverses: &[Scalar]) -> Vec<Scalar> {
    let mut weights = vec![Scalar::ONE];
    for (u, inv) in us.iter().zip(inverses) {
        weights = weights.iter().flat_map(|w| [w * inv, w * u]).collect();
    }
    weights
}

/// Equation 2.
fn inner_product_holds(p: &RangeProof, c: &Challenges, context: &[u8; 32]) -> bool {
    let firsts = [&p.a_commit, &p.s_commit, &p.t1, &p.t2];
    let Some(seed) = ipa_seed(firsts, c, &p.t_hat, context) else {
        return false;
    };
    let (Some(ux), Some(us)) = (ipa_binding(&seed, &p.t_hat), round_challenges(p, &seed)) else {
        return false;
    };
    let inverses: Vec<Scalar> = us
        .iter()
        .map(|u| u.invert().unwrap_or(Scalar::ZERO))
        .collect();
    let n = 1 << us.len();
    let s = fold_weights(&us, &inverses);
    let y_inv = c.y.invert().unwrap_or(Scalar::ZERO);
    let y_inv_pows = powers(&y_inv, n);
    let z_pows = z_powers(&c.z, n / BITS);
    let mut terms = Vec::with_capacity(2 * n + 2 * us.len() + 4);
    terms.push((Scalar::ONE, p.a_commit));
    terms.push((c.x, p.s_commit));
    terms.push(((p.t_hat - p.a * p.b) * ux, u()));
    terms.push((-p.mu, h()));
    for k in 0..n {
        let two_i = Scalar::from(1u64 << (k % BITS));
        let h_weight = z_pows[k / BITS] * two_i - p.b * s[n - 1 - k];
        terms.push((-c.z - p.a * s[k], g_vector()[k]));
        terms.push((c.z + y_inv_pows[k] * h_weight, h_vector()[k]));
    }
    for ((u, inv), (l, r)) in us.iter().zip(&inverses).zip(p.l.iter().zip(&p.r)) {
        terms.push((u.square(), *l));
        terms.push((inv.square(), *r));
    }
    bool::from(msm(&terms).is_identity())
}
