//! The log: where it goes (stderr, and a file when one is configured), and its live
//! controls, rippled's `Logs`: a base severity, a severity per partition, a file that can
//! be closed and reopened. `log_level` and `logrotate` (admin methods) read and change them
//! while the server runs.
//!
//! rippled's partitions are its journals' names (`LedgerMaster`, `Overlay`, ...); ledgerd's
//! are the layers that log ([`PARTITIONS`]: `app`, `node`, `rpc`, `server`, `store`), each
//! a `tracing` target prefix (`ledgerd::node`). As in rippled, a partition name is looked up
//! ignoring case and any name is accepted: one that is no layer is kept, reads back, and
//! routes nothing. Setting the base severity sets every partition's too (rippled's
//! `Logs::threshold`).
//!
//! Severities are rippled's six; `tracing` has no fatal level, so `Fatal` lets errors
//! through (ledgerd logs nothing as fatal). The socket libraries never log below `warn`
//! whatever the base: at trace level tungstenite dumps every frame, secrets included.
//!
//! Like `limits` and `metrics`, this module sits below every layer and imports none.

use parking_lot::Mutex;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::{Arc, LazyLock, OnceLock};
use tracing_subscriber::filter::{EnvFilter, LevelFilter};

/// rippled's log severities (`LogSeverity`), least severe first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Severity {
    /// `Trace`.
    Trace,
    /// `Debug`.
    Debug,
    /// `Info`.
    Info,
    /// `Warning`.
    Warning,
    /// `Error`.
    Error,
    /// `Fatal`.
    Fatal,
}

impl Severity {
    /// rippled's `Logs::fromString`: the names it accepts, ignoring case.
    pub fn parse(text: &str) -> Option<Severity> {
        let t = text.to_ascii_lowercase();
        Some(match t.as_str() {
            "trace" => Severity::Trace,
            "debug" => Severity::Debug,
            "info" | "information" => Severity::Info,
            "warn" | "warning" | "warnings" => Severity::Warning,
            "error" | "errors" => Severity::Error,
            "fatal" | "fatals" => Severity::Fatal,
            _ => return None,
        })
    }

    /// rippled's `Logs::toString`.
    pub fn name(self) -> &'static str {
        match self {
            Severity::Trace => "Trace",
            Severity::Debug => "Debug",
            Severity::Info => "Info",
            Severity::Warning => "Warning",
            Severity::Error => "Error",
            Severity::Fatal => "Fatal",
        }
    }

    /// The `tracing` level that shows what this severity shows.
    fn directive(self) -> &'static str {
        match self {
            Severity::Trace => "trace",
            Severity::Debug => "debug",
            Severity::Info => "info",
            Severity::Warning => "warn",
            Severity::Error | Severity::Fatal => "error",
        }
    }

    /// The severity that shows what a `tracing` level filter lets through.
    fn from_level(level: LevelFilter) -> Severity {
        match level {
            LevelFilter::TRACE => Severity::Trace,
            LevelFilter::DEBUG => Severity::Debug,
            LevelFilter::INFO => Severity::Info,
            LevelFilter::WARN => Severity::Warning,
            LevelFilter::ERROR => Severity::Error,
            _ => Severity::Fatal,
        }
    }
}

/// The partitions ledgerd logs under: the layers that log, as `tracing` targets
/// `ledgerd::<name>`.
pub const PARTITIONS: &[&str] = &["app", "node", "rpc", "server", "store"];

/// The libraries held at `warn` or quieter whatever the base severity.
const QUIET: &[&str] = &[
    "tungstenite",
    "tokio_tungstenite",
    "hyper",
    "hyper_util",
    "rustls",
    "tokio_rustls",
    "mio",
];

/// The log's form on stderr.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// Lines for people (colored on a terminal).
    Text,
    /// One JSON object a line: `timestamp`, `level`, `fields` (with `message`), `target`.
    Json,
}

/// What is set: the base, the partitions set apart from it, and `RUST_LOG`'s own
/// directives when they are more than one severity (kept until the base is set).
#[derive(Clone, Debug)]
struct Levels {
    base: Severity,
    env: Option<String>,
    /// (name as first given, severity), in the order they were first named.
    partitions: Vec<(String, Severity)>,
}

