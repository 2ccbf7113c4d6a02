//! The history store: every validated ledger's header and transactions, and an account ->
//! transactions index, so that `tx`, `account_tx` and `ledger` answer for any ledger since
//! the history began (rippled keeps the same tables in SQLite: `Ledgers`, `Transactions`,
//! `AccountTransactions`).
//!
//! [`HistoryStore`] is what the node and the handlers use; [`SqliteHistory`] is the embedded
//! backend (SQLite through rusqlite, WAL mode). The journal stays the source of truth: a
//! ledger reaches the history store after its close record is durable, and a store left
//! behind by a crash is caught up from the ledgers recovery rebuilt, so the database runs
//! with `synchronous = NORMAL` (a power cut may lose its newest transactions, never corrupt
//! it).
//!
//! The store is held to the journal's rule: acknowledged history a restart cannot reach
//! refuses to start. A database file keeps a start marker beside it (`integrity.rs`): the
//! first ledger it must hold, so that a deleted or emptied database, or one missing its
//! oldest ledgers, is told apart from a new one; the file's pages are checked when it opens
//! (SQLite's integrity check), and a damaged one is refused rather than served.

mod integrity;

pub use integrity::{set_aside, START_SUFFIX};

use std::path::Path;
use std::sync::Arc;

use parking_lot::Mutex;
use rusqlite::{params, Connection, OptionalExtension};

use super::error::{StoreError, StoreResult};
use super::nft_index::{self, NftState};
use crate::ledger::header::LedgerHeader;
use crate::protocol::types::{AccountId, Hash256};

/// One transaction of a ledger, as the history store keeps it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HistoryTx {
    /// Transaction ID.
    pub id: Hash256,
    /// Position in its ledger (`TransactionIndex`).
    pub index: u32,
    /// Signed binary form.
    pub blob: Vec<u8>,
    /// Metadata, binary.
    pub meta: Vec<u8>,
    /// What a payment delivered, as a serialized amount, when the engine recorded it.
    pub delivered: Option<Vec<u8>>,
    /// Every account the transaction and its metadata mention (the account index).
    pub accounts: Vec<AccountId>,
}

/// One ledger entry as a ledger left it: its key and its binary form (None: deleted).
pub type StateRow = (Hash256, Option<Arc<[u8]>>);

/// What a ledger did to the state, as the history store keeps it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub enum StateChanges {
    /// The entries the ledger created, modified or deleted.
    #[default]
    Delta,
    /// Every entry of the ledger: a base the state can be read from (genesis, or the first
    /// ledger a store holds).
    Full,
}

/// One validated ledger, as the history store keeps it.
#[derive(Debug, Clone)]
pub struct HistoryLedger {
    /// Its header.
    pub header: LedgerHeader,
    /// Its transactions, in ledger order.
    pub txs: Vec<HistoryTx>,
    /// The entries it changed (or all of them, as `changes` says).
    pub state: Vec<StateRow>,
    /// Whether `state` is a delta or the whole state.
    pub changes: StateChanges,
}

/// A transaction read back, with where it is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StoredTx {
    /// Transaction ID.
    pub id: Hash256,
    /// Ledger it is in.
    pub ledger_seq: u32,
    /// Position in that ledger.
    pub index: u32,
    /// Signed binary form.
    pub blob: Vec<u8>,
    /// Metadata, binary.
    pub meta: Vec<u8>,
    /// What a payment delivered, serialized, when recorded.
    pub delivered: Option<Vec<u8>>,
    /// That ledger's hash.
    pub ledger_hash: Hash256,
    /// That ledger's close time (seconds since the ripple epoch).
    pub close_time: u32,
}

/// One page of an account's transactions (rippled `accountTxPage`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AccountTxQuery {
    /// Whose transactions.
    pub account: AccountId,
    /// Lowest ledger, inclusive.
    pub min: u32,
    /// Highest ledger, inclusive.
    pub max: u32,
    /// Oldest first when true; newest first otherwise.
    pub forward: bool,
    /// Rows to return.
    pub rows: u32,
    /// Resume at this (ledger, index) row, inclusive.
    pub marker: Option<(u32, u32)>,
}

/// What [`HistoryStore::account_tx`] found.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct AccountTxPage {
    /// The rows, in the order asked for.
    pub txs: Vec<StoredTx>,
    /// The first row not returned, when there is more.
    pub marker: Option<(u32, u32)>,
}

/// Where one stored transaction is: its ID and its ledger's sequence, position and hash,
/// which together name one rendering of it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TxPlace {
    /// Transaction ID.
    pub id: Hash256,
    /// Ledger it is in.
    pub ledger_seq: u32,
    /// Position in that ledger.
    pub index: u32,
    /// That ledger's hash.
    pub ledger_hash: Hash256,
}

impl TxPlace {
    /// Where `t` is.
    pub fn of(t: &StoredTx) -> TxPlace {
        TxPlace {
            id: t.id,
            ledger_seq: t.ledger_seq,
            index: t.index,
            ledger_hash: t.ledger_hash,
        }
    }
}

/// What [`HistoryStore::account_tx_places`] found: a page's places, without the
/// transactions.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct AccountTxPlaces {
    /// The rows' places, in the order asked for.
    pub txs: Vec<TxPlace>,
    /// The first row not returned, when there is more.
    pub marker: Option<(u32, u32)>,
}

/// A token's state in the NFT index at a ledger: set by the transaction at (`seq`,
/// `index`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NftRecord {
    /// The token.
    pub token: Hash256,
    /// The ledger of the transaction that last changed it.
    pub seq: u32,
    /// Its owner, burn and URI then.
    pub state: NftState,
}

/// A store without the named index.
fn no_index(which: &str) -> StoreError {
    StoreError::History {
        file: "history".into(),
        reason: format!("this history store keeps no {which} index"),
    }
}

