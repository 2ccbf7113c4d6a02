//! `ledgerd serve` runs the server; `ledgerd [--server HOST:PORT] <method> <args...>` sends one
//! request to a running server and prints the reply.

use clap::{Args, Parser, Subcommand};
use ledgerd::rpc::cli;
use ledgerd::server::client;
use ledgerd::server::config::{ServerConfig, DEFAULT_LISTEN};
use ledgerd::server::xrpld_cfg::{self, Notes};
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// mimalloc instead of the system allocator: requests allocate and free many small strings
/// and maps on several threads, and glibc's malloc was 4 to 7% of a loaded server's CPU.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// Make mimalloc return the pages it holds free to the OS now (it otherwise purges them
/// lazily, on later allocations): the WebSocket layer calls this after a session that held
/// large messages, so an idle server gives an attack's memory back.
fn trim_allocator() {
    // SAFETY: mi_collect takes no pointers; it only releases memory mimalloc holds free.
    unsafe { libmimalloc_sys::mi_collect(true) }
}

/// No transparent huge pages for this process (`PR_SET_THP_DISABLE`), set before anything
/// is allocated in earnest: a server holding thousands of idle connections keeps many small
/// objects for hours, and with huge pages (mimalloc asks for them) a 2 MiB region stays
/// resident for a few of them. Measured over 10,000 idle WebSocket connections: 4.2 KiB
/// resident each with huge pages (3.85 to 4.57), 3.5 KiB without (docs/benchmarks.md,
/// "Connections at scale"), and the server starts in 13 MiB rather than 25.
fn no_huge_pages() {
    #[cfg(target_os = "linux")]
    // SAFETY: prctl(PR_SET_THP_DISABLE) takes integer arguments only.
    unsafe {
        libc::prctl(libc::PR_SET_THP_DISABLE, 1, 0, 0, 0);
    }
}

#[derive(Parser)]
#[command(name = "ledgerd", version = ledgerd::rpc::handlers::server_info::BUILD_VERSION, about = "A ledger server that speaks the XRP Ledger's client API",
    after_help = cli::help_text())]
struct Cli {
    /// The server a client command talks to (HTTP JSON-RPC).
    #[arg(long, global = true, default_value = DEFAULT_LISTEN)]
    server: String,
    #[command(flatten)]
    xrpld: XrpldArgs,
    #[command(subcommand)]
    command: Option<Command>,
}

/// xrpld's own command line: `ledgerd --conf xrpld.cfg -a --start` runs the server as
/// `xrpld` would with the same words (`serve` takes them too); `ledgerd --conf FILE
/// <method> ...` sends the method to the first http port the file names.
#[derive(Args, Clone, Default)]
struct XrpldArgs {
    /// An xrpld configuration file (`xrpld.cfg` / `rippled.cfg`), read as xrpld reads it.
    #[arg(long, global = true, value_name = "FILE")]
    conf: Option<PathBuf>,
    /// xrpld -a: no peers; ledgers close on `ledger_accept` only; a new ledger in memory
    /// unless --load.
    #[arg(short = 'a', long, global = true)]
    standalone: bool,
    /// xrpld --start: start from a new ledger (refused when [database_path] holds one).
    #[arg(long, global = true)]
    start: bool,
    /// xrpld --load: resume the ledger kept in [database_path].
    #[arg(long, global = true, conflicts_with = "start")]
    load: bool,
    /// xrpld --quiet: log errors only.
    #[arg(short = 'q', long, global = true)]
    quiet: bool,
    /// xrpld --silent: no log on the console once started ([debug_logfile] still gets it).
    #[arg(long, global = true)]
    silent: bool,
    /// xrpld --verbose: log everything (trace).
    #[arg(short = 'v', long, global = true)]
    verbose: bool,
    /// xrpld --fg: accepted; the server always runs in the foreground.
    #[arg(long, global = true, hide = true)]
    fg: bool,
}

