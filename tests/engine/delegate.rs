//! Permission delegation stories, after rippled's `Delegate_test.cpp`: DelegateSet
//! creating, replacing and deleting a Delegate entry (limit, self, duplicates, types that
//! cannot be delegated, the reserve), transactions sent with a `Delegate` (the delegate
//! signs and pays the fee, terNO_DELEGATE_PERMISSION without the permission), granular
//! permissions (PaymentMint / PaymentBurn, TrustlineAuthorize / Freeze / Unfreeze,
//! AccountDomainSet ...), and AccountDelete taking the entries with the account.

use crate::support;

use ledgerd::engine::Ter;
use ledgerd::ledger::flags::lt;
use ledgerd::ledger::keylet;
use ledgerd::ledger::sf::{sf, StExt};
use ledgerd::ledger::view::ReadView;
use ledgerd::protocol::definitions::Field;
use ledgerd::protocol::permission::value_of_name;
use ledgerd::protocol::st::{StObject, StValue};
use support::engine::*;

const TF_SET_AUTH: u32 = 0x0001_0000;
const TF_SET_NO_RIPPLE: u32 = 0x0002_0000;
const TF_SET_FREEZE: u32 = 0x0010_0000;
const TF_CLEAR_FREEZE: u32 = 0x0020_0000;

fn delegate_set(to: &Account, names: &[&str]) -> Tx {
    let list = names
        .iter()
        .map(|n| {
            let mut p = StObject::new();
            p.set(
                sf().permission_value,
                StValue::UInt32(value_of_name(n).expect("a permission name")),
            );
            (Field::named("Permission"), p)
        })
        .collect();
    let mut tx = Tx::new("DelegateSet").account("Authorize", &to.id);
    tx.0.set(sf().permissions, StValue::Array(list));
    tx
}

/// `tx` sent by `who`'s delegate `by`, signed by `by`.
fn send_as(env: &mut Env, who: &Account, by: &Account, tx: Tx) -> Ter {
    env.submit_signed(who, &by.kp, tx.account("Delegate", &by.id))
}

fn held(env: &Env, a: &Account, b: &Account) -> Option<Vec<u32>> {
    let e = env.read(&keylet::delegate(&a.id, &b.id))?;
    assert_eq!(e.u16_of(sf().ledger_entry_type), Some(lt::DELEGATE));
    assert_eq!(e.account_of(sf().account), Some(a.id));
    assert_eq!(e.account_of(sf().authorize), Some(b.id));
    Some(ledgerd::engine::delegate::permission_values(&e))
}

fn values(names: &[&str]) -> Vec<u32> {
    names.iter().map(|n| value_of_name(n).unwrap()).collect()
}

#[test]
fn delegate_set_creates_replaces_and_deletes_the_entry() {
    let mut env = Env::new();
    let [gw, alice] = env.funded(["gateway", "alice"]);
    let first = [
        "Payment",
        "EscrowCreate",
        "EscrowFinish",
        "TrustlineAuthorize",
        "CheckCreate",
    ];
    env.apply(&gw, delegate_set(&alice, &first), Ter::tesSUCCESS);
    assert_eq!(held(&env, &gw, &alice), Some(values(&first)));
    assert_eq!(env.owner_count(&gw), 1);
    assert_eq!(env.owned(&gw), vec![keylet::delegate(&gw.id, &alice.id)]);
    let second = ["Payment", "AMMCreate", "AMMDeposit", "AMMWithdraw"];
    env.apply(&gw, delegate_set(&alice, &second), Ter::tesSUCCESS);
    assert_eq!(held(&env, &gw, &alice), Some(values(&second)));
    assert_eq!(env.owner_count(&gw), 1);
    env.apply(&gw, delegate_set(&alice, &[]), Ter::tesSUCCESS);
    assert_eq!(held(&env, &gw, &alice), None);
    assert_eq!(env.owner_count(&gw), 0);
    assert!(env.owned(&gw).is_empty());
    // The other way round is another entry.
    env.apply(&alice, delegate_set(&gw, &first), Ter::tesSUCCESS);
    assert_eq!(held(&env, &alice, &gw), Some(values(&first)));
    assert_eq!(held(&env, &gw, &alice), None);
    // An empty list with no entry changes nothing.
    env.apply(&gw, delegate_set(&alice, &[]), Ter::tesSUCCESS);
    assert_eq!(env.owner_count(&gw), 0);
}

