//! Vaults of MPT assets, after the MPT cases of rippled's `Vault_test.cpp`: the vault's
//! pseudo-account holds the asset in its own MPToken; deposits, withdrawals and
//! clawbacks move MPT units without the transfer fee; the issuance's locks answer
//! `tecLOCKED`, its RequireAuth `tecNO_AUTH`, its MaximumAmount `tecPATH_DRY` when its
//! issuer deposits; VaultDelete removes the pseudo-account's MPToken. Also an issuance's
//! `DomainID` (SingleAssetVault): its domain's members hold the token without the
//! issuer's authorization.

use crate::support;

use ledgerd::engine::mptoken_authorize::tf as auth_tf;
use ledgerd::engine::mptoken_issuance_create::tf as ctf;
use ledgerd::engine::mptoken_issuance_set::tf as set_tf;
use ledgerd::engine::vault::number_of;
use ledgerd::engine::Ter;
use ledgerd::ledger::keylet;
use ledgerd::ledger::sf::{sf, StExt};
use ledgerd::protocol::definitions::Field;
use ledgerd::protocol::features::Feature;
use ledgerd::protocol::mpt::MptId;
use ledgerd::protocol::number::Number;
use ledgerd::protocol::st::{StObject, StValue};
use ledgerd::protocol::types::{AccountId, Hash256};
use support::engine::*;
use support::mpt::{outstanding, pay_mpt, with_id, with_mpt};

fn opt_in(id: &MptId) -> Tx {
    with_id(Tx::new("MPTokenAuthorize"), id)
}

fn issuance_set(id: &MptId, flags: u32) -> Tx {
    with_id(Tx::new("MPTokenIssuanceSet"), id).flags(flags)
}

fn vault_create(asset: &MptId) -> Tx {
    let mut tx = Tx::new("VaultCreate");
    tx.0.set(sf().asset, StValue::MptIssue(*asset));
    tx
}

fn deposit(vault: Hash256, id: &MptId, v: u64) -> Tx {
    with_mpt(Tx::new("VaultDeposit").h256("VaultID", vault), id, v)
}

fn withdraw(vault: Hash256, id: &MptId, v: u64) -> Tx {
    with_mpt(Tx::new("VaultWithdraw").h256("VaultID", vault), id, v)
}

fn claw(vault: Hash256, holder: &Account, id: &MptId, v: u64) -> Tx {
    let tx = Tx::new("VaultClawback")
        .h256("VaultID", vault)
        .account("Holder", &holder.id);
    with_mpt(tx, id, v)
}

fn delete(vault: Hash256) -> Tx {
    Tx::new("VaultDelete").h256("VaultID", vault)
}

/// An issuance of `issuer` with `flags`, `holders` opted in (and authorized when it
/// requires it), 1000 units paid to the first holder.
fn token(env: &mut Env, issuer: &Account, flags: u32, holders: &[&Account]) -> MptId {
    let seq = env.seq(issuer);
    env.apply(
        issuer,
        Tx::new("MPTokenIssuanceCreate").flags(flags),
        Ter::tesSUCCESS,
    );
    let id = MptId::new(seq, &issuer.id);
    for h in holders {
        env.apply(h, opt_in(&id), Ter::tesSUCCESS);
        if flags & ctf::REQUIRE_AUTH != 0 {
            env.apply(
                issuer,
                opt_in(&id).account("Holder", &h.id),
                Ter::tesSUCCESS,
            );
        }
    }
    if let Some(first) = holders.first() {
        env.apply(issuer, pay_mpt(&first.id, &id, 1000), Ter::tesSUCCESS);
    }
    id
}

/// rippled's MPT test issuance: transferable, lockable, clawback, RequireAuth.
const FULL: u32 = ctf::CAN_TRANSFER | ctf::CAN_LOCK | ctf::CAN_CLAWBACK | ctf::REQUIRE_AUTH;

/// Opens a vault of `asset` for `owner`: its key, share id and pseudo-account.
fn open(env: &mut Env, owner: &Account, asset: &MptId) -> (Hash256, MptId, AccountId) {
    let seq = env.seq(owner);
    let tx = with_fee(env, vault_create(asset));
    env.apply(owner, tx, Ter::tesSUCCESS);
    let key = keylet::vault(&owner.id, seq);
    let v = env.read(&key).expect("the Vault");
    let share = v.mpt_id_of(sf().share_mpt_id).expect("ShareMPTID");
    (key, share, v.account_of(sf().account).expect("pseudo"))
}

