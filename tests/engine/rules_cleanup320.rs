//! fixCleanup3_2_0, spot by spot, each story run under ledgerd's rules with the amendment
//! and without it (gated since 2026-11-28; the whole list of spots, and the ValidVault
//! rules ledgerd has no invariant for, in docs/amendments.md). These stories pin the spots
//! outside vaults and lending, both ways, as rippled 3.2's code decides them (`PaymentChannelHelpers.cpp`, `PaymentChannelClaim.cpp`,
//! `PaymentChannelFund.cpp`, `VaultCreate.cpp`, `NFTokenCancelOffer.cpp`,
//! `PermissionedDEXInvariant.cpp`, `EscrowCreate.cpp`, `AMMEntry.cpp`,
//! `DirectoryInvariant.cpp`, `MPTInvariant.cpp`, `LedgerStateFix.cpp`).

use crate::rules::env_without;
use crate::support;

use ledgerd::engine::account_set::asf;
use ledgerd::engine::payment_channel_claim::tf as claim_tf;
use ledgerd::engine::Ter;
use ledgerd::ledger::keylet;
use ledgerd::ledger::sf::{sf, StExt};
use ledgerd::ledgers::LedgerConfig;
use ledgerd::protocol::claim::sign_claim;
use ledgerd::protocol::features::Feature;
use ledgerd::protocol::mpt::{MptAmount, MptId};
use ledgerd::protocol::st::StValue;
use ledgerd::protocol::types::{Hash256, Issue};
use support::credentials::domain_set;
use support::engine::*;

/// Ledgerd's rule book (which has fixCleanup3_2_0) when `on`, or without it.
fn env(on: bool) -> Env {
    if on {
        let mut cfg = LedgerConfig::default();
        cfg.rule_book.presets.insert(Feature::FixCleanup3_2_0);
        Env::with_config(cfg)
    } else {
        env_without(&[Feature::FixCleanup3_2_0])
    }
}

#[test]
fn the_rule_is_on_only_where_asked() {
    assert!(env(true).store.rules().enabled(Feature::FixCleanup3_2_0));
    assert!(!env(false).store.rules().enabled(Feature::FixCleanup3_2_0));
}

// PaymentChannelFund / PaymentChannelClaim preflight: a zero Channel cannot name an
// entry; under the fix it is malformed, before it the transaction looks for it and finds
// nothing.
mod zero_channel {
    use super::*;

    fn answers(on: bool) -> (Ter, Ter) {
        let mut env = env(on);
        let [alice] = env.funded(["alice"]);
        let zero = Hash256::default();
        let fund = env.submit(&alice, channel_fund(&zero, xrp(1)));
        let claim = env.submit(&alice, channel_claim(&zero).amount("Balance", xrp(1)));
        (fund, claim)
    }

    #[test]
    fn malformed_with_the_fix() {
        assert_eq!(answers(true), (Ter::temMALFORMED, Ter::temMALFORMED));
    }

    #[test]
    fn not_found_without_it() {
        assert_eq!(answers(false), (Ter::tecNO_ENTRY, Ter::tecNO_TARGET));
    }
}

// PaymentChannelFund doApply: an Expiration earlier than both the settle time and the
// current Expiration is refused, tecNO_PERMISSION under the fix, temBAD_EXPIRATION before.
mod fund_expiration_too_early {
    use super::*;

    fn answer(on: bool) -> Ter {
        let mut env = env(on);
        let [alice, bob] = env.funded(["alice", "bob"]);
        let chan = env.open_channel(&alice, &bob, xrp(100), 3_600);
        env.close();
        let early = env.parent_close() + 100;
        env.submit(&alice, chan.fund(xrp(1)).u32("Expiration", early))
    }

    #[test]
    fn no_permission_with_the_fix() {
        assert_eq!(answer(true), Ter::tecNO_PERMISSION);
    }

    #[test]
    fn bad_expiration_without_it() {
        assert_eq!(answer(false), Ter::temBAD_EXPIRATION);
    }
}

