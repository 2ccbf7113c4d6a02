//! The node: the single writer (sequencer), closing ledgers, persistence and
//! subscriptions — everything between the RPC handlers and the ledger store that changes
//! state.
//!
//! ```text
//! submit handler --(verify on the CPU pool)--> Command::Submit --> sequencer thread
//!   sequencer: store.apply -> persist.record_tx -> (reply, Durable) back to the handler,
//!              which answers once Durable resolves
//! ledger_accept / close timer --> Command::Close --> store.close -> persist.record_close
//!   -> publisher task: once durable, LedgerStatus, ledgerClosed, validated tx messages
//! ```
//!
//! - [`sequencer`]: the writer thread and its commands.
//! - [`close`]: the close timer and the publisher.
//! - [`subscriptions`]: streams and account subscriptions, fan-out.
//! - [`messages`]: the stream messages and transaction JSON shapes.
//! - [`persist`]: the journal and snapshots behind a small API.

pub mod close;
pub mod messages;
pub mod persist;
pub mod sequencer;
pub mod subscriptions;

use crate::rpc::context::ServerState;
use persist::Persistence;
use sequencer::{Command, SequencerHandle};
use std::sync::Arc;

/// What handlers reach through `ServerState::node`.
pub struct Node {
    /// The journal (health, stats).
    pub persistence: Arc<Persistence>,
    /// The writer's command queue.
    pub sequencer: SequencerHandle,
}

/// The node's running parts, for an orderly stop.
pub struct NodeTasks {
    sequencer: SequencerHandle,
    thread: Option<std::thread::JoinHandle<()>>,
    publisher: tokio::task::JoinHandle<()>,
    timer: Option<tokio::task::JoinHandle<()>>,
}

/// Start the sequencer, the publisher and (unless the interval is 0) the close timer over
/// `state.ledgers`, and make them reachable through `state.node`. Call once, inside the
/// tokio runtime.
pub fn start(state: &Arc<ServerState>, persistence: Arc<Persistence>) -> Result<NodeTasks, String> {
    let (pub_tx, pub_rx) = tokio::sync::mpsc::channel(crate::limits::PUBLISH_QUEUE_CLOSES_MAX);
    let (handle, thread) = sequencer::start(
        state.ledgers.clone(),
        persistence.clone(),
        state.subscriptions.clone(),
        pub_tx,
    )
    .map_err(|e| format!("cannot start the sequencer: {e}"))?;
    let publisher = tokio::spawn(close::publisher(pub_rx, state.clone()));
    let interval = state.config.close_interval_secs;
    let timer = (interval > 0).then(|| tokio::spawn(close::timer(handle.clone(), interval)));
    let node = Node {
        persistence,
        sequencer: handle.clone(),
    };
    if state.node.set(Arc::new(node)).is_err() {
        return Err("the node is already started".into());
    }
    Ok(NodeTasks {
        sequencer: handle,
        thread: Some(thread),
        publisher,
        timer,
    })
}

impl NodeTasks {
    /// Stop the timer, let the sequencer finish what is queued, and wait for the last
    /// publication.
    pub async fn stop(mut self) {
        if let Some(t) = self.timer.take() {
            t.abort();
        }
        let _ = self.sequencer.send(Command::Stop).await;
        if let Some(thread) = self.thread.take() {
            let _ = tokio::task::spawn_blocking(move || thread.join()).await;
        }
        let _ = self.publisher.await;
    }
}
