//! XChain account creation stories after rippled's `XChain_test.cpp`
//! (`testXChainCreateAccount`, `testXChainAddAccountCreateNonBatchAttestation`, the
//! account create parts of `testXChainAddAttestation` and `testFeeDipsIntoReserve`): on
//! the locking chain an account pays an amount and the reward into the door
//! (XChainAccountCreateCommit); on the issuing chain (the root account is the door, with
//! five witnesses of weight 1 as its signer list) witnesses attest each create by its
//! count, the attestations wait in an XChainOwnedCreateAccountClaimID the door owns, and
//! the door creates the account when the next create in order reaches the quorum.

use crate::support;

use ledgerd::engine::Ter;
use ledgerd::ledger::flags::lt;
use ledgerd::ledger::keylet;
use ledgerd::ledger::sf::{sf, StExt};
use ledgerd::protocol::amount::Amount;
use ledgerd::protocol::st::{StObject, StValue};
use ledgerd::protocol::types::AccountId;
use ledgerd::protocol::xchain::{ChainType, XChainBridge};
use support::engine::*;
use support::xchain::{create_bridge, with_bridge, xrp_bridge, CreateAttestation};

const REWARD: i64 = 1_000_000;

fn create_commit(b: &XChainBridge, dst: &AccountId, amount: Amount, reward: Amount) -> Tx {
    with_bridge(
        Tx::new("XChainAccountCreateCommit")
            .account("Destination", dst)
            .amount("Amount", amount)
            .amount("SignatureReward", reward),
        b,
    )
}

/// The issuing chain: the root account's end of an XRP bridge whose locking door is
/// `mcDoor` (reward 1 XRP, least create 20 XRP), five witnesses (accounts not on this
/// ledger) with funded reward accounts, the root's signer list with `quorum`, and a
/// funded submitter for the attestations.
struct Issuing {
    env: Env,
    b: XChainBridge,
    master: Account,
    witnesses: Vec<Account>,
    rewards: Vec<Account>,
    attester: Account,
    source: AccountId,
}

fn issuing_chain(quorum: u32) -> Issuing {
    let mut env = Env::new();
    let master = Account::master();
    let b = xrp_bridge(&Account::new("mcDoor").id, &master.id);
    env.apply(
        &master,
        create_bridge(&b, drops(REWARD), Some(xrp(20))),
        Ter::tesSUCCESS,
    );
    let witnesses: Vec<Account> = (0..5)
        .map(|i| Account::new(&format!("witness{i}")))
        .collect();
    let rewards: Vec<Account> = (0..5)
        .map(|i| {
            let a = Account::new(&format!("reward{i}"));
            env.fund(&a, xrp(1000));
            a
        })
        .collect();
    let entries: Vec<(&Account, u16)> = witnesses.iter().map(|w| (w, 1)).collect();
    env.apply(&master, signer_list(quorum, &entries), Ter::tesSUCCESS);
    let [attester] = env.funded(["scAttester"]);
    Issuing {
        env,
        b,
        master,
        witnesses,
        rewards,
        attester,
        source: Account::new("mcCarol").id,
    }
}

impl Issuing {
    /// Witness `i` attests create `count` of `amount` to `dst`.
    fn att(&self, i: usize, count: u64, amount: Amount, dst: &AccountId) -> CreateAttestation {
        CreateAttestation {
            bridge: self.b,
            witness: self.witnesses[i].clone(),
            source: self.source,
            amount,
            reward: drops(REWARD),
            reward_account: self.rewards[i].id,
            was_locking: true,
            count,
            dst: *dst,
        }
    }

    /// Witness `i` attests create `count` and the result is `want`.
    fn attest_as(&mut self, i: usize, count: u64, amount: Amount, dst: &AccountId, want: Ter) {
        let a = self.att(i, count, amount, dst);
        self.submit(&a, want);
    }

    fn submit(&mut self, a: &CreateAttestation, want: Ter) {
        let attester = self.attester.clone();
        self.env.apply(&attester, a.tx(), want);
    }

    fn reward_balances(&self) -> Vec<i64> {
        self.rewards.iter().map(|r| self.env.balance(r)).collect()
    }

    fn bridge_u64(&self, field: ledgerd::protocol::definitions::Field) -> u64 {
        let key = keylet::bridge(&self.b, ChainType::Issuing);
        self.env.read(&key).unwrap().u64_of(field).unwrap()
    }

    fn claim_count(&self) -> u64 {
        self.bridge_u64(sf().xchain_account_claim_count)
    }

    fn claim_id(&self, count: u64) -> Option<std::sync::Arc<StObject>> {
        self.env
            .read(&keylet::xchain_create_account_claim_id(&self.b, count))
    }

