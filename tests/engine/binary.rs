//! Every transaction type, signed with both key types by the protocol core, encoded,
//! and applied from its binary form (`Ledgers::apply_blob`), as the server applies
//! it; plus the product document's JSON requests going through `codec::from_json`.

use crate::support;

use std::sync::Arc;

use ledgerd::engine::Ter;
use ledgerd::ledger::keylet;
use ledgerd::ledger::sf::{sf, StExt};
use ledgerd::ledgers::{LedgerConfig, Ledgers};
use ledgerd::protocol::claim::sign_claim;
use ledgerd::protocol::codec;
use ledgerd::protocol::keys::{KeyPair, KeyType};
use ledgerd::protocol::tx::transaction_id;
use support::accounts;
use support::engine::*;

fn signed_blob(store: &Ledgers, who: &KeyPair, tx: Tx) -> Vec<u8> {
    signed_blob_as(store, &who.account_id(), who, tx)
}

/// Signs for `account` with `who`'s key (its master or its regular key), fee 12 drops.
fn signed_blob_as(
    store: &Ledgers,
    account: &ledgerd::protocol::types::AccountId,
    who: &KeyPair,
    tx: Tx,
) -> Vec<u8> {
    let seq = accounts::sequence(store, account).unwrap_or(0);
    codec::encode(&tx.signed(account, seq, 12, who))
}

fn store() -> Ledgers {
    let mut cfg = LedgerConfig::default();
    cfg.apply.signature_check = Some(Arc::new(ledgerd::engine::transactor::verify_signature));
    Ledgers::genesis(cfg, START_TIME)
}

/// Applies, then closes the ledger: each step sees the one before it, whatever the
/// canonical order of one ledger's transactions would be.
fn apply(store: &Ledgers, who: &KeyPair, tx: Tx) -> Ter {
    let blob = signed_blob(store, who, tx);
    let r = store.apply_blob(&blob).expect("decodes");
    assert_eq!(r.id, transaction_id(&blob), "ID of the canonical blob");
    if let Some(e) = &r.entry {
        assert_eq!(&e.blob[..], &blob[..]);
    }
    close(store);
    r.ter
}

fn close(store: &Ledgers) -> usize {
    let t = store
        .closed()
        .ledger
        .map_or(START_TIME, |l| l.header.close_time);
    store.close(t + 10).txs.len()
}

