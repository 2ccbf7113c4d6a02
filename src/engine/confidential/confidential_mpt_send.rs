//! ConfidentialMPTSend (rippled `ConfidentialMPTSend.cpp`): a holder sends an amount no
//! one else sees from its spending balance to another holder's inbox. The amount is
//! encrypted once per party (sender, destination, issuer, and the auditor if any) with one
//! shared randomness; the proof shows every ciphertext holds the same amount, committed
//! in `AmountCommitment`, that `BalanceCommitment` opens the sender's spending balance,
//! and that both the amount and what remains are in range. Issuer and holders alone; a
//! destination requiring deposit authorization is honoured, credentials included. What the
//! destination's inbox and mirrors receive is re-randomized with the proof's challenge
//! (`ciphertext + Enc(0; e)`), as xrpld does, so no one links it to the sender's debit.

use super::{
    add_into, auditor_matches, auditor_party, check_locked, increment_version, party, proved,
    subtract_from, version_of, Binding,
};
use crate::engine::credential;
use crate::engine::mpt::{issuance, mptoken, require_auth};
use crate::engine::ter::Ter;
use crate::engine::transactor::{ApplyContext, TF_UNIVERSAL_MASK};
use crate::ledger::flags::{lsf, lsf_mpt};
use crate::ledger::keylet;
use crate::ledger::sf::{sf, StExt};
use crate::ledger::view::ReadView;
use crate::protocol::confidential::{self as ct, CIPHERTEXT_SIZE, SCALAR_SIZE, SEND_PROOF_SIZE};
use crate::protocol::st::StObject;
use crate::protocol::types::AccountId;

/// preflight.
pub fn preflight(tx: &StObject, account: &AccountId) -> Ter {
    let s = sf();
    if tx.flags() & TF_UNIVERSAL_MASK != 0 {
        return Ter::temINVALID_FLAG;
    }
    let (Some(id), Some(dst)) = (
        tx.mpt_id_of(s.mpt_issuance_id),
        tx.account_of(s.destination),
    ) else {
        return Ter::temMALFORMED;
    };
    let issuer = id.issuer();
    if *account == issuer || *account == dst || dst == issuer {
        return Ter::temMALFORMED;
    }
    let t = check_ciphertexts(tx, |c| c.len() == CIPHERTEXT_SIZE);
    if t != Ter::tesSUCCESS {
        return t;
    }
    if tx.blob_of(s.zk_proof).unwrap_or_default().len() != SEND_PROOF_SIZE {
        return Ter::temMALFORMED;
    }
    let point = |f| ct::is_valid_point(tx.blob_of(f).unwrap_or_default());
    if !point(s.balance_commitment) || !point(s.amount_commitment) {
        return Ter::temMALFORMED;
    }
    let t = check_ciphertexts(tx, ct::is_valid_ciphertext);
    if t != Ter::tesSUCCESS {
        return t;
    }
    credential::check_ids(tx)
}

/// Every ciphertext the transaction carries passes `ok` (`temBAD_CIPHERTEXT`).
fn check_ciphertexts(tx: &StObject, ok: impl Fn(&[u8]) -> bool) -> Ter {
    let s = sf();
    let required = [
        s.sender_encrypted_amount,
        s.destination_encrypted_amount,
        s.issuer_encrypted_amount,
    ];
    let required_ok = required
        .iter()
        .all(|f| ok(tx.blob_of(*f).unwrap_or_default()));
    let auditor_ok = tx.blob_of(s.auditor_encrypted_amount).is_none_or(&ok);
    if required_ok && auditor_ok {
        Ter::tesSUCCESS
    } else {
        Ter::temBAD_CIPHERTEXT
    }
}

/// A token's fields for a side of a Send: the key, the balance it touches, the issuer's
/// mirror.
fn ready(token: &StObject, balance: crate::protocol::definitions::Field) -> bool {
    let s = sf();
    [s.holder_encryption_key, balance, s.issuer_encrypted_balance]
        .iter()
        .all(|f| token.get(*f).is_some())
}

/// preclaim.
pub fn preclaim(view: &dyn ReadView, tx: &StObject, account: &AccountId) -> Result<(), Ter> {
    let s = sf();
    if view.read(&keylet::account(account)).is_none() {
        return Err(Ter::terNO_ACCOUNT);
    }
    let dst = tx.account_of(s.destination).ok_or(Ter::temMALFORMED)?;
    let dst_root = view.read(&keylet::account(&dst)).ok_or(Ter::tecNO_TARGET)?;
    if dst_root.is_flag(lsf::REQUIRE_DEST_TAG) && tx.get(s.destination_tag).is_none() {
        return Err(Ter::tecDST_TAG_NEEDED);
    }
    let id = tx.mpt_id_of(s.mpt_issuance_id).ok_or(Ter::temMALFORMED)?;
    let iss = issuance(view, &id).ok_or(Ter::tecOBJECT_NOT_FOUND)?;
    if !iss.is_flag(lsf_mpt::CAN_TRANSFER) {
        return Err(Ter::tecNO_AUTH);
    }
    let no_fee = iss.u16_of(s.transfer_fee).unwrap_or(0) == 0;
    let keyed = iss.get(s.issuer_encryption_key).is_some();
    let confidential = iss.is_flag(lsf_mpt::CAN_HOLD_CONFIDENTIAL_BALANCE);
    if !(confidential && no_fee && keyed && auditor_matches(&iss, tx)) {
        return Err(Ter::tecNO_PERMISSION);
    }
    if iss.account_of(s.issuer) == Some(*account) {
        return Err(Ter::tefINTERNAL);
    }
    let sender = mptoken(view, &id, account).ok_or(Ter::tecOBJECT_NOT_FOUND)?;
    if !ready(&sender, s.confidential_balance_spending) {
        return Err(Ter::tecNO_PERMISSION);
    }
    let receiver = mptoken(view, &id, &dst).ok_or(Ter::tecOBJECT_NOT_FOUND)?;
    if !ready(&receiver, s.confidential_balance_inbox) {
        return Err(Ter::tecNO_PERMISSION);
    }
    let audited = |t: &StObject| t.get(s.auditor_encrypted_balance).is_some();
    if iss.get(s.auditor_encryption_key).is_some() && !(audited(&sender) && audited(&receiver)) {
        return Err(Ter::tefINTERNAL);
    }
    for party in [account, &dst] {
        check_locked(view, &id, party).into_result()?;
    }
    for party in [account, &dst] {
        require_auth(view, &id, party).into_result()?;
    }
    credential::valid_ids(view, tx, account).into_result()?;
    verify(tx, &iss, &sender, &receiver, &Binding::of(tx, account, &id))
}

