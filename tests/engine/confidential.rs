//! Confidential MPT stories (XLS-96, amendment ConfidentialTransfer), after xrpld's
//! `ConfidentialTransfer_test.cpp`: the issuance flag and keys, Convert (registering the
//! holder's key), MergeInbox, ConvertBack, Send and Clawback with their result codes, the
//! proofs made by ledgerd's wallet side (`protocol::confidential::client`), and the
//! amendment both ways. Balances are read back by decrypting the ledger's ciphertexts.

use crate::support;

use ledgerd::engine::mptoken_authorize::tf as auth_tf;
use ledgerd::engine::mptoken_issuance_create::tf as ctf;
use ledgerd::engine::mptoken_issuance_set::tf as set_tf;
use ledgerd::engine::Ter;
use ledgerd::ledger::keylet;
use ledgerd::ledger::sf::{sf, StExt};
use ledgerd::protocol::confidential as ct;
use ledgerd::protocol::confidential::client;
use ledgerd::protocol::definitions::Field;
use ledgerd::protocol::mpt::MptId;
use ledgerd::protocol::st::StValue;
use ledgerd::protocol::types::Hash256;
use support::confidential::*;
use support::engine::*;
use support::mpt::{issue, outstanding, pay_mpt, with_id};

/// Not a point: its x-coordinate is past the field's prime.
const NOT_A_POINT: [u8; 33] = {
    let mut p = [0xFF; 33];
    p[0] = 2;
    p
};

/// Not a ciphertext: two of [`NOT_A_POINT`].
fn not_a_ciphertext() -> Vec<u8> {
    [NOT_A_POINT, NOT_A_POINT].concat()
}

/// Every one of the five types, well formed enough to reach the amendment check.
fn each_type(id: &MptId, holder: &Account) -> Vec<Tx> {
    let ct66 = not_a_ciphertext();
    vec![
        u64_field(confidential("ConfidentialMPTConvert", id), "MPTAmount", 1)
            .blob("HolderEncryptedAmount", &ct66)
            .blob("IssuerEncryptedAmount", &ct66)
            .h256("BlindingFactor", Hash256([1; 32])),
        confidential("ConfidentialMPTMergeInbox", id),
        u64_field(
            confidential("ConfidentialMPTConvertBack", id),
            "MPTAmount",
            1,
        )
        .blob("HolderEncryptedAmount", &ct66)
        .blob("IssuerEncryptedAmount", &ct66)
        .h256("BlindingFactor", Hash256([1; 32]))
        .blob("BalanceCommitment", &keys().public)
        .blob("ZKProof", &[0; ct::CONVERT_BACK_PROOF_SIZE]),
        confidential("ConfidentialMPTSend", id)
            .account("Destination", &holder.id)
            .blob("SenderEncryptedAmount", &ct66)
            .blob("DestinationEncryptedAmount", &ct66)
            .blob("IssuerEncryptedAmount", &ct66)
            .blob("BalanceCommitment", &keys().public)
            .blob("AmountCommitment", &keys().public)
            .blob("ZKProof", &[0; ct::SEND_PROOF_SIZE]),
        u64_field(confidential("ConfidentialMPTClawback", id), "MPTAmount", 1)
            .account("Holder", &holder.id)
            .blob("ZKProof", &[0; ct::CLAWBACK_PROOF_SIZE]),
    ]
}

#[test]
fn without_the_amendment_every_type_flag_and_key_is_disabled() {
    let mut env = env_with(false);
    let [gw, bob] = env.funded(["gw", "bob"]);
    env.apply(
        &gw,
        Tx::new("MPTokenIssuanceCreate").flags(ISSUANCE_FLAGS),
        Ter::temDISABLED,
    );
    let id = issue(
        &mut env,
        &gw,
        Tx::new("MPTokenIssuanceCreate").flags(ctf::CAN_TRANSFER),
    );
    let key = keys().public;
    let set = || with_id(Tx::new("MPTokenIssuanceSet"), &id);
    env.apply(
        &gw,
        set().blob("IssuerEncryptionKey", &key),
        Ter::temDISABLED,
    );
    env.apply(
        &gw,
        set().flags(set_tf::SET_CAN_HOLD_CONFIDENTIAL_BALANCE),
        Ter::temDISABLED,
    );
    let immutable = |tx: Tx| tx.u32("ImmutableFlags", 0x0080);
    env.apply(
        &gw,
        immutable(Tx::new("MPTokenIssuanceCreate")),
        Ter::temDISABLED,
    );
    env.apply(&gw, immutable(set()), Ter::temDISABLED);
    for tx in each_type(&id, &bob) {
        env.apply(&bob, tx, Ter::temDISABLED);
    }
}

