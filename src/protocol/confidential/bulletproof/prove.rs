//! The prover (the wallet's side, for tests and examples): the classic aggregated range
//! proof over mpt-crypto's generators and transcript, so [`super::verify_range`] and
//! mpt-crypto accept what it makes. Values are committed as `v·G + γ·H`; the bits of value
//! `j` sit at positions `64·j ..`, least significant first.

use k256::elliptic_curve::Field;
use k256::{ProjectivePoint, Scalar};

use super::super::generators::{g_vector, h, h_vector, u};
use super::super::point::{encode_point, encode_scalar, g_mul, lincomb};
use super::msm::msm;
use super::transcript::{challenges, ipa_binding, ipa_round, ipa_seed};
use super::{powers, BITS, MAX_VALUES};

/// A random nonzero scalar.
fn random() -> Scalar {
    loop {
        let s = Scalar::random(&mut rand::thread_rng());
        if !bool::from(s.is_zero()) {
            return s;
        }
    }
}

/// `<a, b>`.
fn dot(a: &[Scalar], b: &[Scalar]) -> Scalar {
    a.iter()
        .zip(b)
        .fold(Scalar::ZERO, |acc, (x, y)| acc + x * y)
}

/// `Σ a_k·P_k`.
fn commit_vector(a: &[Scalar], bases: &[ProjectivePoint]) -> ProjectivePoint {
    let terms: Vec<_> = a.iter().copied().zip(bases.iter().copied()).collect();
    msm(&terms)
}

/// A proof that each value (one or two) is below 2^64, for commitments `v_j·G + γ_j·H`;
/// empty for another count of values or a zero blinding. Proofs mpt-crypto would refuse
/// (a zero challenge or response) are drawn again.
pub fn prove_range(values: &[u64], blindings: &[Scalar], context: &[u8; 32]) -> Vec<u8> {
    let m = values.len();
    let valid = (1..=MAX_VALUES).contains(&m)
        && blindings.len() == m
        && blindings.iter().all(|g| !bool::from(g.is_zero()));
    if !valid {
        return Vec::new();
    }
    loop {
        if let Some(proof) = try_prove(values, blindings, context) {
            return proof;
        }
    }
}

fn try_prove(values: &[u64], blindings: &[Scalar], context: &[u8; 32]) -> Option<Vec<u8>> {
    let m = values.len();
    let n = BITS * m;
    let (g, hv) = (&g_vector()[..n], &h_vector()[..n]);
    let commitments: Vec<ProjectivePoint> = values
        .iter()
        .zip(blindings)
        .map(|(v, gamma)| g_mul(&Scalar::from(*v)) + h() * gamma)
        .collect();
    let a_l: Vec<Scalar> = (0..n)
        .map(|k| Scalar::from((values[k / BITS] >> (k % BITS)) & 1))
        .collect();
    let a_r: Vec<Scalar> = a_l.iter().map(|b| b - &Scalar::ONE).collect();
    let (alpha, rho) = (random(), random());
    let s_l: Vec<Scalar> = (0..n).map(|_| random()).collect();
    let s_r: Vec<Scalar> = (0..n).map(|_| random()).collect();
    let a_commit = h() * alpha + commit_vector(&a_l, g) + commit_vector(&a_r, hv);
    let s_commit = h() * rho + commit_vector(&s_l, g) + commit_vector(&s_r, hv);
    // The challenges need T1 and T2 for x only: y and z first.
    let (tau1, tau2) = (random(), random());
    let yz = challenges(
        &commitments,
        [&a_commit, &s_commit, &a_commit, &s_commit],
        context,
    )?;
    let (y, z) = (yz.y, yz.z);
    let y_pows = powers(&y, n);
    let z_pows: Vec<Scalar> = (0..m).map(|j| z.pow_vartime([j as u64 + 2])).collect();
    // l(X) = (a_L − z) + s_L·X; r(X) = y^k·(a_R + z + s_R·X) + z^{j+2}·2^i.
    let l0: Vec<Scalar> = a_l.iter().map(|a| a - &z).collect();
    let r0: Vec<Scalar> = (0..n)
        .map(|k| y_pows[k] * (a_r[k] + z) + z_pows[k / BITS] * Scalar::from(1u64 << (k % BITS)))
        .collect();
    let r1: Vec<Scalar> = (0..n).map(|k| y_pows[k] * s_r[k]).collect();
    let t1 = dot(&l0, &r1) + dot(&s_l, &r0);
    let t2 = dot(&s_l, &r1);
    let t1_commit = g_mul(&t1) + h() * tau1;
    let t2_commit = g_mul(&t2) + h() * tau2;
    let c = challenges(
        &commitments,
        [&a_commit, &s_commit, &t1_commit, &t2_commit],
        context,
    )?;
    let x = c.x;
    let l: Vec<Scalar> = (0..n).map(|k| l0[k] + s_l[k] * x).collect();
    let r: Vec<Scalar> = (0..n).map(|k| r0[k] + r1[k] * x).collect();
    let t_hat = dot(&l, &r);
    let tau_x = tau2 * x * x
        + tau1 * x
        + z_pows
            .iter()
            .zip(blindings)
            .fold(Scalar::ZERO, |acc, (zj, gamma)| acc + zj * gamma);
    let mu = alpha + rho * x;
    let firsts = [&a_commit, &s_commit, &t1_commit, &t2_commit];
    let seed = ipa_seed(firsts, &c, &t_hat, context)?;
    let ux = ipa_binding(&seed, &t_hat)?;
    let y_inv = y.invert().into_option()?;
    let h_prime: Vec<ProjectivePoint> = powers(&y_inv, n)
        .iter()
        .zip(hv)
        .map(|(yi, hk)| hk * yi)
        .collect();
    let (ls, rs, a, b) = inner_product(l, r, g.to_vec(), h_prime, u() * ux, seed)?;
    let mut out = Vec::with_capacity(super::proof_len(m));
    for p in [&a_commit, &s_commit, &t1_commit, &t2_commit]
        .into_iter()
        .chain(&ls)
        .chain(&rs)
    {
        out.extend_from_slice(&encode_point(p)?);
    }
    for s in [a, b, t_hat, tau_x, mu] {
        if bool::from(s.is_zero()) {
            return None;
        }
        out.extend_from_slice(&encode_scalar(&s));
    }
    Some(out)
}

