//! The ledger entry types, one row each (rippled's `ledger_entries.macro`, and what this
//! server does with each type): its code and names, the keylet its fields give, whether
//! metadata threads it and whose roots a created or deleted one threads, what
//! `account_objects` and AccountDelete make of it, and the invariants it takes part in.
//!
//! ```text
//! entry_types::of(&entry)?.threaded.applies(rules) // engine/meta.rs
//! entry_types::of_code(code)?.deletion          // AccountDelete, account_objects
//! entry_types::named("payment_channel")?.code  // the RPC `type` filter
//! ```
//!
//! [`crate::engine`]'s metadata, invariants and AccountDelete, [`super::entry_key`], and
//! the RPC `type` filters and `ledger_entry` selectors read the table and name no type. A
//! new entry type is its `lt::` code and one row here, its keylet ([`super::keylet`]),
//! and its family's code (a deleter when AccountDelete deletes it, a `ledger_entry`
//! parser when its selector takes more than an index).

use super::entry_key::{self, Derived};
use super::keylet;
use super::rules::Rules;
use super::sf::sf;
use crate::protocol::definitions::Field;
use crate::protocol::features::Feature;
use crate::protocol::st::StObject;
use crate::protocol::types::{AccountId, Hash256};

/// LedgerEntryType codes.
pub mod lt {
    /// NFTokenOffer: an offer to buy or sell one NFToken.
    pub const NFTOKEN_OFFER: u16 = 0x0037;
    /// Check.
    pub const CHECK: u16 = 0x0043;
    /// DID: an account's decentralized identifier.
    pub const DID: u16 = 0x0049;
    /// NegativeUNL (the singleton of validators disabled).
    pub const NEGATIVE_UNL: u16 = 0x004e;
    /// NFTokenPage: up to 32 of an owner's NFTokens.
    pub const NFTOKEN_PAGE: u16 = 0x0050;
    /// SignerList.
    pub const SIGNER_LIST: u16 = 0x0053;
    /// Ticket.
    pub const TICKET: u16 = 0x0054;
    /// AccountRoot.
    pub const ACCOUNT_ROOT: u16 = 0x0061;
    /// DirectoryNode.
    pub const DIR_NODE: u16 = 0x0064;
    /// Amendments (the singleton of enabled and voted amendments).
    pub const AMENDMENTS: u16 = 0x0066;
    /// LedgerHashes (skip lists).
    pub const LEDGER_HASHES: u16 = 0x0068;
    /// Bridge: one door's end of a cross-chain bridge.
    pub const BRIDGE: u16 = 0x0069;
    /// Offer.
    pub const OFFER: u16 = 0x006f;
    /// DepositPreauth.
    pub const DEPOSIT_PREAUTH: u16 = 0x0070;
    /// XChainOwnedClaimID: a claim ID on a bridge, with the witnesses' attestations.
    pub const XCHAIN_OWNED_CLAIM_ID: u16 = 0x0071;
    /// RippleState (trust line).
    pub const RIPPLE_STATE: u16 = 0x0072;
    /// FeeSettings.
    pub const FEE_SETTINGS: u16 = 0x0073;
    /// XChainOwnedCreateAccountClaimID: the door's pending account create, with its
    /// attestations.
    pub const XCHAIN_OWNED_CREATE_ACCOUNT_CLAIM_ID: u16 = 0x0074;
    /// Escrow.
    pub const ESCROW: u16 = 0x0075;
    /// PayChannel.
    pub const PAYCHAN: u16 = 0x0078;
    /// AMM.
    pub const AMM: u16 = 0x0079;
    /// MPTokenIssuance.
    pub const MPTOKEN_ISSUANCE: u16 = 0x007e;
    /// MPToken.
    pub const MPTOKEN: u16 = 0x007f;
    /// Oracle: an account's price oracle.
    pub const ORACLE: u16 = 0x0080;
    /// Credential: an issuer's attestation about a subject.
    pub const CREDENTIAL: u16 = 0x0081;
    /// PermissionedDomain: an owner's set of accepted credentials.
    pub const PERMISSIONED_DOMAIN: u16 = 0x0082;
    /// Delegate: the permissions an account gives another to act for it.
    pub const DELEGATE: u16 = 0x0083;
    /// Vault: a single-asset vault.
    pub const VAULT: u16 = 0x0084;
    /// LoanBroker: a vault owner's lending business over its vault (LendingProtocol).
    pub const LOAN_BROKER: u16 = 0x0088;
    /// Loan: one loan a broker made (LendingProtocol).
    pub const LOAN: u16 = 0x0089;
    /// Sponsorship: a sponsor's pre-funded fees and reserves for one sponsee (Sponsor).
    pub const SPONSORSHIP: u16 = 0x0090;
}

