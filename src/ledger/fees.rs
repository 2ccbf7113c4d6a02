//! The fee schedule: reference fee and reserves (`FeeSettings`, `Fees` in rippled).

use crate::ledger::sf::{sf, StExt};
use crate::protocol::st::StObject;

/// Base fee and reserves, in drops.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Fees {
    /// Cost of a reference transaction.
    pub base_drops: u64,
    /// Reserve of an account with no owned objects.
    pub reserve_base_drops: u64,
    /// Extra reserve for each owned object.
    pub reserve_inc_drops: u64,
}

impl Default for Fees {
    /// rippled's compiled-in standalone values (`Config.h` `FeeSetup`).
    fn default() -> Fees {
        Fees {
            base_drops: crate::limits::FEE_BASE_DROPS_DEFAULT,
            reserve_base_drops: crate::limits::RESERVE_BASE_DROPS_DEFAULT,
            reserve_inc_drops: crate::limits::RESERVE_INC_DROPS_DEFAULT,
        }
    }
}

impl Fees {
    /// `accountReserve(owner_count)`: what an account owning that many objects must hold.
    pub fn account_reserve(&self, owner_count: u32) -> i64 {
        let r =
            self.reserve_base_drops as u128 + owner_count as u128 * self.reserve_inc_drops as u128;
        r.min(i64::MAX as u128) as i64
    }

    /// The reserve the AccountRoot `root` must hold (rippled `accountReserve`, XLS-68):
    /// one base reserve per account it is responsible for (itself unless a sponsor carries
    /// it, plus `SponsoringAccountCount`) and one increment per object it carries
    /// (`OwnerCount - SponsoredOwnerCount + SponsoringOwnerCount`), with the object count
    /// moved by `obj_delta` and the account count by `acct_delta`. Without the three
    /// counters and `Sponsor` this is [`Fees::account_reserve`] of `OwnerCount + obj_delta`.
    pub fn reserve_of(&self, root: &StObject, obj_delta: i64, acct_delta: i64) -> i64 {
        let owners = root.u32_of(sf().owner_count).unwrap_or(0);
        self.reserve_counting(root, owners, obj_delta, acct_delta)
    }

    /// [`Fees::reserve_of`] with `owner_count` read in place of the root's OwnerCount (a
    /// payment's highest count, rippled `ownerCountHook`).
    pub fn reserve_counting(
        &self,
        root: &StObject,
        owner_count: u32,
        obj_delta: i64,
        acct_delta: i64,
    ) -> i64 {
        let s = sf();
        let count = |f| root.u32_of(f).unwrap_or(0) as i128;
        let confine = |n: i128| n.clamp(0, u32::MAX as i128);
        let objects = confine(
            owner_count as i128 - count(s.sponsored_owner_count)
                + count(s.sponsoring_owner_count)
                + obj_delta as i128,
        );
        let own = if root.get(s.sponsor).is_some() { 0 } else { 1 };
        let accounts = confine(own + count(s.sponsoring_account_count) + acct_delta as i128);
        let r =
            accounts * self.reserve_base_drops as i128 + objects * self.reserve_inc_drops as i128;
        r.min(i64::MAX as i128) as i64
    }
}

/// Which values of a fee schedule the configuration sets itself (xrpld's `[voting]` and
/// `[fee_default]`, `--reference-fee`, `--account-reserve`, `--owner-reserve`): a preset's
/// schedule (`mainnet`) fills in only the others.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct FeesSet {
    /// The reference fee is configured.
    pub base: bool,
    /// The account reserve is configured.
    pub reserve_base: bool,
    /// The owner reserve is configured.
    pub reserve_inc: bool,
}

impl FeesSet {
    /// `configured`'s values where they are set, `preset`'s elsewhere.
    pub fn over(self, configured: Fees, preset: Fees) -> Fees {
        let pick = |set: bool, c: u64, p: u64| if set { c } else { p };
        Fees {
            base_drops: pick(self.base, configured.base_drops, preset.base_drops),
            reserve_base_drops: pick(
                self.reserve_base,
                configured.reserve_base_drops,
                preset.reserve_base_drops,
            ),
            reserve_inc_drops: pick(
                self.reserve_inc,
                configured.reserve_inc_drops,
                preset.reserve_inc_drops,
            ),
        }
    }
}

