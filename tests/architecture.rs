//! The structure, checked: layers import only downward, the pure core does no I/O, no
//! function runs over 100 lines, every file in `rpc/handlers/` is a method of the
//! handler table, the engine keeps each transaction type in its family's folder,
//! imported by no other type and named by no pipeline or ledgers file (no `TxType::`, no
//! comparison of a transaction's type: the type's registry row says what to do), and
//! `limits.rs` declares no fixed protocol rule.
//!
//! The layers, lowest first (docs/ARCHITECTURE.md draws them). `limits` sits below all of
//! them; `main.rs` above all. Code inside `#[cfg(test)]` modules is not checked for layers:
//! a unit test of a transport may start a whole server.

use std::path::{Path, PathBuf};

const LAYERS: &[&str] = &[
    "protocol", "ledger", "engine", "ledgers", "render", "store", "node", "rpc", "server", "app",
];

/// Layers that never touch tokio, files, sockets or processes.
const PURE: &[&str] = &["protocol", "ledger", "engine", "ledgers", "render"];

const IO_WORDS: &[&str] = &[
    "tokio",
    "std::fs",
    "std::net",
    "File::open",
    "File::create",
    "std::process",
];

const FUNCTION_LINES_MAX: usize = 100;

fn src() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("read dir") {
        let path = entry.expect("entry").path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The code of each line, comments cut off, up to the first `#[cfg(test)]`.
fn production_lines(text: &str) -> Vec<(usize, &str)> {
    text.lines()
        .enumerate()
        .take_while(|(_, l)| l.trim() != "#[cfg(test)]")
        .map(|(n, l)| (n + 1, l.split("//").next().unwrap_or("")))
        .collect()
}

fn layer_of(name: &str) -> Option<usize> {
    LAYERS.iter().position(|l| *l == name)
}

/// Every `crate::<layer>` a file names above `own`.
fn upward_imports(path: &Path, text: &str, own: usize) -> Vec<String> {
    let mut hits = Vec::new();
    for (n, code) in production_lines(text) {
        for (i, _) in code.match_indices("crate::") {
            let rest = &code[i + "crate::".len()..];
            let name: String = rest
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_')
                .collect();
            if layer_of(&name).is_some_and(|l| l > own) {
                hits.push(format!(
                    "{}:{n}: {} imports {name}",
                    path.display(),
                    LAYERS[own]
                ));
            }
        }
    }
    hits
}

fn io_uses(path: &Path, text: &str) -> Vec<String> {
    let mut hits = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let code = line.split("//").next().unwrap_or("");
        for word in IO_WORDS {
            if code.contains(word) {
                hits.push(format!("{}:{}: {}", path.display(), n + 1, line.trim()));
            }
        }
    }
    hits
}

/// The function a line starts, if it starts one: `[pub[(..)]] [const] [async] [unsafe] fn name`.
fn fn_name(code: &str) -> Option<&str> {
    let mut rest = code.trim_start();
    if let Some(r) = rest.strip_prefix("pub") {
        rest = match r.strip_prefix('(') {
            Some(inner) => inner.split_once(')')?.1,
            None => r,
        }
        .trim_start();
    }
    for qualifier in ["const ", "async ", "unsafe "] {
        rest = rest.strip_prefix(qualifier).unwrap_or(rest);
    }
    let name = rest.strip_prefix("fn ")?;
    Some(name.split(['(', '<']).next().unwrap_or(name))
}

/// Functions longer than the bound: from the `fn` line to the closing brace at its indent.
/// Declarations without a body (trait methods) are skipped.
fn long_functions(path: &Path, text: &str) -> Vec<String> {
    let lines: Vec<&str> = text.lines().collect();
    let mut hits = Vec::new();
    for (start, line) in lines.iter().enumerate() {
        let code = line.split("//").next().unwrap_or("");
        let Some(name) = fn_name(code) else {
            continue;
        };
        let body_opens = lines[start..]
            .iter()
            .map(|l| l.split("//").next().unwrap_or(""))
            .find_map(|l| l.find(['{', ';']).map(|i| l.as_bytes()[i]));
        if body_opens != Some(b'{') {
            continue;
        }
        let indent = &code[..code.len() - code.trim_start().len()];
        let close = format!("{indent}}}");
        let end = lines[start..].iter().position(|l| l.trim_end() == close);
        if let Some(len) = end.filter(|len| len + 1 > FUNCTION_LINES_MAX) {
            hits.push(format!(
                "{}:{}: {name} runs {} lines",
                path.display(),
                start + 1,
                len + 1
            ));
        }
    }
    hits
}