impl XrpldArgs {
    /// Whether these words ask for the server (rather than a client command).
    fn runs_server(&self) -> bool {
        self.conf.is_some() || self.standalone || self.start || self.load
    }
}

/// `serve`'s options alone, for xrpld's command line (which names no subcommand).
#[derive(Parser)]
struct ServeDefaults {
    #[command(flatten)]
    args: ServeArgs,
}

#[derive(Subcommand)]
enum Command {
    /// Run the server.
    Serve(Box<ServeArgs>),
    /// Send `<method> <args...>` to a running server (see the list below).
    #[command(external_subcommand)]
    Method(Vec<String>),
}

#[derive(Args)]
struct ServeArgs {
    /// Listen on one ws+http port at this address (default 127.0.0.1:6006).
    #[arg(long, conflicts_with = "config")]
    listen: Option<SocketAddr>,
    /// xrpld's command line, given before or after `serve`.
    #[arg(skip)]
    xrpld: XrpldArgs,
    /// A TOML configuration file (several ports, TLS, admin networks).
    #[arg(long)]
    config: Option<PathBuf>,
    /// Keep no journal: state lives in memory only.
    #[arg(long)]
    ephemeral: bool,
    /// Directory of the journal and snapshots (default ./ledgerd-data).
    #[arg(long)]
    data_dir: Option<PathBuf>,
    /// Start even when acknowledged journal records are missing or unreadable (a segment
    /// truncated, zeroed, emptied or deleted): keep what survives, set the rest aside as
    /// *.discarded, log what was discarded, then serve.
    #[arg(long, conflicts_with = "ephemeral")]
    repair_journal: bool,
    /// Start even when the history database (history.sqlite) lost acknowledged ledgers or
    /// is damaged: set a damaged file aside as *.discarded, rebuild the ledgers the journal
    /// still holds, log which could not be, then serve.
    #[arg(long, conflicts_with_all = ["ephemeral", "fork"])]
    repair_history: bool,
    /// Keep only the newest N validated ledgers' history, deleting older ones as new ones
    /// close (rippled online_delete; at least 256). Default: keep every ledger.
    #[arg(long, value_name = "N")]
    online_delete: Option<u32>,
    /// Seconds between automatic ledger closes (0: only on ledger_accept).
    #[arg(long)]
    close_interval: Option<u64>,
    /// Deterministic close times: ledger 2 closes at this time (ISO 8601 like
    /// 2030-01-01T00:00:00Z, or seconds since the ripple epoch) and every close advances by
    /// --close-step unless ledger_accept gives close_time. Turns the close timer off unless
    /// --close-interval is given.
    #[arg(long, value_name = "TIME")]
    start_time: Option<String>,
    /// Seconds each close advances the close time under --start-time (default 10).
    #[arg(long, value_name = "SECS", requires = "start_time")]
    close_step: Option<u32>,
    /// Let non-admin clients sign with server-side secrets (rippled [signing_support]).
    #[arg(long)]
    signing_support: bool,
    /// The network id server_info reports.
    #[arg(long)]
    network_id: Option<u32>,
    /// Megabytes of closed ledgers kept in memory (default 1024); older ledgers are read
    /// from the history store (rippled's `[ledger_history]` and `node_size` bound the
    /// same thing).
    #[arg(long, value_name = "MB")]
    ledger_memory_mb: Option<u64>,
    /// A new ledger's reference transaction cost, in drops (rippled [voting]
    /// reference_fee, which a standalone genesis takes; default 10).
    #[arg(long, value_name = "DROPS")]
    reference_fee: Option<u64>,
    /// A new ledger's account reserve, in drops ([voting] account_reserve; default
    /// 10000000).
    #[arg(long, value_name = "DROPS")]
    account_reserve: Option<u64>,
    /// A new ledger's reserve per owned object, in drops ([voting] owner_reserve; default
    /// 2000000).
    #[arg(long, value_name = "DROPS")]
    owner_reserve: Option<u64>,
    /// Start from another server's validated ledger (`ws://HOST:PORT`): its state is copied
    /// at start and proven against the ledger's account hash (a large one is read by key
    /// on first use); local transactions apply on top and never go upstream. In memory only.
    #[arg(long, value_name = "URL", conflicts_with_all = ["data_dir", "repair_journal"])]
    fork: Option<String>,
    /// The upstream ledger to fork at (default: its newest validated ledger).
    #[arg(long, value_name = "N", requires = "fork")]
    fork_ledger: Option<u32>,
    /// Read the upstream's entries by key on first use instead of copying its state at
    /// start (an upstream too large to copy is forked this way anyway).
    #[arg(long, requires = "fork")]
    fork_lazy: bool,
    /// The log's form on stderr: `text` for people, `json` (one object a line) for log
    /// shippers.
    #[arg(long, value_enum, default_value = "text")]
    log_format: LogFormat,
    /// Threads doing socket I/O, framing and the cheap handlers (default: one per core).
    #[arg(long)]
    io_threads: Option<usize>,
    /// Threads signing and verifying (default: one per core).
    #[arg(long)]
    cpu_threads: Option<usize>,
    /// Turn the development faucet (`POST /accounts`) off on every port.
    #[arg(long)]
    no_faucet: bool,
    /// Serve no explorer page at `/` on any port (browsers get the health page).
    #[arg(long)]
    no_explorer: bool,
    /// Fund N development accounts at start and print their addresses and seeds.
    #[arg(long, value_name = "N", default_value_t = 0)]
    accounts: u32,
    /// The text the accounts' seeds derive from: account i is the seed of the passphrase
    /// "TEXT/i" (the same text gives the same accounts).
    #[arg(long, value_name = "TEXT", default_value = ledgerd::rpc::devnet::DEV_ACCOUNTS_SEED_DEFAULT)]
    accounts_seed: String,
    /// The accounts' key type.
    #[arg(long, value_name = "TYPE", default_value = "secp256k1",
        value_parser = ["secp256k1", "ed25519"])]
    accounts_key_type: String,
    /// Each account's balance, in XRP (default 10000).
    #[arg(long, value_name = "XRP")]
    accounts_balance: Option<String>,
    /// Start a new ledger from a JSON description of accounts, trust lines and offers
    /// (refused when the data directory already holds a ledger).
    #[arg(long, value_name = "FILE")]
    genesis: Option<PathBuf>,
    /// A PostgreSQL database (postgresql://user@host:port/db): the writer copies validated
    /// history into it beside its own store; a read node (--read-only) serves from it.
    #[arg(long, value_name = "URL")]
    postgres: Option<String>,
    /// Run as a stateless read node: reads from --postgres, submissions and streams
    /// through --writer.
    #[arg(long, requires_all = ["postgres", "writer"])]
    read_only: bool,
    /// The writer a read node forwards submissions to and relays streams from
    /// (ws://HOST:PORT).
    #[arg(long, value_name = "URL", requires = "read_only")]
    writer: Option<String>,
    /// A named rule book: `ledgerd` (every amendment ledgerd has, the default),
    /// `xrpld-3.4.1` (that release's `-a --start` with no votes configured), `ci` (the
    /// client libraries' CI `[features]` list), or `mainnet-YYYY-MM-DD` (a new ledger as
    /// the XRP Ledger mainnet's at the end of that day: its amendments and fees; `mainnet`:
    /// the last day ledgerd records). docs/amendments.md.
    #[arg(long, value_name = "NAME")]
    amendment_preset: Option<String>,
    /// Amendments this server votes for (xrpld `[amendments]`), by name or ID,
    /// comma-separated: with a preset that starts fresh, a new ledger records them.
    #[arg(long, value_name = "LIST", value_delimiter = ',')]
    amendments: Vec<String>,
    /// Amendments this server votes against (xrpld `[veto_amendments]`).
    #[arg(long, value_name = "LIST", value_delimiter = ',')]
    veto_amendments: Vec<String>,
}

