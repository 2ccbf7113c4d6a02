//! The sandbox a transaction applies into: a change set over a read view (rippled's
//! `ApplyStateTable`). Nothing reaches the ledger until the engine commits it; a `tec`
//! throws the whole set away and charges only the fee.

use std::collections::BTreeMap;
use std::sync::Arc;

use crate::ledger::book_index::{is_ordered, next_key};
use crate::ledger::deferred::{combine, Deferred, DeferredCredits};
use crate::ledger::view::{ReadView, ViewInfo};
use crate::protocol::amount::Amount;
use crate::protocol::st::StObject;
use crate::protocol::types::{AccountId, Currency, Hash256};

/// What a transaction did to one entry.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Action {
    /// Created.
    Insert,
    /// Changed.
    Modify,
    /// Deleted.
    Erase,
}

/// One touched entry: its value before the transaction and its value now.
#[derive(Debug, Clone)]
pub struct Item {
    /// What happened.
    pub action: Action,
    /// The value in the base view (None for an insert).
    pub orig: Option<Arc<StObject>>,
    /// The value now (for an erase: the last value, which metadata reports).
    pub cur: StObject,
}

/// A change set over a read view.
pub struct Sandbox<'a> {
    base: &'a dyn ReadView,
    items: BTreeMap<Hash256, Item>,
    /// Set for a payment's sandboxes (rippled `PaymentSandbox`): transfers are recorded
    /// so that what an account receives is not spendable until the payment ends.
    credits: Option<DeferredCredits>,
}