#[test]
fn layers_import_only_from_below() {
    let mut hits = Vec::new();
    for (own, layer) in LAYERS.iter().enumerate() {
        let dir = src().join(layer);
        let mut files = Vec::new();
        rust_files(&dir, &mut files);
        assert!(!files.is_empty(), "no files in layer {layer}");
        for path in files {
            let text = std::fs::read_to_string(&path).expect("read");
            hits.extend(upward_imports(&path, &text, own));
        }
    }
    let limits = std::fs::read_to_string(src().join("limits.rs")).expect("limits.rs");
    hits.extend(upward_imports(Path::new("src/limits.rs"), &limits, 0));
    assert!(hits.is_empty(), "upward imports:\n{}", hits.join("\n"));
}

#[test]
fn every_module_is_in_a_layer() {
    for entry in std::fs::read_dir(src()).expect("src") {
        let path = entry.expect("entry").path();
        let name = path.file_stem().unwrap().to_string_lossy().to_string();
        let known = layer_of(&name).is_some()
            || ["lib", "main", "limits", "logs", "metrics"].contains(&&*name);
        assert!(
            known,
            "{} is in no layer (add it to LAYERS)",
            path.display()
        );
    }
}

#[test]
fn the_pure_core_does_no_io() {
    let mut hits = Vec::new();
    for layer in PURE {
        let mut files = Vec::new();
        rust_files(&src().join(layer), &mut files);
        for path in files {
            let text = std::fs::read_to_string(&path).expect("read");
            hits.extend(io_uses(&path, &text));
        }
    }
    assert!(
        hits.is_empty(),
        "I/O in the pure core:\n{}",
        hits.join("\n")
    );
}

#[test]
fn no_function_runs_over_100_lines() {
    let mut files = Vec::new();
    rust_files(&src(), &mut files);
    let mut hits = Vec::new();
    for path in files {
        let text = std::fs::read_to_string(&path).expect("read");
        hits.extend(long_functions(&path, &text));
    }
    assert!(hits.is_empty(), "long functions:\n{}", hits.join("\n"));
}

#[test]
fn every_handler_file_is_a_method_and_every_method_has_its_file() {
    let dir = src().join("rpc").join("handlers");
    let mut files: Vec<String> = std::fs::read_dir(&dir)
        .expect("handlers")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.file_name().is_some_and(|n| n != "mod.rs"))
        .map(|p| p.file_stem().unwrap().to_string_lossy().to_string())
        .collect();
    files.sort();
    let mut names: Vec<String> = ledgerd::rpc::METHODS
        .iter()
        .map(|m| m.name.to_string())
        .collect();
    names.sort();
    assert_eq!(
        files, names,
        "rpc/handlers/ holds exactly one file per method"
    );
}

/// The engine's transaction types, as the registry's rows name them: `(name, family,
/// module)`, for `row!(Name, family::module ...)`.
fn registry_rows() -> Vec<(String, String, String)> {
    let text = std::fs::read_to_string(src().join("engine").join("registry.rs")).expect("registry");
    let code: String = production_lines(&text)
        .iter()
        .map(|(_, l)| format!("{l}\n"))
        .collect();
    code.split("row!(")
        .skip(1)
        .filter_map(|row| {
            let mut parts = row.splitn(3, ',').map(str::trim);
            let name = parts.next()?;
            let path: String = parts
                .next()?
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_' || *c == ':')
                .collect();
            let (family, module) = path.split_once("::")?;
            let plain =
                |s: &str| !s.is_empty() && s.chars().all(|c| c.is_alphanumeric() || c == '_');
            (plain(name) && plain(family) && plain(module))
                .then(|| (name.to_string(), family.to_string(), module.to_string()))
        })
        .collect()
}

