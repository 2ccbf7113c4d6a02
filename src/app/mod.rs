//! The wiring: from a [`ServerConfig`] to a running server. It opens the data directory
//! (or an in-memory ledger), starts the node (the single writer, the close timer, the
//! publisher), builds the handlers' [`Services`] and the transports' [`Shared`] state, and
//! binds the ports. The only module that knows every layer; `main.rs` only parses the
//! command line and calls [`start`].

pub mod devnet;
pub mod fork;
pub mod fork_source;
pub mod genesis_file;

use crate::ledger::rules::{Resolved, RuleBook};
use crate::ledgers::{LedgerConfig, Ledgers};
use crate::limits::{CPU_QUEUE_JOBS_MAX, HISTORY_READERS, SHUTDOWN_GRACE_SECS};
use crate::node::history::{
    AdvisoryDelete, History, HistoryRepair, StateCache, REPAIR_HISTORY_HINT,
};
use crate::node::persist::{PersistOptions, Persistence};
use crate::node::replica::Replica;
use crate::node::validator::{Validator, VoteSource};
use crate::node::{Node, NodeTasks};
use crate::rpc::context::{PortInfo, RpcConfig, Services};
use crate::rpc::cpu_pool::CpuPool;
use crate::server::config::{ForkConfig, ServerConfig};
use crate::server::shutdown::Shutdown;
use crate::server::Shared;
use crate::store::{PgHistory, SqliteHistory};
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

/// Everything a running server is made of, from the bottom layer up.
pub struct ServerState {
    /// The ledgers, the writer, the status and the subscriptions.
    pub node: Arc<Node>,
    /// What the handlers share.
    pub services: Arc<Services>,
    /// What the transports share (the configuration as bound, load accounting).
    pub shared: Arc<Shared>,
}

impl ServerState {
    /// The ledgers (shorthand for `node.ledgers`).
    pub fn ledgers(&self) -> &Arc<Ledgers> {
        &self.node.ledgers
    }

    /// The configuration, with the addresses the ports were actually bound to.
    pub fn config(&self) -> &ServerConfig {
        &self.shared.config
    }
}

/// A server whose ports are bound and whose accept loops are running.
pub struct Running {
    /// The server's parts (tests read the ledgers and the status through it).
    pub state: Arc<ServerState>,
    /// `(port name, bound address)` for each port.
    pub addrs: Vec<(String, SocketAddr)>,
    /// Tells every connection to finish.
    pub shutdown: Shutdown,
    /// The prefunded accounts' lines to print (`serve --accounts`), if any.
    pub banner: Vec<String>,
    node: Tasks,
}

/// The I/O threads `ledgerd serve` runs without `--io-threads`: one per core. Signing has its
/// own pool (one thread per core); the I/O threads carry the sockets, and a ledger close
/// written to 10,000 subscribers is mostly the kernel's loopback work per write, which two
/// threads share. On 2 cores (2026-11-24, single-task WebSocket sessions): a close reached
/// 10,000 `ledger` subscribers at p99 66 ms with two I/O threads, 102 ms with one, while
/// channel_authorize (75 vs 76% of bare crypto) and submissions (29.7k/27.4k vs 28.7k/28.8k
/// tx/s) were the same within noise. (With one writer task woken per reply, one thread had
/// been 10 to 15% faster.)
pub fn default_io_threads() -> usize {
    std::thread::available_parallelism()
        .map(|n| n.get())
        .unwrap_or(1)
        .max(1)
}

