//! Property tests: random sequences of AccountSet, SetRegularKey, TrustSet, Payment,
//! payment channel, SignerListSet, multi-signed, TicketCreate, ticketed, DepositPreauth,
//! Clawback, escrow, check, MPT, NFToken, DID, price-oracle, credential, permissioned
//! domain, permissioned DEX and Sponsor (SponsorshipSet, pre-funded sponsored TrustSet and
//! CheckCreate, SponsorshipTransfer End) transactions among a few accounts, valid and
//! invalid. After every transaction the ledger-wide invariants hold (XRP, Sponsorships'
//! FeeAmount included, neither created nor destroyed; owner counts; the sponsor counters
//! agree with the objects naming a sponsor), the sender's sequence advanced exactly when
//! the transaction was applied, and replaying the same sequence gives the same state and
//! the same hashes.

use crate::support;

use std::collections::HashMap;

use ledgerd::engine::nft;
use ledgerd::engine::Ter;
use ledgerd::ledger::flags::{lsf, lsf_credential, lt};
use ledgerd::ledger::keylet;
use ledgerd::ledger::sf::{sf, StExt};
use ledgerd::protocol::amount::{Amount, DROPS_MAX};
use ledgerd::protocol::claim::sign_claim;
use ledgerd::protocol::keys::KeyType;
use ledgerd::protocol::st::PathStep;
use ledgerd::protocol::types::{AccountId, Currency, Hash256};
use proptest::prelude::*;
use proptest::strategy::ValueTree;
use support::engine::*;

const NAMES: [&str; 4] = ["gw", "alice", "bob", "carol"];
const CURRENCIES: [&str; 2] = ["USD", "EUR"];

#[derive(Debug, Clone)]
enum Op {
    /// SponsorshipSet by `from` for `sponsee`: FeeAmountDelta (drops) and
    /// RemainingOwnerCountDelta, or tfDeleteObject.
    SponsorSet {
        from: usize,
        sponsee: usize,
        fee: i64,
        count: i32,
        delete: bool,
    },
    /// A TrustSet (kind 0) or CheckCreate (kind 1) by `from` naming `sponsor` with
    /// SponsorFlags `flags` (no SponsorSignature: a Sponsorship must pay).
    Sponsored {
        from: usize,
        sponsor: usize,
        flags: u32,
        kind: usize,
        pick: usize,
    },
    /// SponsorshipTransfer End by `from` of the `pick`th object naming a sponsor.
    SponsorEnd {
        from: usize,
        pick: usize,
    },
    /// A permissioned DEX offer in domain `which` (see `World::domains`), maybe hybrid.
    DomainOffer {
        from: usize,
        which: usize,
        pays: (usize, i64),
        gets: (usize, i64),
        hybrid: bool,
    },
    /// A permissioned DEX payment in domain `which` through the books.
    DomainCross {
        from: usize,
        to: usize,
        which: usize,
        deliver: (usize, i64),
        send_max: (usize, i64),
        partial: bool,
    },
    PayXrp {
        from: usize,
        to: usize,
        drops: i64,
    },
    PayNew {
        from: usize,
        drops: i64,
    },
    PayIou {
        from: usize,
        to: usize,
        issuer: usize,
        cur: usize,
        value: i64,
        partial: bool,
    },
    Trust {
        from: usize,
        to: usize,
        cur: usize,
        limit: i64,
        flags: u32,
    },
    Set {
        from: usize,
        set: u32,
        clear: u32,
    },
    RegularKey {
        from: usize,
        to: Option<usize>,
    },
    ChanCreate {
        from: usize,
        to: usize,
        drops: i64,
        settle: u32,
    },
    ChanFund {
        from: usize,
        chan: usize,
        drops: i64,
    },
    ChanClaim {
        from: usize,
        chan: usize,
        drops: i64,
        signer: usize,
        flags: u32,
    },
    BadSeq {
        from: usize,
        offset: i32,
    },
    SignerList {
        from: usize,
        quorum: u32,
        signers: Vec<usize>,
    },
    Multi {
        from: usize,
        to: usize,
        signers: Vec<usize>,
    },
    Tickets {
        from: usize,
        count: u32,
    },
    Ticketed {
        from: usize,
        to: usize,
        back: u32,
    },
    Preauth {
        from: usize,
        to: usize,
        undo: bool,
    },
    Claw {
        from: usize,
        holder: usize,
        cur: usize,
        value: i64,
    },
    CredCreate {
        from: usize,
        subject: usize,
        kind: usize,
        expires_in: Option<u32>,
    },
    CredAccept {
        from: usize,
        issuer: usize,
        kind: usize,
    },
    CredDelete {
        from: usize,
        subject: usize,
        issuer: usize,
        kind: usize,
    },
    PreauthCreds {
        from: usize,
        creds: Vec<(usize, usize)>,
        undo: bool,
    },
    PayCreds {
        from: usize,
        to: usize,
        drops: i64,
        creds: Vec<(usize, usize)>,
    },
    DomainSet {
        from: usize,
        creds: Vec<(usize, usize)>,
        which: Option<usize>,
    },
    DomainDelete {
        from: usize,
        which: usize,
    },
    Escrow {
        from: usize,
        to: usize,
        drops: i64,
        finish_in: u32,
        cancel_in: u32,
    },
    EscrowEnd {
        from: usize,
        which: usize,
        cancel: bool,
    },
    Check {
        from: usize,
        to: usize,
        drops: i64,
    },
    CheckEnd {
        from: usize,
        which: usize,
        drops: i64,
        cancel: bool,
    },
    Close {
        secs: u32,
    },
    Offer {
        from: usize,
        pays: (usize, i64),
        gets: (usize, i64),
        flags: u32,
    },
    OfferCancel {
        from: usize,
        back: u32,
    },
    Cross {
        from: usize,
        to: usize,
        deliver: (usize, i64),
        send_max: (usize, i64),
        bridge: bool,
        partial: bool,
    },
    AmmCreate {
        from: usize,
        a: (usize, i64),
        b: (usize, i64),
        fee: u16,
    },
    AmmDeposit {
        from: usize,
        pool: (usize, usize),
        amount: (usize, i64),
    },
    AmmWithdraw {
        from: usize,
        pool: (usize, usize),
        all: bool,
    },
    /// MPTokenIssuanceCreate with these flags, MaximumAmount and TransferFee.
    MptCreate {
        from: usize,
        flags: u32,
        max: Option<u64>,
        fee: u16,
    },
    /// MPTokenAuthorize of issuance `which` (by a holder, or by the issuer for `holder`).
    MptAuth {
        from: usize,
        which: usize,
        holder: Option<usize>,
        unauth: bool,
    },
    /// MPTokenIssuanceSet: lock or unlock, globally or for `holder`.
    MptSet {
        from: usize,
        which: usize,
        holder: Option<usize>,
        lock: bool,
    },
    /// DynamicMPT: MPTokenIssuanceSet mutating issuance `which` (capability flags,
    /// ImmutableFlags, TransferFee, MPTokenMetadata of `meta` bytes).
    MptMutate {
        from: usize,
        which: usize,
        flags: u32,
        immutable: Option<u32>,
        fee: Option<u16>,
        meta: Option<usize>,
    },
    /// An MPT payment, with an optional SendMax, maybe partial; `mint` sends from the
    /// issuer instead of `from`.
    MptPay {
        mint: bool,
        from: usize,
        to: usize,
        which: usize,
        value: u64,
        send_max: Option<u64>,
        partial: bool,
    },
    /// An MPT clawback from `holder`.
    MptClaw {
        from: usize,
        holder: usize,
        which: usize,
        value: u64,
    },
    /// MPTokenIssuanceDestroy.
    MptDestroy {
        from: usize,
        which: usize,
    },
    NftMint {
        from: usize,
        flags: u32,
        fee: u16,
        taxon: u32,
    },
    NftBurn {
        from: usize,
        which: usize,
        owner: Option<usize>,
    },
    NftOffer {
        from: usize,
        which: usize,
        drops: i64,
        sell: bool,
        owner: usize,
    },
    NftAccept {
        from: usize,
        which: usize,
        other: Option<usize>,
        broker_fee: i64,
    },
    NftCancel {
        from: usize,
        which: usize,
    },
    NftModify {
        from: usize,
        which: usize,
        owner: usize,
        uri: bool,
    },
    /// DIDSet: each field absent, empty, or that many bytes (some too long).
    DidSet {
        from: usize,
        fields: [Option<usize>; 3],
    },
    DidDelete {
        from: usize,
    },
    /// OracleSet of document `doc`, LastUpdateTime `offset` seconds from the parent close.
    OracleSet {
        from: usize,
        doc: u32,
        pairs: Vec<OraclePair>,
        offset: i64,
        provider: bool,
        asset_class: bool,
    },
    OracleDelete {
        from: usize,
        doc: u32,
    },
}

/// (base, quote) as indexes into ORACLE_ASSETS, then the price and scale, if any.
type OraclePair = (usize, usize, Option<u64>, Option<u8>);

const ORACLE_ASSETS: [&str; 6] = ["XRP", "USD", "EUR", "BTC", "ETH", "GBP"];

fn acct() -> impl Strategy<Value = usize> {
    0..NAMES.len()
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        (
            acct(),
            acct(),
            prop_oneof![1i64..50_000_000, 0i64..20_000_000_000]
        )
            .prop_map(|(from, to, drops)| Op::PayXrp { from, to, drops }),
        (acct(), 0i64..30_000_000).prop_map(|(from, drops)| Op::PayNew { from, drops }),
        (acct(), acct(), acct(), 0..2usize, -5i64..300, any::<bool>()).prop_map(
            |(from, to, issuer, cur, value, partial)| Op::PayIou {
                from,
                to,
                issuer,
                cur,
                value,
                partial
            }
        ),
        (
            acct(),
            acct(),
            0..2usize,
            prop_oneof![Just(0i64), 1i64..1000, Just(-1)],
            prop::sample::select(vec![
                0u32,
                0x0001_0000,
                0x0002_0000,
                0x0004_0000,
                0x0010_0000,
                0x0020_0000,
                0x0001_0000 | 0x0002_0000,
                0x0008_0000
            ])
        )
            .prop_map(|(from, to, cur, limit, flags)| Op::Trust {
                from,
                to,
                cur,
                limit,
                flags
            }),
        (
            acct(),
            prop::sample::select(vec![0u32, 1, 2, 4, 6, 7, 8, 8]),
            prop::sample::select(vec![0u32, 1, 2, 4, 7, 8])
        )
            .prop_map(|(from, set, clear)| Op::Set { from, set, clear }),
        (acct(), prop::option::of(acct())).prop_map(|(from, to)| Op::RegularKey { from, to }),
        (acct(), acct(), 0i64..200_000_000, 0u32..100).prop_map(|(from, to, drops, settle)| {
            Op::ChanCreate {
                from,
                to,
                drops,
                settle,
            }
        }),
        (acct(), 0..4usize, 0i64..50_000_000).prop_map(|(from, chan, drops)| Op::ChanFund {
            from,
            chan,
            drops
        }),
        (
            acct(),
            0..4usize,
            0i64..300_000_000,
            acct(),
            prop::sample::select(vec![0u32, 0x0001_0000, 0x0002_0000, 0x0003_0000])
        )
            .prop_map(|(from, chan, drops, signer, flags)| Op::ChanClaim {
                from,
                chan,
                drops,
                signer,
                flags
            }),
        (acct(), prop::sample::select(vec![-1i32, 1, 2]))
            .prop_map(|(from, offset)| Op::BadSeq { from, offset }),
        (1u32..200).prop_map(|secs| Op::Close { secs }),
        custody_op(),
        custody_op(),
        custody_op(),
        custody_op(),
        deferred_op(),
        deferred_op(),
        deferred_op(),
        dex_op(),
        dex_op(),
        dex_op(),
        dex_op(),
        mpt_op(),
        mpt_op(),
        mpt_op(),
        mpt_op(),
        nft_op(),
        nft_op(),
        nft_op(),
        did_oracle_op(),
        did_oracle_op(),
    ]
}

/// Sponsor ops: Sponsorships funded, drawn down and deleted, pre-funded sponsored trust
/// lines and checks (fee, reserve or both), sponsorships of objects ended.
fn sponsor_op() -> impl Strategy<Value = Op> {
    prop_oneof![
        2 => (acct(), acct(), 0i64..=20_000_000, -1i32..=4, prop::bool::weighted(0.1)).prop_map(
            |(from, sponsee, fee, count, delete)| Op::SponsorSet {
                from,
                sponsee,
                fee,
                count,
                delete
            }
        ),
        3 => (acct(), acct(), 1u32..=3, 0..2usize, 0..8usize).prop_map(
            |(from, sponsor, flags, kind, pick)| Op::Sponsored {
                from,
                sponsor,
                flags,
                kind,
                pick
            }
        ),
        1 => (acct(), 0..8usize).prop_map(|(from, pick)| Op::SponsorEnd { from, pick }),
    ]
}

/// Keys of the entries other than AccountRoots that name a sponsor, in key order.
fn sponsored_keys(w: &World) -> Vec<Hash256> {
    let s = sf();
    let mut v = Vec::new();
    w.env.store.current().view.for_each(|k, o| {
        let names = [s.sponsor, s.low_sponsor, s.high_sponsor]
            .iter()
            .any(|f| o.get(*f).is_some());
        if names && o.u16_of(s.ledger_entry_type) != Some(lt::ACCOUNT_ROOT) {
            v.push(*k);
        }
    });
    v.sort();
    v
}

/// The Sponsor transaction an op stands for, noting the checks it may create.
fn sponsor_tx(w: &mut World, op: &Op) -> (usize, Tx) {
    use ledgerd::engine::sponsor::{set_flags, transfer_flags};
    use ledgerd::protocol::definitions::Field;
    use ledgerd::protocol::st::StValue;
    use support::sponsor::SponsorTx;
    let a = |i: usize| w.accts[i].clone();
    match *op {
        Op::SponsorSet {
            from,
            sponsee,
            fee,
            count,
            delete,
        } => {
            let mut tx = Tx::new("SponsorshipSet").account("Sponsee", &a(sponsee).id);
            if delete {
                tx = tx.flags(set_flags::DELETE_OBJECT);
            } else {
                tx = tx.amount("FeeAmountDelta", Amount::Xrp(fee));
                tx.0.set(
                    Field::named("RemainingOwnerCountDelta"),
                    StValue::Int32(count),
                );
            }
            (from, tx)
        }
        Op::Sponsored {
            from,
            sponsor,
            flags,
            kind,
            pick,
        } => {
            let other = a((from + 1 + pick % 3) % NAMES.len());
            let tx = if kind == 0 {
                trust(other.iou(CURRENCIES[pick % 2], 100 + pick as i64))
            } else {
                w.checks
                    .push(keylet::check(&a(from).id, w.env.seq(&a(from))));
                check_create(&other, xrp(1 + pick as i64))
            };
            (from, tx.sponsor(&a(sponsor), flags))
        }
        Op::SponsorEnd { from, pick } => {
            let keys = sponsored_keys(w);
            let id = keys
                .get(pick % keys.len().max(1))
                .copied()
                .unwrap_or(Hash256([6; 32]));
            let tx = Tx::new("SponsorshipTransfer")
                .flags(transfer_flags::END)
                .h256("ObjectID", id);
            (from, tx)
        }
        _ => unreachable!("not a Sponsor op"),
    }
}

