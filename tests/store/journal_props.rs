//! Property: whatever the appends and wherever the machine dies mid-write, the journal
//! reopens to a prefix of the appended records that includes every acknowledged one.

use crate::support;

use ledgerd::store::RecordKind;
use proptest::prelude::*;
use support::journal::{open_faulty, open_journal, replay_all};

fn run(groups: Vec<Vec<usize>>, tear_write: u64, tear_keep: usize) -> Result<(), TestCaseError> {
    let dir = tempfile::tempdir().expect("tempdir");
    let (journal, faults) = open_faulty(dir.path());
    faults.tear_write(tear_write, tear_keep);
    let mut appended = Vec::new();
    let mut acknowledged = 0u64;
    for group in &groups {
        // A group goes in without waiting, so the writer batches it as it likes.
        let tickets: Vec<_> = group
            .iter()
            .map(|&len| {
                let body: Vec<u8> = (0..len).map(|i| (i + appended.len()) as u8).collect();
                appended.push(body.clone());
                journal.append(RecordKind::Transaction, body)
            })
            .collect();
        for t in tickets {
            if let Ok(n) = t.wait() {
                // Acknowledgements come in order and are never followed by a gap.
                prop_assert_eq!(n, acknowledged + 1);
                acknowledged = n;
            }
        }
    }
    drop(journal);
    let (_j, rec) = open_journal(dir.path());
    let got: Vec<Vec<u8>> = replay_all(&rec).into_iter().map(|r| r.payload).collect();
    prop_assert!(
        got.len() as u64 >= acknowledged,
        "lost acknowledged records"
    );
    prop_assert!(got.len() <= appended.len());
    prop_assert_eq!(&got[..], &appended[..got.len()]);
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    #[test]
    fn crash_mid_write_reopens_to_an_acknowledged_prefix(
        groups in prop::collection::vec(prop::collection::vec(0usize..400, 1..8), 1..10),
        tear_write in 1u64..20,
        tear_keep in 0usize..3000,
    ) {
        run(groups, tear_write, tear_keep)?;
    }
}
