//! `fee` (rippled `Fee1.cpp`, `TxQ::doRPC`; rpc.md §3.12): the transaction queue's figures
//! for the open ledger, from [`crate::ledgers::Ledgers::fee_report`]: levels and drops as
//! strings, the open ledger's and the queue's sizes, and the queue's limit once a ledger
//! has closed (rippled prints no `max_queue_size` before).

use crate::ledgers::txq::FeeReport;
use crate::rpc::context::Context;
use crate::rpc::{HandlerResult, Params};
use serde_json::{Map, Value};

/// Answer fee.
pub fn handle(ctx: &Context, _params: &Params) -> HandlerResult {
    let store = &ctx.services.node.ledgers;
    let report = store.fee_report();
    let mut r = render(&report);
    r.insert(
        "ledger_current_index".into(),
        Value::from(store.current().seq()),
    );
    r.sort_keys();
    Ok(r)
}

/// The report as rippled prints it (every count and amount a decimal string).
fn render(report: &FeeReport) -> Map<String, Value> {
    let strings = |pairs: &[(&str, u64)]| -> Map<String, Value> {
        pairs
            .iter()
            .map(|(k, n)| ((*k).to_owned(), Value::from(n.to_string())))
            .collect()
    };
    let mut r = strings(&[
        ("current_ledger_size", report.current_ledger_size),
        ("current_queue_size", report.current_queue_size),
        ("expected_ledger_size", report.expected_ledger_size),
    ]);
    if let Some(max) = report.max_queue_size {
        r.extend(strings(&[("max_queue_size", max)]));
    }
    let drops = strings(&[
        ("base_fee", report.base_fee),
        ("median_fee", report.median_fee),
        ("minimum_fee", report.minimum_fee),
        ("open_ledger_fee", report.open_ledger_fee),
    ]);
    let levels = strings(&[
        ("median_level", report.median_level),
        ("minimum_level", report.minimum_level),
        ("open_ledger_level", report.open_ledger_level),
        ("reference_level", report.reference_level),
    ]);
    r.insert("drops".into(), Value::Object(drops));
    r.insert("levels".into(), Value::Object(levels));
    r
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ledgers::txq::{TxQSetup, TxQueue};

    #[test]
    fn every_figure_is_a_string_and_max_queue_size_waits_for_a_close() {
        let setup = TxQSetup {
            minimum_txn_in_ledger_standalone: 3,
            ..TxQSetup::default()
        };
        // Four transactions in an open ledger expecting three, no close yet.
        let report = TxQueue::new(setup).fee_report(4, 10);
        let r = render(&report);
        assert_eq!(r["current_ledger_size"], "4");
        assert_eq!(r["current_queue_size"], "0");
        assert_eq!(r["expected_ledger_size"], "3");
        assert!(!r.contains_key("max_queue_size"));
        assert_eq!(r["levels"]["open_ledger_level"], "227555");
        assert_eq!(r["levels"]["median_level"], "128000");
        assert_eq!(r["drops"]["open_ledger_fee"], "8889");
        assert_eq!(r["drops"]["median_fee"], "5000");
        let closed = FeeReport {
            max_queue_size: Some(6),
            ..report
        };
        assert_eq!(render(&closed)["max_queue_size"], "6");
    }
}