/// The paths named by a path tree starting at `s` (`a::b`, `a::{b, c::{d, self}}`), each
/// as its segments; a glob or an empty tree names its prefix.
fn path_tree(s: &str) -> Vec<Vec<String>> {
    let s = s.trim_start();
    if let Some(inner) = s.strip_prefix('{') {
        let (mut depth, mut start, mut out) = (1, 0, Vec::new());
        for (i, c) in inner.char_indices() {
            match c {
                '{' => depth += 1,
                '}' | ',' if depth == 1 => {
                    out.extend(path_tree(&inner[start..i]));
                    start = i + 1;
                    if c == '}' {
                        break;
                    }
                }
                '}' => depth -= 1,
                _ => {}
            }
        }
        return out;
    }
    let ident: String = s
        .chars()
        .take_while(|c| c.is_alphanumeric() || *c == '_')
        .collect();
    if ident.is_empty() {
        return Vec::new();
    }
    let below = s[ident.len()..]
        .strip_prefix("::")
        .map(path_tree)
        .unwrap_or_default();
    if below.is_empty() {
        return vec![vec![ident]];
    }
    below
        .into_iter()
        .map(|mut p| {
            p.insert(0, ident.clone());
            p
        })
        .collect()
}

/// Every path into the engine `code` names, from the engine's root: `crate::engine::…`,
/// or `super::…` resolved from `module` (the file's module path under `engine`).
fn engine_paths(code: &str, module: &[String]) -> Vec<Vec<String>> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < code.len() {
        let rest = &code[i..];
        let starts =
            i == 0 || !code[..i].ends_with(|c: char| c.is_alphanumeric() || c == '_' || c == ':');
        let (base, after): (Vec<String>, &str) = if !starts {
            (Vec::new(), "")
        } else if let Some(after) = rest.strip_prefix("crate::engine::") {
            (Vec::new(), after)
        } else if rest.starts_with("super::") {
            let mut after = rest;
            let mut up = 0;
            while let Some(a) = after.strip_prefix("super::") {
                after = a;
                up += 1;
            }
            match module.len().checked_sub(up) {
                Some(keep) => (module[..keep].to_vec(), after),
                None => (Vec::new(), ""),
            }
        } else {
            (Vec::new(), "")
        };
        if after.is_empty() {
            i += rest.chars().next().map_or(1, char::len_utf8);
            continue;
        }
        for tail in path_tree(after) {
            out.push(base.iter().cloned().chain(tail).collect());
        }
        i = code.len() - after.len();
    }
    out
}

/// The engine module path of a file (`engine/amm/amm_bid.rs`: `amm::amm_bid`;
/// `engine/amm/mod.rs`: `amm`).
fn engine_module(path: &Path) -> Vec<String> {
    let rel = path
        .strip_prefix(src().join("engine"))
        .expect("an engine file");
    let mut parts: Vec<String> = rel
        .with_extension("")
        .iter()
        .map(|p| p.to_string_lossy().to_string())
        .collect();
    if parts.last().is_some_and(|p| p == "mod") {
        parts.pop();
    }
    parts
}

/// The transaction type modules among `paths` other than `own`: `family::type` paths, and
/// a type re-exported at the engine's root (`engine::account_set`).
fn type_modules_named(
    paths: &[Vec<String>],
    rows: &[(String, String, String)],
    own: Option<&str>,
) -> Vec<String> {
    let mut hits = Vec::new();
    for p in paths {
        let named = rows.iter().find(|(_, family, module)| {
            (p.len() >= 2 && p[0] == *family && p[1] == *module)
                || (p[0] == *module && !rows.iter().any(|(_, f, _)| *f == p[0]))
        });
        if let Some((_, family, module)) = named {
            if own != Some(module.as_str()) {
                hits.push(format!("{family}::{module}"));
            }
        }
    }
    hits
}

fn production_code(path: &Path) -> String {
    let text = std::fs::read_to_string(path).expect("read");
    production_lines(&text)
        .iter()
        .map(|(_, l)| format!("{l}\n"))
        .collect()
}

