//! PaymentChannelClaim (rippled `PayChan.cpp`): pays out a signed claim, renews or closes
//! a channel.

use super::{channel, channel_id, close_channel, expired, positive_xrp, refused, settle_time};
use crate::engine::credential;
use crate::engine::entry::credit_drops;
use crate::engine::ter::Ter;
use crate::engine::transactor::{ApplyContext, TF_UNIVERSAL_MASK};
use crate::ledger::keylet;
use crate::ledger::rules::Rules;
use crate::ledger::sf::{sf, StExt};
use crate::ledger::view::ReadView;
use crate::protocol::amount::Amount;
use crate::protocol::claim::verify_claim;
use crate::protocol::keys::PublicKey;
use crate::protocol::st::{StObject, StValue};
use crate::protocol::types::AccountId;

/// PaymentChannelClaim flags.
pub mod tf {
    /// Clear the channel's Expiration (owner only).
    pub const RENEW: u32 = 0x0001_0000;
    /// Close the channel (now, or after SettleDelay).
    pub const CLOSE: u32 = 0x0002_0000;
    /// Bits a claim may not set.
    pub const CLAIM_MASK: u32 = super::TF_UNIVERSAL_MASK & !(RENEW | CLOSE);
}

/// checkExtraFeatures: `CredentialIDs` needs Credentials.
pub fn extra_features(tx: &StObject, rules: &Rules) -> bool {
    credential::ids_allowed(tx, rules)
}

/// preflight, including the claim signature.
pub fn preflight(tx: &StObject, _account: &AccountId) -> Result<(), Ter> {
    let s = sf();
    let bal = positive_xrp(tx, s.balance)?;
    let amt = positive_xrp(tx, s.amount)?;
    if let (Some(b), Some(a)) = (bal, amt) {
        if b > a {
            return Err(Ter::temBAD_AMOUNT);
        }
    }
    let flags = tx.flags();
    if flags & tf::CLAIM_MASK != 0 {
        return Err(Ter::temINVALID_FLAG);
    }
    if flags & tf::CLOSE != 0 && flags & tf::RENEW != 0 {
        return Err(Ter::temMALFORMED);
    }
    let channel = channel_id(tx)?;
    if let Some(sig) = tx.blob_of(s.signature) {
        let (Some(pk), Some(bal)) = (tx.blob_of(s.public_key), bal) else {
            return Err(Ter::temMALFORMED);
        };
        let auth = amt.unwrap_or(bal);
        if bal > auth {
            return Err(Ter::temBAD_AMOUNT);
        }
        let Ok(pk) = PublicKey::from_slice_lenient(pk) else {
            return Err(Ter::temMALFORMED);
        };
        if !verify_claim(&pk, &channel, auth as u64, sig) {
            return Err(Ter::temBAD_SIGNATURE);
        }
    }
    credential::check_ids(tx).into_result()
}

/// preclaim: the credentials presented, if any.
pub fn preclaim(view: &dyn ReadView, tx: &StObject, account: &AccountId) -> Ter {
    credential::valid_ids(view, tx, account)
}

/// doApply.
pub fn do_apply(ctx: &mut ApplyContext) -> Result<(), Ter> {
    let s = sf();
    let tx = ctx.tx;
    let Some(key) = tx.h256_of(s.channel) else {
        return Err(Ter::temMALFORMED);
    };
    let Some(mut chan) = channel(&ctx.sb, &key) else {
        return Err(Ter::tecNO_TARGET);
    };
    let (Some(src), Some(dst)) = (chan.account_of(s.account), chan.account_of(s.destination))
    else {
        return Err(Ter::tefBAD_LEDGER);
    };
    let cur_expiration = chan.u32_of(s.expiration);
    if expired(&ctx.sb, &chan) {
        return close_channel(&mut ctx.sb, &key, &chan).into_result();
    }
    let me = ctx.account;
    if me != src && me != dst {
        return Err(Ter::tecNO_PERMISSION);
    }
    if let Some(req) = tx.amount_of(s.balance).and_then(|a| a.as_drops()) {
        let chan_balance = chan.drops_of(s.balance);
        let chan_funds = chan.drops_of(s.amount);
        let has_sig = tx.blob_of(s.signature).is_some();
        let rules = ctx.sb.info().rules;
        if me == dst && !has_sig {
            return Err(refused(&rules, Ter::temBAD_SIGNATURE));
        }
        if has_sig && tx.blob_of(s.public_key) != chan.blob_of(s.public_key) {
            return Err(refused(&rules, Ter::temBAD_SIGNER));
        }
        if req > chan_funds || req <= chan_balance {
            return Err(Ter::tecUNFUNDED_PAYMENT);
        }
        let Some(dst_root) = ctx.sb.peek(&keylet::account(&dst)) else {
            return Err(Ter::tecNO_DST);
        };
        // DepositAuth: the destination itself, an account it preauthorized, or
        // credentials it preauthorized.
        credential::verify_deposit_preauth(&mut ctx.sb, tx, &me, &dst, Some(&dst_root))
            .into_result()?;
        chan.set(s.balance, StValue::Amount(Amount::Xrp(req)));
        credit_drops(&mut ctx.sb, &dst, req - chan_balance);
        ctx.sb.update(key, chan.clone());
    }
    let flags = tx.flags();
    if flags & tf::RENEW != 0 {
        if src != me {
            return Err(Ter::tecNO_PERMISSION);
        }
        chan.remove(s.expiration);
        ctx.sb.update(key, chan.clone());
    }
    if flags & tf::CLOSE != 0 {
        if dst == me || chan.drops_of(s.balance) == chan.drops_of(s.amount) {
            return close_channel(&mut ctx.sb, &key, &chan).into_result();
        }
        let info = ctx.sb.info();
        let delay = chan.u32_of(s.settle_delay).unwrap_or(0);
        let settle = settle_time(&info.rules, info.parent_close_time, delay);
        if cur_expiration.is_none_or(|e| e > settle) {
            chan.set(s.expiration, StValue::UInt32(settle));
            ctx.sb.update(key, chan);
        }
    }
    Ok(())
}