// PaymentChannelClaim doApply: the destination claiming without the owner's signature,
// and a claim signed by another key than the channel's.
mod claim_signature {
    use super::*;

    fn answers(on: bool) -> (Ter, Ter, i64) {
        let mut env = env(on);
        let [alice, bob] = env.funded(["alice", "bob"]);
        let chan = env.open_channel(&alice, &bob, xrp(100), 3_600);
        env.close();
        let unsigned = env.submit(&bob, chan.claim().amount("Balance", xrp(1)));
        let sig = sign_claim(&bob.kp, &chan.key, 1_000_000);
        let foreign = chan
            .claim()
            .amount("Balance", xrp(1))
            .amount("Amount", xrp(1))
            .blob("Signature", &sig)
            .blob("PublicKey", bob.kp.public.as_bytes());
        let other_key = env.submit(&bob, foreign);
        let paid = env.read(&chan.key).expect("channel").drops_of(sf().balance);
        (unsigned, other_key, paid)
    }

    #[test]
    fn no_permission_with_the_fix() {
        assert_eq!(
            answers(true),
            (Ter::tecNO_PERMISSION, Ter::tecNO_PERMISSION, 0)
        );
    }

    #[test]
    fn bad_signature_and_signer_without_it() {
        assert_eq!(
            answers(false),
            (Ter::temBAD_SIGNATURE, Ter::temBAD_SIGNER, 0)
        );
    }
}

// isChannelExpired: a channel whose CancelAfter equals the parent close time is expired
// before the fix (`>=`) and still open under it (only after that time).
mod expiry_boundary {
    use super::*;

    /// Funds a channel at the very close time it names in CancelAfter: whether the
    /// channel is still there afterwards, and its Amount in drops if it is.
    fn fund_at_cancel_after(on: bool) -> Option<i64> {
        let mut env = env(on);
        let [alice, bob] = env.funded(["alice", "bob"]);
        env.close();
        let cancel_after = env.parent_close() + 10;
        let create = channel_create(&bob, xrp(100), 3_600, alice.kp.public.as_bytes())
            .u32("CancelAfter", cancel_after);
        let chan = env.open_channel_with(&alice, &bob, create);
        env.close();
        assert_eq!(env.parent_close(), cancel_after);
        assert_eq!(env.submit(&alice, chan.fund(xrp(1))), Ter::tesSUCCESS);
        env.read(&chan.key).map(|c| c.drops_of(sf().amount))
    }

    #[test]
    fn still_open_with_the_fix() {
        assert_eq!(fund_at_cancel_after(true), Some(101_000_000));
    }

    #[test]
    fn closed_without_it() {
        assert_eq!(fund_at_cancel_after(false), None);
    }
}

// saturatingAdd: the parent close time plus a SettleDelay near the largest u32 saturates
// under the fix and wraps around before it.
mod settle_delay_overflow {
    use super::*;

    /// The owner asks to close a channel whose SettleDelay is u32::MAX: the Expiration
    /// set, and the parent close time then.
    fn close_request(on: bool) -> (Option<u32>, u32) {
        let mut env = env(on);
        let [alice, bob] = env.funded(["alice", "bob"]);
        let chan = env.open_channel(&alice, &bob, xrp(100), u32::MAX);
        env.close();
        let close = chan.claim().flags(claim_tf::CLOSE);
        assert_eq!(env.submit(&alice, close), Ter::tesSUCCESS);
        let exp = env.read(&chan.key).and_then(|c| c.u32_of(sf().expiration));
        (exp, env.parent_close())
    }

    #[test]
    fn close_expiration_saturates_with_the_fix() {
        assert_eq!(close_request(true).0, Some(u32::MAX));
    }

    #[test]
    fn close_expiration_wraps_without_it() {
        let (exp, now) = close_request(false);
        assert_eq!(exp, Some(now - 1));
    }

