//! The process's file-descriptor limit: every connection holds one, and a port has no
//! connection `limit` by default (as rippled's), so the server raises its soft limit to the
//! hard limit at start (as rippled does) and reports both (the log, admin `server_info`).

/// The soft and hard `RLIMIT_NOFILE`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FileLimit {
    /// The limit in force.
    pub soft: u64,
    /// The most the soft limit may be raised to.
    pub hard: u64,
}

/// The limit now; `None` where the platform has none.
pub fn current() -> Option<FileLimit> {
    rlimit::getrlimit(rlimit::Resource::NOFILE)
        .ok()
        .map(|(soft, hard)| FileLimit { soft, hard })
}

/// Raise the soft limit to the hard limit, and log the result.
pub fn raise() -> Option<FileLimit> {
    let before = current()?;
    if before.soft < before.hard {
        if let Err(e) = rlimit::setrlimit(rlimit::Resource::NOFILE, before.hard, before.hard) {
            tracing::warn!(
                soft = before.soft,
                hard = before.hard,
                "cannot raise the file limit: {e}"
            );
        }
    }
    let now = current()?;
    tracing::info!(
        soft = now.soft,
        hard = now.hard,
        "file limit (each connection holds one descriptor)"
    );
    Some(now)
}
