//! Key pairs, secrets and addresses from passphrases, and the well-known values the tests
//! share: the genesis account and a channel ID to authorize claims on.

use ledgerd::protocol::keys::{KeyPair, KeyType};
use ledgerd::protocol::seed::Seed;

/// The genesis account's seed, its secret (passphrase `masterpassphrase`).
pub const GENESIS_SEED: &str = "snoPBrXtMeMyMHUVTgbuqAfg1SUTb";
/// The genesis account.
pub const GENESIS: &str = "rHb9CJAWyB4rj91VRWn96DkukG4bwdtyTh";
/// A channel ID for `channel_authorize` (signing a claim needs no channel in the ledger).
pub const CHANNEL: &str = "5DB01B7FFED6B67E6B0414DED11E051D2EE2B7619CE0EAA6286D67A3A4D5BDB3";

/// A secp256k1 key pair from a passphrase.
pub fn keys(passphrase: &str) -> KeyPair {
    keys_of_type(passphrase, KeyType::Secp256k1)
}

/// A key pair of type `kt` from a passphrase.
pub fn keys_of_type(passphrase: &str, kt: KeyType) -> KeyPair {
    KeyPair::from_seed(&Seed::from_passphrase(passphrase), kt).expect("keys")
}

/// The secret (family seed) of a passphrase.
pub fn secret(passphrase: &str) -> String {
    Seed::from_passphrase(passphrase).to_base58(KeyType::Secp256k1)
}

/// The classic address of a passphrase's account.
pub fn address(passphrase: &str) -> String {
    keys(passphrase).account_id().to_address()
}
