//! Extreme amounts (issue 29 defect 8): every amount-carrying transaction type whose
//! arithmetic runs through the AMM, vault, loan broker, escrow, check or payment math is
//! thrown the largest and smallest amounts the wire carries (XRP at 10^17 drops, an issued
//! value at the largest and smallest mantissa and exponent, an MPT at 2^63 - 1 and past
//! it, zero, negative), by a holder and by the issuer (who may spend any amount of its
//! own issue). The engine must never panic, every invariant must hold, and no case may
//! end in an internal failure (tecINTERNAL, tefEXCEPTION, tefINTERNAL, an invariant
//! failure) unless rippled itself ends there: those cases are named in
//! [`rippled_internal`] with the rippled code path that gives them, and must give exactly
//! rippled's code.
//!
//! Each table case is applied to the same world without being kept
//! ([`apply_transaction`] returns the writes instead of making them); the property test
//! applies random sequences of extreme operations to one world, so that a pool or a vault
//! first grown to an extreme size is then worked against.

use crate::support;

use std::panic::{catch_unwind, AssertUnwindSafe};

use ledgerd::engine::account_set::asf;
use ledgerd::engine::amm::{self, tf};
use ledgerd::engine::mptoken_issuance_create::tf as ctf;
use ledgerd::engine::transactor::{apply_transaction, ApplyConfig};
use ledgerd::engine::Ter;
use ledgerd::ledger::keylet;
use ledgerd::ledger::sf::{sf, StExt};
use ledgerd::protocol::amount::{Amount, IouValue, Rounding};
use ledgerd::protocol::definitions::Field;
use ledgerd::protocol::mpt::{MptAmount, MptId};
use ledgerd::protocol::st::StValue;
use ledgerd::protocol::types::{AccountId, Hash256, Issue};
use proptest::prelude::*;

use support::engine::*;

/// An issued value from its mantissa and exponent.
fn iou_v(m: u64, e: i32, negative: bool) -> IouValue {
    IouValue::from_parts(u128::from(m), e, negative, Rounding::Nearest).expect("value")
}

/// Issued values at the edges: the largest and smallest of either sign, powers of ten
/// that overflow drops or a pool, one, zero.
fn iou_edges() -> Vec<(&'static str, IouValue)> {
    vec![
        ("max", iou_v(9_999_999_999_999_999, 80, false)),
        ("1e80", iou_v(1_000_000_000_000_000, 65, false)),
        ("1e40", iou_v(1_000_000_000_000_000, 25, false)),
        ("1e20", iou_v(1_000_000_000_000_000, 5, false)),
        ("1e15", iou_v(1_000_000_000_000_000, 0, false)),
        ("1", IouValue::from_i64(1)),
        ("min", iou_v(1_000_000_000_000_000, -96, false)),
        ("0", IouValue::ZERO),
        ("-1", iou_v(1_000_000_000_000_000, -15, true)),
        ("-max", iou_v(9_999_999_999_999_999, 80, true)),
    ]
}

/// Drops at the edges: one, 10^17 and one below, negative, zero.
fn xrp_edges() -> Vec<(&'static str, i64)> {
    vec![
        ("1e17", 100_000_000_000_000_000),
        ("1e17-1", 99_999_999_999_999_999),
        ("1e11", 100_000_000_000),
        ("1", 1),
        ("0", 0),
        ("-1", -1),
        ("-1e17", -100_000_000_000_000_000),
    ]
}

/// MPT units at the edges: 2^63 - 1 and past it, one, zero, negative one.
fn mpt_edges() -> Vec<(&'static str, u64, bool)> {
    vec![
        ("2^63-1", i64::MAX as u64, false),
        ("2^63", 1u64 << 63, false),
        ("2^64-1", u64::MAX, false),
        ("1e18", 1_000_000_000_000_000_000, false),
        ("1", 1, false),
        ("0", 0, false),
        ("-1", 1, true),
    ]
}

/// The assets a case's amount can be in.
#[derive(Clone, Copy)]
enum Kind {
    Xrp,
    Usd,
    Mpt,
}

/// Every edge amount of `kind`, named.
fn edges(w: &World, kind: Kind) -> Vec<(String, StValue)> {
    match kind {
        Kind::Xrp => xrp_edges()
            .into_iter()
            .map(|(n, d)| (format!("{n} drops"), StValue::Amount(Amount::Xrp(d))))
            .collect(),
        Kind::Usd => iou_edges()
            .into_iter()
            .map(|(n, v)| (format!("{n} USD"), StValue::Amount(w.usd(v))))
            .collect(),
        Kind::Mpt => mpt_edges()
            .into_iter()
            .map(|(n, v, neg)| {
                let a = MptAmount {
                    value: v,
                    negative: neg,
                    id: w.mpt,
                };
                (format!("{n} MPT"), StValue::MptAmount(a))
            })
            .collect(),
    }
}

fn kind_name(k: Kind) -> &'static str {
    match k {
        Kind::Xrp => "XRP",
        Kind::Usd => "USD",
        Kind::Mpt => "MPT",
    }
}

fn set(mut tx: Tx, name: &str, v: StValue) -> Tx {
    tx.0.set(Field::named(name), v);
    tx
}

/// A vault and its share issuance.
#[derive(Clone, Copy)]
struct Vault {
    key: Hash256,
    share: MptId,
    kind: Kind,
}

/// A loan broker over a vault.
#[derive(Clone, Copy)]
struct Broker {
    key: Hash256,
    kind: Kind,
}

/// An AMM pool.
#[derive(Clone, Copy)]
struct Pool {
    a: Issue,
    b: Issue,
}

/// gw issues USD, EUR and an MPT; alice and carol hold 30,000 USD and EUR and 1,000 of
/// the MPT each; alice's AMMs XRP/USD and USD/EUR (carol is an LP of both); alice's
/// XRP, USD and MPT vaults holding carol's deposits; alice's brokers over the XRP and
/// USD vaults with cover; carol's checks to dave in XRP and USD; an offer in the book.
struct World {
    env: Env,
    gw: Account,
    alice: Account,
    carol: Account,
    dave: Account,
    mpt: MptId,
    xrp_usd: Pool,
    usd_eur: Pool,
    vaults: Vec<Vault>,
    brokers: Vec<Broker>,
    checks: Vec<(Hash256, Kind)>,
}

