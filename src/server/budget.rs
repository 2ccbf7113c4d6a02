//! The memory held by HTTP request bodies still arriving, across the whole server.
//!
//! A body is read frame by frame into one buffer (reserved from its `Content-Length`, or
//! grown as a chunked body arrives); every byte of that buffer's capacity is first reserved
//! here. A reservation that would take the total past the budget is refused, and the request
//! answered `503`. Reservations are given back when they are dropped: when the body has been
//! parsed, or when its connection ends (the request's future is dropped with it).

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

/// Bytes reserved by bodies in progress, and the most there may be.
#[derive(Debug)]
pub struct InputBudget {
    held: AtomicUsize,
    max: usize,
}

/// Bytes taken from an [`InputBudget`], given back on drop.
#[derive(Debug)]
pub struct Reservation {
    budget: Arc<InputBudget>,
    bytes: usize,
}

impl InputBudget {
    /// A budget of `max` bytes, none held.
    pub fn new(max: usize) -> Arc<InputBudget> {
        Arc::new(InputBudget {
            held: AtomicUsize::new(0),
            max,
        })
    }

    /// Bytes reserved now.
    pub fn held(&self) -> usize {
        self.held.load(Ordering::Acquire)
    }

    /// Reserve `bytes`, or `None` if that would pass the budget.
    pub fn reserve(self: &Arc<Self>, bytes: usize) -> Option<Reservation> {
        self.take(bytes).then(|| Reservation {
            budget: self.clone(),
            bytes,
        })
    }

    fn take(&self, bytes: usize) -> bool {
        self.held
            .fetch_update(Ordering::AcqRel, Ordering::Acquire, |held| {
                held.checked_add(bytes).filter(|&total| total <= self.max)
            })
            .is_ok()
    }
}

impl Reservation {
    /// Bytes this reservation holds.
    pub fn bytes(&self) -> usize {
        self.bytes
    }

    /// Hold `bytes` in all (more or fewer than now); false, and nothing changed, when more
    /// would pass the budget.
    pub fn resize(&mut self, bytes: usize) -> bool {
        if bytes > self.bytes {
            if !self.budget.take(bytes - self.bytes) {
                return false;
            }
        } else {
            self.budget
                .held
                .fetch_sub(self.bytes - bytes, Ordering::AcqRel);
        }
        self.bytes = bytes;
        true
    }
}

impl Drop for Reservation {
    fn drop(&mut self) {
        self.budget.held.fetch_sub(self.bytes, Ordering::AcqRel);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reservations_stay_within_the_budget_and_come_back() {
        let budget = InputBudget::new(100);
        let mut a = budget.reserve(60).expect("fits");
        assert!(budget.reserve(41).is_none());
        let b = budget.reserve(40).expect("fits exactly");
        assert_eq!(budget.held(), 100);
        assert!(!a.resize(61), "growing past the budget");
        assert_eq!((a.bytes(), budget.held()), (60, 100));
        assert!(a.resize(10));
        assert_eq!(budget.held(), 50);
        drop(b);
        assert!(a.resize(100));
        drop(a);
        assert_eq!(budget.held(), 0);
        assert!(budget.reserve(usize::MAX).is_none());
    }
}
