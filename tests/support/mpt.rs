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
