//! Fixed-width identifiers: account IDs, 256-bit hashes, currency codes.
//!
//! Each prints the way rippled prints it in JSON: addresses in base58 (`r...`), hashes as
//! 64 upper-case hex characters, currencies as three letters or 40 hex characters.

use std::fmt;
use std::str::FromStr;

use super::base58::{self, version, Base58Error};

thread_local! {
    /// Addresses made on this thread, by account (see [`AccountId::to_address`]).
    static ADDRESSES: std::cell::RefCell<std::collections::HashMap<AccountId, String>> =
        std::cell::RefCell::new(std::collections::HashMap::new());
}

/// Upper-case hex of `bytes` (the `hex` crate's encoder goes through a char iterator).
pub fn hex_upper(bytes: impl AsRef<[u8]>) -> String {
    const DIGITS: &[u8; 16] = b"0123456789ABCDEF";
    let bytes = bytes.as_ref();
    let mut out = Vec::with_capacity(bytes.len() * 2);
    for b in bytes {
        out.push(DIGITS[(b >> 4) as usize]);
        out.push(DIGITS[(b & 0x0f) as usize]);
    }
    String::from_utf8(out).unwrap_or_default()
}

/// A 160-bit account identifier: RIPEMD160(SHA256(public key)).
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct AccountId(pub [u8; 20]);

impl AccountId {
    /// rippled's `xrpAccount()`: all zeros, the issuer of XRP.
    pub const ZERO: AccountId = AccountId([0u8; 20]);
    /// rippled's `noAccount()`: 0x...01, the issuer written in a trust line's Balance.
    pub const ONE: AccountId =
        AccountId([0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1]);

    /// The account ID of a 33-byte public key.
    pub fn from_public_key(public_key: &[u8]) -> AccountId {
        AccountId(super::hash::ripemd160_sha256(public_key))
    }

    /// The classic address, `r...`. Base58 with a double SHA-256 checksum costs about a
    /// microsecond, and replies name the same few accounts over and over (an order book
    /// page names its issuer in every offer), so each thread remembers the addresses it
    /// made last.
    pub fn to_address(&self) -> String {
        ADDRESSES.with(|cache| {
            let mut cache = cache.borrow_mut();
            if let Some(a) = cache.get(self) {
                return a.clone();
            }
            let a = base58::encode(version::ACCOUNT_ID, &self.0);
            if cache.len() >= crate::limits::ADDRESS_CACHE_ENTRIES {
                cache.clear();
            }
            cache.insert(*self, a.clone());
            a
        })
    }

    /// Parses a classic address (`r...`). X-addresses are not accepted, as in rippled.
    pub fn from_address(s: &str) -> Result<AccountId, Base58Error> {
        let v = base58::decode(s, version::ACCOUNT_ID, 20)?;
        let mut a = [0u8; 20];
        a.copy_from_slice(&v);
        Ok(AccountId(a))
    }

    /// Raw bytes.
    pub fn as_bytes(&self) -> &[u8; 20] {
        &self.0
    }
}

impl fmt::Display for AccountId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_address())
    }
}

impl fmt::Debug for AccountId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "AccountId({})", self.to_address())
    }
}

impl FromStr for AccountId {
    type Err = Base58Error;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        AccountId::from_address(s)
    }
}

macro_rules! hash_type {
    ($name:ident, $len:expr, $doc:expr) => {
        #[doc = $doc]
        #[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
        pub struct $name(pub [u8; $len]);

        impl $name {
            /// All zeros.
            pub const ZERO: $name = $name([0u8; $len]);

            /// Parses exactly the right number of hex digits (either case).
            pub fn from_hex(s: &str) -> Option<$name> {
                if s.len() != $len * 2 {
                    return None;
                }
                let mut out = [0u8; $len];
                hex::decode_to_slice(s, &mut out).ok()?;
                Some($name(out))
            }

            /// Upper-case hex, as rippled prints hashes.
            pub fn to_hex(&self) -> String {
                hex_upper(self.0)
            }

            /// True when every byte is zero.
            pub fn is_zero(&self) -> bool {
                self.0.iter().all(|b| *b == 0)
            }

            /// Raw bytes.
            pub fn as_bytes(&self) -> &[u8; $len] {
                &self.0
            }
        }

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(&self.to_hex())
            }
        }

        impl fmt::Debug for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                write!(f, "{}({})", stringify!($name), self.to_hex())
            }
        }
    };
}

hash_type!(
    Hash128,
    16,
    "A 128-bit value (Hash128 fields such as EmailHash)."
);
hash_type!(Hash160, 20, "A 160-bit value (Hash160 fields).");
hash_type!(
    Hash256,
    32,
    "A 256-bit hash: ledger keys, transaction IDs, ledger hashes."
);

impl Hash256 {
    /// Adds one, treating the hash as a big-endian number (wraps at the top). Used to walk
    /// directory pages and to make keys "just past" another.
    pub fn next(&self) -> Hash256 {
        let mut b = self.0;
        for i in (0..32).rev() {
            let (v, carry) = b[i].overflowing_add(1);
            b[i] = v;
            if !carry {
                break;
            }
        }
        Hash256(b)
    }
}

