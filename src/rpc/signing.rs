//! `sign` (rippled `SignHandler.cpp`, `TransactionSign.cpp`, rpc.md §3.2), and the signing
//! pipeline `submit` shares with it (§3.1 Mode B, steps 1–17): key pair, `tx_json`
//! checks, autofill of Sequence, Flags, NetworkID and Fee, Payment checks, key/account
//! match, parsing, local checks, signing. Also the reply shape both use.

use crate::engine::Ter;
use crate::ledger::flags::lsf;
use crate::ledger::keylet;
use crate::ledger::rules::Rules;
use crate::ledger::sf::{sf, StExt};
use crate::ledger::view::ReadView;
use crate::limits::{AUTOFILL_FEE_DIV_MAX_DEFAULT, AUTOFILL_FEE_MULT_MAX_DEFAULT};
use crate::protocol::amount::Amount;
use crate::protocol::codec::{self, CodecError};
use crate::protocol::features::Feature;
use crate::protocol::mpt::MptAmount;
use crate::protocol::st::{StObject, StValue};
use crate::protocol::types::{AccountId, Hash256};
use crate::render::tx::{insert_deliver_max, tx_json};
use crate::rpc::context::Context;
use crate::rpc::error::{ErrorCode, RpcError};
use crate::rpc::params::{as_bool, as_string, keypair_for_signature};
use crate::rpc::Params;
use serde_json::{Map, Value};
use std::sync::Arc;

/// Largest serialized `Memos` field of a transaction to sign, in bytes (rippled
/// `maxMemoSize`).
pub const MEMOS_BYTES_MAX: usize = 1024;

/// `tfFullyCanonicalSig`, set when `Flags` is absent.
const TF_FULLY_CANONICAL_SIG: u32 = 0x8000_0000;

/// A signed transaction ready to submit.
pub struct Signed {
    /// The transaction.
    pub tx: StObject,
    /// Its canonical binary form.
    pub blob: Vec<u8>,
    /// Its ID.
    pub id: Hash256,
}

/// `notSupported` unless the caller may sign with a server-side secret.
pub fn signing_gate(ctx: &Context) -> Result<(), RpcError> {
    if ctx.may_sign() {
        Ok(())
    } else {
        Err(RpcError::with_message(
            ErrorCode::NotSupported,
            "Signing is not supported by this server.",
        ))
    }
}

/// The result rippled's `transactionFormatResultImpl` builds: `tx_json` (v1 with `hash`
/// inside, v2 with `hash` at the top), `DeliverMax`, `tx_blob`, and the engine result
/// when there is one.
pub fn format_result(signed: &Signed, api_version: u32, ter: Option<Ter>) -> Map<String, Value> {
    let mut out = Map::new();
    let mut json = tx_json(&signed.tx, &signed.id, api_version);
    insert_deliver_max(&mut json, api_version);
    if let Some(ter) = ter {
        insert_engine_result(&mut out, ter);
    }
    if api_version >= 2 {
        out.insert("hash".into(), Value::from(signed.id.to_hex()));
    }
    out.insert(
        "tx_blob".into(),
        Value::from(crate::protocol::types::hex_upper(&signed.blob)),
    );
    out.insert("tx_json".into(), Value::Object(json));
    out
}

/// `engine_result`, `engine_result_code`, `engine_result_message`.
pub fn insert_engine_result(out: &mut Map<String, Value>, ter: Ter) {
    out.insert("engine_result".into(), Value::from(ter.name()));
    out.insert("engine_result_code".into(), Value::from(ter.code()));
    out.insert("engine_result_message".into(), Value::from(ter.message()));
}

/// How a request signs: alone (`sign`, `submit`) or as one signer for an account with a
/// signer list (`sign_for`, whose signer's own account is given).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Signing {
    Single,
    For(AccountId),
}

/// The signing pipeline (rpc.md §3.1 Mode B steps 1–17), against the open ledger.
pub fn sign_request(ctx: &Context, params: &Params) -> Result<Signed, RpcError> {
    let target = signature_target(params)?;
    let (pair, mut tx) = prepare(ctx, params, Signing::Single)?;
    if let Some(target) = target {
        return sign_into(&pair, tx, target, &open_rules(ctx));
    }
    tx.set(
        sf().signing_pub_key,
        StValue::Blob(pair.public.as_bytes().to_vec()),
    );
    tx.remove(sf().txn_signature);
    checked(&tx)?;
    let signature = pair.sign(&crate::protocol::tx::signing_data(&tx));
    if signature.is_empty() {
        return Err(RpcError::with_message(
            ErrorCode::Internal,
            "Invalid signature.",
        ));
    }
    tx.set(sf().txn_signature, StValue::Blob(signature));
    Ok(finish(tx))
}

/// The open ledger's rules: what decides the data a co-signature signs.
fn open_rules(ctx: &Context) -> Rules {
    ctx.services.node.ledgers.current().view.info().rules
}

