//! AccountSet (rippled `SetAccount.cpp`): account flags and settings. Setting RequireAuth
//! needs an empty owner directory.

use super::DOMAIN_BYTES_MAX;
use crate::engine::entry::key_kind;
use crate::engine::ripple::QUALITY_ONE;
use crate::engine::ter::Ter;
use crate::engine::transactor::{ApplyContext, TF_UNIVERSAL_MASK};
use crate::ledger::directory;
use crate::ledger::flags::lsf;
use crate::ledger::keylet;
use crate::ledger::sf::{sf, StExt};
use crate::ledger::view::ReadView;
use crate::protocol::st::{StObject, StValue};
use crate::protocol::types::{AccountId, Hash128, Hash256};

/// Legacy transaction flags of AccountSet.
pub mod tf {
    /// Same as SetFlag asfRequireDest.
    pub const REQUIRE_DEST_TAG: u32 = 0x0001_0000;
    /// Same as ClearFlag asfRequireDest.
    pub const OPTIONAL_DEST_TAG: u32 = 0x0002_0000;
    /// Same as SetFlag asfRequireAuth.
    pub const REQUIRE_AUTH: u32 = 0x0004_0000;
    /// Same as ClearFlag asfRequireAuth.
    pub const OPTIONAL_AUTH: u32 = 0x0008_0000;
    /// Same as SetFlag asfDisallowXRP.
    pub const DISALLOW_XRP: u32 = 0x0010_0000;
    /// Same as ClearFlag asfDisallowXRP.
    pub const ALLOW_XRP: u32 = 0x0020_0000;
    /// Bits AccountSet may not set.
    pub const MASK: u32 = super::TF_UNIVERSAL_MASK
        & !(REQUIRE_DEST_TAG
            | OPTIONAL_DEST_TAG
            | REQUIRE_AUTH
            | OPTIONAL_AUTH
            | DISALLOW_XRP
            | ALLOW_XRP);
}

/// SetFlag / ClearFlag values.
pub mod asf {
    /// Require a destination tag.
    pub const REQUIRE_DEST: u32 = 1;
    /// Require authorization of holders.
    pub const REQUIRE_AUTH: u32 = 2;
    /// Disallow XRP (advisory).
    pub const DISALLOW_XRP: u32 = 3;
    /// Disable the master key.
    pub const DISABLE_MASTER: u32 = 4;
    /// Track the last transaction ID.
    pub const ACCOUNT_TXN_ID: u32 = 5;
    /// Give up freezing.
    pub const NO_FREEZE: u32 = 6;
    /// Freeze every line.
    pub const GLOBAL_FREEZE: u32 = 7;
    /// Ripple by default.
    pub const DEFAULT_RIPPLE: u32 = 8;
    /// Deposit authorization.
    pub const DEPOSIT_AUTH: u32 = 9;
    /// Authorized NFToken minter.
    pub const AUTHORIZED_NFTOKEN_MINTER: u32 = 10;
    /// Disallow incoming NFToken offers.
    pub const DISALLOW_INCOMING_NFTOKEN_OFFER: u32 = 12;
    /// Disallow incoming checks.
    pub const DISALLOW_INCOMING_CHECK: u32 = 13;
    /// Disallow incoming payment channels.
    pub const DISALLOW_INCOMING_PAYCHAN: u32 = 14;
    /// Disallow incoming trust lines.
    pub const DISALLOW_INCOMING_TRUSTLINE: u32 = 15;
    /// Allow trust line clawback.
    pub const ALLOW_TRUSTLINE_CLAWBACK: u32 = 16;
    /// Let holders escrow this account's issued currencies (TokenEscrow).
    pub const ALLOW_TRUSTLINE_LOCKING: u32 = 17;
}

const TICK_SIZE_MIN: u8 = 3;
const TICK_SIZE_MAX: u8 = 16;

struct Asks {
    set: u32,
    clear: u32,
    set_auth: bool,
    clear_auth: bool,
    set_dest: bool,
    clear_dest: bool,
    set_disallow: bool,
    clear_disallow: bool,
}

