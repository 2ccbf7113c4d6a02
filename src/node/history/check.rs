//! The history store held to the journal's rule at start: acknowledged history a restart
//! cannot reach refuses to start.
//!
//! The store must hold every ledger from its start marker (the first ledger history
//! holds; see `store/history/integrity.rs`) up to the ledgers recovery rebuilt in memory.
//! What it lacks and memory holds (with its transactions) is written again from memory
//! ("caught up from the journal"); what it lacks and memory does not hold is lost
//! acknowledged history: the start is refused, naming the database, the ledgers missing
//! and `serve --repair-history`. A store without a marker (made before markers existed)
//! is adopted as it is: its first ledger becomes its start.

use crate::ledgers::{ClosedLedger, Ledgers};
use crate::protocol::types::Hash256;
use crate::store::HistoryLedger;

use super::{history_ledger, History};

/// What a refusal tells the operator to do.
pub const REPAIR_HISTORY_HINT: &str = "`ledgerd serve --repair-history` rebuilds what the journal still holds and says what it could not";

/// Ranges as a message prints them: `5`, `5-9`, `1-3, 7-9`.
pub fn ranges_text(ranges: &[(u32, u32)]) -> String {
    let parts: Vec<String> = ranges
        .iter()
        .map(|&(a, b)| {
            if a == b {
                a.to_string()
            } else {
                format!("{a}-{b}")
            }
        })
        .collect();
    parts.join(", ")
}

/// Whether a closed ledger in memory holds its transactions: a ledger loaded from a
/// snapshot (the base of a replay, a fork's first ledger) has its header and state only.
pub fn txs_known(closed: &ClosedLedger) -> bool {
    !closed.txs.is_empty() || closed.header.transaction_hash == Hash256::ZERO
}

/// The ledgers history must hold that the store lacks.
pub struct Lacking {
    /// Those memory holds whole, to be written from it.
    pub fill: Vec<u32>,
    /// Those it does not: lost unless a repair rebuilds them.
    pub lost: Vec<(u32, u32)>,
}

/// What the store holds and what it must hold, at start.
struct Plan {
    /// The store's first and last ledger.
    range: Option<(u32, u32)>,
    /// Its start marker.
    start: Option<u32>,
    /// The first ledger history must hold: the marker, else (adopting a store made before
    /// markers) the store's first ledger, else memory's first.
    first: u32,
}

impl History {
    /// Writes the closed ledgers in memory that the store lacks, after checking it holds
    /// the rest of its history: refuses a store ahead of memory (a different ledger at its
    /// end) or lacking ledgers from its start that memory cannot give back.
    ///
    /// With `repair` (`serve --repair-journal` or `--repair-history`) the ledgers the store
    /// holds beyond the journal are discarded, and said so.
    pub fn catch_up(&self, ledgers: &Ledgers, file: &str, repair: bool) -> Result<(), String> {
        let (lo, hi) = ledgers.complete_range();
        let range = self.discard_ahead(hi, file, repair)?;
        self.check_same_ledger(ledgers, range, file)?;
        let start = self.store.start().map_err(|e| e.to_string())?;
        let first = start.or(range.map(|r| r.0)).unwrap_or(lo);
        let plan = Plan {
            range,
            start,
            first,
        };
        let lacking = self.needed(&plan, ledgers, hi)?;
        if !lacking.lost.is_empty() {
            return Err(refusal(file, &plan, &lacking.lost, (lo, hi)));
        }
        self.fill(ledgers, &lacking.fill, range)?;
        if start.is_none() {
            self.store.set_start(first).map_err(|e| e.to_string())?;
        }
        self.write_state_base(ledgers, hi)?;
        self.trim(hi)
    }

    /// The ledgers history must hold that the store lacks, from the plan's first to the
    /// journal's last (`hi`): those memory can give back, and those it cannot (lost).
    pub(super) fn lacking(
        &self,
        first: u32,
        ledgers: &Ledgers,
        hi: u32,
    ) -> Result<Lacking, String> {
        let range = self.store.range().map_err(|e| e.to_string())?;
        let start = self.store.start().map_err(|e| e.to_string())?;
        let plan = Plan {
            range,
            start: start.or(Some(first)),
            first,
        };
        self.needed(&plan, ledgers, hi)
    }

    fn needed(&self, plan: &Plan, ledgers: &Ledgers, hi: u32) -> Result<Lacking, String> {
        let missing = self.missing_from(plan.first, plan.range, hi)?;
        // A store started now takes memory's first ledger as it is, even without its
        // transactions (a fork's first ledger); otherwise those are missing.
        let starting = plan.start.is_none() && plan.range.is_none();
        let mut fill = Vec::new();
        let mut lost: Vec<(u32, u32)> = Vec::new();
        let mut lose = |a: u32, b: u32| match lost.last_mut() {
            Some(last) if last.1.saturating_add(1) == a => last.1 = b,
            _ => lost.push((a, b)),
        };
        // Memory holds nothing before its first ledger: that part is lost at once.
        let lo = match ledgers.complete_range().0 {
            0 => u32::MAX,
            lo => lo,
        };
        for (a, b) in missing {
            if a < lo {
                lose(a, b.min(lo - 1));
            }
            for seq in a.max(lo)..=b {
                let held = ledgers.by_seq(seq).and_then(|s| s.ledger);
                if held.is_some_and(|l| starting || txs_known(&l)) {
                    fill.push(seq);
                } else {
                    lose(seq, seq);
                }
            }
        }
        Ok(Lacking { fill, lost })
    }

