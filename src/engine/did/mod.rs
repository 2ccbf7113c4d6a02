//! DIDSet and DIDDelete.

pub mod did_delete;
pub mod did_set;
