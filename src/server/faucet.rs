//! The development faucet: `POST /accounts` on an HTTP port, in the shape of the public
//! test-net faucets, so xrpl.js `client.fundWallet(wallet, { faucetHost, faucetProtocol:
//! 'http' })` and xrpl-py `generate_faucet_wallet(client, faucet_host=...)` work unmodified.
//!
//! Request: a JSON object (or an empty body) with optional `destination` (a classic
//! address; absent: a new secp256k1 wallet is made and its seed returned), `xrpAmount`
//! (XRP in decimal, at most six decimals, no exponent, as a string, as xrpl.js sends it, or
//! as a number: the number's text is read by the same grammar, so `1e3` is refused either
//! way; absent: [`FAUCET_DROPS_DEFAULT`], at most [`FAUCET_DROPS_MAX`]) and
//! `destinationTag` (or `tag`: an integer from 0 to 4294967295, a number or its decimal
//! string), which the Payment carries as its DestinationTag (the public faucet takes a tag
//! only inside an X-address, which this one does not read); `usageContext`, `userAgent`
//! and `memos` are read by nobody.
//! Reply `200`: `account` {`address`, `classicAddress`, `xAddress` (with the tag, if any),
//! `tag` when given, and `secret` when made here}, `amount` (XRP, a decimal number, never in
//! exponent form: `0.000001`), `balance` (the destination's XRP in the open ledger, the
//! same form), `transactionHash`, `hash`, and `seed` when made here. Errors are JSON too:
//! `{"error": token, "error_message": text}` with `400` (bad body, amount above the bound,
//! a payment that failed with its engine result), `403` (a non-loopback caller on a
//! `loopback` port), `404` (`faucet = "off"`), `429` (the caller's bucket is empty).
//!
//! The faucet pays from the genesis account (or the configuration's `faucet_seed`) by a signed Payment through the submission path
//! ([`crate::rpc::devnet`]); its key is never logged nor returned.

use crate::limits::{
    FAUCET_BODY_BYTES_MAX, FAUCET_BURST_REQUESTS, FAUCET_CLIENTS_MAX, FAUCET_DROPS_DEFAULT,
    FAUCET_DROPS_MAX, FAUCET_REFILL_MILLIS,
};
use crate::protocol::keys::KeyType;
use crate::protocol::seed::Seed;
use crate::protocol::types::AccountId;
use crate::rpc::devnet::{self, Applied, DevAccount, Signer};
use crate::server::config::FaucetMode;
use crate::server::http::SERVER_HEADER;
use crate::server::Connection;
use bytes::Bytes;
use http_body_util::Full;
use hyper::header::{HeaderValue, CONTENT_TYPE, SERVER};
use hyper::{Response, StatusCode};
use parking_lot::Mutex;
use serde::Serialize;
use serde_json::value::RawValue;
use serde_json::{json, Value};
use std::collections::HashMap;
use std::net::IpAddr;
use std::time::Instant;

/// The faucet's path (the public faucets' and both libraries' default).
pub const FAUCET_PATH: &str = "/accounts";

/// The faucet's account and the callers' buckets.
pub struct Faucet {
    signer: Signer,
    buckets: Mutex<HashMap<IpAddr, Bucket>>,
}

/// One client's token bucket, in milliseconds of credit: a request costs
/// [`FAUCET_REFILL_MILLIS`], the bucket holds [`FAUCET_BURST_REQUESTS`] of them.
struct Bucket {
    credit_ms: u64,
    at: Instant,
}

const BUCKET_FULL_MS: u64 = FAUCET_BURST_REQUESTS as u64 * FAUCET_REFILL_MILLIS;

impl Bucket {
    fn refilled(&self, now: Instant) -> u64 {
        let elapsed = now.saturating_duration_since(self.at).as_millis();
        let elapsed = u64::try_from(elapsed).unwrap_or(u64::MAX);
        self.credit_ms.saturating_add(elapsed).min(BUCKET_FULL_MS)
    }
}

