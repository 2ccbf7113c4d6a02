//! The CPU pool: a fixed set of threads (one per core) that run signing and verification so
//! the connection tasks only frame, parse and write.
//!
//! A job is a boxed closure; it delivers its own result (into a connection's outbound queue or
//! a oneshot), so no task is spawned per request. The queue is bounded by
//! [`CPU_QUEUE_JOBS_MAX`](crate::limits::CPU_QUEUE_JOBS_MAX): a full queue refuses the job
//! and the caller answers `tooBusy`.
//!
//! Waking a connection's writer costs more than queueing its reply (a thread hand-off, often a
//! context switch on a busy machine), so a job that queues a reply asks for the wake with
//! [`defer_wakeup`]: the worker wakes each writer once, when its queue runs dry, after
//! [`CPU_DEFERRED_REPLIES_MAX`] replies or after [`CPU_DEFERRED_WAKE_MICROS_MAX`],
//! whichever comes first. An idle server answers at once; a busy one hands replies over in
//! batches.
//!
//! A job that panics is caught: the worker keeps running and still delivers the wakes it owes
//! (jobs that answer a request catch their own panic first and answer `internal`).

use crate::limits::{CPU_DEFERRED_REPLIES_MAX, CPU_DEFERRED_WAKE_MICROS_MAX};
use parking_lot::{Condvar, Mutex};
use std::cell::RefCell;
use std::collections::VecDeque;
use std::sync::Arc;
use std::time::{Duration, Instant};

type Job = Box<dyn FnOnce() + Send + 'static>;

struct Queue {
    jobs: VecDeque<Job>,
    /// Set when the last pool handle is dropped: workers finish the queue and exit.
    closing: bool,
}

struct Inner {
    queue: Mutex<Queue>,
    /// Signalled when a job is queued or the pool closes.
    ready: Condvar,
    capacity: usize,
}

/// A handle on the pool; cloning is cheap. The threads exit when every handle is gone.
#[derive(Clone)]
pub struct CpuPool {
    inner: Arc<Inner>,
    /// Shared by handles only (never by workers), so its count tells when the last handle
    /// goes away.
    _owner: Arc<Closer>,
    threads: usize,
}

struct Closer(Arc<Inner>);

impl Drop for Closer {
    fn drop(&mut self) {
        self.0.queue.lock().closing = true;
        self.0.ready.notify_all();
    }
}

impl CpuPool {
    /// Start `threads` workers (at least one) with room for `capacity` queued jobs.
    pub fn new(threads: usize, capacity: usize) -> std::io::Result<CpuPool> {
        let threads = threads.max(1);
        let inner = Arc::new(Inner {
            queue: Mutex::new(Queue {
                jobs: VecDeque::new(),
                closing: false,
            }),
            ready: Condvar::new(),
            capacity: capacity.max(1),
        });
        for i in 0..threads {
            let inner = inner.clone();
            std::thread::Builder::new()
                .name(format!("ledgerd-cpu-{i}"))
                .spawn(move || worker(&inner))?;
        }
        Ok(CpuPool {
            _owner: Arc::new(Closer(inner.clone())),
            inner,
            threads,
        })
    }

    /// A pool with one worker per available core.
    pub fn per_core(capacity: usize) -> std::io::Result<CpuPool> {
        let cores = std::thread::available_parallelism()
            .map(|n| n.get())
            .unwrap_or(1);
        CpuPool::new(cores, capacity)
    }

    /// Number of worker threads.
    pub fn threads(&self) -> usize {
        self.threads
    }

    /// Jobs waiting for a worker now.
    pub fn queued(&self) -> usize {
        self.inner.queue.lock().jobs.len()
    }

    /// Queue a job. Returns `false` (and drops the job) when the queue is full.
    pub fn try_spawn(&self, job: impl FnOnce() + Send + 'static) -> bool {
        let mut q = self.inner.queue.lock();
        if q.jobs.len() >= self.inner.capacity {
            return false;
        }
        q.jobs.push_back(Box::new(job));
        drop(q);
        self.inner.ready.notify_one();
        true
    }