fn asks(tx: &StObject) -> Asks {
    let flags = tx.flags();
    let set = tx.u32_of(sf().set_flag).unwrap_or(0);
    let clear = tx.u32_of(sf().clear_flag).unwrap_or(0);
    Asks {
        set,
        clear,
        set_auth: flags & tf::REQUIRE_AUTH != 0 || set == asf::REQUIRE_AUTH,
        clear_auth: flags & tf::OPTIONAL_AUTH != 0 || clear == asf::REQUIRE_AUTH,
        set_dest: flags & tf::REQUIRE_DEST_TAG != 0 || set == asf::REQUIRE_DEST,
        clear_dest: flags & tf::OPTIONAL_DEST_TAG != 0 || clear == asf::REQUIRE_DEST,
        set_disallow: flags & tf::DISALLOW_XRP != 0 || set == asf::DISALLOW_XRP,
        clear_disallow: flags & tf::ALLOW_XRP != 0 || clear == asf::DISALLOW_XRP,
    }
}

/// preflight.
pub fn preflight(tx: &StObject, _account: &AccountId) -> Ter {
    let s = sf();
    if tx.flags() & tf::MASK != 0 {
        return Ter::temINVALID_FLAG;
    }
    let a = asks(tx);
    if a.set != 0 && a.set == a.clear {
        return Ter::temINVALID_FLAG;
    }
    if (a.set_auth && a.clear_auth)
        || (a.set_dest && a.clear_dest)
        || (a.set_disallow && a.clear_disallow)
    {
        return Ter::temINVALID_FLAG;
    }
    if let Some(rate) = tx.u32_of(s.transfer_rate) {
        if (rate != 0 && rate < QUALITY_ONE) || rate > 2 * QUALITY_ONE {
            return Ter::temBAD_TRANSFER_RATE;
        }
    }
    if let Some(tick) = tx.u8_of(s.tick_size) {
        if tick != 0 && !(TICK_SIZE_MIN..=TICK_SIZE_MAX).contains(&tick) {
            return Ter::temBAD_TICK_SIZE;
        }
    }
    if let Some(mk) = tx.blob_of(s.message_key) {
        if !mk.is_empty() && key_kind(mk).is_none() {
            return Ter::telBAD_PUBLIC_KEY;
        }
    }
    if let Some(d) = tx.blob_of(s.domain) {
        if d.len() > DOMAIN_BYTES_MAX {
            return Ter::telBAD_DOMAIN;
        }
    }
    let has_minter = tx.get(s.nftoken_minter).is_some();
    if (a.set == asf::AUTHORIZED_NFTOKEN_MINTER && !has_minter)
        || (a.clear == asf::AUTHORIZED_NFTOKEN_MINTER && has_minter)
    {
        return Ter::temMALFORMED;
    }
    Ter::tesSUCCESS
}

/// preclaim: RequireAuth and clawback need an empty owner directory.
pub fn preclaim(view: &dyn ReadView, tx: &StObject, account: &AccountId) -> Ter {
    let Some(root) = view.read(&keylet::account(account)) else {
        return Ter::terNO_ACCOUNT;
    };
    let a = asks(tx);
    let dir_empty = || directory::is_empty(view, &keylet::owner_dir(account));
    if a.set_auth && !root.is_flag(lsf::REQUIRE_AUTH) && !dir_empty() {
        return Ter::tecOWNERS;
    }
    if a.set == asf::ALLOW_TRUSTLINE_CLAWBACK {
        if root.is_flag(lsf::NO_FREEZE) {
            return Ter::tecNO_PERMISSION;
        }
        if !dir_empty() {
            return Ter::tecOWNERS;
        }
    }
    if a.set == asf::NO_FREEZE && root.is_flag(lsf::ALLOW_TRUSTLINE_CLAWBACK) {
        return Ter::tecNO_PERMISSION;
    }
    Ter::tesSUCCESS
}

/// doApply.
pub fn do_apply(ctx: &mut ApplyContext) -> Result<(), Ter> {
    let key = keylet::account(&ctx.account);
    let Some(mut root) = ctx.sb.peek(&key) else {
        return Err(Ter::tefINTERNAL);
    };
    let a = asks(ctx.tx);
    let flags_in = root.flags();
    let keys = Keys {
        signed_by_master: ctx.signed_by_master,
        has_signer_list: ctx.sb.exists(&keylet::signers(&ctx.account)),
    };
    let out = new_flags(&root, &a, keys)?;
    set_fields(&mut root, ctx.tx, &a);
    if out != flags_in {
        root.set(sf().flags, StValue::UInt32(out));
    }
    ctx.sb.update(key, root);
    Ok(())
}

/// The SetFlag / ClearFlag values that switch one DisallowIncoming flag each.
const DISALLOW_INCOMING: [(u32, u32); 4] = [
    (
        asf::DISALLOW_INCOMING_NFTOKEN_OFFER,
        lsf::DISALLOW_INCOMING_NFTOKEN_OFFER,
    ),
    (asf::DISALLOW_INCOMING_CHECK, lsf::DISALLOW_INCOMING_CHECK),
    (
        asf::DISALLOW_INCOMING_PAYCHAN,
        lsf::DISALLOW_INCOMING_PAYCHAN,
    ),
    (
        asf::DISALLOW_INCOMING_TRUSTLINE,
        lsf::DISALLOW_INCOMING_TRUSTLINE,
    ),
];

