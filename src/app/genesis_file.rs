//! `serve --genesis FILE`: a new ledger described in JSON, checked whole before anything is
//! applied, then built by real transactions in five ledgers (see [`Plan::new`]).
//!
//! ```json
//! {
//!   "accounts": [
//!     {"seed": "sn...", "balance": "10000", "flags": ["defaultRipple"]},
//!     {"seed": "sEd...", "balance": "500"},
//!     {"address": "r...", "balance": "100"}
//!   ],
//!   "trust_lines": [
//!     {"account": "rHOLDER", "issuer": "rISSUER", "currency": "USD", "limit": "1000", "balance": "100"}
//!   ],
//!   "offers": [
//!     {"account": "rHOLDER", "taker_gets": {"currency": "USD", "issuer": "rISSUER", "value": "10"},
//!      "taker_pays": "20000000"}
//!   ]
//! }
//! ```
//! Balances are XRP in decimal; `taker_gets` / `taker_pays` are rippled's JSON amounts
//! (drops as a string, or an issued currency object). An account given only by `address`
//! can receive XRP but cannot own trust lines or offers, nor issue (it cannot sign).

use crate::protocol::amount::{Amount, IouValue};
use crate::protocol::types::{AccountId, Currency};
use crate::rpc::devnet::{self, DevAccount};
use serde::Deserialize;
use serde_json::{json, Map, Value};
use std::collections::HashMap;
use std::path::Path;

/// The file as written.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GenesisFile {
    /// Accounts the genesis account funds.
    #[serde(default)]
    pub accounts: Vec<FileAccount>,
    /// Trust lines: the holder's TrustSet, then the issuer's payment of `balance`.
    #[serde(default)]
    pub trust_lines: Vec<FileLine>,
    /// Offers, placed in order by OfferCreate.
    #[serde(default)]
    pub offers: Vec<FileOffer>,
}

/// One account.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FileAccount {
    /// Its seed (`s...`, or `sEd...` for ed25519): the server can sign for it.
    pub seed: Option<String>,
    /// Its address, when the server need not sign for it.
    pub address: Option<String>,
    /// Its XRP balance once everything is applied (XRP, decimal).
    pub balance: String,
    /// AccountSet flags to set: `requireDest`, `requireAuth`, `disallowXRP`, `noFreeze`,
    /// `globalFreeze`, `defaultRipple`, `depositAuth`, `allowTrustLineClawback` (or with
    /// rippled's `asf` prefix).
    #[serde(default)]
    pub flags: Vec<String>,
}

/// One trust line.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FileLine {
    /// The holder (signs the TrustSet).
    pub account: String,
    /// The issuer (pays the balance).
    pub issuer: String,
    /// Three letters or 40 hex characters.
    pub currency: String,
    /// The holder's limit.
    pub limit: String,
    /// What the holder holds (default 0; at most the limit).
    pub balance: Option<String>,
}

/// One offer.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FileOffer {
    /// Who places it.
    pub account: String,
    /// What the offer gives.
    pub taker_gets: Value,
    /// What the offer takes.
    pub taker_pays: Value,
}

/// One transaction of the plan: who signs it (`None`: the genesis account) and its JSON.
pub struct Step {
    /// The signer (an account of the file), or the genesis account.
    pub signer: Option<DevAccount>,
    /// The transaction's JSON without `Account`, `Sequence`, `Fee`, `SigningPubKey`.
    pub tx: Map<String, Value>,
    /// Where in the file it comes from, for errors (`trust_lines[2]`).
    pub origin: String,
}

/// A checked file as the transactions that build it: one ledger per phase.
pub struct Plan {
    /// Genesis payments; AccountSets; holders' TrustSets; issuers' authorizations and
    /// payments; OfferCreates. A phase's transactions never depend on another account's
    /// transaction of the same phase, so a close's canonical order (rippled's, by account)
    /// cannot change their results; only crossing offers could cross in another order.
    pub phases: Vec<Vec<Step>>,
}

