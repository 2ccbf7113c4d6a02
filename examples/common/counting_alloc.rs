//! The counting allocator of the memory examples (`ledger_memory`, `conn_memory`): mimalloc
//! underneath, counting the bytes live and, when `BY_CLASS`, the live allocations of each
//! 16-byte size class. An example takes it with
//! `#[path = "common/counting_alloc.rs"] mod counting_alloc;` and installs it with
//! `#[global_allocator] static A: counting_alloc::Counting<false> = counting_alloc::Counting;`.

#![allow(dead_code)] // each example uses part of it

use std::alloc::{GlobalAlloc, Layout};
use std::sync::atomic::{AtomicI64, Ordering};

/// Size classes counted: 16 bytes each, the last one holding every larger allocation.
pub const CLASSES: usize = 4096;
/// The width of a size class, in bytes.
pub const CLASS_BYTES: usize = 16;

static LIVE_BYTES: AtomicI64 = AtomicI64::new(0);
static LIVE_BY_CLASS: [AtomicI64; CLASSES] = [const { AtomicI64::new(0) }; CLASSES];
static ALLOC: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn class(size: usize) -> usize {
    (size / CLASS_BYTES).min(CLASSES - 1)
}

/// mimalloc, counting the bytes live, and the allocations live by size class when
/// `BY_CLASS` (a second atomic per call, left out where only bytes matter).
pub struct Counting<const BY_CLASS: bool>;

unsafe impl<const BY_CLASS: bool> GlobalAlloc for Counting<BY_CLASS> {
    unsafe fn alloc(&self, l: Layout) -> *mut u8 {
        LIVE_BYTES.fetch_add(l.size() as i64, Ordering::Relaxed);
        if BY_CLASS {
            LIVE_BY_CLASS[class(l.size())].fetch_add(1, Ordering::Relaxed);
        }
        unsafe { ALLOC.alloc(l) }
    }
    unsafe fn dealloc(&self, p: *mut u8, l: Layout) {
        LIVE_BYTES.fetch_sub(l.size() as i64, Ordering::Relaxed);
        if BY_CLASS {
            LIVE_BY_CLASS[class(l.size())].fetch_sub(1, Ordering::Relaxed);
        }
        unsafe { ALLOC.dealloc(p, l) }
    }
    unsafe fn realloc(&self, p: *mut u8, l: Layout, new: usize) -> *mut u8 {
        LIVE_BYTES.fetch_add(new as i64 - l.size() as i64, Ordering::Relaxed);
        if BY_CLASS {
            LIVE_BY_CLASS[class(l.size())].fetch_sub(1, Ordering::Relaxed);
            LIVE_BY_CLASS[class(new)].fetch_add(1, Ordering::Relaxed);
        }
        unsafe { ALLOC.realloc(p, l, new) }
    }
}

/// Bytes live on the heap now.
pub fn live_bytes() -> i64 {
    LIVE_BYTES.load(Ordering::Relaxed)
}

/// Allocations live now, by size class (all zero unless the allocator counts by class).
pub fn live_by_class() -> Vec<i64> {
    LIVE_BY_CLASS
        .iter()
        .map(|c| c.load(Ordering::Relaxed))
        .collect()
}

/// This process's resident memory in KiB.
pub fn rss_kib() -> i64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .unwrap_or(0)
}
