//! [`HistoryStore`] on PostgreSQL: the SQLite store's queries, one round trip each.

use tokio_postgres::Row;

use super::write::{self, copy_state, start_state_at};
use super::{big, small, PgError, PgHistory, PgResult};
use crate::ledger::header::LedgerHeader;
use crate::protocol::types::AccountId;
use crate::protocol::types::Hash256;
use crate::store::error::StoreResult;
use crate::store::history::{
    account_of, decode_header, finish_page, finish_rows, hash_of, page_ranges, AccountTxPage,
    AccountTxPlaces, AccountTxQuery, FollowerStatus, HistoryLedger, HistoryStore, NftRecord,
    StateRow, StoredTx, TxPlace, MPT_INDEX_BUILT, NFT_INDEX_BUILT,
};
use crate::store::nft_index::NftState;

const TX_COLUMNS: &str = "t.id, t.seq, t.idx, t.blob, t.meta, t.delivered, l.hash, l.close_time";

fn stored_tx(row: &Row) -> PgResult<StoredTx> {
    Ok(StoredTx {
        id: hash_of(row.get(0)),
        ledger_seq: small(row.get(1))?,
        index: small(row.get(2))?,
        blob: row.get(3),
        meta: row.get(4),
        delivered: row.get(5),
        ledger_hash: hash_of(row.get(6)),
        close_time: small(row.get(7))?,
    })
}

/// A page's rows from an index of (key, seq, idx): `stmt` (bound to `key`, the ledgers,
/// the indexes and a limit) once per part of the page, each asked only what the page still
/// needs.
async fn page_rows<T>(
    client: &deadpool_postgres::Client,
    stmt: &tokio_postgres::Statement,
    q: &AccountTxQuery,
    key: &[u8],
    row: fn(&Row) -> PgResult<T>,
) -> PgResult<Vec<T>> {
    let wanted = i64::from(q.rows) + 1;
    let mut out = Vec::new();
    for ((a, b), (from, to)) in page_ranges(q) {
        let left = wanted - out.len() as i64;
        if left == 0 {
            break;
        }
        let args: [&(dyn tokio_postgres::types::ToSql + Sync); 6] =
            [&key, &big(a), &big(b), &big(from), &big(to), &left];
        for r in client.query(stmt, &args).await? {
            out.push(row(&r)?);
        }
    }
    Ok(out)
}

fn stored_txs(rows: Vec<Row>) -> PgResult<Vec<StoredTx>> {
    rows.iter().map(stored_tx).collect()
}

/// A header row `(seq, hash, header)`, checked: its bytes must hash to its hash.
fn header_row(row: Option<Row>) -> PgResult<Option<LedgerHeader>> {
    let Some(row) = row else {
        return Ok(None);
    };
    let seq = small(row.get(0))?;
    let hash: Vec<u8> = row.get(1);
    let bytes: Vec<u8> = row.get(2);
    decode_header(&bytes)
        .filter(|h| h.hash.0.as_slice() == hash.as_slice() && h.seq == seq)
        .map(Some)
        .ok_or_else(|| PgError::Damaged(format!("ledger {seq}'s header does not match its hash")))
}

/// One account_tx query: the account's rows in ledgers `$2..=$3` with index `$4..=$5`, in
/// the asked order, at most `$6`.
fn account_tx_sql(forward: bool) -> String {
    let order = if forward { "ASC" } else { "DESC" };
    format!(
        "SELECT {TX_COLUMNS} FROM account_txs a JOIN txs t ON t.id = a.id \
         JOIN ledgers l ON l.seq = a.seq \
         WHERE a.account = $1 AND a.seq BETWEEN $2 AND $3 AND a.idx BETWEEN $4 AND $5 \
         ORDER BY a.seq {order}, a.idx {order} LIMIT $6"
    )
}

