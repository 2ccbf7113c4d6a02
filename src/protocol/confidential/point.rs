//! Points and scalars as mpt-crypto reads and writes them: 33-byte compressed points (never the
//! identity, which has no 33-byte form) and 32-byte big-endian scalars.

use k256::elliptic_curve::ops::{LinearCombination, MulByGenerator, Reduce};
use k256::elliptic_curve::sec1::{FromEncodedPoint, ToEncodedPoint};
use k256::elliptic_curve::PrimeField;
use k256::{AffinePoint, EncodedPoint, FieldBytes, ProjectivePoint, Scalar, U256};

use super::POINT_SIZE;

/// A 33-byte compressed point on the curve (libsecp256k1's `ec_pubkey_parse`).
pub fn decode_point(bytes: &[u8]) -> Option<ProjectivePoint> {
    if bytes.len() != POINT_SIZE || !matches!(bytes[0], 2 | 3) {
        return None;
    }
    let encoded = EncodedPoint::from_bytes(bytes).ok()?;
    Option::<AffinePoint>::from(AffinePoint::from_encoded_point(&encoded))
        .map(ProjectivePoint::from)
}

/// The compressed form of `point`; `None` for the identity (libsecp256k1 cannot hold it).
pub fn encode_point(point: &ProjectivePoint) -> Option<[u8; POINT_SIZE]> {
    let encoded = point.to_affine().to_encoded_point(true);
    encoded.as_bytes().try_into().ok()
}

/// A scalar in `[1, n)`, as `ec_seckey_verify` accepts: secret keys, blinding factors, and the
/// challenges and responses of the proofs.
pub fn decode_nonzero_scalar(bytes: &[u8]) -> Option<Scalar> {
    let repr: [u8; 32] = bytes.try_into().ok()?;
    let scalar = Option::<Scalar>::from(Scalar::from_repr(FieldBytes::from(repr)))?;
    (!bool::from(scalar.is_zero())).then_some(scalar)
}

/// `N` scalars in `[1, n)` from exactly `32·N` bytes (a proof's challenge and responses).
pub fn decode_nonzero_scalars<const N: usize>(bytes: &[u8]) -> Option<[Scalar; N]> {
    if bytes.len() != 32 * N {
        return None;
    }
    let scalars: Option<Vec<Scalar>> = bytes.chunks_exact(32).map(decode_nonzero_scalar).collect();
    scalars?.try_into().ok()
}

/// `point`, unless it is the identity (which libsecp256k1's combine refuses to produce).
pub fn non_identity(point: ProjectivePoint) -> Option<ProjectivePoint> {
    (point != ProjectivePoint::IDENTITY).then_some(point)
}

/// `point - amount·G`, unless that is the identity.
pub fn minus_amount(point: &ProjectivePoint, amount: u64) -> Option<ProjectivePoint> {
    non_identity(*point - g_mul(&amount_scalar(amount)))
}

/// A 32-byte hash taken modulo the group order (mpt-crypto's `scalar_reduce32`).
pub fn reduce_scalar(bytes: &[u8; 32]) -> Scalar {
    <Scalar as Reduce<U256>>::reduce_bytes(&FieldBytes::from(*bytes))
}

/// The 32-byte big-endian form of `scalar`.
pub fn encode_scalar(scalar: &Scalar) -> [u8; 32] {
    scalar.to_bytes().into()
}

/// `k·G`, with the precomputed tables.
pub fn g_mul(k: &Scalar) -> ProjectivePoint {
    ProjectivePoint::mul_by_generator(k)
}

/// `a·P + b·Q` in one pass (Shamir's trick).
pub fn lincomb(
    p: &ProjectivePoint,
    a: &Scalar,
    q: &ProjectivePoint,
    b: &Scalar,
) -> ProjectivePoint {
    ProjectivePoint::lincomb(p, a, q, b)
}

/// An amount as a scalar.
pub fn amount_scalar(amount: u64) -> Scalar {
    Scalar::from(amount)
}

#[cfg(test)]
mod tests {
    use super::*;
    use k256::elliptic_curve::Field;

    #[test]
    fn points_round_trip_and_the_identity_has_no_form() {
        let p = ProjectivePoint::GENERATOR * Scalar::from(7u64);
        let bytes = encode_point(&p).unwrap();
        assert_eq!(decode_point(&bytes), Some(p));
        assert_eq!(encode_point(&ProjectivePoint::IDENTITY), None);
    }

    #[test]
    fn points_must_be_33_compressed_bytes_on_the_curve() {
        let g = encode_point(&ProjectivePoint::GENERATOR).unwrap();
        assert!(decode_point(&g[..32]).is_none());
        let mut uncompressed_tag = g;
        uncompressed_tag[0] = 4;
        assert!(decode_point(&uncompressed_tag).is_none());
        let mut zero_x = [0u8; 33];
        zero_x[0] = 2;
        zero_x[32] = 5; // x = 5: x^3 + 7 = 132 is not a square mod p
        assert!(decode_point(&zero_x).is_none());
        let mut big_x = [0xffu8; 33];
        big_x[0] = 2;
        assert!(decode_point(&big_x).is_none(), "x >= p");
    }

    #[test]
    fn nonzero_scalars_are_below_the_order() {
        assert!(decode_nonzero_scalar(&[0u8; 32]).is_none());
        assert!(decode_nonzero_scalar(&[0xffu8; 32]).is_none());
        let order_minus_one = encode_scalar(&(-Scalar::ONE));
        assert_eq!(decode_nonzero_scalar(&order_minus_one), Some(-Scalar::ONE));
        let r = Scalar::random(&mut rand::thread_rng());
        assert_eq!(decode_nonzero_scalar(&encode_scalar(&r)), Some(r));
        assert_eq!(reduce_scalar(&[0xffu8; 32]), reduce_scalar(&[0xffu8; 32]));
        assert!(decode_nonzero_scalar(&[1u8; 31]).is_none());
    }
}
