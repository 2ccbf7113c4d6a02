//! MPTokenAuthorize (rippled `MPTokenAuthorize.cpp`). Without `Holder`, the account is
//! a (would-be) holder: it opts in, creating its MPToken (owned, with the trust-line
//! reserve rule: free while it owns fewer than two entries), or with tfMPTUnauthorize
//! deletes an empty one. With `Holder`, the account is the issuer of an issuance that
//! requires authorization and sets or clears the holder's lsfMPTAuthorized.

use super::{issuance, mptoken};
use crate::engine::directory::{insert_owned, remove_owned};
use crate::engine::entry::{
    check_reserve, new_entry, own_new, release, set_flags, with_threading, ReserveCtx,
};
use crate::engine::ter::Ter;
use crate::engine::transactor::{ApplyContext, TF_UNIVERSAL_MASK};
use crate::ledger::flags::{lsf_mpt, lt};
use crate::ledger::keylet;
use crate::ledger::sf::{sf, StExt};
use crate::ledger::view::ReadView;
use crate::protocol::features::Feature;
use crate::protocol::mpt::MptId;
use crate::protocol::st::{StObject, StValue};
use crate::protocol::types::AccountId;

/// MPTokenAuthorize flags.
pub mod tf {
    /// Holder: delete the MPToken; issuer: take the authorization back.
    pub const UNAUTHORIZE: u32 = 0x0000_0001;
    /// Bits the type may not set.
    pub const MASK: u32 = super::TF_UNIVERSAL_MASK & !UNAUTHORIZE;
}

fn id_of(tx: &StObject) -> Option<MptId> {
    tx.mpt_id_of(sf().mpt_issuance_id)
}

/// preflight.
pub fn preflight(tx: &StObject, account: &AccountId) -> Ter {
    if tx.flags() & tf::MASK != 0 {
        return Ter::temINVALID_FLAG;
    }
    if id_of(tx).is_none() {
        return Ter::temMALFORMED;
    }
    if tx.account_of(sf().holder) == Some(*account) {
        return Ter::temMALFORMED;
    }
    Ter::tesSUCCESS
}

/// preclaim.
pub fn preclaim(view: &dyn ReadView, tx: &StObject, account: &AccountId) -> Ter {
    let s = sf();
    let Some(id) = id_of(tx) else {
        return Ter::temMALFORMED;
    };
    let Some(holder) = tx.account_of(s.holder) else {
        let token = mptoken(view, &id, account);
        if tx.flags() & tf::UNAUTHORIZE != 0 {
            let Some(token) = token else {
                return Ter::tecOBJECT_NOT_FOUND;
            };
            let locked = token.u64_of(s.locked_amount).unwrap_or(0);
            let confidential = crate::engine::confidential::has_confidential_state(&token);
            if token.u64_of(s.mpt_amount).unwrap_or(0) != 0 || locked != 0 || confidential {
                if issuance(view, &id).is_none() {
                    return Ter::tefINTERNAL;
                }
                return Ter::tecHAS_OBLIGATIONS;
            }
            // SingleAssetVault, or fixCleanup3_4_0 (rippled #8004): a locked MPToken stays.
            let rules = &view.info().rules;
            let gated =
                rules.enabled(Feature::SingleAssetVault) || rules.enabled(Feature::FixCleanup3_4_0);
            if gated && token.is_flag(lsf_mpt::LOCKED) {
                return Ter::tecNO_PERMISSION;
            }
            return Ter::tesSUCCESS;
        }
        let Some(iss) = issuance(view, &id) else {
            return Ter::tecOBJECT_NOT_FOUND;
        };
        if iss.account_of(s.issuer) == Some(*account) {
            return Ter::tecNO_PERMISSION;
        }
        if token.is_some() {
            return Ter::tecDUPLICATE;
        }
        return Ter::tesSUCCESS;
    };
    if view.read(&keylet::account(&holder)).is_none() {
        return Ter::tecNO_DST;
    }
    let Some(iss) = issuance(view, &id) else {
        return Ter::tecOBJECT_NOT_FOUND;
    };
    if iss.account_of(s.issuer) != Some(*account) {
        return Ter::tecNO_PERMISSION;
    }
    if !iss.is_flag(lsf_mpt::REQUIRE_AUTH) {
        return Ter::tecNO_AUTH;
    }
    if mptoken(view, &id, &holder).is_none() {
        return Ter::tecOBJECT_NOT_FOUND;
    }
    Ter::tesSUCCESS
}

/// doApply.
pub fn do_apply(ctx: &mut ApplyContext) -> Ter {
    let s = sf();
    let Some(id) = id_of(ctx.tx) else {
        return Ter::tecINTERNAL;
    };
    let account = ctx.account;
    let unauthorize = ctx.tx.flags() & tf::UNAUTHORIZE != 0;
    let Some(holder) = ctx.tx.account_of(s.holder) else {
        return if unauthorize {
            delete_token(ctx, &id, &account)
        } else {
            create_token(ctx, &id, &account)
        };
    };
    let key = keylet::mptoken(&id, &holder);
    let Some(mut token) = ctx.sb.peek(&key) else {
        return Ter::tecINTERNAL;
    };
    let flags_in = token.flags();
    if unauthorize {
        set_flags(&mut token, 0, lsf_mpt::AUTHORIZED);
    } else {
        set_flags(&mut token, lsf_mpt::AUTHORIZED, 0);
    }
    if token.flags() != flags_in {
        ctx.sb.update(key, token);
    }
    Ter::tesSUCCESS
}

fn delete_token(ctx: &mut ApplyContext, id: &MptId, account: &AccountId) -> Ter {
    let s = sf();
    let key = keylet::mptoken(id, account);
    let Some(token) = ctx.sb.peek(&key) else {
        return Ter::tecINTERNAL;
    };
    if token.u64_of(s.mpt_amount).unwrap_or(0) != 0 {
        return Ter::tecINTERNAL;
    }
    let page = token.u64_of(s.owner_node).unwrap_or(0);
    if !remove_owned(&mut ctx.sb, account, page, &key, false) {
        return Ter::tecINTERNAL;
    }
    release(&mut ctx.sb, account, &token, 1);
    ctx.sb.erase(key);
    Ter::tesSUCCESS
}

fn create_token(ctx: &mut ApplyContext, id: &MptId, account: &AccountId) -> Ter {
    let s = sf();
    let Some(root) = ctx.sb.peek(&keylet::account(account)) else {
        return Ter::tecINTERNAL;
    };
    // The first two owned objects need no reserve; a reserve sponsor has no free tier.
    let sponsored = ReserveCtx::of(&ctx.sb, ctx.tx, account).sponsor.is_some();
    if sponsored || root.u32_of(s.owner_count).unwrap_or(0) >= 2 {
        let fail = Ter::tecINSUFFICIENT_RESERVE;
        if let Err(t) = check_reserve(&ctx.sb, ctx.tx, &root, ctx.prior_balance, (1, 0), fail) {
            return t;
        }
    }
    let key = keylet::mptoken(id, account);
    let Some(page) = insert_owned(&mut ctx.sb, account, key) else {
        return Ter::tecDIR_FULL;
    };
    let mut token = with_threading(new_entry(lt::MPTOKEN));
    token.set(s.account, StValue::AccountId(*account));
    token.set(s.mpt_issuance_id, StValue::Fixed(id.0.to_vec()));
    token.set(s.owner_node, StValue::UInt64(page));
    own_new(&mut ctx.sb, ctx.tx, account, (key, token), 1);
    Ter::tesSUCCESS
}