/// Bind every port of `config`, open the ledgers, start the node and start accepting.
/// Ports bound to port 0 report the address they got in [`Running::addrs`] (and in
/// server_info).
pub async fn start(mut config: ServerConfig) -> Result<Running, String> {
    crate::server::files::raise();
    // A genesis file is read, and on a data directory tried, before anything is created.
    let genesis = match config.read_only {
        true => None,
        false => devnet::read_genesis(&config, is_new_ledger(&config))?,
    };
    let rules = rule_book(&mut config)?;
    let bound = crate::server::bind(&mut config).await?;
    let cpu = cpu_pool(&config)?;
    if let Some(genesis) = genesis.as_ref().filter(|_| is_durable(&config)) {
        rehearse_genesis(&config, &rules.book, genesis, &cpu).await?;
    }
    let (node, tasks) = if config.read_only {
        start_read_node(&config, &rules.book)?
    } else {
        start_writer(&mut config, &rules.book).await?
    };
    let mut services = Services::new(rpc_config(&config), node.clone(), cpu);
    services.votes = Arc::new(match votes_file(&config) {
        Some(file) => crate::rpc::amendments::VoteBook::open(&file, rules.votes)?,
        None => crate::rpc::amendments::VoteBook::in_memory(rules.votes),
    });
    if !config.read_only {
        set_validator(&node, &mut config, services.votes.clone());
    }
    let services = Arc::new(services);
    let accounts = match prepare_dev(&services, &config, genesis.as_ref()).await {
        Ok(a) => a,
        Err(e) => {
            tasks.stop().await;
            return Err(e);
        }
    };
    let banner = devnet::banner(&config.dev, &accounts);
    run_startup_commands(&config, &services).await;
    let shared = Arc::new(Shared::new(config, services.clone()));
    let shutdown = Shutdown::new();
    let addrs = crate::server::accept_all(bound, &shared, &shutdown);
    let state = Arc::new(ServerState {
        node,
        services,
        shared,
    });
    Ok(Running {
        state,
        addrs,
        shutdown,
        banner,
        node: tasks,
    })
}

/// The writer's validator: the `[validation_seed]` key, else one drawn now; voting for
/// the `[voting]` fees and the amendments of the vote book.
fn set_validator(
    node: &Node,
    config: &mut ServerConfig,
    votes: Arc<crate::rpc::amendments::VoteBook>,
) {
    let configured = config.validation_key.is_some();
    let Some(keys) = config.validation_key.take().or_else(Validator::random_keys) else {
        return;
    };
    let votes: VoteSource = Box::new(move || votes.get().desired());
    let release = crate::protocol::features::XRPLD_RELEASE;
    match Validator::new(keys, config.fees, votes, release) {
        Ok(v) => {
            let v = if configured { v.configured() } else { v };
            let _ = node.validator.set(v);
        }
        Err(e) => tracing::error!("no validator: {e}"),
    }
}

/// Whether the writer starts a new ledger (a genesis file may only start a new one): in
/// memory, or in a data directory that holds none; a fork's is the upstream's.
fn is_new_ledger(config: &ServerConfig) -> bool {
    match (&config.data_dir, config.ephemeral, &config.fork) {
        (_, _, Some(_)) => false,
        (Some(dir), false, None) => !crate::node::persist::holds_ledger(dir),
        _ => true,
    }
}

/// Whether the writer's ledger lives in a data directory (else in memory).
fn is_durable(config: &ServerConfig) -> bool {
    config.data_dir.is_some() && !config.ephemeral && config.fork.is_none()
}

/// Applies a genesis file (and the prefunded accounts, and checks `faucet_seed`'s account)
/// on a trial ledger in memory, made as the data directory's new ledger will be (the same
/// fees, network id and clock): a file whose transactions would fail (an unfunded offer, a
/// payment to an account that requires a destination tag, ...) is refused before the data
/// directory holds anything, so a retry with a corrected file can use the same directory.
/// (In memory, the real ledger is its own trial.)
async fn rehearse_genesis(
    config: &ServerConfig,
    book: &RuleBook,
    genesis: &devnet::Genesis,
    cpu: &CpuPool,
) -> Result<(), String> {
    let (persistence, ledgers) = Persistence::ephemeral(ledger_config(config, book));
    let node = Node::new(ledgers, config.network_id.unwrap_or(0));
    let tasks = crate::node::start(&node, persistence, 0)?;
    let services = Arc::new(Services::new(rpc_config(config), node, cpu.clone()));
    let tried = devnet::prepare(&services, &config.dev, Some(genesis))
        .await
        .and_then(|_| devnet::check_faucet_account(&services, config.faucet_key.as_ref()));
    tasks.stop().await;
    tried?;
    tracing::info!(file = %genesis.path.display(), "genesis file tried on a ledger in memory: it applies");
    Ok(())
}

