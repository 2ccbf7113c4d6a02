//! Who listens to what: the stream subscriptions of WebSocket sessions, and the fan-out
//! of ledger and transaction messages to them.
//!
//! Messages go through each session's bounded outbound queue (the port's
//! `send_queue_limit`); a session that does not read overflows it, is disconnected by the
//! transport, and is dropped from here the next time a message finds it gone. Rendering
//! happens once per API version per message, only when someone listens.

use crate::ledger::view::ReadView;
use crate::ledgers::{ClosedLedger, LedgerSnapshot, TxEntry};
use crate::protocol::st::{StObject, StValue};
use crate::protocol::types::{AccountId, Issue};
use crate::render::{
    ledger::ledger_closed, stream::owner_funds, stream::transaction_message, stream::TxSource,
};
use parking_lot::RwLock;
use serde_json::Value;
use std::collections::BTreeSet;
use std::collections::{HashMap, HashSet};
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::Arc;

/// Where a session's messages go (the WebSocket outbound queue).
pub trait Sink: Send + Sync {
    /// Queue `text`; `false` when the session is gone or was just dropped for not reading.
    fn send(&self, text: String) -> bool;
}

/// One connection that can hold subscriptions.
pub struct Session {
    id: u64,
    sink: Arc<dyn Sink>,
}

static NEXT_SESSION: AtomicU64 = AtomicU64::new(1);

impl Session {
    /// A new session sending through `sink`.
    pub fn new(sink: Arc<dyn Sink>) -> Arc<Session> {
        Arc::new(Session {
            id: NEXT_SESSION.fetch_add(1, Ordering::Relaxed),
            sink,
        })
    }

    /// Its id (unique in this process).
    pub fn id(&self) -> u64 {
        self.id
    }
}

/// A stream name `subscribe` accepts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Stream {
    /// `ledger`: ledgerClosed.
    Ledger,
    /// `transactions`: validated transactions.
    Transactions,
    /// `transactions_proposed` (alias `rt_transactions`): proposed and validated.
    TransactionsProposed,
    /// `server`: serverStatus (sent when the load changes; ours never does).
    Server,
    /// `book_changes`: a ledger's `bookChanges` after each close.
    BookChanges,
    /// Accepted; nothing is ever published on them by a standalone server.
    Quiet(&'static str),
}

impl Stream {
    /// The stream called `name`, if `subscribe` knows it.
    pub fn from_name(name: &str) -> Option<Stream> {
        Some(match name {
            "ledger" => Stream::Ledger,
            "transactions" => Stream::Transactions,
            "transactions_proposed" | "rt_transactions" => Stream::TransactionsProposed,
            "server" => Stream::Server,
            "book_changes" => Stream::BookChanges,
            "manifests" => Stream::Quiet("manifests"),
            "validations" => Stream::Quiet("validations"),
            "peer_status" => Stream::Quiet("peer_status"),
            "consensus" => Stream::Quiet("consensus"),
            _ => return None,
        })
    }
}

#[derive(Default)]
struct Sub {
    api_version: u32,
    streams: HashSet<Stream>,
    accounts: HashSet<AccountId>,
    accounts_proposed: HashSet<AccountId>,
    /// Order books followed, as (taker pays, taker gets).
    books: HashSet<(Issue, Issue)>,
}

struct Entry {
    session: Arc<Session>,
    sub: Sub,
}

/// A `path_find` request a session keeps (the RPC layer implements it): updated after
/// each close, its answer sent to the session as a `path_find` message.
pub trait PathUpdate: Send + Sync {
    /// The message for the ledger just closed; None when there is nothing to send (an
    /// update of it is still running). `wanted` turns false once the session dropped or
    /// replaced the request: the update may stop early.
    fn update(&self, ledger: &LedgerSnapshot, wanted: &dyn Fn() -> bool) -> Option<Value>;
    /// The request itself, for its owner's status and close.
    fn as_any(&self) -> &dyn std::any::Any;
}

type PathRequests = HashMap<u64, (Arc<Session>, Arc<dyn PathUpdate>)>;

/// The registry.
#[derive(Default)]
pub struct Subscriptions {
    entries: RwLock<HashMap<u64, Entry>>,
    /// Each session's path_find request (one per session, as rippled's `InfoSub`).
    path_requests: parking_lot::Mutex<PathRequests>,
    /// Sessions subscribed to anything proposed (a cheap test for the sequencer).
    proposed_listeners: AtomicUsize,
}

impl Subscriptions {
    /// An empty registry.
    pub fn new() -> Subscriptions {
        Subscriptions::default()
    }

