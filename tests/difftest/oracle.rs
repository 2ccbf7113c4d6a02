//! Installs the pinned client libraries (once, cached in this folder) and runs the two
//! oracle scripts, one process per library per batch.
//!
//! - Python: `tests/difftest/.venv` from `python3 -m venv`, then `pip install -r
//!   requirements.txt` (xrpl-py).
//! - Node: `npm ci` in `tests/difftest` (xrpl, ripple-binary-codec, ripple-keypairs, as
//!   locked in package-lock.json).
//!
//! A stamp file beside each install records the manifest it was made from; a changed
//! manifest reinstalls. A failed install fails the test: the suite never skips itself.

use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::OnceLock;

use serde_json::Value;

/// The folder holding the scripts and their installs.
pub fn dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests")
        .join("difftest")
}

fn read(p: &Path) -> String {
    std::fs::read_to_string(p).unwrap_or_default()
}

fn run(cmd: &mut Command, what: &str) {
    let out = cmd
        .current_dir(dir())
        .output()
        .unwrap_or_else(|e| panic!("{what}: cannot start: {e}"));
    assert!(
        out.status.success(),
        "{what} failed ({}):\n{}\n{}",
        out.status,
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}

fn python() -> PathBuf {
    dir().join(".venv").join("bin").join("python")
}

fn install_python() {
    let d = dir();
    let want = read(&d.join("requirements.txt"));
    let stamp = d.join(".venv").join("ledgerd-installed.txt");
    if python().exists() && read(&stamp) == want {
        return;
    }
    run(
        Command::new("python3").args(["-m", "venv", ".venv"]),
        "python3 -m venv",
    );
    run(
        Command::new(python()).args([
            "-m",
            "pip",
            "install",
            "--quiet",
            "--disable-pip-version-check",
            "-r",
            "requirements.txt",
        ]),
        "pip install",
    );
    std::fs::write(&stamp, want).expect("write the venv stamp");
}

fn install_node() {
    let d = dir();
    let want = read(&d.join("package.json")) + &read(&d.join("package-lock.json"));
    let stamp = d.join("node_modules").join("ledgerd-installed.txt");
    if read(&stamp) == want {
        return;
    }
    run(
        Command::new("npm").args(["ci", "--no-audit", "--no-fund", "--loglevel=error"]),
        "npm ci",
    );
    std::fs::write(&stamp, want).expect("write the node_modules stamp");
}

/// Installs both libraries once per test process.
pub fn setup() {
    static DONE: OnceLock<()> = OnceLock::new();
    DONE.get_or_init(|| {
        install_python();
        install_node();
    });
}

/// Which library answers.
#[derive(Clone, Copy, Debug)]
pub enum Lib {
    /// xrpl-py.
    Py,
    /// xrpl.js / ripple-binary-codec / ripple-keypairs.
    Js,
}

fn spawn(lib: Lib, input: String) -> std::thread::JoinHandle<Vec<Value>> {
    std::thread::spawn(move || {
        let mut cmd = match lib {
            Lib::Py => {
                let mut c = Command::new(python());
                c.arg("oracle.py");
                c
            }
            Lib::Js => {
                let mut c = Command::new("node");
                c.arg("oracle.js");
                c
            }
        };
        let mut child = cmd
            .current_dir(dir())
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap_or_else(|e| panic!("{lib:?} oracle: cannot start: {e}"));
        let mut stdin = child.stdin.take().expect("stdin");
        // Write from another thread: the oracle answers while we are still writing.
        let writer = std::thread::spawn(move || {
            let _ = stdin.write_all(input.as_bytes());
        });
        let mut out = String::new();
        child
            .stdout
            .take()
            .expect("stdout")
            .read_to_string(&mut out)
            .expect("read oracle output");
        let mut err = String::new();
        let _ = child
            .stderr
            .take()
            .expect("stderr")
            .read_to_string(&mut err);
        let status = child.wait().expect("wait for oracle");
        let _ = writer.join();
        assert!(status.success(), "{lib:?} oracle failed ({status}):\n{err}");
        out.lines()
            .map(|l| {
                serde_json::from_str(l).unwrap_or_else(|e| panic!("{lib:?}: bad line {l}: {e}"))
            })
            .collect()
    })
}

/// Sends every request to both libraries (in parallel) and returns their answers, in
/// request order: `(xrpl-py, xrpl.js)`.
pub fn ask_both(requests: &[Value]) -> (Vec<Value>, Vec<Value>) {
    setup();
    let mut input = String::new();
    for r in requests {
        input.push_str(&r.to_string());
        input.push('\n');
    }
    let py = spawn(Lib::Py, input.clone());
    let js = spawn(Lib::Js, input);
    let py = py.join().expect("py oracle thread");
    let js = js.join().expect("js oracle thread");
    assert_eq!(py.len(), requests.len(), "xrpl-py answered every request");
    assert_eq!(js.len(), requests.len(), "xrpl.js answered every request");
    (py, js)
}