/// Why a change was refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LevelError {
    /// More partitions than [`crate::limits::LOG_PARTITIONS_MAX`] would be named.
    TooManyPartitions,
}

type Reload = Box<dyn Fn(EnvFilter) -> Result<(), String> + Send + Sync>;

/// The process's log controls ([`control`]).
pub struct LogControl {
    levels: Mutex<Levels>,
    /// Installs a new filter in the running subscriber (set by [`init`]; without it, as in
    /// tests that install none, the levels are kept and read back but route nothing).
    reload: OnceLock<Reload>,
    /// The log file, when one is configured.
    file: Arc<Mutex<LogFile>>,
}

/// The log file and the path it was opened at (rippled's `Logs::File`).
#[derive(Default)]
struct LogFile {
    path: Option<PathBuf>,
    file: Option<std::fs::File>,
}

static CONTROL: LazyLock<LogControl> = LazyLock::new(|| LogControl {
    levels: Mutex::new(levels_from_env(std::env::var("RUST_LOG").ok().as_deref())),
    reload: OnceLock::new(),
    file: Arc::new(Mutex::new(LogFile::default())),
});

/// The process's log controls.
pub fn control() -> &'static LogControl {
    &CONTROL
}

/// The starting levels from `RUST_LOG`: one severity word is the base; anything else is
/// kept as given, the base read as the most verbose level it shows; unset or unreadable,
/// `info`.
fn levels_from_env(env: Option<&str>) -> Levels {
    let text = env.map(str::trim).filter(|t| !t.is_empty());
    let mut levels = Levels {
        base: Severity::Info,
        env: None,
        partitions: Vec::new(),
    };
    let Some(text) = text else {
        return levels;
    };
    if let Some(s) = Severity::parse(text) {
        levels.base = s;
    } else if let Ok(filter) = EnvFilter::try_new(text) {
        levels.base = filter
            .max_level_hint()
            .map_or(Severity::Info, Severity::from_level);
        levels.env = Some(text.to_owned());
    }
    levels
}

/// A partition name that can be a `tracing` target segment.
fn is_target_name(name: &str) -> bool {
    !name.is_empty() && name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_')
}

/// The filter the levels make.
fn directives(levels: &Levels) -> String {
    let mut parts = vec![levels
        .env
        .clone()
        .unwrap_or_else(|| levels.base.directive().to_owned())];
    for (name, severity) in &levels.partitions {
        if is_target_name(name) {
            let target = name.to_ascii_lowercase();
            parts.push(format!("ledgerd::{target}={}", severity.directive()));
        }
    }
    let quiet = levels.base.max(Severity::Warning).directive();
    parts.extend(QUIET.iter().map(|q| format!("{q}={quiet}")));
    parts.join(",")
}

