//! The node's identity as server_info shows it: a node public key (`pubkey_node`, base58
//! `n...`) and the host id. Each run draws a fresh node seed (a standalone server has no
//! peers that would remember it).

use crate::protocol::keys::KeyPair;
use crate::protocol::rfc1751::word_from_blob;
use crate::protocol::seed::Seed;

/// The node's public key and host ids.
pub struct NodeIdentity {
    /// base58 NodePublic (`n...`).
    pub public_base58: String,
    /// The machine's host name (admins see it as `hostid`).
    pub host_name: String,
    /// One RFC 1751 word derived from the node key (non-admins see it as `hostid`, as in
    /// rippled, which names a host without revealing it).
    pub host_word: String,
}

impl NodeIdentity {
    /// A fresh random node identity.
    pub fn random() -> NodeIdentity {
        let (public_base58, host_word) = match KeyPair::node_from_seed(&Seed::random()) {
            Ok(pair) => (
                pair.public.to_node_base58(),
                word_from_blob(pair.public.as_bytes()).to_owned(),
            ),
            // A random seed whose root key search fails has probability ~2^-128 * 128.
            Err(_) => ("none".to_owned(), "NONE".to_owned()),
        };
        NodeIdentity {
            public_base58,
            host_name: host_name(),
            host_word,
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