type Ipa = (Vec<ProjectivePoint>, Vec<ProjectivePoint>, Scalar, Scalar);

/// The inner-product argument for `<a, b>` over bases `g`, `h` and `q`: each round halves
/// the vectors, `L = <a_lo, g_hi> + <b_hi, h_lo> + <a_lo, b_hi>·q` and `R` the mirror, and
/// folds with the round's challenge as the verifier's weights expect.
fn inner_product(
    mut a: Vec<Scalar>,
    mut b: Vec<Scalar>,
    mut g: Vec<ProjectivePoint>,
    mut h: Vec<ProjectivePoint>,
    q: ProjectivePoint,
    seed: [u8; 32],
) -> Option<Ipa> {
    let (mut ls, mut rs) = (Vec::new(), Vec::new());
    let mut last = seed;
    while a.len() > 1 {
        let half = a.len() / 2;
        let (a_lo, a_hi) = a.split_at(half);
        let (b_lo, b_hi) = b.split_at(half);
        let (g_lo, g_hi) = g.split_at(half);
        let (h_lo, h_hi) = h.split_at(half);
        let l = commit_vector(a_lo, g_hi) + commit_vector(b_hi, h_lo) + q * dot(a_lo, b_hi);
        let r = commit_vector(a_hi, g_lo) + commit_vector(b_lo, h_hi) + q * dot(a_hi, b_lo);
        let u = ipa_round(&last, &l, &r)?;
        let inv = u.invert().into_option()?;
        last = encode_scalar(&u);
        let fold = |lo: &[Scalar], hi: &[Scalar], x: Scalar, y: Scalar| -> Vec<Scalar> {
            lo.iter().zip(hi).map(|(p, q)| p * &x + q * &y).collect()
        };
        let fold_points = |lo: &[ProjectivePoint], hi: &[ProjectivePoint], x: Scalar, y: Scalar| {
            lo.iter()
                .zip(hi)
                .map(|(p, q)| lincomb(p, &x, q, &y))
                .collect::<Vec<_>>()
        };
        let (na, nb) = (fold(a_lo, a_hi, u, inv), fold(b_lo, b_hi, inv, u));
        let (ng, nh) = (
            fold_points(g_lo, g_hi, inv, u),
            fold_points(h_lo, h_hi, u, inv),
        );
        (a, b, g, h) = (na, nb, ng, nh);
        ls.push(l);
        rs.push(r);
    }
    Some((ls, rs, a[0], b[0]))
}
