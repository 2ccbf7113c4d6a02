//! The transaction types this engine applies, and the dispatch to their rules.

use super::ter::Ter;
use super::transactor::ApplyContext;
use super::{account_set, pay_chan, payment, set_regular_key, trust_set};
use crate::ledger::view::ReadView;
use crate::protocol::st::StObject;
use crate::protocol::types::AccountId;

/// Transaction types (`TransactionType` codes from definitions.json).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[repr(u16)]
pub enum TxType {
    /// Payment.
    Payment = 0,
    /// AccountSet.
    AccountSet = 3,
    /// SetRegularKey.
    SetRegularKey = 5,
    /// PaymentChannelCreate.
    PaymentChannelCreate = 13,
    /// PaymentChannelFund.
    PaymentChannelFund = 14,
    /// PaymentChannelClaim.
    PaymentChannelClaim = 15,
    /// TrustSet.
    TrustSet = 20,
}

impl TxType {
    /// The type with this code, if the engine applies it.
    pub fn from_code(code: u16) -> Option<TxType> {
        Some(match code {
            0 => TxType::Payment,
            3 => TxType::AccountSet,
            5 => TxType::SetRegularKey,
            13 => TxType::PaymentChannelCreate,
            14 => TxType::PaymentChannelFund,
            15 => TxType::PaymentChannelClaim,
            20 => TxType::TrustSet,
            _ => return None,
        })
    }

    /// Type-specific checks that need no ledger.
    pub fn preflight(self, tx: &StObject, account: &AccountId) -> Ter {
        match self {
            TxType::Payment => payment::preflight(tx, account),
            TxType::AccountSet => account_set::preflight(tx),
            TxType::SetRegularKey => set_regular_key::preflight(tx, account),
            TxType::PaymentChannelCreate => pay_chan::create_preflight(tx, account),
            TxType::PaymentChannelFund => pay_chan::fund_preflight(tx),
            TxType::PaymentChannelClaim => pay_chan::claim_preflight(tx),
            TxType::TrustSet => trust_set::preflight(tx),
        }
    }

    /// Type-specific checks that read the ledger.
    pub fn preclaim(self, view: &dyn ReadView, tx: &StObject, account: &AccountId) -> Ter {
        match self {
            TxType::Payment => payment::preclaim(view, tx),
            TxType::AccountSet => account_set::preclaim(view, tx, account),
            TxType::SetRegularKey => Ter::tesSUCCESS,
            TxType::PaymentChannelCreate => pay_chan::create_preclaim(view, tx, account),
            TxType::PaymentChannelFund | TxType::PaymentChannelClaim => Ter::tesSUCCESS,
            TxType::TrustSet => trust_set::preclaim(view, tx, account),
        }
    }

    /// The transaction's effect, into the sandbox.
    pub fn apply(self, ctx: &mut ApplyContext) -> Ter {
        match self {
            TxType::Payment => payment::apply(ctx),
            TxType::AccountSet => account_set::apply(ctx),
            TxType::SetRegularKey => set_regular_key::apply(ctx),
            TxType::PaymentChannelCreate => pay_chan::create_apply(ctx),
            TxType::PaymentChannelFund => pay_chan::fund_apply(ctx),
            TxType::PaymentChannelClaim => pay_chan::claim_apply(ctx),
            TxType::TrustSet => trust_set::apply(ctx),
        }
    }
}
