//! Credential stories, after rippled's `Credentials_test.cpp`: an issuer creates a
//! Credential about a subject (owned by the issuer, in both owner directories), the subject
//! accepts it (the owner count moves to the subject), either deletes it, anyone deletes it
//! once expired; every malformed form and failure with rippled's code.

use crate::support;

use ledgerd::engine::Ter;
use ledgerd::ledger::flags::{lsf_credential, lt};
use ledgerd::ledger::keylet;
use ledgerd::ledger::sf::{sf, StExt};
use ledgerd::protocol::types::{AccountId, Hash256};
use support::credentials::{accept, create};
use support::engine::*;

const KYC: &[u8] = b"KYC";

fn delete(subject: Option<&AccountId>, issuer: Option<&AccountId>, t: &[u8]) -> Tx {
    let mut tx = Tx::new("CredentialDelete").blob("CredentialType", t);
    if let Some(s) = subject {
        tx = tx.account("Subject", s);
    }
    if let Some(i) = issuer {
        tx = tx.account("Issuer", i);
    }
    tx
}

fn key(subject: &Account, issuer: &Account, t: &[u8]) -> Hash256 {
    keylet::credential(&subject.id, &issuer.id, t)
}

#[test]
fn issuer_creates_subject_accepts_and_the_owner_count_moves() {
    let mut env = Env::new();
    let [issuer, subject] = env.funded(["crIssuer", "crSubject"]);
    let uri = b"https://example.com/kyc";
    env.apply(
        &issuer,
        create(&subject.id, KYC).blob("URI", uri),
        Ter::tesSUCCESS,
    );
    let k = key(&subject, &issuer, KYC);
    let s = sf();
    let cred = env.read(&k).expect("the Credential");
    assert_eq!(cred.u16_of(s.ledger_entry_type), Some(lt::CREDENTIAL));
    assert_eq!(cred.account_of(s.subject), Some(subject.id));
    assert_eq!(cred.account_of(s.issuer), Some(issuer.id));
    assert_eq!(cred.blob_of(s.credential_type), Some(KYC));
    assert_eq!(cred.blob_of(s.uri), Some(&uri[..]));
    assert_eq!(cred.flags(), 0, "not accepted yet");
    assert_eq!(cred.h256_of(s.previous_txn_id), env.last_id, "threaded");
    assert!(cred.u64_of(s.issuer_node).is_some() && cred.u64_of(s.subject_node).is_some());
    // In both directories, owned by the issuer.
    assert!(env.owned(&issuer).contains(&k) && env.owned(&subject).contains(&k));
    assert_eq!(
        (env.owner_count(&issuer), env.owner_count(&subject)),
        (1, 0)
    );

    env.apply(&subject, accept(&issuer.id, KYC), Ter::tesSUCCESS);
    let cred = env.read(&k).unwrap();
    assert!(cred.is_flag(lsf_credential::ACCEPTED));
    assert_eq!(
        (env.owner_count(&issuer), env.owner_count(&subject)),
        (0, 1)
    );
    env.apply(&subject, accept(&issuer.id, KYC), Ter::tecDUPLICATE);

    // The subject deletes it: gone from both directories, the count back to zero.
    env.apply(
        &subject,
        delete(None, Some(&issuer.id), KYC),
        Ter::tesSUCCESS,
    );
    assert!(env.read(&k).is_none());
    assert!(env.owned(&issuer).is_empty() && env.owned(&subject).is_empty());
    assert_eq!(
        (env.owner_count(&issuer), env.owner_count(&subject)),
        (0, 0)
    );
}

#[test]
fn a_credential_issued_to_oneself_is_accepted_at_once() {
    let mut env = Env::new();
    let [issuer] = env.funded(["crSelf"]);
    env.apply(&issuer, create(&issuer.id, KYC), Ter::tesSUCCESS);
    let k = key(&issuer, &issuer, KYC);
    let cred = env.read(&k).unwrap();
    assert!(cred.is_flag(lsf_credential::ACCEPTED));
    assert!(
        cred.u64_of(sf().subject_node).is_none(),
        "one directory only"
    );
    assert_eq!(env.owner_count(&issuer), 1);
    assert_eq!(env.owned(&issuer), vec![k]);
    env.apply(&issuer, accept(&issuer.id, KYC), Ter::tecDUPLICATE);
    // Both fields default to the sender.
    env.apply(
        &issuer,
        delete(Some(&issuer.id), None, KYC),
        Ter::tesSUCCESS,
    );
    assert_eq!(env.owner_count(&issuer), 0);
    assert!(env.owned(&issuer).is_empty());
}

