//! Payment (rippled `Payment.cpp` and, for issued currencies, the direct-step part of the
//! flow engine: `DirectStep.cpp`, `StepChecks.h`, `StrandFlow.h`). XRP payments, account
//! creation, and same-currency payments along the default path (issuer to holder, holder
//! to issuer, holder to holder through the issuer). No order books, so a cross-currency
//! payment finds no liquidity.

use super::deposit_preauth::deposit_allowed;
use super::entry::{balance_drops, credit_drops, new_account_root, set_flags};
use super::flow::{flow, Crossing, FlowRequest};
use super::ripple::{balance_for, limit_for, ripple_credit, QUALITY_ONE};
use super::sandbox::Sandbox;
use super::ter::Ter;
use super::transactor::{ApplyContext, TF_UNIVERSAL_MASK};
use crate::ledger::flags::lsf;
use crate::ledger::keylet;
use crate::ledger::sf::{sf, StExt};
use crate::ledger::view::ReadView;
use crate::limits::{PAYMENT_PATHS_MAX, PAYMENT_PATH_STEPS_MAX};
use crate::protocol::amount::{Amount, IouValue, Rounding, DROPS_MAX};
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

/// preflight.
pub fn preflight(tx: &StObject, account: &AccountId) -> Ter {
    let s = sf();
    let flags = tx.flags();
    if flags & tf::MASK != 0 {
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

/// True when `a` is more than `b` (same kind of amount; never across XRP and IOUs).
pub fn greater(a: &Amount, b: &Amount) -> bool {
    match (a, b) {
        (Amount::Xrp(x), Amount::Xrp(y)) => x > y,
        (Amount::Iou { value: x, .. }, Amount::Iou { value: y, .. }) => x > y,
        _ => false,
    }
}

/// preclaim.
pub fn preclaim(view: &dyn ReadView, tx: &StObject, _account: &AccountId) -> Ter {
    let s = sf();
    let flags = tx.flags();
    let (Some(dst), Some(amount)) = (tx.account_of(s.destination), tx.amount_of(s.amount)) else {
        return Ter::temMALFORMED;
    };
    match view.read(&keylet::account(&dst)) {
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
pub fn do_apply(ctx: &mut ApplyContext) -> Ter {
    let s = sf();
    let tx = ctx.tx;
    let (Some(dst), Some(amount)) = (tx.account_of(s.destination), tx.amount_of(s.amount)) else {
        return Ter::temMALFORMED;
    };
    let dst_key = keylet::account(&dst);
    let dst_root = match ctx.sb.peek(&dst_key) {
        Some(r) => r,
        None => {
            let root = new_account_root(&dst, 0, ctx.sb.info().seq);
            ctx.sb.insert(dst_key, root.clone());
            root
        }
    };
    let allowed = deposit_allowed(ctx.sb.base(), &dst_root, &ctx.account, &dst);
    let rippling = tx.get(s.paths).is_some() || tx.get(s.send_max).is_some() || !amount.is_xrp();
    if rippling {
        if !allowed {
            return Ter::tecNO_PERMISSION;
        }
        return ripple_payment(ctx, &dst, &amount);
    }
    let drops = amount.as_drops().unwrap_or(0);
    let Some(src_root) = ctx.sb.peek(&keylet::account(&ctx.account)) else {
        return Ter::tefINTERNAL;
    };
    let fees = ctx.sb.info().fees;
    let reserve = fees.account_reserve(src_root.u32_of(s.owner_count).unwrap_or(0));
    let fee = tx.drops_of(s.fee);
    if ctx.prior_balance < drops.saturating_add(reserve.max(fee)) {
        return Ter::tecUNFUNDED_PAYMENT;
    }
    // An account that requires deposit authorization and spent its XRP may still be
    // sent up to the base reserve, so it is never wedged.
    let base = fees.account_reserve(0);
    if !allowed && (drops > base || balance_drops(&dst_root) > base) {
        return Ter::tecNO_PERMISSION;
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
    Ter::tesSUCCESS
}

/// The accounts of the default path: source, SendMax issuer, Amount issuer, destination.
fn default_path(src: &AccountId, dst: &AccountId, max: &Amount, amount: &Amount) -> Vec<AccountId> {
    let mut nodes = vec![*src];
    let max_issuer = max.issue().issuer;
    if max_issuer != *src {
        nodes.push(max_issuer);
    }
    let issuer = amount.issue().issuer;
    if issuer != *dst && nodes.last() != Some(&issuer) {
        nodes.push(issuer);
    }
    if nodes.last() != Some(dst) {
        nodes.push(*dst);
    }
    nodes
}

fn transfer_rate(view: &dyn ReadView, issuer: &AccountId) -> u32 {
    view.read(&keylet::account(issuer))
        .and_then(|r| r.u32_of(sf().transfer_rate))
        .unwrap_or(QUALITY_ONE)
}

/// A direct step's checks at strand-building time (rippled `DirectStepI::check`).
fn check_step(
    view: &dyn ReadView,
    prev: Option<&AccountId>,
    src: &AccountId,
    dst: &AccountId,
    currency: &Currency,
    single: bool,
) -> Result<IouValue, Ter> {
    let Some(src_root) = view.read(&keylet::account(src)) else {
        return Err(Ter::terNO_ACCOUNT);
    };
    let Some(line) = view.read(&keylet::line(src, dst, currency)) else {
        return Err(Ter::terNO_LINE);
    };
    let auth_bit = if src > dst {
        lsf::HIGH_AUTH
    } else {
        lsf::LOW_AUTH
    };
    if src_root.is_flag(lsf::REQUIRE_AUTH)
        && line.flags() & auth_bit == 0
        && balance_for(&line, src, dst).is_zero()
    {
        return Err(Ter::terNO_AUTH);
    }
    if !single {
        let dst_frozen = view
            .read(&keylet::account(dst))
            .is_some_and(|r| r.is_flag(lsf::GLOBAL_FREEZE));
        let freeze_bit = if dst > src {
            lsf::HIGH_FREEZE
        } else {
            lsf::LOW_FREEZE
        };
        if dst_frozen || line.flags() & freeze_bit != 0 {
            return Err(Ter::terNO_LINE);
        }
    }
    if let Some(prev) = prev {
        let Some(line_in) = view.read(&keylet::line(prev, src, currency)) else {
            return Err(Ter::terNO_LINE);
        };
        let in_bit = if src > prev {
            lsf::HIGH_NO_RIPPLE
        } else {
            lsf::LOW_NO_RIPPLE
        };
        let out_bit = if src > dst {
            lsf::HIGH_NO_RIPPLE
        } else {
            lsf::LOW_NO_RIPPLE
        };
        if line_in.flags() & in_bit != 0 && line.flags() & out_bit != 0 {
            return Err(Ter::terNO_RIPPLE);
        }
    }
    // Capacity: what src can redeem plus what dst still accepts of src's issue.
    let owed = balance_for(&line, src, dst);
    let limit = limit_for(&line, dst, src);
    let capacity = owed.checked_add(&limit).unwrap_or(IouValue::ZERO);
    if owed.signum() <= 0 && owed.negate() >= limit {
        return Err(Ter::tecPATH_DRY);
    }
    Ok(capacity)
}

fn min(a: IouValue, b: IouValue) -> IouValue {
    if a <= b {
        a
    } else {
        b
    }
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
    };
    let out = flow(&mut ctx.sb, &req);
    let mut ter = out.ter;
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

/// A payment of issued currency along the default path (rippled `flow` without paths or
/// offers): from `src` to `dst`, `amount` at most, spending `max` at most.
pub struct Flow {
    /// Who pays.
    pub src: AccountId,
    /// Who receives.
    pub dst: AccountId,
    /// What to deliver (an IOU).
    pub amount: Amount,
    /// The most the source may spend (SendMax, or the Amount).
    pub max: Amount,
    /// Less than `amount` may be delivered.
    pub partial: bool,
    /// With `partial`, the least that must be delivered.
    pub deliver_min: Option<IouValue>,
}

/// Moves `flow` along the default path in `sb`; returns what was delivered.
pub fn default_path_flow(sb: &mut Sandbox, flow: &Flow) -> Result<Amount, Ter> {
    let no_liquidity = if flow.partial {
        Ter::tecPATH_DRY
    } else {
        Ter::tecPATH_PARTIAL
    };
    let (Some(want), Some(max_value)) = (flow.amount.as_iou(), flow.max.as_iou()) else {
        // XRP on one side: crossing needs an order book, and there are none.
        return Err(no_liquidity);
    };
    let currency = currency_of(&flow.amount);
    if currency_of(&flow.max) != currency {
        return Err(no_liquidity);
    }
    let nodes = default_path(&flow.src, &flow.dst, &flow.max, &flow.amount);
    // A path that starts where it ends moves nothing.
    if nodes.len() < 2 {
        return Err(Ter::tecPATH_DRY);
    }
    let caps = step_capacities(&*sb, &nodes, &currency)?;
    let rates = transfer_rates(&*sb, &nodes, &currency);
    let delivered = min(deliverable(max_value, &caps, &rates), want);
    check_delivered(flow, delivered, want)?;
    let amounts = step_amounts(delivered, &rates, caps.len());
    if amounts[0] > max_value {
        return Err(no_liquidity);
    }
    let t = credit_steps(sb, &nodes, &currency, &amounts);
    if t != Ter::tesSUCCESS {
        return Err(t);
    }
    Ok(Amount::iou(delivered, currency, flow.amount.issue().issuer))
}

fn step_capacities(
    view: &dyn ReadView,
    nodes: &[AccountId],
    currency: &Currency,
) -> Result<Vec<IouValue>, Ter> {
    let steps = nodes.len() - 1;
    let mut caps = Vec::with_capacity(steps);
    for i in 0..steps {
        let prev = if i > 0 { Some(&nodes[i - 1]) } else { None };
        match check_step(view, prev, &nodes[i], &nodes[i + 1], currency, steps == 1) {
            Ok(c) => caps.push(c),
            // Payment turns every retry code of the strand into tecPATH_DRY.
            Err(t) if t.is_ter() => return Err(Ter::tecPATH_DRY),
            Err(t) => return Err(t),
        }
    }
    Ok(caps)
}

/// The transfer rate charged at each node. The issuer's transfer fee applies where its
/// IOUs pass between two other accounts: the node receives by redemption and pays out
/// by issuing.
fn transfer_rates(view: &dyn ReadView, nodes: &[AccountId], currency: &Currency) -> Vec<u32> {
    let steps = nodes.len() - 1;
    let mut rate = vec![QUALITY_ONE; nodes.len()];
    for i in 1..steps {
        let n = &nodes[i];
        let redeems_in = view
            .read(&keylet::line(&nodes[i - 1], n, currency))
            .is_some_and(|l| balance_for(&l, &nodes[i - 1], n).signum() > 0);
        let issues_out = view
            .read(&keylet::line(n, &nodes[i + 1], currency))
            .is_some_and(|l| balance_for(&l, n, &nodes[i + 1]).signum() <= 0);
        if redeems_in && issues_out {
            rate[i] = transfer_rate(view, n);
        }
    }
    rate
}

/// Forward pass: the most that can arrive, given SendMax and each step's capacity.
fn deliverable(max_value: IouValue, caps: &[IouValue], rate: &[u32]) -> IouValue {
    let steps = caps.len();
    let mut x = max_value;
    for i in 0..steps {
        x = min(x, caps[i]);
        if i + 1 < steps && rate[i + 1] != QUALITY_ONE {
            let r = IouValue::from_parts(rate[i + 1] as u128, -9, false, Rounding::Nearest)
                .unwrap_or(IouValue::ZERO);
            x = x.checked_div(&r, Rounding::Down).unwrap_or(IouValue::ZERO);
        }
    }
    x
}

/// Less than the Amount is delivered only by a partial payment, and not less than its
/// DeliverMin.
fn check_delivered(flow: &Flow, delivered: IouValue, want: IouValue) -> Result<(), Ter> {
    if delivered < want {
        if !flow.partial {
            return Err(Ter::tecPATH_PARTIAL);
        }
        if delivered.is_zero() {
            return Err(Ter::tecPATH_DRY);
        }
        if flow.deliver_min.is_some_and(|m| delivered < m) {
            return Err(Ter::tecPATH_PARTIAL);
        }
    }
    Ok(())
}

/// Backward pass: what each step carries to deliver exactly `delivered`.
fn step_amounts(delivered: IouValue, rate: &[u32], steps: usize) -> Vec<IouValue> {
    let mut amounts = vec![IouValue::ZERO; steps];
    let mut need = delivered;
    for i in (0..steps).rev() {
        amounts[i] = need;
        if i > 0 && rate[i] != QUALITY_ONE {
            need = need.mul_rate(rate[i], Rounding::Up).unwrap_or(need);
        }
    }
    amounts
}

/// Moves each step's amount along its trust line.
fn credit_steps(
    sb: &mut Sandbox,
    nodes: &[AccountId],
    currency: &Currency,
    amounts: &[IouValue],
) -> Ter {
    for (i, amount) in amounts.iter().enumerate() {
        let t = ripple_credit(sb, &nodes[i], &nodes[i + 1], currency, amount);
        if t != Ter::tesSUCCESS {
            return t;
        }
    }
    Ter::tesSUCCESS
}