fn held(env: &Env, id: &MptId, who: &AccountId) -> Option<u64> {
    env.read(&keylet::mptoken(id, who))
        .map(|t| t.u64_of(sf().mpt_amount).unwrap_or(0))
}

fn assets_total(env: &Env, key: &Hash256) -> Number {
    number_of(&env.read(key).unwrap(), sf().assets_total)
}

fn owner_count_of(env: &Env, id: &AccountId) -> u32 {
    env.read(&keylet::account(id))
        .and_then(|r| r.u32_of(sf().owner_count))
        .unwrap_or(0)
}

#[test]
fn an_mpt_vault_holds_its_asset_in_the_pseudo_accounts_mptoken() {
    let mut env = Env::new();
    let [issuer, owner, depositor] = env.funded(["mIssuer", "mOwner", "mDepositor"]);
    let asset = token(&mut env, &issuer, FULL, &[&depositor, &owner]);
    let (key, share, pseudo) = open(&mut env, &owner, &asset);
    let v = env.read(&key).unwrap();
    assert_eq!(v.get(sf().asset), Some(&StValue::MptIssue(asset)));
    assert!(v.u8_of(sf().scale).is_none(), "MPT vaults have no Scale");
    assert_eq!(held(&env, &asset, &pseudo), Some(0), "an empty MPToken");
    let iss = env.read(&keylet::mpt_issuance(&share)).unwrap();
    // fixCleanup3_2_0 (in ledgerd's rule book; without it: rules_cleanup320.rs) has the
    // shares name that holding.
    let holding = keylet::mptoken(&asset, &pseudo);
    assert_eq!(iss.h256_of(sf().reference_holding), Some(holding));
    // The share issuance and the asset's MPToken.
    assert_eq!(owner_count_of(&env, &pseudo), 2);

    env.apply(&depositor, deposit(key, &asset, 100), Ter::tesSUCCESS);
    assert_eq!(held(&env, &share, &depositor.id), Some(100));
    assert_eq!(held(&env, &asset, &depositor.id), Some(900));
    assert_eq!(held(&env, &asset, &pseudo), Some(100));
    assert_eq!(outstanding(&env, &asset), 1000, "a transfer, not a mint");
    assert_eq!(assets_total(&env, &key), Number::from_i64(100));
    env.apply(
        &depositor,
        deposit(key, &asset, 1000),
        Ter::tecINSUFFICIENT_FUNDS,
    );

    env.apply(&depositor, withdraw(key, &asset, 40), Ter::tesSUCCESS);
    assert_eq!(held(&env, &share, &depositor.id), Some(60));
    assert_eq!(held(&env, &asset, &depositor.id), Some(940));
    env.apply(&depositor, withdraw(key, &share, 60), Ter::tesSUCCESS);
    assert_eq!(held(&env, &asset, &depositor.id), Some(1000));
    assert!(
        held(&env, &share, &depositor.id).is_none(),
        "the emptied share token is removed"
    );
    assert_eq!(held(&env, &asset, &pseudo), Some(0));

    let before = env.owner_count(&owner);
    env.apply(&owner, with_fee(&env, delete(key)), Ter::tesSUCCESS);
    assert!(env.read(&key).is_none());
    assert!(env.read(&keylet::mptoken(&asset, &pseudo)).is_none());
    assert!(env.read(&keylet::account(&pseudo)).is_none());
    assert_eq!(env.owner_count(&owner), before - 2);
}