/// A faucet reply: the status and its JSON body's text.
pub type FaucetReply = (StatusCode, String);

fn error(status: StatusCode, token: &str, message: impl Into<String>) -> FaucetReply {
    let body = json!({"error": token, "error_message": message.into()});
    (status, body.to_string())
}

impl Faucet {
    /// A faucet paying from the genesis account.
    pub fn genesis() -> Faucet {
        Faucet::new(devnet::genesis_key())
    }

    /// A faucet paying from `key`'s account (`faucet_seed`).
    pub fn new(key: crate::protocol::keys::KeyPair) -> Faucet {
        Faucet {
            signer: Signer::new(key),
            buckets: Mutex::new(HashMap::new()),
        }
    }

    /// Takes one request from `ip`'s bucket; false when it is empty (or when every
    /// remembered client's bucket is in use and there is no room for a new one).
    pub fn take(&self, ip: IpAddr, now: Instant) -> bool {
        let mut buckets = self.buckets.lock();
        if !buckets.contains_key(&ip) && buckets.len() >= FAUCET_CLIENTS_MAX {
            buckets.retain(|_, b| b.refilled(now) < BUCKET_FULL_MS);
            if buckets.len() >= FAUCET_CLIENTS_MAX {
                return false;
            }
        }
        let bucket = buckets.entry(ip).or_insert(Bucket {
            credit_ms: BUCKET_FULL_MS,
            at: now,
        });
        let credit = bucket.refilled(now);
        bucket.at = now;
        match credit.checked_sub(FAUCET_REFILL_MILLIS) {
            Some(left) => {
                bucket.credit_ms = left;
                true
            }
            None => {
                bucket.credit_ms = credit;
                false
            }
        }
    }
}

/// Whether a caller at `ip` may use a faucet in `mode`: `None` if so, else the refusal.
pub fn gate(mode: FaucetMode, ip: IpAddr) -> Option<FaucetReply> {
    match mode {
        FaucetMode::Off => Some(error(
            StatusCode::NOT_FOUND,
            "faucetDisabled",
            "This server's faucet is off on this port.",
        )),
        FaucetMode::Loopback if !ip.to_canonical().is_loopback() => Some(error(
            StatusCode::FORBIDDEN,
            "faucetForbidden",
            "This server's faucet serves loopback callers only.",
        )),
        _ => None,
    }
}

/// What a request asks for.
struct Ask {
    /// The destination, or a wallet made for the caller.
    to: Result<AccountId, DevAccount>,
    drops: u64,
    /// The Payment's DestinationTag.
    tag: Option<u32>,
}

fn bad(message: impl Into<String>) -> FaucetReply {
    error(StatusCode::BAD_REQUEST, "invalidParams", message)
}

/// The body's fields as written (a number keeps its text).
type Fields<'a> = HashMap<String, &'a RawValue>;

/// A field's value: `None` when absent or null; else its JSON text and its value.
fn field<'a>(fields: &Fields<'a>, name: &str) -> Result<Option<(&'a str, Value)>, FaucetReply> {
    let Some(raw) = fields.get(name) else {
        return Ok(None);
    };
    let value: Value =
        serde_json::from_str(raw.get()).map_err(|e| bad(format!("{name} is not JSON: {e}")))?;
    Ok((!value.is_null()).then_some((raw.get(), value)))
}