#[test]
fn invalid_delegate_sets_get_rippleds_codes() {
    let mut env = Env::new();
    let [gw, alice] = env.funded(["gateway", "alice"]);
    let eleven = [
        "Payment",
        "EscrowCreate",
        "EscrowFinish",
        "EscrowCancel",
        "CheckCreate",
        "CheckCash",
        "CheckCancel",
        "DepositPreauth",
        "TrustSet",
        "NFTokenMint",
        "NFTokenBurn",
    ];
    env.apply(&gw, delegate_set(&alice, &eleven), Ter::temARRAY_TOO_LARGE);
    env.apply(&gw, delegate_set(&alice, &eleven[..10]), Ter::tesSUCCESS);
    env.apply(
        &alice,
        delegate_set(&alice, &["Payment"]),
        Ter::temMALFORMED,
    );
    let dup = [
        "Payment",
        "TrustlineAuthorize",
        "CheckCreate",
        "TrustlineAuthorize",
    ];
    env.apply(&gw, delegate_set(&alice, &dup), Ter::temMALFORMED);
    let unknown = Account::new("unknown");
    env.apply(&gw, delegate_set(&unknown, &["Payment"]), Ter::tecNO_TARGET);
    for t in [
        "SetRegularKey",
        "AccountSet",
        "SignerListSet",
        "DelegateSet",
        "AccountDelete",
        "EnableAmendment",
        "UNLModify",
        "SetFee",
    ] {
        env.apply(&gw, delegate_set(&alice, &[t]), Ter::temMALFORMED);
    }
    let bad_flags = delegate_set(&alice, &["Payment"]).flags(1);
    env.apply(&gw, bad_flags, Ter::temINVALID_FLAG);
}

#[test]
fn a_delegate_entry_needs_the_owner_reserve() {
    let mut env = Env::new();
    let [bob, carol] = env.funded(["bob", "carol"]);
    let f = env.store.current().view.info().fees;
    let base = f.base_drops as i64;
    let poor = Account::new("poor");
    env.fund(&poor, drops(f.account_reserve(0) + base));
    env.apply(
        &poor,
        delegate_set(&bob, &["Payment"]),
        Ter::tecINSUFFICIENT_RESERVE,
    );
    let alice = Account::new("alice");
    env.fund(&alice, drops(f.account_reserve(1) + 4 * base));
    env.apply(&alice, delegate_set(&bob, &["Payment"]), Ter::tesSUCCESS);
    env.apply(
        &alice,
        delegate_set(&carol, &["Payment"]),
        Ter::tecINSUFFICIENT_RESERVE,
    );
    env.apply(&alice, delegate_set(&bob, &[]), Ter::tesSUCCESS);
    env.apply(&alice, delegate_set(&carol, &["Payment"]), Ter::tesSUCCESS);
    assert_eq!(env.owner_count(&alice), 1);
}

#[test]
fn the_delegate_pays_the_fee_and_needs_the_permission() {
    let mut env = Env::new();
    let [alice, bob, carol] = env.funded(["alice", "bob", "carol"]);
    let before = (env.balance(&alice), env.balance(&bob), env.balance(&carol));
    let t = send_as(&mut env, &alice, &bob, pay(&carol, xrp(100)));
    assert_eq!(t, Ter::terNO_DELEGATE_PERMISSION);
    assert_eq!(
        before,
        (env.balance(&alice), env.balance(&bob), env.balance(&carol))
    );
    env.apply(&alice, delegate_set(&bob, &["Payment"]), Ter::tesSUCCESS);
    let before = (env.balance(&alice), env.balance(&bob), env.balance(&carol));
    let alice_seq = env.seq(&alice);
    let bob_seq = env.seq(&bob);
    let tx = pay(&carol, xrp(100)).amount("Fee", xrp(10));
    assert_eq!(send_as(&mut env, &alice, &bob, tx), Ter::tesSUCCESS);
    assert_eq!(env.balance(&alice), before.0 - 100_000_000);
    assert_eq!(env.balance(&bob), before.1 - 10_000_000);
    assert_eq!(env.balance(&carol), before.2 + 100_000_000);
    // The account's sequence is used, not the delegate's.
    assert_eq!(env.seq(&alice), alice_seq + 1);
    assert_eq!(env.seq(&bob), bob_seq);
    // A fee beyond the delegate's balance.
    let before = (env.balance(&alice), env.balance(&bob));
    let tx = pay(&carol, xrp(100)).amount("Fee", xrp(20_000));
    assert_eq!(send_as(&mut env, &alice, &bob, tx), Ter::terINSUF_FEE_B);
    assert_eq!(before, (env.balance(&alice), env.balance(&bob)));
    // Only the Payment permission: no other type.
    let t = send_as(&mut env, &alice, &bob, check_create(&carol, xrp(1)));
    assert_eq!(t, Ter::terNO_DELEGATE_PERMISSION);
}

