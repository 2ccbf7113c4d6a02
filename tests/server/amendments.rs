//! The rule book from outside: `feature` as xrpld's amendment table answers it (admin
//! votes, retired amendments `"Obsolete"`, what ledgerd lacks `supported: false`), votes
//! kept across a restart, the named presets, and a refused up-vote for an amendment whose
//! rules ledgerd lacks.

use crate::support;

use serde_json::{json, Value};
use std::net::SocketAddr;
use support::http::rpc;
use support::reply::error;
use support::server::Server;

fn call(addr: SocketAddr, method: &str, params: Value) -> Value {
    rpc(addr, method, params).json()["result"].clone()
}

/// `feature` for one amendment: its entry (the reply's only member).
fn feature(addr: SocketAddr, params: Value) -> Value {
    let r = call(addr, "feature", params);
    let mut o = r.as_object().expect("object").clone();
    o.remove("status");
    assert_eq!(o.len(), 1, "{r}");
    o.values().next().cloned().expect("entry")
}

const AMENDMENTS_KEY: &str = "7DB0788C020F02780A673DC74757F23823FA3014C1866E72CC4CD8B226CD6EF4";
const FEES_KEY: &str = "4BC50C9B0D8515D3EAAE1E74B29A95804346C491EE1A95BF25E4AAB854A6A651";

#[test]
fn votes_are_an_admins_and_survive_a_restart() {
    let dir = tempfile::tempdir().expect("tempdir");
    let data = dir.path().join("data");
    let data = data.to_str().expect("path");
    let vetoed = [
        "--data-dir",
        data,
        "--close-interval",
        "0",
        "--amendment-preset",
        "ci",
    ];
    let server = Server::start_quiet(&vetoed);
    let addr = server.addr();
    // Enabled: no vote shown.
    let amm = feature(addr, json!({"feature": "AMM"}));
    assert_eq!(
        amm,
        json!({"name": "AMM", "supported": true, "enabled": true})
    );
    // Enabled, DefaultYes and gated: the default rule book has it.
    let gated = feature(addr, json!({"feature": "fixCleanup3_1_3"}));
    assert_eq!(
        gated,
        json!({"name": "fixCleanup3_1_3", "supported": true, "enabled": true})
    );
    // Enabled, DefaultNo and gated (since 2026-11-28): the default rule book has it too.
    let gated = feature(addr, json!({"feature": "fixCleanup3_2_0"}));
    assert_eq!(
        gated,
        json!({"name": "fixCleanup3_2_0", "supported": true, "enabled": true})
    );
    // Vetoed by the preset: not in the book, the vote shown.
    let vetoed_one = feature(addr, json!({"feature": "fixAMMv1_3"}));
    assert_eq!(
        vetoed_one,
        json!({"name": "fixAMMv1_3", "supported": true, "vetoed": true, "enabled": false})
    );
    // Voted up, down and up again.
    let unveto = json!({"feature": "fixAMMv1_3", "vetoed": false});
    assert_eq!(feature(addr, unveto.clone())["vetoed"], false);
    let veto = json!({"feature": "fixAMMv1_3", "vetoed": true});
    assert_eq!(feature(addr, veto)["vetoed"], true);
    assert_eq!(feature(addr, unveto)["vetoed"], false);
    assert_eq!(
        error(&call(
            addr,
            "feature",
            json!({"feature": "AMM", "vetoed": "yes"})
        ))
        .0,
        "invalidParams"
    );
    assert_eq!(
        error(&call(addr, "feature", json!({"feature": 7}))).0,
        "invalidParams"
    );
    assert!(server.terminate().success());
    let server = Server::start_quiet(&vetoed);
    let addr = server.addr();
    // The last vote survives the restart (the preset's would be vetoed).
    let voted = feature(addr, json!({"feature": "fixAMMv1_3"}));
    assert_eq!(voted["vetoed"], false, "{voted}");
    assert!(server.terminate().success());
}

