//! The RPC layer: envelopes, the one handler table, errors, parameter parsing, masking,
//! and one handler file per method under `handlers/`.
//!
//! # The handler table
//! [`METHODS`] is the only list of methods: each row holds the wire name, the handler, the
//! role it requires, its ledger precondition and the API versions it exists in. The
//! transports ask it for the required role (to answer `forbidden` / 403 before dispatch), the
//! command-line client for the list of names, and a test checks the names are unique.
//!
//! A handler is a plain function `fn(&Context, &Params) -> HandlerResult`; the row says where
//! it runs: [`Handler::Inline`] on the connection task (cheap work only), [`Handler::Cpu`] on
//! the CPU pool (signing, verification, and reads that walk many entries or the history
//! store), [`Handler::Async`] as its own task (work that waits, e.g. for a journal write).
//! Adding a method = one file `handlers/<wire name>.rs` and one line in the `methods!` list
//! in `handlers/mod.rs`: the macro declares the module and builds the row from the same
//! name, so the file name is the wire name by construction; role, condition and API
//! versions default to user, none and every version.
//!
//! # Beside the handlers
//! Code several methods share lives here, never in `handlers/`:
//! - requests and replies: [`json`] (bounded parsing), [`envelope`], [`error`], [`params`],
//!   [`mask`], [`role`], [`context`] (what a handler sees, the shared [`context::Services`]);
//! - reading: [`ledger_select`] (which ledger a request reads), [`owner_walk`],
//!   [`entry_type`], [`book_page`], [`nft_offers`], [`price_stats`], [`amendments`],
//!   [`node_identity`];
//! - writing: [`signing`] (`sign` and the signing path `submit` shares), [`submission`]
//!   (the sequencer slot, checks on the CPU pool, the durable reply), [`standalone`]
//!   (`ledger_accept`, `ledger_snapshot`, `ledger_revert`), [`devnet`] (faucet, prefunded
//!   accounts, genesis files), [`key_cache`], [`cpu_pool`];
//! - [`pathfind`]: rippled's `Pathfinder` and `PathRequest`, for `ripple_path_find` and
//!   `path_find`;
//! - other servers: [`upstream`] (a WebSocket client), [`forward`] (a read node's writes to
//!   its writer);
//! - [`cli`]: the command-line client's positional forms.

pub mod amendments;
pub mod book_page;
pub mod cli;
pub mod clio;
pub mod context;
pub mod cpu_pool;
pub mod devnet;
pub mod entry_type;
pub mod envelope;
pub mod error;
pub mod forward;
pub mod handlers;
pub mod json;
pub mod key_cache;
pub mod ledger_select;
pub mod mask;
pub mod nft_offers;
pub mod node_identity;
pub mod owner_walk;
pub mod params;
pub mod pathfind;
pub mod price_stats;
pub mod raw;
pub mod read_cache;
pub mod role;
pub mod signing;
pub mod standalone;
pub mod submission;
pub mod tx_places;
pub mod tx_rows;
pub mod upstream;

use crate::limits::VALIDATED_AGE_MAX_SECS;
use crate::node::status::OperatingMode;
use crate::rpc::role::Role;
use context::Context;
use error::{ErrorCode, RpcError};
use futures::future::BoxFuture;
use serde_json::{Map, Value};
use std::collections::HashMap;
use std::ops::RangeInclusive;
use std::sync::OnceLock;

/// A request's parameters (WebSocket: the request object; HTTP: `params[0]` plus `command`).
pub type Params = Map<String, Value>;

/// What a handler returns: its result fields, or an error (which may carry fields).
pub type HandlerResult = Result<Map<String, Value>, RpcError>;

/// Lowest API version served.
pub const API_VERSION_MIN: u32 = 1;
/// Highest API version served.
pub const API_VERSION_MAX: u32 = 2;
/// The API version of a request that names none.
pub const API_VERSION_DEFAULT: u32 = 1;

/// How and where a handler runs.
#[derive(Clone, Copy)]
pub enum Handler {
    /// Cheap work, run on the connection task.
    Inline(fn(&Context, &Params) -> HandlerResult),
    /// CPU-heavy work (signatures), run on the CPU pool.
    Cpu(fn(&Context, &Params) -> HandlerResult),
    /// Work that waits on something else, run as its own task.
    Async(fn(Context, Params) -> BoxFuture<'static, HandlerResult>),
}

/// A handler's ledger precondition (rippled `Handler.h` conditions).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Condition {
    /// None.
    None,
    /// Needs the open ledger.
    NeedsCurrentLedger,
    /// Needs a closed ledger.
    NeedsClosedLedger,
    /// Needs a network connection.
    NeedsNetwork,
}

