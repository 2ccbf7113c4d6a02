//! What the AMM transactions share (rippled `AMMCore.cpp`, `AMMUtils.cpp` and the parts of
//! `View.cpp` they use): the AMM entry and its pseudo-account, the LP token currency, the
//! pool balances, the trading fee with the auction slot discount, the first vote and
//! auction slot, moving funds to and from the pool, and deleting an empty AMM.
//!
//! The flow engine reads a pool through [`amm_for_book`] and swaps with
//! [`amm_math::swap_asset_in`] / [`amm_math::swap_asset_out`].

pub mod amm_bid;
pub mod amm_clawback;
pub mod amm_create;
pub mod amm_delete;
pub mod amm_deposit;
pub mod amm_math;
pub mod amm_vote;
pub mod amm_withdraw;
pub mod invariant;
pub mod withdrawal;

use std::sync::Arc;

use super::directory::{insert_owned, remove_owned};
use super::entry::{new_account_root, new_entry};
use super::funds::zero_of;
use super::ripple::{balance_for, trust_delete};
use super::sandbox::Sandbox;
use super::ter::Ter;
use crate::ledger::flags::{lsf, lt};
use crate::ledger::keylet;
use crate::ledger::sf::{sf, StExt};
use crate::ledger::view::ReadView;
use crate::protocol::amount::{Amount, IouValue};
use crate::protocol::definitions::Field;
use crate::protocol::features::Feature;
use crate::protocol::hash::{ripemd160_sha256, sha512_half};
use crate::protocol::st::{StObject, StValue};
use crate::protocol::types::{AccountId, Currency, Hash256, Issue};

/// Highest AMM trading fee, in units of 1/100,000 (`TRADING_FEE_THRESHOLD`: 1%).
pub const AMM_TRADING_FEE_MAX: u16 = 1_000;
/// Denominator of AMM fees and vote weights (`AUCTION_SLOT_FEE_SCALE_FACTOR`,
/// `VOTE_WEIGHT_SCALE_FACTOR`).
pub const AMM_FEE_SCALE: u32 = 100_000;
/// Life of an AMM auction slot, in seconds (`TOTAL_TIME_SLOT_SECS`: 24 hours).
pub const AMM_AUCTION_SLOT_SECS: u32 = 24 * 3600;
/// Intervals an auction slot's life is cut into (`AUCTION_SLOT_TIME_INTERVALS`).
pub const AMM_AUCTION_SLOT_INTERVALS: u32 = 20;
/// The discounted fee of the auction slot holder is the trading fee divided by this
/// (`AUCTION_SLOT_DISCOUNTED_FEE_FRACTION`).
pub const AMM_DISCOUNTED_FEE_FRACTION: u16 = 10;
/// The minimum slot price is the LP token balance times the trading fee divided by this
/// (`AUCTION_SLOT_MIN_FEE_FRACTION`).
pub const AMM_MIN_SLOT_PRICE_FRACTION: i64 = 25;
/// Accounts an auction slot holder may name to share its discount
/// (`AUCTION_SLOT_MAX_AUTH_ACCOUNTS`).
pub const AMM_AUTH_ACCOUNTS_MAX: usize = 4;
/// Vote slots of an AMM (`VOTE_MAX_SLOTS`).
pub const AMM_VOTE_SLOTS_MAX: usize = 8;
/// Addresses tried for a pseudo-account before giving up (`maxAccountAttempts`).
pub const AMM_ACCOUNT_ATTEMPTS_MAX: u16 = 256;
/// Trust lines one AMMWithdraw or AMMDelete removes from an empty AMM before leaving the
/// rest for a later AMMDelete (`maxDeletableAMMTrustLines`).
pub const AMM_TRUST_LINES_DELETE_MAX: usize = 512;

/// `f` inside rippled's `try` that answers any exception `tecINTERNAL` (the fee charged):
/// a fault while it ran (an amount past what an STAmount holds, the arithmetic
/// overflowing) turns its result into `tecINTERNAL`. `equalDepositTokens` and
/// `equalWithdrawTokens` are the two places rippled catches.
pub fn caught_as_internal<T>(f: impl FnOnce() -> Result<T, Ter>) -> Result<T, Ter> {
    let r = f();
    if amm_math::faulted() {
        return Err(Ter::tecINTERNAL);
    }
    r
}

