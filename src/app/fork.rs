//! `serve --fork ws://HOST:PORT [--fork-ledger N] [--fork-lazy]`: start from another
//! server's ledger.
//!
//! The fork first fetches the upstream ledger's header (`ledger`, binary), checked against
//! the hash the upstream names. Then its state, one of two ways:
//! - **whole** (up to `ForkConfig::copy_entries_max` entries,
//!   [`crate::limits::FORK_WHOLE_ENTRIES_MAX`] from the command line): every entry
//!   (`ledger_data`, binary pages pinned to that hash), proven byte for byte against the
//!   header's account hash by [`Ledgers::from_snapshot`]; after start the upstream is
//!   never contacted again.
//! - **lazy** (`--fork-lazy`, or a larger state): every directory up front (`ledger_data`
//!   `type: "directory"`, so order books can be walked in key order), everything else by
//!   key on first use ([`UpstreamEntries`], [`Ledgers::lazy_fork`]).
//!
//! The local chain continues on top (the first open ledger is N+1, its parent the
//! upstream's ledger; fees from its FeeSettings entry); local transactions stay local.
//! Every step is bounded by [`FORK_CONNECT_TIMEOUT_SECS`] or [`FORK_REQUEST_TIMEOUT_SECS`];
//! a failure at start refuses to start with a message naming the upstream. What a lazy fork
//! cannot do: docs/compat.md, "Forking".

use super::fork_source::UpstreamEntries;
use crate::ledger::entry_key;
use crate::ledger::header::LedgerHeader;
use crate::ledgers::{LedgerConfig, Ledgers};
use crate::limits::{
    FORK_CONNECT_TIMEOUT_SECS, FORK_DIRECTORIES_MAX, FORK_PAGE_ENTRIES, FORK_REQUEST_TIMEOUT_SECS,
};
use crate::protocol::codec;
use crate::protocol::st::StObject;
use crate::protocol::types::Hash256;
use crate::server::config::ForkConfig;
use serde_json::{json, Map, Value};
use std::sync::Arc;
use std::time::Duration;

/// The upstream ledger as fetched: its header and every state entry.
pub struct Forked {
    /// The upstream ledger's header (its hash checked).
    pub header: LedgerHeader,
    /// Its state entries: all of them when `whole`, else at least every directory.
    pub entries: Vec<(Hash256, StObject)>,
    /// True when `entries` is the whole state (else the fork is lazy).
    pub whole: bool,
    /// The upstream's `network_id` (server_info), when it reports one.
    pub network_id: Option<u32>,
}

/// The ledgers of a fork of `fork.upstream`: its ledger closed, the next one open.
pub async fn open(fork: &ForkConfig, cfg: LedgerConfig) -> Result<Ledgers, String> {
    let forked = fetch(fork).await?;
    ledgers_of(fork, forked, cfg)
}

/// The fetched ledger as this server's history: a whole state is refused unless its
/// entries hash to the header's account hash; otherwise a lazy fork reading the upstream.
pub fn ledgers_of(fork: &ForkConfig, forked: Forked, cfg: LedgerConfig) -> Result<Ledgers, String> {
    let seq = forked.header.seq;
    let made = if forked.whole {
        Ledgers::from_snapshot(cfg, forked.header, forked.entries)
    } else {
        let source = Arc::new(UpstreamEntries::new(&fork.upstream, forked.header.hash));
        Ledgers::lazy_fork(cfg, forked.header, source, forked.entries)
    };
    made.map_err(|e| format!("fork of {} at ledger {seq}: {e}", fork.upstream))
}

