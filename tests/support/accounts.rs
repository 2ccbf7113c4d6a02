//! An account's root, sequence and balance, read from a ledger store's open ledger.

use std::sync::Arc;

use ledgerd::ledger::keylet;
use ledgerd::ledger::sf::{sf, StExt};
use ledgerd::ledger::view::ReadView;
use ledgerd::ledgers::Ledgers;
use ledgerd::protocol::st::StObject;
use ledgerd::protocol::types::AccountId;

/// The AccountRoot of `id` in the open ledger.
pub fn account_root(store: &Ledgers, id: &AccountId) -> Option<Arc<StObject>> {
    store.current().view.read(&keylet::account(id))
}

/// The next Sequence of `id` in the open ledger (None: no such account).
pub fn sequence(store: &Ledgers, id: &AccountId) -> Option<u32> {
    account_root(store, id)?.u32_of(sf().sequence)
}

/// The next Sequence of an account that must exist.
pub fn account_seq(store: &Ledgers, id: &AccountId) -> u32 {
    sequence(store, id).expect("account exists")
}

/// The XRP balance of `id` in the open ledger, in drops.
pub fn balance(store: &Ledgers, id: &AccountId) -> Option<i64> {
    account_root(store, id)?.amount_of(sf().balance)?.as_drops()
}
