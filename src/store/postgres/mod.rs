//! The history store in PostgreSQL: the same tables as [`super::SqliteHistory`]
//! (`ledgers`, `txs`, `account_txs`, versioned `state`), shared by the writer, which fills
//! it in ledger order, and any number of read nodes (`serve --read-only`), which read it.
//!
//! - `schema`: the migrations, applied in order under an advisory lock at open.
//! - `write`: one PostgreSQL transaction per ledger, rows by binary COPY; a ledger already
//!   stored with the same hash is skipped, so a writer that restarts resumes where it
//!   stopped.
//! - `read`: the [`HistoryStore`] reads.
//!
//! tokio-postgres is asynchronous and [`HistoryStore`] is not (SQLite, its other backend,
//! is called from blocking threads and handlers alike), so a [`PgHistory`] owns a small
//! runtime of its own: the connections' tasks run there, and each call blocks its caller
//! until the database answers or [`PG_CALL_TIMEOUT_SECS`] pass. Connections come from a
//! deadpool pool that replaces a broken one on the next call, so a database restart costs
//! the calls made while it is down (they fail with [`StoreError::Unavailable`]) and nothing
//! after.

mod read;
mod schema;
mod write;

use std::future::Future;
use std::time::Duration;

use deadpool_postgres::{Manager, ManagerConfig, Pool, RecyclingMethod};
use tokio_postgres::NoTls;

use super::error::{StoreError, StoreResult};
use crate::limits::{
    PG_CALL_TIMEOUT_SECS, PG_CONNECT_TIMEOUT_SECS, PG_DOWN_HOLD_MS, PG_POOL_CONNECTIONS,
};

/// What a database call can fail with, before it is told as a [`StoreError`].
#[derive(Debug)]
pub(crate) enum PgError {
    /// No connection: connecting failed, or the pool timed out.
    Pool(deadpool_postgres::PoolError),
    /// The database answered with an error, or the connection broke.
    Db(tokio_postgres::Error),
    /// The database holds something it should not.
    Damaged(String),
}

impl From<deadpool_postgres::PoolError> for PgError {
    fn from(e: deadpool_postgres::PoolError) -> Self {
        PgError::Pool(e)
    }
}

impl From<tokio_postgres::Error> for PgError {
    fn from(e: tokio_postgres::Error) -> Self {
        PgError::Db(e)
    }
}

pub(crate) type PgResult<T> = Result<T, PgError>;

