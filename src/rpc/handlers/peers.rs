//! `peers` (rippled `Peers.cpp`): admin; the connected peers and the cluster. A standalone
//! server has no peers, and ledgerd never has any: rippled's overlay then prints `peers` as
//! `null` (its list is built by appending to a null value) and `cluster` as `{}`.

use crate::rpc::context::Context;
use crate::rpc::{HandlerResult, Params};
use serde_json::{Map, Value};

/// No peers, no cluster.
pub fn handle(_ctx: &Context, _params: &Params) -> HandlerResult {
    let mut out = Map::new();
    out.insert("cluster".into(), Value::Object(Map::new()));
    out.insert("peers".into(), Value::Null);
    Ok(out)
}
