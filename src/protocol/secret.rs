//! Secret bytes: fixed-size buffers that are wiped when dropped and never printed.
//!
//! Seeds, private keys and their intermediates live in [`SecretBytes`]. `Debug` and
//! `Display` print `***`, so a stray `{:?}` in a log line cannot leak a key. Clones are
//! wiped on drop as well, because each clone is its own `SecretBytes`.

use std::fmt;

use zeroize::{Zeroize, ZeroizeOnDrop};

/// What `Debug` and `Display` print in place of a secret.
pub const REDACTED: &str = "***";

/// `N` secret bytes, zeroized on drop, printed as `***`.
#[derive(Clone, Zeroize, ZeroizeOnDrop, PartialEq, Eq)]
pub struct SecretBytes<const N: usize>([u8; N]);

impl<const N: usize> SecretBytes<N> {
    /// Takes ownership of `bytes`. The caller's copy, if any, is the caller's to wipe.
    pub fn new(bytes: [u8; N]) -> Self {
        SecretBytes(bytes)
    }

    /// Copies `N` bytes out of `slice`; `None` if the length differs.
    pub fn from_slice(slice: &[u8]) -> Option<Self> {
        if slice.len() != N {
            return None;
        }
        let mut out = SecretBytes([0u8; N]);
        out.0.copy_from_slice(slice);
        Some(out)
    }

    /// The secret itself. The name is long on purpose: every use is worth a reviewer's look.
    pub fn expose_secret(&self) -> &[u8; N] {
        &self.0
    }

    /// Mutable access, for filling the buffer in place (no copy left behind).
    pub fn expose_secret_mut(&mut self) -> &mut [u8; N] {
        &mut self.0
    }
}

impl<const N: usize> fmt::Debug for SecretBytes<N> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(REDACTED)
    }
}

impl<const N: usize> fmt::Display for SecretBytes<N> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(REDACTED)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prints_stars() {
        let s = SecretBytes::new([0xAB; 16]);
        assert_eq!(format!("{s:?}"), "***");
        assert_eq!(format!("{s}"), "***");
        assert!(!format!("{s:?}").to_lowercase().contains("ab"));
    }

    #[test]
    fn from_slice_checks_length() {
        assert!(SecretBytes::<4>::from_slice(&[1, 2, 3]).is_none());
        let s = SecretBytes::<3>::from_slice(&[1, 2, 3]).expect("three bytes");
        assert_eq!(s.expose_secret(), &[1, 2, 3]);
    }

    #[test]
    fn zeroize_wipes() {
        let mut s = SecretBytes::new([7u8; 8]);
        s.zeroize();
        assert_eq!(s.expose_secret(), &[0u8; 8]);
    }
}
