//! Deposit authorization by credentials, after rippled's `DepositAuth_test.cpp`
//! (`testCredentialsPayment`, `testCredentialsCreation`, `testExpiredCreds`, the escrow,
//! channel and AccountDelete parts): a destination requiring deposit authorization
//! preauthorizes a set of (issuer, type) credentials; a sender presenting accepted
//! Credentials that form that set (CredentialIDs) may pay it. And rippled's
//! `PermissionedDomains_test.cpp`: PermissionedDomainSet / PermissionedDomainDelete.

use crate::support;

use ledgerd::engine::account_set::asf;
use ledgerd::engine::Ter;
use ledgerd::ledger::flags::lt;
use ledgerd::ledger::keylet;
use ledgerd::ledger::sf::{sf, StExt};
use ledgerd::protocol::definitions::Field;
use ledgerd::protocol::st::{StObject, StValue};
use ledgerd::protocol::types::{AccountId, Hash256};
use support::credentials::{accept, create, domain_set, with_creds};
use support::engine::*;

fn preauth_creds(pairs: &[(AccountId, &[u8])]) -> Tx {
    with_creds(Tx::new("DepositPreauth"), "AuthorizeCredentials", pairs)
}

fn unpreauth_creds(pairs: &[(AccountId, &[u8])]) -> Tx {
    with_creds(Tx::new("DepositPreauth"), "UnauthorizeCredentials", pairs)
}

fn with_ids(mut tx: Tx, ids: &[Hash256]) -> Tx {
    tx.0.set(
        Field::named("CredentialIDs"),
        StValue::Vector256(ids.to_vec()),
    );
    tx
}

fn sorted_key(owner: &Account, pairs: &[(AccountId, &[u8])]) -> Hash256 {
    let mut set: Vec<(AccountId, Vec<u8>)> = pairs.iter().map(|(a, t)| (*a, t.to_vec())).collect();
    set.sort();
    keylet::deposit_preauth_credentials(&owner.id, &set)
}

/// issuer, alice (the sender, holding an accepted KYC credential), bob (requiring
/// deposit authorization, preauthorizing issuer's KYC); the credential's ID.
fn kyc_world(env: &mut Env) -> ([Account; 3], Hash256) {
    let [issuer, alice, bob] = env.funded(["dcIssuer", "dcAlice", "dcBob"]);
    env.apply(&issuer, create(&alice, b"KYC"), Ter::tesSUCCESS);
    env.apply(&alice, accept(&issuer, b"KYC"), Ter::tesSUCCESS);
    env.apply(&bob, fset(asf::DEPOSIT_AUTH), Ter::tesSUCCESS);
    env.apply(&bob, preauth_creds(&[(issuer.id, b"KYC")]), Ter::tesSUCCESS);
    env.close();
    let id = keylet::credential(&alice.id, &issuer.id, b"KYC");
    ([issuer, alice, bob], id)
}

#[test]
fn a_credential_set_preauthorization_is_an_owned_sorted_entry() {
    let mut env = Env::new();
    let [a, b, owner] = env.funded(["dcA", "dcB", "dcOwner"]);
    // Given out of order; stored sorted, keyed by the sorted set.
    let given: [(AccountId, &[u8]); 3] = [(b.id, b"T2"), (a.id, b"T9"), (a.id, b"T1")];
    env.apply(&owner, preauth_creds(&given), Ter::tesSUCCESS);
    let key = sorted_key(&owner, &given);
    let e = env.read(&key).expect("the DepositPreauth");
    let s = sf();
    assert_eq!(e.u16_of(s.ledger_entry_type), Some(lt::DEPOSIT_PREAUTH));
    assert_eq!(e.account_of(s.account), Some(owner.id));
    assert!(e.get(s.authorize).is_none());
    let mut want: Vec<(AccountId, Vec<u8>)> = given.iter().map(|(x, t)| (*x, t.to_vec())).collect();
    want.sort();
    let stored: Vec<(AccountId, Vec<u8>)> = match e.get(s.authorize_credentials) {
        Some(StValue::Array(items)) => items
            .iter()
            .map(|(f, o)| {
                assert_eq!(*f, s.credential);
                (
                    o.account_of(s.issuer).unwrap(),
                    o.blob_of(s.credential_type).unwrap().to_vec(),
                )
            })
            .collect(),
        other => panic!("AuthorizeCredentials: {other:?}"),
    };
    assert_eq!(stored, want);
    assert_eq!(env.owner_count(&owner), 1);
    // The same set in any order is a duplicate.
    let again: [(AccountId, &[u8]); 3] = [(a.id, b"T1"), (b.id, b"T2"), (a.id, b"T9")];
    env.apply(&owner, preauth_creds(&again), Ter::tecDUPLICATE);
    env.apply(&owner, unpreauth_creds(&again), Ter::tesSUCCESS);
    assert!(env.read(&key).is_none());
    assert_eq!(env.owner_count(&owner), 0);
    env.apply(&owner, unpreauth_creds(&again), Ter::tecNO_ENTRY);
}

