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
