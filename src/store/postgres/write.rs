//! Writing: one PostgreSQL transaction per ledger, its rows by binary COPY, idempotent.

use deadpool_postgres::{Client, Transaction};
use futures::pin_mut;
use tokio_postgres::binary_copy::BinaryCopyInWriter;
use tokio_postgres::types::{ToSql, Type};

use super::{big, PgError, PgResult};
use crate::store::history::{encode_header, HistoryLedger, StateChanges, StateRow};

/// The setting that holds the first ledger with a readable state.
const STATE_FROM: &str = "state_from";

/// Writes one ledger in its own transaction. A ledger stored already with the same hash
/// is left as it is (a writer resuming after a restart); with another hash, or one that
/// would leave a gap after the newest stored ledger, it is refused.
pub(crate) async fn write_ledger(client: &mut Client, l: &HistoryLedger) -> PgResult<()> {
    let tx = client.transaction().await?;
    let seq = big(l.header.seq);
    if let Some(row) = tx
        .query_opt("SELECT hash FROM ledgers WHERE seq = $1", &[&seq])
        .await?
    {
        let hash: Vec<u8> = row.get(0);
        if hash == l.header.hash.0 {
            return Ok(());
        }
        return Err(PgError::Damaged(format!(
            "ledger {seq} is stored with another hash ({})",
            hex::encode_upper(hash)
        )));
    }
    let last: Option<i64> = tx
        .query_one("SELECT MAX(seq) FROM ledgers", &[])
        .await?
        .get(0);
    if let Some(last) = last.filter(|&last| last + 1 != seq) {
        return Err(PgError::Damaged(format!(
            "ledger {seq} does not follow the newest stored ledger, {last}"
        )));
    }
    insert_ledger(&tx, l).await?;
    tx.commit().await?;
    Ok(())
}

async fn insert_ledger(tx: &Transaction<'_>, l: &HistoryLedger) -> PgResult<()> {
    let h = &l.header;
    let seq = big(h.seq);
    tx.execute(
        "INSERT INTO ledgers(seq, hash, close_time, header) VALUES ($1, $2, $3, $4)",
        &[&seq, &&h.hash.0[..], &big(h.close_time), &encode_header(h)],
    )
    .await?;
    copy_txs(tx, l).await?;
    copy_account_txs(tx, l).await?;
    insert_nft_rows(tx, l).await?;
    if l.changes == StateChanges::Full && state_from(tx).await?.is_none() {
        start_state_at(tx, h.seq).await?;
    }
    copy_state(tx, h.seq, &l.state).await
}

async fn copy_txs(tx: &Transaction<'_>, l: &HistoryLedger) -> PgResult<()> {
    if l.txs.is_empty() {
        return Ok(());
    }
    let sink = tx
        .copy_in("COPY txs(id, seq, idx, blob, meta, delivered) FROM STDIN BINARY")
        .await?;
    let types = [
        Type::BYTEA,
        Type::INT8,
        Type::INT8,
        Type::BYTEA,
        Type::BYTEA,
        Type::BYTEA,
    ];
    let writer = BinaryCopyInWriter::new(sink, &types);
    pin_mut!(writer);
    let seq = big(l.header.seq);
    for t in &l.txs {
        let delivered = t.delivered.as_deref();
        let row: [&(dyn ToSql + Sync); 6] = [
            &&t.id.0[..],
            &seq,
            &big(t.index),
            &t.blob,
            &t.meta,
            &delivered,
        ];
        writer.as_mut().write(&row).await?;
    }
    writer.finish().await?;
    Ok(())
}

async fn copy_account_txs(tx: &Transaction<'_>, l: &HistoryLedger) -> PgResult<()> {
    if l.txs.iter().all(|t| t.accounts.is_empty()) {
        return Ok(());
    }
    let sink = tx
        .copy_in("COPY account_txs(account, seq, idx, id) FROM STDIN BINARY")
        .await?;
    let types = [Type::BYTEA, Type::INT8, Type::INT8, Type::BYTEA];
    let writer = BinaryCopyInWriter::new(sink, &types);
    pin_mut!(writer);
    let seq = big(l.header.seq);
    for t in &l.txs {
        let mut accounts = t.accounts.clone();
        accounts.sort();
        accounts.dedup();
        for a in &accounts {
            let row: [&(dyn ToSql + Sync); 4] = [&&a.0[..], &seq, &big(t.index), &&t.id.0[..]];
            writer.as_mut().write(&row).await?;
        }
    }
    writer.finish().await?;
    Ok(())
}