/// Fetches the header and the whole state of the fork ledger from the upstream.
pub async fn fetch(fork: &ForkConfig) -> Result<Forked, String> {
    let mut up = Upstream::connect(&fork.upstream).await?;
    let network_id = up.network_id().await?;
    let header = up.header(fork.ledger).await?;
    let (mut entries, whole) = match fork.lazy {
        true => (Vec::new(), false),
        false => up.state(&header, fork.copy_entries_max).await?,
    };
    if !whole {
        entries.extend(up.directories(&header).await?);
        entries.sort_unstable_by_key(|e| e.0);
        entries.dedup_by_key(|e| e.0);
        keyed_right(&fork.upstream, &entries)?;
    }
    tracing::info!(
        upstream = %fork.upstream,
        ledger = header.seq,
        hash = %header.hash.to_hex(),
        entries = entries.len(),
        whole,
        "forked: {}",
        if whole { "the state is copied and proven against the account hash" }
        else { "lazy: directories copied, other entries read by key on first use" }
    );
    Ok(Forked {
        header,
        entries,
        whole,
        network_id,
    })
}

/// A lazy fork's copied entries are not proven against the account hash: each must be
/// one its key can hold ([`entry_key::check`]), else the fork refuses to start.
fn keyed_right(url: &str, entries: &[(Hash256, StObject)]) -> Result<(), String> {
    for (key, entry) in entries {
        entry_key::check(key, entry).map_err(|e| {
            format!(
                "fork upstream {url}: ledger_data entry {} is not its key's: {e}",
                key.to_hex()
            )
        })?;
    }
    Ok(())
}

/// One WebSocket connection to the upstream, requests answered in turn.
struct Upstream {
    url: String,
    socket: crate::rpc::upstream::Socket,
    next_id: u64,
}

impl Upstream {
    async fn connect(url: &str) -> Result<Upstream, String> {
        if !url.starts_with("ws://") {
            return Err(format!(
                "--fork {url}: the upstream must be a ws://HOST:PORT URL (wss is not supported)"
            ));
        }
        let limit = Duration::from_secs(FORK_CONNECT_TIMEOUT_SECS);
        let socket = match tokio::time::timeout(limit, tokio_tungstenite::connect_async(url)).await
        {
            Ok(Ok((socket, _))) => socket,
            Ok(Err(e)) => return Err(format!("cannot reach the fork upstream {url}: {e}")),
            Err(_) => {
                return Err(format!(
                    "cannot reach the fork upstream {url}: no connection within {FORK_CONNECT_TIMEOUT_SECS} s"
                ))
            }
        };
        Ok(Upstream {
            url: url.to_string(),
            socket,
            next_id: 1,
        })
    }

    /// The `result` of one request, or a message naming the upstream and its error.
    async fn call(&mut self, mut request: Value) -> Result<Map<String, Value>, String> {
        let id = self.next_id;
        self.next_id += 1;
        request["id"] = json!(id);
        let command = request["command"].as_str().unwrap_or("").to_string();
        let limit = Duration::from_secs(FORK_REQUEST_TIMEOUT_SECS);
        let reply = match tokio::time::timeout(limit, self.exchange(&request, id)).await {
            Ok(r) => r?,
            Err(_) => {
                return Err(format!(
                    "fork upstream {}: no answer to {command} within {FORK_REQUEST_TIMEOUT_SECS} s",
                    self.url
                ))
            }
        };
        result_of(&self.url, &command, reply)
    }

    /// Sends `request` and reads messages until the reply with `id` (stream messages are
    /// skipped).
    async fn exchange(&mut self, request: &Value, id: u64) -> Result<Value, String> {
        crate::rpc::upstream::exchange(&mut self.socket, request, &json!(id))
            .await
            .map_err(|e| format!("fork upstream {}: connection lost: {e}", self.url))
    }

    /// The upstream's network id (`server_info`), if it reports one.
    async fn network_id(&mut self) -> Result<Option<u32>, String> {
        let r = self.call(json!({"command": "server_info"})).await?;
        Ok(r.get("info")
            .and_then(|i| i.get("network_id"))
            .and_then(Value::as_u64)
            .and_then(|n| u32::try_from(n).ok()))
    }