impl World {
    fn usd(&self, v: IouValue) -> Amount {
        Amount::iou(v, cur("USD"), self.gw.id)
    }

    fn usd_n(&self, n: i64) -> Amount {
        self.usd(IouValue::from_i64(n))
    }

    fn eur_n(&self, n: i64) -> Amount {
        Amount::iou(IouValue::from_i64(n), cur("EUR"), self.gw.id)
    }

    fn mpt_n(&self, n: u64) -> StValue {
        StValue::MptAmount(MptAmount::new(n, self.mpt))
    }

    /// One unit of `kind`'s asset, as an amount field.
    fn one(&self, kind: Kind, n: i64) -> StValue {
        match kind {
            Kind::Xrp => StValue::Amount(xrp(n)),
            Kind::Usd => StValue::Amount(self.usd_n(n)),
            Kind::Mpt => self.mpt_n(n as u64),
        }
    }

    fn amm_account(&self, p: &Pool) -> AccountId {
        self.env
            .read(&amm::amm_key(&p.a, &p.b))
            .and_then(|o| o.account_of(sf().account))
            .expect("AMM account")
    }

    /// LP tokens of `p` worth `v`.
    fn lpt(&self, p: &Pool, v: IouValue) -> Amount {
        let c = amm::lpt_currency(&p.a.currency, &p.b.currency);
        Amount::iou(v, c, self.amm_account(p))
    }
}

fn pool_tx(p: &Pool, name: &str) -> Tx {
    let tx = set(Tx::new(name), "Asset", StValue::Issue(p.a));
    set(tx, "Asset2", StValue::Issue(p.b))
}

fn amm_create(a: Amount, b: Amount) -> Tx {
    let tx = Tx::new("AMMCreate")
        .amount("Amount", a)
        .amount("Amount2", b)
        .amount("Fee", drops(2_000_000));
    set(tx, "TradingFee", StValue::UInt16(500))
}

/// The issuer's set-up: clawback (before any line), DefaultRipple, line locking, the
/// MPT issuance; the holders' lines and balances.
fn issue(env: &mut Env, gw: &Account, holders: &[&Account]) -> MptId {
    for flag in [
        asf::ALLOW_TRUSTLINE_CLAWBACK,
        asf::DEFAULT_RIPPLE,
        asf::ALLOW_TRUSTLINE_LOCKING,
    ] {
        env.apply(gw, fset(flag), Ter::tesSUCCESS);
    }
    let seq = env.seq(gw);
    let flags = ctf::CAN_ESCROW | ctf::CAN_TRADE | ctf::CAN_TRANSFER | ctf::CAN_CLAWBACK;
    env.apply(
        gw,
        Tx::new("MPTokenIssuanceCreate").flags(flags),
        Ter::tesSUCCESS,
    );
    let mpt = MptId::new(seq, &gw.id);
    for h in holders {
        for code in ["USD", "EUR"] {
            env.apply(h, trust(gw.iou(code, 1_000_000)), Ter::tesSUCCESS);
            env.apply(gw, pay(h, gw.iou(code, 30_000)), Ter::tesSUCCESS);
        }
        let auth = set(
            Tx::new("MPTokenAuthorize"),
            "MPTokenIssuanceID",
            StValue::Fixed(mpt.0.to_vec()),
        );
        env.apply(h, auth, Ter::tesSUCCESS);
        let give = set(
            pay(h, xrp(0)),
            "Amount",
            StValue::MptAmount(MptAmount::new(1_000, mpt)),
        );
        env.apply(gw, give, Ter::tesSUCCESS);
    }
    mpt
}

/// alice's vault of `kind` with carol's deposit of 100, and (XRP and USD) a broker over
/// it with 10 of cover.
fn lend(w: &mut World, kind: Kind) {
    let asset = match kind {
        Kind::Xrp => StValue::Issue(Issue::XRP),
        Kind::Usd => StValue::Issue(w.usd_n(1).issue()),
        Kind::Mpt => StValue::MptIssue(w.mpt),
    };
    let (alice, carol) = (w.alice.clone(), w.carol.clone());
    let seq = w.env.seq(&alice);
    let create = with_fee(&w.env, set(Tx::new("VaultCreate"), "Asset", asset));
    w.env.apply(&alice, create, Ter::tesSUCCESS);
    let key = keylet::vault(&alice.id, seq);
    let share = w
        .env
        .read(&key)
        .and_then(|v| v.mpt_id_of(sf().share_mpt_id))
        .expect("share");
    let dep = set(
        Tx::new("VaultDeposit").h256("VaultID", key),
        "Amount",
        w.one(kind, 100),
    );
    w.env.apply(&carol, dep, Ter::tesSUCCESS);
    w.vaults.push(Vault { key, share, kind });
    if matches!(kind, Kind::Mpt) {
        return;
    }
    let seq = w.env.seq(&alice);
    let broker = Tx::new("LoanBrokerSet").h256("VaultID", key);
    w.env.apply(&alice, broker, Ter::tesSUCCESS);
    let bkey = keylet::loan_broker(&alice.id, seq);
    let cover = set(
        Tx::new("LoanBrokerCoverDeposit").h256("LoanBrokerID", bkey),
        "Amount",
        w.one(kind, 10),
    );
    w.env.apply(&alice, cover, Ter::tesSUCCESS);
    w.brokers.push(Broker { key: bkey, kind });
}