/// `--amendment-preset`, `--amendments`, `--veto-amendments` over the configuration's.
fn amendment_args(args: &ServeArgs, config: &mut ServerConfig) -> Result<(), String> {
    if let Some(name) = args.amendment_preset.as_deref() {
        config.amendments = ledgerd::ledger::rules::AmendmentConfig::preset(name)
            .map_err(|e| format!("--amendment-preset: {e}"))?;
    }
    config.amendments.up.extend(args.amendments.iter().cloned());
    config
        .amendments
        .down
        .extend(args.veto_amendments.iter().cloned());
    Ok(())
}

/// The development options of `serve`, checked.
fn dev_options(args: &ServeArgs) -> Result<ledgerd::server::config::DevOptions, String> {
    let max = ledgerd::limits::DEV_ACCOUNTS_MAX;
    if args.accounts > max {
        return Err(format!("--accounts {}: at most {max}", args.accounts));
    }
    let mut dev = ledgerd::server::config::DevOptions {
        accounts: args.accounts,
        accounts_seed: args.accounts_seed.clone(),
        accounts_ed25519: args.accounts_key_type == "ed25519",
        genesis: args.genesis.clone(),
        ..Default::default()
    };
    if let Some(xrp) = &args.accounts_balance {
        dev.accounts_drops = ledgerd::rpc::devnet::xrp_to_drops(xrp)
            .map_err(|e| format!("--accounts-balance: {e}"))?;
    }
    Ok(dev)
}

