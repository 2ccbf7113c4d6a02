//! rippled's SHAMap hashing: a 16-way radix tree over 256-bit keys, one nibble per level.
//! Inner node hash = SHA-512-half(`MIN\0` || 16 child hashes, zero for an empty branch);
//! a leaf sits at the shallowest depth where its key is unique and carries its own hash
//! (state: `MLN\0` || entry || key; transactions: `SND\0` || VL tx || VL meta || id). An
//! empty tree hashes to zero.
//!
//! The tree is persistent: nodes are shared `Arc`s, an update copies only its path, and
//! inner hashes are computed lazily and cached, so a ledger close rehashes only the paths
//! that changed and every closed ledger keeps its own root for free.

use std::sync::{Arc, OnceLock};

use crate::protocol::hash::{prefix, sha512_half};
use crate::protocol::types::Hash256;

#[derive(Clone)]
enum Node {
    Leaf { key: Hash256, hash: Hash256 },
    Inner(Inner),
}

#[derive(Clone, Default)]
struct Inner {
    children: [Option<Arc<Node>>; 16],
    hash: OnceLock<Hash256>,
}

fn nibble(key: &Hash256, depth: usize) -> usize {
    let b = key.0[depth / 2];
    if depth.is_multiple_of(2) {
        (b >> 4) as usize
    } else {
        (b & 0x0F) as usize
    }
}

impl Node {
    fn hash(&self) -> Hash256 {
        match self {
            Node::Leaf { hash, .. } => *hash,
            Node::Inner(inner) => *inner.hash.get_or_init(|| {
                let mut buf = Vec::with_capacity(4 + 16 * 32);
                buf.extend_from_slice(&prefix::INNER_NODE);
                for c in &inner.children {
                    match c {
                        Some(n) => buf.extend_from_slice(&n.hash().0),
                        None => buf.extend_from_slice(&[0u8; 32]),
                    }
                }
                sha512_half(&[&buf])
            }),
        }
    }
}

/// A SHAMap of (key, leaf hash) pairs. Cloning is O(1).
#[derive(Clone, Default)]
pub struct ShaMap {
    root: Option<Arc<Node>>,
    len: usize,
}

impl ShaMap {
    /// An empty map.
    pub fn new() -> ShaMap {
        ShaMap::default()
    }

    /// Number of leaves.
    pub fn len(&self) -> usize {
        self.len
    }

    /// True with no leaves.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The root hash (zero when empty).
    pub fn hash(&self) -> Hash256 {
        match &self.root {
            None => Hash256::ZERO,
            // rippled's root is always an inner node, even over a single leaf.
            Some(n) => match n.as_ref() {
                Node::Inner(_) => n.hash(),
                Node::Leaf { key, .. } => {
                    let mut inner = Inner::default();
                    inner.children[nibble(key, 0)] = Some(n.clone());
                    Node::Inner(inner).hash()
                }
            },
        }
    }

    /// Sets the leaf for `key`.
    pub fn insert(&mut self, key: Hash256, hash: Hash256) {
        let mut added = false;
        self.root = Some(insert(self.root.as_ref(), key, hash, 0, &mut added));
        if added {
            self.len += 1;
        }
    }

    /// Removes the leaf for `key`, if present.
    pub fn remove(&mut self, key: &Hash256) {
        if let Some(root) = &self.root {
            let mut removed = false;
            self.root = remove(root, key, 0, &mut removed);
            if removed {
                self.len -= 1;
            }
        }
    }
}

fn insert(
    node: Option<&Arc<Node>>,
    key: Hash256,
    hash: Hash256,
    depth: usize,
    added: &mut bool,
) -> Arc<Node> {
    match node.map(|n| n.as_ref()) {
        None => {
            *added = true;
            Arc::new(Node::Leaf { key, hash })
        }
        Some(Node::Leaf { key: k, .. }) if *k == key => Arc::new(Node::Leaf { key, hash }),
        Some(Node::Leaf { key: k, .. }) => {
            // Split: push the existing leaf one level down and retry.
            let existing = node.cloned();
            let mut inner = Inner::default();
            inner.children[nibble(k, depth)] = existing;
            let child = inner.children[nibble(&key, depth)].take();
            inner.children[nibble(&key, depth)] =
                Some(insert(child.as_ref(), key, hash, depth + 1, added));
            Arc::new(Node::Inner(inner))
        }
        Some(Node::Inner(old)) => {
            let mut inner = Inner {
                children: old.children.clone(),
                hash: OnceLock::new(),
            };
            let i = nibble(&key, depth);
            inner.children[i] = Some(insert(
                inner.children[i].as_ref(),
                key,
                hash,
                depth + 1,
                added,
            ));
            Arc::new(Node::Inner(inner))
        }
    }
}