/// The single writer: its ledgers (a data directory's, an in-memory one, or a fork's),
/// journal and history, and (`--postgres`) the copy of its history into PostgreSQL.
async fn start_writer(
    config: &mut ServerConfig,
    book: &RuleBook,
) -> Result<(Arc<Node>, Tasks), String> {
    let repair = history_repair(config);
    let (persistence, ledgers) = match config.fork.clone() {
        Some(fork) => open_fork(&fork, config, book).await?,
        None => open_ledgers(config, book, repair.as_ref())?,
    };
    let node = open_node(config, ledgers, persistence.reverted_to(), repair)?;
    let node_tasks = crate::node::start(&node, persistence, config.close_interval_secs)?;
    if let Some(url) = &config.postgres {
        let replica = Replica::start(&node, url.clone())
            .map_err(|e| format!("cannot start the PostgreSQL copy: {e}"))?;
        let _ = node.replica.set(replica);
    }
    Ok((node, Tasks::Writer(node_tasks)))
}

/// The genesis file and prefunded accounts (`serve --genesis`, `--accounts`), then the
/// faucet's account checked (`faucet_seed`); none on a read node, which has no writer of
/// its own.
async fn prepare_dev(
    services: &Arc<Services>,
    config: &ServerConfig,
    genesis: Option<&devnet::Genesis>,
) -> Result<Vec<devnet::DevAccountLine>, String> {
    if config.read_only {
        return Ok(Vec::new());
    }
    let accounts = devnet::prepare(services, &config.dev, genesis).await?;
    devnet::check_faucet_account(services, config.faucet_key.as_ref())?;
    Ok(accounts)
}

/// A read node (`--read-only`): ledgers that follow the shared PostgreSQL history, with a
/// bounded state cache; no journal, no writer. The database may be down at start: the
/// follower retries, and reads answer `notReady` until it has a ledger.
fn start_read_node(config: &ServerConfig, book: &RuleBook) -> Result<(Arc<Node>, Tasks), String> {
    let url = config
        .postgres
        .as_deref()
        .ok_or("--read-only needs --postgres URL")?;
    if config.writer.is_none() {
        return Err("--read-only needs --writer ws://HOST:PORT".into());
    }
    let store = PgHistory::connect_lazily(url).map_err(|e| e.to_string())?;
    let history = History {
        store: Arc::new(store),
        keep: None,
        advisory: None,
        cache: Some(Arc::new(StateCache::default())),
    };
    let ledgers = crate::node::reader::follower_ledgers(ledger_config(config, book));
    let node = Node::read_only(ledgers, config.network_id.unwrap_or(0), history);
    let follower = tokio::spawn(crate::node::reader::follow(node.clone()));
    let writer = config.writer.clone().unwrap_or_default();
    let relay = tokio::spawn(crate::node::reader::relay_proposed(node.clone(), writer));
    Ok((node, Tasks::Reader(vec![follower, relay])))
}

/// What stops with the server.
enum Tasks {
    Writer(NodeTasks),
    Reader(Vec<tokio::task::JoinHandle<()>>),
}

impl Tasks {
    /// The writer finishes what is queued; a read node's followers stop.
    async fn stop(self) {
        match self {
            Tasks::Writer(tasks) => tasks.stop().await,
            Tasks::Reader(tasks) => tasks.iter().for_each(|t| t.abort()),
        }
    }
}

fn cpu_pool(config: &ServerConfig) -> Result<CpuPool, String> {
    match config.cpu_threads {
        Some(n) => CpuPool::new(n, CPU_QUEUE_JOBS_MAX),
        None => CpuPool::per_core(CPU_QUEUE_JOBS_MAX),
    }
    .map_err(|e| format!("CPU pool: {e}"))
}

/// Where the amendment votes are kept: the data directory of a writer that has one.
fn votes_file(config: &ServerConfig) -> Option<std::path::PathBuf> {
    match (&config.data_dir, config.ephemeral || config.read_only) {
        (Some(dir), false) if config.fork.is_none() => {
            Some(dir.join(crate::rpc::amendments::VOTES_FILE))
        }
        _ => None,
    }
}

