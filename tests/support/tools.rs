//! The client libraries the interop and difference suites drive, installed by the tests
//! themselves beside their scripts: a Python virtualenv (`.venv`, from `requirements.txt`)
//! and `node_modules` (`npm ci` from `package-lock.json`); and the browser the explorer's
//! test drives, Debian's `chromium` (apt-get when `/usr/bin/chromium` is missing). A stamp file in each install
//! records the manifest it was made from; a changed manifest reinstalls, an unchanged one
//! is used as it is. A failed install fails the test: the suites never skip themselves.

use std::path::{Path, PathBuf};
use std::process::Command;

/// Runs `cmd`; panics with its status and output unless it succeeds.
pub fn run(cmd: &mut Command, what: &str) {
    let out = cmd
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

fn read(p: &Path) -> String {
    std::fs::read_to_string(p).unwrap_or_default()
}

/// The python of the virtualenv in `dir`.
pub fn venv_python(dir: &Path) -> PathBuf {
    dir.join(".venv").join("bin").join("python")
}

/// The virtualenv `dir/.venv` with `dir/requirements.txt` installed; returns its python.
pub fn python_venv(dir: &Path) -> PathBuf {
    let want = read(&dir.join("requirements.txt"));
    let py = venv_python(dir);
    let stamp = dir.join(".venv").join("ledgerd-installed.txt");
    if py.exists() && read(&stamp) == want {
        return py;
    }
    run(
        Command::new("python3")
            .args(["-m", "venv", ".venv"])
            .current_dir(dir),
        "python3 -m venv",
    );
    run(
        Command::new(&py)
            .args([
                "-m",
                "pip",
                "install",
                "--quiet",
                "--disable-pip-version-check",
                "-r",
                "requirements.txt",
            ])
            .current_dir(dir),
        &format!("pip install -r {}", dir.join("requirements.txt").display()),
    );
    std::fs::write(&stamp, want).expect("write the venv stamp");
    py
}

/// `dir/node_modules` as `dir/package-lock.json` pins it; returns its path.
pub fn node_modules(dir: &Path) -> PathBuf {
    let want = read(&dir.join("package.json")) + &read(&dir.join("package-lock.json"));
    let modules = dir.join("node_modules");
    let stamp = modules.join("ledgerd-installed.txt");
    if read(&stamp) == want {
        return modules;
    }
    run(
        Command::new("npm")
            .args(["ci", "--no-audit", "--no-fund", "--loglevel=error"])
            .current_dir(dir),
        &format!("npm ci in {}", dir.display()),
    );
    std::fs::write(&stamp, want).expect("write the node_modules stamp");
    modules
}

/// Where Debian's chromium package puts the browser.
pub const CHROMIUM: &str = "/usr/bin/chromium";

/// Installs Debian's `package` with apt-get. The tests of one binary run side by side and
/// dpkg takes one install at a time: installs in this process wait for each other, and
/// apt-get waits for another process's lock rather than failing at once.
pub fn apt_install(package: &str) {
    static ONE_AT_A_TIME: std::sync::Mutex<()> = std::sync::Mutex::new(());
    let _turn = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    run(
        Command::new("sh").args([
            "-c",
            &format!(
                "apt-get -o DPkg::Lock::Timeout=600 update -qq && DEBIAN_FRONTEND=noninteractive \
                 apt-get -o DPkg::Lock::Timeout=600 install -y -qq --no-install-recommends {package}"
            ),
        ]),
        &format!("apt-get install {package}"),
    );
}

/// Debian's chromium, installed with apt-get when missing (once per process); its path.
pub fn chromium() -> PathBuf {
    static INSTALLED: std::sync::OnceLock<PathBuf> = std::sync::OnceLock::new();
    INSTALLED
        .get_or_init(|| {
            let path = PathBuf::from(CHROMIUM);
            if !path.is_file() {
                apt_install("chromium");
            }
            assert!(
                path.is_file(),
                "{CHROMIUM} missing after apt-get install chromium"
            );
            path
        })
        .clone()
}
