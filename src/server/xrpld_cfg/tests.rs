//! Every section, read well and refused.

use super::*;
use crate::server::config::{TlsFiles, TlsSource, TxQueueConfig};
use crate::server::role::AdminNet;
use std::net::SocketAddr;

const STANDALONE: Mode = Mode {
    standalone: true,
    load: false,
    start: false,
};
const NETWORKED: Mode = Mode {
    standalone: false,
    load: false,
    start: false,
};

/// The sections the client libraries' CI files have, in words of our own: three ports (an
/// admin http port, a public ws port, an admin ws port), a commented-out peer port, the
/// node store, history, paths, the log, the network, a startup command, the features and
/// the fee vote.
const CI_LIKE: &str = "\
[server]
port_rpc
port_ws_public
port_ws_admin
# port_peer

[port_rpc]
port = 5005
ip = 0.0.0.0
admin = 0.0.0.0
protocol = http

[port_ws_public]
port = 80
ip = 0.0.0.0
protocol = ws

[port_ws_admin]
port = 6006
ip = 0.0.0.0
admin = 0.0.0.0
protocol = ws

[node_size]
small

[node_db]
type=NuDB
path=/var/lib/xrpld/db/nudb
advisory_delete=0
online_delete=256

[ledger_history]
# a comment line inside
256

[database_path]
/var/lib/xrpld/db

[debug_logfile]
/var/log/xrpld/debug.log

[network_id]
0

[sntp_servers]
time.example.com

[ips]
r.example.com 51235

[validators_file]
validators.txt

