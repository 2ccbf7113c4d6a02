//! fixCleanup3_4_0's VaultWithdraw spots (rippled 3.4.0 `VaultWithdraw.cpp`), each run
//! with the amendment and without it (it is Lacking, so ledgerd's rules have it off):
//!
//! - V1: `CredentialIDs` need Credentials and fixCleanup3_4_0 (`temDISABLED` otherwise,
//!   before any other check). With them they are checked as DepositPreauth's are:
//!   preflight `credentials::checkFields` (1 to 8 distinct IDs, else `temMALFORMED`),
//!   preclaim `credentials::valid` (each an accepted credential of the submitter, else
//!   `tecBAD_CREDENTIALS`), and at a destination requiring deposit authorization a
//!   credential set it preauthorized stands in for a preauthorization of the submitter
//!   (`canWithdraw`, `authorizedDepositPreauth`). The client libraries' LendingProtocolV1_1
//!   story withdraws from a private vault with the depositor's credential.
//! - V2: a pseudo-account destination is `tecPSEUDO_ACCOUNT`; before, its deposit
//!   authorization refused it (`tecNO_PERMISSION`).
//! - V3: a private vault pays a third party (not the submitter, not the asset's issuer)
//!   only when both the submitter and the destination are in its permissioned domain
//!   (`checkVaultDomain`, `tecNO_AUTH`; an expired credential is `tecEXPIRED`); before,
//!   anyone holding shares could pay them out to anyone.
//! - V1, doApply: an expired credential presented for a third-party destination is
//!   deleted (`tecEXPIRED`, `verifyDepositPreauth` in `doWithdraw`).
//! - V4: VaultDeposit catches a deep freeze on either side of the depositor's line
//!   (`checkDeepFrozen`, `tecFROZEN`; before, the depositor's own deep freeze left it
//!   unfunded: `tecINSUFFICIENT_FUNDS`).
//! - V5 (XLS-65.2, rippled develop `VaultBugs_test`): the deterministic asset delta. A
//!   withdrawal in assets redeems its shares truncated (before, rounded to nearest: 4 USD
//!   from a vault of 7 USD for 5 shares paid 4.2); a deposit whose shares are worth a
//!   debit the depositor's balance does not notice, and a withdrawal AssetsTotal does
//!   not notice, are `tecPRECISION_LOSS` (before, ledgerd, which has no `ValidVault`,
//!   applied them: rippled's invariant fails them, `tecINVARIANT_FAILED`); the amounts
//!   moved are rounded down to AssetsTotal's grid (15 USD asked of 2e16 pay 10).
//! - V7 (rippled develop `VaultBugs_test` "Credential pins vault pseudo-account" and "...
//!   is bounded"): VaultDelete first deletes the credentials issued to the vault's
//!   pseudo-account, at most `PSEUDO_CREDENTIALS_DELETE_MAX` a transaction, more left
//!   being `tecINCOMPLETE` with those deleted kept; before, such a pin blocked the
//!   deletion (`tecHAS_OBLIGATIONS`).

use crate::support;

use crate::rules::env_with;
use ledgerd::engine::account_set::asf;
use ledgerd::engine::vault::number_of;
use ledgerd::engine::Ter;
use ledgerd::ledger::keylet;
use ledgerd::ledger::sf::{sf, StExt};
use ledgerd::protocol::definitions::Field;
use ledgerd::protocol::features::Feature;
use ledgerd::protocol::number::Number;
use ledgerd::protocol::st::StValue;
use ledgerd::protocol::types::{AccountId, Hash256, Issue};
use support::credentials::{accept, create, domain_set, with_creds};
use support::engine::*;

/// VaultCreate's tfVaultPrivate.
const PRIVATE: u32 = 0x0001_0000;

/// ledgerd's rule book with fixCleanup3_4_0 on or off, without LendingProtocolV1_1: some
/// stories lend from their open-ended vault, which only a ledger without it allows (as in
/// rippled's tests).
fn env(on: bool) -> Env {
    env_with(
        Feature::FixCleanup3_4_0,
        on,
        &[Feature::LendingProtocolV1_1],
    )
}

