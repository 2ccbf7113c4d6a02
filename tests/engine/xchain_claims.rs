//! XChain transfer stories after rippled's `XChain_test.cpp` (`testXChainModifyBridge`,
//! `testXChainCreateClaimID`, `testXChainCommit`, `testXChainAddAttestation`,
//! `testXChainClaim`): a door modifies its bridge; on the locking chain an account
//! commits to the door; on the issuing chain (the root account is the door, with five
//! witnesses of weight 1 and a quorum of 4 as its signer list) an account takes a claim
//! ID, witnesses attest, and the funds move when the quorum is reached, either at once
//! (the attestations name a destination) or by an XChainClaim.

use crate::support;

use ledgerd::engine::Ter;
use ledgerd::ledger::flags::lt;
use ledgerd::ledger::keylet;
use ledgerd::ledger::sf::{sf, StExt};
use ledgerd::protocol::amount::Amount;
use ledgerd::protocol::st::StValue;
use ledgerd::protocol::types::AccountId;
use ledgerd::protocol::xchain::{ChainType, XChainBridge};
use support::engine::*;
use support::xchain::{create_bridge, with_bridge, xrp_bridge, ClaimAttestation};

const REWARD: i64 = 1_000_000;

fn u64_field(mut tx: Tx, name: &str, v: u64) -> Tx {
    tx.0.set_named(name, StValue::UInt64(v));
    tx
}

fn modify(b: &XChainBridge) -> Tx {
    with_bridge(Tx::new("XChainModifyBridge"), b)
}

fn claim_id(b: &XChainBridge, reward: Amount, source: &AccountId) -> Tx {
    with_bridge(
        Tx::new("XChainCreateClaimID")
            .amount("SignatureReward", reward)
            .account("OtherChainSource", source),
        b,
    )
}

fn commit(b: &XChainBridge, id: u64, amount: Amount) -> Tx {
    u64_field(
        with_bridge(Tx::new("XChainCommit").amount("Amount", amount), b),
        "XChainClaimID",
        id,
    )
}

fn claim(b: &XChainBridge, id: u64, amount: Amount, dst: &AccountId) -> Tx {
    u64_field(
        with_bridge(
            Tx::new("XChainClaim")
                .amount("Amount", amount)
                .account("Destination", dst),
            b,
        ),
        "XChainClaimID",
        id,
    )
}

/// The issuing chain: the root account's end of an XRP bridge whose locking door is
/// `mcDoor`, five witnesses (accounts not on this ledger) with funded reward accounts,
/// the root's signer list (quorum 4), and a funded submitter for the attestations.
struct Issuing {
    env: Env,
    b: XChainBridge,
    master: Account,
    witnesses: Vec<Account>,
    rewards: Vec<Account>,
    attester: Account,
}

fn issuing_chain() -> Issuing {
    let mut env = Env::new();
    let master = Account::master();
    let b = xrp_bridge(&Account::new("mcDoor").id, &Account::master().id);
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
    env.apply(&master, signer_list(4, &entries), Ter::tesSUCCESS);
    let [attester] = env.funded(["scAttester"]);
    Issuing {
        env,
        b,
        master,
        witnesses,
        rewards,
        attester,
    }
}

/// The issuing chain, where scBob (funded) holds claim ID 1 for a transfer from alice on
/// the locking chain.
fn issuing_chain_with_claim_id() -> (Issuing, Account, Account) {
    let mut ic = issuing_chain();
    let [bob] = ic.env.funded(["scBob"]);
    let alice = Account::new("alice");
    let b = ic.b;
    ic.env.apply(
        &bob,
        claim_id(&b, drops(REWARD), &alice.id),
        Ter::tesSUCCESS,
    );
    (ic, bob, alice)
}

