//! Payment (rippled `Payment.cpp`): XRP payments and account creation directly; anything
//! with an issued currency, SendMax or Paths through the payment engine (`flow`), which
//! ripples along trust lines and takes order book offers and AMM pools.

use super::greater;
use super::{PAYMENT_PATHS_MAX, PAYMENT_PATH_STEPS_MAX};
use crate::engine::credential;
use crate::engine::dex::permissioned_dex::account_in_domain;
use crate::engine::entry::{
    balance_drops, credit_drops, new_account_root, set_flags, sponsor_accounts,
};
use crate::engine::flow::{flow, Crossing, FlowRequest};
use crate::engine::mpt;
use crate::engine::registry::field_allowed;
use crate::engine::sponsor::TF_SPONSOR_CREATED_ACCOUNT;
use crate::engine::ter::Ter;
use crate::engine::transactor::{ApplyContext, TF_UNIVERSAL_MASK};
use crate::ledger::flags::lsf;
use crate::ledger::keylet;
use crate::ledger::rules::Rules;
use crate::ledger::sf::{sf, StExt};
use crate::ledger::view::ReadView;
use crate::protocol::amount::{Amount, DROPS_MAX};
use crate::protocol::features::Feature;
use crate::protocol::mpt::{MptAmount, MPT_AMOUNT_MAX};
use crate::protocol::st::{StObject, StValue};
use crate::protocol::types::{AccountId, Currency};

/// Payment flags.
pub mod tf {
    /// Do not use the default path.
    pub const NO_RIPPLE_DIRECT: u32 = 0x0001_0000;
    /// Deliver what can be delivered.
    pub const PARTIAL_PAYMENT: u32 = 0x0002_0000;
    /// Limit the quality of paths.
    pub const LIMIT_QUALITY: u32 = 0x0004_0000;
    /// Bits a Payment may not set.
    pub const MASK: u32 =
        super::TF_UNIVERSAL_MASK & !(NO_RIPPLE_DIRECT | PARTIAL_PAYMENT | LIMIT_QUALITY);
}

fn legal(a: &Amount) -> bool {
    match a {
        Amount::Xrp(d) => d.unsigned_abs() <= DROPS_MAX,
        Amount::Iou { .. } => true,
    }
}

/// The most the sender may spend: SendMax, or Amount (re-issued by the sender for IOUs).
fn max_source(tx: &StObject, account: &AccountId, amount: &Amount) -> Amount {
    if let Some(m) = tx.amount_of(sf().send_max) {
        return m;
    }
    match amount {
        Amount::Xrp(_) => *amount,
        Amount::Iou {
            value, currency, ..
        } => Amount::iou(*value, *currency, *account),
    }
}

fn currency_of(a: &Amount) -> Currency {
    a.issue().currency
}

fn positive(a: &Amount) -> bool {
    !a.is_zero() && !a.is_negative()
}

/// checkExtraFeatures: `CredentialIDs` needs Credentials, `DomainID` PermissionedDEX.
pub fn extra_features(tx: &StObject, rules: &Rules) -> bool {
    credential::ids_allowed(tx, rules)
        && field_allowed(tx, sf().domain_id, rules, Feature::PermissionedDEX)
}

/// preflight: the amounts, then the credentials presented.
pub fn preflight(tx: &StObject, account: &AccountId) -> Result<(), Ter> {
    preflight_amounts(tx, account).into_result()?;
    credential::check_ids(tx).into_result()
}

