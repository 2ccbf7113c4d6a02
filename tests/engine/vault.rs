//! Single-asset vault stories, after rippled's `Vault_test.cpp`: an owner creates a vault
//! (a Vault entry, a pseudo-account, a share issuance issued by the pseudo-account and
//! the owner's share token), depositors get `assets x 10^Scale` shares for the first
//! deposit and pro-rata shares after, withdraw by assets or by shares, and the owner
//! deletes the emptied vault; every malformed form and failure with rippled's code.

use crate::support;

use ledgerd::engine::vault::number_of;
use ledgerd::engine::Ter;
use ledgerd::ledger::flags::{lsf, lsf_mpt, lt};
use ledgerd::ledger::keylet;
use ledgerd::ledger::sf::{sf, StExt};
use ledgerd::protocol::mpt::{MptAmount, MptId};
use ledgerd::protocol::number::Number;
use ledgerd::protocol::st::StValue;
use ledgerd::protocol::types::{Hash256, Issue};
use support::engine::*;
use support::mpt::outstanding;

const PRIVATE: u32 = 0x0001_0000;

fn create(asset: Issue) -> Tx {
    let mut tx = Tx::new("VaultCreate");
    tx.0.set(sf().asset, StValue::Issue(asset));
    tx
}

fn number(tx: Tx, name: &str, mantissa: i64, exponent: i32) -> Tx {
    let mut tx = tx;
    let mut b = mantissa.to_be_bytes().to_vec();
    b.extend_from_slice(&exponent.to_be_bytes());
    tx.0.set(
        ledgerd::protocol::definitions::Field::named(name),
        StValue::Fixed(b),
    );
    tx
}

fn deposit(vault: Hash256, amount: ledgerd::protocol::amount::Amount) -> Tx {
    Tx::new("VaultDeposit")
        .h256("VaultID", vault)
        .amount("Amount", amount)
}

fn withdraw(vault: Hash256, amount: ledgerd::protocol::amount::Amount) -> Tx {
    Tx::new("VaultWithdraw")
        .h256("VaultID", vault)
        .amount("Amount", amount)
}

fn withdraw_shares(vault: Hash256, share: MptId, n: u64) -> Tx {
    let mut tx = Tx::new("VaultWithdraw").h256("VaultID", vault);
    tx.0.set(sf().amount, StValue::MptAmount(MptAmount::new(n, share)));
    tx
}

fn delete(vault: Hash256) -> Tx {
    Tx::new("VaultDelete").h256("VaultID", vault)
}

/// Creates a vault of `asset` for `owner`; returns its key and share id.
fn open(env: &mut Env, owner: &Account, tx: Tx) -> (Hash256, MptId) {
    let seq = env.seq(owner);
    let tx = with_fee(env, tx);
    env.apply(owner, tx, Ter::tesSUCCESS);
    let key = keylet::vault(&owner.id, seq);
    let v = env.read(&key).expect("the Vault");
    (key, v.mpt_id_of(sf().share_mpt_id).expect("ShareMPTID"))
}

fn totals(env: &Env, key: &Hash256) -> (Number, Number) {
    let v = env.read(key).unwrap();
    (
        number_of(&v, sf().assets_total),
        number_of(&v, sf().assets_available),
    )
}

fn shares_of(env: &Env, share: &MptId, who: &Account) -> u64 {
    env.read(&keylet::mptoken(share, &who.id))
        .and_then(|t| t.u64_of(sf().mpt_amount))
        .unwrap_or(0)
}

fn pseudo_drops(env: &Env, id: &ledgerd::protocol::types::AccountId) -> i64 {
    env.read(&keylet::account(id))
        .map(|r| r.drops_of(sf().balance))
        .unwrap_or(0)
}

