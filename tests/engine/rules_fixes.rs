//! Four amendments gated both ways, each with the story rippled tells for it run under
//! the rules without and with it: fixPreviousTxnID (which entry types metadata threads),
//! fixFrozenLPTokenTransfer (rippled's `LPTokenTransfer_test.cpp`, case by case, with its
//! numbers), fixPriceOracleOrder (the series order `Oracle_test.cpp` checks) and
//! fixInnerObjTemplate2 (which changes nothing ledgerd can show: the stories prove it).

use crate::rules::env_without;
use crate::support;

use ledgerd::engine::account_set::asf;
use ledgerd::engine::amm::{self, tf as amm_tf};
use ledgerd::engine::nftoken_create_offer::tf as offer_tf;
use ledgerd::engine::nftoken_mint::tf as mint_tf;
use ledgerd::engine::offer_create::tf as dex_tf;
use ledgerd::engine::payment::tf as pay_tf;
use ledgerd::engine::trust_set::tf as trust_tf;
use ledgerd::engine::{nft, Ter};
use ledgerd::ledger::keylet;
use ledgerd::ledger::sf::{sf, StExt};
use ledgerd::ledger::view::ReadView;
use ledgerd::protocol::amount::{Amount, IouValue};
use ledgerd::protocol::codec;
use ledgerd::protocol::definitions::Field;
use ledgerd::protocol::features::Feature;
use ledgerd::protocol::permission::value_of_name;
use ledgerd::protocol::st::{StObject, StValue};
use ledgerd::protocol::time::RIPPLE_EPOCH_OFFSET_SECS;
use ledgerd::protocol::types::{AccountId, Hash256, Issue};
use support::engine::*;

/// Ledgerd's rule book with `f` on, or with it off.
fn env_with(f: Feature, on: bool) -> Env {
    if on {
        env_without(&[])
    } else {
        env_without(&[f])
    }
}

/// The open ledger's sequence.
fn ledger_seq(env: &Env) -> u32 {
    env.store.current().view.info().seq
}

/// The last transaction's affected node for `key`: its wrapper's name and its object.
fn node(env: &Env, key: &Hash256) -> (&'static str, StObject) {
    let meta = env.last_meta.as_ref().expect("metadata");
    meta.get_array("AffectedNodes")
        .expect("AffectedNodes")
        .iter()
        .find(|(_, o)| o.h256_of(sf().ledger_index) == Some(*key))
        .map(|(f, o)| (f.name(), o.clone()))
        .unwrap_or_else(|| panic!("no node for {}", key.to_hex()))
}

fn inner<'a>(o: &'a StObject, name: &str) -> Option<&'a StObject> {
    match o.get(Field::named(name)) {
        Some(StValue::Object(x)) => Some(x),
        _ => None,
    }
}

/// The threading fields an entry or a node carries.
fn thread_of(o: &StObject) -> Option<(Hash256, u32)> {
    let s = sf();
    Some((
        o.h256_of(s.previous_txn_id)?,
        o.u32_of(s.previous_txn_lgr_seq)?,
    ))
}

// ---------------------------------------------------------------------------------------
// fixPreviousTxnID: DirectoryNode, Amendments, FeeSettings, NegativeUNL and AMM entries
// are threaded (rippled `STLedgerEntry::isThreadedType`) only under it.

mod previous_txn_id {
    use super::*;

    /// What the two transactions of the owner directory story left: the first's ID and
    /// ledger, and the second's ModifiedNode of the directory.
    struct DirStory {
        first: (Hash256, u32),
        second: (Hash256, u32),
        created_dir: StObject,
        modified_dir: StObject,
        modified_root: StObject,
        stored_after: Option<(Hash256, u32)>,
    }

    /// alice's TrustSet creates her owner directory; a ledger later her TicketCreate adds
    /// to it.
    fn dir_story(on: bool) -> DirStory {
        let mut env = env_with(Feature::FixPreviousTxnID, on);
        let [gw, alice] = env.funded(["gateway", "alice"]);
        env.close();
        let dir = keylet::owner_dir(&alice.id);
        let seq1 = ledger_seq(&env);
        env.apply(&alice, trust(gw.iou("USD", 1_000)), Ter::tesSUCCESS);
        let id1 = env.last_id.expect("id");
        let (wrapper, created_dir) = node(&env, &dir);
        assert_eq!(wrapper, "CreatedNode");
        let stored = thread_of(&env.read(&dir).expect("directory"));
        assert_eq!(stored, on.then_some((id1, seq1)), "threaded at creation");
        env.close();
        let seq2 = ledger_seq(&env);
        env.apply(&alice, ticket_create(1), Ter::tesSUCCESS);
        let id2 = env.last_id.expect("id");
        let (wrapper, modified_dir) = node(&env, &dir);
        assert_eq!(wrapper, "ModifiedNode");
        let (_, modified_root) = node(&env, &keylet::account(&alice.id));
        DirStory {
            first: (id1, seq1),
            second: (id2, seq2),
            created_dir,
            modified_dir,
            modified_root,
            stored_after: thread_of(&env.read(&dir).expect("directory")),
        }
    }