#[test]
fn a_delegated_transaction_is_signed_by_the_delegate() {
    let mut env = Env::new();
    let [alice, bob, carol] = env.funded(["alice", "bob", "carol"]);
    env.apply(&alice, delegate_set(&bob, &["Payment"]), Ter::tesSUCCESS);
    // Delegate naming the account itself.
    let tx = pay(&carol, xrp(1)).account("Delegate", &alice.id);
    assert_eq!(env.submit(&alice, tx), Ter::temBAD_SIGNER);
    // Signed by the account instead of the delegate.
    let tx = pay(&carol, xrp(1)).account("Delegate", &bob.id);
    assert_eq!(env.submit(&alice, tx), Ter::tefBAD_AUTH);
    // The delegate's regular key signs for it.
    let key = Account::new("bobkey");
    env.apply(&bob, regular_key(&key), Ter::tesSUCCESS);
    let tx = pay(&carol, xrp(1)).account("Delegate", &bob.id);
    assert_eq!(env.submit_signed(&alice, &key.kp, tx), Ter::tesSUCCESS);
    // A delegate that does not exist.
    let ghost = Account::new("ghost");
    let tx = pay(&carol, xrp(1)).account("Delegate", &ghost.id);
    assert_eq!(
        env.submit_signed(&alice, &ghost.kp, tx),
        Ter::terNO_DELEGATE_PERMISSION
    );
}

#[test]
fn the_account_still_needs_its_reserve_when_a_delegate_sends() {
    let mut env = Env::new();
    let f = env.store.current().view.info().fees;
    let alice = Account::new("alice");
    let bob = Account::new("bob");
    env.fund(&alice, drops(f.account_reserve(1)));
    env.fund(&bob, drops(f.account_reserve(2)));
    env.apply(
        &alice,
        delegate_set(&bob, &["DIDSet", "DIDDelete"]),
        Ter::tesSUCCESS,
    );
    let did = || Tx::new("DIDSet").blob("URI", b"uri");
    let t = send_as(&mut env, &alice, &bob, did());
    assert_eq!(t, Ter::tecINSUFFICIENT_RESERVE);
    env.apply(&bob, did(), Ter::tesSUCCESS);
}

#[test]
fn payment_mint_and_burn_are_granular() {
    let mut env = Env::new();
    let [gw, alice, bob] = env.funded(["gateway", "alice", "bob"]);
    env.apply(&alice, trust(gw.iou("USD", 200)), Ter::tesSUCCESS);
    env.apply(&gw, delegate_set(&bob, &["PaymentMint"]), Ter::tesSUCCESS);
    let t = send_as(&mut env, &gw, &bob, pay(&alice, gw.iou("USD", 50)));
    assert_eq!(t, Ter::tesSUCCESS);
    assert_eq!(env.iou_balance(&alice, &gw, "USD"), val("50"));
    // Mint does not cover XRP, nor burning.
    let t = send_as(&mut env, &gw, &bob, pay(&alice, xrp(1)));
    assert_eq!(t, Ter::terNO_DELEGATE_PERMISSION);
    env.apply(
        &alice,
        delegate_set(&bob, &["PaymentBurn"]),
        Ter::tesSUCCESS,
    );
    let t = send_as(&mut env, &alice, &bob, pay(&gw, gw.iou("USD", 20)));
    assert_eq!(t, Ter::tesSUCCESS);
    assert_eq!(env.iou_balance(&alice, &gw, "USD"), val("30"));
    // Burn is to the issuer only.
    let t = send_as(&mut env, &alice, &bob, pay(&bob, gw.iou("USD", 1)));
    assert_eq!(t, Ter::terNO_DELEGATE_PERMISSION);
}