/// Where validated history lives (SQLite now; PostgreSQL for read nodes later).
pub trait HistoryStore: Send + Sync {
    /// Writes these ledgers (consecutive, each after the store's last) in one transaction.
    fn write(&self, ledgers: &[HistoryLedger]) -> StoreResult<()>;
    /// The first and last ledger held, if any.
    fn range(&self) -> StoreResult<Option<(u32, u32)>>;
    /// A ledger's header by sequence.
    fn header(&self, seq: u32) -> StoreResult<Option<LedgerHeader>>;
    /// A ledger's header by hash.
    fn header_by_hash(&self, hash: &Hash256) -> StoreResult<Option<LedgerHeader>>;
    /// A ledger's transactions, in ledger order.
    fn ledger_txs(&self, seq: u32) -> StoreResult<Vec<StoredTx>>;
    /// A transaction by ID.
    fn tx(&self, id: &Hash256) -> StoreResult<Option<StoredTx>>;
    /// One page of an account's transactions.
    fn account_tx(&self, q: &AccountTxQuery) -> StoreResult<AccountTxPage>;
    /// The same page as [`HistoryStore::account_tx`], only where each row is (an index
    /// read: no transaction is fetched).
    fn account_tx_places(&self, q: &AccountTxQuery) -> StoreResult<AccountTxPlaces> {
        let page = self.account_tx(q)?;
        Ok(AccountTxPlaces {
            txs: page.txs.iter().map(TxPlace::of).collect(),
            marker: page.marker,
        })
    }
    /// `count` transactions from the `start`th on, newest ledger first (tx_history).
    fn recent_txs(&self, start: u32, count: u32) -> StoreResult<Vec<StoredTx>>;
    /// How far a standby database's replay is behind its primary, in seconds (0 when it
    /// has replayed all it received); None for a primary, or a store that is no database
    /// server.
    fn replication_lag(&self) -> StoreResult<Option<f64>> {
        Ok(None)
    }
    /// What a read node's follower reads of its database at each poll: the replication
    /// lag and whether the NFT and MPT holder indexes are built (one round trip where the
    /// store can).
    fn follower_status(&self) -> StoreResult<FollowerStatus> {
        Ok(FollowerStatus {
            replication_lag: self.replication_lag()?,
            nft_index_ready: self.nft_index_ready()?,
            mpt_index_ready: self.mpt_index_ready()?,
        })
    }
    /// Whether the NFT index holds every stored ledger.
    fn nft_index_ready(&self) -> StoreResult<bool> {
        Ok(false)
    }
    /// Whether the MPT holder index holds every stored ledger's MPTokens.
    fn mpt_index_ready(&self) -> StoreResult<bool> {
        Ok(false)
    }
    /// The MPTokens of `issuance` some ledger up to `seq` held, by holder after `after`, at
    /// most `limit`: (holder, entry key). Whether ledger `seq` still holds each is the
    /// caller's to read.
    fn mpt_holder_keys(
        &self,
        _issuance: &crate::protocol::mpt::MptId,
        _seq: u32,
        _after: Option<&AccountId>,
        _limit: u32,
    ) -> StoreResult<Vec<(AccountId, Hash256)>> {
        Err(no_index("MPT holder"))
    }
    /// A token's newest state at or before ledger `seq` (None: no such token then).
    fn nft(&self, _token: &Hash256, _seq: u32) -> StoreResult<Option<NftRecord>> {
        Err(no_index("NFT"))
    }
    /// One page of the transactions that touched `token` (`q.account` is not read).
    fn nft_txs(&self, _token: &Hash256, _q: &AccountTxQuery) -> StoreResult<AccountTxPage> {
        Err(no_index("NFT"))
    }
    /// The tokens `issuer` minted by ledger `seq` (of `taxon` only, when given), after
    /// `after`, in token order, at most `limit`, each as it was at `seq`.
    fn nfts_by_issuer(
        &self,
        _issuer: &AccountId,
        _taxon: Option<u32>,
        _seq: u32,
        _after: Option<&Hash256>,
        _limit: u32,
    ) -> StoreResult<Vec<NftRecord>> {
        Err(no_index("NFT"))
    }
    /// The first ledger whose whole state the store can answer for (None: no state yet).
    fn state_from(&self) -> StoreResult<Option<u32>>;
    /// The entry `key` as ledger `seq` left it (None: absent then).
    fn state_entry(&self, key: &Hash256, seq: u32) -> StoreResult<Option<Vec<u8>>>;
    /// Ledger `seq`'s entries with keys after `after`, in key order, at most `limit`.
    fn state_page(
        &self,
        seq: u32,
        after: Option<&Hash256>,
        limit: usize,
    ) -> StoreResult<Vec<(Hash256, Vec<u8>)>>;
    /// Writes the whole state of ledger `seq`, a ledger the store holds already, as the
    /// base reads can start from (a store that had no state, or only older ledgers').
    fn write_state_base(&self, seq: u32, rows: &[StateRow]) -> StoreResult<()>;
    /// Deletes every ledger before `seq` and its transactions (online deletion); the
    /// state stays readable from `seq` on.
    fn delete_before(&self, seq: u32) -> StoreResult<()>;
    /// Deletes every ledger after `seq` and its transactions (a repaired journal that
    /// ends earlier than the history did).
    fn delete_after(&self, seq: u32) -> StoreResult<()>;
    /// The first ledger the store must hold, from its durable start marker (None: the
    /// store keeps no marker, or it was never written: a store made before markers).
    fn start(&self) -> StoreResult<Option<u32>> {
        Ok(None)
    }
    /// Records durably that the store must hold every ledger from `seq` on (a no-op for a
    /// store that keeps no marker).
    fn set_start(&self, _seq: u32) -> StoreResult<()> {
        Ok(())
    }
    /// The ranges of ledgers between `first` and `last` (inclusive) the store lacks, oldest
    /// first.
    fn missing(&self, first: u32, last: u32) -> StoreResult<Vec<(u32, u32)>> {
        let mut held = Vec::new();
        for seq in first..=last {
            if self.header(seq)?.is_some() {
                held.push(seq);
            }
        }
        Ok(gaps(first, last, held))
    }
    /// Writes these ledgers in place of whatever the store holds at their sequences
    /// (filling a gap): a ledger before the state base keeps no state rows, which would
    /// read as entries the base no longer has.
    fn replace(&self, ledgers: &[HistoryLedger]) -> StoreResult<()> {
        self.write(ledgers)
    }
    /// A number the node keeps with its history (advisory deletion's `can_delete`); None
    /// when never set, or in a store that keeps none.
    fn setting(&self, _name: &str) -> StoreResult<Option<u32>> {
        Ok(None)
    }
    /// Keeps a number with the history (a no-op for a store that keeps none).
    fn set_setting(&self, _name: &str, _value: u32) -> StoreResult<()> {
        Ok(())
    }
    /// The store's size on disk, in KiB (None: not known).
    fn size_kib(&self) -> StoreResult<Option<u64>> {
        Ok(None)
    }
}

/// The ranges of `first..=last` not in `held` (ascending sequences).
pub fn gaps(first: u32, last: u32, held: impl IntoIterator<Item = u32>) -> Vec<(u32, u32)> {
    let mut out = Vec::new();
    let mut next = u64::from(first);
    for seq in held.into_iter().map(u64::from) {
        if seq < next || seq > u64::from(last) {
            continue;
        }
        if seq > next {
            out.push((next as u32, (seq - 1) as u32));
        }
        next = seq + 1;
    }
    if next <= u64::from(last) {
        out.push((next as u32, last));
    }
    out
}

const SCHEMA: &str = "
CREATE TABLE IF NOT EXISTS ledgers(
    seq INTEGER PRIMARY KEY, hash BLOB NOT NULL, close_time INTEGER NOT NULL,
    header BLOB NOT NULL);
CREATE INDEX IF NOT EXISTS ledgers_by_hash ON ledgers(hash);
CREATE TABLE IF NOT EXISTS txs(
    id BLOB PRIMARY KEY, seq INTEGER NOT NULL, idx INTEGER NOT NULL, blob BLOB NOT NULL,
    meta BLOB NOT NULL, delivered BLOB) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS txs_by_ledger ON txs(seq, idx);
CREATE TABLE IF NOT EXISTS account_txs(
    account BLOB NOT NULL, seq INTEGER NOT NULL, idx INTEGER NOT NULL, id BLOB NOT NULL,
    PRIMARY KEY(account, seq, idx)) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS state(
    key BLOB NOT NULL, seq INTEGER NOT NULL, data BLOB,
    PRIMARY KEY(key, seq)) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS settings(name TEXT PRIMARY KEY, value INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS nft_states(
    token BLOB NOT NULL, seq INTEGER NOT NULL, idx INTEGER NOT NULL, owner BLOB NOT NULL,
    burned INTEGER NOT NULL, uri BLOB, PRIMARY KEY(token, seq, idx)) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS nft_txs(
    token BLOB NOT NULL, seq INTEGER NOT NULL, idx INTEGER NOT NULL, id BLOB NOT NULL,
    PRIMARY KEY(token, seq, idx)) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS nft_issuers(
    issuer BLOB NOT NULL, token BLOB NOT NULL, taxon INTEGER NOT NULL, seq INTEGER NOT NULL,
    PRIMARY KEY(issuer, token)) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS nft_issuers_by_taxon ON nft_issuers(issuer, taxon, token);
CREATE TABLE IF NOT EXISTS mpt_holders(
    issuance BLOB NOT NULL, account BLOB NOT NULL, key BLOB NOT NULL, seq INTEGER NOT NULL,
    PRIMARY KEY(issuance, account)) WITHOUT ROWID;
";

/// The setting present once the MPT holder index holds every stored ledger's MPTokens.
pub const MPT_INDEX_BUILT: &str = "mpt_index_built";

/// What [`HistoryStore::follower_status`] reads.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct FollowerStatus {
    /// Seconds the database's replay is behind its primary (None: no standby).
    pub replication_lag: Option<f64>,
    /// The NFT index holds every stored ledger.
    pub nft_index_ready: bool,
    /// The MPT holder index holds every stored ledger's MPTokens.
    pub mpt_index_ready: bool,
}

/// A stored transaction as the NFT index's build reads it: ledger, position, ID, blob,
/// metadata.
type IndexedTx = (u32, u32, Vec<u8>, Vec<u8>, Vec<u8>);

/// The setting present once the NFT index holds every stored ledger (a database made
/// before the index is filled from its transactions in the background).
pub const NFT_INDEX_BUILT: &str = "nft_index_built";

/// The setting that holds the first ledger with a readable state.
const STATE_FROM: &str = "state_from";

const TX_COLUMNS: &str = "t.id, t.seq, t.idx, t.blob, t.meta, t.delivered, l.hash, l.close_time";

/// The history store in one SQLite database file (or in memory).
pub struct SqliteHistory {
    file: String,
    /// The start marker beside the database file (None in memory).
    start_file: Option<std::path::PathBuf>,
    /// The writer's connection; with an in-memory database, the only one.
    writer: Mutex<Connection>,
    /// Readers' connections (WAL lets them read while the writer writes).
    readers: Vec<Mutex<Connection>>,
}