fn preflight_amounts(tx: &StObject, account: &AccountId) -> Ter {
    let s = sf();
    if let Err(t) = preflight_sponsor_created(tx) {
        return t;
    }
    if let Some(amount) = tx.mpt_amount_of(s.amount) {
        return mpt_preflight(tx, account, &amount);
    }
    if tx.mpt_amount_of(s.send_max).is_some() {
        return Ter::temMALFORMED;
    }
    if tx.mpt_amount_of(s.deliver_min).is_some() {
        return Ter::temBAD_AMOUNT;
    }
    let flags = tx.flags();
    if flags & tf::MASK & !TF_SPONSOR_CREATED_ACCOUNT != 0 {
        return Ter::temINVALID_FLAG;
    }
    let partial = flags & tf::PARTIAL_PAYMENT != 0;
    let Some(amount) = tx.amount_of(s.amount) else {
        return Ter::temMALFORMED;
    };
    let has_paths = tx.get(s.paths).is_some();
    let has_max = tx.get(s.send_max).is_some();
    let max = max_source(tx, account, &amount);
    let xrp_direct = max.is_xrp() && amount.is_xrp();
    if !legal(&amount) || !legal(&max) {
        return Ter::temBAD_AMOUNT;
    }
    match tx.account_of(s.destination) {
        Some(d) if d != AccountId::ZERO => {
            if has_max && !positive(&max) {
                return Ter::temBAD_AMOUNT;
            }
            if !positive(&amount) {
                return Ter::temBAD_AMOUNT;
            }
            if currency_of(&max).is_bad() || currency_of(&amount).is_bad() {
                return Ter::temBAD_CURRENCY;
            }
            if d == *account && currency_of(&max) == currency_of(&amount) && !has_paths {
                return Ter::temREDUNDANT;
            }
        }
        _ => return Ter::temDST_NEEDED,
    }
    if xrp_direct {
        if has_max {
            return Ter::temBAD_SEND_XRP_MAX;
        }
        if has_paths {
            return Ter::temBAD_SEND_XRP_PATHS;
        }
        if partial {
            return Ter::temBAD_SEND_XRP_PARTIAL;
        }
        if flags & tf::LIMIT_QUALITY != 0 {
            return Ter::temBAD_SEND_XRP_LIMIT;
        }
        if flags & tf::NO_RIPPLE_DIRECT != 0 {
            return Ter::temBAD_SEND_XRP_NO_DIRECT;
        }
    }
    if let Some(min) = tx.amount_of(s.deliver_min) {
        if !partial || !legal(&min) || !positive(&min) || min.issue() != amount.issue() {
            return Ter::temBAD_AMOUNT;
        }
        if greater(&min, &amount) {
            return Ter::temBAD_AMOUNT;
        }
    }
    Ter::tesSUCCESS
}

/// `tfSponsorCreatedAccount` (XLS-68): the sender sponsors the account the payment creates.
/// Needs the Sponsor amendment, a plain XRP payment: no tfNoRippleDirect,
/// tfPartialPayment or tfLimitQuality (temINVALID_FLAG), an XRP Amount (temBAD_AMOUNT),
/// neither SendMax nor Paths (temINVALID).
fn preflight_sponsor_created(tx: &StObject) -> Result<(), Ter> {
    let s = sf();
    let flags = tx.flags();
    if flags & TF_SPONSOR_CREATED_ACCOUNT == 0 {
        return Ok(());
    }
    if !crate::ledger::rules::enabled_now(Feature::Sponsor) {
        return Err(Ter::temDISABLED);
    }
    if flags & (tf::NO_RIPPLE_DIRECT | tf::PARTIAL_PAYMENT | tf::LIMIT_QUALITY) != 0 {
        return Err(Ter::temINVALID_FLAG);
    }
    if !tx.amount_of(s.amount).is_some_and(|a| a.is_xrp()) {
        return Err(Ter::temBAD_AMOUNT);
    }
    if tx.get(s.send_max).is_some() || tx.get(s.paths).is_some() {
        return Err(Ter::temINVALID);
    }
    Ok(())
}

/// preclaim: the destination and paths, then the credentials presented.
pub fn preclaim(view: &dyn ReadView, tx: &StObject, account: &AccountId) -> Result<(), Ter> {
    preclaim_destination(view, tx).into_result()?;
    credential::valid_ids(view, tx, account).into_result()?;
    preclaim_domain(view, tx, account).into_result()
}

/// A permissioned DEX payment: the sender and the destination are both members of the
/// domain (rippled `Payment::preclaim`), else tecNO_PERMISSION.
fn preclaim_domain(view: &dyn ReadView, tx: &StObject, account: &AccountId) -> Ter {
    let s = sf();
    let Some(domain) = tx.h256_of(s.domain_id) else {
        return Ter::tesSUCCESS;
    };
    let dst = tx.account_of(s.destination).unwrap_or_default();
    if !account_in_domain(view, account, &domain) || !account_in_domain(view, &dst, &domain) {
        return Ter::tecNO_PERMISSION;
    }
    Ter::tesSUCCESS
}

