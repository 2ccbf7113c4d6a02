//! The `server` stream's `serverStatus` message (rippled `NetworkOPs::pubServer`), sent
//! when the fee summary changes: the base fee, or the open ledger's escalated, queue or
//! reference fee level. A standalone server has no load fee: `load_factor_server` is the
//! load base, and `load_factor` is the escalation scaled to it when higher.

use crate::ledgers::txq::{mul_div, FeeReport};
use serde_json::{json, Value};

/// The load base (rippled `LoadFeeTrack::lftNormalFee`).
pub const LOAD_BASE: u64 = 256;

/// What a `serverStatus` reports and rippled compares (`ServerFeeSummary`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FeeSummary {
    /// The open ledger's base fee, in drops.
    pub base_fee: u64,
    /// `load_factor_fee_escalation`: the open ledger's required level.
    pub open_ledger_level: u64,
    /// `load_factor_fee_queue`: the least level the queue takes.
    pub minimum_level: u64,
    /// `load_factor_fee_reference`.
    pub reference_level: u64,
}

impl FeeSummary {
    /// The summary of `fee`'s figures.
    pub fn of(report: &FeeReport) -> FeeSummary {
        FeeSummary {
            base_fee: report.base_fee,
            open_ledger_level: report.open_ledger_level,
            minimum_level: report.minimum_level,
            reference_level: report.reference_level,
        }
    }

    /// The escalation as a load factor: the open ledger's level over the reference
    /// level, scaled to the load base (rippled `mulDiv(openLedgerFeeLevel, loadBase,
    /// referenceFeeLevel)`).
    pub fn escalation(&self) -> u64 {
        mul_div(self.open_ledger_level, LOAD_BASE, self.reference_level).unwrap_or(u64::MAX)
    }

    /// `load_factor`: the server's load (the base, standalone) or the escalation,
    /// whichever is higher, clipped to 32 bits.
    pub fn load_factor(&self) -> u64 {
        LOAD_BASE.max(self.escalation()).min(u64::from(u32::MAX))
    }
}

/// The `serverStatus` message for a server in `mode`.
pub fn server_status(mode: &str, fee: &FeeSummary) -> Value {
    json!({
        "type": "serverStatus",
        "server_status": mode,
        "load_base": LOAD_BASE,
        "load_factor_server": LOAD_BASE,
        "base_fee": fee.base_fee,
        "load_factor": fee.load_factor(),
        "load_factor_fee_escalation": fee.open_ledger_level,
        "load_factor_fee_queue": fee.minimum_level,
        "load_factor_fee_reference": fee.reference_level,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_load_factor_is_the_escalation_on_the_load_base() {
        let mut fee = FeeSummary {
            base_fee: 10,
            open_ledger_level: 256,
            minimum_level: 256,
            reference_level: 256,
        };
        assert_eq!(fee.load_factor(), 256);
        fee.open_ledger_level = 227_555;
        assert_eq!(fee.load_factor(), 227_555);
        let msg = server_status("full", &fee);
        assert_eq!(msg["load_factor_fee_escalation"], 227_555);
        assert_eq!(msg["load_factor_server"], 256);
        assert_eq!(msg["base_fee"], 10);
        fee.open_ledger_level = u64::MAX;
        assert_eq!(fee.load_factor(), u64::from(u32::MAX));
    }
}