    #[test]
    fn an_owner_directory_is_threaded_only_under_the_fix() {
        let off = dir_story(false);
        let on = dir_story(true);
        assert_eq!(off.first, on.first, "the same transactions in both ledgers");
        // A new directory's NewFields never list the threading fields (sMD_DeleteFinal).
        for created in [&off.created_dir, &on.created_dir] {
            let news = inner(created, "NewFields").expect("NewFields");
            assert!(thread_of(news).is_none() && news.get(sf().previous_txn_id).is_none());
        }
        assert_eq!(
            codec::encode(&off.created_dir),
            codec::encode(&on.created_dir)
        );
        // Without the fix the ModifiedNode carries no thread and the entry none.
        assert_eq!(thread_of(&off.modified_dir), None);
        assert_eq!(off.stored_after, None);
        // With it, the node names the previous transaction, the entry the new one; the
        // rest of the node is the same byte for byte.
        assert_eq!(thread_of(&on.modified_dir), Some(on.first));
        assert_eq!(on.stored_after, Some(on.second));
        let finals = inner(&on.modified_dir, "FinalFields").expect("FinalFields");
        assert!(
            finals.get(sf().previous_txn_id).is_none(),
            "not a final field"
        );
        let mut want = off.modified_dir.clone();
        want.set(sf().previous_txn_id, StValue::Hash256(on.first.0));
        want.set(sf().previous_txn_lgr_seq, StValue::UInt32(on.first.1));
        assert_eq!(codec::encode(&want), codec::encode(&on.modified_dir));
        // Account roots were always threaded.
        assert_eq!(
            codec::encode(&off.modified_root),
            codec::encode(&on.modified_root)
        );
        assert!(thread_of(&on.modified_root).is_some());
    }

    /// A directory made before the fix and changed after it: the entry gets its thread,
    /// the ModifiedNode none (its previous transaction is unknown, rippled's zero).
    #[test]
    fn a_directory_from_before_the_fix_is_threaded_from_its_next_change() {
        let mut env = env_with(Feature::FixPreviousTxnID, false);
        let [gw, alice] = env.funded(["gateway", "alice"]);
        env.apply(&alice, trust(gw.iou("USD", 1_000)), Ter::tesSUCCESS);
        env.close();
        let dir = keylet::owner_dir(&alice.id);
        assert_eq!(thread_of(&env.read(&dir).expect("directory")), None);
        // The same ledger, reopened under rules that hold the fix.
        let (header, entries) = env.store.export_closed();
        let bytes = entries
            .iter()
            .map(|(k, v)| (*k, codec::encode(v)))
            .collect();
        let cfg = ledgerd::ledgers::LedgerConfig::default();
        let store = ledgerd::ledgers::Ledgers::from_snapshot_bytes(cfg, header, bytes)
            .expect("the same ledger");
        assert!(store.rules().enabled(Feature::FixPreviousTxnID));
        let mut env = Env {
            store,
            master: Account::master(),
            last_meta: None,
            last_id: None,
            now: env.now,
        };
        let seq = ledger_seq(&env);
        env.apply(&alice, ticket_create(1), Ter::tesSUCCESS);
        let id = env.last_id.expect("id");
        let (wrapper, modified) = node(&env, &dir);
        assert_eq!(wrapper, "ModifiedNode");
        assert_eq!(thread_of(&modified), None);
        assert_eq!(
            thread_of(&env.read(&dir).expect("directory")),
            Some((id, seq))
        );
    }

    /// AMMCreate, then a deposit: under the fix the AMM entry is threaded.
    fn amm_story(on: bool) -> (Hash256, Option<(Hash256, u32)>, StObject, StObject) {
        let mut env = env_with(Feature::FixPreviousTxnID, on);
        let [gw, alice, carol] = env.funded(["gateway", "alice", "carol"]);
        env.apply(&gw, fset(asf::DEFAULT_RIPPLE), Ter::tesSUCCESS);
        for who in [&alice, &carol] {
            env.apply(who, trust(gw.iou("USD", 100_000)), Ter::tesSUCCESS);
            env.apply(&gw, pay(who, gw.iou("USD", 5_000)), Ter::tesSUCCESS);
        }
        env.close();
        let (x, usd) = (xrp(1_000), gw.iou("USD", 1_000));
        let seq = ledger_seq(&env);
        env.apply(&alice, amm_create(x, usd), Ter::tesSUCCESS);
        let created = env.last_id.expect("id");
        let key = amm::amm_key(&x.issue(), &usd.issue());
        let stored = thread_of(&env.read(&key).expect("AMM"));
        assert_eq!(stored, on.then_some((created, seq)));
        let (_, created_node) = node(&env, &key);
        env.close();
        let deposit = pool_tx("AMMDeposit", x.issue(), usd.issue())
            .flags(amm_tf::TWO_ASSET)
            .amount("Amount", xrp(100))
            .amount("Amount2", gw.iou("USD", 100));
        env.apply(&carol, deposit, Ter::tesSUCCESS);
        let (wrapper, modified) = node(&env, &key);
        assert_eq!(wrapper, "ModifiedNode");
        (created, stored, created_node, modified)
    }