/// A `signature_target`: the inner object a signature goes into instead of the
/// transaction itself, and the role it signs as (rippled `SignatureRole`).
#[derive(Clone, Copy)]
enum Target {
    /// A LoanSet's CounterpartySignature.
    Counterparty,
    /// A sponsored transaction's SponsorSignature.
    Sponsor,
}

impl Target {
    fn field(self) -> crate::protocol::definitions::Field {
        match self {
            Target::Counterparty => sf().counterparty_signature,
            Target::Sponsor => sf().sponsor_signature,
        }
    }

    /// What a signature in the object signs (rippled `signingPrefix` with the role):
    /// under fixCleanup3_4_0 the role's own prefix (`CPT\0` / `CPM\0`, `SPN\0` /
    /// `SPM\0`), before it the transaction's (`STX\0` / `SMT\0`); a multi-signer's
    /// account follows the serialization.
    fn signing_data(self, tx: &StObject, signer: Option<&AccountId>, rules: &Rules) -> Vec<u8> {
        let [plain, role] = match self {
            Target::Counterparty => crate::protocol::tx::counterparty_signing_data(tx, signer),
            Target::Sponsor => crate::protocol::tx::sponsor_signing_data(tx, signer),
        };
        if rules.enabled(Feature::FixCleanup3_4_0) {
            role
        } else {
            plain
        }
    }
}

/// `signature_target`. rippled takes any field with an inner-object template; the ones
/// that hold a signature are a LoanSet's CounterpartySignature and a sponsored
/// transaction's SponsorSignature. Another name is `invalidParams` with the name as the
/// message, as rippled answers it.
fn signature_target(params: &Params) -> Result<Option<Target>, RpcError> {
    match params.get("signature_target") {
        None => Ok(None),
        Some(Value::String(name)) if name == "CounterpartySignature" => {
            Ok(Some(Target::Counterparty))
        }
        Some(Value::String(name)) if name == "SponsorSignature" => Ok(Some(Target::Sponsor)),
        Some(other) => Err(RpcError::with_message(
            ErrorCode::InvalidParams,
            other.as_str().unwrap_or_default().to_string(),
        )),
    }
}

/// Signs the transaction into its `target` object (`STTx::sign` with a signature target):
/// that object's SigningPubKey and a TxnSignature over the role's signing data, the
/// transaction's own signature left as it is. The whole transaction must then verify
/// (rippled's `transactionConstructImpl`): the account signs first.
fn sign_into(
    pair: &crate::protocol::keys::KeyPair,
    mut tx: StObject,
    target: Target,
    rules: &Rules,
) -> Result<Signed, RpcError> {
    let s = sf();
    let mut object = match tx.get(target.field()) {
        Some(StValue::Object(o)) => o.clone(),
        _ => StObject::new(),
    };
    object.set(
        s.signing_pub_key,
        StValue::Blob(pair.public.as_bytes().to_vec()),
    );
    object.remove(s.txn_signature);
    tx.set(target.field(), StValue::Object(object.clone()));
    checked(&tx)?;
    let signature = pair.sign(&target.signing_data(&tx, None, rules));
    if signature.is_empty() {
        return Err(RpcError::with_message(
            ErrorCode::Internal,
            "Invalid signature.",
        ));
    }
    object.set(s.txn_signature, StValue::Blob(signature));
    tx.set(target.field(), StValue::Object(object));
    verified(finish(tx), rules)
}

/// rippled's check of a signed transaction before it is returned (`checkValidity` in
/// `transactionConstructImpl`): every signature it carries verifies, else `internal`
/// "Invalid signature.". Under the open ledger's `rules`, as the co-signature was signed.
fn verified(signed: Signed, rules: &Rules) -> Result<Signed, RpcError> {
    match crate::engine::transactor::signature_fault(&signed.tx, rules) {
        None => Ok(signed),
        Some(_) => Err(RpcError::with_message(
            ErrorCode::Internal,
            "Invalid signature.",
        )),
    }
}

