//! Who listens to what: the stream subscriptions of WebSocket sessions, and the fan-out
//! of ledger and transaction messages to them.
//!
//! Messages go through each session's bounded outbound queue (the port's
//! `send_queue_limit`); a session that does not read overflows it, is disconnected by the
//! transport, and is dropped from here the next time a message finds it gone. Rendering
//! happens once per API version per message, only when someone listens, into a shared
//! buffer ([`SharedText`]) that every subscriber's queue holds a reference to: 10,000
//! subscribers cost one rendering and 10,000 reference counts, not 10,000 copies.
//!
//! Sessions are indexed by stream and by account followed, so a message reaches its
//! subscribers without a walk over every session: a transaction touching two accounts
//! looks up those two accounts' followers.

use crate::ledger::view::ReadView;
use crate::ledgers::{ClosedLedger, DecodedTx, LedgerSnapshot, TxEntry};
use crate::protocol::st::{StObject, StValue};
use crate::protocol::types::{AccountId, Hash256, Issue};

/// An order book a `books` subscription follows: (taker pays, taker gets, domain).
pub type BookKey = (Issue, Issue, Option<Hash256>);
use crate::render::consensus::{consensus_phase, validation_received, Phase};
use crate::render::{
    ledger::ledger_closed, stream::owner_funds, stream::transaction_message, stream::TxSource,
};
use parking_lot::RwLock;
use serde_json::Value;
use std::collections::BTreeSet;
use std::collections::{HashMap, HashSet};
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::Arc;

/// A rendered stream message, shared by every session it goes to (immutable UTF-8 bytes
/// behind a reference count: the WebSocket layer's own text type, so the socket writes it
/// without a copy).
pub use tokio_tungstenite::tungstenite::Utf8Bytes as SharedText;

/// Where a session's messages go (the WebSocket outbound queue).
pub trait Sink: Send + Sync {
    /// Queue `text`; `false` when the session is gone or was just dropped for not reading.
    fn send(&self, text: SharedText) -> bool;

    /// Queue several messages at once, in order (one wake-up of the writer for all);
    /// `false` as for [`Sink::send`].
    fn send_all(&self, texts: Vec<SharedText>) -> bool {
        texts.into_iter().all(|text| self.send(text))
    }
}

/// The messages of one publication, gathered by session and then delivered with one
/// [`Sink::send_all`] each: a ledger's transactions reach a subscriber in one write, not
/// one per transaction.
#[derive(Default)]
struct Gathered {
    index: HashMap<u64, usize>,
    sessions: Vec<(Arc<Session>, Vec<SharedText>)>,
}

impl Gathered {
    fn add(&mut self, session: Arc<Session>, text: SharedText) {
        match self.index.entry(session.id) {
            std::collections::hash_map::Entry::Occupied(e) => self.sessions[*e.get()].1.push(text),
            std::collections::hash_map::Entry::Vacant(e) => {
                e.insert(self.sessions.len());
                self.sessions.push((session, vec![text]));
            }
        }
    }
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
    /// `server`: serverStatus, sent when the fee summary changes (fee escalation).
    Server,
    /// `book_changes`: a ledger's `bookChanges` after each close.
    BookChanges,
    /// `validations`: validationReceived, this server's validation of each ledger.
    Validations,
    /// `consensus`: consensusPhase, the phases of each close.
    Consensus,
    /// Accepted; nothing is ever published on them by a server without peers.
    Quiet(&'static str),
}

/// A set of streams, a bit each.
#[derive(Default, Clone, Copy)]
struct StreamSet(u16);

impl StreamSet {
    fn insert(&mut self, stream: Stream) {
        self.0 |= 1 << stream.bit();
    }

    fn remove(&mut self, stream: Stream) {
        self.0 &= !(1 << stream.bit());
    }

    #[cfg(test)]
    fn contains(&self, stream: Stream) -> bool {
        self.0 & (1 << stream.bit()) != 0
    }

