//! SetRegularKey (rippled `SetRegularKey.cpp`): sets or removes the account's regular key.

use crate::engine::entry::set_flags;
use crate::engine::ter::Ter;
use crate::engine::transactor::{ApplyContext, TF_UNIVERSAL_MASK};
use crate::ledger::flags::lsf;
use crate::ledger::keylet;
use crate::ledger::sf::{sf, StExt};
use crate::ledger::view::ReadView;
use crate::protocol::st::{StObject, StValue};
use crate::protocol::types::AccountId;

/// preflight.
pub fn preflight(tx: &StObject, account: &AccountId) -> Ter {
    if tx.flags() & TF_UNIVERSAL_MASK != 0 {
        return Ter::temINVALID_FLAG;
    }
    if tx.account_of(sf().regular_key) == Some(*account) {
        return Ter::temBAD_REGKEY;
    }
    Ter::tesSUCCESS
}

/// preclaim: nothing to read before apply.
pub fn preclaim(_view: &dyn ReadView, _tx: &StObject, _account: &AccountId) -> Ter {
    Ter::tesSUCCESS
}

/// doApply.
pub fn do_apply(ctx: &mut ApplyContext) -> Ter {
    let s = sf();
    let key = keylet::account(&ctx.account);
    let Some(mut root) = ctx.sb.peek(&key) else {
        return Ter::tefINTERNAL;
    };
    if ctx.free_key {
        set_flags(&mut root, lsf::PASSWORD_SPENT, 0);
    }
    match ctx.tx.account_of(s.regular_key) {
        Some(k) => root.set(s.regular_key, StValue::AccountId(k)),
        None => {
            // Removing the regular key must leave a way to sign: the master key or a
            // signer list.
            if root.is_flag(lsf::DISABLE_MASTER) && !ctx.sb.exists(&keylet::signers(&ctx.account)) {
                return Ter::tecNO_ALTERNATIVE_KEY;
            }
            root.remove(s.regular_key);
        }
    }
    ctx.sb.update(key, root);
    Ter::tesSUCCESS
}