struct World {
    env: Env,
    issuer: Account,
    alice: Account,
    bob: Account,
    carol: Account,
    key: Hash256,
    pseudo: AccountId,
    /// alice's KYC credential.
    cred: Hash256,
}

/// issuer issues KYC credentials to alice and carol (accepted) and owns a domain that
/// accepts them; owner's private XRP vault is in that domain; alice deposited
/// 1'000'000 drops (the libraries' story). bob has no credential.
fn world(on: bool) -> World {
    let mut env = env(on);
    let [issuer, owner, alice, bob, carol] = env.funded(["ci", "co", "ca", "cb", "cc"]);
    for who in [&alice, &carol] {
        env.apply(&issuer, create(who, b"KYC"), Ter::tesSUCCESS);
        env.apply(who, accept(&issuer, b"KYC"), Ter::tesSUCCESS);
    }
    let dseq = env.seq(&issuer);
    env.apply(&issuer, domain_set(&[(issuer.id, b"KYC")]), Ter::tesSUCCESS);
    let domain = keylet::permissioned_domain(&issuer.id, dseq);
    let mut tx = Tx::new("VaultCreate")
        .flags(PRIVATE)
        .h256("DomainID", domain);
    tx.0.set(sf().asset, StValue::Issue(Issue::XRP));
    let seq = env.seq(&owner);
    let tx = with_fee(&env, tx);
    env.apply(&owner, tx, Ter::tesSUCCESS);
    let key = keylet::vault(&owner.id, seq);
    let pseudo = env
        .read(&key)
        .and_then(|v| v.account_of(sf().account))
        .expect("the vault's pseudo-account");
    let dep = Tx::new("VaultDeposit")
        .h256("VaultID", key)
        .amount("Amount", drops(1_000_000));
    env.apply(&alice, dep, Ter::tesSUCCESS);
    env.close();
    let cred = keylet::credential(&alice.id, &issuer.id, b"KYC");
    World {
        env,
        issuer,
        alice,
        bob,
        carol,
        key,
        pseudo,
        cred,
    }
}

fn with_ids(mut tx: Tx, ids: &[Hash256]) -> Tx {
    tx.0.set(
        Field::named("CredentialIDs"),
        StValue::Vector256(ids.to_vec()),
    );
    tx
}

impl World {
    fn withdraw(&self, n: i64) -> Tx {
        Tx::new("VaultWithdraw")
            .h256("VaultID", self.key)
            .amount("Amount", drops(n))
    }

    fn withdraw_to(&self, n: i64, dst: &AccountId) -> Tx {
        self.withdraw(n).account("Destination", dst)
    }

    /// alice submits `tx`.
    fn alice(&mut self, tx: Tx) -> Ter {
        let alice = self.alice.clone();
        self.env.submit(&alice, tx)
    }

    fn assets_total(&self) -> Number {
        number_of(&self.env.read(&self.key).unwrap(), sf().assets_total)
    }
}

// V1, the libraries' LendingProtocolV1_1 story (xrpl.js `lendingProtocolV1_1.test.ts`,
// xrpl-py `test_vault_withdraw_with_credential_ids`): the depositor withdraws half with
// its credential; AssetsTotal is "500000".
mod withdraw_with_credential_ids {
    use super::*;

    fn answer(on: bool) -> (Ter, Number) {
        let mut w = world(on);
        let tx = with_ids(w.withdraw(500_000), &[w.cred]);
        let t = w.alice(tx);
        (t, w.assets_total())
    }

    #[test]
    fn pays_with_the_fix() {
        assert_eq!(answer(true), (Ter::tesSUCCESS, Number::from_i64(500_000)));
    }

    #[test]
    fn disabled_without_it() {
        assert_eq!(
            answer(false),
            (Ter::temDISABLED, Number::from_i64(1_000_000))
        );
    }
}

// V1: the IDs are checked as DepositPreauth's are.
mod bad_credential_ids {
    use super::*;

    fn answers(on: bool) -> [Ter; 4] {
        let mut w = world(on);
        let carols = keylet::credential(&w.carol.id, &w.issuer.id, b"KYC");
        let cases = [
            vec![w.cred, w.cred],
            vec![Hash256([9; 32]); 0],
            vec![Hash256([9; 32])],
            vec![carols],
        ];
        cases.map(|ids| {
            let tx = with_ids(w.withdraw(1_000), &ids);
            w.alice(tx)
        })
    }

