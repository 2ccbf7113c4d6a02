//! The CPU pool: a fixed set of threads (one per core) that run signing and verification so
//! the connection tasks only frame, parse and write.
//!
//! A job is a boxed closure; it delivers its own result (into a connection's outbound queue or
//! a oneshot), so no task is spawned per request. The queue is bounded by
//! [`CPU_QUEUE_JOBS_MAX`](crate::limits::CPU_QUEUE_JOBS_MAX): a full queue refuses the job
//! and the caller answers `tooBusy`.

use parking_lot::{Condvar, Mutex};
use std::collections::VecDeque;
use std::sync::Arc;

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

fn worker(inner: &Inner) {
    loop {
        let job = {
            let mut q = inner.queue.lock();
            loop {
                if let Some(job) = q.jobs.pop_front() {
                    break job;
                }
                if q.closing {
                    return;
                }
                inner.ready.wait(&mut q);
            }
        };
        job();
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
        let gate = Arc::new((Mutex::new(false), Condvar::new()));
        let started = Arc::new(AtomicUsize::new(0));
        for _ in 0..2 {
            let gate = gate.clone();
            let started = started.clone();
            assert!(pool.try_spawn(move || {
                started.fetch_add(1, Ordering::SeqCst);
                let mut open = gate.0.lock();
                while !*open {
                    gate.1.wait(&mut open);
                }
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
        *gate.0.lock() = true;
        gate.1.notify_all();
        // Let the workers drain the queue before asking for more room in it.
        for _ in 0..400 {
            if done.load(Ordering::SeqCst) == 4 {
                break;
            }
            std::thread::sleep(std::time::Duration::from_millis(5));
        }
        assert_eq!(done.load(Ordering::SeqCst), 4);
        assert_eq!(pool.run(|| 1).await, Some(1));
    }
}
