//! What the Vault transaction types share (rippled `View.cpp`: `createPseudoAccount`
//! with `sfVaultID`, `addEmptyHolding`, `assetsToSharesDeposit`, `sharesToAssetsDeposit`,
//! `assetsToSharesWithdraw`, `sharesToAssetsWithdraw`): the Vault entry's STNumber
//! fields, its pseudo-account, its share issuance and the share arithmetic, done with
//! rippled's `Number` (`protocol::number`), as the AMM's.

pub mod delta340;
pub mod freeze;
pub mod phase;
pub mod precision;
pub mod vault_clawback;
pub mod vault_create;
pub mod vault_delete;
pub mod vault_deposit;
pub mod vault_math;
pub mod vault_set;
pub mod vault_withdraw;
pub mod withdraw340;

use self::vault_math::Unfit;
use super::amm::{new_pseudo_root, pseudo_account_address};
use super::directory::insert_owned;
use super::entry::{adjust_owner_count, new_entry, with_threading};
use super::ripple::{trust_create, NewLine};
use super::sandbox::Sandbox;
use super::ter::Ter;
use super::transactor::TF_UNIVERSAL_MASK;
use crate::ledger::flags::lsf;
use crate::ledger::flags::{lsf_mpt, lt};
use crate::ledger::keylet;
use crate::ledger::rules::Rules;
use crate::ledger::sf::{sf, StExt};
use crate::ledger::view::ReadView;
use crate::protocol::amount::{Amount, IouValue};
use crate::protocol::definitions::Field;
use crate::protocol::features::Feature;
use crate::protocol::mpt::MptId;
use crate::protocol::mpt::MPT_AMOUNT_MAX;
use crate::protocol::number::{Number, RoundGuard, RoundingMode};
use crate::protocol::st::{StObject, StValue};
use crate::protocol::types::{AccountId, Hash256, Issue};

/// VaultCreate's checkExtraFeatures, which the lending types require too: the shares are
/// an MPT issuance (MPTokensV1), and a `DomainID` needs PermissionedDomains.
pub fn shares_and_domain_allowed(tx: &StObject, rules: &Rules) -> bool {
    rules.enabled(Feature::MPTokensV1)
        && crate::engine::registry::field_allowed(
            tx,
            sf().domain_id,
            rules,
            Feature::PermissionedDomains,
        )
}

/// `vaultStrategyFirstComeFirstServe`, the only withdrawal policy.
pub const STRATEGY_FIRST_COME_FIRST_SERVE: u8 = 1;
/// `vaultDefaultIOUScale`.
pub const DEFAULT_IOU_SCALE: u8 = 6;
/// `vaultMaximumIOUScale`.
pub const MAXIMUM_IOU_SCALE: u8 = 18;
/// lsfVaultPrivate: the Vault entry's flag, the bit of VaultCreate's tfVaultPrivate.
pub const LSF_VAULT_PRIVATE: u32 = 0x0001_0000;
/// `maxDataPayloadLength`.
pub const DATA_LEN_MAX: usize = 256;
/// Most credentials pinned on a vault's pseudo-account one VaultDelete deletes under
/// fixCleanup3_4_0 (rippled `kMaxDeletablePseudoAccountCredentials`, develop; its value is
/// not in the indexed source: 256, as `expiredOfferRemoveLimit`, is ledgerd's choice).
pub const PSEUDO_CREDENTIALS_DELETE_MAX: usize = 256;

/// VaultID, when present and non-zero.
pub fn vault_id(tx: &StObject) -> Option<Hash256> {
    tx.h256_of(sf().vault_id).filter(|h| *h != Hash256::ZERO)
}

/// The vault a deposit or withdrawal names, with its asset and its share issuance:
/// `tecNO_ENTRY` when there is none, `tefINTERNAL` for a vault missing either.
pub fn named_vault(
    view: &dyn ReadView,
    tx: &StObject,
) -> Result<(StObject, VaultAsset, MptId), Ter> {
    let vault = vault_id(tx)
        .and_then(|k| read_vault(view, &k))
        .ok_or(Ter::tecNO_ENTRY)?;
    match (asset_of(&vault), share_id(&vault)) {
        (Some(issue), Some(share)) => Ok((vault, issue, share)),
        _ => Err(Ter::tefINTERNAL),
    }
}