/// Sponsor's counters agree with the state (`props_sponsor`'s check); how many objects
/// name a sponsor.
fn check_sponsor_counts(w: &World) -> u64 {
    crate::props_sponsor::check_sponsor_state(&w.env).0
}

/// How many SponsorshipSet, sponsored and SponsorshipTransfer ops of `ops` succeed, and
/// the most objects naming a sponsor at once.
fn sponsor_successes(ops: &[Op]) -> ([usize; 3], u64) {
    let mut w = world();
    let (mut ok, mut most) = ([0usize; 3], 0);
    for op in ops {
        let kind = match op {
            Op::SponsorSet { .. } => Some(0),
            Op::Sponsored { .. } => Some(1),
            Op::SponsorEnd { .. } => Some(2),
            _ => None,
        };
        if let (Some((_, t)), Some(k)) = (step(&mut w, op), kind) {
            ok[k] += usize::from(t.is_tes());
        }
        most = most.max(check_sponsor_counts(&w));
    }
    (ok, most)
}

/// DID and price-oracle ops: DIDs set, edited, emptied and deleted; oracles of three
/// documents created, updated (pairs added, repriced, deleted), refused for their times,
/// lengths and pairs, and deleted.
fn did_oracle_op() -> impl Strategy<Value = Op> {
    let field = || {
        prop_oneof![
            2 => Just(None),
            1 => Just(Some(0usize)),
            3 => (1usize..40).prop_map(Some),
            1 => (250usize..260).prop_map(Some),
        ]
    };
    let pair = (
        0..ORACLE_ASSETS.len(),
        0..ORACLE_ASSETS.len(),
        prop_oneof![4 => (1u64..100_000).prop_map(Some), 1 => Just(None)],
        prop_oneof![Just(None), (0u8..22).prop_map(Some)],
    );
    prop_oneof![
        3 => (acct(), [field(), field(), field()]).prop_map(|(from, fields)| Op::DidSet { from, fields }),
        1 => acct().prop_map(|from| Op::DidDelete { from }),
        6 => (
            acct(),
            0u32..3,
            prop::collection::vec(pair, 0..12),
            prop_oneof![6 => 0i64..100, 1 => -400i64..400],
            prop::bool::weighted(0.8),
            prop::bool::weighted(0.8),
        )
            .prop_map(|(from, doc, pairs, offset, provider, asset_class)| Op::OracleSet {
                from,
                doc,
                pairs,
                offset,
                provider,
                asset_class,
            }),
        1 => (acct(), 0u32..3).prop_map(|(from, doc)| Op::OracleDelete { from, doc }),
    ]
}

/// The DID or oracle transaction an op stands for.
fn did_oracle_tx(w: &World, op: &Op) -> (usize, Tx) {
    match op {
        Op::DidSet { from, fields } => {
            let tx = ["URI", "DIDDocument", "Data"].iter().zip(fields).fold(
                Tx::new("DIDSet"),
                |tx, (name, len)| match len {
                    Some(n) => tx.blob(name, &vec![b'd'; *n]),
                    None => tx,
                },
            );
            (*from, tx)
        }
        Op::DidDelete { from } => (*from, Tx::new("DIDDelete")),
        Op::OracleSet {
            from,
            doc,
            pairs,
            offset,
            provider,
            asset_class,
        } => {
            let unix = i64::from(w.env.parent_close())
                + ledgerd::protocol::time::RIPPLE_EPOCH_OFFSET_SECS as i64
                + offset;
            let mut tx = Tx::new("OracleSet")
                .u32("OracleDocumentID", *doc)
                .u32("LastUpdateTime", unix as u32);
            tx.0.set_named("PriceDataSeries", price_series(pairs));
            if *provider {
                tx = tx.blob("Provider", b"provider");
            }
            if *asset_class {
                tx = tx.blob("AssetClass", b"currency");
            }
            (*from, tx)
        }
        Op::OracleDelete { from, doc } => {
            (*from, Tx::new("OracleDelete").u32("OracleDocumentID", *doc))
        }
        _ => unreachable!("not a DID or oracle op"),
    }
}

fn price_series(pairs: &[OraclePair]) -> ledgerd::protocol::st::StValue {
    use ledgerd::protocol::st::{StObject, StValue};
    let items = pairs
        .iter()
        .map(|(base, quote, price, scale)| {
            let mut o = StObject::new();
            o.set(
                sf().base_asset,
                StValue::Currency(cur(ORACLE_ASSETS[*base])),
            );
            o.set(
                sf().quote_asset,
                StValue::Currency(cur(ORACLE_ASSETS[*quote])),
            );
            if let Some(p) = price {
                o.set(sf().asset_price, StValue::UInt64(*p));
            }
            // Scale 0 is its default and may not be written.
            if let Some(sc) = scale.filter(|s| *s > 0) {
                o.set(sf().scale, StValue::UInt8(sc));
            }
            (ledgerd::protocol::definitions::Field::named("PriceData"), o)
        })
        .collect();
    StValue::Array(items)
}

/// Credential kinds the ops pick from.
const KINDS: [&[u8]; 2] = [b"KYC", b"AML"];

/// Credential, credential-preauthorization and permissioned domain ops: (issuer, kind)
/// pairs among the accounts; expirations a little ahead so some lapse between closes.
fn credential_op() -> impl Strategy<Value = Op> {
    let kind = || 0..KINDS.len();
    let creds = || prop::collection::vec((acct(), kind()), 0..3);
    prop_oneof![
        3 => (acct(), acct(), kind(), prop::option::weighted(0.3, 0u32..120)).prop_map(
            |(from, subject, kind, expires_in)| Op::CredCreate {
                from,
                subject,
                kind,
                expires_in
            }
        ),
        3 => (acct(), acct(), kind()).prop_map(|(from, issuer, kind)| Op::CredAccept {
            from,
            issuer,
            kind
        }),
        1 => (acct(), acct(), acct(), kind()).prop_map(|(from, subject, issuer, kind)| {
            Op::CredDelete {
                from,
                subject,
                issuer,
                kind,
            }
        }),
        2 => (acct(), creds(), prop::bool::weighted(0.2))
            .prop_map(|(from, creds, undo)| Op::PreauthCreds { from, creds, undo }),
        3 => (acct(), acct(), 1i64..30_000_000, creds()).prop_map(|(from, to, drops, creds)| {
            Op::PayCreds {
                from,
                to,
                drops,
                creds,
            }
        }),
        1 => (acct(), creds(), prop::option::of(0..3usize))
            .prop_map(|(from, creds, which)| Op::DomainSet { from, creds, which }),
        1 => (acct(), 0..3usize).prop_map(|(from, which)| Op::DomainDelete { from, which }),
    ]
}

/// The credential transaction an op stands for (and the domain a set may create).
fn cred_tx(w: &mut World, op: &Op) -> (usize, Tx) {
    use ledgerd::protocol::definitions::Field;
    use ledgerd::protocol::st::{StObject, StValue};
    let id = |w: &World, i: usize| w.accts[i].id;
    let array = |w: &World, field: &str, creds: &[(usize, usize)], mut t: Tx| {
        let items = creds
            .iter()
            .map(|(i, k)| {
                let mut o = StObject::new();
                o.set(Field::named("Issuer"), StValue::AccountId(id(w, *i)));
                o.set(
                    Field::named("CredentialType"),
                    StValue::Blob(KINDS[*k].to_vec()),
                );
                (Field::named("Credential"), o)
            })
            .collect();
        t.0.set(Field::named(field), StValue::Array(items));
        t
    };
    match op.clone() {
        Op::CredCreate {
            from,
            subject,
            kind,
            expires_in,
        } => {
            let mut t = Tx::new("CredentialCreate")
                .account("Subject", &id(w, subject))
                .blob("CredentialType", KINDS[kind]);
            if let Some(e) = expires_in {
                t = t.u32("Expiration", w.env.parent_close() + e);
            }
            (from, t)
        }
        Op::CredAccept { from, issuer, kind } => (
            from,
            Tx::new("CredentialAccept")
                .account("Issuer", &id(w, issuer))
                .blob("CredentialType", KINDS[kind]),
        ),
        Op::CredDelete {
            from,
            subject,
            issuer,
            kind,
        } => (
            from,
            Tx::new("CredentialDelete")
                .account("Subject", &id(w, subject))
                .account("Issuer", &id(w, issuer))
                .blob("CredentialType", KINDS[kind]),
        ),
        Op::PreauthCreds { from, creds, undo } => {
            let field = if undo {
                "UnauthorizeCredentials"
            } else {
                "AuthorizeCredentials"
            };
            (from, array(w, field, &creds, Tx::new("DepositPreauth")))
        }
        Op::PayCreds {
            from,
            to,
            drops,
            creds,
        } => {
            let mut t = pay(&w.accts[to], Amount::Xrp(drops));
            let ids = creds
                .iter()
                .map(|(i, k)| keylet::credential(&id(w, from), &id(w, *i), KINDS[*k]))
                .collect();
            t.0.set(Field::named("CredentialIDs"), StValue::Vector256(ids));
            (from, t)
        }
        Op::DomainSet { from, creds, which } => {
            let mut t = array(
                w,
                "AcceptedCredentials",
                &creds,
                Tx::new("PermissionedDomainSet"),
            );
            match which.and_then(|i| w.domains.get(i).copied()) {
                Some(d) => t = t.h256("DomainID", d),
                None => {
                    let seq = w.env.seq(&w.accts[from]);
                    w.domains
                        .push(keylet::permissioned_domain(&id(w, from), seq));
                }
            }
            (from, t)
        }
        Op::DomainDelete { from, which } => {
            let d = w.domains.get(which).copied().unwrap_or(Hash256([6; 32]));
            (
                from,
                Tx::new("PermissionedDomainDelete").h256("DomainID", d),
            )
        }
        _ => unreachable!("not a credential op"),
    }
}

/// Permissioned DEX ops: domain offers (some hybrid) and domain payments through the
/// books, in the domains created so far (`which` past the end names one that does not
/// exist).
fn pdex_op() -> impl Strategy<Value = Op> {
    prop_oneof![
        3 => (acct(), 0..2usize, asset(), asset(), prop::bool::weighted(0.3)).prop_map(
            |(from, which, pays, gets, hybrid)| Op::DomainOffer {
                from,
                which,
                pays,
                gets,
                hybrid
            }
        ),
        2 => (acct(), acct(), 0..2usize, asset(), asset(), any::<bool>()).prop_map(
            |(from, to, which, deliver, send_max, partial)| Op::DomainCross {
                from,
                to,
                which,
                deliver,
                send_max,
                partial
            }
        ),
    ]
}

/// The transaction of a permissioned DEX op.
fn pdex_tx(w: &World, op: &Op) -> (usize, Tx) {
    let domain = |which: usize| w.domains.get(which).copied().unwrap_or(Hash256([7; 32]));
    match op.clone() {
        Op::DomainOffer {
            from,
            which,
            pays,
            gets,
            hybrid,
        } => (
            from,
            Tx::new("OfferCreate")
                .amount("TakerPays", asset_amount(w, pays))
                .amount("TakerGets", asset_amount(w, gets))
                .h256("DomainID", domain(which))
                .flags(if hybrid { 0x0010_0000 } else { 0 }),
        ),
        Op::DomainCross {
            from,
            to,
            which,
            deliver,
            send_max,
            partial,
        } => (
            from,
            pay(&w.accts[to], asset_amount(w, deliver))
                .amount("SendMax", asset_amount(w, send_max))
                .h256("DomainID", domain(which))
                .flags(if partial { 0x0002_0000 } else { 0 }),
        ),
        _ => unreachable!("not a permissioned DEX op"),
    }
}

/// A start for the permissioned DEX mix: every account trusts the gateway's USD and
/// EUR and holds some; the gateway's domain accepts its KYC credential, which alice and
/// bob accept (carol is left out).
fn pdex_setup() -> Vec<Op> {
    let mut ops = Vec::new();
    for to in 1..NAMES.len() {
        for cur in 0..CURRENCIES.len() {
            ops.push(Op::Trust {
                from: to,
                to: 0,
                cur,
                limit: 10_000,
                flags: 0,
            });
            ops.push(Op::PayIou {
                from: 0,
                to,
                issuer: 0,
                cur,
                value: 500,
                partial: false,
            });
        }
    }
    ops.push(Op::DomainSet {
        from: 0,
        creds: vec![(0, 0)],
        which: None,
    });
    for subject in [1, 2] {
        ops.push(Op::CredCreate {
            from: 0,
            subject,
            kind: 0,
            expires_in: None,
        });
        ops.push(Op::CredAccept {
            from: subject,
            issuer: 0,
            kind: 0,
        });
    }
    ops
}

/// How many permissioned DEX ops of `ops` succeed: (offers, payments).
fn pdex_successes(ops: &[Op]) -> (usize, usize) {
    let mut w = world();
    let (mut offers, mut pays) = (0, 0);
    for op in ops {
        if let Some((_, t)) = step(&mut w, op) {
            match op {
                Op::DomainOffer { .. } if t.is_tes() => offers += 1,
                Op::DomainCross { .. } if t.is_tes() => pays += 1,
                _ => {}
            }
        }
    }
    (offers, pays)
}

/// NFToken ops: mints (often with a transfer fee), burns by the owner or the issuer,
/// offers, direct and brokered accepts, cancels; indexes pick among what was minted and
/// offered so far (or nothing).
fn nft_op() -> impl Strategy<Value = Op> {
    prop_oneof![
        (
            acct(),
            prop::sample::select(vec![0u32, 1, 8, 9, 0x19, 4]),
            prop::sample::select(vec![0u16, 1_000, 50_000]),
            0u32..3
        )
            .prop_map(|(from, flags, fee, taxon)| Op::NftMint {
                from,
                flags,
                fee,
                taxon
            }),
        (acct(), 0usize..40, prop::option::of(acct()))
            .prop_map(|(from, which, owner)| Op::NftBurn { from, which, owner }),
        (acct(), 0usize..40, 0i64..50_000_000, any::<bool>(), acct()).prop_map(
            |(from, which, drops, sell, owner)| Op::NftOffer {
                from,
                which,
                drops,
                sell,
                owner
            }
        ),
        (
            acct(),
            0usize..40,
            prop::option::of(0usize..40),
            0i64..2_000_000
        )
            .prop_map(|(from, which, other, broker_fee)| Op::NftAccept {
                from,
                which,
                other,
                broker_fee
            }),
        (acct(), 0usize..40).prop_map(|(from, which)| Op::NftCancel { from, which }),
        (acct(), 0usize..40, acct(), any::<bool>()).prop_map(|(from, which, owner, uri)| {
            Op::NftModify {
                from,
                which,
                owner,
                uri,
            }
        }),
    ]
}