/// An AccountID field that names an account an entry belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AccountField {
    /// `Account`.
    Account,
    /// `Destination`.
    Destination,
    /// `Owner`.
    Owner,
    /// `Issuer`.
    Issuer,
    /// `Borrower`.
    Borrower,
}

impl AccountField {
    /// The field.
    pub fn field(self) -> Field {
        let s = sf();
        match self {
            AccountField::Account => s.account,
            AccountField::Destination => s.destination,
            AccountField::Owner => s.owner,
            AccountField::Issuer => s.issuer,
            AccountField::Borrower => s.borrower,
        }
    }
}

/// How an entry's key follows from its fields (its keylet), for [`super::entry_key`].
#[derive(Clone, Copy)]
pub enum Key {
    /// A singleton's fixed key.
    Fixed(fn() -> Hash256),
    /// A singleton's fixed key, or the key its fields give (the long skip lists).
    FixedOr(fn() -> Hash256, fn(&StObject) -> Derived),
    /// The keylet of one AccountID field.
    Account(&'static str, fn(&AccountId) -> Hash256),
    /// The keylet of an AccountID field and a UInt32 field.
    AccountSeq(&'static str, &'static str, fn(&AccountId, u32) -> Hash256),
    /// The keylet of two AccountID fields.
    AccountPair(
        &'static str,
        &'static str,
        fn(&AccountId, &AccountId) -> Hash256,
    ),
    /// The key its own function reads from the entry.
    Derived(fn(&StObject) -> Derived),
    /// No field names its key (an Escrow, a PayChannel: the creating sequence is gone).
    Opaque,
}

/// Whose AccountRoots metadata threads when the entry is created or deleted (rippled
/// `threadOwners`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Owners {
    /// None (an AccountRoot is its own).
    None,
    /// The accounts these fields hold, where present.
    Fields(&'static [AccountField]),
    /// The issuers of a trust line's two limits.
    LineIssuers,
}

/// rippled's `threadOwners` for every type but the AccountRoot and the trust line.
pub const THREAD_OWNERS: Owners =
    Owners::Fields(&[AccountField::Account, AccountField::Destination]);

/// Whether metadata threads the type (rippled `STLedgerEntry::isThreadedType`: the
/// template holds PreviousTxnID, and for five types fixPreviousTxnID is enabled).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Threading {
    /// Never (no PreviousTxnID in its template).
    Never,
    /// Always.
    Always,
    /// Only under fixPreviousTxnID, which gave the type its PreviousTxnID (DirectoryNode,
    /// Amendments, FeeSettings, NegativeUNL, AMM).
    FixPreviousTxnID,
}

impl Threading {
    /// Whether metadata threads the type under `rules`.
    pub fn applies(self, rules: &Rules) -> bool {
        match self {
            Threading::Never => false,
            Threading::Always => true,
            Threading::FixPreviousTxnID => rules.enabled(Feature::FixPreviousTxnID),
        }
    }
}