#[test]
fn an_xrp_vault_is_created_filled_emptied_and_deleted() {
    let mut env = Env::new();
    let [owner, depositor] = env.funded(["vOwner", "vDepositor"]);
    let (key, share) = open(&mut env, &owner, create(Issue::XRP));
    let s = sf();
    let v = env.read(&key).unwrap();
    assert_eq!(v.u16_of(s.ledger_entry_type), Some(lt::VAULT));
    assert_eq!(v.account_of(s.owner), Some(owner.id));
    assert_eq!(v.u8_of(s.withdrawal_policy), Some(1));
    assert!(v.u8_of(s.scale).is_none(), "XRP vaults have no Scale");
    let pseudo = v.account_of(s.account).unwrap();
    let root = env.read(&keylet::account(&pseudo)).expect("pseudo-account");
    assert_eq!(root.u32_of(s.sequence), Some(0));
    assert_eq!(root.h256_of(s.vault_id), Some(key));
    assert!(root.is_flag(lsf::DISABLE_MASTER) && root.is_flag(lsf::DEPOSIT_AUTH));
    let iss = env.read(&keylet::mpt_issuance(&share)).unwrap();
    assert_eq!(share, MptId::new(1, &pseudo));
    assert_eq!(iss.account_of(s.issuer), Some(pseudo));
    assert_eq!(
        iss.flags(),
        lsf_mpt::CAN_ESCROW | lsf_mpt::CAN_TRADE | lsf_mpt::CAN_TRANSFER
    );
    // The vault and the owner's share token.
    assert_eq!(env.owner_count(&owner), 2);
    assert!(env.read(&keylet::mptoken(&share, &owner.id)).is_some());

    let before = env.balance(&depositor);
    env.apply(&depositor, deposit(key, xrp(100)), Ter::tesSUCCESS);
    assert_eq!(shares_of(&env, &share, &depositor), 100_000_000);
    assert_eq!(env.balance(&depositor), before - 100_000_000 - 10);
    assert_eq!(pseudo_drops(&env, &pseudo), 100_000_000);
    assert_eq!(totals(&env, &key).0, Number::from_i64(100_000_000));
    env.apply(&owner, deposit(key, xrp(50)), Ter::tesSUCCESS);
    assert_eq!(shares_of(&env, &share, &owner), 50_000_000);
    assert_eq!(outstanding(&env, &share), 150_000_000);

    env.apply(&owner, with_fee(&env, delete(key)), Ter::tecHAS_OBLIGATIONS);
    // By assets, then by shares.
    env.apply(&depositor, withdraw(key, xrp(40)), Ter::tesSUCCESS);
    assert_eq!(shares_of(&env, &share, &depositor), 60_000_000);
    env.apply(
        &depositor,
        withdraw_shares(key, share, 60_000_001),
        Ter::tecINSUFFICIENT_FUNDS,
    );
    env.apply(
        &depositor,
        withdraw_shares(key, share, 60_000_000),
        Ter::tesSUCCESS,
    );
    assert!(
        env.read(&keylet::mptoken(&share, &depositor.id)).is_none(),
        "an emptied holder's token goes"
    );
    env.apply(&owner, withdraw(key, xrp(50)), Ter::tesSUCCESS);
    assert!(
        env.read(&keylet::mptoken(&share, &owner.id)).is_some(),
        "the owner keeps its token"
    );
    assert!(totals(&env, &key).0.is_zero());
    assert_eq!(pseudo_drops(&env, &pseudo), 0);

    env.apply(&depositor, delete(key), Ter::tecNO_PERMISSION);
    env.apply(&owner, delete(key), Ter::tesSUCCESS);
    assert!(env.read(&key).is_none());
    assert!(env.read(&keylet::account(&pseudo)).is_none());
    assert!(env.read(&keylet::mpt_issuance(&share)).is_none());
    assert_eq!(env.owner_count(&owner), 0);
    env.apply(&owner, delete(key), Ter::tecNO_ENTRY);
}