#[test]
fn xrpld_3_4_1_records_its_desired_amendments_at_genesis() {
    let server = Server::start_quiet(&["--amendment-preset", "xrpld-3.4.1"]);
    let addr = server.addr();
    let entry = call(
        addr,
        "ledger_entry",
        json!({"index": AMENDMENTS_KEY, "ledger_index": "validated"}),
    );
    let id = "DF8B4536989BDACE3F934F29423848B9F1D76D09BE6A1FCFE7E7F06AA26ABEAD";
    let batch_fix = "14A2B45E48A4A124D1BBA657AC7B0DC3D5EA8C256C89E8F0D8142D32960A7944";
    let cleanup = "303ACB16CF8DBD3B5C34F131A9D19A7DE01AE05F480A8A682B869D1B4AAC8CFC";
    assert_eq!(
        entry["node"]["Amendments"],
        json!([batch_fix, cleanup, id]),
        "fixBatchV1_2, fixCleanup3_1_3 and fixRemoveNFTokenAutoTrustLine: {entry}"
    );
    let fees = call(
        addr,
        "ledger_entry",
        json!({"index": FEES_KEY, "ledger_index": "validated"}),
    );
    assert_eq!(fees["node"]["ReferenceFeeUnits"], 10, "legacy form: {fees}");
    assert_eq!(
        feature(addr, json!({"feature": id})),
        json!({"name": "fixRemoveNFTokenAutoTrustLine", "supported": true, "enabled": true})
    );
    // Retired, not in the ledger: reported as xrpld does.
    assert_eq!(
        feature(addr, json!({"feature": "Flow"})),
        json!({"name": "Flow", "supported": true, "vetoed": "Obsolete", "enabled": false})
    );
    let amm = feature(addr, json!({"feature": "AMM"}));
    assert_eq!(
        (&amm["enabled"], &amm["vetoed"]),
        (&json!(false), &json!(true))
    );
    let all = call(addr, "feature", json!({}));
    let features = all["features"].as_object().expect("features");
    assert!(features.values().any(|f| f["name"] == "fixBatchV1_2"));
    assert!(
        !features.values().any(|f| f["name"] == "MPTokensV2"),
        "xrpld does not support it either"
    );
    assert_eq!(
        error(&call(addr, "feature", json!({"feature": "MPTokensV2"}))).0,
        "badFeature"
    );
}

#[test]
fn the_ci_preset_switches_fix_amm_v1_3_off_and_drops_what_ledgerd_lacks() {
    let server = Server::start(&["--amendment-preset", "ci"]);
    let addr = server.addr();
    assert_eq!(feature(addr, json!({"feature": "AMM"}))["enabled"], true);
    let fix = feature(addr, json!({"feature": "fixAMMv1_3"}));
    assert_eq!(
        (&fix["enabled"], &fix["vetoed"]),
        (&json!(false), &json!(true))
    );
    let sponsor = feature(addr, json!({"feature": "Sponsor"}));
    assert_eq!(
        (&sponsor["enabled"], &sponsor["supported"]),
        (&json!(true), &json!(true))
    );
    // ledgerd lacks no amendment the preset names (ConfidentialTransfer since
    // 2026-11-28).
    let confidential = feature(addr, json!({"feature": "ConfidentialTransfer"}));
    assert_eq!(
        (&confidential["enabled"], &confidential["supported"]),
        (&json!(true), &json!(true))
    );
    // Listed in the libraries' [features] and gated: kept.
    let cleanup = feature(addr, json!({"feature": "fixCleanup3_2_0"}));
    assert_eq!(
        (&cleanup["enabled"], &cleanup["supported"]),
        (&json!(true), &json!(true))
    );
    let entry = call(
        addr,
        "ledger_entry",
        json!({"index": AMENDMENTS_KEY, "ledger_index": "validated"}),
    );
    assert_eq!(
        error(&entry).0,
        "entryNotFound",
        "xrpld -a records none: {entry}"
    );
    let cleanup = feature(addr, json!({"feature": "fixCleanup3_1_3"}));
    assert_eq!(cleanup["enabled"], true, "{cleanup}");
    let log = server.log_text();
    assert!(
        !log.contains("ConfidentialTransfer")
            && !log.contains("fixCleanup3_2_0")
            && !log.contains("Sponsor")
            && !log.contains("fixCleanup3_1_3"),
        "dropped presets named: {log}"
    );
}

#[test]
fn an_up_vote_ledgerd_cannot_enable_is_refused_by_name() {
    let args = ["serve", "--listen", "127.0.0.1:0", "--ephemeral"];
    let refused = |extra: &[&str]| {
        let mut a = args.to_vec();
        a.extend_from_slice(extra);
        match Server::try_start_args(&a, 1) {
            Ok(_) => panic!("{extra:?} started"),
            Err((code, log)) => {
                assert_eq!(code, Some(2), "{log}");
                log
            }
        }
    };
    let log = refused(&["--amendments", "fixAMMv1_3,Sponsor,MPTokensV2"]);
    assert!(
        log.contains("MPTokensV2") && !log.contains("Sponsor") && !log.contains("fixAMMv1_3,"),
        "{log}"
    );
    let log = refused(&["--veto-amendments", "fixNoSuchThing"]);
    assert!(log.contains("fixNoSuchThing"), "{log}");
}