    fn stored(&self, count: u64) -> Vec<StObject> {
        match self
            .claim_id(count)
            .and_then(|e| e.get(sf().xchain_create_account_attestations).cloned())
        {
            Some(StValue::Array(items)) => items.into_iter().map(|(_, o)| o).collect(),
            _ => Vec::new(),
        }
    }

    fn exists(&self, who: &Account) -> bool {
        self.env.read(&keylet::account(&who.id)).is_some()
    }
}

/// The locking chain: `mcDoor`'s bridge (reward 1 XRP, least create 20 XRP) and carol.
fn locking_chain() -> (Env, XChainBridge, Account, Account) {
    let mut env = Env::new();
    let [door, carol] = env.funded(["mcDoor", "mcCarol"]);
    let b = xrp_bridge(&door.id, &Account::master().id);
    env.apply(
        &door,
        create_bridge(&b, drops(REWARD), Some(xrp(20))),
        Ter::tesSUCCESS,
    );
    (env, b, door, carol)
}

#[test]
fn an_account_create_commit_pays_amount_and_reward_to_the_door_and_counts() {
    let (mut env, b, door, carol) = locking_chain();
    let ua = Account::new("scuAlice");
    let (d0, c0) = (env.balance(&door), env.balance(&carol));
    env.apply(
        &carol,
        create_commit(&b, &ua.id, xrp(777), drops(REWARD)),
        Ter::tesSUCCESS,
    );
    assert_eq!(env.balance(&door), d0 + 777_000_000 + REWARD);
    assert_eq!(env.balance(&carol), c0 - 777_000_000 - REWARD - FEE);
    let key = keylet::bridge(&b, ChainType::Locking);
    let count = |env: &Env| {
        env.read(&key)
            .unwrap()
            .u64_of(sf().xchain_account_create_count)
    };
    assert_eq!(count(&env), Some(1));
    env.apply(
        &carol,
        create_commit(&b, &ua.id, xrp(20), drops(REWARD)),
        Ter::tesSUCCESS,
    );
    assert_eq!(count(&env), Some(2));
    // Nothing is owned: the claim lives on the other chain.
    assert_eq!(env.owner_count(&carol), 0);
}

#[test]
fn bad_account_create_commits_get_rippleds_codes() {
    let (mut env, b, door, carol) = locking_chain();
    let ua = Account::new("scuAlice");
    let (d0, c0) = (env.balance(&door), env.balance(&carol));
    env.apply(
        &carol,
        create_commit(&b, &ua.id, xrp(19), drops(REWARD)),
        Ter::tecXCHAIN_INSUFF_CREATE_AMOUNT,
    );
    assert_eq!(env.balance(&door), d0);
    assert_eq!(env.balance(&carol), c0 - FEE);
    let commit = |amount: Amount, reward: Amount| create_commit(&b, &ua.id, amount, reward);
    env.apply(
        &carol,
        commit(xrp(20), drops(REWARD)).flags(0x0001_0000),
        Ter::temINVALID_FLAG,
    );
    env.apply(&carol, commit(xrp(-20), drops(REWARD)), Ter::temBAD_AMOUNT);
    env.apply(&carol, commit(xrp(0), drops(REWARD)), Ter::temBAD_AMOUNT);
    env.apply(&carol, commit(xrp(20), xrp(-1)), Ter::temBAD_AMOUNT);
    env.apply(
        &carol,
        commit(carol.iou("USD", 20), drops(REWARD)),
        Ter::temBAD_AMOUNT,
    );
    env.apply(
        &carol,
        commit(xrp(20), carol.iou("USD", 1)),
        Ter::temBAD_AMOUNT,
    );
    let d1 = env.balance(&door);
    env.apply(
        &door,
        commit(xrp(20), drops(REWARD)),
        Ter::tecXCHAIN_SELF_COMMIT,
    );
    assert_eq!(env.balance(&door), d1 - FEE);
    env.apply(
        &carol,
        commit(xrp(20), xrp(2)),
        Ter::tecXCHAIN_REWARD_MISMATCH,
    );
    let missing = create_commit(&b, &ua.id, xrp(20), drops(REWARD)).remove("Destination");
    env.apply(&carol, missing, Ter::temMALFORMED);
    // No bridge; a bridge without a least create amount.
    let other = xrp_bridge(&carol.id, &Account::master().id);
    let other_commit = || create_commit(&other, &ua.id, xrp(20), drops(REWARD));
    env.apply(&door, other_commit(), Ter::tecNO_ENTRY);
    env.apply(
        &carol,
        create_bridge(&other, drops(REWARD), None),
        Ter::tesSUCCESS,
    );
    env.apply(
        &door,
        other_commit(),
        Ter::tecXCHAIN_CREATE_ACCOUNT_DISABLED,
    );
}