/// A transactor's result `t` (a `Ter` or `Result<(), Ter>`) when a fault is an exception
/// nothing catches: rippled answers `tefEXCEPTION` (not applied, no fee) if one happened
/// while `t` was computed.
pub fn uncaught(t: impl Into<Ter>) -> Ter {
    if amm_math::faulted() {
        return Ter::tefEXCEPTION;
    }
    t.into()
}

/// AMMDeposit / AMMWithdraw / AMMClawback flags (`TxFlags.h`).
pub mod tf {
    /// Deposit or withdraw for an amount of LP tokens, both assets.
    pub const LP_TOKEN: u32 = 0x0001_0000;
    /// Withdraw every LP token held, both assets.
    pub const WITHDRAW_ALL: u32 = 0x0002_0000;
    /// Withdraw every LP token held, one asset.
    pub const ONE_ASSET_WITHDRAW_ALL: u32 = 0x0004_0000;
    /// One asset, by its amount.
    pub const SINGLE_ASSET: u32 = 0x0008_0000;
    /// Both assets, each up to a limit.
    pub const TWO_ASSET: u32 = 0x0010_0000;
    /// One asset, for an amount of LP tokens.
    pub const ONE_ASSET_LP_TOKEN: u32 = 0x0020_0000;
    /// One asset, within an effective price.
    pub const LIMIT_LP_TOKEN: u32 = 0x0040_0000;
    /// Both assets into an empty AMM.
    pub const TWO_ASSET_IF_EMPTY: u32 = 0x0080_0000;
    /// The deposit modes (`tfDepositSubTx`).
    pub const DEPOSIT_SUB_TX: u32 = LP_TOKEN
        | SINGLE_ASSET
        | TWO_ASSET
        | ONE_ASSET_LP_TOKEN
        | LIMIT_LP_TOKEN
        | TWO_ASSET_IF_EMPTY;
    /// The withdrawal modes (`tfWithdrawSubTx`).
    pub const WITHDRAW_SUB_TX: u32 = LP_TOKEN
        | SINGLE_ASSET
        | TWO_ASSET
        | ONE_ASSET_LP_TOKEN
        | LIMIT_LP_TOKEN
        | WITHDRAW_ALL
        | ONE_ASSET_WITHDRAW_ALL;
    /// AMMClawback: claw back the paired asset too.
    pub const CLAW_TWO_ASSETS: u32 = 0x0000_0001;
}

/// The AMM entry of the pair `a` / `b`.
pub fn amm_key(a: &Issue, b: &Issue) -> Hash256 {
    keylet::amm(a, b)
}

/// The LP token currency of a pool (`ammLPTCurrency`): 0x03 then the first 19 bytes of
/// SHA-512-half of the two currencies, smaller first.
pub fn lpt_currency(a: &Currency, b: &Currency) -> Currency {
    let (lo, hi) = if a <= b { (a, b) } else { (b, a) };
    let h = sha512_half(&[&lo.0, &hi.0]);
    let mut c = [0u8; 20];
    c[0] = 0x03;
    c[1..].copy_from_slice(&h.0[..19]);
    Currency(c)
}

/// The address of a new pseudo-account owned by the entry `owner_key`
/// (`pseudoAccountAddress`): RIPEMD160(SHA256(SHA-512-half(i, parent hash, key))) for the
/// first `i` whose account does not exist; `None` after `AMM_ACCOUNT_ATTEMPTS_MAX` tries.
pub fn pseudo_account_address(view: &dyn ReadView, owner_key: &Hash256) -> Option<AccountId> {
    let parent = view.parent_hash();
    (0..AMM_ACCOUNT_ATTEMPTS_MAX).find_map(|i| {
        let h = sha512_half(&[&i.to_be_bytes(), &parent.0, &owner_key.0]);
        let id = AccountId(ripemd160_sha256(&h.0));
        view.read(&keylet::account(&id)).is_none().then_some(id)
    })
}

/// An Issue field.
pub fn issue_of(o: &StObject, f: Field) -> Option<Issue> {
    match o.get(f)? {
        StValue::Issue(i) => Some(*i),
        _ => None,
    }
}