    /// The field names of a node and of its inner objects.
    fn shape(o: &StObject) -> Vec<String> {
        let mut names = Vec::new();
        for (f, v) in o.iter() {
            names.push(f.name().to_string());
            if let StValue::Object(x) = v {
                names.extend(shape(x).into_iter().map(|n| format!("{}.{n}", f.name())));
            }
        }
        names
    }

    #[test]
    fn an_amm_entry_is_threaded_only_under_the_fix() {
        let (id_off, stored_off, created_off, off) = amm_story(false);
        let (id_on, stored_on, created_on, on) = amm_story(true);
        // The ledgers' hashes differ (their directories do), so the pseudo-accounts,
        // which rippled derives from the parent hash, do too: compare the nodes' shapes.
        assert_eq!(id_off, id_on);
        assert_eq!(stored_off, None);
        assert_eq!(shape(&created_off), shape(&created_on));
        assert!(!shape(&created_on).iter().any(|n| n.contains("PreviousTxn")));
        assert_eq!(thread_of(&off), None);
        assert_eq!(thread_of(&on), stored_on);
        let mut want = off.clone();
        let (id, seq) = stored_on.expect("threaded");
        want.set(sf().previous_txn_id, StValue::Hash256(id));
        want.set(sf().previous_txn_lgr_seq, StValue::UInt32(seq));
        assert_eq!(shape(&want), shape(&on));
    }
}

fn ticket_create(count: u32) -> Tx {
    Tx::new("TicketCreate").u32("TicketCount", count)
}

fn with_issue(mut tx: Tx, name: &str, i: Issue) -> Tx {
    tx.0.set(Field::named(name), StValue::Issue(i));
    tx
}

fn pool_tx(name: &str, a: Issue, b: Issue) -> Tx {
    with_issue(with_issue(Tx::new(name), "Asset", a), "Asset2", b)
}

/// AMMCreate with no trading fee; its fee is the owner reserve increment these ledgers
/// charge for it.
fn amm_create(a: Amount, b: Amount) -> Tx {
    let mut tx = Tx::new("AMMCreate")
        .amount("Amount", a)
        .amount("Amount2", b)
        .amount("Fee", Amount::Xrp(2_000_000));
    tx.0.set(Field::named("TradingFee"), StValue::UInt16(0));
    tx
}

// ---------------------------------------------------------------------------------------
// fixFrozenLPTokenTransfer: rippled's LPTokenTransfer_test.cpp, each case under
// `all - fixFrozenLPTokenTransfer` and `all`.

mod frozen_lp_tokens {
    use super::*;

    /// rippled's `AMMTestBase` world: gw issues; every account holds 30,000 XRP.
    struct World {
        env: Env,
        on: bool,
        gw: Account,
        alice: Account,
        bob: Account,
        carol: Account,
    }

    fn world(on: bool) -> World {
        let mut env = env_with(Feature::FixFrozenLPTokenTransfer, on);
        let [gw, alice, bob, carol] = ["gateway", "alice", "bob", "carol"].map(Account::new);
        for a in [&gw, &alice, &bob, &carol] {
            env.fund(a, xrp(30_000));
        }
        env.apply(&gw, fset(asf::DEFAULT_RIPPLE), Ter::tesSUCCESS);
        env.close();
        World {
            env,
            on,
            gw,
            alice,
            bob,
            carol,
        }
    }

    impl World {
        /// `who` trusts gw for `amount` and gets it (jtx `fund`'s lines and payments).
        fn issue(&mut self, who: &Account, amount: Amount) {
            let limit = Amount::iou(val("1000000000"), amount.issue().currency, self.gw.id);
            self.env.apply(who, trust(limit), Ter::tesSUCCESS);
            self.env.apply(&self.gw, pay(who, amount), Ter::tesSUCCESS);
        }
        fn usd(&self, v: &str) -> Amount {
            self.gw.iou_s("USD", v)
        }
        fn eur(&self, v: &str) -> Amount {
            self.gw.iou_s("EUR", v)
        }
        /// gw freezes or unfreezes `who`'s USD line (limit `limit`).
        fn freeze_usd(&mut self, who: &Account, freeze: bool, limit: &str) {
            let flag = if freeze {
                trust_tf::SET_FREEZE
            } else {
                trust_tf::CLEAR_FREEZE
            };
            let line = Amount::iou(val(limit), cur("USD"), who.id);
            let gw = self.gw.clone();
            self.env
                .apply(&gw, trust(line).flags(flag), Ter::tesSUCCESS);
            self.env.close();
        }
        fn offers(&self, who: &Account) -> usize {
            self.env
                .owned(who)
                .iter()
                .filter_map(|k| self.env.read(k))
                .filter(|o| o.u16_of(sf().ledger_entry_type) == Some(0x006f))
                .count()
        }
    }

