//! The payloads persistence puts in journal records and snapshot files. Every payload
//! starts with a version byte (snapshots with a magic and a version), so a future format
//! can be told apart from this one. All integers are little-endian.
//!
//! Transaction record (`RecordKind::Transaction`):
//! ```text
//!   0  version     u8     1
//!   1  flags       u8     bit 0 applied (tes/tec), bit 1 held (ter, retried at close)
//!   2  ter         i32    the result code
//!   6  ledger_seq  u32    the open ledger it was applied to
//!  10  index       u32    its position in that ledger (u32::MAX when held)
//!  14  id          32     transaction ID, checked again by replay
//!  46  blob               the signed transaction as submitted
//! ```
//! Close record (`RecordKind::LedgerClose`):
//! ```text
//!   0  version               u8   1
//!   1  close_time_requested  u32  what `close` was called with (replay calls it again)
//!   5  seq                   u32
//!   9  close_time            u32  the header's (rounded) close time
//!  13  tx_count              u32
//!  17  hash                  32   the header's hash: replay must reproduce it
//!  49  account_hash          32
//!  81  transaction_hash      32
//! ```
//! Genesis record (`RecordKind::Meta`, always record 1 of a new journal):
//! ```text
//!   0  version u8 1 | 1 meta kind u8 1 (genesis) | 2 now u32 (ledger 2's close time)
//!   6  base fee u64 | 14 reserve base u64 | 22 reserve increment u64 | 30 network id u32
//! ```
//! Revert record (`RecordKind::Meta`, `ledger_revert`):
//! ```text
//!   0  version u8 1 | 1 meta kind u8 2 (revert) | 2 seq u32 (the ledger reverted to)
//!   6  hash 32 (its hash) | 38 following u32 (transaction records after this one that
//!      belong to the revert: the restored open ledger's)
//! ```
//! Abandoned-revert record (`RecordKind::Meta`, journaled by recovery before anything
//! else when the journal ended with a revert whose snapshot was never written):
//! ```text
//!   0  version u8 1 | 1 meta kind u8 3 (revert abandoned) | 2 record u64 (the revert
//!      record that never happened)
//! ```
//! Snapshot payload (inside the store's checksummed snapshot file):
//! ```text
//!   magic "LDGRLEDG" | version u32 1 | header (seq u32, total_drops u64, parent_hash,
//!   transaction_hash, account_hash, parent_close_time u32, close_time u32, resolution u8,
//!   flags u8, hash) | held count u32, each (until_seq u32, len u32, blob) |
//!   entry count u64, each (key 32, len u32, entry bytes)
//! ```

use std::sync::Arc;

use crate::engine::Ter;
use crate::ledger::fees::Fees;
use crate::ledger::header::LedgerHeader;
use crate::ledgers::{ApplyResult, ClosedLedger};
use crate::protocol::codec;
use crate::protocol::st::StObject;
use crate::protocol::types::Hash256;

const VERSION: u8 = 1;
const META_GENESIS: u8 = 1;
const META_REVERT: u8 = 2;
const META_REVERT_ABANDONED: u8 = 3;
const SNAPSHOT_MAGIC: &[u8; 8] = b"LDGRLEDG";
const SNAPSHOT_VERSION: u32 = 1;
const FLAG_APPLIED: u8 = 1;
const FLAG_HELD: u8 = 2;

/// Why a payload could not be read.
pub type FormatError = String;

/// A transaction record.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TxRecord {
    /// tes or tec: in the open ledger.
    pub applied: bool,
    /// ter: held for retry at the next close.
    pub held: bool,
    /// Result code.
    pub ter: i32,
    /// The open ledger it was applied to.
    pub ledger_seq: u32,
    /// Position in that ledger (u32::MAX when held).
    pub index: u32,
    /// Transaction ID.
    pub id: Hash256,
    /// The signed transaction.
    pub blob: Vec<u8>,
}

