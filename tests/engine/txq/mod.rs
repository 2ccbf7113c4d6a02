//! The transaction queue at the node's level, after rippled's `TxQ_test.cpp` (develop):
//! every submission goes through `Ledgers::apply_submitted` (the sequencer's path, rippled's
//! `NetworkOPs` -> `TxQ::apply`) and every `env.close()` is `Ledgers::close` (ledger_accept:
//! `TxQ::processClosedLedger`, the drain, the local transactions). Each story names the
//! rippled test it follows and mirrors its `checkMetrics` lines in order, with its
//! configuration (`makeConfig`: [`env::setup`]) and its numbers.

mod env;

mod blockers;
mod cancel_offers;
mod clear_queued;
mod expiration;
mod failures;
mod gap_fill;
mod in_flight;
mod last_ledger_seq;
mod local_retry;
mod multi_account;
mod queue_seq;
mod scaling;
mod tickets;
mod ties;
mod zero_fee;
mod zero_reference_fee;
