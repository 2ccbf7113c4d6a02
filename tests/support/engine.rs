//! A small test environment in the spirit of rippled's jtx: accounts with real keys,
//! transactions built field by field, signed, encoded to binary and decoded again (as the
//! server receives them), then applied to a standalone ledger store.

use std::sync::Arc;

use super::accounts;
use super::keys::keys_of_type;
use super::payment::sign_object;
use ledgerd::engine::Ter;
use ledgerd::ledger::directory;
use ledgerd::ledger::keylet;
use ledgerd::ledger::sf::{sf, StExt};
use ledgerd::ledger::view::ReadView;
use ledgerd::ledgers::{LedgerConfig, Ledgers};
use ledgerd::protocol::amount::{Amount, IouValue};
use ledgerd::protocol::codec;
use ledgerd::protocol::definitions::Field;
use ledgerd::protocol::keys::{KeyPair, KeyType};
use ledgerd::protocol::st::{StObject, StValue};
use ledgerd::protocol::types::{AccountId, Currency, Hash256};

/// Drops in `n` XRP.
pub fn xrp(n: i64) -> Amount {
    Amount::Xrp(n * 1_000_000)
}

/// A drops amount.
pub fn drops(n: i64) -> Amount {
    Amount::Xrp(n)
}

/// A currency code.
pub fn cur(code: &str) -> Currency {
    Currency::from_json_str(code).expect("currency")
}

/// An issued value from text.
pub fn val(s: &str) -> IouValue {
    IouValue::parse(s).expect("value")
}

/// A named account with a real key pair.
#[derive(Clone)]
pub struct Account {
    pub name: String,
    pub kp: KeyPair,
    pub id: AccountId,
}

impl Account {
    /// A secp256k1 account whose seed is the passphrase `name`.
    pub fn new(name: &str) -> Account {
        Account::with_type(name, KeyType::Secp256k1)
    }

    /// An account of the given key type.
    pub fn with_type(name: &str, kt: KeyType) -> Account {
        let kp = keys_of_type(name, kt);
        let id = kp.account_id();
        Account {
            name: name.to_string(),
            kp,
            id,
        }
    }

    /// The genesis account.
    pub fn master() -> Account {
        Account::new("masterpassphrase")
    }

    /// An amount of this account's issue.
    pub fn iou(&self, code: &str, v: i64) -> Amount {
        Amount::iou(IouValue::from_i64(v), cur(code), self.id)
    }

    /// An amount of this account's issue, from text.
    pub fn iou_s(&self, code: &str, v: &str) -> Amount {
        Amount::iou(val(v), cur(code), self.id)
    }
}

/// A transaction under construction.
#[derive(Clone)]
pub struct Tx(pub StObject);

fn f(name: &str) -> Field {
    Field::named(name)
}

impl Tx {
    /// A transaction of type `name`.
    pub fn new(name: &str) -> Tx {
        let code = ledgerd::protocol::definitions::defs().transaction_types[name];
        let mut o = StObject::new();
        o.set(f("TransactionType"), StValue::UInt16(code));
        Tx(o)
    }
    pub fn u32(mut self, name: &str, v: u32) -> Tx {
        self.0.set(f(name), StValue::UInt32(v));
        self
    }
    pub fn u8(mut self, name: &str, v: u8) -> Tx {
        self.0.set(f(name), StValue::UInt8(v));
        self
    }
    pub fn flags(self, v: u32) -> Tx {
        self.u32("Flags", v)
    }
    pub fn amount(mut self, name: &str, a: Amount) -> Tx {
        self.0.set(f(name), StValue::Amount(a));
        self
    }
    pub fn account(mut self, name: &str, a: &AccountId) -> Tx {
        self.0.set(f(name), StValue::AccountId(*a));
        self
    }
    pub fn blob(mut self, name: &str, b: &[u8]) -> Tx {
        self.0.set(f(name), StValue::Blob(b.to_vec()));
        self
    }
    pub fn h256(mut self, name: &str, h: Hash256) -> Tx {
        self.0.set(f(name), StValue::Hash256(h));
        self
    }
    pub fn paths(mut self, paths: Vec<Vec<ledgerd::protocol::st::PathStep>>) -> Tx {
        self.0.set(f("Paths"), StValue::PathSet(paths));
        self
    }
    pub fn remove(mut self, name: &str) -> Tx {
        self.0.remove(f(name));
        self
    }

