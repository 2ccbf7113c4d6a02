//! `print` (rippled `Print.cpp`): admin; the server's internal state as a tree of named
//! parts (rippled's `PropertyStream` sources under `app`). The parts are ledgerd's, not
//! rippled's: `cpu` (the CPU pool, rippled's `jobq`), `ledgercleaner` (as rippled's),
//! `ledgers` (the open, closed and validated ledgers, what memory holds), `history` (the
//! history writer), `logs` (the levels), `server` (ports, uptime) and `subscriptions`.
//!
//! `params: ["<path>"]` prints one part, as rippled's `print <path>`: its name, or
//! `app/<name>`, optionally ending `/*`; a path naming no part prints `{}`.

use crate::rpc::context::Context;
use crate::rpc::{HandlerResult, Params};
use serde_json::{Map, Value};

/// The tree, or the part a path names.
pub fn handle(ctx: &Context, params: &Params) -> HandlerResult {
    let tree = app(ctx);
    let path = params
        .get("params")
        .and_then(Value::as_array)
        .and_then(|a| a.first())
        .and_then(Value::as_str);
    let mut out = Map::new();
    let Some(path) = path else {
        out.insert("app".into(), Value::Object(tree));
        return Ok(out);
    };
    let path = path.trim_end_matches("/*").trim_start_matches('/');
    let mut names: Vec<&str> = path.split('/').filter(|n| !n.is_empty()).collect();
    if names.first() == Some(&"app") {
        names.remove(0);
    }
    let Some((last, parents)) = names.split_last() else {
        out.insert("app".into(), Value::Object(tree));
        return Ok(out);
    };
    let mut node = &tree;
    for name in parents {
        match node.get(*name).and_then(Value::as_object) {
            Some(child) => node = child,
            None => return Ok(out),
        }
    }
    if let Some(part) = node.get(*last) {
        out.insert((*last).to_owned(), part.clone());
    }
    Ok(out)
}

/// Every part.
fn app(ctx: &Context) -> Map<String, Value> {
    let services = &ctx.services;
    let node = &services.node;
    let mut app = Map::new();
    app.insert(
        "cpu".into(),
        serde_json::json!({"threads": services.cpu.threads(), "queued": services.cpu.queued()}),
    );
    app.insert("ledgercleaner".into(), services.cleaner.status_json());
    app.insert("history".into(), node.history_json());
    let memory = node.ledgers.counts();
    let status = node.status();
    app.insert(
        "ledgers".into(),
        serde_json::json!({
            "open": node.ledgers.current().seq(),
            "closed": node.ledgers.closed().seq(),
            "validated": status.validated.map(|v| v.seq),
            "complete_ledgers": status.complete_ledgers(),
            "memory_ledgers": memory.closed_ledgers,
            "memory_bytes": node.ledgers.window_bytes(),
            "state_keys": memory.state_keys,
        }),
    );
    let levels: Map<String, Value> = crate::logs::control()
        .levels()
        .into_iter()
        .map(|(n, s)| (n, Value::from(s)))
        .collect();
    app.insert(
        "logs".into(),
        serde_json::json!({"base": crate::logs::control().base().name(), "partitions": levels}),
    );
    let ports: Vec<Value> = services
        .config
        .ports
        .iter()
        .map(|p| serde_json::json!({"port": p.port, "protocols": p.protocols}))
        .collect();
    app.insert(
        "server".into(),
        serde_json::json!({"ports": ports, "uptime": services.started.elapsed().as_secs()}),
    );
    let streams: Map<String, Value> = node
        .subscriptions
        .counts_by_stream()
        .into_iter()
        .map(|(s, n)| (s.to_owned(), Value::from(n)))
        .collect();
    app.insert(
        "subscriptions".into(),
        serde_json::json!({"sessions": node.subscriptions.len(), "streams": streams}),
    );
    app
}