/// Without LendingProtocolV1_1: the world's brokers are over open-ended vaults; and
/// without fixCleanup3_4_0, whose AMMDeposit range check makes rippled's exceptions
/// (`tefEXCEPTION`, this file's oracle) `tecAMM_FAILED` (rules_cleanup340.rs).
fn world() -> World {
    let off = [
        ledgerd::protocol::features::Feature::LendingProtocolV1_1,
        ledgerd::protocol::features::Feature::FixCleanup3_4_0,
    ];
    let mut env = crate::rules::env_without(&off);
    let [gw, alice, carol, dave] = env.funded(["xGw", "xAlice", "xCarol", "xDave"]);
    let mpt = issue(&mut env, &gw, &[&alice, &carol, &dave]);
    let usd = |n| gw.iou("USD", n);
    let eur = |n| gw.iou("EUR", n);
    env.apply(&alice, amm_create(xrp(1_000), usd(1_000)), Ter::tesSUCCESS);
    env.apply(&alice, amm_create(usd(1_000), eur(1_000)), Ter::tesSUCCESS);
    let xrp_usd = Pool {
        a: Issue::XRP,
        b: usd(1).issue(),
    };
    let usd_eur = Pool {
        a: usd(1).issue(),
        b: eur(1).issue(),
    };
    for p in [xrp_usd, usd_eur] {
        let dep = pool_tx(&p, "AMMDeposit").flags(tf::SINGLE_ASSET);
        env.apply(&carol, dep.amount("Amount", usd(100)), Ter::tesSUCCESS);
    }
    let offer = Tx::new("OfferCreate")
        .amount("TakerPays", xrp(100))
        .amount("TakerGets", usd(90));
    env.apply(&alice, offer, Ter::tesSUCCESS);
    let mut w = World {
        env,
        gw,
        alice,
        carol,
        dave,
        mpt,
        xrp_usd,
        usd_eur,
        vaults: Vec::new(),
        brokers: Vec::new(),
        checks: Vec::new(),
    };
    for kind in [Kind::Xrp, Kind::Usd, Kind::Mpt] {
        lend(&mut w, kind);
    }
    for kind in [Kind::Xrp, Kind::Usd] {
        let (carol, dave) = (w.carol.clone(), w.dave.clone());
        let seq = w.env.seq(&carol);
        let create = set(check_create(&dave, xrp(1)), "SendMax", w.one(kind, 100));
        w.env.apply(&carol, create, Ter::tesSUCCESS);
        w.checks.push((keylet::check(&carol.id, seq), kind));
    }
    w.env.close();
    w
}

/// One transaction to try: who sends it, and a name for the report.
struct Case {
    name: String,
    who: Account,
    tx: Tx,
}

fn case(name: String, who: &Account, tx: Tx) -> Case {
    Case {
        name,
        who: who.clone(),
        tx,
    }
}

/// Results that only an internal failure gives.
fn is_internal(t: Ter) -> bool {
    matches!(
        t,
        Ter::tecINTERNAL
            | Ter::tefINTERNAL
            | Ter::tefEXCEPTION
            | Ter::tecINVARIANT_FAILED
            | Ter::tefINVARIANT_FAILED
            | Ter::tefBAD_LEDGER
            | Ter::tefFAILURE
    )
}

/// True when `name` is `{head}{v}{tail}` for one of `values`, whoever sent it.
fn named(name: &str, head: &str, values: &[&str], tail: &str) -> bool {
    values
        .iter()
        .any(|v| name.starts_with(&format!("{head}{v}{tail}")))
}

const BIG_USD: &[&str] = &["max", "1e80", "1e40", "1e20", "1e15"];

/// singleDepositEPrice's quadratic at the smallest EPrice, computed with the 19-digit
/// Number these rules select (SingleAssetVault on, rippled's `setCurrentTransactionRules`):
/// the cancellation leaves a deposit past the issued range, and STAmount throws (nothing
/// catches: tefEXCEPTION). With the 16-digit Number the same deposits end otherwise.
fn large_number_eprice(name: &str) -> bool {
    let e_min = "AMMDeposit USD/EUR LimitLPToken EPrice min ";
    named(name, e_min, &["1", "0"], " EUR by xCarol")
        || named(
            name,
            e_min,
            &["max", "1e80", "1e40", "1e20", "1e15", "1", "0"],
            " EUR by xGw",
        )
}

/// The cases where rippled itself ends in an internal result, and that result. rippled
/// throws where an amount outgrows its STAmount (drops past 10^17 or an i64, an issued
/// exponent past 80); what the throw becomes depends on who catches it.
fn rippled_internal(name: &str) -> Option<Ter> {
    // AMMDeposit::equalDepositTokens catches every exception as tecINTERNAL (fee
    // charged): LPTokenOut 10^15 and up asks the XRP/USD pool for more than 10^17 drops,
    // the largest LPTokenOut the USD/EUR pool for an issued value past 10^96.
    if named(
        name,
        "AMMDeposit XRP/USD LPToken LPTokenOut ",
        BIG_USD,
        " by",
    ) || named(
        name,
        "AMMDeposit USD/EUR LPToken LPTokenOut ",
        &["max"],
        " by",
    ) {
        return Some(Ter::tecINTERNAL);
    }
    // Nothing catches in AMMDeposit's other modes (tefEXCEPTION, not applied):
    // singleDepositTokens' ammAssetIn for the largest LPTokenOut, singleDepositEPrice's
    // quadratic for Amount 0 at the largest EPrice (a deposit near 10^201),
    // equalDepositLimit's LP tokens or XRP side for the issuer's huge Amount.
    let one_asset = ["max USD", "max EUR"]
        .map(|a| format!("AMMDeposit XRP/USD OneAssetLPToken {a} LPTokenOut "));
    let one_asset2 = ["max USD", "max EUR"]
        .map(|a| format!("AMMDeposit USD/EUR OneAssetLPToken {a} LPTokenOut "));
    if one_asset
        .iter()
        .chain(one_asset2.iter())
        .any(|h| named(name, h, &["max", "1e80"], " by xGw"))
        || named(
            name,
            "AMMDeposit XRP/USD LimitLPToken EPrice max 0 ",
            &["USD"],
            " by",
        )
        || named(
            name,
            "AMMDeposit USD/EUR LimitLPToken EPrice max 0 ",
            &["USD", "EUR"],
            " by",
        )
        || named(name, "AMMDeposit XRP/USD TwoAsset ", BIG_USD, " USD by xGw")
        || named(
            name,
            "AMMDeposit USD/EUR TwoAsset ",
            &["max"],
            " EUR by xGw",
        )
    {
        return Some(Ter::tefEXCEPTION);
    }
    if large_number_eprice(name) {
        return Some(Ter::tefEXCEPTION);
    }
    // AMMWithdraw::singleWithdrawEPrice (no try): tokens / EPrice at the smallest
    // EPrice is some 10^89 drops. AMMClawback::equalWithdrawMatchingOneAmount (no try):
    // the LP tokens matching the largest Amount pass 10^96.
    if named(
        name,
        "AMMWithdraw XRP/USD LimitLPToken EPrice min ",
        &["0", "1"],
        " drops by",
    ) || name == "AMMClawback XRP/USD max"
    {
        return Some(Ter::tefEXCEPTION);
    }
    // VaultWithdraw's catch takes only std::overflow_error: 10^18 or 2^63 - 1 shares of a
    // one-drop-a-share XRP vault are worth that many drops, which fit an i64 but not an
    // XRP STAmount (std::runtime_error from canonicalize): tefEXCEPTION.
    if named(
        name,
        "VaultWithdraw XRP vault ",
        &["2^63-1", "1e18"],
        " shares",
    ) {
        return Some(Ter::tefEXCEPTION);
    }
    // LoanSet::preclaim compares `STAmount{asset, principal}` with the principal: past
    // 10^17 drops or an i64, or 10^96 of an issued currency, the STAmount throws out of
    // preclaim (tefEXCEPTION).
    if named(
        name,
        "LoanSet XRP broker principal ",
        &["i64max e80", "1e20", "i64max"],
        "",
    ) || name == "LoanSet USD broker principal i64max e80"
    {
        return Some(Ter::tefEXCEPTION);
    }
    // An STNumber whose exponent no Number holds: rippled cannot even read such a
    // transaction (its `Number` constructor throws; `submit` answers invalidTransaction).
    // ledgerd's engine does not apply it either.
    if named(
        name,
        "LoanBrokerSet ",
        &["XRP", "USD"],
        " broker DebtMaximum 1e40000",
    ) || named(
        name,
        "VaultSet ",
        &["XRP", "USD", "MPT"],
        " vault AssetsMaximum 1e40000",
    ) {
        return Some(Ter::tefEXCEPTION);
    }
    None
}