/// `mainnet-DATE`: a new ledger as mainnet's was at the end of that day (its Amendments
/// entry, in mainnet's order; its fees, under a configured one); `build_version` names the
/// xrpld release whose rule book is served.
#[test]
fn mainnet_as_of_a_date_with_a_configured_reserve() {
    let server = Server::start_quiet(&[
        "--amendment-preset",
        "mainnet-2021-01-01",
        "--account-reserve",
        "15000000",
    ]);
    let addr = server.addr();
    let entry = call(
        addr,
        "ledger_entry",
        json!({"index": AMENDMENTS_KEY, "ledger_index": "validated"}),
    );
    let ids = entry["node"]["Amendments"].as_array().expect("ids").clone();
    assert_eq!(ids.len(), 34, "{entry}");
    assert_eq!(
        ids[0], "42426C4D4F1009EE67080A9B7965B44656D7714D104A72F9B4369F97ABF044EE",
        "FeeEscalation, enabled first"
    );
    assert_eq!(
        ids[33], "3012E8230864E95A58C60FD61430D7E1B4D3353195F2981DC12B0C7C0950FFAC",
        "FlowCross, 2020-08-04"
    );
    let fees = call(
        addr,
        "ledger_entry",
        json!({"index": FEES_KEY, "ledger_index": "validated"}),
    );
    let node = &fees["node"];
    assert_eq!(node["ReferenceFeeUnits"], 10, "legacy form: {fees}");
    assert_eq!(node["ReserveBase"], 15_000_000, "configured: {fees}");
    assert_eq!(
        node["ReserveIncrement"], 5_000_000,
        "mainnet's then: {fees}"
    );
    assert_eq!(
        feature(addr, json!({"feature": "FlowCross"}))["enabled"],
        true
    );
    assert_eq!(
        feature(addr, json!({"feature": "TicketBatch"}))["enabled"],
        false,
        "enabled 2021-11-18"
    );
    let want = format!("3.4.1+ledgerd.{}", env!("CARGO_PKG_VERSION"));
    let info = call(addr, "server_info", json!({}));
    assert_eq!(info["info"]["build_version"], want.as_str());
    let state = call(addr, "server_state", json!({}));
    assert_eq!(state["state"]["build_version"], want.as_str());
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_ledgerd"))
        .arg("--version")
        .output()
        .expect("ledgerd --version");
    assert_eq!(
        String::from_utf8_lossy(&out.stdout).trim(),
        format!("ledgerd {want}")
    );
}

#[test]
fn mainnet_is_served_to_its_last_recorded_day_and_a_bad_date_refused() {
    let refused = |preset: &str| {
        let args = ["serve", "--listen", "127.0.0.1:0", "--ephemeral"];
        let mut a = args.to_vec();
        a.extend_from_slice(&["--amendment-preset", preset]);
        match Server::try_start_args(&a, 1) {
            Ok(_) => panic!("{preset} started"),
            Err((code, log)) => {
                assert_eq!(code, Some(2), "{log}");
                log
            }
        }
    };
    // Mainnet enabled fixCleanup3_2_0 on 2026-07-29, the last amendment of its record
    // ledgerd gated: the latest day is served, with it enabled.
    let server = Server::start_quiet(&["--amendment-preset", "mainnet"]);
    let cleanup = feature(server.addr(), json!({"feature": "fixCleanup3_2_0"}));
    assert_eq!(cleanup["enabled"], true, "{cleanup}");
    assert!(server.terminate().success());
    assert!(refused("mainnet-2024-02-30").contains("is not a date"));
    assert!(refused("mainnet-2099-01-01").contains("ledgerd records mainnet from 2014-01-01"));
}

/// A data directory keeps its rule book: restarted with no preset, a `mainnet-DATE` ledger
/// rebuilds its genesis in mainnet's order, so every hash comes back.
#[test]
fn a_mainnet_ledger_comes_back_after_a_restart() {
    let dir = tempfile::tempdir().expect("tempdir");
    let data = dir.path().join("data");
    let data = data.to_str().expect("path");
    let first = &["--data-dir", data, "--close-interval", "0"];
    let mut args = first.to_vec();
    args.extend_from_slice(&["--amendment-preset", "mainnet-2024-01-01"]);
    let server = Server::start_quiet(&args);
    let look = |addr| {
        let genesis = call(addr, "ledger", json!({"ledger_index": 1}));
        let entry = call(
            addr,
            "ledger_entry",
            json!({"index": AMENDMENTS_KEY, "ledger_index": "validated"}),
        );
        let validated = call(addr, "ledger", json!({"ledger_index": "validated"}));
        (
            genesis["ledger"]["ledger_hash"].clone(),
            entry["node"]["Amendments"].clone(),
            validated["ledger"]["ledger_hash"].clone(),
        )
    };
    let before = look(server.addr());
    assert!(before.0.is_string() && before.1.is_array(), "{before:?}");
    assert!(server.terminate().success());
    let server = Server::start_quiet(first);
    assert_eq!(look(server.addr()), before);
    assert!(server.terminate().success());
}
