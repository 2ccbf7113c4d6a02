//! The Fiat-Shamir challenges of mpt-crypto's sigma proofs: SHA-256 of a domain tag, then
//! compressed points (a proof fails where one is the identity, which libsecp256k1 cannot
//! serialize), then the context hash, taken modulo the group order.

use k256::{ProjectivePoint, Scalar};
use sha2::{Digest, Sha256};

use super::point::{encode_point, reduce_scalar};

/// A challenge being hashed.
pub(crate) struct Transcript(Sha256);

impl Transcript {
    /// Starts with the proof's domain tag.
    pub fn new(domain: &[u8]) -> Self {
        Transcript(Sha256::new_with_prefix(domain))
    }

    /// Adds raw bytes.
    pub fn bytes(mut self, bytes: &[u8]) -> Self {
        self.0.update(bytes);
        self
    }

    /// Adds each point compressed; `None` at the identity.
    pub fn points<'a>(
        mut self,
        points: impl IntoIterator<Item = &'a ProjectivePoint>,
    ) -> Option<Self> {
        for point in points {
            self.0.update(encode_point(point)?);
        }
        Some(self)
    }

    /// Adds the context hash and reduces the digest to a scalar.
    pub fn challenge(mut self, context: &[u8; 32]) -> Scalar {
        self.0.update(context);
        reduce_scalar(&self.0.finalize().into())
    }
}