/// Reads the request body (see the module documentation).
fn parse(body: &[u8]) -> Result<Ask, FaucetReply> {
    if body.len() > FAUCET_BODY_BYTES_MAX {
        return Err(bad(format!(
            "The request body is over {FAUCET_BODY_BYTES_MAX} bytes."
        )));
    }
    let fields: Fields = if body.iter().all(u8::is_ascii_whitespace) {
        Fields::new()
    } else {
        serde_json::from_slice(body)
            .map_err(|e| bad(format!("The request body is not a JSON object: {e}")))?
    };
    let to = match field(&fields, "destination")? {
        None => Err(new_wallet()?),
        Some((_, Value::String(s))) => Ok(AccountId::from_address(&s)
            .map_err(|_| bad(format!("destination '{s}' is not a classic address.")))?),
        Some(_) => return Err(bad("destination must be a string (a classic address).")),
    };
    let drops = match field(&fields, "xrpAmount")? {
        None => FAUCET_DROPS_DEFAULT,
        Some((_, Value::String(s))) => amount(&s)?,
        // The number as written: `1e3` is refused as "1e3" is, `12.5` read as "12.5" is.
        Some((text, Value::Number(_))) => amount(text)?,
        Some(_) => return Err(bad("xrpAmount must be a string or a number of XRP.")),
    };
    Ok(Ask {
        to,
        drops,
        tag: destination_tag(&fields)?,
    })
}

/// `destinationTag` (or `tag`; both only if equal): an integer from 0 to 2^32 - 1, as a
/// number or its decimal string.
fn destination_tag(fields: &Fields) -> Result<Option<u32>, FaucetReply> {
    let mut tag = None;
    for name in ["destinationTag", "tag"] {
        let text = match field(fields, name)? {
            None => continue,
            Some((_, Value::String(s))) => s,
            Some((text, Value::Number(_))) => text.to_owned(),
            Some(_) => return Err(bad(format!("{name} must be a number (or its string)."))),
        };
        let value = Some(text.as_str())
            .filter(|t| !t.is_empty() && t.bytes().all(|b| b.is_ascii_digit()))
            .and_then(|t| t.parse::<u32>().ok())
            .ok_or_else(|| {
                bad(format!(
                    "{name} '{text}' is not a destination tag (an integer from 0 to {}).",
                    u32::MAX
                ))
            })?;
        if tag.is_some_and(|t| t != value) {
            return Err(bad("destinationTag and tag differ: give one."));
        }
        tag = Some(value);
    }
    Ok(tag)
}

fn amount(text: &str) -> Result<u64, FaucetReply> {
    let drops = devnet::xrp_to_drops(text).map_err(|e| bad(format!("xrpAmount {e}")))?;
    if drops > FAUCET_DROPS_MAX {
        return Err(error(
            StatusCode::BAD_REQUEST,
            "amountTooLarge",
            format!(
                "xrpAmount {text} is above this faucet's limit of {} XRP per request.",
                devnet::drops_to_xrp(FAUCET_DROPS_MAX)
            ),
        ));
    }
    Ok(drops)
}

fn new_wallet() -> Result<DevAccount, FaucetReply> {
    DevAccount::new(Seed::random(), KeyType::Secp256k1)
        .map_err(|e| error(StatusCode::INTERNAL_SERVER_ERROR, "internal", e))
}

/// Serves one faucet request whose body was read: the rate limit, the body, the payment.
pub async fn serve(body: &[u8], conn: &Connection) -> FaucetReply {
    let faucet = &conn.state.faucet;
    if !faucet.take(conn.peer.ip(), Instant::now()) {
        return error(
            StatusCode::TOO_MANY_REQUESTS,
            "slowDown",
            format!(
                "Too many faucet requests from this address: at most {FAUCET_BURST_REQUESTS} at once, then one every {FAUCET_REFILL_MILLIS} ms."
            ),
        );
    }
    let ask = match parse(body) {
        Ok(a) => a,
        Err(reply) => return reply,
    };
    let account = match &ask.to {
        Ok(a) => *a,
        Err(wallet) => wallet.account(),
    };
    let services = &conn.state.services;
    let mut payment = devnet::payment_json(&account, ask.drops);
    if let Some(tag) = ask.tag {
        payment.insert("DestinationTag".into(), Value::from(tag));
    }
    match faucet.signer.submit(services, payment).await {
        Applied::Success(hash) => {
            tracing::info!(peer = %conn.peer, to = %account.to_address(), drops = ask.drops, tag = ask.tag, "faucet paid");
            success(services, &ask, &account, &hash)
        }
        Applied::Failed(hash, ter) => error(
            StatusCode::BAD_REQUEST,
            "paymentFailed",
            format!("The faucet's payment failed with {ter} (transaction {hash})."),
        ),
        Applied::Refused(why) => error(StatusCode::SERVICE_UNAVAILABLE, "notPaid", why),
    }
}