#[test]
fn with_the_amendment_the_flag_and_keys_follow_xrplds_rules() {
    let mut env = env_with(true);
    let [gw, bob] = env.funded(["gw", "bob"]);
    // Confidential balances never pay a transfer fee.
    let fee = |tx: Tx, v: u16| {
        let mut tx = tx;
        tx.0.set(Field::named("TransferFee"), StValue::UInt16(v));
        tx
    };
    env.apply(
        &gw,
        fee(Tx::new("MPTokenIssuanceCreate").flags(ISSUANCE_FLAGS), 1),
        Ter::temBAD_TRANSFER_FEE,
    );
    let plain = issue(
        &mut env,
        &gw,
        fee(
            Tx::new("MPTokenIssuanceCreate").flags(ctf::CAN_TRANSFER),
            10,
        ),
    );
    let id = issue(
        &mut env,
        &gw,
        Tx::new("MPTokenIssuanceCreate").flags(ISSUANCE_FLAGS),
    );
    let (issuer, auditor) = (keys().public, keys().public);
    let set = |id: &MptId| with_id(Tx::new("MPTokenIssuanceSet"), id);
    // Malformed keys.
    env.apply(
        &gw,
        set(&id).blob("IssuerEncryptionKey", &NOT_A_POINT),
        Ter::temMALFORMED,
    );
    env.apply(
        &gw,
        set(&id).blob("IssuerEncryptionKey", &issuer[..32]),
        Ter::temMALFORMED,
    );
    env.apply(
        &gw,
        set(&id).blob("AuditorEncryptionKey", &auditor),
        Ter::temMALFORMED,
    );
    env.apply(
        &gw,
        set(&id)
            .blob("IssuerEncryptionKey", &issuer)
            .account("Holder", &bob.id),
        Ter::temMALFORMED,
    );
    // Enabling with a transfer fee in the same transaction, or on an issuance that has one.
    env.apply(
        &gw,
        fee(
            set(&plain).flags(set_tf::SET_CAN_HOLD_CONFIDENTIAL_BALANCE),
            5,
        ),
        Ter::temBAD_TRANSFER_FEE,
    );
    env.apply(
        &gw,
        set(&plain).flags(set_tf::SET_CAN_HOLD_CONFIDENTIAL_BALANCE),
        Ter::tecNO_PERMISSION,
    );
    // A key on an issuance that cannot hold confidential balances.
    env.apply(
        &gw,
        set(&plain).blob("IssuerEncryptionKey", &issuer),
        Ter::tecNO_PERMISSION,
    );
    // Registered once; a transfer fee is refused afterwards.
    env.apply(
        &gw,
        set(&id)
            .blob("IssuerEncryptionKey", &issuer)
            .blob("AuditorEncryptionKey", &auditor),
        Ter::tesSUCCESS,
    );
    let iss = env.read(&keylet::mpt_issuance(&id)).expect("issuance");
    assert_eq!(iss.blob_of(sf().issuer_encryption_key), Some(&issuer[..]));
    assert_eq!(iss.blob_of(sf().auditor_encryption_key), Some(&auditor[..]));
    env.apply(
        &gw,
        set(&id).blob("IssuerEncryptionKey", &auditor),
        Ter::tecNO_PERMISSION,
    );
    env.apply(&gw, fee(set(&id), 5), Ter::tecNO_PERMISSION);
    // The capability enabled later, with the key in the same transaction.
    let mut zero_fee = set(&plain);
    zero_fee
        .0
        .set(Field::named("TransferFee"), StValue::UInt16(0));
    env.apply(&gw, zero_fee, Ter::tesSUCCESS);
    env.apply(
        &gw,
        set(&plain)
            .flags(set_tf::SET_CAN_HOLD_CONFIDENTIAL_BALANCE)
            .blob("IssuerEncryptionKey", &issuer),
        Ter::tesSUCCESS,
    );
    let iss = env.read(&keylet::mpt_issuance(&plain)).expect("issuance");
    assert!(iss.is_flag(ledgerd::ledger::flags::lsf_mpt::CAN_HOLD_CONFIDENTIAL_BALANCE));
}