thread_local! {
    static UNAVAILABLE: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// True when a call on this thread found the database unavailable since this was last
/// asked: the RPC layer answers such a request `notReady` rather than with what the
/// missing reads made it look like (an account not found, an empty page).
pub fn take_unavailable() -> bool {
    UNAVAILABLE.with(|c| c.replace(false))
}

/// The history store in a PostgreSQL database.
pub struct PgHistory {
    /// `host:port/database`, for messages (never the password).
    name: String,
    pool: Pool,
    /// The connections' runtime; shut down without waiting when the store is dropped.
    runtime: Option<tokio::runtime::Runtime>,
    /// Until when calls fail at once: the database was just found unreachable.
    down_until: parking_lot::Mutex<Option<std::time::Instant>>,
}

impl PgHistory {
    /// Connects to the database at `url` (`postgresql://user@host:port/db`) and brings its
    /// schema up to date. Fails when the database cannot be reached now.
    pub fn open(url: &str) -> StoreResult<PgHistory> {
        let store = PgHistory::connect_lazily(url)?;
        store.call(|pool| async move {
            let mut client = pool.get().await?;
            schema::migrate(&mut client).await
        })?;
        Ok(store)
    }

    /// A store over the database at `url` that connects on its first call and never
    /// migrates (a read node: the writer owns the schema). Fails only on a malformed URL.
    pub fn connect_lazily(url: &str) -> StoreResult<PgHistory> {
        let config: tokio_postgres::Config = url.parse().map_err(|e| StoreError::History {
            file: "postgresql".into(),
            reason: format!("not a PostgreSQL URL: {e}"),
        })?;
        let name = shown_name(&config);
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(1)
            .thread_name("ledgerd-pg")
            .enable_all()
            .build()
            .map_err(|e| StoreError::Unavailable {
                store: name.clone(),
                reason: format!("cannot start its runtime: {e}"),
            })?;
        let pool = new_pool(config, &name)?;
        Ok(PgHistory {
            name,
            pool,
            runtime: Some(runtime),
            down_until: parking_lot::Mutex::new(None),
        })
    }

    /// `host:port/database`, for messages.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Runs `f` with the pool on this store's runtime, waiting for it at most
    /// [`PG_CALL_TIMEOUT_SECS`]. Safe from any thread, a tokio worker's included: the
    /// caller blocks as it would on a SQLite read.
    pub(crate) fn call<'a, T, F, Fut>(&'a self, f: F) -> StoreResult<T>
    where
        F: FnOnce(&'a Pool) -> Fut,
        Fut: Future<Output = PgResult<T>> + 'a,
    {
        let Some(runtime) = &self.runtime else {
            return Err(self.unavailable("the store is closed".into()));
        };
        if self
            .down_until
            .lock()
            .is_some_and(|t| std::time::Instant::now() < t)
        {
            return Err(self.unavailable("unreachable a moment ago".into()));
        }
        let _context = runtime.handle().enter();
        let limit = Duration::from_secs(PG_CALL_TIMEOUT_SECS);
        let result = match futures::executor::block_on(tokio::time::timeout(limit, f(&self.pool))) {
            Ok(Ok(v)) => Ok(v),
            Ok(Err(e)) => Err(self.error(e)),
            Err(_) => Err(self.unavailable(format!("no answer in {PG_CALL_TIMEOUT_SECS} s"))),
        };
        if matches!(result, Err(StoreError::Unavailable { .. })) {
            let hold = Duration::from_millis(PG_DOWN_HOLD_MS);
            *self.down_until.lock() = Some(std::time::Instant::now() + hold);
        }
        result
    }

    fn unavailable(&self, reason: String) -> StoreError {
        UNAVAILABLE.with(|c| c.set(true));
        StoreError::Unavailable {
            store: self.name.clone(),
            reason,
        }
    }

    /// A database error is the data's fault only when the server said so; a broken or
    /// missing connection is unavailability, which a retry can cure.
    fn error(&self, e: PgError) -> StoreError {
        match e {
            PgError::Db(e) if e.as_db_error().is_some() => StoreError::History {
                file: self.name.clone(),
                reason: e.to_string(),
            },
            PgError::Db(e) => self.unavailable(e.to_string()),
            PgError::Pool(e) => self.unavailable(e.to_string()),
            PgError::Damaged(reason) => StoreError::History {
                file: self.name.clone(),
                reason,
            },
        }
    }
}

impl Drop for PgHistory {
    fn drop(&mut self) {
        if let Some(rt) = self.runtime.take() {
            rt.shutdown_background();
        }
    }
}

fn new_pool(config: tokio_postgres::Config, name: &str) -> StoreResult<Pool> {
    let manager = Manager::from_config(
        config,
        NoTls,
        ManagerConfig {
            recycling_method: RecyclingMethod::Fast,
        },
    );
    let wait = Some(Duration::from_secs(PG_CALL_TIMEOUT_SECS));
    Pool::builder(manager)
        .max_size(PG_POOL_CONNECTIONS)
        .runtime(deadpool_postgres::Runtime::Tokio1)
        .wait_timeout(wait)
        .create_timeout(Some(Duration::from_secs(PG_CONNECT_TIMEOUT_SECS)))
        .recycle_timeout(wait)
        .build()
        .map_err(|e| StoreError::History {
            file: name.to_string(),
            reason: format!("connection pool: {e}"),
        })
}

/// `host:port/database` of a configuration: what messages name (the URL may hold a
/// password).
fn shown_name(config: &tokio_postgres::Config) -> String {
    let host = match config.get_hosts().first() {
        Some(tokio_postgres::config::Host::Tcp(h)) => h.clone(),
        #[cfg(unix)]
        Some(tokio_postgres::config::Host::Unix(p)) => p.display().to_string(),
        None => "localhost".into(),
    };
    let port = config.get_ports().first().copied().unwrap_or(5432);
    let db = config
        .get_dbname()
        .or(config.get_user())
        .unwrap_or("postgres");
    format!("postgresql {host}:{port}/{db}")
}

/// A `u32` column as PostgreSQL keeps it (BIGINT: it has no unsigned types).
fn big(v: u32) -> i64 {
    i64::from(v)
}

/// A BIGINT column back as the `u32` it was written from.
fn small(v: i64) -> PgResult<u32> {
    u32::try_from(v).map_err(|_| PgError::Damaged(format!("{v} is not a 32-bit value")))
}