/// The public faucets' reply (and the seed of a wallet made here).
#[derive(Serialize)]
struct Paid {
    account: Value,
    amount: Xrp,
    balance: Xrp,
    #[serde(rename = "transactionHash")]
    transaction_hash: String,
    hash: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    seed: Option<String>,
}

/// The reply.
fn success(
    services: &crate::rpc::context::Services,
    ask: &Ask,
    account: &AccountId,
    hash: &str,
) -> FaucetReply {
    let mut acct = json!({
        "address": account.to_address(),
        "classicAddress": account.to_address(),
        "xAddress": crate::protocol::xaddress::encode(account, ask.tag, true),
    });
    if let Some(tag) = ask.tag {
        acct["tag"] = Value::from(tag);
    }
    let seed = ask.to.as_ref().err().map(DevAccount::seed_text);
    if let Some(seed) = &seed {
        acct["secret"] = Value::from(seed.as_str());
    }
    let balance = devnet::xrp_balance(services, account).unwrap_or(0);
    let paid = Paid {
        account: acct,
        amount: Xrp(ask.drops),
        balance: Xrp(balance),
        transaction_hash: hash.to_owned(),
        hash: hash.to_owned(),
        seed,
    };
    match serde_json::to_string(&paid) {
        Ok(body) => (StatusCode::OK, body),
        Err(e) => error(StatusCode::INTERNAL_SERVER_ERROR, "internal", e.to_string()),
    }
}

/// Drops, written as a JSON number of XRP, exactly, in decimal (`1000`, as the public
/// faucets answer, `12.5`, `0.000001`): never through a float, so never in exponent form.
struct Xrp(u64);

impl Serialize for Xrp {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        RawValue::from_string(devnet::drops_to_xrp(self.0))
            .map_err(serde::ser::Error::custom)?
            .serialize(serializer)
    }
}