/// MPT transactions over the issuances created so far (`which` past the end names one
/// that does not exist).
fn mpt_op() -> impl Strategy<Value = Op> {
    let which = || prop_oneof![9 => 0..2usize, 1 => 2..4usize];
    let holder = || prop::option::weighted(0.3, acct());
    prop_oneof![
        3 => (
            acct(),
            prop::sample::select(vec![0u32, 0x62, 0x62, 0x66, 0x22, 0x42, 0x80]),
            prop::option::of(prop_oneof![9 => 1u64..500, 1 => Just(0u64)]),
            prop::sample::select(vec![0u16, 0, 10_000, 50_000, 50_001])
        )
            .prop_map(|(from, flags, max, fee)| Op::MptCreate {
                from,
                flags,
                max,
                fee
            }),
        4 => (acct(), which(), holder(), prop::bool::weighted(0.2)).prop_map(
            |(from, which, holder, unauth)| Op::MptAuth {
                from,
                which,
                holder,
                unauth
            }
        ),
        1 => (acct(), which(), holder(), any::<bool>()).prop_map(
            |(from, which, holder, lock)| Op::MptSet {
                from,
                which,
                holder,
                lock
            }
        ),
        4 => (
            acct(),
            acct(),
            which(),
            0u64..300,
            prop::option::of(0u64..400),
            (any::<bool>(), any::<bool>())
        )
            .prop_map(|(from, to, which, value, send_max, (partial, mint))| Op::MptPay {
                mint,
                from,
                to,
                which,
                value,
                send_max,
                partial
            }),
        1 => (acct(), acct(), which(), 0u64..200).prop_map(|(from, holder, which, value)| {
            Op::MptClaw {
                from,
                holder,
                which,
                value,
            }
        }),
        1 => (acct(), which()).prop_map(|(from, which)| Op::MptDestroy { from, which }),
    ]
}

/// The transaction of an MPT op (and the issuance a create will make).
fn mpt_tx(w: &mut World, op: &Op) -> (usize, Tx) {
    use ledgerd::protocol::definitions::Field;
    use ledgerd::protocol::mpt::{MptAmount, MptId};
    use ledgerd::protocol::st::StValue;
    let id = |w: &World, which: usize| {
        w.mpts
            .get(which)
            .copied()
            .unwrap_or(MptId::new(999, &w.accts[0].id))
    };
    let with_id = |mut t: Tx, id: MptId| {
        t.0.set(
            Field::named("MPTokenIssuanceID"),
            StValue::Fixed(id.0.to_vec()),
        );
        t
    };
    let amount = |t: &mut Tx, name: &str, id: MptId, v: u64| {
        t.0.set(
            Field::named(name),
            StValue::MptAmount(MptAmount::new(v, id)),
        );
    };
    match *op {
        Op::MptCreate {
            from,
            flags,
            max,
            fee,
        } => {
            let a = &w.accts[from];
            w.mpts.push(MptId::new(w.env.seq(a), &a.id));
            let mut t = Tx::new("MPTokenIssuanceCreate").flags(flags);
            if let Some(m) = max {
                t.0.set(Field::named("MaximumAmount"), StValue::UInt64(m));
            }
            if fee > 0 {
                t.0.set(Field::named("TransferFee"), StValue::UInt16(fee));
            }
            (from, t)
        }
        Op::MptAuth {
            from,
            which,
            holder,
            unauth,
        } => {
            let mut t = with_id(Tx::new("MPTokenAuthorize"), id(w, which));
            if let Some(h) = holder {
                t = t.account("Holder", &w.accts[h].id);
            }
            (from, t.flags(u32::from(unauth)))
        }
        Op::MptSet {
            from,
            which,
            holder,
            lock,
        } => {
            let mut t = with_id(Tx::new("MPTokenIssuanceSet"), id(w, which));
            if let Some(h) = holder {
                t = t.account("Holder", &w.accts[h].id);
            }
            (from, t.flags(if lock { 1 } else { 2 }))
        }
        Op::MptPay {
            mint,
            from,
            to,
            which,
            value,
            send_max,
            partial,
        } => {
            let issuer = id(w, which).issuer();
            // Minting goes from the issuer to someone else.
            let (from, to) = match w.accts.iter().position(|x| x.id == issuer) {
                Some(i) if mint => (i, (i + 1 + to % 3) % w.accts.len()),
                _ => (from, to),
            };
            let mut t = Tx::new("Payment").account("Destination", &w.accts[to].id);
            amount(&mut t, "Amount", id(w, which), value);
            if let Some(m) = send_max {
                amount(&mut t, "SendMax", id(w, which), m);
            }
            (from, t.flags(if partial { 0x0002_0000 } else { 0 }))
        }
        Op::MptClaw {
            from,
            holder,
            which,
            value,
        } => {
            let mut t = Tx::new("Clawback").account("Holder", &w.accts[holder].id);
            amount(&mut t, "Amount", id(w, which), value);
            (from, t)
        }
        Op::MptDestroy { from, which } => (
            from,
            with_id(Tx::new("MPTokenIssuanceDestroy"), id(w, which)),
        ),
        _ => unreachable!("not an MPT op"),
    }
}

/// An asset: 0 = XRP, 1 = USD.gw, 2 = EUR.gw; with an amount in whole units.
fn asset() -> impl Strategy<Value = (usize, i64)> {
    (0..3usize, 1i64..300)
}

/// Two different assets (see [`asset`]).
fn pool() -> impl Strategy<Value = (usize, usize)> {
    (0..3usize, 1..3usize).prop_map(|(a, shift)| (a, (a + shift) % 3))
}

fn dex_op() -> impl Strategy<Value = Op> {
    prop_oneof![
        // Mostly the gateway, which holds its own tokens; the two assets always differ.
        (
            prop_oneof![Just(0usize), acct()],
            asset(),
            1..3usize,
            1i64..300,
            0u16..1000
        )
            .prop_map(|(from, a, shift, v, fee)| Op::AmmCreate {
                from,
                a,
                b: ((a.0 + shift) % 3, v),
                fee
            }),
        (prop_oneof![Just(0usize), acct()], pool(), asset())
            .prop_map(|(from, pool, amount)| Op::AmmDeposit { from, pool, amount }),
        (prop_oneof![Just(0usize), acct()], pool(), any::<bool>())
            .prop_map(|(from, pool, all)| Op::AmmWithdraw { from, pool, all }),
        (
            acct(),
            asset(),
            asset(),
            prop_oneof![
                Just(0u32),
                Just(0x0001_0000),
                Just(0x0002_0000),
                Just(0x0004_0000),
                Just(0x0008_0000)
            ]
        )
            .prop_map(|(from, pays, gets, flags)| Op::Offer {
                from,
                pays,
                gets,
                flags
            }),
        (acct(), 0u32..6).prop_map(|(from, back)| Op::OfferCancel { from, back }),
        (
            acct(),
            acct(),
            asset(),
            asset(),
            any::<bool>(),
            any::<bool>()
        )
            .prop_map(|(from, to, deliver, send_max, bridge, partial)| Op::Cross {
                from,
                to,
                deliver,
                send_max,
                bridge,
                partial,
            }),
    ]
}

/// An AMM transaction naming the pool of assets `pool` (see [`asset`]).
fn amm_tx(w: &World, name: &str, (a, b): (usize, usize)) -> Tx {
    let issue = |i: usize| asset_amount(w, (i, 1)).issue();
    let mut tx = Tx::new(name);
    for (field, i) in [("Asset", a), ("Asset2", b)] {
        tx.0.set(
            ledgerd::protocol::definitions::Field::named(field),
            ledgerd::protocol::st::StValue::Issue(issue(i)),
        );
    }
    tx
}

/// The amount of asset `a` (see [`asset`]) issued by the world's gateway.
fn asset_amount(w: &World, (a, v): (usize, i64)) -> Amount {
    match a {
        0 => Amount::Xrp(v * 1_000_000),
        n => w.accts[0].iou(CURRENCIES[n - 1], v),
    }
}

fn deferred_op() -> impl Strategy<Value = Op> {
    prop_oneof![
        (acct(), acct(), 0i64..3_000_000_000, 0u32..40, 0u32..80).prop_map(
            |(from, to, drops, finish_in, cancel_in)| Op::Escrow {
                from,
                to,
                drops,
                finish_in,
                cancel_in
            }
        ),
        (acct(), 0..4usize, any::<bool>()).prop_map(|(from, which, cancel)| Op::EscrowEnd {
            from,
            which,
            cancel
        }),
        (acct(), acct(), 0i64..3_000_000_000).prop_map(|(from, to, drops)| Op::Check {
            from,
            to,
            drops
        }),
        (acct(), 0..4usize, 0i64..3_000_000_000, any::<bool>()).prop_map(
            |(from, which, drops, cancel)| Op::CheckEnd {
                from,
                which,
                drops,
                cancel
            }
        ),
    ]
}

fn signers() -> impl Strategy<Value = Vec<usize>> {
    prop::collection::vec(acct(), 0..4)
}

fn custody_op() -> impl Strategy<Value = Op> {
    prop_oneof![
        (acct(), 0u32..4, signers()).prop_map(|(from, quorum, signers)| Op::SignerList {
            from,
            quorum,
            signers
        }),
        (acct(), acct(), signers()).prop_map(|(from, to, signers)| Op::Multi { from, to, signers }),
        (acct(), 0u32..4).prop_map(|(from, count)| Op::Tickets { from, count }),
        (acct(), acct(), 0u32..8).prop_map(|(from, to, back)| Op::Ticketed { from, to, back }),
        (acct(), acct(), any::<bool>()).prop_map(|(from, to, undo)| Op::Preauth { from, to, undo }),
        (acct(), acct(), 0..2usize, -2i64..200).prop_map(|(from, holder, cur, value)| {
            Op::Claw {
                from,
                holder,
                cur,
                value,
            }
        }),
    ]
}

struct World {
    env: Env,
    accts: Vec<Account>,
    chans: Vec<Hash256>,
    /// Escrows and checks created (or attempted), by owner and sequence.
    escrows: Vec<(usize, u32)>,
    checks: Vec<Hash256>,
    /// MPT issuances created (or attempted), in order.
    mpts: Vec<ledgerd::protocol::mpt::MptId>,
    /// NFTokenIDs minted (or attempted) and NFToken offers placed (or attempted).
    nfts: Vec<Hash256>,
    nft_offers: Vec<Hash256>,
    /// PermissionedDomains created (or attempted).
    domains: Vec<Hash256>,
    fees_burnt: i64,
    fresh: u32,
}

fn world() -> World {
    let mut env = Env::new();
    let accts: Vec<Account> = NAMES
        .iter()
        .enumerate()
        .map(|(i, n)| {
            Account::with_type(
                n,
                if i % 2 == 0 {
                    KeyType::Secp256k1
                } else {
                    KeyType::Ed25519
                },
            )
        })
        .collect();
    for a in &accts {
        env.fund(a, xrp(5_000));
    }
    // The gateway ripples by default, as issuers whose tokens trade on the DEX and in AMM
    // pools must (AMMCreate answers terNO_RIPPLE otherwise).
    env.apply(
        &accts[0],
        fset(ledgerd::engine::account_set::asf::DEFAULT_RIPPLE),
        Ter::tesSUCCESS,
    );
    let fees_burnt = 10 * accts.len() as i64 + 10;
    World {
        env,
        accts,
        chans: Vec::new(),
        escrows: Vec::new(),
        checks: Vec::new(),
        mpts: Vec::new(),
        nfts: Vec::new(),
        nft_offers: Vec::new(),
        domains: Vec::new(),
        fees_burnt,
        fresh: 0,
    }
}