    /// The owner sets an Expiration 100 seconds ahead on such a channel.
    fn extend(on: bool) -> Ter {
        let mut env = env(on);
        let [alice, bob] = env.funded(["alice", "bob"]);
        let chan = env.open_channel(&alice, &bob, xrp(100), u32::MAX);
        env.close();
        let soon = env.parent_close() + 100;
        env.submit(&alice, chan.fund(xrp(1)).u32("Expiration", soon))
    }

    #[test]
    fn fund_expiration_refused_with_the_fix() {
        assert_eq!(extend(true), Ter::tecNO_PERMISSION);
    }

    #[test]
    fn fund_expiration_accepted_without_it() {
        assert_eq!(extend(false), Ter::tesSUCCESS);
    }
}

// VaultCreate: the share issuance names the pseudo-account's holding of the asset (its
// trust line here) in ReferenceHolding under the fix, and nothing before it.
mod vault_reference_holding {
    use super::*;

    /// The share issuance's ReferenceHolding, and the pseudo-account's USD line's key.
    fn create_iou_vault(on: bool) -> (Option<Hash256>, Hash256) {
        let mut env = env(on);
        let [gw, owner] = env.funded(["gw", "owner"]);
        env.apply(&gw, fset(asf::DEFAULT_RIPPLE), Ter::tesSUCCESS);
        let usd: Issue = gw.iou("USD", 0).issue();
        let seq = env.seq(&owner);
        let mut tx = Tx::new("VaultCreate");
        tx.0.set(sf().asset, StValue::Issue(usd));
        let tx = with_fee(&env, tx);
        env.apply(&owner, tx, Ter::tesSUCCESS);
        let vault = env.read(&keylet::vault(&owner.id, seq)).expect("the Vault");
        let pseudo = vault.account_of(sf().account).expect("pseudo-account");
        let share = vault.mpt_id_of(sf().share_mpt_id).expect("ShareMPTID");
        let iss = env.read(&keylet::mpt_issuance(&share)).expect("shares");
        let line = keylet::line(&pseudo, &gw.id, &usd.currency);
        assert!(env.read(&line).is_some(), "the pseudo-account's line");
        (iss.h256_of(sf().reference_holding), line)
    }

    #[test]
    fn named_with_the_fix() {
        let (holding, line) = create_iou_vault(true);
        assert_eq!(holding, Some(line));
    }

    #[test]
    fn absent_without_it() {
        assert_eq!(create_iou_vault(false).0, None);
    }
}

// NFTokenCancelOffer preflight: a zero offer ID is malformed under the fix; before it the
// ID names no offer and is skipped like any offer no longer in the ledger.
mod cancel_zero_offer {
    use super::*;

    fn answer(on: bool) -> Ter {
        let mut env = env(on);
        let [alice] = env.funded(["alice"]);
        let mut tx = Tx::new("NFTokenCancelOffer");
        tx.0.set(
            sf().nftoken_offers,
            StValue::Vector256(vec![Hash256::default()]),
        );
        env.submit(&alice, tx)
    }

    #[test]
    fn malformed_with_the_fix() {
        assert_eq!(answer(true), Ter::temMALFORMED);
    }

    #[test]
    fn skipped_without_it() {
        assert_eq!(answer(false), Ter::tesSUCCESS);
    }
}

// ValidPermissionedDEX: a domain transaction may not touch open-book offers; under the fix
// deleting one (here an OfferCreate in the domain cancelling its owner's open offer by
// OfferSequence) no longer counts, before it the invariant refuses the transaction.
mod domain_offer_cancels_an_open_offer {
    use super::*;

    const CRED: &[u8] = b"abcde";

