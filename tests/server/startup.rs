//! Start-up against the real binary: the files `serve` is given (`--genesis`, `--config`,
//! TLS files) are read only when they are regular files of bounded size, a refused genesis
//! file leaves the data directory as it was, a `faucet_seed` naming no account is refused,
//! and SIGTERM / SIGINT stop a start that waits (exit status 128 + the signal).

use crate::support;

use ledgerd::protocol::keys::KeyType;
use ledgerd::protocol::seed::Seed;
use serde_json::{json, Value};
use std::io::Read;
use std::net::TcpListener;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};
use support::keys::secret;
use support::server::Server;

/// `ledgerd serve --listen 127.0.0.1:0 <args>`, its output piped, under a 4 GiB address
/// space limit (`ulimit -v`): a start that read a device without a bound would stop on it
/// instead of taking the machine's memory.
fn spawn_serve(args: &[&str]) -> Child {
    Command::new("sh")
        .args(["-c", "ulimit -v 4194304 && exec \"$0\" \"$@\""])
        .arg(env!("CARGO_BIN_EXE_ledgerd"))
        .args(["serve", "--listen", "127.0.0.1:0"])
        .args(args)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn ledgerd")
}

/// Waits for `child` to exit (a minute at most: past that it hangs, and the test fails);
/// returns its exit status code (`None`: killed by a signal) and stderr.
fn finish(mut child: Child, what: &str) -> (Option<i32>, String) {
    let deadline = Instant::now() + Duration::from_secs(60);
    let status = loop {
        if let Some(s) = child.try_wait().expect("wait") {
            break s;
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            let _ = child.wait();
            panic!("{what}: ledgerd did not exit");
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let mut err = String::new();
    let _ = child
        .stderr
        .take()
        .expect("stderr")
        .read_to_string(&mut err);
    (status.code(), err)
}

/// `ledgerd serve --listen 127.0.0.1:0 <args>` expected to refuse to start: its stderr,
/// after asserting exit status 2.
fn refused(args: &[&str]) -> String {
    let (code, err) = finish(spawn_serve(args), &format!("{args:?}"));
    assert_eq!(code, Some(2), "{args:?}: {err}");
    assert!(!err.contains("panicked"), "{err}");
    err
}

fn mkfifo(path: &Path) {
    let made = Command::new("mkfifo").arg(path).status().expect("mkfifo");
    assert!(made.success());
}

fn address_of(passphrase: &str) -> String {
    ledgerd::rpc::devnet::DevAccount::new(Seed::from_passphrase(passphrase), KeyType::Secp256k1)
        .expect("derive")
        .account()
        .to_address()
}

#[test]
fn special_files_are_refused_at_once_by_kind() {
    let dir = tempfile::tempdir().expect("tempdir");
    let fifo = dir.path().join("genesis.fifo");
    mkfifo(&fifo);
    let fifo = fifo.to_str().unwrap();
    let folder = dir.path().to_str().unwrap();
    for (path, kind) in [
        ("/dev/zero", "is a character device, not a regular file"),
        ("/dev/urandom", "is a character device, not a regular file"),
        (fifo, "is a FIFO (named pipe), not a regular file"),
        (folder, "is a directory, not a regular file"),
    ] {
        let err = refused(&["--ephemeral", "--genesis", path]);
        assert!(
            err.contains(&format!("genesis file {path}: {kind}")),
            "{path}: {err}"
        );
    }
    // The configuration file and the TLS files it names, the same way.
    let child = Command::new(env!("CARGO_BIN_EXE_ledgerd"))
        .args(["serve", "--config", fifo])
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn ledgerd");
    let (code, err) = finish(child, "--config FIFO");
    assert_eq!(code, Some(2), "{err}");
    assert!(
        err.contains(&format!("cannot read {fifo}: is a FIFO")),
        "{err}"
    );
    let config = dir.path().join("tls.toml");
    std::fs::write(
        &config,
        "ephemeral = true\n[[port]]\nbind = \"127.0.0.1:0\"\nprotocols = [\"https\"]\n\
         tls_cert = \"/dev/zero\"\ntls_key = \"/dev/urandom\"\n",
    )
    .unwrap();
    let (code, err) = finish(
        Command::new("sh")
            .args(["-c", "ulimit -v 4194304 && exec \"$0\" \"$@\""])
            .arg(env!("CARGO_BIN_EXE_ledgerd"))
            .args(["serve", "--config", config.to_str().unwrap()])
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .expect("spawn"),
        "TLS files",
    );
    assert_ne!(code, Some(0), "{err}");
    assert!(
        err.contains("cannot read /dev/zero: is a character device"),
        "{err}"
    );
}

#[test]
fn a_file_over_the_bound_is_refused() {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("big.json");
    let max = ledgerd::limits::GENESIS_FILE_BYTES_MAX as usize;
    std::fs::write(&path, " ".repeat(max + 1)).unwrap();
    let path = path.to_str().unwrap();
    let err = refused(&["--ephemeral", "--genesis", path]);
    assert!(err.contains(&format!("is over {max} bytes")), "{err}");
}

/// Issuer and holder, a line and an offer (the holder holds the USD it offers).
fn market_file() -> Value {
    let (issuer, holder) = (address_of("reuse issuer"), address_of("reuse holder"));
    json!({
        "accounts": [
            {"seed": secret("reuse issuer"), "balance": "5000"},
            {"seed": secret("reuse holder"), "balance": "1000"}
        ],
        "trust_lines": [
            {"account": holder, "issuer": issuer, "currency": "USD", "limit": "1000", "balance": "100"}
        ],
        "offers": [
            {"account": holder, "taker_gets": {"currency": "USD", "issuer": issuer, "value": "10"},
             "taker_pays": "20000000"}
        ]
    })
}

/// Whether `dir` holds anything a ledger leaves (a journal, the CREATED marker, history).
fn holds_anything(dir: &Path) -> bool {
    std::fs::read_dir(dir).is_ok_and(|mut d| d.next().is_some())
}

#[test]
fn a_refused_genesis_file_leaves_the_data_directory_reusable() {
    let dir = tempfile::tempdir().expect("tempdir");
    let data = dir.path().join("data");
    let data_arg = data.to_str().unwrap();
    let file = dir.path().join("genesis.json");
    let file_arg = file.to_str().unwrap();
    // Malformed JSON.
    std::fs::write(&file, "{\"accounts\": [").unwrap();
    let err = refused(&["--data-dir", data_arg, "--genesis", file_arg]);
    assert!(err.contains("genesis file"), "{err}");
    assert!(!holds_anything(&data), "{:?}", std::fs::read_dir(&data));
    // Well-formed, but an offer of USD the holder does not hold: its OfferCreate would
    // fail (tecUNFUNDED_OFFER) in the third ledger; tried in memory first, refused.
    let mut unfunded = market_file();
    unfunded["trust_lines"][0]["balance"] = json!("0");
    std::fs::write(&file, unfunded.to_string()).unwrap();
    let err = refused(&["--data-dir", data_arg, "--genesis", file_arg]);
    assert!(err.contains("tecUNFUNDED_OFFER"), "{err}");
    assert!(!holds_anything(&data), "{:?}", std::fs::read_dir(&data));
    // The good file, in the same directory.
    std::fs::write(&file, market_file().to_string()).unwrap();
    let server = Server::start_quiet(&["--data-dir", data_arg, "--genesis", file_arg]);
    let lines = support::http::rpc(
        server.addr(),
        "account_lines",
        json!({"account": address_of("reuse holder")}),
    )
    .json();
    assert_eq!(lines["result"]["lines"][0]["balance"], "100", "{lines}");
    assert!(server.terminate().success());
}

#[test]
fn a_faucet_seed_without_an_account_is_refused_at_start() {
    let dir = tempfile::tempdir().expect("tempdir");
    let seed = secret("a faucet nobody funded");
    let port = "[[port]]\nbind = \"127.0.0.1:0\"\nprotocols = [\"http\"]\n";
    let config = dir.path().join("ledgerd.toml");
    std::fs::write(
        &config,
        format!("ephemeral = true\nfaucet_seed = \"{seed}\"\n{port}"),
    )
    .unwrap();
    let config = config.to_str().unwrap();
    let child = Command::new(env!("CARGO_BIN_EXE_ledgerd"))
        .args(["serve", "--config", config])
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn");
    let (code, err) = finish(child, "faucet_seed");
    assert_eq!(code, Some(2), "{err}");
    let address = address_of("a faucet nobody funded");
    assert!(
        err.contains("faucet_seed") && err.contains(&address) && err.contains("does not exist"),
        "{err}"
    );
    assert!(!err.contains(&seed), "the seed is echoed: {err}");
    // In a new data directory with a genesis file that does not fund it: refused before
    // the directory holds anything.
    let data = dir.path().join("data");
    let file = dir.path().join("genesis.json");
    std::fs::write(&file, market_file().to_string()).unwrap();
    let durable = dir.path().join("durable.toml");
    std::fs::write(&durable, format!("faucet_seed = \"{seed}\"\n{port}")).unwrap();
    let child = Command::new(env!("CARGO_BIN_EXE_ledgerd"))
        .args(["serve", "--config", durable.to_str().unwrap()])
        .args(["--data-dir", data.to_str().unwrap()])
        .args(["--genesis", file.to_str().unwrap()])
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn");
    let (code, err) = finish(child, "faucet_seed with a genesis file");
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("does not exist"), "{err}");
    assert!(!holds_anything(&data));
}

/// A fork upstream that accepts connections and never answers; its first connection is
/// reported on the channel.
fn silent_upstream() -> (String, std::sync::mpsc::Receiver<()>) {
    let listener = TcpListener::bind("127.0.0.1:0").expect("bind");
    let url = format!("ws://{}/", listener.local_addr().unwrap());
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let mut held = Vec::new();
        for conn in listener.incoming() {
            let Ok(conn) = conn else { return };
            held.push(conn);
            let _ = tx.send(());
        }
    });
    (url, rx)
}

#[test]
fn a_signal_stops_a_start_waiting_on_a_silent_fork_upstream() {
    for (signal, status) in [("-TERM", 143), ("-INT", 130)] {
        let (url, connected) = silent_upstream();
        let child = spawn_serve(&["--fork", &url]);
        // The start is waiting on the upstream's handshake reply (up to
        // FORK_CONNECT_TIMEOUT_SECS, then it would refuse with status 2).
        connected
            .recv_timeout(Duration::from_secs(60))
            .expect("ledgerd connects to the upstream");
        let pid = child.id().to_string();
        assert!(Command::new("kill")
            .args([signal, &pid])
            .status()
            .unwrap()
            .success());
        let (code, err) = finish(child, signal);
        assert_eq!(code, Some(status), "{signal}: {err}");
        assert!(err.contains("during start-up"), "{err}");
    }
}

#[test]
fn a_signal_after_start_still_shuts_down_gracefully() {
    let server = Server::start(&[]);
    assert!(server.terminate().success());
}
