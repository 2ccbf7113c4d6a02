//! The account types: AccountSet, SetRegularKey, SignerListSet, TicketCreate,
//! DepositPreauth and AccountDelete, and what they share with the pipeline and each
//! other: an account's signer list and its deposit preauthorizations.

pub mod account_delete;
pub mod account_set;
pub mod deposit_preauth;
pub mod set_regular_key;
pub mod signer_list_set;
pub mod ticket_create;
