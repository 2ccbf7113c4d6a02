//! What the credential types and the types that take `CredentialIDs` share (rippled
//! `CredentialHelpers.cpp`): expiry against the parent ledger's close time, deleting a
//! Credential from both owner directories, the checks on `CredentialIDs` and on
//! credential arrays, sorted credential sets, and `verifyDepositPreauth`.

pub mod credential_accept;
pub mod credential_create;
pub mod credential_delete;

use super::directory::remove_owned;
use super::entry::release;
use super::sandbox::Sandbox;
use super::ter::Ter;
use crate::ledger::flags::{lsf, lsf_credential, lt};
use crate::ledger::keylet;
use crate::ledger::rules::Rules;
use crate::ledger::sf::{sf, StExt};
use crate::ledger::view::ReadView;
use crate::protocol::definitions::Field;
use crate::protocol::features::Feature;
use crate::protocol::hash::sha512_half;
use crate::protocol::st::{StObject, StValue};
use crate::protocol::types::{AccountId, Hash256};

/// checkExtraFeatures of the types that take `CredentialIDs` (Payment, EscrowFinish,
/// PaymentChannelClaim, AccountDelete): the field needs Credentials.
pub fn ids_allowed(tx: &StObject, rules: &Rules) -> bool {
    crate::engine::registry::field_allowed(tx, sf().credential_ids, rules, Feature::Credentials)
}

/// Longest CredentialType, in bytes (rippled `maxCredentialTypeLength`).
pub const CREDENTIAL_TYPE_BYTES_MAX: usize = 64;
/// Longest credential URI, in bytes (rippled `maxCredentialURILength`).
pub const CREDENTIAL_URI_BYTES_MAX: usize = 256;
/// Most credentials in CredentialIDs or a DepositPreauth credential set (rippled
/// `maxCredentialsArraySize`).
pub const CREDENTIALS_ARRAY_MAX: usize = 8;

/// A credential set: (issuer, type) pairs in rippled's `std::set` order.
pub type CredentialSet = Vec<(AccountId, Vec<u8>)>;

/// rippled's `checkExpired`: the parent ledger closed after the Expiration (a credential
/// without one never expires).
pub fn expired(view: &dyn ReadView, cred: &StObject) -> bool {
    cred.u32_of(sf().expiration)
        .is_some_and(|e| view.info().parent_close_time > e)
}

/// The Credential at `key`, if that key holds one (`keylet::credential(h)`).
pub fn credential_at(view: &dyn ReadView, key: &Hash256) -> Option<StObject> {
    view.read(key)
        .filter(|c| c.u16_of(sf().ledger_entry_type) == Some(lt::CREDENTIAL))
        .map(|c| (*c).clone())
}

/// True when a CredentialType has a legal length.
pub fn type_ok(t: Option<&[u8]>) -> bool {
    t.is_some_and(|t| !t.is_empty() && t.len() <= CREDENTIAL_TYPE_BYTES_MAX)
}

/// rippled `credentials::deleteSLE`: out of the issuer's directory and, unless they are
/// the same account, the subject's; the owner count goes back to whichever owns it
/// (the subject once accepted, the issuer before).
pub fn delete_credential(sb: &mut Sandbox, key: &Hash256) -> Result<(), Ter> {
    let s = sf();
    let Some(cred) = sb.peek(key) else {
        return Err(Ter::tecNO_ENTRY);
    };
    let (Some(issuer), Some(subject)) = (cred.account_of(s.issuer), cred.account_of(s.subject))
    else {
        return Err(Ter::tecINTERNAL);
    };
    let accepted = cred.is_flag(lsf_credential::ACCEPTED);
    unlink(
        sb,
        &cred,
        key,
        &issuer,
        s.issuer_node,
        !accepted || subject == issuer,
    )
    .into_result()?;
    if subject != issuer {
        unlink(sb, &cred, key, &subject, s.subject_node, accepted).into_result()?;
    }
    sb.erase(*key);
    Ok(())
}

fn unlink(
    sb: &mut Sandbox,
    cred: &StObject,
    key: &Hash256,
    account: &AccountId,
    node: Field,
    is_owner: bool,
) -> Ter {
    if !sb.exists(&keylet::account(account)) {
        return Ter::tecINTERNAL;
    }
    let page = cred.u64_of(node).unwrap_or(0);
    if !remove_owned(sb, account, page, key, false) {
        return Ter::tefBAD_LEDGER;
    }
    if is_owner {
        release(sb, account, cred, 1);
    }
    Ter::tesSUCCESS
}

/// rippled `credentials::checkFields` (preflight): CredentialIDs, when present, holds 1
/// to 8 distinct IDs.
pub fn check_ids(tx: &StObject) -> Ter {
    let Some(v) = tx.get(sf().credential_ids) else {
        return Ter::tesSUCCESS;
    };
    let StValue::Vector256(ids) = v else {
        return Ter::temMALFORMED;
    };
    if ids.is_empty() || ids.len() > CREDENTIALS_ARRAY_MAX {
        return Ter::temMALFORMED;
    }
    let mut seen = std::collections::HashSet::new();
    if !ids.iter().all(|h| seen.insert(*h)) {
        return Ter::temMALFORMED;
    }
    Ter::tesSUCCESS
}