/// The AMM entry at `key`, if that key holds one.
pub fn amm_at(view: &dyn ReadView, key: &Hash256) -> Option<Arc<StObject>> {
    view.read(key)
        .filter(|o| o.u16_of(sf().ledger_entry_type) == Some(lt::AMM))
}

/// The AMM of the pair `a` / `b`, with its key.
pub fn read_amm(view: &dyn ReadView, a: &Issue, b: &Issue) -> Option<(Hash256, Arc<StObject>)> {
    let key = amm_key(a, b);
    amm_at(view, &key).map(|o| (key, o))
}

/// True when `root` is a pseudo-account (an AMM's).
pub fn is_pseudo(root: &StObject) -> bool {
    root.h256_of(sf().amm_id).is_some()
}

/// The pool and the LP tokens of an AMM entry, read once.
#[derive(Debug, Clone)]
pub struct AmmEntry {
    /// The entry's key.
    pub key: Hash256,
    /// The pseudo-account.
    pub account: AccountId,
    /// Asset (the smaller issue).
    pub asset: Issue,
    /// Asset2.
    pub asset2: Issue,
    /// LPTokenBalance.
    pub lp_balance: Amount,
}

impl AmmEntry {
    /// Reads the fields every AMM entry has; `None` for a malformed entry.
    pub fn from_sle(key: Hash256, o: &StObject) -> Option<AmmEntry> {
        let s = sf();
        Some(AmmEntry {
            key,
            account: o.account_of(s.account)?,
            asset: issue_of(o, s.asset)?,
            asset2: issue_of(o, s.asset2)?,
            lp_balance: o.amount_of(s.lp_token_balance)?,
        })
    }

    /// The LP token issue.
    pub fn lp_issue(&self) -> Issue {
        self.lp_balance.issue()
    }
}

/// The pool's balances in the order asked (`ammHolds`): the AMM account's holdings of
/// `first` and `second` (both optional: the entry's own order by default, the other
/// asset after a single one), and the LP token balance. `tecAMM_INVALID_TOKENS` when an
/// issue is not one of the pool's.
pub fn amm_holds(
    view: &dyn ReadView,
    amm: &AmmEntry,
    first: Option<Issue>,
    second: Option<Issue>,
    zero_if_frozen: bool,
) -> Result<(Amount, Amount, Amount), Ter> {
    let (a, b) = (amm.asset, amm.asset2);
    let pair = match (first, second) {
        (Some(x), Some(y)) => {
            let ok = x != y && (x == a || x == b) && (y == a || y == b);
            ok.then_some((x, y))
        }
        (Some(x), None) | (None, Some(x)) => {
            if x == a {
                Some((a, b))
            } else if x == b {
                Some((b, a))
            } else {
                None
            }
        }
        (None, None) => Some((a, b)),
    };
    let (x, y) = pair.ok_or(Ter::tecAMM_INVALID_TOKENS)?;
    Ok((
        pool_holds(view, &amm.account, &x, zero_if_frozen),
        pool_holds(view, &amm.account, &y, zero_if_frozen),
        amm.lp_balance,
    ))
}

/// The pool account's balance of `issue` (rippled `ammAccountHolds`): its whole XRP
/// balance (a pseudo-account has no reserve), or its line's balance. Read from the
/// ledger as it is, never through a payment's deferred credits: the pool's own
/// balances price its offers.
pub fn pool_holds(
    view: &dyn ReadView,
    pool: &AccountId,
    issue: &Issue,
    zero_if_frozen: bool,
) -> Amount {
    if issue.is_xrp() {
        let drops = view
            .read(&keylet::account(pool))
            .map_or(0, |r| r.drops_of(sf().balance));
        return Amount::Xrp(drops);
    }
    if zero_if_frozen && super::funds::frozen(view, pool, &issue.issuer, &issue.currency) {
        return zero_of(issue);
    }
    match view.read(&keylet::line(pool, &issue.issuer, &issue.currency)) {
        Some(line) => Amount::iou(
            balance_for(&line, pool, &issue.issuer),
            issue.currency,
            issue.issuer,
        ),
        None => zero_of(issue),
    }
}

