//! Funding on a development ledger: the faucet, the prefunded accounts (`serve --accounts`)
//! and genesis files (`serve --genesis`) all change the ledger by real transactions signed
//! here and submitted through the same path as a client's `submit` of a `tx_blob`
//! ([`crate::rpc::submission`]): checked, applied by the sequencer, journaled (so replay
//! rebuilds them and they appear in `account_tx`), answered once durable.
//!
//! Signing fills `Account`, `Sequence` (from the open ledger), `Fee` (the base fee),
//! `NetworkID` (above 1024) and `SigningPubKey`. Two submissions for one account must not
//! read the same `Sequence`: callers that can run at once hold a [`Signer`]'s lock.

use crate::ledger::keylet;
use crate::ledger::sf::{sf, StExt};
use crate::ledger::view::ReadView;
use crate::node::sequencer::Command;
use crate::protocol::amount::{Amount, DROPS_MAX, DROPS_PER_XRP};
use crate::protocol::codec;
use crate::protocol::keys::{KeyPair, KeyType};
use crate::protocol::seed::Seed;
use crate::protocol::st::StValue;
use crate::protocol::types::AccountId;
use crate::rpc::context::{Context, Services, Transport};
use crate::rpc::role::Role;
use crate::rpc::submission::{decode_and_verify, submit_with, Reply};
use serde_json::{json, Map, Value};
use std::sync::Arc;

/// The passphrase of the genesis account (rippled's standalone `masterpassphrase`).
pub const GENESIS_PASSPHRASE: &str = "masterpassphrase";

/// The seed text `serve --accounts N` derives accounts from when `--accounts-seed` is not
/// given. Account `i` (from 0) has the seed of the passphrase `"<text>/<i>"`, as
/// `wallet_propose` derives it.
pub const DEV_ACCOUNTS_SEED_DEFAULT: &str = "ledgerd dev accounts";

/// The genesis account's key pair (secp256k1, from [`GENESIS_PASSPHRASE`]).
pub fn genesis_key() -> KeyPair {
    KeyPair::from_seed(
        &Seed::from_passphrase(GENESIS_PASSPHRASE),
        KeyType::Secp256k1,
    )
    .expect("the genesis passphrase derives a key")
}

/// A seed as a client library writes it: `s...` (secp256k1) or `sEd...` (ed25519).
pub fn parse_seed(text: &str) -> Option<(Seed, KeyType)> {
    if let Ok(seed) = Seed::from_base58(text) {
        return Some((seed, KeyType::Secp256k1));
    }
    crate::protocol::seed::parse_ripple_lib_seed(text).map(|s| (s, KeyType::Ed25519))
}

/// An account whose seed the server knows (a prefunded account, a genesis file's account).
#[derive(Clone)]
pub struct DevAccount {
    /// Its seed.
    pub seed: Seed,
    /// Its key pair (from `seed`).
    pub pair: KeyPair,
}

impl DevAccount {
    /// The account of `seed` with `key_type`.
    pub fn new(seed: Seed, key_type: KeyType) -> Result<DevAccount, String> {
        let pair = KeyPair::from_seed(&seed, key_type).map_err(|e| e.to_string())?;
        Ok(DevAccount { seed, pair })
    }

    /// Its account ID.
    pub fn account(&self) -> AccountId {
        self.pair.account_id()
    }

    /// Its seed as a client library reads it (`s...`, or `sEd...` for ed25519).
    pub fn seed_text(&self) -> String {
        self.seed.to_base58(self.pair.key_type)
    }
}

/// Accounts `0..n` of the seed text `text`: account `i` is the seed of the passphrase
/// `"<text>/<i>"` with `key_type`, so the same text always gives the same accounts.
pub fn derive_accounts(text: &str, n: u32, key_type: KeyType) -> Result<Vec<DevAccount>, String> {
    (0..n)
        .map(|i| DevAccount::new(Seed::from_passphrase(&format!("{text}/{i}")), key_type))
        .collect()
}

/// Serializes the submissions of one signing account (see the module documentation).
pub struct Signer {
    /// The key it signs with (never logged, never in a reply).
    pub pair: KeyPair,
    lock: tokio::sync::Mutex<()>,
}

impl Signer {
    /// A signer for `pair`'s account.
    pub fn new(pair: KeyPair) -> Signer {
        Signer {
            pair,
            lock: tokio::sync::Mutex::new(()),
        }
    }