impl SqliteHistory {
    /// Opens (creating if needed) the database at `path`, with `readers` read connections.
    /// A damaged file ([`StoreError::HistoryDamaged`]: not a database, a page or an index
    /// that fails SQLite's integrity check, a newest ledger that does not read back) is
    /// refused.
    pub fn open(path: &Path, readers: usize) -> StoreResult<SqliteHistory> {
        let file = path.display().to_string();
        let fail = |e: rusqlite::Error| history_error(&file, e);
        let busy = std::time::Duration::from_millis(crate::limits::HISTORY_BUSY_TIMEOUT_MILLIS);
        let writer = Connection::open(path).map_err(fail)?;
        writer.busy_timeout(busy).map_err(fail)?;
        writer
            .execute_batch("PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL;")
            .map_err(fail)?;
        writer.execute_batch(SCHEMA).map_err(fail)?;
        let mut conns = Vec::with_capacity(readers);
        for _ in 0..readers {
            let c = Connection::open(path).map_err(fail)?;
            c.busy_timeout(busy).map_err(fail)?;
            conns.push(Mutex::new(c));
        }
        let store = SqliteHistory {
            file,
            start_file: Some(integrity::start_file(path)),
            writer: Mutex::new(writer),
            readers: conns,
        };
        store.check_pages(path)?;
        store.check_last()?;
        store.note_empty_nft_index()?;
        Ok(store)
    }

    /// An in-memory database (an `--ephemeral` server): one connection.
    pub fn in_memory() -> StoreResult<SqliteHistory> {
        let file = ":memory:".to_string();
        let conn = Connection::open_in_memory().map_err(|e| history_error(&file, e))?;
        conn.execute_batch(SCHEMA)
            .map_err(|e| history_error(&file, e))?;
        let store = SqliteHistory {
            file,
            start_file: None,
            writer: Mutex::new(conn),
            readers: Vec::new(),
        };
        store.note_empty_nft_index()?;
        Ok(store)
    }

    /// Marks the NFT index built when there is nothing to index (a new database).
    fn note_empty_nft_index(&self) -> StoreResult<()> {
        if self.setting(NFT_INDEX_BUILT)?.is_some() {
            return Ok(());
        }
        let any: Option<i64> = self.read(|c| {
            c.query_row("SELECT 1 FROM txs LIMIT 1", [], |r| r.get(0))
                .optional()
        })?;
        if any.is_none() {
            self.set_setting(NFT_INDEX_BUILT, 1)?;
        }
        if self.setting(MPT_INDEX_BUILT)?.is_none() {
            let state: Option<i64> = self.read(|c| {
                c.query_row("SELECT 1 FROM state LIMIT 1", [], |r| r.get(0))
                    .optional()
            })?;
            if state.is_none() {
                self.set_setting(MPT_INDEX_BUILT, 1)?;
            }
        }
        Ok(())
    }

    /// Fills the MPT holder index from the stored state of a database made before it (every
    /// stored version of every MPToken), then marks it built.
    pub fn build_mpt_index(&self) -> StoreResult<()> {
        if self.mpt_index_ready()? {
            return Ok(());
        }
        let rows: Vec<(Vec<u8>, u32, Vec<u8>)> = self.read(|c| {
            let mut stmt =
                c.prepare_cached("SELECT key, seq, data FROM state WHERE substr(data, 1, 3) = ?1")?;
            let code = crate::ledger::flags::lt::MPTOKEN.to_be_bytes();
            let prefix = vec![0x11, code[0], code[1]];
            let rows =
                stmt.query_map(params![prefix], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))?;
            rows.collect()
        })?;
        let mut conn = self.writer.lock();
        let tx = conn.transaction().map_err(|e| self.fail(e))?;
        for (key, seq, data) in &rows {
            index_mpt_holder(&tx, *seq, &hash_of(key.clone()), data).map_err(|e| self.fail(e))?;
        }
        tx.commit().map_err(|e| self.fail(e))?;
        drop(conn);
        self.set_setting(MPT_INDEX_BUILT, 1)
    }

    /// Fills the NFT index from the stored transactions of a database made before it,
    /// `batch` ledgers per write transaction (new ledgers index themselves as they are
    /// written meanwhile), calling `progress(done_through, last)` after each batch; then
    /// marks it built. Nothing to do when it is built already.
    pub fn build_nft_index(
        &self,
        batch: u32,
        mut progress: impl FnMut(u32, u32),
    ) -> StoreResult<()> {
        if self.nft_index_ready()? {
            return Ok(());
        }
        let Some((first, last)) = self.range()? else {
            return self.set_setting(NFT_INDEX_BUILT, 1);
        };
        let mut from = first;
        while from <= last {
            let to = from.saturating_add(batch.max(1) - 1).min(last);
            let rows: Vec<IndexedTx> = self.read(|c| {
                let mut stmt = c.prepare_cached(
                    "SELECT seq, idx, id, blob, meta FROM txs WHERE seq BETWEEN ?1 AND ?2",
                )?;
                let rows = stmt.query_map(params![from, to], |r| {
                    Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?, r.get(4)?))
                })?;
                rows.collect()
            })?;
            let mut conn = self.writer.lock();
            let tx = conn.transaction().map_err(|e| self.fail(e))?;
            for (seq, idx, id, blob, meta) in &rows {
                insert_nft_rows(&tx, *seq, *idx, &hash_of(id.clone()), blob, meta)
                    .map_err(|e| self.fail(e))?;
            }
            tx.commit().map_err(|e| self.fail(e))?;
            drop(conn);
            progress(to, last);
            from = to.saturating_add(1);
            if to == u32::MAX {
                break;
            }
        }
        self.set_setting(NFT_INDEX_BUILT, 1)
    }

    /// The database file, for messages.
    pub fn file(&self) -> &str {
        &self.file
    }

    fn fail(&self, e: rusqlite::Error) -> StoreError {
        history_error(&self.file, e)
    }

    fn damaged(&self, reason: String) -> StoreError {
        StoreError::HistoryDamaged {
            file: self.file.clone(),
            reason,
        }
    }

    /// Runs `f` on a free reader connection (or the writer's, if there are none).
    /// A page's rows from an index of (key, seq, idx): each part of the page one query
    /// (`sql(one_ledger)`, bound to `key`, the ledgers and the indexes), stepped only as far
    /// as the page still needs.
    fn page_rows<T>(
        &self,
        q: &AccountTxQuery,
        sql: impl Fn(bool) -> String,
        key: &[u8],
        row: fn(&rusqlite::Row<'_>) -> rusqlite::Result<T>,
    ) -> StoreResult<Vec<T>> {
        let wanted = u64::from(q.rows) + 1;
        let mut out: Vec<T> = Vec::new();
        for ((a, b), (from, to)) in page_ranges(q) {
            let left = wanted - out.len() as u64;
            if left == 0 {
                break;
            }
            let part: Vec<T> = self.read(|c| {
                let mut stmt = c.prepare_cached(&sql(a == b))?;
                let rows = stmt.query_map(params![key, a, b, from, to], row)?;
                rows.take(left as usize).collect()
            })?;
            out.extend(part);
        }
        Ok(out)
    }

    fn read<T>(&self, f: impl FnOnce(&Connection) -> rusqlite::Result<T>) -> StoreResult<T> {
        let result = if self.readers.is_empty() {
            f(&self.writer.lock())
        } else {
            let free = self.readers.iter().find_map(|m| m.try_lock());
            match free {
                Some(conn) => f(&conn),
                None => f(&self.readers[0].lock()),
            }
        };
        result.map_err(|e| self.fail(e))
    }

    /// The newest ledger's stored header must hash to its stored hash: a damaged database
    /// is refused at open rather than served.
    fn check_last(&self) -> StoreResult<()> {
        let Some((_, last)) = self.range()? else {
            return Ok(());
        };
        match self.header(last)? {
            Some(_) => Ok(()),
            None => Err(self.damaged(format!("ledger {last} is listed but unreadable"))),
        }
    }

    fn header_row(
        &self,
        row: Option<(u32, Vec<u8>, Vec<u8>)>,
    ) -> StoreResult<Option<LedgerHeader>> {
        let Some((seq, hash, bytes)) = row else {
            return Ok(None);
        };
        let header = decode_header(&bytes)
            .filter(|h| h.hash.0.as_slice() == hash.as_slice() && h.seq == seq)
            .ok_or_else(|| {
                self.damaged(format!("ledger {seq}'s header does not match its hash"))
            })?;
        Ok(Some(header))
    }
}

/// Forgets the state ledgers after `seq` wrote; a base after `seq` goes with them.
fn forget_state_after(tx: &rusqlite::Transaction<'_>, seq: u32) -> rusqlite::Result<()> {
    tx.execute("DELETE FROM state WHERE seq > ?1", params![seq])?;
    if state_from(tx)?.is_some_and(|from| from > seq) {
        set_state_from(tx, None)?;
    }
    Ok(())
}

