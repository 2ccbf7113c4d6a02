//! What a transaction uses beyond its type's amendment, gated by the ledger's rules as
//! rippled gates it: each type's `checkExtraFeatures` (`temDISABLED` before any other
//! check), the common `Delegate` check of `preflight1`, and the flags and amounts a
//! type's preflight or preclaim allows only under an amendment. Each story applies the
//! same transaction on a ledger whose rules lack the amendment (xrpld's code) and on one
//! whose rules have it (it succeeds, or reaches its next check).

use crate::rules::env_without;
use crate::support;

use ledgerd::engine::Ter;
use ledgerd::ledger::keylet;
use ledgerd::protocol::definitions::Field;
use ledgerd::protocol::features::Feature;
use ledgerd::protocol::mpt::MptId;
use ledgerd::protocol::st::StValue;
use ledgerd::protocol::types::{AccountId, Hash256, Issue};
use support::engine::*;

/// Applies `make()` from `who` (funded with `others`) under rules without `off`, then
/// under ledgerd's default rules, asserting each result.
fn both_ways(off: &[Feature], make: impl Fn(&[Account]) -> Tx, without: Ter, with: Ter) {
    for (rules_off, want) in [(off, without), (&[][..], with)] {
        let mut env = env_without(rules_off);
        let accounts = ["alice", "bob", "gateway"].map(Account::new);
        for a in &accounts {
            env.fund(a, xrp(10_000));
        }
        env.close();
        let got = env.submit(&accounts[0], make(&accounts));
        assert_eq!(got, want, "without {rules_off:?}");
    }
}

fn h256_vector(tx: Tx, name: &str, ids: &[Hash256]) -> Tx {
    let mut tx = tx;
    tx.0.set(Field::named(name), StValue::Vector256(ids.to_vec()));
    tx
}

fn with_credential_ids(tx: Tx) -> Tx {
    h256_vector(tx, "CredentialIDs", &[Hash256([7; 32])])
}

// Credentials: CredentialIDs on Payment, EscrowFinish, PaymentChannelClaim and
// AccountDelete; credential arrays on DepositPreauth; PermissionedDomainSet.

#[test]
fn credential_ids_need_credentials() {
    let pay_ids = |a: &[Account]| with_credential_ids(pay(&a[1], xrp(1)));
    both_ways(
        &[Feature::Credentials],
        pay_ids,
        Ter::temDISABLED,
        Ter::tecBAD_CREDENTIALS,
    );
    let finish = |a: &[Account]| with_credential_ids(escrow_finish(&a[1], 5));
    both_ways(
        &[Feature::Credentials],
        finish,
        Ter::temDISABLED,
        Ter::tecBAD_CREDENTIALS,
    );
    let claim = |_: &[Account]| with_credential_ids(channel_claim(&Hash256([3; 32])));
    both_ways(
        &[Feature::Credentials],
        claim,
        Ter::temDISABLED,
        Ter::tecBAD_CREDENTIALS,
    );
    let delete = |a: &[Account]| with_credential_ids(account_delete(&a[1]));
    both_ways(
        &[Feature::Credentials],
        delete,
        Ter::temDISABLED,
        Ter::tecBAD_CREDENTIALS,
    );
}

#[test]
fn deposit_preauth_by_credentials_needs_credentials() {
    let by_credentials = |a: &[Account]| {
        support::credentials::with_creds(
            Tx::new("DepositPreauth"),
            "AuthorizeCredentials",
            &[(a[2].id, b"KYC".as_slice())],
        )
    };
    both_ways(
        &[Feature::Credentials],
        by_credentials,
        Ter::temDISABLED,
        Ter::tesSUCCESS,
    );
    // Preauthorizing an account is older than Credentials.
    both_ways(
        &[Feature::Credentials],
        |a| preauth(&a[1]),
        Ter::tesSUCCESS,
        Ter::tesSUCCESS,
    );
}

