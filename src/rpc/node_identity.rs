//! The node's identity as server_info shows it: a node public key (`pubkey_node`, base58
//! `n...`) and the host id. Each run draws a fresh node key (a standalone server has no peers
//! that would remember it).

use crate::protocol::base58::{self, version};
use crate::protocol::hash::sha256;

/// The node's public key and host ids.
pub struct NodeIdentity {
    /// base58 NodePublic of a fresh secp256k1 key.
    pub public_base58: String,
    /// The machine's host name (admins see it as `hostid`).
    pub host_name: String,
    /// A short id derived from the node key (non-admins see it as `hostid`).
    pub host_word: String,
}

impl NodeIdentity {
    /// A fresh random node key.
    pub fn random() -> NodeIdentity {
        let secp = secp256k1::Secp256k1::signing_only();
        // A uniformly random 32-byte string is a valid key with overwhelming probability;
        // loop for the rest.
        let secret = loop {
            let bytes: [u8; 32] = rand::random();
            if let Ok(k) = secp256k1::SecretKey::from_slice(&bytes) {
                break k;
            }
        };
        let public = secp256k1::PublicKey::from_secret_key(&secp, &secret).serialize();
        let digest = sha256(&public);
        NodeIdentity {
            public_base58: base58::encode(version::NODE_PUBLIC, &public),
            host_name: host_name(),
            host_word: hex::encode_upper(&digest[..4]),
        }
    }
}

fn host_name() -> String {
    std::fs::read_to_string("/etc/hostname")
        .ok()
        .map(|s| s.trim().to_owned())
        .filter(|s| !s.is_empty())
        .or_else(|| std::env::var("HOSTNAME").ok())
        .unwrap_or_else(|| "localhost".into())
}