/// `--start-time` and `--close-step`: the fixed close clock, and no close timer unless
/// `--close-interval` asks for one.
fn fixed_clock(args: &ServeArgs, config: &mut ServerConfig) -> Result<(), String> {
    let Some(text) = &args.start_time else {
        return Ok(());
    };
    let start = ledgerd::protocol::time::parse_close_time(text)
        .filter(|t| *t > 0)
        .ok_or_else(|| format!("--start-time {text:?} is not an ISO 8601 time after 2000-01-01T00:00:00Z or a number of seconds since then"))?;
    config.fixed_clock = Some(ledgerd::ledgers::FixedClock {
        start,
        step_secs: args
            .close_step
            .unwrap_or(ledgerd::limits::CLOSE_STEP_SECS_DEFAULT),
    });
    config.close_interval_secs = 0;
    Ok(())
}

fn main() -> ExitCode {
    no_huge_pages();
    let cli = Cli::parse();
    match cli.command {
        Some(Command::Serve(mut args)) => {
            args.xrpld = cli.xrpld;
            run_server(*args)
        }
        None if cli.xrpld.runs_server() => {
            let mut args = ServeDefaults::parse_from(["ledgerd"]).args;
            args.xrpld = cli.xrpld;
            run_server(args)
        }
        None => {
            // Neither a method nor the server: the usage, on stderr, as for any error.
            use clap::CommandFactory;
            eprintln!("{}", Cli::command().render_help());
            ExitCode::from(2)
        }
        Some(Command::Method(words)) => match runtime(ledgerd::app::default_io_threads()) {
            Ok(runtime) => runtime.block_on(client_command(
                &cli.server,
                cli.xrpld.conf.as_deref(),
                words,
            )),
            Err(code) => code,
        },
    }
}

/// Runs `serve` with `args` until a signal stops it.
fn run_server(args: ServeArgs) -> ExitCode {
    // Before the runtime's threads exist: they inherit the blocked signals.
    let stop = match signals::watch() {
        Ok(rx) => rx,
        Err(e) => {
            eprintln!("ledgerd: cannot watch for SIGINT and SIGTERM: {e}");
            return ExitCode::from(1);
        }
    };
    let threads = args
        .io_threads
        .unwrap_or_else(ledgerd::app::default_io_threads);
    match runtime(threads) {
        Ok(runtime) => runtime.block_on(serve(args, stop)),
        Err(code) => code,
    }
}