    /// The transaction as `account` sends it, signed by `signer` (its master or its
    /// regular key): Account set, Sequence `seq` and Fee `fee` (drops) unless already
    /// there, then SigningPubKey and TxnSignature.
    pub fn signed(self, account: &AccountId, seq: u32, fee: i64, signer: &KeyPair) -> StObject {
        let mut o = self.0;
        let s = sf();
        o.set(s.account, StValue::AccountId(*account));
        if o.get(s.sequence).is_none() {
            o.set(s.sequence, StValue::UInt32(seq));
        }
        if o.get(s.fee).is_none() {
            o.set(s.fee, StValue::Amount(Amount::Xrp(fee)));
        }
        sign_object(&mut o, signer);
        o
    }
}

/// A SignerListSet with `quorum` and `(signer, weight)` entries (none: delete the list).
pub fn signer_list(quorum: u32, entries: &[(&Account, u16)]) -> Tx {
    let mut tx = Tx::new("SignerListSet").u32("SignerQuorum", quorum);
    if !entries.is_empty() {
        let list = entries
            .iter()
            .map(|(a, w)| {
                let mut e = StObject::new();
                e.set(f("Account"), StValue::AccountId(a.id));
                e.set(f("SignerWeight"), StValue::UInt16(*w));
                (f("SignerEntry"), e)
            })
            .collect();
        tx.0.set(f("SignerEntries"), StValue::Array(list));
    }
    tx
}

/// A DepositPreauth authorizing `who`.
pub fn preauth(who: &Account) -> Tx {
    Tx::new("DepositPreauth").account("Authorize", &who.id)
}

/// A DepositPreauth taking `who`'s preauthorization back.
pub fn unpreauth(who: &Account) -> Tx {
    Tx::new("DepositPreauth").account("Unauthorize", &who.id)
}

/// An AccountDelete sending what is left to `to`, with the owner-reserve fee.
pub fn account_delete(to: &Account) -> Tx {
    Tx::new("AccountDelete")
        .account("Destination", &to.id)
        .amount("Fee", Amount::Xrp(2_000_000))
}

/// A Clawback of `amount` (its issuer field names the holder).
pub fn clawback(amount: Amount) -> Tx {
    Tx::new("Clawback").amount("Amount", amount)
}

/// An EscrowCreate of `amount` to `to`.
pub fn escrow_create(to: &Account, amount: Amount) -> Tx {
    Tx::new("EscrowCreate")
        .account("Destination", &to.id)
        .amount("Amount", amount)
}

/// An EscrowFinish of `owner`'s escrow created with sequence `seq`.
pub fn escrow_finish(owner: &Account, seq: u32) -> Tx {
    Tx::new("EscrowFinish")
        .account("Owner", &owner.id)
        .u32("OfferSequence", seq)
}

/// An EscrowCancel of `owner`'s escrow created with sequence `seq`.
pub fn escrow_cancel(owner: &Account, seq: u32) -> Tx {
    Tx::new("EscrowCancel")
        .account("Owner", &owner.id)
        .u32("OfferSequence", seq)
}

/// A CheckCreate to `to` for up to `send_max`.
pub fn check_create(to: &Account, send_max: Amount) -> Tx {
    Tx::new("CheckCreate")
        .account("Destination", &to.id)
        .amount("SendMax", send_max)
}

/// A CheckCash of `check` for exactly `amount`.
pub fn check_cash(check: Hash256, amount: Amount) -> Tx {
    Tx::new("CheckCash")
        .h256("CheckID", check)
        .amount("Amount", amount)
}

/// A CheckCancel of `check`.
pub fn check_cancel(check: Hash256) -> Tx {
    Tx::new("CheckCancel").h256("CheckID", check)
}

/// A TicketCreate of `count` tickets.
pub fn ticket_create(count: u32) -> Tx {
    Tx::new("TicketCreate").u32("TicketCount", count)
}

/// `tx` sent with Ticket `ticket` (Sequence 0).
pub fn with_ticket(tx: Tx, ticket: u32) -> Tx {
    tx.u32("Sequence", 0).u32("TicketSequence", ticket)
}

/// A payment.
pub fn pay(to: &Account, amount: Amount) -> Tx {
    Tx::new("Payment")
        .account("Destination", &to.id)
        .amount("Amount", amount)
}