#[test]
fn a_first_convert_registers_the_key_and_sets_up_the_balances() {
    let mut w = world(1, false);
    let h = w.holder(0).clone();
    let before = w.env.balance(&h);
    // No key registered and none given.
    w.env
        .apply(&h, w.convert(0, 100, false), Ter::tecNO_PERMISSION);
    let tx = w.convert(0, 1_000, true);
    w.env.apply(&h, tx, Ter::tesSUCCESS);
    assert_eq!(
        before - w.env.balance(&h),
        2 * CONFIDENTIAL_FEE,
        "ten base fees each"
    );
    assert_eq!(w.public(0), 4_000);
    assert_eq!(w.coa(), 1_000);
    assert_eq!(
        outstanding(&w.env, &w.id),
        5_000,
        "OutstandingAmount unchanged"
    );
    assert_eq!(w.balances(0), (1_000, 0));
    assert_eq!(w.issuer_view(0), 1_000);
    assert_eq!(w.version(0), 0);
    let token = w.token(0);
    assert_eq!(
        token.blob_of(sf().holder_encryption_key),
        Some(&w.holders[0].1.public[..])
    );
    // The spending balance is the canonical zero every server computes.
    let zero = ct::canonical_zero(&w.holders[0].1.public, &h.id.0, &w.id.0).expect("zero");
    assert_eq!(
        token.blob_of(sf().confidential_balance_spending),
        Some(&zero[..])
    );
    // A second key is a duplicate; later converts add to the inbox.
    let again = w.convert(0, 10, true);
    w.env.apply(&h, again, Ter::tecDUPLICATE);
    let more = w.convert(0, 500, false);
    w.env.apply(&h, more, Ter::tesSUCCESS);
    assert_eq!(
        (w.balances(0), w.issuer_view(0), w.public(0)),
        ((1_500, 0), 1_500, 3_500)
    );
}

#[test]
fn convert_refuses_what_xrpld_refuses() {
    let mut w = world(2, true);
    let h = w.holder(0).clone();
    let tx = w.convert(0, 100, true);
    // preflight: the issuer, too much, a key without its proof, a proof without a key,
    // a malformed ciphertext.
    w.env
        .apply(&w.gw.clone(), w.convert(0, 1, false), Ter::temMALFORMED);
    let too_much = u64_field(tx.clone(), "MPTAmount", u64::MAX);
    w.env.apply(&h, too_much, Ter::temBAD_AMOUNT);
    w.env
        .apply(&h, tx.clone().remove("ZKProof"), Ter::temMALFORMED);
    w.env
        .apply(&h, tx.clone().blob("ZKProof", &[1; 63]), Ter::temMALFORMED);
    w.env.apply(
        &h,
        w.convert(0, 1, false).blob("ZKProof", &[1; 64]),
        Ter::temMALFORMED,
    );
    w.env.apply(
        &h,
        tx.clone().blob("HolderEncryptionKey", &NOT_A_POINT),
        Ter::temMALFORMED,
    );
    w.env.apply(
        &h,
        tx.clone().blob("IssuerEncryptedAmount", &[2; 65]),
        Ter::temBAD_CIPHERTEXT,
    );
    w.env.apply(
        &h,
        tx.clone()
            .blob("HolderEncryptedAmount", &not_a_ciphertext()),
        Ter::temBAD_CIPHERTEXT,
    );
    // preclaim: the auditor's ciphertext is required here; more than held; a proof for
    // another account; an amount the ciphertexts do not hold.
    w.env.apply(
        &h,
        tx.clone().remove("AuditorEncryptedAmount"),
        Ter::tecNO_PERMISSION,
    );
    let big = w.convert(0, 6_000, true);
    w.env.apply(&h, big, Ter::tecINSUFFICIENT_FUNDS);
    let other = w.convert(1, 100, true);
    w.env.apply(&h, other, Ter::tecBAD_PROOF);
    let lie = u64_field(w.convert(0, 100, true), "MPTAmount", 99);
    w.env.apply(&h, lie, Ter::tecBAD_PROOF);
    assert!(
        w.token(0).get(sf().holder_encryption_key).is_none(),
        "nothing registered"
    );
    assert_eq!((w.public(0), w.coa()), (5_000, 0));
    // Locked: even a zero amount is refused.
    let lock = with_id(Tx::new("MPTokenIssuanceSet"), &w.id).flags(set_tf::LOCK);
    w.env.apply(&w.gw.clone(), lock, Ter::tesSUCCESS);
    let zero = w.convert(0, 0, true);
    w.env.apply(&h, zero, Ter::tecLOCKED);
}

