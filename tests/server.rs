//! The server from outside (`tests/server/`): every `api_*` module drives methods over
//! WebSocket or HTTP against an in-process server or the real binary; the others the
//! transports, start-up, the command line, TLS, connection limits and hostile clients.
//! One test binary: `cargo test --test server api_mpt`.

mod support;

#[path = "server/amendments.rs"]
mod amendments;
#[path = "server/api_admin.rs"]
mod api_admin;
#[path = "server/api_batch.rs"]
mod api_batch;
#[path = "server/api_credentials.rs"]
mod api_credentials;
#[path = "server/api_delegate.rs"]
mod api_delegate;
#[path = "server/api_dex.rs"]
mod api_dex;
#[path = "server/api_history.rs"]
mod api_history;
#[path = "server/api_hostile_numbers.rs"]
mod api_hostile_numbers;
#[path = "server/api_loan.rs"]
mod api_loan;
#[path = "server/api_loan_broker.rs"]
mod api_loan_broker;
#[path = "server/api_methods.rs"]
mod api_methods;
#[path = "server/api_mpt.rs"]
mod api_mpt;
#[path = "server/api_nft.rs"]
mod api_nft;
#[path = "server/api_oracle.rs"]
mod api_oracle;
#[path = "server/api_paths.rs"]
mod api_paths;
#[path = "server/api_permissioned_dex.rs"]
mod api_permissioned_dex;
#[path = "server/api_read_accounts.rs"]
mod api_read_accounts;
#[path = "server/api_read_consistency.rs"]
mod api_read_consistency;
#[path = "server/api_read_ledgers.rs"]
mod api_read_ledgers;
#[path = "server/api_snapshots.rs"]
mod api_snapshots;
#[path = "server/api_subscribe.rs"]
mod api_subscribe;
#[path = "server/api_token_escrow.rs"]
mod api_token_escrow;
#[path = "server/api_vault.rs"]
mod api_vault;
#[path = "server/api_write_submit.rs"]
mod api_write_submit;
#[path = "server/api_xchain.rs"]
mod api_xchain;
#[path = "server/cli.rs"]
mod cli;
#[path = "server/clio_methods.rs"]
mod clio_methods;
#[path = "server/conns.rs"]
mod conns;
#[path = "server/devnet.rs"]
mod devnet;
#[path = "server/divergences32.rs"]
mod divergences32;
#[path = "server/explorer.rs"]
mod explorer;
#[path = "server/gateway.rs"]
mod gateway;
#[path = "server/hardening.rs"]
mod hardening;
#[path = "server/http.rs"]
mod http;
#[path = "server/pool.rs"]
mod pool;
#[path = "server/rendered_rows.rs"]
mod rendered_rows;
#[path = "server/robustness.rs"]
mod robustness;
#[path = "server/roles.rs"]
mod roles;
#[path = "server/secrets.rs"]
mod secrets;
#[path = "server/sponsorship.rs"]
mod sponsorship;
#[path = "server/startup.rs"]
mod startup;
#[path = "server/storage.rs"]
mod storage;
#[path = "server/streams_consensus.rs"]
mod streams_consensus;
#[path = "server/tls.rs"]
mod tls;
#[path = "server/txq_reads.rs"]
mod txq_reads;
#[path = "server/ws.rs"]
mod ws;
#[path = "server/xrpld_cfg.rs"]
mod xrpld_cfg;