    #[test]
    fn malformed_or_not_the_submitters_with_the_fix() {
        assert_eq!(
            answers(true),
            [
                Ter::temMALFORMED,
                Ter::temMALFORMED,
                Ter::tecBAD_CREDENTIALS,
                Ter::tecBAD_CREDENTIALS
            ]
        );
    }

    #[test]
    fn disabled_without_it() {
        assert_eq!(answers(false), [Ter::temDISABLED; 4]);
    }
}

// V1: carol requires deposit authorization and preauthorized issuer's KYC set; alice's
// credential opens it, as a DepositPreauth'ed Payment's would.
mod credentials_preauthorize_the_destination {
    use super::*;

    fn answers(on: bool) -> (Ter, Ter) {
        let mut w = world(on);
        let carol = w.carol.clone();
        w.env
            .apply(&carol, fset(asf::DEPOSIT_AUTH), Ter::tesSUCCESS);
        let pre = with_creds(
            Tx::new("DepositPreauth"),
            "AuthorizeCredentials",
            &[(w.issuer.id, b"KYC")],
        );
        w.env.apply(&carol, pre, Ter::tesSUCCESS);
        let bare = w.alice(w.withdraw_to(1_000, &carol.id));
        let tx = with_ids(w.withdraw_to(1_000, &carol.id), &[w.cred]);
        (bare, w.alice(tx))
    }

    #[test]
    fn accepted_with_the_fix() {
        assert_eq!(answers(true), (Ter::tecNO_PERMISSION, Ter::tesSUCCESS));
    }

    #[test]
    fn disabled_without_it() {
        assert_eq!(answers(false), (Ter::tecNO_PERMISSION, Ter::temDISABLED));
    }
}

// V2: the vault's own pseudo-account as the destination.
mod pseudo_account_destination {
    use super::*;

    fn answer(on: bool) -> Ter {
        let mut w = world(on);
        let tx = w.withdraw_to(1_000, &w.pseudo);
        w.alice(tx)
    }

    #[test]
    fn tec_pseudo_account_with_the_fix() {
        assert_eq!(answer(true), Ter::tecPSEUDO_ACCOUNT);
    }

    #[test]
    fn deposit_authorization_refuses_it_without_it() {
        assert_eq!(answer(false), Ter::tecNO_PERMISSION);
    }
}

// V3: a private vault pays a third party only inside its domain.
mod private_vault_payout {
    use super::*;

    /// (to bob, outside; to carol, inside; to carol once alice's credential is gone; to
    /// alice herself, credential gone).
    fn answers(on: bool) -> [Ter; 4] {
        let mut w = world(on);
        let to_bob = w.alice(w.withdraw_to(1_000, &w.bob.id));
        let to_carol = w.alice(w.withdraw_to(1_000, &w.carol.id));
        let del = Tx::new("CredentialDelete")
            .account("Issuer", &w.issuer.id)
            .blob("CredentialType", b"KYC");
        let alice = w.alice.clone();
        w.env.apply(&alice, del, Ter::tesSUCCESS);
        let lost = w.alice(w.withdraw_to(1_000, &w.carol.id));
        let home = w.alice(w.withdraw(1_000));
        [to_bob, to_carol, lost, home]
    }

    #[test]
    fn both_ends_in_the_domain_with_the_fix() {
        assert_eq!(
            answers(true),
            [
                Ter::tecNO_AUTH,
                Ter::tesSUCCESS,
                Ter::tecNO_AUTH,
                Ter::tesSUCCESS
            ]
        );
    }

    #[test]
    fn anyone_without_it() {
        assert_eq!(answers(false), [Ter::tesSUCCESS; 4]);
    }
}

// V3: the domain check does not tolerate an expired credential (VaultDeposit does,
// since its doApply deletes it).
mod expired_destination_credential {
    use super::*;

