//! A trust line seen from one of its two accounts (rippled `TrustLine.h`, what
//! `account_lines` prints): balance, limits, qualities and flags as "mine" and "peer's".

use super::flags::lsf;
use super::sf::{sf, StExt};
use crate::protocol::amount::{Amount, IouValue};
use crate::protocol::st::StObject;
use crate::protocol::types::{AccountId, Currency};

/// One side's view of a RippleState.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TrustLine {
    /// The viewing account.
    pub account: AccountId,
    /// The other account.
    pub peer: AccountId,
    /// The currency.
    pub currency: Currency,
    /// Positive when the viewer holds the peer's IOUs.
    pub balance: IouValue,
    /// The viewer's limit.
    pub limit: IouValue,
    /// The peer's limit.
    pub limit_peer: IouValue,
    /// The viewer's QualityIn (0 = none).
    pub quality_in: u32,
    /// The viewer's QualityOut (0 = none).
    pub quality_out: u32,
    /// The viewer authorized the peer (`authorized`).
    pub authorized: bool,
    /// The peer authorized the viewer (`peer_authorized`).
    pub peer_authorized: bool,
    /// The viewer's NoRipple bit (`no_ripple`).
    pub no_ripple: bool,
    /// The peer's NoRipple bit (`no_ripple_peer`).
    pub no_ripple_peer: bool,
    /// The viewer froze the line (`freeze`).
    pub freeze: bool,
    /// The peer froze the line (`freeze_peer`).
    pub freeze_peer: bool,
}

impl TrustLine {
    /// The line `entry` as `viewer` sees it; None if `entry` is not a RippleState with
    /// `viewer` on one side.
    pub fn from_entry(entry: &StObject, viewer: &AccountId) -> Option<TrustLine> {
        let s = sf();
        let (low, low_limit, currency) = match entry.amount_of(s.low_limit)? {
            Amount::Iou {
                issuer,
                value,
                currency,
            } => (issuer, value, currency),
            Amount::Xrp(_) => return None,
        };
        let (high, high_limit) = match entry.amount_of(s.high_limit)? {
            Amount::Iou { issuer, value, .. } => (issuer, value),
            Amount::Xrp(_) => return None,
        };
        let balance = entry.amount_of(s.balance)?.as_iou()?;
        let viewer_low = *viewer == low;
        if !viewer_low && *viewer != high {
            return None;
        }
        let f = entry.flags();
        let pick = |low_bit: u32, high_bit: u32| {
            if viewer_low {
                (f & low_bit != 0, f & high_bit != 0)
            } else {
                (f & high_bit != 0, f & low_bit != 0)
            }
        };
        let (authorized, peer_authorized) = pick(lsf::LOW_AUTH, lsf::HIGH_AUTH);
        let (no_ripple, no_ripple_peer) = pick(lsf::LOW_NO_RIPPLE, lsf::HIGH_NO_RIPPLE);
        let (freeze, freeze_peer) = pick(lsf::LOW_FREEZE, lsf::HIGH_FREEZE);
        let (qin, qout) = if viewer_low {
            (s.low_quality_in, s.low_quality_out)
        } else {
            (s.high_quality_in, s.high_quality_out)
        };
        Some(TrustLine {
            account: *viewer,
            peer: if viewer_low { high } else { low },
            currency,
            balance: if viewer_low {
                balance
            } else {
                balance.negate()
            },
            limit: if viewer_low { low_limit } else { high_limit },
            limit_peer: if viewer_low { high_limit } else { low_limit },
            quality_in: entry.u32_of(qin).unwrap_or(0),
            quality_out: entry.u32_of(qout).unwrap_or(0),
            authorized,
            peer_authorized,
            no_ripple,
            no_ripple_peer,
            freeze,
            freeze_peer,
        })
    }
}
