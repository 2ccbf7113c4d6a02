//! The structure, checked: layers import only downward, the pure core does no I/O, no
//! function runs over 100 lines, and every file in `rpc/handlers/` is a method of the
//! handler table.
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
        let known =
            layer_of(&name).is_some() || ["lib", "main", "limits", "metrics"].contains(&&*name);
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
    let hits = long_functions(p, &long);
    assert_eq!(hits.len(), 1, "{hits:?}");
    assert!(hits[0].contains("long runs 101 lines"));
}
