//! Permissioned DEX stories, after rippled's `PermissionedDEX_test.cpp`: offers and
//! payments carrying a DomainID use only that domain's books (the book key hashes the
//! domain), only members (the domain's owner, or holders of an accepted, unexpired
//! credential it lists) may place them or pay through them, an offer whose owner has
//! left the domain is removed when met, and a tfHybrid offer sits in both its domain's
//! book and the open book (AdditionalBooks).

use crate::support;

use ledgerd::engine::account_set::asf;
use ledgerd::engine::offer_create::tf;
use ledgerd::engine::Ter;
use ledgerd::ledger::flags::lsf_offer;
use ledgerd::ledger::keylet;
use ledgerd::ledger::sf::{sf, StExt};
use ledgerd::protocol::amount::Amount;
use ledgerd::protocol::definitions::Field;
use ledgerd::protocol::features::Feature;
use ledgerd::protocol::st::{PathStep, StValue};
use ledgerd::protocol::types::{Hash256, Issue};
use support::credentials::domain_set;
use support::engine::*;

const CRED: &[u8] = b"abcde";

/// rippled's jtx `PermissionedDEX` fixture: gw issues USD to alice, bob, carol and the
/// domain owner (100 each); the domain accepts (domainOwner, "abcde"), which alice, bob,
/// carol and gw hold.
struct Dex {
    env: Env,
    gw: Account,
    owner: Account,
    alice: Account,
    bob: Account,
    carol: Account,
    domain: Hash256,
}

fn create_cred(subject: &Account) -> Tx {
    Tx::new("CredentialCreate")
        .account("Subject", &subject.id)
        .blob("CredentialType", CRED)
}

fn accept_cred(issuer: &Account) -> Tx {
    Tx::new("CredentialAccept")
        .account("Issuer", &issuer.id)
        .blob("CredentialType", CRED)
}

fn delete_cred(subject: &Account, issuer: &Account) -> Tx {
    Tx::new("CredentialDelete")
        .account("Subject", &subject.id)
        .account("Issuer", &issuer.id)
        .blob("CredentialType", CRED)
}

fn offer(pays: Amount, gets: Amount) -> Tx {
    Tx::new("OfferCreate")
        .amount("TakerPays", pays)
        .amount("TakerGets", gets)
}

fn in_domain(tx: Tx, d: Hash256) -> Tx {
    tx.h256("DomainID", d)
}

/// `path(~X)` steps: one order book into each issue.
fn books(issues: &[Amount]) -> Vec<Vec<PathStep>> {
    vec![issues
        .iter()
        .map(|a| {
            let i = a.issue();
            PathStep {
                account: None,
                currency: Some(i.currency),
                issuer: (!i.is_xrp()).then_some(i.issuer),
            }
        })
        .collect()]
}

/// `who` gets a credential from the domain owner and accepts it.
fn admit(env: &mut Env, owner: &Account, who: &Account) {
    env.apply(owner, create_cred(who), Ter::tesSUCCESS);
    env.apply(who, accept_cred(owner), Ter::tesSUCCESS);
}

/// A domain `owner` creates accepting its own "abcde" credential; returns its ID.
fn new_domain(env: &mut Env, owner: &Account) -> Hash256 {
    let seq = env.seq(owner);
    env.apply(owner, domain_set(&[(owner.id, CRED)]), Ter::tesSUCCESS);
    keylet::permissioned_domain(&owner.id, seq)
}

fn dex() -> Dex {
    dex_in(Env::new())
}

/// [`dex`] under the rule book `env` starts with.
fn dex_in(mut env: Env) -> Dex {
    let [gw, owner, alice, bob, carol] =
        env.funded(["pdxGateway", "pdxOwner", "pdxAlice", "pdxBob", "pdxCarol"]);
    env.apply(&gw, fset(asf::DEFAULT_RIPPLE), Ter::tesSUCCESS);
    let domain = new_domain(&mut env, &owner);
    for who in [&alice, &bob, &carol, &gw] {
        admit(&mut env, &owner, who);
    }
    for who in [&alice, &bob, &carol, &owner] {
        env.apply(who, trust(gw.iou("USD", 1000)), Ter::tesSUCCESS);
        env.apply(&gw, pay(who, gw.iou("USD", 100)), Ter::tesSUCCESS);
    }
    Dex {
        env,
        gw,
        owner,
        alice,
        bob,
        carol,
        domain,
    }
}

