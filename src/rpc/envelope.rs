//! rippled's reply envelopes (`ServerHandler.cpp`), for WebSocket and HTTP.
//!
//! rippled's JSON objects are ordered maps, so its replies list keys alphabetically; we sort
//! the envelope and the top level of `result` the same way.

use crate::rpc::mask::{masked, masked_raw};
use crate::rpc::{parse_api_version, HandlerResult, Params};
use serde_json::{Map, Value};
use std::fmt::Write as _;

/// Members of a request that rippled copies to the top level of the reply.
const ECHOED: [&str; 3] = ["id", "jsonrpc", "ripplerpc"];

/// `{"type":"error","error":"jsonInvalid","value":"<raw text>"}` for a WebSocket message that
/// is too large, not JSON, or not an object (the text withheld if it names a secret field).
pub fn ws_json_invalid(raw: &str) -> Value {
    let mut out = Map::new();
    out.insert("error".into(), Value::from("jsonInvalid"));
    out.insert("type".into(), Value::from("error"));
    out.insert("value".into(), Value::from(masked_raw(raw)));
    Value::Object(out)
}

/// A WebSocket request's method name and API version, or the `missingCommand` /
/// `invalid_API_version` reply (rippled's bare shape: no `error_code`, no `error_message`).
pub fn ws_precheck(request: &Params) -> Result<(String, u32), Value> {
    let api = parse_api_version(request.get("api_version"));
    let command = request.get("command");
    let method = request.get("method");
    let name = match (command, method) {
        (Some(Value::String(c)), Some(Value::String(m))) if c == m => Some(c),
        (Some(Value::String(c)), None) => Some(c),
        (None, Some(Value::String(m))) => Some(m),
        _ => None,
    };
    match (api, name) {
        (Some(api), Some(name)) => Ok((name.clone(), api)),
        (api, _) => {
            let token = if api.is_none() {
                "invalid_API_version"
            } else {
                "missingCommand"
            };
            let mut out = Map::new();
            out.insert("error".into(), Value::from(token));
            // rippled echoes this request unmasked; secrets never leave ledgerd, so we mask.
            out.insert("request".into(), Value::Object(masked(request)));
            out.insert("status".into(), Value::from("error"));
            out.insert("type".into(), Value::from("response"));
            echo_ws(request, &mut out);
            out.sort_keys();
            Err(Value::Object(out))
        }
    }
}

/// A JSON-RPC request's method name and parameters (`params[0]`), or the plain-text
/// refusal rippled's `processRequest` answers with HTTP 400.
pub fn http_precheck(request: &Params) -> Result<(String, Params), &'static str> {
    let method = match request.get("method") {
        None | Some(Value::Null) => return Err("Null method"),
        Some(Value::String(s)) if s.is_empty() => return Err("method is empty"),
        Some(Value::String(s)) => s.clone(),
        Some(_) => return Err("method is not string"),
    };
    let params: Params = match request.get("params") {
        None | Some(Value::Null) => Params::new(),
        Some(Value::Array(a)) if a.len() == 1 => match &a[0] {
            Value::Object(o) => o.clone(),
            Value::Null => Params::new(),
            _ => return Err("params unparsable"),
        },
        Some(_) => return Err("params unparsable"),
    };
    if params.get("ripplerpc").is_some_and(|v| !v.is_string()) {
        return Err("ripplerpc is not a string");
    }
    Ok((method, params))
}

fn echo_ws(request: &Params, out: &mut Map<String, Value>) {
    for key in ECHOED.iter().chain(std::iter::once(&"api_version")) {
        if let Some(v) = request.get(*key) {
            out.insert((*key).into(), v.clone());
        }
    }
}

/// The WebSocket reply to `request`: success `{id, result, status, type}`, or the error
/// hoisted to the top level with the masked request.
pub fn ws_reply(request: &Params, outcome: HandlerResult) -> Value {
    let mut out = match outcome {
        Ok(mut result) => {
            result.sort_keys();
            let mut out = Map::new();
            out.insert("result".into(), Value::Object(result));
            out.insert("status".into(), Value::from("success"));
            out
        }
        Err(e) => {
            let mut out = e.into_object();
            out.insert("status".into(), Value::from("error"));
            out.insert("request".into(), Value::Object(masked(request)));
            out
        }
    };
    echo_ws(request, &mut out);
    out.insert("type".into(), Value::from("response"));
    out.sort_keys();
    Value::Object(out)
}

