//! Confidential MPT builders (XLS-96), shared by the engine stories and the end-to-end
//! benchmark: an issuer with its confidential issuance and ElGamal keys, funded holders,
//! and each confidential transaction built with its proof by ledgerd's wallet side
//! (`protocol::confidential::client`); balances read back by decrypting the ledger.

use super::engine::*;
use super::mpt::{issue, pay_mpt, with_id};
use ledgerd::engine::mptoken_issuance_create::tf as ctf;
use ledgerd::engine::Ter;
use ledgerd::ledger::keylet;
use ledgerd::ledger::sf::{sf, StExt};
use ledgerd::ledgers::LedgerConfig;
use ledgerd::protocol::confidential as ct;
use ledgerd::protocol::confidential::client::{self, SecretKey};
use ledgerd::protocol::definitions::Field;
use ledgerd::protocol::features::Feature;
use ledgerd::protocol::mpt::MptId;
use ledgerd::protocol::st::{StObject, StValue};
use ledgerd::protocol::types::Hash256;

/// What a confidential transaction costs here: ten reference fees.
pub const CONFIDENTIAL_FEE: i64 = 10 * FEE;

/// An ElGamal key pair.
pub struct Keys {
    pub secret: SecretKey,
    pub public: [u8; 33],
}

pub fn keys() -> Keys {
    let (secret, public) = client::generate_keypair();
    Keys { secret, public }
}

/// An issuer, its confidential issuance, its keys, and holders funded with 5,000 each.
pub struct World {
    pub env: Env,
    pub gw: Account,
    pub id: MptId,
    pub issuer_keys: Keys,
    pub auditor_keys: Option<Keys>,
    pub holders: Vec<(Account, Keys)>,
}

pub fn env_with(on: bool) -> Env {
    let mut cfg = LedgerConfig::default();
    if !on {
        cfg.rule_book.presets.remove(Feature::ConfidentialTransfer);
    }
    cfg.apply.signature_check = Some(std::sync::Arc::new(
        ledgerd::engine::transactor::verify_signature,
    ));
    Env::with_config(cfg)
}

pub fn u64_field(tx: Tx, name: &str, v: u64) -> Tx {
    let mut tx = tx;
    tx.0.set(Field::named(name), StValue::UInt64(v));
    tx
}

pub fn confidential(name: &str, id: &MptId) -> Tx {
    with_id(Tx::new(name), id).amount("Fee", drops(CONFIDENTIAL_FEE))
}

pub const ISSUANCE_FLAGS: u32 =
    ctf::CAN_TRANSFER | ctf::CAN_CLAWBACK | ctf::CAN_LOCK | ctf::CAN_HOLD_CONFIDENTIAL_BALANCE;

/// gw's issuance with its key (and an auditor's), and `n` holders holding 5,000.
pub fn world(n: usize, audited: bool) -> World {
    let mut env = env_with(true);
    let gw = Account::new("gw");
    env.fund(&gw, xrp(10_000));
    let id = issue(
        &mut env,
        &gw,
        Tx::new("MPTokenIssuanceCreate").flags(ISSUANCE_FLAGS),
    );
    let issuer_keys = keys();
    let auditor_keys = audited.then(keys);
    let mut set = with_id(Tx::new("MPTokenIssuanceSet"), &id)
        .blob("IssuerEncryptionKey", &issuer_keys.public);
    if let Some(a) = &auditor_keys {
        set = set.blob("AuditorEncryptionKey", &a.public);
    }
    env.apply(&gw, set, Ter::tesSUCCESS);
    let mut holders = Vec::new();
    for i in 0..n {
        let h = Account::new(&format!("holder{i}"));
        env.fund(&h, xrp(10_000));
        env.apply(
            &h,
            with_id(Tx::new("MPTokenAuthorize"), &id),
            Ter::tesSUCCESS,
        );
        env.apply(&gw, pay_mpt(&h, &id, 5_000), Ter::tesSUCCESS);
        holders.push((h, keys()));
    }
    World {
        env,
        gw,
        id,
        issuer_keys,
        auditor_keys,
        holders,
    }
}

