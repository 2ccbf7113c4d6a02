//! The Fiat-Shamir challenges of mpt-crypto's range proofs (`secp256k1_bulletproof_verify_agg`
//! and its prover), each SHA-256 taken modulo the group order and refused when zero:
//!
//! - `y = H("MPT_BULLETPROOF_RANGE" ‖ gens ‖ be32(64) ‖ be32(m) ‖ V_j.. ‖ A ‖ S ‖ ctx)`, where
//!   `gens` hashes `H`, `G_0..n`, `H_0..n` (n = 64·m);
//! - `z`: the same with `y` before `ctx`;
//! - `x = H(A ‖ S ‖ y ‖ z ‖ T1 ‖ T2 ‖ ctx)`;
//! - the inner-product argument's seed `H(A ‖ S ‖ T1 ‖ T2 ‖ y ‖ z ‖ x ‖ t̂ ‖ ctx)` (unreduced),
//!   its binding `u_x = H(seed ‖ t̂)`, and each round's `u_i = H(u_{i-1} ‖ L_i ‖ R_i)` with
//!   `u_{-1}` the seed.

use std::sync::OnceLock;

use k256::{ProjectivePoint, Scalar};
use sha2::{Digest, Sha256};

use super::super::generators::{g_vector, h, h_vector};
use super::super::point::{encode_point, encode_scalar, reduce_scalar};
use super::{BITS, MAX_VALUES};

/// The challenges up to `x`.
pub struct Challenges {
    /// `y`, which weights the bits.
    pub y: Scalar,
    /// `z`, which binds the values.
    pub z: Scalar,
    /// `x`, the polynomial's evaluation point.
    pub x: Scalar,
}

/// The digest of the generators a proof for `m` values uses (`bulletproof_gens_digest`).
fn gens_digest(m: usize) -> [u8; 32] {
    static DIGESTS: OnceLock<Vec<[u8; 32]>> = OnceLock::new();
    DIGESTS.get_or_init(|| (1..=MAX_VALUES).map(compute_gens_digest).collect())[m - 1]
}

fn compute_gens_digest(m: usize) -> [u8; 32] {
    let n = BITS * m;
    let mut hasher = Sha256::new();
    let bases = std::iter::once(h())
        .chain(g_vector()[..n].iter().copied())
        .chain(h_vector()[..n].iter().copied());
    for p in bases {
        hasher.update(encode_point(&p).expect("a NUMS generator is never the identity"));
    }
    hasher.finalize().into()
}

/// A digest reduced to a scalar, `None` when zero.
fn nonzero(digest: [u8; 32]) -> Option<Scalar> {
    let s = reduce_scalar(&digest);
    (!bool::from(s.is_zero())).then_some(s)
}

/// Compressed points, `None` if one is the identity.
fn encoded(points: &[ProjectivePoint]) -> Option<Vec<[u8; 33]>> {
    points.iter().map(encode_point).collect()
}

/// `y`, `z` and `x` of a proof whose first points are `a`, `s`, `t1`, `t2`.
pub fn challenges(
    commitments: &[ProjectivePoint],
    [a, s, t1, t2]: [&ProjectivePoint; 4],
    context: &[u8; 32],
) -> Option<Challenges> {
    let m = commitments.len();
    let v = encoded(commitments)?;
    let [a, s, t1, t2] = [
        encode_point(a)?,
        encode_point(s)?,
        encode_point(t1)?,
        encode_point(t2)?,
    ];
    let mut prefix = Sha256::new_with_prefix(b"MPT_BULLETPROOF_RANGE");
    prefix.update(gens_digest(m));
    prefix.update((BITS as u32).to_be_bytes());
    prefix.update((m as u32).to_be_bytes());
    for c in &v {
        prefix.update(c);
    }
    prefix.update(a);
    prefix.update(s);
    let y_digest: [u8; 32] = prefix.clone().chain_update(context).finalize().into();
    let y = reduce_scalar(&y_digest);
    let z_digest: [u8; 32] = prefix
        .chain_update(encode_scalar(&y))
        .chain_update(context)
        .finalize()
        .into();
    let (y, z) = (nonzero(y_digest)?, nonzero(z_digest)?);
    let x = Sha256::new()
        .chain_update(a)
        .chain_update(s)
        .chain_update(encode_scalar(&y))
        .chain_update(encode_scalar(&z))
        .chain_update(t1)
        .chain_update(t2)
        .chain_update(context)
        .finalize();
    Some(Challenges {
        y,
        z,
        x: nonzero(x.into())?,
    })
}

/// The inner-product argument's seed.
pub fn ipa_seed(
    [a, s, t1, t2]: [&ProjectivePoint; 4],
    c: &Challenges,
    t_hat: &Scalar,
    context: &[u8; 32],
) -> Option<[u8; 32]> {
    let mut hasher = Sha256::new();
    for p in [a, s, t1, t2] {
        hasher.update(encode_point(p)?);
    }
    for k in [&c.y, &c.z, &c.x, t_hat] {
        hasher.update(encode_scalar(k));
    }
    hasher.update(context);
    Some(hasher.finalize().into())
}

/// `u_x`, which binds `t̂` into the inner-product argument.
pub fn ipa_binding(seed: &[u8; 32], t_hat: &Scalar) -> Option<Scalar> {
    nonzero(
        Sha256::new()
            .chain_update(seed)
            .chain_update(encode_scalar(t_hat))
            .finalize()
            .into(),
    )
}

/// A round's `u_i` from the previous one (the seed's bytes first).
pub fn ipa_round(last: &[u8; 32], l: &ProjectivePoint, r: &ProjectivePoint) -> Option<Scalar> {
    nonzero(
        Sha256::new()
            .chain_update(last)
            .chain_update(encode_point(l)?)
            .chain_update(encode_point(r)?)
            .finalize()
            .into(),
    )
}
