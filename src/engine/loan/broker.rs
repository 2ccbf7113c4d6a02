//! What the LoanBroker transaction types share (rippled's `LendingHelpers` and the
//! LoanBroker transactors, LendingProtocol / XLS-66): the broker named by a transaction,
//! its vault and asset, its pseudo-account (`createPseudoAccount` with `sfLoanBrokerID`),
//! the minimum first-loss cover its debt requires.

use crate::engine::amm::{new_pseudo_root, pseudo_account_address};
use crate::engine::sandbox::Sandbox;
use crate::engine::ter::Ter;
use crate::engine::vault::{
    asset_frozen, asset_of, number_of, read_vault, AssetAmount, VaultAsset,
};
use crate::ledger::flags::lt;
use crate::ledger::keylet;
use crate::ledger::sf::{sf, StExt};
use crate::ledger::view::ReadView;
use crate::protocol::number::{Number, RoundGuard, RoundingMode};
use crate::protocol::st::{StObject, StValue};
use crate::protocol::types::{AccountId, Hash256};

/// `maxManagementFeeRate`: 10%, in 1/10 basis points.
pub const MANAGEMENT_FEE_RATE_MAX: u16 = 10_000;
/// `maxCoverRate`: 100%, in 1/10 basis points.
pub const COVER_RATE_MAX: u32 = 100_000;
/// 1/10 basis points in one whole.
pub const TENTH_BIPS_PER_UNITY: i64 = 100_000;

/// LoanBrokerID, when present and non-zero.
pub fn broker_id(tx: &StObject) -> Option<Hash256> {
    tx.h256_of(sf().loan_broker_id)
        .filter(|h| *h != Hash256::ZERO)
}

/// The LoanBroker entry at `key`, if that key holds one.
pub fn read_broker(view: &dyn ReadView, key: &Hash256) -> Option<StObject> {
    view.read(key)
        .filter(|o| o.u16_of(sf().ledger_entry_type) == Some(lt::LOAN_BROKER))
        .map(|o| (*o).clone())
}

/// A broker and what the cover types read of it: its key, the entry, its vault's asset
/// and its pseudo-account.
pub struct Broker {
    /// The entry's key.
    pub key: Hash256,
    /// The LoanBroker entry.
    pub entry: StObject,
    /// The vault's asset.
    pub asset: VaultAsset,
    /// The broker's pseudo-account.
    pub pseudo: AccountId,
    /// The broker's owner.
    pub owner: AccountId,
}

impl Broker {
    /// The broker the transaction's LoanBrokerID names: `tecNO_ENTRY` when there is
    /// none, `tefBAD_LEDGER` when its vault is missing.
    pub fn named(view: &dyn ReadView, tx: &StObject) -> Result<Broker, Ter> {
        let key = broker_id(tx).ok_or(Ter::tecNO_ENTRY)?;
        Broker::at(view, key)
    }

    /// The broker at `key`.
    pub fn at(view: &dyn ReadView, key: Hash256) -> Result<Broker, Ter> {
        let s = sf();
        let entry = read_broker(view, &key).ok_or(Ter::tecNO_ENTRY)?;
        let vault = entry
            .h256_of(s.vault_id)
            .and_then(|v| read_vault(view, &v))
            .ok_or(Ter::tefBAD_LEDGER)?;
        let asset = asset_of(&vault).ok_or(Ter::tefBAD_LEDGER)?;
        let pseudo = entry.account_of(s.account).ok_or(Ter::tefBAD_LEDGER)?;
        let owner = entry.account_of(s.owner).ok_or(Ter::tefBAD_LEDGER)?;
        Ok(Broker {
            key,
            entry,
            asset,
            pseudo,
            owner,
        })
    }

    /// CoverAvailable.
    pub fn cover(&self) -> Number {
        number_of(&self.entry, sf().cover_available)
    }

    /// The cover its debt requires (`tenthBipsOfValue(DebtTotal, CoverRateMinimum)`,
    /// rounded up as CoverWithdraw rounds it).
    pub fn minimum_cover(&self) -> Number {
        let s = sf();
        let debt = number_of(&self.entry, s.debt_total);
        let rate = self.entry.u32_of(s.cover_rate_minimum).unwrap_or(0);
        let _g = RoundGuard::new(RoundingMode::Upward);
        debt * Number::from_i64(i64::from(rate)) / Number::from_i64(TENTH_BIPS_PER_UNITY)
    }

    /// Writes CoverAvailable moved by `delta`.
    pub fn move_cover(&mut self, sb: &mut Sandbox, delta: Number) {
        let f = sf().cover_available;
        let v = number_of(&self.entry, f) + delta;
        crate::engine::vault::set_number(&mut self.entry, f, v);
        sb.update(self.key, self.entry.clone());
    }
}

/// `createPseudoAccount(view, brokerKey, sfLoanBrokerID)`: a new root, Sequence 0.
pub fn create_pseudo(sb: &mut Sandbox, broker_key: &Hash256) -> Result<AccountId, Ter> {
    let Some(account) = pseudo_account_address(sb, broker_key) else {
        return Err(Ter::terADDRESS_COLLISION);
    };
    let mut root = new_pseudo_root(&account, broker_key);
    root.remove(sf().amm_id);
    root.set(sf().loan_broker_id, StValue::Hash256(*broker_key));
    sb.insert(keylet::account(&account), root);
    Ok(account)
}

/// The transaction's Amount in the broker's asset, or `tecWRONG_ASSET`.
pub fn amount_in(tx: &StObject, asset: &VaultAsset) -> Result<AssetAmount, Ter> {
    crate::engine::vault::amount_field(tx)
        .filter(|a| a.asset() == *asset)
        .ok_or(Ter::tecWRONG_ASSET)
}

/// A positive Amount of any kind (the cover types' `temBAD_AMOUNT` check).
pub fn positive_amount(tx: &StObject) -> bool {
    match tx.get(sf().amount) {
        Some(StValue::Amount(a)) => !a.is_zero() && !a.is_negative(),
        Some(StValue::MptAmount(m)) => m.is_positive(),
        _ => false,
    }
}

/// `checkDeepFrozen`: `tecFROZEN` when `account`'s line of an issued asset is deep
/// frozen, `tecLOCKED` when its MPT is locked.
pub fn deep_frozen(view: &dyn ReadView, account: &AccountId, asset: &VaultAsset) -> Ter {
    match asset {
        VaultAsset::Token(i) if i.is_xrp() => Ter::tesSUCCESS,
        VaultAsset::Token(i) => {
            if crate::engine::funds::deep_frozen(view, account, &i.issuer, &i.currency) {
                Ter::tecFROZEN
            } else {
                Ter::tesSUCCESS
            }
        }
        VaultAsset::Mpt(_) => asset_frozen(view, account, asset),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_minimum_cover_rounds_up() {
        let mut entry = StObject::new();
        let s = sf();
        crate::engine::vault::set_number(&mut entry, s.debt_total, Number::from_i64(1001));
        entry.set(s.cover_rate_minimum, StValue::UInt32(10_000));
        let b = Broker {
            key: Hash256::ZERO,
            entry,
            asset: VaultAsset::Token(crate::protocol::types::Issue::XRP),
            pseudo: AccountId::ZERO,
            owner: AccountId::ZERO,
        };
        // 10% of 1001 is 100.1.
        assert_eq!(b.minimum_cover(), Number::new(1001, -1));
        assert!(b.cover().is_zero());
    }
}
