//! Custody stories (issue 13), after rippled's `MultiSign_test.cpp` and `Ticket_test.cpp`:
//! signer lists (create, replace, delete, their reserve and malformed forms), multi-signed
//! transactions (fees by signer count, quorum, phantom signers, signers' regular keys, a
//! disabled master key with a signer list as the alternative), and tickets (create, use,
//! reuse, the 250 limit). Each transaction is signed, encoded and decoded as the server
//! receives it; the engine checks every signature.

use crate::support;

use ledgerd::engine::account_set::asf;
use ledgerd::engine::Ter;
use ledgerd::ledger::flags::lsf;
use ledgerd::ledger::keylet;
use ledgerd::ledger::sf::{sf, StExt};
use support::engine::*;

/// 10 XRP base reserve, 2 XRP per owned entry (the standalone defaults).
const RESERVE: i64 = 10_000_000;
const INC: i64 = 2_000_000;

#[test]
fn a_signer_list_is_created_replaced_and_deleted() {
    let mut env = Env::new();
    let [alice] = env.funded(["alice"]);
    let (bogie, demon, ghost) = (
        Account::new("bogie"),
        Account::new("demon"),
        Account::new("ghost"),
    );
    env.apply(
        &alice,
        signer_list(1, &[(&demon, 1), (&bogie, 1)]),
        Ter::tesSUCCESS,
    );
    assert_eq!(
        env.owner_count(&alice),
        1,
        "one owner count per list (MultiSignReserve)"
    );
    let list = env.read(&keylet::signers(&alice.id)).expect("the list");
    let s = sf();
    assert_eq!(list.flags(), lsf::ONE_OWNER_COUNT);
    assert_eq!(list.u32_of(s.signer_quorum), Some(1));
    assert_eq!(list.u32_of(s.signer_list_id), Some(0));
    let listed = ledgerd::engine::account::signer_entries(&list).expect("entries");
    let mut want = vec![bogie.id, demon.id];
    want.sort();
    assert_eq!(
        listed.iter().map(|e| e.account).collect::<Vec<_>>(),
        want,
        "sorted by account"
    );
    assert_eq!(env.owned(&alice), vec![keylet::signers(&alice.id)]);

    // Replacing keeps one owner count; deleting gives it back.
    let three = signer_list(2, &[(&bogie, 1), (&demon, 1), (&ghost, 1)]);
    env.apply(&alice, three, Ter::tesSUCCESS);
    assert_eq!(env.owner_count(&alice), 1);
    let list = env.read(&keylet::signers(&alice.id)).expect("the list");
    assert_eq!(list.u32_of(s.signer_quorum), Some(2));
    env.apply(&alice, signer_list(0, &[]), Ter::tesSUCCESS);
    assert_eq!(env.owner_count(&alice), 0);
    assert!(env.read(&keylet::signers(&alice.id)).is_none());
    assert!(env.owned(&alice).is_empty());
    // Deleting a list that is not there succeeds and changes nothing but the fee.
    env.apply(&alice, signer_list(0, &[]), Ter::tesSUCCESS);
}

#[test]
fn malformed_signer_lists_leave_the_ledger_untouched() {
    let mut env = Env::new();
    let [alice] = env.funded(["alice"]);
    let (bogie, demon) = (Account::new("bogie"), Account::new("demon"));
    let (bal, seq) = (env.balance(&alice), env.seq(&alice));
    let cases = [
        (signer_list(0, &[(&bogie, 1)]), Ter::temMALFORMED),
        (signer_list(1, &[]), Ter::temMALFORMED),
        (
            signer_list(1, &[(&bogie, 1), (&bogie, 2)]),
            Ter::temBAD_SIGNER,
        ),
        (
            signer_list(1, &[(&alice, 1), (&bogie, 1)]),
            Ter::temBAD_SIGNER,
        ),
        (
            signer_list(1, &[(&bogie, 0), (&demon, 1)]),
            Ter::temBAD_WEIGHT,
        ),
        (
            signer_list(3, &[(&bogie, 1), (&demon, 1)]),
            Ter::temBAD_QUORUM,
        ),
        (
            signer_list(1, &[(&bogie, 1)]).flags(1),
            Ter::temINVALID_FLAG,
        ),
    ];
    for (tx, want) in cases {
        env.apply(&alice, tx, want);
    }
    // 33 signers: one more than ExpandedSignerList allows.
    let many: Vec<Account> = (0..33)
        .map(|i| Account::new(&format!("signer {i}")))
        .collect();
    let entries: Vec<(&Account, u16)> = many.iter().map(|a| (a, 1)).collect();
    env.apply(&alice, signer_list(1, &entries), Ter::temMALFORMED);
    env.apply(&alice, signer_list(1, &entries[..32]), Ter::tesSUCCESS);
    assert_eq!(env.owner_count(&alice), 1, "32 signers still count once");
    assert_eq!(
        env.balance(&alice),
        bal - FEE,
        "only the last one was charged"
    );
    assert_eq!(env.seq(&alice), seq + 1);
}

