//! rippled's `ValidConfidentialMPToken` (`MPTInvariant.cpp`, ConfidentialTransfer), after
//! a successful transaction, for every issuance whose tokens or issuance it wrote (and
//! that still exists):
//!
//! - a token holds its inbox or spending balance exactly when it holds the issuer's
//!   mirror, and only on an issuance with lsfMPTCanHoldConfidentialBalance;
//! - a token's spending balance never changes without its ConfidentialBalanceVersion;
//! - no token with a balance, public or confidential, is deleted while confidential
//!   tokens circulate;
//! - ConfidentialOutstandingAmount never exceeds OutstandingAmount.
//!
//! Conservation (public balances plus ConfidentialOutstandingAmount make
//! OutstandingAmount) is `check_mpt`'s, in `invariants.rs`.

use std::collections::BTreeMap;

use super::Violation;
use crate::engine::sandbox::{Action, Sandbox};
use crate::engine::ter::Ter;
use crate::ledger::flags::{lsf_mpt, lt};
use crate::ledger::keylet;
use crate::ledger::sf::{sf, StExt};
use crate::ledger::view::ReadView;
use crate::protocol::mpt::MptId;
use crate::protocol::st::{StObject, StValue};

/// What one issuance's changes need checked against the issuance itself.
#[derive(Default)]
struct Needs {
    /// A token of it holds confidential balances.
    flag: bool,
    /// A token of it with a balance was deleted.
    no_circulation: bool,
}

/// Every token and issuance a successful transaction wrote.
pub fn check(sb: &Sandbox, ter: Ter) -> Result<(), Violation> {
    if ter != Ter::tesSUCCESS {
        return Ok(());
    }
    let s = sf();
    let mut needs: BTreeMap<[u8; 24], Needs> = BTreeMap::new();
    for item in sb.items().values() {
        let after = (item.action != Action::Erase).then_some(&item.cur);
        let before = item.orig.as_deref();
        match item.cur.u16_of(s.ledger_entry_type) {
            Some(lt::MPTOKEN) => {
                let Some(StValue::Fixed(id)) = item.cur.get(s.mpt_issuance_id) else {
                    continue;
                };
                let Ok(id) = <[u8; 24]>::try_from(id.as_slice()) else {
                    continue;
                };
                let n = needs.entry(id).or_default();
                token_change(before, after, n)?;
            }
            Some(lt::MPTOKEN_ISSUANCE) => {
                if let Some(a) = after {
                    let coa = a.u64_of(s.confidential_outstanding_amount).unwrap_or(0);
                    if coa > a.u64_of(s.outstanding_amount).unwrap_or(0) {
                        return Err(Violation::BadConfidentialMpt);
                    }
                }
            }
            _ => {}
        }
    }
    for (id, n) in needs {
        let Some(iss) = sb.read(&keylet::mpt_issuance(&MptId(id))) else {
            continue;
        };
        let circulating = iss.u64_of(s.confidential_outstanding_amount).unwrap_or(0) > 0;
        let flagged = iss.is_flag(lsf_mpt::CAN_HOLD_CONFIDENTIAL_BALANCE);
        if (n.flag && !flagged) || (n.no_circulation && circulating) {
            return Err(Violation::BadConfidentialMpt);
        }
    }
    Ok(())
}

/// One token's change: its own shape now, its version against its spending balance,
/// and what its issuance must be.
fn token_change(
    before: Option<&StObject>,
    after: Option<&StObject>,
    n: &mut Needs,
) -> Result<(), Violation> {
    let s = sf();
    let has = |o: &StObject, f| o.get(f).is_some();
    if let (Some(b), None) = (before, after) {
        let public = b.u64_of(s.mpt_amount).unwrap_or(0) > 0;
        let encrypted = has(b, s.confidential_balance_spending)
            || has(b, s.confidential_balance_inbox)
            || has(b, s.issuer_encrypted_balance);
        n.no_circulation |= public || encrypted;
    }
    let Some(a) = after else {
        return Ok(());
    };
    let holder = has(a, s.confidential_balance_inbox) || has(a, s.confidential_balance_spending);
    let mirror = has(a, s.issuer_encrypted_balance);
    if holder != mirror {
        return Err(Violation::BadConfidentialMpt);
    }
    n.flag |= holder || mirror;
    if let Some(b) = before {
        let spending = |o: &StObject| {
            o.blob_of(s.confidential_balance_spending)
                .map(<[u8]>::to_vec)
        };
        let version = |o: &StObject| o.u32_of(s.confidential_balance_version);
        let changed = spending(b).is_some() && spending(b) != spending(a);
        if changed && version(b) == version(a) {
            return Err(Violation::BadConfidentialMpt);
        }
    }
    Ok(())
}