/// The configured rule book over the votes kept from an earlier run. A fork with no
/// presets configured takes its upstream's Amendments entry alone.
fn resolve_rules(config: &ServerConfig) -> Result<Resolved, String> {
    let stored = match votes_file(config) {
        Some(file) => crate::rpc::amendments::read(&file)?,
        None => None,
    };
    let mut wanted = config.amendments.clone();
    if config.fork.is_some() && wanted.features.is_none() {
        wanted.features = Some(Vec::new());
    }
    wanted
        .resolve(stored)
        .map_err(|e| format!("amendments: {e}"))
}

/// The rule book, resolved once at start ([`resolve_rules`]): refuses an unknown amendment,
/// an up-vote for one whose rules ledgerd lacks, or a network preset whose date selects one,
/// and says which presets it drops. A preset's fee schedule (`mainnet-DATE`) becomes the
/// configuration's wherever `[voting]` or the command line sets no value.
fn rule_book(config: &mut ServerConfig) -> Result<Resolved, String> {
    let resolved = resolve_rules(config)?;
    if !resolved.dropped.is_empty() {
        tracing::warn!(
            amendments = %resolved.dropped.join(", "),
            "presets ([features]) ledgerd lacks the rules of stay disabled"
        );
    }
    if let Some(preset) = resolved.fees {
        let fees = config.fees_set.over(config.fees, preset);
        config.fees = crate::server::config::check_fees(fees)
            .map_err(|e| format!("the preset's fees under the configured ones: {e}"))?;
    }
    Ok(resolved)
}

/// The ledgers' settings the server configuration and its rule book decide (the network
/// id, the fees, the amendments).
fn ledger_config(config: &ServerConfig, book: &RuleBook) -> LedgerConfig {
    let mut ledger_cfg = LedgerConfig {
        rule_book: *book,
        fixed_clock: config.fixed_clock,
        fees: config.fees,
        history_bytes_max: config.ledger_memory_bytes,
        tx_queue: config.tx_queue.clone(),
        ..LedgerConfig::default()
    };
    ledger_cfg.apply.network_id = config.network_id.unwrap_or(0);
    ledger_cfg
}

/// `serve --fork`: the upstream's ledger, in memory only. Without `--network-id` the fork
/// takes the upstream's, so transactions signed for that network apply.
async fn open_fork(
    fork: &ForkConfig,
    config: &mut ServerConfig,
    book: &RuleBook,
) -> Result<(Arc<Persistence>, Arc<Ledgers>), String> {
    let forked = fork::fetch(fork).await?;
    config.ephemeral = true;
    if config.network_id.is_none() {
        config.network_id = forked.network_id;
    }
    let ledgers = fork::ledgers_of(fork, forked, ledger_config(config, book))?;
    Ok(Persistence::ephemeral_over(ledgers))
}

/// The repair of the data directory's history database (`--repair-history`), if asked.
fn history_repair(config: &ServerConfig) -> Option<Arc<HistoryRepair>> {
    match (&config.data_dir, config.ephemeral || config.fork.is_some()) {
        (Some(dir), false) if config.repair_history => {
            Some(HistoryRepair::new(&dir.join(HISTORY_FILE), HISTORY_READERS))
        }
        _ => None,
    }
}

/// The data directory's ledgers and journal, or an in-memory ledger (`--ephemeral`). A
/// history repair gets every ledger replay closes.
fn open_ledgers(
    config: &ServerConfig,
    book: &RuleBook,
    repair: Option<&Arc<HistoryRepair>>,
) -> Result<(Arc<Persistence>, Arc<Ledgers>), String> {
    let ledger_cfg = ledger_config(config, book);
    match (&config.data_dir, config.ephemeral) {
        (Some(dir), false) => {
            let options = PersistOptions {
                repair_journal: config.repair_journal,
                replay_sink: repair.map(|r| r.sink()),
                ..PersistOptions::default()
            };
            Persistence::open_with(dir, ledger_cfg, options)
                .map_err(|e| format!("data directory {}: {e}", dir.display()))
        }
        _ => Ok(Persistence::ephemeral(ledger_cfg)),
    }
}