impl LogControl {
    /// The base severity's name and every partition's (rippled's `log_level` without
    /// parameters): the layers that log, then any other name set, sorted by name.
    pub fn levels(&self) -> Vec<(String, &'static str)> {
        let levels = self.levels.lock();
        let mut out: Vec<(String, &'static str)> = PARTITIONS
            .iter()
            .filter(|p| {
                !levels
                    .partitions
                    .iter()
                    .any(|(n, _)| n.eq_ignore_ascii_case(p))
            })
            .map(|p| ((*p).to_owned(), levels.base.name()))
            .collect();
        out.extend(levels.partitions.iter().map(|(n, s)| (n.clone(), s.name())));
        out.sort();
        out
    }

    /// The base severity.
    pub fn base(&self) -> Severity {
        self.levels.lock().base
    }

    /// Sets the base severity and every partition's (rippled's `Logs::threshold`).
    pub fn set_base(&self, severity: Severity) {
        let mut levels = self.levels.lock();
        levels.base = severity;
        levels.env = None;
        for (_, s) in levels.partitions.iter_mut() {
            *s = severity;
        }
        self.apply(&levels);
    }

    /// Sets one partition's severity; `base` (any case) is the base.
    pub fn set_partition(&self, name: &str, severity: Severity) -> Result<(), LevelError> {
        if name.eq_ignore_ascii_case("base") {
            self.set_base(severity);
            return Ok(());
        }
        let mut levels = self.levels.lock();
        let count = levels.partitions.len();
        match levels
            .partitions
            .iter_mut()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
        {
            Some((_, s)) => *s = severity,
            None if count >= crate::limits::LOG_PARTITIONS_MAX => {
                return Err(LevelError::TooManyPartitions)
            }
            None => {
                // A layer keeps its own spelling (it exists from the start, as rippled's
                // partitions exist once their code has logged).
                let known = PARTITIONS.iter().find(|p| p.eq_ignore_ascii_case(name));
                let name = known.map_or(name, |p| *p);
                levels.partitions.push((name.to_owned(), severity))
            }
        }
        self.apply(&levels);
        Ok(())
    }

    /// Installs the levels' filter in the running subscriber, if there is one.
    fn apply(&self, levels: &Levels) {
        let Some(reload) = self.reload.get() else {
            return;
        };
        match EnvFilter::try_new(directives(levels)) {
            Ok(filter) => {
                if let Err(e) = reload(filter) {
                    tracing::warn!("log levels not changed: {e}");
                }
            }
            Err(e) => tracing::warn!("log levels not changed: {e}"),
        }
    }

    /// Closes and reopens the log file (rippled's `Logs::rotate`): true when a file is
    /// configured and opened again; false without one (as rippled's, whose file was never
    /// opened) or when it cannot be opened.
    pub fn rotate(&self) -> bool {
        let mut f = self.file.lock();
        f.file = None;
        let Some(path) = f.path.clone() else {
            return false;
        };
        match open_append(&path) {
            Ok(file) => {
                f.file = Some(file);
                true
            }
            Err(e) => {
                eprintln!(
                    "ledgerd: cannot reopen the log file {}: {e}",
                    path.display()
                );
                false
            }
        }
    }

    /// The log file configured, if any.
    pub fn file_path(&self) -> Option<PathBuf> {
        self.file.lock().path.clone()
    }
}

/// Opens the log file to append, its directory made first (as xrpld makes it).
fn open_append(path: &Path) -> std::io::Result<std::fs::File> {
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir)?;
    }
    std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
}

/// Writes what the log writes to the log file, when one is open.
#[derive(Clone)]
struct FileSink(Arc<Mutex<LogFile>>);

impl Write for FileSink {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        match self.0.lock().file.as_mut() {
            Some(f) => f.write_all(buf).map(|()| buf.len()),
            None => Ok(buf.len()),
        }
    }

    fn flush(&mut self) -> std::io::Result<()> {
        match self.0.lock().file.as_mut() {
            Some(f) => f.flush(),
            None => Ok(()),
        }
    }
}

impl<'a> tracing_subscriber::fmt::MakeWriter<'a> for FileSink {
    type Writer = FileSink;

    fn make_writer(&'a self) -> FileSink {
        self.clone()
    }
}

