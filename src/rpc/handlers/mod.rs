//! One file per method; each exposes `handle(&Context, &Params) -> HandlerResult` and is
//! listed in the handler table ([`crate::rpc::METHODS`]).

pub mod channel_authorize;
pub mod channel_verify;
pub mod ledger_accept;
pub mod ping;
pub mod random;
pub mod server_info;
pub mod server_state;
pub mod sign;
pub mod submit;
pub mod subscribe;
pub mod unsubscribe;
pub mod wallet_propose;
