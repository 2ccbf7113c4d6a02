//! What the LoanBroker transaction types share (rippled's `LendingHelpers` and the
//! LoanBroker transactors, LendingProtocol / XLS-66): the broker named by a transaction,
//! its vault and asset, its pseudo-account (`createPseudoAccount` with `sfLoanBrokerID`),
//! the minimum first-loss cover its debt requires.

use super::loan_math::{is_integral, round_to_asset, tenth_bips_of};
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
    /// Its vault's scale (`getAssetsTotalScale`).
    pub vault_scale: i32,
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
            vault_scale: super::vault_scale(&vault),
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

    /// The minimum cover as LoanBrokerCoverWithdraw rounds it before fixCleanup3_2_0:
    /// up, to the asset at DebtTotal's own scale.
    pub fn minimum_cover_at_debt_scale(&self) -> Number {
        let debt = number_of(&self.entry, sf().debt_total);
        let _g = RoundGuard::new(RoundingMode::Upward);
        round_to_asset(
            &self.asset,
            self.minimum_cover(),
            asset_scale(&self.asset, debt),
            RoundingMode::Upward,
        )
    }

    /// fixCleanup3_2_0's `minimumBrokerCover` of the broker's own DebtTotal.
    pub fn minimum_broker_cover(&self) -> Number {
        let s = sf();
        minimum_broker_cover(
            &self.asset,
            number_of(&self.entry, s.debt_total),
            self.entry.u32_of(s.cover_rate_minimum).unwrap_or(0),
            self.vault_scale,
        )
    }

    /// fixCleanup3_2_0's `canApplyToBrokerCover`: an amount of zero, or one that rounds
    /// to zero at CoverAvailable's scale, would move nothing: `tecPRECISION_LOSS`.
    pub fn cover_applicable(&self, amount: Number) -> Ter {
        let scale = asset_scale(&self.asset, self.cover());
        if amount.is_zero()
            || round_to_asset(&self.asset, amount, scale, RoundingMode::ToNearest).is_zero()
        {
            return Ter::tecPRECISION_LOSS;
        }
        Ter::tesSUCCESS
    }

    /// Writes CoverAvailable moved by `delta`.
    pub fn move_cover(&mut self, sb: &mut Sandbox, delta: Number) {
        let f = sf().cover_available;
        let v = number_of(&self.entry, f) + delta;
        crate::engine::vault::set_number(&mut self.entry, f, v);
        sb.update(self.key, self.entry.clone());
    }
}

/// `minimumBrokerCover` (fixCleanup3_2_0): `CoverRateMinimum` of `debt`, rounded up to
/// the asset at the vault's scale (DebtTotal is kept at that scale, not a loan's).
pub fn minimum_broker_cover(
    asset: &VaultAsset,
    debt: Number,
    rate: u32,
    vault_scale: i32,
) -> Number {
    let _g = RoundGuard::new(RoundingMode::Upward);
    round_to_asset(
        asset,
        tenth_bips_of(debt, rate),
        vault_scale,
        RoundingMode::Upward,
    )
}

/// rippled's `scale(value, asset)`: the exponent `value` takes as an amount of the asset
/// (0 for XRP, MPTs and zero).
pub fn asset_scale(asset: &VaultAsset, value: Number) -> i32 {
    if is_integral(asset) {
        return 0;
    }
    match value.to_iou() {
        Some(v) if !v.is_zero() => v.exponent(),
        _ => 0,
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

    /// rippled's `LendingHelpers_test::testCanApplyToBrokerCover`, on USD.
    #[test]
    fn a_cover_amount_below_the_covers_scale_loses_precision() {
        let usd = crate::protocol::types::Issue {
            currency: crate::protocol::types::Currency::iso(*b"USD"),
            issuer: AccountId([7; 20]),
        };
        let broker = |cover: i64| {
            let mut entry = StObject::new();
            crate::engine::vault::set_number(
                &mut entry,
                sf().cover_available,
                Number::from_i64(cover),
            );
            Broker {
                key: Hash256::ZERO,
                entry,
                asset: VaultAsset::Token(usd),
                pseudo: AccountId::ZERO,
                owner: AccountId::ZERO,
                vault_scale: 0,
            }
        };
        let ten = broker(10);
        assert_eq!(ten.cover_applicable(Number::ZERO), Ter::tecPRECISION_LOSS);
        assert_eq!(
            ten.cover_applicable(Number::new(1, -16)),
            Ter::tecPRECISION_LOSS
        );
        assert_eq!(ten.cover_applicable(Number::new(1, -13)), Ter::tesSUCCESS);
        assert_eq!(
            broker(0).cover_applicable(Number::from_i64(1)),
            Ter::tesSUCCESS
        );
    }

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
            vault_scale: 0,
        };
        // 10% of 1001 is 100.1.
        assert_eq!(b.minimum_cover(), Number::new(1001, -1));
        assert!(b.cover().is_zero());
    }
}
