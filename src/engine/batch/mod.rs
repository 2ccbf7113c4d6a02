//! Batch.

#[allow(clippy::module_inception)]
pub mod batch;

pub use self::batch::{apply_inners, inner_has_signature, is_inner, runs_inners, tf};
