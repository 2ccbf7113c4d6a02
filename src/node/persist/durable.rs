//! [`Durable`]: the future a reply waits on until its journal record is on disk.

use std::future::{Future, IntoFuture};
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll, Waker};

use parking_lot::Mutex;

use super::PersistError;
use crate::store::{Ticket, TicketFuture};

/// Resolves `Ok` once the record is durable, or with why it never will be. A plain
/// `Future` (no runtime needed: the journal's writer thread wakes it); `wait` blocks.
#[must_use = "a record is only acknowledged once its Durable resolves"]
pub struct Durable {
    inner: Inner,
}

enum Inner {
    Ready(Option<Result<(), PersistError>>),
    Ticket(TicketFuture),
    Slot(Arc<DurableSlot>),
}

impl std::fmt::Debug for Durable {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Durable")
    }
}

type Outcome = Option<Result<(), PersistError>>;

/// Where a callback leaves the outcome of a [`Durable::slot`].
#[derive(Default)]
pub(crate) struct DurableSlot {
    state: Mutex<(Outcome, Option<Waker>)>,
}

impl DurableSlot {
    pub(crate) fn complete(&self, r: Result<(), PersistError>) {
        let waker = {
            let mut s = self.state.lock();
            s.0 = Some(r);
            s.1.take()
        };
        if let Some(w) = waker {
            w.wake();
        }
    }
}

impl Durable {
    pub(crate) fn ready(r: Result<(), PersistError>) -> Durable {
        Durable {
            inner: Inner::Ready(Some(r)),
        }
    }

    pub(crate) fn ticket(t: Ticket) -> Durable {
        Durable {
            inner: Inner::Ticket(t.into_future()),
        }
    }

    pub(crate) fn slot() -> (Durable, Arc<DurableSlot>) {
        let slot = Arc::new(DurableSlot::default());
        (
            Durable {
                inner: Inner::Slot(slot.clone()),
            },
            slot,
        )
    }

    /// Blocks the calling thread until the record is durable (drivers and tests; async
    /// code awaits instead).
    pub fn wait(self) -> Result<(), PersistError> {
        futures::executor::block_on(self)
    }
}

impl Future for Durable {
    type Output = Result<(), PersistError>;

    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        match &mut self.inner {
            Inner::Ready(r) => Poll::Ready(r.take().unwrap_or(Ok(()))),
            Inner::Ticket(t) => match Pin::new(t).poll(cx) {
                Poll::Ready(r) => Poll::Ready(r.map(|_| ()).map_err(PersistError::from)),
                Poll::Pending => Poll::Pending,
            },
            Inner::Slot(slot) => {
                let mut s = slot.state.lock();
                if let Some(r) = s.0.take() {
                    return Poll::Ready(r);
                }
                match &s.1 {
                    Some(w) if w.will_wake(cx.waker()) => {}
                    _ => s.1 = Some(cx.waker().clone()),
                }
                Poll::Pending
            }
        }
    }
}