/// Writes ledger `seq`'s state rows (rows it had already are replaced).
pub(crate) async fn copy_state(tx: &Transaction<'_>, seq: u32, rows: &[StateRow]) -> PgResult<()> {
    if rows.is_empty() {
        return Ok(());
    }
    let seq = big(seq);
    tx.execute("DELETE FROM state WHERE seq = $1", &[&seq])
        .await?;
    let sink = tx
        .copy_in("COPY state(key, seq, data) FROM STDIN BINARY")
        .await?;
    let writer = BinaryCopyInWriter::new(sink, &[Type::BYTEA, Type::INT8, Type::BYTEA]);
    pin_mut!(writer);
    for (key, data) in rows {
        let data = data.as_deref();
        let row: [&(dyn ToSql + Sync); 3] = [&&key.0[..], &seq, &data];
        writer.as_mut().write(&row).await?;
    }
    writer.finish().await?;
    for (key, data) in rows {
        if let Some(data) = data {
            index_mpt_holder(tx, seq, &key.0, data).await?;
        }
    }
    Ok(())
}

/// Files an MPToken entry under its issuance and holder, from the first ledger that held
/// it (any other entry is skipped).
pub(crate) async fn index_mpt_holder(
    tx: &Transaction<'_>,
    seq: i64,
    key: &[u8],
    data: &[u8],
) -> PgResult<()> {
    let Some((issuance, account)) = crate::store::nft_index::mpt_holder(data) else {
        return Ok(());
    };
    tx.execute(
        "INSERT INTO mpt_holders(issuance, account, key, seq) VALUES ($1, $2, $3, $4) \
         ON CONFLICT (issuance, account) DO UPDATE SET seq = LEAST(mpt_holders.seq, excluded.seq)",
        &[&&issuance.0[..], &&account.0[..], &key, &seq],
    )
    .await?;
    Ok(())
}

/// Fills the MPT holder index from every stored MPToken version (a database made before
/// it), in one transaction.
pub(crate) async fn index_mpt_holders(client: &mut Client) -> PgResult<()> {
    let tx = client.transaction().await?;
    let code = crate::ledger::flags::lt::MPTOKEN.to_be_bytes();
    let prefix = vec![0x11u8, code[0], code[1]];
    let rows = tx
        .query(
            "SELECT key, seq, data FROM state WHERE substring(data from 1 for 3) = $1",
            &[&prefix],
        )
        .await?;
    for row in &rows {
        let (key, seq, data): (Vec<u8>, i64, Vec<u8>) = (row.get(0), row.get(1), row.get(2));
        index_mpt_holder(&tx, seq, &key, &data).await?;
    }
    tx.commit().await?;
    Ok(())
}

/// The first ledger with a readable state, if any.
pub(crate) async fn state_from(c: &impl deadpool_postgres::GenericClient) -> PgResult<Option<u32>> {
    let row = c
        .query_opt("SELECT value FROM settings WHERE name = $1", &[&STATE_FROM])
        .await?;
    row.map(|r| super::small(r.get(0))).transpose()
}

async fn set_state_from(tx: &Transaction<'_>, seq: Option<u32>) -> PgResult<()> {
    match seq {
        Some(seq) => {
            tx.execute(
                "INSERT INTO settings(name, value) VALUES ($1, $2) \
                 ON CONFLICT (name) DO UPDATE SET value = EXCLUDED.value",
                &[&STATE_FROM, &big(seq)],
            )
            .await?
        }
        None => {
            tx.execute("DELETE FROM settings WHERE name = $1", &[&STATE_FROM])
                .await?
        }
    };
    Ok(())
}

/// Makes ledger `seq` the state's base: rows of older ledgers (an incomplete past) go.
pub(crate) async fn start_state_at(tx: &Transaction<'_>, seq: u32) -> PgResult<()> {
    tx.execute("DELETE FROM state WHERE seq < $1", &[&big(seq)])
        .await?;
    set_state_from(tx, Some(seq)).await
}

/// The NFT index rows of a ledger's NFToken transactions (`store::nft_index`).
async fn insert_nft_rows(tx: &Transaction<'_>, l: &HistoryLedger) -> PgResult<()> {
    for t in &l.txs {
        index_nft_tx(tx, l.header.seq, t.index, &t.id.0, &t.blob, &t.meta).await?;
    }
    Ok(())
}