/// The Vault entry at `key`, if that key holds one.
pub fn read_vault(view: &dyn ReadView, key: &Hash256) -> Option<StObject> {
    view.read(key)
        .filter(|o| o.u16_of(sf().ledger_entry_type) == Some(lt::VAULT))
        .map(|o| (*o).clone())
}

/// An STNumber field (absent is zero).
pub fn number_of(o: &StObject, f: Field) -> Number {
    let Some(StValue::Fixed(b)) = o.get(f) else {
        return Number::ZERO;
    };
    let (Some(m), Some(e)) = (b.get(..8), b.get(8..12)) else {
        return Number::ZERO;
    };
    let mantissa = i64::from_be_bytes(m.try_into().unwrap_or([0; 8]));
    let exponent = i32::from_be_bytes(e.try_into().unwrap_or([0; 4]));
    if mantissa == 0 {
        return Number::ZERO;
    }
    Number::new(mantissa, exponent)
}

/// Writes an STNumber field (in rippled 3.x's serialized form).
pub fn set_number(o: &mut StObject, f: Field, v: Number) {
    let (m, e) = v.to_st_parts();
    let mut b = m.to_be_bytes().to_vec();
    b.extend_from_slice(&e.to_be_bytes());
    o.set(f, StValue::Fixed(b));
}

/// True when the STNumber field `f` of `tx` is present and below zero.
pub fn is_negative_number(tx: &StObject, f: Field) -> bool {
    tx.get(f).is_some() && number_of(tx, f).signum() < 0
}

/// A vault's asset: XRP or an issued currency, or an MPT issuance (an STIssue).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum VaultAsset {
    /// XRP or an issued currency.
    Token(Issue),
    /// An MPT issuance.
    Mpt(MptId),
}

impl VaultAsset {
    /// True for XRP.
    pub fn is_xrp(&self) -> bool {
        matches!(self, VaultAsset::Token(i) if i.is_xrp())
    }

    /// The issuer (none for XRP).
    pub fn issuer(&self) -> Option<AccountId> {
        match self {
            VaultAsset::Token(i) if i.is_xrp() => None,
            VaultAsset::Token(i) => Some(i.issuer),
            VaultAsset::Mpt(id) => Some(id.issuer()),
        }
    }

    /// The field value that names it.
    pub fn to_value(self) -> StValue {
        match self {
            VaultAsset::Token(i) => StValue::Issue(i),
            VaultAsset::Mpt(id) => StValue::MptIssue(id),
        }
    }
}

/// An amount of a vault's asset.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum AssetAmount {
    /// XRP or an issued currency.
    Token(Amount),
    /// Units of an MPT issuance.
    Mpt(MptId, u64),
}

impl AssetAmount {
    /// The asset it is an amount of.
    pub fn asset(&self) -> VaultAsset {
        match self {
            AssetAmount::Token(a) => VaultAsset::Token(a.issue()),
            AssetAmount::Mpt(id, _) => VaultAsset::Mpt(*id),
        }
    }

    /// As a Number (drops for XRP, units for an MPT).
    pub fn number(&self) -> Number {
        match self {
            AssetAmount::Token(a) => a.to_number(),
            AssetAmount::Mpt(_, v) => Number::from_i64(i64::try_from(*v).unwrap_or(i64::MAX)),
        }
    }

    /// True when zero.
    pub fn is_zero(&self) -> bool {
        match self {
            AssetAmount::Token(a) => a.is_zero(),
            AssetAmount::Mpt(_, v) => *v == 0,
        }
    }
}

/// The asset an `Asset` field names.
pub fn asset_field(o: &StObject) -> Option<VaultAsset> {
    match o.get(sf().asset)? {
        StValue::Issue(i) => Some(VaultAsset::Token(*i)),
        StValue::MptIssue(id) => Some(VaultAsset::Mpt(*id)),
        _ => None,
    }
}