/// A TrustSet with this limit.
pub fn trust(limit: Amount) -> Tx {
    Tx::new("TrustSet").amount("LimitAmount", limit)
}

/// The issuer's authorization of `holder`'s line for `code` (TrustSet with tfSetfAuth).
pub fn authorize(holder: &Account, code: &str) -> Tx {
    trust(holder.iou(code, 0)).flags(ledgerd::engine::trust_set::tf::SET_AUTH)
}

/// An AccountSet with SetFlag.
pub fn fset(flag: u32) -> Tx {
    Tx::new("AccountSet").u32("SetFlag", flag)
}

/// An AccountSet with ClearFlag.
pub fn fclear(flag: u32) -> Tx {
    Tx::new("AccountSet").u32("ClearFlag", flag)
}

/// An AccountSet with nothing set yet.
pub fn account_set() -> Tx {
    Tx::new("AccountSet")
}

/// A SetRegularKey to `key`'s master key.
pub fn regular_key(key: &Account) -> Tx {
    Tx::new("SetRegularKey").account("RegularKey", &key.id)
}

/// A PaymentChannelCreate to `dst` holding `amount`, with `settle_delay` seconds and
/// claims signed by `public_key`.
pub fn channel_create(dst: &Account, amount: Amount, settle_delay: u32, public_key: &[u8]) -> Tx {
    Tx::new("PaymentChannelCreate")
        .account("Destination", &dst.id)
        .amount("Amount", amount)
        .u32("SettleDelay", settle_delay)
        .blob("PublicKey", public_key)
}

/// A PaymentChannelFund of `amount` into `channel`.
pub fn channel_fund(channel: &Hash256, amount: Amount) -> Tx {
    Tx::new("PaymentChannelFund")
        .h256("Channel", *channel)
        .amount("Amount", amount)
}

/// A PaymentChannelClaim on `channel` with nothing else set yet.
pub fn channel_claim(channel: &Hash256) -> Tx {
    Tx::new("PaymentChannelClaim").h256("Channel", *channel)
}

/// A payment channel in the ledger: its key, and the public key its claims are signed with
/// (the owner's master key).
pub struct Chan {
    pub key: Hash256,
    pub pk: Vec<u8>,
}

impl Chan {
    /// A PaymentChannelClaim on this channel.
    pub fn claim(&self) -> Tx {
        channel_claim(&self.key)
    }

    /// A PaymentChannelFund of `amount` into this channel.
    pub fn fund(&self, amount: Amount) -> Tx {
        channel_fund(&self.key, amount)
    }
}

/// What a transaction costs in these ledgers (the base fee), in drops.
pub const FEE: i64 = 10;

/// The ledger, and what the last transaction did.
pub struct Env {
    pub store: Ledgers,
    pub master: Account,
    pub last_meta: Option<StObject>,
    pub last_id: Option<Hash256>,
    pub now: u32,
}

/// A fixed start time (seconds since the ripple epoch) so runs are reproducible.
pub const START_TIME: u32 = 780_000_000;

impl Env {
    /// A standalone ledger whose engine also checks every transaction signature.
    pub fn new() -> Env {
        let mut cfg = LedgerConfig::default();
        cfg.apply.signature_check = Some(Arc::new(ledgerd::engine::transactor::verify_signature));
        Env::with_config(cfg)
    }

    pub fn with_config(cfg: LedgerConfig) -> Env {
        Env {
            store: Ledgers::genesis(cfg, START_TIME),
            master: Account::master(),
            last_meta: None,
            last_id: None,
            now: START_TIME,
        }
    }

    /// The next Sequence of `who` in the open ledger (0 when absent).
    pub fn seq(&self, who: &Account) -> u32 {
        accounts::sequence(&self.store, &who.id).unwrap_or(0)
    }

    /// Fills Account, Sequence, Fee and SigningPubKey, signs with `signer`, goes through
    /// the binary form and applies. Returns the result.
    pub fn submit_signed(&mut self, who: &Account, signer: &KeyPair, tx: Tx) -> Ter {
        let fee = self.store.fees().base_drops as i64;
        let o = tx.signed(&who.id, self.seq(who), fee, signer);
        let blob = codec::encode(&o);
        let decoded = codec::decode(&blob).expect("decodes");
        assert_eq!(decoded, o, "binary round trip");
        let r = self.store.apply(&decoded);
        self.last_meta = r.entry.as_ref().map(|e| e.meta());
        self.last_id = Some(r.id);
        r.ter
    }

