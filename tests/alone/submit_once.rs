//! A submitted transaction is encoded once and hashed once: the CPU pool computes its
//! canonical blob and ID while verifying it, and the single writer applies them as they
//! are (`Ledgers::apply_verified`) instead of serializing and hashing a second time.
//! The crate counts every canonical encode and every transaction ID it computes.

use crate::support;

use ledgerd::protocol::codec::encode_count;
use ledgerd::protocol::tx::transaction_id_count;
use serde_json::json;
use support::http::rpc_async;
use support::keys::{address, keys};
use support::payment::payment;
use support::server::{addr, start};

const SUBMISSIONS: u64 = 40;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn each_submitted_blob_is_encoded_once_and_hashed_once() {
    // The counters are the process's: no other test may run beside this one.
    let _alone = crate::ALONE.lock().await;
    // Closes only on ledger_accept, so nothing but the submissions runs in the process.
    let running = start(0).await;
    let genesis = keys("masterpassphrase");
    let dest = address("submit-once destination");
    let blobs: Vec<String> = (1..=SUBMISSIONS as u32)
        .map(|seq| payment(&genesis, seq, &dest, 20_000_000))
        .collect();
    let (encodes, ids) = (encode_count(), transaction_id_count());
    for blob in &blobs {
        let reply = rpc_async(addr(&running), "submit", json!({ "tx_blob": blob })).await;
        assert_eq!(reply["result"]["engine_result"], "tesSUCCESS", "{reply}");
    }
    let encoded = encode_count() - encodes;
    let hashed = transaction_id_count() - ids;
    assert_eq!(
        encoded, SUBMISSIONS,
        "canonical encodes for {SUBMISSIONS} submissions"
    );
    assert_eq!(
        hashed, SUBMISSIONS,
        "transaction IDs for {SUBMISSIONS} submissions"
    );
    // And each is in the open ledger under the ID the pool computed.
    assert_eq!(
        running.state.node.ledgers.open_txs().len() as u64,
        SUBMISSIONS
    );
    running.stop().await;
}