    /// The ranges of `first..=hi` the store lacks.
    fn missing_from(
        &self,
        first: u32,
        range: Option<(u32, u32)>,
        hi: u32,
    ) -> Result<Vec<(u32, u32)>, String> {
        if first > hi || first == 0 {
            return Ok(Vec::new());
        }
        let Some((lo, last)) = range else {
            return Ok(vec![(first, hi)]);
        };
        let mut out = Vec::new();
        if first < lo {
            out.push((first, lo.saturating_sub(1).min(hi)));
        }
        let (a, b) = (lo.max(first), last.min(hi));
        if a <= b {
            out.extend(self.store.missing(a, b).map_err(|e| e.to_string())?);
        }
        if last < hi {
            out.push((last.saturating_add(1).max(first), hi));
        }
        Ok(out)
    }

    /// Writes the ledgers `seqs` from memory: after the store's last one as new ledgers,
    /// elsewhere in place of what the store lacks (a gap).
    fn fill(
        &self,
        ledgers: &Ledgers,
        seqs: &[u32],
        range: Option<(u32, u32)>,
    ) -> Result<(), String> {
        let after = range.map_or(0, |r| r.1);
        let (appended, restored): (Vec<u32>, Vec<u32>) = seqs.iter().partition(|&&s| s > after);
        let closed = |seq: u32| ledgers.by_seq(seq).and_then(|s| s.ledger);
        let batches = |seqs: &[u32]| -> Vec<Vec<HistoryLedger>> {
            seqs.chunks(crate::limits::HISTORY_WRITE_BATCH_LEDGERS_MAX)
                .map(|c| {
                    c.iter()
                        .filter_map(|&s| closed(s))
                        .map(|l| history_ledger(&l))
                        .collect()
                })
                .collect()
        };
        for batch in batches(&restored) {
            self.store.replace(&batch).map_err(|e| e.to_string())?;
        }
        if !restored.is_empty() {
            tracing::warn!(
                ledgers = %ranges_text(&runs(&restored)),
                "history database lacked ledgers the journal rebuilt; written again"
            );
        }
        for batch in batches(&appended) {
            self.store.write(&batch).map_err(|e| e.to_string())?;
        }
        if let (Some(from), Some(to)) = (appended.first(), appended.last()) {
            tracing::info!(from, to, "history caught up from the journal");
        }
        Ok(())
    }

    /// Refuses a store ahead of the journal's last ledger `hi`, or (with `repair`)
    /// discards its ledgers beyond it. Returns the store's range after.
    fn discard_ahead(
        &self,
        hi: u32,
        file: &str,
        repair: bool,
    ) -> Result<Option<(u32, u32)>, String> {
        let range = self.store.range().map_err(|e| e.to_string())?;
        let Some((first, last)) = range.filter(|&(_, last)| last > hi) else {
            return Ok(range);
        };
        if !repair {
            return Err(format!(
                "history database {file} holds ledgers up to {last}, but the journal ends at ledger {hi}; refusing to start ({REPAIR_HISTORY_HINT}, discarding the ledgers beyond the journal)"
            ));
        }
        self.store.delete_after(hi).map_err(|e| e.to_string())?;
        tracing::warn!(
            "history repair: discarded ledgers {}-{last} of {file}, beyond the journal",
            hi + 1
        );
        Ok((first <= hi).then_some((first, hi)))
    }
}

/// Consecutive sequences as ranges.
pub fn runs(seqs: &[u32]) -> Vec<(u32, u32)> {
    let mut out: Vec<(u32, u32)> = Vec::new();
    for &s in seqs {
        match out.last_mut() {
            Some(last) if last.1.checked_add(1) == Some(s) => last.1 = s,
            _ => out.push((s, s)),
        }
    }
    out
}

/// Why a store lacking acknowledged ledgers `lost` is refused.
fn refusal(file: &str, plan: &Plan, lost: &[(u32, u32)], (lo, hi): (u32, u32)) -> String {
    let holds = match plan.range {
        Some((a, b)) => format!("the database holds ledgers {a}-{b}"),
        None => "the database holds no ledgers (deleted or emptied)".to_owned(),
    };
    let since = match plan.start {
        Some(s) => format!("history starts at ledger {s}"),
        None => format!("history starts at ledger {}", plan.first),
    };
    format!(
        "history database {file} lacks acknowledged ledgers {} ({since}; {holds}; the journal rebuilt ledgers {lo}-{hi}); refusing to start ({REPAIR_HISTORY_HINT})",
        ranges_text(lost)
    )
}