/// The vault's asset.
pub fn asset_of(vault: &StObject) -> Option<VaultAsset> {
    asset_field(vault)
}

/// A transaction's `Amount`, XRP, issued or MPT (a negative MPT amount is `None`).
pub fn amount_field(tx: &StObject) -> Option<AssetAmount> {
    match tx.get(sf().amount)? {
        StValue::Amount(a) => Some(AssetAmount::Token(*a)),
        StValue::MptAmount(m) if !m.negative => Some(AssetAmount::Mpt(m.id, m.value)),
        _ => None,
    }
}

/// A Number in `asset`'s units, rounded to nearest as an STAmount assignment does.
pub fn to_asset(asset: &VaultAsset, v: Number) -> Option<AssetAmount> {
    let whole = || {
        let _g = RoundGuard::new(RoundingMode::ToNearest);
        v.to_i64()
    };
    match asset {
        VaultAsset::Token(i) if i.is_xrp() => whole().map(|d| AssetAmount::Token(Amount::Xrp(d))),
        VaultAsset::Token(i) => {
            let value: IouValue = v.to_iou()?;
            Some(AssetAmount::Token(Amount::iou(value, i.currency, i.issuer)))
        }
        VaultAsset::Mpt(id) => {
            let units = u64::try_from(whole()?).ok()?;
            Some(AssetAmount::Mpt(*id, units))
        }
    }
}

/// `accountSend` with `WaiveTransferFee::Yes` for any vault asset.
pub fn send_asset(sb: &mut Sandbox, from: &AccountId, to: &AccountId, a: &AssetAmount) -> Ter {
    match a {
        AssetAmount::Token(amount) => Ter::from(super::funds::account_send(sb, from, to, amount)),
        AssetAmount::Mpt(id, v) => super::mpt::send_waived(sb, id, from, to, *v),
    }
}

/// `accountHolds` with the asset frozen or locked counting as nothing, as a Number.
pub fn asset_held(view: &dyn ReadView, account: &AccountId, asset: &VaultAsset) -> Number {
    match asset {
        VaultAsset::Token(i) => super::funds::account_holds(view, account, i, true).to_number(),
        VaultAsset::Mpt(id) => {
            let units = super::mpt::holds(view, account, id, true);
            Number::from_i64(i64::try_from(units).unwrap_or(i64::MAX))
        }
    }
}

/// `checkFrozen` / `isFrozen` of the asset for `account`: `tecFROZEN` for an issued
/// currency, `tecLOCKED` for an MPT, success for XRP or when nothing is frozen.
pub fn asset_frozen(view: &dyn ReadView, account: &AccountId, asset: &VaultAsset) -> Ter {
    match asset {
        VaultAsset::Token(i) if i.is_xrp() => Ter::tesSUCCESS,
        VaultAsset::Token(i) => {
            if super::funds::frozen_issue(view, account, i)
                || super::funds::is_global_frozen(view, &i.issuer)
            {
                Ter::tecFROZEN
            } else {
                Ter::tesSUCCESS
            }
        }
        VaultAsset::Mpt(id) => {
            if super::mpt::is_any_locked(view, id, &[*account]) {
                Ter::tecLOCKED
            } else {
                Ter::tesSUCCESS
            }
        }
    }
}

/// `requireAuth` for the asset; `strong` unless the account withdraws to itself.
pub fn asset_require_auth(
    view: &dyn ReadView,
    asset: &VaultAsset,
    account: &AccountId,
    strong: bool,
) -> Ter {
    match asset {
        VaultAsset::Token(i) => super::funds::require_auth(view, i, account),
        VaultAsset::Mpt(id) => Ter::from(super::mpt::require_auth_as(view, id, account, strong)),
    }
}