/// Applies one op; returns (sender index, result) when a transaction was submitted.
fn step(w: &mut World, op: &Op) -> Option<(AccountId, Ter)> {
    let a = |i: usize| &w.accts[i];
    let (who, tx) = match op.clone() {
        Op::PayXrp { from, to, drops } => (from, pay(a(to), Amount::Xrp(drops))),
        Op::PayNew { from, drops } => {
            w.fresh += 1;
            let n = Account::new(&format!("fresh{}", w.fresh));
            (from, pay(&n, Amount::Xrp(drops)))
        }
        Op::PayIou {
            from,
            to,
            issuer,
            cur,
            value,
            partial,
        } => (
            from,
            pay(a(to), a(issuer).iou(CURRENCIES[cur], value)).flags(if partial {
                0x0002_0000
            } else {
                0
            }),
        ),
        Op::Trust {
            from,
            to,
            cur,
            limit,
            flags,
        } => (from, trust(a(to).iou(CURRENCIES[cur], limit)).flags(flags)),
        Op::Set { from, set, clear } => {
            let mut t = Tx::new("AccountSet");
            if set != 0 {
                t = t.u32("SetFlag", set);
            }
            if clear != 0 {
                t = t.u32("ClearFlag", clear);
            }
            (from, t)
        }
        Op::RegularKey { from, to } => {
            let t = Tx::new("SetRegularKey");
            (
                from,
                match to {
                    Some(k) => t.account("RegularKey", &a(k).id),
                    None => t,
                },
            )
        }
        Op::ChanCreate {
            from,
            to,
            drops,
            settle,
        } => {
            let seq = w.env.seq(a(from));
            w.chans
                .push(keylet::pay_channel(&a(from).id, &a(to).id, seq));
            (
                from,
                Tx::new("PaymentChannelCreate")
                    .account("Destination", &a(to).id)
                    .amount("Amount", Amount::Xrp(drops))
                    .u32("SettleDelay", settle)
                    .blob("PublicKey", a(from).kp.public.as_bytes()),
            )
        }
        Op::ChanFund { from, chan, drops } => {
            let c = w
                .chans
                .get(chan)
                .copied()
                .unwrap_or(Hash256([chan as u8; 32]));
            (
                from,
                Tx::new("PaymentChannelFund")
                    .h256("Channel", c)
                    .amount("Amount", Amount::Xrp(drops)),
            )
        }
        Op::ChanClaim {
            from,
            chan,
            drops,
            signer,
            flags,
        } => {
            let c = w
                .chans
                .get(chan)
                .copied()
                .unwrap_or(Hash256([chan as u8; 32]));
            let mut t = Tx::new("PaymentChannelClaim")
                .h256("Channel", c)
                .flags(flags);
            if drops > 0 {
                let sig = sign_claim(&a(signer).kp, &c, drops as u64);
                t = t
                    .amount("Balance", Amount::Xrp(drops))
                    .blob("Signature", &sig)
                    .blob("PublicKey", a(signer).kp.public.as_bytes());
            }
            (from, t)
        }
        Op::BadSeq { from, offset } => {
            let seq = (w.env.seq(a(from)) as i64 + offset as i64).max(0) as u32;
            (
                from,
                pay(a((from + 1) % NAMES.len()), xrp(1)).u32("Sequence", seq),
            )
        }
        Op::SignerList {
            from,
            quorum,
            signers,
        } => {
            let entries: Vec<(&Account, u16)> = signers.iter().map(|i| (a(*i), 1)).collect();
            (from, signer_list(quorum, &entries))
        }
        Op::Multi { from, to, signers } => return multi_step(w, from, to, &signers),
        Op::Tickets { from, count } => (from, ticket_create(count)),
        Op::Ticketed { from, to, back } => {
            let ticket = w.env.seq(a(from)).saturating_sub(back + 1);
            (from, with_ticket(pay(a(to), xrp(1)), ticket))
        }
        Op::Preauth { from, to, undo } => (
            from,
            if undo {
                unpreauth(a(to))
            } else {
                preauth(a(to))
            },
        ),
        Op::Claw {
            from,
            holder,
            cur,
            value,
        } => (from, clawback(a(holder).iou(CURRENCIES[cur], value))),
        Op::Escrow {
            from,
            to,
            drops,
            finish_in,
            cancel_in,
        } => {
            w.escrows.push((from, w.env.seq(a(from))));
            let now = w.env.parent_close();
            let mut t = escrow_create(a(to), drops_of(drops)).u32("FinishAfter", now + finish_in);
            if cancel_in > 0 {
                t = t.u32("CancelAfter", now + cancel_in);
            }
            (from, t)
        }
        Op::EscrowEnd {
            from,
            which,
            cancel,
        } => {
            let (owner, seq) = w.escrows.get(which).copied().unwrap_or((0, 1));
            let t = if cancel {
                escrow_cancel(a(owner), seq)
            } else {
                escrow_finish(a(owner), seq)
            };
            (from, t)
        }
        Op::Check { from, to, drops } => {
            w.checks
                .push(keylet::check(&a(from).id, w.env.seq(a(from))));
            (from, check_create(a(to), drops_of(drops)))
        }
        Op::CheckEnd {
            from,
            which,
            drops,
            cancel,
        } => {
            let key = w.checks.get(which).copied().unwrap_or(Hash256([3; 32]));
            let t = if cancel {
                check_cancel(key)
            } else {
                check_cash(key, drops_of(drops))
            };
            (from, t)
        }
        Op::Offer {
            from,
            pays,
            gets,
            flags,
        } => (
            from,
            Tx::new("OfferCreate")
                .amount("TakerPays", asset_amount(w, pays))
                .amount("TakerGets", asset_amount(w, gets))
                .flags(flags),
        ),
        Op::AmmCreate { from, a, b, fee } => {
            let mut tx = Tx::new("AMMCreate")
                .amount("Amount", asset_amount(w, a))
                .amount("Amount2", asset_amount(w, b))
                .amount("Fee", Amount::Xrp(2_000_000));
            tx.0.set(
                ledgerd::protocol::definitions::Field::named("TradingFee"),
                ledgerd::protocol::st::StValue::UInt16(fee),
            );
            (from, tx)
        }
        Op::AmmDeposit { from, pool, amount } => (
            from,
            amm_tx(w, "AMMDeposit", pool)
                .amount("Amount", asset_amount(w, amount))
                .flags(0x0008_0000),
        ),
        Op::AmmWithdraw { from, pool, all } => (
            from,
            amm_tx(w, "AMMWithdraw", pool).flags(if all { 0x0002_0000 } else { 0x0001_0000 }),
        ),
        Op::OfferCancel { from, back } => {
            let seq = w.env.seq(a(from)).saturating_sub(back).max(1);
            (from, Tx::new("OfferCancel").u32("OfferSequence", seq))
        }
        Op::Cross {
            from,
            to,
            deliver,
            send_max,
            bridge,
            partial,
        } => {
            let mut tx = pay(a(to), asset_amount(w, deliver))
                .amount("SendMax", asset_amount(w, send_max))
                .flags(if partial { 0x0002_0000 } else { 0 });
            if bridge {
                tx = tx.paths(vec![vec![PathStep {
                    account: None,
                    currency: Some(Currency::XRP),
                    issuer: None,
                }]]);
            }
            (from, tx)
        }
        Op::MptCreate { .. }
        | Op::MptAuth { .. }
        | Op::MptSet { .. }
        | Op::MptPay { .. }
        | Op::MptClaw { .. }
        | Op::MptDestroy { .. } => mpt_tx(w, op),
        Op::MptMutate { .. } => mpt_mutate_tx(w, op),
        op @ (Op::NftMint { .. }
        | Op::NftBurn { .. }
        | Op::NftOffer { .. }
        | Op::NftAccept { .. }
        | Op::NftCancel { .. }
        | Op::NftModify { .. }) => nft_tx(w, &op),
        Op::DidSet { .. }
        | Op::DidDelete { .. }
        | Op::OracleSet { .. }
        | Op::OracleDelete { .. } => did_oracle_tx(w, op),
        op @ (Op::DomainOffer { .. } | Op::DomainCross { .. }) => pdex_tx(w, &op),
        op @ (Op::SponsorSet { .. } | Op::Sponsored { .. } | Op::SponsorEnd { .. }) => {
            sponsor_tx(w, &op)
        }
        op @ (Op::CredCreate { .. }
        | Op::CredAccept { .. }
        | Op::CredDelete { .. }
        | Op::PreauthCreds { .. }
        | Op::PayCreds { .. }
        | Op::DomainSet { .. }
        | Op::DomainDelete { .. }) => cred_tx(w, &op),
        Op::Close { secs } => {
            w.env.close_after(secs);
            // Held (ter) transactions retried into the new open ledger paid their fees.
            for t in w.env.store.open_txs() {
                w.fees_burnt += t.tx().drops_of(sf().fee);
            }
            return None;
        }
    };
    let ticketed = tx.0.get(sf().ticket_sequence).is_some();
    // The fee the transaction names (AMMCreate pays a reserve increment), else the base fee.
    let fee =
        tx.0.amount_of(sf().fee)
            .and_then(|a| a.as_drops())
            .unwrap_or(10);
    let created = match tx.0.get_named("TicketCount") {
        Some(ledgerd::protocol::st::StValue::UInt32(n)) => *n,
        _ => 0,
    };
    let id = w.accts[who].id;
    let seq_before = w.env.seq(&w.accts[who]);
    let bal_before = w.env.balance(&w.accts[who]);
    // Sign with the master key, or with the regular key once the master is disabled.
    let root = w.env.root(&w.accts[who]).expect("funded");
    let regular = root
        .account_of(sf().regular_key)
        .and_then(|k| w.accts.iter().find(|x| x.id == k));
    let kp = match regular {
        Some(r) if root.is_flag(lsf::DISABLE_MASTER) => r.kp.clone(),
        _ => w.accts[who].kp.clone(),
    };
    let ter = w.env.submit_signed(&w.accts[who], &kp, tx);
    if matches!(op, Op::MptCreate { .. }) && !ter.is_tes() {
        w.mpts.pop();
    }
    let seq_after = w.env.seq(&w.accts[who]);
    if ter.is_applied() {
        let used = match (ticketed, ter.is_tes()) {
            (true, true) => created,
            (true, false) => 0,
            (false, true) => 1 + created,
            (false, false) => 1,
        };
        assert_eq!(
            seq_after,
            seq_before + used,
            "{ter}: applied consumes its sequence (and the tickets it created)"
        );
        w.fees_burnt += fee;
    } else {
        assert_eq!(
            seq_after, seq_before,
            "{ter}: not applied, sequence unchanged"
        );
        assert_eq!(w.env.balance(&w.accts[who]), bal_before, "{ter}: no fee");
    }
    assert!(ter != Ter::tecINVARIANT_FAILED && ter != Ter::tefINVARIANT_FAILED);
    Some((id, ter))
}

/// The NFToken transaction an op stands for, noting the IDs and offers it may create.
fn nft_tx(w: &mut World, op: &Op) -> (usize, Tx) {
    let pick = |v: &Vec<Hash256>, i: usize| v.get(i).copied().unwrap_or(Hash256([5; 32]));
    match *op {
        Op::NftMint {
            from,
            flags,
            fee,
            taxon,
        } => {
            let root = w.env.root(&w.accts[from]).expect("funded");
            let minted = root.u32_of(sf().minted_nftokens).unwrap_or(0);
            let first = root
                .u32_of(sf().first_nftoken_sequence)
                .unwrap_or_else(|| w.env.seq(&w.accts[from]));
            let id = nft::token_id(flags as u16, fee, &w.accts[from].id, taxon, first + minted);
            w.nfts.push(id);
            let mut tx = Tx::new("NFTokenMint")
                .u32("NFTokenTaxon", taxon)
                .flags(flags);
            if taxon == 2 {
                // A mint that also offers the token for sale (NFTokenMintOffer).
                w.nft_offers.push(keylet::nftoffer(
                    &w.accts[from].id,
                    w.env.seq(&w.accts[from]),
                ));
                tx = tx.amount("Amount", Amount::Xrp(1_000));
            }
            tx.0.set(
                sf().transfer_fee,
                ledgerd::protocol::st::StValue::UInt16(fee),
            );
            (from, tx)
        }
        Op::NftBurn { from, which, owner } => {
            let mut tx = Tx::new("NFTokenBurn").h256("NFTokenID", pick(&w.nfts, which));
            if let Some(o) = owner {
                tx = tx.account("Owner", &w.accts[o].id);
            }
            (from, tx)
        }
        Op::NftOffer {
            from,
            which,
            drops,
            sell,
            owner,
        } => {
            w.nft_offers.push(keylet::nftoffer(
                &w.accts[from].id,
                w.env.seq(&w.accts[from]),
            ));
            let tx = Tx::new("NFTokenCreateOffer")
                .h256("NFTokenID", pick(&w.nfts, which))
                .amount("Amount", Amount::Xrp(drops));
            let tx = if sell {
                tx.flags(1)
            } else {
                tx.account("Owner", &w.accts[owner].id)
            };
            (from, tx)
        }
        Op::NftAccept {
            from,
            which,
            other,
            broker_fee,
        } => {
            let first = pick(&w.nft_offers, which);
            let mut tx = Tx::new("NFTokenAcceptOffer");
            match other {
                None => {
                    let sell = nft::offer_at(&w.env.store.current().view, &first)
                        .is_some_and(|o| nft::is_sell(&o));
                    let field = if sell {
                        "NFTokenSellOffer"
                    } else {
                        "NFTokenBuyOffer"
                    };
                    tx = tx.h256(field, first);
                }
                Some(i) => {
                    tx = tx
                        .h256("NFTokenBuyOffer", first)
                        .h256("NFTokenSellOffer", pick(&w.nft_offers, i));
                    if broker_fee > 0 {
                        tx = tx.amount("NFTokenBrokerFee", Amount::Xrp(broker_fee));
                    }
                }
            }
            (from, tx)
        }
        Op::NftCancel { from, which } => {
            let mut tx = Tx::new("NFTokenCancelOffer");
            tx.0.set(
                sf().nftoken_offers,
                ledgerd::protocol::st::StValue::Vector256(vec![pick(&w.nft_offers, which)]),
            );
            (from, tx)
        }
        Op::NftModify {
            from,
            which,
            owner,
            uri,
        } => {
            let mut tx = Tx::new("NFTokenModify")
                .h256("NFTokenID", pick(&w.nfts, which))
                .account("Owner", &w.accts[owner].id);
            if uri {
                tx = tx.blob("URI", b"ipfs://x");
            }
            (from, tx)
        }
        _ => unreachable!("not an NFToken op"),
    }
}

fn drops_of(d: i64) -> Amount {
    Amount::Xrp(d)
}

/// A payment from `from` multi-signed by `signers` (their master keys, or the regular key
/// once the master is disabled).
fn multi_step(
    w: &mut World,
    from: usize,
    to: usize,
    signers: &[usize],
) -> Option<(AccountId, Ter)> {
    let mut list: Vec<usize> = signers.to_vec();
    list.sort();
    list.dedup();
    let keys: Vec<(Account, ledgerd::protocol::keys::KeyPair)> = list
        .iter()
        .map(|i| {
            let acct = w.accts[*i].clone();
            let kp = signing_key(w, *i);
            (acct, kp)
        })
        .collect();
    let refs: Vec<(&Account, &ledgerd::protocol::keys::KeyPair)> =
        keys.iter().map(|(a, k)| (a, k)).collect();
    let who = w.accts[from].clone();
    let (seq_before, bal_before) = (w.env.seq(&who), w.env.balance(&who));
    let ter = if refs.is_empty() {
        // No signer at all: refused before the ledger (nothing to verify).
        return None;
    } else {
        w.env
            .submit_multisigned(&who, &refs, pay(&w.accts[to].clone(), xrp(1)))
    };
    if ter.is_applied() {
        assert_eq!(w.env.seq(&who), seq_before + 1, "{ter}");
        w.fees_burnt += 10 * (1 + refs.len() as i64);
    } else {
        assert_eq!(w.env.seq(&who), seq_before, "{ter}");
        assert_eq!(w.env.balance(&who), bal_before, "{ter}: no fee");
    }
    assert!(ter != Ter::tecINVARIANT_FAILED && ter != Ter::tefINVARIANT_FAILED);
    Some((who.id, ter))
}

/// The key account `i` signs with: its master key, or its regular key once the master
/// is disabled.
fn signing_key(w: &World, i: usize) -> ledgerd::protocol::keys::KeyPair {
    let Some(root) = w.env.root(&w.accts[i]) else {
        return w.accts[i].kp.clone();
    };
    let regular = root
        .account_of(sf().regular_key)
        .and_then(|k| w.accts.iter().find(|x| x.id == k));
    match regular {
        Some(r) if root.is_flag(lsf::DISABLE_MASTER) => r.kp.clone(),
        _ => w.accts[i].kp.clone(),
    }
}

