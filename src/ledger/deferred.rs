//! Deferred credits (rippled `PaymentSandbox`'s `DeferredCredits`): while a payment runs,
//! what an account receives is not spendable until the payment ends. Each transfer is
//! recorded with the sender's balance before its first transfer; a balance read during the
//! payment is at most that original balance less what was sent since. The owner count an
//! account had at its highest during the payment is kept too, so reserves never shrink
//! mid-payment.

use std::collections::HashMap;

use crate::protocol::amount::Amount;
use crate::protocol::amount_math::compare as cmp_amount;
use crate::protocol::types::{AccountId, Currency};

/// What one pair of accounts sent each other in one currency, keyed low / high.
#[derive(Debug, Clone)]
struct Entry {
    /// What the low account received.
    low_credits: Amount,
    /// What the high account received.
    high_credits: Amount,
    /// The low account's balance before the first transfer.
    low_orig: Amount,
}

/// One account's view of its transfers with another: what it sent and its balance before.
#[derive(Debug, Clone, Copy)]
pub struct Adjustment {
    /// What it sent (the other account's credits).
    pub debits: Amount,
    /// Its balance before the first transfer.
    pub orig: Amount,
}

/// The adjustment seen through a chain of payment sandboxes (innermost first): debits
/// summed, the outermost original balance, and the smallest original balance.
#[derive(Debug, Clone, Copy)]
pub struct Deferred {
    /// Debits over the whole chain.
    pub debits: Amount,
    /// The original balance the outermost sandbox recorded.
    pub last: Amount,
    /// The smallest original balance any sandbox recorded.
    pub min: Amount,
}

/// The table one payment sandbox keeps.
#[derive(Debug, Clone, Default)]
pub struct DeferredCredits {
    credits: HashMap<(AccountId, AccountId, Currency), Entry>,
    owner_counts: HashMap<AccountId, u32>,
}

fn negate(a: &Amount) -> Amount {
    match a {
        Amount::Xrp(d) => Amount::Xrp(-d),
        Amount::Iou {
            value,
            currency,
            issuer,
        } => Amount::iou(value.negate(), *currency, *issuer),
    }
}

fn zeroed(a: &Amount) -> Amount {
    Amount::zero(&a.issue())
}

impl DeferredCredits {
    /// Records `amount` sent from `sender` to `receiver`; `pre_sender` is the sender's
    /// balance before (kept only the first time the pair appears).
    pub fn credit(
        &mut self,
        sender: &AccountId,
        receiver: &AccountId,
        currency: &Currency,
        amount: &Amount,
        pre_sender: &Amount,
    ) {
        let low_sends = sender < receiver;
        let key = if low_sends {
            (*sender, *receiver, *currency)
        } else {
            (*receiver, *sender, *currency)
        };
        match self.credits.get_mut(&key) {
            Some(e) if low_sends => e.high_credits = e.high_credits.add_nearest(amount),
            Some(e) => e.low_credits = e.low_credits.add_nearest(amount),
            None => {
                let entry = if low_sends {
                    Entry {
                        low_credits: zeroed(amount),
                        high_credits: *amount,
                        low_orig: *pre_sender,
                    }
                } else {
                    Entry {
                        low_credits: *amount,
                        high_credits: zeroed(amount),
                        low_orig: negate(pre_sender),
                    }
                };
                self.credits.insert(key, entry);
            }
        }
    }

    /// Records an owner count change from `cur` to `next`: the table keeps the highest.
    pub fn owner_count(&mut self, id: &AccountId, cur: u32, next: u32) {
        let v = cur.max(next);
        let e = self.owner_counts.entry(*id).or_insert(v);
        *e = (*e).max(v);
    }

    /// The highest owner count recorded for `id`.
    pub fn owner_count_of(&self, id: &AccountId) -> Option<u32> {
        self.owner_counts.get(id).copied()
    }

    /// `main`'s adjustment with `other` in `currency`.
    pub fn adjustments(
        &self,
        main: &AccountId,
        other: &AccountId,
        currency: &Currency,
    ) -> Option<Adjustment> {
        if main < other {
            let e = self.credits.get(&(*main, *other, *currency))?;
            Some(Adjustment {
                debits: e.high_credits,
                orig: e.low_orig,
            })
        } else {
            let e = self.credits.get(&(*other, *main, *currency))?;
            Some(Adjustment {
                debits: e.low_credits,
                orig: negate(&e.low_orig),
            })
        }
    }

    /// Takes in a child sandbox's table (rippled `DeferredCredits::apply`): credits add
    /// up, original balances stay as first recorded, owner counts keep the highest.
    pub fn absorb(&mut self, child: DeferredCredits) {
        for (k, v) in child.credits {
            match self.credits.get_mut(&k) {
                Some(e) => {
                    e.low_credits = e.low_credits.add_nearest(&v.low_credits);
                    e.high_credits = e.high_credits.add_nearest(&v.high_credits);
                }
                None => {
                    self.credits.insert(k, v);
                }
            }
        }
        for (id, n) in child.owner_counts {
            let e = self.owner_counts.entry(id).or_insert(n);
            *e = (*e).max(n);
        }
    }
}

/// Adds an inner sandbox's adjustment to its parents' (rippled walks the chain from the
/// innermost sandbox out).
pub fn combine(inner: Option<Adjustment>, outer: Option<Deferred>) -> Option<Deferred> {
    match (inner, outer) {
        (None, o) => o,
        (Some(a), None) => Some(Deferred {
            debits: a.debits,
            last: a.orig,
            min: a.orig,
        }),
        (Some(a), Some(o)) => Some(Deferred {
            debits: a.debits.add_nearest(&o.debits),
            last: o.last,
            min: if cmp_amount(&a.orig, &o.min).is_lt() {
                a.orig
            } else {
                o.min
            },
        }),
    }
}

/// What a payment may spend of `amount` (rippled `balanceHook`): at most the original
/// balance less what was sent since, and never more than any original balance; XRP never
/// below zero.
pub fn adjusted(amount: &Amount, deferred: Option<Deferred>) -> Amount {
    let Some(d) = deferred else {
        return *amount;
    };
    let mut out = *amount;
    for candidate in [d.last.sub_nearest(&d.debits), d.min] {
        if cmp_amount(&candidate, &out).is_lt() {
            out = candidate;
        }
    }
    if out.is_xrp() && out.is_negative() {
        return Amount::Xrp(0);
    }
    match (out, amount) {
        (
            Amount::Iou { value, .. },
            Amount::Iou {
                currency, issuer, ..
            },
        ) => Amount::iou(value, *currency, *issuer),
        _ => out,
    }
}