/// Characters rippled accepts in a three-letter currency code (`isoCharSet` in UintTypes.cpp).
pub const ISO_CHARSET: &str =
    "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789<>(){}[]|?!@#$%^&*";

/// Why a currency code was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("invalid currency code")]
pub struct CurrencyError;

/// A 160-bit currency code. All zeros is XRP.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Currency(pub [u8; 20]);

impl Currency {
    /// The native currency (all zeros).
    pub const XRP: Currency = Currency([0u8; 20]);

    /// True for the native currency.
    pub fn is_xrp(&self) -> bool {
        self.0 == [0u8; 20]
    }

    /// rippled's `badCurrency()`: the ISO-form code "XRP", which transactors refuse.
    pub fn is_bad(&self) -> bool {
        *self == Currency::iso(*b"XRP")
    }

    /// The 20-byte form of a three-letter code: 12 zero bytes, the letters, 5 zero bytes.
    pub fn iso(code: [u8; 3]) -> Currency {
        let mut b = [0u8; 20];
        b[12..15].copy_from_slice(&code);
        Currency(b)
    }

    /// Parses rippled's JSON form (`to_currency`): `""` and `"XRP"` are native; three
    /// characters from [`ISO_CHARSET`] are copied as given; 40 hex characters are raw.
    pub fn from_json_str(s: &str) -> Result<Currency, CurrencyError> {
        if s.is_empty() || s == "XRP" {
            return Ok(Currency::XRP);
        }
        if s.len() == 3 && s.chars().all(|c| ISO_CHARSET.contains(c)) {
            let b = s.as_bytes();
            return Ok(Currency::iso([b[0], b[1], b[2]]));
        }
        if s.len() == 40 {
            let mut b = [0u8; 20];
            if hex::decode_to_slice(s, &mut b).is_ok() {
                return Ok(Currency(b));
            }
        }
        Err(CurrencyError)
    }

    /// rippled's `to_string(Currency)`: "XRP" for native; three letters when only the ISO
    /// bytes are set, the code is not "XRP" and every letter is in the set; else 40 hex.
    pub fn to_json_string(&self) -> String {
        if self.is_xrp() {
            return "XRP".to_string();
        }
        let b = &self.0;
        let others_zero = b[..12].iter().chain(b[15..].iter()).all(|x| *x == 0);
        if others_zero {
            let code = &b[12..15];
            if code.iter().all(|c| ISO_CHARSET.as_bytes().contains(c)) && code != b"XRP" {
                return String::from_utf8_lossy(code).into_owned();
            }
        }
        crate::protocol::types::hex_upper(b)
    }
}

impl fmt::Display for Currency {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_json_string())
    }
}

impl fmt::Debug for Currency {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Currency({})", self.to_json_string())
    }
}

/// A currency and its issuer (XRP has the zero issuer).
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug, Default)]
pub struct Issue {
    /// The currency code.
    pub currency: Currency,
    /// The issuing account; [`AccountId::ZERO`] for XRP.
    pub issuer: AccountId,
}

impl Issue {
    /// The native issue.
    pub const XRP: Issue = Issue {
        currency: Currency::XRP,
        issuer: AccountId::ZERO,
    };

    /// True for XRP.
    pub fn is_xrp(&self) -> bool {
        self.currency.is_xrp()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn address_round_trip() {
        let a = AccountId::from_address("rHb9CJAWyB4rj91VRWn96DkukG4bwdtyTh").unwrap();
        assert_eq!(
            crate::protocol::types::hex_upper(a.0),
            "B5F762798A53D543A014CAF8B297CFF8F2F937E8"
        );
        assert_eq!(a.to_string(), "rHb9CJAWyB4rj91VRWn96DkukG4bwdtyTh");
        assert!(AccountId::from_address("rHb9CJAWyB4rj91VRWn96DkukG4bwdtyTX").is_err());
    }

    #[test]
    fn currency_forms() {
        let usd = Currency::from_json_str("USD").unwrap();
        assert_eq!(
            crate::protocol::types::hex_upper(usd.0),
            "0000000000000000000000005553440000000000"
        );
        assert_eq!(usd.to_json_string(), "USD");
        assert!(Currency::from_json_str("XRP").unwrap().is_xrp());
        assert!(Currency::from_json_str("US").is_err());
        assert!(Currency::from_json_str("U D").is_err());
        let bad = Currency::iso(*b"XRP");
        assert!(bad.is_bad());
        assert_eq!(
            bad.to_json_string(),
            "0000000000000000000000005852500000000000"
        );
        let h = Currency::from_json_str("0158415500000000C1F76FF6ECB0BAC600000000").unwrap();
        assert_eq!(
            h.to_json_string(),
            "0158415500000000C1F76FF6ECB0BAC600000000"
        );
        assert_eq!(
            Currency::from_json_str("usd").unwrap().to_json_string(),
            "usd"
        );
    }

    #[test]
    fn hash_next_carries() {
        let mut h = [0u8; 32];
        h[31] = 0xFF;
        let n = Hash256(h).next();
        assert_eq!(n.0[30], 1);
        assert_eq!(n.0[31], 0);
    }
}
