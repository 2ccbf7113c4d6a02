//! The command-line client against a real server: rippled's positional forms, local errors,
//! exit codes.

use crate::support;

use serde_json::json;
use std::process::Command;
use support::keys::CHANNEL;
use support::server::{cli, Server};
use support::vectors::claim_vectors;
use support::ws::Ws;

#[test]
fn methods_through_the_command_line() {
    let server = Server::start(&[]);
    let addr = server.addr();
    assert_eq!(
        cli(addr, &["ping"]),
        (0, json!({"result": {"role": "admin", "status": "success"}}))
    );

    for case in claim_vectors().iter().step_by(3) {
        let (id, drops, seed) = (
            case["channel_id"].as_str().unwrap(),
            case["amount_drops"].as_str().unwrap(),
            case["signer_seed"].as_str().unwrap(),
        );
        let key_type = case["key_type"].as_str().unwrap();
        let expected = case["signature_hex"].as_str().unwrap();
        // 3 arguments: the secret; 4 arguments: passphrase (any secret form) and key type.
        let (code, out) = cli(addr, &["channel_authorize", seed, id, drops]);
        assert_eq!(code, 0, "{out}");
        assert_eq!(out["result"]["signature"], expected);
        let (code, out) = cli(
            addr,
            &[
                "channel_authorize",
                seed,
                key_type,
                &id.to_lowercase(),
                drops,
            ],
        );
        assert_eq!(code, 0, "{out}");
        assert_eq!(out["result"]["signature"], expected);
        let pk = case["public_key_hex"].as_str().unwrap();
        let (code, out) = cli(addr, &["channel_verify", pk, id, drops, expected]);
        assert_eq!(
            (code, &out["result"]["signature_verified"]),
            (0, &json!(true))
        );
        let (_, out) = cli(addr, &["channel_verify", pk, CHANNEL, drops, expected]);
        assert_eq!(out["result"]["signature_verified"], false);
    }

    let (code, out) = cli(addr, &["wallet_propose", "masterpassphrase"]);
    assert_eq!(code, 0);
    assert_eq!(
        out["result"]["account_id"],
        "rHb9CJAWyB4rj91VRWn96DkukG4bwdtyTh"
    );
    let (code, out) = cli(addr, &["server_info"]);
    assert_eq!(code, 0);
    assert_eq!(out["result"]["info"]["server_state"], "full");
    let (code, out) = cli(addr, &["json", "server_state", "{}"]);
    assert_eq!(code, 0);
    assert_eq!(out["result"]["state"]["load_base"], 256);
}

#[test]
fn errors_exit_non_zero() {
    let server = Server::start(&[]);
    let addr = server.addr();
    // Local checks, before anything is sent.
    let (code, out) = cli(
        addr,
        &[
            "channel_authorize",
            "snoPBrXtMeMyMHUVTgbuqAfg1SUTb",
            "rsa",
            CHANNEL,
            "1",
        ],
    );
    assert_eq!(code, 76);
    assert_eq!(out["error"], "badKeyType");
    assert_eq!(out["rpc"]["params"][0], "<masked>");
    let (code, out) = cli(
        addr,
        &[
            "channel_authorize",
            "snoPBrXtMeMyMHUVTgbuqAfg1SUTb",
            "XYZ",
            "1",
        ],
    );
    assert_eq!(
        (code, out["error"].as_str()),
        (45, Some("channelMalformed"))
    );
    let (code, out) = cli(
        addr,
        &[
            "channel_authorize",
            "snoPBrXtMeMyMHUVTgbuqAfg1SUTb",
            CHANNEL,
            "1.5",
        ],
    );
    assert_eq!(
        (code, out["error"].as_str()),
        (46, Some("channelAmtMalformed"))
    );
    let (code, out) = cli(addr, &["channel_verify", "zz", CHANNEL, "1", "00"]);
    assert_eq!((code, out["error"].as_str()), (62, Some("publicMalformed")));
    let (code, out) = cli(addr, &["ping", "extra"]);
    assert_eq!((code, out["error"].as_str()), (1, Some("badSyntax")));
    // Server-side errors.
    let (code, out) = cli(
        addr,
        &[
            "json",
            "channel_authorize",
            &json!({"secret": "snoPBrXtMeMyMHUVTgbuqAfg1SUTb", "channel_id": CHANNEL, "amount": 5})
                .to_string(),
        ],
    );
    assert_eq!(code, 46);
    assert_eq!(out["result"]["error"], "channelAmtMalformed");
    assert_eq!(out["result"]["request"]["secret"], "<masked>");
    let (code, out) = cli(addr, &["no_such_method"]);
    assert_eq!(
        (code, out["result"]["error"].as_str()),
        (32, Some("unknownCmd"))
    );
    // No server.
    drop(server);
    let (code, out) = cli(addr, &["ping"]);
    assert_eq!((code, out["error"].as_str()), (2, Some("json_rpc")));
}