/// The LP tokens `lp` holds (`ammLPHolds`): zero without a line.
pub fn lp_holds(view: &dyn ReadView, amm: &AmmEntry, lp: &AccountId) -> Amount {
    let issue = amm.lp_issue();
    let held = view
        .read(&keylet::line(lp, &amm.account, &issue.currency))
        .map(|l| balance_for(&l, lp, &amm.account))
        .unwrap_or(IouValue::ZERO);
    Amount::iou(held, issue.currency, amm.account)
}

/// The trading fee `account` pays (`getTradingFee`): the discounted fee for the auction
/// slot holder and the accounts it names while the slot has not expired.
pub fn trading_fee(view: &dyn ReadView, sle: &StObject, account: &AccountId) -> u16 {
    let s = sf();
    let fee = sle.u16_of(s.trading_fee).unwrap_or(0);
    let Some(StValue::Object(slot)) = sle.get(s.auction_slot) else {
        return fee;
    };
    let now = view.info().parent_close_time;
    let live = slot.u32_of(s.expiration).is_some_and(|e| now < e);
    if !live {
        return fee;
    }
    let holder = slot.account_of(s.account) == Some(*account);
    let named = match slot.get(s.auth_accounts) {
        Some(StValue::Array(list)) => list
            .iter()
            .any(|(_, o)| o.account_of(s.account) == Some(*account)),
        _ => false,
    };
    if holder || named {
        return slot.u16_of(s.discounted_fee).unwrap_or(0);
    }
    fee
}

/// Gives `account` the only vote and a free auction slot, and sets the trading fee
/// (`initializeFeeAuctionVote`): on AMMCreate, and on a deposit into an empty AMM. Under
/// fixCleanup3_2_0 the slot's AuthAccounts, left by an earlier holder's bid, go too;
/// before it they stay, and keep the discounted fee for the new holder's slot.
pub fn init_fee_auction_vote(
    view: &dyn ReadView,
    sle: &mut StObject,
    account: &AccountId,
    lp_issue: &Issue,
    tfee: u16,
) {
    let s = sf();
    let parent_close_time = view.info().parent_close_time;
    let mut vote = StObject::new();
    if tfee != 0 {
        vote.set(s.trading_fee, StValue::UInt16(tfee));
    }
    vote.set(s.vote_weight, StValue::UInt32(AMM_FEE_SCALE));
    vote.set(s.account, StValue::AccountId(*account));
    sle.set(s.vote_slots, StValue::Array(vec![(s.vote_entry, vote)]));
    let mut slot = match sle.get(s.auction_slot) {
        Some(StValue::Object(o)) => o.clone(),
        _ => StObject::new(),
    };
    slot.set(s.account, StValue::AccountId(*account));
    slot.set(
        s.expiration,
        StValue::UInt32(parent_close_time.saturating_add(AMM_AUCTION_SLOT_SECS)),
    );
    slot.set(s.price, StValue::Amount(zero_of(lp_issue)));
    if tfee != 0 {
        sle.set(s.trading_fee, StValue::UInt16(tfee));
    } else {
        sle.remove(s.trading_fee);
    }
    let discounted = tfee / AMM_DISCOUNTED_FEE_FRACTION;
    if discounted != 0 {
        slot.set(s.discounted_fee, StValue::UInt16(discounted));
    } else {
        slot.remove(s.discounted_fee);
    }
    if view.info().rules.enabled(Feature::FixCleanup3_2_0) {
        slot.remove(s.auth_accounts);
    }
    sle.set(s.auction_slot, StValue::Object(slot));
}

/// A new AMM pseudo-account root (`createPseudoAccount`): no XRP, master key disabled,
/// rippling by default, deposit authorization on, linked to its AMM entry. Sequence is 0
/// (SingleAssetVault).
pub fn new_pseudo_root(account: &AccountId, amm_key: &Hash256) -> StObject {
    let mut root = new_account_root(account, 0, 0);
    root.set(
        sf().flags,
        StValue::UInt32(lsf::DISABLE_MASTER | lsf::DEFAULT_RIPPLE | lsf::DEPOSIT_AUTH),
    );
    root.set(sf().amm_id, StValue::Hash256(*amm_key));
    root
}