/// A SQLite error as the store's: a corrupt page or a file that is not a database is
/// damage ([`StoreError::HistoryDamaged`]), anything else a failure.
fn history_error(file: &str, e: rusqlite::Error) -> StoreError {
    let damage = matches!(
        e.sqlite_error_code(),
        Some(rusqlite::ErrorCode::DatabaseCorrupt | rusqlite::ErrorCode::NotADatabase)
    );
    let file = file.to_string();
    let reason = e.to_string();
    if damage {
        StoreError::HistoryDamaged { file, reason }
    } else {
        StoreError::History { file, reason }
    }
}

pub(crate) fn encode_header(h: &LedgerHeader) -> Vec<u8> {
    h.raw()
}

/// The header from its stored bytes, its hash recomputed (None when malformed).
pub(crate) fn decode_header(b: &[u8]) -> Option<LedgerHeader> {
    LedgerHeader::from_raw(b)
}

pub(crate) fn hash_of(bytes: Vec<u8>) -> Hash256 {
    Hash256(bytes.try_into().unwrap_or([0u8; 32]))
}

fn stored_tx(row: &rusqlite::Row<'_>) -> rusqlite::Result<StoredTx> {
    Ok(StoredTx {
        id: hash_of(row.get(0)?),
        ledger_seq: row.get(1)?,
        index: row.get(2)?,
        blob: row.get(3)?,
        meta: row.get(4)?,
        delivered: row.get(5)?,
        ledger_hash: hash_of(row.get(6)?),
        close_time: row.get(7)?,
    })
}

fn insert_ledger(tx: &rusqlite::Transaction<'_>, l: &HistoryLedger) -> rusqlite::Result<()> {
    insert_rows(tx, l)?;
    insert_ledger_state(tx, l)
}

/// A ledger's header row, its transactions and its account index rows.
fn insert_rows(tx: &rusqlite::Transaction<'_>, l: &HistoryLedger) -> rusqlite::Result<()> {
    let h = &l.header;
    tx.prepare_cached(
        "INSERT INTO ledgers(seq, hash, close_time, header) VALUES (?1, ?2, ?3, ?4)",
    )?
    .execute(params![
        h.seq,
        &h.hash.0[..],
        h.close_time,
        encode_header(h)
    ])?;
    let mut put_tx = tx.prepare_cached(
        "INSERT INTO txs(id, seq, idx, blob, meta, delivered) VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
    )?;
    let mut put_account = tx.prepare_cached(
        "INSERT OR IGNORE INTO account_txs(account, seq, idx, id) VALUES (?1, ?2, ?3, ?4)",
    )?;
    for t in &l.txs {
        put_tx.execute(params![
            &t.id.0[..],
            h.seq,
            t.index,
            t.blob,
            t.meta,
            t.delivered
        ])?;
        for a in &t.accounts {
            put_account.execute(params![&a.0[..], h.seq, t.index, &t.id.0[..]])?;
        }
        insert_nft_rows(tx, h.seq, t.index, &t.id, &t.blob, &t.meta)?;
    }
    Ok(())
}

/// The NFT index rows of one transaction (none unless it is an NFToken transaction).
fn insert_nft_rows(
    tx: &rusqlite::Connection,
    seq: u32,
    index: u32,
    id: &Hash256,
    blob: &[u8],
    meta: &[u8],
) -> rusqlite::Result<()> {
    for touch in nft_index::touches_of(blob, meta) {
        let token = &touch.token.0[..];
        tx.prepare_cached(
            "INSERT OR IGNORE INTO nft_txs(token, seq, idx, id) VALUES (?1, ?2, ?3, ?4)",
        )?
        .execute(params![token, seq, index, &id.0[..]])?;
        let Some(state) = touch.state else {
            continue;
        };
        tx.prepare_cached(
            "INSERT OR REPLACE INTO nft_states(token, seq, idx, owner, burned, uri) \
             VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
        )?
        .execute(params![
            token,
            seq,
            index,
            &state.owner.0[..],
            state.burned,
            state.uri
        ])?;
        tx.prepare_cached(
            "INSERT INTO nft_issuers(issuer, token, taxon, seq) VALUES (?1, ?2, ?3, ?4) \
             ON CONFLICT(issuer, token) DO UPDATE SET seq = min(seq, excluded.seq)",
        )?
        .execute(params![
            &crate::engine::nft::issuer(&touch.token).0[..],
            token,
            crate::engine::nft::taxon(&touch.token),
            seq
        ])?;
    }
    Ok(())
}

/// A ledger's state rows; the whole state of a store's first ledger starts the state.
fn insert_ledger_state(tx: &rusqlite::Transaction<'_>, l: &HistoryLedger) -> rusqlite::Result<()> {
    let seq = l.header.seq;
    if l.changes == StateChanges::Full && state_from(tx)?.is_none() {
        start_state_at(tx, seq)?;
    }
    insert_state(tx, seq, &l.state)
}

/// Writes ledger `seq`'s state rows (a row written again for the same ledger replaces it).
fn insert_state(
    tx: &rusqlite::Transaction<'_>,
    seq: u32,
    rows: &[StateRow],
) -> rusqlite::Result<()> {
    let mut put =
        tx.prepare_cached("INSERT OR REPLACE INTO state(key, seq, data) VALUES (?1, ?2, ?3)")?;
    for (key, data) in rows {
        put.execute(params![&key.0[..], seq, data])?;
        if let Some(data) = data {
            index_mpt_holder(tx, seq, key, data)?;
        }
    }
    Ok(())
}

/// Files an MPToken entry under its issuance and holder, from the first ledger that held
/// it (any other entry is skipped).
fn index_mpt_holder(c: &Connection, seq: u32, key: &Hash256, data: &[u8]) -> rusqlite::Result<()> {
    let Some((issuance, account)) = nft_index::mpt_holder(data) else {
        return Ok(());
    };
    c.prepare_cached(
        "INSERT INTO mpt_holders(issuance, account, key, seq) VALUES (?1, ?2, ?3, ?4) \
         ON CONFLICT(issuance, account) DO UPDATE SET seq = min(seq, excluded.seq)",
    )?
    .execute(params![&issuance.0[..], &account.0[..], &key.0[..], seq])?;
    Ok(())
}

fn state_from(c: &Connection) -> rusqlite::Result<Option<u32>> {
    c.prepare_cached("SELECT value FROM settings WHERE name = ?1")?
        .query_row(params![STATE_FROM], |r| r.get(0))
        .optional()
}

fn set_state_from(c: &Connection, seq: Option<u32>) -> rusqlite::Result<()> {
    match seq {
        Some(seq) => c.execute(
            "INSERT OR REPLACE INTO settings(name, value) VALUES (?1, ?2)",
            params![STATE_FROM, seq],
        )?,
        None => c.execute("DELETE FROM settings WHERE name = ?1", params![STATE_FROM])?,
    };
    Ok(())
}

/// Makes ledger `seq` the state's base: rows of older ledgers (an incomplete past) go.
fn start_state_at(tx: &rusqlite::Transaction<'_>, seq: u32) -> rusqlite::Result<()> {
    tx.execute("DELETE FROM state WHERE seq < ?1", params![seq])?;
    set_state_from(tx, Some(seq))
}

/// Forgets the state before ledger `seq` while keeping every entry as `seq` saw it: a
/// version goes once a newer one is at or before `seq`, and deletions at or before `seq`
/// go with it.
fn prune_state_before(tx: &rusqlite::Transaction<'_>, seq: u32) -> rusqlite::Result<()> {
    tx.execute(
        "DELETE FROM state WHERE seq < ?1 AND EXISTS (SELECT 1 FROM state n \
         WHERE n.key = state.key AND n.seq > state.seq AND n.seq <= ?1)",
        params![seq],
    )?;
    tx.execute(
        "DELETE FROM state WHERE data IS NULL AND seq <= ?1",
        params![seq],
    )?;
    if let Some(from) = state_from(tx)? {
        set_state_from(tx, Some(from.max(seq)))?;
    }
    Ok(())
}

/// The SQL of one account_tx query: the account's rows in ledgers `?2..=?3` with index
/// `?4..=?5`, in the asked order (each part of a page is one index range). The caller
/// steps only as many rows as it needs: a bound `LIMIT` would make SQLite (built with
/// STAT4) prepare the statement again whenever the limit changes, which was a fifth of a
/// cached account_tx page's time.
/// Within one ledger (`?2 = ?3`) the sequence is an equality, so the index range covers
/// the transaction indexes too (a ledger of thousands of an account's rows is not scanned).
fn account_tx_sql(forward: bool, one_ledger: bool) -> String {
    indexed_tx_sql("account_txs a", "a.account", forward, one_ledger)
}

