//! The command-line client's positional forms (rippled `RPCCall.cpp`, rpc.md §5.2): turn
//! `ledgerd <method> <args...>` into a request object, or a local error.

use crate::protocol::base58::{self, version};
use crate::rpc::error::{ErrorCode, RpcError};
use crate::rpc::mask::MASK;
use crate::rpc::params::{parse_hash256, parse_u64_decimal};
use crate::rpc::Params;
use serde_json::{Map, Value};

/// The API version the command line sends (rippled 2.x `apiCommandLineVersion`).
pub const API_VERSION_COMMAND_LINE: u32 = 1;

/// One positional form: name, argument count range, and usage.
pub struct Form {
    /// The method.
    pub name: &'static str,
    /// Fewest positional arguments.
    pub min: usize,
    /// Most positional arguments.
    pub max: usize,
    /// Usage shown by `--help`.
    pub usage: &'static str,
    /// Argument positions that hold secrets (masked in local error output).
    pub secret_args: &'static [usize],
}

/// The forms the command line knows; other method names are sent with no parameters (the
/// server answers `unknownCmd` for names it does not know either).
pub const FORMS: &[Form] = &[
    Form {
        name: "account_channels",
        min: 1,
        max: 3,
        usage: "account_channels <account> [<destination>] [<ledger>]",
        secret_args: &[],
    },
    Form {
        name: "account_info",
        min: 1,
        max: 3,
        usage: "account_info <account> [<ledger>] [strict]",
        secret_args: &[],
    },
    Form {
        name: "account_lines",
        min: 1,
        max: 5,
        usage: "account_lines <account> [<peer>] [<ledger>]",
        secret_args: &[],
    },
    Form {
        name: "account_objects",
        min: 1,
        max: 3,
        usage: "account_objects <account> [<ledger>] [strict]",
        secret_args: &[],
    },
    Form {
        name: "account_offers",
        min: 1,
        max: 4,
        usage: "account_offers <account> [<ledger>] [strict]",
        secret_args: &[],
    },
    Form {
        name: "book_offers",
        min: 2,
        max: 7,
        usage: "book_offers <taker_pays> <taker_gets> [<taker> [<ledger> [<limit> [<proof> [<marker>]]]]]",
        secret_args: &[],
    },
    Form {
        name: "can_delete",
        min: 0,
        max: 1,
        usage: "can_delete [<ledger_index>|<ledger_hash>|now|always|never]",
        secret_args: &[],
    },
    Form {
        name: "channel_authorize",
        min: 3,
        max: 4,
        usage: "channel_authorize <secret> [<key_type>] <channel_id> <drops>",
        secret_args: &[0],
    },
    Form {
        name: "channel_verify",
        min: 4,
        max: 4,
        usage: "channel_verify <public_key> <channel_id> <drops> <signature>",
        secret_args: &[],
    },
    Form {
        name: "connect",
        min: 1,
        max: 2,
        usage: "connect <ip> [<port>]",
        secret_args: &[],
    },
    Form {
        name: "consensus_info",
        min: 0,
        max: 0,
        usage: "consensus_info",
        secret_args: &[],
    },
    Form {
        name: "fetch_info",
        min: 0,
        max: 1,
        usage: "fetch_info [clear]",
        secret_args: &[],
    },
    Form {
        name: "get_counts",
        min: 0,
        max: 1,
        usage: "get_counts [<min_count>]",
        secret_args: &[],
    },
    Form {
        name: "json",
        min: 2,
        max: 2,
        usage: "json <method> '<json object>'",
        secret_args: &[],
    },
    Form {
        name: "ledger",
        min: 0,
        max: 2,
        usage: "ledger [<ledger>] [full|tx]",
        secret_args: &[],
    },
    Form {
        name: "ledger_accept",
        min: 0,
        max: 0,
        usage: "ledger_accept",
        secret_args: &[],
    },
    Form {
        name: "ledger_closed",
        min: 0,
        max: 0,
        usage: "ledger_closed",
        secret_args: &[],
    },
    Form {
        name: "ledger_current",
        min: 0,
        max: 0,
        usage: "ledger_current",
        secret_args: &[],
    },
    Form {
        name: "ledger_request",
        min: 1,
        max: 1,
        usage: "ledger_request <ledger_index>|<ledger_hash>",
        secret_args: &[],
    },
    Form {
        name: "log_level",
        min: 0,
        max: 2,
        usage: "log_level [[<partition>] <severity>]",
        secret_args: &[],
    },
    Form {
        name: "logrotate",
        min: 0,
        max: 0,
        usage: "logrotate",
        secret_args: &[],
    },
    Form {
        name: "owner_info",
        min: 1,
        max: 3,
        usage: "owner_info <account> [<ledger>]",
        secret_args: &[],
    },
    Form {
        name: "peers",
        min: 0,
        max: 0,
        usage: "peers",
        secret_args: &[],
    },
    Form {
        name: "ping",
        min: 0,
        max: 0,
        usage: "ping",
        secret_args: &[],
    },
    Form {
        name: "print",
        min: 0,
        max: 1,
        usage: "print [<path>]",
        secret_args: &[],
    },
    Form {
        name: "random",
        min: 0,
        max: 0,
        usage: "random",
        secret_args: &[],
    },
    Form {
        name: "ripple_path_find",
        min: 1,
        max: 2,
        usage: "ripple_path_find <json> [<ledger>]",
        secret_args: &[],
    },
    Form {
        name: "server_definitions",
        min: 0,
        max: 1,
        usage: "server_definitions [<hash>]",
        secret_args: &[],
    },
    Form {
        name: "server_info",
        min: 0,
        max: 1,
        usage: "server_info [counters]",
        secret_args: &[],
    },
    Form {
        name: "server_state",
        min: 0,
        max: 1,
        usage: "server_state [counters]",
        secret_args: &[],
    },
    Form {
        name: "sign",
        min: 2,
        max: 3,
        usage: "sign <secret> <tx_json> [offline]",
        secret_args: &[0],
    },
    Form {
        name: "stop",
        min: 0,
        max: 0,
        usage: "stop",
        secret_args: &[],
    },
    Form {
        name: "submit",
        min: 1,
        max: 3,
        usage: "submit <tx_blob> | submit <secret> <tx_json> [offline]",
        secret_args: &[0],
    },
    Form {
        name: "tx",
        min: 1,
        max: 4,
        usage: "tx <hash or ctid> [binary] [<min_ledger> <max_ledger>]",
        secret_args: &[],
    },
    Form {
        name: "unl_list",
        min: 0,
        max: 0,
        usage: "unl_list",
        secret_args: &[],
    },
    Form {
        name: "validation_create",
        min: 0,
        max: 1,
        usage: "validation_create [<secret>|<passphrase>]",
        secret_args: &[0],
    },
    Form {
        name: "validator_info",
        min: 0,
        max: 0,
        usage: "validator_info",
        secret_args: &[],
    },
    Form {
        name: "validator_list_sites",
        min: 0,
        max: 0,
        usage: "validator_list_sites",
        secret_args: &[],
    },
    Form {
        name: "validators",
        min: 0,
        max: 0,
        usage: "validators",
        secret_args: &[],
    },
    Form {
        name: "wallet_propose",
        min: 0,
        max: 1,
        usage: "wallet_propose [<passphrase>]",
        secret_args: &[0],
    },
];

