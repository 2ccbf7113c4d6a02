//! Multi-purpose token builders (XLS-33), shared by the MPT, DynamicMPT, vault, token
//! escrow and API tests: the issuance ID and MPT amounts set on any transaction, a payment
//! of an MPT, an issuance made and its ID, and its outstanding amount read back.

use super::engine::{Account, Env, Tx, Who};
use ledgerd::engine::Ter;
use ledgerd::ledger::keylet;
use ledgerd::ledger::sf::{sf, StExt};
use ledgerd::protocol::definitions::Field;
use ledgerd::protocol::mpt::{MptAmount, MptId};
use ledgerd::protocol::st::StValue;

/// `tx` with its `MPTokenIssuanceID` set to `id`.
pub fn with_id(mut tx: Tx, id: &MptId) -> Tx {
    tx.0.set(
        Field::named("MPTokenIssuanceID"),
        StValue::Fixed(id.0.to_vec()),
    );
    tx
}

/// `v` units of the issuance `id`, as a field value.
pub fn mpt(id: &MptId, v: u64) -> StValue {
    StValue::MptAmount(MptAmount::new(v, *id))
}

/// `tx` with its `Amount` set to `v` units of `id`.
pub fn with_mpt(mut tx: Tx, id: &MptId, v: u64) -> Tx {
    tx.0.set(sf().amount, mpt(id, v));
    tx
}

/// A Payment of `v` units of `id` to `to`.
pub fn pay_mpt(to: &impl Who, id: &MptId, v: u64) -> Tx {
    with_mpt(
        Tx::new("Payment").account("Destination", &to.account_id()),
        id,
        v,
    )
}

/// Applies the MPTokenIssuanceCreate `tx` as `issuer` (it must succeed) and returns the
/// new issuance's ID.
pub fn issue(env: &mut Env, issuer: &Account, tx: Tx) -> MptId {
    let seq = env.seq(issuer);
    env.apply(issuer, tx, Ter::tesSUCCESS);
    MptId::new(seq, &issuer.id)
}

/// The issuance's `OutstandingAmount` (0 when it is absent).
pub fn outstanding(env: &Env, id: &MptId) -> u64 {
    env.read(&keylet::mpt_issuance(id))
        .and_then(|i| i.u64_of(sf().outstanding_amount))
        .unwrap_or(0)
}

/// A token escrow finished: gw's MPT (tfMPTCanEscrow | tfMPTCanTransfer) at
/// `transfer_fee`; alice, holding 1,000, escrows `amount` to carol, who finishes it once
/// its FinishAfter has passed. The issuance and `[alice, carol]`.
pub fn finish_escrowed_mpt(env: &mut Env, transfer_fee: u16, amount: u64) -> (MptId, [Account; 2]) {
    let [alice, carol, gw] = env.funded(["alice", "carol", "gw"]);
    let mut create = Tx::new("MPTokenIssuanceCreate").flags(0x0000_0008 | 0x0000_0020);
    let fee = StValue::UInt16(transfer_fee);
    create.0.set(Field::named("TransferFee"), fee);
    let id = issue(env, &gw, create);
    env.close();
    for h in [&alice, &carol] {
        env.apply(
            h,
            with_id(Tx::new("MPTokenAuthorize"), &id),
            Ter::tesSUCCESS,
        );
    }
    env.apply(&gw, pay_mpt(&alice, &id, 1_000), Ter::tesSUCCESS);
    env.close();
    let now = env.parent_close();
    let escrow = Tx::new("EscrowCreate")
        .account("Destination", &carol.id)
        .u32("FinishAfter", now + 1)
        .u32("CancelAfter", now + 100);
    let escrow = with_mpt(escrow, &id, amount);
    let eseq = env.seq(&alice);
    env.apply(&alice, escrow, Ter::tesSUCCESS);
    env.close();
    env.close_after(5);
    let fin = Tx::new("EscrowFinish")
        .account("Owner", &alice.id)
        .u32("OfferSequence", eseq);
    env.apply(&carol, fin, Ter::tesSUCCESS);
    (id, [alice, carol])
}