/// What the checks need of the ledger: the fees and reserves.
#[derive(Clone, Copy)]
pub struct Costs {
    /// The fee of each transaction.
    pub fee_drops: u64,
    /// An account's base reserve.
    pub reserve_base_drops: u64,
    /// The reserve of each owned entry.
    pub reserve_inc_drops: u64,
    /// What the genesis account can give.
    pub genesis_drops: u64,
}

/// Reads and checks `path`: a regular file (a FIFO or a device such as `/dev/zero` is
/// refused without being read) of at most [`crate::limits::GENESIS_FILE_BYTES_MAX`] bytes,
/// JSON in the format above.
pub fn load(path: &Path) -> Result<GenesisFile, String> {
    let shown = path.display();
    let text = crate::server::files::read_bounded(path, crate::limits::GENESIS_FILE_BYTES_MAX)
        .map_err(|e| format!("genesis file {shown}: {e}"))?;
    serde_json::from_slice(&text).map_err(|e| format!("genesis file {shown}: {e}"))
}

/// An account of the file, by address.
struct Known {
    index: usize,
    signer: Option<DevAccount>,
    drops: u64,
    flags: Vec<u32>,
    /// Transactions it signs, entries it owns.
    txs: u64,
    owned: u64,
}

type Accounts = HashMap<AccountId, Known>;

/// rippled's `asf` flag of a name (with or without the prefix).
fn asf(name: &str) -> Option<u32> {
    let bare = name.strip_prefix("asf").unwrap_or(name);
    let table = [
        ("requireDest", 1),
        ("requireAuth", 2),
        ("disallowXRP", 3),
        ("noFreeze", 6),
        ("globalFreeze", 7),
        ("defaultRipple", 8),
        ("depositAuth", 9),
        ("allowTrustLineClawback", 16),
    ];
    table
        .iter()
        .find(|(n, _)| n.eq_ignore_ascii_case(bare))
        .map(|&(_, f)| f)
}

fn account_entry(i: usize, a: &FileAccount) -> Result<(AccountId, Known), String> {
    let at = format!("accounts[{i}]");
    let signer = match (&a.seed, &a.address) {
        (Some(seed), None) => {
            let (seed, kt) =
                devnet::parse_seed(seed).ok_or_else(|| format!("{at}: seed is not a seed"))?;
            Some(DevAccount::new(seed, kt).map_err(|e| format!("{at}: {e}"))?)
        }
        (None, Some(_)) => None,
        _ => return Err(format!("{at}: give exactly one of seed and address")),
    };
    let id = match (&signer, &a.address) {
        (Some(s), _) => s.account(),
        (None, Some(addr)) => AccountId::from_address(addr)
            .map_err(|_| format!("{at}: address '{addr}' is not a classic address"))?,
        (None, None) => unreachable!("checked above"),
    };
    let drops = devnet::xrp_to_drops(&a.balance).map_err(|e| format!("{at}: balance {e}"))?;
    let mut flags = Vec::with_capacity(a.flags.len());
    for name in &a.flags {
        flags.push(asf(name).ok_or_else(|| format!("{at}: unknown flag '{name}'"))?);
    }
    if signer.is_none() && !flags.is_empty() {
        return Err(format!("{at}: flags need the account's seed"));
    }
    let known = Known {
        index: i,
        signer,
        drops,
        flags,
        txs: 0,
        owned: 0,
    };
    Ok((id, known))
}

fn accounts(file: &GenesisFile) -> Result<Accounts, String> {
    let mut map = Accounts::new();
    for (i, a) in file.accounts.iter().enumerate() {
        let (id, known) = account_entry(i, a)?;
        if id == crate::ledgers::GENESIS_ACCOUNT {
            return Err(format!("accounts[{i}]: the genesis account exists already"));
        }
        if let Some(other) = map.insert(id, known) {
            return Err(format!(
                "accounts[{i}]: {} is also accounts[{}]",
                id.to_address(),
                other.index
            ));
        }
    }
    Ok(map)
}

