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
    /// Seconds between automatic ledger closes (0: only on ledger_accept).
    #[arg(long)]
    close_interval: Option<u64>,
    /// Let non-admin clients sign with server-side secrets (rippled [signing_support]).
    #[arg(long)]
    signing_support: bool,
    /// The network id server_info reports.
    #[arg(long)]
    network_id: Option<u32>,
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
    tracing_subscriber::fmt()
        .with_writer(std::io::stderr)
        .with_ansi(std::io::IsTerminal::is_terminal(&std::io::stderr()))
        .with_env_filter(log_filter())
        .init();
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
        // Tests and scripts read this line to learn the port when binding port 0.
        println!("ledgerd listening on {addr} ({name})");
        tracing::info!(port = %name, %addr, "listening");
    }
    stop_signal.await;
    tracing::info!("shutting down");
    running.stop().await;
    ExitCode::SUCCESS
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
    match serde_json::to_string_pretty(&outcome.output) {
        Ok(text) => println!("{text}"),
        Err(_) => println!("{}", outcome.output),
    }
    ExitCode::from(u8::try_from(outcome.exit_code).unwrap_or(1))
}