impl TxRecord {
    /// The record of `result`, applied to open ledger `open_seq`.
    pub fn of(blob: &[u8], result: &ApplyResult, open_seq: u32) -> TxRecord {
        let (ledger_seq, index) = match &result.entry {
            Some(e) => (e.ledger_seq, e.index),
            None => (open_seq, u32::MAX),
        };
        TxRecord {
            applied: result.applied,
            held: result.held,
            ter: result.ter.code(),
            ledger_seq,
            index,
            id: result.id,
            blob: blob.to_vec(),
        }
    }

    /// The result code, if it is one this build knows.
    pub fn ter(&self) -> Option<Ter> {
        Ter::from_code(self.ter)
    }

    /// The payload.
    pub fn encode(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(46 + self.blob.len());
        out.push(VERSION);
        let flags =
            if self.applied { FLAG_APPLIED } else { 0 } | if self.held { FLAG_HELD } else { 0 };
        out.push(flags);
        out.extend_from_slice(&self.ter.to_le_bytes());
        out.extend_from_slice(&self.ledger_seq.to_le_bytes());
        out.extend_from_slice(&self.index.to_le_bytes());
        out.extend_from_slice(&self.id.0);
        out.extend_from_slice(&self.blob);
        out
    }

    /// Reads a payload.
    pub fn decode(bytes: &[u8]) -> Result<TxRecord, FormatError> {
        let mut r = Reader::new(bytes);
        r.version()?;
        let flags = r.u8()?;
        Ok(TxRecord {
            applied: flags & FLAG_APPLIED != 0,
            held: flags & FLAG_HELD != 0,
            ter: r.u32()? as i32,
            ledger_seq: r.u32()?,
            index: r.u32()?,
            id: r.hash()?,
            blob: r.rest().to_vec(),
        })
    }
}

/// A close record.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CloseRecord {
    /// What `close` was called with.
    pub close_time_requested: u32,
    /// The closed ledger's sequence.
    pub seq: u32,
    /// Its (rounded) close time.
    pub close_time: u32,
    /// Transactions in it.
    pub tx_count: u32,
    /// Its hash.
    pub hash: Hash256,
    /// Its state root.
    pub account_hash: Hash256,
    /// Its transaction root.
    pub transaction_hash: Hash256,
}

impl CloseRecord {
    /// The record of a closed ledger.
    pub fn of(closed: &ClosedLedger) -> CloseRecord {
        CloseRecord {
            close_time_requested: closed.close_time_requested,
            seq: closed.header.seq,
            close_time: closed.header.close_time,
            tx_count: closed.txs.len() as u32,
            hash: closed.header.hash,
            account_hash: closed.header.account_hash,
            transaction_hash: closed.header.transaction_hash,
        }
    }

    /// The payload.
    pub fn encode(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(113);
        out.push(VERSION);
        for v in [
            self.close_time_requested,
            self.seq,
            self.close_time,
            self.tx_count,
        ] {
            out.extend_from_slice(&v.to_le_bytes());
        }
        for h in [&self.hash, &self.account_hash, &self.transaction_hash] {
            out.extend_from_slice(&h.0);
        }
        out
    }

    /// Reads a payload.
    pub fn decode(bytes: &[u8]) -> Result<CloseRecord, FormatError> {
        let mut r = Reader::new(bytes);
        r.version()?;
        let rec = CloseRecord {
            close_time_requested: r.u32()?,
            seq: r.u32()?,
            close_time: r.u32()?,
            tx_count: r.u32()?,
            hash: r.hash()?,
            account_hash: r.hash()?,
            transaction_hash: r.hash()?,
        };
        r.end()?;
        Ok(rec)
    }
}

/// The genesis record: what `Ledgers::genesis` was called with.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GenesisRecord {
    /// Ledger 2's close time.
    pub now: u32,
    /// The fee schedule written into genesis.
    pub fees: Fees,
    /// The network ID the engine ran with.
    pub network_id: u32,
}

impl GenesisRecord {
    /// The payload.
    pub fn encode(&self) -> Vec<u8> {
        let mut out = vec![VERSION, META_GENESIS];
        out.extend_from_slice(&self.now.to_le_bytes());
        for v in [
            self.fees.base_drops,
            self.fees.reserve_base_drops,
            self.fees.reserve_inc_drops,
        ] {
            out.extend_from_slice(&v.to_le_bytes());
        }
        out.extend_from_slice(&self.network_id.to_le_bytes());
        out
    }