/// Ledger-wide checks over the whole open state.
fn check_state(w: &World) {
    let snap = w.env.store.current();
    let s = sf();
    let mut xrp: i128 = 0;
    let mut owned: HashMap<AccountId, u32> = HashMap::new();
    let mut counts: HashMap<AccountId, u32> = HashMap::new();
    let mut dir_entries: HashMap<AccountId, Vec<Hash256>> = HashMap::new();
    let mut must_list: Vec<(AccountId, Hash256)> = Vec::new();
    let mut book_entries: Vec<(Hash256, Hash256)> = Vec::new();
    // Book pages' DomainIDs, and each offer's pages with the domain each must carry.
    let mut page_domains: HashMap<Hash256, Option<Hash256>> = HashMap::new();
    let mut offer_pages: Vec<(Hash256, Option<Hash256>)> = Vec::new();
    let mut offers: Vec<(Hash256, Hash256, u64)> = Vec::new();
    // Per issuance key: OutstandingAmount less what its holders hold.
    let mut mpt_out: HashMap<Hash256, i128> = HashMap::new();
    let (mut tokens_held, mut tokens_alive) = (0i64, 0i64);
    snap.view
        .for_each(|key, o| match o.u16_of(s.ledger_entry_type) {
            Some(lt::ACCOUNT_ROOT) => {
                let b = o.drops_of(s.balance);
                assert!((0..=DROPS_MAX as i64).contains(&b));
                tokens_alive += i64::from(o.u32_of(s.minted_nftokens).unwrap_or(0))
                    - i64::from(o.u32_of(s.burned_nftokens).unwrap_or(0));
                xrp += b as i128;
                counts.insert(
                    o.account_of(s.account).unwrap(),
                    o.u32_of(s.owner_count).unwrap(),
                );
            }
            Some(lt::PAYCHAN) => {
                let (amt, bal) = (o.drops_of(s.amount), o.drops_of(s.balance));
                assert!(0 <= bal && bal <= amt, "channel balance within amount");
                xrp += (amt - bal) as i128;
                let owner = o.account_of(s.account).unwrap();
                *owned.entry(owner).or_default() += 1;
                must_list.push((owner, *key));
                must_list.push((o.account_of(s.destination).unwrap(), *key));
            }
            Some(lt::RIPPLE_STATE) => {
                let f = o.flags();
                for (field, bit) in [
                    (s.low_limit, lsf::LOW_RESERVE),
                    (s.high_limit, lsf::HIGH_RESERVE),
                ] {
                    let Some(Amount::Iou {
                        issuer, currency, ..
                    }) = o.amount_of(field)
                    else {
                        panic!("no XRP trust lines");
                    };
                    assert!(!currency.is_xrp());
                    must_list.push((issuer, *key));
                    if f & bit != 0 {
                        *owned.entry(issuer).or_default() += 1;
                    }
                }
            }
            Some(lt::ESCROW) => {
                xrp += o.drops_of(s.amount) as i128;
                let owner = o.account_of(s.account).unwrap();
                *owned.entry(owner).or_default() += 1;
                must_list.push((owner, *key));
                must_list.push((o.account_of(s.destination).unwrap(), *key));
            }
            Some(lt::CHECK) => {
                let owner = o.account_of(s.account).unwrap();
                *owned.entry(owner).or_default() += 1;
                must_list.push((owner, *key));
                must_list.push((o.account_of(s.destination).unwrap(), *key));
            }
            Some(lt::MPTOKEN_ISSUANCE) => {
                let issuer = o.account_of(s.issuer).unwrap();
                *owned.entry(issuer).or_default() += 1;
                must_list.push((issuer, *key));
                let out = o.u64_of(s.outstanding_amount).unwrap();
                assert!(out <= o.u64_of(s.maximum_amount).unwrap_or(i64::MAX as u64));
                check_dynamic_mpt(o);
                *mpt_out.entry(*key).or_default() += i128::from(out);
            }
            Some(lt::MPTOKEN) => {
                let holder = o.account_of(s.account).unwrap();
                *owned.entry(holder).or_default() += 1;
                must_list.push((holder, *key));
                let id = o.mpt_id_of(s.mpt_issuance_id).unwrap();
                let held = o.u64_of(s.mpt_amount);
                assert_ne!(held, Some(0), "a zero MPTAmount is left out");
                *mpt_out.entry(keylet::mpt_issuance(&id)).or_default() -=
                    i128::from(held.unwrap_or(0));
            }
            Some(lt::TICKET) | Some(lt::DEPOSIT_PREAUTH) => {
                let owner = o.account_of(s.account).unwrap();
                *owned.entry(owner).or_default() += 1;
                must_list.push((owner, *key));
            }
            Some(lt::SIGNER_LIST) => {
                let owner = w
                    .accts
                    .iter()
                    .map(|a| a.id)
                    .find(|id| keylet::signers(id) == *key)
                    .expect("a list of a known account");
                *owned.entry(owner).or_default() += 1;
                must_list.push((owner, *key));
            }
            Some(lt::DIR_NODE) => match o.account_of(s.owner) {
                Some(owner) => dir_entries
                    .entry(owner)
                    .or_default()
                    .extend(o.v256_of(s.indexes).unwrap_or(&[])),
                None => {
                    page_domains.insert(*key, o.h256_of(s.domain_id));
                    book_entries.extend(
                        o.v256_of(s.indexes)
                            .unwrap_or(&[])
                            .iter()
                            .map(|k| (*key, *k)),
                    )
                }
            },
            Some(lt::NFTOKEN_PAGE) => {
                let mut a = [0u8; 20];
                a.copy_from_slice(&key.0[..20]);
                *owned.entry(AccountId(a)).or_default() += 1;
                let ids: Vec<Hash256> = nft::page_tokens(o)
                    .iter()
                    .map(|t| t.h256_of(s.nftoken_id).unwrap())
                    .collect();
                assert!((1..=32).contains(&ids.len()), "1 to 32 tokens a page");
                assert!(ids
                    .windows(2)
                    .all(|p| nft::compare_tokens(&p[0], &p[1]).is_lt()));
                tokens_held += ids.len() as i64;
            }
            Some(lt::DID) => {
                let owner = o.account_of(s.account).unwrap();
                assert_eq!(keylet::did(&owner), *key);
                *owned.entry(owner).or_default() += 1;
                must_list.push((owner, *key));
                let held = ["URI", "DIDDocument", "Data"]
                    .iter()
                    .filter_map(|f| o.get_blob(f))
                    .inspect(|b| assert!(!b.is_empty() && b.len() <= 256))
                    .count();
                assert!(held >= 1, "a DID holds something");
            }
            Some(lt::ORACLE) => {
                let owner = o.account_of(s.owner).unwrap();
                let series = o.get_array("PriceDataSeries").unwrap();
                assert!((1..=10).contains(&series.len()), "1 to 10 pairs");
                let mut pairs: Vec<_> = series
                    .iter()
                    .map(|(_, e)| (e.get(s.base_asset).cloned(), e.get(s.quote_asset).cloned()))
                    .map(|(b, q)| format!("{b:?}/{q:?}"))
                    .collect();
                pairs.sort();
                pairs.dedup();
                assert_eq!(pairs.len(), series.len(), "no pair twice");
                *owned.entry(owner).or_default() += if series.len() > 5 { 2 } else { 1 };
                must_list.push((owner, *key));
            }
            Some(lt::CREDENTIAL) => {
                let issuer = o.account_of(s.issuer).unwrap();
                let subject = o.account_of(s.subject).unwrap();
                let accepted = o.is_flag(lsf_credential::ACCEPTED);
                assert!(accepted || issuer != subject, "self-issued means accepted");
                *owned
                    .entry(if accepted { subject } else { issuer })
                    .or_default() += 1;
                must_list.push((issuer, *key));
                must_list.push((subject, *key));
            }
            Some(lt::SPONSORSHIP) => {
                // Its FeeAmount is XRP held for the sponsee's fees; it counts toward its
                // sponsor's OwnerCount and is in both directories.
                xrp += o.drops_of(s.fee_amount) as i128;
                let owner = o.account_of(s.owner).unwrap();
                let sponsee = o
                    .account_of(ledgerd::protocol::definitions::Field::named("Sponsee"))
                    .unwrap();
                *owned.entry(owner).or_default() += 1;
                must_list.push((owner, *key));
                must_list.push((sponsee, *key));
            }
            Some(lt::PERMISSIONED_DOMAIN) => {
                let owner = o.account_of(s.owner).unwrap();
                *owned.entry(owner).or_default() += 1;
                must_list.push((owner, *key));
            }
            Some(lt::NFTOKEN_OFFER) => {
                let owner = o.account_of(s.owner).unwrap();
                *owned.entry(owner).or_default() += 1;
                must_list.push((owner, *key));
            }
            Some(lt::OFFER) => {
                let owner = o.account_of(s.account).unwrap();
                *owned.entry(owner).or_default() += 1;
                must_list.push((owner, *key));
                let dir = o.h256_of(s.book_directory).unwrap();
                let node = o.u64_of(s.book_node).unwrap_or(0);
                offers.push((*key, dir, node));
                offer_pages.push((keylet::dir_page(&dir, node), o.h256_of(s.domain_id)));
                // A hybrid offer is also on the open book's page, which names no domain.
                for (dir, node) in ledgerd::engine::dex::additional_books(o) {
                    offers.push((*key, dir, node));
                    offer_pages.push((keylet::dir_page(&dir, node), None));
                }
                let hybrid = o.is_flag(ledgerd::ledger::flags::lsf_offer::HYBRID);
                assert_eq!(
                    hybrid,
                    o.get(s.additional_books).is_some(),
                    "hybrid offers, and only they, list an additional book"
                );
                assert!(!hybrid || o.h256_of(s.domain_id).is_some());
                for f in [s.taker_pays, s.taker_gets] {
                    let a = o.amount_of(f).unwrap();
                    assert!(
                        !a.is_zero() && !a.is_negative(),
                        "offers hold positive amounts"
                    );
                }
            }
            _ => {}
        });
    assert_eq!(
        tokens_held, tokens_alive,
        "minted less burned tokens are on pages"
    );
    assert_eq!(
        xrp + w.fees_burnt as i128,
        DROPS_MAX as i128,
        "XRP neither created nor destroyed"
    );
    assert_eq!(
        w.fees_burnt,
        fees_claimed(w),
        "the fees burnt are those of the transactions the ledgers hold"
    );
    for (acct, n) in &counts {
        assert_eq!(
            owned.get(acct).copied().unwrap_or(0),
            *n,
            "OwnerCount of {acct}"
        );
    }
    for (acct, key) in must_list {
        assert!(
            dir_entries.get(&acct).is_some_and(|v| v.contains(&key)),
            "entry listed in its owners' directories"
        );
    }
    for (offer, root, page) in offers {
        let page_key = keylet::dir_page(&root, page);
        assert!(
            book_entries.contains(&(page_key, offer)),
            "each offer is listed on its book page"
        );
    }
    for (page, domain) in offer_pages {
        assert_eq!(
            page_domains.get(&page),
            Some(&domain),
            "an offer's book page names the offer's domain (none for the open book)"
        );
    }
    for (key, d) in &mpt_out {
        assert_eq!(*d, 0, "OutstandingAmount of {key:?} is its holders' total");
    }
    let header_coins = w.env.store.closed().ledger.unwrap().header.total_drops as i128;
    assert!(header_coins >= xrp);
    check_sponsor_counts(w);
}

/// How many offer and crossing-payment ops of `ops` succeed, and how many AMM ops.
fn dex_successes(ops: &[Op]) -> (usize, usize) {
    let mut w = world();
    let (mut ok, mut amm) = (0, 0);
    for op in ops {
        let is_amm = matches!(
            op,
            Op::AmmCreate { .. } | Op::AmmDeposit { .. } | Op::AmmWithdraw { .. }
        );
        let dex = matches!(
            op,
            Op::Offer { .. } | Op::Cross { .. } | Op::OfferCancel { .. }
        );
        if let Some((_, t)) = step(&mut w, op) {
            if dex && t.is_tes() {
                ok += 1;
            }
            if is_amm && t.is_tes() {
                amm += 1;
            }
        }
    }
    (ok, amm)
}

/// How many MPT ops of `ops` succeed, and how many of those are payments.
fn mpt_successes(ops: &[Op]) -> (usize, usize) {
    let mut w = world();
    let (mut ok, mut pays) = (0, 0);
    for op in ops {
        let mpt = matches!(
            op,
            Op::MptCreate { .. }
                | Op::MptAuth { .. }
                | Op::MptSet { .. }
                | Op::MptPay { .. }
                | Op::MptClaw { .. }
                | Op::MptDestroy { .. }
        );
        if let Some((_, t)) = step(&mut w, op) {
            if mpt && t.is_tes() {
                ok += 1;
                pays += usize::from(matches!(op, Op::MptPay { .. }));
            }
        }
    }
    (ok, pays)
}

/// How many NFToken ops of `ops` succeed: mints, and burns, offers, accepts and cancels.
fn nft_successes(ops: &[Op]) -> (usize, usize) {
    let mut w = world();
    let (mut mints, mut others) = (0, 0);
    for op in ops {
        let mint = matches!(op, Op::NftMint { .. });
        let other = matches!(
            op,
            Op::NftBurn { .. }
                | Op::NftOffer { .. }
                | Op::NftAccept { .. }
                | Op::NftCancel { .. }
                | Op::NftModify { .. }
        );
        if let Some((_, t)) = step(&mut w, op) {
            if mint && t.is_tes() {
                mints += 1;
            }
            if other && t.is_tes() {
                others += 1;
            }
        }
    }
    (mints, others)
}

/// How many DID and oracle ops of `ops` succeed: (DID ops, oracle ops).
fn did_oracle_successes(ops: &[Op]) -> (usize, usize) {
    let mut w = world();
    let (mut dids, mut oracles) = (0, 0);
    for op in ops {
        let did = matches!(op, Op::DidSet { .. } | Op::DidDelete { .. });
        let oracle = matches!(op, Op::OracleSet { .. } | Op::OracleDelete { .. });
        if let Some((_, t)) = step(&mut w, op) {
            dids += usize::from(did && t.is_tes());
            oracles += usize::from(oracle && t.is_tes());
        }
        check_state(&w);
    }
    (dids, oracles)
}

/// How many credential ops succeed, and how many payments presenting credentials.
fn credential_successes(ops: &[Op]) -> (usize, usize) {
    let mut w = world();
    let (mut ok, mut pays) = (0, 0);
    for op in ops {
        let pay = matches!(op, Op::PayCreds { .. });
        if let Some((_, t)) = step(&mut w, op) {
            if t.is_tes() {
                ok += 1;
                pays += usize::from(pay);
            }
        }
    }
    (ok, pays)
}