/// `sign_for` (rippled `transactionSignFor`): one more signature, by `account`'s key, in
/// the transaction's Signers, or with a `signature_target` in that object's Signers (its
/// SigningPubKey empty): sorted, no duplicates, not the sender's own; the root's
/// SigningPubKey stays empty and the Fee must be given.
pub fn sign_for_request(ctx: &Context, params: &Params) -> Result<Signed, RpcError> {
    let signer = match params.get("account") {
        None => return Err(RpcError::missing_field("account")),
        Some(v) => as_string(v)
            .and_then(|s| AccountId::from_address(&s).ok())
            .ok_or_else(|| {
                RpcError::with_message(ErrorCode::SrcActMalformed, "Invalid field 'account'.")
            })?,
    };
    let target = signature_target(params)?;
    let (pair, mut tx) = prepare(ctx, params, Signing::For(signer))?;
    let signer_root = ctx
        .services
        .node
        .ledgers
        .current()
        .view
        .read(&keylet::account(&signer));
    key_matches_account(signer_root.as_deref(), &signer, &pair.public.account_id())?;
    let s = sf();
    if let Some(target) = target {
        let mut object = match tx.get(target.field()) {
            Some(StValue::Object(o)) => o.clone(),
            _ => StObject::new(),
        };
        object.set(s.signing_pub_key, StValue::Blob(Vec::new()));
        tx.set(target.field(), StValue::Object(object));
    }
    checked(&tx)?;
    let rules = open_rules(ctx);
    let data = match target {
        Some(t) => t.signing_data(&tx, Some(&signer), &rules),
        None => crate::protocol::tx::multisigning_data(&tx, &signer),
    };
    let mut entry = StObject::new();
    entry.set(s.account, StValue::AccountId(signer));
    entry.set(s.txn_signature, StValue::Blob(pair.sign(&data)));
    entry.set(
        s.signing_pub_key,
        StValue::Blob(pair.public.as_bytes().to_vec()),
    );
    add_signer(&mut tx, target, entry)?;
    match target {
        Some(_) => verified(finish(tx), &rules),
        None => Ok(finish(tx)),
    }
}

/// `entry` into the Signers of the transaction or of its `target` object, sorted and
/// checked against the transaction's Account (rippled `sortAndValidateSigners`).
fn add_signer(tx: &mut StObject, target: Option<Target>, entry: StObject) -> Result<(), RpcError> {
    let s = sf();
    let sender = tx.account_of(s.account).unwrap_or_default();
    let mut holder = match target.map(|t| tx.get(t.field())) {
        Some(Some(StValue::Object(o))) => o.clone(),
        Some(_) => StObject::new(),
        None => tx.clone(),
    };
    let mut signers = match holder.get(s.signers) {
        Some(StValue::Array(a)) => a.clone(),
        _ => Vec::new(),
    };
    signers.push((crate::protocol::definitions::Field::named("Signer"), entry));
    sort_and_validate_signers(&mut signers, &sender)?;
    holder.set(s.signers, StValue::Array(signers));
    match target {
        Some(t) => tx.set(t.field(), StValue::Object(holder)),
        None => *tx = holder,
    }
    Ok(())
}

/// `submit_multisigned`'s checks (rippled `transactionSubmitMultiSigned`): a transaction
/// signed by its Signers only, with Sequence, an empty SigningPubKey and an XRP Fee given;
/// its Signers sorted and checked, every signature verified.
pub fn multisigned_request(ctx: &Context, params: &Params) -> Result<Signed, RpcError> {
    let txj = match params.get("tx_json") {
        None => return Err(RpcError::missing_field("tx_json")),
        Some(Value::Object(o)) => o.clone(),
        Some(_) => return Err(RpcError::invalid_field("tx_json")),
    };
    if !txj.contains_key("Sequence") {
        return Err(RpcError::missing_field("tx_json.Sequence"));
    }
    if !txj.contains_key("SigningPubKey") {
        return Err(RpcError::missing_field("tx_json.SigningPubKey"));
    }
    let account = tx_json_account(&txj)?;
    let open = ctx.services.node.ledgers.current();
    if open.view.read(&keylet::account(&account)).is_none() {
        return Err(RpcError::new(ErrorCode::SrcActNotFound));
    }
    let mut txj = txj;
    check_fee(ctx, params, &mut txj, false, open.view.info().fees)?;
    check_payment(params, &mut txj, false)?;
    let mut tx = parse_tx_json(txj)?;
    checked(&tx)?;
    multisigned_fields(&tx)?;
    let s = sf();
    let mut signers = match tx.get(s.signers) {
        Some(StValue::Array(a)) if !a.is_empty() => a.clone(),
        Some(StValue::Array(_)) => {
            return Err(RpcError::with_message(
                ErrorCode::InvalidParams,
                "Invalid request: Signers array field is empty.",
            ))
        }
        _ => {
            return Err(RpcError::with_message(
                ErrorCode::InvalidParams,
                "Invalid request: Signers array field missing.",
            ))
        }
    };
    let whole = |o: &StObject| {
        o.get(s.account).is_some()
            && o.get(s.signing_pub_key).is_some()
            && o.get(s.txn_signature).is_some()
            && o.iter().count() == 3
    };
    if !signers.iter().all(|(_, o)| whole(o)) {
        return Err(RpcError::with_message(
            ErrorCode::InvalidParams,
            "Signers array may only contain Signer entries.",
        ));
    }
    sort_and_validate_signers(&mut signers, &account)?;
    tx.set(s.signers, StValue::Array(signers));
    if !crate::engine::transactor::verify_signature(&tx, &open.view.info().rules) {
        let mut f = Map::new();
        f.insert("error_exception".into(), Value::from("Invalid signature."));
        return Err(RpcError::bare("invalidTransaction").with_fields(f));
    }
    Ok(finish(tx))
}

