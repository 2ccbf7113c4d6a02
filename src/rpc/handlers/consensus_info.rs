//! `consensus_info` (rippled `ConsensusInfo.cpp`, `RCLConsensus::getJson(true)`): admin;
//! the consensus round. A standalone server runs no consensus with peers: each
//! `ledger_accept` (or, in ledgerd, the close timer) closes a ledger in a simulated round
//! that ends accepted. The writer validates every ledger it closes (stream `validations`),
//! so, as a standalone rippled with validator keys, it is validating and proposing; a read
//! node is neither. ledgerd reports that round for the last closed ledger: `ledger_seq` and
//! `close_granularity` are that ledger's, its position (`our_position`) the parent it built
//! on, its transaction set's hash (the `ConsensusHash` its validation signs) and the close
//! time the close was asked for, and the round took the converge time server_info reports.

use crate::node::validator::consensus_hash;
use crate::rpc::context::Context;
use crate::rpc::{HandlerResult, Params};
use serde_json::{Map, Value};

/// The last (simulated) round.
pub fn handle(ctx: &Context, _params: &Params) -> HandlerResult {
    let node = &ctx.services.node;
    let validating = node.validator.get().is_some();
    let mut info = Map::new();
    info.insert("proposing".into(), Value::from(validating));
    info.insert("proposers".into(), Value::from(0));
    info.insert("synched".into(), Value::from(true));
    info.insert("phase".into(), Value::from("accepted"));
    info.insert("validating".into(), Value::from(validating));
    if let Some(l) = node.ledgers.closed().ledger {
        let h = &l.header;
        let resolution = u32::from(h.close_time_resolution);
        info.insert("ledger_seq".into(), Value::from(h.seq));
        info.insert("close_granularity".into(), Value::from(resolution));
        info.insert("close_resolution".into(), Value::from(resolution));
        let mut position = Map::new();
        position.insert(
            "close_time".into(),
            Value::from(l.close_time_requested.to_string()),
        );
        position.insert("previous_ledger".into(), Value::from(h.parent_hash.to_hex()));
        position.insert("propose_seq".into(), Value::from(0));
        position.insert(
            "transaction_hash".into(),
            Value::from(consensus_hash(&l).to_hex()),
        );
        info.insert("our_position".into(), Value::Object(position));
    }
    let round_ms = node.status().last_close_converge_ms;
    info.insert("current_ms".into(), Value::from(round_ms));
    info.insert("converge_percent".into(), Value::from(0));
    info.insert("have_time_consensus".into(), Value::from(false));
    info.insert("previous_proposers".into(), Value::from(0));
    info.insert("previous_mseconds".into(), Value::from(round_ms));
    info.sort_keys();
    let mut out = Map::new();
    out.insert("info".into(), Value::Object(info));
    Ok(out)
}