fn usd(d: &Dex, n: i64) -> Amount {
    d.gw.iou("USD", n)
}

impl Dex {
    /// `who` places a domain offer; returns its key.
    fn domain_offer(&mut self, who: &Account, pays: Amount, gets: Amount, flags: u32) -> Hash256 {
        let seq = self.env.seq(who);
        let tx = in_domain(offer(pays, gets), self.domain).flags(flags);
        self.env.apply(who, tx, Ter::tesSUCCESS);
        keylet::offer(&who.id, seq)
    }

    /// `who` places an open-book offer; returns its key.
    fn open_offer(&mut self, who: &Account, pays: Amount, gets: Amount) -> Hash256 {
        let seq = self.env.seq(who);
        self.env.apply(who, offer(pays, gets), Ter::tesSUCCESS);
        keylet::offer(&who.id, seq)
    }

    /// alice pays carol `amount` through one book from `send_max`, in the domain.
    fn domain_pay(&mut self, amount: Amount, send_max: Amount, want: Ter) {
        let (alice, carol) = (self.alice.clone(), self.carol.clone());
        let tx = pay(&carol, amount)
            .amount("SendMax", send_max)
            .paths(books(&[amount]));
        self.env.apply(&alice, in_domain(tx, self.domain), want);
    }

    /// The offer's (TakerPays, TakerGets), if it is still there.
    fn amounts(&self, key: &Hash256) -> Option<(Amount, Amount)> {
        let o = self.env.read(key)?;
        Some((o.amount_of(sf().taker_pays)?, o.amount_of(sf().taker_gets)?))
    }

    /// How many offers the book directory page `dir` lists.
    fn page_size(&self, dir: &Hash256) -> usize {
        self.env
            .read(dir)
            .and_then(|p| p.v256_of(sf().indexes).map(|v| v.len()))
            .unwrap_or(0)
    }
}

fn xrp_usd(d: &Dex, domain: Option<&Hash256>) -> Hash256 {
    let usd = Issue {
        currency: cur("USD"),
        issuer: d.gw.id,
    };
    keylet::book_base_in(&Issue::XRP, &usd, domain)
}

#[test]
fn only_members_place_domain_offers() {
    let mut d = dex();
    let devin = Account::new("pdxDevin");
    d.env.fund(&devin, xrp(1000));
    d.env.apply(&devin, trust(usd(&d, 1000)), Ter::tesSUCCESS);
    d.env
        .apply(&d.gw, pay(&devin, usd(&d, 100)), Ter::tesSUCCESS);
    let place = |d: &Dex| in_domain(offer(xrp(10), usd(d, 10)), d.domain);
    d.env.apply(&devin, place(&d), Ter::tecNO_PERMISSION);
    // Issued but not accepted: still outside.
    d.env.apply(&d.owner, create_cred(&devin), Ter::tesSUCCESS);
    d.env.apply(&devin, place(&d), Ter::tecNO_PERMISSION);
    d.env.apply(&devin, accept_cred(&d.owner), Ter::tesSUCCESS);
    d.env.apply(&devin, place(&d), Ter::tesSUCCESS);
    // A domain that does not exist has no members.
    let bad = Hash256([0xF1; 32]);
    let bob = d.bob.clone();
    d.env.apply(
        &bob,
        in_domain(offer(xrp(10), usd(&d, 10)), bad),
        Ter::tecNO_PERMISSION,
    );
    // The domain's owner is always a member.
    let owner = d.owner.clone();
    let o = d.domain_offer(&owner, xrp(10), usd(&d, 10), 0);
    assert!(d.env.read(&o).is_some());
}

