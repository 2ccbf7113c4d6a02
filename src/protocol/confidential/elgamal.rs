//! Exponential ElGamal on secp256k1 as mpt-crypto defines it: `Enc(m; r) = (r·G, m·G + r·Q)`,
//! 66 bytes, added and subtracted half by half, and the deterministic encryption of zero that
//! new and cleared balances hold.

use k256::{ProjectivePoint, Scalar};
use sha2::{Digest, Sha256};

use super::point::{amount_scalar, decode_nonzero_scalar, decode_point, encode_point, g_mul};
use super::{Participant, CIPHERTEXT_SIZE, POINT_SIZE};

/// A decoded ciphertext.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Ciphertext {
    /// `r·G`.
    pub c1: ProjectivePoint,
    /// `m·G + r·Q`.
    pub c2: ProjectivePoint,
}

impl Ciphertext {
    /// 66 bytes whose halves are both valid points.
    pub fn decode(bytes: &[u8]) -> Option<Self> {
        if bytes.len() != CIPHERTEXT_SIZE {
            return None;
        }
        let (c1, c2) = bytes.split_at(POINT_SIZE);
        Some(Ciphertext {
            c1: decode_point(c1)?,
            c2: decode_point(c2)?,
        })
    }

    /// The 66-byte form; `None` when a half is the identity (libsecp256k1 fails there too).
    pub fn encode(&self) -> Option<[u8; CIPHERTEXT_SIZE]> {
        let mut out = [0u8; CIPHERTEXT_SIZE];
        out[..POINT_SIZE].copy_from_slice(&encode_point(&self.c1)?);
        out[POINT_SIZE..].copy_from_slice(&encode_point(&self.c2)?);
        Some(out)
    }
}

/// `Enc(amount; r)` under `key`.
pub fn encrypt(amount: u64, key: &ProjectivePoint, r: &Scalar) -> Ciphertext {
    Ciphertext {
        c1: g_mul(r),
        c2: g_mul(&amount_scalar(amount)) + *key * r,
    }
}

/// A 33-byte compressed point on secp256k1 (a key or a commitment).
pub fn is_valid_point(bytes: &[u8]) -> bool {
    decode_point(bytes).is_some()
}

/// A 66-byte ciphertext whose two halves are valid points.
pub fn is_valid_ciphertext(bytes: &[u8]) -> bool {
    Ciphertext::decode(bytes).is_some()
}

/// `a + b`, half by half; `None` when a half sums to the point at infinity (xrpld:
/// tecINTERNAL) or an input is malformed.
pub fn add_ciphertexts(a: &[u8], b: &[u8]) -> Option<[u8; CIPHERTEXT_SIZE]> {
    let (a, b) = (Ciphertext::decode(a)?, Ciphertext::decode(b)?);
    Ciphertext {
        c1: a.c1 + b.c1,
        c2: a.c2 + b.c2,
    }
    .encode()
}

/// `ciphertext + Enc(0; randomness)` under `key` (xrpld's `rerandomizeCiphertext`): the
/// same amount, blinded anew by a public scalar so every server computes the same bytes;
/// `None` for a malformed input, a randomness that is no nonzero scalar, or infinity.
pub fn rerandomize(
    ciphertext: &[u8],
    key: &[u8],
    randomness: &[u8],
) -> Option<[u8; CIPHERTEXT_SIZE]> {
    let (ct, key) = (Ciphertext::decode(ciphertext)?, decode_point(key)?);
    let zero = encrypt(0, &key, &decode_nonzero_scalar(randomness)?);
    Ciphertext {
        c1: ct.c1 + zero.c1,
        c2: ct.c2 + zero.c2,
    }
    .encode()
}

/// `a - b`, half by half; `None` when a half is the point at infinity.
pub fn subtract_ciphertexts(a: &[u8], b: &[u8]) -> Option<[u8; CIPHERTEXT_SIZE]> {
    let (a, b) = (Ciphertext::decode(a)?, Ciphertext::decode(b)?);
    Ciphertext {
        c1: a.c1 - b.c1,
        c2: a.c2 - b.c2,
    }
    .encode()
}

/// The blinding factor of the canonical zero: SHA-256("EncZero" || account || issuance),
/// re-hashed until it is a valid nonzero scalar.
fn canonical_zero_blinding(account: &[u8; 20], issuance: &[u8; 24]) -> Scalar {
    let mut digest: [u8; 32] = Sha256::new()
        .chain_update(b"EncZero")
        .chain_update(account)
        .chain_update(issuance)
        .finalize()
        .into();
    loop {
        if let Some(r) = decode_nonzero_scalar(&digest) {
            return r;
        }
        digest = Sha256::digest(digest).into();
    }
}

/// The deterministic encryption of zero under `key` for (`account`, `issuance`), which new
/// and cleared balances hold so that every server computes the same state.
pub fn canonical_zero(
    key: &[u8],
    account: &[u8; 20],
    issuance: &[u8; 24],
) -> Option<[u8; CIPHERTEXT_SIZE]> {
    let key = decode_point(key)?;
    encrypt(0, &key, &canonical_zero_blinding(account, issuance)).encode()
}

/// The ciphertext is `Enc(amount; r)` under the participant's key.
fn encrypts(amount: u64, r: &Scalar, party: &Participant) -> bool {
    match (
        decode_point(party.key),
        Ciphertext::decode(party.ciphertext),
    ) {
        (Some(key), Some(ct)) => encrypt(amount, &key, r) == ct,
        _ => false,
    }
}