#[test]
fn merge_moves_the_inbox_to_spending_and_bumps_the_version() {
    let mut w = world(1, true);
    let h = w.holder(0).clone();
    w.env.apply(&h, w.merge(), Ter::tecNO_PERMISSION);
    let tx = w.convert(0, 1_000, true);
    w.env.apply(&h, tx, Ter::tesSUCCESS);
    w.env.apply(&w.gw.clone(), w.merge(), Ter::temMALFORMED);
    w.env.apply(&h, w.merge(), Ter::tesSUCCESS);
    assert_eq!(w.balances(0), (0, 1_000));
    assert_eq!(w.version(0), 1);
    let auditor = &w.auditor_keys.as_ref().expect("auditor").secret;
    assert_eq!(w.decrypt(0, sf().auditor_encrypted_balance, auditor), 1_000);
    // The inbox is the canonical zero again.
    let zero = ct::canonical_zero(&w.holders[0].1.public, &h.id.0, &w.id.0).expect("zero");
    assert_eq!(
        w.token(0).blob_of(sf().confidential_balance_inbox),
        Some(&zero[..])
    );
    w.env.apply(&h, w.merge(), Ter::tesSUCCESS);
    assert_eq!((w.balances(0), w.version(0)), ((0, 1_000), 2));
}

#[test]
fn clawback_takes_the_whole_confidential_balance_with_a_proof() {
    let mut w = world(2, true);
    let (h, gw) = (w.holder(0).clone(), w.gw.clone());
    let tx = w.convert(0, 1_000, true);
    w.env.apply(&h, tx, Ter::tesSUCCESS);
    w.env.apply(&h, w.merge(), Ter::tesSUCCESS);
    let tx = w.convert(0, 300, false);
    w.env.apply(&h, tx, Ter::tesSUCCESS);
    // Not the issuer; from itself; zero; a holder without confidential balances; more
    // than circulates; an amount the mirror does not hold.
    w.env.apply(&h, w.clawback(0, 1_300), Ter::temMALFORMED);
    let own = w.clawback(0, 1_300).account("Holder", &gw.id);
    w.env.apply(&gw, own, Ter::temMALFORMED);
    w.env.apply(
        &gw,
        u64_field(w.clawback(0, 1), "MPTAmount", 0),
        Ter::temBAD_AMOUNT,
    );
    w.env.apply(&gw, w.clawback(1, 5), Ter::tecNO_PERMISSION);
    w.env
        .apply(&gw, w.clawback(0, 1_301), Ter::tecINSUFFICIENT_FUNDS);
    let wrong = u64_field(w.clawback(0, 1_300), "MPTAmount", 1_299);
    w.env.apply(&gw, wrong, Ter::tecBAD_PROOF);
    assert_eq!(w.coa(), 1_300);
    w.env.apply(&gw, w.clawback(0, 1_300), Ter::tesSUCCESS);
    assert_eq!((w.balances(0), w.issuer_view(0)), ((0, 0), 0));
    assert_eq!(w.coa(), 0);
    assert_eq!(outstanding(&w.env, &w.id), 10_000 - 1_300);
    assert_eq!(w.public(0), 3_700, "the public balance stays");
    assert!(w
        .issuance()
        .get(sf().confidential_outstanding_amount)
        .is_none());
}

#[test]
fn a_token_with_confidential_state_cannot_be_deleted() {
    let mut w = world(1, false);
    let h = w.holder(0).clone();
    let tx = w.convert(0, 5_000, true);
    w.env.apply(&h, tx, Ter::tesSUCCESS);
    assert_eq!(w.public(0), 0);
    let leave = with_id(Tx::new("MPTokenAuthorize"), &w.id).flags(auth_tf::UNAUTHORIZE);
    w.env.apply(&h, leave, Ter::tecHAS_OBLIGATIONS);
    // Nor can keys change while confidential tokens circulate.
    let rekey = with_id(Tx::new("MPTokenIssuanceSet"), &w.id)
        .blob("AuditorEncryptionKey", &keys().public)
        .blob("IssuerEncryptionKey", &keys().public);
    w.env.apply(&w.gw.clone(), rekey, Ter::tecNO_PERMISSION);
}