/// One row of the handler table.
pub struct Method {
    /// The wire name (`command` / `method`).
    pub name: &'static str,
    /// The function and where it runs.
    pub handler: Handler,
    /// The least role that may call it.
    pub role: Role,
    /// Its ledger precondition.
    pub condition: Condition,
    /// The API versions it exists in.
    pub api_versions: RangeInclusive<u32>,
}

/// Every API version served.
pub const ALL_VERSIONS: RangeInclusive<u32> = API_VERSION_MIN..=API_VERSION_MAX;

pub use handlers::METHODS;

fn index() -> &'static HashMap<&'static str, &'static Method> {
    static INDEX: OnceLock<HashMap<&'static str, &'static Method>> = OnceLock::new();
    INDEX.get_or_init(|| {
        let mut map = HashMap::with_capacity(METHODS.len());
        for m in METHODS {
            // The first row wins; `tests::names_are_unique` keeps there from being a second.
            map.entry(m.name).or_insert(m);
        }
        map
    })
}

/// The method called `name` in `api_version`, if there is one.
pub fn find(name: &str, api_version: u32) -> Option<&'static Method> {
    index()
        .get(name)
        .copied()
        .filter(|m| m.api_versions.contains(&api_version))
}

/// The role a request for `name` requires; unknown names require nothing (they get
/// `unknownCmd` later), as in rippled.
pub fn required_role(name: &str, api_version: u32) -> Role {
    find(name, api_version)
        .map(|m| m.role)
        .unwrap_or(Role::User)
}

/// Whether a caller with `role` is refused `name` before dispatch: rippled's
/// `requestRole`, which makes a non-admin caller of an admin method FORBID (WebSocket
/// `forbidden`, HTTP 403). [`resolve`] applies the same rule again as rippled's
/// `fillHandler` does (`noPermission`), for callers that reach it without a transport.
pub fn forbidden(name: &str, api_version: u32, role: Role) -> bool {
    !permits(required_role(name, api_version), role)
}

/// Whether `role` may call a method that requires `required`: the one role rule.
fn permits(required: Role, role: Role) -> bool {
    required != Role::Admin || role == Role::Admin
}

/// Parse an `api_version` member: absent means [`API_VERSION_DEFAULT`]; otherwise it must
/// be a JSON integer in range (`2.0` and `"2"` are invalid). `None` means invalid.
pub fn parse_api_version(value: Option<&Value>) -> Option<u32> {
    match value {
        None => Some(API_VERSION_DEFAULT),
        Some(v) => {
            let n = v
                .as_u64()
                .or_else(|| v.as_i64().and_then(|i| u64::try_from(i).ok()))?;
            let n = u32::try_from(n).ok()?;
            (API_VERSION_MIN..=API_VERSION_MAX)
                .contains(&n)
                .then_some(n)
        }
    }
}

/// Find the method a request names and check the caller may run it now (rippled
/// `fillHandler`): command vs method, the table, the role, the precondition.
pub fn resolve(ctx: &Context, params: &Params) -> Result<&'static Method, RpcError> {
    let name = match (params.get("command"), params.get("method")) {
        (None, None) => return Err(RpcError::new(ErrorCode::CommandMissing)),
        (Some(c), Some(m)) if c != m => return Err(RpcError::new(ErrorCode::UnknownCommand)),
        (Some(v), _) | (None, Some(v)) => v,
    };
    let method = name
        .as_str()
        .and_then(|n| find(n, ctx.api_version))
        .ok_or_else(|| RpcError::new(ErrorCode::UnknownCommand))?;
    if !permits(method.role, ctx.role) {
        return Err(RpcError::new(ErrorCode::NoPermission));
    }
    check_condition(method.condition, ctx)?;
    Ok(method)
}

