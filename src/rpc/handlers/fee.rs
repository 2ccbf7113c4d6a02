//! `fee` (rippled `Fee1.cpp`, `TxQ::doRPC`; rpc.md §3.12): the open ledger's fee metrics.
//! ledgerd has no transaction queue and no fee escalation, so the levels are rippled's
//! values for a standalone server whose open ledger is below its expected size.

use crate::rpc::context::Context;
use crate::rpc::{HandlerResult, Params};
use serde_json::{Map, Value};

/// The fee level of a reference transaction (`baseLevel`).
pub const REFERENCE_FEE_LEVEL: u64 = 256;
/// rippled's default median fee level of an empty queue (`minimumEscalationMultiplier`
/// × base level).
pub const MEDIAN_FEE_LEVEL: u64 = 128_000;
/// Transactions a standalone rippled expects per ledger (`minimumTxnInLedgerSA`).
pub const EXPECTED_LEDGER_SIZE: u64 = 1000;
/// Ledgers' worth of transactions the queue holds (`ledgersInQueue`).
const LEDGERS_IN_QUEUE: u64 = 20;

/// `toDrops(level, base)`: a fee level scaled to drops.
fn to_drops(level: u64, base: u64) -> u64 {
    ((level as u128 * base as u128) / REFERENCE_FEE_LEVEL as u128) as u64
}

/// Answer fee.
pub fn handle(ctx: &Context, _params: &Params) -> HandlerResult {
    let store = &ctx.services.node.ledgers;
    let open = store.current();
    let base = open_fees(ctx);
    let in_ledger = store.open_txs().len();
    let mut drops = Map::new();
    drops.insert("base_fee".into(), Value::from(base.to_string()));
    drops.insert(
        "median_fee".into(),
        Value::from(to_drops(MEDIAN_FEE_LEVEL, base).to_string()),
    );
    drops.insert(
        "minimum_fee".into(),
        Value::from(to_drops(REFERENCE_FEE_LEVEL, base).to_string()),
    );
    drops.insert(
        "open_ledger_fee".into(),
        Value::from((to_drops(REFERENCE_FEE_LEVEL - 1, base) + 1).to_string()),
    );
    let mut levels = Map::new();
    levels.insert(
        "median_level".into(),
        Value::from(MEDIAN_FEE_LEVEL.to_string()),
    );
    levels.insert(
        "minimum_level".into(),
        Value::from(REFERENCE_FEE_LEVEL.to_string()),
    );
    levels.insert(
        "open_ledger_level".into(),
        Value::from(REFERENCE_FEE_LEVEL.to_string()),
    );
    levels.insert(
        "reference_level".into(),
        Value::from(REFERENCE_FEE_LEVEL.to_string()),
    );
    let mut r = Map::new();
    r.insert(
        "current_ledger_size".into(),
        Value::from(in_ledger.to_string()),
    );
    r.insert("current_queue_size".into(), Value::from("0"));
    r.insert("drops".into(), Value::Object(drops));
    r.insert(
        "expected_ledger_size".into(),
        Value::from(EXPECTED_LEDGER_SIZE.to_string()),
    );
    r.insert("ledger_current_index".into(), Value::from(open.seq()));
    r.insert("levels".into(), Value::Object(levels));
    r.insert(
        "max_queue_size".into(),
        Value::from((EXPECTED_LEDGER_SIZE * LEDGERS_IN_QUEUE).to_string()),
    );
    Ok(r)
}

/// The open ledger's base fee in drops.
fn open_fees(ctx: &Context) -> u64 {
    ctx.services.node.ledgers.fees().base_drops
}