/// The `--help` text listing the methods and their forms.
pub fn help_text() -> String {
    let mut s = String::from("Methods (ledgerd [--server HOST:PORT] <method> <args...>):\n");
    for f in FORMS {
        s.push_str("  ");
        s.push_str(f.usage);
        s.push('\n');
    }
    let others: Vec<&str> = crate::rpc::method_names()
        .filter(|m| !FORMS.iter().any(|f| f.name == *m))
        .collect();
    if !others.is_empty() {
        s.push_str("  ");
        s.push_str(&others.join(", "));
        s.push_str(" (no arguments; or use `json`)\n");
    }
    s
}

/// The arguments as they may be shown in an error: secret positions masked.
pub fn shown_args(method: &str, args: &[String]) -> Vec<Value> {
    let secret = FORMS
        .iter()
        .find(|f| f.name == method)
        .map(|f| f.secret_args)
        .unwrap_or(&[]);
    args.iter()
        .enumerate()
        .map(|(i, a)| {
            Value::from(if secret.contains(&i) {
                MASK
            } else {
                a.as_str()
            })
        })
        .collect()
}

/// Build `(method, request object)` from the command line, or the local error.
pub fn request(method: &str, args: &[String]) -> Result<(String, Params), RpcError> {
    let form = FORMS.iter().find(|f| f.name == method);
    if let Some(f) = form {
        if args.len() < f.min || args.len() > f.max {
            return Err(RpcError::new(ErrorCode::BadSyntax));
        }
    }
    let (method, mut p) = match method {
        "json" => json_form(args)?,
        _ => (method.to_owned(), form_params(method, args)?),
    };
    if !p.contains_key("api_version") {
        p.insert("api_version".into(), Value::from(API_VERSION_COMMAND_LINE));
    }
    Ok((method, p))
}