fn remove(node: &Arc<Node>, key: &Hash256, depth: usize, removed: &mut bool) -> Option<Arc<Node>> {
    match node.as_ref() {
        Node::Leaf { key: k, .. } => {
            if k == key {
                *removed = true;
                None
            } else {
                Some(node.clone())
            }
        }
        Node::Inner(old) => {
            let i = nibble(key, depth);
            let Some(child) = old.children[i].as_ref() else {
                return Some(node.clone());
            };
            let mut found = false;
            let new_child = remove(child, key, depth + 1, &mut found);
            if !found {
                return Some(node.clone());
            }
            *removed = true;
            let mut inner = Inner {
                children: old.children.clone(),
                hash: OnceLock::new(),
            };
            inner.children[i] = new_child;
            let live: Vec<&Arc<Node>> = inner.children.iter().flatten().collect();
            match live.as_slice() {
                [] => None,
                // A lone leaf moves up to where its key becomes unique (canonical form).
                [only] if matches!(only.as_ref(), Node::Leaf { .. }) => Some((*only).clone()),
                _ => Some(Arc::new(Node::Inner(inner))),
            }
        }
    }
}

/// The leaf hash of a state entry: `MLN\0` || serialized entry || key.
pub fn state_leaf_hash(key: &Hash256, entry_bytes: &[u8]) -> Hash256 {
    sha512_half(&[&prefix::LEAF_NODE, entry_bytes, &key.0])
}

/// rippled's VL length prefix.
pub fn vl_prefix(len: usize) -> Vec<u8> {
    if len <= 192 {
        vec![len as u8]
    } else if len <= 12_480 {
        let l = len - 193;
        vec![193 + (l >> 8) as u8, (l & 0xFF) as u8]
    } else {
        let l = len - 12_481;
        vec![
            241 + (l >> 16) as u8,
            ((l >> 8) & 0xFF) as u8,
            (l & 0xFF) as u8,
        ]
    }
}

/// The leaf hash of a transaction with metadata: `SND\0` || VL tx || VL meta || tx ID.
pub fn tx_leaf_hash(id: &Hash256, tx_bytes: &[u8], meta_bytes: &[u8]) -> Hash256 {
    sha512_half(&[
        &prefix::TX_NODE,
        &vl_prefix(tx_bytes.len()),
        tx_bytes,
        &vl_prefix(meta_bytes.len()),
        meta_bytes,
        &id.0,
    ])
}

#[cfg(test)]
mod tests {
    use super::*;

    fn k(b: u8, tail: u8) -> Hash256 {
        let mut h = [0u8; 32];
        h[0] = b;
        h[31] = tail;
        Hash256(h)
    }

    #[test]
    fn order_independent_and_removal_restores() {
        let keys: Vec<Hash256> = (0..40u8).map(|i| k(i.wrapping_mul(37), i)).collect();
        let mut a = ShaMap::new();
        for key in &keys {
            a.insert(*key, sha512_half(&[&key.0]));
        }
        let mut b = ShaMap::new();
        for key in keys.iter().rev() {
            b.insert(*key, sha512_half(&[&key.0]));
        }
        assert_eq!(a.hash(), b.hash());
        assert_eq!(a.len(), 40);
        let before = a.hash();
        let snapshot = a.clone();
        let extra = k(0x12, 0x34);
        a.insert(extra, Hash256([9; 32]));
        assert_ne!(a.hash(), before);
        a.remove(&extra);
        assert_eq!(a.hash(), before);
        assert_eq!(snapshot.hash(), before);
        for key in &keys {
            a.remove(key);
        }
        assert!(a.is_empty());
        assert_eq!(a.hash(), Hash256::ZERO);
    }

    #[test]
    fn removing_an_absent_key_keeps_the_map() {
        // A key whose first nibble has no branch at the root: what a ledger that makes and
        // deletes the same entry (an offer placed and taken at once) asks to remove.
        let mut a = ShaMap::new();
        for key in [k(0x10, 1), k(0x20, 2), k(0x30, 3)] {
            a.insert(key, sha512_half(&[&key.0]));
        }
        let before = a.hash();
        a.remove(&k(0xF0, 9));
        a.remove(&k(0x11, 9));
        assert_eq!((a.hash(), a.len()), (before, 3));
        let mut single = ShaMap::new();
        single.insert(k(0x10, 1), Hash256([7; 32]));
        let one = single.hash();
        single.remove(&k(0xF0, 9));
        assert_eq!((single.hash(), single.len()), (one, 1));
    }

    #[test]
    fn vl_prefixes() {
        assert_eq!(vl_prefix(192), vec![192]);
        assert_eq!(vl_prefix(193), vec![193, 0]);
        assert_eq!(vl_prefix(12_480), vec![240, 255]);
        assert_eq!(vl_prefix(12_481), vec![241, 0, 0]);
    }
}