    fn iter(self) -> impl Iterator<Item = Stream> {
        Stream::ALL
            .into_iter()
            .filter(move |s| self.0 & (1 << s.bit()) != 0)
    }
}

impl Stream {
    /// Every stream `subscribe` knows.
    const ALL: [Stream; 9] = [
        Stream::Ledger,
        Stream::Transactions,
        Stream::TransactionsProposed,
        Stream::Server,
        Stream::BookChanges,
        Stream::Quiet("manifests"),
        Stream::Validations,
        Stream::Quiet("peer_status"),
        Stream::Consensus,
    ];

    /// Its place in a [`StreamSet`] (its index in [`Stream::ALL`]).
    fn bit(self) -> u32 {
        Stream::ALL.iter().position(|s| *s == self).unwrap_or(15) as u32
    }

    /// The stream called `name`, if `subscribe` knows it.
    pub fn from_name(name: &str) -> Option<Stream> {
        Some(match name {
            "ledger" => Stream::Ledger,
            "transactions" => Stream::Transactions,
            "transactions_proposed" | "rt_transactions" => Stream::TransactionsProposed,
            "server" => Stream::Server,
            "book_changes" => Stream::BookChanges,
            "manifests" => Stream::Quiet("manifests"),
            "validations" => Stream::Validations,
            "peer_status" => Stream::Quiet("peer_status"),
            "consensus" => Stream::Consensus,
            _ => return None,
        })
    }
}

/// What one session follows. Kept small, as there is one per subscribed connection: the
/// streams as bits, the rarer accounts and books in sets that allocate nothing while empty.
#[derive(Default)]
struct Sub {
    api_version: u32,
    streams: StreamSet,
    accounts: BTreeSet<AccountId>,
    accounts_proposed: BTreeSet<AccountId>,
    /// Order books followed.
    books: BTreeSet<BookKey>,
}

struct Entry {
    session: Arc<Session>,
    sub: Sub,
}

/// The sessions and their indexes, kept together under one lock.
#[derive(Default)]
struct Registry {
    entries: HashMap<u64, Entry>,
    /// Session ids by stream.
    streams: HashMap<Stream, HashSet<u64>>,
    /// Session ids by account followed (validated transactions).
    accounts: HashMap<AccountId, HashSet<u64>>,
    /// Session ids by account followed (proposed and validated).
    accounts_proposed: HashMap<AccountId, HashSet<u64>>,
}

/// Add or remove `id` under `key` of an index, dropping keys left without sessions.
fn index<K: std::hash::Hash + Eq>(map: &mut HashMap<K, HashSet<u64>>, key: K, id: u64, on: bool) {
    if on {
        map.entry(key).or_default().insert(id);
    } else if let Some(ids) = map.get_mut(&key) {
        ids.remove(&id);
        if ids.is_empty() {
            map.remove(&key);
        }
    }
}

/// What one edit of a session's subscriptions is.
enum Edit<'a> {
    Stream(Stream, bool),
    Accounts(&'a [AccountId], bool, bool),
    Books(&'a [BookKey], bool),
}

impl Registry {
    /// Apply `edit` to session `id` (creating its entry when adding), keeping the indexes.
    fn apply(&mut self, session: &Arc<Session>, api_version: Option<u32>, edit: Edit<'_>) {
        let id = session.id;
        let e = match api_version {
            Some(v) => {
                let e = self.entries.entry(id).or_insert_with(|| Entry {
                    session: session.clone(),
                    sub: Sub::default(),
                });
                // rippled renders a session's messages for the API version of its last
                // subscribe.
                e.sub.api_version = v;
                e
            }
            None => match self.entries.get_mut(&id) {
                Some(e) => e,
                None => return,
            },
        };
        match edit {
            Edit::Stream(stream, on) => {
                if on {
                    e.sub.streams.insert(stream);
                } else {
                    e.sub.streams.remove(stream);
                }
                index(&mut self.streams, stream, id, on);
            }
            Edit::Accounts(accounts, proposed, on) => {
                let (set, map) = if proposed {
                    (&mut e.sub.accounts_proposed, &mut self.accounts_proposed)
                } else {
                    (&mut e.sub.accounts, &mut self.accounts)
                };
                for a in accounts {
                    if on {
                        set.insert(*a);
                    } else {
                        set.remove(a);
                    }
                    index(map, *a, id, on);
                }
            }
            Edit::Books(books, on) => {
                for b in books {
                    if on {
                        e.sub.books.insert(*b);
                    } else {
                        e.sub.books.remove(b);
                    }
                }
            }
        }
    }

    /// Forget session `id` and its index entries.
    fn remove(&mut self, id: u64) {
        let Some(e) = self.entries.remove(&id) else {
            return;
        };
        for s in e.sub.streams.iter() {
            index(&mut self.streams, s, id, false);
        }
        for a in e.sub.accounts {
            index(&mut self.accounts, a, id, false);
        }
        for a in e.sub.accounts_proposed {
            index(&mut self.accounts_proposed, a, id, false);
        }
    }

    /// The sessions of `ids` (each once, in id order), with their API versions.
    fn targets<'a>(&self, ids: impl Iterator<Item = &'a u64>) -> Vec<(Arc<Session>, u32)> {
        let mut ids: Vec<u64> = ids.copied().collect();
        ids.sort_unstable();
        ids.dedup();
        ids.iter()
            .filter_map(|id| self.entries.get(id))
            .map(|e| (e.session.clone(), e.sub.api_version))
            .collect()
    }

    /// The sessions subscribed to `stream`.
    fn of_stream(&self, stream: Stream) -> impl Iterator<Item = &u64> {
        self.streams.get(&stream).into_iter().flatten()
    }

    /// The sessions following any of `accounts` (validated: also the `accounts` followers).
    fn of_accounts<'a>(
        &'a self,
        accounts: &'a BTreeSet<AccountId>,
        validated: bool,
    ) -> impl Iterator<Item = &'a u64> {
        accounts.iter().flat_map(move |a| {
            let proposed = self.accounts_proposed.get(a).into_iter().flatten();
            let plain = validated
                .then(|| self.accounts.get(a))
                .flatten()
                .into_iter()
                .flatten();
            proposed.chain(plain)
        })
    }
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