/// rippled 2.x treats every condition other than none alike.
fn check_condition(condition: Condition, ctx: &Context) -> Result<(), RpcError> {
    if condition == Condition::None {
        return Ok(());
    }
    let status = ctx.services.node.status();
    let v2 = ctx.api_version >= 2;
    if status.amendment_blocked {
        return Err(RpcError::new(ErrorCode::AmendmentBlocked));
    }
    let unsynced = |v1: ErrorCode| RpcError::new(if v2 { ErrorCode::NotSynced } else { v1 });
    if matches!(
        status.mode,
        OperatingMode::Disconnected | OperatingMode::Connected
    ) {
        return Err(unsynced(ErrorCode::NoNetwork));
    }
    if !status.standalone {
        let age = status
            .validated
            .map(|l| crate::protocol::time::ripple_now_secs().saturating_sub(l.close_time));
        if age.is_none_or(|a| a > VALIDATED_AGE_MAX_SECS) {
            return Err(unsynced(ErrorCode::NoCurrent));
        }
    }
    if status.validated.is_none() {
        return Err(unsynced(ErrorCode::NoClosed));
    }
    Ok(())
}

/// Run `method` and hand its result, and the parameters back, to `done`, on the thread its
/// row names. A full CPU queue is answered `tooBusy` at once.
pub fn execute(
    method: &'static Method,
    ctx: Context,
    params: Params,
    done: impl FnOnce(HandlerResult, Params) + Send + 'static,
) {
    let done = move |result: HandlerResult, params| {
        let error = result.as_ref().err().map(RpcError::token);
        crate::metrics::get().request(method.name, error);
        done(result, params)
    };
    if forward::forwards(&ctx, method.name) {
        let work = forward::forward(ctx, method.name, params.clone());
        tokio::spawn(async move { done(work.await, params) });
        return;
    }
    match method.handler {
        Handler::Inline(f) => {
            let result = upstream_checked(&ctx, || guarded(|| f(&ctx, &params)));
            done(result, params)
        }
        Handler::Cpu(f) => {
            let pool = ctx.services.cpu.clone();
            // The job owns everything; if the queue refuses it, the refusal path needs `done`
            // and `params` back, so they travel in a slot either side can take them from.
            let slot = std::sync::Arc::new(parking_lot::Mutex::new(Some((done, params))));
            let job_slot = slot.clone();
            let accepted = pool.try_spawn(move || {
                if let Some((done, params)) = job_slot.lock().take() {
                    let result = upstream_checked(&ctx, || guarded(|| f(&ctx, &params)));
                    done(result, params);
                }
            });
            if !accepted {
                if let Some((done, params)) = slot.lock().take() {
                    done(Err(RpcError::new(ErrorCode::TooBusy)), params);
                }
            }
        }
        Handler::Async(f) => {
            // The function runs here, in arrival order (submit takes its place in the
            // sequencer's queue in it); the future it returns runs as its own task.
            let work = match std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                f(ctx, params.clone())
            })) {
                Ok(work) => work,
                Err(_) => {
                    tracing::error!("a handler panicked; answering internal");
                    return done(Err(RpcError::new(ErrorCode::Internal)), params);
                }
            };
            tokio::spawn(async move {
                let result = futures::FutureExt::catch_unwind(std::panic::AssertUnwindSafe(work))
                    .await
                    .unwrap_or_else(|_| {
                        tracing::error!("a handler panicked; answering internal");
                        Err(RpcError::new(ErrorCode::Internal))
                    });
                done(result, params)
            });
        }
    }
}

/// A lazy fork's reads that the upstream could not answer read as absent; a request that
/// ran while one failed gets `noNetwork` instead of an answer that may be wrong (every
/// path: the handlers here, and sign-and-submit's checks in [`submission`]).
pub fn upstream_checked<T>(
    ctx: &Context,
    f: impl FnOnce() -> Result<T, RpcError>,
) -> Result<T, RpcError> {
    let ledgers = &ctx.services.node.ledgers;
    let failures = ledgers.lazy_failures();
    let result = f();
    if ledgers.lazy_failures() == failures {
        return result;
    }
    Err(upstream_unknown())
}

/// `noNetwork`: a lazy fork's upstream could not say what an entry the request needs is.
pub fn upstream_unknown() -> RpcError {
    RpcError::with_message(
        ErrorCode::NoNetwork,
        "The fork's upstream server cannot be read: an entry this request needs is unknown.",
    )
}

/// Run a handler; a bug that panics still answers its request (and so releases its
/// in-flight slot and keeps the connection): `internal`, as rippled answers an exception
/// thrown in a handler.
///
/// A handler that met an unavailable history database (a read node's PostgreSQL
/// restarting) answers `notReady`, whatever the missing reads made it conclude.
fn guarded(f: impl FnOnce() -> HandlerResult) -> HandlerResult {
    crate::store::postgres::take_unavailable();
    let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(f)).unwrap_or_else(|_| {
        tracing::error!("a handler panicked; answering internal");
        Err(RpcError::new(ErrorCode::Internal))
    });
    if crate::store::postgres::take_unavailable() {
        return Err(RpcError::new(ErrorCode::NotReady));
    }
    result
}