/// The reply as HTTP (`application/json; charset=utf-8`, as the public faucets send).
pub fn http_reply((status, body): FaucetReply) -> Response<Full<Bytes>> {
    let mut resp = Response::new(Full::new(Bytes::from(body)));
    *resp.status_mut() = status;
    let h = resp.headers_mut();
    h.insert(
        CONTENT_TYPE,
        HeaderValue::from_static("application/json; charset=utf-8"),
    );
    h.insert(SERVER, HeaderValue::from_static(SERVER_HEADER));
    resp
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn loopback_only_refuses_other_addresses() {
        let lo: IpAddr = "127.0.0.1".parse().unwrap();
        let mapped: IpAddr = "::ffff:127.0.0.1".parse().unwrap();
        let far: IpAddr = "192.0.2.7".parse().unwrap();
        assert!(gate(FaucetMode::Loopback, lo).is_none());
        assert!(gate(FaucetMode::Loopback, mapped).is_none());
        assert_eq!(
            gate(FaucetMode::Loopback, far).unwrap().0,
            StatusCode::FORBIDDEN
        );
        assert!(gate(FaucetMode::All, far).is_none());
        assert_eq!(gate(FaucetMode::Off, lo).unwrap().0, StatusCode::NOT_FOUND);
    }

    #[test]
    fn buckets_empty_and_refill() {
        let f = Faucet::genesis();
        let ip: IpAddr = "127.0.0.1".parse().unwrap();
        let t0 = Instant::now();
        for _ in 0..FAUCET_BURST_REQUESTS {
            assert!(f.take(ip, t0));
        }
        assert!(!f.take(ip, t0));
        // Another address has its own bucket.
        assert!(f.take("127.0.0.2".parse().unwrap(), t0));
        let later = t0 + std::time::Duration::from_millis(FAUCET_REFILL_MILLIS);
        assert!(f.take(ip, later));
        assert!(!f.take(ip, later));
    }

    /// The JSON error of a body `parse` refuses.
    fn refusal(body: &[u8]) -> Value {
        serde_json::from_str(&parse(body).err().expect("refused").1).unwrap()
    }

    #[test]
    fn an_amount_reads_the_same_as_a_number_or_a_string() {
        let drops = |body: &str| parse(body.as_bytes()).ok().map(|a| a.drops);
        for (text, want) in [
            ("25", Some(25_000_000)),
            ("12.5", Some(12_500_000)),
            ("0.000001", Some(1)),
            ("1e3", None),
            ("1E3", None),
            ("1000.0000001", None),
            ("-3", None),
            ("0", None),
        ] {
            let number = drops(&format!("{{\"xrpAmount\": {text}}}"));
            let string = drops(&format!("{{\"xrpAmount\": \"{text}\"}}"));
            assert_eq!((number, string), (want, want), "{text}");
        }
        let err = refusal(br#"{"xrpAmount": 1e3}"#);
        assert!(
            err["error_message"].as_str().unwrap().contains("'1e3'"),
            "{err}"
        );
    }

    #[test]
    fn destination_tags() {
        let tag = |body: &str| parse(body.as_bytes()).ok().map(|a| a.tag);
        assert_eq!(tag("{}"), Some(None));
        assert_eq!(tag(r#"{"destinationTag": 7}"#), Some(Some(7)));
        assert_eq!(tag(r#"{"tag": "4294967295"}"#), Some(Some(u32::MAX)));
        assert_eq!(tag(r#"{"tag": 9, "destinationTag": 9}"#), Some(Some(9)));
        for bad in [
            r#"{"destinationTag": 4294967296}"#,
            r#"{"destinationTag": -1}"#,
            r#"{"destinationTag": 1.5}"#,
            r#"{"destinationTag": "x"}"#,
            r#"{"tag": true}"#,
            r#"{"tag": 1, "destinationTag": 2}"#,
        ] {
            assert_eq!(refusal(bad.as_bytes())["error"], "invalidParams", "{bad}");
        }
    }

    #[test]
    fn xrp_is_written_in_decimal() {
        let text = |drops| serde_json::to_string(&Xrp(drops)).unwrap();
        assert_eq!(text(1), "0.000001");
        assert_eq!(text(1_000_000_000), "1000");
        assert_eq!(text(12_500_000), "12.5");
        assert_eq!(text(99_999_999_999_999_999), "99999999999.999999");
    }

    #[test]
    fn bodies() {
        let ask =
            parse(br#"{"destination":"rHb9CJAWyB4rj91VRWn96DkukG4bwdtyTh","xrpAmount":"25"}"#)
                .ok()
                .unwrap();
        assert_eq!(ask.drops, 25_000_000);
        assert!(ask.to.is_ok());
        let ask = parse(b"").ok().unwrap();
        assert_eq!(ask.drops, FAUCET_DROPS_DEFAULT);
        assert!(ask.to.is_err());
        let too_much = format!("{{\"xrpAmount\": {}}}", FAUCET_DROPS_MAX / 1_000_000 + 1);
        assert_eq!(refusal(too_much.as_bytes())["error"], "amountTooLarge");
        for bad in [
            &b"[1]"[..],
            b"[]",
            b"{\"destination\": 5}",
            b"{\"destination\": \"rBad\"}",
            b"{\"xrpAmount\": \"-3\"}",
            b"nope",
        ] {
            assert_eq!(parse(bad).err().unwrap().0, StatusCode::BAD_REQUEST);
        }
    }
}
