//! Durability (`tests/store/`): the journal and snapshots on a real disk and under
//! injected faults, persistence through the sequencer's role, history (SQLite and
//! PostgreSQL), crashes and reverts of the real binary, forks and read nodes.
//! One test binary: `cargo test --test store`.

mod support;

#[path = "store/crash_revert.rs"]
mod crash_revert;
#[path = "store/damage.rs"]
mod damage;
#[path = "store/faults.rs"]
mod faults;
#[path = "store/fork.rs"]
mod fork;
#[path = "store/history_integrity.rs"]
mod history_integrity;
#[path = "store/history_postgres.rs"]
mod history_postgres;
#[path = "store/journal.rs"]
mod journal;
#[path = "store/journal_props.rs"]
mod journal_props;
#[path = "store/persist_crash.rs"]
mod persist_crash;
#[path = "store/persist_damage.rs"]
mod persist_damage;
#[path = "store/persist_faults.rs"]
mod persist_faults;
#[path = "store/persist_prune.rs"]
mod persist_prune;
#[path = "store/persist_queue.rs"]
mod persist_queue;
#[path = "store/persist_restart.rs"]
mod persist_restart;
#[path = "store/persist_revert.rs"]
mod persist_revert;
#[path = "store/read_node.rs"]
mod read_node;
#[path = "store/read_node_standby.rs"]
mod read_node_standby;
#[path = "store/snapshot.rs"]
mod snapshot;