#[test]
fn a_signer_list_needs_the_reserve_of_one_more_entry() {
    let mut env = Env::new();
    let alice = Account::new("alice");
    // The reserve is checked against the balance before the fee.
    env.fund(&alice, drops(RESERVE + INC - 1));
    let bogie = Account::new("bogie");
    env.apply(
        &alice,
        signer_list(1, &[(&bogie, 1)]),
        Ter::tecINSUFFICIENT_RESERVE,
    );
    assert_eq!(env.owner_count(&alice), 0);
    env.fund(&alice, drops(FEE + 1));
    env.apply(&alice, signer_list(1, &[(&bogie, 1)]), Ter::tesSUCCESS);
    assert_eq!(env.owner_count(&alice), 1);
}

#[test]
fn multi_signed_payments_pay_one_fee_per_signer_and_meet_the_quorum() {
    let mut env = Env::new();
    let [alice, carol] = env.funded(["alice", "carol"]);
    // Phantom signers: accounts not in the ledger sign with their own keys.
    let (bogie, demon, ghost) = (
        Account::new("bogie"),
        Account::new("demon"),
        Account::new("ghost"),
    );
    env.apply(
        &alice,
        signer_list(2, &[(&bogie, 1), (&demon, 1), (&ghost, 2)]),
        Ter::tesSUCCESS,
    );

    let before = env.balance(&alice);
    let both = [(&bogie, &bogie.kp), (&demon, &demon.kp)];
    assert_eq!(
        env.submit_multisigned(&alice, &both, pay(&carol, xrp(1))),
        Ter::tesSUCCESS
    );
    assert_eq!(
        env.balance(&alice),
        before - 1_000_000 - 3 * FEE,
        "fee = base x (1 + 2 signers)"
    );
    let one = [(&ghost, &ghost.kp)];
    assert_eq!(
        env.submit_multisigned(&alice, &one, pay(&carol, xrp(1))),
        Ter::tesSUCCESS
    );

    let seq = env.seq(&alice);
    let short = [(&bogie, &bogie.kp)];
    assert_eq!(
        env.submit_multisigned(&alice, &short, pay(&carol, xrp(1))),
        Ter::tefBAD_QUORUM
    );
    let stranger = Account::new("stranger");
    let wrong = [(&bogie, &bogie.kp), (&stranger, &stranger.kp)];
    assert_eq!(
        env.submit_multisigned(&alice, &wrong, pay(&carol, xrp(1))),
        Ter::tefBAD_SIGNATURE
    );
    // A signer listed, but signing with another account's key.
    let forged = [(&bogie, &bogie.kp), (&demon, &stranger.kp)];
    assert_eq!(
        env.submit_multisigned(&alice, &forged, pay(&carol, xrp(1))),
        Ter::tefBAD_SIGNATURE
    );
    // The fee must cover every signer.
    let cheap = pay(&carol, xrp(1)).amount("Fee", drops(2 * FEE));
    assert_eq!(
        env.submit_multisigned(&alice, &both, cheap),
        Ter::telINSUF_FEE_P
    );
    // Carol has no signer list.
    assert_eq!(
        env.submit_multisigned(&carol, &both, pay(&alice, xrp(1))),
        Ter::tefNOT_MULTI_SIGNING
    );
    assert_eq!(env.seq(&alice), seq, "no failure consumed a sequence");
}