/// The multi-threaded runtime with `threads` worker threads (at least one).
fn runtime(threads: usize) -> Result<tokio::runtime::Runtime, ExitCode> {
    tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .worker_threads(threads.max(1))
        .build()
        .map_err(|e| {
            eprintln!("ledgerd: cannot start the runtime: {e}");
            ExitCode::from(1)
        })
}

/// Runs the server until SIGINT or SIGTERM. A signal during start-up (a genesis file, a
/// journal replay, a fork waiting on its upstream) ends the process at once with status
/// 128 + the signal (130, 143): nothing was served, and the journal survives an exit at any
/// point as it survives a crash. Once serving, a signal or the `stop` method shuts down
/// gracefully (status 0); a signal during that shutdown ends the process at once (128 + the
/// signal).
async fn serve(args: ServeArgs, mut stop: signals::Stop) -> ExitCode {
    ledgerd::server::ws::set_memory_trim(trim_allocator);
    let (config, notes) = match server_config(&args) {
        Ok(c) => c,
        Err(e) => {
            eprintln!("ledgerd: {e}");
            return ExitCode::from(2);
        }
    };
    init_log(
        args.log_format,
        &args.xrpld,
        config.debug_logfile.as_deref(),
    );
    for note in &notes.lines {
        tracing::info!("configuration: {note}");
    }
    // On a runtime thread, so this one stays free to see a signal while start-up keeps
    // them busy.
    let starting = tokio::spawn(ledgerd::app::start(config));
    let running = tokio::select! {
        started = starting => match started {
            Ok(Ok(r)) => r,
            Ok(Err(e)) => {
                eprintln!("ledgerd: {e}");
                return ExitCode::from(2);
            }
            Err(e) => {
                eprintln!("ledgerd: start-up failed: {e}");
                return ExitCode::from(1);
            }
        },
        signal = stop.recv() => signals::exit_now(signal, "during start-up, before serving"),
    };
    for line in &running.banner {
        let _ = print_line(line);
    }
    for (name, addr) in &running.addrs {
        // Tests and scripts read this line to learn the port when binding port 0; nobody
        // reading it (a closed pipe) is no reason to stop serving.
        let _ = print_line(&format!("ledgerd listening on {addr} ({name})"));
        tracing::info!(port = %name, %addr, "listening");
    }
    tokio::select! {
        _ = stop.recv() => {}
        () = running.stop_requested() => tracing::info!("stop requested (the stop method)"),
    }
    tracing::info!("shutting down");
    tokio::select! {
        () = running.stop() => ExitCode::SUCCESS,
        signal = stop.recv() => signals::exit_now(signal, "during shutdown"),
    }
}

/// The configuration file (or one loopback port) with the command line's options over it,
/// and what the file holds that the server ignores (logged once the log is set up).
fn server_config(args: &ServeArgs) -> Result<(ServerConfig, Notes), String> {
    let mut notes = Notes::default();
    let mut config = match (&args.config, &args.xrpld.conf) {
        (Some(_), Some(_)) => {
            return Err("--config (TOML) and --conf (xrpld) exclude each other".into())
        }
        (_, Some(path)) if args.listen.is_some() => {
            return Err(format!(
                "--listen and --conf {} exclude each other: the file names the ports",
                path.display()
            ))
        }
        (_, Some(path)) => {
            let mode = xrpld_cfg::Mode {
                standalone: args.xrpld.standalone,
                load: args.xrpld.load,
                start: args.xrpld.start,
            };
            let (config, n) = xrpld_cfg::load(path, mode).map_err(|e| e.to_string())?;
            notes = n;
            config
        }
        (Some(path), None) => ServerConfig::from_file(path).map_err(|e| e.to_string())?,
        (None, None) if args.xrpld.runs_server() => {
            return Err(
                "-a, --start and --load take an xrpld configuration file: --conf FILE".into(),
            )
        }
        (None, None) => {
            let bind = args.listen.unwrap_or_else(|| {
                DEFAULT_LISTEN
                    .parse()
                    .unwrap_or(SocketAddr::from(([127, 0, 0, 1], 6006)))
            });
            // Configured ports have admins only where an `admin` line names them (rippled);
            // this one port keeps the local operator's command line working (logged once
            // the log is set up).
            notes.ignored(&format!(
                "no configuration file: loopback callers (127.0.0.0/8, ::1) are admin on {bind}"
            ));
            ServerConfig::single(bind)
        }
    };
    apply_storage_args(&mut config, args)?;
    apply_node_args(&mut config, args);
    amendment_args(args, &mut config)?;
    config.postgres = args.postgres.clone();
    config.read_only = args.read_only;
    config.writer = args.writer.clone();
    apply_fee_args(&mut config, args)?;
    config.dev = dev_options(args)?;
    check_fresh_start(&config, &args.xrpld)?;
    Ok((config, notes))
}