    /// An AMM of the pair `a` / `b`.
    #[derive(Clone, Copy)]
    struct Pool {
        a: Issue,
        b: Issue,
    }

    impl Pool {
        fn create(w: &mut World, who: &Account, a: Amount, b: Amount) -> Pool {
            w.env.apply(who, amm_create(a, b), Ter::tesSUCCESS);
            w.env.close();
            Pool {
                a: a.issue(),
                b: b.issue(),
            }
        }
        fn account(&self, env: &Env) -> AccountId {
            env.read(&amm::amm_key(&self.a, &self.b))
                .and_then(|o| o.account_of(sf().account))
                .expect("AMM")
        }
        fn lpt(&self, env: &Env, v: &str) -> Amount {
            let cur = amm::lpt_currency(&self.a.currency, &self.b.currency);
            Amount::iou(val(v), cur, self.account(env))
        }
        /// `who` deposits for `tokens` LP tokens (jtx `AMM::deposit(who, tokens)`).
        fn deposit(&self, w: &mut World, who: &Account, tokens: &str) {
            let tx = pool_tx("AMMDeposit", self.a, self.b)
                .flags(amm_tf::LP_TOKEN)
                .amount("LPTokenOut", self.lpt(&w.env, tokens));
            w.env.apply(who, tx, Ter::tesSUCCESS);
            w.env.close();
        }
        /// The pool's balances and its LPTokenBalance.
        fn balances(&self, env: &Env) -> (Amount, Amount, IouValue) {
            let acct = self.account(env);
            let view = env.store.current().view;
            let held = |i: &Issue| ledgerd::engine::funds::account_holds(&view, &acct, i, false);
            let lpt = env
                .read(&amm::amm_key(&self.a, &self.b))
                .and_then(|o| o.amount_of(sf().lp_token_balance))
                .and_then(|x| x.as_iou())
                .expect("LPTokenBalance");
            (held(&self.a), held(&self.b), lpt)
        }
        /// `who`'s LP tokens.
        fn held(&self, env: &Env, who: &Account) -> IouValue {
            let acct = self.account(env);
            let cur = amm::lpt_currency(&self.a.currency, &self.b.currency);
            env.read(&keylet::line(&who.id, &acct, &cur))
                .map(|l| ledgerd::engine::ripple::balance_for(&l, &who.id, &acct))
                .unwrap_or(IouValue::ZERO)
        }
    }

    fn offer(pays: Amount, gets: Amount) -> Tx {
        Tx::new("OfferCreate")
            .amount("TakerPays", pays)
            .amount("TakerGets", gets)
    }

    /// testDirectStep: carol, whose USD is frozen, may receive LP tokens of the USD/BTC
    /// pool; under the fix she can no longer send them.
    fn direct_step(on: bool) {
        let mut w = world(on);
        let (alice, bob, carol) = (w.alice.clone(), w.bob.clone(), w.carol.clone());
        let gw = w.gw.clone();
        let btc = |v: &str| gw.iou_s("BTC", v);
        let (u, b) = (w.usd("20000"), btc("0.5"));
        w.issue(&alice, u);
        w.issue(&alice, b);
        w.env.close();
        let pool = Pool::create(&mut w, &alice, u, b);
        let bal = |w: &World| pool.balances(&w.env);
        assert_eq!(bal(&w), (w.usd("20000"), btc("0.5"), val("100")));
        for who in [&carol, &bob] {
            let (u, b) = (w.usd("4000"), btc("1"));
            w.issue(who, u);
            w.issue(who, b);
            w.env.close();
            pool.deposit(&mut w, who, "10");
        }
        assert_eq!(bal(&w), (w.usd("24000"), btc("0.6"), val("120")));
        for who in [&alice, &bob, &carol] {
            let limit = pool.lpt(&w.env, "500");
            w.env.apply(who, trust(limit), Ter::tesSUCCESS);
        }
        w.env.close();
        w.freeze_usd(&carol, true, "0");
        // bob still pays carol LP tokens: receiving is not affected, fix or not.
        let five = pool.lpt(&w.env, "5");
        w.env.apply(&bob, pay(&carol, five), Ter::tesSUCCESS);
        w.env.close();
        // Never to the AMM account itself.
        let amm_acct = Account {
            id: pool.account(&w.env),
            ..carol.clone()
        };
        w.env
            .apply(&carol, pay(&amm_acct, five), Ter::tecNO_PERMISSION);
        w.env.close();
        let want = if w.on {
            Ter::tecPATH_DRY
        } else {
            Ter::tesSUCCESS
        };
        w.env.apply(&carol, pay(&bob, five), want);
        let carol_has = if w.on { "15" } else { "10" };
        assert_eq!(pool.held(&w.env, &carol), val(carol_has));
    }