    /// Reads a payload.
    pub fn decode(bytes: &[u8]) -> Result<GenesisRecord, FormatError> {
        let mut r = Reader::new(bytes);
        r.version()?;
        let kind = r.u8()?;
        if kind != META_GENESIS {
            return Err(format!("unknown meta record kind {kind}"));
        }
        let rec = GenesisRecord {
            now: r.u32()?,
            fees: Fees {
                base_drops: r.u64()?,
                reserve_base_drops: r.u64()?,
                reserve_inc_drops: r.u64()?,
            },
            network_id: r.u32()?,
        };
        r.end()?;
        Ok(rec)
    }
}

/// A revert record: the ledger a `ledger_revert` went back to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RevertRecord {
    /// The restored last closed ledger.
    pub seq: u32,
    /// Its hash.
    pub hash: Hash256,
    /// How many transaction records right after this one are the restored open ledger's.
    pub following: u32,
}

impl RevertRecord {
    /// The payload.
    pub fn encode(&self) -> Vec<u8> {
        let mut out = vec![VERSION, META_REVERT];
        out.extend_from_slice(&self.seq.to_le_bytes());
        out.extend_from_slice(&self.hash.0);
        out.extend_from_slice(&self.following.to_le_bytes());
        out
    }

    /// Reads a payload; `Ok(None)` for another meta record (genesis).
    pub fn decode(bytes: &[u8]) -> Result<Option<RevertRecord>, FormatError> {
        let mut r = Reader::new(bytes);
        r.version()?;
        if r.u8()? != META_REVERT {
            return Ok(None);
        }
        let rec = RevertRecord {
            seq: r.u32()?,
            hash: r.hash()?,
            following: r.u32()?,
        };
        r.end()?;
        Ok(Some(rec))
    }
}

/// An abandoned-revert record: the revert journaled as `record` never finished (the
/// process stopped before its snapshot was written, so it was never answered) and did not
/// happen; what follows it goes on from the ledger as it was before that revert.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RevertAbandoned {
    /// The revert record's number.
    pub record: u64,
}

impl RevertAbandoned {
    /// The payload.
    pub fn encode(&self) -> Vec<u8> {
        let mut out = vec![VERSION, META_REVERT_ABANDONED];
        out.extend_from_slice(&self.record.to_le_bytes());
        out
    }
}

/// A meta record, read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Meta {
    /// The genesis record.
    Genesis(GenesisRecord),
    /// A revert.
    Revert(RevertRecord),
    /// A revert that never finished.
    RevertAbandoned(RevertAbandoned),
}

impl Meta {
    /// Reads a meta record's payload.
    pub fn decode(bytes: &[u8]) -> Result<Meta, FormatError> {
        let mut r = Reader::new(bytes);
        r.version()?;
        match r.u8()? {
            META_GENESIS => GenesisRecord::decode(bytes).map(Meta::Genesis),
            META_REVERT => RevertRecord::decode(bytes)?
                .map(Meta::Revert)
                .ok_or_else(|| "not a revert record".to_owned()),
            META_REVERT_ABANDONED => {
                let rec = RevertAbandoned { record: r.u64()? };
                r.end()?;
                Ok(Meta::RevertAbandoned(rec))
            }
            kind => Err(format!("unknown meta record kind {kind}")),
        }
    }
}

/// What a snapshot holds: one closed ledger's header and entries, and the transactions
/// held for retry when it closed.
pub struct SnapshotState {
    /// The closed ledger's header.
    pub header: LedgerHeader,
    /// Held transactions (decoded) with the last ledger each may be retried in.
    pub held: Vec<(StObject, u32)>,
    /// Every entry of the ledger, serialized (the state keeps them so; the ledgers
    /// check each decodes when they load them).
    pub entries: Vec<(Hash256, Vec<u8>)>,
}