fn preclaim_destination(view: &dyn ReadView, tx: &StObject) -> Ter {
    let s = sf();
    let flags = tx.flags();
    if tx.mpt_amount_of(s.amount).is_some() {
        return mpt_preclaim(view, tx);
    }
    let (Some(dst), Some(amount)) = (tx.account_of(s.destination), tx.amount_of(s.amount)) else {
        return Ter::temMALFORMED;
    };
    let sponsor_created = flags & TF_SPONSOR_CREATED_ACCOUNT != 0;
    match view.read(&keylet::account(&dst)) {
        // The sponsored account must be new; a sponsor carries its reserve, so any amount
        // creates it.
        Some(_) if sponsor_created => return Ter::tecNO_SPONSOR_PERMISSION,
        None if sponsor_created => {}
        None => {
            if !amount.is_xrp() {
                return Ter::tecNO_DST;
            }
            if view.info().open && flags & tf::PARTIAL_PAYMENT != 0 {
                return Ter::telNO_DST_PARTIAL;
            }
            if amount.as_drops().unwrap_or(0) < view.info().fees.account_reserve(0) {
                return Ter::tecNO_DST_INSUF_XRP;
            }
        }
        Some(root) => {
            if root.is_flag(lsf::REQUIRE_DEST_TAG) && tx.u32_of(s.destination_tag).is_none() {
                return Ter::tecDST_TAG_NEEDED;
            }
        }
    }
    let rippling = tx.get(s.paths).is_some() || tx.get(s.send_max).is_some() || !amount.is_xrp();
    if rippling && view.info().open {
        if let Some(StValue::PathSet(paths)) = tx.get(s.paths) {
            if paths.len() > PAYMENT_PATHS_MAX
                || paths.iter().any(|p| p.len() > PAYMENT_PATH_STEPS_MAX)
            {
                return Ter::telBAD_PATH_COUNT;
            }
        }
    }
    Ter::tesSUCCESS
}

/// doApply.
pub fn do_apply(ctx: &mut ApplyContext) -> Result<(), Ter> {
    let s = sf();
    let tx = ctx.tx;
    if let Some(amount) = tx.mpt_amount_of(s.amount) {
        return mpt_apply(ctx, &amount);
    }
    let (Some(dst), Some(amount)) = (tx.account_of(s.destination), tx.amount_of(s.amount)) else {
        return Err(Ter::temMALFORMED);
    };
    let dst_key = keylet::account(&dst);
    let sponsor_created = tx.flags() & TF_SPONSOR_CREATED_ACCOUNT != 0;
    let dst_root = match ctx.sb.peek(&dst_key) {
        Some(r) => r,
        None => {
            let mut root = new_account_root(&dst, 0, ctx.sb.info().seq);
            if sponsor_created {
                root.set(s.sponsor, StValue::AccountId(ctx.account));
            }
            ctx.sb.insert(dst_key, root.clone());
            root
        }
    };
    let rippling = tx.get(s.paths).is_some() || tx.get(s.send_max).is_some() || !amount.is_xrp();
    if rippling {
        let src = ctx.account;
        credential::verify_deposit_preauth(&mut ctx.sb, tx, &src, &dst, Some(&dst_root))
            .into_result()?;
        return ripple_payment(ctx, &dst, &amount).into_result();
    }
    let drops = amount.as_drops().unwrap_or(0);
    let Some(src_root) = ctx.sb.peek(&keylet::account(&ctx.account)) else {
        return Err(Ter::tefINTERNAL);
    };
    let fees = ctx.sb.info().fees;
    let reserve = fees.reserve_of(&src_root, 0, 0);
    let fee = tx.drops_of(s.fee);
    if ctx.prior_balance < drops.saturating_add(reserve.max(fee)) {
        return Err(Ter::tecUNFUNDED_PAYMENT);
    }
    if sponsor_created {
        // The sender now carries one more account's base reserve (its balance before the
        // fee, less what it sends).
        if ctx.prior_balance - drops < fees.reserve_of(&src_root, 0, 1) {
            return Err(Ter::tecNO_DST_INSUF_XRP);
        }
        sponsor_accounts(&mut ctx.sb, &ctx.account, 1);
    }
    // An account that requires deposit authorization and spent its XRP may still be
    // sent up to the base reserve, so it is never wedged.
    let base = fees.account_reserve(0);
    if drops > base || balance_drops(&dst_root) > base {
        let src = ctx.account;
        credential::verify_deposit_preauth(&mut ctx.sb, tx, &src, &dst, Some(&dst_root))
            .into_result()?;
    }
    credit_drops(&mut ctx.sb, &ctx.account, -drops);
    credit_drops(&mut ctx.sb, &dst, drops);
    if let Some(mut d) = ctx.sb.peek(&dst_key) {
        if d.is_flag(lsf::PASSWORD_SPENT) {
            set_flags(&mut d, 0, lsf::PASSWORD_SPENT);
            ctx.sb.update(dst_key, d);
        }
    }
    ctx.delivered = Some(amount);
    Ok(())
}

