//! The server's amendment votes, which `feature` reports and an admin changes (`vetoed`),
//! kept across restarts in the data directory when there is one (xrpld keeps them in its
//! wallet.db `FeatureVotes` table). The table itself is [`crate::protocol::features`];
//! which amendments a ledger applies, [`crate::ledger::rules`].

use std::path::{Path, PathBuf};

use parking_lot::Mutex;

use crate::ledger::rules::Votes;
use crate::protocol::features::{Feature, FeatureSet};

/// The file in a data directory that keeps the votes.
pub const VOTES_FILE: &str = "amendment_votes.json";

/// The votes, and where they are kept.
pub struct VoteBook {
    votes: Mutex<Votes>,
    file: Option<PathBuf>,
}

impl VoteBook {
    /// Votes kept in memory only (no data directory).
    pub fn in_memory(votes: Votes) -> VoteBook {
        VoteBook {
            votes: Mutex::new(votes),
            file: None,
        }
    }

    /// Votes kept in `file`: what it holds wins over `configured` (xrpld ignores its
    /// `[amendments]` and `[veto_amendments]` once wallet.db has votes); without the file
    /// `configured` is written there. Err: the file could not be read or written.
    pub fn open(file: &Path, configured: Votes) -> Result<VoteBook, String> {
        let votes = match read(file)? {
            Some(stored) => stored,
            None => {
                write(file, &configured)?;
                configured
            }
        };
        Ok(VoteBook {
            votes: Mutex::new(votes),
            file: Some(file.to_path_buf()),
        })
    }

    /// The votes now.
    pub fn get(&self) -> Votes {
        *self.votes.lock()
    }

    /// Votes against `f` (`vetoed: true`) or for it (`vetoed: false`), keeping the result
    /// if there is a file. Err: the file could not be written (the vote is not changed).
    pub fn set(&self, f: Feature, vetoed: bool) -> Result<(), String> {
        let mut votes = self.votes.lock();
        let mut next = *votes;
        let changed = if vetoed { next.veto(f) } else { next.unveto(f) };
        if changed {
            if let Some(file) = &self.file {
                write(file, &next)?;
            }
            *votes = next;
        }
        Ok(())
    }
}

/// Votes kept in `file` (None: no such file).
pub fn read(file: &Path) -> Result<Option<Votes>, String> {
    let text = match std::fs::read_to_string(file) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(format!("{}: {e}", file.display())),
    };
    let bad = |why: &str| format!("{}: {why}", file.display());
    let value: serde_json::Value = serde_json::from_str(&text).map_err(|e| bad(&e.to_string()))?;
    let names = value
        .get("up")
        .and_then(|v| v.as_array())
        .ok_or_else(|| bad("no \"up\" array"))?;
    let mut up = FeatureSet::EMPTY;
    for n in names {
        let name = n.as_str().ok_or_else(|| bad("a vote is not a string"))?;
        up.insert(Feature::parse(name).ok_or_else(|| bad(&format!("unknown amendment {name}")))?);
    }
    Ok(Some(Votes::with_up(up)))
}

fn write(file: &Path, votes: &Votes) -> Result<(), String> {
    let up: Vec<&str> = votes.up().iter().map(Feature::name).collect();
    let text = serde_json::json!({ "up": up }).to_string();
    let tmp = file.with_extension("json.tmp");
    std::fs::write(&tmp, text)
        .and_then(|_| std::fs::rename(&tmp, file))
        .map_err(|e| format!("{}: {e}", file.display()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ledger::rules::VoteState;

    #[test]
    fn votes_survive_a_restart() {
        let dir = std::env::temp_dir().join(format!("ledgerd-votes-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("dir");
        let file = dir.join(VOTES_FILE);
        let _ = std::fs::remove_file(&file);
        let book = VoteBook::open(&file, Votes::default()).expect("open");
        book.set(Feature::AMM, false).expect("up");
        book.set(Feature::FixRemoveNFTokenAutoTrustLine, true)
            .expect("down");
        // A restart with other configured votes: the kept ones win.
        let again = VoteBook::open(&file, Votes::with_up(FeatureSet::EMPTY)).expect("reopen");
        let v = again.get();
        assert_eq!(v.state(Feature::AMM), VoteState::Up);
        assert_eq!(
            v.state(Feature::FixRemoveNFTokenAutoTrustLine),
            VoteState::Down
        );
        std::fs::write(&file, "{\"up\": [\"nope\"]}").expect("write");
        assert!(VoteBook::open(&file, Votes::default()).is_err());
        let _ = std::fs::remove_dir_all(&dir);
    }
}