/// `canTransfer` for an MPT asset: the issuance exists (`tecOBJECT_NOT_FOUND`) and, unless
/// one side is its issuer, allows transfers (`tecNO_AUTH`).
pub fn asset_can_transfer(
    view: &dyn ReadView,
    asset: &VaultAsset,
    from: &AccountId,
    to: &AccountId,
) -> Ter {
    match asset {
        VaultAsset::Token(_) => Ter::tesSUCCESS,
        VaultAsset::Mpt(id) => super::mpt::can_transfer(view, id, from, to),
    }
}

/// What the vault's share math reads.
pub struct Totals {
    /// AssetsTotal.
    pub assets: Number,
    /// LossUnrealized.
    pub loss: Number,
    /// The share issuance's OutstandingAmount.
    pub shares: Number,
    /// Scale.
    pub scale: i32,
}

impl Totals {
    /// The totals of `vault` and its share issuance `issuance`.
    pub fn of(vault: &StObject, issuance: &StObject) -> Totals {
        let s = sf();
        let out = issuance.u64_of(s.outstanding_amount).unwrap_or(0);
        Totals {
            assets: number_of(vault, s.assets_total),
            loss: number_of(vault, s.loss_unrealized),
            shares: Number::from_i64(i64::try_from(out).unwrap_or(i64::MAX)),
            scale: i32::from(vault.u8_of(s.scale).unwrap_or(0)),
        }
    }

    /// `assetsToSharesDeposit`: shares for `assets`, truncated (where rippled would
    /// throw assigning them, why: see [`vault_math`]).
    pub fn shares_for_deposit(&self, assets: Number) -> Result<u64, Unfit> {
        if self.assets.is_zero() {
            let n = Number::new(assets.mantissa(), assets.exponent() + self.scale);
            return vault_math::shares(n, true);
        }
        vault_math::shares(self.shares * (assets / self.assets), true)
    }

    /// `sharesToAssetsDeposit`: the assets `shares` cost.
    pub fn assets_for_deposit(&self, shares: u64) -> Number {
        let n = Number::from_i64(i64::try_from(shares).unwrap_or(i64::MAX));
        if self.assets.is_zero() {
            return Number::new(n.mantissa(), n.exponent() - self.scale);
        }
        self.assets * (n / self.shares)
    }

    /// `assetsToSharesWithdraw` (untruncated, as rippled's default), as a Number.
    pub fn shares_for_withdraw(&self, assets: Number) -> Number {
        let total = self.assets - self.loss;
        if total.is_zero() {
            return Number::ZERO;
        }
        self.shares * (assets / total)
    }

    /// `sharesToAssetsWithdraw`: the assets `shares` redeem.
    pub fn assets_for_withdraw(&self, shares: u64) -> Number {
        let total = self.assets - self.loss;
        if total.is_zero() || self.shares.is_zero() {
            return Number::ZERO;
        }
        let n = Number::from_i64(i64::try_from(shares).unwrap_or(i64::MAX));
        total * (n / self.shares)
    }
}

/// True when `root` is a vault's pseudo-account.
pub fn is_vault_pseudo(root: &StObject) -> bool {
    root.h256_of(sf().vault_id).is_some()
}

/// True when `account` is any pseudo-account (`isPseudoAccount`: an AMM's or a vault's).
pub fn is_pseudo_account(view: &dyn ReadView, account: &AccountId) -> bool {
    view.read(&keylet::account(account)).is_some_and(|r| {
        super::amm::is_pseudo(&r) || is_vault_pseudo(&r) || r.h256_of(sf().loan_broker_id).is_some()
    })
}

/// `createPseudoAccount(view, vaultKey, sfVaultID)`: a new root, Sequence 0.
pub fn create_pseudo(sb: &mut Sandbox, vault_key: &Hash256) -> Result<AccountId, Ter> {
    let Some(account) = pseudo_account_address(sb, vault_key) else {
        return Err(Ter::terADDRESS_COLLISION);
    };
    let mut root = new_pseudo_root(&account, vault_key);
    root.remove(sf().amm_id);
    root.set(sf().vault_id, StValue::Hash256(*vault_key));
    sb.insert(keylet::account(&account), root);
    Ok(account)
}