#[test]
fn the_issuer_deletes_before_or_after_acceptance() {
    let mut env = Env::new();
    let [issuer, subject] = env.funded(["crIss2", "crSub2"]);
    env.apply(&issuer, create(&subject.id, KYC), Ter::tesSUCCESS);
    env.apply(
        &issuer,
        delete(Some(&subject.id), None, KYC),
        Ter::tesSUCCESS,
    );
    assert_eq!(
        (env.owner_count(&issuer), env.owner_count(&subject)),
        (0, 0)
    );
    env.apply(&issuer, create(&subject.id, KYC), Ter::tesSUCCESS);
    env.apply(&subject, accept(&issuer.id, KYC), Ter::tesSUCCESS);
    env.apply(
        &issuer,
        delete(Some(&subject.id), None, KYC),
        Ter::tesSUCCESS,
    );
    assert_eq!(
        (env.owner_count(&issuer), env.owner_count(&subject)),
        (0, 0)
    );
    assert!(env.owned(&subject).is_empty());
}

#[test]
fn a_third_account_deletes_only_an_expired_credential() {
    let mut env = Env::new();
    let [issuer, subject, other] = env.funded(["crIss3", "crSub3", "crOther3"]);
    let exp = env.parent_close() + 20;
    env.apply(
        &issuer,
        create(&subject.id, KYC).u32("Expiration", exp),
        Ter::tesSUCCESS,
    );
    assert_eq!(
        env.read(&key(&subject, &issuer, KYC))
            .unwrap()
            .u32_of(sf().expiration),
        Some(exp)
    );
    let by_other = || delete(Some(&subject.id), Some(&issuer.id), KYC);
    env.apply(&other, by_other(), Ter::tecNO_PERMISSION);
    // At the expiration it is still valid (expired means strictly after).
    env.close_after(20);
    assert_eq!(env.parent_close(), exp);
    env.apply(&other, by_other(), Ter::tecNO_PERMISSION);
    env.close();
    env.apply(&other, by_other(), Ter::tesSUCCESS);
    assert_eq!(
        (env.owner_count(&issuer), env.owner_count(&subject)),
        (0, 0)
    );
    env.apply(&other, by_other(), Ter::tecNO_ENTRY);
}

#[test]
fn create_refuses_malformed_and_impossible_credentials() {
    let mut env = Env::new();
    let [issuer, subject] = env.funded(["crIss4", "crSub4"]);
    env.apply(&issuer, create(&AccountId::ZERO, KYC), Ter::temMALFORMED);
    env.apply(&issuer, create(&subject.id, b""), Ter::temMALFORMED);
    env.apply(&issuer, create(&subject.id, &[b'a'; 65]), Ter::temMALFORMED);
    env.apply(&issuer, create(&subject.id, &[b'a'; 64]), Ter::tesSUCCESS);
    env.apply(
        &issuer,
        create(&subject.id, KYC).blob("URI", b""),
        Ter::temMALFORMED,
    );
    env.apply(
        &issuer,
        create(&subject.id, KYC).blob("URI", &[b'u'; 257]),
        Ter::temMALFORMED,
    );
    // Flags beyond the universal ones, under fixInvalidTxFlags (without it: rules.rs).
    env.apply(
        &issuer,
        create(&subject.id, b"flagged").flags(0x0001_0000),
        Ter::temINVALID_FLAG,
    );
    let ghost = Account::new("crGhost");
    env.apply(&issuer, create(&ghost.id, KYC), Ter::tecNO_TARGET);
    let past = env.parent_close() - 1;
    env.apply(
        &issuer,
        create(&subject.id, KYC).u32("Expiration", past),
        Ter::tecEXPIRED,
    );
    env.apply(&issuer, create(&subject.id, KYC), Ter::tesSUCCESS);
    env.apply(&issuer, create(&subject.id, KYC), Ter::tecDUPLICATE);
    assert_eq!(env.owner_count(&issuer), 2);
}

#[test]
fn create_and_accept_need_the_reserve_of_their_owner() {
    let mut env = Env::new();
    let [subject] = env.funded(["crSub5"]);
    let poor = Account::new("crPoor");
    // The account reserve plus the fees, not one owner reserve more.
    env.fund(&poor, drops(10_000_000 + 3 * FEE));
    env.apply(
        &poor,
        create(&subject.id, KYC),
        Ter::tecINSUFFICIENT_RESERVE,
    );
    assert_eq!(env.owner_count(&poor), 0);
    // Accepting moves the reserve to the subject: a poor subject cannot.
    env.apply(&subject, create(&poor.id, KYC), Ter::tesSUCCESS);
    env.apply(
        &poor,
        accept(&subject.id, KYC),
        Ter::tecINSUFFICIENT_RESERVE,
    );
    assert_eq!((env.owner_count(&subject), env.owner_count(&poor)), (1, 0));
}