    fn answer(on: bool) -> Ter {
        let mut w = world(on);
        let [dave] = w.env.funded(["cd"]);
        let exp = w.env.parent_close() + 20;
        let issuer = w.issuer.clone();
        let c = create(&dave, b"KYC").u32("Expiration", exp);
        w.env.apply(&issuer, c, Ter::tesSUCCESS);
        w.env.apply(&dave, accept(&issuer, b"KYC"), Ter::tesSUCCESS);
        w.env.close_after(60);
        w.alice(w.withdraw_to(1_000, &dave.id))
    }

    #[test]
    fn tec_expired_with_the_fix() {
        assert_eq!(answer(true), Ter::tecEXPIRED);
    }

    #[test]
    fn paid_without_it() {
        assert_eq!(answer(false), Ter::tesSUCCESS);
    }
}

/// TrustSet's tfSetFreeze, tfClearFreeze, tfSetDeepFreeze and tfClearDeepFreeze.
const TF_SET_FREEZE: u32 = 0x0010_0000;
const TF_CLEAR_FREEZE: u32 = 0x0020_0000;
const TF_SET_DEEP_FREEZE: u32 = 0x0040_0000;
const TF_CLEAR_DEEP_FREEZE: u32 = 0x0080_0000;

/// ledgerd's rule book with fixCleanup3_3_0 (whose freeze checks rippled's story runs
/// under) and fixCleanup3_4_0 forced on or off.
fn env_with_330(on: bool) -> Env {
    let mut cfg = ledgerd::ledgers::LedgerConfig::default();
    cfg.rule_book.presets.insert(Feature::FixCleanup3_3_0);
    if on {
        cfg.rule_book.presets.insert(Feature::FixCleanup3_4_0);
    } else {
        cfg.rule_book.presets.remove(Feature::FixCleanup3_4_0);
    }
    Env::with_config(cfg)
}

/// rippled `Vault_test.cpp` "VaultDeposit IOU depositor holder-side deep freeze": the
/// depositor deep-froze its own side of the line: `tecFROZEN` with the fix
/// (`checkDeepFrozen`), `tecINSUFFICIENT_FUNDS` before (its balance counts as zero).
#[test]
fn a_depositors_own_deep_freeze_is_caught() {
    for on in [true, false] {
        let mut env = env_with_330(on);
        let [gw, owner, alice] = env.funded(["gw", "owner", "alice"]);
        env.apply(&gw, fset(asf::DEFAULT_RIPPLE), Ter::tesSUCCESS);
        env.apply(&alice, trust(gw.iou("USD", 1000)), Ter::tesSUCCESS);
        env.apply(&gw, pay(&alice, gw.iou("USD", 500)), Ter::tesSUCCESS);
        let mut create = Tx::new("VaultCreate");
        create
            .0
            .set(sf().asset, StValue::Issue(gw.iou("USD", 0).issue()));
        let seq = env.seq(&owner);
        let create = with_fee(&env, create);
        env.apply(&owner, create, Ter::tesSUCCESS);
        let vault = keylet::vault(&owner.id, seq);
        let dep = || {
            Tx::new("VaultDeposit")
                .h256("VaultID", vault)
                .amount("Amount", gw.iou("USD", 1))
        };
        let deep = TF_SET_FREEZE | TF_SET_DEEP_FREEZE;
        env.apply(
            &alice,
            trust(gw.iou("USD", 1000)).flags(deep),
            Ter::tesSUCCESS,
        );
        let want = if on {
            Ter::tecFROZEN
        } else {
            Ter::tecINSUFFICIENT_FUNDS
        };
        env.apply(&alice, dep(), want);
        let clear = TF_CLEAR_FREEZE | TF_CLEAR_DEEP_FREEZE;
        env.apply(
            &alice,
            trust(gw.iou("USD", 1000)).flags(clear),
            Ter::tesSUCCESS,
        );
        env.apply(&alice, dep(), Ter::tesSUCCESS);
    }
}

/// V1, doApply (`doWithdraw`'s `verifyDepositPreauth`): an expired credential presented
/// for a third-party destination is deleted and the withdrawal is `tecEXPIRED`, though
/// preclaim let it through (`credentials::valid` does not look at expiry).
mod expired_presented_credential {
    use super::*;

