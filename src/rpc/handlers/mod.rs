//! One file per method, named after it: each exposes `handle` (see [`crate::rpc::Handler`])
//! and has one line in the `methods!` list below, which declares the module and builds its
//! row of the handler table ([`METHODS`]) from the same name. Code shared by several
//! methods lives beside this folder in `rpc/`, never in it (a test checks every file here
//! is a method).

use crate::rpc::role::Role;
use crate::rpc::{Condition, Handler, Method, ALL_VERSIONS};

/// Declares each method's module and its row: `name => Kind` with optional `role: Admin`,
/// `condition: NeedsCurrentLedger` and `versions: 2..=2`; the defaults are user, none and
/// every version.
macro_rules! methods {
    (@or $default:expr) => { $default };
    (@or $default:expr, $given:expr) => { $given };
    ($($name:ident => $kind:ident
        $(, role: $role:ident)?
        $(, condition: $cond:ident)?
        $(, versions: $versions:expr)?;)*) => {
        $(pub mod $name;)*

        /// The handler table: every method the server answers, in one list.
        pub static METHODS: &[Method] = &[
            $(Method {
                name: stringify!($name),
                handler: Handler::$kind($name::handle),
                role: methods!(@or Role::User $(, Role::$role)?),
                condition: methods!(@or Condition::None $(, Condition::$cond)?),
                api_versions: methods!(@or ALL_VERSIONS $(, $versions)?),
            },)*
        ];
    };
}

methods! {
    account_channels => Inline;
    account_currencies => Inline;
    account_info => Inline;
    account_lines => Inline;
    account_mptoken_issuances => Cpu;
    account_mptokens => Cpu;
    account_nfts => Inline;
    account_offers => Inline;
    account_objects => Inline;
    account_tx => Cpu;
    amm_info => Inline;
    book_changes => Cpu;
    book_offers => Inline;
    can_delete => Inline, role: Admin;
    channel_authorize => Cpu;
    channel_verify => Cpu;
    connect => Inline, role: Admin;
    consensus_info => Inline, role: Admin;
    deposit_authorized => Inline;
    feature => Inline;
    fee => Inline, condition: NeedsCurrentLedger;
    fetch_info => Inline, role: Admin;
    gateway_balances => Inline;
    get_counts => Cpu, role: Admin;
    get_aggregate_price => Cpu;
    ledger => Cpu;
    ledger_accept => Async, role: Admin, condition: NeedsCurrentLedger;
    ledger_cleaner => Inline, role: Admin, condition: NeedsNetwork;
    ledger_closed => Inline, condition: NeedsClosedLedger;
    ledger_current => Inline, condition: NeedsCurrentLedger;
    ledger_data => Cpu;
    ledger_entry => Inline;
    ledger_index => Cpu;
    ledger_request => Cpu, role: Admin;
    log_level => Inline, role: Admin;
    logrotate => Inline, role: Admin;
    manifest => Inline;
    mpt_holders => Cpu;
    nft_buy_offers => Inline;
    nft_history => Cpu;
    nft_info => Cpu;
    nft_sell_offers => Inline;
    nfts_by_issuer => Cpu;
    noripple_check => Inline;
    owner_info => Cpu, condition: NeedsCurrentLedger;
    path_find => Cpu;
    peers => Inline, role: Admin;
    ledger_header => Inline, versions: 1..=1;
    ledger_revert => Async, role: Admin, condition: NeedsCurrentLedger;
    ledger_snapshot => Async, role: Admin, condition: NeedsCurrentLedger;
    ping => Inline;
    print => Inline, role: Admin;
    random => Inline;
    ripple_path_find => Cpu;
    server_definitions => Inline;
    server_info => Inline;
    server_state => Inline;
    sign => Cpu;
    sign_for => Cpu;
    simulate => Cpu, condition: NeedsCurrentLedger;
    stop => Inline, role: Admin;
    submit => Async, condition: NeedsCurrentLedger;
    submit_multisigned => Async, condition: NeedsCurrentLedger;
    subscribe => Inline;
    transaction_entry => Cpu;
    vault_info => Inline;
    tx => Cpu, condition: NeedsNetwork;
    tx_history => Cpu, versions: 1..=1;
    tx_reduce_relay => Inline;
    unl_list => Inline, role: Admin;
    unsubscribe => Inline;
    validation_create => Cpu, role: Admin;
    validator_info => Inline, role: Admin;
    validator_list_sites => Inline, role: Admin;
    validators => Inline, role: Admin;
    version => Inline;
    wallet_propose => Cpu, role: Admin;
}
