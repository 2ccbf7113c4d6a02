//! The queue stories' environment (rippled TxQ_test's `Env` with `makeConfig`,
//! `checkMetrics`, `openLedgerCost`, `fillQueue`, `txFeeLevelByAccount`): accounts
//! funded from the genesis account, transactions signed with a chosen fee and sequence
//! and submitted through the queue's door, the figures read from `fee_report()` and
//! `queued_all()`.

use std::sync::Arc;

use crate::support::engine::{account_set, pay, with_ticket, Account, Env, Tx};
use ledgerd::engine::Ter;
use ledgerd::ledger::fees::Fees;
use ledgerd::ledgers::txq::{to_drops, TxQSetup, BASE_LEVEL};
use ledgerd::ledgers::{ApplyResult, LedgerConfig};
use ledgerd::protocol::amount::Amount;
use ledgerd::protocol::codec;
use ledgerd::protocol::tx::transaction_id;

/// rippled's least escalation multiplier (`256 * 500`), the median level of a ledger
/// that paid the base fee.
pub const MEDIAN: u64 = BASE_LEVEL * 500;

/// rippled TxQ_test's `makeConfig`: `ledgers_in_queue` 2, `minimum_queue_size` 2,
/// `retry_sequence_percent` 25, `normal_consensus_increase_percent` 0, and the test's
/// `minimum_txn_in_ledger_standalone`.
pub fn setup(minimum_txn_in_ledger_standalone: u64) -> TxQSetup {
    TxQSetup {
        ledgers_in_queue: 2,
        minimum_queue_size: 2,
        retry_sequence_percent: 25,
        normal_consensus_increase_percent: 0,
        minimum_txn_in_ledger_standalone,
        ..TxQSetup::default()
    }
}

/// A noop (`noop(account)`: an AccountSet that sets nothing).
pub fn noop() -> Tx {
    account_set()
}

/// `tx` paying `drops` (`fee(...)`).
pub fn fee(tx: Tx, drops: i64) -> Tx {
    tx.amount("Fee", Amount::Xrp(drops))
}

/// `tx` with Sequence `n` (`seq(...)`).
pub fn seq(tx: Tx, n: u32) -> Tx {
    tx.u32("Sequence", n)
}

/// `tx` with a ticket (`ticket::use(...)`).
pub fn ticket(tx: Tx, n: u32) -> Tx {
    with_ticket(tx, n)
}

/// `tx` with LastLedgerSequence `n`.
pub fn last_ledger(tx: Tx, n: u32) -> Tx {
    tx.u32("LastLedgerSequence", n)
}

/// The store, submitting through the queue.
pub struct TxqEnv {
    pub env: Env,
}

/// rippled's `checkMetrics` arguments: queued, the queue's limit, in the open ledger,
/// expected per ledger, the minimum level to queue, the median level.
#[derive(Debug, PartialEq, Eq)]
pub struct Metrics {
    pub queued: u64,
    pub max: Option<u64>,
    pub in_ledger: u64,
    pub per_ledger: u64,
    pub min_level: u64,
    pub median_level: u64,
}

impl TxqEnv {
    /// `Env env(*this, makeConfig({{"minimum_txn_in_ledger_standalone", N}}))`.
    pub fn new(minimum_txn_in_ledger_standalone: u64) -> TxqEnv {
        TxqEnv::with(setup(minimum_txn_in_ledger_standalone), Fees::default())
    }

    /// With the queue's settings and the ledger's fees (rippled's `initFee` votes
    /// reserves down past a flag ledger; here the genesis ledger has them).
    pub fn with(tx_queue: TxQSetup, fees: Fees) -> TxqEnv {
        let mut cfg = LedgerConfig {
            tx_queue,
            fees,
            ..LedgerConfig::default()
        };
        cfg.apply.signature_check = Some(Arc::new(ledgerd::engine::transactor::verify_signature));
        TxqEnv {
            env: Env::with_config(cfg),
        }
    }

    /// The base fee, in drops.
    pub fn base_fee(&self) -> i64 {
        self.env.store.fees().base_drops as i64
    }

    /// `who`'s Sequence in the open ledger.
    pub fn seq(&self, who: &Account) -> u32 {
        self.env.seq(who)
    }

    /// `who`'s XRP, in drops.
    pub fn balance(&self, who: &Account) -> i64 {
        self.env.balance(who)
    }

    /// Signs `tx` for `who` (its Sequence and the base fee unless `tx` has them) and
    /// submits it through the queue's door.
    pub fn submit(&mut self, who: &Account, tx: Tx) -> ApplyResult {
        let o = tx.signed(&who.id, self.seq(who), self.base_fee(), &who.kp);
        let blob = codec::encode(&o);
        let decoded = codec::decode(&blob).expect("decodes");
        let id = transaction_id(&blob);
        let blob: Arc<[u8]> = Arc::from(blob.as_slice());
        self.env
            .store
            .apply_submitted(&Arc::new(decoded), &blob, id, false)
    }

