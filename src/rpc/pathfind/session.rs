//! A path_find request kept for a WebSocket session (rippled `PathRequests::updateAll`
//! for one request): updated after each close, its answer a `path_find` message.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::time::{Duration, Instant};

use serde_json::{Map, Value};

use super::cache::PathCache;
use super::request::PathRequest;
use crate::ledgers::LedgerSnapshot;
use crate::limits::PATHFIND_SEARCH_MILLIS_MAX;
use crate::node::subscriptions::PathUpdate;
use crate::rpc::error::{ErrorCode, RpcError};

/// The `keep going` test of one search: within the time bound and still wanted.
pub fn budget(wanted: &dyn Fn() -> bool) -> impl Fn() -> bool + '_ {
    let deadline = Instant::now() + Duration::from_millis(PATHFIND_SEARCH_MILLIS_MAX);
    move || Instant::now() < deadline && wanted()
}

/// Runs one update of `req` against `snap`, a panic answered `internal`.
pub fn run_update(
    req: &PathRequest,
    snap: &LedgerSnapshot,
    fast: bool,
    wanted: &dyn Fn() -> bool,
) -> Result<Map<String, Value>, RpcError> {
    catch_unwind(AssertUnwindSafe(|| {
        let cache = PathCache::new(&snap.view, req.domain);
        let keep_going = budget(wanted);
        req.update(&cache, fast, &keep_going)
    }))
    .unwrap_or_else(|_| {
        tracing::error!("path search panicked; answering internal");
        Err(RpcError::new(ErrorCode::Internal))
    })
}

/// A session's request.
pub struct PathSession {
    /// The request.
    pub request: PathRequest,
}

impl PathUpdate for PathSession {
    fn update(&self, ledger: &LedgerSnapshot, wanted: &dyn Fn() -> bool) -> Option<Value> {
        if !self.request.claim() {
            return None;
        }
        let result = run_update(&self.request, ledger, false, wanted);
        self.request.release();
        let mut msg = result.unwrap_or_else(RpcError::into_object);
        msg.insert("type".into(), "path_find".into());
        Some(Value::Object(msg))
    }

    fn as_any(&self) -> &dyn std::any::Any {
        self
    }
}