    fn with_entry(&self, session: &Arc<Session>, api_version: u32, f: impl FnOnce(&mut Sub)) {
        let mut map = self.entries.write();
        let e = map.entry(session.id).or_insert_with(|| Entry {
            session: session.clone(),
            sub: Sub::default(),
        });
        // rippled renders a session's messages for the API version of its last subscribe.
        e.sub.api_version = api_version;
        f(&mut e.sub);
        self.recount(&map);
    }

    fn recount(&self, map: &HashMap<u64, Entry>) {
        let n = map
            .values()
            .filter(|e| {
                e.sub.streams.contains(&Stream::TransactionsProposed)
                    || !e.sub.accounts_proposed.is_empty()
            })
            .count();
        self.proposed_listeners.store(n, Ordering::Relaxed);
    }

    /// Subscribe `session` to `stream`.
    pub fn add_stream(&self, session: &Arc<Session>, api_version: u32, stream: Stream) {
        self.with_entry(session, api_version, |s| {
            s.streams.insert(stream);
        });
    }

    /// Unsubscribe `session` from `stream`.
    pub fn remove_stream(&self, session: &Arc<Session>, stream: Stream) {
        self.edit(session, |s| {
            s.streams.remove(&stream);
        });
    }

    /// Follow `accounts` (validated, or proposed too when `proposed`).
    pub fn add_accounts(
        &self,
        session: &Arc<Session>,
        api_version: u32,
        accounts: &[AccountId],
        proposed: bool,
    ) {
        self.with_entry(session, api_version, |s| {
            let set = if proposed {
                &mut s.accounts_proposed
            } else {
                &mut s.accounts
            };
            set.extend(accounts.iter().copied());
        });
    }

    /// Stop following `accounts`.
    pub fn remove_accounts(&self, session: &Arc<Session>, accounts: &[AccountId], proposed: bool) {
        self.edit(session, |s| {
            let set = if proposed {
                &mut s.accounts_proposed
            } else {
                &mut s.accounts
            };
            for a in accounts {
                set.remove(a);
            }
        });
    }

    /// Follow order books, each given as (taker pays, taker gets).
    pub fn add_books(&self, session: &Arc<Session>, api_version: u32, books: &[(Issue, Issue)]) {
        self.with_entry(session, api_version, |s| {
            s.books.extend(books.iter().copied())
        });
    }

    /// Stop following order books.
    pub fn remove_books(&self, session: &Arc<Session>, books: &[(Issue, Issue)]) {
        self.edit(session, |s| {
            for b in books {
                s.books.remove(b);
            }
        });
    }

    fn edit(&self, session: &Arc<Session>, f: impl FnOnce(&mut Sub)) {
        let mut map = self.entries.write();
        if let Some(e) = map.get_mut(&session.id) {
            f(&mut e.sub);
        }
        self.recount(&map);
    }

    /// Forget everything `session` subscribed to (the connection ended).
    pub fn remove_session(&self, id: u64) {
        let mut map = self.entries.write();
        map.remove(&id);
        self.recount(&map);
        drop(map);
        self.path_requests.lock().remove(&id);
    }

    /// Give `session` its path_find request (None: it has none any more).
    pub fn set_path_request(&self, session: &Arc<Session>, req: Option<Arc<dyn PathUpdate>>) {
        let mut map = self.path_requests.lock();
        match req {
            Some(r) => {
                map.insert(session.id, (session.clone(), r));
            }
            None => {
                map.remove(&session.id);
            }
        }
    }

    /// `session`'s path_find request.
    pub fn path_request(&self, session: &Arc<Session>) -> Option<Arc<dyn PathUpdate>> {
        self.path_requests
            .lock()
            .get(&session.id)
            .map(|(_, r)| r.clone())
    }

    /// True when some session keeps a path_find request.
    pub fn has_path_requests(&self) -> bool {
        !self.path_requests.lock().is_empty()
    }

    /// Update every path_find request against `ledger` and send each its message (rippled
    /// `PathRequests::updateAll`). Blocking: run it off the async threads.
    pub fn update_path_requests(&self, ledger: &LedgerSnapshot) {
        let list: Vec<(u64, Arc<Session>, Arc<dyn PathUpdate>)> = self
            .path_requests
            .lock()
            .iter()
            .map(|(id, (s, r))| (*id, s.clone(), r.clone()))
            .collect();
        for (id, session, req) in list {
            let wanted = || {
                self.path_requests.lock().get(&id).is_some_and(|(_, r)| {
                    Arc::as_ptr(r).cast::<()>() == Arc::as_ptr(&req).cast::<()>()
                })
            };
            let Some(msg) = req.update(ledger, &wanted) else {
                continue;
            };
            if wanted() && !session.sink.send(msg.to_string()) {
                self.remove_session(id);
            }
        }
    }