#[test]
fn a_permissioned_domain_needs_credentials() {
    let domain = |a: &[Account]| support::credentials::domain_set(&[(a[2].id, b"KYC")]);
    both_ways(
        &[Feature::Credentials],
        domain,
        Ter::temDISABLED,
        Ter::tesSUCCESS,
    );
}

// PermissionedDEX: DomainID on Payment and OfferCreate, and tfHybrid.

#[test]
fn a_domain_payment_or_offer_needs_the_permissioned_dex() {
    let domain = Hash256([9; 32]);
    let payment = move |a: &[Account]| pay(&a[1], xrp(1)).h256("DomainID", domain);
    both_ways(
        &[Feature::PermissionedDEX],
        payment,
        Ter::temDISABLED,
        Ter::tecNO_PERMISSION,
    );
    let offer = move |a: &[Account]| {
        Tx::new("OfferCreate")
            .amount("TakerPays", a[2].iou("USD", 10))
            .amount("TakerGets", xrp(10))
            .h256("DomainID", domain)
    };
    both_ways(
        &[Feature::PermissionedDEX],
        offer,
        Ter::temDISABLED,
        Ter::tecNO_PERMISSION,
    );
}

#[test]
fn a_hybrid_offer_needs_the_permissioned_dex() {
    use ledgerd::engine::dex::offer_create::tf;
    // Without a domain: the mask refuses tfHybrid before PermissionedDEX, and after it
    // a hybrid offer needs a domain; both temINVALID_FLAG, from different checks.
    let hybrid = |a: &[Account]| {
        Tx::new("OfferCreate")
            .flags(tf::HYBRID)
            .amount("TakerPays", a[2].iou("USD", 10))
            .amount("TakerGets", xrp(10))
    };
    both_ways(
        &[Feature::PermissionedDEX],
        hybrid,
        Ter::temINVALID_FLAG,
        Ter::temINVALID_FLAG,
    );
    let with_domain = move |a: &[Account]| hybrid(a).h256("DomainID", Hash256([9; 32]));
    both_ways(
        &[Feature::PermissionedDEX],
        with_domain,
        Ter::temDISABLED,
        Ter::tecNO_PERMISSION,
    );
}

// NFTokenMintOffer and DynamicNFT on NFTokenMint.

fn mint() -> Tx {
    Tx::new("NFTokenMint").u32("NFTokenTaxon", 0)
}

#[test]
fn minting_with_an_offer_needs_nftoken_mint_offer() {
    both_ways(
        &[Feature::NFTokenMintOffer],
        |_| mint().amount("Amount", xrp(1)),
        Ter::temDISABLED,
        Ter::tesSUCCESS,
    );
    both_ways(
        &[Feature::NFTokenMintOffer],
        |a| mint().account("Destination", &a[1].id),
        Ter::temDISABLED,
        Ter::temMALFORMED,
    );
    both_ways(
        &[Feature::NFTokenMintOffer],
        |_| mint(),
        Ter::tesSUCCESS,
        Ter::tesSUCCESS,
    );
}

#[test]
fn a_mutable_token_needs_dynamic_nft() {
    use ledgerd::engine::nft::nftoken_mint::tf;
    both_ways(
        &[Feature::DynamicNFT],
        |_| mint().flags(tf::MUTABLE),
        Ter::temINVALID_FLAG,
        Ter::tesSUCCESS,
    );
}

// DeepFreeze on TrustSet: its flags, and the freeze rules of its preclaim.

