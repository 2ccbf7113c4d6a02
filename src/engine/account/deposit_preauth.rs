//! DepositPreauth (rippled `DepositPreauth.cpp`): the account preauthorizes another to
//! deposit into it while it requires deposit authorization (`lsfDepositAuth`), or takes
//! that back, for one account (`Authorize` / `Unauthorize`) or for a set of credentials
//! (`AuthorizeCredentials` / `UnauthorizeCredentials`: whoever presents Credentials
//! matching the whole set). Each preauthorization is an owned entry; a credential set is
//! stored sorted and keyed by its sorted (issuer, type) pairs.

use super::remove_preauth;
use crate::engine::credential::CREDENTIALS_ARRAY_MAX;
use crate::engine::credential::{array_of, check_array, pairs, set_value, sorted, CredentialSet};
use crate::engine::directory::insert_owned;
use crate::engine::entry::{check_reserve, new_entry, own_new, with_threading};
use crate::engine::registry::field_allowed;
use crate::engine::ter::Ter;
use crate::engine::transactor::{ApplyContext, TF_UNIVERSAL_MASK};
use crate::ledger::flags::lt;
use crate::ledger::keylet;
use crate::ledger::rules::Rules;
use crate::ledger::sf::{sf, StExt};
use crate::ledger::view::ReadView;
use crate::protocol::features::Feature;
use crate::protocol::st::{StObject, StValue};
use crate::protocol::types::AccountId;

/// checkExtraFeatures: `AuthorizeCredentials` or `UnauthorizeCredentials` needs
/// Credentials.
pub fn extra_features(tx: &StObject, rules: &Rules) -> bool {
    let s = sf();
    field_allowed(tx, s.authorize_credentials, rules, Feature::Credentials)
        && field_allowed(tx, s.unauthorize_credentials, rules, Feature::Credentials)
}

/// preflight.
pub fn preflight(tx: &StObject, account: &AccountId) -> Ter {
    let s = sf();
    if tx.flags() & TF_UNIVERSAL_MASK != 0 {
        return Ter::temINVALID_FLAG;
    }
    let arrays = [s.authorize_credentials, s.unauthorize_credentials]
        .map(|f| tx.get(f).is_some())
        .iter()
        .filter(|p| **p)
        .count();
    let singles = [s.authorize, s.unauthorize]
        .map(|f| tx.get(f).is_some())
        .iter()
        .filter(|p| **p)
        .count();
    if arrays + singles != 1 {
        return Ter::temMALFORMED;
    }
    if arrays == 1 {
        let field = credential_field(tx);
        return check_array(
            array_of(tx, field).unwrap_or_default(),
            CREDENTIALS_ARRAY_MAX,
        );
    }
    let target = match (tx.account_of(s.authorize), tx.account_of(s.unauthorize)) {
        (Some(a), None) | (None, Some(a)) => a,
        _ => return Ter::temMALFORMED,
    };
    if target == AccountId::ZERO {
        return Ter::temINVALID_ACCOUNT_ID;
    }
    if tx.account_of(s.authorize) == Some(*account) {
        return Ter::temCANNOT_PREAUTH_SELF;
    }
    Ter::tesSUCCESS
}

/// Whichever credential array the transaction carries (AuthorizeCredentials first).
fn credential_field(tx: &StObject) -> crate::protocol::definitions::Field {
    let s = sf();
    if tx.get(s.authorize_credentials).is_some() {
        s.authorize_credentials
    } else {
        s.unauthorize_credentials
    }
}

/// The transaction's credential set, sorted (empty on a duplicate, as rippled's
/// `makeSorted`).
fn tx_set(tx: &StObject, field: crate::protocol::definitions::Field) -> CredentialSet {
    sorted(pairs(array_of(tx, field).unwrap_or_default())).unwrap_or_default()
}

/// preclaim.
pub fn preclaim(view: &dyn ReadView, tx: &StObject, account: &AccountId) -> Ter {
    let s = sf();
    if let Some(auth) = tx.account_of(s.authorize) {
        if view.read(&keylet::account(&auth)).is_none() {
            return Ter::tecNO_TARGET;
        }
        // fixCleanup3_3_0: no preauthorizing a pseudo-account (rippled
        // `DepositPreauth::preclaim`).
        let pseudo = crate::engine::vault::is_pseudo_account(view, &auth);
        if pseudo && view.info().rules.enabled(Feature::FixCleanup3_3_0) {
            return Ter::tecPSEUDO_ACCOUNT;
        }
        if view
            .read(&keylet::deposit_preauth(account, &auth))
            .is_some()
        {
            return Ter::tecDUPLICATE;
        }
    } else if let Some(unauth) = tx.account_of(s.unauthorize) {
        if view
            .read(&keylet::deposit_preauth(account, &unauth))
            .is_none()
        {
            return Ter::tecNO_ENTRY;
        }
    } else if let Some(arr) = array_of(tx, s.authorize_credentials) {
        let given = pairs(arr);
        if given
            .iter()
            .any(|(issuer, _)| view.read(&keylet::account(issuer)).is_none())
        {
            return Ter::tecNO_ISSUER;
        }
        let Some(set) = sorted(given) else {
            return Ter::tefINTERNAL;
        };
        let key = keylet::deposit_preauth_credentials(account, &set);
        if view.read(&key).is_some() {
            return Ter::tecDUPLICATE;
        }
    } else {
        let set = tx_set(tx, s.unauthorize_credentials);
        let key = keylet::deposit_preauth_credentials(account, &set);
        if view.read(&key).is_none() {
            return Ter::tecNO_ENTRY;
        }
    }
    Ter::tesSUCCESS
}

/// doApply.
pub fn do_apply(ctx: &mut ApplyContext) -> Ter {
    let s = sf();
    let account = ctx.account;
    if let Some(unauth) = ctx.tx.account_of(s.unauthorize) {
        return remove_preauth(&mut ctx.sb, &keylet::deposit_preauth(&account, &unauth));
    }
    if ctx.tx.get(s.unauthorize_credentials).is_some() {
        let set = tx_set(ctx.tx, s.unauthorize_credentials);
        let key = keylet::deposit_preauth_credentials(&account, &set);
        return remove_preauth(&mut ctx.sb, &key);
    }
    let mut entry = with_threading(new_entry(lt::DEPOSIT_PREAUTH));
    entry.set(s.account, StValue::AccountId(account));
    let key = if let Some(auth) = ctx.tx.account_of(s.authorize) {
        entry.set(s.authorize, StValue::AccountId(auth));
        keylet::deposit_preauth(&account, &auth)
    } else {
        let set = tx_set(ctx.tx, s.authorize_credentials);
        entry.set(s.authorize_credentials, set_value(&set));
        keylet::deposit_preauth_credentials(&account, &set)
    };
    let Some(root) = ctx.sb.peek(&keylet::account(&account)) else {
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
    let Some(page) = insert_owned(&mut ctx.sb, &account, key) else {
        return Ter::tecDIR_FULL;
    };
    entry.set(s.owner_node, StValue::UInt64(page));
    own_new(&mut ctx.sb, ctx.tx, &account, (key, entry), 1);
    Ter::tesSUCCESS
}