/// `addEmptyHolding` for the pseudo-account: nothing for XRP, an empty MPToken for an MPT
/// (the issuance must exist and not be locked), a zero line for an issued currency.
pub fn add_empty_holding(sb: &mut Sandbox, holder: &AccountId, asset: &VaultAsset) -> Ter {
    match asset {
        VaultAsset::Token(issue) => add_empty_line(sb, holder, issue),
        VaultAsset::Mpt(id) => {
            let locked = super::mpt::issuance(sb, id).map(|i| i.is_flag(lsf_mpt::LOCKED));
            match locked {
                None | Some(true) => Ter::tefINTERNAL,
                Some(false) if sb.exists(&keylet::mptoken(id, holder)) => Ter::tecDUPLICATE,
                Some(false) if id.issuer() == *holder => Ter::tesSUCCESS,
                Some(false) => add_share_token(sb, id, holder, 0),
            }
        }
    }
}

/// `addEmptyHolding` for an account that pays its own reserve out of `prior` drops (a
/// borrower, a broker's owner): an MPToken past its first two owned entries, or a trust
/// line (`tecNO_LINE_INSUF_RESERVE`), must fit in it.
pub fn add_holding_for(
    sb: &mut Sandbox,
    holder: &AccountId,
    asset: &VaultAsset,
    prior: i64,
) -> Ter {
    match asset {
        VaultAsset::Token(issue) if !issue.is_xrp() && *holder != issue.issuer => {
            if sb
                .peek(&keylet::line(holder, &issue.issuer, &issue.currency))
                .is_some()
            {
                return Ter::tecDUPLICATE;
            }
            let fees = sb.info().fees;
            let reserve = sb
                .peek(&keylet::account(holder))
                .map_or(fees.account_reserve(1), |r| fees.reserve_of(&r, 1, 0));
            if prior < reserve {
                return Ter::tecNO_LINE_INSUF_RESERVE;
            }
            add_empty_line(sb, holder, issue)
        }
        VaultAsset::Mpt(id)
            if id.issuer() != *holder && !sb.exists(&keylet::mptoken(id, holder)) =>
        {
            match super::mpt::issuance(sb, id).map(|i| i.is_flag(lsf_mpt::LOCKED)) {
                None | Some(true) => Ter::tefINTERNAL,
                Some(false) => add_share_token(sb, id, holder, prior),
            }
        }
        _ => add_empty_holding(sb, holder, asset),
    }
}

/// `addEmptyHolding` for an issued currency: a zero line from the pseudo-account to the
/// issuer, whose reserve the pseudo-account "pays", with NoRipple set on the holder's side
/// as rippled sets it (`bNoRipple = true`). For a holder with DefaultRipple (every
/// pseudo-account) that side is then not in its default state, so emptying the line does
/// not delete it: the vault's line lives until VaultDelete.
fn add_empty_line(sb: &mut Sandbox, holder: &AccountId, issue: &Issue) -> Ter {
    if issue.is_xrp() || *holder == issue.issuer {
        return Ter::tesSUCCESS;
    }
    if sb
        .peek(&keylet::line(holder, &issue.issuer, &issue.currency))
        .is_some()
    {
        return Ter::tecDUPLICATE;
    }
    trust_create(
        sb,
        &NewLine {
            setter: *holder,
            peer: issue.issuer,
            currency: issue.currency,
            limit: IouValue::ZERO,
            auth: false,
            no_ripple: true,
            freeze: false,
            deep_freeze: false,
            quality_in: 0,
            quality_out: 0,
        },
    )
}