/// The request object of every positional form but `json`.
fn form_params(method: &str, args: &[String]) -> Result<Params, RpcError> {
    Ok(match method {
        "account_channels" | "account_lines" => account_peer_form(method, args)?,
        "account_info" | "account_objects" | "account_offers" | "owner_info" => {
            account_strict_form(args)?
        }
        "book_offers" => book_offers_form(args)?,
        "can_delete" | "connect" | "fetch_info" | "get_counts" | "ledger_request" | "log_level" => {
            admin_form(method, args)?
        }
        "channel_authorize" => channel_authorize_form(args)?,
        "channel_verify" => channel_verify_form(args)?,
        "ledger" => ledger_form(args),
        "ripple_path_find" => ripple_path_find_form(args)?,
        "server_definitions" => first_arg_as("hash", args),
        "server_info" | "server_state" => {
            let mut p = Map::new();
            if args.first().map(String::as_str) == Some("counters") {
                p.insert("counters".into(), Value::from(true));
            }
            p
        }
        "sign" | "submit" => sign_submit(args)?,
        // rippled's command line refuses the streaming methods locally.
        "path_find" | "subscribe" | "unsubscribe" => {
            return Err(RpcError::new(ErrorCode::NoEvents))
        }
        "tx" => tx_form(args),
        "validation_create" => first_arg_as("secret", args),
        "wallet_propose" => first_arg_as("passphrase", args),
        _ => {
            let mut p = Map::new();
            if !args.is_empty() {
                p.insert(
                    "params".into(),
                    Value::Array(args.iter().map(|a| Value::from(a.as_str())).collect()),
                );
            }
            p
        }
    })
}

/// `account_channels <account> [<destination>] [<ledger>]` and
/// `account_lines <account> [<peer>] [<ledger>]`.
fn account_peer_form(method: &str, args: &[String]) -> Result<Params, RpcError> {
    let mut p = Map::new();
    account_arg(&mut p, &args[0])?;
    let field = if method == "account_lines" {
        "peer"
    } else {
        "destination_account"
    };
    if let Some(peer) = args.get(1).filter(|a| !a.is_empty()) {
        if !is_account(peer) {
            return Err(RpcError::new(ErrorCode::ActMalformed));
        }
        p.insert(field.into(), Value::from(peer.as_str()));
    }
    if let Some(l) = args.get(2) {
        ledger_arg(&mut p, l);
    }
    Ok(p)
}