#[test]
fn signers_may_use_their_regular_keys_but_not_a_disabled_master() {
    let mut env = Env::new();
    let [alice, bogie, carol] = env.funded(["alice", "bogie", "carol"]);
    let becky = Account::new("becky");
    env.apply(&alice, signer_list(1, &[(&bogie, 1)]), Ter::tesSUCCESS);
    env.apply(&bogie, regular_key(&becky), Ter::tesSUCCESS);
    let by_regular = [(&bogie, &becky.kp)];
    assert_eq!(
        env.submit_multisigned(&alice, &by_regular, pay(&carol, xrp(1))),
        Ter::tesSUCCESS
    );
    let by_master = [(&bogie, &bogie.kp)];
    assert_eq!(
        env.submit_multisigned(&alice, &by_master, pay(&carol, xrp(1))),
        Ter::tesSUCCESS
    );
    env.apply(&bogie, fset(asf::DISABLE_MASTER), Ter::tesSUCCESS);
    assert_eq!(
        env.submit_multisigned(&alice, &by_master, pay(&carol, xrp(1))),
        Ter::tefMASTER_DISABLED
    );
    assert_eq!(
        env.submit_multisigned(&alice, &by_regular, pay(&carol, xrp(1))),
        Ter::tesSUCCESS
    );
}

#[test]
fn a_signer_list_is_an_alternative_to_the_master_key() {
    let mut env = Env::new();
    let [alice, carol] = env.funded(["alice", "carol"]);
    let bogie = Account::new("bogie");
    // Without a regular key or a list the master key cannot be disabled.
    env.apply(
        &alice,
        fset(asf::DISABLE_MASTER),
        Ter::tecNO_ALTERNATIVE_KEY,
    );
    env.apply(&alice, signer_list(1, &[(&bogie, 1)]), Ter::tesSUCCESS);
    env.apply(&alice, fset(asf::DISABLE_MASTER), Ter::tesSUCCESS);
    assert_ne!(env.flags(&alice) & lsf::DISABLE_MASTER, 0);
    assert_eq!(
        env.submit(&alice, pay(&carol, xrp(1))),
        Ter::tefMASTER_DISABLED
    );
    let signers = [(&bogie, &bogie.kp)];
    // The list is then the only way to sign: it may not be deleted...
    assert_eq!(
        env.submit_multisigned(&alice, &signers, signer_list(0, &[])),
        Ter::tecNO_ALTERNATIVE_KEY
    );
    assert!(env.read(&keylet::signers(&alice.id)).is_some());
    // ...until a regular key exists, which the list can set.
    let becky = Account::new("becky");
    assert_eq!(
        env.submit_multisigned(&alice, &signers, regular_key(&becky)),
        Ter::tesSUCCESS
    );
    assert_eq!(
        env.submit_multisigned(&alice, &signers, signer_list(0, &[])),
        Ter::tesSUCCESS
    );
    // Without the list the regular key is the last way to sign: it may not go.
    assert_eq!(
        env.submit_signed(&alice, &becky.kp, ledgerd_tx_remove_regular_key()),
        Ter::tecNO_ALTERNATIVE_KEY
    );
}

fn ledgerd_tx_remove_regular_key() -> Tx {
    Tx::new("SetRegularKey")
}

