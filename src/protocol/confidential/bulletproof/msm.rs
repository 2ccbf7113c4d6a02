//! Multi-scalar multiplication `Σ s_i·P_i` by Pippenger's bucket method: the verifier's one
//! big sum (a few hundred terms) costs about a tenth of as many separate multiplications.

use k256::elliptic_curve::PrimeField;
use k256::{ProjectivePoint, Scalar};

/// Bits per window: 6 suits the 150 to 300 terms of a range proof.
const WINDOW: usize = 6;

/// `Σ s_i·P_i` (the identity for no terms).
pub fn msm(terms: &[(Scalar, ProjectivePoint)]) -> ProjectivePoint {
    let digits: Vec<[u8; 32]> = terms.iter().map(|(s, _)| s.to_repr().into()).collect();
    let windows = 256_usize.div_ceil(WINDOW);
    let mut total = ProjectivePoint::IDENTITY;
    for w in (0..windows).rev() {
        for _ in 0..WINDOW {
            total = total.double();
        }
        total += window_sum(terms, &digits, w);
    }
    total
}

/// The window `w`'s part: each point in the bucket of its digit, then the buckets summed
/// with their weights by running sums.
fn window_sum(
    terms: &[(Scalar, ProjectivePoint)],
    digits: &[[u8; 32]],
    w: usize,
) -> ProjectivePoint {
    let mut buckets = [ProjectivePoint::IDENTITY; (1 << WINDOW) - 1];
    for ((_, p), bytes) in terms.iter().zip(digits) {
        let d = digit(bytes, w);
        if d != 0 {
            buckets[d - 1] += p;
        }
    }
    let mut running = ProjectivePoint::IDENTITY;
    let mut sum = ProjectivePoint::IDENTITY;
    for b in buckets.iter().rev() {
        running += b;
        sum += running;
    }
    sum
}

/// Bits `[w·WINDOW, (w+1)·WINDOW)` of a big-endian 256-bit number.
fn digit(bytes: &[u8; 32], w: usize) -> usize {
    let mut d = 0;
    for bit in (w * WINDOW..((w + 1) * WINDOW).min(256)).rev() {
        let byte = bytes[31 - bit / 8];
        d = (d << 1) | usize::from((byte >> (bit % 8)) & 1);
    }
    d
}

#[cfg(test)]
mod tests {
    use super::*;
    use k256::elliptic_curve::Field;

    #[test]
    fn agrees_with_separate_multiplications() {
        let mut rng = rand::thread_rng();
        for n in [0, 1, 2, 7, 40] {
            let terms: Vec<_> = (0..n)
                .map(|_| {
                    let p = ProjectivePoint::GENERATOR * Scalar::random(&mut rng);
                    (Scalar::random(&mut rng), p)
                })
                .collect();
            let plain = terms
                .iter()
                .fold(ProjectivePoint::IDENTITY, |acc, (s, p)| acc + p * s);
            assert_eq!(msm(&terms), plain, "{n} terms");
        }
        let minus_one = -Scalar::ONE;
        let g = ProjectivePoint::GENERATOR;
        assert_eq!(
            msm(&[(minus_one, g), (Scalar::ONE, g)]),
            ProjectivePoint::IDENTITY
        );
    }
}