    fn answer(on: bool) -> (Ter, bool) {
        let mut w = world(on);
        let (issuer, alice, carol) = (w.issuer.clone(), w.alice.clone(), w.carol.clone());
        w.env
            .apply(&carol, fset(asf::DEPOSIT_AUTH), Ter::tesSUCCESS);
        let pre = with_creds(
            Tx::new("DepositPreauth"),
            "AuthorizeCredentials",
            &[(issuer.id, b"SHORT")],
        );
        w.env.apply(&carol, pre, Ter::tesSUCCESS);
        let expiry = w.env.parent_close() + 20;
        let short = create(&alice, b"SHORT").u32("Expiration", expiry);
        w.env.apply(&issuer, short, Ter::tesSUCCESS);
        w.env
            .apply(&alice, accept(&issuer, b"SHORT"), Ter::tesSUCCESS);
        for _ in 0..4 {
            w.env.close();
        }
        assert!(w.env.parent_close() > expiry);
        let key = keylet::credential(&alice.id, &issuer.id, b"SHORT");
        let tx = with_ids(w.withdraw_to(1_000, &carol.id), &[key]);
        let got = w.alice(tx);
        (got, w.env.read(&key).is_none())
    }

    #[test]
    fn deleted_and_tec_expired_with_the_fix() {
        assert_eq!(answer(true), (Ter::tecEXPIRED, true));
    }

    #[test]
    fn disabled_without_it() {
        assert_eq!(answer(false), (Ter::temDISABLED, false));
    }
}

// V7: rippled's stories pin the credentials where fixCleanup3_3_0 still lets anyone
// credential a pseudo-account, then turn fixCleanup3_4_0 on (`env.enableFeature`); here
// the rules are set from the start (a snapshot is not reloaded under an amendment
// ledgerd lacks), and the pins are made the same way.

/// ledgerd's rule book less fixCleanup3_3_0 and fixPseudoAccountOwnership (whose
/// invariant refuses a credential to a pseudo-account too: rules_pseudo_owner.rs), with
/// fixCleanup3_4_0 on or off.
fn env_pinnable(on: bool) -> Env {
    let off = [Feature::FixCleanup3_3_0, Feature::FixPseudoAccountOwnership];
    env_with(Feature::FixCleanup3_4_0, on, &off)
}

/// owner's vault of `asset` (a VaultCreate with `tx`'s other fields); the ledger closed.
fn new_vault(env: &mut Env, owner: &Account, tx: Tx, asset: Issue) -> Hash256 {
    let mut tx = tx;
    tx.0.set(sf().asset, StValue::Issue(asset));
    let seq = env.seq(owner);
    let tx = with_fee(env, tx);
    env.apply(owner, tx, Ter::tesSUCCESS);
    env.close();
    keylet::vault(&owner.id, seq)
}

struct Pinned {
    env: Env,
    owner: Account,
    attacker: Account,
    key: Hash256,
    pseudo: AccountId,
}

/// owner's empty XRP vault, whose pseudo-account attacker credentialed `n` times
/// (unaccepted: they count toward attacker's owner count), fixCleanup3_4_0 `on` or off.
fn pinned(n: usize, on: bool) -> Pinned {
    let mut env = env_pinnable(on);
    let [owner, attacker] = env.funded(["pinOwner", "pinAttacker"]);
    let key = new_vault(&mut env, &owner, Tx::new("VaultCreate"), Issue::XRP);
    let pseudo = env.read(&key).unwrap().account_of(sf().account).unwrap();
    for i in 0..n {
        let t = format!("{i}");
        env.apply(&attacker, create(&pseudo, t.as_bytes()), Ter::tesSUCCESS);
    }
    assert_eq!(env.owner_count(&attacker), n as u32);
    Pinned {
        env,
        owner,
        attacker,
        key,
        pseudo,
    }
}

impl Pinned {
    fn delete(&mut self) -> Ter {
        let owner = self.owner.clone();
        let tx = Tx::new("VaultDelete").h256("VaultID", self.key);
        self.env.submit(&owner, tx)
    }

    /// (the vault, its pseudo-account, the attacker's owner count).
    fn left(&self) -> (bool, bool, u32) {
        (
            self.env.read(&self.key).is_some(),
            self.env.read(&keylet::account(&self.pseudo)).is_some(),
            self.env.owner_count(&self.attacker),
        )
    }
}