/// [`ws_reply`] as text, with rippled's top-level `warning: "load"` when `warn`. A success is
/// written straight out (the envelope's keys in their sorted order) instead of being built as
/// a map and then serialized: this is the path every signed claim takes.
pub fn ws_reply_text(request: &Params, outcome: HandlerResult, warn: bool) -> String {
    ws_reply_text_sized(request, outcome, |_| warn)
}

/// [`ws_reply_text`], with the warning decided by `warn_for` from the size of the reply
/// (without the warning), once the reply has been written: the transports charge a request
/// by its reply's size. `warning` is the envelope's last key, so a success is still written
/// once; an error reply, always small, is written again with the warning.
pub fn ws_reply_text_sized(
    request: &Params,
    outcome: HandlerResult,
    warn_for: impl FnOnce(usize) -> bool,
) -> String {
    let mut result = match outcome {
        Ok(result) => result,
        Err(e) => {
            let mut reply = ws_reply(request, Err(e));
            let text = reply.to_string();
            if !warn_for(text.len()) {
                return text;
            }
            if let Some(o) = reply.as_object_mut() {
                o.insert("warning".into(), Value::from("load"));
                o.sort_keys();
            }
            return reply.to_string();
        }
    };
    result.sort_keys();
    let mut out = String::with_capacity(192);
    out.push('{');
    // Sorted: api_version, id, jsonrpc, result, ripplerpc, status, type, warning.
    let member = |out: &mut String, key: &str, value: &Value| {
        let _ = write!(out, "\"{key}\":{value},");
    };
    for key in ["api_version", "id", "jsonrpc"] {
        if let Some(v) = request.get(key) {
            member(&mut out, key, v);
        }
    }
    // serde_json's writer, not `Display` (which goes through `fmt::Write` byte runs).
    out.push_str("\"result\":");
    // Spliced rows (account_tx) are copied in place.
    let mut bytes = out.into_bytes();
    bytes.reserve(crate::rpc::raw::map_size_hint(&result) + 64);
    crate::rpc::raw::write_map(&mut bytes, &result);
    let mut out = crate::rpc::raw::into_string(bytes);
    out.push(',');
    if let Some(v) = request.get("ripplerpc") {
        member(&mut out, "ripplerpc", v);
    }
    out.push_str("\"status\":\"success\",\"type\":\"response\"");
    if warn_for(out.len() + 1) {
        out.push_str(",\"warning\":\"load\"");
    }
    out.push('}');
    out
}