/// The fees of every transaction the ledgers hold (closed ones and the open one).
fn fees_claimed(w: &World) -> i64 {
    let (first, last) = w.env.store.complete_range();
    let closed: i64 = (first..=last)
        .filter_map(|s| w.env.store.by_seq(s)?.ledger)
        .flat_map(|l| l.txs.clone())
        .map(|t| t.tx().drops_of(sf().fee))
        .sum();
    let open: i64 = w
        .env
        .store
        .open_txs()
        .iter()
        .map(|t| t.tx().drops_of(sf().fee))
        .sum();
    closed + open
}

fn run(ops: &[Op]) -> (Vec<Ter>, Vec<Hash256>) {
    let mut w = world();
    let mut results = Vec::new();
    for op in ops {
        if let Some((_, t)) = step(&mut w, op) {
            results.push(t);
        }
        // A close rebuilds the ledger in canonical order and may leave a transaction out
        // (retried in the next open ledger): the fees are re-read from the ledgers there.
        if matches!(op, Op::Close { .. }) {
            w.fees_burnt = fees_claimed(&w);
            account_hash_holds(&w);
        }
        check_state(&w);
    }
    w.env.close();
    account_hash_holds(&w);
    let (first, last) = w.env.store.complete_range();
    let hashes = (first..=last)
        .map(|s| w.env.store.by_seq(s).unwrap().ledger.unwrap().header.hash)
        .collect();
    (results, hashes)
}

/// The last closed ledger's account hash is the hash of its entries, rebuilt from scratch
/// (a snapshot of them loads): the close's incremental state map stayed true.
fn account_hash_holds(w: &World) {
    let (header, entries) = w.env.store.export_closed();
    let owned = entries.iter().map(|(k, v)| (*k, (**v).clone())).collect();
    let cfg = w.env.store.config().clone();
    let loaded = ledgerd::ledgers::Ledgers::from_snapshot(cfg, header, owned);
    assert!(loaded.is_ok(), "{:?}", loaded.err());
}

/// Two runs of `ops` from the same start give the same results and ledger hashes (each
/// run checks the invariants after every transaction).
fn replays_identically(ops: &[Op]) -> Result<(), TestCaseError> {
    let (r1, h1) = run(ops);
    let (r2, h2) = run(ops);
    prop_assert_eq!(r1, r2);
    prop_assert_eq!(h1, h2);
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, .. ProptestConfig::default() })]

    #[test]
    fn invariants_sequences_and_replay(ops in prop::collection::vec(op(), 1..60)) {
        replays_identically(&ops)?;
    }

    /// Credential, credential-preauthorization, credential-carrying payment and domain
    /// transactions mixed with everything else: owner counts follow acceptance, both
    /// directories list a credential, expired ones vanish on tecEXPIRED.
    #[test]
    fn credential_sequences_keep_the_invariants(
        ops in prop::collection::vec(prop_oneof![
            4 => credential_op(),
            2 => op(),
            1 => (1u32..100).prop_map(|secs| Op::Close { secs }),
        ], 1..100)
    ) {
        replays_identically(&ops)?;
    }

    /// MPT transactions with DynamicMPT mutations: flags only grow, ImmutableFlags are
    /// defined and non-zero, a TransferFee needs lsfMPTCanTransfer (`check_dynamic_mpt`).
    #[test]
    fn dynamic_mpt_sequences_keep_the_invariants(
        ops in prop::collection::vec(prop_oneof![
            3 => dynamic_mpt_op(),
            3 => mpt_op(),
            1 => (1u32..100).prop_map(|secs| Op::Close { secs }),
        ], 1..80)
    ) {
        replays_identically(&ops)?;
    }

    /// Domain offers (some hybrid) and domain payments among members and others, with
    /// credentials coming and going and open offers beside them: every offer is listed on
    /// its book pages, a domain offer's page names its domain, a hybrid offer is also on
    /// an open page; the invariants (ValidPermissionedDEX among them) hold throughout.
    #[test]
    fn permissioned_dex_sequences_keep_the_invariants(
        ops in prop::collection::vec(prop_oneof![
            4 => pdex_op(),
            2 => credential_op(),
            2 => dex_op(),
            1 => (1u32..100).prop_map(|secs| Op::Close { secs }),
        ], 1..80)
    ) {
        let mut all = pdex_setup();
        all.extend(ops);
        replays_identically(&all)?;
    }

    /// Sponsor transactions inside the whole mix (every other kind of `op`): Sponsorships
    /// funded, drawn down by the fees and reserves they pay, deleted; sponsorships of
    /// lines and checks ended; XRP (FeeAmount included) neither created nor destroyed,
    /// owner counts and the sponsor counters true after every transaction.
    #[test]
    fn sponsor_sequences_keep_the_invariants(
        ops in prop::collection::vec(prop_oneof![
            3 => sponsor_op(),
            3 => op(),
            1 => (1u32..100).prop_map(|secs| Op::Close { secs }),
        ], 1..100)
    ) {
        replays_identically(&ops)?;
    }

    /// Mostly NFToken transactions: pages split and merge, offers come and go, sales pay
    /// transfer and broker fees; the invariants hold throughout.
    #[test]
    fn nftoken_sequences_keep_the_invariants(
        ops in prop::collection::vec(prop_oneof![
            4 => nft_op(),
            1 => (1u32..100).prop_map(|secs| Op::Close { secs }),
        ], 1..120)
    ) {
        replays_identically(&ops)?;
    }
}

/// The generator reaches both sides: many transactions succeed and many fail, across
/// result classes, so the properties above are not vacuous.
#[test]
fn generated_sequences_mix_success_and_failure() {
    use proptest::strategy::ValueTree;
    use proptest::test_runner::{Config, TestRunner};
    let mut runner = TestRunner::new_with_rng(
        Config::default(),
        proptest::test_runner::TestRng::deterministic_rng(
            proptest::test_runner::RngAlgorithm::ChaCha,
        ),
    );
    let ops = prop::collection::vec(op(), 400)
        .new_tree(&mut runner)
        .expect("tree")
        .current();
    let (results, _) = run(&ops);
    let (dex_ok, amm_ok) = dex_successes(&ops);
    assert!(
        dex_ok >= 5,
        "offers and crossing payments succeed in the mix: {dex_ok}"
    );
    assert!(amm_ok >= 2, "AMM transactions succeed in the mix: {amm_ok}");
    // A random MPT mix over one working issuance (account 0's, transferable, held by
    // accounts 1 and 2), so `which` 0 names something payable.
    let mut mpt_ops = vec![Op::MptCreate {
        from: 0,
        flags: 0x62,
        max: Some(100_000),
        fee: 0,
    }];
    for holder in [1, 2] {
        mpt_ops.push(Op::MptAuth {
            from: holder,
            which: 0,
            holder: None,
            unauth: false,
        });
    }
    mpt_ops.extend(
        prop::collection::vec(mpt_op(), 300)
            .new_tree(&mut runner)
            .expect("tree")
            .current(),
    );
    let (mpt_ok, mpt_pays) = mpt_successes(&mpt_ops);
    assert!(
        mpt_ok >= 10 && mpt_pays >= 2,
        "MPT transactions succeed in the mix: {mpt_ok}, payments {mpt_pays}"
    );
    let nft_ops = prop::collection::vec(nft_op(), 300)
        .new_tree(&mut runner)
        .expect("tree")
        .current();
    let (mints, nft_ok) = nft_successes(&nft_ops);
    eprintln!("NFToken mints {mints}, other NFToken successes {nft_ok}");
    assert!(mints >= 20, "mints succeed in the NFToken mix: {mints}");
    assert!(
        nft_ok >= 5,
        "burns, offers, accepts succeed in the mix: {nft_ok}"
    );
    let did_oracle_ops = prop::collection::vec(
        prop_oneof![
            6 => did_oracle_op(),
            1 => (1u32..100).prop_map(|secs| Op::Close { secs }),
        ],
        200,
    )
    .new_tree(&mut runner)
    .expect("tree")
    .current();
    let (dids, oracles) = did_oracle_successes(&did_oracle_ops);
    eprintln!("DID successes {dids}, oracle successes {oracles}");
    assert!(dids >= 10, "DID transactions succeed in the mix: {dids}");
    assert!(
        oracles >= 10,
        "oracle transactions succeed in the mix: {oracles}"
    );
    // Credentials: a random mix after account 0 issued KYC to 1 and 2, who accepted it,
    // and 3 requires deposit authorization and preauthorized that set.
    let mut cred_ops = vec![
        Op::Set {
            from: 3,
            set: 9,
            clear: 0,
        },
        Op::PreauthCreds {
            from: 3,
            creds: vec![(0, 0)],
            undo: false,
        },
    ];
    for subject in [1, 2] {
        cred_ops.push(Op::CredCreate {
            from: 0,
            subject,
            kind: 0,
            expires_in: None,
        });
        cred_ops.push(Op::CredAccept {
            from: subject,
            issuer: 0,
            kind: 0,
        });
    }
    cred_ops.extend(
        prop::collection::vec(credential_op(), 300)
            .new_tree(&mut runner)
            .expect("tree")
            .current(),
    );
    let (cred_ok, cred_pays) = credential_successes(&cred_ops);
    eprintln!("credential successes {cred_ok}, payments with credentials {cred_pays}");
    assert!(
        cred_ok >= 30 && cred_pays >= 5,
        "credential transactions succeed in the mix: {cred_ok}, payments {cred_pays}"
    );
    let sponsor_ops = prop::collection::vec(
        prop_oneof![
            3 => sponsor_op(),
            1 => op(),
        ],
        300,
    )
    .new_tree(&mut runner)
    .expect("tree")
    .current();
    let (sponsor_ok, sponsor_objects) = sponsor_successes(&sponsor_ops);
    eprintln!("Sponsor successes {sponsor_ok:?}, at most {sponsor_objects} objects sponsored");
    // ChaCha seed: [36, 24, 8] successes, at most 9 objects naming a sponsor at once.
    assert!(
        sponsor_ok[0] >= 15 && sponsor_ok[1] >= 10 && sponsor_ok[2] >= 3 && sponsor_objects >= 3,
        "SponsorshipSet, sponsored and SponsorshipTransfer succeed in the mix: \
         {sponsor_ok:?}, {sponsor_objects} objects"
    );
    let mut by: HashMap<&'static str, usize> = HashMap::new();
    for r in &results {
        *by.entry(r.name()).or_default() += 1;
    }
    eprintln!("{by:?}");
    let count = |f: fn(&Ter) -> bool| results.iter().filter(|t| f(t)).count();
    assert!(count(|t| t.is_tes()) >= 40, "{by:?}");
    assert!(count(|t| t.is_tec()) >= 20, "{by:?}");
    assert!(
        count(|t| t.is_tem() || t.is_tef() || t.is_ter() || t.is_tel()) >= 20,
        "{by:?}"
    );
    assert!(by.len() >= 12, "{by:?}");
}

/// DynamicMPT mutations: capability flags (with the confidential one and a locking flag
/// now and then), ImmutableFlags (zero and undefined bits included), fees past the
/// limit, metadata empty or too long.
fn dynamic_mpt_op() -> impl Strategy<Value = Op> {
    let flags = prop::sample::select(vec![
        0u32, 0, 0x04, 0x08, 0x10, 0x40, 0x80, 0x7C, 0x100, 0x41,
    ]);
    let immutable = prop::option::weighted(
        0.4,
        prop::sample::select(vec![
            0u32, 0x02, 0x20, 0x1_0000, 0x2_0000, 0x3_0000, 0x80, 0x1,
        ]),
    );
    let fee = prop::option::weighted(
        0.4,
        prop::sample::select(vec![0u16, 100, 10_000, 50_000, 50_001]),
    );
    let meta = prop::option::weighted(0.3, prop::sample::select(vec![0usize, 3, 1024, 1025]));
    (acct(), 0..3usize, flags, immutable, fee, meta).prop_map(
        |(from, which, flags, immutable, fee, meta)| Op::MptMutate {
            from,
            which,
            flags,
            immutable,
            fee,
            meta,
        },
    )
}

fn mpt_mutate_tx(w: &World, op: &Op) -> (usize, Tx) {
    use ledgerd::protocol::definitions::Field;
    use ledgerd::protocol::mpt::MptId;
    use ledgerd::protocol::st::StValue;
    let Op::MptMutate {
        from,
        which,
        flags,
        immutable,
        fee,
        meta,
    } = op.clone()
    else {
        unreachable!("not a DynamicMPT op")
    };
    let id = w
        .mpts
        .get(which)
        .copied()
        .unwrap_or(MptId::new(999, &w.accts[0].id));
    let mut t = Tx::new("MPTokenIssuanceSet").flags(flags);
    t.0.set(
        Field::named("MPTokenIssuanceID"),
        StValue::Fixed(id.0.to_vec()),
    );
    if let Some(v) = immutable {
        t = t.u32("ImmutableFlags", v);
    }
    if let Some(v) = fee {
        t.0.set(Field::named("TransferFee"), StValue::UInt16(v));
    }
    if let Some(n) = meta {
        t = t.blob("MPTokenMetadata", &vec![b'm'; n]);
    }
    (from, t)
}

/// An issuance after DynamicMPT mutations: ImmutableFlags, TransferFee and metadata are
/// soeDEFAULT (never zero or empty when present) and within their bounds, and a fee
/// implies lsfMPTCanTransfer (which MPTokenIssuanceSet never clears).
fn check_dynamic_mpt(o: &ledgerd::protocol::st::StObject) {
    use ledgerd::ledger::flags::{lsf_mpt, lsif_mpt};
    let s = sf();
    if let Some(v) = o.u32_of(s.immutable_flags) {
        assert!(v != 0 && v & !lsif_mpt::ALL == 0, "ImmutableFlags {v:#x}");
    }
    if o.is_flag(lsf_mpt::CAN_HOLD_CONFIDENTIAL_BALANCE) {
        assert!(
            o.get(s.transfer_fee).is_none(),
            "a fee on confidential balances"
        );
    }
    if let Some(f) = o.u16_of(s.transfer_fee) {
        assert!((1..=50_000).contains(&f), "TransferFee {f}");
        assert!(
            o.is_flag(lsf_mpt::CAN_TRANSFER),
            "a fee without CanTransfer"
        );
    }
    if let Some(m) = o.blob_of(s.mptoken_metadata) {
        assert!((1..=1024).contains(&m.len()));
    }
}

