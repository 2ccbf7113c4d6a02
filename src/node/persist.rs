//! Persistence of the sequencer's work: the journal of accepted submissions and closes,
//! snapshots, and recovery at startup.
//!
//! PLACEHOLDER: this body keeps everything in memory (every [`Durable`] is immediately
//! `Ok`). The persistence work replaces it behind exactly this surface; the sequencer
//! and the startup code call nothing else.

use crate::ledger::store::{ApplyResult, ClosedLedger, LedgerConfig, LedgerStore};
use crate::rpc::ledger_status::ripple_now_secs;
use std::future::Future;
use std::path::Path;
use std::pin::Pin;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::task::{Context, Poll};

/// Why persistence failed (a write, an fsync, recovery).
#[derive(Debug, Clone, thiserror::Error)]
pub enum PersistError {
    /// The journal refused or lost a write.
    #[error("journal write failed: {0}")]
    Write(String),
}

/// Where accepted work goes to become durable.
pub struct Persistence {
    records: AtomicU64,
    closes: AtomicU64,
}

/// Resolves once a journal record is durable (placeholder: at once).
pub struct Durable {
    outcome: Option<Result<(), PersistError>>,
}

impl Future for Durable {
    type Output = Result<(), PersistError>;
    fn poll(mut self: Pin<&mut Self>, _cx: &mut Context<'_>) -> Poll<Self::Output> {
        Poll::Ready(self.outcome.take().unwrap_or(Ok(())))
    }
}

impl Persistence {
    /// No disk at all (`--ephemeral`, tests): a genesis store.
    pub fn ephemeral(cfg: LedgerConfig) -> (Arc<Persistence>, Arc<LedgerStore>) {
        let store = Arc::new(LedgerStore::genesis(cfg, ripple_now_secs() as u32));
        let p = Persistence {
            records: AtomicU64::new(0),
            closes: AtomicU64::new(0),
        };
        (Arc::new(p), store)
    }

    /// Open or create `dir`: newest valid snapshot + journal replay -> the recovered store.
    /// (Placeholder: nothing is read or written; the store is a fresh genesis.)
    pub fn open(
        _dir: &Path,
        cfg: LedgerConfig,
    ) -> Result<(Arc<Persistence>, Arc<LedgerStore>), PersistError> {
        Ok(Persistence::ephemeral(cfg))
    }

    /// Journal a submission the store accepted (applied or held), in apply order.
    pub fn record_tx(&self, _blob: &[u8], _result: &ApplyResult) -> Durable {
        self.records.fetch_add(1, Ordering::Relaxed);
        Durable {
            outcome: Some(Ok(())),
        }
    }

    /// Journal a close (right after `LedgerStore::close`, before anything else is applied).
    pub fn record_close(&self, _closed: &ClosedLedger) -> Durable {
        self.records.fetch_add(1, Ordering::Relaxed);
        self.closes.fetch_add(1, Ordering::Relaxed);
        Durable {
            outcome: Some(Ok(())),
        }
    }

    /// Called by the sequencer after each close; may write a snapshot.
    pub fn after_close(&self, _store: &Arc<LedgerStore>) {}

    /// Ok, or why writes are refused (failed fsync, full disk).
    pub fn health(&self) -> Result<(), String> {
        Ok(())
    }

    /// Journal records, fsyncs, records per fsync, snapshots (JSON).
    pub fn stats_json(&self) -> serde_json::Value {
        serde_json::json!({
            "journal_records": self.records.load(Ordering::Relaxed),
            "closes": self.closes.load(Ordering::Relaxed),
            "fsyncs": 0,
            "snapshots": 0,
        })
    }
}