#[test]
fn convert_back_and_send_check_their_shapes_before_their_proofs() {
    let mut w = world(2, false);
    let [a, b] = [w.holder(0).clone(), w.holder(1).clone()];
    let txs = each_type(&w.id, &b);
    let (convert_back, send) = (txs[2].clone(), txs[3].clone());
    w.env.apply(
        &a,
        u64_field(convert_back.clone(), "MPTAmount", 0),
        Ter::temBAD_AMOUNT,
    );
    w.env.apply(
        &a,
        convert_back.clone().blob("BalanceCommitment", &[9; 33]),
        Ter::temMALFORMED,
    );
    w.env
        .apply(&a, convert_back.clone(), Ter::temBAD_CIPHERTEXT);
    w.env.apply(
        &a,
        send.clone().account("Destination", &a.id),
        Ter::temMALFORMED,
    );
    w.env.apply(
        &a,
        send.clone().account("Destination", &w.gw.id),
        Ter::temMALFORMED,
    );
    w.env.apply(
        &a,
        send.clone().blob("SenderEncryptedAmount", &[2; 65]),
        Ter::temBAD_CIPHERTEXT,
    );
    w.env.apply(
        &a,
        send.clone().blob("ZKProof", &[0; 945]),
        Ter::temMALFORMED,
    );
    w.env.apply(&a, send.clone(), Ter::temBAD_CIPHERTEXT);
    // Well formed but for proofs: both need initialized balances, then a valid proof.
    let zero = |w: &World, i: usize| {
        client::encrypt_amount(
            0,
            &w.holders[i].1.public,
            &client::generate_blinding_factor(),
        )
        .expect("encrypts")
    };
    let c = zero(&w, 0);
    let good_send = send
        .blob("SenderEncryptedAmount", &c)
        .blob("DestinationEncryptedAmount", &c)
        .blob("IssuerEncryptedAmount", &c)
        .blob("BalanceCommitment", &keys().public)
        .blob("AmountCommitment", &keys().public);
    w.env.apply(&a, good_send.clone(), Ter::tecNO_PERMISSION);
    for i in 0..2 {
        let (h, tx) = (w.holder(i).clone(), w.convert(i, 100, true));
        w.env.apply(&h, tx, Ter::tesSUCCESS);
    }
    let before = (w.token(0), w.token(1));
    w.env.apply(&a, good_send, Ter::tecBAD_PROOF);
    let bf = client::generate_blinding_factor();
    let enc = |k: &[u8]| client::encrypt_amount(10, k, &bf).expect("encrypts");
    let good_back = convert_back
        .u32("Flags", 0)
        .blob("HolderEncryptedAmount", &enc(&w.holders[0].1.public))
        .blob("IssuerEncryptedAmount", &enc(&w.issuer_keys.public))
        .h256("BlindingFactor", Hash256(bf))
        .blob("BalanceCommitment", &keys().public);
    let good_back = u64_field(good_back, "MPTAmount", 10);
    w.env.apply(&a, good_back, Ter::tecBAD_PROOF);
    assert_eq!((w.token(0), w.token(1)), before, "nothing changed");
}

#[test]
fn the_amendment_gates_are_what_the_stories_rely_on() {
    // Mutation guard: the same Convert fails only for the missing amendment.
    let mut w = world(1, false);
    let h = w.holder(0).clone();
    let tx = w.convert(0, 10, true);
    let mut off = env_with(false);
    off.fund(&h, xrp(1_000));
    off.apply(&h, tx.clone(), Ter::temDISABLED);
    w.env.apply(&h, tx, Ter::tesSUCCESS);
}