    /// What the domain OfferCreate answers, and whether the open offer is gone.
    fn replace(on: bool) -> (Ter, bool) {
        // fixCleanup3_4_0 skips deleted entries in the same invariant: off both ways.
        let off = [Feature::FixCleanup3_4_0];
        let mut env = crate::rules::env_with(Feature::FixCleanup3_2_0, on, &off);
        let [gw, owner, alice] = env.funded(["gw", "owner", "alice"]);
        env.apply(&gw, fset(asf::DEFAULT_RIPPLE), Ter::tesSUCCESS);
        let seq = env.seq(&owner);
        env.apply(&owner, domain_set(&[(owner.id, CRED)]), Ter::tesSUCCESS);
        let domain = keylet::permissioned_domain(&owner.id, seq);
        let create = Tx::new("CredentialCreate")
            .account("Subject", &alice.id)
            .blob("CredentialType", CRED);
        env.apply(&owner, create, Ter::tesSUCCESS);
        let accept = Tx::new("CredentialAccept")
            .account("Issuer", &owner.id)
            .blob("CredentialType", CRED);
        env.apply(&alice, accept, Ter::tesSUCCESS);
        env.apply(&alice, trust(gw.iou("USD", 1000)), Ter::tesSUCCESS);
        let open_seq = env.seq(&alice);
        let open = Tx::new("OfferCreate")
            .amount("TakerPays", gw.iou("USD", 10))
            .amount("TakerGets", xrp(10));
        env.apply(&alice, open, Ter::tesSUCCESS);
        let open_key = keylet::offer(&alice.id, open_seq);
        assert!(env.read(&open_key).is_some());
        let in_domain = Tx::new("OfferCreate")
            .amount("TakerPays", gw.iou("USD", 10))
            .amount("TakerGets", xrp(10))
            .u32("OfferSequence", open_seq)
            .h256("DomainID", domain);
        let ter = env.submit(&alice, in_domain);
        (ter, env.read(&open_key).is_none())
    }

    #[test]
    fn allowed_with_the_fix() {
        assert_eq!(replace(true), (Ter::tesSUCCESS, true));
    }

    #[test]
    fn an_invariant_failure_without_it() {
        assert_eq!(replace(false), (Ter::tecINVARIANT_FAILED, false));
    }
}

// EscrowCreate checkExtraFeatures: under the fix an MPT escrow needs MPTokensV1 before any
// other check; before it preflight first asks for TokenEscrow (temBAD_AMOUNT).
mod mpt_escrow_without_mptokens {
    use super::*;

    fn answer(on: bool) -> Ter {
        let mut cfg = LedgerConfig::default();
        cfg.rule_book.presets.remove(Feature::MPTokensV1);
        cfg.rule_book.presets.remove(Feature::TokenEscrow);
        if on {
            cfg.rule_book.presets.insert(Feature::FixCleanup3_2_0);
        } else {
            cfg.rule_book.presets.remove(Feature::FixCleanup3_2_0);
        }
        let mut env = Env::with_config(cfg);
        let [alice, bob] = env.funded(["alice", "bob"]);
        let id = MptId::new(1, &bob.id);
        let mut tx = Tx::new("EscrowCreate")
            .account("Destination", &bob.id)
            .u32("FinishAfter", env.parent_close() + 100);
        tx.0.set(sf().amount, StValue::MptAmount(MptAmount::new(10, id)));
        env.submit(&alice, tx)
    }

    #[test]
    fn disabled_with_the_fix() {
        assert_eq!(answer(true), Ter::temDISABLED);
    }

    #[test]
    fn bad_amount_without_it() {
        assert_eq!(answer(false), Ter::temBAD_AMOUNT);
    }
}

// AMMEntry::initializeFeeAuctionVote: a deposit into an empty AMM gives the depositor a
// fresh auction slot; under the fix the AuthAccounts an earlier holder's bid named are
// cleared, before it they stay (and keep the discounted fee).
mod auction_slot_reinitialised {
    use super::*;
    use crate::rules::amm_both_ways::{amm_account, create, pool_tx};
    use ledgerd::engine::amm::{self, tf as amm_tf, AMM_TRUST_LINES_DELETE_MAX};
    use ledgerd::protocol::amount::{Amount, IouValue};
    use ledgerd::protocol::st::StObject;
    use ledgerd::protocol::types::AccountId;