/// The signing account `address` names, at `at`.
fn signer_of(map: &Accounts, address: &str, at: &str) -> Result<(AccountId, DevAccount), String> {
    let id = AccountId::from_address(address)
        .map_err(|_| format!("{at}: '{address}' is not a classic address"))?;
    let known = map
        .get(&id)
        .ok_or_else(|| format!("{at}: unknown account {address} (not in accounts)"))?;
    let signer = known
        .signer
        .clone()
        .ok_or_else(|| format!("{at}: {address} is given without a seed, so it cannot sign"))?;
    Ok((id, signer))
}

fn obj(v: Value) -> Map<String, Value> {
    match v {
        Value::Object(m) => m,
        _ => Map::new(),
    }
}

fn iou(text: &str, what: &str, at: &str) -> Result<IouValue, String> {
    IouValue::parse(text).map_err(|e| format!("{at}: {what} '{text}': {e}"))
}

/// The steps of one trust line: TrustSet, the issuer's authorization (if it requires it),
/// the issuer's payment of the balance.
fn line_steps(map: &mut Accounts, i: usize, l: &FileLine) -> Result<(Step, Vec<Step>), String> {
    let at = format!("trust_lines[{i}]");
    let (holder, holder_key) = signer_of(map, &l.account, &at)?;
    let (issuer, issuer_key) = signer_of(map, &l.issuer, &at)?;
    if holder == issuer {
        return Err(format!("{at}: account and issuer are the same"));
    }
    let currency = Currency::from_json_str(&l.currency)
        .ok()
        .filter(|c| !c.is_xrp() && !c.is_bad())
        .ok_or_else(|| format!("{at}: currency '{}' is not an issued currency", l.currency))?;
    let limit = iou(&l.limit, "limit", &at)?;
    let balance = iou(l.balance.as_deref().unwrap_or("0"), "balance", &at)?;
    if limit.is_negative() || balance.is_negative() || balance > limit {
        return Err(format!("{at}: need 0 <= balance <= limit"));
    }
    let cur = currency.to_json_string();
    let trust = Step {
        signer: Some(holder_key),
        tx: obj(json!({"TransactionType": "TrustSet",
            "LimitAmount": {"currency": cur, "issuer": issuer.to_address(), "value": l.limit}})),
        origin: at.clone(),
    };
    let mut steps = Vec::new();
    bump(map, &holder, 1, 1);
    if map.get(&issuer).is_some_and(|k| k.flags.contains(&2)) {
        steps.push(Step {
            signer: Some(issuer_key.clone()),
            tx: obj(
                json!({"TransactionType": "TrustSet", "Flags": 0x0001_0000u32,
                "LimitAmount": {"currency": cur, "issuer": holder.to_address(), "value": "0"}}),
            ),
            origin: at.clone(),
        });
        bump(map, &issuer, 1, 0);
    }
    if !balance.is_zero() {
        steps.push(Step {
            signer: Some(issuer_key),
            tx: obj(
                json!({"TransactionType": "Payment", "Destination": holder.to_address(),
                "Amount": {"currency": cur, "issuer": issuer.to_address(), "value": l.balance}}),
            ),
            origin: at,
        });
        bump(map, &issuer, 1, 0);
    }
    Ok((trust, steps))
}

fn bump(map: &mut Accounts, id: &AccountId, txs: u64, owned: u64) {
    if let Some(k) = map.get_mut(id) {
        k.txs += txs;
        k.owned += owned;
    }
}