/// Fills the NFT index of the ledgers `from..=to` from their stored transactions (a
/// database made before the index), in one transaction.
pub(crate) async fn index_nfts(client: &mut Client, from: u32, to: u32) -> PgResult<()> {
    let tx = client.transaction().await?;
    let rows = tx
        .query(
            "SELECT seq, idx, id, blob, meta FROM txs WHERE seq BETWEEN $1 AND $2",
            &[&big(from), &big(to)],
        )
        .await?;
    for row in &rows {
        let (seq, idx): (i64, i64) = (row.get(0), row.get(1));
        let id: Vec<u8> = row.get(2);
        let (blob, meta): (Vec<u8>, Vec<u8>) = (row.get(3), row.get(4));
        let seq = u32::try_from(seq).map_err(|_| PgError::Damaged(format!("ledger {seq}")))?;
        let idx = u32::try_from(idx).map_err(|_| PgError::Damaged(format!("index {idx}")))?;
        index_nft_tx(&tx, seq, idx, &id, &blob, &meta).await?;
    }
    tx.commit().await?;
    Ok(())
}

/// The NFT index rows of one transaction.
async fn index_nft_tx(
    tx: &Transaction<'_>,
    seq: u32,
    index: u32,
    id: &[u8],
    blob: &[u8],
    meta: &[u8],
) -> PgResult<()> {
    let seq = big(seq);
    for touch in crate::store::nft_index::touches_of(blob, meta) {
        let token = &touch.token.0[..];
        let idx = big(index);
        tx.execute(
            "INSERT INTO nft_txs(token, seq, idx, id) VALUES ($1, $2, $3, $4) \
             ON CONFLICT DO NOTHING",
            &[&token, &seq, &idx, &id],
        )
        .await?;
        let Some(state) = touch.state else {
            continue;
        };
        tx.execute(
            "INSERT INTO nft_states(token, seq, idx, owner, burned, uri) \
             VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (token, seq, idx) DO UPDATE \
             SET owner = excluded.owner, burned = excluded.burned, uri = excluded.uri",
            &[
                &token,
                &seq,
                &idx,
                &&state.owner.0[..],
                &state.burned,
                &state.uri,
            ],
        )
        .await?;
        let issuer = crate::engine::nft::issuer(&touch.token);
        let taxon = i64::from(crate::engine::nft::taxon(&touch.token));
        tx.execute(
            "INSERT INTO nft_issuers(issuer, token, taxon, seq) VALUES ($1, $2, $3, $4) \
             ON CONFLICT (issuer, token) DO UPDATE SET seq = LEAST(nft_issuers.seq, excluded.seq)",
            &[&&issuer.0[..], &token, &taxon, &seq],
        )
        .await?;
    }
    Ok(())
}

/// Deletes the ledgers before `seq` (keeping every entry as `seq` sees it) or after it.
pub(crate) async fn delete(client: &mut Client, seq: u32, before: bool) -> PgResult<()> {
    let tx = client.transaction().await?;
    let cmp = if before { "<" } else { ">" };
    for table in ["account_txs", "txs", "ledgers", "nft_txs"] {
        let sql = format!("DELETE FROM {table} WHERE seq {cmp} $1");
        tx.execute(&sql, &[&big(seq)]).await?;
    }
    if before {
        tx.execute(
            "DELETE FROM nft_states s WHERE s.seq < $1 AND EXISTS (SELECT 1 FROM nft_states n \
             WHERE n.token = s.token AND n.seq < $1 AND (n.seq, n.idx) > (s.seq, s.idx))",
            &[&big(seq)],
        )
        .await?;
    } else {
        for table in ["nft_states", "nft_issuers", "mpt_holders"] {
            let sql = format!("DELETE FROM {table} WHERE seq > $1");
            tx.execute(&sql, &[&big(seq)]).await?;
        }
    }
    if before {
        prune_state_before(&tx, seq).await?;
    } else {
        tx.execute("DELETE FROM state WHERE seq > $1", &[&big(seq)])
            .await?;
        if state_from(&tx).await?.is_some_and(|from| from > seq) {
            set_state_from(&tx, None).await?;
        }
    }
    tx.commit().await?;
    Ok(())
}

/// Forgets the state before ledger `seq` while keeping every entry as `seq` saw it (as
/// the SQLite store does).
async fn prune_state_before(tx: &Transaction<'_>, seq: u32) -> PgResult<()> {
    let seq64 = big(seq);
    tx.execute(
        "DELETE FROM state s WHERE s.seq < $1 AND EXISTS (SELECT 1 FROM state n \
         WHERE n.key = s.key AND n.seq > s.seq AND n.seq <= $1)",
        &[&seq64],
    )
    .await?;
    tx.execute(
        "DELETE FROM state WHERE data IS NULL AND seq <= $1",
        &[&seq64],
    )
    .await?;
    if let Some(from) = state_from(tx).await? {
        set_state_from(tx, Some(from.max(seq))).await?;
    }
    Ok(())
}