#[test]
fn creating_an_mpt_vault_checks_the_issuance() {
    let mut env = Env::new();
    let [issuer, owner] = env.funded(["mcIssuer", "mcOwner"]);
    // Not transferable (rippled "MPT no authorization").
    let plain = token(&mut env, &issuer, 0, &[]);
    let tx = with_fee(&env, vault_create(&plain));
    env.apply(&owner, tx, Ter::tecNO_AUTH);
    let asset = token(&mut env, &issuer, FULL, &[&owner]);
    for scale in [0, 1] {
        let tx = with_fee(&env, vault_create(&asset).u8("Scale", scale));
        env.apply(&owner, tx, Ter::temMALFORMED);
    }
    let missing = MptId::new(999, &issuer.id);
    let tx = with_fee(&env, vault_create(&missing));
    env.apply(&owner, tx, Ter::tecOBJECT_NOT_FOUND);
    // A vault's shares are no asset (their issuer is a pseudo-account).
    let (_, share, _) = open(&mut env, &owner, &asset);
    let tx = with_fee(&env, vault_create(&share));
    env.apply(&owner, tx, Ter::tecWRONG_ASSET);
    // The global lock (rippled "MPT global lock blocks create").
    env.apply(&issuer, issuance_set(&asset, set_tf::LOCK), Ter::tesSUCCESS);
    let tx = with_fee(&env, vault_create(&asset));
    env.apply(&owner, tx, Ter::tecLOCKED);
}

#[test]
fn a_global_lock_blocks_deposits_and_withdrawals_but_not_clawback_or_delete() {
    // Before fixCleanup3_3_0 (rules_cleanup330_vault.rs has both ways).
    let mut env = crate::rules::env_without(&[Feature::FixCleanup3_3_0]);
    let [issuer, owner, depositor] = env.funded(["mlIssuer", "mlOwner", "mlDepositor"]);
    let asset = token(&mut env, &issuer, FULL, &[&depositor, &owner]);
    let (key, share, _) = open(&mut env, &owner, &asset);
    env.apply(&depositor, deposit(key, &asset, 100), Ter::tesSUCCESS);
    assert_eq!(outstanding(&env, &share), 100);
    env.apply(&issuer, issuance_set(&asset, set_tf::LOCK), Ter::tesSUCCESS);
    env.apply(&depositor, deposit(key, &asset, 10), Ter::tecLOCKED);
    env.apply(&depositor, withdraw(key, &asset, 100), Ter::tecLOCKED);
    let to_issuer = withdraw(key, &asset, 100).account("Destination", &issuer.id);
    env.apply(&depositor, to_issuer, Ter::tecLOCKED);
    // All (zero) is clawed back; the holder's emptied share token goes.
    env.apply(&issuer, claw(key, &depositor, &asset, 0), Ter::tesSUCCESS);
    assert!(held(&env, &share, &depositor.id).is_none());
    assert_eq!(outstanding(&env, &asset), 900, "the clawed units are burnt");
    env.apply(&owner, with_fee(&env, delete(key)), Ter::tesSUCCESS);
}

#[test]
fn locking_the_pseudo_accounts_mptoken_locks_the_shares() {
    let mut env = Env::new();
    let [issuer, owner, depositor] = env.funded(["mpIssuer", "mpOwner", "mpDepositor"]);
    let asset = token(&mut env, &issuer, FULL, &[&depositor, &owner]);
    let (key, _, pseudo) = open(&mut env, &owner, &asset);
    env.apply(&depositor, deposit(key, &asset, 100), Ter::tesSUCCESS);
    let lock = issuance_set(&asset, set_tf::LOCK).account("Holder", &pseudo);
    env.apply(&issuer, lock, Ter::tesSUCCESS);
    env.apply(&depositor, deposit(key, &asset, 100), Ter::tecLOCKED);
    env.apply(&depositor, withdraw(key, &asset, 100), Ter::tecLOCKED);
    env.apply(&issuer, claw(key, &depositor, &asset, 100), Ter::tesSUCCESS);
    env.apply(&owner, with_fee(&env, delete(key)), Ter::tesSUCCESS);
}

#[test]
fn an_unauthorized_holder_withdraws_only_to_authorized_accounts() {
    let mut env = Env::new();
    let [issuer, owner, depositor, charlie] =
        env.funded(["muIssuer", "muOwner", "muDepositor", "muCharlie"]);
    let asset = token(&mut env, &issuer, FULL, &[&depositor, &owner]);
    let (key, _, _) = open(&mut env, &owner, &asset);
    env.apply(&depositor, deposit(key, &asset, 1000), Ter::tesSUCCESS);
    let unauth = opt_in(&asset)
        .account("Holder", &depositor.id)
        .flags(auth_tf::UNAUTHORIZE);
    env.apply(&issuer, unauth, Ter::tesSUCCESS);
    env.apply(&depositor, withdraw(key, &asset, 100), Ter::tecNO_AUTH);
    for dst in [&issuer, &owner] {
        let tx = withdraw(key, &asset, 100).account("Destination", &dst.id);
        env.apply(&depositor, tx, Ter::tesSUCCESS);
    }
    assert_eq!(held(&env, &asset, &owner.id), Some(100));
    // A third party without an MPToken.
    let tx = withdraw(key, &asset, 100).account("Destination", &charlie.id);
    env.apply(&depositor, tx, Ter::tecNO_AUTH);
    env.apply(&depositor, deposit(key, &asset, 100), Ter::tecNO_AUTH);
    env.apply(&issuer, claw(key, &depositor, &asset, 800), Ter::tesSUCCESS);
    env.apply(&owner, with_fee(&env, delete(key)), Ter::tesSUCCESS);
}