    /// alice's XRP/USD AMM; her bid names bob; more LP token lines than one withdrawal
    /// deletes keep the AMM, empty, after she withdraws all; carol deposits into it. The
    /// AuthAccounts of the slot then (and the slot's holder).
    fn refill(on: bool) -> (Vec<AccountId>, Option<AccountId>) {
        let mut env = env(on);
        let [gw, alice, bob, carol] = env.funded(["gw", "alice", "bob", "carol"]);
        env.apply(&gw, fset(asf::DEFAULT_RIPPLE), Ter::tesSUCCESS);
        for who in [&alice, &carol] {
            env.apply(who, trust(gw.iou("USD", 100_000)), Ter::tesSUCCESS);
            env.apply(&gw, pay(who, gw.iou("USD", 20_000)), Ter::tesSUCCESS);
        }
        let usd = gw.iou("USD", 0).issue();
        create(&mut env, &alice, xrp(1_000), gw.iou("USD", 1_000));
        let (a, b) = (Issue::XRP, usd);
        let mut named = StObject::new();
        named.set(sf().account, StValue::AccountId(bob.id));
        let mut bid = pool_tx("AMMBid", a, b);
        bid.0.set(
            sf().auth_accounts,
            StValue::Array(vec![(sf().auth_account, named)]),
        );
        env.apply(&alice, bid, Ter::tesSUCCESS);
        let pool = amm_account(&env, a, b).expect("AMM");
        let lpt = amm::lpt_currency(&a.currency, &b.currency);
        for i in 0..=AMM_TRUST_LINES_DELETE_MAX {
            let holder = Account::new(&format!("lp{i}"));
            env.fund(&holder, xrp(1_000));
            let limit = Amount::iou(IouValue::from_i64(1_000), lpt, pool);
            env.apply(&holder, trust(limit), Ter::tesSUCCESS);
        }
        let all = pool_tx("AMMWithdraw", a, b).flags(amm_tf::WITHDRAW_ALL);
        env.apply(&alice, all, Ter::tesSUCCESS);
        let amm_key = amm::amm_key(&a, &b);
        let lpt_balance = env
            .read(&amm_key)
            .and_then(|o| o.amount_of(sf().lp_token_balance));
        assert!(
            lpt_balance.is_some_and(|l| l.is_zero()),
            "an empty AMM stays"
        );
        let refill = pool_tx("AMMDeposit", a, b)
            .flags(amm_tf::TWO_ASSET_IF_EMPTY)
            .amount("Amount", xrp(100))
            .amount("Amount2", gw.iou("USD", 100));
        env.apply(&carol, refill, Ter::tesSUCCESS);
        let Some(StValue::Object(slot)) = env
            .read(&amm_key)
            .and_then(|o| o.get(sf().auction_slot).cloned())
        else {
            panic!("an auction slot");
        };
        let auth = match slot.get(sf().auth_accounts) {
            Some(StValue::Array(list)) => list
                .iter()
                .filter_map(|(_, o)| o.account_of(sf().account))
                .collect(),
            _ => vec![],
        };
        (auth, slot.account_of(sf().account))
    }

    #[test]
    fn cleared_with_the_fix() {
        let carol = Account::new("carol").id;
        assert_eq!(refill(true), (vec![], Some(carol)));
    }

    #[test]
    fn kept_without_it() {
        let (bob, carol) = (Account::new("bob").id, Account::new("carol").id);
        assert_eq!(refill(false), (vec![bob], Some(carol)));
    }
}

// ValidBookDirectory (new under the fix): every directory page a transaction creates is a
// book root whose ExchangeRate is the quality its key encodes, or a page whose root
// exists. ledgerd's offers write such pages, so they pass both ways; a page written
// wrong fails only with the fix.
mod book_directory_invariant {
    use super::*;
    use ledgerd::engine::invariants::{permissioned_dex, DexCheck, Violation};
    use ledgerd::engine::sandbox::Sandbox;
    use ledgerd::ledger::directory::DIR_PAGE_ENTRIES_MAX;
    use ledgerd::ledger::flags::lt;
    use ledgerd::protocol::quality::quality_from_directory_key;
    use ledgerd::protocol::st::StObject;