/// Applies `c` to the world without keeping it; the result, or the panic's text.
fn dry_apply(w: &World, c: &Case) -> Result<Ter, String> {
    let fee = w.env.store.fees().base_drops as i64;
    let tx = Tx(c.tx.0.clone()).signed(&c.who.id, w.env.seq(&c.who), fee, &c.who.kp);
    let view = w.env.store.current().view;
    // A dry run (simulate), so that a LoanSet's empty co-signing key is accepted.
    let cfg = ApplyConfig {
        dry_run: true,
        ..ApplyConfig::default()
    };
    let id = Hash256([7; 32]);
    catch_unwind(AssertUnwindSafe(|| {
        apply_transaction(&view, &tx, &id, 0, &cfg).ter
    }))
    .map_err(|p| {
        p.downcast_ref::<String>()
            .cloned()
            .or_else(|| p.downcast_ref::<&str>().map(|s| s.to_string()))
            .unwrap_or_default()
    })
}

/// Runs every case; the failures, one line each.
fn run(w: &World, cases: Vec<Case>) -> Vec<String> {
    let mut bad = Vec::new();
    for c in &cases {
        match (dry_apply(w, c), rippled_internal(&c.name)) {
            (Err(p), _) => bad.push(format!("{}: panicked: {p}", c.name)),
            (Ok(t), Some(want)) if t != want => {
                bad.push(format!("{}: {t}, rippled gives {want}", c.name))
            }
            (Ok(t), None) if is_internal(t) => bad.push(format!("{}: {t}", c.name)),
            (Ok(t), _) => {
                if std::env::var_os("EXTREME_VERBOSE").is_some() {
                    eprintln!("{}: {t}", c.name);
                }
            }
        }
    }
    bad
}

fn assert_clean(bad: Vec<String>) {
    assert!(bad.is_empty(), "{} cases:\n{}", bad.len(), bad.join("\n"));
}

/// The edge amounts of one of `p`'s assets, named with its currency.
fn pool_edges(w: &World, issue: &Issue) -> Vec<(String, StValue)> {
    if issue.is_xrp() {
        return edges(w, Kind::Xrp);
    }
    let code = if issue.currency == cur("USD") {
        "USD"
    } else {
        "EUR"
    };
    iou_edges()
        .into_iter()
        .map(|(n, v)| {
            let a = Amount::iou(v, issue.currency, issue.issuer);
            (format!("{n} {code}"), StValue::Amount(a))
        })
        .collect()
}

/// `n` of `issue`.
fn some_of(issue: &Issue, n: i64) -> Amount {
    if issue.is_xrp() {
        xrp(n)
    } else {
        Amount::iou(IouValue::from_i64(n), issue.currency, issue.issuer)
    }
}

/// The other asset of `p`.
fn other(p: &Pool, issue: &Issue) -> Issue {
    if *issue == p.a {
        p.b
    } else {
        p.a
    }
}