impl Issuing {
    fn att(
        &self,
        i: usize,
        source: &AccountId,
        amount: Amount,
        id: u64,
        dst: Option<AccountId>,
    ) -> ClaimAttestation<'_> {
        ClaimAttestation {
            bridge: self.b,
            witness: &self.witnesses[i],
            source: *source,
            amount,
            reward_account: self.rewards[i].id,
            was_locking: true,
            id,
            dst,
        }
    }

    fn reward_balances(&self) -> Vec<i64> {
        self.rewards.iter().map(|r| self.env.balance(r)).collect()
    }
}

#[test]
fn a_door_modifies_its_reward_and_min_create_amount() {
    let mut env = Env::new();
    let [door, alice] = env.funded(["mcDoor", "alice"]);
    let b = xrp_bridge(&door.id, &Account::master().id);
    env.apply(
        &door,
        create_bridge(&b, drops(REWARD), Some(xrp(20))),
        Ter::tesSUCCESS,
    );
    let key = keylet::bridge(&b, ChainType::Locking);
    let s = sf();

    env.apply(
        &door,
        modify(&b).amount("SignatureReward", xrp(2)),
        Ter::tesSUCCESS,
    );
    let e = env.read(&key).unwrap();
    assert_eq!(e.amount_of(s.signature_reward), Some(xrp(2)));
    assert_eq!(e.amount_of(s.min_account_create_amount), Some(xrp(20)));

    env.apply(
        &door,
        modify(&b).amount("MinAccountCreateAmount", xrp(30)),
        Ter::tesSUCCESS,
    );
    assert_eq!(
        env.read(&key)
            .unwrap()
            .amount_of(s.min_account_create_amount),
        Some(xrp(30))
    );
    env.apply(&door, modify(&b).flags(0x0001_0000), Ter::tesSUCCESS);
    assert!(env
        .read(&key)
        .unwrap()
        .get(s.min_account_create_amount)
        .is_none());
    assert_eq!(env.owner_count(&door), 1);

    // rippled's malformed forms.
    env.apply(&door, modify(&b), Ter::temMALFORMED);
    env.apply(
        &door,
        modify(&b)
            .amount("MinAccountCreateAmount", xrp(30))
            .flags(0x0001_0000),
        Ter::temMALFORMED,
    );
    env.apply(&door, modify(&b).flags(0x0002_0000), Ter::temINVALID_FLAG);
    env.apply(
        &alice,
        modify(&b).amount("SignatureReward", xrp(2)),
        Ter::temXCHAIN_BRIDGE_NONDOOR_OWNER,
    );
    env.apply(
        &door,
        modify(&b).amount("SignatureReward", drops(-1)),
        Ter::temXCHAIN_BRIDGE_BAD_REWARD_AMOUNT,
    );
    env.apply(
        &door,
        modify(&b).amount("SignatureReward", door.iou("USD", 1)),
        Ter::temXCHAIN_BRIDGE_BAD_REWARD_AMOUNT,
    );
    env.apply(
        &door,
        modify(&b).amount("MinAccountCreateAmount", drops(0)),
        Ter::temXCHAIN_BRIDGE_BAD_MIN_ACCOUNT_CREATE_AMOUNT,
    );
    // The other end of the bridge is not on this ledger.
    env.apply(
        &Account::master(),
        modify(&b).amount("SignatureReward", xrp(2)),
        Ter::tecNO_ENTRY,
    );
}