/// The history database's file in the data directory.
pub const HISTORY_FILE: &str = "history.sqlite";

/// The node over `ledgers`, with the data directory's history database (`history.sqlite`)
/// or, for `--ephemeral`, an in-memory one bounded by
/// [`crate::limits::EPHEMERAL_HISTORY_LEDGERS_MAX`]. The database is held to the
/// journal: damaged, or lacking acknowledged ledgers, it refuses to start unless
/// `repair` (`--repair-history`) rebuilds it.
fn open_node(
    config: &ServerConfig,
    ledgers: Arc<Ledgers>,
    reverted_to: Option<u32>,
    repair: Option<Arc<HistoryRepair>>,
) -> Result<Arc<Node>, String> {
    let network_id = config.network_id.unwrap_or(0);
    let in_memory = config.ephemeral || config.fork.is_some();
    let Some(dir) = config.data_dir.as_ref().filter(|_| !in_memory) else {
        return in_memory_node(ledgers, network_id, config);
    };
    let path = dir.join(HISTORY_FILE);
    let file = path.display().to_string();
    let store = match &repair {
        Some(r) => r.finish()?,
        None => Arc::new(open_history(&path)?),
    };
    build_nft_index_behind(&store);
    let history = History {
        store: store.clone(),
        keep: config.online_delete,
        // `[node_db] advisory_delete` (with `online_delete`): deletion waits for `can_delete`.
        advisory: advisory(config, store.as_ref())?,
        cache: None,
    };
    if let Some(seq) = reverted_to {
        history.forget_reverted(&ledgers, seq)?;
    }
    if let Some(r) = &repair {
        r.settle(&history, &store, &ledgers)?;
    }
    let discard_ahead = config.repair_journal || config.repair_history;
    Node::with_history(ledgers, network_id, history, &file, discard_ahead)
}

/// A node whose history lives in memory: bounded by [`crate::limits::EPHEMERAL_HISTORY_LEDGERS_MAX`],
/// or by `online_delete` when it is configured (xrpld deletes old history in standalone
/// mode too).
fn in_memory_node(
    ledgers: Arc<Ledgers>,
    network_id: u32,
    config: &ServerConfig,
) -> Result<Arc<Node>, String> {
    let Some(keep) = config.online_delete else {
        return Ok(Node::new(ledgers, network_id));
    };
    let store = SqliteHistory::in_memory().map_err(|e| e.to_string())?;
    let history = History {
        keep: Some(keep.min(crate::limits::EPHEMERAL_HISTORY_LEDGERS_MAX)),
        advisory: advisory(config, &store)?,
        store: Arc::new(store),
        cache: None,
    };
    Node::with_history(ledgers, network_id, history, ":memory:", false)
}

/// Advisory deletion when the configuration asks for it (`[node_db] advisory_delete`
/// with `online_delete`), its `can_delete` read back from the store.
fn advisory(
    config: &ServerConfig,
    store: &dyn crate::store::HistoryStore,
) -> Result<Option<Arc<AdvisoryDelete>>, String> {
    if !(config.advisory_delete && config.online_delete.is_some()) {
        return Ok(None);
    }
    Ok(Some(Arc::new(AdvisoryDelete::load(store)?)))
}

/// Fills the NFT and MPT holder indexes of a history database made before them, on a
/// thread of its own (`nft_info`, `nft_history` and `nfts_by_issuer` answer `notReady`
/// until the NFT index is done; `mpt_holders` scans the ledger until its index is),
/// logging its progress.
fn build_nft_index_behind(store: &Arc<SqliteHistory>) {
    use crate::store::HistoryStore;
    let ready = |r: crate::store::StoreResult<bool>| r.unwrap_or(true);
    if ready(store.nft_index_ready()) && ready(store.mpt_index_ready()) {
        return;
    }
    let store = store.clone();
    let spawned = std::thread::Builder::new()
        .name("nft-index".into())
        .spawn(move || {
            tracing::info!("building the NFT index of the history database");
            let built =
                store.build_nft_index(crate::limits::NFT_INDEX_BATCH_LEDGERS, |done, last| {
                    tracing::info!(
                        done,
                        last,
                        "NFT index: ledgers indexed through {done} of {last}"
                    );
                });
            match built {
                Ok(()) => tracing::info!("NFT index built"),
                Err(e) => tracing::error!("NFT index not built: {e}"),
            }
            match store.build_mpt_index() {
                Ok(()) => tracing::info!("MPT holder index built"),
                Err(e) => tracing::error!("MPT holder index not built: {e}"),
            }
        });
    if let Err(e) = spawned {
        tracing::error!("NFT index thread not started: {e}");
    }
}