#[test]
fn an_expired_credential_no_longer_admits() {
    let mut d = dex();
    let devin = Account::new("pdxDevin");
    d.env.fund(&devin, xrp(1000));
    d.env.apply(&devin, trust(usd(&d, 1000)), Ter::tesSUCCESS);
    d.env
        .apply(&d.gw, pay(&devin, usd(&d, 100)), Ter::tesSUCCESS);
    let expires = d.env.parent_close() + 20;
    d.env.apply(
        &d.owner,
        create_cred(&devin).u32("Expiration", expires),
        Ter::tesSUCCESS,
    );
    d.env.apply(&devin, accept_cred(&d.owner), Ter::tesSUCCESS);
    let k = d.domain_offer(&devin, xrp(10), usd(&d, 10), 0);
    // alice takes half while devin's credential holds.
    d.domain_pay(usd(&d, 5), xrp(5), Ter::tesSUCCESS);
    assert_eq!(d.amounts(&k), Some((xrp(5), usd(&d, 5))));
    d.env.close_after(30);
    let place = in_domain(offer(xrp(10), usd(&d, 10)), d.domain);
    d.env.apply(&devin, place, Ter::tecNO_PERMISSION);
    // His offer is no longer usable: the payment fails and nothing changes.
    d.domain_pay(usd(&d, 5), xrp(5), Ter::tecPATH_PARTIAL);
    assert_eq!(d.amounts(&k), Some((xrp(5), usd(&d, 5))));
}

#[test]
fn a_domain_offer_sits_in_the_domains_book_and_crosses_only_domain_offers() {
    let mut d = dex();
    let (alice, bob, carol) = (d.alice.clone(), d.bob.clone(), d.carol.clone());
    let k = d.domain_offer(&bob, xrp(10), usd(&d, 10), 0);
    let o = d.env.read(&k).expect("placed");
    let s = sf();
    assert_eq!(o.h256_of(s.domain_id), Some(d.domain));
    assert!(o.get(s.additional_books).is_none());
    assert_eq!(o.flags(), 0);
    let dir = o.h256_of(s.book_directory).unwrap();
    let base = xrp_usd(&d, Some(&d.domain));
    assert_eq!(dir.0[..24], base.0[..24], "the domain's XRP/USD book");
    assert_ne!(base, xrp_usd(&d, None));
    let page = d.env.read(&dir).unwrap();
    assert_eq!(page.h256_of(s.domain_id), Some(d.domain));
    assert_eq!(d.env.owner_count(&bob), 3, "line, credential, offer");

    // An open offer does not cross it.
    let c = d.open_offer(&carol, usd(&d, 10), xrp(10));
    assert!(d.env.read(&c).is_some());
    assert_eq!(d.amounts(&k), Some((xrp(10), usd(&d, 10))));
    // A domain offer does, in full.
    let a = d.domain_offer(&alice, usd(&d, 10), xrp(10), 0);
    assert!(d.env.read(&a).is_none() && d.env.read(&k).is_none());
    assert_eq!(d.env.owner_count(&alice), 2);
    assert_eq!(d.page_size(&dir), 0);
}

#[test]
fn sender_and_destination_must_be_members() {
    let mut d = dex();
    let bob = d.bob.clone();
    d.domain_offer(&bob, xrp(10), usd(&d, 10), 0);
    let devin = Account::new("pdxDevin");
    d.env.fund(&devin, xrp(1000));
    d.env.apply(&devin, trust(usd(&d, 1000)), Ter::tesSUCCESS);
    let alice = d.alice.clone();
    let to = |d: &Dex, from_to: &Account| {
        in_domain(
            pay(from_to, usd(d, 10))
                .amount("SendMax", xrp(10))
                .paths(books(&[usd(d, 10)])),
            d.domain,
        )
    };
    d.env.apply(&alice, to(&d, &devin), Ter::tecNO_PERMISSION);
    let from = in_domain(
        pay(&alice, usd(&d, 1))
            .amount("SendMax", xrp(1))
            .paths(books(&[usd(&d, 1)])),
        d.domain,
    );
    d.env.apply(&devin, from, Ter::tecNO_PERMISSION);
    let bad = in_domain(
        pay(&d.carol, usd(&d, 10)).amount("SendMax", xrp(10)),
        Hash256([0xF1; 32]),
    );
    d.env.apply(&alice, bad, Ter::tecNO_PERMISSION);
    admit(&mut d.env, &d.owner.clone(), &devin);
    d.env.apply(&alice, to(&d, &devin), Ter::tesSUCCESS);
    assert_eq!(d.env.iou_balance(&devin, &d.gw, "USD"), val("10"));
    // The domain's owner may always receive.
    d.domain_offer(&bob, xrp(10), usd(&d, 10), 0);
    let owner = d.owner.clone();
    d.env.apply(&alice, to(&d, &owner), Ter::tesSUCCESS);
    assert_eq!(d.env.iou_balance(&owner, &d.gw, "USD"), val("110"));
}