fn pools(w: &World) -> [(&'static str, Pool); 2] {
    [("XRP/USD", w.xrp_usd), ("USD/EUR", w.usd_eur)]
}

/// Deposits by LP tokens (tfLPToken, and tfOneAssetLPToken with the largest Amount the
/// sender could name), for every edge LPTokenOut.
fn amm_deposit_token_cases(w: &World, out: &mut Vec<Case>) {
    for (pn, p) in pools(w) {
        for who in [&w.carol, &w.gw] {
            for (vn, v) in iou_edges() {
                let lpt = w.lpt(&p, v);
                let name = |m: &str| format!("AMMDeposit {pn} {m} LPTokenOut {vn} by {}", who.name);
                let t = pool_tx(&p, "AMMDeposit").flags(tf::LP_TOKEN);
                out.push(case(name("LPToken"), who, t.amount("LPTokenOut", lpt)));
                for issue in [p.a, p.b] {
                    let (an, big) = pool_edges(w, &issue).swap_remove(0);
                    let t = pool_tx(&p, "AMMDeposit").flags(tf::ONE_ASSET_LP_TOKEN);
                    let t = set(t.amount("LPTokenOut", lpt), "Amount", big);
                    out.push(case(name(&format!("OneAssetLPToken {an}")), who, t));
                }
            }
        }
    }
}

/// Deposits by amounts (tfSingleAsset, tfTwoAsset against 1,000 of the other asset,
/// tfLimitLPToken at the largest and smallest EPrice), for every edge Amount.
fn amm_deposit_amount_cases(w: &World, out: &mut Vec<Case>) {
    for (pn, p) in pools(w) {
        for who in [&w.carol, &w.gw] {
            for issue in [p.a, p.b] {
                for (vn, v) in pool_edges(w, &issue) {
                    let name = |m: &str| format!("AMMDeposit {pn} {m} {vn} by {}", who.name);
                    let tx =
                        |flags| set(pool_tx(&p, "AMMDeposit").flags(flags), "Amount", v.clone());
                    out.push(case(name("SingleAsset"), who, tx(tf::SINGLE_ASSET)));
                    let t = tx(tf::TWO_ASSET).amount("Amount2", some_of(&other(&p, &issue), 1_000));
                    out.push(case(name("TwoAsset"), who, t));
                    for (en, e) in [("max", 0usize), ("min", 6)] {
                        let ep = match pool_edges(w, &issue).swap_remove(e).1 {
                            StValue::Amount(Amount::Xrp(_)) => StValue::Amount(drops(1)),
                            ep => ep,
                        };
                        let t = set(tx(tf::LIMIT_LP_TOKEN), "EPrice", ep);
                        out.push(case(name(&format!("LimitLPToken EPrice {en}")), who, t));
                    }
                }
            }
        }
    }
}

/// Withdrawals in every mode, every edge amount in each amount field, by carol (an LP)
/// and alice (the pools' creator).
fn amm_withdraw_cases(w: &World, out: &mut Vec<Case>) {
    for (pn, p) in pools(w) {
        for who in [&w.carol, &w.alice] {
            let by = &who.name;
            for (vn, v) in iou_edges() {
                let lpt = w.lpt(&p, v);
                let t = pool_tx(&p, "AMMWithdraw")
                    .flags(tf::LP_TOKEN)
                    .amount("LPTokenIn", lpt);
                out.push(case(
                    format!("AMMWithdraw {pn} LPToken LPTokenIn {vn} by {by}"),
                    who,
                    t,
                ));
                for issue in [p.a, p.b] {
                    let t = pool_tx(&p, "AMMWithdraw").flags(tf::ONE_ASSET_LP_TOKEN);
                    let t = t
                        .amount("LPTokenIn", lpt)
                        .amount("Amount", some_of(&issue, 1));
                    let name = format!("AMMWithdraw {pn} OneAssetLPToken LPTokenIn {vn} by {by}");
                    out.push(case(name, who, t));
                }
            }
            for issue in [p.a, p.b] {
                for (vn, v) in pool_edges(w, &issue) {
                    let name = |m: &str| format!("AMMWithdraw {pn} {m} {vn} by {by}");
                    let tx =
                        |flags| set(pool_tx(&p, "AMMWithdraw").flags(flags), "Amount", v.clone());
                    out.push(case(name("SingleAsset"), who, tx(tf::SINGLE_ASSET)));
                    out.push(case(
                        name("OneAssetWithdrawAll"),
                        who,
                        tx(tf::ONE_ASSET_WITHDRAW_ALL),
                    ));
                    let t = tx(tf::TWO_ASSET).amount("Amount2", some_of(&other(&p, &issue), 1));
                    out.push(case(name("TwoAsset"), who, t));
                    for (en, e) in [("max", 0usize), ("min", 6)] {
                        let t =
                            tx(tf::LIMIT_LP_TOKEN).amount("EPrice", w.lpt(&p, iou_edges()[e].1));
                        out.push(case(name(&format!("LimitLPToken EPrice {en}")), who, t));
                    }
                }
            }
            let t = pool_tx(&p, "AMMWithdraw").flags(tf::WITHDRAW_ALL);
            out.push(case(
                format!("AMMWithdraw {pn} WithdrawAll by {by}"),
                who,
                t,
            ));
        }
    }
}

/// New pools of edge sizes: gw's own GBP against JPY and against XRP, carol's XRP
/// against the USD she holds.
fn amm_create_cases(w: &World, out: &mut Vec<Case>) {
    let gbp = |v: IouValue| Amount::iou(v, cur("GBP"), w.gw.id);
    let jpy = |v: IouValue| Amount::iou(v, cur("JPY"), w.gw.id);
    let edge = |i: usize| iou_edges()[i].1;
    for (vn, v) in iou_edges() {
        for (un, u) in [
            ("max", edge(0)),
            ("min", edge(6)),
            ("1", IouValue::from_i64(1)),
        ] {
            let t = amm_create(gbp(v), jpy(u));
            out.push(case(
                format!("AMMCreate GBP {vn} / JPY {un} by gw"),
                &w.gw,
                t,
            ));
        }
        for (dn, d) in xrp_edges() {
            let t = amm_create(drops(d), gbp(v));
            out.push(case(
                format!("AMMCreate {dn} drops / GBP {vn} by gw"),
                &w.gw,
                t,
            ));
            let t = amm_create(drops(d), w.usd(v));
            out.push(case(
                format!("AMMCreate {dn} drops / USD {vn} by carol"),
                &w.carol,
                t,
            ));
        }
    }
}

/// Bids with edge minimums and maximums, clawbacks of edge amounts, votes.
fn amm_other_cases(w: &World, out: &mut Vec<Case>) {
    for (pn, p) in pools(w) {
        for (vn, v) in iou_edges() {
            let lpt = w.lpt(&p, v);
            for field in ["BidMin", "BidMax"] {
                let t = pool_tx(&p, "AMMBid").amount(field, lpt);
                out.push(case(format!("AMMBid {pn} {field} {vn}"), &w.carol, t));
            }
            let other = if p.a == w.usd_n(1).issue() { p.b } else { p.a };
            let t = set(
                Tx::new("AMMClawback"),
                "Asset",
                StValue::Issue(w.usd_n(1).issue()),
            );
            let t = set(t, "Asset2", StValue::Issue(other))
                .account("Holder", &w.carol.id)
                .amount("Amount", w.usd(v));
            out.push(case(
                format!("AMMClawback {pn} {vn}"),
                &w.gw,
                Tx(t.0.clone()),
            ));
            out.push(case(
                format!("AMMClawback {pn} both {vn}"),
                &w.gw,
                t.flags(tf::CLAW_TWO_ASSETS),
            ));
        }
    }
}

/// Deposits, withdrawals (by assets and by shares, to oneself and to dave) and
/// clawbacks of edge amounts on every vault; deposits and withdrawals of edge cover on
/// every broker.
fn vault_cases(w: &World) -> Vec<Case> {
    let mut out = Vec::new();
    for v in &w.vaults {
        let vk = kind_name(v.kind);
        for (an, a) in edges(w, v.kind) {
            let dep = set(
                Tx::new("VaultDeposit").h256("VaultID", v.key),
                "Amount",
                a.clone(),
            );
            out.push(case(
                format!("VaultDeposit {vk} vault {an} by carol"),
                &w.carol,
                Tx(dep.0.clone()),
            ));
            out.push(case(
                format!("VaultDeposit {vk} vault {an} by gw"),
                &w.gw,
                dep,
            ));
            let wd = set(
                Tx::new("VaultWithdraw").h256("VaultID", v.key),
                "Amount",
                a.clone(),
            );
            out.push(case(
                format!("VaultWithdraw {vk} vault {an}"),
                &w.carol,
                Tx(wd.0.clone()),
            ));
            let to = wd.account("Destination", &w.dave.id);
            out.push(case(
                format!("VaultWithdraw {vk} vault {an} to dave"),
                &w.carol,
                to,
            ));
            let claw = set(Tx::new("VaultClawback").h256("VaultID", v.key), "Amount", a);
            let claw = claw.account("Holder", &w.carol.id);
            out.push(case(format!("VaultClawback {vk} vault {an}"), &w.gw, claw));
        }
        for (sn, n, neg) in mpt_edges() {
            let shares = MptAmount {
                value: n,
                negative: neg,
                id: v.share,
            };
            let wd = set(
                Tx::new("VaultWithdraw").h256("VaultID", v.key),
                "Amount",
                StValue::MptAmount(shares),
            );
            out.push(case(
                format!("VaultWithdraw {vk} vault {sn} shares"),
                &w.carol,
                wd,
            ));
        }
    }
    for b in &w.brokers {
        let bk = kind_name(b.kind);
        for (an, a) in edges(w, b.kind) {
            for name in ["LoanBrokerCoverDeposit", "LoanBrokerCoverWithdraw"] {
                let t = set(
                    Tx::new(name).h256("LoanBrokerID", b.key),
                    "Amount",
                    a.clone(),
                );
                out.push(case(format!("{name} {bk} broker {an}"), &w.alice, t));
            }
            let t = set(
                Tx::new("LoanBrokerCoverClawback").h256("LoanBrokerID", b.key),
                "Amount",
                a,
            );
            out.push(case(
                format!("LoanBrokerCoverClawback {bk} broker {an}"),
                &w.gw,
                t,
            ));
        }
    }
    out
}

/// STNumbers at the edges: past what a Number holds, the largest mantissa, tiny,
/// negative, zero.
fn number_edges() -> Vec<(&'static str, i64, i32)> {
    vec![
        ("1e40000", 1, 40_000),
        ("i64max e80", i64::MAX, 80),
        ("1e20", 1, 20),
        ("i64max", i64::MAX, 0),
        ("1", 1, 0),
        ("1e-200", 1, -200),
        ("0", 0, 0),
        ("-1", -1, 0),
    ]
}

fn st_number(m: i64, e: i32) -> StValue {
    let mut b = m.to_be_bytes().to_vec();
    b.extend_from_slice(&e.to_be_bytes());
    StValue::Fixed(b)
}

/// Loans asked of every broker for edge principals (co-signed by the broker's owner
/// with the empty key a dry run accepts), and edge DebtMaximum and AssetsMaximum.
fn loan_cases(w: &World) -> Vec<Case> {
    let mut out = Vec::new();
    let mut cosign = ledgerd::protocol::st::StObject::new();
    cosign.set(sf().signing_pub_key, StValue::Blob(Vec::new()));
    for b in &w.brokers {
        let bk = kind_name(b.kind);
        for (nn, m, e) in number_edges() {
            let t = Tx::new("LoanSet").h256("LoanBrokerID", b.key);
            let t = set(t, "PrincipalRequested", st_number(m, e));
            let t = set(t, "CounterpartySignature", StValue::Object(cosign.clone()));
            out.push(case(
                format!("LoanSet {bk} broker principal {nn}"),
                &w.carol,
                t,
            ));
            let t = Tx::new("LoanBrokerSet").h256("LoanBrokerID", b.key);
            let t = set(
                t.h256("VaultID", w.vaults[0].key),
                "DebtMaximum",
                st_number(m, e),
            );
            out.push(case(
                format!("LoanBrokerSet {bk} broker DebtMaximum {nn}"),
                &w.alice,
                t,
            ));
        }
    }
    for v in &w.vaults {
        for (nn, m, e) in number_edges() {
            let t = Tx::new("VaultSet").h256("VaultID", v.key);
            let t = set(t, "AssetsMaximum", st_number(m, e));
            let vk = kind_name(v.kind);
            out.push(case(
                format!("VaultSet {vk} vault AssetsMaximum {nn}"),
                &w.alice,
                t,
            ));
        }
    }
    out
}

/// Checks written and cashed for edge amounts; escrows of edge amounts of every kind.
fn check_escrow_cases(w: &World) -> Vec<Case> {
    let mut out = Vec::new();
    for kind in [Kind::Xrp, Kind::Usd, Kind::Mpt] {
        for (an, a) in edges(w, kind) {
            let t = set(check_create(&w.dave, xrp(1)), "SendMax", a.clone());
            out.push(case(format!("CheckCreate {an}"), &w.carol, t));
            let now = w.env.parent_close();
            let t = set(escrow_create(&w.dave, xrp(1)), "Amount", a.clone())
                .u32("FinishAfter", now + 10)
                .u32("CancelAfter", now + 100);
            out.push(case(
                format!("EscrowCreate {an}"),
                &w.carol,
                Tx(t.0.clone()),
            ));
            out.push(case(format!("EscrowCreate {an} by gw"), &w.gw, t));
        }
    }
    for (key, kind) in &w.checks {
        for (an, a) in edges(w, *kind) {
            for field in ["Amount", "DeliverMin"] {
                let t = set(Tx::new("CheckCash").h256("CheckID", *key), field, a.clone());
                out.push(case(format!("CheckCash {field} {an}"), &w.dave, t));
            }
        }
    }
    out
}

/// Payments with edge amounts and SendMax across the pools and the book, partial or
/// not; offers of edge sizes crossing them.
fn payment_offer_cases(w: &World) -> Vec<Case> {
    let mut out = Vec::new();
    let usd = edges(w, Kind::Usd);
    let xrps = edges(w, Kind::Xrp);
    let eurs = pool_edges(w, &w.eur_n(1).issue());
    for ((an, a), (_, eur)) in usd.iter().zip(eurs) {
        for (sn, s) in &xrps {
            for (fname, flags) in [
                ("", 0),
                (" partial", ledgerd::engine::payment::tf::PARTIAL_PAYMENT),
            ] {
                let t = set(pay(&w.dave, xrp(1)), "Amount", a.clone());
                let t = set(t, "SendMax", s.clone()).flags(flags);
                out.push(case(
                    format!("Payment {an} for {sn}{fname}"),
                    &w.carol,
                    Tx(t.0.clone()),
                ));
                out.push(case(
                    format!("Payment {an} for {sn}{fname} by gw"),
                    &w.gw,
                    t,
                ));
                let t = set(pay(&w.dave, xrp(1)), "Amount", s.clone());
                let t = set(t, "SendMax", a.clone()).flags(flags);
                out.push(case(
                    format!("Payment {sn} for {an}{fname}"),
                    &w.carol,
                    Tx(t.0.clone()),
                ));
                out.push(case(
                    format!("Payment {sn} for {an}{fname} by gw"),
                    &w.gw,
                    t,
                ));
            }
            let t = set(Tx::new("OfferCreate"), "TakerPays", a.clone());
            let t = set(t, "TakerGets", s.clone());
            out.push(case(
                format!("OfferCreate pays {an} gets {sn}"),
                &w.carol,
                Tx(t.0.clone()),
            ));
            let t = set(Tx::new("OfferCreate"), "TakerPays", s.clone());
            let t = set(t, "TakerGets", a.clone());
            out.push(case(
                format!("OfferCreate pays {sn} gets {an}"),
                &w.carol,
                Tx(t.0.clone()),
            ));
            out.push(case(
                format!("OfferCreate pays {sn} gets {an} by gw"),
                &w.gw,
                t,
            ));
        }
        let t = set(pay(&w.dave, xrp(1)), "Amount", eur);
        let t = set(t, "SendMax", a.clone()).flags(ledgerd::engine::payment::tf::PARTIAL_PAYMENT);
        out.push(case(
            format!("Payment EUR for USD {an} partial"),
            &w.carol,
            t,
        ));
    }
    for (an, a) in edges(w, Kind::Mpt) {
        let t = set(pay(&w.dave, xrp(1)), "Amount", a.clone());
        out.push(case(format!("Payment {an}"), &w.carol, Tx(t.0.clone())));
        out.push(case(format!("Payment {an} by gw"), &w.gw, Tx(t.0.clone())));
        out.push(case(
            format!("Payment {an} with SendMax"),
            &w.carol,
            set(t, "SendMax", a),
        ));
    }
    out
}

#[test]
fn amm_transactions_with_extreme_amounts() {
    let w = world();
    let mut cases = Vec::new();
    amm_deposit_token_cases(&w, &mut cases);
    amm_deposit_amount_cases(&w, &mut cases);
    amm_withdraw_cases(&w, &mut cases);
    amm_create_cases(&w, &mut cases);
    amm_other_cases(&w, &mut cases);
    assert_clean(run(&w, cases));
}

#[test]
fn vault_and_broker_transactions_with_extreme_amounts() {
    let w = world();
    let mut cases = vault_cases(&w);
    cases.extend(loan_cases(&w));
    assert_clean(run(&w, cases));
}

#[test]
fn check_escrow_payment_and_offer_transactions_with_extreme_amounts() {
    let w = world();
    let mut cases = check_escrow_cases(&w);
    cases.extend(payment_offer_cases(&w));
    assert_clean(run(&w, cases));
}

/// Every table case, for the property test to draw from.
fn all_cases(w: &World) -> Vec<Case> {
    let mut cases = Vec::new();
    amm_deposit_token_cases(w, &mut cases);
    amm_deposit_amount_cases(w, &mut cases);
    amm_withdraw_cases(w, &mut cases);
    amm_create_cases(w, &mut cases);
    amm_other_cases(w, &mut cases);
    cases.extend(vault_cases(w));
    cases.extend(loan_cases(w));
    cases.extend(check_escrow_cases(w));
    cases.extend(payment_offer_cases(w));
    cases
}

/// Where rippled's arithmetic can throw, and so what an extreme amount may end in once
/// earlier operations left the pools, vaults and books at any size: `tecINTERNAL` only
/// inside the try blocks that catch everything (AMMDeposit tfLPToken,
/// `equalWithdrawTokens`: AMMWithdraw tfLPToken and tfWithdrawAll, AMMClawback;
/// RippleCalc for a Payment, `flowCross` for an OfferCreate), `tefEXCEPTION` only where
/// an AMM, vault or CheckCash computation throws uncaught. Any other internal result is
/// a defect.
fn may_end_in(name: &str, t: Ter) -> bool {
    let amm = name.starts_with("AMM");
    let caught = name.starts_with("AMMDeposit") && name.contains(" LPToken LPTokenOut ")
        || name.starts_with("AMMWithdraw")
            && (name.contains(" LPToken LPTokenIn ") || name.contains(" WithdrawAll by"))
        || name.starts_with("AMMClawback")
        || name.starts_with("Payment")
        || name.starts_with("OfferCreate");
    match t {
        Ter::tecINTERNAL => caught,
        Ter::tefEXCEPTION => {
            amm || ["Vault", "CheckCash", "Loan"]
                .iter()
                .any(|p| name.starts_with(p))
        }
        t => !is_internal(t),
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, .. ProptestConfig::default() })]

    /// Random runs of extreme operations on one world: the issuer grows a pool or a
    /// vault to the edge of what an amount holds, then everyone works against it. No
    /// panic, no invariant failure, no internal result rippled would not give.
    #[test]
    fn sequences_of_extreme_operations(
        picks in proptest::collection::vec((any::<bool>(), any::<proptest::sample::Index>()), 1..24)
    ) {
        let mut w = world();
        let cases = all_cases(&w);
        let applied = applied_cases();
        let mut done = Vec::new();
        for (grow, pick) in picks {
            // Half the picks among what applies to the starting world (what grows the
            // pools and vaults), half among everything.
            let i = if grow { applied[pick.index(applied.len())] } else { pick.index(cases.len()) };
            let c = &cases[i];
            let drained = drained_pool(&w, &c.name);
            let t = w.env.submit(&c.who, Tx(c.tx.0.clone()));
            done.push(format!("{}: {t}", c.name));
            prop_assert!(
                may_end_in(&c.name, t) || drained && t == Ter::tecINTERNAL,
                "after\n{}", done.join("\n")
            );
        }
    }
}