/// [`account_tx_sql`] over the NFT index: the token's rows.
fn nft_txs_sql(forward: bool) -> String {
    let order = if forward { "ASC" } else { "DESC" };
    format!(
        "SELECT {TX_COLUMNS} FROM nft_txs a JOIN txs t ON t.id = a.id \
         JOIN ledgers l ON l.seq = a.seq \
         WHERE a.token = $1 AND a.seq BETWEEN $2 AND $3 AND a.idx BETWEEN $4 AND $5 \
         ORDER BY a.seq {order}, a.idx {order} LIMIT $6"
    )
}

/// A token's newest state at or before `$2`.
const NFT_STATE_SQL: &str = "SELECT token, seq, owner, burned, uri FROM nft_states \
     WHERE token = $1 AND seq <= $2 ORDER BY seq DESC, idx DESC LIMIT 1";

fn nft_record(row: &Row) -> PgResult<NftRecord> {
    let owner: Vec<u8> = row.get(2);
    let mut id = [0u8; 20];
    if owner.len() == 20 {
        id.copy_from_slice(&owner);
    }
    Ok(NftRecord {
        token: hash_of(row.get(0)),
        seq: small(row.get(1))?,
        state: NftState {
            owner: AccountId(id),
            burned: row.get(3),
            uri: row.get(4),
        },
    })
}

/// [`account_tx_sql`] for the rows' places only: the account index and the ledgers' hashes.
fn account_tx_places_sql(forward: bool) -> String {
    let order = if forward { "ASC" } else { "DESC" };
    format!(
        "SELECT a.id, a.seq, a.idx, l.hash FROM account_txs a JOIN ledgers l ON l.seq = a.seq \
         WHERE a.account = $1 AND a.seq BETWEEN $2 AND $3 AND a.idx BETWEEN $4 AND $5 \
         ORDER BY a.seq {order}, a.idx {order} LIMIT $6"
    )
}

fn tx_place(row: &Row) -> PgResult<TxPlace> {
    Ok(TxPlace {
        id: hash_of(row.get(0)),
        ledger_seq: small(row.get(1))?,
        index: small(row.get(2))?,
        ledger_hash: hash_of(row.get(3)),
    })
}

/// The newest version at or before `$2` of each key after `$1`, in key order: the
/// `state_by_key` index is (key, seq DESC), so this is one ordered index scan.
const STATE_PAGE_SQL: &str = "SELECT DISTINCT ON (key) key, data FROM state \
     WHERE key > $1 AND seq <= $2 ORDER BY key, seq DESC LIMIT $3";

impl PgHistory {
    /// Whether the settings table holds `name` (the indexes' "built" marks).
    fn has_setting(&self, name: &'static str) -> StoreResult<bool> {
        self.call(|pool| async move {
            let client = pool.get().await?;
            let row = client
                .query_opt("SELECT value FROM settings WHERE name = $1", &[&name])
                .await?;
            Ok(row.is_some())
        })
    }

    /// Fills the MPT holder index from the stored state of a database made before it, then
    /// marks it built.
    pub fn build_mpt_index(&self) -> StoreResult<()> {
        if self.mpt_index_ready()? {
            return Ok(());
        }
        self.call(|pool| async move {
            let mut client = pool.get().await?;
            write::index_mpt_holders(&mut client).await?;
            client
                .execute(
                    "INSERT INTO settings(name, value) VALUES ($1, 1) ON CONFLICT (name) DO NOTHING",
                    &[&MPT_INDEX_BUILT],
                )
                .await?;
            Ok(())
        })
    }