#[test]
fn an_account_create_commit_fee_may_dip_into_the_reserve_but_not_the_amount() {
    let (mut env, b, _door, _carol) = locking_chain();
    let reserve = env.store.fees().account_reserve(0);
    let ua = Account::new("scuAlice");
    let fits = Account::new("mcuAlice");
    env.fund(&fits, drops(reserve + FEE + 20_000_000 + REWARD - 1));
    env.apply(
        &fits,
        create_commit(&b, &ua.id, xrp(20), drops(REWARD)),
        Ter::tesSUCCESS,
    );
    let short = Account::new("mcuBob");
    env.fund(&short, drops(reserve + 20_000_000 + REWARD - 1));
    env.apply(
        &short,
        create_commit(&b, &ua.id, xrp(20), drops(REWARD)),
        Ter::tecUNFUNDED_PAYMENT,
    );
}

#[test]
fn the_quorum_of_attestations_creates_the_account_and_pays_the_witnesses() {
    let mut ic = issuing_chain(4);
    let ua = Account::new("ua");
    let key = keylet::xchain_create_account_claim_id(&ic.b, 1);
    let (master0, rewards0) = (ic.env.balance(&ic.master), ic.reward_balances());
    let owners0 = ic.env.owner_count(&ic.master);
    for i in 0..3 {
        let a = ic.att(i, 1, xrp(777), &ua.id);
        ic.submit(&a, Ter::tesSUCCESS);
        assert!(!ic.exists(&ua));
        assert_eq!(ic.stored(1).len(), i + 1);
    }
    // The waiting attestations: a claim ID the door owns.
    let e = ic.claim_id(1).expect("the claim ID");
    let s = sf();
    assert_eq!(
        e.u16_of(s.ledger_entry_type),
        Some(lt::XCHAIN_OWNED_CREATE_ACCOUNT_CLAIM_ID)
    );
    assert_eq!(e.account_of(s.account), Some(ic.master.id));
    assert_eq!(e.u64_of(s.xchain_account_create_count), Some(1));
    assert_eq!(e.get_xchain_bridge("XChainBridge"), Some(ic.b));
    let first = &ic.stored(1)[0];
    assert_eq!(
        first.account_of(s.attestation_signer_account),
        Some(ic.witnesses[0].id)
    );
    assert_eq!(first.amount_of(s.amount), Some(xrp(777)));
    assert_eq!(first.amount_of(s.signature_reward), Some(drops(REWARD)));
    assert_eq!(first.account_of(s.destination), Some(ua.id));
    assert!(ic.env.owned(&ic.master).contains(&key));
    assert_eq!(ic.env.owner_count(&ic.master), owners0 + 1);
    // The same witness again replaces its attestation.
    let again = ic.att(2, 1, xrp(777), &ua.id);
    ic.submit(&again, Ter::tesSUCCESS);
    assert_eq!(ic.stored(1).len(), 3);
    assert_eq!(ic.claim_count(), 0);

    let fourth = ic.att(3, 1, xrp(777), &ua.id);
    ic.submit(&fourth, Ter::tesSUCCESS);
    assert_eq!(ic.env.balance(&ua), 777_000_000);
    assert_eq!(ic.env.balance(&ic.master), master0 - 777_000_000 - REWARD);
    for (i, r) in ic.reward_balances().iter().enumerate() {
        let share = if i < 4 { REWARD / 4 } else { 0 };
        assert_eq!(*r, rewards0[i] + share, "reward account {i}");
    }
    assert!(ic.claim_id(1).is_none());
    assert_eq!(ic.env.owner_count(&ic.master), owners0);
    assert_eq!(ic.claim_count(), 1);
    // A late attestation is past.
    let late = ic.att(4, 1, xrp(777), &ua.id);
    ic.submit(&late, Ter::tecXCHAIN_ACCOUNT_CREATE_PAST);
}