#[test]
fn deep_freeze_flags_and_rules_need_deep_freeze() {
    use ledgerd::engine::account_set::asf;
    use ledgerd::engine::trust::trust_set::tf;
    for deep_freeze in [false, true] {
        let off: &[Feature] = if deep_freeze {
            &[]
        } else {
            &[Feature::DeepFreeze]
        };
        let mut env = env_without(off);
        let [alice, gw] = ["alice", "gateway"].map(Account::new);
        env.fund(&alice, xrp(10_000));
        env.fund(&gw, xrp(10_000));
        env.close();
        env.apply(&alice, trust(gw.iou("USD", 100)), Ter::tesSUCCESS);
        let freeze = |flags| trust(alice.iou("USD", 0)).flags(flags);
        let deep = tf::SET_FREEZE | tf::SET_DEEP_FREEZE;
        let want = if deep_freeze {
            Ter::tesSUCCESS
        } else {
            Ter::temINVALID_FLAG
        };
        assert_eq!(
            env.submit(&gw, freeze(deep)),
            want,
            "DeepFreeze {deep_freeze}"
        );
        // Freezing and unfreezing at once: refused under DeepFreeze only.
        let both = tf::SET_FREEZE | tf::CLEAR_FREEZE;
        let want = if deep_freeze {
            Ter::tecNO_PERMISSION
        } else {
            Ter::tesSUCCESS
        };
        assert_eq!(
            env.submit(&gw, freeze(both)),
            want,
            "DeepFreeze {deep_freeze}"
        );
        // Under NoFreeze a freeze is refused with DeepFreeze, ignored before it.
        env.apply(&gw, fset(asf::NO_FREEZE), Ter::tesSUCCESS);
        let want = if deep_freeze {
            Ter::tecNO_PERMISSION
        } else {
            Ter::tesSUCCESS
        };
        assert_eq!(env.submit(&gw, freeze(tf::SET_FREEZE)), want);
    }
}

// TokenEscrow and MPTokensV1 on amounts.

#[test]
fn escrowing_a_token_needs_token_escrow() {
    let escrow = |a: &[Account]| {
        escrow_create(&a[1], a[2].iou("USD", 10)).u32("FinishAfter", START_TIME + 1_000)
    };
    both_ways(
        &[Feature::TokenEscrow],
        escrow,
        Ter::temBAD_AMOUNT,
        Ter::tecNO_PERMISSION,
    );
}

fn some_mpt(a: &[Account]) -> MptId {
    MptId::new(1, &a[2].id)
}

#[test]
fn an_mpt_amount_needs_mptokens() {
    let mpt_pay = |a: &[Account]| support::mpt::pay_mpt(&a[1], &some_mpt(a), 5);
    both_ways(
        &[Feature::MPTokensV1],
        mpt_pay,
        Ter::temDISABLED,
        Ter::tecOBJECT_NOT_FOUND,
    );
    let claw = |a: &[Account]| {
        support::mpt::with_mpt(Tx::new("Clawback"), &some_mpt(a), 5).account("Holder", &a[1].id)
    };
    both_ways(
        &[Feature::MPTokensV1],
        claw,
        Ter::temDISABLED,
        Ter::tecOBJECT_NOT_FOUND,
    );
    let escrow = |a: &[Account]| {
        let tx = support::mpt::with_mpt(Tx::new("EscrowCreate"), &some_mpt(a), 5);
        tx.account("Destination", &a[1].id)
            .u32("FinishAfter", START_TIME + 1_000)
    };
    both_ways(
        &[Feature::MPTokensV1],
        escrow,
        Ter::temDISABLED,
        Ter::tecOBJECT_NOT_FOUND,
    );
}

// DynamicMPT, PermissionedDomains and SingleAssetVault on the MPT issuance types.

#[test]
fn mpt_issuance_mutations_need_dynamic_mpt() {
    use ledgerd::ledger::flags::lsif_mpt;
    let immutable =
        |_: &[Account]| Tx::new("MPTokenIssuanceCreate").u32("ImmutableFlags", lsif_mpt::CAN_LOCK);
    both_ways(
        &[Feature::DynamicMPT],
        immutable,
        Ter::temDISABLED,
        Ter::tesSUCCESS,
    );
    let metadata = |a: &[Account]| {
        support::mpt::with_id(Tx::new("MPTokenIssuanceSet"), &some_mpt(a))
            .blob("MPTokenMetadata", b"new")
    };
    both_ways(
        &[Feature::DynamicMPT],
        metadata,
        Ter::temDISABLED,
        Ter::tecOBJECT_NOT_FOUND,
    );
    let domain = |_: &[Account]| {
        use ledgerd::engine::mpt::mptoken_issuance_create::tf;
        Tx::new("MPTokenIssuanceCreate")
            .flags(tf::REQUIRE_AUTH)
            .h256("DomainID", Hash256([4; 32]))
    };
    for off in [Feature::PermissionedDomains, Feature::SingleAssetVault] {
        both_ways(&[off], domain, Ter::temDISABLED, Ter::tesSUCCESS);
    }
}