#[test]
fn every_transaction_type_lives_in_its_family_folder() {
    let rows = registry_rows();
    let names: Vec<&str> = ledgerd::engine::registry::TRANSACTORS
        .iter()
        .map(|t| t.name)
        .collect();
    let parsed: Vec<&str> = rows.iter().map(|(n, _, _)| n.as_str()).collect();
    assert_eq!(parsed, names, "registry.rs's rows, as this test reads them");
    let engine = src().join("engine");
    for (name, family, module) in &rows {
        let file = engine.join(family).join(format!("{module}.rs"));
        assert!(file.is_file(), "{name}: no {}", file.display());
        assert!(
            engine.join(family).join("mod.rs").is_file(),
            "{family}/mod.rs"
        );
        assert_eq!(
            module.replace('_', ""),
            name.to_lowercase(),
            "{name}'s file is named after it"
        );
    }
    for entry in std::fs::read_dir(&engine).expect("engine") {
        let stem = entry
            .expect("entry")
            .path()
            .file_stem()
            .unwrap()
            .to_string_lossy()
            .to_string();
        let loose = rows.iter().any(|(name, family, _)| {
            stem.replace('_', "") == name.to_lowercase() && stem != *family
        });
        assert!(
            !loose,
            "engine/{stem} is a transaction type outside a family folder"
        );
    }
}

#[test]
fn no_transaction_type_file_imports_another() {
    let rows = registry_rows();
    let mut hits = Vec::new();
    for (_, family, module) in &rows {
        let path = src()
            .join("engine")
            .join(family)
            .join(format!("{module}.rs"));
        let paths = engine_paths(&production_code(&path), &engine_module(&path));
        for named in type_modules_named(&paths, &rows, Some(module)) {
            hits.push(format!("{family}/{module}.rs imports {named}"));
        }
    }
    assert!(
        hits.is_empty(),
        "a type file imports another (move what they share into the family's mod.rs):\n{}",
        hits.join("\n")
    );
}

/// Where a line compares a transaction's type with a given one (`tx_type == …`,
/// `…transaction_type) != Some(…)`): the pipeline asks the type's registry row instead.
fn type_comparisons(code: &str) -> Vec<String> {
    code.lines()
        .filter(|l| {
            let l = l.replace(' ', "");
            [
                "tx_type==",
                "tx_type!=",
                "transaction_type)==",
                "transaction_type)!=",
            ]
            .iter()
            .any(|p| l.contains(p))
        })
        .map(|l| l.trim().to_string())
        .collect()
}

#[test]
fn the_pipeline_names_no_transaction_type() {
    let rows = registry_rows();
    let engine = src().join("engine");
    let mut files = Vec::new();
    for entry in std::fs::read_dir(&engine).expect("engine") {
        let path = entry.expect("entry").path();
        let index = ["mod.rs", "registry.rs", "tx_type.rs"];
        if path.is_file() && !index.iter().any(|n| path.ends_with(n)) {
            files.push(path);
        }
    }
    rust_files(&engine.join("flow"), &mut files);
    // The ledgers run the pipeline, and a Batch's inner transactions after it.
    rust_files(&src().join("ledgers"), &mut files);
    assert!(files.iter().any(|p| p.ends_with("transactor.rs")));
    assert!(files.iter().any(|p| p.ends_with("canonical.rs")));
    let mut hits = Vec::new();
    for path in files {
        let code = production_code(&path);
        if code.contains("TxType::") {
            hits.push(format!("{} names a TxType variant", path.display()));
        }
        for line in type_comparisons(&code) {
            hits.push(format!("{} compares a type: {line}", path.display()));
        }
        let module = match path.strip_prefix(&engine) {
            Ok(_) => engine_module(&path),
            Err(_) => Vec::new(),
        };
        let paths = engine_paths(&code, &module);
        for named in type_modules_named(&paths, &rows, None) {
            hits.push(format!("{} imports {named}", path.display()));
        }
    }
    assert!(
        hits.is_empty(),
        "the pipeline reads a type's rules from its registry row:\n{}",
        hits.join("\n")
    );
}

