//! Who pays a transaction's fee and how much it may spend (rippled `Transactor.cpp`'s
//! `getFeePayer`, `checkFee`, `payFee` and `reset`).
//!
//! A fee-sponsored transaction (`Sponsor` with `spfSponsorFee`) is paid by the sponsor:
//! out of the `FeeAmount` of the `Sponsorship(Sponsor, initiator)` entry when one exists
//! (pre-funded; capped per transaction by its `MaxFee`, the field removed when it reaches
//! zero), else out of the sponsor's own balance (co-signed), never into its account
//! reserve. Otherwise the initiator (the Delegate when there is one, else the Account)
//! pays from its balance.

use super::fee_sponsor;
use crate::engine::entry::{balance_drops, set_drops};
use crate::engine::sandbox::Sandbox;
use crate::engine::ter::Ter;
use crate::ledger::keylet;
use crate::ledger::sf::{sf, StExt};
use crate::ledger::view::ReadView;
use crate::protocol::st::StObject;
use crate::protocol::types::{AccountId, Hash256};

/// Where the fee comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FeePayer {
    /// The initiator's balance (the Account's, or the Delegate's).
    Root(AccountId),
    /// The `FeeAmount` of the Sponsorship entry at this key.
    PreFunded(Hash256),
    /// The balance above its account reserve of this co-signing sponsor.
    CoSigned(AccountId),
}

impl FeePayer {
    /// rippled's `getFeePayer`: a pre-funded Sponsorship is preferred even when the
    /// sponsor also co-signs.
    pub fn of(view: &dyn ReadView, tx: &StObject, initiator: &AccountId) -> FeePayer {
        let Some(sponsor) = fee_sponsor(tx) else {
            return FeePayer::Root(*initiator);
        };
        let key = keylet::sponsorship(&sponsor, initiator);
        if view.read(&key).is_some() {
            FeePayer::PreFunded(key)
        } else {
            FeePayer::CoSigned(sponsor)
        }
    }

    /// True when a sponsor pays (the sender's balance does not move).
    pub fn is_sponsor(&self) -> bool {
        !matches!(self, FeePayer::Root(_))
    }
}

/// What the payer holds for the fee and the most this transaction may take of it
/// (`maxSpendable`); None when its entry is missing.
fn funds(view: &dyn ReadView, payer: &FeePayer) -> Option<(i64, i64)> {
    let s = sf();
    match payer {
        FeePayer::Root(id) => {
            let b = balance_drops(view.read(&keylet::account(id))?.as_ref());
            Some((b, b))
        }
        FeePayer::PreFunded(key) => {
            let entry = view.read(key)?;
            let held = entry.drops_of(s.fee_amount);
            let cap = entry.amount_of(s.max_fee).and_then(|a| a.as_drops());
            Some((held, cap.map_or(held, |c| held.min(c))))
        }
        FeePayer::CoSigned(id) => {
            let root = view.read(&keylet::account(id))?;
            let b = balance_drops(&root);
            Some((b, (b - view.info().fees.reserve_of(&root, 0, 0)).max(0)))
        }
    }
}

/// The shortfall's result: `tecINSUFF_FEE` when something could be paid in a closed
/// ledger, else `terINSUF_FEE_B`.
fn short(spendable: i64, open: bool) -> Ter {
    if spendable > 0 && !open {
        Ter::tecINSUFF_FEE
    } else {
        Ter::terINSUF_FEE_B
    }
}

/// The balance half of rippled's `checkFee` (preclaim): the payer can spend `fee`.
pub fn check(view: &dyn ReadView, payer: &FeePayer, fee: i64) -> Result<(), Ter> {
    if fee == 0 {
        return Ok(());
    }
    let Some((_, spendable)) = funds(view, payer) else {
        return Err(match payer {
            FeePayer::PreFunded(_) => Ter::tefINTERNAL,
            _ => Ter::terNO_ACCOUNT,
        });
    };
    if spendable < fee {
        let open = view.info().open;
        // The sender's own balance: a non-zero shortfall in a closed ledger is a tec.
        return Err(short(spendable, open));
    }
    Ok(())
}

/// Takes the fee from a sponsor payer; returns what it paid. Applying (rippled's
/// `payFee`) a sponsor that cannot pay all of `fee` fails as `check`; after a `tec`
/// (`reset`, `capped`) the fee is cut to MaxFee and to what the payer can spend. A
/// `Root` payer other than the sender (a Delegate) pays what it has, as for the sender.
pub fn pay(sb: &mut Sandbox, payer: &FeePayer, fee: i64, capped: bool) -> Result<i64, Ter> {
    let s = sf();
    let (held, spendable) = funds(sb, payer).ok_or(Ter::tefINTERNAL)?;
    let fee = match payer {
        FeePayer::Root(_) => fee.min(held),
        _ if capped => fee.min(spendable),
        _ if fee > spendable => return Err(short(spendable, sb.info().open)),
        _ => fee,
    };
    if fee == 0 {
        return Ok(0);
    }
    let key = match payer {
        FeePayer::PreFunded(key) => *key,
        FeePayer::Root(id) | FeePayer::CoSigned(id) => keylet::account(id),
    };
    let mut entry = sb.peek(&key).ok_or(Ter::tefINTERNAL)?;
    match payer {
        FeePayer::PreFunded(_) if held == fee => {
            entry.remove(s.fee_amount);
        }
        FeePayer::PreFunded(_) => set_drops(&mut entry, s.fee_amount, held - fee),
        _ => set_drops(&mut entry, s.balance, held - fee),
    }
    sb.update(key, entry);
    Ok(fee)
}