    /// The fork ledger's header: `ledger` (binary) at `seq`, else the newest validated.
    async fn header(&mut self, seq: Option<u32>) -> Result<LedgerHeader, String> {
        let index = seq.map_or(json!("validated"), |n| json!(n));
        let r = self
            .call(json!({"command": "ledger", "ledger_index": index, "binary": true}))
            .await?;
        header_of(&self.url, &r)
    }

    /// The ledger's whole state, page by page, and true; or, once it holds more than
    /// `max` entries ([`crate::limits::FORK_WHOLE_ENTRIES_MAX`] from the command line), the entries read
    /// so far and false.
    async fn state(
        &mut self,
        header: &LedgerHeader,
        max: usize,
    ) -> Result<(Vec<(Hash256, StObject)>, bool), String> {
        let mut entries = Vec::new();
        let mut marker: Option<Value> = None;
        loop {
            let page = self.page(header, None, &marker).await?;
            entries.extend(page_entries(&self.url, &page)?);
            if entries.len() > max {
                return Ok((entries, false));
            }
            match self.next_marker(&page, &marker)? {
                Some(m) => marker = Some(m),
                None => return Ok((entries, true)),
            }
        }
    }

    /// Every directory entry of the ledger (`ledger_data` with `type: "directory"`).
    async fn directories(
        &mut self,
        header: &LedgerHeader,
    ) -> Result<Vec<(Hash256, StObject)>, String> {
        let mut entries = Vec::new();
        let mut marker: Option<Value> = None;
        loop {
            let page = self.page(header, Some("directory"), &marker).await?;
            entries.extend(page_entries(&self.url, &page)?);
            if entries.len() > FORK_DIRECTORIES_MAX {
                return Err(format!(
                    "fork upstream {}: ledger {} holds more than {FORK_DIRECTORIES_MAX} directories, \
                     more than a fork copies (FORK_DIRECTORIES_MAX)",
                    self.url, header.seq
                ));
            }
            match self.next_marker(&page, &marker)? {
                Some(m) => marker = Some(m),
                None => return Ok(entries),
            }
        }
    }

    /// One binary `ledger_data` page of the ledger, of entries of `kind` when given.
    async fn page(
        &mut self,
        header: &LedgerHeader,
        kind: Option<&str>,
        marker: &Option<Value>,
    ) -> Result<Map<String, Value>, String> {
        let mut request = json!({"command": "ledger_data", "ledger_hash": header.hash.to_hex(),
            "binary": true, "limit": FORK_PAGE_ENTRIES});
        if let Some(m) = marker {
            request["marker"] = m.clone();
        }
        if let Some(k) = kind {
            request["type"] = json!(k);
        }
        self.call(request).await
    }

    /// The page's marker (None on the last page); a marker repeated is an error.
    fn next_marker(
        &self,
        page: &Map<String, Value>,
        last: &Option<Value>,
    ) -> Result<Option<Value>, String> {
        match page.get("marker") {
            Some(m) if last.as_ref() == Some(m) => Err(format!(
                "fork upstream {}: ledger_data repeated its marker",
                self.url
            )),
            m => Ok(m.cloned()),
        }
    }
}

/// The `result` of a WebSocket reply, or the upstream's error as a message
/// (`lgrNotFound` and the like).
fn result_of(url: &str, command: &str, reply: Value) -> Result<Map<String, Value>, String> {
    let failed = reply["status"] == "error" || reply["result"]["status"] == "error";
    if failed {
        let o = if reply["result"].is_object() {
            &reply["result"]
        } else {
            &reply
        };
        let error = o["error"].as_str().unwrap_or("unknown");
        let message = o["error_message"].as_str().unwrap_or("");
        return Err(format!(
            "fork upstream {url} refused {command}: {error}{}{message}",
            if message.is_empty() { "" } else { ": " }
        ));
    }
    match reply.get("result") {
        Some(Value::Object(o)) => Ok(o.clone()),
        _ => Err(format!(
            "fork upstream {url}: {command} reply has no result"
        )),
    }
}