#[test]
fn an_issuance_set_changing_nothing_follows_the_vault_and_dynamic_mpt_rules() {
    // Before SingleAssetVault and DynamicMPT an issuance without lsfMPTCanLock takes no
    // MPTokenIssuanceSet at all; with either (or ConfidentialTransfer), one that changes
    // nothing is malformed.
    let all = [
        Feature::SingleAssetVault,
        Feature::DynamicMPT,
        Feature::ConfidentialTransfer,
    ];
    for (off, want) in [
        (&all[..], Ter::tecNO_PERMISSION),
        (&all[..2], Ter::temMALFORMED),
        (&[Feature::DynamicMPT][..], Ter::temMALFORMED),
        (&[][..], Ter::temMALFORMED),
    ] {
        let mut env = env_without(off);
        let gw = Account::new("gateway");
        env.fund(&gw, xrp(10_000));
        env.close();
        let id = support::mpt::issue(&mut env, &gw, Tx::new("MPTokenIssuanceCreate"));
        let set = support::mpt::with_id(Tx::new("MPTokenIssuanceSet"), &id);
        assert_eq!(env.submit(&gw, set), want, "without {off:?}");
    }
}

// Vaults and lending: MPTokensV1, SingleAssetVault, PermissionedDomains.

fn vault_create() -> Tx {
    let mut tx = Tx::new("VaultCreate").amount("Fee", xrp(2));
    tx.0.set(Field::named("Asset"), StValue::Issue(Issue::XRP));
    tx
}

#[test]
fn a_vault_needs_mptokens_and_its_domain_permissioned_domains() {
    both_ways(
        &[Feature::MPTokensV1],
        |_| vault_create(),
        Ter::temDISABLED,
        Ter::tesSUCCESS,
    );
    let private = |_: &[Account]| {
        use ledgerd::engine::vault::vault_create::tf;
        vault_create()
            .flags(tf::VAULT_PRIVATE)
            .h256("DomainID", Hash256([4; 32]))
    };
    both_ways(
        &[Feature::PermissionedDomains],
        private,
        Ter::temDISABLED,
        Ter::tecOBJECT_NOT_FOUND,
    );
    let set = |a: &[Account]| {
        Tx::new("VaultSet")
            .h256("VaultID", keylet::vault(&a[0].id, 1))
            .h256("DomainID", Hash256([4; 32]))
    };
    both_ways(
        &[Feature::PermissionedDomains],
        set,
        Ter::temDISABLED,
        Ter::tecNO_ENTRY,
    );
}

#[test]
fn lending_needs_a_vault_and_mptokens() {
    let broker =
        |a: &[Account]| Tx::new("LoanBrokerSet").h256("VaultID", keylet::vault(&a[0].id, 1));
    for off in [Feature::SingleAssetVault, Feature::MPTokensV1] {
        both_ways(&[off], broker, Ter::temDISABLED, Ter::tecNO_ENTRY);
    }
}

// PermissionDelegationV1_1: a Delegate on any type.