#[test]
fn an_iou_vault_scales_shares_and_keeps_its_line() {
    let mut env = Env::new();
    let [gw, owner, alice] = env.funded(["vGw", "vIouOwner", "vAlice"]);
    env.apply(
        &gw,
        fset(ledgerd::engine::account_set::asf::DEFAULT_RIPPLE),
        Ter::tesSUCCESS,
    );
    env.apply(&alice, trust(gw.iou("USD", 1000)), Ter::tesSUCCESS);
    env.apply(&gw, pay(&alice, gw.iou("USD", 500)), Ter::tesSUCCESS);
    let usd = gw.iou("USD", 0).issue();
    let (key, share) = open(&mut env, &owner, create(usd));
    let pseudo = env.read(&key).unwrap().account_of(sf().account).unwrap();
    assert_eq!(env.read(&key).unwrap().u8_of(sf().scale), Some(6));
    let line = env
        .read(&keylet::line(&pseudo, &gw.id, &usd.currency))
        .expect("the pseudo-account's line");
    assert!(line.u64_of(sf().low_node).is_some());
    let pseudo_root = env.read(&keylet::account(&pseudo)).unwrap();
    assert_eq!(pseudo_root.u32_of(sf().owner_count), Some(2));

    env.apply(&alice, deposit(key, gw.iou("USD", 100)), Ter::tesSUCCESS);
    assert_eq!(shares_of(&env, &share, &alice), 100_000_000);
    assert_eq!(env.iou_balance(&alice, &gw, "USD"), val("400"));
    env.apply(
        &alice,
        deposit(key, gw.iou("USD", 401)),
        Ter::tecINSUFFICIENT_FUNDS,
    );
    env.apply(&alice, deposit(key, gw.iou("EUR", 1)), Ter::tecWRONG_ASSET);
    env.apply(&alice, deposit(key, xrp(1)), Ter::tecWRONG_ASSET);
    env.apply(&alice, withdraw(key, gw.iou("USD", 40)), Ter::tesSUCCESS);
    assert_eq!(shares_of(&env, &share, &alice), 60_000_000);
    assert_eq!(env.iou_balance(&alice, &gw, "USD"), val("440"));
    assert_eq!(
        totals(&env, &key),
        (Number::from_i64(60), Number::from_i64(60))
    );
    env.apply(
        &alice,
        withdraw(key, gw.iou("USD", 61)),
        Ter::tecINSUFFICIENT_FUNDS,
    );
    env.apply(&alice, withdraw(key, gw.iou("USD", 60)), Ter::tesSUCCESS);
    env.apply(&owner, delete(key), Ter::tesSUCCESS);
    assert!(env
        .read(&keylet::line(&pseudo, &gw.id, &usd.currency))
        .is_none());
    assert_eq!(env.owner_count(&owner), 0);
}

#[test]
fn a_deposit_past_assets_maximum_is_refused() {
    let mut env = Env::new();
    let [owner, alice] = env.funded(["vMaxOwner", "vMaxAlice"]);
    let (key, _) = open(
        &mut env,
        &owner,
        number(create(Issue::XRP), "AssetsMaximum", 150_000_000, 0),
    );
    env.apply(&alice, deposit(key, xrp(100)), Ter::tesSUCCESS);
    env.apply(&alice, deposit(key, xrp(51)), Ter::tecLIMIT_EXCEEDED);
    env.apply(&alice, deposit(key, xrp(50)), Ter::tesSUCCESS);
}

#[test]
fn later_deposits_get_pro_rata_shares() {
    let mut env = Env::new();
    let [owner, a, b] = env.funded(["vProOwner", "vProA", "vProB"]);
    let (key, share) = open(&mut env, &owner, create(Issue::XRP));
    env.apply(&a, deposit(key, drops(3)), Ter::tesSUCCESS);
    env.apply(&b, deposit(key, drops(7)), Ter::tesSUCCESS);
    // rippled's `shareTotal * (assets / assetTotal)`: 3 x (7/3) is 6.999999999999999
    // in Number's 16 digits, truncated to 6 shares, which cost 3 x (6/3) = 6 drops.
    assert_eq!(
        (shares_of(&env, &share, &a), shares_of(&env, &share, &b)),
        (3, 6)
    );
    assert_eq!(totals(&env, &key).0, Number::from_i64(9));
    env.apply(&a, withdraw_shares(key, share, 1), Ter::tesSUCCESS);
    assert_eq!(totals(&env, &key).0, Number::from_i64(8));
}