/// The header in a binary `ledger` reply, its fields hashing to the `ledger_hash` named.
fn header_of(url: &str, r: &Map<String, Value>) -> Result<LedgerHeader, String> {
    let bad = |what: &str| format!("fork upstream {url}: ledger reply {what}");
    let ledger = r.get("ledger").ok_or_else(|| bad("has no ledger"))?;
    if ledger["closed"] != json!(true) {
        return Err(bad("names a ledger that is not closed"));
    }
    let raw = ledger["ledger_data"]
        .as_str()
        .and_then(|h| hex::decode(h).ok())
        .ok_or_else(|| bad("has no binary ledger_data"))?;
    let header = LedgerHeader::from_raw(&raw).ok_or_else(|| bad("has a malformed header"))?;
    let named = r
        .get("ledger_hash")
        .and_then(Value::as_str)
        .and_then(Hash256::from_hex);
    if named != Some(header.hash) {
        return Err(bad("header does not hash to its ledger_hash"));
    }
    Ok(header)
}

/// The entries of one binary `ledger_data` page.
fn page_entries(url: &str, page: &Map<String, Value>) -> Result<Vec<(Hash256, StObject)>, String> {
    let bad = |what: String| format!("fork upstream {url}: ledger_data {what}");
    let state = page
        .get("state")
        .and_then(Value::as_array)
        .ok_or_else(|| bad("reply has no state".into()))?;
    let mut out = Vec::with_capacity(state.len());
    for e in state {
        let key = e["index"]
            .as_str()
            .and_then(Hash256::from_hex)
            .ok_or_else(|| bad(format!("entry without an index: {e}")))?;
        let bytes = e["data"]
            .as_str()
            .and_then(|h| hex::decode(h).ok())
            .ok_or_else(|| bad(format!("entry {} without binary data", key.to_hex())))?;
        let entry = codec::decode(&bytes)
            .map_err(|err| bad(format!("entry {} does not decode: {err}", key.to_hex())))?;
        out.push((key, entry));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_upstream_error_names_the_upstream_and_the_code() {
        let reply = json!({"id": 1, "status": "error", "error": "lgrNotFound",
            "error_message": "ledgerNotFound", "type": "response"});
        let e = result_of("ws://h:1", "ledger", reply).unwrap_err();
        assert!(
            e.contains("ws://h:1") && e.contains("lgrNotFound") && e.contains("ledgerNotFound"),
            "{e}"
        );
    }

    #[test]
    fn a_header_must_hash_to_the_hash_named() {
        let h = LedgerHeader::from_raw(&[7u8; crate::ledger::header::HEADER_RAW_BYTES]).unwrap();
        let mut r = Map::new();
        r.insert(
            "ledger".into(),
            json!({"closed": true, "ledger_data": hex::encode(h.raw())}),
        );
        r.insert("ledger_hash".into(), json!(h.hash.to_hex()));
        assert_eq!(header_of("u", &r).unwrap(), h);
        r.insert("ledger_hash".into(), json!(Hash256::ZERO.to_hex()));
        assert!(header_of("u", &r).unwrap_err().contains("does not hash"));
        r.insert(
            "ledger".into(),
            json!({"closed": false, "ledger_data": hex::encode(h.raw())}),
        );
        assert!(header_of("u", &r).unwrap_err().contains("not closed"));
    }

    #[test]
    fn a_page_entry_must_decode() {
        let mut page = Map::new();
        page.insert(
            "state".into(),
            json!([{"index": Hash256::ZERO.to_hex(), "data": "FF"}]),
        );
        assert!(page_entries("u", &page)
            .unwrap_err()
            .contains("does not decode"));
        page.insert("state".into(), json!([{"data": "11"}]));
        assert!(page_entries("u", &page)
            .unwrap_err()
            .contains("without an index"));
    }
}
