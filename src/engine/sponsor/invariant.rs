//! The sponsorship invariants (rippled `SponsorshipInvariant.cpp`), checked with the
//! others after every transaction:
//! - what sponsors carry moves together: the change of all SponsoredOwnerCounts equals the
//!   change of all SponsoringOwnerCounts, and equals the change of the owner counts the
//!   entries' Sponsor / HighSponsor / LowSponsor fields name;
//! - no account has a SponsoredOwnerCount above its OwnerCount;
//! - the change of all SponsoringAccountCounts equals the change of the number of
//!   AccountRoots with a Sponsor;
//! - no pseudo-account carries a sponsorship field.

use std::collections::BTreeMap;

use super::counters::sponsored_units;
use crate::engine::sandbox::{Action, Item};
use crate::ledger::flags::lt;
use crate::ledger::sf::{sf, StExt};
use crate::protocol::st::StObject;
use crate::protocol::types::Hash256;

/// The change set's sums, after less before.
#[derive(Default)]
struct Deltas {
    sponsored: i64,
    sponsoring: i64,
    object_units: i64,
    sponsoring_accounts: i64,
    sponsored_roots: i64,
}

impl Deltas {
    fn add(&mut self, o: &StObject, sign: i64) {
        let s = sf();
        let n = |f| i64::from(o.u32_of(f).unwrap_or(0));
        if o.u16_of(s.ledger_entry_type) == Some(lt::ACCOUNT_ROOT) {
            self.sponsored += sign * n(s.sponsored_owner_count);
            self.sponsoring += sign * n(s.sponsoring_owner_count);
            self.sponsoring_accounts += sign * n(s.sponsoring_account_count);
            self.sponsored_roots += sign * i64::from(o.account_of(s.sponsor).is_some());
        } else {
            self.object_units += sign * sponsored_units(o);
        }
    }
}

/// A root that breaks the per-account rules: more sponsored than owned, or a
/// pseudo-account with a sponsorship field.
fn bad_root(o: &StObject) -> bool {
    let s = sf();
    if o.u16_of(s.ledger_entry_type) != Some(lt::ACCOUNT_ROOT) {
        return false;
    }
    let n = |f| o.u32_of(f).unwrap_or(0);
    let pseudo = [s.amm_id, s.vault_id, s.loan_broker_id]
        .iter()
        .any(|f| o.get(*f).is_some());
    let fields = [
        s.sponsor,
        s.sponsored_owner_count,
        s.sponsoring_owner_count,
        s.sponsoring_account_count,
    ];
    n(s.owner_count) < n(s.sponsored_owner_count)
        || (pseudo && fields.iter().any(|f| o.get(*f).is_some()))
}

/// True when the change set keeps the sponsorship counters consistent.
pub fn holds(items: &BTreeMap<Hash256, Item>) -> bool {
    let mut d = Deltas::default();
    for item in items.values() {
        if let Some(b) = item.orig.as_deref() {
            d.add(b, -1);
        }
        if item.action != Action::Erase {
            if bad_root(&item.cur) {
                return false;
            }
            d.add(&item.cur, 1);
        }
    }
    d.sponsored == d.sponsoring
        && d.sponsored == d.object_units
        && d.sponsoring_accounts == d.sponsored_roots
}