/// The HTTP JSON-RPC reply body object for `params` (which already holds `command`):
/// `{"result": {..., "status"}}` plus `id`, `jsonrpc`, `ripplerpc` copied from `params`.
pub fn http_reply(params: &Params, outcome: HandlerResult) -> Value {
    let mut result = match outcome {
        Ok(mut result) => {
            result.insert("status".into(), Value::from("success"));
            result
        }
        Err(e) => {
            let mut result = e.into_object();
            result.insert("request".into(), Value::Object(masked(params)));
            result.insert("status".into(), Value::from("error"));
            result
        }
    };
    result.sort_keys();
    let mut out = Map::new();
    out.insert("result".into(), Value::Object(result));
    for key in ECHOED {
        if let Some(v) = params.get(key) {
            out.insert(key.into(), v.clone());
        }
    }
    out.sort_keys();
    Value::Object(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rpc::error::{ErrorCode, RpcError};
    use serde_json::json;

    fn obj(v: Value) -> Params {
        match v {
            Value::Object(o) => o,
            _ => Map::new(),
        }
    }

    #[test]
    fn ws_success_echoes_id_and_api_version() {
        let req = obj(json!({"id": {"any": [1]}, "command": "ping", "api_version": 2}));
        let r = ws_reply(&req, Ok(Map::new()));
        assert_eq!(
            r,
            json!({"api_version": 2, "id": {"any": [1]}, "result": {}, "status": "success",
                   "type": "response"})
        );
        let req = obj(json!({"command": "ping"}));
        assert!(ws_reply(&req, Ok(Map::new())).get("id").is_none());
    }

    #[test]
    fn ws_reply_text_is_the_sorted_envelope() {
        let requests = [
            json!({"command": "ping"}),
            json!({"id": {"any": [1, "x"]}, "command": "ping", "api_version": 2}),
            json!({"id": "a\"b", "jsonrpc": "2.0", "ripplerpc": "2.0", "command": "ping"}),
            json!({"ripplerpc": 2, "api_version": 1, "id": null, "command": "ping"}),
        ];
        let mut result = Map::new();
        result.insert("z".into(), json!([1, {"b": 2, "a": 1}]));
        result.insert("signature".into(), json!("AB\u{0001}"));
        result.insert("a".into(), json!(null));
        for request in requests.iter().map(|r| obj(r.clone())) {
            for warn in [false, true] {
                let text = ws_reply_text(&request, Ok(result.clone()), warn);
                let mut expected = ws_reply(&request, Ok(result.clone()));
                if warn {
                    let o = expected.as_object_mut().unwrap();
                    o.insert("warning".into(), json!("load"));
                    o.sort_keys();
                }
                assert_eq!(text, expected.to_string(), "{request:?} warn={warn}");
                let e = ws_reply_text(&request, Err(RpcError::new(ErrorCode::BadSeed)), warn);
                let parsed: Value = serde_json::from_str(&e).unwrap();
                assert_eq!(parsed["error"], "badSeed");
                assert_eq!(parsed.get("warning").is_some(), warn);
            }
        }
    }

    #[test]
    fn ws_errors_are_hoisted_and_masked() {
        let req = obj(json!({"id": 7, "command": "channel_authorize", "secret": "sEcReT"}));
        let mut fields = Map::new();
        fields.insert("validated".into(), json!(false));
        let e = RpcError::new(ErrorCode::BadSeed).with_fields(fields);
        let r = ws_reply(&req, Err(e));
        assert_eq!(r["error"], "badSeed");
        assert_eq!(r["error_code"], 44);
        assert_eq!(r["error_message"], "Disallowed seed.");
        assert_eq!(r["validated"], false);
        assert_eq!(r["status"], "error");
        assert_eq!(r["type"], "response");
        assert_eq!(r["id"], 7);
        assert_eq!(r["request"]["secret"], "<masked>");
        assert!(r.get("result").is_none());
        assert!(!r.to_string().contains("sEcReT"));
    }

    #[test]
    fn ws_precheck_shapes() {
        let missing = ws_precheck(&obj(json!({"id": 1}))).unwrap_err();
        assert_eq!(
            missing,
            json!({"error": "missingCommand", "id": 1, "request": {"id": 1},
                   "status": "error", "type": "response"})
        );
        let both = ws_precheck(&obj(json!({"command": "a", "method": "b"}))).unwrap_err();
        assert_eq!(both["error"], "missingCommand");
        let nonstring = ws_precheck(&obj(json!({"command": 5}))).unwrap_err();
        assert_eq!(nonstring["error"], "missingCommand");
        let api = ws_precheck(&obj(json!({"command": "ping", "api_version": 9}))).unwrap_err();
        assert_eq!(api["error"], "invalid_API_version");
        assert_eq!(api["api_version"], 9);
        assert!(api.get("error_code").is_none());
        assert_eq!(
            ws_precheck(&obj(json!({"method": "ping", "api_version": 2}))).unwrap(),
            ("ping".to_owned(), 2)
        );
    }

    #[test]
    fn http_shapes() {
        let p = obj(json!({"command": "ping", "id": 3}));
        assert_eq!(
            http_reply(&p, Ok(Map::new())),
            json!({"id": 3, "result": {"status": "success"}})
        );
        let p = obj(json!({"command": "x", "seed": "s"}));
        let r = http_reply(&p, Err(RpcError::new(ErrorCode::UnknownCommand)));
        assert_eq!(r["result"]["error"], "unknownCmd");
        assert_eq!(r["result"]["status"], "error");
        assert_eq!(
            r["result"]["request"],
            json!({"command": "x", "seed": "<masked>"})
        );
    }

    #[test]
    fn json_invalid_shape() {
        assert_eq!(
            ws_json_invalid("{oops"),
            json!({"error": "jsonInvalid", "type": "error", "value": "{oops"})
        );
    }
}
