//! CredentialDelete (rippled `Credentials.cpp`, class `CredentialDelete`): the issuer or
//! the subject deletes a Credential at any time; anyone else only once it expired.

use super::{delete_credential, expired, type_ok};
use crate::engine::ter::Ter;
use crate::engine::transactor::ApplyContext;
use crate::ledger::keylet;
use crate::ledger::sf::{sf, StExt};
use crate::ledger::view::ReadView;
use crate::protocol::st::StObject;
use crate::protocol::types::AccountId;

/// preflight.
pub fn preflight(tx: &StObject, _account: &AccountId) -> Ter {
    let s = sf();
    if !super::flags_ok(tx) {
        return Ter::temINVALID_FLAG;
    }
    let subject = tx.account_of(s.subject);
    let issuer = tx.account_of(s.issuer);
    if subject.is_none() && issuer.is_none() {
        return Ter::temMALFORMED;
    }
    if subject == Some(AccountId::ZERO) || issuer == Some(AccountId::ZERO) {
        return Ter::temINVALID_ACCOUNT_ID;
    }
    if !type_ok(tx.blob_of(s.credential_type)) {
        return Ter::temMALFORMED;
    }
    Ter::tesSUCCESS
}

/// The credential's key: a missing Subject or Issuer is the sender.
fn key_of(
    tx: &StObject,
    account: &AccountId,
) -> (AccountId, AccountId, crate::protocol::types::Hash256) {
    let s = sf();
    let subject = tx.account_of(s.subject).unwrap_or(*account);
    let issuer = tx.account_of(s.issuer).unwrap_or(*account);
    let t = tx.blob_of(s.credential_type).unwrap_or_default();
    (subject, issuer, keylet::credential(&subject, &issuer, t))
}

/// preclaim.
pub fn preclaim(view: &dyn ReadView, tx: &StObject, account: &AccountId) -> Ter {
    let (_, _, key) = key_of(tx, account);
    if view.read(&key).is_none() {
        return Ter::tecNO_ENTRY;
    }
    Ter::tesSUCCESS
}

/// doApply.
pub fn do_apply(ctx: &mut ApplyContext) -> Ter {
    let account = ctx.account;
    let (subject, issuer, key) = key_of(ctx.tx, &account);
    let Some(cred) = ctx.sb.peek(&key) else {
        return Ter::tefINTERNAL;
    };
    if subject != account && issuer != account && !expired(&ctx.sb, &cred) {
        return Ter::tecNO_PERMISSION;
    }
    Ter::from(delete_credential(&mut ctx.sb, &key))
}