/// Fixed protocol rules that moved out of `src/limits.rs` beside the code they rule
/// (docs/ARCHITECTURE.md, "What goes in `src/limits.rs`"): `limits.rs` holds what an
/// operator may tune, and none of these may be declared there again.
const PROTOCOL_CONSTANTS: &[&str] = &[
    "CODEC_BINARY_DEPTH_MAX",
    "STOBJECT_JSON_DEPTH_MAX",
    "NUMBER_EXPONENT_MIN",
    "NUMBER_EXPONENT_MAX",
    "NETWORK_ID_LEGACY_MAX",
    "MULTI_SIGNERS_MAX",
    "DOMAIN_BYTES_MAX",
    "ACCOUNT_DELETE_LEDGERS_MIN",
    "ACCOUNT_DELETE_OWNED_MAX",
    "TICKETS_PER_ACCOUNT_MAX",
    "CREDENTIAL_TYPE_BYTES_MAX",
    "CREDENTIAL_URI_BYTES_MAX",
    "CREDENTIALS_ARRAY_MAX",
    "DOMAIN_CREDENTIALS_MAX",
    "PAYMENT_PATHS_MAX",
    "PAYMENT_PATH_STEPS_MAX",
    "FLOW_TRIES_MAX",
    "FLOW_OFFERS_CONSIDERED_MAX",
    "FLOW_BOOK_OFFERS_MAX",
    "AMM_FLOW_ITERATIONS_MAX",
    "AMM_TRADING_FEE_MAX",
    "AMM_FEE_SCALE",
    "AMM_AUCTION_SLOT_SECS",
    "AMM_AUCTION_SLOT_INTERVALS",
    "AMM_DISCOUNTED_FEE_FRACTION",
    "AMM_MIN_SLOT_PRICE_FRACTION",
    "AMM_AUTH_ACCOUNTS_MAX",
    "AMM_VOTE_SLOTS_MAX",
    "AMM_ACCOUNT_ATTEMPTS_MAX",
    "AMM_TRUST_LINES_DELETE_MAX",
    "DID_URI_BYTES_MAX",
    "DID_DOCUMENT_BYTES_MAX",
    "DID_DATA_BYTES_MAX",
    "ORACLE_SERIES_MAX",
    "ORACLE_SERIES_ONE_RESERVE_MAX",
    "ORACLE_PROVIDER_BYTES_MAX",
    "ORACLE_URI_BYTES_MAX",
    "ORACLE_ASSET_CLASS_BYTES_MAX",
    "ORACLE_PRICE_SCALE_MAX",
    "ORACLE_UPDATE_TIME_DELTA_SECS",
    "DELEGATE_PERMISSIONS_MAX",
    "XCHAIN_ACCOUNT_CREATES_PENDING_MAX",
    "AGGREGATE_PRICE_ORACLES_MAX",
    "AGGREGATE_PRICE_TRIM_MAX",
    "AGGREGATE_PRICE_HISTORY_MAX",
    "MEMOS_BYTES_MAX",
    "DIR_PAGE_ENTRIES_MAX",
    "DIR_PAGES_MAX",
];

/// The names of the `pub const`s a file declares, with their lines.
fn pub_consts(text: &str) -> Vec<(usize, String)> {
    production_lines(text)
        .into_iter()
        .filter_map(|(n, code)| {
            let rest = code.trim_start().strip_prefix("pub const ")?;
            let name: String = rest
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                .collect();
            Some((n, name))
        })
        .collect()
}

#[test]
fn limits_holds_no_protocol_constant() {
    let limits = std::fs::read_to_string(src().join("limits.rs")).expect("limits.rs");
    let back: Vec<String> = pub_consts(&limits)
        .into_iter()
        .filter(|(_, name)| PROTOCOL_CONSTANTS.contains(&name.as_str()))
        .map(|(n, name)| format!("src/limits.rs:{n}: {name} is a protocol rule"))
        .collect();
    assert!(back.is_empty(), "{}", back.join("\n"));
    // Each is declared once, under its name, so `grep` still finds it in one step.
    let mut files = Vec::new();
    rust_files(&src(), &mut files);
    let mut declared: Vec<String> = Vec::new();
    for path in files {
        let text = std::fs::read_to_string(&path).expect("read");
        declared.extend(pub_consts(&text).into_iter().map(|(_, name)| name));
    }
    for name in PROTOCOL_CONSTANTS {
        let count = declared.iter().filter(|d| d == name).count();
        assert_eq!(count, 1, "{name} is declared {count} times in src/");
    }
}