/// The one proof of the transfer (`tecBAD_PROOF`).
fn verify(
    tx: &StObject,
    iss: &StObject,
    sender: &StObject,
    receiver: &StObject,
    b: &Binding,
) -> Result<(), Ter> {
    let s = sf();
    let dst = tx.account_of(s.destination).unwrap_or_default();
    let context = ct::send_context_hash(
        &b.account,
        &b.issuance,
        b.sequence,
        &dst.0,
        version_of(sender),
    );
    let mut parties = vec![
        party(
            sender,
            s.holder_encryption_key,
            tx,
            s.sender_encrypted_amount,
        ),
        party(
            receiver,
            s.holder_encryption_key,
            tx,
            s.destination_encrypted_amount,
        ),
        party(iss, s.issuer_encryption_key, tx, s.issuer_encrypted_amount),
    ];
    parties.extend(auditor_party(iss, tx));
    let ok = ct::verify_send_proof(
        tx.blob_of(s.zk_proof).unwrap_or_default(),
        &parties,
        sender
            .blob_of(s.confidential_balance_spending)
            .unwrap_or_default(),
        tx.blob_of(s.amount_commitment).unwrap_or_default(),
        tx.blob_of(s.balance_commitment).unwrap_or_default(),
        &context,
    );
    proved(ok)
}

/// doApply.
pub fn do_apply(ctx: &mut ApplyContext) -> Result<(), Ter> {
    let s = sf();
    let tx = ctx.tx;
    let src = ctx.account;
    let dst = tx.account_of(s.destination).ok_or(Ter::tecINTERNAL)?;
    let id = tx.mpt_id_of(s.mpt_issuance_id).ok_or(Ter::tecINTERNAL)?;
    let dst_root = ctx
        .sb
        .peek(&keylet::account(&dst))
        .ok_or(Ter::tecINTERNAL)?;
    credential::verify_deposit_preauth(&mut ctx.sb, tx, &src, &dst, Some(&dst_root))
        .into_result()?;
    let (skey, dkey) = (keylet::mptoken(&id, &src), keylet::mptoken(&id, &dst));
    let mut sender = ctx.sb.peek(&skey).ok_or(Ter::tecINTERNAL)?;
    let mut receiver = ctx.sb.peek(&dkey).ok_or(Ter::tecINTERNAL)?;
    let amount = |f| tx.blob_of(f).unwrap_or_default();
    subtract_from(
        &mut sender,
        s.confidential_balance_spending,
        amount(s.sender_encrypted_amount),
    )?;
    subtract_from(
        &mut sender,
        s.issuer_encrypted_balance,
        amount(s.issuer_encrypted_amount),
    )?;
    if let Some(a) = tx.blob_of(s.auditor_encrypted_amount) {
        subtract_from(&mut sender, s.auditor_encrypted_balance, a)?;
    }
    // Each credit re-randomized with the proof's challenge, as xrpld does.
    let iss = issuance(&ctx.sb, &id).ok_or(Ter::tecINTERNAL)?;
    let challenge = &tx.blob_of(s.zk_proof).unwrap_or_default()[..SCALAR_SIZE];
    let credit = |token: &mut StObject, balance, sent: &[u8], key: Option<&[u8]>| {
        let key = key.ok_or(Ter::tecINTERNAL)?;
        let fresh = ct::rerandomize(sent, key, challenge).ok_or(Ter::tecINTERNAL)?;
        add_into(token, balance, &fresh)
    };
    let dest_key = receiver
        .blob_of(s.holder_encryption_key)
        .map(<[u8]>::to_vec);
    let inbox = s.confidential_balance_inbox;
    let sent = amount(s.destination_encrypted_amount);
    credit(&mut receiver, inbox, sent, dest_key.as_deref())?;
    let issuer_key = iss.blob_of(s.issuer_encryption_key);
    let sent = amount(s.issuer_encrypted_amount);
    credit(&mut receiver, s.issuer_encrypted_balance, sent, issuer_key)?;
    if let Some(a) = tx.blob_of(s.auditor_encrypted_amount) {
        let auditor_key = iss.blob_of(s.auditor_encryption_key);
        credit(&mut receiver, s.auditor_encrypted_balance, a, auditor_key)?;
    }
    // Only the sender's spending balance changed: only its proofs go stale.
    increment_version(&mut sender);
    ctx.sb.update(skey, sender);
    ctx.sb.update(dkey, receiver);
    Ok(())
}
