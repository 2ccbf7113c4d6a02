//! TxQ_test `testQueueTicket` ("queue ticket"), minimum 3: ticketed transactions leave
//! the queue highest fee first even within one account, queue in any order, and mix
//! with Sequence-based ones; what the full queue refused comes back from the local
//! transactions.

use super::env::*;
use crate::support::engine::{ticket_create, xrp};
use ledgerd::engine::Ter;

const QUEUED: Ter = Ter::terQUEUED;

#[test]
fn queue_ticket() {
    let mut t = TxqEnv::new(3);
    let base = t.base_fee();
    t.check(0, None, 0, 3);
    let [alice] = t.fund(xrp(50_000), ["alice"]);
    for _ in 0..3 {
        t.expect(&alice, noop(), Ter::tesSUCCESS);
    }
    t.check(0, None, 4, 3);

    // The TicketCreate is queued, so no ticket can be used yet.
    let tkt1 = t.seq(&alice) + 1;
    t.expect(&alice, seq(ticket_create(250), tkt1 - 1), QUEUED);
    t.expect(&alice, ticket(noop(), tkt1 - 2), Ter::tefNO_TICKET);
    t.expect(&alice, ticket(noop(), tkt1 - 1), Ter::terPRE_TICKET);
    assert_eq!(t.env.owner_count(&alice), 0);
    t.check(1, None, 4, 3);
    t.close();
    assert_eq!(t.env.owner_count(&alice), 250);
    t.check(0, Some(8), 1, 4);
    assert_eq!(t.seq(&alice), tkt1 + 250);

    // Ticketed transactions leave the queue highest fee first.
    let tenths = |n: i64| base * n / 10;
    for n in 1..=4 {
        t.expect(
            &alice,
            ticket(fee(noop(), tenths(10 + n as i64)), tkt1 + n),
            Ter::tesSUCCESS,
        );
    }
    t.expect(&alice, ticket(fee(noop(), tenths(15)), tkt1 + 5), QUEUED);
    let min_level = t.queued_level(&alice) + 1;
    for n in 6..=12 {
        t.expect(
            &alice,
            ticket(fee(noop(), tenths(10 + n as i64)), tkt1 + n),
            QUEUED,
        );
    }
    let full = Ter::telCAN_NOT_QUEUE_FULL;
    t.expect(&alice, ticket(fee(noop(), tenths(23)), tkt1 + 13), full);
    t.check_levels(8, Some(8), 5, 4, min_level, MEDIAN);

    // Which went where, by trying to replace them: tefNO_TICKET when used,
    // telCAN_NOT_QUEUE_FEE when still queued.
    t.close();
    assert_eq!(t.env.owner_count(&alice), 240);
    let used = Ter::tefNO_TICKET;
    let waiting = Ter::telCAN_NOT_QUEUE_FEE;
    let probe = |t: &mut TxqEnv, n: u32, want: Ter| t.expect(&alice, ticket(noop(), n), want);
    for n in 1..=4 {
        probe(&mut t, tkt1 + n, used);
    }
    probe(&mut t, tkt1 + 5, waiting);
    probe(&mut t, tkt1 + 6, waiting);
    for n in 7..=12 {
        probe(&mut t, tkt1 + n, used);
    }
    // The one the full queue refused came back from the local transactions.
    probe(&mut t, tkt1 + 13, waiting);
    t.check(3, Some(10), 6, 5);

    // Sequence-based ones join the account's queued tickets.
    let next = t.seq(&alice);
    t.expect(&alice, seq(noop(), next + 1), Ter::terPRE_SEQ);
    t.expect(&alice, seq(noop(), next - 1), Ter::tefPAST_SEQ);
    t.expect(&alice, seq(noop(), next), QUEUED);
    for n in 1..=6 {
        t.expect(&alice, seq(noop(), next + n), QUEUED);
    }
    t.expect(&alice, seq(noop(), next + 7), full);
    t.check_levels(10, Some(10), 6, 5, 257, MEDIAN);

    t.close();
    assert_eq!(t.env.owner_count(&alice), 237);
    // The three tickets went first (the highest fees), then four by Sequence.
    for n in [4, 5, 12, 13] {
        probe(&mut t, tkt1 + n, used);
    }
    let by_seq = |t: &mut TxqEnv, n: u32, want: Ter| t.expect(&alice, seq(noop(), n), want);
    for n in 1..=3 {
        by_seq(&mut t, next + n, Ter::tefPAST_SEQ);
    }
    for n in 4..=7 {
        by_seq(&mut t, next + n, waiting);
    }
    t.check(4, Some(12), 7, 6);
    assert_eq!(t.seq(&alice), next + 4);

    // Tickets queue in any order.
    let tkt250 = tkt1 + 249;
    let order = [
        (tkt250, 30),
        (tkt1 + 14, 29),
        (tkt250 - 1, 28),
        (tkt1 + 15, 27),
        (tkt250 - 2, 26),
        (tkt1 + 16, 25),
    ];
    for (n, f) in order {
        t.expect(&alice, ticket(fee(noop(), tenths(f)), n), QUEUED);
    }
    for (n, f) in [
        (tkt250 - 3, 24),
        (tkt1 + 17, 23),
        (tkt250 - 4, 22),
        (tkt1 + 18, 21),
    ] {
        t.expect(&alice, ticket(fee(noop(), tenths(f)), n), full);
    }
    t.check(10, Some(12), 7, 6);

    t.close();
    assert_eq!(t.env.owner_count(&alice), 231);
    for n in [tkt1 + 14, tkt1 + 15, tkt1 + 16] {
        probe(&mut t, n, used);
    }
    // These four came into the queue from the local transactions.
    for n in [tkt250 - 3, tkt1 + 17, tkt250 - 4, tkt1 + 18] {
        probe(&mut t, n, waiting);
    }
    for n in [tkt250 - 2, tkt250 - 1, tkt250] {
        probe(&mut t, n, used);
    }
    by_seq(&mut t, next + 4, Ter::tefPAST_SEQ);
    by_seq(&mut t, next + 5, Ter::tefPAST_SEQ);
    by_seq(&mut t, next + 6, waiting);
    by_seq(&mut t, next + 7, waiting);
    assert_eq!(t.seq(&alice), next + 6);
    t.check(6, Some(14), 8, 7);

    // Replacing the two cheapest queued tickets takes over 125% of their fee.
    let replace = |t: &mut TxqEnv, n: u32, drops: i64, want: Ter| {
        t.expect(&alice, ticket(fee(noop(), drops), n), want)
    };
    replace(&mut t, tkt1 + 18, 25, waiting); // 21 * 1.25 - 1
    replace(&mut t, tkt1 + 18, 27, QUEUED); // 21 * 1.25 + 1
    replace(&mut t, tkt250 - 4, 26, waiting); // 22 * 1.25 - 1
    replace(&mut t, tkt250 - 4, 28, QUEUED); // 22 * 1.25 + 1

    t.close();
    assert_eq!(t.env.owner_count(&alice), 227);
    probe(&mut t, tkt1 + 18, used);
    probe(&mut t, tkt250 - 4, used);
    for n in 4..=7 {
        by_seq(&mut t, next + n, Ter::tefPAST_SEQ);
    }
    assert_eq!(t.seq(&alice), next + 8);
    t.check(0, Some(16), 6, 8);
}