/// `account_info` and `account_objects`: `<account> [<ledger>] [strict]`.
fn account_strict_form(args: &[String]) -> Result<Params, RpcError> {
    let mut p = Map::new();
    let mut n = args.len();
    if n >= 2 && args[n - 1] == "strict" {
        p.insert("strict".into(), Value::from(1));
        n -= 1;
    }
    account_arg(&mut p, &args[0])?;
    if n == 2 {
        ledger_arg(&mut p, &args[1]);
    }
    Ok(p)
}

/// rippled's `jvParseCurrencyIssuer`: `<currency>[/<issuer>]`, the currency three
/// characters of the ISO set; else `invalidParams` "Invalid currency/issuer '<text>'".
fn currency_issuer(text: &str) -> Result<Value, RpcError> {
    let (currency, issuer) = match text.split_once('/') {
        Some((c, i)) if !i.is_empty() => (c, Some(i)),
        Some(_) => ("", None),
        None => (text, None),
    };
    let iso = crate::protocol::types::ISO_CHARSET;
    if currency.chars().count() != 3 || !currency.chars().all(|c| iso.contains(c)) {
        return Err(RpcError::with_message(
            ErrorCode::InvalidParams,
            format!("Invalid currency/issuer '{text}'"),
        ));
    }
    let mut o = Map::new();
    o.insert("currency".into(), Value::from(currency));
    if let Some(i) = issuer {
        o.insert("issuer".into(), Value::from(i));
    }
    Ok(Value::Object(o))
}

/// `book_offers <taker_pays> <taker_gets> [<taker> [<ledger> [<limit> [<proof>
/// [<marker>]]]]]` as rippled's `parseBookOffers` builds it: the third argument goes to
/// an `issuer` member (which the server ignores), a limit of 0 or less is left out, a
/// proof other than 0 is `proof: true`.
fn book_offers_form(args: &[String]) -> Result<Params, RpcError> {
    let mut p = Map::new();
    p.insert("taker_pays".into(), currency_issuer(&args[0])?);
    p.insert("taker_gets".into(), currency_issuer(&args[1])?);
    if let Some(t) = args.get(2) {
        p.insert("issuer".into(), Value::from(t.as_str()));
    }
    if let Some(l) = args.get(3) {
        ledger_arg(&mut p, l);
    }
    if let Some(l) = args.get(4) {
        let n: i64 = l
            .trim()
            .parse()
            .map_err(|_| RpcError::invalid_field("limit"))?;
        if n > 0 {
            p.insert("limit".into(), Value::from(n));
        }
    }
    if let Some(proof) = args.get(5) {
        let n: i64 = proof
            .trim()
            .parse()
            .map_err(|_| RpcError::invalid_field("proof"))?;
        if n != 0 {
            p.insert("proof".into(), Value::from(true));
        }
    }
    if let Some(m) = args.get(6) {
        p.insert("marker".into(), Value::from(m.as_str()));
    }
    Ok(p)
}

/// `channel_authorize <secret> <channel_id> <drops>`, or with a passphrase and its key type
/// `channel_authorize <passphrase> <key_type> <channel_id> <drops>`.
fn channel_authorize_form(args: &[String]) -> Result<Params, RpcError> {
    let mut p = Map::new();
    let rest = if args.len() == 4 {
        let key_type = args[1].as_str();
        if key_type != "secp256k1" && key_type != "ed25519" {
            return Err(RpcError::new(ErrorCode::BadKeyType));
        }
        p.insert("passphrase".into(), Value::from(args[0].as_str()));
        p.insert("key_type".into(), Value::from(key_type));
        &args[2..]
    } else {
        p.insert("secret".into(), Value::from(args[0].as_str()));
        &args[1..]
    };
    let id = parse_hash256(&rest[0]).ok_or(RpcError::new(ErrorCode::ChannelMalformed))?;
    parse_u64_decimal(&rest[1]).ok_or(RpcError::new(ErrorCode::ChannelAmtMalformed))?;
    p.insert("channel_id".into(), Value::from(id.to_hex()));
    p.insert("amount".into(), Value::from(rest[1].as_str()));
    Ok(p)
}