#[test]
fn an_account_commits_to_the_locking_door() {
    let mut env = Env::new();
    let [door, alice, gw] = env.funded(["mcDoor", "alice", "gw"]);
    let b = xrp_bridge(&door.id, &Account::master().id);
    // No bridge yet.
    env.apply(&alice, commit(&b, 1, xrp(100)), Ter::tecNO_ENTRY);
    env.apply(
        &door,
        create_bridge(&b, drops(REWARD), None),
        Ter::tesSUCCESS,
    );

    let (a0, d0) = (env.balance(&alice), env.balance(&door));
    env.apply(&alice, commit(&b, 1, xrp(100)), Ter::tesSUCCESS);
    assert_eq!(env.balance(&alice), a0 - 100_000_000 - FEE);
    assert_eq!(env.balance(&door), d0 + 100_000_000);
    // A commit creates nothing: the claim ID lives on the other chain.
    assert_eq!(env.owner_count(&alice), 0);

    env.apply(&alice, commit(&b, 1, drops(0)), Ter::temBAD_AMOUNT);
    env.apply(&alice, commit(&b, 1, drops(-5)), Ter::temBAD_AMOUNT);
    env.apply(&alice, commit(&b, 1, gw.iou("USD", 1)), Ter::temBAD_ISSUER);
    env.apply(&door, commit(&b, 1, xrp(1)), Ter::tecXCHAIN_SELF_COMMIT);
    env.apply(
        &alice,
        commit(&b, 1, xrp(1)).flags(0x0001_0000),
        Ter::temINVALID_FLAG,
    );
}

#[test]
fn a_claim_id_is_an_owned_entry_with_the_bridges_reward() {
    let mut ic = issuing_chain();
    let [bob] = ic.env.funded(["scBob"]);
    let alice = Account::new("alice");
    let b = ic.b;
    ic.env.apply(
        &bob,
        claim_id(&b, xrp(2), &alice.id),
        Ter::tecXCHAIN_REWARD_MISMATCH,
    );
    ic.env.apply(
        &bob,
        claim_id(&b, drops(-1), &alice.id),
        Ter::temXCHAIN_BRIDGE_BAD_REWARD_AMOUNT,
    );
    ic.env.apply(
        &bob,
        claim_id(&b, bob.iou("USD", 1), &alice.id),
        Ter::temXCHAIN_BRIDGE_BAD_REWARD_AMOUNT,
    );
    let other = XChainBridge {
        locking_door: alice.id,
        ..b
    };
    ic.env.apply(
        &bob,
        claim_id(&other, drops(REWARD), &alice.id),
        Ter::tecNO_ENTRY,
    );

    ic.env.apply(
        &bob,
        claim_id(&b, drops(REWARD), &alice.id),
        Ter::tesSUCCESS,
    );
    ic.env.apply(
        &bob,
        claim_id(&b, drops(REWARD), &alice.id),
        Ter::tesSUCCESS,
    );
    assert_eq!(ic.env.owner_count(&bob), 2);
    let s = sf();
    let bridge = ic
        .env
        .read(&keylet::bridge(&b, ChainType::Issuing))
        .unwrap();
    assert_eq!(bridge.u64_of(s.xchain_claim_id), Some(2));
    let key = keylet::xchain_claim_id(&b, 1);
    let e = ic.env.read(&key).expect("claim ID 1");
    assert_eq!(
        e.u16_of(s.ledger_entry_type),
        Some(lt::XCHAIN_OWNED_CLAIM_ID)
    );
    assert_eq!(e.account_of(s.account), Some(bob.id));
    assert_eq!(e.u64_of(s.xchain_claim_id), Some(1));
    assert_eq!(e.account_of(s.other_chain_source), Some(alice.id));
    assert_eq!(e.amount_of(s.signature_reward), Some(drops(REWARD)));
    assert!(matches!(e.get(s.xchain_claim_attestations), Some(StValue::Array(a)) if a.is_empty()));
    assert!(ic.env.owned(&bob).contains(&key));
    assert!(ic.env.read(&keylet::xchain_claim_id(&b, 2)).is_some());
    let _ = &ic.master;
}