/// The transaction's CredentialIDs (empty when absent).
pub fn ids(tx: &StObject) -> Vec<Hash256> {
    tx.v256_of(sf().credential_ids)
        .map(|v| v.to_vec())
        .unwrap_or_default()
}

/// rippled `credentials::valid` (preclaim): every ID names an accepted Credential whose
/// subject is `src`; expiry is left to doApply.
pub fn valid_ids(view: &dyn ReadView, tx: &StObject, src: &AccountId) -> Ter {
    let s = sf();
    for h in ids(tx) {
        let Some(cred) = credential_at(view, &h) else {
            return Ter::tecBAD_CREDENTIALS;
        };
        if cred.account_of(s.subject) != Some(*src) || !cred.is_flag(lsf_credential::ACCEPTED) {
            return Ter::tecBAD_CREDENTIALS;
        }
    }
    Ter::tesSUCCESS
}

/// rippled `credentials::removeExpired`: deletes the expired ones among `keys`; true when
/// there was one. Under fixCleanup3_1_3 a deletion that fails (a credential missing from
/// an owner directory, an owner gone) is the transaction's result; before, it was ignored.
pub fn remove_expired(sb: &mut Sandbox, keys: &[Hash256]) -> Result<bool, Ter> {
    let fix = sb.info().rules.enabled(Feature::FixCleanup3_1_3);
    let mut found = false;
    for key in keys {
        if credential_at(&*sb, key).is_some_and(|c| expired(&*sb, &c)) {
            let deleted = delete_credential(sb, key);
            if fix {
                deleted?;
            }
            found = true;
        }
    }
    Ok(found)
}

/// rippled `verifyDepositPreauth`: expired credentials presented are deleted
/// (`tecEXPIRED`); a destination requiring deposit authorization accepts itself, the
/// accounts it preauthorized, and the credential sets it preauthorized.
pub fn verify_deposit_preauth(
    sb: &mut Sandbox,
    tx: &StObject,
    src: &AccountId,
    dst: &AccountId,
    dst_root: Option<&StObject>,
) -> Ter {
    let presented = ids(tx);
    let present = tx.get(sf().credential_ids).is_some();
    if present {
        match remove_expired(sb, &presented) {
            Err(t) => return t,
            Ok(true) => return Ter::tecEXPIRED,
            Ok(false) => {}
        }
    }
    if !dst_root.is_some_and(|r| r.is_flag(lsf::DEPOSIT_AUTH)) || src == dst {
        return Ter::tesSUCCESS;
    }
    if sb.exists(&keylet::deposit_preauth(dst, src)) {
        return Ter::tesSUCCESS;
    }
    if !present {
        return Ter::tecNO_PERMISSION;
    }
    authorized_by_set(&*sb, &presented, dst)
}

/// rippled `credentials::authorizedDepositPreauth`: the presented credentials, as a
/// set, are one `dst` preauthorized.
pub fn authorized_by_set(view: &dyn ReadView, presented: &[Hash256], dst: &AccountId) -> Ter {
    let s = sf();
    let mut set = CredentialSet::new();
    for h in presented {
        let Some(cred) = credential_at(view, h) else {
            return Ter::tefINTERNAL;
        };
        let (Some(issuer), Some(t)) = (cred.account_of(s.issuer), cred.blob_of(s.credential_type))
        else {
            return Ter::tefINTERNAL;
        };
        set.push((issuer, t.to_vec()));
    }
    let Some(set) = sorted(set) else {
        return Ter::tefINTERNAL;
    };
    if view
        .read(&keylet::deposit_preauth_credentials(dst, &set))
        .is_some()
    {
        Ter::tesSUCCESS
    } else {
        Ter::tecNO_PERMISSION
    }
}

/// Sorts a credential set; None when it has a duplicate.
pub fn sorted(mut set: CredentialSet) -> Option<CredentialSet> {
    set.sort();
    let n = set.len();
    set.dedup();
    (set.len() == n).then_some(set)
}

/// The (issuer, type) pairs of a credential array (`Credential` inner objects).
pub fn pairs(arr: &[(Field, StObject)]) -> CredentialSet {
    let s = sf();
    arr.iter()
        .map(|(_, o)| {
            let issuer = o.account_of(s.issuer).unwrap_or(AccountId::ZERO);
            let t = o.blob_of(s.credential_type).unwrap_or_default().to_vec();
            (issuer, t)
        })
        .collect()
}

/// The credential array `field` of `tx`, if present and an array.
pub fn array_of(tx: &StObject, field: Field) -> Option<&[(Field, StObject)]> {
    match tx.get(field)? {
        StValue::Array(a) => Some(a),
        _ => None,
    }
}