impl<'a> Sandbox<'a> {
    /// An empty change set over `base`.
    pub fn new(base: &'a dyn ReadView) -> Sandbox<'a> {
        Sandbox {
            base,
            items: BTreeMap::new(),
            credits: None,
        }
    }

    /// An empty change set over `base` for a payment in progress (rippled
    /// `PaymentSandbox`): it keeps deferred credits.
    pub fn new_payment(base: &'a dyn ReadView) -> Sandbox<'a> {
        Sandbox {
            base,
            items: BTreeMap::new(),
            credits: Some(DeferredCredits::default()),
        }
    }

    /// Records a transfer for deferred credits (a payment sandbox only; rippled
    /// `creditHook`): `pre_sender` is the sender's balance before it.
    pub fn record_credit(
        &mut self,
        sender: &AccountId,
        receiver: &AccountId,
        currency: &Currency,
        amount: &Amount,
        pre_sender: &Amount,
    ) {
        if let Some(t) = self.credits.as_mut() {
            t.credit(sender, receiver, currency, amount, pre_sender);
        }
    }

    /// Records an owner count change (a payment sandbox only; rippled
    /// `adjustOwnerCountHook`).
    pub fn record_owner_count(&mut self, account: &AccountId, cur: u32, next: u32) {
        if let Some(t) = self.credits.as_mut() {
            t.owner_count(account, cur, next);
        }
    }

    /// Takes the change set and the deferred credits.
    pub fn into_parts(self) -> (BTreeMap<Hash256, Item>, Option<DeferredCredits>) {
        (self.items, self.credits)
    }

    /// Takes in a child payment sandbox's changes and its deferred credits.
    pub fn absorb_payment(
        &mut self,
        items: BTreeMap<Hash256, Item>,
        credits: Option<DeferredCredits>,
    ) {
        self.absorb(items);
        if let (Some(mine), Some(theirs)) = (self.credits.as_mut(), credits) {
            mine.absorb(theirs);
        }
    }

    /// Facts about the ledger being built.
    pub fn info(&self) -> &ViewInfo {
        self.base.info()
    }

    /// The base view.
    pub fn base(&self) -> &'a dyn ReadView {
        self.base
    }

    /// True when `key` exists (with this set's changes).
    pub fn exists(&self, key: &Hash256) -> bool {
        match self.items.get(key) {
            Some(item) => item.action != Action::Erase,
            None => self.base.read(key).is_some(),
        }
    }

    /// A copy of the entry at `key` to read or to change and [`update`](Self::update).
    pub fn peek(&self, key: &Hash256) -> Option<StObject> {
        match self.items.get(key) {
            Some(item) if item.action == Action::Erase => None,
            Some(item) => Some(item.cur.clone()),
            None => self.base.read(key).map(|a| (*a).clone()),
        }
    }

    /// Replaces an existing entry.
    pub fn update(&mut self, key: Hash256, value: StObject) {
        match self.items.get_mut(&key) {
            Some(item) => item.cur = value,
            None => {
                let orig = self.base.read(&key);
                self.items.insert(
                    key,
                    Item {
                        action: Action::Modify,
                        orig,
                        cur: value,
                    },
                );
            }
        }
    }

    /// Creates an entry.
    pub fn insert(&mut self, key: Hash256, value: StObject) {
        match self.items.get_mut(&key) {
            // Re-created after an erase in the same transaction: a modification.
            Some(item) if item.action == Action::Erase => {
                item.action = Action::Modify;
                item.cur = value;
            }
            Some(item) => item.cur = value,
            None => {
                self.items.insert(
                    key,
                    Item {
                        action: Action::Insert,
                        orig: None,
                        cur: value,
                    },
                );
            }
        }
    }

    /// Deletes an entry.
    pub fn erase(&mut self, key: Hash256) {
        match self.items.get_mut(&key) {
            Some(item) if item.action == Action::Insert => {
                self.items.remove(&key);
            }
            Some(item) => item.action = Action::Erase,
            None => {
                if let Some(orig) = self.base.read(&key) {
                    let cur = (*orig).clone();
                    self.items.insert(
                        key,
                        Item {
                            action: Action::Erase,
                            orig: Some(orig),
                            cur,
                        },
                    );
                }
            }
        }
    }

    /// Takes in the changes a sandbox over this one made (rippled `Sandbox::apply`
    /// onto its parent view).
    pub fn absorb(&mut self, items: BTreeMap<Hash256, Item>) {
        for (key, item) in items {
            match item.action {
                Action::Insert => self.insert(key, item.cur),
                Action::Modify => self.update(key, item.cur),
                Action::Erase => {
                    self.update(key, item.cur);
                    self.erase(key);
                }
            }
        }
    }

    /// Forgets every change (a `tec` or a reset).
    pub fn discard(&mut self) {
        self.items.clear();
        if let Some(t) = self.credits.as_mut() {
            *t = DeferredCredits::default();
        }
    }

    /// The touched entries, in key order.
    pub fn items(&self) -> &BTreeMap<Hash256, Item> {
        &self.items
    }

    /// The touched entries, mutably (threading at commit).
    pub fn items_mut(&mut self) -> &mut BTreeMap<Hash256, Item> {
        &mut self.items
    }

    /// Takes the change set.
    pub fn into_items(self) -> BTreeMap<Hash256, Item> {
        self.items
    }
}

/// A sandbox reads as its base with its changes applied: what later steps of one
/// transaction see of its earlier ones.
impl ReadView for Sandbox<'_> {
    fn read(&self, key: &Hash256) -> Option<std::sync::Arc<StObject>> {
        self.peek(key).map(std::sync::Arc::new)
    }
    fn info(&self) -> &ViewInfo {
        self.base.info()
    }
    fn parent_hash(&self) -> Hash256 {
        self.base.parent_hash()
    }
    fn deferred(
        &self,
        account: &AccountId,
        issuer: &AccountId,
        currency: &Currency,
    ) -> Option<Deferred> {
        let mine = self
            .credits
            .as_ref()
            .and_then(|t| t.adjustments(account, issuer, currency));
        combine(mine, self.base.deferred(account, issuer, currency))
    }
    fn owner_count_hook(&self, account: &AccountId, count: u32) -> u32 {
        let outer = self.base.owner_count_hook(account, count);
        match self
            .credits
            .as_ref()
            .and_then(|t| t.owner_count_of(account))
        {
            Some(n) => outer.max(n),
            None => outer,
        }
    }
    fn succ(&self, from: &Hash256, end: &Hash256) -> Option<Hash256> {
        let mine = self
            .items
            .range(*from..*end)
            .find(|(_, i)| i.action != Action::Erase && is_ordered(&i.cur))
            .map(|(k, _)| *k);
        let mut cursor = *from;
        let theirs = loop {
            let Some(k) = self.base.succ(&cursor, end) else {
                break None;
            };
            match self.items.get(&k) {
                Some(i) if i.action == Action::Erase => match next_key(&k) {
                    Some(n) => cursor = n,
                    None => break None,
                },
                _ => break Some(k),
            }
        };
        match (mine, theirs) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        }
    }
}