#[test]
fn help_lists_the_methods() {
    let out = Command::new(env!("CARGO_BIN_EXE_ledgerd"))
        .arg("--help")
        .output()
        .unwrap();
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    for m in [
        "serve",
        "channel_authorize",
        "channel_verify",
        "wallet_propose",
        "server_info",
        "ping",
        "json",
        "random",
        "server_state",
    ] {
        assert!(text.contains(m), "--help lacks {m}:\n{text}");
    }
}

#[test]
fn sigterm_shuts_down_cleanly() {
    let server = Server::start(&[]);
    let status = server.terminate();
    assert!(status.success(), "{status:?}");
}

#[tokio::test]
async fn sigterm_closes_open_websockets_with_going_away() {
    use futures::StreamExt;
    use tokio_tungstenite::tungstenite::Message;
    let server = Server::start(&[]);
    let mut ws = Ws::connect(&server.ws_url()).await;
    assert_eq!(
        ws.call(json!({"command": "ping"})).await["status"],
        "success"
    );
    let waiter = std::thread::spawn(move || server.terminate());
    let frame = tokio::time::timeout(std::time::Duration::from_secs(10), ws.raw().next())
        .await
        .unwrap();
    match frame {
        Some(Ok(Message::Close(Some(c)))) => {
            assert_eq!(u16::from(c.code), 1001);
            assert_eq!(c.reason.as_str(), "Shutting Down");
        }
        other => panic!("expected a close frame, got {other:?}"),
    }
    assert!(waiter.join().unwrap().success());
}

/// `ledgerd --server <addr> <args>` whose standard output is a pipe its reader already
/// closed: every write fails with EPIPE.
fn cli_into_closed_pipe(addr: std::net::SocketAddr, args: &[&str]) -> std::process::Output {
    let (reader, writer) = std::io::pipe().expect("pipe");
    drop(reader);
    Command::new(env!("CARGO_BIN_EXE_ledgerd"))
        .arg("--server")
        .arg(addr.to_string())
        .args(args)
        .stdout(writer)
        .stderr(std::process::Stdio::piped())
        .output()
        .expect("run ledgerd")
}

#[test]
fn a_closed_output_pipe_ends_quietly_with_141() {
    let server = Server::start(&[]);
    for args in [
        &["account_info", "rHb9CJAWyB4rj91VRWn96DkukG4bwdtyTh"][..],
        &["server_info"],
        &["ping", "extra"],
    ] {
        let out = cli_into_closed_pipe(server.addr(), args);
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            err.is_empty(),
            "{args:?}: nothing on stderr (no panic, no backtrace): {err}"
        );
        // 128 + SIGPIPE, as a shell reports for `cat` stopped by the signal.
        assert_eq!(out.status.code(), Some(141), "{args:?}");
    }
    // As typed in a shell: `head -c1` takes one byte and leaves.
    let line = format!(
        "'{}' --server {} server_info | head -c1",
        env!("CARGO_BIN_EXE_ledgerd"),
        server.addr()
    );
    let out = Command::new("sh")
        .arg("-c")
        .arg(&line)
        .output()
        .expect("sh");
    assert_eq!(out.stdout, b"{");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!err.contains("panicked"), "{err}");
}

fn closed_index(addr: std::net::SocketAddr) -> u64 {
    let (code, out) = cli(addr, &["ledger_closed"]);
    assert_eq!(code, 0, "{out}");
    out["result"]["ledger_index"]
        .as_u64()
        .expect("ledger_index")
}