/// xrpld `--start` without `-a` starts a new ledger; ledgerd never deletes one, so a
/// `[database_path]` that already holds a ledger is refused.
fn check_fresh_start(config: &ServerConfig, xrpld: &XrpldArgs) -> Result<(), String> {
    match &config.data_dir {
        Some(dir) if xrpld.start && !config.ephemeral && ledgerd::node::persist::holds_ledger(dir) => Err(format!(
            "--start: {} already holds a ledger, which ledgerd does not delete; remove it, or start without --start to resume it",
            dir.display()
        )),
        _ => Ok(()),
    }
}

/// `--ephemeral`, `--fork`, `--data-dir`, `--repair-journal`, `--online-delete`.
fn apply_storage_args(config: &mut ServerConfig, args: &ServeArgs) -> Result<(), String> {
    config.ephemeral |= args.ephemeral || args.fork.is_some();
    if let Some(upstream) = args.fork.clone() {
        config.data_dir = None;
        config.fork = Some(ledgerd::server::config::ForkConfig {
            upstream,
            ledger: args.fork_ledger,
            lazy: args.fork_lazy,
            copy_entries_max: ledgerd::limits::FORK_WHOLE_ENTRIES_MAX,
        });
    }
    config.repair_journal = args.repair_journal;
    config.repair_history = args.repair_history;
    fixed_clock(args, config)?;
    if args.ledger_memory_mb.is_some() {
        config.ledger_memory_bytes =
            ledgerd::server::config::check_ledger_memory_mb(args.ledger_memory_mb)
                .map_err(|e| e.to_string())?;
    }
    if args.online_delete.is_some() {
        config.online_delete = ledgerd::server::config::check_online_delete(args.online_delete)
            .map_err(|e| e.to_string())?;
    }
    if args.data_dir.is_some() {
        config.data_dir = args.data_dir.clone();
    }
    // Durable by default: without --ephemeral the ledger lives in a data directory.
    if !config.ephemeral && config.data_dir.is_none() {
        config.data_dir = Some(ledgerd::node::persist::DEFAULT_DATA_DIR.into());
    }
    Ok(())
}

/// `--reference-fee`, `--account-reserve`, `--owner-reserve`: a new ledger's FeeSettings.
fn apply_fee_args(config: &mut ServerConfig, args: &ServeArgs) -> Result<(), String> {
    let mut fees = config.fees;
    fees.base_drops = args.reference_fee.unwrap_or(fees.base_drops);
    fees.reserve_base_drops = args.account_reserve.unwrap_or(fees.reserve_base_drops);
    fees.reserve_inc_drops = args.owner_reserve.unwrap_or(fees.reserve_inc_drops);
    let set = &mut config.fees_set;
    set.base |= args.reference_fee.is_some();
    set.reserve_base |= args.account_reserve.is_some();
    set.reserve_inc |= args.owner_reserve.is_some();
    config.fees = ledgerd::server::config::check_fees(fees).map_err(|e| e.to_string())?;
    Ok(())
}