#[test]
fn a_withdrawal_to_oneself_recreates_the_mptoken_unless_auth_is_required() {
    let mut env = Env::new();
    let [issuer, owner, depositor] = env.funded(["mrIssuer", "mrOwner", "mrDepositor"]);
    let open_flags = ctf::CAN_TRANSFER | ctf::CAN_LOCK | ctf::CAN_CLAWBACK;
    let asset = token(&mut env, &issuer, open_flags, &[&depositor, &owner]);
    let (key, _, _) = open(&mut env, &owner, &asset);
    env.apply(&depositor, deposit(key, &asset, 1000), Ter::tesSUCCESS);
    let opt_out = || opt_in(&asset).flags(auth_tf::UNAUTHORIZE);
    env.apply(&depositor, opt_out(), Ter::tesSUCCESS);
    assert!(held(&env, &asset, &depositor.id).is_none());
    env.apply(&depositor, withdraw(key, &asset, 100), Ter::tesSUCCESS);
    assert_eq!(held(&env, &asset, &depositor.id), Some(100));
    // A third party's MPToken is not created.
    env.apply(&owner, opt_out(), Ter::tesSUCCESS);
    let tx = withdraw(key, &asset, 100).account("Destination", &owner.id);
    env.apply(&depositor, tx, Ter::tecNO_AUTH);
    assert!(held(&env, &asset, &owner.id).is_none());

    // With RequireAuth the token is not recreated.
    let asset = token(&mut env, &issuer, FULL, &[&depositor]);
    let (key, _, _) = open(&mut env, &owner, &asset);
    env.apply(&depositor, deposit(key, &asset, 1000), Ter::tesSUCCESS);
    let opt_out = opt_in(&asset).flags(auth_tf::UNAUTHORIZE);
    env.apply(&depositor, opt_out, Ter::tesSUCCESS);
    env.apply(&depositor, withdraw(key, &asset, 100), Ter::tecNO_AUTH);
    assert!(held(&env, &asset, &depositor.id).is_none());
}

#[test]
fn the_issuer_mints_by_depositing_up_to_the_maximum_and_fees_are_waived() {
    let mut env = Env::new();
    let [issuer, owner, depositor] = env.funded(["mmIssuer", "mmOwner", "mmDepositor"]);
    let seq = env.seq(&issuer);
    let mut tx = Tx::new("MPTokenIssuanceCreate").flags(ctf::CAN_TRANSFER | ctf::CAN_CLAWBACK);
    tx.0.set(Field::named("MaximumAmount"), StValue::UInt64(1500));
    tx.0.set(Field::named("TransferFee"), StValue::UInt16(10_000));
    env.apply(&issuer, tx, Ter::tesSUCCESS);
    let asset = MptId::new(seq, &issuer.id);
    env.apply(&depositor, opt_in(&asset), Ter::tesSUCCESS);
    env.apply(
        &issuer,
        pay_mpt(&depositor.id, &asset, 1000),
        Ter::tesSUCCESS,
    );
    let (key, share, pseudo) = open(&mut env, &owner, &asset);
    // No transfer fee between the depositor and the vault, either way.
    env.apply(&depositor, deposit(key, &asset, 100), Ter::tesSUCCESS);
    assert_eq!(held(&env, &asset, &depositor.id), Some(900));
    assert_eq!(held(&env, &asset, &pseudo), Some(100));
    env.apply(&depositor, withdraw(key, &share, 50), Ter::tesSUCCESS);
    assert_eq!(held(&env, &asset, &depositor.id), Some(950));
    assert_eq!(outstanding(&env, &asset), 1000);
    // The issuer holds nothing and mints what it deposits, within MaximumAmount.
    env.apply(&issuer, deposit(key, &asset, 500), Ter::tesSUCCESS);
    assert_eq!(outstanding(&env, &asset), 1500);
    assert_eq!(held(&env, &share, &issuer.id), Some(500));
    env.apply(&issuer, deposit(key, &asset, 10), Ter::tecPATH_DRY);
    // Withdrawing to the issuer burns.
    env.apply(&issuer, withdraw(key, &asset, 500), Ter::tesSUCCESS);
    assert_eq!(outstanding(&env, &asset), 1000);
}