    /// Submits and asserts the result (`terQUEUED` for a queued one).
    #[track_caller]
    pub fn expect(&mut self, who: &Account, tx: Tx, want: Ter) {
        let r = self.submit(who, tx);
        assert_eq!(
            r.ter, want,
            "{}: {} where rippled says {}",
            who.name, r.ter, want
        );
        assert_eq!(r.queued, want == Ter::terQUEUED, "{}: queued", who.name);
    }

    /// `env.fund(amount, noripple(names...))`: one payment each from the genesis account,
    /// through the door.
    #[track_caller]
    pub fn fund<const N: usize>(&mut self, amount: Amount, names: [&str; N]) -> [Account; N] {
        names.map(|name| {
            let a = Account::new(name);
            let master = self.env.master.clone();
            self.expect(&master, pay(&a, amount), Ter::tesSUCCESS);
            a
        })
    }

    /// `env.close()`.
    pub fn close(&mut self) {
        self.env.close();
    }

    /// `env.close(env.now() + 5s, 10000ms)`: a slow consensus round.
    pub fn close_slow(&mut self) {
        self.env.store.next_close_is_slow();
        self.env.close();
    }

    /// The open ledger's sequence.
    pub fn open_seq(&self) -> u32 {
        self.env.store.current().seq()
    }

    /// The figures `checkMetrics` reads.
    pub fn metrics(&self) -> Metrics {
        let r = self.env.store.fee_report();
        Metrics {
            queued: r.current_queue_size,
            max: r.max_queue_size,
            in_ledger: r.current_ledger_size,
            per_ledger: r.expected_ledger_size,
            min_level: r.minimum_level,
            median_level: r.median_level,
        }
    }

    /// rippled's `checkMetrics`, the median the least escalation multiplier.
    #[track_caller]
    pub fn check(&self, queued: u64, max: Option<u64>, in_ledger: u64, per_ledger: u64) {
        self.check_levels(queued, max, in_ledger, per_ledger, BASE_LEVEL, MEDIAN);
    }

    /// rippled's `checkMetrics` with its levels; the open ledger level follows from them
    /// as rippled's check computes it.
    #[track_caller]
    pub fn check_levels(
        &self,
        queued: u64,
        max: Option<u64>,
        in_ledger: u64,
        per_ledger: u64,
        min_level: u64,
        median_level: u64,
    ) {
        let want = Metrics {
            queued,
            max,
            in_ledger,
            per_ledger,
            min_level,
            median_level,
        };
        assert_eq!(self.metrics(), want);
        let open_level = if in_ledger > per_ledger {
            median_level * in_ledger * in_ledger / (per_ledger * per_ledger)
        } else {
            BASE_LEVEL
        };
        assert_eq!(self.env.store.fee_report().open_ledger_level, open_level);
    }

    /// rippled's `openLedgerCost`: the open ledger level's drops, plus one.
    pub fn open_ledger_cost(&self) -> i64 {
        let level = self.env.store.fee_report().open_ledger_level;
        to_drops(level, self.base_fee().max(1) as u64) as i64 + 1
    }

    /// rippled's `txFeeLevelByAccount`: the level of `who`'s first queued transaction.
    pub fn queued_level(&self, who: &Account) -> u64 {
        self.env
            .store
            .queued_of(&who.id)
            .first()
            .map(|(q, _)| q.tx.fee_level)
            .expect("a queued transaction")
    }

    /// rippled's `fillQueue`: noops of `who` until the open ledger is one past its
    /// expected size.
    #[track_caller]
    pub fn fill_ledger(&mut self, who: &Account) {
        let m = self.metrics();
        for _ in m.in_ledger..=m.per_ledger {
            self.expect(who, noop(), Ter::tesSUCCESS);
        }
    }
}

/// An OfferCreate (`offer(account, pays, gets)`).
pub fn offer(pays: Amount, gets: Amount) -> Tx {
    Tx::new("OfferCreate")
        .amount("TakerPays", pays)
        .amount("TakerGets", gets)
}

/// An OfferCancel of the offer created with Sequence `n`.
pub fn offer_cancel(n: u32) -> Tx {
    Tx::new("OfferCancel").u32("OfferSequence", n)
}

/// `testExpirationReplacement`'s and `testFullQueueGapFill`'s start: minimum 1,
/// `ledgers_in_queue` 10, the account limit given; alice and bob funded with 500,000 XRP
/// in ledger 3.
pub fn alice_and_bob(maximum_txn_per_account: u64) -> (TxqEnv, Account, Account) {
    let mut s = setup(1);
    s.ledgers_in_queue = 10;
    s.maximum_txn_per_account = maximum_txn_per_account;
    let mut t = TxqEnv::with(s, Fees::default());
    let [alice, bob] = t.fund(crate::support::engine::xrp(500_000), ["alice", "bob"]);
    t.check(0, None, 2, 1);
    assert_eq!(t.open_seq(), 3);
    (t, alice, bob)
}