#[test]
fn a_delegate_needs_permission_delegation() {
    let delegated = |a: &[Account]| account_set().account("Delegate", &a[1].id);
    both_ways(
        &[Feature::PermissionDelegationV1_1],
        delegated,
        Ter::temDISABLED,
        Ter::terNO_DELEGATE_PERMISSION,
    );
    // The amendment comes first, then the delegate that is the sender.
    let itself = |a: &[Account]| account_set().account("Delegate", &a[0].id);
    both_ways(
        &[Feature::PermissionDelegationV1_1],
        itself,
        Ter::temDISABLED,
        Ter::temBAD_SIGNER,
    );
}

// Sponsor (xrpld 3.3): its three common fields on any type without the amendment (the
// other way is tests/engine/sponsor_*.rs).

#[test]
fn sponsorship_fields_need_sponsor() {
    let mut env = env_without(&[Feature::Sponsor]);
    let [alice, bob] = ["alice", "bob"].map(Account::new);
    for a in [&alice, &bob] {
        env.fund(a, xrp(10_000));
    }
    env.close();
    assert!(!env.store.rules().enabled(Feature::Sponsor));
    let sponsored = account_set().account("Sponsor", &bob.id);
    let flagged = account_set().u32("SponsorFlags", 1);
    let mut signed = account_set();
    signed.0.set(
        Field::named("SponsorSignature"),
        StValue::Object(Default::default()),
    );
    let before = env.balance(&alice);
    for tx in [sponsored, flagged, signed] {
        assert_eq!(env.submit(&alice, tx), Ter::temDISABLED);
    }
    assert_eq!(env.balance(&alice), before, "a tem claims no fee");
    assert_eq!(env.submit(&alice, account_set()), Ter::tesSUCCESS);
}

// TokenEscrow on AccountSet: asfAllowTrustLineLocking does nothing before it.

#[test]
fn allowing_trust_line_locking_needs_token_escrow() {
    use ledgerd::engine::account_set::asf;
    use ledgerd::ledger::flags::lsf;
    for token_escrow in [false, true] {
        let off: &[Feature] = if token_escrow {
            &[]
        } else {
            &[Feature::TokenEscrow]
        };
        let mut env = env_without(off);
        let gw = Account::new("gateway");
        env.fund(&gw, xrp(10_000));
        env.close();
        env.apply(&gw, fset(asf::ALLOW_TRUSTLINE_LOCKING), Ter::tesSUCCESS);
        let set = env.flags(&gw) & lsf::ALLOW_TRUSTLINE_LOCKING != 0;
        assert_eq!(set, token_escrow, "TokenEscrow {token_escrow}");
    }
}

// fixEmptyDID: a new DID whose only field is empty.

#[test]
fn an_empty_new_did_needs_fix_empty_did() {
    for fix in [false, true] {
        let off: &[Feature] = if fix { &[] } else { &[Feature::FixEmptyDID] };
        let mut env = env_without(off);
        let alice = Account::new("alice");
        env.fund(&alice, xrp(10_000));
        env.close();
        let want = if fix {
            Ter::tecEMPTY_DID
        } else {
            Ter::tesSUCCESS
        };
        env.apply(&alice, Tx::new("DIDSet").blob("URI", b""), want);
        assert_eq!(env.owner_count(&alice), u32::from(!fix), "fix {fix}");
    }
}

// AMMClawback and SingleAssetVault on an AMM: an issuer allowing clawback backing a
// pool, the pool's pseudo-account, clawing back from it.

/// [`pool`] with a gateway allowing clawback.
fn clawback_pool(off: &[Feature]) -> Pool {
    pool(off, true)
}

/// A ledger, alice and a gateway, the AMMCreate's result and the pool's account.
type Pool = (Env, [Account; 2], Ter, Option<AccountId>);