/// `simulate`'s transaction (rippled `Simulate.cpp`): `tx_json` or `tx_blob`, not signed,
/// autofilled as for signing (Sequence, Flags, NetworkID, Fee) with an empty
/// SigningPubKey where none is given.
pub fn simulate_request(ctx: &Context, params: &Params) -> Result<StObject, RpcError> {
    let param_error = |m: &str| RpcError::with_message(ErrorCode::InvalidParams, m.to_string());
    if let Some(f) = ["secret", "seed", "seed_hex", "passphrase"]
        .into_iter()
        .find(|f| params.contains_key(*f))
    {
        return Err(RpcError::invalid_field(f));
    }
    let mut txj = match (params.get("tx_json"), params.get("tx_blob")) {
        (None, None) => return Err(param_error("Neither `tx_blob` nor `tx_json` included.")),
        (Some(_), Some(_)) => {
            return Err(param_error(
                "Can only include one of `tx_blob` and `tx_json`.",
            ))
        }
        (Some(Value::Object(o)), None) => o.clone(),
        (Some(_), None) => return Err(RpcError::expected_field("tx_json", "object")),
        (None, Some(blob)) => blob_json(blob)?,
    };
    let signed = |o: &Map<String, Value>| {
        o.get("TxnSignature")
            .and_then(Value::as_str)
            .is_some_and(|t| !t.is_empty())
    };
    let signers = match txj.get_mut("Signers") {
        Some(Value::Array(list)) => list
            .iter_mut()
            .filter_map(|s| s.get_mut("Signer")?.as_object_mut())
            .collect(),
        _ => Vec::new(),
    };
    for signer in signers {
        if signed(signer) {
            return Err(RpcError::new(ErrorCode::TxSigned));
        }
        signer.entry("SigningPubKey").or_insert(Value::from(""));
        signer.entry("TxnSignature").or_insert(Value::from(""));
    }
    if signed(&txj) {
        return Err(RpcError::new(ErrorCode::TxSigned));
    }
    txj.entry("SigningPubKey").or_insert(Value::from(""));
    let account = tx_json_account(&txj)?;
    let open = ctx.services.node.ledgers.current();
    let root = open.view.read(&keylet::account(&account));
    if root.is_none() && !txj.contains_key("Sequence") && !txj.contains_key("TicketSequence") {
        return Err(RpcError::new(ErrorCode::SrcActNotFound));
    }
    autofill(ctx, &mut txj, root.as_deref());
    check_fee(ctx, params, &mut txj, true, open.view.info().fees)?;
    let tx = parse_tx_json(txj)?;
    checked(&tx)?;
    Ok(tx)
}

/// A `tx_blob` as the JSON it encodes.
fn blob_json(blob: &Value) -> Result<Map<String, Value>, RpcError> {
    let bad = || RpcError::invalid_field("tx_blob");
    let bytes = blob
        .as_str()
        .and_then(|t| hex::decode(t).ok())
        .ok_or_else(bad)?;
    let tx = codec::decode(&bytes).map_err(|_| bad())?;
    match codec::to_json(&tx) {
        Value::Object(o) => Ok(o),
        _ => Err(bad()),
    }
}

/// SigningPubKey empty, no TxnSignature, a positive XRP Fee.
fn multisigned_fields(tx: &StObject) -> Result<(), RpcError> {
    let s = sf();
    if tx.blob_of(s.signing_pub_key).is_some_and(|k| !k.is_empty()) {
        return Err(RpcError::with_message(
            ErrorCode::InvalidParams,
            "Invalid  SigningPubKey field.  Field must be empty when multi-signing.",
        ));
    }
    if tx.get(s.txn_signature).is_some() {
        return Err(RpcError::new(ErrorCode::SigningMalformed));
    }
    match tx.amount_of(s.fee) {
        Some(Amount::Xrp(d)) if d > 0 => Ok(()),
        Some(Amount::Xrp(_)) => Err(RpcError::with_message(
            ErrorCode::InvalidParams,
            "Invalid Fee field.  Fees must be greater than zero.",
        )),
        _ => Err(RpcError::with_message(
            ErrorCode::InvalidParams,
            "Invalid Fee field.  Fees must be specified in XRP.",
        )),
    }
}

