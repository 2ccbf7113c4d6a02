//! A lazy fork's upstream reads ([`EntrySource`]): `ledger_entry` by index, binary, pinned
//! to the forked ledger's hash, over one blocking WebSocket connection (std sockets and
//! tungstenite, so it works from any thread: the sequencer's, a handler's, the CPU pool's).
//! Every socket operation is bounded by [`FORK_CONNECT_TIMEOUT_SECS`] and
//! [`FORK_REQUEST_TIMEOUT_SECS`]; a failed read drops the connection and the next read
//! connects again. Reads are serialized on the connection.

use crate::ledger::entry_key;
use crate::ledger::flags::lt;
use crate::ledger::state::EntrySource;
use crate::limits::{FORK_CONNECT_TIMEOUT_SECS, FORK_REQUEST_TIMEOUT_SECS};
use crate::protocol::codec;
use crate::protocol::st::StObject;
use crate::protocol::types::Hash256;
use parking_lot::Mutex;
use serde_json::{json, Value};
use std::net::{TcpStream, ToSocketAddrs};
use std::time::Duration;
use tokio_tungstenite::tungstenite::{self, Message, WebSocket};

/// The upstream of a lazy fork, read by key at one ledger.
pub struct UpstreamEntries {
    url: String,
    ledger_hash: Hash256,
    socket: Mutex<Option<(WebSocket<TcpStream>, u64)>>,
}

impl UpstreamEntries {
    /// Reads of ledger `ledger_hash` from the upstream at `url` (`ws://HOST:PORT`).
    pub fn new(url: &str, ledger_hash: Hash256) -> UpstreamEntries {
        UpstreamEntries {
            url: url.to_string(),
            ledger_hash,
            socket: Mutex::new(None),
        }
    }

    fn connect(&self) -> Result<WebSocket<TcpStream>, String> {
        let host = self
            .url
            .strip_prefix("ws://")
            .and_then(|rest| rest.split('/').next())
            .ok_or_else(|| format!("{}: not a ws://HOST:PORT URL", self.url))?;
        let addr = host
            .to_socket_addrs()
            .map_err(|e| e.to_string())?
            .next()
            .ok_or_else(|| format!("{host}: no address"))?;
        let stream =
            TcpStream::connect_timeout(&addr, Duration::from_secs(FORK_CONNECT_TIMEOUT_SECS))
                .map_err(|e| e.to_string())?;
        let limit = Some(Duration::from_secs(FORK_REQUEST_TIMEOUT_SECS));
        stream.set_read_timeout(limit).map_err(|e| e.to_string())?;
        stream.set_write_timeout(limit).map_err(|e| e.to_string())?;
        let (socket, _) =
            tungstenite::client(self.url.as_str(), stream).map_err(|e| e.to_string())?;
        Ok(socket)
    }

    /// One `ledger_entry` request and its reply, on `socket`.
    fn exchange(
        socket: &mut WebSocket<TcpStream>,
        request: &Value,
        id: u64,
    ) -> Result<Value, String> {
        socket
            .send(Message::Text(request.to_string().into()))
            .map_err(|e| e.to_string())?;
        loop {
            let Message::Text(text) = socket.read().map_err(|e| e.to_string())? else {
                continue;
            };
            let reply: Value = serde_json::from_str(text.as_str()).map_err(|e| e.to_string())?;
            if reply["id"].as_u64() == Some(id) {
                return Ok(reply);
            }
        }
    }

    fn request(&self, key: &Hash256) -> Result<Value, String> {
        off_the_runtime(|| self.request_now(key))
    }

    fn request_now(&self, key: &Hash256) -> Result<Value, String> {
        let mut slot = self.socket.lock();
        if slot.is_none() {
            *slot = Some((self.connect()?, 1));
        }
        let Some((socket, next_id)) = slot.as_mut() else {
            return Err("no connection".into());
        };
        let id = *next_id;
        *next_id += 1;
        let request = json!({"id": id, "command": "ledger_entry", "index": key.to_hex(),
            "binary": true, "ledger_hash": self.ledger_hash.to_hex()});
        let reply = Self::exchange(socket, &request, id);
        if reply.is_err() {
            *slot = None;
        }
        reply
    }
}

