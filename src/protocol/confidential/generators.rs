//! The NUMS ("nothing up my sleeve") generators of mpt-crypto: the Pedersen base `H` and the
//! Bulletproof vectors `G_i` and `H_i`, derived by SHA-256 try-and-increment so that nobody knows
//! their discrete logarithms. Point `i` of `label` is the first counter `c` (from 0) for which
//! `0x02 || SHA-256("MPT_BULLETPROOF_V1_NUMS" || "secp256k1" || label || i_be32 || c_be32)` is a
//! valid compressed point.

use std::sync::OnceLock;

use k256::elliptic_curve::ops::MulByGenerator;
use k256::elliptic_curve::sec1::FromEncodedPoint;
use k256::{AffinePoint, EncodedPoint, ProjectivePoint, Scalar};
use sha2::{Digest, Sha256};

const DOMAIN: &[u8] = b"MPT_BULLETPROOF_V1_NUMS";
const CURVE: &[u8] = b"secp256k1";

/// The longest generator vector any proof uses: an aggregated range proof of two 64-bit values.
pub const MAX_VECTOR: usize = 128;

/// Point `index` of the generator family `label`.
pub fn nums_point(label: &[u8], index: u32) -> ProjectivePoint {
    (0u32..)
        .find_map(|counter| candidate(label, index, counter))
        .expect("a valid x-coordinate is found within a few tries")
}

fn candidate(label: &[u8], index: u32, counter: u32) -> Option<ProjectivePoint> {
    let digest = Sha256::new()
        .chain_update(DOMAIN)
        .chain_update(CURVE)
        .chain_update(label)
        .chain_update(index.to_be_bytes())
        .chain_update(counter.to_be_bytes())
        .finalize();
    let mut compressed = [0u8; 33];
    compressed[0] = 0x02;
    compressed[1..].copy_from_slice(&digest);
    let encoded = EncodedPoint::from_bytes(compressed).ok()?;
    Option::<AffinePoint>::from(AffinePoint::from_encoded_point(&encoded))
        .map(ProjectivePoint::from)
}

/// The Pedersen commitment base `H` (label "H", index 0).
pub fn h() -> ProjectivePoint {
    static H: OnceLock<ProjectivePoint> = OnceLock::new();
    *H.get_or_init(|| nums_point(b"H", 0))
}

/// The Pedersen commitment `value·G + blinding·H`.
pub fn commit(value: u64, blinding: &Scalar) -> ProjectivePoint {
    ProjectivePoint::mul_by_generator(&Scalar::from(value)) + h() * blinding
}

/// The Bulletproof vector `G_0 .. G_127` (label "BP_G").
pub fn g_vector() -> &'static [ProjectivePoint] {
    static G: OnceLock<Vec<ProjectivePoint>> = OnceLock::new();
    G.get_or_init(|| vector(b"BP_G"))
}

/// The Bulletproof vector `H_0 .. H_127` (label "BP_H").
pub fn h_vector() -> &'static [ProjectivePoint] {
    static HV: OnceLock<Vec<ProjectivePoint>> = OnceLock::new();
    HV.get_or_init(|| vector(b"BP_H"))
}

/// The inner-product argument's extra base `U` (label "BP_U", index 0).
pub fn u() -> ProjectivePoint {
    static U: OnceLock<ProjectivePoint> = OnceLock::new();
    *U.get_or_init(|| nums_point(b"BP_U", 0))
}

fn vector(label: &[u8]) -> Vec<ProjectivePoint> {
    (0..MAX_VECTOR as u32)
        .map(|i| nums_point(label, i))
        .collect()
}