mod pinned_credential {
    use super::*;

    #[test]
    fn deleted_with_the_vault_with_the_fix() {
        let mut p = pinned(1, true);
        let cred = keylet::credential(&p.pseudo, &p.attacker.id, b"0");
        assert!(p.env.read(&cred).is_some());
        assert_eq!(p.delete(), Ter::tesSUCCESS);
        assert!(p.env.read(&cred).is_none());
        assert_eq!(p.left(), (false, false, 0));
    }

    #[test]
    fn blocks_the_deletion_without_it() {
        let mut p = pinned(1, false);
        assert_eq!(p.delete(), Ter::tecHAS_OBLIGATIONS);
        assert_eq!(p.left(), (true, true, 1));
    }
}

mod pinned_past_one_batch {
    use super::*;
    use ledgerd::engine::vault::PSEUDO_CREDENTIALS_DELETE_MAX as MAX;

    #[test]
    fn one_batch_a_transaction_kept_by_tec_incomplete_with_the_fix() {
        let mut p = pinned(MAX + 3, true);
        assert_eq!(p.delete(), Ter::tecINCOMPLETE);
        assert_eq!(
            p.left(),
            (true, true, 3),
            "one batch deleted, the vault kept"
        );
        assert_eq!(p.delete(), Ter::tesSUCCESS);
        assert_eq!(p.left(), (false, false, 0));
    }

    #[test]
    fn nothing_deleted_without_it() {
        let mut p = pinned(MAX + 3, false);
        assert_eq!(p.delete(), Ter::tecHAS_OBLIGATIONS);
        assert_eq!(p.left(), (true, true, MAX as u32 + 3));
    }
}

// V5: rippled's `makeRoundTripOvershootVault`: a Scale 0 USD vault of 7 USD for 5 shares,
// reached by ordinary transactions (5 USD deposited, lent for a year at 40%, repaid).

struct Overshoot {
    env: Env,
    gw: Account,
    holder: Account,
    key: Hash256,
}

fn overshoot_vault(on: bool) -> Overshoot {
    use crate::rules_lending11_loan::{close_at, u32_of};
    let mut env = env(on);
    let [gw, owner, holder, borrower] = env.funded(["osGw", "osOwner", "osHolder", "osBorrower"]);
    env.apply(&gw, fset(asf::DEFAULT_RIPPLE), Ter::tesSUCCESS);
    env.close();
    for a in [&owner, &holder, &borrower] {
        env.apply(a, trust(gw.iou("USD", 1_000)), Ter::tesSUCCESS);
    }
    env.close();
    for a in [&holder, &borrower] {
        env.apply(&gw, pay(a, gw.iou("USD", 100)), Ter::tesSUCCESS);
    }
    env.close();
    let scale0 = Tx::new("VaultCreate").u8("Scale", 0);
    let key = new_vault(&mut env, &owner, scale0, gw.iou("USD", 0).issue());
    let dep = Tx::new("VaultDeposit")
        .h256("VaultID", key)
        .amount("Amount", gw.iou("USD", 5));
    env.apply(&holder, dep, Ter::tesSUCCESS);
    let bseq = env.seq(&owner);
    let broker_tx = crate::loan::broker_tx(0, 0, 0).h256("VaultID", key);
    env.apply(&owner, broker_tx, Ter::tesSUCCESS);
    let broker = keylet::loan_broker(&owner.id, bseq);
    env.close();
    let year = 365 * 24 * 3600;
    let tx = crate::loan::loan_set(broker, Number::from_i64(5))
        .account("Counterparty", &owner.id)
        .u32("InterestRate", 40_000)
        .u32("PaymentTotal", 1)
        .u32("PaymentInterval", year)
        .u32("GracePeriod", 60);
    let t = crate::loan::submit_loan(&mut env, &borrower, &[&owner], tx);
    assert_eq!(t, Ter::tesSUCCESS, "LoanSet");
    env.close();
    let loan = keylet::loan(&broker, 1);
    let start = u32_of(&env, &loan, sf().start_date).unwrap();
    close_at(&mut env, start + year - 3600);
    let repay = crate::loan::pay(loan, gw.iou("USD", 10));
    env.apply(&borrower, repay, Ter::tesSUCCESS);
    env.close();
    let w = Overshoot {
        env,
        gw,
        holder,
        key,
    };
    assert_eq!(w.assets_total(), Number::from_i64(7));
    w
}