/// Mutations reach both sides: some succeed, some fail with a tem or a tec.
#[test]
fn dynamic_mpt_mutations_succeed_and_fail() {
    use proptest::strategy::ValueTree;
    use proptest::test_runner::TestRunner;
    let mut runner = TestRunner::deterministic();
    let mut ops = vec![
        Op::MptCreate {
            from: 0,
            flags: 0,
            max: None,
            fee: 0,
        },
        Op::MptCreate {
            from: 1,
            flags: 0x22,
            max: None,
            fee: 0,
        },
    ];
    ops.extend(
        prop::collection::vec(dynamic_mpt_op(), 200)
            .new_tree(&mut runner)
            .expect("tree")
            .current(),
    );
    let mut w = world();
    let mut by: HashMap<&'static str, usize> = HashMap::new();
    for op in &ops {
        if let Some((_, t)) = step(&mut w, op) {
            if matches!(op, Op::MptMutate { .. }) {
                *by.entry(t.name()).or_default() += 1;
            }
        }
    }
    eprintln!("{by:?}");
    for code in [
        "tesSUCCESS",
        "tecNO_PERMISSION",
        "temMALFORMED",
        "temINVALID_FLAG",
    ] {
        assert!(by.get(code).copied().unwrap_or(0) >= 3, "{code}: {by:?}");
    }
}

// ---------------------------------------------------------------------------------------
// Permission delegation: its own small world and op mix.
// ---------------------------------------------------------------------------------------

/// Permissions the delegation ops give (some cannot be delegated).
const GRANTS: [&str; 6] = [
    "Payment",
    "PaymentMint",
    "CheckCreate",
    "AccountDomainSet",
    "TrustSet",
    "SetRegularKey",
];

/// A DelegateSet (`grants` a bit set over [`GRANTS`]; 0 deletes) or a Payment, a
/// CheckCreate or a Domain AccountSet sent by `by` for `from`.
#[derive(Debug, Clone)]
enum DelegateOp {
    Set {
        from: usize,
        to: usize,
        grants: u8,
    },
    Send {
        from: usize,
        by: usize,
        kind: u8,
        fee: i64,
    },
}

fn delegate_op() -> impl Strategy<Value = DelegateOp> {
    prop_oneof![
        (0..4usize, 0..4usize, 0u8..64).prop_map(|(from, to, grants)| DelegateOp::Set {
            from,
            to,
            grants
        }),
        (0..4usize, 0..4usize, 0u8..3, 10i64..5_000).prop_map(|(from, by, kind, fee)| {
            DelegateOp::Send {
                from,
                by,
                kind,
                fee,
            }
        }),
    ]
}

fn delegate_tx(accts: &[Account], op: &DelegateOp) -> (usize, Option<usize>, Tx) {
    match *op {
        DelegateOp::Set { from, to, grants } => {
            let list = (0..GRANTS.len())
                .filter(|i| grants & (1 << i) != 0)
                .map(|i| {
                    let mut p = ledgerd::protocol::st::StObject::new();
                    let v = ledgerd::protocol::permission::value_of_name(GRANTS[i]).unwrap();
                    p.set(
                        sf().permission_value,
                        ledgerd::protocol::st::StValue::UInt32(v),
                    );
                    (
                        ledgerd::protocol::definitions::Field::named("Permission"),
                        p,
                    )
                })
                .collect();
            let mut tx = Tx::new("DelegateSet").account("Authorize", &accts[to].id);
            tx.0.set(
                sf().permissions,
                ledgerd::protocol::st::StValue::Array(list),
            );
            (from, None, tx)
        }
        DelegateOp::Send {
            from,
            by,
            kind,
            fee,
        } => {
            let to = &accts[(from + 1) % accts.len()];
            let tx = match kind {
                0 => pay(to, xrp(1)),
                1 => check_create(to, xrp(1)),
                _ => account_set().blob("Domain", b"example.com"),
            };
            let tx = tx
                .amount("Fee", Amount::Xrp(fee))
                .account("Delegate", &accts[by].id);
            (from, Some(by), tx)
        }
    }
}

/// Runs delegation ops; after each, XRP is conserved less the fees, the fee came from
/// the delegate, the account's sequence moved only when applied, and every account's
/// OwnerCount is its Delegate entries plus its checks. Returns the results.
fn run_delegation(ops: &[DelegateOp]) -> Vec<Ter> {
    let mut env = Env::new();
    let accts: Vec<Account> = NAMES.iter().map(|n| Account::new(n)).collect();
    for a in &accts {
        env.fund(a, xrp(5_000));
    }
    let total = |env: &Env| accts.iter().map(|a| env.balance(a)).sum::<i64>();
    let mut results = Vec::new();
    for op in ops {
        let (from, by, tx) = delegate_tx(&accts, op);
        let signer = by.map_or(from, |b| b);
        let (seq, before) = (env.seq(&accts[from]), total(&env));
        let payer_before = env.balance(&accts[signer]);
        let ter = env.submit_signed(&accts[from], &accts[signer].kp.clone(), tx);
        let fee = if ter.is_applied() {
            before - total(&env)
        } else {
            0
        };
        assert_eq!(
            env.seq(&accts[from]),
            seq + u32::from(ter.is_applied()),
            "{ter}"
        );
        if let (Some(b), true) = (by, ter.is_applied() && from != signer) {
            let paid = payer_before - env.balance(&accts[b]);
            // The delegate may also be the payment's destination (one XRP in).
            assert!(
                paid == fee || paid == fee - 1_000_000,
                "{ter}: the delegate paid {paid}, fee {fee}"
            );
        }
        assert!(!ter.is_applied() || fee > 0, "{ter}");
        for a in &accts {
            let owned = env
                .owned(a)
                .iter()
                .filter(|k| {
                    env.read(k).is_some_and(|e| {
                        matches!(
                            e.u16_of(sf().ledger_entry_type),
                            Some(lt::DELEGATE | lt::CHECK)
                        ) && e.account_of(sf().account) == Some(a.id)
                    })
                })
                .count();
            assert_eq!(env.owner_count(a) as usize, owned, "{ter}");
        }
        results.push(ter);
    }
    results
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 32, .. ProptestConfig::default() })]

    /// DelegateSet and delegated sends among four accounts: the checks of
    /// [`run_delegation`] hold after every transaction, and a replay gives the same results.
    #[test]
    fn delegation_sequences_keep_the_invariants(
        ops in prop::collection::vec(delegate_op(), 1..60)
    ) {
        let r1 = run_delegation(&ops);
        prop_assert_eq!(&r1, &run_delegation(&ops));
    }
}

/// The delegation mix reaches success, permission refusals and malformed sets.
#[test]
fn delegation_ops_reach_both_sides() {
    let mut runner = proptest::test_runner::TestRunner::deterministic();
    let ops = prop::collection::vec(delegate_op(), 300)
        .new_tree(&mut runner)
        .expect("tree")
        .current();
    let results = run_delegation(&ops);
    let n = |t: Ter| results.iter().filter(|r| **r == t).count();
    let delegated_ok = ops
        .iter()
        .zip(&results)
        .filter(|(o, r)| matches!(o, DelegateOp::Send { from, by, .. } if from != by) && r.is_tes())
        .count();
    eprintln!("delegated successes {delegated_ok}");
    assert!(delegated_ok >= 10, "{delegated_ok}");
    assert!(n(Ter::terNO_DELEGATE_PERMISSION) >= 10);
    assert!(n(Ter::temMALFORMED) >= 10);
}

// ---------------------------------------------------------------- vaults

/// A vault op: (who of three holders, deposit or withdraw, by assets or by shares, drops).
type VaultOp = (usize, bool, bool, i64);

fn vault_op() -> impl Strategy<Value = VaultOp> {
    (0..3usize, any::<bool>(), any::<bool>(), 1i64..5_000_000)
}

/// Runs `ops` on one XRP vault and checks after each: AssetsTotal equals AssetsAvailable
/// and the pseudo-account's balance, OutstandingAmount equals the holders' shares, XRP is
/// only lost to fees, and nothing ends worse than a tec.
fn run_vault_ops(ops: &[VaultOp]) -> usize {
    use ledgerd::engine::vault::number_of;
    use ledgerd::protocol::mpt::MptAmount;
    use ledgerd::protocol::number::Number;
    use ledgerd::protocol::st::StValue;
    let mut env = Env::new();
    let holders = env.funded(["pvA", "pvB", "pvC"]);
    let owner = &holders[0];
    let seq = env.seq(owner);
    let mut create =
        Tx::new("VaultCreate").amount("Fee", drops(env.store.fees().reserve_inc_drops as i64));
    create.0.set(
        sf().asset,
        StValue::Issue(ledgerd::protocol::types::Issue::XRP),
    );
    env.apply(owner, create, Ter::tesSUCCESS);
    let key = keylet::vault(&owner.id, seq);
    let vault = env.read(&key).unwrap();
    let share = vault.mpt_id_of(sf().share_mpt_id).unwrap();
    let pseudo = vault.account_of(sf().account).unwrap();
    let mut ok = 0;
    for &(who, is_deposit, by_shares, n) in ops {
        let mut tx = Tx::new(if is_deposit {
            "VaultDeposit"
        } else {
            "VaultWithdraw"
        })
        .h256("VaultID", key)
        .amount("Amount", drops(n));
        if by_shares && !is_deposit {
            tx.0.set(
                sf().amount,
                StValue::MptAmount(MptAmount::new(n as u64, share)),
            );
        }
        let before: i64 = holders.iter().map(|h| env.balance(h)).sum::<i64>()
            + env
                .read(&keylet::account(&pseudo))
                .unwrap()
                .drops_of(sf().balance);
        let t = env.submit(&holders[who], tx);
        assert!(
            t.is_tes() || t.is_tec(),
            "{t} for {:?}",
            (who, is_deposit, by_shares, n)
        );
        ok += usize::from(t.is_tes());
        let v = env.read(&key).unwrap();
        let pseudo_xrp = env
            .read(&keylet::account(&pseudo))
            .unwrap()
            .drops_of(sf().balance);
        let total = number_of(&v, sf().assets_total);
        assert_eq!(total, number_of(&v, sf().assets_available));
        assert_eq!(total, Number::from_i64(pseudo_xrp));
        let held: u64 = holders
            .iter()
            .map(|h| {
                env.read(&keylet::mptoken(&share, &h.id))
                    .and_then(|t| t.u64_of(sf().mpt_amount))
                    .unwrap_or(0)
            })
            .sum();
        let iss = env.read(&keylet::mpt_issuance(&share)).unwrap();
        assert_eq!(iss.u64_of(sf().outstanding_amount), Some(held));
        let after: i64 = holders.iter().map(|h| env.balance(h)).sum::<i64>() + pseudo_xrp;
        assert_eq!(
            before - after,
            env.store.fees().base_drops as i64,
            "only the fee"
        );
    }
    ok
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, .. ProptestConfig::default() })]

    #[test]
    fn vault_deposits_and_withdrawals_keep_the_books(ops in prop::collection::vec(vault_op(), 1..40)) {
        run_vault_ops(&ops);
    }
}

#[test]
fn vault_ops_mostly_succeed() {
    let ops: Vec<VaultOp> = (0..60)
        .map(|i| (i % 3, i % 2 == 0, i % 4 == 1, 1_000 + (i as i64) * 7_919))
        .collect();
    let ok = run_vault_ops(&ops);
    assert!(ok >= 30, "{ok} of 60 succeed");
}

// ---------------------------------------------------------------- xchain account creates

/// An account create attestation: (witness of five, create count 1 to 5, which of two
/// amounts, which of three accounts to create).
type XCreateOp = (usize, u64, usize, usize);

fn xcreate_op() -> impl Strategy<Value = XCreateOp> {
    (0..5usize, 1u64..6, 0..2usize, 0..3usize)
}

/// The issuing chain of an XRP bridge: the root is the door (reward 1 XRP), five
/// witnesses with funded reward accounts, quorum 3, and a funded attester.
struct XChain {
    env: Env,
    b: ledgerd::protocol::xchain::XChainBridge,
    witnesses: Vec<Account>,
    rewards: Vec<Account>,
    attester: Account,
    dsts: Vec<Account>,
}

fn xchain_world() -> XChain {
    use ledgerd::protocol::st::StValue;
    let mut env = Env::new();
    let master = Account::master();
    let b = ledgerd::protocol::xchain::XChainBridge {
        locking_door: Account::new("pxMcDoor").id,
        locking_issue: ledgerd::protocol::types::Issue::XRP,
        issuing_door: master.id,
        issuing_issue: ledgerd::protocol::types::Issue::XRP,
    };
    let mut create = Tx::new("XChainCreateBridge")
        .amount("SignatureReward", xrp(1))
        .amount("MinAccountCreateAmount", xrp(20));
    create.0.set_named("XChainBridge", StValue::XChainBridge(b));
    env.apply(&master, create, Ter::tesSUCCESS);
    let witnesses: Vec<Account> = (0..5).map(|i| Account::new(&format!("pxW{i}"))).collect();
    let rewards: Vec<Account> = (0..5).map(|i| Account::new(&format!("pxR{i}"))).collect();
    for r in &rewards {
        env.fund(r, xrp(100));
    }
    let entries: Vec<(&Account, u16)> = witnesses.iter().map(|w| (w, 1)).collect();
    env.apply(&master, signer_list(3, &entries), Ter::tesSUCCESS);
    let [attester] = env.funded(["pxAttester"]);
    let dsts = (0..3).map(|i| Account::new(&format!("pxU{i}"))).collect();
    XChain {
        env,
        b,
        witnesses,
        rewards,
        attester,
        dsts,
    }
}

fn xcreate_tx(x: &XChain, &(w, count, amt, dst): &XCreateOp) -> Tx {
    use ledgerd::protocol::st::{StObject, StValue};
    let amount = xrp([30, 40][amt]);
    let (witness, reward_account, to) = (&x.witnesses[w], &x.rewards[w], &x.dsts[dst]);
    let source = Account::new("pxSource");
    let mut m = StObject::new();
    m.set_named("XChainAccountCreateCount", StValue::UInt64(count));
    m.set_named("Amount", StValue::Amount(amount));
    m.set_named("SignatureReward", StValue::Amount(xrp(1)));
    m.set_named("Destination", StValue::AccountId(to.id));
    m.set_named("OtherChainSource", StValue::AccountId(source.id));
    m.set_named(
        "AttestationRewardAccount",
        StValue::AccountId(reward_account.id),
    );
    m.set_named("WasLockingChainSend", StValue::UInt8(1));
    m.set_named("XChainBridge", StValue::XChainBridge(x.b));
    let sig = witness.kp.sign(&ledgerd::protocol::codec::encode(&m));
    let mut tx = Tx::new("XChainAddAccountCreateAttestation")
        .account("AttestationSignerAccount", &witness.id)
        .blob("PublicKey", witness.kp.public.as_bytes())
        .blob("Signature", &sig)
        .account("OtherChainSource", &source.id)
        .amount("Amount", amount)
        .amount("SignatureReward", xrp(1))
        .account("AttestationRewardAccount", &reward_account.id)
        .u8("WasLockingChainSend", 1)
        .account("Destination", &to.id);
    tx.0.set_named("XChainAccountCreateCount", StValue::UInt64(count));
    tx.0.set_named("XChainBridge", StValue::XChainBridge(x.b));
    tx
}