#[test]
fn a_domain_payment_takes_domain_offers_and_leaves_open_ones() {
    let mut d = dex();
    let bob = d.bob.clone();
    let open = d.open_offer(&bob, xrp(10), usd(&d, 10));
    d.domain_pay(usd(&d, 10), xrp(10), Ter::tecPATH_PARTIAL);
    let dom = d.domain_offer(&bob, xrp(10), usd(&d, 10), 0);
    let a = d.env.balance(&d.alice);
    d.domain_pay(usd(&d, 10), xrp(10), Ter::tesSUCCESS);
    assert!(d.env.read(&dom).is_none());
    assert_eq!(d.amounts(&open), Some((xrp(10), usd(&d, 10))));
    assert_eq!(d.env.iou_balance(&d.carol, &d.gw, "USD"), val("110"));
    assert_eq!(d.env.balance(&d.alice), a - 10_000_000 - FEE);
}

#[test]
fn a_domain_payment_through_two_domain_books() {
    let mut d = dex();
    let (alice, bob, carol, gw) = (
        d.alice.clone(),
        d.bob.clone(),
        d.carol.clone(),
        d.gw.clone(),
    );
    for who in [&alice, &bob, &carol] {
        d.env
            .apply(who, trust(gw.iou("EUR", 1000)), Ter::tesSUCCESS);
    }
    d.env
        .apply(&gw, pay(&bob, gw.iou("EUR", 100)), Ter::tesSUCCESS);
    let usd_offer = d.domain_offer(&bob, xrp(10), usd(&d, 10), 0);
    let eur_pay = |d: &Dex, n: i64| {
        in_domain(
            pay(&carol, gw.iou("EUR", n))
                .amount("SendMax", xrp(n))
                .paths(books(&[usd(d, n), gw.iou("EUR", n)])),
            d.domain,
        )
    };
    d.env.apply(&alice, eur_pay(&d, 10), Ter::tecPATH_PARTIAL);
    let open = d.open_offer(&bob, usd(&d, 10), gw.iou("EUR", 10));
    d.env.apply(&alice, eur_pay(&d, 10), Ter::tecPATH_PARTIAL);
    let eur_offer = d.domain_offer(&bob, usd(&d, 10), gw.iou("EUR", 10), 0);
    d.env.apply(&alice, eur_pay(&d, 5), Ter::tesSUCCESS);
    assert_eq!(d.amounts(&usd_offer), Some((xrp(5), usd(&d, 5))));
    assert_eq!(d.amounts(&eur_offer), Some((usd(&d, 5), gw.iou("EUR", 5))));
    assert_eq!(d.amounts(&open), Some((usd(&d, 10), gw.iou("EUR", 10))));
    assert_eq!(d.env.iou_balance(&carol, &gw, "EUR"), val("5"));
}

#[test]
fn another_domains_offers_are_not_used() {
    let mut d = dex();
    let [other_owner, devin] = d.env.funded(["pdxOtherOwner", "pdxDevin"]);
    d.env.apply(&devin, trust(usd(&d, 1000)), Ter::tesSUCCESS);
    d.env
        .apply(&d.gw, pay(&devin, usd(&d, 100)), Ter::tesSUCCESS);
    let other = new_domain(&mut d.env, &other_owner);
    admit(&mut d.env, &other_owner, &devin);
    let seq = d.env.seq(&devin);
    d.env.apply(
        &devin,
        in_domain(offer(xrp(10), usd(&d, 10)), other),
        Ter::tesSUCCESS,
    );
    d.domain_pay(usd(&d, 10), xrp(10), Ter::tecPATH_PARTIAL);
    assert!(d.env.read(&keylet::offer(&devin.id, seq)).is_some());
    let bob = d.bob.clone();
    let k = d.domain_offer(&bob, xrp(10), usd(&d, 10), 0);
    d.domain_pay(usd(&d, 10), xrp(10), Ter::tesSUCCESS);
    assert!(d.env.read(&k).is_none());
}

