//! The pure core stays pure: `protocol`, `ledger` and `engine` import no tokio, no
//! `std::fs`, no `std::net`, and open no files.

use std::path::Path;

const FORBIDDEN: &[&str] = &[
    "tokio",
    "std::fs",
    "std::net",
    "File::open",
    "File::create",
    "std::process",
];

fn scan(dir: &Path, hits: &mut Vec<String>) {
    for entry in std::fs::read_dir(dir).expect("read dir") {
        let path = entry.expect("entry").path();
        if path.is_dir() {
            scan(&path, hits);
        } else if path.extension().is_some_and(|e| e == "rs") {
            let text = std::fs::read_to_string(&path).expect("read file");
            for (n, line) in text.lines().enumerate() {
                let code = line.split("//").next().unwrap_or("");
                for word in FORBIDDEN {
                    if code.contains(word) {
                        hits.push(format!("{}:{}: {}", path.display(), n + 1, line.trim()));
                    }
                }
            }
        }
    }
}

#[test]
fn core_modules_import_no_io() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut hits = Vec::new();
    for m in ["protocol", "ledger", "engine"] {
        scan(&root.join(m), &mut hits);
    }
    assert!(
        hits.is_empty(),
        "I/O in the pure core:\n{}",
        hits.join("\n")
    );
}

#[test]
fn the_scanner_finds_a_planted_import() {
    let dir = tempfile::tempdir().expect("tempdir");
    std::fs::write(
        dir.path().join("x.rs"),
        "use tokio::net::TcpStream;\n// use std::fs; is a comment\n",
    )
    .unwrap();
    let mut hits = Vec::new();
    scan(dir.path(), &mut hits);
    assert_eq!(hits.len(), 1, "{hits:?}");
}