    /// alice places one more offer than a page holds, all at one quality: every result,
    /// the book's root page key, and the root's ExchangeRate.
    fn a_full_book(on: bool) -> (Vec<Ter>, Hash256, Option<u64>, bool) {
        let mut env = env(on);
        let [gw, alice] = env.funded(["gw", "alice"]);
        let mut results = vec![];
        for _ in 0..=DIR_PAGE_ENTRIES_MAX {
            let offer = Tx::new("OfferCreate")
                .amount("TakerPays", gw.iou("USD", 10))
                .amount("TakerGets", xrp(10));
            results.push(env.submit(&alice, offer));
        }
        let first = keylet::offer(&alice.id, env.seq(&alice) - 1);
        let dir = env
            .read(&first)
            .and_then(|o| o.h256_of(sf().book_directory))
            .expect("the book page");
        let root = env.read(&dir).and_then(|d| d.h256_of(sf().root_index));
        let root = root.expect("a root");
        let rate = env.read(&root).and_then(|d| d.u64_of(sf().exchange_rate));
        let second_page = env.read(&keylet::dir_page(&root, 1)).is_some();
        (results, root, rate, second_page)
    }

    #[test]
    fn offers_pass_both_ways() {
        for on in [true, false] {
            let (results, root, rate, second_page) = a_full_book(on);
            assert!(results.iter().all(|t| *t == Ter::tesSUCCESS), "{results:?}");
            assert_eq!(rate, Some(quality_from_directory_key(&root).0));
            assert!(second_page, "a child page of the book");
        }
    }

    /// A book root written with ExchangeRate one off its key's quality, and a child page
    /// of a root that is not there, each judged alone.
    fn judge(on: bool) -> [Result<(), Violation>; 2] {
        let env = env(on);
        let view = env.store.current().view;
        let usd = Issue {
            currency: cur("USD"),
            issuer: Account::new("gw").id,
        };
        let base = keylet::book_base_in(&usd, &Issue::XRP, None);
        let q = 0x5510_0000_0000_0001_u64;
        let root = keylet::book_quality_key(&base, q);
        let page = |rate: u64| {
            let mut p = StObject::new();
            p.set(sf().ledger_entry_type, StValue::UInt16(lt::DIR_NODE));
            p.set(sf().flags, StValue::UInt32(0));
            p.set(sf().root_index, StValue::Hash256(root));
            p.set(sf().indexes, StValue::Vector256(vec![Hash256([7; 32])]));
            p.set(sf().exchange_rate, StValue::UInt64(rate));
            p
        };
        let tx = StObject::new();
        let mut bad_root = Sandbox::new(&view);
        bad_root.insert(root, page(q + 1));
        let mut orphan = Sandbox::new(&view);
        orphan.insert(keylet::dir_page(&root, 1), page(q));
        [bad_root, orphan].map(|sb| permissioned_dex(&sb, &tx, Ter::tesSUCCESS, DexCheck::None))
    }

    #[test]
    fn bad_pages_fail_with_the_fix() {
        let bad = Err(Violation::BadBookDirectory);
        assert_eq!(judge(true), [bad, bad]);
    }

    #[test]
    fn bad_pages_pass_without_it() {
        assert_eq!(judge(false), [Ok(()), Ok(())]);
    }
}

// ValidMPTIssuance's ReferenceHolding rules (under the fix): only VaultCreate sets an
// issuance's ReferenceHolding, nothing changes it, and only VaultDelete deletes a vault
// pseudo-account's holding. A vault's life passes both ways; a transaction breaking a
// rule fails only with the fix.
mod reference_holding_invariant {
    use super::*;
    use ledgerd::engine::invariants::{permissioned_dex, DexCheck, Violation};
    use ledgerd::engine::sandbox::Sandbox;
    use ledgerd::engine::tx_type::TxType;
    use ledgerd::ledger::flags::lt;
    use ledgerd::protocol::st::StObject;

