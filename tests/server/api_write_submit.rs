//! submit with tx_blob (Mode A) and sign-and-submit (Mode B), sign, and their error
//! shapes, over real sockets against an in-process server.

use crate::support;

use serde_json::{json, Value};
use support::http::rpc_async;
use support::keys::{address, keys, secret, GENESIS, GENESIS_SEED};
use support::payment::payment;
use support::server::{account, addr, start, start_with};
use support::ws::Ws;

fn result(reply: &Value) -> &Value {
    &reply["result"]
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn submit_blob_success_and_result_classes() {
    let server = start(0).await;
    let mut ws = Ws::connect_to(addr(&server)).await;
    let genesis = keys("masterpassphrase");
    let alice = address("alice");
    let blob = payment(&genesis, 1, &alice, 100_000_000);
    let r = ws.req(json!({"command": "submit", "tx_blob": blob})).await;
    assert_eq!(r["status"], "success", "{r}");
    let res = result(&r);
    assert_eq!(res["engine_result"], "tesSUCCESS");
    assert_eq!(res["engine_result_code"], 0);
    assert_eq!(
        res["engine_result_message"],
        "The transaction was applied. Only final in a validated ledger."
    );
    for (k, v) in [
        ("accepted", true),
        ("applied", true),
        ("broadcast", true),
        ("kept", true),
        ("queued", false),
    ] {
        assert_eq!(res[k], v, "{k}");
    }
    assert_eq!(res["account_sequence_next"], 2);
    assert_eq!(res["account_sequence_available"], 2);
    assert_eq!(res["open_ledger_cost"], "10");
    assert_eq!(res["validated_ledger_index"], 2);
    assert_eq!(res["tx_blob"], blob);
    assert_eq!(res["tx_json"]["Account"], GENESIS);
    assert_eq!(res["tx_json"]["hash"].as_str().map(str::len), Some(64));
    assert!(res["tx_json"].get("DeliverMax").is_none());
    assert_eq!(account(&server, &alice), Some((100_000_000, 3)));

    // tef: the same transaction again (its sequence is used).
    let r = ws.req(json!({"command": "submit", "tx_blob": blob})).await;
    assert_eq!(result(&r)["engine_result"], "tefPAST_SEQ");
    assert_eq!(result(&r)["applied"], false);
    assert_eq!(result(&r)["kept"], true);
    // tem: a payment to oneself.
    let r = ws
        .req(json!({"command": "submit", "tx_blob": payment(&genesis, 2, GENESIS, 5)}))
        .await;
    assert_eq!(result(&r)["engine_result"], "temREDUNDANT");
    assert_eq!(result(&r)["engine_result_code"], -275);
    assert_eq!(result(&r)["applied"], false);
    // ter: a sequence from the future is held, not applied.
    let r = ws
        .req(json!({"command": "submit", "tx_blob": payment(&genesis, 9, &alice, 5)}))
        .await;
    assert_eq!(result(&r)["engine_result"], "terPRE_SEQ");
    assert_eq!(result(&r)["applied"], false);
    // tec: too little XRP to create an account; applied, fee charged, sequence used.
    let r = ws
        .req(json!({"command": "submit", "tx_blob": payment(&genesis, 2, &address("bob"), 5)}))
        .await;
    assert_eq!(result(&r)["engine_result"], "tecNO_DST_INSUF_XRP");
    assert_eq!(result(&r)["applied"], true);
    assert_eq!(result(&r)["account_sequence_next"], 3);
    // fail_hard is accepted; a non-tes result is then neither kept nor broadcast.
    let r = ws
        .req(json!({"command": "submit", "fail_hard": true,
                    "tx_blob": payment(&genesis, 3, GENESIS, 5)}))
        .await;
    assert_eq!(result(&r)["kept"], false);
    assert_eq!(result(&r)["accepted"], false);
    // The v2 reply is the same shape (tx_json with hash inside).
    let r = ws
        .req(json!({"command": "submit", "api_version": 2,
                    "tx_blob": payment(&genesis, 3, &alice, 7)}))
        .await;
    assert_eq!(result(&r)["engine_result"], "tesSUCCESS");
    assert!(result(&r)["tx_json"]["hash"].is_string());
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn submit_blob_error_shapes() {
    let server = start(0).await;
    let a = addr(&server);
    let mut ws = Ws::connect_to(a).await;
    for bad in [json!("XYZ"), json!(""), json!("ABC")] {
        let r = ws.req(json!({"command": "submit", "tx_blob": bad})).await;
        assert_eq!(r["error"], "invalidParams", "{r}");
        assert_eq!(r["error_message"], "Invalid parameters.");
    }
    // Undecodable: a bare invalidTransaction with the exception text.
    let r = ws
        .req(json!({"command": "submit", "tx_blob": "1200"}))
        .await;
    assert_eq!(r["error"], "invalidTransaction", "{r}");
    assert!(r.get("error_code").is_none());
    assert!(r["error_exception"].is_string());
    // A bad signature fails local checks.
    let genesis = keys("masterpassphrase");
    let mut blob = payment(&genesis, 1, &address("carol"), 50_000_000);
    let n = blob.len();
    let flipped = if &blob[n - 2..] == "00" { "01" } else { "00" };
    blob.replace_range(n - 2.., flipped);
    let r = ws.req(json!({"command": "submit", "tx_blob": blob})).await;
    assert_eq!(r["error"], "invalidTransaction", "{r}");
    assert_eq!(
        r["error_exception"],
        "fails local checks: Invalid signature."
    );
    // Same over HTTP.
    let r = rpc_async(a, "submit", json!({"tx_blob": blob})).await;
    assert_eq!(r["result"]["error"], "invalidTransaction", "{r}");
    assert_eq!(r["result"]["status"], "error");
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sign_and_submit_autofill() {
    let server = start(0).await;
    let mut ws = Ws::connect_to(addr(&server)).await;
    let alice = address("alice");
    let r = ws
        .req(
            json!({"command": "submit", "secret": GENESIS_SEED, "tx_json": {
            "TransactionType": "Payment", "Account": GENESIS, "Destination": alice,
            "DeliverMax": "200000000"}}),
        )
        .await;
    assert_eq!(r["status"], "success", "{r}");
    let res = result(&r);
    assert_eq!(res["engine_result"], "tesSUCCESS");
    let tx = &res["tx_json"];
    assert_eq!(tx["Fee"], "10");
    assert_eq!(tx["Sequence"], 1);
    assert_eq!(tx["Flags"], 2147483648u32);
    assert_eq!(
        tx["SigningPubKey"],
        keys("masterpassphrase").public.to_hex()
    );
    assert!(tx["TxnSignature"].is_string());
    assert_eq!(tx["Amount"], "200000000");
    assert_eq!(tx["DeliverMax"], "200000000");
    assert!(tx["hash"].is_string());
    assert!(res.get("accepted").is_none());
    assert_eq!(account(&server, &alice), Some((200_000_000, 3)));
    // v2: hash at the top, DeliverMax only.
    let r = ws
        .req(
            json!({"command": "submit", "api_version": 2, "secret": GENESIS_SEED,
            "tx_json": {"TransactionType": "Payment", "Account": GENESIS,
                        "Destination": alice, "Amount": "1000000"}}),
        )
        .await;
    let res = result(&r);
    assert_eq!(res["engine_result"], "tesSUCCESS", "{r}");
    assert_eq!(res["tx_json"]["Sequence"], 2);
    assert!(res["tx_json"].get("Amount").is_none());
    assert!(res["tx_json"].get("hash").is_none());
    assert_eq!(res["hash"].as_str().map(str::len), Some(64));
    // sign alone changes nothing.
    let r = ws
        .req(
            json!({"command": "sign", "secret": GENESIS_SEED, "tx_json": {
            "TransactionType": "AccountSet", "Account": GENESIS}}),
        )
        .await;
    assert_eq!(result(&r)["tx_json"]["Sequence"], 3, "{r}");
    assert!(result(&r).get("engine_result").is_none());
    assert!(result(&r)["tx_blob"].is_string());
    assert_eq!(account(&server, GENESIS).map(|a| a.1), Some(3));
    // Offline signing needs Sequence and Fee.
    let r = ws
        .req(
            json!({"command": "sign", "secret": GENESIS_SEED, "offline": true,
            "tx_json": {"TransactionType": "AccountSet", "Account": GENESIS}}),
        )
        .await;
    assert_eq!(r["error_message"], "Missing field 'tx_json.Sequence'.");
    let r = ws
        .req(
            json!({"command": "sign", "secret": GENESIS_SEED, "offline": true,
            "tx_json": {"TransactionType": "AccountSet", "Account": GENESIS, "Sequence": 9}}),
        )
        .await;
    assert_eq!(r["error_message"], "Missing field 'tx_json.Fee'.");
    server.stop().await;
}

async fn err(ws: &mut Ws, req: Value) -> (String, String) {
    let r = ws.req(req).await;
    assert_eq!(r["status"], "error", "{r}");
    (
        r["error"].as_str().unwrap_or("").to_string(),
        r["error_message"].as_str().unwrap_or("").to_string(),
    )
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sign_and_submit_errors() {
    let server = start(0).await;
    let mut ws = Ws::connect_to(addr(&server)).await;
    let pay = |account: &str| {
        json!({"TransactionType": "Payment", "Account": account,
               "Destination": address("dave"), "Amount": "100000000"})
    };
    let e = err(
        &mut ws,
        json!({"command": "submit", "tx_json": pay(GENESIS)}),
    )
    .await;
    assert_eq!(
        e,
        ("invalidParams".into(), "Missing field 'secret'.".into())
    );
    let e = err(
        &mut ws,
        json!({"command": "submit", "secret": GENESIS_SEED, "seed": GENESIS_SEED,
               "tx_json": pay(GENESIS)}),
    )
    .await;
    assert_eq!(
        e.1,
        "Exactly one of the following must be specified: passphrase, secret, seed or seed_hex"
    );
    let e = err(
        &mut ws,
        json!({"command": "submit", "secret": GENESIS_SEED}),
    )
    .await;
    assert_eq!(
        e,
        ("invalidParams".into(), "Missing field 'tx_json'.".into())
    );
    let e = err(
        &mut ws,
        json!({"command": "submit", "secret": GENESIS_SEED, "tx_json": "x"}),
    )
    .await;
    assert_eq!(e.1, "Invalid field 'tx_json', not object.");
    let e = err(
        &mut ws,
        json!({"command": "submit", "secret": GENESIS_SEED, "tx_json": {"Account": GENESIS}}),
    )
    .await;
    assert_eq!(e.1, "Missing field 'tx_json.TransactionType'.");
    let e = err(
        &mut ws,
        json!({"command": "submit", "secret": GENESIS_SEED,
               "tx_json": {"TransactionType": "Payment"}}),
    )
    .await;
    assert_eq!(
        e,
        (
            "srcActMissing".into(),
            "Missing field 'tx_json.Account'.".into()
        )
    );
    let e = err(
        &mut ws,
        json!({"command": "submit", "secret": GENESIS_SEED, "tx_json": pay("rNOPE")}),
    )
    .await;
    assert_eq!(
        e,
        (
            "srcActMalformed".into(),
            "Invalid field 'tx_json.Account'.".into()
        )
    );
    let e = err(
        &mut ws,
        json!({"command": "submit", "secret": secret("erin"), "tx_json": pay(&address("erin"))}),
    )
    .await;
    assert_eq!(e.0, "srcActNotFound");
    let e = err(
        &mut ws,
        json!({"command": "submit", "secret": secret("erin"), "tx_json": pay(GENESIS)}),
    )
    .await;
    assert_eq!(
        e,
        ("badSecret".into(), "Secret does not match account.".into())
    );
    let e = err(
        &mut ws,
        json!({"command": "submit", "secret": GENESIS_SEED, "fee_mult_max": 0,
               "tx_json": pay(GENESIS)}),
    )
    .await;
    assert_eq!(
        e,
        (
            "highFee".into(),
            "Fee of 10 exceeds the requested tx limit of 0".into()
        )
    );
    let e = err(
        &mut ws,
        json!({"command": "submit", "secret": GENESIS_SEED, "fee_mult_max": "x",
               "tx_json": pay(GENESIS)}),
    )
    .await;
    assert_eq!(
        e,
        (
            "highFee".into(),
            "Invalid field 'fee_mult_max', not a positive integer.".into()
        )
    );
    let e = err(
        &mut ws,
        json!({"command": "submit", "secret": GENESIS_SEED, "fee_div_max": 0,
               "tx_json": pay(GENESIS)}),
    )
    .await;
    assert_eq!(
        e,
        (
            "invalidParams".into(),
            "Invalid field 'fee_div_max', not a positive integer.".into()
        )
    );
    let mut bad = pay(GENESIS);
    bad["Fee"] = json!("ten");
    let e = err(
        &mut ws,
        json!({"command": "submit", "secret": GENESIS_SEED, "tx_json": bad}),
    )
    .await;
    assert_eq!(
        e,
        (
            "invalidParams".into(),
            "Field 'tx_json.Fee' has invalid data.".into()
        )
    );
    let mut differ = pay(GENESIS);
    differ["DeliverMax"] = json!("5");
    let e = err(
        &mut ws,
        json!({"command": "submit", "secret": GENESIS_SEED, "tx_json": differ}),
    )
    .await;
    assert_eq!(e.1, "Cannot specify differing 'Amount' and 'DeliverMax'");
    let e = err(
        &mut ws,
        json!({"command": "submit", "secret": GENESIS_SEED, "build_path": true,
               "tx_json": pay(GENESIS)}),
    )
    .await;
    assert_eq!(e.1, "Cannot build XRP to XRP paths.");

    // masterDisabled: alice gets a regular key, then disables her master key.
    let alice = address("alice");
    let fund = json!({"command": "submit", "secret": GENESIS_SEED, "tx_json": {
        "TransactionType": "Payment", "Account": GENESIS, "Destination": alice,
        "Amount": "100000000"}});
    assert_eq!(result(&ws.req(fund).await)["engine_result"], "tesSUCCESS");
    let regular = address("alice-regular");
    for tx in [
        json!({"TransactionType": "SetRegularKey", "Account": alice, "RegularKey": regular}),
        json!({"TransactionType": "AccountSet", "Account": alice, "SetFlag": 4}),
    ] {
        let r = ws
            .req(json!({"command": "submit", "secret": secret("alice"), "tx_json": tx}))
            .await;
        assert_eq!(result(&r)["engine_result"], "tesSUCCESS", "{r}");
    }
    let e = err(
        &mut ws,
        json!({"command": "submit", "secret": secret("alice"), "tx_json": pay(&alice)}),
    )
    .await;
    assert_eq!(
        e,
        ("masterDisabled".into(), "Master key is disabled.".into())
    );
    let r = ws
        .req(
            json!({"command": "submit", "secret": secret("alice-regular"), "tx_json": {
            "TransactionType": "Payment", "Account": alice, "Destination": GENESIS,
            "Amount": "1000000"}}),
        )
        .await;
    assert_eq!(result(&r)["engine_result"], "tesSUCCESS", "{r}");
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn non_admin_cannot_sign_without_signing_support() {
    let server = start_with(0, |c| c.ports[0].admin.clear()).await;
    let a = addr(&server);
    let mut ws = Ws::connect_to(a).await;
    for cmd in ["submit", "sign"] {
        let e = err(
            &mut ws,
            json!({"command": cmd, "secret": GENESIS_SEED, "tx_json": {
                "TransactionType": "AccountSet", "Account": GENESIS}}),
        )
        .await;
        assert_eq!(
            e,
            (
                "notSupported".into(),
                "Signing is not supported by this server.".into()
            )
        );
    }
    // A signed blob needs no signing support; ledger_accept needs admin.
    let blob = payment(&keys("masterpassphrase"), 1, &address("frank"), 50_000_000);
    let r = ws.req(json!({"command": "submit", "tx_blob": blob})).await;
    assert_eq!(result(&r)["engine_result"], "tesSUCCESS", "{r}");
    let r = ws.req(json!({"command": "ledger_accept"})).await;
    assert_eq!(r["error"], "forbidden");
    server.stop().await;
}

#[test]
fn genesis_secret_is_masterpassphrase() {
    assert_eq!(secret("masterpassphrase"), GENESIS_SEED);
    assert_eq!(address("masterpassphrase"), GENESIS);
}

/// rippled `getCurrentNetworkFee`: once the open ledger is past its expected size
/// (`minimum_txn_in_ledger_standalone` 3 here), an autofilled Fee is the reference fee at
/// the escalated level, rounded up (level 128000 x 4^2 / 3^2 = 227555: 8889 drops), and
/// `fee_mult_max` / `fee_div_max` bound it against the base fee (`highFee`). A Fee below the
/// level is queued (`terQUEUED`) and applies when the next ledger opens.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn autofill_pays_the_escalated_fee_and_a_cheaper_one_is_queued() {
    let server = start_with(0, |c| c.tx_queue.minimum_txn_in_ledger_standalone = 3).await;
    let mut ws = Ws::connect_to(addr(&server)).await;
    let alice = address("alice");
    let pay = |extra: Value| {
        let mut req = json!({"command": "submit", "secret": GENESIS_SEED, "tx_json": {
            "TransactionType": "Payment", "Account": GENESIS, "Destination": alice,
            "Amount": "200000000"}});
        for (k, v) in extra.as_object().into_iter().flatten() {
            match k.as_str() {
                "Fee" => req["tx_json"]["Fee"] = v.clone(),
                _ => req[k] = v.clone(),
            }
        }
        req
    };
    for _ in 0..4 {
        let r = ws.req(pay(json!({}))).await;
        assert_eq!(result(&r)["engine_result"], "tesSUCCESS", "{r}");
        assert_eq!(result(&r)["tx_json"]["Fee"], "10", "{r}");
    }
    let (error, message) = err(&mut ws, pay(json!({}))).await;
    assert_eq!(error, "highFee");
    assert_eq!(message, "Fee of 8889 exceeds the requested tx limit of 100");
    let r = ws.req(pay(json!({"fee_mult_max": 1000}))).await;
    assert_eq!(result(&r)["engine_result"], "tesSUCCESS", "{r}");
    assert_eq!(result(&r)["tx_json"]["Fee"], "8889", "{r}");
    // Five in the open ledger: level 128000 x 25 / 9 = 355555; 10 drops is queued.
    let r = ws.req(pay(json!({"Fee": "10"}))).await;
    let res = result(&r);
    assert_eq!(res["engine_result"], "terQUEUED", "{r}");
    assert_eq!(res["engine_result_code"], -89, "{r}");
    let queued_hash = res["tx_json"]["hash"].clone();
    let before = account(&server, &alice).map(|a| a.0);
    assert_eq!(before, Some(5 * 200_000_000));
    let r = ws.req(json!({"command": "ledger_accept"})).await;
    assert_eq!(r["status"], "success", "{r}");
    assert_eq!(account(&server, &alice).map(|a| a.0), Some(6 * 200_000_000));
    // It applied to the new open ledger; the next close validates it.
    let r = ws
        .req(json!({"command": "tx", "transaction": queued_hash}))
        .await;
    assert_eq!(result(&r)["validated"], false, "{r}");
    ws.req(json!({"command": "ledger_accept"})).await;
    let r = ws
        .req(json!({"command": "tx", "transaction": queued_hash}))
        .await;
    assert_eq!(result(&r)["meta"]["TransactionResult"], "tesSUCCESS", "{r}");
    assert_eq!(result(&r)["validated"], true, "{r}");
    server.stop().await;
}