/// An XRP/USD pool alice creates with a gateway's USD, that gateway allowing clawback or
/// not, on a ledger whose rules lack `off`.
fn pool(off: &[Feature], clawback: bool) -> Pool {
    use ledgerd::engine::account_set::asf;
    use ledgerd::ledger::sf::{sf, StExt};
    let mut env = env_without(off);
    let [alice, gw] = ["alice", "gateway"].map(Account::new);
    env.fund(&alice, xrp(100_000));
    env.fund(&gw, xrp(10_000));
    env.close();
    if clawback {
        env.apply(&gw, fset(asf::ALLOW_TRUSTLINE_CLAWBACK), Ter::tesSUCCESS);
    }
    env.apply(&gw, fset(asf::DEFAULT_RIPPLE), Ter::tesSUCCESS);
    env.close();
    env.apply(&alice, trust(gw.iou("USD", 1_000)), Ter::tesSUCCESS);
    env.apply(&gw, pay(&alice, gw.iou("USD", 500)), Ter::tesSUCCESS);
    env.close();
    let mut create = Tx::new("AMMCreate")
        .amount("Amount", xrp(1_000))
        .amount("Amount2", gw.iou("USD", 100))
        .amount("Fee", xrp(2));
    create.0.set(Field::named("TradingFee"), StValue::UInt16(0));
    let ter = env.submit(&alice, create);
    let key = ledgerd::engine::amm::amm_key(&Issue::XRP, &gw.iou("USD", 0).issue());
    let pool = env.read(&key).and_then(|a| a.account_of(sf().account));
    (env, [alice, gw], ter, pool)
}

#[test]
fn a_clawback_issuer_backs_a_pool_only_with_amm_clawback() {
    let (.., ter, pool) = clawback_pool(&[Feature::AMMClawback]);
    assert_eq!((ter, pool), (Ter::tecNO_PERMISSION, None));
    let (.., ter, pool) = clawback_pool(&[]);
    assert_eq!(ter, Ter::tesSUCCESS);
    assert!(pool.is_some());
}

#[test]
fn a_pool_account_starts_at_the_ledger_sequence_before_the_vaults() {
    use ledgerd::ledger::sf::{sf, StExt};
    let vaults = [Feature::SingleAssetVault, Feature::LendingProtocol];
    for (off, zero) in [(&vaults[..], false), (&vaults[1..], true), (&[][..], true)] {
        let (env, _, ter, pool) = clawback_pool(off);
        assert_eq!(ter, Ter::tesSUCCESS);
        let root = env
            .read(&keylet::account(&pool.expect("pool")))
            .expect("root");
        let seq = ledgerd::ledger::view::ReadView::info(&env.store.current().view).seq;
        let want = if zero { 0 } else { seq };
        assert_eq!(root.u32_of(sf().sequence), Some(want), "without {off:?}");
    }
}

#[test]
fn clawing_back_from_a_pool_is_refused_by_the_vault_rules_first() {
    for (off, want) in [
        (&[Feature::SingleAssetVault][..], Ter::tecAMM_ACCOUNT),
        (&[][..], Ter::tecPSEUDO_ACCOUNT),
    ] {
        let (mut env, [_, gw], _, pool) = clawback_pool(off);
        let pool = pool.expect("pool");
        let claw = clawback(ledgerd::protocol::amount::Amount::iou(
            val("1"),
            cur("USD"),
            pool,
        ));
        assert_eq!(env.submit(&gw, claw), want, "without {off:?}");
    }
}

#[test]
fn a_deposit_checks_both_pool_assets_only_with_amm_clawback() {
    use ledgerd::engine::amm::tf;
    use ledgerd::engine::trust::trust_set::tf as trust_tf;
    // fixCleanup3_3_0's checkDepositFreeze checks both assets as well, so it is off here.
    for (off, want) in [
        (
            &[Feature::AMMClawback, Feature::FixCleanup3_3_0][..],
            Ter::tesSUCCESS,
        ),
        (&[Feature::FixCleanup3_3_0][..], Ter::tecFROZEN),
    ] {
        let (mut env, [alice, gw], ter, _) = pool(off, false);
        assert_eq!(ter, Ter::tesSUCCESS);
        let freeze = trust(alice.iou("USD", 0)).flags(trust_tf::SET_FREEZE);
        env.apply(&gw, freeze, Ter::tesSUCCESS);
        // XRP alone into the pool, whose other asset is frozen for alice.
        let mut deposit = Tx::new("AMMDeposit")
            .flags(tf::SINGLE_ASSET)
            .amount("Amount", xrp(10));
        deposit
            .0
            .set(Field::named("Asset"), StValue::Issue(Issue::XRP));
        let usd = gw.iou("USD", 0).issue();
        deposit.0.set(Field::named("Asset2"), StValue::Issue(usd));
        assert_eq!(env.submit(&alice, deposit), want, "without {off:?}");
    }
}