    /// True when someone listens to proposed transactions.
    pub fn wants_proposed(&self) -> bool {
        self.proposed_listeners.load(Ordering::Relaxed) > 0
    }

    /// Sessions currently registered.
    pub fn len(&self) -> usize {
        self.entries.read().len()
    }

    /// Sessions subscribed to each stream, and to accounts, proposed accounts and books
    /// (`ledgerd_subscribers`).
    pub fn counts_by_stream(&self) -> Vec<(&'static str, usize)> {
        let map = self.entries.read();
        let count = |f: &dyn Fn(&Sub) -> bool| map.values().filter(|e| f(&e.sub)).count();
        vec![
            ("ledger", count(&|s| s.streams.contains(&Stream::Ledger))),
            (
                "transactions",
                count(&|s| s.streams.contains(&Stream::Transactions)),
            ),
            (
                "transactions_proposed",
                count(&|s| s.streams.contains(&Stream::TransactionsProposed)),
            ),
            ("server", count(&|s| s.streams.contains(&Stream::Server))),
            (
                "book_changes",
                count(&|s| s.streams.contains(&Stream::BookChanges)),
            ),
            ("accounts", count(&|s| !s.accounts.is_empty())),
            (
                "accounts_proposed",
                count(&|s| !s.accounts_proposed.is_empty()),
            ),
            ("books", count(&|s| !s.books.is_empty())),
        ]
    }

    /// True when nobody is subscribed to anything.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Send one message to the sessions `pick` selects; `render` is called at most once per
    /// API version. Sessions found gone are dropped.
    fn fan_out(&self, pick: impl Fn(&Sub) -> bool, render: impl Fn(u32) -> Value) {
        let targets: Vec<(Arc<Session>, u32)> = self
            .entries
            .read()
            .values()
            .filter(|e| pick(&e.sub))
            .map(|e| (e.session.clone(), e.sub.api_version))
            .collect();
        if targets.is_empty() {
            return;
        }
        let mut rendered: HashMap<u32, String> = HashMap::new();
        let mut gone = Vec::new();
        for (session, version) in targets {
            let text = rendered
                .entry(version)
                .or_insert_with(|| render(version).to_string())
                .clone();
            if !session.sink.send(text) {
                gone.push(session.id);
            }
        }
        for id in gone {
            self.remove_session(id);
        }
    }

    /// Publish a validated ledger: `ledgerClosed`, then each transaction to the
    /// transaction streams and to the accounts it affected.
    pub fn publish_closed(
        &self,
        closed: &ClosedLedger,
        network_id: u32,
        complete: &str,
        view: Option<&dyn ReadView>,
    ) {
        if self.is_empty() {
            return;
        }
        let msg = ledger_closed(closed, network_id, complete);
        self.fan_out(|s| s.streams.contains(&Stream::Ledger), |_| msg.clone());
        self.fan_out(
            |s| s.streams.contains(&Stream::BookChanges),
            |_| {
                let ledger = crate::render::book_changes::LedgerRef {
                    seq: closed.header.seq,
                    hash: closed.header.hash,
                    close_time: closed.header.close_time,
                    validated: true,
                };
                Value::Object(crate::render::book_changes::book_changes(
                    &closed.txs,
                    &ledger,
                ))
            },
        );
        let source = TxSource::Validated { closed, network_id };
        for entry in &closed.txs {
            self.publish_tx(entry, &source, true, view);
        }
    }

    /// Publish a transaction just applied to the open ledger `seq`.
    pub fn publish_proposed(&self, entry: &TxEntry, seq: u32, view: &dyn ReadView) {
        if !self.wants_proposed() {
            return;
        }
        self.publish_tx(entry, &TxSource::Proposed { seq }, false, Some(view));
    }

