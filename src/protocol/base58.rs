//! Base58Check with the XRP Ledger's alphabet (`tokens.h`).
//!
//! Every token is `base58(version || payload || checksum)` where the checksum is the first
//! four bytes of SHA-256(SHA-256(version || payload)).

use super::hash::sha256;

/// Version bytes of the token types (`TokenType` in rippled's `tokens.h`).
pub mod version {
    /// Classic address, `r...`, 20-byte payload.
    pub const ACCOUNT_ID: &[u8] = &[0x00];
    /// Account public key, `a...`, 33-byte payload.
    pub const ACCOUNT_PUBLIC: &[u8] = &[0x23];
    /// Account secret key, `p...`, 32-byte payload (rippled never hands these out).
    pub const ACCOUNT_SECRET: &[u8] = &[0x22];
    /// Node (validator) public key, `n...`, 33-byte payload.
    pub const NODE_PUBLIC: &[u8] = &[0x1C];
    /// Node private key, `p...`, 32-byte payload.
    pub const NODE_PRIVATE: &[u8] = &[0x20];
    /// Family seed, `s...`, 16-byte payload.
    pub const FAMILY_SEED: &[u8] = &[0x21];
    /// ripple-lib's ed25519 seed, `sEd...`, 16-byte payload (not a rippled token type).
    pub const ED25519_SEED: &[u8] = &[0x01, 0xE1, 0x4B];
}

/// Why a base58 token did not decode.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Base58Error {
    /// A character outside the alphabet, or an empty string.
    #[error("not base58")]
    Alphabet,
    /// Too short to hold a version and a checksum, or the wrong payload length.
    #[error("wrong length")]
    Length,
    /// The checksum does not match.
    #[error("bad checksum")]
    Checksum,
    /// The version bytes are not the expected ones.
    #[error("wrong version")]
    Version,
}

/// Longest token we will try to decode; real tokens are at most 53 characters.
const TOKEN_CHARS_MAX: usize = 128;

fn checksum(data: &[u8]) -> [u8; 4] {
    let h = sha256(&sha256(data));
    [h[0], h[1], h[2], h[3]]
}

/// Encodes `payload` under `version` with a checksum.
pub fn encode(version: &[u8], payload: &[u8]) -> String {
    let mut buf = Vec::with_capacity(version.len() + payload.len() + 4);
    buf.extend_from_slice(version);
    buf.extend_from_slice(payload);
    let c = checksum(&buf);
    buf.extend_from_slice(&c);
    bs58::encode(buf)
        .with_alphabet(bs58::Alphabet::RIPPLE)
        .into_string()
}

/// Decodes a token and checks its checksum; returns version-and-payload bytes.
pub fn decode_raw(token: &str) -> Result<Vec<u8>, Base58Error> {
    if token.is_empty() || token.len() > TOKEN_CHARS_MAX {
        return Err(Base58Error::Alphabet);
    }
    let bytes = bs58::decode(token)
        .with_alphabet(bs58::Alphabet::RIPPLE)
        .into_vec()
        .map_err(|_| Base58Error::Alphabet)?;
    if bytes.len() < 5 {
        return Err(Base58Error::Length);
    }
    let (body, sum) = bytes.split_at(bytes.len() - 4);
    if checksum(body) != sum {
        return Err(Base58Error::Checksum);
    }
    Ok(body.to_vec())
}

/// Decodes a token that must carry `version` and a payload of `payload_len` bytes.
pub fn decode(token: &str, version: &[u8], payload_len: usize) -> Result<Vec<u8>, Base58Error> {
    let body = decode_raw(token)?;
    if body.len() != version.len() + payload_len {
        // A different length can still be a different token type: report the version first.
        if !body.starts_with(version) {
            return Err(Base58Error::Version);
        }
        return Err(Base58Error::Length);
    }
    if !body.starts_with(version) {
        return Err(Base58Error::Version);
    }
    Ok(body[version.len()..].to_vec())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn account_zero_and_one() {
        assert_eq!(
            encode(version::ACCOUNT_ID, &[0u8; 20]),
            "rrrrrrrrrrrrrrrrrrrrrhoLvTp"
        );
        let mut one = [0u8; 20];
        one[19] = 1;
        assert_eq!(
            encode(version::ACCOUNT_ID, &one),
            "rrrrrrrrrrrrrrrrrrrrBZbvji"
        );
    }

    #[test]
    fn rejects_bad_checksum_and_version() {
        let t = encode(version::ACCOUNT_ID, &[7u8; 20]);
        assert_eq!(decode(&t, version::ACCOUNT_ID, 20).unwrap(), vec![7u8; 20]);
        assert_eq!(
            decode(&t, version::FAMILY_SEED, 20),
            Err(Base58Error::Version)
        );
        let mut bad = t.clone();
        bad.pop();
        bad.push(if t.ends_with('r') { 'p' } else { 'r' });
        assert!(decode(&bad, version::ACCOUNT_ID, 20).is_err());
        assert_eq!(decode_raw("0OIl"), Err(Base58Error::Alphabet));
        assert_eq!(decode_raw(""), Err(Base58Error::Alphabet));
    }
}