/// `--signing-support`, `--close-interval`, `--network-id`, `--cpu-threads`, `--no-faucet`,
/// `--no-explorer`.
fn apply_node_args(config: &mut ServerConfig, args: &ServeArgs) {
    config.signing_support |= args.signing_support;
    if let Some(s) = args.close_interval {
        config.close_interval_secs = s;
    }
    if args.network_id.is_some() {
        config.network_id = args.network_id;
    }
    if args.cpu_threads.is_some() {
        config.cpu_threads = args.cpu_threads;
    }
    if args.no_faucet {
        for port in &mut config.ports {
            port.faucet = ledgerd::server::config::FaucetMode::Off;
        }
    }
    if args.no_explorer {
        for port in &mut config.ports {
            port.explorer = false;
        }
    }
}

/// The log's form on stderr.
#[derive(Clone, Copy, Debug, clap::ValueEnum)]
enum LogFormat {
    /// Lines for people (colored on a terminal).
    Text,
    /// One JSON object a line: `timestamp`, `level`, `fields` (with `message`), `target`.
    Json,
}

/// The log: on stderr (none under xrpld's `--silent`) and appended to `[debug_logfile]`
/// when the configuration names one (a file that cannot be opened is reported and the
/// server runs on, as xrpld does). Its levels change at run time (`log_level`,
/// `ledgerd::logs`); xrpld's `--quiet` starts it at `error`, `--verbose` at `trace`, unless
/// `RUST_LOG` says otherwise.
fn init_log(format: LogFormat, xrpld: &XrpldArgs, file: Option<&Path>) {
    use ledgerd::logs::{self, Format, Severity};
    let format = match format {
        LogFormat::Text => Format::Text,
        LogFormat::Json => Format::Json,
    };
    let stderr = !xrpld.silent;
    let started = logs::init(format, file, stderr).or_else(|e| match file {
        Some(_) => {
            eprintln!("ledgerd: can't open the log file: {e}");
            logs::init(format, None, stderr)
        }
        None => Err(e),
    });
    if let Err(e) = started {
        eprintln!("ledgerd: cannot start the log: {e}");
        return;
    }
    if std::env::var_os("RUST_LOG").is_none() {
        match (xrpld.quiet, xrpld.verbose) {
            (true, _) => logs::control().set_base(Severity::Error),
            (false, true) => logs::control().set_base(Severity::Trace),
            (false, false) => {}
        }
    }
}

async fn client_command(server: &str, conf: Option<&Path>, words: Vec<String>) -> ExitCode {
    let Some((method, args)) = words.split_first() else {
        return ExitCode::from(1);
    };
    let shown = cli::shown_args(method, args);
    let target = match conf {
        Some(path) => match xrpld_cfg::client_target(path) {
            Ok(t) => Some(t),
            Err(e) => {
                eprintln!("ledgerd: {e}");
                return ExitCode::from(2);
            }
        },
        None => None,
    };
    let server = target
        .as_ref()
        .map_or(server.to_owned(), |t| t.addr.to_string());
    let outcome = match cli::request(method, args) {
        Ok((method, mut request)) => {
            if let Some((user, password)) = target.and_then(|t| t.admin_credentials) {
                request.insert("admin_user".into(), user.into());
                request.insert("admin_password".into(), password.into());
            }
            client::call(&server, &method, request, shown).await
        }
        Err(e) => client::local_error(e, method, shown),
    };
    let text = serde_json::to_string_pretty(&outcome.output)
        .unwrap_or_else(|_| outcome.output.to_string());
    match print_line(&text) {
        Ok(()) => ExitCode::from(u8::try_from(outcome.exit_code).unwrap_or(1)),
        // The reader went away (`ledgerd ... | head`): end quietly, as `cat` would.
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => ExitCode::from(EXIT_BROKEN_PIPE),
        Err(e) => {
            use std::io::Write;
            let _ = writeln!(std::io::stderr(), "ledgerd: cannot write the reply: {e}");
            ExitCode::from(1)
        }
    }
}