/// True when `name` is an AMM transaction on a pool a swap has emptied on one side: a
/// payment of more than the pool holds, crossing a book whose tip is worse than any
/// price, takes the pool's whole side (rippled's `getAMMOfferStartWithTakerGets`
/// rounds the side it may take to all of it, and `swapAssetOut` prices that at the
/// largest amount). AMMDeposit's and AMMWithdraw's preclaims then answer tecINTERNAL in
/// rippled too ("reserves or tokens balance is zero").
fn drained_pool(w: &World, name: &str) -> bool {
    let pool = match name.split(' ').nth(1) {
        Some("XRP/USD") => w.xrp_usd,
        Some("USD/EUR") => w.usd_eur,
        _ => return false,
    };
    let Some(amm) = w.env.read(&amm::amm_key(&pool.a, &pool.b)) else {
        return false;
    };
    let view = w.env.store.current().view;
    let acct = amm.account_of(sf().account).unwrap_or_default();
    name.starts_with("AMM")
        && [pool.a, pool.b]
            .iter()
            .any(|i| ledgerd::engine::funds::account_holds(&view, &acct, i, false).is_zero())
}

/// The table cases that succeed on the starting world, by index in [`all_cases`].
fn applied_cases() -> &'static [usize] {
    static APPLIED: std::sync::OnceLock<Vec<usize>> = std::sync::OnceLock::new();
    APPLIED.get_or_init(|| {
        let w = world();
        let cases = all_cases(&w);
        (0..cases.len())
            .filter(|&i| dry_apply(&w, &cases[i]) == Ok(Ter::tesSUCCESS))
            .collect()
    })
}

