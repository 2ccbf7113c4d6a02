//! Giving freed memory back to the operating system. The binary chooses the allocator and
//! says how to trim it ([`set_memory_trim`]); the node trims after a close lets ledgers
//! leave memory's window (at most every [`MEMORY_TRIM_INTERVAL_MILLIS`]), and the WebSocket
//! layer after a session that held large messages. mimalloc purges freed pages lazily, on
//! later allocations of the thread that owns them: an idle server would otherwise keep its
//! high-water mark.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::OnceLock;
use std::time::{SystemTime, UNIX_EPOCH};

use crate::limits::MEMORY_TRIM_INTERVAL_MILLIS;

/// How to make the allocator give freed memory back; nothing is done until it is set.
static TRIM: OnceLock<fn()> = OnceLock::new();

/// When the window's trim last ran (milliseconds since the epoch).
static LAST_WINDOW_TRIM_MILLIS: AtomicU64 = AtomicU64::new(0);

/// Set how freed memory is given back to the OS (see [`return_freed_memory`]).
pub fn set_memory_trim(trim: fn()) {
    let _ = TRIM.set(trim);
}

/// Give freed memory back to the OS now, if the binary said how. It costs a walk over the
/// calling thread's heap.
pub fn return_freed_memory() {
    if let Some(trim) = TRIM.get() {
        trim();
    }
}

/// After ledgers left memory's window: trims, unless the last such trim was less than
/// [`MEMORY_TRIM_INTERVAL_MILLIS`] ago.
pub fn window_moved() {
    let now = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as u64);
    let last = LAST_WINDOW_TRIM_MILLIS.load(Ordering::Relaxed);
    if now.saturating_sub(last) < MEMORY_TRIM_INTERVAL_MILLIS {
        return;
    }
    LAST_WINDOW_TRIM_MILLIS.store(now, Ordering::Relaxed);
    return_freed_memory();
}
