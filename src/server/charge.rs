//! What an answered request costs its client, as rippled's handlers set `loadType`
//! (`Resource::Fees`): the reference charge, rippled's medium or heavy burden for the methods
//! that carry one, plus one unit per [`RESOURCE_REPLY_BYTES_PER_UNIT`] bytes of the reply
//! (ledgerd's addition: a large reply costs memory and bandwidth whatever the method).
//!
//! The charge is made once the reply is built, as rippled charges after `doCommand`; a
//! balance past the warning level adds `warning: "load"` to that reply, and a balance past
//! the cut-off replaces it: a WebSocket client is closed with 1008 "threshold exceeded", an
//! HTTP client gets 503 (see `http.rs`).

use crate::limits::{
    RESOURCE_CHARGE_HEAVY, RESOURCE_CHARGE_MEDIUM, RESOURCE_CHARGE_REFERENCE,
    RESOURCE_REPLY_BYTES_PER_UNIT,
};
use crate::rpc::error::{ErrorCode, ErrorKind};
use crate::rpc::params::as_bool;
use crate::rpc::role::Role;
use crate::rpc::{envelope, HandlerResult, Params};
use crate::server::resource::Disposition;
use crate::server::role::Payer;
use crate::server::ws::Outbox;
use crate::server::Connection;
use tokio_tungstenite::tungstenite::protocol::frame::coding::CloseCode;

/// The close reason of a WebSocket client cut off for its load (rippled's).
pub const THRESHOLD_CLOSE_REASON: &str = "threshold exceeded";

/// What answering `method` with `result` costs before its reply's size: rippled's `loadType`
/// for it.
pub fn method_fee(method: &str, params: &Params, result: &HandlerResult) -> u32 {
    let flag = |name| params.get(name).is_some_and(as_bool);
    match method {
        // Set before anything is checked (Submit.cpp).
        "submit" => RESOURCE_CHARGE_MEDIUM,
        // Set once the signing gate has let the caller through (SignHandler.cpp).
        "sign" => match result {
            Err(e) if e.kind == ErrorKind::Table(ErrorCode::NotSupported) => {
                RESOURCE_CHARGE_REFERENCE
            }
            _ => RESOURCE_CHARGE_HEAVY,
        },
        // Set on the way out of a successful walk (AccountLines.cpp, AccountChannels.cpp,
        // AccountObjects.cpp).
        "account_lines" | "account_channels" | "account_objects" if result.is_ok() => {
            RESOURCE_CHARGE_MEDIUM
        }
        // Set before any check (RipplePathFind.cpp), and for a create once the session is
        // known (PathFind.cpp): `feeHeavyBurdenRPC` / `feeHighBurdenRPC`, both 3000.
        "ripple_path_find" => RESOURCE_CHARGE_HEAVY,
        "path_find"
            if params.get("subcommand").and_then(|v| v.as_str()) == Some("create")
                && !matches!(result, Err(e) if e.kind == ErrorKind::Table(ErrorCode::NoEvents)) =>
        {
            RESOURCE_CHARGE_HEAVY
        }
        // A whole ledger's state (LedgerHandler.cpp): heavy, medium in binary.
        "ledger" if result.is_ok() && (flag("full") || flag("accounts")) => {
            if flag("binary") {
                RESOURCE_CHARGE_MEDIUM
            } else {
                RESOURCE_CHARGE_HEAVY
            }
        }
        _ => RESOURCE_CHARGE_REFERENCE,
    }
}

/// What a reply of `bytes` adds to its request's charge.
pub fn reply_fee(bytes: usize) -> u32 {
    u32::try_from(bytes / RESOURCE_REPLY_BYTES_PER_UNIT).unwrap_or(u32::MAX)
}

impl Connection {
    /// Charge a WebSocket request for its method and its reply, then queue the reply (with
    /// `warning: "load"` when the client's balance is high), or, when the charge cuts the
    /// client off, close the connection with 1008 "threshold exceeded" instead. The
    /// request's in-flight `permit` goes with the reply, or is released.
    pub fn answer_ws(
        &self,
        outbox: &Outbox,
        (role, payer): (Role, Payer),
        method: &str,
        request: &Params,
        result: HandlerResult,
        permit: crate::server::ws::Slot,
    ) {
        let fee = method_fee(method, request, &result);
        let mut disposition = Disposition::Ok;
        let text = envelope::ws_reply_text_sized(request, result, |bytes| {
            disposition = self.charge(role, payer, fee.saturating_add(reply_fee(bytes)));
            disposition != Disposition::Ok
        });
        if disposition == Disposition::Drop {
            tracing::info!(peer = %self.peer, method, "client over its load limit, disconnecting");
            drop((text, permit));
            outbox.close(CloseCode::Policy, THRESHOLD_CLOSE_REASON);
        } else {
            outbox.push(text, Some(permit));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rpc::error::RpcError;
    use serde_json::{Map, Value};

    fn with(name: &str, value: Value) -> Params {
        let mut p = Params::new();
        p.insert(name.into(), value);
        p
    }

    #[test]
    fn fees_follow_rippled_load_types() {
        let ok: HandlerResult = Ok(Map::new());
        let none = Params::new();
        assert_eq!(method_fee("ping", &none, &ok), RESOURCE_CHARGE_REFERENCE);
        assert_eq!(method_fee("ledger", &none, &ok), RESOURCE_CHARGE_REFERENCE);
        let full = with("full", Value::Bool(true));
        assert_eq!(method_fee("ledger", &full, &ok), RESOURCE_CHARGE_HEAVY);
        let mut binary = with("accounts", Value::Bool(true));
        binary.insert("binary".into(), Value::Bool(true));
        assert_eq!(method_fee("ledger", &binary, &ok), RESOURCE_CHARGE_MEDIUM);
        let refused = Err(RpcError::new(ErrorCode::NoPermission));
        assert_eq!(
            method_fee("ledger", &full, &refused),
            RESOURCE_CHARGE_REFERENCE
        );
        assert_eq!(
            method_fee("submit", &none, &refused),
            RESOURCE_CHARGE_MEDIUM
        );
        assert_eq!(method_fee("sign", &none, &ok), RESOURCE_CHARGE_HEAVY);
        let gated = Err(RpcError::new(ErrorCode::NotSupported));
        assert_eq!(method_fee("sign", &none, &gated), RESOURCE_CHARGE_REFERENCE);
        assert_eq!(
            method_fee("account_lines", &none, &ok),
            RESOURCE_CHARGE_MEDIUM
        );
        assert_eq!(
            method_fee("account_objects", &none, &refused),
            RESOURCE_CHARGE_REFERENCE
        );
    }

    #[test]
    fn replies_cost_by_size() {
        assert_eq!(reply_fee(100), 0);
        assert_eq!(reply_fee(80_000), 78);
        assert_eq!(reply_fee(13_000_000), 12_695);
    }
}