/// `channel_verify <public_key> <channel_id> <drops> <signature>`.
fn channel_verify_form(args: &[String]) -> Result<Params, RpcError> {
    if !is_public_key(&args[0]) {
        return Err(RpcError::new(ErrorCode::PublicMalformed));
    }
    parse_hash256(&args[1]).ok_or(RpcError::new(ErrorCode::ChannelMalformed))?;
    parse_u64_decimal(&args[2]).ok_or(RpcError::new(ErrorCode::ChannelAmtMalformed))?;
    let mut p = Map::new();
    p.insert("public_key".into(), Value::from(args[0].as_str()));
    p.insert("channel_id".into(), Value::from(args[1].as_str()));
    p.insert("amount".into(), Value::from(args[2].as_str()));
    p.insert("signature".into(), Value::from(args[3].as_str()));
    Ok(p)
}

/// `ripple_path_find <json> [<ledger>]` (rippled `parseRipplePathFind`): the request
/// object as given, the ledger added as `jvParseLedger` reads it.
fn ripple_path_find_form(args: &[String]) -> Result<Params, RpcError> {
    let parsed: Value =
        serde_json::from_str(&args[0]).map_err(|_| RpcError::new(ErrorCode::InvalidParams))?;
    let Value::Object(mut p) = parsed else {
        return Err(RpcError::new(ErrorCode::InvalidParams));
    };
    if let Some(ledger) = args.get(1) {
        ledger_arg(&mut p, ledger);
    }
    Ok(p)
}

/// `json <method> '<json object>'`: the object as given, with the method named in it.
fn json_form(args: &[String]) -> Result<(String, Params), RpcError> {
    let parsed: Value =
        serde_json::from_str(&args[1]).map_err(|_| RpcError::new(ErrorCode::InvalidParams))?;
    let Value::Object(mut p) = parsed else {
        return Err(RpcError::new(ErrorCode::InvalidParams));
    };
    let method = args[0].clone();
    p.insert("method".into(), Value::from(method.as_str()));
    Ok((method, p))
}

/// The administration methods' forms (rippled's `parseCanDelete`, `parseConnect`,
/// `parseFetchInfo`, `parseGetCounts`, `parseLedgerId`, `parseLogLevel`). A number rippled
/// casts and cannot is its local `internal` error.
fn admin_form(method: &str, args: &[String]) -> Result<Params, RpcError> {
    let number = |t: &str| {
        t.trim()
            .parse::<u32>()
            .map_err(|_| RpcError::new(ErrorCode::Internal))
    };
    let mut p = Map::new();
    let first = args.first().map(String::as_str);
    match (method, first) {
        (_, None) => {}
        ("can_delete", Some(t)) if !t.is_empty() && t.bytes().all(|b| b.is_ascii_digit()) => {
            p.insert("can_delete".into(), Value::from(number(t)?));
        }
        ("can_delete", Some(t)) => {
            p.insert("can_delete".into(), Value::from(t));
        }
        ("connect", Some(ip)) => connect_form(&mut p, ip, args.get(1), number)?,
        ("fetch_info", Some(t)) => {
            p.insert(t.into(), Value::from(true));
        }
        ("get_counts", Some(t)) => {
            p.insert("min_count".into(), Value::from(number(t)?));
        }
        ("ledger_request", Some(t)) if t.len() == 64 => {
            p.insert("ledger_hash".into(), Value::from(t));
        }
        ("ledger_request", Some(t)) => {
            p.insert("ledger_index".into(), Value::from(number(t)?));
        }
        ("log_level", Some(t)) => match args.get(1) {
            Some(severity) => {
                p.insert("partition".into(), Value::from(t));
                p.insert("severity".into(), Value::from(severity.as_str()));
            }
            None => {
                p.insert("severity".into(), Value::from(t));
            }
        },
        _ => {}
    }
    Ok(p)
}