#[test]
fn tickets_are_created_used_once_and_limited_to_250() {
    let mut env = Env::new();
    let [alice, carol] = env.funded(["alice", "carol"]);
    let seq = env.seq(&alice);
    env.apply(&alice, ticket_create(3), Ter::tesSUCCESS);
    assert_eq!(env.seq(&alice), seq + 4, "Sequence moves past the tickets");
    assert_eq!(env.owner_count(&alice), 3);
    let s = sf();
    let root = env.root(&alice).expect("root");
    assert_eq!(root.u32_of(s.ticket_count), Some(3));
    for t in seq + 1..=seq + 3 {
        let ticket = env.read(&keylet::ticket(&alice.id, t)).expect("ticket");
        assert_eq!(ticket.u32_of(s.ticket_sequence), Some(t));
        assert_eq!(ticket.account_of(s.account), Some(alice.id));
    }

    // Out of order, and the Sequence does not move.
    env.apply(
        &alice,
        with_ticket(pay(&carol, xrp(1)), seq + 2),
        Ter::tesSUCCESS,
    );
    assert!(env.read(&keylet::ticket(&alice.id, seq + 2)).is_none());
    assert_eq!(env.seq(&alice), seq + 4);
    assert_eq!(env.owner_count(&alice), 2);
    env.apply(
        &alice,
        with_ticket(pay(&carol, xrp(1)), seq + 2),
        Ter::tefNO_TICKET,
    );
    env.apply(
        &alice,
        with_ticket(pay(&carol, xrp(1)), seq + 9),
        Ter::terPRE_TICKET,
    );
    env.apply(
        &alice,
        pay(&carol, xrp(1)).u32("TicketSequence", seq + 1),
        Ter::temSEQ_AND_TICKET,
    );
    // A tec still uses its ticket.
    let nobody = Account::new("nobody");
    env.apply(
        &alice,
        with_ticket(pay(&nobody, xrp(1)), seq + 1),
        Ter::tecNO_DST_INSUF_XRP,
    );
    assert!(env.read(&keylet::ticket(&alice.id, seq + 1)).is_none());
    // Multi-signed with a ticket; the last ticket takes TicketCount with it.
    let bogie = Account::new("bogie");
    env.apply(&alice, signer_list(1, &[(&bogie, 1)]), Ter::tesSUCCESS);
    let signers = [(&bogie, &bogie.kp)];
    let ticketed = with_ticket(pay(&carol, xrp(1)), seq + 3);
    assert_eq!(
        env.submit_multisigned(&alice, &signers, ticketed),
        Ter::tesSUCCESS
    );
    let root = env.root(&alice).expect("root");
    assert_eq!(root.u32_of(s.ticket_count), None);
    assert_eq!(env.owner_count(&alice), 1, "only the signer list is left");

    env.apply(&alice, ticket_create(0), Ter::temINVALID_COUNT);
    env.apply(&alice, ticket_create(251), Ter::temINVALID_COUNT);
    env.apply(&alice, ticket_create(250), Ter::tesSUCCESS);
    env.apply(&alice, ticket_create(1), Ter::tecDIR_FULL);
    // A ticketed TicketCreate frees the ticket it uses.
    let first = env.seq(&alice) - 250;
    env.apply(
        &alice,
        with_ticket(ticket_create(1), first),
        Ter::tesSUCCESS,
    );
    assert_eq!(env.owner_count(&alice), 251);
}

#[test]
fn tickets_need_their_reserve() {
    let mut env = Env::new();
    let alice = Account::new("alice");
    env.fund(&alice, drops(RESERVE + 3 * INC - 1));
    env.apply(&alice, ticket_create(3), Ter::tecINSUFFICIENT_RESERVE);
    assert_eq!(env.owner_count(&alice), 0);
    env.apply(&alice, ticket_create(2), Ter::tesSUCCESS);
    assert_eq!(env.owner_count(&alice), 2);
}

#[test]
fn deposit_preauthorization_opens_a_deposit_authorized_account() {
    let mut env = Env::new();
    let [alice, bob, carol] = env.funded(["alice", "bob", "carol"]);
    env.apply(&alice, fset(asf::DEPOSIT_AUTH), Ter::tesSUCCESS);
    env.apply(&bob, pay(&alice, xrp(1)), Ter::tecNO_PERMISSION);
    env.apply(&alice, preauth(&bob), Ter::tesSUCCESS);
    assert_eq!(env.owner_count(&alice), 1);
    let entry = env
        .read(&keylet::deposit_preauth(&alice.id, &bob.id))
        .expect("entry");
    assert_eq!(entry.account_of(sf().authorize), Some(bob.id));
    let before = env.balance(&alice);
    env.apply(&bob, pay(&alice, xrp(1)), Ter::tesSUCCESS);
    assert_eq!(env.balance(&alice), before + 1_000_000);
    env.apply(&carol, pay(&alice, xrp(1)), Ter::tecNO_PERMISSION);
    // Paying oneself is always allowed; so is the account's own deposit-authorized check.
    env.apply(&alice, preauth(&bob), Ter::tecDUPLICATE);
    env.apply(&alice, unpreauth(&bob), Ter::tesSUCCESS);
    assert_eq!(env.owner_count(&alice), 0);
    env.apply(&bob, pay(&alice, xrp(1)), Ter::tecNO_PERMISSION);
    env.apply(&alice, unpreauth(&bob), Ter::tecNO_ENTRY);

    let nobody = Account::new("nobody");
    let cases = [
        (preauth(&alice), Ter::temCANNOT_PREAUTH_SELF),
        (
            preauth(&bob).account("Unauthorize", &carol.id),
            Ter::temMALFORMED,
        ),
        (Tx::new("DepositPreauth"), Ter::temMALFORMED),
        (preauth(&bob).flags(1), Ter::temINVALID_FLAG),
        (preauth(&nobody), Ter::tecNO_TARGET),
    ];
    for (tx, want) in cases {
        env.apply(&alice, tx, want);
    }
}