/// An offer whose rate overflows `getRate` (10^17 drops for 10^-81 USD) sits at
/// quality 0, as in rippled; a payment crossing it has no rate to divide by (rippled's
/// `divRoundStrict` throws "division by zero"), which RippleCalc and `flowCross` answer
/// tecINTERNAL with the fee charged. ledgerd used to take the whole offer instead,
/// crediting the owner 10^17 drops the payer never had (caught as tecINVARIANT_FAILED).
#[test]
fn crossing_an_offer_placed_at_quality_zero() {
    let mut env = Env::new();
    let [gw, carol, dave] = env.funded(["qGw", "qCarol", "qDave"]);
    env.apply(&gw, fset(asf::DEFAULT_RIPPLE), Ter::tesSUCCESS);
    for h in [&carol, &dave] {
        env.apply(h, trust(gw.iou("USD", 1_000_000)), Ter::tesSUCCESS);
    }
    env.apply(&gw, pay(&carol, gw.iou("USD", 1000)), Ter::tesSUCCESS);
    let seq = env.seq(&carol);
    let offer = Tx::new("OfferCreate")
        .amount("TakerPays", drops(100_000_000_000_000_000))
        .amount("TakerGets", gw.iou_s("USD", "1e-81"));
    env.apply(&carol, offer, Ter::tesSUCCESS);
    let dir = env
        .read(&keylet::offer(&carol.id, seq))
        .and_then(|o| o.h256_of(sf().book_directory))
        .expect("placed");
    assert_eq!(ledgerd::ledger::keylet::book_quality_of(&dir), 0);
    let partial = ledgerd::engine::payment::tf::PARTIAL_PAYMENT;
    let p = pay(&dave, gw.iou("USD", 1_000_000))
        .amount("SendMax", drops(99_999_999_999_999_999))
        .flags(partial);
    let before = env.balance(&carol);
    env.apply(&carol, p, Ter::tecINTERNAL);
    assert_eq!(env.balance(&carol), before - FEE);
    // An offer crossing it from the other side.
    let cross = Tx::new("OfferCreate")
        .amount("TakerPays", gw.iou_s("USD", "1e-81"))
        .amount("TakerGets", xrp(1_000));
    let before = env.balance(&dave);
    env.apply(&dave, cross, Ter::tecINTERNAL);
    assert_eq!(env.balance(&dave), before - FEE);
}

/// An issuer's single-asset deposit of the largest EUR leaves the pool's line at the
/// largest issued value; a second deposit into it overflows the line's balance, where
/// rippled's STAmount subtraction throws. `singleDepositTokens` has no try:
/// tefEXCEPTION, where ledgerd answered tecINTERNAL.
#[test]
fn a_pool_balance_past_the_largest_issued_value() {
    let mut w = world();
    let cases = all_cases(&w);
    let named_case = |n: &str| cases.iter().find(|c| c.name == n).expect(n);
    let grow = named_case("AMMDeposit USD/EUR SingleAsset max EUR by xGw");
    let gw = w.gw.clone();
    assert_eq!(w.env.submit(&gw, Tx(grow.tx.0.clone())), Ter::tesSUCCESS);
    let next = named_case("AMMDeposit USD/EUR OneAssetLPToken max EUR LPTokenOut 1e40 by xGw");
    let seq = w.env.seq(&gw);
    assert_eq!(w.env.submit(&gw, Tx(next.tx.0.clone())), Ter::tefEXCEPTION);
    assert_eq!(w.env.seq(&gw), seq, "not applied");
}
