//! The fee schedule: reference fee and reserves (`FeeSettings`, `Fees` in rippled).

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
}