#[test]
fn creates_happen_in_order_and_a_later_one_waits_for_the_earlier() {
    let mut ic = issuing_chain(2);
    let [ua, ub, uc] = [
        Account::new("scuAlice"),
        Account::new("scuBob"),
        Account::new("scuCarol"),
    ];
    let (master0, attester0) = (ic.env.balance(&ic.master), ic.env.balance(&ic.attester));
    let amt = xrp(1000);
    let bad = xrp(10);
    // Wrong amounts for all three creates: three claim IDs, replaced later.
    ic.attest_as(0, 1, bad, &ua.id, Ter::tesSUCCESS);
    ic.attest_as(2, 2, bad, &ub.id, Ter::tesSUCCESS);
    ic.attest_as(1, 3, bad, &uc.id, Ter::tesSUCCESS);
    assert!((1..=3).all(|c| ic.claim_id(c).is_some()));
    ic.attest_as(0, 1, amt, &ua.id, Ter::tesSUCCESS);
    ic.attest_as(2, 2, amt, &ub.id, Ter::tesSUCCESS);
    ic.attest_as(4, 3, amt, &uc.id, Ter::tesSUCCESS);
    assert!((1..=3).all(|c| ic.claim_id(c).is_some()));
    assert_eq!(ic.claim_count(), 0);
    // Create 3 reaches its quorum, but creates 1 and 2 are not done: it waits.
    ic.attest_as(1, 3, amt, &uc.id, Ter::tesSUCCESS);
    assert!(ic.claim_id(3).is_some());
    assert_eq!(ic.claim_count(), 0);
    assert!(!ic.exists(&uc));
    ic.attest_as(2, 1, amt, &ua.id, Ter::tesSUCCESS);
    assert!(ic.claim_id(1).is_none());
    assert_eq!(ic.claim_count(), 1);
    ic.attest_as(3, 2, amt, &ub.id, Ter::tesSUCCESS);
    ic.attest_as(3, 1, amt, &ua.id, Ter::tecXCHAIN_ACCOUNT_CREATE_PAST);
    assert!(ic.claim_id(2).is_none());
    assert!(ic.claim_id(1).is_none(), "a past create adds no claim ID");
    assert_eq!(ic.claim_count(), 2);
    // One more attestation for create 3 sets it off (three witnesses share its reward).
    ic.attest_as(0, 3, amt, &uc.id, Ter::tesSUCCESS);
    assert!(ic.claim_id(3).is_none());
    assert_eq!(ic.claim_count(), 3);
    for u in [&ua, &ub, &uc] {
        assert_eq!(ic.env.balance(u), 1_000_000_000, "{}", u.name);
    }
    // The reward of create 3 split three ways leaves one drop with the door.
    assert_eq!(
        ic.env.balance(&ic.master),
        master0 - 3 * (1_000_000_000 + REWARD) + 1
    );
    assert_eq!(ic.env.balance(&ic.attester), attester0 - 11 * FEE);
}

#[test]
fn a_failed_payment_still_pays_the_witnesses_and_moves_the_count_on() {
    let mut ic = issuing_chain(4);
    let [alice] = ic.env.funded(["scAlice"]);
    ic.env.apply(
        &alice,
        fset(ledgerd::engine::account_set::asf::DEPOSIT_AUTH),
        Ter::tesSUCCESS,
    );
    let (master0, alice0) = (ic.env.balance(&ic.master), ic.env.balance(&alice));
    for i in 0..2 {
        ic.attest_as(i, 1, xrp(1000), &alice.id, Ter::tesSUCCESS);
    }
    assert!(ic.claim_id(1).is_some());
    for i in 2..4 {
        ic.attest_as(i, 1, xrp(1000), &alice.id, Ter::tesSUCCESS);
    }
    assert!(ic.claim_id(1).is_none());
    assert_eq!(ic.claim_count(), 1);
    assert_eq!(ic.env.balance(&ic.master), master0 - REWARD);
    assert_eq!(ic.env.balance(&alice), alice0);
    // Too little to create an account: the same.
    let poor = Account::new("scuPoor");
    for i in 0..4 {
        ic.attest_as(i, 2, drops(10), &poor.id, Ter::tesSUCCESS);
    }
    assert!(!ic.exists(&poor));
    assert_eq!(ic.claim_count(), 2);
}

#[test]
fn creating_the_door_itself_only_pays_the_rewards() {
    let mut ic = issuing_chain(4);
    let master = ic.master.clone();
    let m0 = ic.env.balance(&master);
    for i in 0..4 {
        ic.attest_as(i, 1, xrp(111), &master.id, Ter::tesSUCCESS);
    }
    assert!(ic.claim_id(1).is_none());
    assert_eq!(ic.claim_count(), 1);
    assert_eq!(ic.env.balance(&master), m0 - REWARD);
}