    /// Multi-signs `tx` for `who` with `signers` (account, signing key): SigningPubKey
    /// empty, the fee `(1 + signers) x base` unless set, Signers sorted by account, each
    /// over the multi-signing data; goes through the binary form and applies.
    pub fn submit_multisigned(
        &mut self,
        who: &Account,
        signers: &[(&Account, &KeyPair)],
        tx: Tx,
    ) -> Ter {
        let s = sf();
        let base = self.store.fees().base_drops as i64;
        let mut o = tx.0;
        o.set(s.account, StValue::AccountId(who.id));
        if o.get(s.sequence).is_none() {
            o.set(s.sequence, StValue::UInt32(self.seq(who)));
        }
        if o.get(s.fee).is_none() {
            o.set(
                s.fee,
                StValue::Amount(Amount::Xrp(base * (1 + signers.len() as i64))),
            );
        }
        o.set(s.signing_pub_key, StValue::Blob(Vec::new()));
        let mut sorted: Vec<_> = signers.to_vec();
        sorted.sort_by_key(|(a, _)| a.id);
        let list = sorted
            .iter()
            .map(|(a, kp)| {
                let data = ledgerd::protocol::tx::multisigning_data(&o, &a.id);
                let mut signer = StObject::new();
                signer.set(s.account, StValue::AccountId(a.id));
                signer.set(
                    s.signing_pub_key,
                    StValue::Blob(kp.public.as_bytes().to_vec()),
                );
                signer.set(s.txn_signature, StValue::Blob(kp.sign(&data)));
                (Field::named("Signer"), signer)
            })
            .collect();
        o.set(s.signers, StValue::Array(list));
        let decoded = codec::decode(&codec::encode(&o)).expect("decodes");
        assert_eq!(decoded, o, "binary round trip");
        let r = self.store.apply(&decoded);
        self.last_meta = r.entry.as_ref().map(|e| e.meta());
        self.last_id = Some(r.id);
        r.ter
    }

    /// Submits signed by the account's own master key.
    pub fn submit(&mut self, who: &Account, tx: Tx) -> Ter {
        self.submit_signed(who, &who.kp, tx)
    }

    /// Submits and asserts the result.
    pub fn apply(&mut self, who: &Account, tx: Tx, want: Ter) {
        let got = self.submit(who, tx);
        assert_eq!(got, want, "{} expected {} got {}", who.name, want, got);
    }

    /// Creates `who` with `amount` from the genesis account.
    pub fn fund(&mut self, who: &Account, amount: Amount) {
        let master = Account::master();
        self.apply(&master, pay(who, amount), Ter::tesSUCCESS);
    }

    /// Accounts named `names`, created in order with 10,000 XRP each from the genesis
    /// account.
    pub fn funded<const N: usize>(&mut self, names: [&str; N]) -> [Account; N] {
        names.map(|name| {
            let a = Account::new(name);
            self.fund(&a, xrp(10_000));
            a
        })
    }

    /// Makes `gw` a gateway that authorizes its holders: RequireAuth, and DefaultRipple so
    /// that holders can pay each other through it.
    pub fn gateway(&mut self, gw: &Account) {
        self.apply(
            gw,
            fset(ledgerd::engine::account_set::asf::REQUIRE_AUTH),
            Ter::tesSUCCESS,
        );
        self.apply(
            gw,
            fset(ledgerd::engine::account_set::asf::DEFAULT_RIPPLE),
            Ter::tesSUCCESS,
        );
    }

    /// `owner` opens a channel to `dst` holding `amount` with `settle_delay` seconds, claims
    /// signed by its master key; asserts tesSUCCESS.
    pub fn open_channel(
        &mut self,
        owner: &Account,
        dst: &Account,
        amount: Amount,
        settle_delay: u32,
    ) -> Chan {
        let pk = owner.kp.public.as_bytes().to_vec();
        self.open_channel_with(owner, dst, channel_create(dst, amount, settle_delay, &pk))
    }