/// Random sequences of public payments, Converts (some lying about their amount), merges,
/// Sends, ConvertBacks and Clawbacks (some of the wrong amount): after each, the public
/// balances plus
/// ConfidentialOutstandingAmount make OutstandingAmount, each holder's own balances add up
/// to what the issuer's mirror decrypts to, and those sum to ConfidentialOutstandingAmount.
#[test]
fn no_sequence_of_operations_creates_or_loses_tokens() {
    use rand::{Rng, SeedableRng};
    for seed in 0..4u64 {
        let mut rng = rand::rngs::StdRng::seed_from_u64(seed);
        let mut w = world(3, seed % 2 == 0);
        let gw = w.gw.clone();
        let mut registered = [false; 3];
        for _ in 0..25 {
            let i = rng.gen_range(0..3);
            let h = w.holder(i).clone();
            let j = (i + rng.gen_range(1..3)) % 3;
            let spendable = if registered[i] { w.spendable(i) } else { 0 };
            match rng.gen_range(0..7) {
                0 => {
                    let v = rng.gen_range(1..500);
                    w.env.submit(&gw, pay_mpt(&h, &w.id, v));
                }
                1 | 2 => {
                    let amount = rng.gen_range(0..=w.public(i) + 50);
                    let mut tx = w.convert(i, amount, !registered[i]);
                    if rng.gen_bool(0.2) {
                        tx = u64_field(tx, "MPTAmount", amount + 1);
                    }
                    if w.env.submit(&h, tx) == Ter::tesSUCCESS {
                        registered[i] = true;
                    }
                }
                3 => {
                    w.env.submit(&h, w.merge());
                }
                4 if spendable > 0 && registered[j] => {
                    let tx = w.send(i, j, rng.gen_range(1..=spendable));
                    assert_eq!(w.env.submit(&h, tx), Ter::tesSUCCESS);
                }
                5 if spendable > 0 => {
                    let tx = w.convert_back(i, rng.gen_range(1..=spendable));
                    assert_eq!(w.env.submit(&h, tx), Ter::tesSUCCESS);
                }
                _ if registered[i] => {
                    let held = w.issuer_view(i);
                    let claimed = if rng.gen_bool(0.3) { held + 1 } else { held };
                    if claimed > 0 {
                        w.env.submit(&gw, w.clawback(i, claimed));
                    }
                }
                _ => {}
            }
            let public: u64 = (0..3).map(|i| w.public(i)).sum();
            assert_eq!(public + w.coa(), outstanding(&w.env, &w.id), "seed {seed}");
            let mut mirrored = 0;
            for (i, done) in registered.iter().enumerate() {
                if *done {
                    let (inbox, spending) = w.balances(i);
                    assert_eq!(inbox + spending, w.issuer_view(i), "seed {seed} holder {i}");
                    mirrored += w.issuer_view(i);
                }
            }
            assert_eq!(mirrored, w.coa(), "seed {seed}");
        }
    }
}

/// Flip one bit of a blob field.
fn tampered(tx: &Tx, name: &str, at: usize) -> Tx {
    let mut bytes = tx.0.blob_of(Field::named(name)).expect("field").to_vec();
    bytes[at] ^= 1;
    tx.clone().blob(name, &bytes)
}