    /// Fills the NFT index from the stored transactions of a database made before it,
    /// `batch` ledgers per transaction, calling `progress(done_through, last)` after each;
    /// then marks it built (the writer's copy runs this once, on its own thread).
    pub fn build_nft_index(
        &self,
        batch: u32,
        mut progress: impl FnMut(u32, u32),
    ) -> StoreResult<()> {
        if self.nft_index_ready()? {
            return Ok(());
        }
        if let Some((first, last)) = self.range()? {
            let mut from = first;
            while from <= last {
                let to = from.saturating_add(batch.max(1) - 1).min(last);
                self.call(|pool| async move {
                    let mut client = pool.get().await?;
                    write::index_nfts(&mut client, from, to).await
                })?;
                progress(to, last);
                if to == u32::MAX {
                    break;
                }
                from = to + 1;
            }
        }
        self.call(|pool| async move {
            let client = pool.get().await?;
            client
                .execute(
                    "INSERT INTO settings(name, value) VALUES ($1, 1) ON CONFLICT (name) DO NOTHING",
                    &[&NFT_INDEX_BUILT],
                )
                .await?;
            Ok(())
        })
    }

    async fn state_page_async(
        pool: &deadpool_postgres::Pool,
        seq: u32,
        after: Vec<u8>,
        limit: usize,
    ) -> PgResult<Vec<(Hash256, Vec<u8>)>> {
        let client = pool.get().await?;
        let stmt = client.prepare_cached(STATE_PAGE_SQL).await?;
        let mut out = Vec::new();
        let mut cursor = after;
        // Deleted entries count against a batch's LIMIT: ask again until the page is full.
        while out.len() < limit {
            let want = (limit - out.len()) as i64;
            let rows = client.query(&stmt, &[&cursor, &big(seq), &want]).await?;
            let full = rows.len() as i64 == want;
            for row in &rows {
                let key: Vec<u8> = row.get(0);
                let data: Option<Vec<u8>> = row.get(1);
                if let Some(data) = data {
                    out.push((hash_of(key.clone()), data));
                }
                cursor = key;
            }
            if !full {
                break;
            }
        }
        Ok(out)
    }
}

impl HistoryStore for PgHistory {
    fn write(&self, ledgers: &[HistoryLedger]) -> StoreResult<()> {
        self.call(|pool| async move {
            let mut client = pool.get().await?;
            for l in ledgers {
                write::write_ledger(&mut client, l).await?;
            }
            Ok(())
        })
    }

    fn range(&self) -> StoreResult<Option<(u32, u32)>> {
        self.call(|pool| async move {
            let client = pool.get().await?;
            let row = client
                .query_one("SELECT MIN(seq), MAX(seq) FROM ledgers", &[])
                .await?;
            match (row.get::<_, Option<i64>>(0), row.get::<_, Option<i64>>(1)) {
                (Some(a), Some(b)) => Ok(Some((small(a)?, small(b)?))),
                _ => Ok(None),
            }
        })
    }

    fn header(&self, seq: u32) -> StoreResult<Option<LedgerHeader>> {
        self.call(|pool| async move {
            let client = pool.get().await?;
            let stmt = client
                .prepare_cached("SELECT seq, hash, header FROM ledgers WHERE seq = $1")
                .await?;
            header_row(client.query_opt(&stmt, &[&big(seq)]).await?)
        })
    }

    fn header_by_hash(&self, hash: &Hash256) -> StoreResult<Option<LedgerHeader>> {
        self.call(|pool| async move {
            let client = pool.get().await?;
            let stmt = client
                .prepare_cached("SELECT seq, hash, header FROM ledgers WHERE hash = $1")
                .await?;
            header_row(client.query_opt(&stmt, &[&&hash.0[..]]).await?)
        })
    }

    fn ledger_txs(&self, seq: u32) -> StoreResult<Vec<StoredTx>> {
        self.call(|pool| async move {
            let client = pool.get().await?;
            let sql = format!(
                "SELECT {TX_COLUMNS} FROM txs t JOIN ledgers l ON l.seq = t.seq \
                 WHERE t.seq = $1 ORDER BY t.idx"
            );
            let stmt = client.prepare_cached(&sql).await?;
            stored_txs(client.query(&stmt, &[&big(seq)]).await?)
        })
    }