/// A payment through the payment engine (rippled `Payment::doApply` with
/// `RippleCalc`): the default path unless tfNoRippleDirect, plus the explicit Paths.
fn ripple_payment(ctx: &mut ApplyContext, dst: &AccountId, amount: &Amount) -> Ter {
    let s = sf();
    let tx = ctx.tx;
    let flags = tx.flags();
    let paths: Vec<Vec<crate::protocol::st::PathStep>> = match tx.get(s.paths) {
        Some(StValue::PathSet(p)) => p.clone(),
        _ => Vec::new(),
    };
    let max = max_source(tx, &ctx.account, amount);
    let limit_quality = (flags & tf::LIMIT_QUALITY != 0)
        .then(|| crate::protocol::quality::Quality::from_amounts(&max, amount));
    let req = FlowRequest {
        src: ctx.account,
        dst: *dst,
        deliver: *amount,
        send_max: Some(max),
        paths: &paths,
        default_path: flags & tf::NO_RIPPLE_DIRECT == 0,
        partial: flags & tf::PARTIAL_PAYMENT != 0,
        owner_pays_fee: false,
        crossing: Crossing::No,
        limit_quality,
        domain: tx.h256_of(s.domain_id),
    };
    let out = flow(&mut ctx.sb, &req);
    // rippled's RippleCalc catches what flow() throws: "return a tec so the tx is
    // stored".
    let mut ter = match out.ter {
        Ter::tefEXCEPTION => Ter::tecINTERNAL,
        t => t,
    };
    if ter == Ter::tesSUCCESS && out.actual_out != *amount {
        match tx.amount_of(s.deliver_min) {
            Some(min) if crate::engine::flow::amt_cmp(&out.actual_out, &min).is_lt() => {
                ter = Ter::tecPATH_PARTIAL;
            }
            _ => ctx.meta_delivered = Some(out.actual_out),
        }
    }
    if ter.is_ter() {
        return Ter::tecPATH_DRY;
    }
    if ter == Ter::tesSUCCESS {
        ctx.delivered = Some(ctx.meta_delivered.unwrap_or(*amount));
    }
    ter
}

/// Flags an MPT payment may set (`tfMPTPaymentMask`): only tfPartialPayment.
const MPT_MASK: u32 = TF_UNIVERSAL_MASK & !tf::PARTIAL_PAYMENT;

/// `Payment::preflight` for a direct MPT payment (no paths; SendMax and DeliverMin, if
/// any, in the same MPT).
fn mpt_preflight(tx: &StObject, account: &AccountId, amount: &MptAmount) -> Ter {
    let s = sf();
    let flags = tx.flags();
    if flags & MPT_MASK != 0 {
        return Ter::temINVALID_FLAG;
    }
    if !crate::ledger::rules::enabled_now(Feature::MPTokensV1) {
        return Ter::temDISABLED;
    }
    if tx.get(s.paths).is_some() {
        return Ter::temMALFORMED;
    }
    let has_max = tx.get(s.send_max).is_some();
    let max = match tx.mpt_amount_of(s.send_max) {
        Some(m) if m.id == amount.id => m,
        None if !has_max => *amount,
        _ => return Ter::temMALFORMED,
    };
    if amount.value > MPT_AMOUNT_MAX || max.value > MPT_AMOUNT_MAX {
        return Ter::temBAD_AMOUNT;
    }
    let Some(dst) = tx
        .account_of(s.destination)
        .filter(|d| *d != AccountId::ZERO)
    else {
        return Ter::temDST_NEEDED;
    };
    if (has_max && !max.is_positive()) || !amount.is_positive() {
        return Ter::temBAD_AMOUNT;
    }
    if dst == *account {
        return Ter::temREDUNDANT;
    }
    if tx.get(s.deliver_min).is_some() {
        let min = match tx.mpt_amount_of(s.deliver_min) {
            Some(m) if m.id == amount.id && m.is_positive() => m,
            _ => return Ter::temBAD_AMOUNT,
        };
        if flags & tf::PARTIAL_PAYMENT == 0 || min.value > amount.value {
            return Ter::temBAD_AMOUNT;
        }
    }
    Ter::tesSUCCESS
}