/// A new AMM entry with its fixed fields (the vote and slot come after).
pub fn new_amm_entry(account: &AccountId, asset: &Issue, asset2: &Issue, lp: Amount) -> StObject {
    let s = sf();
    let (lo, hi) = if asset <= asset2 {
        (asset, asset2)
    } else {
        (asset2, asset)
    };
    let mut o = new_entry(lt::AMM);
    o.remove(s.flags);
    o.set(s.account, StValue::AccountId(*account));
    o.set(s.lp_token_balance, StValue::Amount(lp));
    o.set(s.asset, StValue::Issue(*lo));
    o.set(s.asset2, StValue::Issue(*hi));
    o
}

/// Links an AMM entry into its pseudo-account's owner directory (`dirLink`).
pub fn link_amm(sb: &mut Sandbox, account: &AccountId, key: Hash256, sle: &mut StObject) -> Ter {
    let Some(page) = insert_owned(sb, account, key) else {
        return Ter::tecDIR_FULL;
    };
    sle.set(sf().owner_node, StValue::UInt64(page));
    Ter::tesSUCCESS
}

/// Deletes a zero-balance line of an AMM pseudo-account (`deleteAMMTrustLine`): the
/// other side pays the line's reserve and gets it back.
fn delete_amm_line(sb: &mut Sandbox, key: &Hash256, line: &StObject, amm: &AccountId) -> Ter {
    let s = sf();
    let (Some(Amount::Iou { issuer: lo, .. }), Some(Amount::Iou { issuer: hi, .. })) =
        (line.amount_of(s.low_limit), line.amount_of(s.high_limit))
    else {
        return Ter::tecINTERNAL;
    };
    if lo != *amm && hi != *amm {
        return Ter::terNO_AMM;
    }
    let other_is_low = hi == *amm;
    let reserve_bit = if other_is_low {
        lsf::LOW_RESERVE
    } else {
        lsf::HIGH_RESERVE
    };
    if trust_delete(sb, key, line) != Ter::tesSUCCESS {
        return Ter::tecINTERNAL;
    }
    if line.flags() & reserve_bit == 0 {
        return Ter::tecINTERNAL;
    }
    // A side a sponsor carries gives the sponsor its count back.
    super::entry::release(sb, if other_is_low { &lo } else { &hi }, line, 1);
    Ter::tesSUCCESS
}

/// Deletes an empty AMM (`deleteAMMAccount`): its remaining zero-balance lines (at most
/// `AMM_TRUST_LINES_DELETE_MAX`, else `tecINCOMPLETE` after deleting that many), the
/// entry, its directory and its pseudo-account.
pub fn delete_amm_account(sb: &mut Sandbox, asset: &Issue, asset2: &Issue) -> Result<(), Ter> {
    let s = sf();
    let key = amm_key(asset, asset2);
    let Some(sle) = amm_at(sb, &key) else {
        return Err(Ter::tecINTERNAL);
    };
    let Some(account) = sle.account_of(s.account) else {
        return Err(Ter::tecINTERNAL);
    };
    let root_key = keylet::account(&account);
    if !sb.exists(&root_key) {
        return Err(Ter::tecINTERNAL);
    }
    let owned = crate::ledger::directory::owned(sb, &account);
    let mut deleted = 0;
    for k in owned {
        let Some(item) = sb.peek(&k) else {
            return Err(Ter::tecINTERNAL);
        };
        match item.u16_of(s.ledger_entry_type) {
            Some(lt::AMM) => continue,
            Some(lt::RIPPLE_STATE) => {}
            _ => return Err(Ter::tecINTERNAL),
        }
        if deleted == AMM_TRUST_LINES_DELETE_MAX {
            return Err(Ter::tecINCOMPLETE);
        }
        if item.amount_of(s.balance).is_some_and(|b| !b.is_zero()) {
            return Err(Ter::tecINTERNAL);
        }
        delete_amm_line(sb, &k, &item, &account).into_result()?;
        deleted += 1;
    }
    let page = sle.u64_of(s.owner_node).unwrap_or(0);
    if !remove_owned(sb, &account, page, &key, false) {
        return Err(Ter::tecINTERNAL);
    }
    let dir = keylet::owner_dir(&account);
    if sb.exists(&dir) {
        if !crate::ledger::directory::is_empty(sb, &dir) {
            return Err(Ter::tecINTERNAL);
        }
        sb.erase(dir);
    }
    sb.erase(key);
    sb.erase(root_key);
    Ok(())
}

