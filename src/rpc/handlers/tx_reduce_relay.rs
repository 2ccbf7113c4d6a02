//! `tx_reduce_relay` (rippled `TxReduceRelay.cpp`, `OverlayImpl::txMetrics`): the
//! transaction relay metrics of the peer overlay, rolling averages printed as strings.
//! ledgerd relays nothing to peers (it has none, as a standalone rippled), so every
//! average is `"0"`, which is what a standalone rippled reports.

use crate::rpc::context::Context;
use crate::rpc::{HandlerResult, Params};
use serde_json::{Map, Value};

/// rippled's `TxMetrics::json` fields, in its order.
const METRICS: [&str; 14] = [
    "txr_tx_cnt",
    "txr_tx_sz",
    "txr_have_txs_cnt",
    "txr_have_txs_sz",
    "txr_get_ledger_cnt",
    "txr_get_ledger_sz",
    "txr_ledger_data_cnt",
    "txr_ledger_data_sz",
    "txr_transactions_cnt",
    "txr_transactions_sz",
    "txr_selected_cnt",
    "txr_suppressed_cnt",
    "txr_not_enabled_cnt",
    "txr_missing_tx_freq",
];

/// The relay averages: no peers, nothing relayed.
pub fn handle(_ctx: &Context, _params: &Params) -> HandlerResult {
    let mut out: Map<String, Value> = METRICS
        .iter()
        .map(|k| ((*k).to_owned(), Value::from("0")))
        .collect();
    out.sort_keys();
    Ok(out)
}