#[test]
fn trustline_granular_permissions_cover_their_flags_only() {
    let mut env = Env::new();
    let [gw, alice, bob] = env.funded(["gateway", "alice", "bob"]);
    env.gateway(&gw);
    env.apply(&alice, trust(gw.iou("USD", 100)), Ter::tesSUCCESS);
    env.apply(
        &gw,
        delegate_set(&bob, &["TrustlineAuthorize"]),
        Ter::tesSUCCESS,
    );
    let auth = || trust(alice.iou("USD", 0)).flags(TF_SET_AUTH);
    assert_eq!(send_as(&mut env, &gw, &bob, auth()), Ter::tesSUCCESS);
    assert_eq!(env.auth_flags(&alice, &gw, "USD"), (false, true));
    let freeze = || trust(alice.iou("USD", 0)).flags(TF_SET_FREEZE);
    assert_eq!(
        send_as(&mut env, &gw, &bob, freeze()),
        Ter::terNO_DELEGATE_PERMISSION
    );
    // Changing the limit, another flag, or a line that does not exist: not granted.
    let limit = trust(alice.iou("USD", 5)).flags(TF_SET_AUTH);
    assert_eq!(
        send_as(&mut env, &gw, &bob, limit),
        Ter::terNO_DELEGATE_PERMISSION
    );
    let no_ripple = trust(alice.iou("USD", 0)).flags(TF_SET_AUTH | TF_SET_NO_RIPPLE);
    assert_eq!(
        send_as(&mut env, &gw, &bob, no_ripple),
        Ter::terNO_DELEGATE_PERMISSION
    );
    let fresh = trust(bob.iou("USD", 0)).flags(TF_SET_AUTH);
    assert_eq!(
        send_as(&mut env, &gw, &bob, fresh),
        Ter::terNO_DELEGATE_PERMISSION
    );
    let both = ["TrustlineAuthorize", "TrustlineFreeze", "TrustlineUnfreeze"];
    env.apply(&gw, delegate_set(&bob, &both), Ter::tesSUCCESS);
    assert_eq!(send_as(&mut env, &gw, &bob, freeze()), Ter::tesSUCCESS);
    let line = env.line(&gw, &alice, "USD").unwrap();
    assert_ne!(line.flags(), 0);
    let thaw = trust(alice.iou("USD", 0)).flags(TF_CLEAR_FREEZE);
    assert_eq!(send_as(&mut env, &gw, &bob, thaw), Ter::tesSUCCESS);
    // The TrustSet permission itself covers everything.
    env.apply(&alice, delegate_set(&bob, &["TrustSet"]), Ter::tesSUCCESS);
    let raise = trust(gw.iou("USD", 500));
    assert_eq!(send_as(&mut env, &alice, &bob, raise), Ter::tesSUCCESS);
}

#[test]
fn account_set_granular_permissions() {
    let mut env = Env::new();
    let [alice, bob] = env.funded(["alice", "bob"]);
    env.apply(
        &alice,
        delegate_set(&bob, &["AccountDomainSet"]),
        Ter::tesSUCCESS,
    );
    let domain = || account_set().blob("Domain", b"example.com");
    assert_eq!(send_as(&mut env, &alice, &bob, domain()), Ter::tesSUCCESS);
    assert_eq!(
        env.root(&alice).unwrap().blob_of(sf().domain),
        Some(&b"example.com"[..])
    );
    let tick = account_set().u8("TickSize", 5);
    assert_eq!(
        send_as(&mut env, &alice, &bob, tick),
        Ter::terNO_DELEGATE_PERMISSION
    );
    let flag = account_set().u32("SetFlag", 1);
    assert_eq!(
        send_as(&mut env, &alice, &bob, flag),
        Ter::terNO_DELEGATE_PERMISSION
    );
    let both = domain().u8("TickSize", 5);
    assert_eq!(
        send_as(&mut env, &alice, &bob, both),
        Ter::terNO_DELEGATE_PERMISSION
    );
    let grant = ["AccountDomainSet", "AccountTickSizeSet"];
    env.apply(&alice, delegate_set(&bob, &grant), Ter::tesSUCCESS);
    let both = domain().u8("TickSize", 5);
    assert_eq!(send_as(&mut env, &alice, &bob, both), Ter::tesSUCCESS);
}

#[test]
fn account_delete_takes_the_delegate_entries() {
    let mut env = Env::new();
    let [alice, bob, carol] = env.funded(["alice", "bob", "carol"]);
    env.apply(&alice, delegate_set(&bob, &["Payment"]), Ter::tesSUCCESS);
    env.apply(
        &alice,
        delegate_set(&carol, &["CheckCreate"]),
        Ter::tesSUCCESS,
    );
    assert_eq!(env.owner_count(&alice), 2);
    while env.store.current().seq() < env.seq(&alice) + 255 {
        env.close();
    }
    // AccountDelete cannot be delegated.
    let t = send_as(&mut env, &alice, &bob, account_delete(&carol));
    assert_eq!(t, Ter::terNO_DELEGATE_PERMISSION);
    env.apply(&alice, account_delete(&carol), Ter::tesSUCCESS);
    assert!(env.read(&keylet::delegate(&alice.id, &bob.id)).is_none());
    assert!(env.read(&keylet::delegate(&alice.id, &carol.id)).is_none());
    assert!(env.root(&alice).is_none());
}