    /// Sign `tx` as this account and submit it, one at a time.
    /// Sign `tx` as this account and submit it, one at a time. A submission that meets a
    /// Sequence already used (someone else signed for the account meanwhile) is signed
    /// again once, with the open ledger's next Sequence.
    pub async fn submit(&self, services: &Arc<Services>, tx: Map<String, Value>) -> Applied {
        let _one_at_a_time = self.lock.lock().await;
        match submit_as(services, &self.pair, tx.clone()).await {
            Applied::Failed(_, ter) if ter == "tefPAST_SEQ" => {
                submit_as(services, &self.pair, tx).await
            }
            other => other,
        }
    }
}

/// What a submission came to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Applied {
    /// Applied with `tesSUCCESS` and durable: the transaction's hash.
    Success(String),
    /// Applied or refused with another result: its hash and the engine result's name.
    Failed(String, String),
    /// Not submitted (the signing or the submission path refused it): why.
    Refused(String),
}

impl Applied {
    /// The transaction hash on success, else a sentence saying what happened.
    pub fn into_result(self) -> Result<String, String> {
        match self {
            Applied::Success(hash) => Ok(hash),
            Applied::Failed(hash, ter) => Err(format!("{ter} (transaction {hash})")),
            Applied::Refused(why) => Err(why),
        }
    }
}

/// Sign `tx` (a transaction's JSON without `Account`, `Sequence`, `Fee`, `SigningPubKey`)
/// as `pair`'s account and submit it through the submission path. Callers that may run at
/// once for one account use [`Signer::submit`].
pub async fn submit_as(
    services: &Arc<Services>,
    pair: &KeyPair,
    tx: Map<String, Value>,
) -> Applied {
    let blob = match sign(services, pair, tx) {
        Ok(b) => b,
        Err(why) => return Applied::Refused(why),
    };
    let ctx = Context {
        role: Role::Admin,
        api_version: 1,
        transport: Transport::Http,
        session: None,
        services: services.clone(),
        forwarded: None,
        raw_json: false,
    };
    let mut params = Map::new();
    params.insert("tx_blob".into(), Value::from(hex::encode_upper(blob)));
    match submit_with(ctx, params, decode_and_verify, Reply::Blob).await {
        Ok(reply) => outcome(&reply),
        Err(e) => Applied::Refused(Value::Object(e.into_object()).to_string()),
    }
}

fn outcome(reply: &Map<String, Value>) -> Applied {
    let ter = reply
        .get("engine_result")
        .and_then(Value::as_str)
        .unwrap_or("unknown");
    let hash = reply
        .get("tx_json")
        .and_then(|t| t.get("hash"))
        .and_then(Value::as_str)
        .unwrap_or_default()
        .to_owned();
    if ter == "tesSUCCESS" {
        Applied::Success(hash)
    } else {
        Applied::Failed(hash, ter.to_owned())
    }
}

/// The signed blob of `tx` as `pair`'s account, against the open ledger.
fn sign(
    services: &Services,
    pair: &KeyPair,
    mut tx: Map<String, Value>,
) -> Result<Vec<u8>, String> {
    let account = pair.account_id();
    let open = services.node.ledgers.current();
    let sequence = open
        .view
        .read(&keylet::account(&account))
        .and_then(|root| root.u32_of(sf().sequence))
        .ok_or_else(|| format!("the account {} does not exist", account.to_address()))?;
    tx.insert("Account".into(), Value::from(account.to_address()));
    tx.insert("Sequence".into(), Value::from(sequence));
    let fee = open.view.info().fees.base_drops;
    tx.insert("Fee".into(), Value::from(fee.to_string()));
    if services.node.network_id > 1024 {
        tx.insert("NetworkID".into(), Value::from(services.node.network_id));
    }
    tx.insert("SigningPubKey".into(), Value::from(pair.public.to_hex()));
    let mut st = codec::from_json(&Value::Object(tx)).map_err(|e| e.to_string())?;
    let signature = pair.sign(&crate::protocol::tx::signing_data(&st));
    st.set(sf().txn_signature, StValue::Blob(signature));
    Ok(codec::encode(&st))
}

/// A Payment of `drops` to `to`, signed by `signer`.
pub async fn pay_xrp(
    services: &Arc<Services>,
    signer: &Signer,
    to: &AccountId,
    drops: u64,
) -> Applied {
    signer.submit(services, payment_json(to, drops)).await
}

/// The JSON of an XRP Payment of `drops` to `to` (the signer fills the rest).
pub fn payment_json(to: &AccountId, drops: u64) -> Map<String, Value> {
    let tx = json!({
        "TransactionType": "Payment",
        "Destination": to.to_address(),
        "Amount": drops.to_string(),
    });
    match tx {
        Value::Object(m) => m,
        _ => Map::new(),
    }
}