impl World {
    pub fn holder(&self, i: usize) -> &Account {
        &self.holders[i].0
    }

    pub fn token(&self, i: usize) -> std::sync::Arc<StObject> {
        self.env
            .read(&keylet::mptoken(&self.id, &self.holder(i).id))
            .expect("MPToken")
    }

    pub fn issuance(&self) -> std::sync::Arc<StObject> {
        self.env
            .read(&keylet::mpt_issuance(&self.id))
            .expect("issuance")
    }

    pub fn coa(&self) -> u64 {
        self.issuance()
            .u64_of(sf().confidential_outstanding_amount)
            .unwrap_or(0)
    }

    pub fn public(&self, i: usize) -> u64 {
        self.token(i).u64_of(sf().mpt_amount).unwrap_or(0)
    }

    pub fn decrypt(&self, i: usize, field: Field, secret: &SecretKey) -> u64 {
        let token = self.token(i);
        let c = token.blob_of(field).expect("ciphertext");
        client::decrypt_amount(c, secret, 1_000_000).expect("decrypts")
    }

    /// (inbox, spending) as holder `i` decrypts them.
    pub fn balances(&self, i: usize) -> (u64, u64) {
        let sk = &self.holders[i].1.secret;
        (
            self.decrypt(i, sf().confidential_balance_inbox, sk),
            self.decrypt(i, sf().confidential_balance_spending, sk),
        )
    }

    /// What the issuer reads of holder `i`'s confidential balance.
    pub fn issuer_view(&self, i: usize) -> u64 {
        self.decrypt(i, sf().issuer_encrypted_balance, &self.issuer_keys.secret)
    }

    pub fn version(&self, i: usize) -> u32 {
        self.token(i)
            .u32_of(sf().confidential_balance_version)
            .unwrap_or(0)
    }

    /// A Convert of `amount` by holder `i`, registering its key when `register`.
    pub fn convert(&self, i: usize, amount: u64, register: bool) -> Tx {
        let (h, k) = &self.holders[i];
        let r = client::generate_blinding_factor();
        let enc = |key: &[u8]| client::encrypt_amount(amount, key, &r).expect("encrypts");
        let mut tx = u64_field(
            confidential("ConfidentialMPTConvert", &self.id),
            "MPTAmount",
            amount,
        )
        .blob("HolderEncryptedAmount", &enc(&k.public))
        .blob("IssuerEncryptedAmount", &enc(&self.issuer_keys.public))
        .h256("BlindingFactor", Hash256(r));
        if let Some(a) = &self.auditor_keys {
            tx = tx.blob("AuditorEncryptedAmount", &enc(&a.public));
        }
        if register {
            let seq = self.env.seq(h);
            let context = ct::convert_context_hash(&h.id.0, &self.id.0, seq);
            let proof = client::prove_key(&k.secret, &context).expect("proof");
            tx = tx
                .blob("HolderEncryptionKey", &k.public)
                .blob("ZKProof", &proof);
        }
        tx
    }

    /// Holder `i`'s spending balance, as it decrypts it.
    pub fn spendable(&self, i: usize) -> u64 {
        self.balances(i).1
    }

    /// The key of every party to a holder's amount: `keys_first`, the issuer's, the auditor's.
    pub fn parties(&self, first: &[[u8; 33]]) -> Vec<[u8; 33]> {
        let mut keys = first.to_vec();
        keys.push(self.issuer_keys.public);
        keys.extend(self.auditor_keys.as_ref().map(|a| a.public));
        keys
    }