/// A message's renderings so far, by API version.
type Rendered = HashMap<u32, SharedText>;

/// The registry.
#[derive(Default)]
pub struct Subscriptions {
    registry: RwLock<Registry>,
    /// Each session's path_find request (one per session, as rippled's `InfoSub`).
    path_requests: parking_lot::Mutex<PathRequests>,
    /// Sessions subscribed to anything proposed (a cheap test for the sequencer).
    proposed_listeners: AtomicUsize,
    /// Sessions following at least one order book (a cheap test for the publisher).
    book_listeners: AtomicUsize,
}

impl Subscriptions {
    /// An empty registry.
    pub fn new() -> Subscriptions {
        Subscriptions::default()
    }

    fn change(&self, session: &Arc<Session>, api_version: Option<u32>, edit: Edit<'_>) {
        let mut registry = self.registry.write();
        registry.apply(session, api_version, edit);
        self.recount(&registry);
    }

    fn recount(&self, registry: &Registry) {
        let proposed: HashSet<u64> = registry
            .of_stream(Stream::TransactionsProposed)
            .chain(registry.accounts_proposed.values().flatten())
            .copied()
            .collect();
        self.proposed_listeners
            .store(proposed.len(), Ordering::Relaxed);
        let books = registry
            .entries
            .values()
            .filter(|e| !e.sub.books.is_empty())
            .count();
        self.book_listeners.store(books, Ordering::Relaxed);
    }