#[test]
fn accept_refuses_what_is_not_there_and_deletes_what_expired() {
    let mut env = Env::new();
    let [issuer, subject] = env.funded(["crIss6", "crSub6"]);
    env.apply(
        &subject,
        accept(&AccountId::ZERO, KYC),
        Ter::temINVALID_ACCOUNT_ID,
    );
    env.apply(&subject, accept(&issuer.id, b""), Ter::temMALFORMED);
    env.apply(
        &subject,
        accept(&Account::new("crNoIssuer").id, KYC),
        Ter::tecNO_ISSUER,
    );
    env.apply(&subject, accept(&issuer.id, KYC), Ter::tecNO_ENTRY);
    // Closed before the create, so the close's canonical order cannot apply that accept
    // after it.
    env.close();

    let exp = env.parent_close() + 5;
    env.apply(
        &issuer,
        create(&subject.id, KYC).u32("Expiration", exp),
        Ter::tesSUCCESS,
    );
    assert_eq!(env.owner_count(&issuer), 1);
    env.close_after(30);
    let before = env.balance(&subject);
    // The transaction fails, yet the expired credential is deleted with it.
    env.apply(&subject, accept(&issuer.id, KYC), Ter::tecEXPIRED);
    assert_eq!(env.balance(&subject), before - FEE);
    assert!(env.read(&key(&subject, &issuer, KYC)).is_none());
    assert_eq!(
        (env.owner_count(&issuer), env.owner_count(&subject)),
        (0, 0)
    );
    assert!(env.owned(&issuer).is_empty() && env.owned(&subject).is_empty());
}

#[test]
fn delete_refuses_malformed_requests() {
    let mut env = Env::new();
    let [issuer, subject] = env.funded(["crIss7", "crSub7"]);
    env.apply(&issuer, delete(None, None, KYC), Ter::temMALFORMED);
    env.apply(
        &issuer,
        delete(Some(&AccountId::ZERO), None, KYC),
        Ter::temINVALID_ACCOUNT_ID,
    );
    env.apply(
        &issuer,
        delete(None, Some(&AccountId::ZERO), KYC),
        Ter::temINVALID_ACCOUNT_ID,
    );
    env.apply(
        &issuer,
        delete(Some(&subject.id), None, &[7; 65]),
        Ter::temMALFORMED,
    );
    env.apply(
        &issuer,
        delete(Some(&subject.id), None, KYC),
        Ter::tecNO_ENTRY,
    );
}

#[test]
fn account_delete_takes_the_accounts_credentials_with_it() {
    let mut env = Env::new();
    let [issuer, subject, sink] = env.funded(["crIss8", "crSub8", "crSink8"]);
    env.apply(&issuer, create(&subject.id, KYC), Ter::tesSUCCESS);
    env.apply(&issuer, create(&subject.id, b"AML"), Ter::tesSUCCESS);
    env.apply(&subject, accept(&issuer.id, b"AML"), Ter::tesSUCCESS);
    for _ in 0..260 {
        env.close();
    }
    env.apply(&issuer, account_delete(&sink), Ter::tesSUCCESS);
    assert!(env.root(&issuer).is_none());
    assert!(env.read(&key(&subject, &issuer, KYC)).is_none());
    assert!(env.read(&key(&subject, &issuer, b"AML")).is_none());
    // The subject owned the accepted one: its count and directory are clean.
    assert_eq!(env.owner_count(&subject), 0);
    assert!(env.owned(&subject).is_empty());
}

#[test]
fn a_subject_deleting_its_account_gives_the_issuer_its_reserve_back() {
    let mut env = Env::new();
    let [issuer, subject, sink] = env.funded(["crIss9", "crSub9", "crSink9"]);
    // Unaccepted: the issuer owns it, though it sits in the subject's directory too.
    env.apply(&issuer, create(&subject.id, KYC), Ter::tesSUCCESS);
    assert_eq!(
        (env.owner_count(&issuer), env.owner_count(&subject)),
        (1, 0)
    );
    for _ in 0..260 {
        env.close();
    }
    env.apply(&subject, account_delete(&sink), Ter::tesSUCCESS);
    assert!(env.read(&key(&subject, &issuer, KYC)).is_none());
    assert_eq!(env.owner_count(&issuer), 0);
    assert!(env.owned(&issuer).is_empty());
}
