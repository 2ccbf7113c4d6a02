//! Payment (rippled `Payment.cpp`), its flags also at `engine::payment::tf`, and the
//! amount comparison CheckCash shares with it.

#[allow(clippy::module_inception)]
pub mod payment;

use crate::protocol::amount::Amount;

pub use self::payment::tf;

/// Most paths a payment may carry in the open ledger (rippled `MaxPathSize`).
pub const PAYMENT_PATHS_MAX: usize = 6;
/// Most steps in one payment path (rippled `MaxPathLength`).
pub const PAYMENT_PATH_STEPS_MAX: usize = 8;

/// True when `a` is more than `b` (same kind of amount; never across XRP and IOUs).
pub fn greater(a: &Amount, b: &Amount) -> bool {
    match (a, b) {
        (Amount::Xrp(x), Amount::Xrp(y)) => x > y,
        (Amount::Iou { value: x, .. }, Amount::Iou { value: y, .. }) => x > y,
        _ => false,
    }
}
