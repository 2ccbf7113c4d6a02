//! Runs the two oracle scripts in `tests/difftest/`, one process per library per batch,
//! after installing the pinned client libraries beside them (once per test process; see
//! [`tools`](super::super::tools)):
//!
//! - Python: `tests/difftest/.venv` with `requirements.txt` (xrpl-py).
//! - Node: `tests/difftest/node_modules` by `npm ci` (xrpl, ripple-binary-codec,
//!   ripple-keypairs, as locked in package-lock.json).

use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::OnceLock;

use super::super::tools;
use serde_json::Value;

/// The folder holding the scripts and their installs.
pub fn dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests")
        .join("difftest")
}

/// Installs both libraries once per test process.
pub fn setup() {
    static DONE: OnceLock<()> = OnceLock::new();
    DONE.get_or_init(|| {
        tools::python_venv(&dir());
        tools::node_modules(&dir());
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
                let mut c = Command::new(tools::venv_python(&dir()));
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
