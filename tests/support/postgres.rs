//! A throwaway PostgreSQL cluster for tests: Debian's server binaries (installed with
//! apt-get when `initdb` and `pg_ctl` are missing), a cluster in a temporary directory
//! owned by an unprivileged user (`nobody` when the tests run as root), listening on a
//! free loopback port, stopped and removed on drop. Tests that need it fail, never skip,
//! when it cannot start.

use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::Command;

/// The Debian 12 server package that provides `initdb` and `pg_ctl`.
const DEBIAN_PACKAGE: &str = "postgresql-15";

/// A running PostgreSQL cluster.
pub struct PgCluster {
    bin: PathBuf,
    /// The cluster's data directory (inside `_dir`).
    data: PathBuf,
    port: u16,
    _dir: tempfile::TempDir,
}

/// The directory holding `initdb` and `pg_ctl`, installing Debian's package if needed:
/// once per process, as the tests of a binary that need it run side by side.
fn server_bin() -> PathBuf {
    static BIN: std::sync::OnceLock<PathBuf> = std::sync::OnceLock::new();
    BIN.get_or_init(install_server).clone()
}

fn install_server() -> PathBuf {
    if let Some(dir) = find_bin() {
        return dir;
    }
    super::tools::apt_install(DEBIAN_PACKAGE);
    find_bin().expect("initdb and pg_ctl after installing postgresql")
}

/// `initdb` and `pg_ctl` side by side: Debian's versioned directories first (its
/// `/usr/bin` has only wrappers), then the PATH.
fn find_bin() -> Option<PathBuf> {
    let mut dirs: Vec<PathBuf> = std::fs::read_dir("/usr/lib/postgresql")
        .map(|r| r.filter_map(|e| Some(e.ok()?.path().join("bin"))).collect())
        .unwrap_or_default();
    dirs.sort();
    dirs.reverse();
    let path = std::env::var_os("PATH").unwrap_or_default();
    dirs.extend(std::env::split_paths(&path));
    dirs.into_iter()
        .find(|d| d.join("initdb").is_file() && d.join("pg_ctl").is_file())
}

fn free_port() -> u16 {
    let l = TcpListener::bind("127.0.0.1:0").expect("a free port");
    l.local_addr().expect("addr").port()
}

fn id_of(args: &[&str]) -> u32 {
    let out = Command::new("id").args(args).output().expect("id runs");
    String::from_utf8_lossy(&out.stdout)
        .trim()
        .parse()
        .expect("a numeric id")
}

fn is_root() -> bool {
    id_of(&["-u"]) == 0
}

/// Runs a server binary as the cluster's owner: `nobody` when we are root.
fn as_owner(program: &Path) -> Command {
    if is_root() {
        let mut c = Command::new("runuser");
        c.args(["-u", "nobody", "--"]).arg(program);
        c
    } else {
        Command::new(program)
    }
}

impl PgCluster {
    /// initdb and start a cluster.
    pub fn start() -> PgCluster {
        let bin = server_bin();
        let dir = tempfile::Builder::new()
            .prefix("ledgerd-pg-")
            .tempdir()
            .expect("tempdir");
        let data = dir.path().join("data");
        if is_root() {
            chown_nobody(dir.path());
        }
        let out = as_owner(&bin.join("initdb"))
            .args(["-D"])
            .arg(&data)
            .args(["-U", "postgres", "--auth=trust", "--no-sync", "-E", "UTF8"])
            .output()
            .expect("initdb runs");
        assert!(
            out.status.success(),
            "initdb failed: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let cluster = PgCluster {
            bin,
            data,
            port: free_port(),
            _dir: dir,
        };
        cluster.start_server();
        cluster
    }

    /// A hot standby streaming from `primary`: `pg_basebackup -R -X stream` into a new
    /// directory, started on a port of its own (read-only, replaying the primary's WAL).
    pub fn standby_of(primary: &PgCluster) -> PgCluster {
        let bin = server_bin();
        let dir = tempfile::Builder::new()
            .prefix("ledgerd-pg-standby-")
            .tempdir()
            .expect("tempdir");
        let data = dir.path().join("data");
        if is_root() {
            chown_nobody(dir.path());
        }
        let out = as_owner(&bin.join("pg_basebackup"))
            .args([
                "-h",
                "127.0.0.1",
                "-p",
                &primary.port.to_string(),
                "-U",
                "postgres",
            ])
            .arg("-D")
            .arg(&data)
            .args(["-R", "-X", "stream", "--no-sync"])
            .output()
            .expect("pg_basebackup runs");
        assert!(
            out.status.success(),
            "pg_basebackup failed: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let cluster = PgCluster {
            bin,
            data,
            port: free_port(),
            _dir: dir,
        };
        cluster.start_server();
        cluster
    }

    /// `postgresql://postgres@127.0.0.1:PORT/postgres`.
    pub fn url(&self) -> String {
        format!("postgresql://postgres@127.0.0.1:{}/postgres", self.port)
    }

    /// Starts the server (again) on the same port and waits until it accepts connections.
    pub fn start_server(&self) {
        let opts = format!(
            "-p {} -c listen_addresses=127.0.0.1 -c unix_socket_directories='' -c fsync=off -c max_connections=100",
            self.port
        );
        let out = as_owner(&self.bin.join("pg_ctl"))
            .arg("-D")
            .arg(&self.data)
            .args(["-w", "-t", "60", "-l"])
            .arg(self.data.join("server.log"))
            .args(["-o", &opts, "start"])
            .output()
            .expect("pg_ctl runs");
        assert!(
            out.status.success(),
            "pg_ctl start failed: {}{}",
            String::from_utf8_lossy(&out.stderr),
            std::fs::read_to_string(self.data.join("server.log")).unwrap_or_default()
        );
    }

    /// Stops the server at once (connections are cut, as in a crash or a failover).
    pub fn stop_server(&self) {
        let _ = as_owner(&self.bin.join("pg_ctl"))
            .arg("-D")
            .arg(&self.data)
            .args(["-w", "-m", "immediate", "stop"])
            .output();
    }
}

impl Drop for PgCluster {
    fn drop(&mut self) {
        self.stop_server();
    }
}

fn chown_nobody(dir: &Path) {
    let (uid, gid) = (id_of(&["-u", "nobody"]), id_of(&["-g", "nobody"]));
    std::os::unix::fs::chown(dir, Some(uid), Some(gid)).expect("chown to nobody");
}