    /// Subscribe `session` to `stream`.
    pub fn add_stream(&self, session: &Arc<Session>, api_version: u32, stream: Stream) {
        self.change(session, Some(api_version), Edit::Stream(stream, true));
    }

    /// Unsubscribe `session` from `stream`.
    pub fn remove_stream(&self, session: &Arc<Session>, stream: Stream) {
        self.change(session, None, Edit::Stream(stream, false));
    }

    /// Follow `accounts` (validated, or proposed too when `proposed`).
    pub fn add_accounts(
        &self,
        session: &Arc<Session>,
        api_version: u32,
        accounts: &[AccountId],
        proposed: bool,
    ) {
        let edit = Edit::Accounts(accounts, proposed, true);
        self.change(session, Some(api_version), edit);
    }

    /// Stop following `accounts`.
    pub fn remove_accounts(&self, session: &Arc<Session>, accounts: &[AccountId], proposed: bool) {
        self.change(session, None, Edit::Accounts(accounts, proposed, false));
    }

    /// Follow order books, each given as (taker pays, taker gets, domain).
    pub fn add_books(&self, session: &Arc<Session>, api_version: u32, books: &[BookKey]) {
        self.change(session, Some(api_version), Edit::Books(books, true));
    }

    /// Stop following order books.
    pub fn remove_books(&self, session: &Arc<Session>, books: &[BookKey]) {
        self.change(session, None, Edit::Books(books, false));
    }

    /// Forget everything `session` subscribed to (the connection ended).
    pub fn remove_session(&self, id: u64) {
        let mut registry = self.registry.write();
        registry.remove(id);
        self.recount(&registry);
        drop(registry);
        self.path_requests.lock().remove(&id);
    }