#[test]
fn malformed_vault_transactions() {
    let mut env = Env::new();
    let [owner, other] = env.funded(["vBadOwner", "vBadOther"]);
    let fee = |env: &Env, tx| with_fee(env, tx);
    let bad = [
        create(Issue::XRP).blob("Data", b""),
        create(Issue::XRP).blob("Data", &[0u8; 257]),
        create(Issue::XRP).u8("WithdrawalPolicy", 2),
        create(Issue::XRP).h256("DomainID", Hash256([1; 32])),
        create(Issue::XRP)
            .flags(PRIVATE)
            .h256("DomainID", Hash256::ZERO),
        create(Issue::XRP).u8("Scale", 1),
        number(create(Issue::XRP), "AssetsMaximum", -1, 0),
        create(Issue::XRP).blob("MPTokenMetadata", b""),
    ];
    for tx in bad {
        let tx = fee(&env, tx);
        env.apply(&owner, tx, Ter::temMALFORMED);
    }
    let tx = fee(&env, create(Issue::XRP).flags(0x0004_0000));
    env.apply(&owner, tx, Ter::temINVALID_FLAG);
    let (key, _) = open(&mut env, &owner, create(Issue::XRP));
    env.apply(&owner, deposit(Hash256::ZERO, xrp(1)), Ter::temMALFORMED);
    env.apply(&owner, deposit(key, drops(0)), Ter::temBAD_AMOUNT);
    env.apply(&owner, deposit(Hash256([7; 32]), xrp(1)), Ter::tecNO_ENTRY);
    env.apply(&owner, withdraw(key, drops(-1)), Ter::temBAD_AMOUNT);
    env.apply(
        &owner,
        withdraw(key, xrp(1)).account("Destination", &ledgerd::protocol::types::AccountId::ZERO),
        Ter::temMALFORMED,
    );
    env.apply(&other, delete(key), Ter::tecNO_PERMISSION);
    env.apply(&owner, delete(Hash256::ZERO), Ter::temMALFORMED);
}

#[test]
fn an_issuer_without_default_ripple_or_a_missing_domain_is_refused() {
    let mut env = Env::new();
    let [gw, owner] = env.funded(["vNoRippleGw", "vNoRippleOwner"]);
    let tx = with_fee(&env, create(gw.iou("USD", 0).issue()));
    env.apply(&owner, tx, Ter::terNO_RIPPLE);
    let tx = with_fee(
        &env,
        create(Issue::XRP)
            .flags(PRIVATE)
            .h256("DomainID", Hash256([3; 32])),
    );
    env.apply(&owner, tx, Ter::tecOBJECT_NOT_FOUND);
}

#[test]
fn a_private_vault_without_a_domain_takes_only_its_owner() {
    // Without fixCleanup3_4_0, under which a private vault pays a third party only when
    // both are in its domain (rules_cleanup340_vault.rs).
    let off = [ledgerd::protocol::features::Feature::FixCleanup3_4_0];
    let mut env = crate::rules::env_without(&off);
    let [owner, alice, bob] = env.funded(["vPrivOwner", "vPrivAlice", "vPrivBob"]);
    let (key, share) = open(&mut env, &owner, create(Issue::XRP).flags(PRIVATE));
    let v = env.read(&key).unwrap();
    assert_eq!(v.flags(), PRIVATE);
    let iss = env.read(&keylet::mpt_issuance(&share)).unwrap();
    assert!(iss.flags() & lsf_mpt::REQUIRE_AUTH != 0);
    let token = env.read(&keylet::mptoken(&share, &owner.id)).unwrap();
    assert!(token.flags() & lsf_mpt::AUTHORIZED != 0);
    env.apply(&alice, deposit(key, xrp(10)), Ter::tecNO_AUTH);
    env.apply(&owner, deposit(key, xrp(10)), Ter::tesSUCCESS);
    // Withdrawing to a third party that needs a tag, or does not exist.
    env.apply(&bob, fset(1), Ter::tesSUCCESS);
    env.apply(
        &owner,
        withdraw(key, xrp(1)).account("Destination", &bob.id),
        Ter::tecDST_TAG_NEEDED,
    );
    let ghost = Account::new("vPrivGhost");
    env.apply(
        &owner,
        withdraw(key, xrp(1)).account("Destination", &ghost.id),
        Ter::tecNO_DST,
    );
    let before = env.balance(&alice);
    env.apply(
        &owner,
        withdraw(key, xrp(1)).account("Destination", &alice.id),
        Ter::tesSUCCESS,
    );
    assert_eq!(env.balance(&alice), before + 1_000_000);
}