/// [`account_tx_sql`] over any index of (key, seq, idx, id): `index` names the table
/// (aliased `a`), `key` its key column.
fn indexed_tx_sql(index: &str, key: &str, forward: bool, one_ledger: bool) -> String {
    let order = if forward { "ASC" } else { "DESC" };
    let ledgers = if one_ledger {
        "a.seq = ?2 AND ?2 = ?3"
    } else {
        "a.seq BETWEEN ?2 AND ?3"
    };
    format!(
        "SELECT {TX_COLUMNS} FROM {index} JOIN txs t ON t.id = a.id \
         JOIN ledgers l ON l.seq = a.seq \
         WHERE {key} = ?1 AND {ledgers} AND a.idx BETWEEN ?4 AND ?5 \
         ORDER BY a.seq {order}, a.idx {order}"
    )
}

/// An account ID from its 20 stored bytes (zero if the row is not 20 bytes long).
pub(crate) fn account_of(bytes: &[u8]) -> AccountId {
    let mut id = [0u8; 20];
    if bytes.len() == 20 {
        id.copy_from_slice(bytes);
    }
    AccountId(id)
}

fn nft_record(row: &rusqlite::Row<'_>) -> rusqlite::Result<NftRecord> {
    let owner: Vec<u8> = row.get(2)?;
    let mut id = [0u8; 20];
    if owner.len() == 20 {
        id.copy_from_slice(&owner);
    }
    Ok(NftRecord {
        token: hash_of(row.get(0)?),
        seq: row.get(1)?,
        state: NftState {
            owner: AccountId(id),
            burned: row.get(3)?,
            uri: row.get(4)?,
        },
    })
}

/// A token's newest state at or before `?2`.
const NFT_STATE_SQL: &str = "SELECT token, seq, owner, burned, uri FROM nft_states \
     WHERE token = ?1 AND seq <= ?2 ORDER BY seq DESC, idx DESC LIMIT 1";

/// [`account_tx_sql`] for the rows' places only: the account index and the ledgers' hashes.
fn account_tx_places_sql(forward: bool, one_ledger: bool) -> String {
    let order = if forward { "ASC" } else { "DESC" };
    let ledgers = if one_ledger {
        "a.seq = ?2 AND ?2 = ?3"
    } else {
        "a.seq BETWEEN ?2 AND ?3"
    };
    format!(
        "SELECT a.id, a.seq, a.idx, l.hash FROM account_txs a JOIN ledgers l ON l.seq = a.seq \
         WHERE a.account = ?1 AND {ledgers} AND a.idx BETWEEN ?4 AND ?5 \
         ORDER BY a.seq {order}, a.idx {order}"
    )
}

fn tx_place(row: &rusqlite::Row<'_>) -> rusqlite::Result<TxPlace> {
    Ok(TxPlace {
        id: hash_of(row.get(0)?),
        ledger_seq: row.get(1)?,
        index: row.get(2)?,
        ledger_hash: hash_of(row.get(3)?),
    })
}

/// A page from the rows its parts found (at most `rows + 1`): resuming starts at the
/// marker's own row, and without it the page is empty (rippled); a row past `rows` becomes
/// the next marker.
pub(crate) fn finish_page(q: &AccountTxQuery, txs: Vec<StoredTx>) -> AccountTxPage {
    let (txs, marker) = finish_rows(q, txs, |t| (t.ledger_seq, t.index));
    AccountTxPage { txs, marker }
}

/// [`finish_page`] for rows of any kind, each at `place(row)`.
pub(crate) fn finish_rows<T>(
    q: &AccountTxQuery,
    mut rows: Vec<T>,
    place: impl Fn(&T) -> (u32, u32),
) -> (Vec<T>, Option<(u32, u32)>) {
    if let Some(m) = q.marker {
        if rows.first().is_none_or(|t| place(t) != m) {
            return (Vec::new(), None);
        }
    }
    let marker = if rows.len() > q.rows as usize {
        rows.truncate(q.rows as usize + 1);
        rows.pop().map(|t| place(&t))
    } else {
        None
    };
    (rows, marker)
}

/// The parts of a page, each `(ledgers, indexes)`: from a marker, the rest of the marker's
/// ledger first, then the ledgers beyond it.
pub(crate) fn page_parts(q: &AccountTxQuery) -> Vec<((u32, u32), (u32, u32))> {
    let all = (0, u32::MAX);
    match q.marker {
        None => vec![((q.min, q.max), all)],
        Some((l, i)) if q.forward => {
            vec![((l, l), (i, u32::MAX)), ((l.saturating_add(1), q.max), all)]
        }
        Some((l, i)) => vec![((l, l), (0, i)), ((q.min, l.saturating_sub(1)), all)],
    }
}

/// [`page_parts`] within the query's ledgers, empty parts left out: `(ledgers, indexes)`.
pub(crate) fn page_ranges(q: &AccountTxQuery) -> Vec<((u32, u32), (u32, u32))> {
    page_parts(q)
        .into_iter()
        .filter_map(|((lo, hi), indexes)| {
            let (a, b) = (lo.max(q.min), hi.min(q.max));
            (a <= b && lo <= hi).then_some(((a, b), indexes))
        })
        .collect()
}

impl HistoryStore for SqliteHistory {
    fn write(&self, ledgers: &[HistoryLedger]) -> StoreResult<()> {
        let mut conn = self.writer.lock();
        let tx = conn.transaction().map_err(|e| self.fail(e))?;
        for l in ledgers {
            insert_ledger(&tx, l).map_err(|e| self.fail(e))?;
        }
        tx.commit().map_err(|e| self.fail(e))
    }

    fn range(&self) -> StoreResult<Option<(u32, u32)>> {
        self.read(|c| {
            c.prepare_cached("SELECT MIN(seq), MAX(seq) FROM ledgers")?
                .query_row([], |r| {
                    Ok(
                        match (r.get::<_, Option<u32>>(0)?, r.get::<_, Option<u32>>(1)?) {
                            (Some(a), Some(b)) => Some((a, b)),
                            _ => None,
                        },
                    )
                })
        })
    }

