//! The receipt of an append: wait on it (blocking), await it (any async runtime: it is a
//! plain `std::future::Future`), or hand it a callback. It completes with the record
//! number once the record is durable, or with the error that stopped it.

use std::future::{Future, IntoFuture};
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll, Waker};
use std::time::Duration;

use parking_lot::{Condvar, Mutex};

use super::error::{StoreError, StoreResult};

type Callback = Box<dyn FnOnce(StoreResult<u64>) + Send>;

#[derive(Default)]
struct SlotState {
    result: Option<StoreResult<u64>>,
    waker: Option<Waker>,
    callback: Option<Callback>,
}

/// Where the writer thread leaves the outcome of one append.
#[derive(Default)]
pub(crate) struct Slot {
    state: Mutex<SlotState>,
    done: Condvar,
}

impl Slot {
    /// Records the outcome and wakes whoever waits. Called once, by the writer thread.
    pub(crate) fn complete(&self, result: StoreResult<u64>) {
        let mut state = self.state.lock();
        if let Some(callback) = state.callback.take() {
            drop(state);
            callback(result);
            return;
        }
        state.result = Some(result);
        let waker = state.waker.take();
        self.done.notify_all();
        drop(state);
        if let Some(w) = waker {
            w.wake();
        }
    }
}

/// The receipt of one [`super::Journal::append`].
#[must_use = "a record is only acknowledged once its ticket completes"]
pub struct Ticket {
    slot: Arc<Slot>,
    number: Option<u64>,
}

impl std::fmt::Debug for Ticket {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Ticket")
            .field("number", &self.number)
            .finish()
    }
}

impl Ticket {
    pub(crate) fn pending(slot: Arc<Slot>, number: u64) -> Self {
        Ticket {
            slot,
            number: Some(number),
        }
    }

    /// A ticket that already failed (the append was refused before it was queued).
    pub(crate) fn failed(error: StoreError) -> Self {
        let slot = Arc::new(Slot::default());
        slot.complete(Err(error));
        Ticket { slot, number: None }
    }

    /// The number the record was given when queued (`None` when it was refused at once).
    /// It is durable only once the ticket completes with `Ok`.
    pub fn record_number(&self) -> Option<u64> {
        self.number
    }

    /// Blocks until the record is durable (its record number) or has failed.
    pub fn wait(self) -> StoreResult<u64> {
        let mut state = self.slot.state.lock();
        loop {
            if let Some(r) = state.result.take() {
                return r;
            }
            self.slot.done.wait(&mut state);
        }
    }

    /// Blocks at most `timeout`; `None` when the record is still in flight.
    pub fn wait_timeout(&self, timeout: Duration) -> Option<StoreResult<u64>> {
        let mut state = self.slot.state.lock();
        if state.result.is_none() {
            let _ = self.slot.done.wait_for(&mut state, timeout);
        }
        state.result.clone()
    }

    /// The outcome if there is one yet, without blocking.
    pub fn try_result(&self) -> Option<StoreResult<u64>> {
        self.slot.state.lock().result.clone()
    }

    /// Calls `f` with the outcome: at once if there is one, otherwise on the journal's
    /// writer thread when the batch completes (so `f` must be quick: send on a channel).
    pub fn on_complete(self, f: impl FnOnce(StoreResult<u64>) + Send + 'static) {
        let mut state = self.slot.state.lock();
        if let Some(r) = state.result.take() {
            drop(state);
            f(r);
        } else {
            state.callback = Some(Box::new(f));
        }
    }
}

/// The future of a [`Ticket`]: `ticket.await` in any async runtime. It needs no runtime of
/// its own: the writer thread wakes the task.
#[must_use = "futures do nothing unless awaited"]
pub struct TicketFuture {
    slot: Arc<Slot>,
}

impl Future for TicketFuture {
    type Output = StoreResult<u64>;

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        let mut state = self.slot.state.lock();
        if let Some(r) = state.result.take() {
            return Poll::Ready(r);
        }
        match &state.waker {
            Some(w) if w.will_wake(cx.waker()) => {}
            _ => state.waker = Some(cx.waker().clone()),
        }
        Poll::Pending
    }
}

impl IntoFuture for Ticket {
    type Output = StoreResult<u64>;
    type IntoFuture = TicketFuture;

    fn into_future(self) -> TicketFuture {
        TicketFuture { slot: self.slot }
    }
}