    fn tx(&self, id: &Hash256) -> StoreResult<Option<StoredTx>> {
        self.call(|pool| async move {
            let client = pool.get().await?;
            let sql = format!(
                "SELECT {TX_COLUMNS} FROM txs t JOIN ledgers l ON l.seq = t.seq WHERE t.id = $1"
            );
            let stmt = client.prepare_cached(&sql).await?;
            let row = client.query_opt(&stmt, &[&&id.0[..]]).await?;
            row.as_ref().map(stored_tx).transpose()
        })
    }

    fn account_tx(&self, q: &AccountTxQuery) -> StoreResult<AccountTxPage> {
        let txs = self.call(|pool| async move {
            let client = pool.get().await?;
            let stmt = client.prepare_cached(&account_tx_sql(q.forward)).await?;
            page_rows(&client, &stmt, q, &q.account.0, stored_tx).await
        })?;
        Ok(finish_page(q, txs))
    }

    fn replication_lag(&self) -> StoreResult<Option<f64>> {
        self.call(|pool| async move {
            let client = pool.get().await?;
            let row = client
                .query_one(
                    "SELECT CASE WHEN NOT pg_is_in_recovery() THEN NULL \
                     WHEN pg_last_wal_receive_lsn() = pg_last_wal_replay_lsn() THEN 0::float8 \
                     ELSE COALESCE(EXTRACT(EPOCH FROM now() - pg_last_xact_replay_timestamp()), 0)::float8 END",
                    &[],
                )
                .await?;
            Ok(row.get::<_, Option<f64>>(0))
        })
    }

    fn follower_status(&self) -> StoreResult<FollowerStatus> {
        self.call(|pool| async move {
            let client = pool.get().await?;
            let row = client
                .query_one(
                    "SELECT CASE WHEN NOT pg_is_in_recovery() THEN NULL \
                     WHEN pg_last_wal_receive_lsn() = pg_last_wal_replay_lsn() THEN 0::float8 \
                     ELSE COALESCE(EXTRACT(EPOCH FROM now() - pg_last_xact_replay_timestamp()), 0)::float8 END, \
                     EXISTS (SELECT 1 FROM settings WHERE name = $1), \
                     EXISTS (SELECT 1 FROM settings WHERE name = $2)",
                    &[&NFT_INDEX_BUILT, &MPT_INDEX_BUILT],
                )
                .await?;
            Ok(FollowerStatus {
                replication_lag: row.get::<_, Option<f64>>(0),
                nft_index_ready: row.get(1),
                mpt_index_ready: row.get(2),
            })
        })
    }

    fn mpt_index_ready(&self) -> StoreResult<bool> {
        self.has_setting(MPT_INDEX_BUILT)
    }

    fn mpt_holder_keys(
        &self,
        issuance: &crate::protocol::mpt::MptId,
        seq: u32,
        after: Option<&AccountId>,
        limit: u32,
    ) -> StoreResult<Vec<(AccountId, Hash256)>> {
        let after = after.map_or(Vec::new(), |a| a.0.to_vec());
        self.call(|pool| async move {
            let client = pool.get().await?;
            let rows = client
                .query(
                    "SELECT account, key FROM mpt_holders WHERE issuance = $1 AND seq <= $2 \
                     AND account > $3 ORDER BY account LIMIT $4",
                    &[&&issuance.0[..], &big(seq), &after, &i64::from(limit)],
                )
                .await?;
            Ok(rows
                .iter()
                .map(|r| (account_of(r.get::<_, &[u8]>(0)), hash_of(r.get(1))))
                .collect())
        })
    }

    fn nft_index_ready(&self) -> StoreResult<bool> {
        self.has_setting(NFT_INDEX_BUILT)
    }

    fn nft(&self, token: &Hash256, seq: u32) -> StoreResult<Option<NftRecord>> {
        self.call(|pool| async move {
            let client = pool.get().await?;
            let stmt = client.prepare_cached(NFT_STATE_SQL).await?;
            let row = client.query_opt(&stmt, &[&&token.0[..], &big(seq)]).await?;
            row.as_ref().map(nft_record).transpose()
        })
    }