#[test]
fn bad_account_create_attestations_get_rippleds_codes() {
    let mut ic = issuing_chain(4);
    let ua = Account::new("ua");
    let stranger = Account::new("stranger");
    let good = ic.att(0, 1, xrp(100), &ua.id);
    // Signed by another key than the one it names.
    let forged = good
        .signed_by(&stranger)
        .blob("PublicKey", ic.witnesses[0].kp.public.as_bytes());
    let attester = ic.attester.clone();
    ic.env.apply(&attester, forged, Ter::temXCHAIN_BAD_PROOF);
    // A signature over other facts.
    let mut tampered = good.tx();
    tampered = tampered.amount("SignatureReward", drops(REWARD + 1));
    ic.env.apply(&attester, tampered, Ter::temXCHAIN_BAD_PROOF);
    ic.submit(
        &CreateAttestation {
            amount: drops(0),
            ..good.clone()
        },
        Ter::temXCHAIN_BAD_PROOF,
    );
    ic.submit(
        &CreateAttestation {
            amount: ua.iou("USD", 1),
            ..good.clone()
        },
        Ter::temXCHAIN_BAD_PROOF,
    );
    ic.env.apply(
        &attester,
        good.tx().flags(0x0001_0000),
        Ter::temINVALID_FLAG,
    );
    ic.env.apply(
        &attester,
        good.tx().remove("Destination"),
        Ter::temMALFORMED,
    );
    ic.env.apply(
        &attester,
        good.tx().remove("XChainAccountCreateCount"),
        Ter::temMALFORMED,
    );
    // A signer not on the door's list; a listed signer with a key not its own.
    ic.submit(
        &CreateAttestation {
            witness: stranger.clone(),
            ..good.clone()
        },
        Ter::tecNO_PERMISSION,
    );
    ic.env.apply(
        &attester,
        good.signed_by(&stranger),
        Ter::tecXCHAIN_BAD_PUBLIC_KEY_ACCOUNT_PAIR,
    );
    // A commit on this chain; a count already done or too far ahead.
    ic.submit(
        &CreateAttestation {
            was_locking: false,
            ..good.clone()
        },
        Ter::tecXCHAIN_WRONG_CHAIN,
    );
    ic.submit(
        &CreateAttestation {
            count: 0,
            ..good.clone()
        },
        Ter::tecXCHAIN_ACCOUNT_CREATE_PAST,
    );
    ic.submit(
        &CreateAttestation {
            count: 128,
            ..good.clone()
        },
        Ter::tecXCHAIN_ACCOUNT_CREATE_TOO_MANY,
    );
    ic.submit(
        &CreateAttestation {
            count: 127,
            ..good.clone()
        },
        Ter::tesSUCCESS,
    );
    assert!(ic.claim_id(127).is_some());
    assert!(
        ic.claim_id(1).is_none(),
        "nothing stored for the refused ones"
    );
    // Another bridge; a door without a signer list.
    ic.submit(
        &CreateAttestation {
            bridge: xrp_bridge(&stranger.id, &ic.master.id),
            ..good.clone()
        },
        Ter::tecNO_ENTRY,
    );
    ic.env
        .apply(&ic.master.clone(), signer_list(0, &[]), Ter::tesSUCCESS);
    ic.submit(&good, Ter::tecXCHAIN_NO_SIGNERS_LIST);
}

#[test]
fn a_door_that_cannot_hold_another_entry_refuses_a_waiting_create() {
    let mut env = Env::new();
    let fees = env.store.fees();
    let reserve = |n: u32| fees.account_reserve(n);
    // The door pays the bridge and the signer list's reserves and has nothing over.
    let door = Account::new("scDoor");
    let witnesses: Vec<Account> = (0..5)
        .map(|i| Account::new(&format!("witness{i}")))
        .collect();
    let need = reserve(2) + 2 * FEE;
    env.fund(&door, drops(need));
    // The locking end: the attested creates come from the issuing chain.
    let b = xrp_bridge(&door.id, &Account::master().id);
    env.apply(
        &door,
        create_bridge(&b, drops(REWARD), Some(xrp(20))),
        Ter::tesSUCCESS,
    );
    let entries: Vec<(&Account, u16)> = witnesses.iter().map(|w| (w, 1)).collect();
    env.apply(&door, signer_list(4, &entries), Ter::tesSUCCESS);
    let [attester] = env.funded(["scAttester"]);
    let a = CreateAttestation {
        bridge: b,
        witness: witnesses[0].clone(),
        source: Account::new("mcCarol").id,
        amount: xrp(100),
        reward: drops(REWARD),
        reward_account: attester.id,
        was_locking: false,
        count: 1,
        dst: Account::new("ua").id,
    };
    env.apply(&attester, a.tx(), Ter::tecINSUFFICIENT_RESERVE);
    env.fund(&door, drops(reserve(3) - reserve(2)));
    env.apply(&attester, a.tx(), Ter::tesSUCCESS);
    assert_eq!(env.owner_count(&door), 3);
}