/// Runs a blocking upstream read. On a worker of the multi-threaded runtime the worker
/// first hands its other duties (its queued tasks, the I/O driver) to another thread, so
/// the server's other connections go on meanwhile, and an upstream in this same process
/// (as in the tests) can answer.
fn off_the_runtime<T>(read: impl FnOnce() -> T) -> T {
    match tokio::runtime::Handle::try_current() {
        Ok(h) if h.runtime_flavor() == tokio::runtime::RuntimeFlavor::MultiThread => {
            tokio::task::block_in_place(read)
        }
        _ => read(),
    }
}

/// The entry in a binary `ledger_entry` reply for `key`: `Ok(None)` for `entryNotFound`;
/// an error for a reply that is not the entry at `key` (another index, bytes that do not
/// decode, an entry whose own fields give another key: [`entry_key::check`]) or for a
/// DirectoryNode (every directory was copied when the fork started).
fn entry_of(reply: &Value, key: &Hash256) -> Result<Option<StObject>, String> {
    let o = if reply["result"].is_object() {
        &reply["result"]
    } else {
        reply
    };
    if reply["status"] == "error" || o["status"] == "error" {
        let error = o["error"].as_str().unwrap_or("unknown");
        return match error {
            "entryNotFound" => Ok(None),
            _ => Err(format!("ledger_entry: {error}")),
        };
    }
    let index = o["index"].as_str().and_then(Hash256::from_hex);
    if index != Some(*key) {
        return Err(format!(
            "ledger_entry: the reply is for index {}, not the key asked",
            o["index"]
        ));
    }
    let bytes = o["node_binary"]
        .as_str()
        .and_then(|h| hex::decode(h).ok())
        .ok_or("ledger_entry: no node_binary")?;
    let entry = codec::decode(&bytes).map_err(|e| format!("ledger_entry: {e}"))?;
    entry_key::check(key, &entry).map_err(|e| format!("ledger_entry: {e}"))?;
    if entry.get_u16("LedgerEntryType") == Some(lt::DIR_NODE) {
        return Err("ledger_entry: a directory the fork did not copy at start".into());
    }
    Ok(Some(entry))
}

impl EntrySource for UpstreamEntries {
    fn fetch(&self, key: &Hash256) -> Result<Option<StObject>, String> {
        let got = self.request(key).and_then(|r| entry_of(&r, key));
        if let Err(e) = &got {
            tracing::warn!(upstream = %self.url, key = %key.to_hex(), error = %e,
                "fork: the upstream's entry cannot be used; the entry is unknown");
        }
        got
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fee_settings() -> String {
        let mut o = StObject::new();
        o.set(
            crate::ledger::sf::sf().ledger_entry_type,
            crate::protocol::st::StValue::UInt16(lt::FEE_SETTINGS),
        );
        hex::encode(codec::encode(&o))
    }

    #[test]
    fn replies_become_entries_absences_or_errors() {
        let key = Hash256::ZERO;
        let missing = json!({"id": 1, "status": "error", "error": "entryNotFound"});
        assert_eq!(entry_of(&missing, &key), Ok(None));
        let other = json!({"id": 1, "status": "error", "error": "lgrNotFound"});
        assert!(entry_of(&other, &key).unwrap_err().contains("lgrNotFound"));
        let bad = json!({"id": 1, "status": "success",
            "result": {"node_binary": "FF", "index": key.to_hex()}});
        assert!(entry_of(&bad, &key).is_err());
    }

    #[test]
    fn an_entry_not_at_the_key_asked_is_an_error() {
        let fees = crate::ledger::keylet::fees();
        let reply = |index: &Hash256| {
            json!({"id": 1, "status": "success",
                "result": {"node_binary": fee_settings(), "index": index.to_hex()}})
        };
        assert!(entry_of(&reply(&fees), &fees).unwrap().is_some());
        let alice = crate::ledger::keylet::account(&crate::protocol::types::AccountId([1; 20]));
        let e = entry_of(&reply(&fees), &alice).unwrap_err();
        assert!(e.contains("not the key asked"), "{e}");
        let e = entry_of(&reply(&alice), &alice).unwrap_err();
        assert!(e.contains("FeeSettings whose fields give"), "{e}");
        let unindexed = json!({"id": 1, "status": "success",
            "result": {"node_binary": fee_settings()}});
        assert!(entry_of(&unindexed, &fees).is_err());
    }

    #[test]
    fn an_unreachable_upstream_is_an_error_not_an_absence() {
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .and_then(|l| l.local_addr())
            .map(|a| a.port())
            .unwrap_or(1);
        let up = UpstreamEntries::new(&format!("ws://127.0.0.1:{port}/"), Hash256::ZERO);
        assert!(up.fetch(&Hash256::ZERO).is_err());
    }
}