    /// Forget the sessions found gone while sending (one lock for all of them).
    fn remove_sessions(&self, ids: &[u64]) {
        if ids.is_empty() {
            return;
        }
        let mut registry = self.registry.write();
        for id in ids {
            registry.remove(*id);
        }
        self.recount(&registry);
        drop(registry);
        let mut paths = self.path_requests.lock();
        for id in ids {
            paths.remove(id);
        }
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
            if wanted() && !session.sink.send(SharedText::from(msg.to_string())) {
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
        self.registry.read().entries.len()
    }

    /// Sessions subscribed to each stream, and to accounts, proposed accounts and books
    /// (`ledgerd_subscribers`).
    pub fn counts_by_stream(&self) -> Vec<(&'static str, usize)> {
        let registry = self.registry.read();
        let stream = |s| registry.streams.get(&s).map_or(0, HashSet::len);
        let count =
            |f: &dyn Fn(&Sub) -> bool| registry.entries.values().filter(|e| f(&e.sub)).count();
        vec![
            ("ledger", stream(Stream::Ledger)),
            ("transactions", stream(Stream::Transactions)),
            (
                "transactions_proposed",
                stream(Stream::TransactionsProposed),
            ),
            ("server", stream(Stream::Server)),
            ("book_changes", stream(Stream::BookChanges)),
            ("validations", stream(Stream::Validations)),
            ("consensus", stream(Stream::Consensus)),
            ("accounts", count(&|s| !s.accounts.is_empty())),
            (
                "accounts_proposed",
                count(&|s| !s.accounts_proposed.is_empty()),
            ),
            ("books", self.book_listeners.load(Ordering::Relaxed)),
        ]
    }

    /// True when nobody is subscribed to anything.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Send one message to `targets`; `render` is called at most once per API version (kept
    /// in `rendered`, which the callers share between the groups a message goes to), and
    /// its text shared by every session of that version. Sessions found gone are dropped.
    fn send_to(
        targets: Vec<(Arc<Session>, u32)>,
        rendered: &mut Rendered,
        render: impl Fn(u32) -> Value,
        out: &mut Gathered,
    ) {
        for (session, version) in targets {
            let text = rendered
                .entry(version)
                .or_insert_with(|| SharedText::from(render(version).to_string()))
                .clone();
            out.add(session, text);
        }
    }

    /// Deliver what was gathered; sessions found gone are dropped.
    fn deliver(&self, out: Gathered) {
        let gone: Vec<u64> = out
            .sessions
            .into_iter()
            .filter_map(|(session, texts)| (!session.sink.send_all(texts)).then_some(session.id))
            .collect();
        self.remove_sessions(&gone);
    }

    /// Send one message to the sessions `pick` selects (a walk over every session: for
    /// the rare selections no index serves, such as order books).
    fn fan_out(
        &self,
        pick: impl Fn(&Sub) -> bool,
        rendered: &mut Rendered,
        render: impl Fn(u32) -> Value,
        out: &mut Gathered,
    ) {
        let targets: Vec<(Arc<Session>, u32)> = self
            .registry
            .read()
            .entries
            .values()
            .filter(|e| pick(&e.sub))
            .map(|e| (e.session.clone(), e.sub.api_version))
            .collect();
        Self::send_to(targets, rendered, render, out);
    }

    /// Send one message to the subscribers of `stream`.
    fn to_stream(&self, stream: Stream, render: impl Fn(u32) -> Value) {
        let targets = {
            let registry = self.registry.read();
            registry.targets(registry.of_stream(stream))
        };
        let mut out = Gathered::default();
        Self::send_to(targets, &mut Rendered::new(), render, &mut out);
        self.deliver(out);
    }

    /// A read node's relay of a proposed transaction message (`validated: false`) as its
    /// writer rendered it for `api_version`: to this node's `transactions_proposed`
    /// subscribers of that version and to its `accounts_proposed` subscribers of
    /// `accounts`.
    pub fn relay_proposed(&self, api_version: u32, text: &str, accounts: &BTreeSet<AccountId>) {
        let targets = {
            let registry = self.registry.read();
            registry.targets(
                registry
                    .of_stream(Stream::TransactionsProposed)
                    .chain(registry.of_accounts(accounts, false)),
            )
        };
        let shared = SharedText::from(text.to_string());
        let mut gone = Vec::new();
        for (session, version) in targets {
            if version == api_version && !session.sink.send(shared.clone()) {
                gone.push(session.id);
            }
        }
        self.remove_sessions(&gone);
    }

    /// True when someone listens to `stream` (a cheap test before making a message).
    pub fn wants(&self, stream: Stream) -> bool {
        self.registry.read().streams.contains_key(&stream)
    }

    /// Publish a `serverStatus` message (stream `server`).
    pub fn publish_server_status(&self, fee: &crate::render::server_status::FeeSummary) {
        if self.wants(Stream::Server) {
            let mode = crate::node::status::OperatingMode::Full.as_str();
            let msg = crate::render::server_status::server_status(mode, fee);
            self.to_stream(Stream::Server, |_| msg.clone());
        }
    }

    /// Publish a `consensusPhase` message (stream `consensus`).
    pub fn publish_phase(&self, phase: Phase) {
        if self.wants(Stream::Consensus) {
            let msg = consensus_phase(phase);
            self.to_stream(Stream::Consensus, |_| msg.clone());
        }
    }

    /// Publish a validation (stream `validations`), rendered per API version.
    pub fn publish_validation(&self, validation: &StObject, network_id: u32) {
        self.to_stream(Stream::Validations, |v| {
            validation_received(validation, network_id, v)
        });
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
        self.to_stream(Stream::Ledger, |_| msg.clone());
        self.to_stream(Stream::BookChanges, |_| {
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
        });
        // The ledger's messages went out first; its transactions follow, gathered so
        // that each subscriber gets them in one write.
        let source = TxSource::Validated { closed, network_id };
        let mut out = Gathered::default();
        for entry in &closed.txs {
            self.publish_tx(entry, &source, true, view, &mut out);
        }
        self.deliver(out);
    }

    /// Publish a transaction just applied to the open ledger `seq`.
    pub fn publish_proposed(&self, entry: &TxEntry, seq: u32, view: &dyn ReadView) {
        if !self.wants_proposed() {
            return;
        }
        let mut out = Gathered::default();
        self.publish_tx(
            entry,
            &TxSource::Proposed { seq },
            false,
            Some(view),
            &mut out,
        );
        self.deliver(out);
    }

    fn publish_tx(
        &self,
        entry: &TxEntry,
        source: &TxSource<'_>,
        validated: bool,
        view: Option<&dyn ReadView>,
        out: &mut Gathered,
    ) {
        let entry = &entry.decoded();
        let funds = view.and_then(|v| owner_funds(v, &entry.tx));
        let render = |v| transaction_message(entry, source, v, funds.as_deref());
        let accounts = affected_accounts(entry, validated);
        let (streams, followers) = {
            let registry = self.registry.read();
            let plain = validated
                .then(|| registry.of_stream(Stream::Transactions))
                .into_iter()
                .flatten();
            let streams = registry.targets(
                registry
                    .of_stream(Stream::TransactionsProposed)
                    .chain(plain),
            );
            (
                streams,
                registry.targets(registry.of_accounts(&accounts, validated)),
            )
        };
        let mut rendered = Rendered::new();
        Self::send_to(streams, &mut rendered, render, out);
        if validated
            && entry.ter == crate::engine::Ter::tesSUCCESS
            && self.book_listeners.load(Ordering::Relaxed) > 0
        {
            // rippled `OrderBookDB::processTxn`: once per session, to followers of a book
            // one of whose offers the transaction created, changed or deleted.
            let books = touched_books(entry);
            if !books.is_empty() {
                let pick = |s: &Sub| books.iter().any(|b| s.books.contains(b));
                self.fan_out(pick, &mut rendered, render, out);
            }
        }
        Self::send_to(followers, &mut rendered, render, out);
    }
}

/// The order books whose offers a transaction's metadata shows created (NewFields),
/// changed (PreviousFields) or deleted (FinalFields), keyed as a `books` subscription is:
/// rippled looks its listeners up as (the offer's TakerGets issue, its TakerPays issue),
/// so a subscription with `taker_pays` X and `taker_gets` Y hears of offers that sell X
/// for Y — the side opposite to the one book_offers lists for it. The domain is the
/// DomainID in the same fields, as rippled reads it: a created or deleted domain offer
/// names its domain's book, a changed one (whose PreviousFields hold no DomainID) the
/// open book.
pub fn touched_books(entry: &DecodedTx<'_>) -> BTreeSet<BookKey> {
    let mut out = BTreeSet::new();
    let meta = &entry.meta;
    for (f, node) in meta.get_array("AffectedNodes").unwrap_or(&[]) {
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
            let domain = match fields.get(crate::ledger::sf::sf().domain_id) {
                Some(StValue::Hash256(d)) => Some(*d),
                _ => None,
            };
            out.insert((gets.issue(), pays.issue(), domain));
        }
    }
    out
}

