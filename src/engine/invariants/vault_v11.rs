//! The vault rules LendingProtocolV1_1 adds to rippled's `ValidVault`
//! (`VaultInvariant.cpp`; XLS-65.1.1, 65.1.4 §3.1.3): a vault's identity and terms never
//! change once it exists (present stays equal, absent stays absent), and a closed-ended
//! vault carries both dates, at least `kMinInvestmentPeriod` and under
//! `kMaxInvestmentPeriod` apart. Without the amendment they judge nothing. ledgerd has no
//! other part of `ValidVault`.

use super::Violation;
use crate::engine::sandbox::{Action, Sandbox};
use crate::engine::vault::phase;
use crate::ledger::flags::lt;
use crate::ledger::sf::{sf, StExt};
use crate::protocol::definitions::Field;
use crate::protocol::features::Feature;
use crate::protocol::st::StObject;

/// The Vault fields no transaction may change after VaultCreate.
fn immutable() -> [Field; 12] {
    let s = sf();
    [
        s.sequence,
        s.owner_node,
        s.owner,
        s.withdrawal_policy,
        s.scale,
        s.asset,
        s.account,
        s.share_mpt_id,
        s.le_version,
        s.vault_kind,
        s.subscription_date,
        s.redemption_date,
    ]
}

/// Every Vault the transaction wrote, checked against what it was.
pub fn check(sb: &Sandbox) -> Result<(), Violation> {
    if !sb.info().rules.enabled(Feature::LendingProtocolV1_1) {
        return Ok(());
    }
    for item in sb.items().values() {
        if item.action == Action::Erase
            || item.cur.u16_of(sf().ledger_entry_type) != Some(lt::VAULT)
        {
            continue;
        }
        vault_written(item.orig.as_deref(), &item.cur)?;
    }
    Ok(())
}

/// One vault written: `before` is None when it was created.
fn vault_written(before: Option<&StObject>, after: &StObject) -> Result<(), Violation> {
    if let Some(b) = before {
        if immutable().iter().any(|f| b.get(*f) != after.get(*f)) {
            return Err(Violation::BadVault);
        }
    }
    if phase::kind(after) != phase::CLOSED_ENDED {
        return Ok(());
    }
    let s = sf();
    let (Some(sub), Some(red)) = (
        after.u32_of(s.subscription_date),
        after.u32_of(s.redemption_date),
    ) else {
        return Err(Violation::BadVault);
    };
    let (sub, red) = (u64::from(sub), u64::from(red));
    if red < sub + phase::MIN_INVESTMENT_PERIOD || red >= sub + phase::MAX_INVESTMENT_PERIOD {
        return Err(Violation::BadVault);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::st::StValue;

    fn closed(sub: u32, red: u32) -> StObject {
        let s = sf();
        let mut v = StObject::new();
        v.set(s.ledger_entry_type, StValue::UInt16(lt::VAULT));
        v.set(s.sequence, StValue::UInt32(5));
        v.set(s.le_version, StValue::UInt8(phase::CASH_BASIS));
        v.set(s.vault_kind, StValue::UInt8(phase::CLOSED_ENDED));
        v.set(s.subscription_date, StValue::UInt32(sub));
        v.set(s.redemption_date, StValue::UInt32(red));
        v
    }

    #[test]
    fn a_closed_ended_vault_keeps_both_dates_within_the_gap() {
        assert_eq!(vault_written(None, &closed(1000, 1180)), Ok(()));
        assert_eq!(
            vault_written(None, &closed(1000, 1179)),
            Err(Violation::BadVault)
        );
        let far = 1000 + phase::MAX_INVESTMENT_PERIOD as u32;
        assert_eq!(
            vault_written(None, &closed(1000, far)),
            Err(Violation::BadVault)
        );
        assert_eq!(vault_written(None, &closed(1000, far - 1)), Ok(()));
        let mut v = closed(1000, 2000);
        v.remove(sf().redemption_date);
        assert_eq!(vault_written(None, &v), Err(Violation::BadVault));
    }

    #[test]
    fn a_vaults_terms_never_change() {
        let s = sf();
        let before = closed(1000, 2000);
        let mut after = before.clone();
        after.set(s.data, StValue::Blob(b"new".to_vec()));
        assert_eq!(vault_written(Some(&before), &after), Ok(()));
        for (f, v) in [
            (s.redemption_date, StValue::UInt32(3000)),
            (s.le_version, StValue::UInt8(0)),
            (s.sequence, StValue::UInt32(6)),
            (s.scale, StValue::UInt8(6)),
        ] {
            let mut after = before.clone();
            after.set(f, v);
            assert_eq!(
                vault_written(Some(&before), &after),
                Err(Violation::BadVault)
            );
        }
        let mut gone = before.clone();
        gone.remove(s.le_version);
        assert_eq!(
            vault_written(Some(&before), &gone),
            Err(Violation::BadVault)
        );
    }
}