/// How the transaction was signed, and what else could sign for the account.
#[derive(Clone, Copy)]
struct Keys {
    signed_by_master: bool,
    has_signer_list: bool,
}

/// The account's flags after the request, or the tec that refuses it.
fn new_flags(root: &StObject, a: &Asks, keys: Keys) -> Result<u32, Ter> {
    let signed_by_master = keys.signed_by_master;
    let flags_in = root.flags();
    let mut out = legacy_flags(flags_in, a);
    out = master_key_flag(out, flags_in, root, a, keys)?;
    out = switch(out, a, asf::DEFAULT_RIPPLE, lsf::DEFAULT_RIPPLE);
    out = freeze_flags(out, flags_in, a, signed_by_master)?;
    out = switch(out, a, asf::DEPOSIT_AUTH, lsf::DEPOSIT_AUTH);
    for (asf_value, bit) in DISALLOW_INCOMING {
        out = switch(out, a, asf_value, bit);
    }
    if a.set == asf::ALLOW_TRUSTLINE_CLAWBACK {
        out |= lsf::ALLOW_TRUSTLINE_CLAWBACK;
    }
    // Before TokenEscrow the flag is ignored.
    if crate::ledger::rules::enabled_now(crate::protocol::features::Feature::TokenEscrow) {
        out = switch(
            out,
            a,
            asf::ALLOW_TRUSTLINE_LOCKING,
            lsf::ALLOW_TRUSTLINE_LOCKING,
        );
    }
    Ok(out)
}

/// The three flags a transaction flag or an asf value may change: RequireAuth,
/// RequireDestTag, DisallowXRP.
fn legacy_flags(flags_in: u32, a: &Asks) -> u32 {
    let mut out = flags_in;
    let toggle = |out: &mut u32, set: bool, clear: bool, bit: u32| {
        if set && flags_in & bit == 0 {
            *out |= bit;
        }
        if clear && flags_in & bit != 0 {
            *out &= !bit;
        }
    };
    toggle(&mut out, a.set_auth, a.clear_auth, lsf::REQUIRE_AUTH);
    toggle(&mut out, a.set_dest, a.clear_dest, lsf::REQUIRE_DEST_TAG);
    toggle(
        &mut out,
        a.set_disallow,
        a.clear_disallow,
        lsf::DISALLOW_XRP,
    );
    out
}

/// A flag SetFlag `asf_value` sets and ClearFlag `asf_value` clears.
fn switch(out: u32, a: &Asks, asf_value: u32, bit: u32) -> u32 {
    if a.set == asf_value {
        out | bit
    } else if a.clear == asf_value {
        out & !bit
    } else {
        out
    }
}

/// DisableMaster: only the master key may disable itself, and only when a regular key or
/// a signer list remains to sign with.
fn master_key_flag(
    mut out: u32,
    flags_in: u32,
    root: &StObject,
    a: &Asks,
    keys: Keys,
) -> Result<u32, Ter> {
    if a.set == asf::DISABLE_MASTER && flags_in & lsf::DISABLE_MASTER == 0 {
        if !keys.signed_by_master {
            return Err(Ter::tecNEED_MASTER_KEY);
        }
        if root.get(sf().regular_key).is_none() && !keys.has_signer_list {
            return Err(Ter::tecNO_ALTERNATIVE_KEY);
        }
        out |= lsf::DISABLE_MASTER;
    }
    if a.clear == asf::DISABLE_MASTER && flags_in & lsf::DISABLE_MASTER != 0 {
        out &= !lsf::DISABLE_MASTER;
    }
    Ok(out)
}

/// NoFreeze (master key only, for good) and GlobalFreeze.
fn freeze_flags(mut out: u32, flags_in: u32, a: &Asks, signed_by_master: bool) -> Result<u32, Ter> {
    if a.set == asf::NO_FREEZE {
        if !signed_by_master && flags_in & lsf::DISABLE_MASTER == 0 {
            return Err(Ter::tecNEED_MASTER_KEY);
        }
        out |= lsf::NO_FREEZE;
    }
    if a.set == asf::GLOBAL_FREEZE {
        out |= lsf::GLOBAL_FREEZE;
    }
    // Who gave up freezing may not lift a global freeze.
    if a.set != asf::GLOBAL_FREEZE && a.clear == asf::GLOBAL_FREEZE && out & lsf::NO_FREEZE == 0 {
        out &= !lsf::GLOBAL_FREEZE;
    }
    Ok(out)
}