#[test]
fn a_deposit_authorized_account_is_never_wedged() {
    let mut env = Env::new();
    let [bob] = env.funded(["bob"]);
    let carol = Account::new("carol");
    // After its AccountSet carol holds exactly the base reserve.
    env.fund(&carol, drops(RESERVE + FEE));
    env.apply(&carol, fset(asf::DEPOSIT_AUTH), Ter::tesSUCCESS);
    assert_eq!(env.balance(&carol), RESERVE);
    env.apply(&bob, pay(&carol, drops(RESERVE + 1)), Ter::tecNO_PERMISSION);
    env.apply(&bob, pay(&carol, drops(RESERVE)), Ter::tesSUCCESS);
    env.apply(&bob, pay(&carol, drops(1)), Ter::tecNO_PERMISSION);
}

/// Closes ledgers until `who`'s Sequence is 255 behind the open ledger.
fn close_until_deletable(env: &mut Env, who: &Account) {
    while env.store.current().seq() < env.seq(who) + 255 {
        env.close();
    }
}

#[test]
fn an_account_is_deleted_with_what_it_may_lose_and_its_xrp_goes_on() {
    let mut env = Env::new();
    let [alice, bob] = env.funded(["alice", "bob"]);
    let signer = Account::new("signer");
    env.apply(&alice, signer_list(1, &[(&signer, 1)]), Ter::tesSUCCESS);
    env.apply(&alice, ticket_create(2), Ter::tesSUCCESS);
    env.apply(&alice, preauth(&bob), Ter::tesSUCCESS);
    // An offer goes with the account too (rippled's nonObligationDeleter: offerDelete).
    let offer_seq = env.seq(&alice);
    let offer = Tx::new("OfferCreate")
        .amount("TakerPays", bob.iou("USD", 10))
        .amount("TakerGets", xrp(10));
    env.apply(&alice, offer, Ter::tesSUCCESS);
    let offer_key = keylet::offer(&alice.id, offer_seq);
    let book_dir = env
        .read(&offer_key)
        .expect("offer")
        .h256_of(sf().book_directory);
    assert_eq!(env.owner_count(&alice), 5);
    env.apply(&alice, account_delete(&bob), Ter::tecTOO_SOON);
    close_until_deletable(&mut env, &alice);
    env.apply(
        &alice,
        account_delete(&bob).amount("Fee", drops(FEE)),
        Ter::telINSUF_FEE_P,
    );
    env.apply(&alice, account_delete(&alice), Ter::temDST_IS_SRC);
    env.apply(
        &alice,
        account_delete(&Account::new("nobody")),
        Ter::tecNO_DST,
    );
    // That tec used a sequence number: 256 more ledgers.
    env.apply(&alice, account_delete(&bob), Ter::tecTOO_SOON);
    close_until_deletable(&mut env, &alice);
    let (left, bob_before) = (env.balance(&alice), env.balance(&bob));
    env.apply(&alice, account_delete(&bob), Ter::tesSUCCESS);
    assert!(env.root(&alice).is_none(), "the account is gone");
    assert_eq!(env.balance(&bob), bob_before + left - 2_000_000);
    assert!(env.owned(&alice).is_empty());
    assert!(env.read(&keylet::owner_dir(&alice.id)).is_none());
    assert!(env.read(&keylet::signers(&alice.id)).is_none());
    assert!(env.read(&offer_key).is_none(), "the offer is gone");
    assert!(
        env.read(&book_dir.expect("book directory")).is_none(),
        "and its book page with it"
    );
    assert!(env
        .read(&keylet::deposit_preauth(&alice.id, &bob.id))
        .is_none());
    let meta = env.last_meta.clone().expect("meta");
    let delivered = meta.amount_of(sf().delivered_amount);
    assert_eq!(delivered, Some(drops(left - 2_000_000)));
    // Paid again, it comes back with a new Sequence: the current ledger's.
    env.fund(&alice, xrp(100));
    assert_eq!(env.seq(&alice), env.store.current().seq());
}

