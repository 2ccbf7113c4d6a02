//! `server_definitions` (rippled `ServerDefinitions.cpp`): the protocol definitions the
//! binary codec uses (the vendored `definitions.json`) with their `hash`; a request whose
//! `hash` equals it gets only the hash back.

use crate::protocol::definitions::defs;
use crate::rpc::context::Context;
use crate::rpc::error::RpcError;
use crate::rpc::params::parse_hash256;
use crate::rpc::{HandlerResult, Params};
use serde_json::{Map, Value};

/// Answer server_definitions.
pub fn handle(_ctx: &Context, params: &Params) -> HandlerResult {
    let json = &defs().json;
    let hash = json.get("hash").and_then(Value::as_str).unwrap_or_default();
    if let Some(v) = params.get("hash") {
        let asked = v
            .as_str()
            .and_then(parse_hash256)
            .ok_or_else(|| RpcError::invalid_field("hash"))?;
        if asked.to_hex().eq_ignore_ascii_case(hash) {
            let mut r = Map::new();
            r.insert("hash".into(), Value::from(hash));
            return Ok(r);
        }
    }
    Ok(json.as_object().cloned().unwrap_or_default())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// xrpld's `Json::FastWriter`: no whitespace, object members by name.
    fn fast_writer(v: &Value) -> String {
        match v {
            Value::Object(o) => {
                let mut members: Vec<(&String, &Value)> = o.iter().collect();
                members.sort_by(|a, b| a.0.cmp(b.0));
                let inner: Vec<String> = members
                    .into_iter()
                    .map(|(k, v)| format!("{}:{}", Value::from(k.as_str()), fast_writer(v)))
                    .collect();
                format!("{{{}}}", inner.join(","))
            }
            Value::Array(a) => {
                let inner: Vec<String> = a.iter().map(fast_writer).collect();
                format!("[{}]", inner.join(","))
            }
            other => other.to_string(),
        }
    }

    #[test]
    fn the_hash_is_xrpld_s_over_the_definitions_served() {
        // `ServerDefinitions`: sha512Half of the definitions written by FastWriter, before
        // `hash` is added. The hash names the content, not a release: it stays true only
        // while it is recomputed with the file.
        let mut json = defs().json.clone();
        let served = json
            .as_object_mut()
            .and_then(|o| o.remove("hash"))
            .expect("hash");
        let text = fast_writer(&json);
        let hash = crate::protocol::hash::sha512_half(&[text.as_bytes()]);
        assert_eq!(Value::from(hash.to_hex()), served);
    }
}