/// rippled `sortAndValidateSigners`: sorted by account, no duplicates, not the sender.
fn sort_and_validate_signers(
    signers: &mut [(crate::protocol::definitions::Field, StObject)],
    sender: &AccountId,
) -> Result<(), RpcError> {
    let s = sf();
    let id = |o: &StObject| o.account_of(s.account).unwrap_or_default();
    if signers.is_empty() {
        return Err(RpcError::with_message(
            ErrorCode::InvalidParams,
            "Signers array may not be empty.",
        ));
    }
    signers.sort_by_key(|(_, o)| id(o));
    if let Some(w) = signers.windows(2).find(|w| id(&w[0].1) == id(&w[1].1)) {
        return Err(RpcError::with_message(
            ErrorCode::InvalidParams,
            format!(
                "Duplicate Signers:Signer:Account entries ({}) are not allowed.",
                id(&w[0].1).to_address()
            ),
        ));
    }
    if signers.iter().any(|(_, o)| id(o) == *sender) {
        return Err(RpcError::with_message(
            ErrorCode::InvalidParams,
            format!(
                "A Signer may not be the transaction's Account ({}).",
                sender.to_address()
            ),
        ));
    }
    Ok(())
}

/// rippled `acctMatchesPubKey`: the key is the account's master key (not disabled), its
/// regular key, or the master key of an account not in the ledger.
fn key_matches_account(
    root: Option<&StObject>,
    account: &AccountId,
    key_account: &AccountId,
) -> Result<(), RpcError> {
    let master = key_account == account;
    match root {
        None if master => Ok(()),
        None => Err(RpcError::new(ErrorCode::BadSecret)),
        Some(r) if master && r.is_flag(lsf::DISABLE_MASTER) => {
            Err(RpcError::new(ErrorCode::MasterDisabled))
        }
        Some(_) if master => Ok(()),
        Some(r) if r.account_of(sf().regular_key) == Some(*key_account) => Ok(()),
        Some(_) => Err(RpcError::new(ErrorCode::BadSecret)),
    }
}

/// With a Delegate the secret must be the delegate's (rippled's
/// `transactionPreProcessImpl`): srcActMalformed, delegateActNotFound or the key checks.
fn delegate_key_matches(
    view: &dyn crate::ledger::view::ReadView,
    delegate: &Value,
    key_account: &AccountId,
) -> Result<(), RpcError> {
    let id = delegate
        .as_str()
        .and_then(|s| AccountId::from_address(s).ok())
        .ok_or_else(|| {
            RpcError::with_message(
                ErrorCode::SrcActMalformed,
                "Invalid field 'tx_json.Delegate'.",
            )
        })?;
    let root = view
        .read(&keylet::account(&id))
        .ok_or_else(|| RpcError::new(ErrorCode::DelegateActNotFound))?;
    key_matches_account(Some(&root), &id, key_account)
}

/// The transaction's Account, or rippled's srcActMissing / srcActMalformed.
fn tx_json_account(txj: &Map<String, Value>) -> Result<AccountId, RpcError> {
    if !txj.contains_key("TransactionType") {
        return Err(RpcError::missing_field("tx_json.TransactionType"));
    }
    match txj.get("Account") {
        None => Err(RpcError::with_message(
            ErrorCode::SrcActMissing,
            "Missing field 'tx_json.Account'.",
        )),
        Some(v) => as_string(v)
            .and_then(|s| AccountId::from_address(&s).ok())
            .ok_or_else(|| {
                RpcError::with_message(
                    ErrorCode::SrcActMalformed,
                    "Invalid field 'tx_json.Account'.",
                )
            }),
    }
}

/// rippled `transactionPreProcessImpl` up to the signature: the key pair, the tx_json
/// checks, autofill (Sequence, Flags, NetworkID; the Fee only when signing alone), the
/// Payment checks, and the key's right to sign for the account (signing alone).
fn prepare(
    ctx: &Context,
    params: &Params,
    signing: Signing,
) -> Result<(Arc<crate::protocol::keys::KeyPair>, StObject), RpcError> {
    let pair = keypair_for_signature(params, ctx.api_version, Some(&ctx.services.keys))?;
    let offline = params.get("offline").is_some_and(as_bool);
    let mut txj = match params.get("tx_json") {
        None => return Err(RpcError::missing_field("tx_json")),
        Some(Value::Object(o)) => o.clone(),
        Some(_) => return Err(RpcError::expected_field("tx_json", "object")),
    };
    if signing != Signing::Single && !txj.contains_key("SigningPubKey") {
        txj.insert("SigningPubKey".into(), Value::from(""));
    }
    let account = tx_json_account(&txj)?;
    if offline && !txj.contains_key("Sequence") {
        return Err(RpcError::missing_field("tx_json.Sequence"));
    }
    let open = ctx.services.node.ledgers.current();
    let root = if offline {
        None
    } else {
        Some(
            open.view
                .read(&keylet::account(&account))
                .ok_or_else(|| RpcError::new(ErrorCode::SrcActNotFound))?,
        )
    };
    // With a signature target the transaction is someone else's, already signed: nothing
    // is filled in (rippled's `editFields`).
    let edit = !params.contains_key("signature_target");
    if edit {
        autofill(ctx, &mut txj, root.as_deref());
    }
    let single = signing == Signing::Single;
    check_fee(
        ctx,
        params,
        &mut txj,
        !offline && single && edit,
        open.view.info().fees,
    )?;
    check_payment(params, &mut txj, !offline && single && edit)?;
    if single && !offline && params.contains_key("build_path") {
        build_path(&open.view, &account, &mut txj)?;
    }
    if single && txj.contains_key("Signers") {
        return Err(RpcError::new(ErrorCode::AlreadyMultisig));
    }
    if !single && txj.contains_key("TxnSignature") {
        return Err(RpcError::new(ErrorCode::AlreadySingleSig));
    }
    // A signature going into another field is not the account's (rippled skips
    // acctMatchesPubKey with a signature target).
    if let (Some(root), true) = (&root, single && edit) {
        match txj.get("Delegate") {
            Some(d) => delegate_key_matches(&open.view, d, &pair.public.account_id())?,
            None => key_matches_account(Some(root), &account, &pair.public.account_id())?,
        }
    }
    Ok((pair, parse_tx_json(txj)?))
}