/// `MPTokenIssuanceCreate::create` for the shares: sequence 1, owned by the pseudo, its
/// `ReferenceHolding`, when given, naming the pseudo-account's holding of the asset
/// (rippled 3.2 under fixCleanup3_2_0).
pub fn create_share_issuance(
    sb: &mut Sandbox,
    pseudo: &AccountId,
    (flags, scale): (u32, u8),
    holding: Option<Hash256>,
    tx: &StObject,
) -> Result<MptId, Ter> {
    let s = sf();
    let id = MptId::new(1, pseudo);
    let key = keylet::mpt_issuance(&id);
    let Some(page) = insert_owned(sb, pseudo, key) else {
        return Err(Ter::tecDIR_FULL);
    };
    let mut iss = with_threading(new_entry(lt::MPTOKEN_ISSUANCE));
    iss.set(s.flags, StValue::UInt32(flags));
    iss.set(s.issuer, StValue::AccountId(*pseudo));
    iss.set(s.outstanding_amount, StValue::UInt64(0));
    iss.set(s.owner_node, StValue::UInt64(page));
    iss.set(s.sequence, StValue::UInt32(1));
    if scale != 0 {
        iss.set(s.asset_scale, StValue::UInt8(scale));
    }
    for f in [s.mptoken_metadata] {
        if let Some(v) = tx.blob_of(f) {
            iss.set(f, StValue::Blob(v.to_vec()));
        }
    }
    if let Some(d) = tx.h256_of(s.domain_id) {
        iss.set(s.domain_id, StValue::Hash256(d));
    }
    if let Some(h) = holding {
        iss.set(s.reference_holding, StValue::Hash256(h));
    }
    sb.insert(key, iss);
    adjust_owner_count(sb, pseudo, 1);
    Ok(id)
}

/// `authorizeMPToken` for a holder without one: a new MPToken, with the reserve check
/// MPTokenAuthorize makes (free for the first two owned entries).
pub fn add_share_token(sb: &mut Sandbox, id: &MptId, holder: &AccountId, prior: i64) -> Ter {
    let s = sf();
    let key = keylet::mptoken(id, holder);
    if sb.exists(&key) {
        return Ter::tesSUCCESS;
    }
    let Some(root) = sb.peek(&keylet::account(holder)) else {
        return Ter::tecINTERNAL;
    };
    let owners = root.u32_of(s.owner_count).unwrap_or(0);
    if owners >= 2 && prior < sb.info().fees.reserve_of(&root, 1, 0) {
        return Ter::tecINSUFFICIENT_RESERVE;
    }
    insert_mptoken(sb, id, holder)
}

/// A new, empty MPToken of `id` for `holder`, in its directory and counted (the reserve
/// is the caller's to check).
pub fn insert_mptoken(sb: &mut Sandbox, id: &MptId, holder: &AccountId) -> Ter {
    let s = sf();
    let key = keylet::mptoken(id, holder);
    let Some(page) = insert_owned(sb, holder, key) else {
        return Ter::tecDIR_FULL;
    };
    let mut token = with_threading(new_entry(lt::MPTOKEN));
    token.set(s.account, StValue::AccountId(*holder));
    token.set(s.mpt_issuance_id, StValue::Fixed(id.0.to_vec()));
    token.set(s.owner_node, StValue::UInt64(page));
    sb.insert(key, token);
    adjust_owner_count(sb, holder, 1);
    Ter::tesSUCCESS
}

/// Removes `holder`'s empty MPToken of `id` (`removeEmptyHolding`); a token still holding
/// shares (or, under fixCleanup3_1_3, an amount locked in escrow) stays
/// (`tecHAS_OBLIGATIONS`).
pub fn remove_share_token(sb: &mut Sandbox, id: &MptId, holder: &AccountId) -> Ter {
    let s = sf();
    let key = keylet::mptoken(id, holder);
    let Some(token) = sb.peek(&key) else {
        return Ter::tesSUCCESS;
    };
    // fixCleanup3_1_3 (`MPTokenEntry::hasObligations`): an amount locked in escrow is
    // held too; before it only MPTAmount counted.
    let locked = sb.info().rules.enabled(Feature::FixCleanup3_1_3)
        && token.u64_of(s.locked_amount).unwrap_or(0) != 0;
    if token.u64_of(s.mpt_amount).unwrap_or(0) != 0 || locked {
        return Ter::tecHAS_OBLIGATIONS;
    }
    let page = token.u64_of(s.owner_node).unwrap_or(0);
    if !super::directory::remove_owned(sb, holder, page, &key, false) {
        return Ter::tefBAD_LEDGER;
    }
    sb.erase(key);
    // A holding a sponsor carries gives the sponsor its count back.
    super::entry::release(sb, holder, &token, 1);
    Ter::tesSUCCESS
}