/// After each attestation: XRP is only lost to the fee, the claim count never goes back,
/// every waiting create lies past the claim count with at most one attestation per
/// witness, and the door owns the bridge, its signer list and the waiting creates.
fn check_xchain(x: &XChain, before_total: i64, last_count: u64, ter: Ter) -> (i64, u64) {
    let master = Account::master();
    let env = &x.env;
    let total = [&master, &x.attester]
        .into_iter()
        .chain(&x.rewards)
        .chain(&x.dsts)
        .map(|a| env.balance(a))
        .sum::<i64>();
    let fee = if ter.is_applied() { FEE } else { 0 };
    assert_eq!(before_total - total, fee, "{ter}: only the fee leaves");
    let bridge = env
        .read(&keylet::bridge(
            &x.b,
            ledgerd::protocol::xchain::ChainType::Issuing,
        ))
        .unwrap();
    let count = bridge.u64_of(sf().xchain_account_claim_count).unwrap();
    assert!(count >= last_count, "the claim count never goes back");
    let mut waiting = 0;
    for key in env.owned(&master) {
        let e = env.read(&key).unwrap();
        if e.u16_of(sf().ledger_entry_type) != Some(lt::XCHAIN_OWNED_CREATE_ACCOUNT_CLAIM_ID) {
            continue;
        }
        waiting += 1;
        let c = e.u64_of(sf().xchain_account_create_count).unwrap();
        assert!(c > count, "a waiting create {c} lies past {count}");
        let Some(ledgerd::protocol::st::StValue::Array(atts)) =
            e.get(sf().xchain_create_account_attestations)
        else {
            panic!("attestations");
        };
        let mut signers: Vec<_> = atts
            .iter()
            .map(|(_, a)| a.account_of(sf().attestation_signer_account))
            .collect();
        signers.sort();
        signers.dedup();
        assert_eq!(signers.len(), atts.len(), "one attestation per witness");
    }
    assert_eq!(env.owner_count(&master), 2 + waiting);
    (total, count)
}

/// Runs the attestations, checking [`check_xchain`] after each; the results.
fn run_xcreates(ops: &[XCreateOp]) -> Vec<Ter> {
    let mut x = xchain_world();
    let master = Account::master();
    let mut total = [&master, &x.attester]
        .into_iter()
        .chain(&x.rewards)
        .chain(&x.dsts)
        .map(|a| x.env.balance(a))
        .sum::<i64>();
    let mut count = 0;
    let mut results = Vec::new();
    for op in ops {
        let tx = xcreate_tx(&x, op);
        let attester = x.attester.clone();
        let ter = x.env.submit(&attester, tx);
        assert!(ter.is_tes() || ter.is_tec(), "{ter} for {op:?}");
        (total, count) = check_xchain(&x, total, count, ter);
        results.push(ter);
    }
    results
}

// ---------------------------------------------------------------- vaults of an MPT

/// An MPT vault op: (who of three holders, 0 deposit / 1 withdraw by assets / 2 withdraw
/// by shares / 3 the issuer claws back from them, units; a clawback takes units % 200, zero
/// meaning all).
type MptVaultOp = (usize, u8, u64);

fn mpt_vault_op() -> impl Strategy<Value = MptVaultOp> {
    (0..3usize, 0..4u8, 1u64..400)
}

/// What an MPT vault's books must show: AssetsTotal = AssetsAvailable = the
/// pseudo-account's MPTAmount, the shares' OutstandingAmount = the holders' shares, the
/// asset's OutstandingAmount = every MPToken's units.
fn check_mpt_vault(env: &Env, key: &Hash256, ids: [ledgerd::protocol::mpt::MptId; 2]) {
    use ledgerd::engine::vault::number_of;
    use ledgerd::protocol::number::Number;
    let [asset, share] = ids;
    let v = env.read(key).unwrap();
    let pseudo = v.account_of(sf().account).unwrap();
    let units = |id: &ledgerd::protocol::mpt::MptId, who: &AccountId| {
        env.read(&keylet::mptoken(id, who))
            .and_then(|t| t.u64_of(sf().mpt_amount))
            .unwrap_or(0)
    };
    let outstanding = |id| {
        env.read(&keylet::mpt_issuance(id))
            .and_then(|i| i.u64_of(sf().outstanding_amount))
            .unwrap_or(0)
    };
    let total = number_of(&v, sf().assets_total);
    assert_eq!(total, number_of(&v, sf().assets_available));
    assert_eq!(total, Number::from_i64(units(&asset, &pseudo) as i64));
    let names = ["pmA", "pmB", "pmC"].map(Account::new);
    let shares: u64 = names.iter().map(|h| units(&share, &h.id)).sum();
    assert_eq!(outstanding(&share), shares);
    let assets: u64 =
        names.iter().map(|h| units(&asset, &h.id)).sum::<u64>() + units(&asset, &pseudo);
    assert_eq!(outstanding(&asset), assets);
}

/// Runs `ops` on one vault of a clawback-able MPT; returns how many succeeded. Nothing
/// ends worse than a tec and the asset is never minted by the vault.
fn run_mpt_vault_ops(ops: &[MptVaultOp]) -> usize {
    use ledgerd::protocol::mpt::{MptAmount, MptId};
    use ledgerd::protocol::st::StValue;
    let mut env = Env::new();
    let holders = env.funded(["pmA", "pmB", "pmC"]);
    let [issuer] = env.funded(["pmIssuer"]);
    let iseq = env.seq(&issuer);
    // tfMPTCanTransfer | tfMPTCanClawback
    env.apply(
        &issuer,
        Tx::new("MPTokenIssuanceCreate").flags(0x60),
        Ter::tesSUCCESS,
    );
    let asset = MptId::new(iseq, &issuer.id);
    let with_mpt = |mut tx: Tx, id: &MptId, v: u64| {
        tx.0.set(sf().amount, StValue::MptAmount(MptAmount::new(v, *id)));
        tx
    };
    for h in &holders {
        let mut opt_in = Tx::new("MPTokenAuthorize");
        opt_in
            .0
            .set(sf().mpt_issuance_id, StValue::Fixed(asset.0.to_vec()));
        env.apply(h, opt_in, Ter::tesSUCCESS);
        let pay = Tx::new("Payment").account("Destination", &h.id);
        env.apply(&issuer, with_mpt(pay, &asset, 1000), Ter::tesSUCCESS);
    }
    let seq = env.seq(&holders[0]);
    let mut create =
        Tx::new("VaultCreate").amount("Fee", drops(env.store.fees().reserve_inc_drops as i64));
    create.0.set(sf().asset, StValue::MptIssue(asset));
    env.apply(&holders[0], create, Ter::tesSUCCESS);
    let key = keylet::vault(&holders[0].id, seq);
    let share = env
        .read(&key)
        .unwrap()
        .mpt_id_of(sf().share_mpt_id)
        .unwrap();
    let mut ok = 0;
    let mut minted = 3000;
    for &(who, kind, n) in ops {
        let base = |name| Tx::new(name).h256("VaultID", key);
        let (by, tx) = match kind {
            0 => (&holders[who], with_mpt(base("VaultDeposit"), &asset, n)),
            1 => (&holders[who], with_mpt(base("VaultWithdraw"), &asset, n)),
            2 => (&holders[who], with_mpt(base("VaultWithdraw"), &share, n)),
            _ => {
                let tx = base("VaultClawback").account("Holder", &holders[who].id);
                (&issuer, with_mpt(tx, &asset, n % 200))
            }
        };
        let t = env.submit(by, tx);
        assert!(t.is_tes() || t.is_tec(), "{t} for {:?}", (who, kind, n));
        ok += usize::from(t.is_tes());
        check_mpt_vault(&env, &key, [asset, share]);
        let now = env
            .read(&keylet::mpt_issuance(&asset))
            .and_then(|i| i.u64_of(sf().outstanding_amount))
            .unwrap_or(0);
        assert!(now <= minted, "the vault never mints the asset");
        minted = now;
    }
    ok
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, .. ProptestConfig::default() })]

    /// Account create attestations in any order, for creates 1 to 5 with disagreeing
    /// amounts and destinations: [`check_xchain`] holds after each, a replay gives the
    /// same results.
    #[test]
    fn xchain_account_create_sequences_keep_the_invariants(
        ops in prop::collection::vec(xcreate_op(), 1..50)
    ) {
        let r1 = run_xcreates(&ops);
        prop_assert_eq!(&r1, &run_xcreates(&ops));
    }
}

/// The mix creates accounts and also refuses past creates.
#[test]
fn xchain_account_create_ops_reach_both_sides() {
    let mut runner = proptest::test_runner::TestRunner::deterministic();
    let ops = prop::collection::vec(xcreate_op(), 200)
        .new_tree(&mut runner)
        .expect("tree")
        .current();
    let results = run_xcreates(&ops);
    let n = |t: Ter| results.iter().filter(|r| **r == t).count();
    eprintln!(
        "successes {}, past {}",
        n(Ter::tesSUCCESS),
        n(Ter::tecXCHAIN_ACCOUNT_CREATE_PAST)
    );
    assert!(n(Ter::tesSUCCESS) >= 20);
    assert!(n(Ter::tecXCHAIN_ACCOUNT_CREATE_PAST) >= 5);
}

/// The permissioned DEX mix reaches success: domain offers are placed and domain
/// payments deliver, so its property is not vacuous.
#[test]
fn permissioned_dex_mix_reaches_success() {
    use proptest::strategy::ValueTree;
    use proptest::test_runner::{Config, TestRunner};
    let mut runner = TestRunner::new_with_rng(
        Config::default(),
        proptest::test_runner::TestRng::deterministic_rng(
            proptest::test_runner::RngAlgorithm::ChaCha,
        ),
    );
    let mut ops = pdex_setup();
    ops.extend(
        prop::collection::vec(pdex_op(), 300)
            .new_tree(&mut runner)
            .expect("tree")
            .current(),
    );
    let (offers, pays) = pdex_successes(&ops);
    eprintln!("domain offers placed {offers}, domain payments {pays}");
    assert!(offers >= 20, "domain offers succeed in the mix: {offers}");
    assert!(pays >= 3, "domain payments succeed in the mix: {pays}");
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, .. ProptestConfig::default() })]

    #[test]
    fn mpt_vault_ops_keep_the_books(ops in prop::collection::vec(mpt_vault_op(), 1..40)) {
        run_mpt_vault_ops(&ops);
    }
}

#[test]
fn mpt_vault_ops_mostly_succeed() {
    let ops: Vec<MptVaultOp> = (0..60u64)
        .map(|i| {
            (
                (i % 3) as usize,
                [0, 0, 1, 2, 3][(i % 5) as usize],
                20 + i * 3,
            )
        })
        .collect();
    let ok = run_mpt_vault_ops(&ops);
    assert!(ok >= 30, "{ok} of 60 succeed");
}

// ---------------------------------------------------------------- loan brokers

/// A broker op: (who of two, 0 deposit / 1 withdraw to self / 2 withdraw to the other,
/// drops).
type BrokerOp = (usize, u8, i64);

fn broker_op() -> impl Strategy<Value = BrokerOp> {
    (0..2usize, 0..3u8, 1i64..5_000_000)
}

/// Runs `ops` on one broker over an XRP vault and checks after each: CoverAvailable
/// equals the pseudo-account's balance, XRP is only lost to fees, a stranger never moves
/// cover (tecNO_PERMISSION), and nothing ends worse than a tec. Returns the successes.
fn run_broker_ops(ops: &[BrokerOp]) -> usize {
    use ledgerd::engine::vault::number_of;
    use ledgerd::protocol::number::Number;
    use ledgerd::protocol::st::StValue;
    // The broker is over an open-ended vault: without LendingProtocolV1_1, which needs a
    // closed-ended one (the cover's books do not depend on the vault's kind).
    let off = [ledgerd::protocol::features::Feature::LendingProtocolV1_1];
    let mut env = crate::rules::env_without(&off);
    let people = env.funded(["pbOwner", "pbOther"]);
    let owner = &people[0];
    let vseq = env.seq(owner);
    let mut create =
        Tx::new("VaultCreate").amount("Fee", drops(env.store.fees().reserve_inc_drops as i64));
    create.0.set(
        sf().asset,
        StValue::Issue(ledgerd::protocol::types::Issue::XRP),
    );
    env.apply(owner, create, Ter::tesSUCCESS);
    let bseq = env.seq(owner);
    let set = Tx::new("LoanBrokerSet").h256("VaultID", keylet::vault(&owner.id, vseq));
    env.apply(owner, set, Ter::tesSUCCESS);
    let key = keylet::loan_broker(&owner.id, bseq);
    let pseudo = env.read(&key).unwrap().account_of(sf().account).unwrap();
    let mut ok = 0;
    for &(who, kind, n) in ops {
        let name = ["LoanBrokerCoverDeposit", "LoanBrokerCoverWithdraw"][usize::from(kind > 0)];
        let mut tx = Tx::new(name)
            .h256("LoanBrokerID", key)
            .amount("Amount", drops(n));
        if kind == 2 {
            tx = tx.account("Destination", &people[1 - who].id);
        }
        let pseudo_xrp = |env: &Env| {
            env.read(&keylet::account(&pseudo))
                .unwrap()
                .drops_of(sf().balance)
        };
        let before: i64 = people.iter().map(|p| env.balance(p)).sum::<i64>() + pseudo_xrp(&env);
        let t = env.submit(&people[who], tx);
        assert!(t.is_tes() || t.is_tec(), "{t} for {:?}", (who, kind, n));
        if who == 1 {
            assert_eq!(t, Ter::tecNO_PERMISSION);
        }
        ok += usize::from(t.is_tes());
        let cover = number_of(&env.read(&key).unwrap(), sf().cover_available);
        assert_eq!(cover, Number::from_i64(pseudo_xrp(&env)));
        let after: i64 = people.iter().map(|p| env.balance(p)).sum::<i64>() + pseudo_xrp(&env);
        assert_eq!(
            before - after,
            env.store.fees().base_drops as i64,
            "only the fee"
        );
    }
    ok
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, .. ProptestConfig::default() })]

    #[test]
    fn broker_cover_keeps_the_books(ops in prop::collection::vec(broker_op(), 1..40)) {
        run_broker_ops(&ops);
    }
}

#[test]
fn broker_ops_mostly_succeed() {
    let ops: Vec<BrokerOp> = (0..60)
        .map(|i| {
            (
                usize::from(i % 5 == 4),
                (i % 3) as u8,
                1_000 + (i as i64) * 7_919,
            )
        })
        .collect();
    let ok = run_broker_ops(&ops);
    assert!(ok >= 20, "{ok} of 60 succeed");
}