/// Sequence (0 with a TicketSequence), Flags and NetworkID when absent.
fn autofill(ctx: &Context, txj: &mut Map<String, Value>, root: Option<&StObject>) {
    if !txj.contains_key("Sequence") {
        let seq = if txj.contains_key("TicketSequence") {
            0
        } else {
            root.and_then(|r| r.u32_of(sf().sequence)).unwrap_or(0)
        };
        txj.insert("Sequence".into(), Value::from(seq));
    }
    if !txj.contains_key("Flags") {
        txj.insert("Flags".into(), Value::from(TF_FULLY_CANONICAL_SIG));
    }
    let network_id = ctx.services.node.network_id;
    if !txj.contains_key("NetworkID")
        && network_id > crate::engine::transactor::NETWORK_ID_LEGACY_MAX
    {
        txj.insert("NetworkID".into(), Value::from(network_id.to_string()));
    }
}

/// tx_json in its binary model, or rippled's parse error.
fn parse_tx_json(txj: Map<String, Value>) -> Result<StObject, RpcError> {
    codec::from_json(&Value::Object(txj)).map_err(|e| match e {
        CodecError::Json(j) => {
            RpcError::with_message(ErrorCode::InvalidParams, j.message("tx_json"))
        }
        other => RpcError::with_message(ErrorCode::InvalidParams, other.to_string()),
    })
}

/// The required common fields and rippled's local checks.
fn checked(tx: &StObject) -> Result<(), RpcError> {
    required_fields(tx)
        .and_then(|()| local_checks(tx))
        .map_err(|reason| RpcError::with_message(ErrorCode::InvalidParams, reason))
}

/// The canonical blob and ID of a finished transaction.
fn finish(tx: StObject) -> Signed {
    let blob = codec::encode(&tx);
    let id = crate::protocol::tx::transaction_id(&blob);
    Signed { tx, blob, id }
}

/// rippled `checkFee`: a given Fee is kept; otherwise autofill the transaction's base fee,
/// or the open ledger's escalated fee when more (rippled `getCurrentNetworkFee`: the
/// reference fee at the open ledger's level, rounded up), within `fee_mult_max` /
/// `fee_div_max` times the base fee.
fn check_fee(
    ctx: &Context,
    params: &Params,
    txj: &mut Map<String, Value>,
    autofill: bool,
    fees: crate::ledger::fees::Fees,
) -> Result<(), RpcError> {
    let base_drops = fees.base_drops;
    if txj.contains_key("Fee") {
        return Ok(());
    }
    if !autofill {
        return Err(RpcError::missing_field("tx_json.Fee"));
    }
    let int_param = |name: &str, default: i64, min: i64| -> Result<i64, RpcError> {
        match params.get(name) {
            None => Ok(default),
            Some(v) => {
                let Some(n) = v.as_i64().filter(|n| i32::try_from(*n).is_ok()) else {
                    return Err(RpcError::with_message(
                        ErrorCode::HighFee,
                        format!("Invalid field '{name}', not a positive integer."),
                    ));
                };
                if n < min {
                    return Err(RpcError::expected_field(name, "a positive integer"));
                }
                Ok(n)
            }
        }
    };
    let mult = int_param("fee_mult_max", AUTOFILL_FEE_MULT_MAX_DEFAULT, 0)?;
    let div = int_param("fee_div_max", AUTOFILL_FEE_DIV_MAX_DEFAULT, 1)?;
    // The type's base fee, as rippled's `getTxFee` asks `calculateBaseFee` (one owner
    // reserve for AMMCreate, VaultCreate and AccountDelete, a Batch's inner transactions
    // and BatchSigners, a LoanSet's co-signatures); no load fee (a standalone server).
    let base_fee = type_base_fee(txj, &fees).unwrap_or(base_drops);
    let level = ctx.services.node.ledgers.fee_report().open_ledger_level;
    let escalated = crate::ledgers::txq::to_drops(level.saturating_sub(1), base_drops) + 1;
    let fee = base_fee.max(escalated);
    let limit = (u128::from(base_fee) * mult as u128 / div as u128) as u64;
    if fee > limit {
        return Err(RpcError::with_message(
            ErrorCode::HighFee,
            format!("Fee of {fee} exceeds the requested tx limit of {limit}"),
        ));
    }
    txj.insert("Fee".into(), Value::from(fee.to_string()));
    Ok(())
}