#[test]
fn a_removed_members_offer_is_removed_by_the_payment_that_meets_it() {
    let mut d = dex();
    let (alice, bob) = (d.alice.clone(), d.bob.clone());
    let a = d.domain_offer(&alice, xrp(100), usd(&d, 100), 0);
    let b = d.domain_offer(&bob, xrp(20), usd(&d, 20), 0);
    let dir = d
        .env
        .read(&b)
        .unwrap()
        .h256_of(sf().book_directory)
        .unwrap();
    assert_eq!(d.page_size(&dir), 2);
    let owner = d.owner.clone();
    d.env
        .apply(&owner, delete_cred(&alice, &owner), Ter::tesSUCCESS);
    let (gw, carol) = (d.gw.clone(), d.carol.clone());
    let tx = pay(&carol, usd(&d, 10))
        .amount("SendMax", xrp(10))
        .paths(books(&[usd(&d, 10)]));
    d.env.apply(&gw, in_domain(tx, d.domain), Ter::tesSUCCESS);
    assert_eq!(d.amounts(&b), Some((xrp(10), usd(&d, 10))));
    assert!(d.env.read(&a).is_none(), "alice's offer removed");
    assert_eq!(d.page_size(&dir), 1);
    assert_eq!(d.env.owner_count(&alice), 1, "the line only");
}

#[test]
fn a_domain_payment_does_not_use_a_pool() {
    let mut d = dex();
    let alice = d.alice.clone();
    let tx = Tx::new("AMMCreate")
        .amount("Amount", xrp(10))
        .amount("Amount2", usd(&d, 50))
        .amount("Fee", Amount::Xrp(2_000_000));
    let mut tx = tx;
    tx.0.set(Field::named("TradingFee"), StValue::UInt16(0));
    d.env.apply(&alice, tx, Ter::tesSUCCESS);
    let (bob, carol) = (d.bob.clone(), d.carol.clone());
    let p = |d: &Dex| {
        pay(&carol, usd(d, 5))
            .amount("SendMax", xrp(5))
            .paths(books(&[usd(d, 5)]))
    };
    d.env
        .apply(&bob, in_domain(p(&d), d.domain), Ter::tecPATH_PARTIAL);
    d.env.apply(&bob, p(&d), Ter::tesSUCCESS);
    assert_eq!(d.env.iou_balance(&carol, &d.gw, "USD"), val("105"));
}

#[test]
fn domain_offers_auto_bridge_through_xrp() {
    let mut d = dex();
    let (alice, bob, carol, gw) = (
        d.alice.clone(),
        d.bob.clone(),
        d.carol.clone(),
        d.gw.clone(),
    );
    for who in [&alice, &bob, &carol] {
        d.env
            .apply(who, trust(gw.iou("EUR", 10000)), Ter::tesSUCCESS);
    }
    d.env
        .apply(&gw, pay(&carol, gw.iou("EUR", 1)), Ter::tesSUCCESS);
    let a = d.domain_offer(&alice, xrp(100), usd(&d, 1), 0);
    let b = d.domain_offer(&bob, gw.iou("EUR", 1), xrp(100), 0);
    let c = d.domain_offer(&carol, usd(&d, 1), gw.iou("EUR", 1), 0);
    assert!(d.env.read(&a).is_none() && d.env.read(&b).is_none() && d.env.read(&c).is_none());
    assert_eq!(d.env.iou_balance(&carol, &gw, "USD"), val("101"));
    assert_eq!(d.env.iou_balance(&bob, &gw, "EUR"), val("1"));
}

#[test]
fn a_non_member_may_still_be_rippled_through() {
    let mut d = dex();
    let (alice, bob, carol) = (d.alice.clone(), d.bob.clone(), d.carol.clone());
    d.env
        .apply(&bob, trust(alice.iou("EUR", 100)), Ter::tesSUCCESS);
    d.env
        .apply(&carol, trust(bob.iou("EUR", 100)), Ter::tesSUCCESS);
    let owner = d.owner.clone();
    d.env
        .apply(&owner, delete_cred(&bob, &owner), Ter::tesSUCCESS);
    let through = |d: &Dex, n: i64| {
        let step = PathStep {
            account: Some(bob.id),
            currency: None,
            issuer: None,
        };
        in_domain(
            pay(&carol, bob.iou("EUR", n))
                .amount("SendMax", alice.iou("EUR", n))
                .paths(vec![vec![step]]),
            d.domain,
        )
    };
    d.env.apply(&alice, through(&d, 10), Ter::tesSUCCESS);
    assert_eq!(d.env.iou_balance(&carol, &bob, "EUR"), val("10"));
}