fn vault_set(vault: Hash256) -> Tx {
    Tx::new("VaultSet").h256("VaultID", vault)
}

#[test]
fn vault_set_changes_data_the_cap_and_the_domain() {
    let mut env = Env::new();
    let [owner, alice] = env.funded(["vSetOwner", "vSetAlice"]);
    let (key, share) = open(&mut env, &owner, create(Issue::XRP));
    env.apply(&owner, vault_set(key), Ter::temMALFORMED);
    env.apply(&owner, vault_set(key).blob("Data", b""), Ter::temMALFORMED);
    env.apply(
        &owner,
        number(vault_set(key), "AssetsMaximum", -5, 0),
        Ter::temMALFORMED,
    );
    env.apply(
        &alice,
        vault_set(key).blob("Data", b"x"),
        Ter::tecNO_PERMISSION,
    );
    env.apply(
        &owner,
        vault_set(Hash256([9; 32])).blob("Data", b"x"),
        Ter::tecNO_ENTRY,
    );
    env.apply(
        &owner,
        vault_set(key).blob("Data", b"hello"),
        Ter::tesSUCCESS,
    );
    assert_eq!(
        env.read(&key).unwrap().blob_of(sf().data),
        Some(&b"hello"[..])
    );
    env.apply(&alice, deposit(key, xrp(10)), Ter::tesSUCCESS);
    env.apply(
        &owner,
        number(vault_set(key), "AssetsMaximum", 9_999_999, 0),
        Ter::tecLIMIT_EXCEEDED,
    );
    env.apply(
        &owner,
        number(vault_set(key), "AssetsMaximum", 10_000_000, 0),
        Ter::tesSUCCESS,
    );
    env.apply(&alice, deposit(key, drops(1)), Ter::tecLIMIT_EXCEEDED);
    // Zero lifts the cap.
    env.apply(
        &owner,
        number(vault_set(key), "AssetsMaximum", 0, i32::MIN),
        Ter::tesSUCCESS,
    );
    env.apply(&alice, deposit(key, drops(1)), Ter::tesSUCCESS);
    env.apply(
        &owner,
        vault_set(key).h256("DomainID", Hash256([1; 32])),
        Ter::tecNO_PERMISSION,
    );
    let _ = share;
}