#[test]
fn the_scanners_find_what_they_look_for() {
    let p = Path::new("x.rs");
    let planted = "use tokio::net::TcpStream;\n// use std::fs; is a comment\n";
    assert_eq!(io_uses(p, planted).len(), 1);
    let upward = "use crate::protocol::amount::Amount;\nuse crate::rpc::Params;\n#[cfg(test)]\nmod tests { use crate::app::start; }\n";
    let hits = upward_imports(p, upward, layer_of("node").unwrap());
    assert_eq!(hits.len(), 1, "{hits:?}");
    assert!(hits[0].contains("imports rpc"));
    let long = format!(
        "fn short() {{\n}}\n\npub fn long() {{\n{}}}\n",
        "    x();\n".repeat(99)
    );
    let runs_inners = "    ter == Ter::tesSUCCESS && tx.u16_of(sf().transaction_type) == Some(TxType::Batch as u16)\n    if tx_type == TxType::Batch {\n    let row = registry::transactor(tx.u16_of(sf().transaction_type)?)?;\n";
    assert_eq!(type_comparisons(runs_inners).len(), 2);
    let hits = long_functions(p, &long);
    assert_eq!(hits.len(), 1, "{hits:?}");
    assert!(hits[0].contains("long runs 101 lines"));
    let rows = vec![
        (
            "AMMBid".to_string(),
            "amm".to_string(),
            "amm_bid".to_string(),
        ),
        (
            "AMMVote".to_string(),
            "amm".to_string(),
            "amm_vote".to_string(),
        ),
        (
            "Payment".to_string(),
            "payment".to_string(),
            "payment".to_string(),
        ),
    ];
    let module = ["amm".to_string(), "amm_bid".to_string()];
    let code = "use super::{amm_vote::tf, AmmEntry};\nuse crate::engine::payment::{self, payment::greater};\nuse crate::engine::payment::tf;\nlet x = super::super::amm::amm_vote::f();\n";
    let paths = engine_paths(code, &module);
    assert!(
        paths.contains(&vec!["amm".into(), "AmmEntry".into()]),
        "{paths:?}"
    );
    let named = type_modules_named(&paths, &rows, Some("amm_bid"));
    assert_eq!(
        named,
        ["amm::amm_vote", "payment::payment", "amm::amm_vote"]
    );
    assert!(type_modules_named(&paths, &rows, Some("amm_vote")).len() == 1);
    let consts = "pub const A_MAX: usize = 1;\n// pub const B: u8 = 2;\n    pub const C_2: u8 = 3;\nconst D: u8 = 4;\n";
    assert_eq!(
        pub_consts(consts),
        [(1, "A_MAX".to_string()), (3, "C_2".to_string())]
    );
}

/// The files that read the ledger entry table instead of keeping their own lists of types.
const ENTRY_TABLE_READERS: &[&str] = &[
    "engine/meta.rs",
    "engine/invariants.rs",
    "engine/account/account_delete.rs",
    "ledger/entry_key.rs",
    "rpc/entry_type.rs",
    "rpc/handlers/account_objects.rs",
    "rpc/handlers/ledger_entry.rs",
    "rpc/handlers/ledger_data.rs",
];

#[test]
fn the_entry_table_covers_every_ledger_entry_type_of_the_definitions() {
    use ledgerd::ledger::entry_types::{of_code, ENTRY_TYPES};
    let defs = ledgerd::protocol::definitions::defs();
    let listed = defs.json["LEDGER_ENTRY_TYPES"]
        .as_object()
        .expect("LEDGER_ENTRY_TYPES");
    let mut missing = Vec::new();
    let mut types = 0;
    for (name, code) in listed {
        let code = code.as_i64().expect("a code");
        // `Invalid` (-1) is the definitions' placeholder, no type.
        if code < 0 {
            continue;
        }
        types += 1;
        let row = u16::try_from(code).ok().and_then(of_code);
        if row.is_none_or(|row| row.name != name) {
            missing.push(format!("{name} ({code:#06x})"));
        }
    }
    assert!(
        missing.is_empty(),
        "entry types without their row in ledger/entry_types.rs: {missing:?}"
    );
    assert_eq!(
        ENTRY_TYPES.len(),
        types,
        "a row for a type not in the definitions"
    );
}