fn offer_step(map: &mut Accounts, i: usize, o: &FileOffer) -> Result<Step, String> {
    let at = format!("offers[{i}]");
    let (id, key) = signer_of(map, &o.account, &at)?;
    let gets = Amount::from_json(&o.taker_gets).map_err(|e| format!("{at}: taker_gets: {e}"))?;
    let pays = Amount::from_json(&o.taker_pays).map_err(|e| format!("{at}: taker_pays: {e}"))?;
    if gets.is_xrp() && pays.is_xrp() {
        return Err(format!("{at}: an offer cannot trade XRP for XRP"));
    }
    if gets.is_zero() || pays.is_zero() || gets.is_negative() || pays.is_negative() {
        return Err(format!("{at}: taker_gets and taker_pays must be positive"));
    }
    bump(map, &id, 1, 1);
    Ok(Step {
        signer: Some(key),
        tx: obj(json!({"TransactionType": "OfferCreate",
            "TakerGets": o.taker_gets, "TakerPays": o.taker_pays})),
        origin: at,
    })
}

impl Plan {
    /// Checks `file` against `costs` and orders its transactions in phases: the genesis
    /// account's payments (each account's balance plus the fees of its own transactions,
    /// so the balance after them is the one written), the AccountSet flags, the holders'
    /// TrustSets, the issuers' authorizations (`requireAuth`) and payments, the offers.
    pub fn new(file: &GenesisFile, costs: Costs) -> Result<Plan, String> {
        let entries = file.accounts.len() + file.trust_lines.len() + file.offers.len();
        if entries > crate::limits::GENESIS_FILE_ENTRIES_MAX {
            return Err(format!(
                "{entries} entries: at most {} accounts, trust lines and offers together",
                crate::limits::GENESIS_FILE_ENTRIES_MAX
            ));
        }
        let mut map = accounts(file)?;
        let (mut trusts, mut issuers, mut offers) = (Vec::new(), Vec::new(), Vec::new());
        for (i, l) in file.trust_lines.iter().enumerate() {
            let (trust, steps) = line_steps(&mut map, i, l)?;
            trusts.push(trust);
            issuers.extend(steps);
        }
        for (i, o) in file.offers.iter().enumerate() {
            offers.push(offer_step(&mut map, i, o)?);
        }
        let (payments, sets) = funding_steps(&mut map, costs)?;
        Ok(Plan {
            phases: vec![payments, sets, trusts, issuers, offers],
        })
    }
}