    fn nft_txs(&self, token: &Hash256, q: &AccountTxQuery) -> StoreResult<AccountTxPage> {
        let txs = self.call(|pool| async move {
            let client = pool.get().await?;
            let stmt = client.prepare_cached(&nft_txs_sql(q.forward)).await?;
            page_rows(&client, &stmt, q, &token.0, stored_tx).await
        })?;
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
        let tokens: Vec<Vec<u8>> = self.call(|pool| async move {
            let client = pool.get().await?;
            let taxon = taxon.map(i64::from);
            let rows = client
                .query(
                    "SELECT token FROM nft_issuers WHERE issuer = $1 \
                     AND ($5::BIGINT IS NULL OR taxon = $5) AND seq <= $2 AND token > $3 \
                     ORDER BY token LIMIT $4",
                    &[&&issuer.0[..], &big(seq), &after, &i64::from(limit), &taxon],
                )
                .await?;
            Ok(rows.iter().map(|r| r.get(0)).collect())
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
        let txs = self.call(|pool| async move {
            let client = pool.get().await?;
            let stmt = client
                .prepare_cached(&account_tx_places_sql(q.forward))
                .await?;
            page_rows(&client, &stmt, q, &q.account.0, tx_place).await
        })?;
        let (txs, marker) = finish_rows(q, txs, |t| (t.ledger_seq, t.index));
        Ok(AccountTxPlaces { txs, marker })
    }

    fn recent_txs(&self, start: u32, count: u32) -> StoreResult<Vec<StoredTx>> {
        self.call(|pool| async move {
            let client = pool.get().await?;
            let sql = format!(
                "SELECT {TX_COLUMNS} FROM txs t JOIN ledgers l ON l.seq = t.seq \
                 ORDER BY t.seq DESC, t.idx DESC LIMIT $1 OFFSET $2"
            );
            let stmt = client.prepare_cached(&sql).await?;
            stored_txs(client.query(&stmt, &[&big(count), &big(start)]).await?)
        })
    }

    fn state_from(&self) -> StoreResult<Option<u32>> {
        self.call(|pool| async move {
            let client = pool.get().await?;
            write::state_from(&client).await
        })
    }

    fn state_entry(&self, key: &Hash256, seq: u32) -> StoreResult<Option<Vec<u8>>> {
        self.call(|pool| async move {
            let client = pool.get().await?;
            let stmt = client
                .prepare_cached(
                    "SELECT data FROM state WHERE key = $1 AND seq <= $2 \
                     ORDER BY seq DESC LIMIT 1",
                )
                .await?;
            let row = client.query_opt(&stmt, &[&&key.0[..], &big(seq)]).await?;
            Ok(row.and_then(|r| r.get::<_, Option<Vec<u8>>>(0)))
        })
    }

    fn state_page(
        &self,
        seq: u32,
        after: Option<&Hash256>,
        limit: usize,
    ) -> StoreResult<Vec<(Hash256, Vec<u8>)>> {
        let after = after.map(|h| h.0.to_vec()).unwrap_or_default();
        self.call(|pool| PgHistory::state_page_async(pool, seq, after, limit))
    }

    fn write_state_base(&self, seq: u32, rows: &[StateRow]) -> StoreResult<()> {
        self.call(|pool| async move {
            let mut client = pool.get().await?;
            let tx = client.transaction().await?;
            start_state_at(&tx, seq).await?;
            copy_state(&tx, seq, rows).await?;
            tx.commit().await?;
            Ok(())
        })
    }

    fn delete_before(&self, seq: u32) -> StoreResult<()> {
        self.call(|pool| async move { write::delete(&mut pool.get().await?, seq, true).await })
    }

    fn delete_after(&self, seq: u32) -> StoreResult<()> {
        self.call(|pool| async move { write::delete(&mut pool.get().await?, seq, false).await })
    }
}