    #[test]
    fn direct_step_without_the_fix() {
        direct_step(false);
    }

    #[test]
    fn direct_step_with_the_fix() {
        direct_step(true);
    }

    /// The USD/EUR pool of the remaining cases: alice creates USD(10,000)/EUR(10,000),
    /// carol and bob deposit for 1,000 LP tokens each.
    fn usd_eur_world(on: bool) -> (World, Pool) {
        let mut w = world(on);
        for who in [w.alice.clone(), w.bob.clone(), w.carol.clone()] {
            let (u, e) = (w.usd("10000"), w.eur("10000"));
            w.issue(&who, u);
            w.issue(&who, e);
        }
        w.env.close();
        let alice = w.alice.clone();
        let (u, e) = (w.usd("10000"), w.eur("10000"));
        let pool = Pool::create(&mut w, &alice, u, e);
        for who in [w.carol.clone(), w.bob.clone()] {
            pool.deposit(&mut w, &who, "1000");
        }
        (w, pool)
    }

    /// testBookStep: carol's offer selling LP tokens cannot be taken while her USD is
    /// frozen, under the fix; her offer buying them always can.
    fn book_step(on: bool) {
        let (mut w, pool) = usd_eur_world(on);
        let (alice, bob, carol) = (w.alice.clone(), w.bob.clone(), w.carol.clone());
        let lpt10 = pool.lpt(&w.env, "10");
        let sell = offer(xrp(10), lpt10).flags(dex_tf::PASSIVE);
        w.env.apply(&carol, sell, Ter::tesSUCCESS);
        w.env.close();
        assert_eq!(w.offers(&carol), 1);
        for who in [&alice, &bob, &carol] {
            let limit = pool.lpt(&w.env, "1000000000");
            w.env.apply(who, trust(limit), Ter::tesSUCCESS);
        }
        w.env.close();
        w.freeze_usd(&carol, true, "0");
        let take = || {
            pay(&bob, lpt10)
                .flags(pay_tf::PARTIAL_PAYMENT)
                .amount("SendMax", xrp(10))
        };
        if w.on {
            w.env.apply(&alice, take(), Ter::tecPATH_DRY);
            w.env.close();
            assert_eq!(w.offers(&carol), 1);
            w.freeze_usd(&carol, false, "1000000000");
            w.env.apply(&alice, take(), Ter::tesSUCCESS);
        } else {
            w.env.apply(&alice, take(), Ter::tesSUCCESS);
        }
        w.env.close();
        assert_eq!(w.offers(&carol), 0);
        assert_eq!(pool.held(&w.env, &bob), val("1010"));
        w.freeze_usd(&carol, false, "1000000000");
        // carol's offer to buy LP tokens is taken while her USD is frozen, fix or not.
        let buy = offer(lpt10, xrp(10)).flags(dex_tf::PASSIVE);
        w.env.apply(&carol, buy, Ter::tesSUCCESS);
        w.env.close();
        assert_eq!(w.offers(&carol), 1);
        w.freeze_usd(&carol, true, "0");
        let give = pay(&bob, xrp(10))
            .flags(pay_tf::PARTIAL_PAYMENT)
            .amount("SendMax", lpt10);
        w.env.apply(&alice, give, Ter::tesSUCCESS);
        w.env.close();
        assert_eq!(w.offers(&carol), 0);
    }

    #[test]
    fn book_step_without_the_fix() {
        book_step(false);
    }

    #[test]
    fn book_step_with_the_fix() {
        book_step(true);
    }

    /// testOfferCreation: under the fix carol cannot offer LP tokens while her USD is
    /// frozen; she can always offer to buy them.
    fn offer_creation(on: bool) {
        let (mut w, pool) = usd_eur_world(on);
        let carol = w.carol.clone();
        let lpt10 = pool.lpt(&w.env, "10");
        w.freeze_usd(&carol, true, "0");
        let sell = || offer(xrp(10), lpt10).flags(dex_tf::PASSIVE);
        if w.on {
            w.env.apply(&carol, sell(), Ter::tecUNFUNDED_OFFER);
            w.env.close();
            assert_eq!(w.offers(&carol), 0);
            w.freeze_usd(&carol, false, "1000000000");
        }
        w.env.apply(&carol, sell(), Ter::tesSUCCESS);
        w.env.close();
        assert_eq!(w.offers(&carol), 1);
        w.freeze_usd(&carol, true, "0");
        let buy = offer(lpt10, xrp(5)).flags(dex_tf::PASSIVE);
        w.env.apply(&carol, buy, Ter::tesSUCCESS);
        w.env.close();
        assert_eq!(w.offers(&carol), 2);
    }

    #[test]
    fn offer_creation_without_the_fix() {
        offer_creation(false);
    }