/// The key of `holder`'s holding of `asset`: its MPToken or its trust line (none for XRP).
pub fn holding_key(holder: &AccountId, asset: &VaultAsset) -> Option<Hash256> {
    match asset {
        VaultAsset::Token(i) if i.is_xrp() => None,
        VaultAsset::Token(i) => Some(keylet::line(holder, &i.issuer, &i.currency)),
        VaultAsset::Mpt(id) => Some(keylet::mptoken(id, holder)),
    }
}

/// `removeEmptyHolding` of an MPT for `holder`: the MPToken must exist (unless `holder`
/// issues it: `tecOBJECT_NOT_FOUND`) and be empty (`tecHAS_OBLIGATIONS`).
pub fn remove_mpt_holding(sb: &mut Sandbox, holder: &AccountId, id: &MptId) -> Ter {
    if !sb.exists(&keylet::mptoken(id, holder)) {
        if id.issuer() == *holder {
            return Ter::tesSUCCESS;
        }
        return Ter::tecOBJECT_NOT_FOUND;
    }
    remove_share_token(sb, id, holder)
}

/// The vault's share issuance id.
pub fn share_id(vault: &StObject) -> Option<MptId> {
    vault.mpt_id_of(sf().share_mpt_id)
}

/// What `holder` holds of the shares (zero without a token).
pub fn shares_held(view: &dyn ReadView, id: &MptId, holder: &AccountId) -> u64 {
    super::mpt::holds(view, holder, id, true)
}

/// `credentials::validDomain`: `subject` holds an accepted credential the domain
/// accepts (`tecEXPIRED` when the only ones it holds have expired).
pub fn valid_domain(view: &dyn ReadView, domain: &Hash256, subject: &AccountId) -> Ter {
    use super::credential::{array_of, credential_at, expired, pairs};
    use crate::ledger::flags::lsf_credential;
    let Some(d) = view
        .read(domain)
        .filter(|o| o.u16_of(sf().ledger_entry_type) == Some(lt::PERMISSIONED_DOMAIN))
    else {
        return Ter::tecOBJECT_NOT_FOUND;
    };
    let mut found_expired = false;
    for (issuer, ctype) in pairs(array_of(&d, sf().accepted_credentials).unwrap_or_default()) {
        let key = keylet::credential(subject, &issuer, &ctype);
        let Some(c) = credential_at(view, &key) else {
            continue;
        };
        if !c.is_flag(lsf_credential::ACCEPTED) {
            continue;
        }
        if expired(view, &c) {
            found_expired = true;
        } else {
            return Ter::tesSUCCESS;
        }
    }
    if found_expired {
        Ter::tecEXPIRED
    } else {
        Ter::tecNO_AUTH
    }
}

/// `canAddHolding`: an issued currency's issuer exists (`terNO_ACCOUNT`) and ripples
/// (`terNO_RIPPLE`); an MPT issuance exists (`tecOBJECT_NOT_FOUND`) and may be
/// transferred (`tecNO_AUTH`).
pub fn can_add_holding(view: &dyn ReadView, asset: &VaultAsset) -> Ter {
    match asset {
        VaultAsset::Token(i) if i.is_xrp() => Ter::tesSUCCESS,
        VaultAsset::Token(i) => match view.read(&keylet::account(&i.issuer)) {
            None => Ter::terNO_ACCOUNT,
            Some(r) if !r.is_flag(lsf::DEFAULT_RIPPLE) => Ter::terNO_RIPPLE,
            Some(_) => Ter::tesSUCCESS,
        },
        VaultAsset::Mpt(id) => match crate::engine::mpt::issuance(view, id) {
            None => Ter::tecOBJECT_NOT_FOUND,
            Some(i) if !i.is_flag(lsf_mpt::CAN_TRANSFER) => Ter::tecNO_AUTH,
            Some(_) => Ter::tesSUCCESS,
        },
    }
}