#[test]
fn clawback_of_an_mpt_vault_needs_the_issuer_and_can_clawback() {
    let mut env = Env::new();
    let [issuer, owner, depositor] = env.funded(["mkIssuer", "mkOwner", "mkDepositor"]);
    let flags = ctf::CAN_TRANSFER | ctf::CAN_LOCK | ctf::REQUIRE_AUTH;
    let asset = token(&mut env, &issuer, flags, &[&depositor, &owner]);
    let (key, share, _) = open(&mut env, &owner, &asset);
    env.apply(&depositor, deposit(key, &asset, 1000), Ter::tesSUCCESS);
    env.apply(
        &issuer,
        claw(key, &depositor, &asset, 0),
        Ter::tecNO_PERMISSION,
    );
    let no_amount = Tx::new("VaultClawback")
        .h256("VaultID", key)
        .account("Holder", &depositor.id);
    env.apply(&owner, no_amount, Ter::tecNO_PERMISSION);
    // An MPT amount of someone else's issuance: temMALFORMED in preflight.
    env.apply(&owner, claw(key, &depositor, &asset, 5), Ter::temMALFORMED);
    env.apply(&issuer, claw(key, &depositor, &share, 5), Ter::temMALFORMED);

    let asset = token(&mut env, &issuer, FULL, &[&depositor]);
    let (key, share, _) = open(&mut env, &owner, &asset);
    env.apply(&depositor, deposit(key, &asset, 1000), Ter::tesSUCCESS);
    env.apply(&issuer, claw(key, &depositor, &asset, 10), Ter::tesSUCCESS);
    assert_eq!(held(&env, &share, &depositor.id), Some(990));
    assert_eq!(assets_total(&env, &key), Number::from_i64(990));
    assert_eq!(outstanding(&env, &asset), 990);
}

#[test]
fn a_vault_outlives_its_destroyed_issuance() {
    let mut env = Env::new();
    let [issuer, owner, depositor] = env.funded(["mdIssuer", "mdOwner", "mdDepositor"]);
    let asset = token(&mut env, &issuer, FULL, &[&depositor, &owner]);
    let (key, _, _) = open(&mut env, &owner, &asset);
    env.apply(&depositor, deposit(key, &asset, 1000), Ter::tesSUCCESS);
    env.apply(&issuer, claw(key, &depositor, &asset, 0), Ter::tesSUCCESS);
    assert_eq!(outstanding(&env, &asset), 0);
    let destroy = with_id(Tx::new("MPTokenIssuanceDestroy"), &asset);
    env.apply(&issuer, destroy, Ter::tesSUCCESS);
    let tx = with_fee(&env, vault_create(&asset));
    env.apply(&depositor, tx, Ter::tecOBJECT_NOT_FOUND);
    env.apply(
        &depositor,
        deposit(key, &asset, 10),
        Ter::tecOBJECT_NOT_FOUND,
    );
    env.apply(
        &depositor,
        withdraw(key, &asset, 10),
        Ter::tecOBJECT_NOT_FOUND,
    );
    env.apply(
        &issuer,
        claw(key, &depositor, &asset, 0),
        Ter::tecOBJECT_NOT_FOUND,
    );
    env.apply(&owner, with_fee(&env, delete(key)), Ter::tesSUCCESS);
}

