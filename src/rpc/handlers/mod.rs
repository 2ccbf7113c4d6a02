//! One file per method; each exposes `handle(&Context, &Params) -> HandlerResult` and is
//! listed in the handler table ([`crate::rpc::METHODS`]).

pub mod account_channels;
pub mod account_info;
pub mod account_lines;
pub mod account_objects;
pub mod channel_authorize;
pub mod channel_verify;
pub mod fee;
pub mod ledger;
pub mod ledger_accept;
pub mod ledger_closed;
pub mod ledger_current;
pub mod ledger_entry;
pub mod owner_walk;
pub mod ping;
pub mod random;
pub mod server_definitions;
pub mod server_info;
pub mod server_state;
pub mod sign;
pub mod submit;
pub mod subscribe;
pub mod tx;
pub mod unsubscribe;
pub mod wallet_propose;