#[test]
fn attestations_with_a_destination_move_the_funds_at_the_quorum() {
    let (mut ic, bob, alice) = issuing_chain_with_claim_id();
    let b = ic.b;
    let key = keylet::xchain_claim_id(&b, 1);
    let (bob0, master0, rewards0) = (
        ic.env.balance(&bob),
        ic.env.balance(&ic.master),
        ic.reward_balances(),
    );
    let attester = ic.attester.clone();
    for i in 0..3 {
        let tx = ic.att(i, &alice.id, xrp(100), 1, Some(bob.id)).tx();
        ic.env.apply(&attester, tx, Ter::tesSUCCESS);
        let e = ic.env.read(&key).expect("claim ID stays below the quorum");
        let Some(StValue::Array(atts)) = e.get(sf().xchain_claim_attestations) else {
            panic!("attestations");
        };
        assert_eq!(atts.len(), i + 1);
    }
    // The same witness again replaces its attestation: still three.
    let tx = ic.att(2, &alice.id, xrp(100), 1, Some(bob.id)).tx();
    ic.env.apply(&attester, tx, Ter::tesSUCCESS);
    assert_eq!(ic.env.balance(&bob), bob0);
    // The fourth reaches the quorum: the root pays bob 100 XRP, bob pays each of the
    // four witnesses a quarter of the reward, the claim ID is gone.
    let tx = ic.att(3, &alice.id, xrp(100), 1, Some(bob.id)).tx();
    ic.env.apply(&attester, tx, Ter::tesSUCCESS);
    assert_eq!(ic.env.balance(&bob), bob0 + 100_000_000 - REWARD);
    assert_eq!(ic.env.balance(&ic.master), master0 - 100_000_000);
    let rewards = ic.reward_balances();
    for i in 0..5 {
        let share = if i < 4 { REWARD / 4 } else { 0 };
        assert_eq!(rewards[i], rewards0[i] + share, "reward account {i}");
    }
    assert!(ic.env.read(&key).is_none());
    assert_eq!(ic.env.owner_count(&bob), 0);
    // A late attestation finds no claim ID.
    let tx = ic.att(4, &alice.id, xrp(100), 1, Some(bob.id)).tx();
    ic.env.apply(&attester, tx, Ter::tecXCHAIN_NO_CLAIM_ID);
}

#[test]
fn without_a_destination_the_owner_claims_after_the_quorum() {
    let mut ic = issuing_chain();
    let [bob, carol, dave] = ic.env.funded(["scBob", "scCarol", "scDave"]);
    let alice = Account::new("alice");
    let b = ic.b;
    ic.env.apply(
        &bob,
        claim_id(&b, drops(REWARD), &alice.id),
        Ter::tesSUCCESS,
    );
    // Before any attestation: no quorum.
    ic.env.apply(
        &bob,
        claim(&b, 1, xrp(100), &carol.id),
        Ter::tecXCHAIN_CLAIM_NO_QUORUM,
    );
    let attester = ic.attester.clone();
    for i in 0..5 {
        let tx = ic.att(i, &alice.id, xrp(100), 1, None).tx();
        ic.env.apply(&attester, tx, Ter::tesSUCCESS);
    }
    assert!(
        ic.env.read(&keylet::xchain_claim_id(&b, 1)).is_some(),
        "no destination, no transfer"
    );
    // Only the owner claims; the claim ID must exist; the amount must be what was attested.
    ic.env.apply(
        &dave,
        claim(&b, 1, xrp(100), &carol.id),
        Ter::tecXCHAIN_BAD_CLAIM_ID,
    );
    ic.env.apply(
        &bob,
        claim(&b, 2, xrp(100), &carol.id),
        Ter::tecXCHAIN_NO_CLAIM_ID,
    );
    ic.env.apply(
        &bob,
        claim(&b, 1, xrp(99), &carol.id),
        Ter::tecXCHAIN_CLAIM_NO_QUORUM,
    );
    ic.env.apply(
        &bob,
        claim(&b, 1, xrp(100), &Account::new("ghost").id),
        Ter::tecNO_DST,
    );
    ic.env
        .apply(&bob, claim(&b, 1, drops(0), &carol.id), Ter::temBAD_AMOUNT);
    ic.env.apply(
        &bob,
        claim(&b, 1, bob.iou("USD", 1), &carol.id),
        Ter::temBAD_AMOUNT,
    );

    let (bob0, carol0, rewards0) = (
        ic.env.balance(&bob),
        ic.env.balance(&carol),
        ic.reward_balances(),
    );
    ic.env
        .apply(&bob, claim(&b, 1, xrp(100), &carol.id), Ter::tesSUCCESS);
    assert_eq!(ic.env.balance(&carol), carol0 + 100_000_000);
    // Five witnesses attested: each gets a fifth of the reward.
    assert_eq!(ic.env.balance(&bob), bob0 - FEE - REWARD);
    for (i, r) in ic.reward_balances().iter().enumerate() {
        assert_eq!(*r, rewards0[i] + REWARD / 5, "reward account {i}");
    }
    assert!(ic.env.read(&keylet::xchain_claim_id(&b, 1)).is_none());
    assert_eq!(ic.env.owner_count(&bob), 0);
}

