//! Crypto-conditions as rippled's escrows use them (`src/xrpld/conditions/`, RFC draft
//! `draft-thomas-crypto-conditions-02`): DER-encoded conditions and fulfillments. Only
//! PREIMAGE-SHA-256 is enabled in rippled 2.x (the CryptoConditionsSuite amendment, which
//! adds the other types, is not): a condition is the SHA-256 fingerprint of a preimage and
//! its length (the cost); a fulfillment is the preimage.

use sha2::{Digest, Sha256};

/// Largest serialized condition rippled accepts (`maxSerializedCondition`).
pub const CONDITION_BYTES_MAX: usize = 128;
/// Largest serialized fulfillment rippled accepts (`maxSerializedFulfillment`).
pub const FULFILLMENT_BYTES_MAX: usize = 256;
/// Largest preimage (`PreimageSha256::maxPreimageLength`).
pub const PREIMAGE_BYTES_MAX: usize = 128;

/// Why a condition or fulfillment was refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ConditionError {
    /// Not well-formed DER, too large, or inconsistent.
    Malformed,
    /// A well-formed condition of a type other than PREIMAGE-SHA-256 (prefix, threshold,
    /// RSA, Ed25519): rippled answers temDISABLED for those.
    UnsupportedType,
}

/// A PREIMAGE-SHA-256 condition: the fingerprint and the cost (the preimage's length).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Condition {
    /// SHA-256 of the preimage.
    pub fingerprint: [u8; 32],
    /// The preimage's length.
    pub cost: u64,
}

/// One DER element: its tag and content, and the bytes after it.
fn element(b: &[u8]) -> Result<(u8, &[u8], &[u8]), ConditionError> {
    let (&tag, rest) = b.split_first().ok_or(ConditionError::Malformed)?;
    let (&first, rest) = rest.split_first().ok_or(ConditionError::Malformed)?;
    let (len, rest) = match first {
        n if n < 0x80 => (n as usize, rest),
        0x81 => {
            let (&n, rest) = rest.split_first().ok_or(ConditionError::Malformed)?;
            if n < 0x80 {
                return Err(ConditionError::Malformed);
            }
            (n as usize, rest)
        }
        0x82 => {
            if rest.len() < 2 || rest[0] == 0 {
                return Err(ConditionError::Malformed);
            }
            let n = u16::from_be_bytes([rest[0], rest[1]]) as usize;
            if n < 0x100 {
                return Err(ConditionError::Malformed);
            }
            (n, &rest[2..])
        }
        _ => return Err(ConditionError::Malformed),
    };
    if rest.len() < len {
        return Err(ConditionError::Malformed);
    }
    Ok((tag, &rest[..len], &rest[len..]))
}

/// A DER unsigned integer in minimal form.
fn unsigned(b: &[u8]) -> Result<u64, ConditionError> {
    let negative = b.first().is_some_and(|x| *x >= 0x80);
    if b.is_empty() || b.len() > 8 || negative || (b.len() > 1 && b[0] == 0 && b[1] < 0x80) {
        return Err(ConditionError::Malformed);
    }
    Ok(b.iter().fold(0u64, |acc, x| (acc << 8) | u64::from(*x)))
}

/// Parses a serialized condition.
pub fn parse_condition(b: &[u8]) -> Result<Condition, ConditionError> {
    if b.len() > CONDITION_BYTES_MAX {
        return Err(ConditionError::Malformed);
    }
    let (tag, body, rest) = element(b)?;
    if !rest.is_empty() {
        return Err(ConditionError::Malformed);
    }
    match tag {
        0xA0 => {}
        0xA1..=0xA4 => return Err(ConditionError::UnsupportedType),
        _ => return Err(ConditionError::Malformed),
    }
    let (t1, fingerprint, rest) = element(body)?;
    let (t2, cost, rest) = element(rest)?;
    if t1 != 0x80 || t2 != 0x81 || !rest.is_empty() || fingerprint.len() != 32 {
        return Err(ConditionError::Malformed);
    }
    let cost = unsigned(cost)?;
    if cost > PREIMAGE_BYTES_MAX as u64 {
        return Err(ConditionError::Malformed);
    }
    let mut fp = [0u8; 32];
    fp.copy_from_slice(fingerprint);
    Ok(Condition {
        fingerprint: fp,
        cost,
    })
}

