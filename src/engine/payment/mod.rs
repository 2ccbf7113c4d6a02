//! Payment, and what other types share with it.

#[allow(clippy::module_inception)]
pub mod payment;

pub use self::payment::tf;
