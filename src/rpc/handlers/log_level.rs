//! `log_level` (rippled `LogLevel.cpp`): admin. Without `severity`, the levels:
//! `{"levels": {"base": "Info", "node": "Info", ...}}`, the base and every partition
//! (ledgerd's partitions are its layers that log, see [`crate::logs`]). With `severity`
//! (rippled's names, any case: `trace`, `debug`, `info`, `warn`/`warning`, `error`,
//! `fatal`), sets the base and every partition, or with `partition` that one (`base`
//! names the base); the running log's filter changes at once. Answers `{}`.

use crate::logs::{control, Severity};
use crate::rpc::context::Context;
use crate::rpc::error::{ErrorCode, RpcError};
use crate::rpc::params::as_string;
use crate::rpc::{HandlerResult, Params};
use serde_json::{Map, Value};

/// Report or set the log levels.
pub fn handle(_ctx: &Context, params: &Params) -> HandlerResult {
    let logs = control();
    let Some(severity) = params.get("severity") else {
        let mut levels = Map::new();
        levels.insert("base".into(), Value::from(logs.base().name()));
        for (name, severity) in logs.levels() {
            levels.insert(name, Value::from(severity));
        }
        levels.sort_keys();
        let mut out = Map::new();
        out.insert("levels".into(), Value::Object(levels));
        return Ok(out);
    };
    let severity = as_string(severity)
        .and_then(|s| Severity::parse(&s))
        .ok_or_else(|| RpcError::new(ErrorCode::InvalidParams))?;
    match params.get("partition") {
        None => logs.set_base(severity),
        Some(p) => {
            let name = as_string(p).ok_or_else(|| RpcError::invalid_field("partition"))?;
            logs.set_partition(&name, severity).map_err(|_| {
                RpcError::with_message(
                    ErrorCode::InvalidParams,
                    format!(
                        "Too many log partitions (at most {}).",
                        crate::limits::LOG_PARTITIONS_MAX
                    ),
                )
            })?;
        }
    }
    Ok(Map::new())
}
