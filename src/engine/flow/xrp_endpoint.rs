//! XRP entering a strand from its source or leaving it at its destination (rippled
//! `XRPEndpointStep.cpp`). The other side of each transfer is the zero account, which
//! the book step after (or before) it balances.

use crate::engine::funds::{account_send, xrp_liquid};
use crate::engine::sandbox::Sandbox;
use crate::protocol::amount::Amount;
use crate::protocol::types::AccountId;

/// The XRP end of a strand.
#[derive(Debug, Clone)]
pub struct XrpEndpointStep {
    /// The source (first step) or destination (last step).
    pub account: AccountId,
    /// True at the destination.
    pub is_last: bool,
    /// Owner-count adjustment of the reserve (offer crossing may dip one reserve
    /// increment deeper when the taker has no line for what it buys).
    pub reserve_reduction: i32,
    /// What moved the last time.
    pub cache: Option<Amount>,
}

impl XrpEndpointStep {
    /// Both passes: move `amount` (capped by the source's liquid XRP).
    pub fn exec(&mut self, sb: &mut Sandbox, amount: &Amount) -> (Amount, Amount) {
        let want = amount.as_drops().unwrap_or(0);
        let moved = if self.is_last {
            want
        } else {
            want.min(xrp_liquid(&*sb, &self.account, self.reserve_reduction))
        };
        let (from, to) = if self.is_last {
            (AccountId::ZERO, self.account)
        } else {
            (self.account, AccountId::ZERO)
        };
        if account_send(sb, &from, &to, &Amount::Xrp(moved)).is_err() {
            return (Amount::Xrp(0), Amount::Xrp(0));
        }
        self.cache = Some(Amount::Xrp(moved));
        (Amount::Xrp(moved), Amount::Xrp(moved))
    }
}
