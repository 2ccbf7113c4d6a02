//! One journal record on disk, and its kinds.
//!
//! Layout (little-endian), [`HEADER_BYTES`] of header then the payload:
//! ```text
//!   0  crc32      u32   CRC-32 of bytes 4.. to the end of the payload
//!   4  length     u32   payload bytes
//!   8  number     u64   record number, +1 per record across the whole journal
//!  16  batch_pos  u32   position of the record in its group-commit batch (0 = first)
//!  20  kind       u8    RecordKind
//!  21  payload
//! ```
//! The checksum covers the length, so a damaged length is caught like damaged payload.
//! `batch_pos` lets recovery tell a torn last batch (drop it) from damage in an older,
//! acknowledged batch (refuse to open): see `recovery.rs`.

use std::ops::Range;

/// Bytes of a record header.
pub const HEADER_BYTES: usize = 21;

/// What a record holds. The payload is opaque to the store.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum RecordKind {
    /// An applied transaction (the engine puts the blob, its result and ledger sequence in).
    Transaction,
    /// A ledger close (the payload is the ledger header).
    LedgerClose,
    /// Anything else the server wants replayed in order (configuration, genesis, markers).
    Meta,
}

impl RecordKind {
    /// The byte stored on disk.
    pub fn to_byte(self) -> u8 {
        match self {
            RecordKind::Transaction => 1,
            RecordKind::LedgerClose => 2,
            RecordKind::Meta => 3,
        }
    }

    /// The kind for a stored byte, if it names one.
    pub fn from_byte(b: u8) -> Option<Self> {
        match b {
            1 => Some(RecordKind::Transaction),
            2 => Some(RecordKind::LedgerClose),
            3 => Some(RecordKind::Meta),
            _ => None,
        }
    }
}

/// A record read back from the journal.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Record {
    /// Its record number (consecutive, starting at 1 for a new journal).
    pub number: u64,
    /// What it holds.
    pub kind: RecordKind,
    /// The bytes appended.
    pub payload: Vec<u8>,
}

/// Appends the encoding of one record to `out`.
pub(crate) fn encode_into(
    out: &mut Vec<u8>,
    number: u64,
    batch_pos: u32,
    kind: RecordKind,
    payload: &[u8],
) {
    let start = out.len();
    out.extend_from_slice(&[0; 4]);
    // Payload length is bounded by JOURNAL_RECORD_PAYLOAD_BYTES_MAX (checked at append).
    out.extend_from_slice(&(payload.len() as u32).to_le_bytes());
    out.extend_from_slice(&number.to_le_bytes());
    out.extend_from_slice(&batch_pos.to_le_bytes());
    out.push(kind.to_byte());
    out.extend_from_slice(payload);
    let crc = crc32fast::hash(&out[start + 4..]);
    out[start..start + 4].copy_from_slice(&crc.to_le_bytes());
}

/// Size on disk of a record with `payload_len` bytes of payload.
pub(crate) fn encoded_len(payload_len: usize) -> usize {
    HEADER_BYTES + payload_len
}

/// A record header and payload that passed every check.
#[derive(Debug, Clone)]
pub(crate) struct Decoded {
    pub number: u64,
    pub batch_pos: u32,
    pub kind: RecordKind,
    pub payload: Range<usize>,
    /// Offset just past the record.
    pub end: usize,
}

/// Why the bytes at an offset are not a record.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Undecodable {
    /// The file ends inside the record (a torn write, or the end of a damaged length).
    Short,
    /// The bytes are there but wrong.
    Bad(String),
}

fn u32_at(bytes: &[u8], at: usize) -> u32 {
    let mut b = [0u8; 4];
    b.copy_from_slice(&bytes[at..at + 4]);
    u32::from_le_bytes(b)
}

fn u64_at(bytes: &[u8], at: usize) -> u64 {
    let mut b = [0u8; 8];
    b.copy_from_slice(&bytes[at..at + 8]);
    u64::from_le_bytes(b)
}

/// Decodes the record starting at `offset` of `bytes`.
pub(crate) fn decode_at(
    bytes: &[u8],
    offset: usize,
    payload_max: usize,
) -> Result<Decoded, Undecodable> {
    let rest = bytes.len().saturating_sub(offset);
    if rest < HEADER_BYTES {
        return Err(Undecodable::Short);
    }
    let crc = u32_at(bytes, offset);
    let len = u32_at(bytes, offset + 4) as usize;
    if len > payload_max {
        return Err(Undecodable::Bad(format!(
            "length field {len} exceeds the record limit of {payload_max} bytes"
        )));
    }
    let end = offset + HEADER_BYTES + len;
    if end > bytes.len() {
        return Err(Undecodable::Short);
    }
    let actual = crc32fast::hash(&bytes[offset + 4..end]);
    if actual != crc {
        return Err(Undecodable::Bad(format!(
            "checksum mismatch (stored {crc:08x}, computed {actual:08x})"
        )));
    }
    let kind_byte = bytes[offset + 20];
    let kind = RecordKind::from_byte(kind_byte)
        .ok_or_else(|| Undecodable::Bad(format!("unknown record kind {kind_byte}")))?;
    Ok(Decoded {
        number: u64_at(bytes, offset + 8),
        batch_pos: u32_at(bytes, offset + 16),
        kind,
        payload: offset + HEADER_BYTES..end,
        end,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip_and_every_flipped_byte_is_caught() {
        let mut buf = Vec::new();
        encode_into(&mut buf, 7, 2, RecordKind::LedgerClose, b"header");
        assert_eq!(buf.len(), encoded_len(6));
        let d = decode_at(&buf, 0, 1 << 20).expect("decodes");
        assert_eq!(
            (d.number, d.batch_pos, d.kind),
            (7, 2, RecordKind::LedgerClose)
        );
        assert_eq!(&buf[d.payload.clone()], b"header");
        for i in 0..buf.len() {
            let mut bad = buf.clone();
            bad[i] ^= 0x40;
            assert!(
                decode_at(&bad, 0, 1 << 20).is_err(),
                "flip at {i} not caught"
            );
        }
        assert_eq!(
            decode_at(&buf[..buf.len() - 1], 0, 1 << 20).err(),
            Some(Undecodable::Short)
        );
    }
}