    /// Run `f` on the pool and await its result; `None` when the queue is full.
    pub async fn run<T: Send + 'static>(
        &self,
        f: impl FnOnce() -> T + Send + 'static,
    ) -> Option<T> {
        let (tx, rx) = tokio::sync::oneshot::channel();
        if !self.try_spawn(move || {
            let _ = tx.send(f());
        }) {
            return None;
        }
        rx.await.ok()
    }
}

/// Something a job wants done once the worker has finished the jobs at hand: waking the
/// writer of a connection it queued replies for.
pub trait Wakeup: Send + Sync {
    /// Wake the consumer (idempotent: waking twice is as good as once).
    fn wake_up(&self);
}

/// The wakes a worker owes, and how many replies they cover.
struct Deferred {
    wakeups: Vec<Arc<dyn Wakeup>>,
    replies: usize,
    /// When the oldest owed wake was deferred.
    since: Option<Instant>,
}

thread_local! {
    /// `Some` on pool workers only.
    static DEFERRED: RefCell<Option<Deferred>> = const { RefCell::new(None) };
}

/// On a pool worker: remember to call `w.wake_up()` when this run of jobs ends (the queue is
/// empty, or [`CPU_DEFERRED_REPLIES_MAX`] replies are waiting) and return `true`. Anywhere
/// else return `false`: the caller wakes `w` itself, now.
pub fn defer_wakeup<W: Wakeup + 'static>(w: &Arc<W>) -> bool {
    DEFERRED.with(|d| {
        let mut d = d.borrow_mut();
        let Some(d) = d.as_mut() else {
            return false;
        };
        d.replies += 1;
        if d.since.is_none() {
            d.since = Some(Instant::now());
        }
        let ptr = Arc::as_ptr(w) as *const ();
        if !d
            .wakeups
            .iter()
            .any(|x| std::ptr::eq(Arc::as_ptr(x) as *const (), ptr))
        {
            d.wakeups.push(w.clone());
        }
        true
    })
}

/// Replies waiting for their wake on this worker, and whether the batch is due (full, or
/// its oldest wake has waited long enough).
fn deferred_replies() -> (usize, bool) {
    DEFERRED.with(|d| match d.borrow().as_ref() {
        Some(d) if d.replies > 0 => {
            let due = d.replies >= CPU_DEFERRED_REPLIES_MAX
                || d.since.is_some_and(|t| {
                    t.elapsed() >= Duration::from_micros(CPU_DEFERRED_WAKE_MICROS_MAX)
                });
            (d.replies, due)
        }
        _ => (0, false),
    })
}

/// Deliver now the wakes this pool worker owes (nothing elsewhere). A job that may run long
/// (a `ledger` request with its transactions or state) calls this first, so replies that
/// finished before it are not held back for as long as it runs.
pub fn deliver_deferred_wakes() {
    wake_deferred();
}

/// Deliver the wakes this worker owes.
fn wake_deferred() {
    let wakeups = DEFERRED.with(|d| match d.borrow_mut().as_mut() {
        Some(d) => {
            d.replies = 0;
            d.since = None;
            std::mem::take(&mut d.wakeups)
        }
        None => Vec::new(),
    });
    for w in &wakeups {
        w.wake_up();
    }
    // Keep the allocation for the next run.
    DEFERRED.with(|d| {
        if let Some(d) = d.borrow_mut().as_mut() {
            if d.wakeups.is_empty() {
                let mut v = wakeups;
                v.clear();
                d.wakeups = v;
            }
        }
    });
}