#[test]
fn a_hybrid_offer_needs_a_domain_and_sits_in_both_books() {
    let mut d = dex();
    let bob = d.bob.clone();
    d.env.apply(
        &bob,
        offer(xrp(10), usd(&d, 10)).flags(tf::HYBRID),
        Ter::temINVALID_FLAG,
    );
    let k = d.domain_offer(&bob, xrp(10), usd(&d, 10), tf::HYBRID);
    let o = d.env.read(&k).unwrap();
    let s = sf();
    assert_eq!(o.flags(), lsf_offer::HYBRID);
    assert_eq!(o.h256_of(s.domain_id), Some(d.domain));
    let dom_dir = o.h256_of(s.book_directory).unwrap();
    assert_eq!(dom_dir.0[..24], xrp_usd(&d, Some(&d.domain)).0[..24]);
    let Some(StValue::Array(extra)) = o.get(s.additional_books) else {
        panic!("AdditionalBooks")
    };
    assert_eq!(extra.len(), 1);
    assert_eq!(extra[0].0, s.book);
    let open_dir = extra[0].1.h256_of(s.book_directory).unwrap();
    assert_eq!(extra[0].1.u64_of(s.book_node), Some(0));
    assert_eq!(open_dir.0[..24], xrp_usd(&d, None).0[..24]);
    assert_eq!(
        keylet::book_quality_of(&open_dir),
        keylet::book_quality_of(&dom_dir)
    );
    let open_page = d.env.read(&open_dir).unwrap();
    assert!(
        open_page.h256_of(s.domain_id).is_none(),
        "the open page has no domain"
    );
    assert_eq!((d.page_size(&dom_dir), d.page_size(&open_dir)), (1, 1));
    assert_eq!(d.env.owner_count(&bob), 3);
    // Cancelling takes it out of both pages.
    d.env.apply(
        &bob,
        Tx::new("OfferCancel").u32("OfferSequence", o.u32_of(s.sequence).unwrap()),
        Ter::tesSUCCESS,
    );
    assert!(d.env.read(&dom_dir).is_none() && d.env.read(&open_dir).is_none());
    assert_eq!(d.env.owner_count(&bob), 2);
}

#[test]
fn open_and_domain_takers_cross_a_hybrid_offer() {
    let mut d = dex();
    let (alice, bob) = (d.alice.clone(), d.bob.clone());
    let k = d.domain_offer(&bob, xrp(10), usd(&d, 10), tf::HYBRID);
    let a = d.open_offer(&alice, usd(&d, 10), xrp(10));
    assert!(d.env.read(&k).is_none() && d.env.read(&a).is_none());
    assert_eq!(d.env.owner_count(&alice), 2);
    let k = d.domain_offer(&bob, xrp(10), usd(&d, 10), tf::HYBRID);
    let a = d.domain_offer(&alice, usd(&d, 10), xrp(10), 0);
    assert!(d.env.read(&k).is_none() && d.env.read(&a).is_none());
    // Both kinds of payment take from it.
    let k = d.domain_offer(&bob, xrp(10), usd(&d, 10), tf::HYBRID);
    d.domain_pay(usd(&d, 5), xrp(5), Ter::tesSUCCESS);
    assert_eq!(d.amounts(&k), Some((xrp(5), usd(&d, 5))));
    let carol = d.carol.clone();
    let tx = pay(&carol, usd(&d, 5))
        .amount("SendMax", xrp(5))
        .paths(books(&[usd(&d, 5)]));
    d.env.apply(&alice, tx, Ter::tesSUCCESS);
    assert!(d.env.read(&k).is_none());
}

#[test]
fn a_hybrid_offer_crosses_only_the_domain_book() {
    let mut d = dex();
    let (alice, bob) = (d.alice.clone(), d.bob.clone());
    let b = d.open_offer(&bob, xrp(10), usd(&d, 10));
    let a = d.domain_offer(&alice, usd(&d, 10), xrp(10), tf::HYBRID);
    assert_eq!(d.amounts(&b), Some((xrp(10), usd(&d, 10))));
    assert_eq!(d.amounts(&a), Some((usd(&d, 10), xrp(10))));
    assert_eq!(d.env.owner_count(&alice), 3);
}