#[test]
fn a_claim_to_a_deposit_auth_destination_needs_preauthorization_unless_it_is_the_owner() {
    let mut ic = issuing_chain();
    let [bob, carol] = ic.env.funded(["scBob", "scCarol"]);
    let alice = Account::new("alice");
    let b = ic.b;
    ic.env.apply(
        &bob,
        claim_id(&b, drops(REWARD), &alice.id),
        Ter::tesSUCCESS,
    );
    let attester = ic.attester.clone();
    for i in 0..4 {
        let tx = ic.att(i, &alice.id, xrp(10), 1, None).tx();
        ic.env.apply(&attester, tx, Ter::tesSUCCESS);
    }
    ic.env.apply(
        &carol,
        fset(ledgerd::engine::account_set::asf::DEPOSIT_AUTH),
        Ter::tesSUCCESS,
    );
    ic.env.apply(
        &bob,
        fset(ledgerd::engine::account_set::asf::DEPOSIT_AUTH),
        Ter::tesSUCCESS,
    );
    ic.env.apply(
        &bob,
        claim(&b, 1, xrp(10), &carol.id),
        Ter::tecNO_PERMISSION,
    );
    let bob0 = ic.env.balance(&bob);
    ic.env
        .apply(&bob, claim(&b, 1, xrp(10), &bob.id), Ter::tesSUCCESS);
    assert_eq!(ic.env.balance(&bob), bob0 - FEE + 10_000_000 - REWARD);
}

#[test]
fn bad_attestations_get_rippleds_codes() {
    let (mut ic, bob, alice) = issuing_chain_with_claim_id();
    let b = ic.b;
    let attester = ic.attester.clone();
    let stranger = Account::new("stranger");
    // Signed by another key than the one it names.
    let good = ic.att(0, &alice.id, xrp(100), 1, None);
    let tx = good
        .signed_by(&stranger)
        .blob("PublicKey", ic.witnesses[0].kp.public.as_bytes());
    ic.env.apply(&attester, tx, Ter::temXCHAIN_BAD_PROOF);
    // A signer not on the door's list.
    let not_listed = ClaimAttestation {
        witness: &stranger,
        ..ic.att(0, &alice.id, xrp(100), 1, None)
    };
    ic.env
        .apply(&attester, not_listed.tx(), Ter::tecNO_PERMISSION);
    // A listed signer signing with a key that is not its own.
    let wrong_key = ic.att(0, &alice.id, xrp(100), 1, None).signed_by(&stranger);
    ic.env.apply(
        &attester,
        wrong_key,
        Ter::tecXCHAIN_BAD_PUBLIC_KEY_ACCOUNT_PAIR,
    );
    // Another sending account than the claim ID's.
    let tx = ic.att(0, &bob.id, xrp(100), 1, None).tx();
    ic.env
        .apply(&attester, tx, Ter::tecXCHAIN_SENDING_ACCOUNT_MISMATCH);
    // A commit on the issuing chain attested on the issuing chain.
    let wrong_chain = ClaimAttestation {
        was_locking: false,
        ..ic.att(0, &alice.id, xrp(100), 1, None)
    };
    ic.env
        .apply(&attester, wrong_chain.tx(), Ter::tecXCHAIN_WRONG_CHAIN);
    // An unknown claim ID; an amount of nothing or of another issue.
    ic.env.apply(
        &attester,
        ic.att(0, &alice.id, xrp(100), 7, None).tx(),
        Ter::tecXCHAIN_NO_CLAIM_ID,
    );
    ic.env.apply(
        &attester,
        ic.att(0, &alice.id, drops(0), 1, None).tx(),
        Ter::temXCHAIN_BAD_PROOF,
    );
    let usd = ic.att(0, &alice.id, bob.iou("USD", 1), 1, None);
    ic.env.apply(&attester, usd.tx(), Ter::temXCHAIN_BAD_PROOF);
    // Nothing was stored.
    let e = ic.env.read(&keylet::xchain_claim_id(&b, 1)).unwrap();
    assert!(
        matches!(e.get(sf().xchain_claim_attestations), Some(StValue::Array(a)) if a.is_empty())
    );
    // A bridge whose door has no signer list.
    ic.env
        .apply(&ic.master.clone(), signer_list(0, &[]), Ter::tesSUCCESS);
    let tx = ic.att(0, &alice.id, xrp(100), 1, None).tx();
    ic.env.apply(&attester, tx, Ter::tecXCHAIN_NO_SIGNERS_LIST);
}

