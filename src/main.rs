//! `ledgerd serve` runs the server; `ledgerd [--server HOST:PORT] <method> <args...>` sends one
//! request to a running server and prints the reply.

use clap::{Args, Parser, Subcommand};
use ledgerd::rpc::cli;
use ledgerd::server::config::{ServerConfig, DEFAULT_LISTEN};
use ledgerd::server::{client, shutdown};
use std::net::SocketAddr;
use std::path::PathBuf;
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

#[derive(Parser)]
#[command(name = "ledgerd", version, about = "A ledger server that speaks the XRP Ledger's client API",
    after_help = cli::help_text())]
struct Cli {
    /// The server a client command talks to (HTTP JSON-RPC).
    #[arg(long, global = true, default_value = DEFAULT_LISTEN)]
    server: String,
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Run the server.
    Serve(ServeArgs),
    /// Send `<method> <args...>` to a running server (see the list below).
    #[command(external_subcommand)]
    Method(Vec<String>),
}

#[derive(Args)]
struct ServeArgs {
    /// Listen on one ws+http port at this address (default 127.0.0.1:6006).
    #[arg(long, conflicts_with = "config")]
    listen: Option<SocketAddr>,
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
    /// Keep only the newest N validated ledgers' history, deleting older ones as new ones
    /// close (rippled online_delete; at least 256). Default: keep every ledger.
    #[arg(long, value_name = "N")]
    online_delete: Option<u32>,
    /// Seconds between automatic ledger closes (0: only on ledger_accept).
    #[arg(long)]
    close_interval: Option<u64>,
    /// Let non-admin clients sign with server-side secrets (rippled [signing_support]).
    #[arg(long)]
    signing_support: bool,
    /// The network id server_info reports.
    #[arg(long)]
    network_id: Option<u32>,
    /// The log's form on stderr: `text` for people, `json` (one object a line) for log
    /// shippers.
    #[arg(long, value_enum, default_value = "text")]
    log_format: LogFormat,
    /// Threads doing socket I/O, framing and the cheap handlers (default: one per two cores,
    /// at least one).
    #[arg(long)]
    io_threads: Option<usize>,
    /// Threads signing and verifying (default: one per core).
    #[arg(long)]
    cpu_threads: Option<usize>,
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let mut builder = tokio::runtime::Builder::new_multi_thread();
    builder.enable_all();
    if let Command::Serve(args) = &cli.command {
        builder.worker_threads(
            args.io_threads
                .unwrap_or_else(ledgerd::app::default_io_threads)
                .max(1),
        );
    }
    let runtime = match builder.build() {
        Ok(r) => r,
        Err(e) => {
            eprintln!("ledgerd: cannot start the runtime: {e}");
            return ExitCode::from(1);
        }
    };
    match cli.command {
        Command::Serve(args) => runtime.block_on(serve(args)),
        Command::Method(words) => runtime.block_on(client_command(&cli.server, words)),
    }
}

async fn serve(args: ServeArgs) -> ExitCode {
    ledgerd::server::ws::set_memory_trim(trim_allocator);
    init_log(args.log_format);
    let mut config = match &args.config {
        Some(path) => match ServerConfig::from_file(path) {
            Ok(c) => c,
            Err(e) => {
                eprintln!("ledgerd: {e}");
                return ExitCode::from(2);
            }
        },
        None => {
            let bind = args.listen.unwrap_or_else(|| {
                DEFAULT_LISTEN
                    .parse()
                    .unwrap_or(SocketAddr::from(([127, 0, 0, 1], 6006)))
            });
            // Configured ports have admins only where an `admin` line names them (rippled);
            // this one port keeps the local operator's command line working.
            tracing::info!(
                %bind,
                "no configuration file: loopback callers (127.0.0.0/8, ::1) are admin"
            );
            ServerConfig::single(bind)
        }
    };
    config.signing_support |= args.signing_support;
    config.ephemeral |= args.ephemeral;
    config.repair_journal = args.repair_journal;
    if args.online_delete.is_some() {
        match ledgerd::server::config::check_online_delete(args.online_delete) {
            Ok(keep) => config.online_delete = keep,
            Err(e) => {
                eprintln!("ledgerd: {e}");
                return ExitCode::from(2);
            }
        }
    }
    if args.data_dir.is_some() {
        config.data_dir = args.data_dir;
    }
    // Durable by default: without --ephemeral the ledger lives in a data directory.
    if !config.ephemeral && config.data_dir.is_none() {
        config.data_dir = Some(ledgerd::node::persist::DEFAULT_DATA_DIR.into());
    }
    if let Some(s) = args.close_interval {
        config.close_interval_secs = s;
    }
    if args.network_id.is_some() {
        config.network_id = args.network_id;
    }
    if args.cpu_threads.is_some() {
        config.cpu_threads = args.cpu_threads;
    }
    let stop_signal = shutdown::os_signal();
    let running = match ledgerd::app::start(config).await {
        Ok(r) => r,
        Err(e) => {
            eprintln!("ledgerd: {e}");
            return ExitCode::from(2);
        }
    };
    for (name, addr) in &running.addrs {
        // Tests and scripts read this line to learn the port when binding port 0; nobody
        // reading it (a closed pipe) is no reason to stop serving.
        let _ = print_line(&format!("ledgerd listening on {addr} ({name})"));
        tracing::info!(port = %name, %addr, "listening");
    }
    stop_signal.await;
    tracing::info!("shutting down");
    running.stop().await;
    ExitCode::SUCCESS
}

/// The log's form on stderr.
#[derive(Clone, Copy, Debug, clap::ValueEnum)]
enum LogFormat {
    /// Lines for people (colored on a terminal).
    Text,
    /// One JSON object a line: `timestamp`, `level`, `fields` (with `message`), `target`.
    Json,
}

fn init_log(format: LogFormat) {
    let builder = tracing_subscriber::fmt()
        .with_writer(std::io::stderr)
        .with_env_filter(log_filter());
    match format {
        LogFormat::Text => builder
            .with_ansi(std::io::IsTerminal::is_terminal(&std::io::stderr()))
            .init(),
        LogFormat::Json => builder.json().with_ansi(false).init(),
    }
}

/// `RUST_LOG` (default `info`), except that the socket libraries never log below `warn`:
/// at trace level tungstenite dumps every frame's payload, secrets included.
fn log_filter() -> tracing_subscriber::EnvFilter {
    let mut filter = tracing_subscriber::EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("info"));
    for quiet in [
        "tungstenite",
        "tokio_tungstenite",
        "hyper",
        "hyper_util",
        "rustls",
        "tokio_rustls",
        "mio",
    ] {
        if let Ok(d) = format!("{quiet}=warn").parse() {
            filter = filter.add_directive(d);
        }
    }
    filter
}

async fn client_command(server: &str, words: Vec<String>) -> ExitCode {
    let Some((method, args)) = words.split_first() else {
        return ExitCode::from(1);
    };
    let shown = cli::shown_args(method, args);
    let outcome = match cli::request(method, args) {
        Ok((method, request)) => client::call(server, &method, request, shown).await,
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