/// The amounts an AMMDeposit or AMMWithdraw names, for [`preflight_mode`].
pub struct ModeAmounts<'a> {
    /// Amount.
    pub amount: Option<&'a Amount>,
    /// Amount2.
    pub amount2: Option<&'a Amount>,
    /// LPTokenOut or LPTokenIn.
    pub lp_tokens: Option<&'a Amount>,
}

/// The preflight checks AMMDeposit and AMMWithdraw share, in rippled's order: no flags but
/// one of `modes`, the fields the mode takes (`fits`), a valid pair of assets, two
/// different amounts, positive LP tokens. Returns the pair.
pub fn preflight_mode(
    tx: &StObject,
    modes: u32,
    fits: impl FnOnce(u32) -> bool,
    named: &ModeAmounts,
) -> Result<(Issue, Issue), Ter> {
    let s = sf();
    let flags = tx.flags();
    if flags & !(crate::engine::transactor::TF_FULLY_CANONICAL_SIG | modes) != 0 {
        return Err(Ter::temINVALID_FLAG);
    }
    if (flags & modes).count_ones() != 1 || !fits(flags) {
        return Err(Ter::temMALFORMED);
    }
    let (Some(asset), Some(asset2)) = (issue_of(tx, s.asset), issue_of(tx, s.asset2)) else {
        return Err(Ter::temMALFORMED);
    };
    invalid_amm_asset_pair(&asset, &asset2, None)?;
    if let (Some(a), Some(b)) = (named.amount, named.amount2) {
        if a.issue() == b.issue() {
            return Err(Ter::temBAD_AMM_TOKENS);
        }
    }
    if named
        .lp_tokens
        .is_some_and(|t| t.is_zero() || t.is_negative())
    {
        return Err(Ter::temBAD_AMM_TOKENS);
    }
    Ok((asset, asset2))
}

/// A pool as the flow engine sees it: what to trade against and at which fee.
#[derive(Debug, Clone)]
pub struct AmmPool {
    /// The pseudo-account holding the pool.
    pub account: AccountId,
    /// The AMM entry's key.
    pub key: Hash256,
    /// The pool's balance of the issue the taker pays in.
    pub balance_in: Amount,
    /// The pool's balance of the issue the taker gets out.
    pub balance_out: Amount,
    /// The trading fee, in units of 1/100,000 (before any auction slot discount).
    pub trading_fee: u16,
}

/// The AMM trading `in_issue` for `out_issue`, if one exists with both balances above
/// zero (frozen balances count as zero, as rippled's `AMMLiquidity` reads them).
pub fn amm_for_book(view: &dyn ReadView, in_issue: &Issue, out_issue: &Issue) -> Option<AmmPool> {
    let (key, sle) = read_amm(view, in_issue, out_issue)?;
    let amm = AmmEntry::from_sle(key, &sle)?;
    let (bin, bout, _) = amm_holds(view, &amm, Some(*in_issue), Some(*out_issue), true).ok()?;
    if bin.is_zero() || bout.is_zero() || bin.is_negative() || bout.is_negative() {
        return None;
    }
    Some(AmmPool {
        account: amm.account,
        key,
        balance_in: bin,
        balance_out: bout,
        trading_fee: sle.u16_of(sf().trading_fee).unwrap_or(0),
    })
}