#[test]
fn a_holder_may_not_delete_a_locked_mptoken() {
    let mut env = Env::new();
    let [issuer, holder] = env.funded(["mtIssuer", "mtHolder"]);
    let asset = token(&mut env, &issuer, ctf::CAN_LOCK, &[]);
    env.apply(&holder, opt_in(&asset), Ter::tesSUCCESS);
    let lock = issuance_set(&asset, set_tf::LOCK).account("Holder", &holder.id);
    env.apply(&issuer, lock, Ter::tesSUCCESS);
    let opt_out = || opt_in(&asset).flags(auth_tf::UNAUTHORIZE);
    env.apply(&holder, opt_out(), Ter::tecNO_PERMISSION);
    let unlock = issuance_set(&asset, set_tf::UNLOCK).account("Holder", &holder.id);
    env.apply(&issuer, unlock, Ter::tesSUCCESS);
    env.apply(&holder, opt_out(), Ter::tesSUCCESS);
}

/// A permissioned domain of `owner` accepting `issuer`'s "KYC", and `member` holding
/// that credential, accepted.
fn kyc_domain(env: &mut Env, owner: &Account, issuer: &Account, member: &Account) -> Hash256 {
    let dseq = env.seq(owner);
    let mut cred = StObject::new();
    cred.set(Field::named("Issuer"), StValue::AccountId(issuer.id));
    cred.set(
        Field::named("CredentialType"),
        StValue::Blob(b"KYC".to_vec()),
    );
    let mut dom = Tx::new("PermissionedDomainSet");
    dom.0.set(
        Field::named("AcceptedCredentials"),
        StValue::Array(vec![(Field::named("Credential"), cred)]),
    );
    env.apply(owner, dom, Ter::tesSUCCESS);
    let create = Tx::new("CredentialCreate")
        .account("Subject", &member.id)
        .blob("CredentialType", b"KYC");
    env.apply(issuer, create, Ter::tesSUCCESS);
    let accept = Tx::new("CredentialAccept")
        .account("Issuer", &issuer.id)
        .blob("CredentialType", b"KYC");
    env.apply(member, accept, Ter::tesSUCCESS);
    keylet::permissioned_domain(&owner.id, dseq)
}

#[test]
fn an_issuance_domain_admits_its_members_without_the_issuers_authorization() {
    let mut env = Env::new();
    let [issuer, member, outsider] = env.funded(["dIssuer", "dMember", "dOutsider"]);
    let domain = kyc_domain(&mut env, &issuer, &issuer, &member);
    let seq = env.seq(&issuer);
    let create = Tx::new("MPTokenIssuanceCreate")
        .flags(ctf::REQUIRE_AUTH | ctf::CAN_TRANSFER)
        .h256("DomainID", domain);
    env.apply(&issuer, create, Ter::tesSUCCESS);
    let id = MptId::new(seq, &issuer.id);
    let iss = env.read(&keylet::mpt_issuance(&id)).unwrap();
    assert_eq!(iss.h256_of(sf().domain_id), Some(domain));
    env.apply(&member, opt_in(&id), Ter::tesSUCCESS);
    env.apply(&outsider, opt_in(&id), Ter::tesSUCCESS);
    env.apply(&issuer, pay_mpt(&member.id, &id, 10), Ter::tesSUCCESS);
    env.apply(&issuer, pay_mpt(&outsider.id, &id, 10), Ter::tecNO_AUTH);

    // MPTokenIssuanceSet changes or removes the domain.
    let set_domain = |d: Hash256| issuance_set(&id, 0).h256("DomainID", d);
    env.apply(
        &issuer,
        set_domain(Hash256([7; 32])),
        Ter::tecOBJECT_NOT_FOUND,
    );
    env.apply(&issuer, set_domain(Hash256::ZERO), Ter::tesSUCCESS);
    let iss = env.read(&keylet::mpt_issuance(&id)).unwrap();
    assert!(iss.h256_of(sf().domain_id).is_none());
    env.apply(&issuer, pay_mpt(&member.id, &id, 10), Ter::tecNO_AUTH);
    env.apply(&issuer, set_domain(domain), Ter::tesSUCCESS);
    env.apply(&issuer, pay_mpt(&member.id, &id, 10), Ter::tesSUCCESS);
    assert_eq!(held(&env, &id, &member.id), Some(20));
}