    #[test]
    fn offer_creation_with_the_fix() {
        offer_creation(true);
    }

    /// testOfferCrossing: two XRP pools' LP tokens traded between alice and carol; once
    /// carol's USD is frozen her offer of the XRP/USD pool's tokens no longer crosses,
    /// under the fix (and goes, unfunded).
    fn offer_crossing(on: bool) {
        let mut w = world(on);
        let (alice, carol) = (w.alice.clone(), w.carol.clone());
        for who in [&alice, &carol] {
            let u = w.usd("10000");
            w.issue(who, u);
        }
        w.env.close();
        let u = w.usd("10000");
        let pool1 = Pool::create(&mut w, &alice, xrp(10_000), u);
        pool1.deposit(&mut w, &carol, "10000000");
        for who in [&alice, &carol] {
            let e = w.eur("10000");
            w.issue(who, e);
        }
        w.env.close();
        let e = w.eur("10000");
        let pool2 = Pool::create(&mut w, &alice, xrp(10_000), e);
        pool2.deposit(&mut w, &carol, "10000000");
        let (t1, t2) = (pool1.lpt(&w.env, "100"), pool2.lpt(&w.env, "100"));
        w.env.apply(&carol, offer(t2, t1), Ter::tesSUCCESS);
        w.env.close();
        assert_eq!(w.offers(&carol), 1);
        w.freeze_usd(&carol, true, "0");
        w.env.apply(&alice, offer(t1, t2), Ter::tesSUCCESS);
        w.env.close();
        let held = |who: &Account| (pool1.held(&w.env, who), pool2.held(&w.env, who));
        if w.on {
            assert_eq!(held(&alice), (val("10000000"), val("10000000")));
            assert_eq!(held(&carol), (val("10000000"), val("10000000")));
            assert_eq!((w.offers(&alice), w.offers(&carol)), (1, 0));
        } else {
            assert_eq!(held(&alice), (val("10000100"), val("9999900")));
            assert_eq!(held(&carol), (val("9999900"), val("10000100")));
            assert_eq!((w.offers(&alice), w.offers(&carol)), (0, 0));
        }
    }

    #[test]
    fn offer_crossing_without_the_fix() {
        offer_crossing(false);
    }

    #[test]
    fn offer_crossing_with_the_fix() {
        offer_crossing(true);
    }

    /// testCheck: carol writes bob a check of LP tokens while her USD is frozen; under
    /// the fix bob cannot cash it.
    fn check(on: bool) {
        let (mut w, pool) = usd_eur_world(on);
        let (bob, carol) = (w.bob.clone(), w.carol.clone());
        let lpt10 = pool.lpt(&w.env, "10");
        w.freeze_usd(&carol, true, "0");
        let check = keylet::check(&carol.id, w.env.seq(&carol));
        w.env
            .apply(&carol, check_create(&bob, lpt10), Ter::tesSUCCESS);
        w.env.close();
        let want = if w.on {
            Ter::tecPATH_PARTIAL
        } else {
            Ter::tesSUCCESS
        };
        w.env.apply(&bob, check_cash(check, lpt10), want);
        let bob_has = if w.on { "1000" } else { "1010" };
        assert_eq!(pool.held(&w.env, &bob), val(bob_has));
    }

    #[test]
    fn check_without_the_fix() {
        check(false);
    }

    #[test]
    fn check_with_the_fix() {
        check(true);
    }

    /// testNFTOffers: NFT offers paid in LP tokens, accepted and made by holders whose
    /// USD is frozen.
    fn nft_offers(on: bool) {
        let (mut w, pool) = usd_eur_world(on);
        let (bob, carol) = (w.bob.clone(), w.carol.clone());
        let lpt10 = pool.lpt(&w.env, "10");
        let root = w.env.root(&bob).expect("bob");
        let first = root
            .u32_of(sf().first_nftoken_sequence)
            .unwrap_or_else(|| w.env.seq(&bob));
        let minted = root.u32_of(sf().minted_nftokens).unwrap_or(0);
        let id = nft::token_id(mint_tf::TRANSFERABLE as u16, 0, &bob.id, 0, first + minted);
        let mint = Tx::new("NFTokenMint")
            .u32("NFTokenTaxon", 0)
            .flags(mint_tf::TRANSFERABLE);
        w.env.apply(&bob, mint, Ter::tesSUCCESS);
        w.env.close();
        let sell_offer = keylet::nftoffer(&bob.id, w.env.seq(&bob));
        let sell = Tx::new("NFTokenCreateOffer")
            .h256("NFTokenID", id)
            .amount("Amount", lpt10)
            .flags(offer_tf::SELL_NFTOKEN);
        w.env.apply(&bob, sell, Ter::tesSUCCESS);
        w.env.close();
        w.freeze_usd(&carol, true, "0");
        let accept_sell = || Tx::new("NFTokenAcceptOffer").h256("NFTokenSellOffer", sell_offer);
        let buy = || {
            Tx::new("NFTokenCreateOffer")
                .h256("NFTokenID", id)
                .amount("Amount", lpt10)
                .account("Owner", &carol.id)
        };
        if w.on {
            w.env
                .apply(&carol, accept_sell(), Ter::tecINSUFFICIENT_FUNDS);
            w.env.close();
            w.freeze_usd(&carol, false, "1000000");
            w.env.apply(&carol, accept_sell(), Ter::tesSUCCESS);
            w.env.close();
            w.freeze_usd(&bob, true, "0");
            w.env.apply(&bob, buy(), Ter::tecUNFUNDED_OFFER);
            w.env.close();
            w.freeze_usd(&bob, false, "1000000");
            w.env.apply(&bob, buy(), Ter::tesSUCCESS);
        } else {
            w.env.apply(&carol, accept_sell(), Ter::tesSUCCESS);
            w.env.close();
            w.freeze_usd(&bob, true, "0");
            let buy_offer = keylet::nftoffer(&bob.id, w.env.seq(&bob));
            w.env.apply(&bob, buy(), Ter::tesSUCCESS);
            w.env.close();
            let accept_buy = Tx::new("NFTokenAcceptOffer").h256("NFTokenBuyOffer", buy_offer);
            w.env.apply(&carol, accept_buy, Ter::tesSUCCESS);
        }
    }