/// Every ciphertext encrypts `amount` with the one revealed blinding factor, which must be a
/// valid nonzero scalar. All parties are checked (no early exit), as mpt-crypto does.
pub fn verify_revealed_amount(
    amount: u64,
    blinding_factor: &[u8],
    holder: Participant,
    issuer: Participant,
    auditor: Option<Participant>,
) -> bool {
    let Some(r) = decode_nonzero_scalar(blinding_factor) else {
        return false;
    };
    let holder_ok = encrypts(amount, &r, &holder);
    let issuer_ok = encrypts(amount, &r, &issuer);
    let auditor_ok = auditor.is_none_or(|a| encrypts(amount, &r, &a));
    holder_ok & issuer_ok & auditor_ok
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(x: &([u8; 33], [u8; 66])) -> Participant<'_> {
        Participant {
            key: &x.0,
            ciphertext: &x.1,
        }
    }
    use k256::elliptic_curve::Field;

    fn key() -> (Scalar, ProjectivePoint) {
        let sk = Scalar::random(&mut rand::thread_rng());
        (sk, ProjectivePoint::GENERATOR * sk)
    }

    fn enc(amount: u64, key: &ProjectivePoint) -> [u8; 66] {
        encrypt(amount, key, &Scalar::random(&mut rand::thread_rng()))
            .encode()
            .unwrap()
    }

    fn plain(ct: &[u8], sk: &Scalar) -> ProjectivePoint {
        let ct = Ciphertext::decode(ct).unwrap();
        ct.c2 - ct.c1 * sk
    }

    #[test]
    fn sums_and_differences_encrypt_sums_and_differences() {
        let (sk, pk) = key();
        let (a, b) = (enc(700, &pk), enc(300, &pk));
        let g = ProjectivePoint::GENERATOR;
        assert_eq!(
            plain(&add_ciphertexts(&a, &b).unwrap(), &sk),
            g * Scalar::from(1000u64)
        );
        assert_eq!(
            plain(&subtract_ciphertexts(&a, &b).unwrap(), &sk),
            g * Scalar::from(400u64)
        );
    }

    #[test]
    fn a_sum_at_infinity_fails_as_libsecp256k1_does() {
        let (_, pk) = key();
        let a = enc(5, &pk);
        assert_eq!(subtract_ciphertexts(&a, &a), None);
        let neg = Ciphertext::decode(&a)
            .map(|c| Ciphertext {
                c1: -c.c1,
                c2: -c.c2,
            })
            .unwrap();
        assert_eq!(add_ciphertexts(&a, &neg.encode().unwrap()), None);
    }

    #[test]
    fn malformed_ciphertexts_are_refused() {
        let (_, pk) = key();
        let a = enc(1, &pk);
        assert!(is_valid_ciphertext(&a));
        assert!(!is_valid_ciphertext(&a[..65]));
        let mut bad = a;
        bad[33] = 0x05;
        assert!(!is_valid_ciphertext(&bad));
        assert_eq!(add_ciphertexts(&a, &bad), None);
    }

    #[test]
    fn the_canonical_zero_is_deterministic_and_decrypts_to_zero() {
        let (sk, pk) = key();
        let pk_bytes = encode_point(&pk).unwrap();
        let z = canonical_zero(&pk_bytes, &[1; 20], &[2; 24]).unwrap();
        assert_eq!(Some(z), canonical_zero(&pk_bytes, &[1; 20], &[2; 24]));
        assert_ne!(Some(z), canonical_zero(&pk_bytes, &[1; 20], &[3; 24]));
        assert_ne!(Some(z), canonical_zero(&pk_bytes, &[4; 20], &[2; 24]));
        assert_eq!(plain(&z, &sk), ProjectivePoint::IDENTITY);
        assert_eq!(canonical_zero(&pk_bytes[..32], &[1; 20], &[2; 24]), None);
    }

    #[test]
    fn revealed_amounts_check_every_party() {
        let (_, holder) = key();
        let (_, issuer) = key();
        let (_, auditor) = key();
        let r = Scalar::random(&mut rand::thread_rng());
        let r_bytes: [u8; 32] = r.to_bytes().into();
        let [h, i, a] = [holder, issuer, auditor].map(|k| {
            (
                encode_point(&k).unwrap(),
                encrypt(250, &k, &r).encode().unwrap(),
            )
        });
        assert!(verify_revealed_amount(
            250,
            &r_bytes,
            p(&h),
            p(&i),
            Some(p(&a))
        ));
        assert!(verify_revealed_amount(250, &r_bytes, p(&h), p(&i), None));
        assert!(!verify_revealed_amount(
            251,
            &r_bytes,
            p(&h),
            p(&i),
            Some(p(&a))
        ));
        assert!(
            !verify_revealed_amount(
                250,
                &r_bytes,
                p(&h),
                Participant {
                    key: &i.0,
                    ciphertext: &a.1
                },
                None
            ),
            "the issuer's key with the auditor's ciphertext"
        );
        assert!(
            !verify_revealed_amount(250, &[0; 32], p(&h), p(&i), None),
            "zero blinding"
        );
        let other = encrypt(250, &auditor, &Scalar::random(&mut rand::thread_rng()))
            .encode()
            .unwrap();
        assert!(!verify_revealed_amount(
            250,
            &r_bytes,
            p(&h),
            p(&i),
            Some(Participant {
                key: &a.0,
                ciphertext: &other
            })
        ));
    }
}