#[test]
fn a_damaged_journal_refuses_to_serve_and_repair_journal_serves_what_is_left() {
    let dir = tempfile::tempdir().expect("tempdir");
    let data = dir.path().to_str().expect("utf-8 path");
    let serve = ["serve", "--listen", "127.0.0.1:0", "--close-interval", "0"];
    let mut args: Vec<&str> = serve.to_vec();
    args.extend(["--data-dir", data]);
    let server = Server::start_args(&args, 1);
    let first = closed_index(server.addr());
    // 20 closes, each journaled and acknowledged before the next is asked for.
    for _ in 0..20 {
        assert_eq!(cli(server.addr(), &["ledger_accept"]).0, 0);
    }
    let before = closed_index(server.addr());
    assert_eq!(before, first + 20);
    assert!(server.terminate().success());

    let seg = std::fs::read_dir(dir.path().join("journal"))
        .expect("journal")
        .map(|e| e.expect("entry").path())
        .find(|p| p.extension().is_some_and(|e| e == "seg"))
        .expect("a segment");
    let len = std::fs::metadata(&seg).expect("meta").len();
    std::fs::OpenOptions::new()
        .write(true)
        .open(&seg)
        .expect("open")
        .set_len(len / 2)
        .expect("truncate");

    let refused = Command::new(env!("CARGO_BIN_EXE_ledgerd"))
        .args(&args)
        .output()
        .expect("run");
    let err = String::from_utf8_lossy(&refused.stderr);
    assert_eq!(refused.status.code(), Some(2), "{err}");
    let name = seg.file_name().and_then(|n| n.to_str()).expect("name");
    assert!(err.contains(name), "{err}");
    assert!(
        err.contains("acknowledged records ") && err.contains(" are missing"),
        "{err}"
    );
    assert!(err.contains("--repair-journal"), "{err}");
    assert!(!err.contains("panicked"), "{err}");

    args.push("--repair-journal");
    let server = Server::start_args(&args, 1);
    let log = server.log_text();
    assert!(
        log.contains("journal repair: discarded journal records"),
        "{log}"
    );
    let after = closed_index(server.addr());
    assert!(
        after > first && after < before,
        "{first} < {after} < {before}"
    );
    assert_eq!(cli(server.addr(), &["ledger_accept"]).0, 0);
    assert_eq!(closed_index(server.addr()), after + 1);
    assert!(server.terminate().success());
    args.pop();
    let server = Server::start_args(&args, 1);
    assert_eq!(closed_index(server.addr()), after + 1, "restarts as it was");
}

/// `--reference-fee`, `--account-reserve` and `--owner-reserve` set a new ledger's
/// FeeSettings as rippled's `[voting]` section sets a standalone genesis (xrpl-py's CI runs
/// rippled with 200 drops, 20 XRP and 5 XRP); a schedule rippled could not hold is refused.
#[test]
fn fee_options_set_a_new_ledgers_fee_schedule() {
    let server = Server::start(&[
        "--reference-fee",
        "200",
        "--account-reserve",
        "20000000",
        "--owner-reserve",
        "5000000",
    ]);
    let fee = support::http::rpc(server.addr(), "fee", json!({})).json();
    assert_eq!(fee["result"]["drops"]["base_fee"], "200", "{fee}");
    let info = support::http::rpc(server.addr(), "server_info", json!({})).json();
    let validated = &info["result"]["info"]["validated_ledger"];
    assert_eq!(validated["base_fee_xrp"], 0.0002, "{info}");
    assert_eq!(validated["reserve_base_xrp"], 20, "{info}");
    assert_eq!(validated["reserve_inc_xrp"], 5, "{info}");
    let entry = support::http::rpc(
        server.addr(),
        "ledger_entry",
        json!({"index": "4BC50C9B0D8515D3EAAE1E74B29A95804346C491EE1A95BF25E4AAB854A6A651",
            "ledger_index": "validated"}),
    )
    .json();
    assert_eq!(entry["result"]["node"]["BaseFee"], "c8", "{entry}");
    assert_eq!(
        entry["result"]["node"]["ReserveBase"], 20_000_000,
        "{entry}"
    );

    for bad in [
        ["--reference-fee", "0"],
        ["--owner-reserve", "20000001"],
        ["--account-reserve", "4294967296"],
    ] {
        let out = Command::new(env!("CARGO_BIN_EXE_ledgerd"))
            .args(["serve", "--ephemeral", "--listen", "127.0.0.1:0"])
            .args(bad)
            .output()
            .expect("run ledgerd");
        assert_eq!(out.status.code(), Some(2), "{bad:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains("drops"), "{bad:?}: {err}");
    }
}

/// `--ledger-memory-mb` bounds memory's window of closed ledgers: a value within bounds
/// serves, one outside them is refused before anything starts.
#[test]
fn ledger_memory_mb_is_bounded() {
    let server = Server::start(&["--ledger-memory-mb", "16"]);
    let info = support::http::rpc(server.addr(), "server_info", json!({})).json();
    assert_eq!(info["result"]["status"], "success", "{info}");
    for bad in ["15", "1048577", "x"] {
        let out = Command::new(env!("CARGO_BIN_EXE_ledgerd"))
            .args(["serve", "--ephemeral", "--listen", "127.0.0.1:0"])
            .args(["--ledger-memory-mb", bad])
            .output()
            .expect("run ledgerd");
        assert_eq!(out.status.code(), Some(2), "{bad}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            err.contains("ledger-memory-mb") || err.contains("ledger_memory_mb"),
            "{bad}: {err}"
        );
    }
}