/// Resolve and run a request, awaiting the result (HTTP and tests). The parameters come back
/// with it, for the reply's echo.
pub async fn call(ctx: Context, params: Params) -> (HandlerResult, Params) {
    let method = match resolve(&ctx, &params) {
        Ok(m) => m,
        Err(e) => return (Err(e), params),
    };
    let (tx, rx) = tokio::sync::oneshot::channel();
    execute(method, ctx, params, move |r, p| {
        let _ = tx.send((r, p));
    });
    rx.await
        .unwrap_or_else(|_| (Err(RpcError::new(ErrorCode::Internal)), Params::new()))
}

/// The names of every method, in table order (`ledgerd --help`).
pub fn method_names() -> impl Iterator<Item = &'static str> {
    METHODS.iter().map(|m| m.name)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn names_are_unique() {
        let mut seen = std::collections::HashSet::new();
        for m in METHODS {
            assert!(
                seen.insert(m.name),
                "method {} is in the table twice",
                m.name
            );
        }
    }

    #[test]
    fn api_version_parsing_follows_rippled() {
        assert_eq!(parse_api_version(None), Some(1));
        assert_eq!(parse_api_version(Some(&json!(2))), Some(2));
        assert_eq!(parse_api_version(Some(&json!(1))), Some(1));
        for bad in [
            json!(0),
            json!(3),
            json!(2.0),
            json!("2"),
            json!(-1),
            json!(null),
        ] {
            assert_eq!(parse_api_version(Some(&bad)), None, "{bad}");
        }
    }

    fn context(api_version: u32, role: Role) -> Context {
        let cpu = crate::rpc::cpu_pool::CpuPool::new(1, 16).unwrap();
        let services = context::Services::standalone(context::RpcConfig::default(), cpu);
        Context {
            role,
            api_version,
            transport: context::Transport::Http,
            session: None,
            services: std::sync::Arc::new(services),
            forwarded: None,
            raw_json: false,
        }
    }

    fn panics(_: &Context, _: &Params) -> HandlerResult {
        panic!("a handler bug")
    }

    fn panics_async(_: Context, _: Params) -> BoxFuture<'static, HandlerResult> {
        Box::pin(async move {
            tokio::task::yield_now().await;
            panic!("an async handler bug")
        })
    }

    #[tokio::test]
    async fn inline_and_async_handlers_that_panic_answer_internal() {
        static INLINE: Method = Method {
            name: "panics_inline",
            handler: Handler::Inline(panics),
            role: Role::User,
            condition: Condition::None,
            api_versions: ALL_VERSIONS,
        };
        static ASYNC: Method = Method {
            name: "panics_async",
            handler: Handler::Async(panics_async),
            role: Role::User,
            condition: Condition::None,
            api_versions: ALL_VERSIONS,
        };
        let ctx = context(1, Role::User);
        for method in [&INLINE, &ASYNC] {
            let (tx, rx) = tokio::sync::oneshot::channel();
            execute(method, ctx.clone(), Params::new(), move |r, _| {
                let _ = tx.send(r.map_err(|e| e.token()));
            });
            let answer = tokio::time::timeout(std::time::Duration::from_secs(10), rx)
                .await
                .expect("no answer")
                .expect("the reply callback was dropped");
            assert_eq!(answer.err(), Some("internal"), "{}", method.name);
        }
    }

    #[tokio::test]
    async fn a_cpu_handler_that_panics_answers_internal() {
        static PANICS: Method = Method {
            name: "panics",
            handler: Handler::Cpu(panics),
            role: Role::User,
            condition: Condition::None,
            api_versions: ALL_VERSIONS,
        };
        let ctx = context(1, Role::User);
        for _ in 0..3 {
            let (tx, rx) = tokio::sync::oneshot::channel();
            execute(&PANICS, ctx.clone(), Params::new(), move |r, _| {
                let _ = tx.send(r.map_err(|e| e.token()));
            });
            let answer = tokio::time::timeout(std::time::Duration::from_secs(10), rx)
                .await
                .expect("no answer")
                .expect("the reply callback was dropped");
            assert_eq!(answer.err(), Some("internal"));
        }
        // The pool's one worker is still there.
        assert_eq!(ctx.services.cpu.run(|| 5).await, Some(5));
    }

    #[test]
    fn preconditions_follow_the_api_version() {
        let ctx = context(1, Role::User);
        assert!(check_condition(Condition::NeedsCurrentLedger, &ctx).is_ok());
        let mut status = (*ctx.services.node.status()).clone();
        status.mode = OperatingMode::Connected;
        ctx.services.node.set_status(status.clone());
        let token = |c: &Context| {
            check_condition(Condition::NeedsClosedLedger, c)
                .unwrap_err()
                .token()
        };
        assert_eq!(token(&ctx), "noNetwork");
        let v2 = Context {
            api_version: 2,
            ..ctx.clone()
        };
        assert_eq!(token(&v2), "notSynced");
        assert!(check_condition(Condition::None, &ctx).is_ok());
        // A networked server whose validated ledger is stale is not current.
        status.mode = OperatingMode::Full;
        status.standalone = false;
        if let Some(v) = status.validated.as_mut() {
            v.close_time = 0;
        }
        ctx.services.node.set_status(status.clone());
        assert_eq!(token(&ctx), "noCurrent");
        assert_eq!(token(&v2), "notSynced");
        status.standalone = true;
        status.validated = None;
        ctx.services.node.set_status(status.clone());
        assert_eq!(token(&ctx), "noClosed");
        status.amendment_blocked = true;
        ctx.services.node.set_status(status);
        assert_eq!(token(&v2), "amendmentBlocked");
    }

    #[test]
    fn resolve_checks_names_roles_and_versions() {
        let user = context(1, Role::User);
        let p = |v: serde_json::Value| match v {
            Value::Object(o) => o,
            _ => Map::new(),
        };
        let tok = |ctx: &Context, v| resolve(ctx, &p(v)).map(|m| m.name).map_err(|e| e.token());
        assert_eq!(tok(&user, json!({"command": "ping"})), Ok("ping"));
        assert_eq!(tok(&user, json!({"method": "ping"})), Ok("ping"));
        assert_eq!(tok(&user, json!({})), Err("commandMissing"));
        assert_eq!(
            tok(&user, json!({"command": "ping", "method": "random"})),
            Err("unknownCmd")
        );
        assert_eq!(tok(&user, json!({"command": 5})), Err("unknownCmd"));
        assert_eq!(
            tok(&user, json!({"command": "wallet_propose"})),
            Err("noPermission")
        );
        let admin = context(2, Role::Admin);
        assert_eq!(
            tok(&admin, json!({"command": "wallet_propose"})),
            Ok("wallet_propose")
        );
    }

    fn slow_echo(_ctx: Context, params: Params) -> BoxFuture<'static, HandlerResult> {
        Box::pin(async move {
            tokio::task::yield_now().await;
            Ok(params)
        })
    }

    static ASYNC_METHOD: Method = Method {
        name: "test_async",
        handler: Handler::Async(slow_echo),
        role: Role::User,
        condition: Condition::None,
        api_versions: ALL_VERSIONS,
    };

    #[tokio::test]
    async fn every_handler_kind_delivers_its_result() {
        let ctx = context(1, Role::Admin);
        let (tx, rx) = tokio::sync::oneshot::channel();
        let mut params = Map::new();
        params.insert("x".into(), json!(1));
        execute(&ASYNC_METHOD, ctx.clone(), params, move |r, p| {
            let _ = tx.send((r, p));
        });
        let (result, back) = rx.await.unwrap();
        assert_eq!(result.unwrap()["x"], 1);
        assert_eq!(back["x"], 1);
        let mut ping = Map::new();
        ping.insert("command".into(), json!("ping"));
        let (r, _) = call(ctx.clone(), ping).await;
        assert_eq!(r.unwrap()["role"], "admin");
        let mut verify = Map::new();
        verify.insert("command".into(), json!("channel_verify"));
        let (r, _) = call(ctx, verify).await;
        assert_eq!(r.unwrap_err().token(), "invalidParams");
    }

    #[test]
    fn roles_come_from_the_table() {
        assert_eq!(required_role("server_info", 2), Role::User);
        assert_eq!(required_role("wallet_propose", 1), Role::Admin);
        assert_eq!(required_role("channel_authorize", 2), Role::User);
        assert_eq!(required_role("no_such_method", 1), Role::User);
    }
}