[rpc_startup]
{ \"command\": \"log_level\", \"severity\": \"info\" }

[ssl_verify]
1

[features]
# a comment
NegativeUNL
fixRemoveNFTokenAutoTrustLine
AMM
# 2.5.0
PermissionedDEX

[voting]
reference_fee = 200           # drops
account_reserve = 20000000   # 20 XRP
owner_reserve = 5000000      # 5 XRP
";

fn read(text: &str, mode: Mode) -> Result<(ServerConfig, Notes), CfgError> {
    from_text(text, Path::new("/etc/xrpld"), mode)
}

fn config(text: &str) -> ServerConfig {
    read(text, STANDALONE).unwrap().0
}

/// The error a file gets, as `(line, reason)`.
fn refused(text: &str, mode: Mode) -> (usize, String) {
    let e = read(text, mode).expect_err("refused");
    (e.line, e.reason)
}

/// A file of one ws port plus `rest`.
fn with_port(rest: &str) -> String {
    format!("[server]\nport_ws\n[port_ws]\nip = 127.0.0.1\nport = 6006\nprotocol = ws\n{rest}")
}

#[test]
fn the_ci_file_maps_onto_the_server_config() {
    let (c, notes) = read(CI_LIKE, STANDALONE).unwrap();
    let ports: Vec<_> = c
        .ports
        .iter()
        .map(|p| (p.name.as_str(), p.bind, p.protocols.clone(), p.admin.len()))
        .collect();
    let any = |port| SocketAddr::from(([0, 0, 0, 0], port));
    assert_eq!(
        ports,
        [
            ("port_rpc", any(5005), vec!["http".to_string()], 2),
            ("port_ws_public", any(80), vec!["ws".to_string()], 0),
            ("port_ws_admin", any(6006), vec!["ws".to_string()], 2),
        ]
    );
    assert_eq!(c.network_id, Some(0));
    assert_eq!(c.fees.base_drops, 200);
    assert_eq!(c.fees.reserve_base_drops, 20_000_000);
    assert_eq!(c.fees.reserve_inc_drops, 5_000_000);
    assert_eq!(c.online_delete, Some(256));
    assert!(!c.advisory_delete);
    assert_eq!(c.rpc_startup.len(), 1);
    assert_eq!(c.rpc_startup[0].request["command"], "log_level");
    assert_eq!(
        c.debug_logfile,
        Some(PathBuf::from("/var/log/xrpld/debug.log"))
    );
    let features = c.amendments.features.clone().unwrap_or_default();
    assert_eq!(
        features,
        [
            "NegativeUNL",
            "fixRemoveNFTokenAutoTrustLine",
            "AMM",
            "PermissionedDEX"
        ]
    );
    // -a: a new ledger in memory, closed by ledger_accept only.
    assert!(c.standalone && c.ephemeral && c.data_dir.is_none());
    assert_eq!(c.close_interval_secs, 0);
    for section in [
        "[node_size]",
        "[sntp_servers]",
        "[ips]",
        "[validators_file]",
        "[ssl_verify]",
    ] {
        assert!(
            notes.lines.iter().any(|l| l.starts_with(section)),
            "{section}: {notes:?}"
        );
    }
    assert!(notes.lines.iter().any(|l| l.starts_with("[node_db] type")));
    assert!(notes.lines.iter().any(|l| l.starts_with("[database_path]")));
}

#[test]
fn without_standalone_the_ledger_lives_in_database_path() {
    let (c, _) = read(CI_LIKE, NETWORKED).unwrap();
    assert!(!c.standalone && !c.ephemeral);
    assert_eq!(c.data_dir, Some(PathBuf::from("/var/lib/xrpld/db")));
    assert_eq!(
        c.close_interval_secs,
        crate::limits::CLOSE_INTERVAL_SECS_DEFAULT
    );
    // --load under -a resumes [database_path]; without one it is refused.
    let load = Mode {
        standalone: true,
        load: true,
        start: false,
    };
    let (c, _) = read(CI_LIKE, load).unwrap();
    assert!(!c.ephemeral && c.data_dir.is_some());
    assert!(refused(&with_port(""), load).1.contains("--load"));
    // No [database_path] and no -a: ledgerd's own directory.
    let (c, _) = read(&with_port(""), NETWORKED).unwrap();
    assert_eq!(
        c.data_dir,
        Some(crate::node::persist::DEFAULT_DATA_DIR.into())
    );
}

#[test]
fn server_names_the_ports_in_order_and_gives_their_defaults() {
    let c = config(
        "[server]\nport_b\nport_a\nip = 127.0.0.1\nadmin = 10.0.0.0/8\nsend_queue_limit = 7\n\
         [port_a]\nport = 1\nprotocol = http, ws,http\n[port_b]\nport = 2\nprotocol = wss2,ws2\n\
         admin = 192.168.1.0/24\nssl_key = k.pem\nssl_cert = /abs/c.pem\nssl_chain = ch.pem\nlimit = Unlimited\n",
    );
    assert_eq!(c.ports[0].name, "port_b");
    assert_eq!(c.ports[1].protocols, ["http", "ws"]);
    assert!(c.ports[1].http && c.ports[1].ws && c.ports[1].tls.is_none());
    assert_eq!(c.ports[1].send_queue_limit, 7);
    assert_eq!(c.ports[1].admin.len(), 1);
    // [server]'s admin list adds to the port's.
    assert_eq!(c.ports[0].admin.len(), 2);
    let Some(TlsSource::Files(tls)) = c.ports[0].tls.clone() else {
        panic!("{:?}", c.ports[0].tls)
    };
    assert_eq!(tls.key, PathBuf::from("/etc/xrpld/k.pem"));
    assert_eq!(tls.cert, PathBuf::from("/abs/c.pem"));
    assert_eq!(tls.chain, Some(PathBuf::from("/etc/xrpld/ch.pem")));
    // ws2 is plain, wss2 is TLS: one port serving both.
    assert!(c.ports[0].plain_too && c.ports[0].ws && !c.ports[0].http);
    assert_eq!(c.ports[0].protocols, ["ws2", "wss2"]);
    assert_eq!(c.ports[0].limit, 0);
}

#[test]
fn port_settings_credentials_and_mixed_ports() {
    let c = config(&with_port(
        "limit = 12\nuser = u\npassword = p\nadmin_user = au\n\
         [port_mixed]\nport = 2\nip = ::1\nprotocol = https,http\nssl_key = k\nssl_cert = c\n",
    ));
    let p = &c.ports[0];
    assert_eq!(p.limit, 12);
    assert_eq!(p.user_credentials, Some(("u".into(), "p".into())));
    assert_eq!(p.admin_credentials, Some(("au".into(), String::new())));
    // port_mixed is not listed in [server].
    assert_eq!(c.ports.len(), 1);
    let c = config(
        "[server]\nport_mixed\n[port_mixed]\nport = 2\nip = ::1\nprotocol = https,http\nssl_key = k\nssl_cert = c\n",
    );
    assert!(c.ports[0].plain_too && c.ports[0].tls.is_some() && c.ports[0].http);
    // A user without a password asks nothing, as in xrpld.
    let c = config(&with_port("user = u\n"));
    assert_eq!(c.ports[0].user_credentials, None);
}

#[test]
fn admin_networks_as_xrpld_reads_them() {
    let c = config(&with_port(
        "admin = 127.0.0.1, ::1, 10.1.2.0/24, fd00::/8\n",
    ));
    assert_eq!(c.ports[0].admin.len(), 4);
    let all = config(&with_port("admin = ::\n"));
    let nets = &all.ports[0].admin;
    assert!(nets.iter().any(|n| n.contains("8.8.8.8".parse().unwrap())));
    assert!(nets
        .iter()
        .any(|n| n.contains("2001:db8::1".parse().unwrap())));
    let (line, reason) = refused(&with_port("admin = 10.1.2.3/24\n"), STANDALONE);
    assert_eq!(line, 7);
    assert!(reason.contains("not the network's own"), "{reason}");
    let (_, reason) = refused(&with_port("admin = localhost\n"), STANDALONE);
    assert!(
        reason.contains("Invalid value 'localhost' for key 'admin' in [port_ws]"),
        "{reason}"
    );
}

#[test]
fn secure_gateways_as_xrpld_reads_them() {
    let net = |s| AdminNet::parse(s).unwrap();
    let c = config(&with_port("secure_gateway = 127.0.0.1, 10.1.0.0/16\n"));
    assert_eq!(
        c.ports[0].secure_gateway,
        [net("127.0.0.1"), net("10.1.0.0/16")]
    );
    assert!(c.ports[0].admin.is_empty());
    // [server]'s list adds to each port's.
    let c = config(
        "[server]\nport_a\nport_b\nsecure_gateway = 10.0.0.1\n[port_a]\nip = ::1\nport = 1\n\
         protocol = http\nsecure_gateway = ::1\n[port_b]\nip = ::1\nport = 2\nprotocol = ws\n",
    );
    assert_eq!(c.ports[0].secure_gateway, [net("10.0.0.1"), net("::1")]);
    assert_eq!(c.ports[1].secure_gateway, [net("10.0.0.1")]);
    // 0.0.0.0: every address.
    let all = config(&with_port("secure_gateway = 0.0.0.0\n"));
    assert!(all.ports[0]
        .secure_gateway
        .iter()
        .any(|n| n.contains("2001:db8::1".parse().unwrap())));
    let (line, reason) = refused(&with_port("secure_gateway = 10.1.2.3/24\n"), STANDALONE);
    assert_eq!(line, 7);
    assert!(reason.contains("not the network's own"), "{reason}");
    let (_, reason) = refused(&with_port("secure_gateway = proxy.lan\n"), STANDALONE);
    assert!(
        reason.contains("Invalid value 'proxy.lan' for key 'secure_gateway' in [port_ws]"),
        "{reason}"
    );
}

#[test]
fn secure_ports_without_files_make_a_certificate() {
    let secure = |rest: &str| {
        let text = format!("[server]\np\n[p]\nip = ::1\nport = 1\nprotocol = wss, https\n{rest}");
        config(&text).ports[0].tls.clone()
    };
    assert_eq!(secure(""), Some(TlsSource::SelfSigned));
    // The chain alone gives the server's certificate (its first) with the key.
    assert_eq!(
        secure("ssl_key = k.pem\nssl_chain = ch.pem\n"),
        Some(TlsSource::Files(TlsFiles {
            cert: PathBuf::from("/etc/xrpld/ch.pem"),
            key: PathBuf::from("/etc/xrpld/k.pem"),
            chain: None,
        }))
    );
    // [server]'s files are every secure port's.
    let c = config(
        "[server]\np\nssl_key = k\nssl_cert = c\n[p]\nip = ::1\nport = 1\nprotocol = https\n",
    );
    assert!(matches!(c.ports[0].tls, Some(TlsSource::Files(_))));
    // A plain port needs nothing, whatever it names.
    let c = config(&with_port("ssl_key = k\n"));
    assert_eq!(c.ports[0].tls, None);
    for (rest, says) in [
        ("ssl_cert = c.pem\n", "but no ssl_key"),
        ("ssl_chain = c.pem\n", "but no ssl_key"),
        ("ssl_key = k.pem\n", "but no ssl_cert or ssl_chain"),
    ] {
        let text = format!("[server]\np\n[p]\nip = ::1\nport = 1\nprotocol = wss\n{rest}");
        let (line, reason) = refused(&text, STANDALONE);
        assert_eq!(line, 3, "{rest}");
        assert!(reason.contains(says), "{rest}: {reason}");
    }
}

#[test]
fn malformed_ports_are_refused_at_their_line() {
    let cases: &[(&str, usize, &str)] = &[
        (
            "[port_ws]\nport = 1\n",
            0,
            "Required section [server] is missing",
        ),
        ("[server]\nport_x\n", 2, "Missing section: [port_x]"),
        (
            "[server]\nport_x\n[port_x]\nport = 1\nprotocol = ws\n",
            3,
            "Missing 'ip' in [port_x]",
        ),
        (
            "[server]\nport_x\n[port_x]\nip = 1.2.3.4\nprotocol = ws\n",
            3,
            "Missing 'port' in [port_x]",
        ),
        (
            "[server]\nport_x\n[port_x]\nip = 1.2.3.4\nport = 1\n",
            3,
            "Missing 'protocol' in [port_x]",
        ),
        (
            "[server]\np\n[p]\nip = 1.2.3\nport = 1\nprotocol = ws\n",
            4,
            "Invalid value '1.2.3' for key 'ip' in [p]",
        ),
        (
            "[server]\np\n[p]\nip = ::1\nport = 70000\nprotocol = ws\n",
            5,
            "Invalid value '70000' for key 'port' in [p]",
        ),
        (
            "[server]\np\n[p]\nip = ::1\nport = 1\nprotocol = ws,gopher\n",
            6,
            "Unknown protocol 'gopher'",
        ),
        (
            "[server]\np\n[p]\nip = ::1\nport = 1\nprotocol = ws\nlimit = many\n",
            7,
            "for key 'limit'",
        ),
        (
            "[server]\np\n[p]\nip = ::1\nport = 1\nprotocol = ws\nsend_queue_limit = 0\n",
            7,
            "'send_queue_limit'",
        ),
        (
            "[server]\np\n[p]\nip = ::1\nport = 1\nprotocol = peer\n",
            1,
            "names no port ledgerd can serve",
        ),
    ];
    for (text, line, reason) in cases {
        let (l, r) = refused(text, STANDALONE);
        assert_eq!((l, r.contains(reason)), (*line, true), "{text}: {l} {r}");
    }
}

#[test]
fn peer_and_grpc_ports_are_dropped_and_noted() {
    let text = "[server]\nport_ws\nport_peer\nport_grpc\n[port_ws]\nip = ::1\nport = 1\nprotocol = ws,peer\n\
                [port_peer]\nip = ::1\nport = 2\nprotocol = peer\n[port_grpc]\nip = ::1\nport = 3\n";
    let (c, notes) = read(text, STANDALONE).unwrap();
    assert_eq!(c.ports.len(), 1);
    assert_eq!(c.ports[0].protocols, ["ws"]);
    assert!(notes.lines.iter().any(|l| l.contains("gRPC")), "{notes:?}");
}

#[test]
fn network_id_signing_support_and_single_value_sections() {
    for (text, id) in [("main", 0), ("testnet", 1), ("devnet", 2), ("21337", 21337)] {
        assert_eq!(
            config(&with_port(&format!("[network_id]\n{text}\n"))).network_id,
            Some(id)
        );
    }
    for bad in ["abc", "-1", "+5", "4294967296", "0 # main"] {
        let (line, reason) = refused(&with_port(&format!("[network_id]\n{bad}\n")), STANDALONE);
        assert_eq!(line, 8, "{bad}");
        assert!(reason.contains("[network_id]"), "{reason}");
    }
    let (line, reason) = refused(&with_port("[network_id]\n1\n2\n"), STANDALONE);
    assert_eq!(line, 9);
    assert!(reason.contains("takes one line"), "{reason}");
    for (text, on) in [("true", true), ("1", true), ("FALSE", false), ("0", false)] {
        assert_eq!(
            config(&with_port(&format!("[signing_support]\n{text}\n"))).signing_support,
            on
        );
    }
    assert!(refused(&with_port("[signing_support]\nyes\n"), STANDALONE)
        .1
        .contains("signing_support"));
}

#[test]
fn voting_and_fee_default() {
    let c = config(&with_port(
        "[voting]\nreference_fee = 12\naccount_reserve=1000000\nowner_reserve = 200000\n",
    ));
    assert_eq!(
        (
            c.fees.base_drops,
            c.fees.reserve_base_drops,
            c.fees.reserve_inc_drops
        ),
        (12, 1_000_000, 200_000)
    );
    let all = crate::ledger::fees::FeesSet {
        base: true,
        reserve_base: true,
        reserve_inc: true,
    };
    assert_eq!(c.fees_set, all, "a preset's fees stay under these");
    let c = config(&with_port(
        "[voting]\nreference_fee = 12\n[fee_default]\n15\n",
    ));
    assert_eq!(c.fees.base_drops, 15);
    assert_eq!(
        c.fees_set,
        crate::ledger::fees::FeesSet {
            base: true,
            ..Default::default()
        }
    );
    let (line, reason) = refused(
        &with_port("[voting]\naccount_reserve = 10 XRP\n"),
        STANDALONE,
    );
    assert_eq!(line, 8);
    assert!(reason.contains("account_reserve"), "{reason}");
    assert!(refused(
        &with_port("[voting]\nowner_reserve = 4294967296\n"),
        STANDALONE
    )
    .1
    .contains("owner_reserve"));
    assert!(refused(
        &with_port("[voting]\naccount_reserve = 1\nowner_reserve = 2\n"),
        STANDALONE
    )
    .1
    .contains("owner reserve"));
}

#[test]
fn node_db_online_and_advisory_delete() {
    let c = config(&with_port(
        "[node_db]\nonline_delete = 300\nadvisory_delete = 1\n",
    ));
    assert_eq!((c.online_delete, c.advisory_delete), (Some(300), true));
    // Standalone xrpld allows 8; ledgerd keeps the 256 it holds in memory.
    let (c, notes) = read(&with_port("[node_db]\nonline_delete = 8\n"), STANDALONE).unwrap();
    assert_eq!(
        c.online_delete,
        Some(crate::limits::ONLINE_DELETE_LEDGERS_MIN)
    );
    assert!(notes.lines.iter().any(|l| l.contains("online_delete = 8")));
    assert_eq!(
        refused(&with_port("[node_db]\nonline_delete = 7\n"), STANDALONE).1,
        "online_delete must be at least 8"
    );
    assert_eq!(
        refused(&with_port("[node_db]\nonline_delete = 255\n"), NETWORKED).1,
        "online_delete must be at least 256"
    );
    let (_, reason) = refused(
        &with_port("[ledger_history]\n1000\n[node_db]\nonline_delete = 512\n"),
        NETWORKED,
    );
    assert_eq!(
        reason,
        "online_delete must not be less than ledger_history (currently 1000)"
    );
    // Standalone servers fetch no history: ledger_history does not count there.
    assert_eq!(
        config(&with_port(
            "[ledger_history]\nfull\n[node_db]\nonline_delete = 512\n"
        ))
        .online_delete,
        Some(512)
    );
    assert!(
        refused(&with_port("[node_db]\nadvisory_delete = yes\n"), STANDALONE)
            .1
            .contains("advisory_delete")
    );
    assert!(
        refused(&with_port("[node_db]\nonline_delete = lots\n"), STANDALONE)
            .1
            .contains("online_delete")
    );
}

#[test]
fn ledger_history_words_and_numbers() {
    for ok in ["full", "NONE", "256"] {
        read(&with_port(&format!("[ledger_history]\n{ok}\n")), NETWORKED).unwrap();
    }
    assert!(refused(&with_port("[ledger_history]\nlots\n"), NETWORKED)
        .1
        .contains("[ledger_history]"));
}

#[test]
fn rpc_startup_debug_logfile_and_database_path() {
    let c = config(&with_port("[rpc_startup]\n{\"command\": \"ledger_accept\"}\n{\"command\":\"ping\"} # second\n[debug_logfile]\nlog/debug.log\n"));
    assert_eq!(c.rpc_startup.len(), 2);
    assert_eq!(
        (
            c.rpc_startup[1].request["command"].as_str(),
            c.rpc_startup[1].line
        ),
        (Some("ping"), 9)
    );
    assert_eq!(
        c.debug_logfile,
        Some(PathBuf::from("/etc/xrpld/log/debug.log"))
    );
    let (line, reason) = refused(&with_port("[rpc_startup]\n{\"command\": \n"), STANDALONE);
    assert_eq!(line, 8);
    assert!(
        reason.contains("Couldn't parse entry in [rpc_startup]"),
        "{reason}"
    );
    assert!(refused(&with_port("[rpc_startup]\n42\n"), STANDALONE)
        .1
        .contains("rpc_startup"));
    let (c, _) = read(&with_port("[database_path]\n/data/x\n"), NETWORKED).unwrap();
    assert_eq!(c.data_dir, Some(PathBuf::from("/data/x")));
}

#[test]
fn amendments_veto_amendments_and_features() {
    let id = "42426C4D4F1009EE67080A9B7965B44656D7714D104A72F9B4369F97ABF044EE";
    let c = config(&with_port(&format!(
        "[amendments]\n{} FeeEscalation\n[veto_amendments]\n  {id}\tFeeEscalation\n[features]\nAMM\nflag = 1\n",
        id.to_ascii_lowercase()
    )));
    let a = &c.amendments;
    assert_eq!(
        (a.up.clone(), a.down.clone()),
        (vec![id.to_string()], vec![id.to_string()])
    );
    assert_eq!(a.features, Some(vec!["AMM".to_string()]));
    assert!(!a.start);
    // No [features]: no presets (xrpld -a enables only what the ledger records); --start
    // records the desired set.
    let started = Mode {
        start: true,
        ..STANDALONE
    };
    let (plain, _) = read(&with_port(""), started).unwrap();
    assert_eq!(plain.amendments.features, Some(Vec::new()));
    assert!(plain.amendments.start);
    // A name xrpld does not know is refused with its line.
    let (line, reason) = refused(
        &with_port(
            "[features]
AMM
NoSuchAmendment
",
        ),
        STANDALONE,
    );
    assert_eq!(
        (line, reason.as_str()),
        (9, "Unknown feature: NoSuchAmendment in config file.")
    );
    for bad in [
        format!("{} Name", &id[1..]),
        id.to_string(),
        format!("{id} Two Words"),
        format!("{}G Name", &id[1..]),
    ] {
        let (line, reason) = refused(&with_port(&format!("[amendments]\n{bad}\n")), STANDALONE);
        assert_eq!(line, 8);
        assert!(reason.starts_with("Invalid entry '"), "{reason}");
    }
}

#[test]
fn transaction_queue_over_xrpld_defaults() {
    assert_eq!(config(&with_port("")).tx_queue, TxQueueConfig::default());
    let q = config(&with_port(
        "[transaction_queue]\nminimum_txn_in_ledger_standalone = 7\nmaximum_txn_in_ledger = 40\n\
         slow_consensus_decrease_percent = 250\nminimum_escalation_multiplier = 5000000000\n",
    ))
    .tx_queue;
    assert_eq!(q.minimum_txn_in_ledger_standalone, 7);
    assert_eq!(q.maximum_txn_in_ledger, Some(40));
    assert_eq!(q.slow_consensus_decrease_percent, 100);
    assert_eq!(q.minimum_escalation_multiplier, 5_000_000_000);
    let (_, reason) = refused(
        &with_port("[transaction_queue]\nmaximum_txn_in_ledger = 10\n"),
        STANDALONE,
    );
    assert!(
        reason.contains("(minimum_txn_in_ledger) exceeds"),
        "{reason}"
    );
    assert!(refused(
        &with_port("[transaction_queue]\nledgers_in_queue = -1\n"),
        STANDALONE
    )
    .1
    .contains("ledgers_in_queue"));
}

#[test]
fn other_sections_are_noted_once() {
    let (_, notes) = read(
        &with_port("[peers_max]\n10\n[made_up]\nx\n[port_unused]\nport = 1\n[node_size]\ntiny\n"),
        STANDALONE,
    )
    .unwrap();
    let find = |prefix: &str| notes.lines.iter().filter(|l| l.starts_with(prefix)).count();
    assert_eq!(find("[peers_max]"), 1);
    assert!(notes
        .lines
        .iter()
        .any(|l| l.starts_with("[made_up]") && l.contains("not an xrpld section")));
    assert!(notes
        .lines
        .iter()
        .any(|l| l.starts_with("[port_unused]") && l.contains("does not list")));
}

/// `[validation_seed]`: the seed's secp256k1 root key (`validation_create`'s), read from
/// the first line; a bad seed, or one beside `[validator_token]`, refused at its line
/// without the seed in the message.
#[test]
fn validation_seed_gives_the_validation_key() {
    let c = config(&with_port(
        "[validation_seed]\nsnoPBrXtMeMyMHUVTgbuqAfg1SUTb\n",
    ));
    let key = c.validation_key.expect("a key");
    assert_eq!(
        key.public.to_node_base58(),
        "n94a1u4jAz288pZLtw6yFWVbi89YamiC6JBXPVUj5zmExe5fTVg9"
    );
    assert!(config(&with_port("")).validation_key.is_none());
    let (line, reason) = refused(
        &with_port("[validation_seed]\nsnoPBrXtMeMyMHUVTgbuqAfg1SUTc\n"),
        STANDALONE,
    );
    assert_eq!(
        (line, reason.as_str()),
        (8, "Invalid seed specified in [validation_seed]")
    );
    let both = "[validation_seed]\nsnoPBrXtMeMyMHUVTgbuqAfg1SUTb\n[validator_token]\nabc\n";
    let (line, reason) = refused(&with_port(both), STANDALONE);
    assert_eq!(
        (line, reason.as_str()),
        (
            7,
            "Cannot specify both [validation_seed] and [validator_token]"
        )
    );
    // As xrpld's `exists`: an empty [validator_token] still conflicts.
    let empty_token = "[validation_seed]\nsnoPBrXtMeMyMHUVTgbuqAfg1SUTb\n[validator_token]\n";
    assert_eq!(refused(&with_port(empty_token), STANDALONE).0, 7);
}