/// rippled `credentials::checkArray` (preflight): 1 to `max` credentials, each with an
/// issuer and a type of legal length, no two alike.
pub fn check_array(arr: &[(Field, StObject)], max: usize) -> Ter {
    if arr.is_empty() {
        return Ter::temARRAY_EMPTY;
    }
    if arr.len() > max {
        return Ter::temARRAY_TOO_LARGE;
    }
    let s = sf();
    let mut seen = std::collections::HashSet::new();
    for (_, o) in arr {
        let issuer = o.account_of(s.issuer).unwrap_or(AccountId::ZERO);
        if issuer == AccountId::ZERO {
            return Ter::temINVALID_ACCOUNT_ID;
        }
        let t = o.blob_of(s.credential_type);
        if !type_ok(t) {
            return Ter::temMALFORMED;
        }
        if !seen.insert(sha512_half(&[&issuer.0, t.unwrap_or_default()])) {
            return Ter::temMALFORMED;
        }
    }
    Ter::tesSUCCESS
}

/// A sorted credential set as the ledger stores it: an array of `Credential` objects
/// (`field` is AuthorizeCredentials or AcceptedCredentials).
pub fn set_value(set: &CredentialSet) -> StValue {
    let s = sf();
    StValue::Array(
        set.iter()
            .map(|(issuer, t)| {
                let mut o = StObject::new();
                o.set(s.issuer, StValue::AccountId(*issuer));
                o.set(s.credential_type, StValue::Blob(t.clone()));
                (s.credential, o)
            })
            .collect(),
    )
}

/// The three Credential types' flags: any before fixInvalidTxFlags, none beyond the
/// universal ones under it (rippled `getFlagsMask`, checked in preflight1).
pub fn flags_ok(tx: &StObject) -> bool {
    !crate::ledger::rules::enabled_now(crate::protocol::features::Feature::FixInvalidTxFlags)
        || tx.flags() & crate::engine::transactor::TF_UNIVERSAL_MASK == 0
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::*;
    use crate::engine::entry::{new_account_root, new_entry};
    use crate::ledger::state::{stamp, State};
    use crate::ledger::view::{StateView, ViewInfo};

    /// A ledger closed at 100 holding `issuer`, `subject` and, at `key`, an accepted
    /// credential that expired at 50 but is in neither owner directory (a broken ledger:
    /// no transaction makes one), under ledgerd's rule book with fixCleanup3_1_3 `on`.
    fn broken(on: bool, issuer: AccountId, subject: AccountId, key: Hash256) -> StateView {
        let mut cred = new_entry(lt::CREDENTIAL);
        cred.set(sf().issuer, StValue::AccountId(issuer));
        cred.set(sf().subject, StValue::AccountId(subject));
        cred.set(sf().flags, StValue::UInt32(lsf_credential::ACCEPTED));
        cred.set(sf().expiration, StValue::UInt32(50));
        let state = Arc::new(State::new());
        let roots = [issuer, subject].map(|a| {
            let root = new_account_root(&a, 1_000_000_000, 1);
            (keylet::account(&a), Some(Arc::new(root)))
        });
        state.commit(
            stamp(1, 0),
            roots.into_iter().chain([(key, Some(Arc::new(cred)))]),
        );
        let rules = crate::ledger::rules::Rules::default_with(Feature::FixCleanup3_1_3, on);
        let info = ViewInfo {
            parent_close_time: 100,
            ..ViewInfo::open_test(rules)
        };
        StateView::new(state, stamp(1, 0), info)
    }

    /// fixCleanup3_1_3 (rippled `credentials::removeExpired`): an expired credential that
    /// cannot be deleted fails the transaction with the deletion's code (`tefBAD_LEDGER`
    /// here) only with the fix; before it the failure is ignored and the presented
    /// credentials are `tecEXPIRED`.
    #[test]
    fn a_failed_expired_credential_deletion_counts_only_with_fix_cleanup_3_1_3() {
        let (issuer, subject) = (AccountId([1; 20]), AccountId([2; 20]));
        let key = Hash256([0xC5; 32]);
        let mut tx = StObject::new();
        tx.set(sf().credential_ids, StValue::Vector256(vec![key]));
        for on in [false, true] {
            let view = broken(on, issuer, subject, key);
            let mut sb = Sandbox::new(&view);
            let got = remove_expired(&mut sb, &[key]);
            let want = if on {
                Err(Ter::tefBAD_LEDGER)
            } else {
                Ok(true)
            };
            assert_eq!(got, want, "removeExpired, fix {on}");
            let mut sb = Sandbox::new(&view);
            let ter = verify_deposit_preauth(&mut sb, &tx, &subject, &issuer, None);
            let want = if on {
                Ter::tefBAD_LEDGER
            } else {
                Ter::tecEXPIRED
            };
            assert_eq!(ter, want, "verifyDepositPreauth, fix {on}");
        }
    }
}