    fn header(&self, seq: u32) -> StoreResult<Option<LedgerHeader>> {
        let row = self.read(|c| {
            c.prepare_cached("SELECT seq, hash, header FROM ledgers WHERE seq = ?1")?
                .query_row(params![seq], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))
                .optional()
        })?;
        self.header_row(row)
    }

    fn header_by_hash(&self, hash: &Hash256) -> StoreResult<Option<LedgerHeader>> {
        let row = self.read(|c| {
            c.prepare_cached("SELECT seq, hash, header FROM ledgers WHERE hash = ?1")?
                .query_row(params![&hash.0[..]], |r| {
                    Ok((r.get(0)?, r.get(1)?, r.get(2)?))
                })
                .optional()
        })?;
        self.header_row(row)
    }

    fn ledger_txs(&self, seq: u32) -> StoreResult<Vec<StoredTx>> {
        self.read(|c| {
            let sql = format!(
                "SELECT {TX_COLUMNS} FROM txs t JOIN ledgers l ON l.seq = t.seq \
                 WHERE t.seq = ?1 ORDER BY t.idx"
            );
            let mut stmt = c.prepare_cached(&sql)?;
            let rows = stmt.query_map(params![seq], stored_tx)?;
            rows.collect()
        })
    }

    fn tx(&self, id: &Hash256) -> StoreResult<Option<StoredTx>> {
        self.read(|c| {
            let sql = format!(
                "SELECT {TX_COLUMNS} FROM txs t JOIN ledgers l ON l.seq = t.seq WHERE t.id = ?1"
            );
            c.prepare_cached(&sql)?
                .query_row(params![&id.0[..]], stored_tx)
                .optional()
        })
    }

    fn account_tx(&self, q: &AccountTxQuery) -> StoreResult<AccountTxPage> {
        let sql = |one| account_tx_sql(q.forward, one);
        let txs = self.page_rows(q, sql, &q.account.0, stored_tx)?;
        Ok(finish_page(q, txs))
    }

    fn nft_index_ready(&self) -> StoreResult<bool> {
        Ok(self.setting(NFT_INDEX_BUILT)?.is_some())
    }

    fn mpt_index_ready(&self) -> StoreResult<bool> {
        Ok(self.setting(MPT_INDEX_BUILT)?.is_some())
    }

    fn mpt_holder_keys(
        &self,
        issuance: &crate::protocol::mpt::MptId,
        seq: u32,
        after: Option<&AccountId>,
        limit: u32,
    ) -> StoreResult<Vec<(AccountId, Hash256)>> {
        let after = after.map_or(Vec::new(), |a| a.0.to_vec());
        let rows: Vec<(Vec<u8>, Vec<u8>)> = self.read(|c| {
            let mut stmt = c.prepare_cached(
                "SELECT account, key FROM mpt_holders WHERE issuance = ?1 AND seq <= ?2 \
                 AND account > ?3 ORDER BY account",
            )?;
            let rows = stmt.query_map(params![&issuance.0[..], seq, after], |r| {
                Ok((r.get(0)?, r.get(1)?))
            })?;
            rows.take(limit as usize).collect()
        })?;
        Ok(rows
            .into_iter()
            .map(|(a, k)| (account_of(&a), hash_of(k)))
            .collect())
    }

    fn nft(&self, token: &Hash256, seq: u32) -> StoreResult<Option<NftRecord>> {
        self.read(|c| {
            c.prepare_cached(NFT_STATE_SQL)?
                .query_row(params![&token.0[..], seq], nft_record)
                .optional()
        })
    }

    fn nft_txs(&self, token: &Hash256, q: &AccountTxQuery) -> StoreResult<AccountTxPage> {
        let sql = |one| indexed_tx_sql("nft_txs a", "a.token", q.forward, one);
        let txs = self.page_rows(q, sql, &token.0, stored_tx)?;
        Ok(finish_page(q, txs))
    }

    fn nfts_by_issuer(
        &self,
        issuer: &AccountId,
        taxon: Option<u32>,
        seq: u32,
        after: Option<&Hash256>,
        limit: u32,
    ) -> StoreResult<Vec<NftRecord>> {
        let after = after.map_or(Vec::new(), |h| h.0.to_vec());
        let tokens: Vec<Vec<u8>> = self.read(|c| {
            let sql = match taxon {
                Some(_) => {
                    "SELECT token FROM nft_issuers WHERE issuer = ?1 AND taxon = ?5 \
                            AND seq <= ?2 AND token > ?3 ORDER BY token LIMIT ?4"
                }
                None => {
                    "SELECT token FROM nft_issuers WHERE issuer = ?1 AND (?5 IS NULL) \
                         AND seq <= ?2 AND token > ?3 ORDER BY token LIMIT ?4"
                }
            };
            let mut stmt = c.prepare_cached(sql)?;
            let rows = stmt.query_map(params![&issuer.0[..], seq, after, limit, taxon], |r| {
                r.get::<_, Vec<u8>>(0)
            })?;
            rows.collect()
        })?;
        let mut out = Vec::with_capacity(tokens.len());
        for t in tokens {
            if let Some(r) = self.nft(&hash_of(t), seq)? {
                out.push(r);
            }
        }
        Ok(out)
    }

    fn account_tx_places(&self, q: &AccountTxQuery) -> StoreResult<AccountTxPlaces> {
        let sql = |one| account_tx_places_sql(q.forward, one);
        let txs = self.page_rows(q, sql, &q.account.0, tx_place)?;
        let (txs, marker) = finish_rows(q, txs, |t| (t.ledger_seq, t.index));
        Ok(AccountTxPlaces { txs, marker })
    }

    fn recent_txs(&self, start: u32, count: u32) -> StoreResult<Vec<StoredTx>> {
        self.read(|c| {
            let sql = format!(
                "SELECT {TX_COLUMNS} FROM txs t JOIN ledgers l ON l.seq = t.seq \
                 ORDER BY t.seq DESC, t.idx DESC LIMIT ?1 OFFSET ?2"
            );
            let mut stmt = c.prepare_cached(&sql)?;
            let rows = stmt.query_map(params![count, start], stored_tx)?;
            rows.collect()
        })
    }

    fn state_from(&self) -> StoreResult<Option<u32>> {
        self.read(state_from)
    }

    fn state_entry(&self, key: &Hash256, seq: u32) -> StoreResult<Option<Vec<u8>>> {
        let row: Option<Option<Vec<u8>>> = self.read(|c| {
            c.prepare_cached(
                "SELECT data FROM state WHERE key = ?1 AND seq <= ?2 ORDER BY seq DESC LIMIT 1",
            )?
            .query_row(params![&key.0[..], seq], |r| r.get(0))
            .optional()
        })?;
        Ok(row.flatten())
    }

    fn state_page(
        &self,
        seq: u32,
        after: Option<&Hash256>,
        limit: usize,
    ) -> StoreResult<Vec<(Hash256, Vec<u8>)>> {
        let after = after.map(|h| h.0.to_vec()).unwrap_or_default();
        self.read(|c| {
            // One step per key: the newest version at or before `seq` of the next key.
            let mut next_key = c.prepare_cached(
                "SELECT key FROM state WHERE key > ?1 AND seq <= ?2 ORDER BY key LIMIT 1",
            )?;
            let mut version = c.prepare_cached(
                "SELECT data FROM state WHERE key = ?1 AND seq <= ?2 ORDER BY seq DESC LIMIT 1",
            )?;
            let mut out = Vec::new();
            let mut cursor = after;
            while out.len() < limit {
                let Some(key): Option<Vec<u8>> = next_key
                    .query_row(params![cursor, seq], |r| r.get(0))
                    .optional()?
                else {
                    break;
                };
                let data: Option<Vec<u8>> = version.query_row(params![key, seq], |r| r.get(0))?;
                if let Some(data) = data {
                    out.push((hash_of(key.clone()), data));
                }
                cursor = key;
            }
            Ok(out)
        })
    }

    fn write_state_base(&self, seq: u32, rows: &[StateRow]) -> StoreResult<()> {
        let mut conn = self.writer.lock();
        let tx = conn.transaction().map_err(|e| self.fail(e))?;
        start_state_at(&tx, seq).map_err(|e| self.fail(e))?;
        insert_state(&tx, seq, rows).map_err(|e| self.fail(e))?;
        tx.commit().map_err(|e| self.fail(e))
    }

    fn delete_before(&self, seq: u32) -> StoreResult<()> {
        // The marker moves first: a crash between the two leaves extra old ledgers, never
        // a store that looks as if it lost some.
        if self.start()?.is_none_or(|start| start < seq) {
            self.set_start(seq)?;
        }
        self.delete_where("<", seq)
    }

    fn delete_after(&self, seq: u32) -> StoreResult<()> {
        self.delete_where(">", seq)
    }

    fn start(&self) -> StoreResult<Option<u32>> {
        match &self.start_file {
            Some(path) => integrity::read_start(path).map_err(|reason| self.damaged(reason)),
            None => Ok(None),
        }
    }

    fn set_start(&self, seq: u32) -> StoreResult<()> {
        match &self.start_file {
            Some(path) => integrity::write_start(path, seq),
            None => Ok(()),
        }
    }

    fn missing(&self, first: u32, last: u32) -> StoreResult<Vec<(u32, u32)>> {
        if first > last {
            return Ok(Vec::new());
        }
        let count: u64 = self.read(|c| {
            c.prepare_cached("SELECT COUNT(*) FROM ledgers WHERE seq BETWEEN ?1 AND ?2")?
                .query_row(params![first, last], |r| r.get(0))
        })?;
        if count == u64::from(last - first) + 1 {
            return Ok(Vec::new());
        }
        let held: Vec<u32> = self.read(|c| {
            let mut stmt = c.prepare_cached(
                "SELECT seq FROM ledgers WHERE seq BETWEEN ?1 AND ?2 ORDER BY seq",
            )?;
            let rows = stmt.query_map(params![first, last], |r| r.get(0))?;
            rows.collect()
        })?;
        Ok(gaps(first, last, held))
    }

    fn setting(&self, name: &str) -> StoreResult<Option<u32>> {
        let value: Option<i64> = self.read(|c| {
            c.prepare_cached("SELECT value FROM settings WHERE name = ?1")?
                .query_row(params![name], |r| r.get(0))
                .optional()
        })?;
        Ok(value.and_then(|v| u32::try_from(v).ok()))
    }

    fn set_setting(&self, name: &str, value: u32) -> StoreResult<()> {
        self.writer
            .lock()
            .execute(
                "INSERT OR REPLACE INTO settings(name, value) VALUES (?1, ?2)",
                params![name, value],
            )
            .map(|_| ())
            .map_err(|e| self.fail(e))
    }

    fn size_kib(&self) -> StoreResult<Option<u64>> {
        let bytes: i64 = self.read(|c| {
            c.query_row(
                "SELECT page_count * page_size FROM pragma_page_count(), pragma_page_size()",
                [],
                |r| r.get(0),
            )
        })?;
        Ok(u64::try_from(bytes).ok().map(|b| b / 1024))
    }

    fn replace(&self, ledgers: &[HistoryLedger]) -> StoreResult<()> {
        let mut conn = self.writer.lock();
        let tx = conn.transaction().map_err(|e| self.fail(e))?;
        for l in ledgers {
            replace_ledger(&tx, l).map_err(|e| self.fail(e))?;
        }
        tx.commit().map_err(|e| self.fail(e))
    }
}

