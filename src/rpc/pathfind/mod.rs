//! Path finding (rippled `Pathfinder`, `PathRequest`, `PathRequests`, `RippleLineCache`):
//! which paths a payment could take from one account to another, ranked with the payment
//! engine, and what sending along them would cost. `ripple_path_find` runs one request
//! once; `path_find` keeps one per WebSocket session and updates it after every close.
//!
//! - [`cache`]: the trust lines and order books of the ledger searched.
//! - [`search`]: the path shapes and how paths grow (no I/O, no async).
//! - [`rank`]: ranking paths by the liquidity the engine finds along them.
//! - [`request`]: one request: parsing, checks, updates, the JSON it answers.
//! - [`session`]: a path_find request kept for a session and updated after each close.

pub mod cache;
pub mod rank;
pub mod request;
pub mod search;
pub mod session;

/// The paths `sign` / `submit` fill in for `build_path` (rippled `checkPayment`): a search
/// at `PATH_SEARCH_OLD` from `send_max`'s issue to `amount` in the open ledger, the best
/// four paths (in a permissioned domain's books when a DomainID is given). Empty when none
/// is found.
pub fn build_paths(
    view: &crate::ledger::view::StateView,
    src: &crate::protocol::types::AccountId,
    dst: &crate::protocol::types::AccountId,
    send_max: &crate::protocol::amount::Amount,
    amount: &crate::protocol::amount::Amount,
    domain: Option<crate::protocol::types::Hash256>,
) -> Vec<Vec<crate::protocol::st::PathStep>> {
    use crate::limits::{PATHFIND_PATHS_MAX, PATH_SEARCH_OLD};
    let cache = cache::PathCache::new(view, domain);
    let issue = send_max.issue();
    let q = search::Query {
        src: *src,
        dst: *dst,
        src_currency: issue.currency,
        src_issuer: Some(issue.issuer),
        dst_amount: *amount,
        src_amount: None,
    };
    let keep_going = || true;
    let mut pf = search::Pathfinder::new(&cache, &q, &keep_going);
    if !pf.find_paths(PATH_SEARCH_OLD) {
        return Vec::new();
    }
    pf.compute_path_ranks(PATHFIND_PATHS_MAX);
    let mut full = None;
    let paths = pf.best_paths(PATHFIND_PATHS_MAX, &mut full, &[], &issue.issuer);
    search::steps(&paths)
}