    #[test]
    fn nft_offers_without_the_fix() {
        nft_offers(false);
    }

    #[test]
    fn nft_offers_with_the_fix() {
        nft_offers(true);
    }
}

// ---------------------------------------------------------------------------------------
// fixPriceOracleOrder: a new oracle's series in the transaction's order, or in pair
// order as every update stores it (rippled Oracle_test.cpp `testUpdate`, the loop over
// `withFixOrder`).

mod price_oracle_order {
    use super::*;
    use crate::did_oracle::{series, Pair};

    fn oracle_set(env: &Env, pairs: &[Pair], create: bool) -> Tx {
        let now = env.parent_close() as u64 + RIPPLE_EPOCH_OFFSET_SECS;
        let mut tx = Tx::new("OracleSet")
            .u32("OracleDocumentID", 1)
            .u32("LastUpdateTime", now as u32);
        tx.0.set_named("PriceDataSeries", series(pairs));
        if create {
            tx = tx
                .blob("Provider", b"provider")
                .blob("AssetClass", b"currency")
                .blob("URI", b"URI");
        }
        tx
    }

    /// The stored series' quote assets, in order.
    fn quotes(env: &Env, owner: &Account) -> Vec<String> {
        let o = env.read(&keylet::oracle(&owner.id, 1)).expect("oracle");
        o.get_array("PriceDataSeries")
            .expect("series")
            .iter()
            .map(|(_, e)| match e.get(sf().quote_asset) {
                Some(StValue::Currency(c)) => c.to_json_string(),
                other => panic!("QuoteAsset {other:?}"),
            })
            .collect()
    }

    fn order(on: bool) -> (Vec<String>, Vec<String>) {
        let mut env = env_with(Feature::FixPriceOracleOrder, on);
        let [owner] = env.funded(["owner"]);
        env.close();
        let pairs = [
            ("XRP", "USD", Some(742), Some(2)),
            ("XRP", "EUR", Some(711), Some(2)),
        ];
        env.apply(&owner, oracle_set(&env, &pairs, true), Ter::tesSUCCESS);
        let before = quotes(&env, &owner);
        env.close();
        env.apply(&owner, oracle_set(&env, &pairs, false), Ter::tesSUCCESS);
        (before, quotes(&env, &owner))
    }

    #[test]
    fn without_the_fix_an_update_reorders_what_the_create_stored() {
        let (before, after) = order(false);
        assert_eq!(before, ["USD", "EUR"], "as the transaction lists them");
        assert_eq!(after, ["EUR", "USD"]);
        assert_ne!(before[0], after[0]);
        assert_ne!(before[1], after[1]);
    }

    #[test]
    fn with_the_fix_the_create_stores_the_update_order() {
        let (before, after) = order(true);
        assert_eq!(before, ["EUR", "USD"]);
        assert_eq!(before, after);
    }
}

// ---------------------------------------------------------------------------------------
// fixInnerObjTemplate2: rippled applies the inner-object templates to every inner object
// a transaction builds (before, only to AMM's VoteEntry and AuctionSlot). A template adds
// a required field's default value when the builder leaves it unset, and makes reading
// an unset field give its default instead of throwing; every builder rippled runs sets
// all of its objects' required fields (rippled's PR #5047 audit: only its sfMajorities
// test, of the EnableAmendment pseudo-transaction ledgerd does not apply, shows one), and
// ledgerd's objects are field maps that read an unset field as absent. So nothing differs:
// the story below builds the inner objects transactions store, under both rules, and finds
// the same results and metadata, each object meeting its template.

mod inner_obj_template2 {
    use super::*;