/// Opens the history database; a damaged one is refused, naming the remedy.
fn open_history(path: &std::path::Path) -> Result<SqliteHistory, String> {
    SqliteHistory::open(path, HISTORY_READERS).map_err(|e| {
        if e.is_history_damage() {
            format!("{e}; refusing to start ({REPAIR_HISTORY_HINT}: the damaged file is set aside, never deleted)")
        } else {
            e.to_string()
        }
    })
}

/// What the handlers need of the configuration.
pub fn rpc_config(config: &ServerConfig) -> RpcConfig {
    RpcConfig {
        network_id: config.network_id,
        signing_support: config.signing_support,
        ports: config.ports.iter().filter_map(port_info).collect(),
        writer: config.writer.clone().filter(|_| config.read_only),
    }
}

/// The protocols server_info lists, in xrpld's order (`getServerInfo`: the port's
/// protocols that are among these, sorted).
const LISTED_PROTOCOLS: [&str; 7] = ["http", "https", "peer", "ws", "ws2", "wss", "wss2"];

/// A port as server_info lists it (xrpld `getServerInfo`): its protocols among
/// [`LISTED_PROTOCOLS`], sorted (none: not listed), and, hidden from non-admins, a port
/// with admin networks or admin credentials.
fn port_info(p: &crate::server::config::PortConfig) -> Option<PortInfo> {
    let mut protocols: Vec<String> = LISTED_PROTOCOLS
        .iter()
        .filter(|name| p.protocols.iter().any(|q| q == *name))
        .map(|name| name.to_string())
        .collect();
    protocols.dedup();
    (!protocols.is_empty()).then(|| PortInfo {
        port: p.bind.port(),
        protocols,
        has_admin: !p.admin.is_empty() || p.admin_credentials.is_some(),
    })
}

/// Runs `[rpc_startup]`'s requests in order, each as an admin at the newest API version,
/// logging each and its result as xrpld does (`ApplicationImp::setup`; `--quiet` hides
/// them).
async fn run_startup_commands(config: &ServerConfig, services: &Arc<Services>) {
    for command in &config.rpc_startup {
        let request = serde_json::Value::Object(command.request.clone());
        tracing::info!(line = command.line, "Startup RPC: {request}");
        let ctx = crate::rpc::context::Context {
            role: crate::rpc::role::Role::Admin,
            api_version: crate::rpc::API_VERSION_MAX,
            transport: crate::rpc::context::Transport::Http,
            session: None,
            services: services.clone(),
            forwarded: None,
            raw_json: false,
        };
        let (result, params) = crate::rpc::call(ctx, command.request.clone()).await;
        let reply = crate::rpc::envelope::http_reply(&params, result);
        tracing::info!(line = command.line, "Result: {reply}");
    }
}

impl Running {
    /// Resolves when a client asks the server to stop (the `stop` method): then call
    /// [`Running::stop`], as on SIGTERM.
    pub async fn stop_requested(&self) {
        self.state.services.stop.requested().await
    }

    /// Stop accepting, tell every connection to finish, and wait for them (at most
    /// [`SHUTDOWN_GRACE_SECS`]).
    pub async fn stop(mut self) {
        self.shutdown.trigger();
        let grace = Duration::from_secs(SHUTDOWN_GRACE_SECS);
        if tokio::time::timeout(grace, self.shutdown.finished())
            .await
            .is_err()
        {
            tracing::warn!("connections still open after the shutdown grace period");
        }
        // Replies already owed are written; then the writer finishes what is queued.
        self.node.stop().await;
    }
}