/// The account's settings other than flags: AccountTxnID, EmailHash, WalletLocator,
/// MessageKey, Domain, TransferRate, TickSize, NFTokenMinter. A zero or empty value
/// removes the field.
fn set_fields(root: &mut StObject, tx: &StObject, a: &Asks) {
    let s = sf();
    if a.set == asf::ACCOUNT_TXN_ID && root.get(s.account_txn_id).is_none() {
        root.set(s.account_txn_id, StValue::Hash256(Hash256::ZERO));
    }
    if a.clear == asf::ACCOUNT_TXN_ID {
        root.remove(s.account_txn_id);
    }
    if let Some(h) = tx.h128_of(s.email_hash) {
        if h == Hash128::ZERO {
            root.remove(s.email_hash);
        } else {
            root.set(s.email_hash, StValue::Hash128(h));
        }
    }
    if let Some(h) = tx.h256_of(s.wallet_locator) {
        if h.is_zero() {
            root.remove(s.wallet_locator);
        } else {
            root.set(s.wallet_locator, StValue::Hash256(h));
        }
    }
    for field in [s.message_key, s.domain] {
        if let Some(b) = tx.blob_of(field) {
            if b.is_empty() {
                root.remove(field);
            } else {
                root.set(field, StValue::Blob(b.to_vec()));
            }
        }
    }
    if let Some(rate) = tx.u32_of(s.transfer_rate) {
        if rate == 0 || rate == QUALITY_ONE {
            root.remove(s.transfer_rate);
        } else {
            root.set(s.transfer_rate, StValue::UInt32(rate));
        }
    }
    if let Some(tick) = tx.u8_of(s.tick_size) {
        if tick == 0 || tick == TICK_SIZE_MAX {
            root.remove(s.tick_size);
        } else {
            root.set(s.tick_size, StValue::UInt8(tick));
        }
    }
    if a.set == asf::AUTHORIZED_NFTOKEN_MINTER {
        if let Some(m) = tx.account_of(s.nftoken_minter) {
            root.set(s.nftoken_minter, StValue::AccountId(m));
        }
    }
    if a.clear == asf::AUTHORIZED_NFTOKEN_MINTER {
        root.remove(s.nftoken_minter);
    }
}

/// A delegate's granular permissions (rippled `AccountSet::checkPermission`): no flags;
/// Domain, EmailHash, MessageKey, TransferRate and TickSize each with its granular
/// permission; never WalletLocator or NFTokenMinter.
pub fn granular_permission(
    _view: &dyn ReadView,
    tx: &StObject,
    _account: &AccountId,
    has: &dyn Fn(&str) -> bool,
) -> bool {
    let s = sf();
    if tx.u32_of(s.set_flag).unwrap_or(0) != 0
        || tx.u32_of(s.clear_flag).unwrap_or(0) != 0
        || tx.flags() & TF_UNIVERSAL_MASK != 0
    {
        return false;
    }
    if tx.get(s.wallet_locator).is_some() || tx.get(s.nftoken_minter).is_some() {
        return false;
    }
    [
        (s.email_hash, "AccountEmailHashSet"),
        (s.message_key, "AccountMessageKeySet"),
        (s.domain, "AccountDomainSet"),
        (s.transfer_rate, "AccountTransferRateSet"),
        (s.tick_size, "AccountTickSizeSet"),
    ]
    .iter()
    .all(|(field, name)| tx.get(*field).is_none() || has(name))
}

/// What the queue weighs (rippled `SetAccount::makeTxConsequences`): a blocker when it
/// sets or clears RequireAuth, DisableMaster or AccountTxnID.
pub fn consequences(tx: &StObject) -> crate::engine::consequences::TxConsequences {
    let blocking = [asf::REQUIRE_AUTH, asf::DISABLE_MASTER, asf::ACCOUNT_TXN_ID];
    let flagged = |field| tx.u32_of(field).is_some_and(|f| blocking.contains(&f));
    let by_flags = tx.flags() & (tf::REQUIRE_AUTH | tf::OPTIONAL_AUTH) != 0;
    crate::engine::consequences::TxConsequences {
        blocker: by_flags || flagged(sf().set_flag) || flagged(sf().clear_flag),
        ..crate::engine::consequences::TxConsequences::normal(tx)
    }
}