/// `account`'s XRP balance in drops in the open ledger, if it exists.
pub fn xrp_balance(services: &Services, account: &AccountId) -> Option<u64> {
    let open = services.node.ledgers.current();
    let root = open.view.read(&keylet::account(account))?;
    match root.amount_of(sf().balance)? {
        Amount::Xrp(d) => u64::try_from(d).ok(),
        _ => None,
    }
}

/// Close the open ledger (as `ledger_accept` does) and wait until the close is durable and
/// published; returns the new open ledger's sequence.
pub async fn close_ledger(services: &Services) -> Result<u32, String> {
    let close = |reply| Command::Close {
        reply: Some(reply),
        close_time: None,
    };
    crate::rpc::standalone::ask_writer(services, close)
        .await
        .ok_or_else(|| "the writer is not running or has stopped".to_owned())?
        .map_err(|e| format!("the close failed: {e:?}"))
}

/// An amount of XRP written in decimal (`"1000"`, `"12.5"`, at most six decimals) in drops;
/// zero, negative, malformed and overlong amounts are refused, with the reason.
pub fn xrp_to_drops(text: &str) -> Result<u64, String> {
    let bad = || format!("'{text}' is not an amount of XRP (a decimal number, at most 6 decimals)");
    let (whole, frac) = text.split_once('.').unwrap_or((text, ""));
    let digits = |s: &str| s.bytes().all(|b| b.is_ascii_digit());
    if whole.is_empty() && frac.is_empty() || !digits(whole) || !digits(frac) || frac.len() > 6 {
        return Err(bad());
    }
    let whole: u64 = if whole.is_empty() {
        0
    } else {
        whole.parse().map_err(|_| bad())?
    };
    let frac_drops: u64 = format!("{frac:0<6}").parse().map_err(|_| bad())?;
    let drops = whole
        .checked_mul(DROPS_PER_XRP)
        .and_then(|d| d.checked_add(frac_drops))
        .filter(|&d| d <= DROPS_MAX)
        .ok_or_else(|| format!("'{text}' XRP is more XRP than exists"))?;
    if drops == 0 {
        return Err(format!("'{text}' XRP: the amount must be more than zero"));
    }
    Ok(drops)
}

/// Drops as XRP in decimal, without trailing zeros (`1000`, `12.5`).
pub fn drops_to_xrp(drops: u64) -> String {
    let (whole, frac) = (drops / DROPS_PER_XRP, drops % DROPS_PER_XRP);
    if frac == 0 {
        return whole.to_string();
    }
    let frac = format!("{frac:06}");
    format!("{whole}.{}", frac.trim_end_matches('0'))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn xrp_amounts() {
        assert_eq!(xrp_to_drops("1000"), Ok(1_000_000_000));
        assert_eq!(xrp_to_drops("12.5"), Ok(12_500_000));
        assert_eq!(xrp_to_drops("0.000001"), Ok(1));
        assert_eq!(xrp_to_drops(".5"), Ok(500_000));
        for bad in [
            "",
            ".",
            "0",
            "-1",
            "1e3",
            "1.0000001",
            "abc",
            "100000000001",
            "99999999999999999999",
        ] {
            assert!(xrp_to_drops(bad).is_err(), "{bad}");
        }
        assert_eq!(drops_to_xrp(1_000_000_000), "1000");
        assert_eq!(drops_to_xrp(12_500_000), "12.5");
        assert_eq!(drops_to_xrp(1), "0.000001");
    }

    #[test]
    fn the_genesis_key_is_the_genesis_account() {
        assert_eq!(
            genesis_key().account_id().to_address(),
            "rHb9CJAWyB4rj91VRWn96DkukG4bwdtyTh"
        );
    }

    #[test]
    fn accounts_are_deterministic_and_distinct() {
        let a = derive_accounts("text", 3, KeyType::Secp256k1).unwrap();
        let b = derive_accounts("text", 3, KeyType::Secp256k1).unwrap();
        let c = derive_accounts("other", 3, KeyType::Secp256k1).unwrap();
        let ids = |v: &[DevAccount]| v.iter().map(DevAccount::account).collect::<Vec<_>>();
        assert_eq!(ids(&a), ids(&b));
        assert_ne!(ids(&a), ids(&c));
        assert_ne!(a[0].account(), a[1].account());
        // Account i is wallet_propose's account of the passphrase "text/i".
        let expect = KeyPair::from_seed(&Seed::from_passphrase("text/2"), KeyType::Secp256k1);
        assert_eq!(a[2].account(), expect.unwrap().account_id());
        let ed = derive_accounts("text", 1, KeyType::Ed25519).unwrap();
        assert!(ed[0].seed_text().starts_with("sEd"));
        assert_ne!(ed[0].account(), a[0].account());
    }
}