impl Overshoot {
    fn assets_total(&self) -> Number {
        number_of(&self.env.read(&self.key).unwrap(), sf().assets_total)
    }

    fn withdraw(&mut self, amount: ledgerd::protocol::amount::Amount) -> Ter {
        let holder = self.holder.clone();
        let tx = Tx::new("VaultWithdraw")
            .h256("VaultID", self.key)
            .amount("Amount", amount);
        self.env.submit(&holder, tx)
    }
}

mod withdrawal_round_trip {
    use super::*;

    /// 4 USD asked: (the answer, what left AssetsTotal).
    fn withdrawn(on: bool) -> (Ter, Number) {
        let mut w = overshoot_vault(on);
        let usd4 = w.gw.iou("USD", 4);
        let t = w.withdraw(usd4);
        (t, Number::from_i64(7) - w.assets_total())
    }

    #[test]
    fn two_shares_pay_2_8_with_the_fix() {
        assert_eq!(withdrawn(true), (Ter::tesSUCCESS, Number::new(28, -1)));
    }

    #[test]
    fn three_shares_pay_4_2_without_it() {
        assert_eq!(withdrawn(false), (Ter::tesSUCCESS, Number::new(42, -1)));
    }
}

// V5, `roundsToZeroForDepositor` (rippled's `testBugDepositShareTruncationSubUlp` on the
// 7 / 5 vault): bob holds 10'000'000'000'000'010 USD, whose last digit is a ten; 5.5 USD
// buy 3 shares worth 4.2, which taken off his balance round back to it.
mod deposit_below_the_depositors_last_digit {
    use super::*;

    /// (the answer, bob's balance unchanged, AssetsTotal after).
    fn deposit(on: bool) -> (Ter, bool, Number) {
        let mut w = overshoot_vault(on);
        let gw = w.gw.clone();
        let [bob] = w.env.funded(["osBob"]);
        let limit = gw.iou_s("USD", "99999999999999990");
        w.env.apply(&bob, trust(limit), Ter::tesSUCCESS);
        w.env.close();
        let big = gw.iou_s("USD", "10000000000000010");
        w.env.apply(&gw, pay(&bob, big), Ter::tesSUCCESS);
        w.env.close();
        let before = w.env.iou_balance(&bob, &gw, "USD");
        let dep = Tx::new("VaultDeposit")
            .h256("VaultID", w.key)
            .amount("Amount", gw.iou_s("USD", "5.5"));
        let t = w.env.submit(&bob, dep);
        let same = w.env.iou_balance(&bob, &gw, "USD") == before;
        (t, same, w.assets_total())
    }

    #[test]
    fn tec_precision_loss_with_the_fix() {
        assert_eq!(
            deposit(true),
            (Ter::tecPRECISION_LOSS, true, Number::from_i64(7))
        );
    }

    #[test]
    fn free_shares_without_it() {
        assert_eq!(
            deposit(false),
            (Ter::tesSUCCESS, true, Number::new(112, -1))
        );
    }
}

// V5, `debitIsNonZeroDust` (rippled's `testBugVaultDustDebitCanonicalizesToNoOp`): a
// vault of 2e12 USD at the default Scale 6 (2e18 shares); one share is worth 1e-6 USD,
// below AssetsTotal's last digit.
mod dust_withdrawal {
    use super::*;