#[test]
fn a_private_vault_with_a_domain_takes_its_credentialed_members() {
    use ledgerd::protocol::definitions::Field;
    use ledgerd::protocol::st::StObject;
    let mut env = Env::new();
    let [owner, issuer, alice, bob] =
        env.funded(["vDomOwner", "vDomIssuer", "vDomAlice", "vDomBob"]);
    let dseq = env.seq(&owner);
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
    env.apply(&owner, dom, Ter::tesSUCCESS);
    let domain = keylet::permissioned_domain(&owner.id, dseq);
    env.apply(
        &issuer,
        Tx::new("CredentialCreate")
            .account("Subject", &alice.id)
            .blob("CredentialType", b"KYC"),
        Ter::tesSUCCESS,
    );
    env.apply(
        &alice,
        Tx::new("CredentialAccept")
            .account("Issuer", &issuer.id)
            .blob("CredentialType", b"KYC"),
        Ter::tesSUCCESS,
    );
    let (key, share) = open(
        &mut env,
        &owner,
        create(Issue::XRP).flags(PRIVATE).h256("DomainID", domain),
    );
    let iss = env.read(&keylet::mpt_issuance(&share)).unwrap();
    assert_eq!(iss.h256_of(sf().domain_id), Some(domain));
    env.apply(&alice, deposit(key, xrp(5)), Ter::tesSUCCESS);
    let token = env.read(&keylet::mptoken(&share, &alice.id)).unwrap();
    assert!(token.flags() & lsf_mpt::AUTHORIZED != 0);
    env.apply(&bob, deposit(key, xrp(5)), Ter::tecNO_AUTH);
    // Without its domain the vault takes its owner only.
    env.apply(
        &owner,
        vault_set(key).h256("DomainID", Hash256::ZERO),
        Ter::tesSUCCESS,
    );
    let iss = env.read(&keylet::mpt_issuance(&share)).unwrap();
    assert!(iss.h256_of(sf().domain_id).is_none());
    env.apply(&alice, deposit(key, xrp(5)), Ter::tecNO_AUTH);
    // Alice still withdraws what she has.
    env.apply(&alice, withdraw(key, xrp(5)), Ter::tesSUCCESS);
    env.apply(
        &owner,
        vault_set(key).h256("DomainID", Hash256([4; 32])),
        Ter::tecOBJECT_NOT_FOUND,
    );
}

fn clawback_from(vault: Hash256, holder: &Account) -> Tx {
    Tx::new("VaultClawback")
        .h256("VaultID", vault)
        .account("Holder", &holder.id)
}

#[test]
fn the_issuer_claws_back_a_holders_assets_from_the_vault() {
    let mut env = Env::new();
    let [gw, owner, alice] = env.funded(["vCbGw", "vCbOwner", "vCbAlice"]);
    env.apply(&gw, fset(16), Ter::tesSUCCESS); // asfAllowTrustLineClawback
    env.apply(
        &gw,
        fset(ledgerd::engine::account_set::asf::DEFAULT_RIPPLE),
        Ter::tesSUCCESS,
    );
    env.apply(&alice, trust(gw.iou("USD", 1000)), Ter::tesSUCCESS);
    env.apply(&gw, pay(&alice, gw.iou("USD", 500)), Ter::tesSUCCESS);
    let (key, share) = open(&mut env, &owner, create(gw.iou("USD", 0).issue()));
    env.apply(&alice, deposit(key, gw.iou("USD", 100)), Ter::tesSUCCESS);

    env.apply(&owner, clawback_from(key, &alice), Ter::tecNO_PERMISSION);
    env.apply(&gw, clawback_from(key, &gw), Ter::temMALFORMED);
    env.apply(
        &gw,
        clawback_from(key, &alice).amount("Amount", xrp(1)),
        Ter::temMALFORMED,
    );
    env.apply(
        &gw,
        clawback_from(key, &alice).amount("Amount", alice.iou("USD", 1)),
        Ter::temMALFORMED,
    );
    env.apply(
        &gw,
        clawback_from(key, &alice).amount("Amount", gw.iou("EUR", 1)),
        Ter::tecWRONG_ASSET,
    );
    env.apply(
        &gw,
        clawback_from(key, &alice).amount("Amount", gw.iou("USD", 30)),
        Ter::tesSUCCESS,
    );
    assert_eq!(shares_of(&env, &share, &alice), 70_000_000);
    assert_eq!(totals(&env, &key).0, Number::from_i64(70));
    // All that is left (no Amount).
    env.apply(&gw, clawback_from(key, &alice), Ter::tesSUCCESS);
    assert_eq!(shares_of(&env, &share, &alice), 0);
    assert!(totals(&env, &key).0.is_zero());
    assert_eq!(env.iou_balance(&alice, &gw, "USD"), val("400"));
    env.apply(&gw, clawback_from(key, &alice), Ter::tecINSUFFICIENT_FUNDS);
    env.apply(&owner, delete(key), Ter::tesSUCCESS);
}