#[test]
fn deposit_preauth_refuses_malformed_credential_sets() {
    let mut env = Env::new();
    let [issuer, owner, other] = env.funded(["dcIss2", "dcOwner2", "dcOther2"]);
    let i = issuer.id;
    env.apply(&owner, preauth_creds(&[]), Ter::temARRAY_EMPTY);
    let nine: Vec<(AccountId, Vec<u8>)> = (0..9).map(|n| (i, vec![b'a' + n])).collect();
    let nine: Vec<(AccountId, &[u8])> = nine.iter().map(|(a, t)| (*a, t.as_slice())).collect();
    env.apply(&owner, preauth_creds(&nine), Ter::temARRAY_TOO_LARGE);
    env.apply(&owner, preauth_creds(&nine[..8]), Ter::tesSUCCESS);
    env.apply(
        &owner,
        preauth_creds(&[(AccountId::ZERO, b"KYC")]),
        Ter::temINVALID_ACCOUNT_ID,
    );
    env.apply(&owner, preauth_creds(&[(i, b"")]), Ter::temMALFORMED);
    env.apply(&owner, preauth_creds(&[(i, &[1; 65])]), Ter::temMALFORMED);
    env.apply(
        &owner,
        preauth_creds(&[(i, b"KYC"), (i, b"KYC")]),
        Ter::temMALFORMED,
    );
    // Exactly one of the four fields.
    env.apply(
        &owner,
        preauth_creds(&[(i, b"KYC")]).account("Authorize", &other.id),
        Ter::temMALFORMED,
    );
    env.apply(
        &owner,
        with_creds(
            preauth_creds(&[(i, b"KYC")]),
            "UnauthorizeCredentials",
            &[(i, b"K")],
        ),
        Ter::temMALFORMED,
    );
    env.apply(
        &owner,
        preauth_creds(&[(Account::new("dcNobody").id, b"KYC")]),
        Ter::tecNO_ISSUER,
    );
    env.apply(&owner, unpreauth_creds(&[(i, b"KYC")]), Ter::tecNO_ENTRY);
}

#[test]
fn deposit_preauth_by_credentials_needs_the_reserve() {
    let mut env = Env::new();
    let [issuer] = env.funded(["dcIss3"]);
    let poor = Account::new("dcPoor3");
    env.fund(&poor, drops(10_000_000 + 2 * FEE));
    env.apply(
        &poor,
        preauth_creds(&[(issuer.id, b"KYC")]),
        Ter::tecINSUFFICIENT_RESERVE,
    );
    assert_eq!(env.owner_count(&poor), 0);
}

#[test]
fn a_payment_with_matching_credentials_reaches_a_deposit_auth_account() {
    let mut env = Env::new();
    let ([issuer, alice, bob], id) = kyc_world(&mut env);
    env.apply(&alice, pay(&bob, xrp(100)), Ter::tecNO_PERMISSION);
    let before = env.balance(&bob);
    env.apply(
        &alice,
        with_ids(pay(&bob, xrp(100)), &[id]),
        Ter::tesSUCCESS,
    );
    assert_eq!(env.balance(&bob), before + 100_000_000);
    // Credentials to an account that does not require authorization are checked too, and
    // harmless.
    env.apply(
        &alice,
        with_ids(pay(&issuer, xrp(1)), &[id]),
        Ter::tesSUCCESS,
    );
    // Preauthorized by account: credentials are not needed, and accepted when valid.
    env.apply(&bob, preauth(&alice), Ter::tesSUCCESS);
    env.apply(&alice, with_ids(pay(&bob, xrp(1)), &[id]), Ter::tesSUCCESS);
    env.apply(&alice, pay(&bob, xrp(1)), Ter::tesSUCCESS);
}