    /// (the answer, AssetsTotal after, the holder's shares after).
    fn redeem_one_share(on: bool) -> (Ter, Number, u64) {
        let mut env = env(on);
        let [gw, owner, holder] = env.funded(["duGw", "duOwner", "duHolder"]);
        env.apply(&gw, fset(asf::DEFAULT_RIPPLE), Ter::tesSUCCESS);
        env.close();
        let limit = gw.iou_s("USD", "100000000000000");
        env.apply(&holder, trust(limit), Ter::tesSUCCESS);
        env.close();
        let total = gw.iou_s("USD", "2000000000000");
        env.apply(&gw, pay(&holder, total), Ter::tesSUCCESS);
        env.close();
        let create = Tx::new("VaultCreate");
        let key = new_vault(&mut env, &owner, create, gw.iou("USD", 0).issue());
        let dep = Tx::new("VaultDeposit")
            .h256("VaultID", key)
            .amount("Amount", total);
        env.apply(&holder, dep, Ter::tesSUCCESS);
        env.close();
        let vault = env.read(&key).unwrap();
        let share = ledgerd::engine::vault::share_id(&vault).unwrap();
        let mut tx = Tx::new("VaultWithdraw").h256("VaultID", key);
        let one = ledgerd::protocol::mpt::MptAmount::new(1, share);
        tx.0.set(sf().amount, StValue::MptAmount(one));
        let t = env.submit(&holder, tx);
        let shares = env
            .read(&keylet::mptoken(&share, &holder.id))
            .and_then(|m| m.u64_of(sf().mpt_amount))
            .unwrap_or(0);
        let after = number_of(&env.read(&key).unwrap(), sf().assets_total);
        (t, after, shares)
    }

    const ALL: u64 = 2_000_000_000_000_000_000;

    #[test]
    fn tec_precision_loss_with_the_fix() {
        assert_eq!(
            redeem_one_share(true),
            (Ter::tecPRECISION_LOSS, Number::new(2, 12), ALL)
        );
    }

    /// AssetsTotal, an STNumber, keeps the 1e-6 its 19 digits can; the pseudo-account's
    /// line of 16 digits does not (rippled's ValidVault fails this).
    #[test]
    fn a_share_paid_that_the_line_does_not_notice_without_it() {
        let total = Number::new(1_999_999_999_999_999_999, -6);
        assert_eq!(redeem_one_share(false), (Ter::tesSUCCESS, total, ALL - 1));
    }
}

// V5, `clampToAssetsTotalScale` on a withdrawal: a Scale 0 vault of 2e16 USD (2e16
// shares), whose last digit is a ten; 15 USD asked redeem 15 shares, and 2e16 - 15 keeps
// a ten as its last digit too.
mod withdrawal_on_the_totals_grid {
    use super::*;

    /// (the answer, AssetsTotal after, what the holder received).
    fn withdraw_15(on: bool) -> (Ter, Number, ledgerd::protocol::amount::IouValue) {
        let mut env = env(on);
        let [gw, owner, holder] = env.funded(["grGw", "grOwner", "grHolder"]);
        env.apply(&gw, fset(asf::DEFAULT_RIPPLE), Ter::tesSUCCESS);
        env.close();
        let limit = gw.iou_s("USD", "100000000000000000");
        env.apply(&holder, trust(limit), Ter::tesSUCCESS);
        env.close();
        let all = gw.iou_s("USD", "20000000000000000");
        env.apply(&gw, pay(&holder, all), Ter::tesSUCCESS);
        env.close();
        let scale0 = Tx::new("VaultCreate").u8("Scale", 0);
        let key = new_vault(&mut env, &owner, scale0, gw.iou("USD", 0).issue());
        let dep = Tx::new("VaultDeposit")
            .h256("VaultID", key)
            .amount("Amount", all);
        env.apply(&holder, dep, Ter::tesSUCCESS);
        env.close();
        let tx = Tx::new("VaultWithdraw")
            .h256("VaultID", key)
            .amount("Amount", gw.iou("USD", 15));
        let t = env.submit(&holder, tx);
        let total = number_of(&env.read(&key).unwrap(), sf().assets_total);
        (t, total, env.iou_balance(&holder, &gw, "USD"))
    }

    #[test]
    fn ten_paid_with_the_fix() {
        let total = Number::from_i64(19_999_999_999_999_990);
        assert_eq!(withdraw_15(true), (Ter::tesSUCCESS, total, val("10")));
    }

    #[test]
    fn fifteen_paid_without_it() {
        let total = Number::from_i64(19_999_999_999_999_985);
        assert_eq!(withdraw_15(false), (Ter::tesSUCCESS, total, val("15")));
    }
}
