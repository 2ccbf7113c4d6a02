//! Every tuned bound of ledgerd, in one place. Prose elsewhere names the constant, never
//! the number. Units and qualifiers come last in the names (`frame_bytes_max`).

// ---- ledger/engine ----

/// Reference transaction cost in drops of a standalone genesis (rippled `FeeSetup`).
pub const FEE_BASE_DROPS_DEFAULT: u64 = 10;
/// Reserve of an account with no owned objects, in drops (10 XRP; rippled `FeeSetup`).
pub const RESERVE_BASE_DROPS_DEFAULT: u64 = 10_000_000;
/// Extra reserve per owned object, in drops (2 XRP; rippled `FeeSetup`).
pub const RESERVE_INC_DROPS_DEFAULT: u64 = 2_000_000;
/// Entries in one directory page (rippled `dirNodeMaxEntries`).
pub const DIR_PAGE_ENTRIES_MAX: usize = 32;
/// Pages in one directory (rippled `dirNodeMaxPages`); beyond it `tecDIR_FULL`.
pub const DIR_PAGES_MAX: u64 = 262_144;
/// Closed ledgers whose state stays readable (`by_seq`), counting the newest.
pub const LEDGER_HISTORY_COUNT: u32 = 256;
/// Longest Domain an AccountSet may store, in bytes (rippled `maxDomainLength`).
pub const DOMAIN_BYTES_MAX: usize = 256;
/// Network IDs at or below this do not carry NetworkID in transactions (rippled).
pub const NETWORK_ID_LEGACY_MAX: u32 = 1024;