/// What AccountDelete and `account_objects`' `deletion_blockers_only` make of the type.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Deletion {
    /// Never in the owner directory of an account that can send AccountDelete (roots,
    /// directories, singletons, the AMM its pseudo-account owns).
    NotOwned,
    /// Deleted with its owner (rippled `nonObligationDeleter`).
    Deleted,
    /// Keeps its owner (`tecHAS_OBLIGATIONS`); listed by `deletion_blockers_only`.
    Blocks,
}

/// The XRP an entry holds, which the XRP-conservation invariant sums.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Xrp {
    /// None.
    None,
    /// `Balance` (an AccountRoot).
    Balance,
    /// `Amount` (an Escrow).
    Amount,
    /// `Amount` less `Balance` (a PayChannel: what is not paid out yet).
    Unclaimed,
    /// The optional `FeeAmount` (a Sponsorship's pre-funded fees).
    FeeAmount,
}

/// Whose OwnerCount an entry counts toward, and how much (the OwnerCount invariant).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reserve {
    /// Nobody's.
    None,
    /// The account in the field, this many times.
    Field(AccountField, i64),
    /// The account its key begins with (an NFTokenPage).
    KeyPrefix,
    /// The sender's (only its owner changes a SignerList): 1, or 2 plus its entries
    /// without lsfOneOwnerCount.
    SignerList,
    /// The Owner's, by the size of its price series (an Oracle).
    Oracle,
    /// Each side's whose reserve flag is set (a trust line).
    TrustLine,
    /// The Issuer's until the Subject accepts it, then the Subject's (a Credential).
    Credential,
}

/// The invariant that checks an entry's own shape.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Shape {
    /// None.
    None,
    /// An XRP `Balance` within the supply (an AccountRoot).
    XrpBalance,
    /// No XRP in `Balance`, `LowLimit`, `HighLimit` (a trust line).
    NoXrp,
    /// rippled `ValidNFTokenPage`.
    NFTokenPage,
    /// A channel pays out no more than it holds, and its Amount and Balance never shrink.
    Channel,
}

/// The entry's part in MPT conservation (OutstandingAmount moves with the holders').
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mpt {
    /// None.
    None,
    /// A holder's MPTAmount and LockedAmount (an MPToken).
    Holder,
    /// The issuance's OutstandingAmount (an MPTokenIssuance).
    Issuance,
}

/// Whose reserve a sponsor can carry for the entry (Sponsor, XLS-68: rippled's
/// `isLedgerEntrySupportedBySponsorship` and `getLedgerEntryOwner`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Sponsorable {
    /// Nobody's: no sponsor carries it.
    No,
    /// The account in the field (its `Sponsor` names the sponsor).
    Field(AccountField),
    /// The account whose SignerList it is.
    SignerList,
    /// The Subject's once accepted, else the Issuer's.
    Credential,
    /// Each side's whose reserve flag is set (`HighSponsor` / `LowSponsor`).
    TrustLine,
}

/// One ledger entry type.
#[derive(Clone, Copy)]
pub struct EntryType {
    /// LedgerEntryType.
    pub code: u16,
    /// The definitions' name (`PayChannel`).
    pub name: &'static str,
    /// rippled's RPC name (`payment_channel`): the `type` filter and `ledger_entry`
    /// selector.
    pub rpc: &'static str,
    /// Built here: named by filters and selectors (a type only in the definitions is
    /// refused as one rippled does not know).
    pub built: bool,
    /// Its keylet, as its fields give it.
    pub key: Key,
    /// When metadata threads it (PreviousTxnID, PreviousTxnLgrSeq).
    pub threaded: Threading,
    /// Whose roots metadata threads when it is created or deleted.
    pub owners: Owners,
    /// A valid `account_objects` type filter (rippled `isAccountObjectsValidType`).
    pub account_objects: bool,
    /// AccountDelete's view of it.
    pub deletion: Deletion,
    /// XRP conservation.
    pub xrp: Xrp,
    /// OwnerCount.
    pub reserve: Reserve,
    /// Its shape's invariant.
    pub shape: Shape,
    /// MPT conservation.
    pub mpt: Mpt,
    /// Whether a reserve sponsor can carry it, and for whom.
    pub sponsor: Sponsorable,
}