#[test]
fn recreating_the_mptoken_on_withdrawal_needs_the_reserve() {
    let mut env = Env::new();
    let [issuer, owner, depositor] = env.funded(["mvIssuer", "mvOwner", "mvDepositor"]);
    let flags = ctf::CAN_TRANSFER | ctf::CAN_LOCK;
    let asset = token(&mut env, &issuer, flags, &[&depositor, &owner]);
    let (key, _, _) = open(&mut env, &owner, &asset);
    env.apply(
        &depositor,
        pay_mpt(&owner.id, &asset, 1000),
        Ter::tesSUCCESS,
    );
    env.apply(&owner, deposit(key, &asset, 1000), Ter::tesSUCCESS);
    let opt_out = opt_in(&asset).flags(auth_tf::UNAUTHORIZE);
    env.apply(&owner, opt_out, Ter::tesSUCCESS);
    env.apply(&owner, ticket_create(1), Ter::tesSUCCESS);
    // The vault, the share token and the ticket: the new MPToken is the fourth entry.
    assert_eq!(env.owner_count(&owner), 3);
    let fees = env.store.fees();
    let reserve = (fees.reserve_base_drops + 4 * fees.reserve_inc_drops) as i64;
    let spare = env.balance(&owner) - fees.base_drops as i64 - (reserve - 1);
    env.apply(&owner, pay(&issuer, drops(spare)), Ter::tesSUCCESS);
    env.apply(
        &owner,
        withdraw(key, &asset, 100),
        Ter::tecINSUFFICIENT_RESERVE,
    );
    env.apply(&depositor, pay(&owner, xrp(50)), Ter::tesSUCCESS);
    env.apply(&owner, withdraw(key, &asset, 100), Ter::tesSUCCESS);
    assert_eq!(held(&env, &asset, &owner.id), Some(100));
}

#[test]
fn an_iou_vault_whose_pseudo_account_line_is_frozen_locks_its_shares() {
    // Before fixCleanup3_3_0 (rules_cleanup330_vault.rs has both ways).
    let mut env = crate::rules::env_without(&[Feature::FixCleanup3_3_0]);
    let [issuer, owner, charlie] = env.funded(["fIssuer", "fOwner", "fCharlie"]);
    env.apply(
        &issuer,
        Tx::new("AccountSet").u32("SetFlag", 8),
        Ter::tesSUCCESS,
    );
    for a in [&owner, &charlie] {
        env.apply(a, trust(issuer.iou("USD", 1000)), Ter::tesSUCCESS);
    }
    env.apply(
        &issuer,
        pay(&owner, issuer.iou("USD", 200)),
        Ter::tesSUCCESS,
    );
    let seq = env.seq(&owner);
    let mut create = Tx::new("VaultCreate");
    let usd = issuer.iou("USD", 0).issue();
    create.0.set(sf().asset, StValue::Issue(usd));
    let create = with_fee(&env, create);
    env.apply(&owner, create, Ter::tesSUCCESS);
    let key = keylet::vault(&owner.id, seq);
    let v = env.read(&key).unwrap();
    let pseudo = v.account_of(sf().account).unwrap();
    let share = v.mpt_id_of(sf().share_mpt_id).unwrap();
    let iss = env.read(&keylet::mpt_issuance(&share)).unwrap();
    // fixCleanup3_2_0 (in ledgerd's rule book; without it: rules_cleanup320.rs) has the
    // shares name the pseudo-account's line.
    let line = keylet::line(&pseudo, &issuer.id, &cur("USD"));
    assert_eq!(iss.h256_of(sf().reference_holding), Some(line));
    assert!(env
        .read(&keylet::line(&pseudo, &issuer.id, &cur("USD")))
        .is_some());
    let dep = |n| {
        Tx::new("VaultDeposit")
            .h256("VaultID", key)
            .amount("Amount", issuer.iou("USD", n))
    };
    env.apply(&owner, dep(100), Ter::tesSUCCESS);
    // The issuer freezes the pseudo-account's line (tfSetFreeze).
    let mut limit = issuer.iou("USD", 0);
    if let ledgerd::protocol::amount::Amount::Iou { issuer: i, .. } = &mut limit {
        *i = pseudo;
    }
    env.apply(&issuer, trust(limit).flags(0x0010_0000), Ter::tesSUCCESS);
    env.apply(&owner, dep(80), Ter::tecLOCKED);
    let wd = Tx::new("VaultWithdraw")
        .h256("VaultID", key)
        .amount("Amount", issuer.iou("USD", 100));
    env.apply(&owner, wd, Ter::tecLOCKED);
}
