//! OracleSet and OracleDelete (price oracles).

pub mod oracle_delete;
pub mod oracle_set;
