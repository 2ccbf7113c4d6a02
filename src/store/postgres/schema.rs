//! The schema, as numbered migrations applied in order at open. Each runs in the same
//! transaction as the record of it, under an advisory lock, so read nodes and the writer
//! starting together apply each exactly once; a database migrated by a newer ledgerd is
//! refused rather than misread.
//!
//! Sequences and indexes are BIGINT (PostgreSQL has no unsigned 32-bit type); keys, hashes
//! and blobs are BYTEA in rippled's binary forms, as in the SQLite store.

use deadpool_postgres::Client;

use super::{PgError, PgResult};

/// The advisory lock migrations hold (any fixed number: "ledgerd" in ASCII).
const MIGRATION_LOCK: i64 = 0x006c_6564_6765_7264;

/// `(version, SQL)`, oldest first. Never edit one that has shipped: add the next.
const MIGRATIONS: &[(i32, &str)] = &[
    (
        1,
        "
CREATE TABLE ledgers(
    seq BIGINT PRIMARY KEY, hash BYTEA NOT NULL, close_time BIGINT NOT NULL,
    header BYTEA NOT NULL);
CREATE INDEX ledgers_by_hash ON ledgers(hash);
CREATE TABLE txs(
    id BYTEA PRIMARY KEY, seq BIGINT NOT NULL, idx BIGINT NOT NULL, blob BYTEA NOT NULL,
    meta BYTEA NOT NULL, delivered BYTEA);
CREATE INDEX txs_by_ledger ON txs(seq, idx);
CREATE TABLE account_txs(
    account BYTEA NOT NULL, seq BIGINT NOT NULL, idx BIGINT NOT NULL, id BYTEA NOT NULL,
    PRIMARY KEY(account, seq, idx));
CREATE TABLE state(key BYTEA NOT NULL, seq BIGINT NOT NULL, data BYTEA);
CREATE UNIQUE INDEX state_by_key ON state(key, seq DESC);
CREATE TABLE settings(name TEXT PRIMARY KEY, value BIGINT NOT NULL);
",
    ),
    (
        2,
        "
CREATE TABLE nft_states(
    token BYTEA NOT NULL, seq BIGINT NOT NULL, idx BIGINT NOT NULL, owner BYTEA NOT NULL,
    burned BOOLEAN NOT NULL, uri BYTEA, PRIMARY KEY(token, seq, idx));
CREATE TABLE nft_txs(
    token BYTEA NOT NULL, seq BIGINT NOT NULL, idx BIGINT NOT NULL, id BYTEA NOT NULL,
    PRIMARY KEY(token, seq, idx));
CREATE TABLE nft_issuers(
    issuer BYTEA NOT NULL, token BYTEA NOT NULL, taxon BIGINT NOT NULL, seq BIGINT NOT NULL,
    PRIMARY KEY(issuer, token));
CREATE INDEX nft_issuers_by_taxon ON nft_issuers(issuer, taxon, token);
INSERT INTO settings(name, value) SELECT 'nft_index_built', 1 WHERE NOT EXISTS (SELECT 1 FROM txs);
",
    ),
    (
        3,
        "
CREATE TABLE mpt_holders(
    issuance BYTEA NOT NULL, account BYTEA NOT NULL, key BYTEA NOT NULL, seq BIGINT NOT NULL,
    PRIMARY KEY(issuance, account));
INSERT INTO settings(name, value) SELECT 'mpt_index_built', 1 WHERE NOT EXISTS (SELECT 1 FROM state);
",
    ),
];

/// The newest schema this ledgerd knows.
pub(crate) fn latest() -> i32 {
    MIGRATIONS.last().map_or(0, |m| m.0)
}

/// Applies the migrations the database lacks.
pub(crate) async fn migrate(client: &mut Client) -> PgResult<()> {
    let tx = client.transaction().await?;
    tx.execute("SELECT pg_advisory_xact_lock($1)", &[&MIGRATION_LOCK])
        .await?;
    tx.batch_execute(
        "CREATE TABLE IF NOT EXISTS schema_migrations(
            version INTEGER PRIMARY KEY, applied_at TIMESTAMPTZ NOT NULL DEFAULT now())",
    )
    .await?;
    let row = tx
        .query_one(
            "SELECT COALESCE(MAX(version), 0) FROM schema_migrations",
            &[],
        )
        .await?;
    let done: i32 = row.get(0);
    if done > latest() {
        return Err(PgError::Damaged(format!(
            "schema version {done} is newer than this ledgerd's ({}); refusing to use it",
            latest()
        )));
    }
    for (version, sql) in MIGRATIONS.iter().filter(|m| m.0 > done) {
        tx.batch_execute(sql).await?;
        tx.execute(
            "INSERT INTO schema_migrations(version) VALUES ($1)",
            &[version],
        )
        .await?;
        tracing::info!(version, "history database schema migrated");
    }
    tx.commit().await?;
    Ok(())
}