    fn publish_tx(
        &self,
        entry: &TxEntry,
        source: &TxSource<'_>,
        validated: bool,
        view: Option<&dyn ReadView>,
    ) {
        let funds = view.and_then(|v| owner_funds(v, &entry.tx));
        let render = |v| transaction_message(entry, source, v, funds.as_deref());
        self.fan_out(
            |s| {
                s.streams.contains(&Stream::TransactionsProposed)
                    || (validated && s.streams.contains(&Stream::Transactions))
            },
            render,
        );
        if validated && entry.ter == crate::engine::Ter::tesSUCCESS {
            // rippled `OrderBookDB::processTxn`: once per session, to followers of a book
            // one of whose offers the transaction created, changed or deleted.
            let books = touched_books(entry);
            if !books.is_empty() {
                self.fan_out(|s| books.iter().any(|b| s.books.contains(b)), render);
            }
        }
        let accounts = affected_accounts(entry, validated);
        self.fan_out(
            |s| {
                accounts.iter().any(|a| {
                    s.accounts_proposed.contains(a) || (validated && s.accounts.contains(a))
                })
            },
            render,
        );
    }
}

/// The order books whose offers a transaction's metadata shows created (NewFields),
/// changed (PreviousFields) or deleted (FinalFields), keyed as a `books` subscription is:
/// rippled looks its listeners up as (the offer's TakerGets issue, its TakerPays issue),
/// so a subscription with `taker_pays` X and `taker_gets` Y hears of offers that sell X
/// for Y — the side opposite to the one book_offers lists for it.
pub fn touched_books(entry: &TxEntry) -> BTreeSet<(Issue, Issue)> {
    let mut out = BTreeSet::new();
    for (f, node) in entry.meta.get_array("AffectedNodes").unwrap_or(&[]) {
        if node.get_u16("LedgerEntryType") != Some(crate::ledger::flags::lt::OFFER) {
            continue;
        }
        let part = match f.name() {
            "ModifiedNode" => "PreviousFields",
            "CreatedNode" => "NewFields",
            "DeletedNode" => "FinalFields",
            _ => continue,
        };
        let Some(fields) = node.get_object(part) else {
            continue;
        };
        if let (Some(pays), Some(gets)) = (
            fields.get_amount("TakerPays"),
            fields.get_amount("TakerGets"),
        ) {
            out.insert((gets.issue(), pays.issue()));
        }
    }
    out
}

/// The accounts a transaction mentions (`STTx::getMentionedAccounts`: account fields and
/// issuers of amounts), plus, when it has metadata, the accounts of the entries it
/// touched (`TxMeta::getAffectedAccounts`).
pub fn affected_accounts(entry: &TxEntry, with_meta: bool) -> BTreeSet<AccountId> {
    let mut out = BTreeSet::new();
    collect_accounts(&entry.tx, &mut out);
    if with_meta {
        collect_accounts(&entry.meta, &mut out);
    }
    out.remove(&AccountId::ZERO);
    out
}

fn collect_accounts(obj: &StObject, out: &mut BTreeSet<AccountId>) {
    for (f, v) in obj.iter() {
        match v {
            StValue::AccountId(a) => {
                out.insert(*a);
            }
            StValue::Amount(a) if !a.is_xrp() => {
                out.insert(a.issue().issuer);
            }
            // rippled's `getAffectedAccounts`: an MPTokenIssuanceID names its issuer.
            StValue::Fixed(b) if f.name() == "MPTokenIssuanceID" => {
                if let Ok(id) = <[u8; 24]>::try_from(b.as_slice()) {
                    out.insert(crate::protocol::mpt::MptId(id).issuer());
                }
            }
            StValue::Object(o) => collect_accounts(o, out),
            StValue::Array(items) => {
                for (_, o) in items {
                    collect_accounts(o, out);
                }
            }
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use parking_lot::Mutex;

    struct Collect(Mutex<Vec<String>>, bool);
    impl Sink for Collect {
        fn send(&self, text: String) -> bool {
            self.0.lock().push(text);
            self.1
        }
    }

    #[test]
    fn gone_sessions_are_dropped_and_counts_follow() {
        let subs = Subscriptions::new();
        let dead = Session::new(Arc::new(Collect(Mutex::new(vec![]), false)));
        let live_sink = Arc::new(Collect(Mutex::new(vec![]), true));
        let live = Session::new(live_sink.clone());
        subs.add_stream(&dead, 1, Stream::Ledger);
        subs.add_stream(&live, 2, Stream::Ledger);
        assert!(!subs.wants_proposed());
        subs.add_accounts(&live, 2, &[AccountId::ONE], true);
        assert!(subs.wants_proposed());
        subs.fan_out(|s| s.streams.contains(&Stream::Ledger), Value::from);
        assert_eq!(subs.len(), 1);
        assert_eq!(live_sink.0.lock().as_slice(), ["2"]);
        subs.remove_accounts(&live, &[AccountId::ONE], true);
        assert!(!subs.wants_proposed());
        subs.remove_session(live.id());
        assert!(subs.is_empty());
    }
}