#[test]
fn a_hybrid_offer_of_a_removed_member_is_removed_from_both_books() {
    // Before fixCleanup3_3_0 (rules_cleanup330_amm.rs has it both ways).
    let mut d = dex_in(crate::rules::env_without(&[Feature::FixCleanup3_3_0]));
    let bob = d.bob.clone();
    let k = d.domain_offer(&bob, xrp(50), usd(&d, 50), tf::HYBRID);
    let owner = d.owner.clone();
    d.env
        .apply(&owner, delete_cred(&bob, &owner), Ter::tesSUCCESS);
    d.domain_pay(usd(&d, 5), xrp(5), Ter::tecPATH_PARTIAL);
    let (alice, carol) = (d.alice.clone(), d.carol.clone());
    let open_pay = |d: &Dex| {
        pay(&carol, usd(d, 5))
            .amount("SendMax", xrp(5))
            .paths(books(&[usd(d, 5)]))
    };
    // rippled 2.5: unusable in the open book too.
    d.env.apply(&alice, open_pay(&d), Ter::tecPATH_PARTIAL);
    assert_eq!(d.amounts(&k), Some((xrp(50), usd(&d, 50))));
    let regular = d.open_offer(&bob, xrp(10), usd(&d, 10));
    let o = d.env.read(&k).unwrap();
    let Some(StValue::Array(extra)) = o.get(sf().additional_books) else {
        panic!("AdditionalBooks")
    };
    let open_dir = extra[0].1.h256_of(sf().book_directory).unwrap();
    let dom_dir = o.h256_of(sf().book_directory).unwrap();
    assert_eq!(d.page_size(&open_dir), 2);
    d.env.apply(&alice, open_pay(&d), Ter::tesSUCCESS);
    assert!(d.env.read(&k).is_none());
    assert_eq!(d.amounts(&regular), Some((xrp(5), usd(&d, 5))));
    assert_eq!(d.page_size(&open_dir), 1);
    assert!(d.env.read(&dom_dir).is_none(), "the domain page is gone");
}

#[test]
fn a_deleted_domain_leaves_its_offers_unusable() {
    let mut d = dex();
    let bob = d.bob.clone();
    let k = d.domain_offer(&bob, xrp(10), usd(&d, 10), 0);
    let owner = d.owner.clone();
    d.env.apply(
        &owner,
        Tx::new("PermissionedDomainDelete").h256("DomainID", d.domain),
        Ter::tesSUCCESS,
    );
    d.domain_pay(usd(&d, 5), xrp(5), Ter::tecNO_PERMISSION);
    let place = in_domain(offer(usd(&d, 10), xrp(10)), d.domain);
    d.env.apply(&bob, place, Ter::tecNO_PERMISSION);
    assert!(d.env.read(&k).is_some());
}

#[test]
fn a_crossing_domain_offer_removes_a_removed_members_offer() {
    let mut d = dex();
    let (alice, bob) = (d.alice.clone(), d.bob.clone());
    let b = d.domain_offer(&bob, xrp(10), usd(&d, 10), 0);
    let owner = d.owner.clone();
    d.env
        .apply(&owner, delete_cred(&bob, &owner), Ter::tesSUCCESS);
    // alice's offer finds bob's unusable: it is removed and hers is placed whole.
    let a = d.domain_offer(&alice, usd(&d, 10), xrp(10), 0);
    assert!(d.env.read(&b).is_none(), "bob's offer removed");
    assert_eq!(d.env.owner_count(&bob), 1, "the line only");
    assert_eq!(d.amounts(&a), Some((usd(&d, 10), xrp(10))));
}

#[test]
fn a_killed_taker_still_removes_a_removed_members_offer() {
    let mut d = dex();
    let (alice, carol) = (d.alice.clone(), d.carol.clone());
    let c = d.domain_offer(&carol, xrp(10), usd(&d, 10), 0);
    let owner = d.owner.clone();
    d.env
        .apply(&owner, delete_cred(&carol, &owner), Ter::tesSUCCESS);
    let ioc = in_domain(offer(usd(&d, 10), xrp(10)), d.domain).flags(tf::IMMEDIATE_OR_CANCEL);
    d.env.apply(&alice, ioc, Ter::tecKILLED);
    assert!(
        d.env.read(&c).is_none(),
        "carol's offer removed though the taker was killed"
    );
    assert_eq!(d.env.owner_count(&carol), 1);
}