/// An entry owned through an owner directory, threaded, in no other invariant: what most
/// rows are.
const OWNED: EntryType = EntryType {
    code: 0,
    name: "",
    rpc: "",
    built: true,
    key: Key::Opaque,
    threaded: Threading::Always,
    owners: THREAD_OWNERS,
    account_objects: true,
    deletion: Deletion::Blocks,
    xrp: Xrp::None,
    reserve: Reserve::Field(AccountField::Account, 1),
    shape: Shape::None,
    mpt: Mpt::None,
    sponsor: Sponsorable::No,
};

/// A singleton or a directory: never owned; threaded only under fixPreviousTxnID.
const UNOWNED: EntryType = EntryType {
    threaded: Threading::FixPreviousTxnID,
    account_objects: false,
    deletion: Deletion::NotOwned,
    reserve: Reserve::None,
    ..OWNED
};

use AccountField::{Account, Borrower, Issuer, Owner};

/// Every ledger entry type of the definitions, in code order.
pub const ENTRY_TYPES: &[EntryType] = &[
    EntryType {
        code: lt::NFTOKEN_OFFER,
        name: "NFTokenOffer",
        rpc: "nft_offer",
        deletion: Deletion::Deleted,
        reserve: Reserve::Field(Owner, 1),
        ..OWNED
    },
    EntryType {
        code: lt::CHECK,
        name: "Check",
        rpc: "check",
        key: Key::AccountSeq("Account", "Sequence", keylet::check),
        sponsor: Sponsorable::Field(Account),
        ..OWNED
    },
    EntryType {
        code: lt::DID,
        name: "DID",
        rpc: "did",
        key: Key::Account("Account", keylet::did),
        deletion: Deletion::Deleted,
        ..OWNED
    },
    EntryType {
        code: lt::NEGATIVE_UNL,
        name: "NegativeUNL",
        rpc: "nunl",
        key: Key::Fixed(keylet::negative_unl),
        ..UNOWNED
    },
    EntryType {
        code: lt::NFTOKEN_PAGE,
        name: "NFTokenPage",
        rpc: "nft_page",
        reserve: Reserve::KeyPrefix,
        shape: Shape::NFTokenPage,
        ..OWNED
    },
    EntryType {
        code: lt::SIGNER_LIST,
        name: "SignerList",
        rpc: "signer_list",
        deletion: Deletion::Deleted,
        reserve: Reserve::SignerList,
        sponsor: Sponsorable::SignerList,
        ..OWNED
    },
    EntryType {
        code: lt::TICKET,
        name: "Ticket",
        rpc: "ticket",
        key: Key::AccountSeq("Account", "TicketSequence", keylet::ticket),
        deletion: Deletion::Deleted,
        ..OWNED
    },
    EntryType {
        code: lt::ACCOUNT_ROOT,
        name: "AccountRoot",
        rpc: "account",
        key: Key::Account("Account", keylet::account),
        threaded: Threading::Always,
        owners: Owners::None,
        account_objects: true,
        xrp: Xrp::Balance,
        shape: Shape::XrpBalance,
        ..UNOWNED
    },
    EntryType {
        code: lt::DIR_NODE,
        name: "DirectoryNode",
        rpc: "directory",
        key: Key::Derived(entry_key::directory),
        ..UNOWNED
    },
    EntryType {
        code: lt::AMENDMENTS,
        name: "Amendments",
        rpc: "amendments",
        key: Key::Fixed(keylet::amendments),
        ..UNOWNED
    },
    EntryType {
        code: lt::LEDGER_HASHES,
        name: "LedgerHashes",
        rpc: "hashes",
        key: Key::FixedOr(keylet::skip, entry_key::skip_lists),
        threaded: Threading::Never,
        ..UNOWNED
    },
    EntryType {
        code: lt::BRIDGE,
        name: "Bridge",
        rpc: "bridge",
        key: Key::Derived(entry_key::bridge),
        ..OWNED
    },
    EntryType {
        code: lt::OFFER,
        name: "Offer",
        rpc: "offer",
        key: Key::AccountSeq("Account", "Sequence", keylet::offer),
        deletion: Deletion::Deleted,
        ..OWNED
    },
    EntryType {
        code: lt::DEPOSIT_PREAUTH,
        name: "DepositPreauth",
        rpc: "deposit_preauth",
        key: Key::Derived(entry_key::deposit_preauth),
        deletion: Deletion::Deleted,
        sponsor: Sponsorable::Field(Account),
        ..OWNED
    },
    EntryType {
        code: lt::XCHAIN_OWNED_CLAIM_ID,
        name: "XChainOwnedClaimID",
        rpc: "xchain_owned_claim_id",
        key: Key::Derived(entry_key::xchain_claim_id),
        ..OWNED
    },
    EntryType {
        code: lt::RIPPLE_STATE,
        name: "RippleState",
        rpc: "state",
        key: Key::Derived(entry_key::trust_line),
        owners: Owners::LineIssuers,
        reserve: Reserve::TrustLine,
        shape: Shape::NoXrp,
        sponsor: Sponsorable::TrustLine,
        ..OWNED
    },
    EntryType {
        code: lt::FEE_SETTINGS,
        name: "FeeSettings",
        rpc: "fee",
        key: Key::Fixed(keylet::fees),
        ..UNOWNED
    },
    EntryType {
        code: lt::XCHAIN_OWNED_CREATE_ACCOUNT_CLAIM_ID,
        name: "XChainOwnedCreateAccountClaimID",
        rpc: "xchain_owned_create_account_claim_id",
        key: Key::Derived(entry_key::xchain_create_account_claim_id),
        ..OWNED
    },
    EntryType {
        code: lt::ESCROW,
        name: "Escrow",
        rpc: "escrow",
        xrp: Xrp::Amount,
        sponsor: Sponsorable::Field(Account),
        ..OWNED
    },
    EntryType {
        code: lt::PAYCHAN,
        name: "PayChannel",
        rpc: "payment_channel",
        xrp: Xrp::Unclaimed,
        shape: Shape::Channel,
        sponsor: Sponsorable::Field(Account),
        ..OWNED
    },
    EntryType {
        code: lt::AMM,
        name: "AMM",
        rpc: "amm",
        account_objects: true,
        ..UNOWNED
    },
    EntryType {
        code: lt::MPTOKEN_ISSUANCE,
        name: "MPTokenIssuance",
        rpc: "mpt_issuance",
        key: Key::AccountSeq("Issuer", "Sequence", entry_key::mpt_issuance),
        reserve: Reserve::Field(Issuer, 1),
        mpt: Mpt::Issuance,
        sponsor: Sponsorable::Field(Issuer),
        ..OWNED
    },
    EntryType {
        code: lt::MPTOKEN,
        name: "MPToken",
        rpc: "mptoken",
        key: Key::Derived(entry_key::mptoken),
        mpt: Mpt::Holder,
        sponsor: Sponsorable::Field(Account),
        ..OWNED
    },
    EntryType {
        code: lt::ORACLE,
        name: "Oracle",
        rpc: "oracle",
        key: Key::AccountSeq("Owner", "OracleDocumentID", keylet::oracle),
        deletion: Deletion::Deleted,
        reserve: Reserve::Oracle,
        ..OWNED
    },
    EntryType {
        code: lt::CREDENTIAL,
        name: "Credential",
        rpc: "credential",
        key: Key::Derived(entry_key::credential),
        deletion: Deletion::Deleted,
        reserve: Reserve::Credential,
        sponsor: Sponsorable::Credential,
        ..OWNED
    },
    EntryType {
        code: lt::PERMISSIONED_DOMAIN,
        name: "PermissionedDomain",
        rpc: "permissioned_domain",
        key: Key::AccountSeq("Owner", "Sequence", keylet::permissioned_domain),
        reserve: Reserve::Field(Owner, 1),
        ..OWNED
    },
    EntryType {
        code: lt::DELEGATE,
        name: "Delegate",
        rpc: "delegate",
        key: Key::AccountPair("Account", "Authorize", keylet::delegate),
        deletion: Deletion::Deleted,
        sponsor: Sponsorable::Field(Account),
        ..OWNED
    },
    EntryType {
        code: lt::VAULT,
        name: "Vault",
        rpc: "vault",
        key: Key::AccountSeq("Owner", "Sequence", keylet::vault),
        reserve: Reserve::Field(Owner, 1),
        ..OWNED
    },
    // The entry and its pseudo-account: two toward the owner.
    EntryType {
        code: lt::LOAN_BROKER,
        name: "LoanBroker",
        rpc: "loan_broker",
        key: Key::AccountSeq("Owner", "Sequence", keylet::loan_broker),
        reserve: Reserve::Field(Owner, 2),
        ..OWNED
    },
    EntryType {
        code: lt::LOAN,
        name: "Loan",
        rpc: "loan",
        key: Key::Derived(entry_key::loan),
        threaded: Threading::Never,
        reserve: Reserve::Field(Borrower, 1),
        ..OWNED
    },
    EntryType {
        code: lt::SPONSORSHIP,
        name: "Sponsorship",
        rpc: "sponsorship",
        key: Key::AccountPair("Owner", "Sponsee", keylet::sponsorship),
        xrp: Xrp::FeeAmount,
        reserve: Reserve::Field(Owner, 1),
        ..OWNED
    },
];

