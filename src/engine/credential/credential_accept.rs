//! CredentialAccept (rippled `Credentials.cpp`, class `CredentialAccept`): the subject
//! accepts a Credential issued to it; the owner count (and reserve) moves from the
//! issuer to the subject. An expired credential is deleted instead (`tecEXPIRED`).

use super::{delete_credential, expired, type_ok};
use crate::engine::entry::{check_reserve, own, release_kept, stamp_sponsor, ReserveCtx};
use crate::engine::ter::Ter;
use crate::engine::transactor::ApplyContext;
use crate::ledger::flags::lsf_credential;
use crate::ledger::keylet;
use crate::ledger::sf::{sf, StExt};
use crate::ledger::view::ReadView;
use crate::protocol::st::{StObject, StValue};
use crate::protocol::types::AccountId;

/// preflight.
pub fn preflight(tx: &StObject, _account: &AccountId) -> Ter {
    let s = sf();
    if !super::flags_ok(tx) {
        return Ter::temINVALID_FLAG;
    }
    if tx.account_of(s.issuer).unwrap_or(AccountId::ZERO) == AccountId::ZERO {
        return Ter::temINVALID_ACCOUNT_ID;
    }
    if !type_ok(tx.blob_of(s.credential_type)) {
        return Ter::temMALFORMED;
    }
    Ter::tesSUCCESS
}

/// preclaim.
pub fn preclaim(view: &dyn ReadView, tx: &StObject, account: &AccountId) -> Ter {
    let s = sf();
    let (Some(issuer), Some(t)) = (tx.account_of(s.issuer), tx.blob_of(s.credential_type)) else {
        return Ter::temMALFORMED;
    };
    if view.read(&keylet::account(&issuer)).is_none() {
        return Ter::tecNO_ISSUER;
    }
    let Some(cred) = view.read(&keylet::credential(account, &issuer, t)) else {
        return Ter::tecNO_ENTRY;
    };
    if cred.is_flag(lsf_credential::ACCEPTED) {
        return Ter::tecDUPLICATE;
    }
    Ter::tesSUCCESS
}

/// doApply.
pub fn do_apply(ctx: &mut ApplyContext) -> Ter {
    let s = sf();
    let subject = ctx.account;
    let (Some(issuer), Some(t)) = (
        ctx.tx.account_of(s.issuer),
        ctx.tx.blob_of(s.credential_type),
    ) else {
        return Ter::tefINTERNAL;
    };
    let (Some(root), true) = (
        ctx.sb.peek(&keylet::account(&subject)),
        ctx.sb.exists(&keylet::account(&issuer)),
    ) else {
        return Ter::tefINTERNAL;
    };
    if let Err(t) = check_reserve(
        &ctx.sb,
        ctx.tx,
        &root,
        ctx.prior_balance,
        (1, 0),
        Ter::tecINSUFFICIENT_RESERVE,
    ) {
        return t;
    }
    let key = keylet::credential(&subject, &issuer, t);
    let Some(mut cred) = ctx.sb.peek(&key) else {
        return Ter::tefINTERNAL;
    };
    if expired(&ctx.sb, &cred) {
        // Deleted even though the transaction fails (the transactor deletes it again
        // after the reset).
        return match delete_credential(&mut ctx.sb, &key) {
            Ok(()) => Ter::tecEXPIRED,
            Err(t) => t,
        };
    }
    cred.set(s.flags, StValue::UInt32(lsf_credential::ACCEPTED));
    // The issuer's reserve (and its sponsor's) goes; the subject's, under this
    // transaction's reserve sponsor, comes.
    release_kept(&mut ctx.sb, &issuer, &mut cred, 1);
    let rc = ReserveCtx::of(&ctx.sb, ctx.tx, &subject);
    let sponsor = own(&mut ctx.sb, &rc, 1);
    stamp_sponsor(&mut cred, &subject, sponsor);
    ctx.sb.update(key, cred);
    Ter::tesSUCCESS
}
