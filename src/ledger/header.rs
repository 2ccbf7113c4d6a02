//! Ledger headers (rippled `LedgerInfo`, `calculateLedgerHash`) and close-time rules
//! (`LedgerTiming.h`).

use crate::protocol::hash::{prefix, sha512_half};
use crate::protocol::types::Hash256;

/// Close-time resolutions in seconds, finest first (`ledgerPossibleTimeResolutions`).
pub const CLOSE_RESOLUTIONS_SECS: [u8; 6] = [10, 20, 30, 60, 90, 120];
/// A ledger sequence divisible by this may step to a finer resolution after agreement.
const RESOLUTION_FINER_EVERY: u32 = 8;

/// A ledger's header.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LedgerHeader {
    /// Sequence (`ledger_index`).
    pub seq: u32,
    /// Drops in existence (`total_coins`).
    pub total_drops: u64,
    /// Parent ledger's hash.
    pub parent_hash: Hash256,
    /// Root of the transaction tree.
    pub transaction_hash: Hash256,
    /// Root of the state tree.
    pub account_hash: Hash256,
    /// Parent's close time (seconds since the ripple epoch).
    pub parent_close_time: u32,
    /// Close time (seconds since the ripple epoch).
    pub close_time: u32,
    /// Close-time resolution in seconds.
    pub close_time_resolution: u8,
    /// Close flags (1 = no consensus on close time).
    pub close_flags: u8,
    /// The ledger's hash.
    pub hash: Hash256,
}

/// Bytes of [`LedgerHeader::raw`].
pub const HEADER_RAW_BYTES: usize = 4 + 8 + 32 * 3 + 4 + 4 + 1 + 1;

impl LedgerHeader {
    /// rippled's ledger hash: SHA-512-half of `LWR\0` and the fields, big-endian.
    pub fn compute_hash(&self) -> Hash256 {
        sha512_half(&[&prefix::LEDGER_MASTER, &self.raw()])
    }

    /// The fields in rippled's `addRaw` order, without the hash (118 bytes): what the hash
    /// covers, `ledger_header`'s and the binary `ledger`'s `ledger_data`.
    pub fn raw(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(HEADER_RAW_BYTES);
        out.extend_from_slice(&self.seq.to_be_bytes());
        out.extend_from_slice(&self.total_drops.to_be_bytes());
        out.extend_from_slice(&self.parent_hash.0);
        out.extend_from_slice(&self.transaction_hash.0);
        out.extend_from_slice(&self.account_hash.0);
        out.extend_from_slice(&self.parent_close_time.to_be_bytes());
        out.extend_from_slice(&self.close_time.to_be_bytes());
        out.push(self.close_time_resolution);
        out.push(self.close_flags);
        out
    }

    /// The header from [`LedgerHeader::raw`]'s bytes, its hash recomputed (None unless
    /// exactly [`HEADER_RAW_BYTES`] long).
    pub fn from_raw(b: &[u8]) -> Option<LedgerHeader> {
        if b.len() != HEADER_RAW_BYTES {
            return None;
        }
        let u32_at = |i: usize| u32::from_be_bytes(b[i..i + 4].try_into().unwrap_or_default());
        let hash_at = |i: usize| Hash256(b[i..i + 32].try_into().unwrap_or_default());
        let mut h = LedgerHeader {
            seq: u32_at(0),
            total_drops: u64::from_be_bytes(b[4..12].try_into().ok()?),
            parent_hash: hash_at(12),
            transaction_hash: hash_at(44),
            account_hash: hash_at(76),
            parent_close_time: u32_at(108),
            close_time: u32_at(112),
            close_time_resolution: b[116],
            close_flags: b[117],
            hash: Hash256::ZERO,
        };
        h.hash = h.compute_hash();
        Some(h)
    }
}

/// The resolution of ledger `seq` given its parent's and whether the parent's close time
/// was agreed (`getNextLedgerTimeResolution`).
pub fn next_resolution(previous: u8, previous_agree: bool, seq: u32) -> u8 {
    let i = CLOSE_RESOLUTIONS_SECS
        .iter()
        .position(|r| *r == previous)
        .unwrap_or(0);
    // After disagreement every ledger steps coarser (rippled's interval is 1).
    if !previous_agree {
        return CLOSE_RESOLUTIONS_SECS[(i + 1).min(CLOSE_RESOLUTIONS_SECS.len() - 1)];
    }
    if previous_agree && seq.is_multiple_of(RESOLUTION_FINER_EVERY) {
        return CLOSE_RESOLUTIONS_SECS[i.saturating_sub(1)];
    }
    previous
}

/// Rounds a close time to the resolution, to nearest (`roundCloseTime`); 0 stays 0.
pub fn round_close_time(t: u32, resolution: u8) -> u32 {
    if t == 0 || resolution == 0 {
        return t;
    }
    let r = resolution as u32;
    let t = t.saturating_add(r / 2);
    t - t % r
}

/// The close time a ledger records: rounded, and later than its parent's.
pub fn effective_close_time(t: u32, resolution: u8, parent_close_time: u32) -> u32 {
    if t == 0 {
        return 0;
    }
    round_close_time(t, resolution).max(parent_close_time.saturating_add(1))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn resolution_and_rounding() {
        assert_eq!(next_resolution(10, true, 8), 10);
        assert_eq!(next_resolution(30, true, 16), 20);
        assert_eq!(next_resolution(30, true, 17), 30);
        assert_eq!(next_resolution(30, false, 17), 60);
        assert_eq!(round_close_time(14, 10), 10);
        assert_eq!(round_close_time(15, 10), 20);
        assert_eq!(effective_close_time(14, 10, 10), 11);
        assert_eq!(effective_close_time(0, 10, 10), 0);
    }
}