/// Codes below this index [`ENTRY_TYPES`] directly.
const CODES: usize = 0x100;

/// Each code's row position plus one (0: no row).
const BY_CODE: [u8; CODES] = by_code();

const fn by_code() -> [u8; CODES] {
    let mut out = [0u8; CODES];
    let mut i = 0;
    while i < ENTRY_TYPES.len() {
        let code = ENTRY_TYPES[i].code as usize;
        assert!(code < CODES && out[code] == 0, "codes are small and unique");
        out[code] = (i + 1) as u8;
        i += 1;
    }
    out
}

/// The row of type `code`.
pub fn of_code(code: u16) -> Option<&'static EntryType> {
    let at = *BY_CODE.get(usize::from(code))?;
    ENTRY_TYPES.get(usize::from(at).checked_sub(1)?)
}

/// The row of `entry`'s LedgerEntryType.
pub fn of(entry: &StObject) -> Option<&'static EntryType> {
    use super::sf::StExt;
    of_code(entry.u16_of(sf().ledger_entry_type)?)
}

/// The built type a `type` filter names: its RPC name or its name, in any case (rippled
/// `chooseLedgerEntryType`).
pub fn named(text: &str) -> Option<&'static EntryType> {
    ENTRY_TYPES.iter().find(|t| {
        t.built && (text.eq_ignore_ascii_case(t.rpc) || text.eq_ignore_ascii_case(t.name))
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::definitions::defs;

    #[test]
    fn every_definitions_type_has_one_row_under_its_code() {
        let defs = defs();
        for (name, code) in defs.ledger_entry_types.iter() {
            if *name == "Invalid" {
                continue;
            }
            let row = of_code(*code).unwrap_or_else(|| panic!("no row for {name}"));
            assert_eq!(row.name, *name);
        }
        for row in ENTRY_TYPES {
            assert_eq!(defs.ledger_entry_types.get(row.name), Some(&row.code));
        }
        assert!(of_code(0x7777).is_none() && of_code(0).is_none());
    }

    #[test]
    fn rpc_names_are_unique_and_filters_take_either_name() {
        for (i, a) in ENTRY_TYPES.iter().enumerate() {
            for b in &ENTRY_TYPES[i + 1..] {
                assert_ne!(a.rpc, b.rpc);
            }
        }
        assert_eq!(named("Payment_Channel").map(|t| t.code), Some(lt::PAYCHAN));
        assert_eq!(named("paychannel").map(|t| t.code), Some(lt::PAYCHAN));
        assert_eq!(named("Sponsorship").map(|t| t.code), Some(lt::SPONSORSHIP));
        assert!(named("channel").is_none());
    }

    #[test]
    fn accountdelete_deletes_and_is_blocked_by_rippleds_types() {
        let with = |d: Deletion| -> Vec<&str> {
            let mut names: Vec<&str> = ENTRY_TYPES
                .iter()
                .filter(|t| t.deletion == d)
                .map(|t| t.name)
                .collect();
            names.sort_unstable();
            names
        };
        // DeleteAccount.cpp's nonObligationDeleter.
        let deleted =
            "Credential DID Delegate DepositPreauth NFTokenOffer Offer Oracle SignerList Ticket";
        assert_eq!(with(Deletion::Deleted).join(" "), deleted);
        // AccountObjects.cpp's deletionBlockers.
        // (Sponsorship blocks both its sponsor and its sponsee: XLS-68.)
        let blocks = "Bridge Check Escrow Loan LoanBroker MPToken MPTokenIssuance NFTokenPage \
                      PayChannel PermissionedDomain RippleState Sponsorship Vault \
                      XChainOwnedClaimID XChainOwnedCreateAccountClaimID";
        assert_eq!(with(Deletion::Blocks).join(" "), blocks);
    }

    #[test]
    fn a_sponsorship_is_keyed_by_its_pair_owned_by_its_sponsor_and_holds_its_fees() {
        use crate::protocol::amount::Amount;
        use crate::protocol::st::StValue;
        let (sponsor, sponsee) = (AccountId([1; 20]), AccountId([2; 20]));
        let mut e = StObject::new();
        e.set(sf().ledger_entry_type, StValue::UInt16(lt::SPONSORSHIP));
        e.set(sf().owner, StValue::AccountId(sponsor));
        e.set(sf().sponsee, StValue::AccountId(sponsee));
        e.set(sf().fee_amount, StValue::Amount(Amount::Xrp(10)));
        let key = keylet::sponsorship(&sponsor, &sponsee);
        assert!(entry_key::check(&key, &e).is_ok());
        assert!(entry_key::check(&keylet::sponsorship(&sponsee, &sponsor), &e).is_err());
        let row = of(&e).expect("a row");
        assert!(row.built && row.account_objects);
        assert_eq!(row.threaded, Threading::Always);
        assert_eq!(row.reserve, Reserve::Field(Owner, 1));
        assert_eq!(row.xrp, Xrp::FeeAmount);
        assert_eq!(row.deletion, Deletion::Blocks);
        assert_eq!(row.sponsor, Sponsorable::No);
        let sponsorable: Vec<&str> = ENTRY_TYPES
            .iter()
            .filter(|t| t.sponsor != Sponsorable::No)
            .map(|t| t.name)
            .collect();
        // SponsorHelpers.cpp's isLedgerEntrySupportedBySponsorship, in code order.
        let want = "Check SignerList DepositPreauth RippleState Escrow PayChannel \
                    MPTokenIssuance MPToken Credential Delegate";
        assert_eq!(sponsorable.join(" "), want);
    }

    #[test]
    fn only_owned_types_count_toward_owner_count_or_block_deletion() {
        for t in ENTRY_TYPES {
            if t.deletion != Deletion::NotOwned {
                assert!(t.account_objects, "{}", t.name);
                assert_ne!(t.reserve, Reserve::None, "{}", t.name);
            }
        }
    }
}