#[test]
fn bad_credential_ids_are_refused_before_the_payment() {
    let mut env = Env::new();
    let ([issuer, alice, bob], id) = kyc_world(&mut env);
    // Not a credential at all.
    let root_key = keylet::account(&alice.id);
    env.apply(
        &alice,
        with_ids(pay(&bob, xrp(1)), &[root_key]),
        Ter::tecBAD_CREDENTIALS,
    );
    env.apply(
        &alice,
        with_ids(pay(&bob, xrp(1)), &[Hash256([7; 32])]),
        Ter::tecBAD_CREDENTIALS,
    );
    // Someone else's credential.
    env.apply(
        &bob,
        with_ids(pay(&alice, xrp(1)), &[id]),
        Ter::tecBAD_CREDENTIALS,
    );
    // Not accepted yet.
    env.apply(&issuer, create(&alice, b"AML"), Ter::tesSUCCESS);
    let aml = keylet::credential(&alice.id, &issuer.id, b"AML");
    env.apply(
        &alice,
        with_ids(pay(&bob, xrp(1)), &[aml]),
        Ter::tecBAD_CREDENTIALS,
    );
    // Malformed lists.
    env.apply(&alice, with_ids(pay(&bob, xrp(1)), &[]), Ter::temMALFORMED);
    env.apply(
        &alice,
        with_ids(pay(&bob, xrp(1)), &[id, id]),
        Ter::temMALFORMED,
    );
    let nine: Vec<Hash256> = (0..9u8).map(|n| Hash256([n; 32])).collect();
    env.apply(
        &alice,
        with_ids(pay(&bob, xrp(1)), &nine),
        Ter::temMALFORMED,
    );
    // Accepted, but a set bob did not preauthorize: {KYC, AML} is not {KYC}.
    env.apply(&alice, accept(&issuer, b"AML"), Ter::tesSUCCESS);
    env.apply(
        &alice,
        with_ids(pay(&bob, xrp(1)), &[id, aml]),
        Ter::tecNO_PERMISSION,
    );
    env.apply(
        &alice,
        with_ids(pay(&bob, xrp(1)), &[aml]),
        Ter::tecNO_PERMISSION,
    );
}

#[test]
fn an_expired_credential_is_deleted_by_the_payment_that_presents_it() {
    let mut env = Env::new();
    let [issuer, alice, bob] = env.funded(["dcIss5", "dcAlice5", "dcBob5"]);
    let exp = env.parent_close() + 15;
    env.apply(
        &issuer,
        create(&alice, b"KYC").u32("Expiration", exp),
        Ter::tesSUCCESS,
    );
    env.apply(&alice, accept(&issuer, b"KYC"), Ter::tesSUCCESS);
    env.apply(&bob, fset(asf::DEPOSIT_AUTH), Ter::tesSUCCESS);
    env.apply(&bob, preauth_creds(&[(issuer.id, b"KYC")]), Ter::tesSUCCESS);
    env.close();
    let id = keylet::credential(&alice.id, &issuer.id, b"KYC");
    env.apply(&alice, with_ids(pay(&bob, xrp(1)), &[id]), Ter::tesSUCCESS);
    env.close_after(30);
    let (a, b) = (env.balance(&alice), env.balance(&bob));
    assert_eq!(env.owner_count(&alice), 1);
    env.apply(&alice, with_ids(pay(&bob, xrp(1)), &[id]), Ter::tecEXPIRED);
    assert_eq!((env.balance(&alice), env.balance(&bob)), (a - FEE, b));
    assert!(
        env.read(&id).is_none(),
        "deleted although the payment failed"
    );
    assert_eq!(env.owner_count(&alice), 0);
    let meta = env.last_meta.clone().expect("metadata");
    let nodes = match meta.get(sf().affected_nodes) {
        Some(StValue::Array(n)) => n.clone(),
        other => panic!("AffectedNodes: {other:?}"),
    };
    assert!(nodes.iter().any(|(f, o)| f.name() == "DeletedNode"
        && o.u16_of(sf().ledger_entry_type) == Some(lt::CREDENTIAL)));
    // Gone, so the next one is simply a bad credential.
    env.apply(
        &alice,
        with_ids(pay(&bob, xrp(1)), &[id]),
        Ter::tecBAD_CREDENTIALS,
    );
}