    /// Signer lists (SignerEntry), a deposit preauthorization by credentials (Credential),
    /// an oracle (PriceData), an NFToken page (NFToken), a delegation (Permission), an AMM
    /// (VoteEntry, AuctionSlot) and its auction slot bought for an authorized account
    /// (AuthAccount): every result, and the encoded metadata of each transaction.
    fn story(on: bool) -> Vec<(Ter, Vec<u8>)> {
        let mut env = env_with(Feature::FixInnerObjTemplate2, on);
        let [gw, alice, bob, carol] = env.funded(["gateway", "alice", "bob", "carol"]);
        env.close();
        let mut out = Vec::new();
        let mut run = |env: &mut Env, who: &Account, tx: Tx| {
            let ter = env.submit(who, tx);
            let meta = env
                .last_meta
                .as_ref()
                .map(codec::encode)
                .unwrap_or_default();
            out.push((ter, meta));
        };
        run(&mut env, &alice, signer_list(2, &[(&bob, 1), (&carol, 1)]));
        let mut creds = Tx::new("DepositPreauth");
        let mut cred = StObject::new();
        cred.set(sf().issuer, StValue::AccountId(gw.id));
        cred.set(
            Field::named("CredentialType"),
            StValue::Blob(b"kyc".to_vec()),
        );
        creds.0.set_named(
            "AuthorizeCredentials",
            StValue::Array(vec![(Field::named("Credential"), cred)]),
        );
        run(&mut env, &alice, creds);
        let now = (u64::from(env.parent_close()) + RIPPLE_EPOCH_OFFSET_SECS) as u32;
        let mut price = StObject::new();
        price.set(sf().base_asset, StValue::Currency(cur("XRP")));
        price.set(sf().quote_asset, StValue::Currency(cur("USD")));
        price.set(sf().asset_price, StValue::UInt64(740));
        let mut oracle = Tx::new("OracleSet")
            .u32("OracleDocumentID", 1)
            .u32("LastUpdateTime", now)
            .blob("Provider", b"provider")
            .blob("AssetClass", b"currency");
        oracle.0.set_named(
            "PriceDataSeries",
            StValue::Array(vec![(Field::named("PriceData"), price)]),
        );
        run(&mut env, &bob, oracle);
        run(
            &mut env,
            &carol,
            Tx::new("NFTokenMint").u32("NFTokenTaxon", 7),
        );
        let mut permission = StObject::new();
        let payment = value_of_name("Payment").expect("a permission");
        permission.set(sf().permission_value, StValue::UInt32(payment));
        let mut delegate = Tx::new("DelegateSet").account("Authorize", &carol.id);
        delegate.0.set(
            sf().permissions,
            StValue::Array(vec![(Field::named("Permission"), permission)]),
        );
        run(&mut env, &bob, delegate);
        env.apply(&gw, fset(asf::DEFAULT_RIPPLE), Ter::tesSUCCESS);
        env.apply(&alice, trust(gw.iou("USD", 10_000)), Ter::tesSUCCESS);
        env.apply(&gw, pay(&alice, gw.iou("USD", 5_000)), Ter::tesSUCCESS);
        let (x, usd) = (xrp(1_000), gw.iou("USD", 1_000));
        run(&mut env, &alice, amm_create(x, usd));
        let mut auth = StObject::new();
        auth.set(sf().account, StValue::AccountId(bob.id));
        let mut bid = pool_tx("AMMBid", x.issue(), usd.issue());
        bid.0.set_named(
            "AuthAccounts",
            StValue::Array(vec![(Field::named("AuthAccount"), auth)]),
        );
        run(&mut env, &alice, bid);
        for key in [
            keylet::signers(&alice.id),
            keylet::deposit_preauth_credentials(&alice.id, &[(gw.id, b"kyc".to_vec())]),
            keylet::oracle(&bob.id, 1),
            keylet::delegate(&bob.id, &carol.id),
            amm::amm_key(&x.issue(), &usd.issue()),
        ] {
            let entry = env.read(&key).expect("entry");
            assert_inner_objects_fit(&entry);
        }
        for key in env.owned(&carol) {
            assert_inner_objects_fit(&env.read(&key).expect("page"));
        }
        out
    }

    /// Every inner object of `o` meets its template (required fields present, no
    /// default-valued soeDEFAULT field): the binary decoder applies the templates, as
    /// rippled's `STObject::set` does, and reads back the same entry.
    fn assert_inner_objects_fit(o: &StObject) {
        let back = codec::decode(&codec::encode(o)).expect("every inner object fits");
        assert_eq!(&back, o);
    }

    #[test]
    fn every_inner_object_a_transaction_builds_is_the_same_either_way() {
        let off = story(false);
        let on = story(true);
        assert_eq!(off.len(), 7);
        assert!(off.iter().all(|(t, _)| *t == Ter::tesSUCCESS), "{off:?}");
        assert_eq!(off, on);
    }
}
