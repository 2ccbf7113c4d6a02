//! Trust lines: TrustSet, and Clawback of an issued currency or an MPT.

pub mod clawback;
pub mod trust_set;