    /// `owner` opens the channel to `dst` that `create` describes (claims signed by the
    /// owner's master key); asserts tesSUCCESS.
    pub fn open_channel_with(&mut self, owner: &Account, dst: &Account, create: Tx) -> Chan {
        let seq = self.seq(owner);
        self.apply(owner, create, Ter::tesSUCCESS);
        Chan {
            key: keylet::pay_channel(&owner.id, &dst.id, seq),
            pk: owner.kp.public.as_bytes().to_vec(),
        }
    }

    /// The open ledger's parent close time.
    pub fn parent_close(&self) -> u32 {
        self.store.current().view.info().parent_close_time
    }

    /// Closes the open ledger ten seconds after the last close.
    pub fn close(&mut self) {
        self.now += 10;
        self.store.close(self.now);
    }

    /// Advances the clock by `secs` and closes.
    pub fn close_after(&mut self, secs: u32) {
        self.now += secs;
        self.store.close(self.now);
    }

    pub fn read(&self, key: &Hash256) -> Option<Arc<StObject>> {
        self.store.current().view.read(key)
    }

    pub fn root(&self, who: &Account) -> Option<Arc<StObject>> {
        accounts::account_root(&self.store, &who.id)
    }

    /// XRP balance in drops.
    pub fn balance(&self, who: &Account) -> i64 {
        accounts::balance(&self.store, &who.id).unwrap_or(0)
    }

    pub fn owner_count(&self, who: &Account) -> u32 {
        self.root(who)
            .and_then(|r| r.u32_of(sf().owner_count))
            .unwrap_or(0)
    }

    pub fn flags(&self, who: &Account) -> u32 {
        self.root(who).map(|r| r.flags()).unwrap_or(0)
    }

    pub fn line(&self, a: &Account, b: &Account, code: &str) -> Option<Arc<StObject>> {
        self.read(&keylet::line(&a.id, &b.id, &cur(code)))
    }

    /// `holder`'s balance of `issuer`'s `code` (positive = holds).
    pub fn iou_balance(&self, holder: &Account, issuer: &Account, code: &str) -> IouValue {
        match self.line(holder, issuer, code) {
            None => IouValue::ZERO,
            Some(l) => {
                let b = l
                    .amount_of(sf().balance)
                    .and_then(|a| a.as_iou())
                    .unwrap_or(IouValue::ZERO);
                if holder.id < issuer.id {
                    b
                } else {
                    b.negate()
                }
            }
        }
    }

    /// The keys in `who`'s owner directory.
    pub fn owned(&self, who: &Account) -> Vec<Hash256> {
        directory::owned(&self.store.current().view, &who.id)
    }

    /// account_lines' `authorized` / `peer_authorized` of `viewer`'s line to `peer`.
    pub fn auth_flags(&self, viewer: &Account, peer: &Account, code: &str) -> (bool, bool) {
        use ledgerd::ledger::flags::lsf;
        let Some(l) = self.line(viewer, peer, code) else {
            return (false, false);
        };
        let (mine, theirs) = if viewer.id < peer.id {
            (lsf::LOW_AUTH, lsf::HIGH_AUTH)
        } else {
            (lsf::HIGH_AUTH, lsf::LOW_AUTH)
        };
        (l.flags() & mine != 0, l.flags() & theirs != 0)
    }
}

/// An account a builder names: an [`Account`] or a bare [`AccountId`] (a pseudo-account,
/// a door or a source that signs nothing in the test).
pub trait Who {
    fn account_id(&self) -> AccountId;
}

impl Who for Account {
    fn account_id(&self) -> AccountId {
        self.id
    }
}

impl Who for AccountId {
    fn account_id(&self) -> AccountId {
        *self
    }
}

impl<T: Who + ?Sized> Who for &T {
    fn account_id(&self) -> AccountId {
        (**self).account_id()
    }
}

/// `tx` with the fee of the transactions that cost one owner reserve increment
/// (VaultCreate, LoanBrokerSet, AMMCreate...) in `env`'s ledger.
pub fn with_fee(env: &Env, tx: Tx) -> Tx {
    let fee = env.store.fees().reserve_inc_drops as i64;
    tx.amount("Fee", drops(fee))
}

/// True when `key` is in the first page of `owner`'s owner directory.
pub fn in_dir(env: &Env, owner: &AccountId, key: &Hash256) -> bool {
    env.read(&keylet::owner_dir(owner))
        .and_then(|d| d.v256_of(sf().indexes).map(|v| v.contains(key)))
        .unwrap_or(false)
}