/// [`HistoryStore::replace`] of one ledger: its ledger and transaction rows go first (an
/// account row or a state row written again for the same ledger replaces itself).
fn replace_ledger(tx: &rusqlite::Transaction<'_>, l: &HistoryLedger) -> rusqlite::Result<()> {
    let seq = l.header.seq;
    tx.execute("DELETE FROM txs WHERE seq = ?1", params![seq])?;
    tx.execute("DELETE FROM ledgers WHERE seq = ?1", params![seq])?;
    insert_rows(tx, l)?;
    if state_from(tx)?.is_some_and(|from| seq < from) {
        return Ok(());
    }
    insert_ledger_state(tx, l)
}

impl SqliteHistory {
    /// Deletes the ledgers whose sequence compares `cmp` to `seq`, with their rows.
    fn delete_where(&self, cmp: &str, seq: u32) -> StoreResult<()> {
        let mut conn = self.writer.lock();
        let tx = conn.transaction().map_err(|e| self.fail(e))?;
        for table in ["account_txs", "txs", "ledgers", "nft_txs"] {
            let sql = format!("DELETE FROM {table} WHERE seq {cmp} ?1");
            tx.execute(&sql, params![seq]).map_err(|e| self.fail(e))?;
        }
        nft_states_where(&tx, cmp, seq).map_err(|e| self.fail(e))?;
        let state = if cmp == "<" {
            prune_state_before(&tx, seq)
        } else {
            forget_state_after(&tx, seq)
        };
        state.map_err(|e| self.fail(e))?;
        tx.commit().map_err(|e| self.fail(e))
    }
}