/// `connect <ip> [<port>]`, or `connect <ip>:<port>`.
fn connect_form(
    p: &mut Params,
    ip: &str,
    port: Option<&String>,
    number: impl Fn(&str) -> Result<u32, RpcError>,
) -> Result<(), RpcError> {
    let (ip, port) = match (port, ip.matches(':').count()) {
        (Some(port), _) => (ip, Some(number(port)?)),
        (None, 1) => {
            let (host, port) = ip.split_once(':').unwrap_or((ip, ""));
            (host, Some(number(port)?))
        }
        (None, _) => (ip, None),
    };
    p.insert("ip".into(), Value::from(ip));
    if let Some(port) = port {
        p.insert("port".into(), Value::from(port));
    }
    Ok(())
}

/// `ledger [<ledger>] [full|tx]`.
fn ledger_form(args: &[String]) -> Params {
    let mut p = Map::new();
    if let Some(l) = args.first() {
        ledger_arg(&mut p, l);
    }
    match args.get(1).map(String::as_str) {
        Some("full") => {
            p.insert("full".into(), Value::from(true));
        }
        Some("tx") => {
            p.insert("transactions".into(), Value::from(true));
            p.insert("expand".into(), Value::from(true));
        }
        _ => {}
    }
    p
}

/// `tx <hash or ctid> [binary] [<min_ledger> <max_ledger>]`.
fn tx_form(args: &[String]) -> Params {
    let mut p = Map::new();
    if (args.len() == 2 || args.len() == 4) && args[1] == "binary" {
        p.insert("binary".into(), Value::from(true));
    }
    if args.len() >= 3 {
        let at = if args.len() == 3 { 1 } else { 2 };
        p.insert("min_ledger".into(), Value::from(args[at].as_str()));
        p.insert("max_ledger".into(), Value::from(args[at + 1].as_str()));
    }
    let key = if args[0].len() == 16 {
        "ctid"
    } else {
        "transaction"
    };
    p.insert(key.into(), Value::from(args[0].as_str()));
    p
}

/// The optional first argument, as the string `key` (`server_definitions [<hash>]`,
/// `wallet_propose [<passphrase>]`).
fn first_arg_as(key: &str, args: &[String]) -> Params {
    let mut p = Map::new();
    if let Some(a) = args.first() {
        p.insert(key.into(), Value::from(a.as_str()));
    }
    p
}

/// rippled `parseSignSubmit`: `<tx_blob>`, or `<secret> <tx_json> [offline]`.
fn sign_submit(args: &[String]) -> Result<Params, RpcError> {
    let mut p = Map::new();
    if let [blob] = args {
        p.insert("tx_blob".into(), Value::from(blob.as_str()));
        return Ok(p);
    }
    let offline = args.len() == 3 && args[2] == "offline";
    let parsed = serde_json::from_str::<Value>(&args[1]).ok();
    match parsed {
        Some(tx_json) if args.len() == 2 || offline => {
            p.insert("secret".into(), Value::from(args[0].as_str()));
            p.insert("tx_json".into(), tx_json);
            if offline {
                p.insert("offline".into(), Value::from(true));
            }
            Ok(p)
        }
        _ => Err(RpcError::new(ErrorCode::InvalidParams)),
    }
}

/// rippled's `jvParseLedger`: a shortcut name, a 64-character hash, or an index parsed
/// leniently (0 when it is not a number).
fn ledger_arg(p: &mut Params, text: &str) {
    match text {
        "current" | "closed" | "validated" => {
            p.insert("ledger_index".into(), Value::from(text));
        }
        t if t.len() == 64 => {
            p.insert("ledger_hash".into(), Value::from(t));
        }
        t => {
            let n = t.parse::<u32>().unwrap_or(0);
            p.insert("ledger_index".into(), Value::from(n));
        }
    }
}

/// A classic address or a base58 account public key (what the command line accepts).
fn is_account(text: &str) -> bool {
    crate::protocol::types::AccountId::from_address(text).is_ok()
        || base58::decode(text, version::ACCOUNT_PUBLIC, 33).is_ok()
}

