//! What the server knows about its ledgers without touching them: a small snapshot the node
//! replaces after every close ([`crate::node::Node::set_status`]). server_info,
//! server_state and the handler preconditions read it.

use crate::limits::{
    FEE_BASE_DROPS_DEFAULT, RESERVE_BASE_DROPS_DEFAULT, RESERVE_INC_DROPS_DEFAULT,
};
use crate::protocol::types::Hash256;

/// How long a standalone close's consensus round takes: rippled's `Consensus::simulate`
/// ticks 100 ms (server_info `last_close.converge_time_s` 0.1).
pub const STANDALONE_CONVERGE_MS: u64 = 100;

/// The operating mode server_info reports (rippled `OperatingMode`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OperatingMode {
    /// Not connected to the network.
    Disconnected,
    /// Connected, not following.
    Connected,
    /// Acquiring ledgers.
    Syncing,
    /// Following the network.
    Tracking,
    /// Fully synced (standalone servers are always here).
    Full,
}

impl OperatingMode {
    /// The server_state string.
    pub fn as_str(self) -> &'static str {
        match self {
            OperatingMode::Disconnected => "disconnected",
            OperatingMode::Connected => "connected",
            OperatingMode::Syncing => "syncing",
            OperatingMode::Tracking => "tracking",
            OperatingMode::Full => "full",
        }
    }
}

/// A closed (or validated) ledger's identity and fee settings.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LedgerSummary {
    /// Sequence number.
    pub seq: u32,
    /// Ledger hash.
    pub hash: Hash256,
    /// Close time, seconds since the XRP Ledger epoch.
    pub close_time: u64,
    /// Reference transaction cost, drops.
    pub base_fee_drops: u64,
    /// Account reserve, drops.
    pub reserve_base_drops: u64,
    /// Owner reserve per object, drops.
    pub reserve_inc_drops: u64,
}

/// The snapshot.
#[derive(Clone, Debug, PartialEq)]
pub struct LedgerStatus {
    /// Standalone servers skip the network-age preconditions.
    pub standalone: bool,
    /// The operating mode.
    pub mode: OperatingMode,
    /// The last validated ledger (in standalone: the last closed one).
    pub validated: Option<LedgerSummary>,
    /// The open ledger's sequence, if there is one.
    pub open_seq: Option<u32>,
    /// The range of ledgers held, inclusive.
    pub complete: Option<(u32, u32)>,
    /// Server load factor, scaled by [`LOAD_BASE`] (256 = no extra load).
    pub load_factor: u32,
    /// Consensus time of the last close, milliseconds.
    pub last_close_converge_ms: u64,
    /// Proposers in the last close.
    pub last_close_proposers: u32,
    /// The server refuses everything until upgraded (rippled's amendment block).
    pub amendment_blocked: bool,
}

/// rippled's `load_base`: load factors are integers scaled by it.
pub const LOAD_BASE: u32 = crate::render::server_status::LOAD_BASE as u32;

impl LedgerStatus {
    /// A standalone server that holds only its genesis ledger (sequence 1, closed at
    /// `close_time`, hash `hash`) with ledger 2 open: what the server reports until the
    /// ledger side publishes its first status.
    pub fn standalone_genesis(hash: Hash256, close_time: u64) -> LedgerStatus {
        LedgerStatus {
            standalone: true,
            mode: OperatingMode::Full,
            validated: Some(LedgerSummary {
                seq: 1,
                hash,
                close_time,
                base_fee_drops: FEE_BASE_DROPS_DEFAULT,
                reserve_base_drops: RESERVE_BASE_DROPS_DEFAULT,
                reserve_inc_drops: RESERVE_INC_DROPS_DEFAULT,
            }),
            open_seq: Some(2),
            complete: Some((1, 1)),
            load_factor: LOAD_BASE,
            last_close_converge_ms: 0,
            last_close_proposers: 0,
            amendment_blocked: false,
        }
    }

    /// The status of a standalone server over `store`: its last closed ledger is validated,
    /// and closes took rippled's simulated consensus round (`STANDALONE_CONVERGE_MS`).
    pub fn from_store(store: &crate::ledgers::Ledgers) -> LedgerStatus {
        let closed = store.closed();
        let fees = store.fees();
        let (lo, hi) = store.complete_range();
        LedgerStatus {
            standalone: true,
            mode: OperatingMode::Full,
            validated: closed.ledger.as_ref().map(|l| LedgerSummary {
                seq: l.header.seq,
                hash: l.header.hash,
                close_time: l.header.close_time as u64,
                base_fee_drops: fees.base_drops,
                reserve_base_drops: fees.reserve_base_drops,
                reserve_inc_drops: fees.reserve_inc_drops,
            }),
            open_seq: Some(store.current().seq()),
            complete: Some((lo, hi)),
            load_factor: LOAD_BASE,
            last_close_converge_ms: STANDALONE_CONVERGE_MS,
            last_close_proposers: 0,
            amendment_blocked: false,
        }
    }

    /// `complete_ledgers` as rippled prints it: `"a-b"`, `"a"` or `"empty"`.
    pub fn complete_ledgers(&self) -> String {
        crate::render::ledger::complete_ledgers(self.complete)
    }
}