/// A third-party destination: it exists, needs no tag, and lets the holder deposit.
pub fn destination_ok(view: &dyn ReadView, dst: &AccountId, account: &AccountId) -> Ter {
    let Some(root) = view.read(&keylet::account(dst)) else {
        return Ter::tecNO_DST;
    };
    if root.is_flag(lsf::REQUIRE_DEST_TAG) {
        return Ter::tecDST_TAG_NEEDED;
    }
    if root.is_flag(lsf::DEPOSIT_AUTH)
        && view.read(&keylet::deposit_preauth(dst, account)).is_none()
    {
        return Ter::tecNO_PERMISSION;
    }
    Ter::tesSUCCESS
}

/// `removeEmptyHolding` for the pseudo-account's line or MPToken (none for XRP).
pub fn remove_line(sb: &mut Sandbox, pseudo: &AccountId, asset: &VaultAsset) -> Result<(), Ter> {
    let issue = match asset {
        VaultAsset::Mpt(id) => return remove_mpt_holding(sb, pseudo, id).into_result(),
        VaultAsset::Token(i) if i.is_xrp() => return Ok(()),
        VaultAsset::Token(i) => i,
    };
    let key = keylet::line(pseudo, &issue.issuer, &issue.currency);
    let Some(line) = sb.peek(&key) else {
        return Ok(());
    };
    if !crate::engine::ripple::balance_for(&line, pseudo, &issue.issuer).is_zero() {
        return Err(Ter::tecHAS_OBLIGATIONS);
    }
    crate::engine::ripple::trust_delete(sb, &key, &line).into_result()?;
    adjust_owner_count(sb, pseudo, -1);
    Ok(())
}

/// The preflight VaultDeposit and VaultWithdraw share: no flag, a VaultID, a positive
/// Amount.
pub fn preflight_amount(tx: &StObject) -> Ter {
    if tx.flags() & TF_UNIVERSAL_MASK != 0 {
        return Ter::temINVALID_FLAG;
    }
    if vault_id(tx).is_none() {
        return Ter::temMALFORMED;
    }
    // An MPT value past 2^63 - 1 (only a binary blob carries one) is refused as Payment,
    // Clawback and EscrowCreate refuse it; rippled reads it through an i64 as negative.
    let positive = match tx.get(sf().amount) {
        Some(StValue::Amount(a)) => !a.is_zero() && !a.is_negative(),
        Some(StValue::MptAmount(m)) => m.is_positive() && m.value <= MPT_AMOUNT_MAX,
        _ => false,
    };
    if !positive {
        return Ter::temBAD_AMOUNT;
    }
    Ter::tesSUCCESS
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn first_deposit_scales_by_ten_to_the_scale() {
        let t = Totals {
            assets: Number::ZERO,
            loss: Number::ZERO,
            shares: Number::ZERO,
            scale: 6,
        };
        let hundred = Number::from_iou(&IouValue::parse("100").unwrap_or(IouValue::ZERO));
        assert_eq!(t.shares_for_deposit(hundred), Ok(100_000_000));
        let back = t.assets_for_deposit(100_000_000);
        assert_eq!(back, Number::from_i64(100));
    }

    #[test]
    fn later_deposits_are_pro_rata_and_truncated() {
        let t = Totals {
            assets: Number::from_i64(300),
            loss: Number::ZERO,
            shares: Number::from_i64(100),
            scale: 0,
        };
        assert_eq!(t.shares_for_deposit(Number::from_i64(100)), Ok(33));
        assert_eq!(t.assets_for_withdraw(50), Number::from_i64(150));
    }

    #[test]
    fn numbers_round_trip_through_their_twelve_bytes() {
        let mut o = StObject::new();
        let f = sf().assets_total;
        set_number(&mut o, f, Number::new(-15, -1));
        assert_eq!(number_of(&o, f), Number::new(-15, -1));
        set_number(&mut o, f, Number::ZERO);
        assert!(number_of(&o, f).is_zero());
    }
}