/// `Payment::preclaim` for an MPT payment: the destination must exist.
fn mpt_preclaim(view: &dyn ReadView, tx: &StObject) -> Ter {
    let s = sf();
    let Some(dst) = tx.account_of(s.destination) else {
        return Ter::temMALFORMED;
    };
    match view.read(&keylet::account(&dst)) {
        None => Ter::tecNO_DST,
        Some(root)
            if root.is_flag(lsf::REQUIRE_DEST_TAG) && tx.u32_of(s.destination_tag).is_none() =>
        {
            Ter::tecDST_TAG_NEEDED
        }
        Some(_) => Ter::tesSUCCESS,
    }
}

/// The MPT branch of `Payment::doApply`: authorization of both sides, CanTransfer,
/// deposit authorization, locks and the transfer fee between holders, partial delivery
/// from SendMax, then `accountSend`. A partial delivery is recorded as DeliveredAmount
/// under fixMPTDeliveredAmount (none before it).
fn mpt_apply(ctx: &mut ApplyContext, amount: &MptAmount) -> Result<(), Ter> {
    let s = sf();
    let tx = ctx.tx;
    let (src, id) = (ctx.account, amount.id);
    let Some(dst) = tx.account_of(s.destination) else {
        return Err(Ter::tecINTERNAL);
    };
    let Some(dst_root) = ctx.sb.peek(&keylet::account(&dst)) else {
        return Err(Ter::tecNO_DST);
    };
    for t in [
        mpt::require_auth(&ctx.sb, &id, &src),
        mpt::require_auth(&ctx.sb, &id, &dst),
        mpt::can_transfer(&ctx.sb, &id, &src, &dst),
    ] {
        t.into_result()?;
    }
    credential::verify_deposit_preauth(&mut ctx.sb, ctx.tx, &src, &dst, Some(&dst_root))
        .into_result()?;
    let issuer = id.issuer();
    let mut rate = 1_000_000_000;
    if src != issuer && dst != issuer {
        if mpt::is_any_locked(&ctx.sb, &id, &[src, dst]) {
            return Err(Ter::tecLOCKED);
        }
        rate = mpt::transfer_rate(&ctx.sb, &id);
    }
    let max = tx.mpt_amount_of(s.send_max).unwrap_or(*amount).value;
    let mut deliver = amount.value;
    let Some(mut required) = mpt::multiply_rate(deliver, rate) else {
        return Err(Ter::tecPATH_PARTIAL);
    };
    if tx.flags() & tf::PARTIAL_PAYMENT != 0 && required > max {
        required = max;
        deliver = mpt::divide_rate(max, rate).unwrap_or(0);
    }
    let below_min = tx
        .mpt_amount_of(s.deliver_min)
        .is_some_and(|m| deliver < m.value);
    if required > max || below_min {
        return Err(Ter::tecPATH_PARTIAL);
    }
    let ter = match mpt::send(&mut ctx.sb, &id, &src, &dst, deliver) {
        Ter::tecINSUFFICIENT_FUNDS | Ter::tecPATH_DRY => Ter::tecPATH_PARTIAL,
        t => t,
    };
    let record = ctx.sb.info().rules.enabled(Feature::FixMPTDeliveredAmount);
    if ter == Ter::tesSUCCESS && deliver != amount.value && record {
        ctx.meta_delivered_mpt = Some(MptAmount::new(deliver, id));
    }
    ter.into_result()
}

/// A delegate's granular permissions (rippled `Payment::checkPermission`): PaymentMint
/// for an issued amount the account issues, PaymentBurn for one the destination issues.
pub fn granular_permission(
    _view: &dyn ReadView,
    tx: &StObject,
    account: &AccountId,
    has: &dyn Fn(&str) -> bool,
) -> bool {
    let Some(Amount::Iou { issuer, .. }) = tx.amount_of(sf().amount) else {
        return false;
    };
    (has("PaymentMint") && issuer == *account)
        || (has("PaymentBurn") && tx.account_of(sf().destination) == Some(issuer))
}

/// What the queue weighs (rippled `Payment::makeTxConsequences`): the SendMax, else the
/// Amount, when it is XRP.
pub fn consequences(tx: &StObject) -> crate::engine::consequences::TxConsequences {
    let field = if tx.get(sf().send_max).is_some() {
        sf().send_max
    } else {
        sf().amount
    };
    crate::engine::consequences::TxConsequences::spending(tx, field)
}