/// True when `lp` is the AMM's only liquidity provider (`isOnlyLiquidityProvider`):
/// the AMM's directory holds the AMM, at most two asset lines and exactly one LP token
/// line, `lp`'s. `tecINTERNAL` for a directory of any other shape.
pub fn is_only_lp(view: &dyn ReadView, amm: &AmmEntry, lp: &AccountId) -> Result<bool, Ter> {
    let s = sf();
    let lpt = amm.lp_issue();
    let (mut lp_lines, mut iou_lines, mut has_amm) = (0u8, 0u8, false);
    for k in crate::ledger::directory::owned(view, &amm.account) {
        let item = view.read(&k).ok_or(Ter::tecINTERNAL)?;
        match item.u16_of(s.ledger_entry_type) {
            Some(lt::AMM) if !has_amm => {
                has_amm = true;
                continue;
            }
            Some(lt::RIPPLE_STATE) => {}
            _ => return Err(Ter::tecINTERNAL),
        }
        let (lo, hi) = match (item.amount_of(s.low_limit), item.amount_of(s.high_limit)) {
            (Some(l), Some(h)) => (l.issue(), h.issue()),
            _ => return Err(Ter::tecINTERNAL),
        };
        let lp_line = lo.issuer == *lp || hi.issuer == *lp;
        let token_line = lo == lpt || hi == lpt;
        if lp_line && token_line {
            lp_lines += 1;
            if lp_lines > 1 {
                return Err(Ter::tecINTERNAL);
            }
        } else if token_line {
            return Ok(false);
        } else {
            iou_lines += 1;
            if iou_lines > 2 {
                return Err(Ter::tecINTERNAL);
            }
        }
    }
    if lp_lines != 1 || iou_lines == 0 {
        return Err(Ter::tecINTERNAL);
    }
    Ok(true)
}

/// rippled's `invalidAMMAsset`: the "XRP" ISO code as a currency, or an issue outside
/// `pair` when a pair is given.
pub fn invalid_amm_asset(issue: &Issue, pair: Option<(Issue, Issue)>) -> Ter {
    if issue.currency.is_bad() {
        return Ter::temBAD_CURRENCY;
    }
    if issue.is_xrp() && issue.issuer != AccountId::ZERO {
        return Ter::temBAD_ISSUER;
    }
    if let Some((a, b)) = pair {
        if *issue != a && *issue != b {
            return Ter::temBAD_AMM_TOKENS;
        }
    }
    Ter::tesSUCCESS
}

/// rippled's `invalidAMMAssetPair`: two different valid issues (of `pair` when given).
pub fn invalid_amm_asset_pair(
    a: &Issue,
    b: &Issue,
    pair: Option<(Issue, Issue)>,
) -> Result<(), Ter> {
    if a == b {
        return Err(Ter::temBAD_AMM_TOKENS);
    }
    invalid_amm_asset(a, pair).into_result()?;
    invalid_amm_asset(b, pair).into_result()
}

/// rippled's `invalidAMMAmount`: a valid issue (of `pair` when given) and an amount
/// above zero (or zero, when `valid_zero`).
pub fn invalid_amm_amount(
    amount: &Amount,
    pair: Option<(Issue, Issue)>,
    valid_zero: bool,
) -> Result<(), Ter> {
    invalid_amm_asset(&amount.issue(), pair).into_result()?;
    if amount.is_negative() || (!valid_zero && amount.is_zero()) {
        return Err(Ter::temBAD_AMOUNT);
    }
    Ok(())
}

/// The AMM a transaction names by its Asset and Asset2 fields, with its key.
pub fn tx_amm(view: &dyn ReadView, tx: &StObject) -> Option<(AmmEntry, Arc<StObject>)> {
    let s = sf();
    let (a, b) = (issue_of(tx, s.asset)?, issue_of(tx, s.asset2)?);
    let (key, sle) = read_amm(view, &a, &b)?;
    Some((AmmEntry::from_sle(key, &sle)?, sle))
}

/// The AMM entry `lp` holds LP tokens of becomes `lp`'s trust line balance when `lp` is
/// the only provider and the two are within 0.1% (`verifyAndAdjustLPTokenBalance`, a
/// rounding remainder); `tecAMM_INVALID_TOKENS` when they are further apart.
pub fn verify_and_adjust_lp_balance(
    sb: &mut Sandbox,
    amm: &mut AmmEntry,
    sle: &mut StObject,
    lp: &AccountId,
) -> Ter {
    let held = lp_holds(sb, amm, lp);
    match is_only_lp(sb, amm, lp) {
        Err(t) => t,
        Ok(false) => Ter::tesSUCCESS,
        Ok(true) => {
            let within = amm_math::within_relative_distance(
                &held,
                &amm.lp_balance,
                crate::protocol::number::Number::new(1, -3),
            );
            if !within {
                return Ter::tecAMM_INVALID_TOKENS;
            }
            sle.set(sf().lp_token_balance, StValue::Amount(held));
            amm.lp_balance = held;
            sb.update(amm.key, sle.clone());
            Ter::tesSUCCESS
        }
    }
}