/// Each `lt::` code in `code` written beside a single `|`: an or-pattern of entry types,
/// a hand-kept list of them.
fn entry_type_alternations(code: &str) -> Vec<String> {
    let bytes = code.as_bytes();
    let single_pipe = |i: usize| {
        bytes.get(i) == Some(&b'|')
            && bytes.get(i + 1) != Some(&b'|')
            && (i == 0 || bytes[i - 1] != b'|')
    };
    let mut hits = Vec::new();
    for (at, _) in code.match_indices("lt::") {
        let name: String = code[at + 4..]
            .chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect();
        let mut after = at + 4 + name.len();
        while after < bytes.len() && (bytes[after] == b')' || bytes[after].is_ascii_whitespace()) {
            after += 1;
        }
        let before_text = code[..at].trim_end_matches("Some(").trim_end();
        let before = before_text.len().checked_sub(1);
        if single_pipe(after) || before.is_some_and(single_pipe) {
            hits.push(name);
        }
    }
    hits
}

#[test]
fn no_file_keeps_its_own_list_of_entry_types() {
    let names: Vec<&str> = ledgerd::ledger::entry_types::ENTRY_TYPES
        .iter()
        .map(|t| t.name)
        .collect();
    let mut files = Vec::new();
    rust_files(&src(), &mut files);
    let mut hits = Vec::new();
    for path in &files {
        if path.ends_with("ledger/entry_types.rs") {
            continue;
        }
        for name in entry_type_alternations(&production_code(path)) {
            hits.push(format!("{}: lt::{name} in an or-pattern", path.display()));
        }
    }
    for reader in ENTRY_TABLE_READERS {
        let path = src().join(reader);
        let code = production_code(&path);
        for name in &names {
            if code.contains(&format!("\"{name}\"")) {
                hits.push(format!("{reader} spells the entry type \"{name}\""));
            }
        }
    }
    let filter = production_code(&src().join("rpc/entry_type.rs"));
    for t in ledgerd::ledger::entry_types::ENTRY_TYPES {
        if filter.contains(&format!("\"{}\"", t.rpc)) {
            hits.push(format!(
                "rpc/entry_type.rs spells the type filter \"{}\"",
                t.rpc
            ));
        }
    }
    assert!(
        hits.is_empty(),
        "what a type is belongs in its row of ledger/entry_types.rs:\n{}",
        hits.join("\n")
    );
}

#[test]
fn the_entry_list_scanner_finds_lists() {
    let listed = "match t {\n    Some(lt::OFFER)\n    | Some(lt::TICKET) => 1,\n    _ => 0,\n}\n";
    assert_eq!(entry_type_alternations(listed), ["OFFER", "TICKET"]);
    let one = "if t == Some(lt::OFFER) || name == \"x\" { }\nmatch t { lt::A => 1, lt::B => 2 }";
    assert!(entry_type_alternations(one).is_empty());
    assert_eq!(
        entry_type_alternations("matches!(t, lt::A | lt::B)"),
        ["A", "B"]
    );
}

/// tests/interop.rs has its own harness (libtest-mimic): a `#[test]` in its modules would
/// compile away and never run, so every trial there is a plain function in `trials()`.
#[test]
fn the_interop_binary_hides_no_builtin_test() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/interop");
    let files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("read tests/interop")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "rs"))
        .collect();
    assert!(files.len() >= 2, "interop modules: {files:?}");
    let hidden: Vec<String> = files
        .iter()
        .filter(|p| std::fs::read_to_string(p).unwrap().contains("#[test]"))
        .map(|p| p.display().to_string())
        .collect();
    assert!(hidden.is_empty(), "#[test] under tests/interop: {hidden:?}");
}