    /// gw's USD vault of `owner`: its key and the pseudo-account's USD line.
    fn usd_vault(env: &mut Env) -> (Account, Hash256, Hash256) {
        let [gw, owner] = env.funded(["gw", "owner"]);
        env.apply(&gw, fset(asf::DEFAULT_RIPPLE), Ter::tesSUCCESS);
        let usd: Issue = gw.iou("USD", 0).issue();
        let seq = env.seq(&owner);
        let mut tx = Tx::new("VaultCreate");
        tx.0.set(sf().asset, StValue::Issue(usd));
        let tx = with_fee(env, tx);
        env.apply(&owner, tx, Ter::tesSUCCESS);
        let key = keylet::vault(&owner.id, seq);
        let pseudo = env.read(&key).and_then(|v| v.account_of(sf().account));
        let line = keylet::line(&pseudo.expect("pseudo-account"), &gw.id, &usd.currency);
        (owner, key, line)
    }

    #[test]
    fn a_vaults_life_passes_both_ways() {
        for on in [true, false] {
            let mut env = env(on);
            let (owner, key, line) = usd_vault(&mut env);
            assert!(env.read(&line).is_some());
            let delete = Tx::new("VaultDelete").h256("VaultID", key);
            assert_eq!(env.submit(&owner, delete), Ter::tesSUCCESS, "fix {on}");
            assert!(env.read(&line).is_none(), "VaultDelete deletes the line");
        }
    }

    fn tx_of(t: TxType) -> StObject {
        let mut tx = StObject::new();
        tx.set(sf().transaction_type, StValue::UInt16(t as u16));
        tx
    }

    /// Over a ledger holding a USD vault: a VaultWithdraw deleting the pseudo-account's
    /// line, and an MPTokenIssuanceCreate writing an issuance with ReferenceHolding.
    fn judge(on: bool) -> [Result<(), Violation>; 2] {
        let mut env = env(on);
        let (owner, _, line) = usd_vault(&mut env);
        let view = env.store.current().view;
        let mut drop_line = Sandbox::new(&view);
        drop_line.erase(line);
        let withdraw = tx_of(TxType::VaultWithdraw);
        let mut issuance = StObject::new();
        issuance.set(
            sf().ledger_entry_type,
            StValue::UInt16(lt::MPTOKEN_ISSUANCE),
        );
        issuance.set(sf().flags, StValue::UInt32(0));
        issuance.set(sf().issuer, StValue::AccountId(owner.id));
        issuance.set(sf().reference_holding, StValue::Hash256(line));
        let mut named = Sandbox::new(&view);
        named.insert(Hash256([0x5A; 32]), issuance);
        let create = tx_of(TxType::MPTokenIssuanceCreate);
        let ok = Ter::tesSUCCESS;
        [
            permissioned_dex(&drop_line, &withdraw, ok, DexCheck::None),
            permissioned_dex(&named, &create, ok, DexCheck::None),
        ]
    }

    #[test]
    fn broken_rules_fail_with_the_fix() {
        let bad = Err(Violation::BadReferenceHolding);
        assert_eq!(judge(true), [bad, bad]);
    }

    #[test]
    fn broken_rules_pass_without_it() {
        assert_eq!(judge(false), [Ok(()), Ok(())]);
    }
}

// LedgerStateFix's fix type 2, BookExchangeRate (new under the fix): a book directory
// root whose ExchangeRate is not its key's quality (legacy ledger state) gets that
// quality. Before the fix the type is temDISABLED. The legacy root is the ledger's own
// root with its rate one off, under a sandbox the engine's pipeline applies over.
mod ledger_state_fix_book_exchange_rate {
    use super::*;
    use ledgerd::engine::sandbox::Sandbox;
    use ledgerd::engine::transactor::apply_transaction;
    use ledgerd::ledger::view::ReadView;
    use ledgerd::protocol::definitions::Field;
    use ledgerd::protocol::quality::quality_from_directory_key;