/// The first positional argument: an account, else a local `actMalformed`.
fn account_arg(p: &mut Params, text: &str) -> Result<(), RpcError> {
    if !is_account(text) {
        return Err(RpcError::new(ErrorCode::ActMalformed));
    }
    p.insert("account".into(), Value::from(text));
    Ok(())
}

/// A base58 account public key (`a...`) or 66 hex digits of a 33-byte key whose first byte
/// is a valid type prefix (02/03 secp256k1, ED ed25519).
pub fn is_public_key(text: &str) -> bool {
    let bytes = match base58::decode(text, version::ACCOUNT_PUBLIC, 33) {
        Ok(b) => b,
        Err(_) => match hex::decode(text) {
            Ok(b) if b.len() == 33 => b,
            _ => return false,
        },
    };
    matches!(bytes[0], 0x02 | 0x03 | 0xED)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(a: &[&str]) -> Vec<String> {
        a.iter().map(|s| s.to_string()).collect()
    }

    const ID: &str = "256e57d3fb4f912878ddaf2d1a5857ea63346adf0e209d01a4721ea1e6bc591a";

    #[test]
    fn channel_authorize_forms() {
        let (_, p) = request("channel_authorize", &args(&["sn", ID, "5"])).unwrap();
        assert_eq!(p["secret"], "sn");
        assert_eq!(p["channel_id"], ID.to_uppercase());
        assert_eq!(p["amount"], "5");
        assert_eq!(p["api_version"], 1);
        let (_, p) = request("channel_authorize", &args(&["pass", "ed25519", ID, "5"])).unwrap();
        assert_eq!(p["passphrase"], "pass");
        assert_eq!(p["key_type"], "ed25519");
        let tok = |a: &[&str]| request("channel_authorize", &args(a)).unwrap_err().token();
        assert_eq!(tok(&["p", "rsa", ID, "5"]), "badKeyType");
        assert_eq!(tok(&["p", "xyz", "5"]), "channelMalformed");
        assert_eq!(tok(&["p", ID, "5.0"]), "channelAmtMalformed");
        assert_eq!(tok(&["p", ID]), "badSyntax");
    }

    #[test]
    fn sign_and_submit_forms() {
        let (_, p) = request("submit", &args(&["ABCD"])).unwrap();
        assert_eq!(p["tx_blob"], "ABCD");
        let (_, p) = request("submit", &args(&["snoPBr", "{\"a\":1}"])).unwrap();
        assert_eq!(p["secret"], "snoPBr");
        assert_eq!(p["tx_json"]["a"], 1);
        assert!(!p.contains_key("offline"));
        let (_, p) = request("sign", &args(&["s", "{}", "offline"])).unwrap();
        assert_eq!(p["offline"], true);
        let tok = |m: &str, a: &[&str]| request(m, &args(a)).unwrap_err().token();
        assert_eq!(tok("sign", &["s", "{}", "online"]), "invalidParams");
        assert_eq!(tok("sign", &["s", "{nope"]), "invalidParams");
        assert_eq!(tok("sign", &["s"]), "badSyntax");
        assert_eq!(tok("ledger_accept", &["x"]), "badSyntax");
        let (_, p) = request("ledger_accept", &[]).unwrap();
        assert_eq!(p.len(), 1);
    }

    #[test]
    fn other_forms() {
        let pk = "0330E7FC9D56BB25D6893BA3F317AE5BCF33B3291BD63DB32654A313222F7FD020";
        assert!(request("channel_verify", &args(&[pk, ID, "1", "AB"])).is_ok());
        let bad = request("channel_verify", &args(&["04AB", ID, "1", "AB"])).unwrap_err();
        assert_eq!(bad.token(), "publicMalformed");
        let (_, p) = request("ripple_path_find", &args(&["{\"x\":1}", "7"])).unwrap();
        assert_eq!(p["x"], 1);
        assert_eq!(p["ledger_index"], 7);
        assert!(request("ripple_path_find", &args(&["[1]"])).is_err());
        let (m, p) = request("json", &args(&["fee", "{\"x\":1}"])).unwrap();
        assert_eq!(m, "fee");
        assert_eq!(p["method"], "fee");
        assert_eq!(p["x"], 1);
        let (_, p) = request("server_info", &args(&["counters"])).unwrap();
        assert_eq!(p["counters"], true);
        assert_eq!(
            request("ping", &args(&["x"])).unwrap_err().token(),
            "badSyntax"
        );
        let (_, p) = request("book_offers", &args(&["XRP", "USD/rGW", "rT", "5", "3"])).unwrap();
        assert_eq!(p["taker_pays"], serde_json::json!({"currency": "XRP"}));
        assert_eq!(
            p["taker_gets"],
            serde_json::json!({"currency": "USD", "issuer": "rGW"})
        );
        assert_eq!(
            (&p["issuer"], &p["ledger_index"], &p["limit"]),
            (&"rT".into(), &5.into(), &3.into())
        );
        let bad = request("book_offers", &args(&["XRPX", "USD"])).unwrap_err();
        assert_eq!(bad.token(), "invalidParams");
        let bad = request("book_offers", &args(&["XRP", "USD", "r", "1", "x"])).unwrap_err();
        assert_eq!(bad.token(), "invalidParams");
        assert!(request("book_offers", &args(&["XRP"])).is_err());
        let (_, p) = request(
            "account_offers",
            &args(&["rHb9CJAWyB4rj91VRWn96DkukG4bwdtyTh", "validated"]),
        )
        .unwrap();
        assert_eq!(p["ledger_index"], "validated");
        assert_eq!(
            shown_args("wallet_propose", &args(&["hunter2"])),
            vec![Value::from(MASK)]
        );
    }

    #[test]
    fn admin_forms() {
        let req = |m: &str, a: &[&str]| request(m, &args(a)).map(|(_, p)| p);
        assert_eq!(req("log_level", &["debug"]).unwrap()["severity"], "debug");
        let p = req("log_level", &["node", "trace"]).unwrap();
        assert_eq!(
            (&p["partition"], &p["severity"]),
            (&"node".into(), &"trace".into())
        );
        assert!(!req("log_level", &[]).unwrap().contains_key("severity"));
        assert_eq!(req("can_delete", &["12"]).unwrap()["can_delete"], 12);
        assert_eq!(req("can_delete", &["now"]).unwrap()["can_delete"], "now");
        assert_eq!(req("get_counts", &["3"]).unwrap()["min_count"], 3);
        assert_eq!(req("get_counts", &["x"]).unwrap_err().token(), "internal");
        assert_eq!(req("fetch_info", &["clear"]).unwrap()["clear"], true);
        assert_eq!(req("ledger_request", &["9"]).unwrap()["ledger_index"], 9);
        assert_eq!(req("ledger_request", &[ID]).unwrap()["ledger_hash"], ID);
        let p = req("connect", &["10.0.0.1:51235"]).unwrap();
        assert_eq!((&p["ip"], &p["port"]), (&"10.0.0.1".into(), &51235.into()));
        let p = req("connect", &["10.0.0.1", "7"]).unwrap();
        assert_eq!(p["port"], 7);
        assert!(!req("connect", &["::1"]).unwrap().contains_key("port"));
        assert_eq!(
            req("validation_create", &["s3cret"]).unwrap()["secret"],
            "s3cret"
        );
        assert_eq!(
            shown_args("validation_create", &args(&["s3cret"])),
            vec![Value::from(MASK)]
        );
        let p = req("owner_info", &["rHb9CJAWyB4rj91VRWn96DkukG4bwdtyTh", "5"]).unwrap();
        assert_eq!(p["ledger_index"], 5);
        assert_eq!(req("print", &["ledgers"]).unwrap()["params"][0], "ledgers");
        assert_eq!(req("stop", &["now"]).unwrap_err().token(), "badSyntax");
    }
}