#[test]
fn a_witness_may_attest_with_its_regular_key_and_leaving_the_list_drops_its_attestation() {
    let (mut ic, bob, alice) = issuing_chain_with_claim_id();
    let b = ic.b;
    let attester = ic.attester.clone();
    // witness0 exists on this chain with a regular key and its master key disabled.
    let w0 = ic.witnesses[0].clone();
    let regular = Account::new("w0regular");
    ic.env.fund(&w0, xrp(1000));
    ic.env.apply(&w0, regular_key(&regular), Ter::tesSUCCESS);
    ic.env.apply(
        &w0,
        fset(ledgerd::engine::account_set::asf::DISABLE_MASTER),
        Ter::tesSUCCESS,
    );
    let tx = ic.att(0, &alice.id, xrp(100), 1, None).tx();
    ic.env
        .apply(&attester, tx, Ter::tecXCHAIN_BAD_PUBLIC_KEY_ACCOUNT_PAIR);
    let tx = ic.att(0, &alice.id, xrp(100), 1, None).signed_by(&regular);
    ic.env.apply(&attester, tx, Ter::tesSUCCESS);
    for i in 1..3 {
        let tx = ic.att(i, &alice.id, xrp(100), 1, None).tx();
        ic.env.apply(&attester, tx, Ter::tesSUCCESS);
    }
    // witness0 leaves the list (quorum 3 of the remaining four): its attestation no
    // longer counts, so two are not enough.
    let entries: Vec<(&Account, u16)> = ic.witnesses[1..].iter().map(|w| (w, 1)).collect();
    ic.env.apply(
        &ic.master.clone(),
        signer_list(3, &entries),
        Ter::tesSUCCESS,
    );
    ic.env.apply(
        &bob,
        claim(&b, 1, xrp(100), &bob.id),
        Ter::tecXCHAIN_CLAIM_NO_QUORUM,
    );
    let tx = ic.att(3, &alice.id, xrp(100), 1, None).tx();
    ic.env.apply(&attester, tx, Ter::tesSUCCESS);
    let bob0 = ic.env.balance(&bob);
    ic.env
        .apply(&bob, claim(&b, 1, xrp(100), &bob.id), Ter::tesSUCCESS);
    // Three witnesses share the reward.
    assert_eq!(
        ic.env.balance(&bob),
        bob0 - FEE + 100_000_000 - 3 * (REWARD / 3)
    );
}