#[test]
fn xrp_is_never_clawed_back_from_a_vault() {
    let mut env = Env::new();
    let [owner, alice] = env.funded(["vCbXrpOwner", "vCbXrpAlice"]);
    let (key, _) = open(&mut env, &owner, create(Issue::XRP));
    env.apply(&alice, deposit(key, xrp(5)), Ter::tesSUCCESS);
    env.apply(&owner, clawback_from(key, &alice), Ter::tecNO_PERMISSION);
    env.apply(
        &owner,
        clawback_from(Hash256([5; 32]), &alice),
        Ter::tecNO_ENTRY,
    );
}

/// Issue 29 defect 8, as rippled's `VaultWithdraw` answers: shares whose worth outgrows
/// an XRP amount end in `tefEXCEPTION` (the `std::runtime_error` of drops past 10^17
/// escapes the `catch (std::overflow_error)`), not applied and no fee; a share count
/// past an i64 is that overflow, caught as `tecPATH_DRY`.
#[test]
fn withdrawals_worth_more_than_an_amount_holds() {
    let mut env = Env::new();
    let [owner, alice] = env.funded(["vBigOwner", "vBigAlice"]);
    let (key, share) = open(&mut env, &owner, create(Issue::XRP));
    env.apply(&alice, deposit(key, xrp(100)), Ter::tesSUCCESS);
    // 10^15 shares are worth 10^15 drops: a real amount, more than alice has.
    let before = env.balance(&alice);
    let tx = withdraw_shares(key, share, 1_000_000_000_000_000);
    env.apply(&alice, tx, Ter::tecINSUFFICIENT_FUNDS);
    assert_eq!(env.balance(&alice), before - 10, "the fee is charged");
    // 10^18 and 2^63 - 1 shares are worth that many drops: no XRP amount holds them.
    for n in [1_000_000_000_000_000_000, i64::MAX as u64] {
        let (before, seq) = (env.balance(&alice), env.seq(&alice));
        env.apply(&alice, withdraw_shares(key, share, n), Ter::tefEXCEPTION);
        assert_eq!((env.balance(&alice), env.seq(&alice)), (before, seq));
    }
    // Past 2^63 - 1 no MPT amount is meant (rippled reads it as negative): refused.
    let tx = withdraw_shares(key, share, 1 << 63);
    env.apply(&alice, tx, Ter::temBAD_AMOUNT);
    assert_eq!(shares_of(&env, &share, &alice), 100_000_000);
    assert_eq!(totals(&env, &key).0, Number::from_i64(100_000_000));
}

/// The other side of the same defect: in an IOU vault (10^6 shares a USD) a deposit or
/// withdrawal of 10^15 USD or more needs more shares than an MPT amount holds; rippled's
/// `catch (std::overflow_error)` answers `tecPATH_DRY` (fee charged), where ledgerd
/// answered `tecINTERNAL`.
#[test]
fn iou_amounts_needing_more_shares_than_an_mpt_holds() {
    let mut env = Env::new();
    let [gw, owner, alice] = env.funded(["vBigGw", "vBigIouOwner", "vBigIouAlice"]);
    env.apply(
        &gw,
        fset(ledgerd::engine::account_set::asf::DEFAULT_RIPPLE),
        Ter::tesSUCCESS,
    );
    env.apply(&alice, trust(gw.iou("USD", 1000)), Ter::tesSUCCESS);
    env.apply(&gw, pay(&alice, gw.iou("USD", 500)), Ter::tesSUCCESS);
    let (key, share) = open(&mut env, &owner, create(gw.iou("USD", 0).issue()));
    env.apply(&alice, deposit(key, gw.iou("USD", 100)), Ter::tesSUCCESS);
    let big = gw.iou_s("USD", "1e15");
    env.apply(&alice, withdraw(key, big), Ter::tecPATH_DRY);
    // The issuer may deposit any amount of its own issue.
    env.apply(&gw, deposit(key, gw.iou_s("USD", "1e20")), Ter::tecPATH_DRY);
    env.apply(&alice, withdraw(key, gw.iou("USD", 100)), Ter::tesSUCCESS);
    assert_eq!(shares_of(&env, &share, &alice), 0);
}