/// Deletes NFT states after `seq` (`>`, with the tokens first seen there), or before it
/// (`<`), keeping each token's newest state before `seq`: the state it enters the kept
/// ledgers with.
fn nft_states_where(tx: &rusqlite::Transaction<'_>, cmp: &str, seq: u32) -> rusqlite::Result<()> {
    if cmp == ">" {
        for table in ["nft_states", "nft_issuers", "mpt_holders"] {
            tx.execute(&format!("DELETE FROM {table} WHERE seq > ?1"), params![seq])?;
        }
        return Ok(());
    }
    tx.execute(
        "DELETE FROM nft_states WHERE seq < ?1 AND EXISTS (SELECT 1 FROM nft_states n \
         WHERE n.token = nft_states.token AND n.seq < ?1 \
         AND (n.seq > nft_states.seq OR (n.seq = nft_states.seq AND n.idx > nft_states.idx)))",
        params![seq],
    )?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn header(seq: u32, parent: Hash256) -> LedgerHeader {
        let mut h = LedgerHeader {
            seq,
            total_drops: 100,
            parent_hash: parent,
            transaction_hash: Hash256([seq as u8; 32]),
            account_hash: Hash256([1; 32]),
            parent_close_time: seq * 10,
            close_time: seq * 10 + 10,
            close_time_resolution: 10,
            close_flags: 0,
            hash: Hash256::ZERO,
        };
        h.hash = h.compute_hash();
        h
    }

    /// Ledgers 1..=n, each with `per` transactions all mentioning account A (and the odd
    /// ones account B too).
    fn ledgers(n: u32, per: u32) -> Vec<HistoryLedger> {
        let mut parent = Hash256::ZERO;
        let mut out = Vec::new();
        for seq in 1..=n {
            let header = header(seq, parent);
            parent = header.hash;
            let txs = (0..per)
                .map(|i| HistoryTx {
                    id: Hash256([(seq * 16 + i) as u8; 32]),
                    index: i,
                    blob: vec![seq as u8, i as u8],
                    meta: vec![i as u8],
                    delivered: None,
                    accounts: if i % 2 == 1 {
                        vec![AccountId([0xA; 20]), AccountId([0xB; 20])]
                    } else {
                        vec![AccountId([0xA; 20])]
                    },
                })
                .collect();
            // Ledger n writes key n and rewrites key 0; ledger 1 is the base.
            let state = vec![
                (Hash256([0; 32]), Some(Arc::from(vec![seq as u8]))),
                (
                    Hash256([seq as u8; 32]),
                    Some(Arc::from(vec![seq as u8, 0xEE])),
                ),
            ];
            let changes = if seq == 1 {
                StateChanges::Full
            } else {
                StateChanges::Delta
            };
            out.push(HistoryLedger {
                header,
                txs,
                state,
                changes,
            });
        }
        out
    }

    fn page(
        s: &SqliteHistory,
        forward: bool,
        rows: u32,
        marker: Option<(u32, u32)>,
    ) -> AccountTxPage {
        s.account_tx(&AccountTxQuery {
            account: AccountId([0xA; 20]),
            min: 1,
            max: 10,
            forward,
            rows,
            marker,
        })
        .expect("page")
    }

    fn walk(s: &SqliteHistory, forward: bool, rows: u32) -> Vec<(u32, u32)> {
        let mut seen = Vec::new();
        let mut marker = None;
        loop {
            let p = page(s, forward, rows, marker);
            seen.extend(p.txs.iter().map(|t| (t.ledger_seq, t.index)));
            match p.marker {
                Some(m) => marker = Some(m),
                None => return seen,
            }
        }
    }

    #[test]
    fn pages_walk_every_row_once_both_ways() {
        let s = SqliteHistory::in_memory().expect("open");
        s.write(&ledgers(10, 3)).expect("write");
        let fwd = walk(&s, true, 4);
        assert_eq!(fwd.len(), 30);
        assert!(fwd.windows(2).all(|w| w[0] < w[1]), "{fwd:?}");
        let mut back = walk(&s, false, 7);
        back.reverse();
        assert_eq!(back, fwd);
        // A marker that names no row gives an empty page without a marker.
        let p = page(&s, true, 4, Some((3, 9)));
        assert!(p.txs.is_empty() && p.marker.is_none());
    }

    #[test]
    fn ledgers_and_transactions_read_back_and_deletion_forgets_them() {
        let dir = tempfile::tempdir().expect("tempdir");
        let path = dir.path().join("history.sqlite");
        let all = ledgers(5, 2);
        {
            let s = SqliteHistory::open(&path, 2).expect("open");
            s.write(&all[..3]).expect("write");
            s.write(&all[3..]).expect("write");
        }
        let s = SqliteHistory::open(&path, 2).expect("reopen");
        assert_eq!(s.range().expect("range"), Some((1, 5)));
        assert_eq!(s.header(4).expect("h"), Some(all[3].header.clone()));
        assert_eq!(
            s.header_by_hash(&all[2].header.hash).expect("h"),
            Some(all[2].header.clone())
        );
        let t = s.tx(&all[1].txs[1].id).expect("tx").expect("found");
        assert_eq!(
            (t.ledger_seq, t.index, t.ledger_hash),
            (2, 1, all[1].header.hash)
        );
        assert_eq!(s.ledger_txs(5).expect("txs").len(), 2);
        s.delete_before(3).expect("delete");
        assert_eq!(s.range().expect("range"), Some((3, 5)));
        s.delete_after(4).expect("delete");
        assert_eq!(s.range().expect("range"), Some((3, 4)));
        s.write(&all[4..]).expect("ledger 5 again");
        assert!(s.tx(&all[1].txs[1].id).expect("tx").is_none());
        // Writing a ledger twice fails and leaves the store as it was.
        assert!(s.write(&all[3..]).is_err());
        assert_eq!(s.range().expect("range"), Some((3, 5)));
    }

    fn keys_at(s: &SqliteHistory, seq: u32, page: usize) -> Vec<(u8, Vec<u8>)> {
        let mut out = Vec::new();
        let mut after = None;
        loop {
            let rows = s.state_page(seq, after.as_ref(), page).expect("page");
            let Some(last) = rows.last() else {
                return out;
            };
            after = Some(last.0);
            out.extend(rows.into_iter().map(|(k, v)| (k.0[0], v)));
        }
    }

    #[test]
    fn state_reads_at_every_ledger_and_survives_deletion_of_the_past() {
        let s = SqliteHistory::in_memory().expect("open");
        let mut all = ledgers(6, 1);
        // Ledger 4 deletes ledger 2's entry.
        all[3].state.push((Hash256([2; 32]), None));
        s.write(&all).expect("write");
        assert_eq!(s.state_from().expect("from"), Some(1));
        let key = |n: u8| Hash256([n; 32]);
        assert_eq!(s.state_entry(&key(0), 3).expect("read"), Some(vec![3]));
        assert_eq!(
            s.state_entry(&key(2), 3).expect("read"),
            Some(vec![2, 0xEE])
        );
        assert_eq!(s.state_entry(&key(2), 4).expect("read"), None);
        assert_eq!(s.state_entry(&key(5), 4).expect("read"), None);
        let at3: Vec<u8> = keys_at(&s, 3, 2).into_iter().map(|(k, _)| k).collect();
        assert_eq!(at3, [0, 1, 2, 3]);
        let at5: Vec<u8> = keys_at(&s, 5, 1).into_iter().map(|(k, _)| k).collect();
        assert_eq!(at5, [0, 1, 3, 4, 5]);

        // Online deletion keeps ledger 4's view whole and forgets what only 1..3 saw.
        let before = keys_at(&s, 4, 10);
        s.delete_before(4).expect("delete");
        assert_eq!(s.state_from().expect("from"), Some(4));
        assert_eq!(keys_at(&s, 4, 10), before);
        assert_eq!(keys_at(&s, 6, 3).len(), 6);
        // Cutting the newest ledgers forgets their writes.
        s.delete_after(5).expect("delete");
        assert_eq!(s.state_entry(&key(0), 9).expect("read"), Some(vec![5]));
        assert_eq!(s.state_entry(&key(6), 9).expect("read"), None);
    }

    #[test]
    fn a_base_written_later_starts_the_state_there() {
        let s = SqliteHistory::in_memory().expect("open");
        let mut all = ledgers(4, 1);
        for l in &mut all {
            l.changes = StateChanges::Delta;
        }
        s.write(&all).expect("write");
        assert_eq!(s.state_from().expect("from"), None);
        let base = vec![(Hash256([9; 32]), Some(Arc::from(vec![9u8])))];
        s.write_state_base(3, &base).expect("base");
        assert_eq!(s.state_from().expect("from"), Some(3));
        // Rows before the base are gone; ledger 4's delta reads on top of it.
        let at4: Vec<u8> = keys_at(&s, 4, 10).into_iter().map(|(k, _)| k).collect();
        assert_eq!(at4, [0, 3, 4, 9]);
        s.delete_after(2).expect("delete");
        assert_eq!(s.state_from().expect("from"), None);
    }

    #[test]
    fn gaps_are_the_ranges_not_held() {
        assert_eq!(gaps(1, 10, [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]), []);
        assert_eq!(gaps(1, 10, [2, 3, 7]), [(1, 1), (4, 6), (8, 10)]);
        assert_eq!(gaps(5, 5, Vec::new()), [(5, 5)]);
        assert_eq!(gaps(1, u32::MAX, [1, u32::MAX]), [(2, u32::MAX - 1)]);
    }

    #[test]
    fn missing_ledgers_are_found_and_replaced_in_place() {
        let dir = tempfile::tempdir().expect("tempdir");
        let s = SqliteHistory::open(&dir.path().join("h.sqlite"), 1).expect("open");
        let all = ledgers(10, 2);
        s.write(&all).expect("write");
        assert_eq!(s.missing(1, 10).expect("missing"), []);
        // Only the ledgers' rows go (their transactions stay behind, as in the issue).
        s.writer
            .lock()
            .execute("DELETE FROM ledgers WHERE seq BETWEEN 4 AND 6", [])
            .expect("delete");
        assert_eq!(s.missing(1, 10).expect("missing"), [(4, 6)]);
        assert_eq!(s.missing(2, 5).expect("missing"), [(4, 5)]);
        assert!(
            s.write(&all[3..6]).is_err(),
            "their transactions are still there"
        );
        s.replace(&all[3..6]).expect("replace");
        assert_eq!(s.missing(1, 10).expect("missing"), []);
        let t = s.tx(&all[4].txs[1].id).expect("tx").expect("found");
        assert_eq!((t.ledger_seq, t.index), (5, 1));
        // Below the state base a ledger comes back without state rows.
        s.delete_before(8).expect("delete");
        assert_eq!(s.state_from().expect("from"), Some(8));
        let before = keys_at(&s, 9, 10);
        s.replace(&all[..7]).expect("replace");
        assert_eq!(s.range().expect("range"), Some((1, 10)));
        assert_eq!(keys_at(&s, 9, 10), before);
    }

    #[test]
    fn the_start_marker_is_durable_and_moves_before_online_deletion() {
        let dir = tempfile::tempdir().expect("tempdir");
        let path = dir.path().join("history.sqlite");
        let s = SqliteHistory::open(&path, 1).expect("open");
        assert_eq!(s.start().expect("start"), None);
        s.write(&ledgers(6, 1)).expect("write");
        s.set_start(1).expect("mark");
        s.delete_before(4).expect("delete");
        assert_eq!(s.start().expect("start"), Some(4));
        // Never backwards.
        s.delete_before(2).expect("delete");
        assert_eq!(s.start().expect("start"), Some(4));
        drop(s);
        let marker = dir.path().join("history.start");
        let text = std::fs::read_to_string(&marker).expect("marker");
        assert_eq!(text.lines().next(), Some("4"));
        std::fs::remove_file(&path).expect("delete the database");
        let s = SqliteHistory::open(&path, 1).expect("open");
        assert_eq!(
            s.start().expect("start"),
            Some(4),
            "the marker outlives the file"
        );
        assert_eq!(s.range().expect("range"), None);
        std::fs::write(&marker, "four\n").expect("garble");
        let e = s.start().expect_err("unreadable");
        assert!(e.is_history_damage(), "{e}");
        assert!(SqliteHistory::in_memory()
            .expect("open")
            .start()
            .expect("s")
            .is_none());
    }

    /// A byte of an index page flipped: SQLite's quick_check passes it, the integrity
    /// check the store runs at open does not.
    #[test]
    fn a_damaged_index_is_refused_at_open() {
        let dir = tempfile::tempdir().expect("tempdir");
        let path = dir.path().join("history.sqlite");
        {
            let s = SqliteHistory::open(&path, 1).expect("open");
            let mut all = ledgers(200, 4);
            for l in &mut all {
                for t in &mut l.txs {
                    let mut id = [0x77u8; 32];
                    id[..4].copy_from_slice(&l.header.seq.to_be_bytes());
                    id[4] = t.index as u8;
                    t.id = Hash256(id);
                }
            }
            s.write(&all).expect("write");
            s.writer
                .lock()
                .execute_batch("PRAGMA wal_checkpoint(TRUNCATE);")
                .expect("checkpoint");
        }
        let mut bytes = std::fs::read(&path).expect("read");
        let page = u16::from_be_bytes([bytes[16], bytes[17]]) as usize;
        // The txs_by_ledger index's root page, and the first key byte of its first cell
        // (a leaf of (seq, idx, id) records).
        let root: usize = {
            let c = Connection::open(&path).expect("open");
            c.query_row(
                "SELECT rootpage FROM sqlite_master WHERE name = 'txs_by_ledger'",
                [],
                |r| r.get(0),
            )
            .expect("root")
        };
        // Down the leftmost children to a leaf; flip the last byte of its first record
        // (in the transaction ID: the key's order, by ledger and index, is kept).
        let mut pg = root;
        loop {
            let base = (pg - 1) * page;
            let word = |at: usize| u16::from_be_bytes([bytes[at], bytes[at + 1]]) as usize;
            match bytes[base] {
                0x02 => {
                    let cell = base + word(base + 12);
                    pg = u32::from_be_bytes(bytes[cell..cell + 4].try_into().expect("4")) as usize;
                }
                0x0A => {
                    let cell = base + word(base + 8);
                    let payload = bytes[cell] as usize;
                    assert!(payload < 0x80, "a one-byte payload length");
                    bytes[cell + payload] ^= 0x55;
                    break;
                }
                kind => panic!("page {pg} of the index is of kind {kind}"),
            }
        }
        std::fs::write(&path, bytes).expect("write");
        let quick: String = Connection::open(&path)
            .expect("open")
            .query_row("PRAGMA quick_check", [], |r| r.get(0))
            .expect("quick_check");
        assert_eq!(
            quick, "ok",
            "quick_check does not compare an index with its table"
        );
        let Err(e) = SqliteHistory::open(&path, 1) else {
            panic!("a damaged index opened");
        };
        assert!(e.is_history_damage(), "{e}");
        assert!(e.to_string().contains("integrity check"), "{e}");
    }
}