/// The accounts a transaction mentions (`STTx::getMentionedAccounts`: account fields and
/// issuers of amounts), plus, when it has metadata, the accounts of the entries it
/// touched (`TxMeta::getAffectedAccounts`).
pub fn affected_accounts(entry: &DecodedTx<'_>, with_meta: bool) -> BTreeSet<AccountId> {
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
        fn send(&self, text: SharedText) -> bool {
            self.0.lock().push(text.to_string());
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
        let mut out = Gathered::default();
        subs.fan_out(
            |s| s.streams.contains(Stream::Ledger),
            &mut Rendered::new(),
            Value::from,
            &mut out,
        );
        subs.deliver(out);
        assert_eq!(subs.len(), 1);
        assert_eq!(live_sink.0.lock().as_slice(), ["2"]);
        subs.remove_accounts(&live, &[AccountId::ONE], true);
        assert!(!subs.wants_proposed());
        subs.remove_session(live.id());
        assert!(subs.is_empty());
    }

    /// A publication's messages reach each session in one delivery, in the order they
    /// were published.
    #[test]
    fn gathered_messages_keep_their_order_per_session() {
        let (one, two) = (
            Arc::new(Collect(Mutex::new(vec![]), true)),
            Arc::new(Collect(Mutex::new(vec![]), true)),
        );
        let (s1, s2) = (Session::new(one.clone()), Session::new(two.clone()));
        let mut out = Gathered::default();
        out.add(s1.clone(), SharedText::from("a"));
        out.add(s2.clone(), SharedText::from("b"));
        out.add(s1.clone(), SharedText::from("c"));
        assert_eq!(out.sessions.len(), 2);
        Subscriptions::new().deliver(out);
        assert_eq!(one.0.lock().as_slice(), ["a", "c"]);
        assert_eq!(two.0.lock().as_slice(), ["b"]);
    }

    /// Every stream `subscribe` knows has its own bit.
    #[test]
    fn stream_sets_hold_each_stream_apart() {
        let mut set = StreamSet::default();
        set.insert(Stream::Ledger);
        set.insert(Stream::Quiet("peer_status"));
        assert!(set.contains(Stream::Ledger) && set.contains(Stream::Quiet("peer_status")));
        assert!(!set.contains(Stream::Transactions));
        set.remove(Stream::Ledger);
        assert_eq!(
            set.iter().collect::<Vec<_>>(),
            [Stream::Quiet("peer_status")]
        );
        let bits: std::collections::BTreeSet<u32> = Stream::ALL.iter().map(|s| s.bit()).collect();
        assert_eq!(bits.len(), Stream::ALL.len());
    }

    fn ids(targets: Vec<(Arc<Session>, u32)>) -> Vec<u64> {
        targets.iter().map(|(s, _)| s.id()).collect()
    }

    /// A transaction's followers are found through the account index: only the sessions
    /// following one of its accounts, each once; the indexes empty as sessions leave.
    #[test]
    fn accounts_and_streams_are_indexed() {
        let subs = Subscriptions::new();
        let sink = || Arc::new(Collect(Mutex::new(vec![]), true));
        let (a, b, c) = (
            Session::new(sink()),
            Session::new(sink()),
            Session::new(sink()),
        );
        let (x, y, z) = (AccountId([1; 20]), AccountId([2; 20]), AccountId([3; 20]));
        subs.add_accounts(&a, 1, &[x, y], false);
        subs.add_accounts(&b, 2, &[y], true);
        subs.add_stream(&c, 1, Stream::Ledger);
        let touched: BTreeSet<AccountId> = [x, y].into();
        {
            let r = subs.registry.read();
            assert_eq!(
                ids(r.targets(r.of_accounts(&touched, true))),
                [a.id(), b.id()]
            );
            // Proposed transactions reach only `accounts_proposed` followers.
            assert_eq!(ids(r.targets(r.of_accounts(&touched, false))), [b.id()]);
            let only_z: BTreeSet<AccountId> = [z].into();
            assert!(r.targets(r.of_accounts(&only_z, true)).is_empty());
            assert_eq!(ids(r.targets(r.of_stream(Stream::Ledger))), [c.id()]);
        }
        assert!(subs.wants_proposed());
        subs.remove_accounts(&b, &[y], true);
        assert!(!subs.wants_proposed());
        for s in [&a, &b, &c] {
            subs.remove_session(s.id());
        }
        let r = subs.registry.read();
        assert!(r.entries.is_empty() && r.streams.is_empty());
        assert!(r.accounts.is_empty() && r.accounts_proposed.is_empty());
    }
}