fn worker(inner: &Inner) {
    DEFERRED.with(|d| {
        *d.borrow_mut() = Some(Deferred {
            wakeups: Vec::new(),
            replies: 0,
            since: None,
        })
    });
    loop {
        let job = {
            let mut q = inner.queue.lock();
            loop {
                let (owed, due) = deferred_replies();
                if !due {
                    if let Some(job) = q.jobs.pop_front() {
                        break Some(job);
                    }
                }
                // The queue ran dry or the batch is full: wake the writers first.
                if owed > 0 {
                    break None;
                }
                if q.closing {
                    return;
                }
                inner.ready.wait(&mut q);
            }
        };
        match job {
            // A job that panics must not take the worker with it: the thread would die with
            // the wakes it owes other connections' writers (their replies would sit queued
            // until something else woke them), and the pool would shrink by one thread.
            Some(job) => {
                if std::panic::catch_unwind(std::panic::AssertUnwindSafe(job)).is_err() {
                    tracing::error!("a CPU pool job panicked; the worker carries on");
                }
            }
            None => wake_deferred(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicUsize, Ordering};

    #[tokio::test]
    async fn runs_jobs_and_refuses_when_full() {
        let pool = CpuPool::new(2, 4).unwrap();
        assert_eq!(pool.run(|| 6 * 7).await, Some(42));
        // Block both workers, then fill the queue.
        let gate = Gate::new();
        let started = Arc::new(AtomicUsize::new(0));
        for _ in 0..2 {
            let gate = gate.clone();
            let started = started.clone();
            assert!(pool.try_spawn(move || {
                started.fetch_add(1, Ordering::SeqCst);
                gate.wait();
            }));
        }
        while started.load(Ordering::SeqCst) < 2 {
            std::thread::sleep(std::time::Duration::from_millis(1));
        }
        let done = Arc::new(AtomicUsize::new(0));
        for _ in 0..4 {
            let done = done.clone();
            assert!(pool.try_spawn(move || {
                done.fetch_add(1, Ordering::SeqCst);
            }));
        }
        assert!(!pool.try_spawn(|| {}), "a full queue must refuse");
        gate.open();
        // The queued jobs run once the workers are free.
        for _ in 0..1000 {
            if done.load(Ordering::SeqCst) == 4 {
                break;
            }
            std::thread::sleep(std::time::Duration::from_millis(2));
        }
        assert_eq!(done.load(Ordering::SeqCst), 4);
        assert_eq!(pool.run(|| 1).await, Some(1));
    }

    /// Holds pool workers in a job until opened.
    #[derive(Clone)]
    struct Gate(Arc<(Mutex<bool>, Condvar)>);

    impl Gate {
        fn new() -> Gate {
            Gate(Arc::new((Mutex::new(false), Condvar::new())))
        }
        fn wait(&self) {
            let mut open = self.0 .0.lock();
            while !*open {
                self.0 .1.wait(&mut open);
            }
        }
        fn open(&self) {
            *self.0 .0.lock() = true;
            self.0 .1.notify_all();
        }
    }

    struct Counter(AtomicUsize);
    impl Wakeup for Counter {
        fn wake_up(&self) {
            self.0.fetch_add(1, Ordering::SeqCst);
        }
    }

    #[test]
    fn deferred_wakes_are_batched_and_never_lost() {
        // Off the pool, nothing is deferred.
        let w = Arc::new(Counter(AtomicUsize::new(0)));
        assert!(!defer_wakeup(&w));
        // One worker, blocked while jobs pile up: each job asks for the same wake.
        let pool = CpuPool::new(1, 4096).unwrap();
        let gate = Gate::new();
        let g = gate.clone();
        assert!(pool.try_spawn(move || g.wait()));
        let jobs = 3 * CPU_DEFERRED_REPLIES_MAX + 1;
        let on_pool = Arc::new(AtomicUsize::new(0));
        for _ in 0..jobs {
            let (w, on_pool) = (w.clone(), on_pool.clone());
            assert!(pool.try_spawn(move || {
                if defer_wakeup(&w) {
                    on_pool.fetch_add(1, Ordering::SeqCst);
                }
            }));
        }
        gate.open();
        // Every job deferred; the wakes came in batches: one per full batch and one when the
        // queue ran dry (more only if the worker was descheduled past the time cap).
        let full_batches = jobs / CPU_DEFERRED_REPLIES_MAX;
        for _ in 0..1000 {
            if w.0.load(Ordering::SeqCst) > full_batches {
                break;
            }
            std::thread::sleep(std::time::Duration::from_millis(2));
        }
        assert_eq!(on_pool.load(Ordering::SeqCst), jobs);
        let wakes = w.0.load(Ordering::SeqCst);
        assert!(
            wakes > full_batches && wakes < jobs / 4,
            "{wakes} wakes for {jobs} replies"
        );
    }

    #[test]
    fn a_long_job_can_release_the_wakes_owed_before_it() {
        let w = Arc::new(Counter(AtomicUsize::new(0)));
        let pool = CpuPool::new(1, 64).unwrap();
        let gate = Gate::new();
        let w1 = w.clone();
        assert!(pool.try_spawn(move || {
            defer_wakeup(&w1);
        }));
        let g = gate.clone();
        assert!(pool.try_spawn(move || {
            deliver_deferred_wakes();
            g.wait();
        }));
        // The second job is still running (the gate is shut), yet the first one's wake came.
        for _ in 0..1000 {
            if w.0.load(Ordering::SeqCst) == 1 {
                break;
            }
            std::thread::sleep(Duration::from_millis(2));
        }
        assert_eq!(w.0.load(Ordering::SeqCst), 1);
        gate.open();
    }

    #[test]
    fn a_deferred_wake_waits_no_longer_than_the_cap() {
        let w = Arc::new(Counter(AtomicUsize::new(0)));
        let pool = CpuPool::new(1, 64).unwrap();
        let gate = Gate::new();
        let g = gate.clone();
        assert!(pool.try_spawn(move || g.wait()));
        // Slow jobs: together they take 4 times the cap, far fewer than a full batch.
        let jobs = 10;
        let each = Duration::from_micros(4 * CPU_DEFERRED_WAKE_MICROS_MAX / jobs as u64);
        for _ in 0..jobs {
            let w = w.clone();
            assert!(pool.try_spawn(move || {
                std::thread::sleep(each);
                defer_wakeup(&w);
            }));
        }
        gate.open();
        let done = Arc::new(AtomicUsize::new(0));
        let d = done.clone();
        assert!(pool.try_spawn(move || {
            d.fetch_add(1, Ordering::SeqCst);
        }));
        while done.load(Ordering::SeqCst) == 0 {
            std::thread::sleep(Duration::from_millis(1));
        }
        // Without the cap the worker would wake once, when its queue ran dry.
        assert!(
            w.0.load(Ordering::SeqCst) >= 2,
            "the time cap released a batch early"
        );
    }

    #[tokio::test]
    async fn a_panicking_job_keeps_the_worker_and_the_wakes_it_owes() {
        // One worker, so a dead worker would leave every later job unrun.
        let pool = CpuPool::new(1, 64).unwrap();
        let gate = Gate::new();
        let g = gate.clone();
        assert!(pool.try_spawn(move || g.wait()));
        // In one run: a job defers a wake, the next panics, the one after runs.
        let w = Arc::new(Counter(AtomicUsize::new(0)));
        let w2 = w.clone();
        assert!(pool.try_spawn(move || assert!(defer_wakeup(&w2))));
        assert!(pool.try_spawn(|| panic!("a handler bug")));
        let done = Arc::new(AtomicUsize::new(0));
        let d = done.clone();
        assert!(pool.try_spawn(move || {
            d.fetch_add(1, Ordering::SeqCst);
        }));
        gate.open();
        for _ in 0..1000 {
            if done.load(Ordering::SeqCst) == 1 && w.0.load(Ordering::SeqCst) >= 1 {
                break;
            }
            std::thread::sleep(Duration::from_millis(2));
        }
        assert_eq!(
            done.load(Ordering::SeqCst),
            1,
            "the job after the panic never ran"
        );
        assert!(
            w.0.load(Ordering::SeqCst) >= 1,
            "the wake deferred before the panic was lost"
        );
        assert_eq!(pool.run(|| 7).await, Some(7), "the worker died");
    }
}