#[test]
fn an_iou_payment_with_credentials_reaches_a_deposit_auth_account() {
    let mut env = Env::new();
    let ([issuer, alice, bob], id) = kyc_world(&mut env);
    let gw = issuer;
    env.apply(&gw, fset(asf::DEFAULT_RIPPLE), Ter::tesSUCCESS);
    env.apply(&alice, trust(gw.iou("USD", 1000)), Ter::tesSUCCESS);
    env.apply(&bob, trust(gw.iou("USD", 1000)), Ter::tesSUCCESS);
    env.apply(&gw, pay(&alice, gw.iou("USD", 100)), Ter::tesSUCCESS);
    env.apply(&alice, pay(&bob, gw.iou("USD", 10)), Ter::tecNO_PERMISSION);
    env.apply(
        &alice,
        with_ids(pay(&bob, gw.iou("USD", 10)), &[id]),
        Ter::tesSUCCESS,
    );
    assert_eq!(env.iou_balance(&bob, &gw, "USD"), val("10"));
}

#[test]
fn escrow_finish_and_channel_claim_accept_credentials() {
    let mut env = Env::new();
    let ([_issuer, alice, bob], id) = kyc_world(&mut env);
    let seq = env.seq(&alice);
    let finish_after = env.parent_close() + 1;
    env.apply(
        &alice,
        escrow_create(&bob, xrp(50)).u32("FinishAfter", finish_after),
        Ter::tesSUCCESS,
    );
    env.close_after(20);
    env.apply(&alice, escrow_finish(&alice, seq), Ter::tecNO_PERMISSION);
    let before = env.balance(&bob);
    env.apply(
        &alice,
        with_ids(escrow_finish(&alice, seq), &[id]),
        Ter::tesSUCCESS,
    );
    assert_eq!(env.balance(&bob), before + 50_000_000);

    let chan = env.open_channel(&alice, &bob, xrp(100), 100);
    let claim = || chan.claim().amount("Balance", xrp(10));
    env.apply(&alice, claim(), Ter::tecNO_PERMISSION);
    env.apply(&alice, with_ids(claim(), &[id]), Ter::tesSUCCESS);
    env.apply(
        &alice,
        with_ids(chan.claim().amount("Balance", xrp(20)), &[id, id]),
        Ter::temMALFORMED,
    );
}

#[test]
fn account_delete_into_a_deposit_auth_account_with_credentials() {
    let mut env = Env::new();
    let ([issuer, alice, bob], id) = kyc_world(&mut env);
    for _ in 0..260 {
        env.close();
    }
    env.apply(&alice, account_delete(&bob), Ter::tecNO_PERMISSION);
    env.apply(
        &alice,
        with_ids(account_delete(&issuer), &[Hash256([3; 32])]),
        Ter::tecBAD_CREDENTIALS,
    );
    let before = env.balance(&bob);
    let left = env.balance(&alice) - 2_000_000;
    env.apply(
        &alice,
        with_ids(account_delete(&bob), &[id]),
        Ter::tesSUCCESS,
    );
    assert!(env.root(&alice).is_none());
    assert_eq!(env.balance(&bob), before + left);
    // Its credential went with it.
    assert!(env.read(&id).is_none());
    assert_eq!(env.owner_count(&issuer), 0);
}

fn domain_delete(id: Hash256) -> Tx {
    Tx::new("PermissionedDomainDelete").h256("DomainID", id)
}

fn accepted(e: &StObject) -> Vec<(AccountId, Vec<u8>)> {
    let s = sf();
    match e.get(s.accepted_credentials) {
        Some(StValue::Array(items)) => items
            .iter()
            .map(|(_, o)| {
                (
                    o.account_of(s.issuer).unwrap(),
                    o.blob_of(s.credential_type).unwrap().to_vec(),
                )
            })
            .collect(),
        other => panic!("AcceptedCredentials: {other:?}"),
    }
}

