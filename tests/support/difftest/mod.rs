//! The differential tests' side (`tests/interop/diff_libs.rs`): random inputs, the normalization
//! of the JSON forms rippled and the libraries print differently on purpose, and the oracle
//! scripts (`tests/difftest/oracle.py`, `oracle.js`) that answer for the libraries.

pub mod gen;
pub mod norm;
pub mod oracle;