/// The condition a serialized PREIMAGE-SHA-256 fulfillment fulfills.
pub fn fulfillment_condition(b: &[u8]) -> Result<Condition, ConditionError> {
    if b.len() > FULFILLMENT_BYTES_MAX {
        return Err(ConditionError::Malformed);
    }
    let (tag, body, rest) = element(b)?;
    if tag != 0xA0 || !rest.is_empty() {
        return Err(ConditionError::Malformed);
    }
    let (t, preimage, rest) = element(body)?;
    if t != 0x80 || !rest.is_empty() || preimage.len() > PREIMAGE_BYTES_MAX {
        return Err(ConditionError::Malformed);
    }
    Ok(Condition {
        fingerprint: Sha256::digest(preimage).into(),
        cost: preimage.len() as u64,
    })
}

/// rippled's `checkCondition`: both parse and the fulfillment fulfills the condition.
pub fn fulfills(fulfillment: &[u8], condition: &[u8]) -> bool {
    match (
        fulfillment_condition(fulfillment),
        parse_condition(condition),
    ) {
        (Ok(f), Ok(c)) => f == c,
        _ => false,
    }
}

/// The serialized condition of a preimage (for tests and tools).
pub fn preimage_condition(preimage: &[u8]) -> Vec<u8> {
    let mut out = vec![0xA0, 0x25, 0x80, 0x20];
    out.extend_from_slice(&Sha256::digest(preimage));
    match preimage.len() {
        n @ 0..=0x7F => out.extend_from_slice(&[0x81, 0x01, n as u8]),
        n => {
            out[1] += 1;
            out.extend_from_slice(&[0x81, 0x02, (n >> 8) as u8, n as u8]);
        }
    }
    out
}

/// A DER length.
fn der_len(n: usize, out: &mut Vec<u8>) {
    match n {
        0..=0x7F => out.push(n as u8),
        0x80..=0xFF => out.extend_from_slice(&[0x81, n as u8]),
        _ => out.extend_from_slice(&[0x82, (n >> 8) as u8, n as u8]),
    }
}

/// The serialized fulfillment of a preimage (for tests and tools).
pub fn preimage_fulfillment(preimage: &[u8]) -> Vec<u8> {
    let mut inner = vec![0x80];
    der_len(preimage.len(), &mut inner);
    inner.extend_from_slice(preimage);
    let mut out = vec![0xA0];
    der_len(inner.len(), &mut out);
    out.extend_from_slice(&inner);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// rippled's Escrow_test vectors: the 32-byte all-zero preimage's fulfillment and
    /// condition ("fb1" / "cb1").
    #[test]
    fn rippled_escrow_test_vectors() {
        let fb1 = hex::decode("A0028000").expect("hex");
        let cb1 = hex::decode(
            "A0258020E3B0C44298FC1C149AFBF4C8996FB92427AE41E4649B934CA495991B7852B855810100",
        )
        .expect("hex");
        assert!(fulfills(&fb1, &cb1));
        assert_eq!(preimage_condition(&[]), cb1);
        assert_eq!(preimage_fulfillment(&[]), fb1);
        let other = preimage_condition(b"a");
        assert!(!fulfills(&fb1, &other));
        assert_eq!(parse_condition(&cb1[..10]), Err(ConditionError::Malformed));
        let mut ed = cb1.clone();
        ed[0] = 0xA4;
        assert_eq!(parse_condition(&ed), Err(ConditionError::UnsupportedType));
        // Preimages up to 128 bytes (long-form lengths); not 129.
        let big = vec![7u8; 129];
        let f = preimage_fulfillment(&big[..128]);
        assert!(fulfills(&f, &preimage_condition(&big[..128])));
        assert_eq!(
            fulfillment_condition(&preimage_fulfillment(&big)),
            Err(ConditionError::Malformed)
        );
    }
}
