//! Graceful shutdown (the mini-redis pattern): one broadcast says "stop", and every
//! connection holds a guard; when the last guard is dropped, everything has finished.

use tokio::sync::{mpsc, watch};

/// Owned by the server: triggers shutdown and waits for the connections.
pub struct Shutdown {
    notify: watch::Sender<bool>,
    guard_tx: Option<mpsc::Sender<()>>,
    guard_rx: mpsc::Receiver<()>,
}

/// Held by each task that must finish before the server exits.
#[derive(Clone)]
pub struct ShutdownSignal {
    rx: watch::Receiver<bool>,
    /// Never sent on: its drop is the signal that this task is done.
    _guard: mpsc::Sender<()>,
}

impl Default for Shutdown {
    fn default() -> Self {
        Shutdown::new()
    }
}

impl Shutdown {
    /// A shutdown that has not been triggered.
    pub fn new() -> Shutdown {
        let (notify, _) = watch::channel(false);
        let (guard_tx, guard_rx) = mpsc::channel(1);
        Shutdown {
            notify,
            guard_tx: Some(guard_tx),
            guard_rx,
        }
    }

    /// A signal for one more task.
    pub fn signal(&self) -> ShutdownSignal {
        let guard = match &self.guard_tx {
            Some(g) => g.clone(),
            // After `trigger` no new tasks start; hand out a guard that is already closed.
            None => mpsc::channel(1).0,
        };
        ShutdownSignal {
            rx: self.notify.subscribe(),
            _guard: guard,
        }
    }

    /// Tell every task to stop.
    pub fn trigger(&mut self) {
        let _ = self.notify.send(true);
        self.guard_tx = None;
    }

    /// Wait until every signal handed out has been dropped.
    pub async fn finished(&mut self) {
        self.guard_tx = None;
        let _ = self.guard_rx.recv().await;
    }
}

impl ShutdownSignal {
    /// Resolves once shutdown has been triggered.
    pub async fn recv(&mut self) {
        // Only `true` is ever sent, so any change is the signal (and a dropped sender
        // stops too): one `changed` rather than `wait_for`, a smaller future for the
        // thousands of idle WebSocket sessions waiting on it.
        if *self.rx.borrow_and_update() {
            return;
        }
        let _ = self.rx.changed().await;
    }

    /// Whether shutdown has been triggered.
    pub fn is_triggered(&self) -> bool {
        *self.rx.borrow()
    }
}

/// A future that resolves on SIGINT or SIGTERM. The handlers are installed when this is
/// called (not when the future is first polled), so call it before announcing readiness.
pub fn os_signal() -> futures::future::BoxFuture<'static, ()> {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{signal, SignalKind};
        match (
            signal(SignalKind::terminate()),
            signal(SignalKind::interrupt()),
        ) {
            (Ok(mut term), Ok(mut int)) => Box::pin(async move {
                tokio::select! {
                    _ = term.recv() => {}
                    _ = int.recv() => {}
                }
            }),
            _ => Box::pin(async {
                let _ = tokio::signal::ctrl_c().await;
            }),
        }
    }
    #[cfg(not(unix))]
    {
        Box::pin(async {
            let _ = tokio::signal::ctrl_c().await;
        })
    }
}