#[test]
fn a_permissioned_domain_is_created_updated_and_deleted_by_its_owner() {
    let mut env = Env::new();
    let [a, b, owner, other] = env.funded(["pdA", "pdB", "pdOwner", "pdOther"]);
    let seq = env.seq(&owner);
    env.apply(
        &owner,
        domain_set(&[(b.id, b"X"), (a.id, b"Y")]),
        Ter::tesSUCCESS,
    );
    let id = keylet::permissioned_domain(&owner.id, seq);
    let e = env.read(&id).expect("the PermissionedDomain");
    let s = sf();
    assert_eq!(e.u16_of(s.ledger_entry_type), Some(lt::PERMISSIONED_DOMAIN));
    assert_eq!(e.account_of(s.owner), Some(owner.id));
    assert_eq!(e.u32_of(s.sequence), Some(seq));
    let mut want = vec![(b.id, b"X".to_vec()), (a.id, b"Y".to_vec())];
    want.sort();
    assert_eq!(accepted(&e), want, "sorted");
    assert_eq!(env.owner_count(&owner), 1);
    assert!(env.owned(&owner).contains(&id));

    // Replacing the list keeps the entry and the count.
    env.apply(
        &owner,
        domain_set(&[(a.id, b"Z")]).h256("DomainID", id),
        Ter::tesSUCCESS,
    );
    assert_eq!(
        accepted(&env.read(&id).unwrap()),
        vec![(a.id, b"Z".to_vec())]
    );
    assert_eq!(env.owner_count(&owner), 1);
    // Not its owner.
    env.apply(
        &other,
        domain_set(&[(a.id, b"Z")]).h256("DomainID", id),
        Ter::tecNO_PERMISSION,
    );
    env.apply(&other, domain_delete(id), Ter::tecNO_PERMISSION);
    // An owner with a domain cannot delete its account.
    for _ in 0..260 {
        env.close();
    }
    env.apply(&owner, account_delete(&other), Ter::tecHAS_OBLIGATIONS);
    env.apply(&owner, domain_delete(id), Ter::tesSUCCESS);
    assert!(env.read(&id).is_none());
    assert_eq!(env.owner_count(&owner), 0);
    env.apply(&owner, domain_delete(id), Ter::tecNO_ENTRY);
}

#[test]
fn permissioned_domain_set_refuses_malformed_lists() {
    let mut env = Env::new();
    let [issuer, owner] = env.funded(["pdIss2", "pdOwner2"]);
    let i = issuer.id;
    env.apply(&owner, domain_set(&[]), Ter::temARRAY_EMPTY);
    let eleven: Vec<(AccountId, Vec<u8>)> = (0..11).map(|n| (i, vec![b'a' + n])).collect();
    let eleven: Vec<(AccountId, &[u8])> = eleven.iter().map(|(a, t)| (*a, t.as_slice())).collect();
    env.apply(&owner, domain_set(&eleven), Ter::temARRAY_TOO_LARGE);
    env.apply(&owner, domain_set(&eleven[..10]), Ter::tesSUCCESS);
    env.apply(
        &owner,
        domain_set(&[(AccountId::ZERO, b"X")]),
        Ter::temINVALID_ACCOUNT_ID,
    );
    env.apply(&owner, domain_set(&[(i, b"")]), Ter::temMALFORMED);
    env.apply(&owner, domain_set(&[(i, &[0; 65])]), Ter::temMALFORMED);
    env.apply(
        &owner,
        domain_set(&[(i, b"X"), (i, b"X")]),
        Ter::temMALFORMED,
    );
    env.apply(
        &owner,
        domain_set(&[(i, b"X")]).h256("DomainID", Hash256::ZERO),
        Ter::temMALFORMED,
    );
    env.apply(
        &owner,
        domain_set(&[(i, b"X")]).flags(0x0001_0000),
        Ter::temINVALID_FLAG,
    );
    env.apply(
        &owner,
        domain_set(&[(Account::new("pdNobody").id, b"X")]),
        Ter::tecNO_ISSUER,
    );
    env.apply(
        &owner,
        domain_set(&[(i, b"X")]).h256("DomainID", Hash256([9; 32])),
        Ter::tecNO_ENTRY,
    );
    // An entry of another type is no domain.
    env.apply(
        &owner,
        domain_set(&[(i, b"X")]).h256("DomainID", keylet::account(&owner.id)),
        Ter::tecNO_ENTRY,
    );
    env.apply(&owner, domain_delete(Hash256::ZERO), Ter::temMALFORMED);
    env.apply(&owner, domain_delete(Hash256([9; 32])), Ter::tecNO_ENTRY);
    let poor = Account::new("pdPoor");
    env.fund(&poor, drops(10_000_000 + 2 * FEE));
    env.apply(
        &poor,
        domain_set(&[(i, b"X")]),
        Ter::tecINSUFFICIENT_RESERVE,
    );
}