/// Encodes a snapshot payload from a closed ledger's header, held list and entries.
pub fn encode_snapshot(
    header: &LedgerHeader,
    held: &[(Arc<StObject>, u32)],
    entries: &[(Hash256, Vec<u8>)],
) -> Vec<u8> {
    let size: usize = entries.iter().map(|(_, b)| 36 + b.len()).sum();
    let mut out = Vec::with_capacity(size + 256);
    out.extend_from_slice(SNAPSHOT_MAGIC);
    out.extend_from_slice(&SNAPSHOT_VERSION.to_le_bytes());
    out.extend_from_slice(&header.seq.to_le_bytes());
    out.extend_from_slice(&header.total_drops.to_le_bytes());
    out.extend_from_slice(&header.parent_hash.0);
    out.extend_from_slice(&header.transaction_hash.0);
    out.extend_from_slice(&header.account_hash.0);
    out.extend_from_slice(&header.parent_close_time.to_le_bytes());
    out.extend_from_slice(&header.close_time.to_le_bytes());
    out.push(header.close_time_resolution);
    out.push(header.close_flags);
    out.extend_from_slice(&header.hash.0);
    out.extend_from_slice(&(held.len() as u32).to_le_bytes());
    for (tx, until) in held {
        let blob = codec::encode(tx);
        out.extend_from_slice(&until.to_le_bytes());
        out.extend_from_slice(&(blob.len() as u32).to_le_bytes());
        out.extend_from_slice(&blob);
    }
    out.extend_from_slice(&(entries.len() as u64).to_le_bytes());
    for (key, bytes) in entries {
        out.extend_from_slice(&key.0);
        out.extend_from_slice(&(bytes.len() as u32).to_le_bytes());
        out.extend_from_slice(bytes);
    }
    out
}

/// Decodes a snapshot payload.
pub fn decode_snapshot(bytes: &[u8]) -> Result<SnapshotState, FormatError> {
    let mut r = Reader::new(bytes);
    if r.take(8)? != SNAPSHOT_MAGIC {
        return Err("not a ledger snapshot (bad magic)".into());
    }
    let version = r.u32()?;
    if version != SNAPSHOT_VERSION {
        return Err(format!("unknown ledger snapshot version {version}"));
    }
    let header = LedgerHeader {
        seq: r.u32()?,
        total_drops: r.u64()?,
        parent_hash: r.hash()?,
        transaction_hash: r.hash()?,
        account_hash: r.hash()?,
        parent_close_time: r.u32()?,
        close_time: r.u32()?,
        close_time_resolution: r.u8()?,
        close_flags: r.u8()?,
        hash: r.hash()?,
    };
    let held_count = r.u32()?;
    let mut held = Vec::new();
    for i in 0..held_count {
        let until = r.u32()?;
        let len = r.u32()? as usize;
        let tx = codec::decode(r.take(len)?)
            .map_err(|e| format!("held transaction {i} does not decode: {e}"))?;
        held.push((tx, until));
    }
    let count = r.u64()?;
    // Each entry takes at least 36 bytes: a count beyond that is damage, not a reason to
    // reserve memory.
    if count > (r.remaining() / 36) as u64 {
        return Err(format!("entry count {count} exceeds what the file holds"));
    }
    let mut entries = Vec::with_capacity(count as usize);
    for _ in 0..count {
        let key = r.hash()?;
        let len = r.u32()? as usize;
        entries.push((key, r.take(len)?.to_vec()));
    }
    r.end()?;
    Ok(SnapshotState {
        header,
        held,
        entries,
    })
}