/// Exit status when standard output is a pipe nobody reads any more: 128 + SIGPIPE (13),
/// what a shell reports for `cat` or `grep` stopped by the signal, so `set -o pipefail`
/// still sees that the output was cut short. (Rust ignores SIGPIPE, so the write fails
/// with EPIPE instead of killing the process; `println!` would panic on it.)
const EXIT_BROKEN_PIPE: u8 = 141;

/// Writes `text` and a newline to standard output and flushes, returning the error
/// instead of panicking as `println!` does.
fn print_line(text: &str) -> std::io::Result<()> {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    writeln!(out, "{text}")?;
    out.flush()
}

/// SIGINT and SIGTERM, seen at any stage of `serve`.
///
/// The signals are blocked in every thread (the mask is set before the runtime starts its
/// threads, which inherit it) and one thread of their own takes them with `sigwait` and
/// passes them on. So a signal is seen while start-up keeps every runtime thread busy (a
/// journal replay, a genesis file) or waits on the network (a fork's upstream): no runtime
/// thread has to be free to run a handler, as tokio's signal handling needs.
mod signals {
    use tokio::sync::mpsc::{unbounded_channel, UnboundedReceiver};

    /// The signals as they arrive (their numbers).
    pub type Stop = UnboundedReceiver<i32>;

    /// Blocks SIGINT and SIGTERM in this thread (and so in every thread started after) and
    /// starts the thread that waits for them.
    #[cfg(unix)]
    pub fn watch() -> Result<Stop, String> {
        // SAFETY: sigemptyset and sigaddset write the set they are given; pthread_sigmask
        // reads it and changes this thread's mask only.
        let set = unsafe {
            let mut set: libc::sigset_t = std::mem::zeroed();
            libc::sigemptyset(&mut set);
            libc::sigaddset(&mut set, libc::SIGINT);
            libc::sigaddset(&mut set, libc::SIGTERM);
            let rc = libc::pthread_sigmask(libc::SIG_BLOCK, &set, std::ptr::null_mut());
            if rc != 0 {
                return Err(std::io::Error::from_raw_os_error(rc).to_string());
            }
            set
        };
        let (tx, rx) = unbounded_channel();
        std::thread::Builder::new()
            .name("signals".into())
            .spawn(move || loop {
                let mut signal = 0;
                // SAFETY: sigwait reads the set and writes the signal number.
                if unsafe { libc::sigwait(&set, &mut signal) } == 0 && tx.send(signal).is_err() {
                    return;
                }
            })
            .map_err(|e| e.to_string())?;
        Ok(rx)
    }

    /// Elsewhere: Ctrl-C, seen by a small runtime of its own on its own thread.
    #[cfg(not(unix))]
    pub fn watch() -> Result<Stop, String> {
        let (tx, rx) = unbounded_channel();
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .map_err(|e| e.to_string())?;
        std::thread::spawn(move || {
            runtime.block_on(async move {
                // 2 is SIGINT's number, which Ctrl-C stands for.
                while tokio::signal::ctrl_c().await.is_ok() && tx.send(2).is_ok() {}
            })
        });
        Ok(rx)
    }

    /// The signal's name.
    fn name(signal: i32) -> String {
        match signal {
            2 => "SIGINT".into(),
            15 => "SIGTERM".into(),
            n => format!("signal {n}"),
        }
    }

    /// Ends the process now with status 128 + `signal`, saying so on stderr. (Returning
    /// instead would wait for the runtime's threads, one of which may be busy for long.)
    pub fn exit_now(signal: Option<i32>, when: &str) -> ! {
        let signal = signal.unwrap_or(15);
        eprintln!("ledgerd: stopped by {} {when}", name(signal));
        std::process::exit(128 + signal)
    }
}