/// The XRP Ledger mainnet's fee schedule, from the date (UTC, `YYYY-MM-DD`) the validators'
/// fee vote changed it: reserves of 20 and 5 XRP from December 2013, 10 and 2 XRP from
/// 2021-09-19 (xrpl.org blog "Lower Reserves Are Now In Effect", 2021), 1 and 0.2 XRP from
/// 2024-12-02 ("Lower Reserves Are In Effect", 2024); the reference fee has stayed 10 drops.
pub const MAINNET_FEES: &[(&str, Fees)] = &[
    ("2014-01-01", xrp_fees(10, 20_000_000, 5_000_000)),
    ("2021-09-19", xrp_fees(10, 10_000_000, 2_000_000)),
    ("2024-12-02", xrp_fees(10, 1_000_000, 200_000)),
];

const fn xrp_fees(base_drops: u64, reserve_base_drops: u64, reserve_inc_drops: u64) -> Fees {
    Fees {
        base_drops,
        reserve_base_drops,
        reserve_inc_drops,
    }
}

/// Mainnet's fee schedule on `date` (`YYYY-MM-DD`, compared as text), `None` before
/// [`MAINNET_FEES`] begins.
pub fn mainnet_fees_on(date: &str) -> Option<Fees> {
    MAINNET_FEES
        .iter()
        .rev()
        .find(|(from, _)| *from <= date)
        .map(|(_, fees)| *fees)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reserve_of_counts_sponsored_objects_and_accounts() {
        use crate::protocol::st::StValue;
        use crate::protocol::types::AccountId;
        let f = xrp_fees(10, 200, 50);
        let s = sf();
        let mut root = StObject::new();
        // No counters, no Sponsor: the numbers of account_reserve.
        assert_eq!(f.reserve_of(&root, 0, 0), f.account_reserve(0));
        for n in [0u32, 1, 7] {
            root.set(s.owner_count, StValue::UInt32(n));
            assert_eq!(f.reserve_of(&root, 0, 0), f.account_reserve(n));
            assert_eq!(f.reserve_of(&root, 2, 0), f.account_reserve(n + 2));
        }
        assert_eq!(f.reserve_of(&root, -10, 0), f.account_reserve(0));
        assert_eq!(f.reserve_counting(&root, 3, 1, 0), f.account_reserve(4));
        // 7 owned, 2 of them carried by a sponsor, 3 carried for others: 8 increments.
        root.set(s.sponsored_owner_count, StValue::UInt32(2));
        root.set(s.sponsoring_owner_count, StValue::UInt32(3));
        assert_eq!(f.reserve_of(&root, 0, 0), 200 + 8 * 50);
        // Sponsoring two accounts: three base reserves; sponsored itself: two.
        root.set(s.sponsoring_account_count, StValue::UInt32(2));
        assert_eq!(f.reserve_of(&root, 0, 1), 4 * 200 + 8 * 50);
        root.set(s.sponsor, StValue::AccountId(AccountId([7; 20])));
        assert_eq!(f.reserve_of(&root, 1, 0), 2 * 200 + 9 * 50);
        assert_eq!(f.reserve_of(&root, 0, -5), 8 * 50);
    }

    #[test]
    fn mainnet_fees_follow_the_votes() {
        assert_eq!(mainnet_fees_on("2013-12-31"), None);
        let at = |d| mainnet_fees_on(d).expect("recorded");
        assert_eq!(at("2014-01-01").reserve_base_drops, 20_000_000);
        assert_eq!(at("2021-09-18").reserve_inc_drops, 5_000_000);
        assert_eq!(at("2021-09-19"), xrp_fees(10, 10_000_000, 2_000_000));
        assert_eq!(at("2024-12-01").reserve_base_drops, 10_000_000);
        assert_eq!(at("2024-12-02"), xrp_fees(10, 1_000_000, 200_000));
        assert_eq!(at("2026-08-18").base_drops, 10);
    }

    #[test]
    fn configured_values_win_over_a_presets() {
        let configured = xrp_fees(200, 20_000_000, 5_000_000);
        let preset = xrp_fees(10, 1_000_000, 200_000);
        assert_eq!(FeesSet::default().over(configured, preset), preset);
        let set = FeesSet {
            reserve_inc: true,
            ..FeesSet::default()
        };
        assert_eq!(
            set.over(configured, preset),
            xrp_fees(10, 1_000_000, 5_000_000)
        );
    }
}