/// The base fee of the transaction `tx_json` describes (None when it does not parse).
fn type_base_fee(txj: &Map<String, Value>, fees: &crate::ledger::fees::Fees) -> Option<u64> {
    let tx = crate::protocol::codec::from_json(&Value::Object(txj.clone())).ok()?;
    Some(crate::engine::transactor::base_fee(
        &tx,
        fees.base_drops,
        fees.reserve_inc_drops,
    ))
}

/// rippled `checkPayment`: DeliverMax alias, Amount and Destination present and valid,
/// `build_path` rules (the paths themselves are filled in by [`build_path`]).
fn check_payment(
    params: &Params,
    txj: &mut Map<String, Value>,
    online: bool,
) -> Result<(), RpcError> {
    if txj.get("TransactionType").and_then(Value::as_str) != Some("Payment") {
        return Ok(());
    }
    if let Some(dm) = txj.remove("DeliverMax") {
        match txj.get("Amount") {
            Some(a) if *a != dm => {
                return Err(RpcError::with_message(
                    ErrorCode::InvalidParams,
                    "Cannot specify differing 'Amount' and 'DeliverMax'",
                ))
            }
            Some(_) => {}
            None => {
                txj.insert("Amount".into(), dm);
            }
        }
    }
    let amount = txj
        .get("Amount")
        .ok_or_else(|| RpcError::missing_field("tx_json.Amount"))?;
    // An MPT Amount parses (rippled's `amountFromJsonNoThrow`), but no paths are built
    // for it.
    let mpt = match amount.as_object() {
        Some(o) if o.contains_key("mpt_issuance_id") => {
            Some(MptAmount::from_json(o).map_err(|_| RpcError::invalid_field("tx_json.Amount"))?)
        }
        _ => None,
    };
    let amount = match mpt {
        Some(_) => Amount::Xrp(0),
        None => Amount::from_json(amount).map_err(|_| RpcError::invalid_field("tx_json.Amount"))?,
    };
    let dest = txj
        .get("Destination")
        .ok_or_else(|| RpcError::missing_field("tx_json.Destination"))?;
    as_string(dest)
        .and_then(|s| AccountId::from_address(&s).ok())
        .ok_or_else(|| RpcError::invalid_field("tx_json.Destination"))?;
    if params.contains_key("build_path") {
        if !online || mpt.is_some() {
            return Err(RpcError::with_message(
                ErrorCode::InvalidParams,
                "Field 'build_path' not allowed in this context.",
            ));
        }
        if txj.contains_key("Paths") {
            return Err(RpcError::with_message(
                ErrorCode::InvalidParams,
                "Cannot specify both 'tx_json.Paths' and 'build_path'",
            ));
        }
    }
    payment_domain(txj)?;
    if params.contains_key("build_path") {
        let send_max_xrp = match txj.get("SendMax") {
            Some(v) => Amount::from_json(v)
                .map_err(|_| RpcError::invalid_field("tx_json.SendMax"))?
                .is_xrp(),
            None => amount.is_xrp(),
        };
        if send_max_xrp && amount.is_xrp() {
            return Err(RpcError::with_message(
                ErrorCode::InvalidParams,
                "Cannot build XRP to XRP paths.",
            ));
        }
    }
    Ok(())
}

/// A Payment's DomainID as rippled's `checkPayment` reads it (64 hex digits, else
/// `domainMalformed`): the path search then keeps to that domain's books.
fn payment_domain(txj: &Map<String, Value>) -> Result<Option<Hash256>, RpcError> {
    match txj.get("DomainID") {
        None => Ok(None),
        Some(v) => v
            .as_str()
            .and_then(crate::rpc::params::parse_hash256)
            .map(Some)
            .ok_or_else(|| {
                RpcError::with_message(ErrorCode::DomainMalformed, "Unable to parse 'DomainID'.")
            }),
    }
}

