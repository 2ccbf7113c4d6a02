//! CredentialCreate (rippled `Credentials.cpp`, class `CredentialCreate`): an issuer
//! creates a Credential about a subject. The issuer owns it (and pays its reserve) until
//! the subject accepts it; it sits in both owner directories. A credential an account
//! issues to itself is accepted at once.

use super::type_ok;
use super::CREDENTIAL_URI_BYTES_MAX;
use crate::engine::directory::insert_owned;
use crate::engine::entry::{
    check_reserve, new_entry, own, stamp_sponsor, with_threading, ReserveCtx,
};
use crate::engine::ter::Ter;
use crate::engine::transactor::ApplyContext;
use crate::ledger::flags::{lsf_credential, lt};
use crate::ledger::keylet;
use crate::ledger::sf::{sf, StExt};
use crate::ledger::view::ReadView;
use crate::protocol::features::Feature;
use crate::protocol::st::{StObject, StValue};
use crate::protocol::types::AccountId;

/// preflight.
pub fn preflight(tx: &StObject, _account: &AccountId) -> Ter {
    let s = sf();
    if !super::flags_ok(tx) {
        return Ter::temINVALID_FLAG;
    }
    if tx.account_of(s.subject).unwrap_or(AccountId::ZERO) == AccountId::ZERO {
        return Ter::temMALFORMED;
    }
    if let Some(uri) = tx.get(s.uri) {
        let ok =
            matches!(uri, StValue::Blob(b) if !b.is_empty() && b.len() <= CREDENTIAL_URI_BYTES_MAX);
        if !ok {
            return Ter::temMALFORMED;
        }
    }
    if !type_ok(tx.blob_of(s.credential_type)) {
        return Ter::temMALFORMED;
    }
    Ter::tesSUCCESS
}

/// preclaim.
pub fn preclaim(view: &dyn ReadView, tx: &StObject, account: &AccountId) -> Ter {
    let s = sf();
    let (Some(subject), Some(t)) = (tx.account_of(s.subject), tx.blob_of(s.credential_type)) else {
        return Ter::temMALFORMED;
    };
    if view.read(&keylet::account(&subject)).is_none() {
        return Ter::tecNO_TARGET;
    }
    if view
        .read(&keylet::credential(&subject, account, t))
        .is_some()
    {
        return Ter::tecDUPLICATE;
    }
    // fixCleanup3_3_0: no credential for a pseudo-account, which could never accept or
    // delete it (rippled `CredentialCreate::preclaim`).
    let pseudo = crate::engine::vault::is_pseudo_account(view, &subject);
    if pseudo && view.info().rules.enabled(Feature::FixCleanup3_3_0) {
        return Ter::tecPSEUDO_ACCOUNT;
    }
    Ter::tesSUCCESS
}

/// doApply.
pub fn do_apply(ctx: &mut ApplyContext) -> Ter {
    let s = sf();
    let tx = ctx.tx;
    let issuer = ctx.account;
    let (Some(subject), Some(t)) = (tx.account_of(s.subject), tx.blob_of(s.credential_type)) else {
        return Ter::tefINTERNAL;
    };
    let key = keylet::credential(&subject, &issuer, t);
    let mut entry = with_threading(new_entry(lt::CREDENTIAL));
    if let Some(exp) = tx.u32_of(s.expiration) {
        if ctx.sb.info().parent_close_time > exp {
            return Ter::tecEXPIRED;
        }
        entry.set(s.expiration, StValue::UInt32(exp));
    }
    let Some(root) = ctx.sb.peek(&keylet::account(&issuer)) else {
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
    entry.set(s.subject, StValue::AccountId(subject));
    entry.set(s.issuer, StValue::AccountId(issuer));
    entry.set(s.credential_type, StValue::Blob(t.to_vec()));
    if let Some(uri) = tx.blob_of(s.uri) {
        entry.set(s.uri, StValue::Blob(uri.to_vec()));
    }
    let Some(page) = insert_owned(&mut ctx.sb, &issuer, key) else {
        return Ter::tecDIR_FULL;
    };
    entry.set(s.issuer_node, StValue::UInt64(page));
    let rc = ReserveCtx::of(&ctx.sb, tx, &issuer);
    let sponsor = own(&mut ctx.sb, &rc, 1);
    stamp_sponsor(&mut entry, &issuer, sponsor);
    if subject == issuer {
        entry.set(s.flags, StValue::UInt32(lsf_credential::ACCEPTED));
    } else {
        let Some(page) = insert_owned(&mut ctx.sb, &subject, key) else {
            return Ter::tecDIR_FULL;
        };
        entry.set(s.subject_node, StValue::UInt64(page));
    }
    ctx.sb.insert(key, entry);
    Ter::tesSUCCESS
}