/// A bounds-checked little-endian reader.
struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl<'a> Reader<'a> {
    fn new(bytes: &'a [u8]) -> Self {
        Reader { bytes, at: 0 }
    }

    fn remaining(&self) -> usize {
        self.bytes.len() - self.at
    }

    fn take(&mut self, n: usize) -> Result<&'a [u8], FormatError> {
        if self.remaining() < n {
            return Err(format!(
                "payload ends at byte {} where {n} more bytes were expected",
                self.bytes.len()
            ));
        }
        let s = &self.bytes[self.at..self.at + n];
        self.at += n;
        Ok(s)
    }

    fn version(&mut self) -> Result<(), FormatError> {
        let v = self.u8()?;
        if v != VERSION {
            return Err(format!("unknown record version {v}"));
        }
        Ok(())
    }

    fn u8(&mut self) -> Result<u8, FormatError> {
        Ok(self.take(1)?[0])
    }

    fn u32(&mut self) -> Result<u32, FormatError> {
        let mut b = [0u8; 4];
        b.copy_from_slice(self.take(4)?);
        Ok(u32::from_le_bytes(b))
    }

    fn u64(&mut self) -> Result<u64, FormatError> {
        let mut b = [0u8; 8];
        b.copy_from_slice(self.take(8)?);
        Ok(u64::from_le_bytes(b))
    }

    fn hash(&mut self) -> Result<Hash256, FormatError> {
        let mut b = [0u8; 32];
        b.copy_from_slice(self.take(32)?);
        Ok(Hash256(b))
    }

    fn rest(&mut self) -> &'a [u8] {
        let s = &self.bytes[self.at..];
        self.at = self.bytes.len();
        s
    }

    fn end(&self) -> Result<(), FormatError> {
        if self.remaining() != 0 {
            return Err(format!("{} unexpected bytes at the end", self.remaining()));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn records_round_trip_and_short_payloads_are_refused() {
        let tx = TxRecord {
            applied: true,
            held: false,
            ter: 0,
            ledger_seq: 7,
            index: 3,
            id: Hash256([9; 32]),
            blob: vec![1, 2, 3],
        };
        assert_eq!(TxRecord::decode(&tx.encode()), Ok(tx.clone()));
        let enc = tx.encode();
        assert!(TxRecord::decode(&enc[..45]).is_err());
        let close = CloseRecord {
            close_time_requested: 5,
            seq: 9,
            close_time: 10,
            tx_count: 2,
            hash: Hash256([1; 32]),
            account_hash: Hash256([2; 32]),
            transaction_hash: Hash256([3; 32]),
        };
        assert_eq!(CloseRecord::decode(&close.encode()), Ok(close.clone()));
        let mut long = close.encode();
        long.push(0);
        assert!(CloseRecord::decode(&long).is_err());
        let g = GenesisRecord {
            now: 780_000_000,
            fees: Fees::default(),
            network_id: 0,
        };
        assert_eq!(GenesisRecord::decode(&g.encode()), Ok(g.clone()));
        let mut v2 = g.encode();
        v2[0] = 2;
        assert!(GenesisRecord::decode(&v2).is_err());
    }

    #[test]
    fn meta_records_tell_themselves_apart() {
        let g = GenesisRecord {
            now: 5,
            fees: Fees::default(),
            network_id: 1,
        };
        let r = RevertRecord {
            seq: 4,
            hash: Hash256([7; 32]),
            following: 2,
        };
        let a = RevertAbandoned { record: 99 };
        assert_eq!(Meta::decode(&g.encode()), Ok(Meta::Genesis(g.clone())));
        assert_eq!(Meta::decode(&r.encode()), Ok(Meta::Revert(r.clone())));
        assert_eq!(
            Meta::decode(&a.encode()),
            Ok(Meta::RevertAbandoned(a.clone()))
        );
        assert_eq!(RevertRecord::decode(&a.encode()), Ok(None));
        let mut long = a.encode();
        long.push(0);
        assert!(Meta::decode(&long).is_err());
        assert!(Meta::decode(&[1, 9]).is_err());
    }

    #[test]
    fn snapshot_count_beyond_the_file_is_refused() {
        let header = LedgerHeader {
            seq: 3,
            total_drops: 1,
            parent_hash: Hash256::ZERO,
            transaction_hash: Hash256::ZERO,
            account_hash: Hash256::ZERO,
            parent_close_time: 0,
            close_time: 0,
            close_time_resolution: 10,
            close_flags: 0,
            hash: Hash256::ZERO,
        };
        let mut bytes = encode_snapshot(&header, &[], &[]);
        let n = bytes.len();
        bytes[n - 8..].copy_from_slice(&u64::MAX.to_le_bytes());
        assert!(decode_snapshot(&bytes).is_err());
        let ok = encode_snapshot(&header, &[], &[]);
        let s = decode_snapshot(&ok).expect("decodes");
        assert_eq!(s.header, header);
        assert!(s.entries.is_empty());
    }
}