/// The libraries' lifecycle (xrpl.js `confidentialMPTLifecycle.test.ts`): convert 1000 and
/// merge; a second holder registers; send 300, merged; the holders, the issuer and the
/// auditor read 700 and 300; convert back 200; claw back the second holder. Every proof
/// mutated, stale or for another party is tecBAD_PROOF and changes nothing.
#[test]
fn the_whole_lifecycle_with_every_proof_checked() {
    let mut w = world(2, true);
    let [a, b, gw] = [w.holder(0).clone(), w.holder(1).clone(), w.gw.clone()];
    let tx = w.convert(0, 1_000, true);
    w.env.apply(&a, tx, Ter::tesSUCCESS);
    w.env.apply(&a, w.merge(), Ter::tesSUCCESS);
    let tx = w.convert(1, 0, true);
    w.env.apply(&b, tx, Ter::tesSUCCESS);
    // Each proof binds its Sequence, so each try is made afresh.
    let before = (w.token(0), w.token(1));
    for (field, at) in [
        ("ZKProof", 5),
        ("ZKProof", 300),
        ("ZKProof", 900),
        ("AmountCommitment", 0),
    ] {
        let send = w.send(0, 1, 300);
        w.env
            .apply(&a, tampered(&send, field, at), Ter::tecBAD_PROOF);
    }
    // The destination's ciphertext of another amount: the sigma proof catches it.
    let wrong = client::encrypt_amount(301, &w.holders[1].1.public, &[1; 32]).expect("ct");
    let send = w.send(0, 1, 300);
    w.env.apply(
        &a,
        send.blob("DestinationEncryptedAmount", &wrong),
        Ter::tecBAD_PROOF,
    );
    // To another destination than the proof names.
    let send = w.send(0, 1, 300).account("Destination", &w.gw.id);
    w.env.apply(&a, send, Ter::temMALFORMED);
    assert_eq!(
        (w.token(0), w.token(1)),
        before,
        "refused sends change nothing"
    );
    let send = w.send(0, 1, 300);
    w.env.apply(&a, send.clone(), Ter::tesSUCCESS);
    // The inbox received the amount re-randomized with the proof's challenge.
    let blob = |name: &str| send.0.blob_of(Field::named(name)).expect("field").to_vec();
    let challenge = &blob("ZKProof")[..32];
    let inbox_before = before
        .1
        .blob_of(sf().confidential_balance_inbox)
        .expect("inbox");
    let fresh = ct::rerandomize(
        &blob("DestinationEncryptedAmount"),
        &w.holders[1].1.public,
        challenge,
    )
    .expect("rerandomized");
    let expected = ct::add_ciphertexts(inbox_before, &fresh).expect("sum");
    let inbox = w.token(1);
    assert_eq!(
        inbox.blob_of(sf().confidential_balance_inbox),
        Some(&expected[..])
    );
    assert_eq!((w.balances(0), w.balances(1)), ((0, 700), (300, 0)));
    assert_eq!(
        (w.version(0), w.version(1)),
        (2, 0),
        "only the sender's version moves"
    );
    w.env.apply(&b, w.merge(), Ter::tesSUCCESS);
    assert_eq!(
        (w.balances(1), w.issuer_view(0), w.issuer_view(1)),
        ((0, 300), 700, 300)
    );
    let auditor = &w.auditor_keys.as_ref().expect("auditor").secret;
    assert_eq!(w.decrypt(0, sf().auditor_encrypted_balance, auditor), 700);
    assert_eq!(w.decrypt(1, sf().auditor_encrypted_balance, auditor), 300);
    assert_eq!(w.coa(), 1_000);
    // ConvertBack: a proof made before a merge is stale; a tampered one refused.
    let stale = w.convert_back(1, 100);
    let tx = w.convert(1, 10, false);
    w.env.apply(&b, tx, Ter::tesSUCCESS);
    w.env.apply(&b, w.merge(), Ter::tesSUCCESS);
    w.env.apply(&b, stale, Ter::tecBAD_PROOF);
    let back = w.convert_back(0, 200);
    w.env
        .apply(&a, tampered(&back, "ZKProof", 700), Ter::tecBAD_PROOF);
    let back = w.convert_back(0, 200);
    w.env.apply(
        &a,
        tampered(&back, "BalanceCommitment", 0),
        Ter::tecBAD_PROOF,
    );
    let back = w.convert_back(0, 200);
    w.env
        .apply(&a, u64_field(back, "MPTAmount", 201), Ter::tecBAD_PROOF);
    w.env.apply(&a, w.convert_back(0, 200), Ter::tesSUCCESS);
    assert_eq!(
        (w.spendable(0), w.public(0), w.issuer_view(0)),
        (500, 4_200, 500)
    );
    assert_eq!(w.coa(), 810);
    // More than the spending balance cannot be proven at all.
    let token = w.token(0);
    let spending = token
        .blob_of(sf().confidential_balance_spending)
        .expect("spending");
    let rho = client::generate_blinding_factor();
    let sk = &w.holders[0].1.secret;
    let none = client::prove_convert_back(sk, 500, 501, &rho, spending, &[0; 32]);
    assert!(none.is_none(), "no proof of a negative remainder");
    // The issuer claws back the second holder's 310.
    w.env.apply(&gw, w.clawback(1, 310), Ter::tesSUCCESS);
    assert_eq!((w.balances(1), w.coa()), ((0, 0), 500));
    let public: u64 = (0..2).map(|i| w.public(i)).sum();
    assert_eq!(public + w.coa(), outstanding(&w.env, &w.id));
}