#[test]
fn obligations_and_the_destination_block_account_deletion() {
    let mut env = Env::new();
    let [gw, alice, bob, carol] = env.funded(["gateway", "alice", "bob", "carol"]);
    env.apply(&alice, trust(gw.iou("USD", 100)), Ter::tesSUCCESS);
    env.apply(&carol, fset(asf::REQUIRE_DEST), Ter::tesSUCCESS);
    env.apply(&bob, fset(asf::DEPOSIT_AUTH), Ter::tesSUCCESS);
    close_until_deletable(&mut env, &alice);
    env.apply(&alice, account_delete(&gw), Ter::tecHAS_OBLIGATIONS);
    env.apply(&gw, account_delete(&carol), Ter::tecDST_TAG_NEEDED);
    env.apply(&gw, account_delete(&bob), Ter::tecNO_PERMISSION);
    let zero = trust(gw.iou("USD", 0)).flags(ledgerd::engine::trust_set::tf::SET_NO_RIPPLE);
    env.apply(&alice, zero, Ter::tesSUCCESS);
    assert!(env.line(&alice, &gw, "USD").is_none(), "the line is gone");
    env.apply(&bob, preauth(&alice), Ter::tesSUCCESS);
    close_until_deletable(&mut env, &alice);
    env.apply(&alice, account_delete(&bob), Ter::tesSUCCESS);
    assert!(env.root(&alice).is_none());
}

#[test]
fn clawback_takes_back_what_a_holder_holds() {
    let mut env = Env::new();
    let [gw, alice, other] = env.funded(["gateway", "alice", "other"]);
    // Only with an empty owner directory, and never with NoFreeze.
    env.apply(&other, trust(gw.iou("USD", 10)), Ter::tesSUCCESS);
    env.apply(&other, fset(asf::ALLOW_TRUSTLINE_CLAWBACK), Ter::tecOWNERS);
    env.apply(&gw, clawback(alice.iou("USD", 1)), Ter::tecNO_PERMISSION);
    env.apply(&gw, fset(asf::ALLOW_TRUSTLINE_CLAWBACK), Ter::tecOWNERS);
    let [issuer] = env.funded(["issuer"]);
    env.apply(
        &issuer,
        fset(asf::ALLOW_TRUSTLINE_CLAWBACK),
        Ter::tesSUCCESS,
    );
    env.apply(&issuer, fset(asf::NO_FREEZE), Ter::tecNO_PERMISSION);
    env.apply(
        &issuer,
        fclear(asf::ALLOW_TRUSTLINE_CLAWBACK),
        Ter::tesSUCCESS,
    );
    assert_ne!(
        env.flags(&issuer) & lsf::ALLOW_TRUSTLINE_CLAWBACK,
        0,
        "never cleared"
    );

    env.apply(&issuer, clawback(alice.iou("USD", 1)), Ter::tecNO_LINE);
    env.apply(&alice, trust(issuer.iou("USD", 1000)), Ter::tesSUCCESS);
    env.apply(
        &issuer,
        clawback(alice.iou("USD", 1)),
        Ter::tecINSUFFICIENT_FUNDS,
    );
    env.apply(
        &issuer,
        pay(&alice, issuer.iou("USD", 100)),
        Ter::tesSUCCESS,
    );
    env.apply(&issuer, clawback(alice.iou("USD", 30)), Ter::tesSUCCESS);
    assert_eq!(env.iou_balance(&alice, &issuer, "USD"), val("70"));
    // More than is held takes what is held.
    env.apply(&issuer, clawback(alice.iou("USD", 1000)), Ter::tesSUCCESS);
    assert_eq!(env.iou_balance(&alice, &issuer, "USD"), val("0"));
    env.apply(
        &issuer,
        clawback(alice.iou("USD", 1)),
        Ter::tecINSUFFICIENT_FUNDS,
    );

    let cases = [
        (clawback(xrp(1)), Ter::temBAD_AMOUNT),
        (clawback(issuer.iou("USD", 1)), Ter::temBAD_AMOUNT),
        (clawback(alice.iou("USD", 0)), Ter::temBAD_AMOUNT),
        (clawback(alice.iou("USD", -5)), Ter::temBAD_AMOUNT),
        (clawback(alice.iou("USD", 1)).flags(1), Ter::temINVALID_FLAG),
    ];
    for (tx, want) in cases {
        env.apply(&issuer, tx, want);
    }
}