    fn fix_rate(dir: Option<Hash256>, owner: Option<&Account>) -> Tx {
        let mut tx = Tx::new("LedgerStateFix");
        tx.0.set(Field::named("LedgerFixType"), StValue::UInt16(2));
        if let Some(d) = dir {
            tx = tx.h256("BookDirectory", d);
        }
        if let Some(o) = owner {
            tx = tx.account("Owner", &o.id);
        }
        tx
    }

    /// alice's offer opens a book. Over that ledger with the root's ExchangeRate one above
    /// its quality, the fix is asked for the root, for alice's owner directory, for no
    /// entry, without the page, and with an Owner too; over the ledger as it is, for the
    /// root. The results, and whether the first ask wrote the quality into the root.
    fn repair(on: bool) -> (Vec<Ter>, bool) {
        let mut env = env(on);
        let [gw, alice] = env.funded(["gw", "alice"]);
        let seq = env.seq(&alice);
        let offer = Tx::new("OfferCreate")
            .amount("TakerPays", gw.iou("USD", 10))
            .amount("TakerGets", xrp(10));
        env.apply(&alice, offer, Ter::tesSUCCESS);
        let root = env
            .read(&keylet::offer(&alice.id, seq))
            .and_then(|o| o.h256_of(sf().book_directory))
            .expect("the book root");
        let quality = quality_from_directory_key(&root).0;
        let view = env.store.current().view;
        let mut legacy = Sandbox::new(&view);
        let mut dir = (*legacy.read(&root).expect("root")).clone();
        dir.set(sf().exchange_rate, StValue::UInt64(quality + 1));
        legacy.update(root, dir);
        let cfg = env.store.config().apply.clone();
        let fee = env.store.fees().reserve_inc_drops as i64;
        let run = |on_view: &dyn ReadView, tx: Tx| {
            let signed = tx.signed(&alice.id, env.seq(&alice), fee, &alice.kp);
            apply_transaction(on_view, &signed, &Hash256([1; 32]), 0, &cfg)
        };
        let first = run(&legacy, fix_rate(Some(root), None));
        let written = first.writes.iter().find(|(k, _)| *k == root);
        let rate = written.and_then(|(_, d)| d.as_ref()?.u64_of(sf().exchange_rate));
        let mut results = vec![first.ter];
        let asks = [
            fix_rate(Some(keylet::owner_dir(&alice.id)), None),
            fix_rate(Some(Hash256([0x42; 32])), None),
            fix_rate(None, None),
            fix_rate(Some(root), Some(&alice)),
        ];
        results.extend(asks.into_iter().map(|tx| run(&legacy, tx).ter));
        results.push(run(&view, fix_rate(Some(root), None)).ter);
        (results, rate == Some(quality))
    }

    #[test]
    fn repaired_with_the_fix() {
        use Ter::*;
        let want = vec![
            tesSUCCESS,
            tecNO_PERMISSION,
            tecOBJECT_NOT_FOUND,
            temINVALID,
            temINVALID,
            tecNO_PERMISSION,
        ];
        assert_eq!(repair(true), (want, true));
    }

    #[test]
    fn disabled_without_it() {
        assert_eq!(repair(false), (vec![Ter::temDISABLED; 6], false));
    }
}

// LedgerStateFix's preflight as rippled 3.2 has it, whatever the rules: each fix type
// takes exactly its own field, so the page links fix naming a BookDirectory too is
// temINVALID both ways.
#[test]
fn ledger_state_fix_takes_only_its_own_field() {
    use ledgerd::protocol::definitions::Field;
    for on in [true, false] {
        let mut env = env(on);
        let [alice] = env.funded(["alice"]);
        let mut tx = Tx::new("LedgerStateFix")
            .account("Owner", &alice.id)
            .h256("BookDirectory", Hash256([0x42; 32]));
        tx.0.set(Field::named("LedgerFixType"), StValue::UInt16(1));
        let tx = with_fee(&env, tx);
        assert_eq!(env.submit(&alice, tx), Ter::temINVALID, "fix {on}");
    }
}