/// Fills `Paths` for `build_path` from a path search in the open ledger: from SendMax's
/// issue (or the Amount re-issued by the sender) to the Amount; no `Paths` when none.
fn build_path(
    view: &crate::ledger::view::StateView,
    account: &AccountId,
    txj: &mut Map<String, Value>,
) -> Result<(), RpcError> {
    let field = |name: &str| txj.get(name).and_then(|v| Amount::from_json(v).ok());
    let amount = field("Amount").ok_or_else(|| RpcError::invalid_field("tx_json.Amount"))?;
    let send_max = field("SendMax").unwrap_or(match amount {
        Amount::Iou {
            value, currency, ..
        } => Amount::iou(value, currency, *account),
        xrp => xrp,
    });
    let dst = txj
        .get("Destination")
        .and_then(as_string)
        .and_then(|s| AccountId::from_address(&s).ok())
        .ok_or_else(|| RpcError::invalid_field("tx_json.Destination"))?;
    let domain = payment_domain(txj)?;
    let paths = crate::rpc::pathfind::build_paths(view, account, &dst, &send_max, &amount, domain);
    if !paths.is_empty() {
        txj.insert(
            "Paths".into(),
            crate::rpc::pathfind::request::paths_json(&paths),
        );
    }
    Ok(())
}

/// The common fields every transaction format requires (rippled's `STTx` constructor
/// applies the format's template and throws on a missing one).
pub fn required_fields(tx: &StObject) -> Result<(), String> {
    let Some(code) = tx.get_u16("TransactionType") else {
        return Err("Field 'TransactionType' is required but missing.".into());
    };
    if crate::protocol::definitions::defs()
        .transaction_type_name(code)
        .is_none()
    {
        return Err("invalid transaction type".into());
    }
    for name in ["Account", "Sequence", "Fee", "SigningPubKey"] {
        if !tx.has(name) {
            return Err(format!("Field '{name}' is required but missing."));
        }
    }
    Ok(())
}

/// rippled `passesLocalChecks`: memo rules and no pseudo-transactions.
pub fn local_checks(tx: &StObject) -> Result<(), String> {
    if let Some(memos) = tx.get_array("Memos") {
        let mut one = StObject::new();
        one.set_named("Memos", StValue::Array(memos.to_vec()));
        if codec::encode(&one).len() > MEMOS_BYTES_MAX {
            return Err("The memo exceeds the maximum allowed size.".into());
        }
        for (field, memo) in memos {
            if field.name() != "Memo" {
                return Err("A memo array may contain only Memo objects.".into());
            }
            for (f, v) in memo.iter() {
                match f.name() {
                    "MemoData" => {}
                    "MemoType" | "MemoFormat" => {
                        let ok = matches!(v, StValue::Blob(b) if b.iter().all(|c| url_char(*c)));
                        if !ok {
                            return Err("The MemoType and MemoFormat fields may only contain characters that are allowed in URLs under RFC 3986.".into());
                        }
                    }
                    _ => {
                        return Err(
                            "A memo may contain only MemoType, MemoData or MemoFormat fields."
                                .into(),
                        )
                    }
                }
            }
        }
    }
    // EnableAmendment, SetFee, UNLModify.
    if matches!(tx.get_u16("TransactionType"), Some(100..=102)) {
        return Err("Cannot submit pseudo transactions.".into());
    }
    if crate::protocol::mpt::invalid_mpt_in_tx(tx) {
        return Err("Amount can not be MPT.".into());
    }
    Ok(())
}

fn url_char(c: u8) -> bool {
    c.is_ascii_alphanumeric() || b"-._~:/?#[]@!$&'()*+,;=%".contains(&c)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::features::FeatureSet;

    /// A signature target signs the transaction's data before fixCleanup3_4_0 and its
    /// role's after (rippled `signingPrefix`), a multi-signer's account at the end.
    #[test]
    fn a_target_signs_by_the_rules() {
        let mut tx = StObject::new();
        tx.set(sf().account, StValue::AccountId(AccountId([1; 20])));
        let before = Rules::new(FeatureSet::EMPTY, FeatureSet::EMPTY);
        let after = Rules::new(
            [Feature::FixCleanup3_4_0].into_iter().collect(),
            FeatureSet::EMPTY,
        );
        let signer = AccountId([7; 20]);
        let cases = [
            (Target::Sponsor, &before, None, b"STX\0"),
            (Target::Sponsor, &after, None, b"SPN\0"),
            (Target::Sponsor, &before, Some(&signer), b"SMT\0"),
            (Target::Sponsor, &after, Some(&signer), b"SPM\0"),
            (Target::Counterparty, &before, None, b"STX\0"),
            (Target::Counterparty, &after, None, b"CPT\0"),
            (Target::Counterparty, &after, Some(&signer), b"CPM\0"),
        ];
        let body = codec::encode_for_signing(&tx);
        for (target, rules, who, prefix) in cases {
            let data = target.signing_data(&tx, who, rules);
            assert_eq!(&data[..4], prefix);
            assert_eq!(&data[4..4 + body.len()], &body[..]);
            let tail = who.map_or(&[][..], |a| a.as_bytes());
            assert_eq!(&data[4 + body.len()..], tail);
        }
    }
}