/// Installs the process's log: `format` on stderr (unless `stderr` is false: xrpld's
/// `--silent`), and every line also appended to `file`
/// (rippled's `[debug_logfile]`) when given, with the levels [`control`] holds and the
/// filter `log_level` can change. Call once, before anything logs.
pub fn init(format: Format, file: Option<&Path>, stderr: bool) -> Result<(), String> {
    use tracing_subscriber::fmt::writer::MakeWriterExt;
    use tracing_subscriber::layer::SubscriberExt;
    use tracing_subscriber::util::SubscriberInitExt;
    use tracing_subscriber::Layer;
    let control = control();
    if let Some(path) = file {
        let opened = open_append(path).map_err(|e| format!("log file {}: {e}", path.display()))?;
        let mut f = control.file.lock();
        f.path = Some(path.to_path_buf());
        f.file = Some(opened);
    }
    let filter = EnvFilter::try_new(directives(&control.levels.lock()))
        .map_err(|e| format!("RUST_LOG: {e}"))?;
    let (filter, handle) = tracing_subscriber::reload::Layer::new(filter);
    let console = move || -> Box<dyn Write> {
        if stderr {
            Box::new(std::io::stderr())
        } else {
            Box::new(std::io::sink())
        }
    };
    let writer = console.and(FileSink(control.file.clone()));
    let ansi = stderr && file.is_none() && std::io::IsTerminal::is_terminal(&std::io::stderr());
    let fmt = match format {
        Format::Text => tracing_subscriber::fmt::layer()
            .with_writer(writer)
            .with_ansi(ansi)
            .boxed(),
        Format::Json => tracing_subscriber::fmt::layer()
            .json()
            .with_writer(writer)
            .with_ansi(false)
            .boxed(),
    };
    tracing_subscriber::registry()
        .with(filter)
        .with(fmt)
        .try_init()
        .map_err(|e| e.to_string())?;
    let reload: Reload = Box::new(move |f| handle.reload(f).map_err(|e| e.to_string()));
    let _ = control.reload.set(reload);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn levels(env: Option<&str>) -> Levels {
        levels_from_env(env)
    }

    #[test]
    fn severities_parse_and_print_as_rippled_does() {
        for (text, want) in [
            ("trace", "Trace"),
            ("DEBUG", "Debug"),
            ("information", "Info"),
            ("Warnings", "Warning"),
            ("warn", "Warning"),
            ("errors", "Error"),
            ("fatals", "Fatal"),
        ] {
            assert_eq!(
                Severity::parse(text).map(Severity::name),
                Some(want),
                "{text}"
            );
        }
        for bad in ["", "verbose", "5", "warning "] {
            assert_eq!(Severity::parse(bad), None, "{bad}");
        }
    }

    #[test]
    fn the_environment_sets_the_start() {
        assert_eq!(levels(None).base, Severity::Info);
        assert_eq!(levels(Some("trace")).base, Severity::Trace);
        let complex = levels(Some("warn,ledgerd::rpc=debug"));
        assert_eq!(complex.base, Severity::Debug);
        assert!(directives(&complex).starts_with("warn,ledgerd::rpc=debug,"));
    }

    #[test]
    fn directives_name_partitions_and_keep_the_socket_libraries_quiet() {
        let mut l = levels(Some("trace"));
        l.partitions.push(("Node".into(), Severity::Error));
        l.partitions.push(("a=b,c".into(), Severity::Trace));
        let d = directives(&l);
        assert!(d.starts_with("trace,ledgerd::node=error,"), "{d}");
        assert!(!d.contains("a=b"), "{d}");
        assert!(d.contains("tungstenite=warn"), "{d}");
        l.base = Severity::Error;
        assert!(directives(&l).contains("tungstenite=error"));
        assert!(EnvFilter::try_new(directives(&l)).is_ok());
    }

    #[test]
    fn setting_the_base_sets_every_partition() {
        let c = LogControl {
            levels: Mutex::new(levels(None)),
            reload: OnceLock::new(),
            file: Arc::new(Mutex::new(LogFile::default())),
        };
        c.set_partition("NODE", Severity::Trace).unwrap();
        c.set_partition("Custom", Severity::Debug).unwrap();
        let read = c.levels();
        assert!(read.contains(&("node".into(), "Trace")), "{read:?}");
        assert!(read.contains(&("Custom".into(), "Debug")), "{read:?}");
        assert!(read.contains(&("rpc".into(), "Info")), "{read:?}");
        c.set_partition("Base", Severity::Warning).unwrap();
        assert_eq!(c.base(), Severity::Warning);
        assert!(c.levels().iter().all(|(_, s)| *s == "Warning"));
        assert!(!c.rotate(), "no log file is configured");
    }

    #[test]
    fn rotate_reopens_the_file_at_its_path() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("debug.log");
        let c = LogControl {
            levels: Mutex::new(levels(None)),
            reload: OnceLock::new(),
            file: Arc::new(Mutex::new(LogFile {
                path: Some(path.clone()),
                file: Some(open_append(&path).unwrap()),
            })),
        };
        let mut sink = FileSink(c.file.clone());
        sink.write_all(b"one\n").unwrap();
        let moved = dir.path().join("debug.log.1");
        std::fs::rename(&path, &moved).unwrap();
        assert!(c.rotate());
        sink.write_all(b"two\n").unwrap();
        assert_eq!(std::fs::read_to_string(&moved).unwrap(), "one\n");
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "two\n");
    }
}