    /// A ConvertBack of `amount` by holder `i`, proved against its spending balance now.
    pub fn convert_back(&self, i: usize, amount: u64) -> Tx {
        let (h, k) = &self.holders[i];
        let token = self.token(i);
        let spending = token
            .blob_of(sf().confidential_balance_spending)
            .expect("spending");
        let balance = self.spendable(i);
        let rho = client::generate_blinding_factor();
        let commitment = client::pedersen_commitment(balance, &rho).expect("commitment");
        let seq = self.env.seq(h);
        let context = ct::convert_back_context_hash(&h.id.0, &self.id.0, seq, self.version(i));
        let proof =
            client::prove_convert_back(&k.secret, balance, amount, &rho, spending, &context)
                .expect("provable");
        let r = client::generate_blinding_factor();
        let enc = |key: &[u8]| client::encrypt_amount(amount, key, &r).expect("encrypts");
        let mut tx = u64_field(
            confidential("ConfidentialMPTConvertBack", &self.id),
            "MPTAmount",
            amount,
        )
        .blob("HolderEncryptedAmount", &enc(&k.public))
        .blob("IssuerEncryptedAmount", &enc(&self.issuer_keys.public))
        .h256("BlindingFactor", Hash256(r))
        .blob("BalanceCommitment", &commitment)
        .blob("ZKProof", &proof);
        if let Some(a) = &self.auditor_keys {
            tx = tx.blob("AuditorEncryptedAmount", &enc(&a.public));
        }
        tx
    }

    /// A Send of `amount` from holder `i` to holder `j`.
    pub fn send(&self, i: usize, j: usize, amount: u64) -> Tx {
        let (from, k) = &self.holders[i];
        let to = self.holder(j);
        let token = self.token(i);
        let spending = token
            .blob_of(sf().confidential_balance_spending)
            .expect("spending");
        let balance = self.spendable(i);
        let (r, rho) = (
            client::generate_blinding_factor(),
            client::generate_blinding_factor(),
        );
        let keys = self.parties(&[k.public, self.holders[j].1.public]);
        let seq = self.env.seq(from);
        let context = ct::send_context_hash(&from.id.0, &self.id.0, seq, &to.id.0, self.version(i));
        let witness = client::SendWitness {
            secret: &k.secret,
            amount,
            r: &r,
            balance,
            rho: &rho,
            keys: &keys,
            spending,
        };
        let proof = client::prove_send(&witness, &context).expect("provable");
        let enc = |key: &[u8]| client::encrypt_amount(amount, key, &r).expect("encrypts");
        let names = [
            "SenderEncryptedAmount",
            "DestinationEncryptedAmount",
            "IssuerEncryptedAmount",
        ];
        let mut tx = confidential("ConfidentialMPTSend", &self.id)
            .account("Destination", &to.id)
            .blob(
                "AmountCommitment",
                &client::pedersen_commitment(amount, &r).expect("pc"),
            )
            .blob(
                "BalanceCommitment",
                &client::pedersen_commitment(balance, &rho).expect("pc"),
            )
            .blob("ZKProof", &proof);
        for (name, key) in names.iter().zip(&keys) {
            tx = tx.blob(name, &enc(key));
        }
        if let Some(a) = keys.get(3) {
            tx = tx.blob("AuditorEncryptedAmount", &enc(a));
        }
        tx
    }

    pub fn merge(&self) -> Tx {
        confidential("ConfidentialMPTMergeInbox", &self.id)
    }

    /// The issuer's Clawback of holder `i`'s `amount`, proved with its key.
    pub fn clawback(&self, i: usize, amount: u64) -> Tx {
        let h = self.holder(i);
        let seq = self.env.seq(&self.gw);
        let context = ct::clawback_context_hash(&self.gw.id.0, &self.id.0, seq, &h.id.0);
        let mirror = self.token(i);
        let mirror = mirror.blob_of(sf().issuer_encrypted_balance).unwrap_or(&[]);
        let proof = client::prove_clawback(&self.issuer_keys.secret, amount, mirror, &context)
            .unwrap_or([7; 64]);
        u64_field(
            confidential("ConfidentialMPTClawback", &self.id),
            "MPTAmount",
            amount,
        )
        .account("Holder", &h.id)
        .blob("ZKProof", &proof)
    }
}