/// The genesis payments and AccountSets, after the reserve and supply checks.
fn funding_steps(map: &mut Accounts, costs: Costs) -> Result<(Vec<Step>, Vec<Step>), String> {
    let mut known: Vec<(&AccountId, &mut Known)> = map.iter_mut().collect();
    known.sort_by_key(|(_, k)| k.index);
    let mut total: u64 = 0;
    let mut payments = Vec::new();
    let mut sets = Vec::new();
    for (id, k) in known {
        k.txs += k.flags.len() as u64;
        let need = costs.reserve_base_drops + k.owned * costs.reserve_inc_drops;
        if k.drops < need {
            return Err(format!(
                "accounts[{}]: not enough XRP: {} holds {} XRP but its reserve with {} owned entries is {} XRP",
                k.index, id.to_address(), devnet::drops_to_xrp(k.drops), k.owned, devnet::drops_to_xrp(need)
            ));
        }
        let pay = k.drops + k.txs * costs.fee_drops;
        total = total.saturating_add(pay + costs.fee_drops);
        payments.push(Step {
            signer: None,
            tx: devnet::payment_json(id, pay),
            origin: format!("accounts[{}]", k.index),
        });
        for flag in &k.flags {
            sets.push(Step {
                signer: k.signer.clone(),
                tx: obj(json!({"TransactionType": "AccountSet", "SetFlag": flag})),
                origin: format!("accounts[{}]", k.index),
            });
        }
    }
    if total > costs.genesis_drops {
        return Err(format!(
            "not enough XRP: the accounts need {} XRP with fees, the genesis account holds {} XRP",
            devnet::drops_to_xrp(total),
            devnet::drops_to_xrp(costs.genesis_drops)
        ));
    }
    Ok((payments, sets))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::seed::Seed;

    const COSTS: Costs = Costs {
        fee_drops: 10,
        reserve_base_drops: 10_000_000,
        reserve_inc_drops: 2_000_000,
        genesis_drops: 100_000_000_000,
    };

    fn seed(p: &str) -> String {
        Seed::from_passphrase(p).to_base58(crate::protocol::keys::KeyType::Secp256k1)
    }

    fn address(p: &str) -> String {
        DevAccount::new(
            Seed::from_passphrase(p),
            crate::protocol::keys::KeyType::Secp256k1,
        )
        .unwrap()
        .account()
        .to_address()
    }

    fn file(v: Value) -> GenesisFile {
        serde_json::from_value(v).unwrap()
    }

    fn two_accounts(holder_xrp: &str) -> GenesisFile {
        file(json!({
            "accounts": [
                {"seed": seed("i"), "balance": "100", "flags": ["requireAuth"]},
                {"seed": seed("h"), "balance": holder_xrp}
            ],
            "trust_lines": [{"account": address("h"), "issuer": address("i"),
                "currency": "USD", "limit": "10", "balance": "1"}],
            "offers": [{"account": address("h"), "taker_gets": "1000000",
                "taker_pays": {"currency": "USD", "issuer": address("i"), "value": "1"}}]
        }))
    }

    #[test]
    fn phases_and_fees() {
        let plan = Plan::new(&two_accounts("100"), COSTS).unwrap();
        let sizes: Vec<usize> = plan.phases.iter().map(Vec::len).collect();
        // Two payments; one AccountSet; one TrustSet; authorization and payment; one offer.
        assert_eq!(sizes, vec![2, 1, 1, 2, 1]);
        // The issuer signs three transactions: its payment is 100 XRP and 30 drops.
        let first = &plan.phases[0][0].tx;
        assert_eq!(first["Amount"], "100000030");
        assert_eq!(first["Destination"], address("i").as_str());
    }

    #[test]
    fn reserves_and_supply() {
        // The holder owns a line and an offer: 10 + 2 * 2 XRP.
        let err = Plan::new(&two_accounts("13.9"), COSTS).err().unwrap();
        assert!(
            err.contains("not enough XRP") && err.contains("14 XRP"),
            "{err}"
        );
        assert!(Plan::new(&two_accounts("14"), COSTS).is_ok());
        let poor = Costs {
            genesis_drops: 150_000_000,
            ..COSTS
        };
        let err = Plan::new(&two_accounts("100"), poor).err().unwrap();
        assert!(err.contains("the genesis account holds 150 XRP"), "{err}");
    }

    #[test]
    fn duplicates_and_references() {
        let dup = file(json!({"accounts": [
            {"seed": seed("a"), "balance": "20"}, {"address": address("a"), "balance": "20"}]}));
        let err = Plan::new(&dup, COSTS).err().unwrap();
        assert!(err.contains("is also accounts[0]"), "{err}");
        let both = file(
            json!({"accounts": [{"seed": seed("a"), "address": address("a"), "balance": "20"}]}),
        );
        assert!(Plan::new(&both, COSTS)
            .err()
            .unwrap()
            .contains("exactly one"));
        let flag =
            file(json!({"accounts": [{"seed": seed("a"), "balance": "20", "flags": ["fly"]}]}));
        assert!(Plan::new(&flag, COSTS)
            .err()
            .unwrap()
            .contains("unknown flag 'fly'"));
        let xrp_line = file(json!({
            "accounts": [{"seed": seed("a"), "balance": "20"}, {"seed": seed("b"), "balance": "20"}],
            "trust_lines": [{"account": address("a"), "issuer": address("b"), "currency": "XRP", "limit": "1"}]}));
        assert!(Plan::new(&xrp_line, COSTS)
            .err()
            .unwrap()
            .contains("not an issued currency"));
    }
}