// LendingProtocolV1_1 (closed-ended vaults, VaultDelete's MemoData) and fixCleanup3_4_0
// (VaultWithdraw's CredentialIDs): their fields are in 3.4.1's templates; a ledger
// without the amendment answers `temDISABLED` before any other check (LendingProtocolV1_1
// is gated, so its stories run without it; rules_lending11_vault.rs shows it with). Each
// story also shows the same transaction without the field reaching its next check.

/// Applies `make()` from alice under ledgerd's default rules (funded as in `both_ways`).
fn under_default_rules(make: impl Fn(&[Account]) -> Tx) -> Ter {
    under_rules_without(&[], make)
}

/// Applies `make()` from alice under ledgerd's default rules less `off`.
fn under_rules_without(off: &[Feature], make: impl Fn(&[Account]) -> Tx) -> Ter {
    let mut env = env_without(off);
    let accounts = ["alice", "bob", "gateway"].map(Account::new);
    for a in &accounts {
        env.fund(a, xrp(10_000));
    }
    env.close();
    env.submit(&accounts[0], make(&accounts))
}

/// Applies `make()` under ledgerd's default rules without LendingProtocolV1_1.
fn without_lending11(make: impl Fn(&[Account]) -> Tx) -> Ter {
    under_rules_without(&[Feature::LendingProtocolV1_1], make)
}

#[test]
fn closed_ended_vault_fields_need_lending_protocol_v1_1() {
    assert_eq!(without_lending11(|_| vault_create()), Ter::tesSUCCESS);
    for field in ["SubscriptionDate", "RedemptionDate"] {
        let dated = |_: &[Account]| vault_create().u32(field, 900_000_000);
        assert_eq!(without_lending11(dated), Ter::temDISABLED, "{field}");
    }
    for kind in [0, 1] {
        let kinded = |_: &[Account]| vault_create().u8("VaultKind", kind);
        assert_eq!(without_lending11(kinded), Ter::temDISABLED, "{kind}");
    }
}

#[test]
fn a_vault_delete_memo_needs_lending_protocol_v1_1() {
    let delete = |a: &[Account]| Tx::new("VaultDelete").h256("VaultID", keylet::vault(&a[0].id, 9));
    assert_eq!(without_lending11(delete), Ter::tecNO_ENTRY);
    let memo = |a: &[Account]| delete(a).blob("MemoData", b"closing");
    assert_eq!(without_lending11(memo), Ter::temDISABLED);
    // With it (ledgerd's own book) the memo passes preflight to the vault's absence.
    assert_eq!(under_default_rules(memo), Ter::tecNO_ENTRY);
}

#[test]
fn vault_withdraw_credentials_need_fix_cleanup_3_4_0() {
    let withdraw = |a: &[Account]| {
        Tx::new("VaultWithdraw")
            .h256("VaultID", keylet::vault(&a[0].id, 9))
            .amount("Amount", xrp(1))
    };
    assert_eq!(under_default_rules(withdraw), Ter::tecNO_ENTRY);
    let with_ids = |a: &[Account]| with_credential_ids(withdraw(a));
    // ledgerd's book has fixCleanup3_4_0: the field passes to preclaim (no such vault).
    assert_eq!(under_default_rules(with_ids), Ter::tecNO_ENTRY);
    let without = [Feature::FixCleanup3_4_0];
    assert_eq!(under_rules_without(&without, with_ids), Ter::temDISABLED);
}