fn every_type(kt: KeyType) {
    let store = store();
    let master = Account::master();
    let gw = Account::with_type("gw-binary", kt);
    let holder = Account::with_type("holder-binary", kt);
    let regular = Account::with_type("regular-binary", kt);
    for a in [&gw, &holder] {
        assert_eq!(
            apply(&store, &master.kp, pay(a, xrp(1000))),
            Ter::tesSUCCESS
        );
    }
    // AccountSet: RequireAuth, DefaultRipple.
    assert_eq!(apply(&store, &gw.kp, fset(2)), Ter::tesSUCCESS);
    assert_eq!(apply(&store, &gw.kp, fset(8)), Ter::tesSUCCESS);
    // SetRegularKey, then a transaction signed by the regular key.
    assert_eq!(
        apply(
            &store,
            &holder.kp,
            Tx::new("SetRegularKey").account("RegularKey", &regular.id)
        ),
        Ter::tesSUCCESS
    );
    // TrustSet (holder, signed by its regular key) and the issuer's authorization.
    let blob = signed_blob_as(&store, &holder.id, &regular.kp, trust(gw.iou("USD", 100)));
    assert_eq!(
        store.apply_blob(&blob).expect("decodes").ter,
        Ter::tesSUCCESS
    );
    close(&store);
    assert_eq!(
        apply(
            &store,
            &gw.kp,
            trust(holder.iou("USD", 0)).flags(0x0001_0000)
        ),
        Ter::tesSUCCESS
    );
    // Payment of the issued currency.
    assert_eq!(
        apply(&store, &gw.kp, pay(&holder, gw.iou("USD", 10))),
        Ter::tesSUCCESS
    );
    // Channel create, fund, claim.
    let seq = accounts::sequence(&store, &gw.id).unwrap_or(0);
    let create = Tx::new("PaymentChannelCreate")
        .account("Destination", &holder.id)
        .amount("Amount", xrp(10))
        .u32("SettleDelay", 60)
        .blob("PublicKey", gw.kp.public.as_bytes());
    assert_eq!(apply(&store, &gw.kp, create), Ter::tesSUCCESS);
    let chan = keylet::pay_channel(&gw.id, &holder.id, seq);
    let fund = Tx::new("PaymentChannelFund")
        .h256("Channel", chan)
        .amount("Amount", xrp(5));
    assert_eq!(apply(&store, &gw.kp, fund), Ter::tesSUCCESS);
    let sig = sign_claim(&gw.kp, &chan, 3_000_000);
    let claim = Tx::new("PaymentChannelClaim")
        .h256("Channel", chan)
        .amount("Balance", drops(3_000_000))
        .blob("Signature", &sig)
        .blob("PublicKey", gw.kp.public.as_bytes());
    let before = store.current();
    let blob = signed_blob_as(&store, &holder.id, &regular.kp, claim);
    assert_eq!(
        store.apply_blob(&blob).expect("decodes").ter,
        Ter::tesSUCCESS
    );
    // The claim moved 3 XRP to the holder, less the fee.
    use ledgerd::ledger::view::ReadView;
    let bal = |v: &ledgerd::ledgers::LedgerSnapshot| {
        v.view
            .read(&keylet::account(&holder.id))
            .unwrap()
            .drops_of(sf().balance)
    };
    assert_eq!(bal(&store.current()) - bal(&before), 3_000_000 - 12);
    assert_eq!(close(&store), 1, "the claim closes alone");
    let (lo, hi) = store.complete_range();
    let all: usize = (lo..=hi)
        .filter_map(|n| store.by_seq(n)?.ledger)
        .map(|l| l.txs.len())
        .sum();
    assert_eq!(all, 11, "every transaction in a closed ledger");
}

#[test]
fn every_type_secp256k1() {
    every_type(KeyType::Secp256k1);
}

#[test]
fn every_type_ed25519() {
    every_type(KeyType::Ed25519);
}

#[test]
fn product_document_requests_from_json() {
    let store = store();
    let master = Account::master();
    let gw = Account::new("json-gateway");
    let holder = Account::new("json-holder");
    for a in [&gw, &holder] {
        assert_eq!(
            apply(&store, &master.kp, pay(a, xrp(1000))),
            Ter::tesSUCCESS
        );
    }
    let from = |v: serde_json::Value| Tx(codec::from_json(&v).expect("json"));
    let set = from(serde_json::json!({
        "TransactionType": "AccountSet",
        "Account": gw.id.to_address(),
        "Fee": "12",
        "Flags": 0,
        "SetFlag": 2
    }));
    assert_eq!(apply(&store, &gw.kp, set), Ter::tesSUCCESS);
    let holder_trust = from(serde_json::json!({
        "TransactionType": "TrustSet",
        "Account": holder.id.to_address(),
        "Fee": "12",
        "LimitAmount": {"currency": "USD", "issuer": gw.id.to_address(), "value": "100"}
    }));
    assert_eq!(apply(&store, &holder.kp, holder_trust), Ter::tesSUCCESS);
    let authorize = from(serde_json::json!({
        "TransactionType": "TrustSet",
        "Account": gw.id.to_address(),
        "Fee": "12",
        "LimitAmount": {"currency": "USD", "issuer": holder.id.to_address(), "value": "0"},
        "Flags": 65536
    }));
    assert_eq!(apply(&store, &gw.kp, authorize), Ter::tesSUCCESS);
    use ledgerd::ledger::view::ReadView;
    let line = store
        .current()
        .view
        .read(&keylet::line(&holder.id, &gw.id, &cur("USD")))
        .expect("line");
    let issuer_auth = if gw.id > holder.id {
        0x0008_0000
    } else {
        0x0004_0000
    };
    assert_ne!(line.flags() & issuer_auth, 0);
}
