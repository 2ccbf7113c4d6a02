//! The command-line client's transport: one JSON-RPC POST over HTTP/1.0, as rippled's
//! `rpcClient` sends it, and the reply turned into what the command prints and its exit code.

use crate::limits::{CLI_REPLY_BYTES_MAX, CLI_TIMEOUT_SECS};
use crate::rpc::error::{ErrorCode, RpcError};
use crate::rpc::Params;
use serde_json::{Map, Value};
use std::time::Duration;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

/// What the command prints, and its exit status.
pub struct Outcome {
    /// The JSON to print.
    pub output: Value,
    /// 0 on success; the error code (or 1) on error.
    pub exit_code: i32,
}

/// A local error in rippled's command-line shape, with `rpc` = what was typed (secrets
/// masked).
pub fn local_error(error: RpcError, method: &str, shown_args: Vec<Value>) -> Outcome {
    let code = error.code().map(|c| c.code()).unwrap_or(1);
    let mut out = error.into_object();
    let mut rpc = Map::new();
    rpc.insert("method".into(), Value::from(method));
    rpc.insert("params".into(), Value::Array(shown_args));
    out.insert("rpc".into(), Value::Object(rpc));
    out.insert("status".into(), Value::from("error"));
    out.sort_keys();
    Outcome {
        output: Value::Object(out),
        exit_code: exit_code_for(code),
    }
}

fn exit_code_for(code: i32) -> i32 {
    if (1..=255).contains(&code) {
        code
    } else {
        1
    }
}

/// Send `{method, params:[request], id:1}` to `server` and interpret the reply.
pub async fn call(server: &str, method: &str, request: Params, shown_args: Vec<Value>) -> Outcome {
    let mut body = Map::new();
    body.insert("method".into(), Value::from(method));
    body.insert("params".into(), Value::Array(vec![Value::Object(request)]));
    body.insert("id".into(), Value::from(1));
    let mut body = Value::Object(body).to_string();
    body.push('\n');
    let timeout = Duration::from_secs(CLI_TIMEOUT_SECS);
    let reply = match tokio::time::timeout(timeout, post(server, &body)).await {
        Ok(Ok(r)) => r,
        Ok(Err(e)) => {
            let err = RpcError::with_message(ErrorCode::JsonRpc, format!("{server}: {e}"));
            return local_error(err, method, shown_args);
        }
        Err(_) => {
            let err = RpcError::with_message(ErrorCode::JsonRpc, "timed out");
            return local_error(err, method, shown_args);
        }
    };
    let (status, text) = reply;
    if text.trim().is_empty() {
        let mut err = RpcError::new(ErrorCode::Internal).into_object();
        err.insert(
            "error_what".into(),
            Value::from("no response from server. Please ensure that the ledgerd server is running in another process."),
        );
        return Outcome {
            output: Value::Object(err),
            exit_code: exit_code_for(73),
        };
    }
    match serde_json::from_str::<Value>(text.trim_end()) {
        Ok(Value::Object(reply)) if status == 200 => {
            let failed = reply
                .get("result")
                .and_then(|r| r.get("status"))
                .and_then(Value::as_str)
                == Some("error");
            let code = reply
                .get("result")
                .and_then(|r| r.get("error_code"))
                .and_then(Value::as_i64)
                .unwrap_or(1) as i32;
            let mut printed = Map::new();
            if let Some(result) = reply.get("result") {
                printed.insert("result".into(), result.clone());
            }
            Outcome {
                output: Value::Object(printed),
                exit_code: if failed { exit_code_for(code) } else { 0 },
            }
        }
        _ => {
            // A transport-level refusal: plain text such as `Forbidden` or `Unable to parse
            // request: ...`.
            let code = if status == 400 {
                ErrorCode::InvalidParams
            } else {
                ErrorCode::JsonRpc
            };
            let mut err = RpcError::new(code).into_object();
            err.insert("error_what".into(), Value::from(text.trim_end()));
            err.insert("http_status".into(), Value::from(status));
            let mut out = local_error(RpcError::new(code), method, shown_args);
            if let Value::Object(o) = &mut out.output {
                o.extend(err);
                o.sort_keys();
            }
            out
        }
    }
}

/// POST `body` to `server`; returns the status and the body text.
async fn post(server: &str, body: &str) -> std::io::Result<(u16, String)> {
    let mut stream = TcpStream::connect(server).await?;
    let head = format!(
        "POST / HTTP/1.0\r\nHost: {server}\r\nUser-Agent: ledgerd-json-rpc/v1\r\n\
         Content-Type: application/json\r\nAccept: application/json\r\n\
         Content-Length: {}\r\n\r\n",
        body.len()
    );
    stream.write_all(head.as_bytes()).await?;
    stream.write_all(body.as_bytes()).await?;
    stream.flush().await?;
    let mut buf = Vec::new();
    let mut chunk = [0u8; 16 * 1024];
    let (header_end, content_length) = loop {
        let n = stream.read(&mut chunk).await?;
        if n == 0 {
            break parse_head(&buf).unwrap_or((buf.len(), Some(0)));
        }
        buf.extend_from_slice(&chunk[..n]);
        if buf.len() > CLI_REPLY_BYTES_MAX {
            return Err(std::io::Error::other("reply too large"));
        }
        if let Some(parsed) = parse_head(&buf) {
            break parsed;
        }
    };
    loop {
        let have = buf.len().saturating_sub(header_end);
        if content_length.is_some_and(|l| have >= l) {
            break;
        }
        let n = stream.read(&mut chunk).await?;
        if n == 0 {
            break;
        }
        buf.extend_from_slice(&chunk[..n]);
        if buf.len() > CLI_REPLY_BYTES_MAX {
            return Err(std::io::Error::other("reply too large"));
        }
    }
    let status = std::str::from_utf8(&buf[..header_end.min(buf.len())])
        .ok()
        .and_then(|h| h.split_whitespace().nth(1))
        .and_then(|s| s.parse::<u16>().ok())
        .unwrap_or(0);
    let end = match content_length {
        Some(l) => (header_end + l).min(buf.len()),
        None => buf.len(),
    };
    let text = String::from_utf8_lossy(&buf[header_end.min(end)..end]).into_owned();
    Ok((status, text))
}

/// The end of the header block and the Content-Length, once the head is complete.
fn parse_head(buf: &[u8]) -> Option<(usize, Option<usize>)> {
    let end = buf.windows(4).position(|w| w == b"\r\n\r\n")? + 4;
    let head = String::from_utf8_lossy(&buf[..end]);
    let length = head.lines().find_map(|line| {
        let (name, value) = line.split_once(':')?;
        name.trim()
            .eq_ignore_ascii_case("content-length")
            .then(|| value.trim().parse().ok())?
    });
    Some((end, length))
}
