//! The path search (rippled `Pathfinder::findPaths` and what it calls): by the kind of
//! payment, a table of path shapes, each reached at some search level; each shape is its
//! parent shape with one more hop (accounts over trust lines, or order books), and every
//! path that reaches the destination is kept as complete.

use std::collections::HashMap;

use super::cache::{Direction, PathCache};
use crate::ledger::flags::lsf;
use crate::ledger::keylet;
use crate::ledger::sf::StExt;
use crate::limits::{
    PATHFIND_CANDIDATES_MAX, PATHFIND_COMPLETE_PATHS_MAX, PATHFIND_PARTIAL_PATHS_MAX,
    PATHFIND_SOURCE_CANDIDATES_MAX,
};
use crate::protocol::amount::Amount;
use crate::protocol::st::PathStep;
use crate::protocol::types::{AccountId, Currency, Issue};

/// STPathElement type bits.
const TYPE_ACCOUNT: u8 = 0x01;
const TYPE_CURRENCY: u8 = 0x10;
const TYPE_ISSUER: u8 = 0x20;

/// One path element with what it implies (rippled `STPathElement`: an account hop keeps
/// its currency, and itself as issuer, though neither is serialized).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Elem {
    kind: u8,
    /// The account (zero for an order book).
    pub account: AccountId,
    /// The currency after this hop.
    pub currency: Currency,
    /// The issuer after this hop.
    pub issuer: AccountId,
}

impl Elem {
    fn account(account: AccountId, currency: Currency) -> Elem {
        Elem {
            kind: TYPE_ACCOUNT,
            account,
            currency,
            issuer: account,
        }
    }

    fn book(currency: Currency, issuer: AccountId) -> Elem {
        Elem {
            kind: TYPE_CURRENCY | TYPE_ISSUER,
            account: AccountId::ZERO,
            currency,
            issuer,
        }
    }

    fn xrp_book() -> Elem {
        Elem {
            kind: TYPE_CURRENCY,
            account: AccountId::ZERO,
            currency: Currency::XRP,
            issuer: AccountId::ZERO,
        }
    }

    /// An order book hop.
    pub fn is_offer(&self) -> bool {
        self.account == AccountId::ZERO
    }

    /// The serialized step.
    pub fn step(&self) -> PathStep {
        PathStep {
            account: (self.kind & TYPE_ACCOUNT != 0).then_some(self.account),
            currency: (self.kind & TYPE_CURRENCY != 0).then_some(self.currency),
            issuer: (self.kind & TYPE_ISSUER != 0).then_some(self.issuer),
        }
    }
}

/// A path as the search builds it.
pub type Path = Vec<Elem>;

/// The serialized form of paths, for the payment engine and for JSON.
pub fn steps(paths: &[Path]) -> Vec<Vec<PathStep>> {
    paths
        .iter()
        .map(|p| p.iter().map(Elem::step).collect())
        .collect()
}

fn has_seen(path: &Path, account: &AccountId, currency: &Currency, issuer: &AccountId) -> bool {
    path.iter()
        .any(|e| e.account == *account && e.currency == *currency && e.issuer == *issuer)
}

fn add_unique(set: &mut Vec<Path>, path: &Path) {
    if !set.contains(path) {
        set.push(path.clone());
    }
}

const AF_ADD_ACCOUNTS: u32 = 0x001;
const AF_ADD_BOOKS: u32 = 0x002;
const AF_OB_XRP: u32 = 0x010;
const AF_OB_LAST: u32 = 0x040;
const AF_AC_LAST: u32 = 0x080;

/// The priority of a trust line straight to the destination.
const HIGH_PRIORITY: usize = 10_000;

/// The path shapes of each kind of payment with the level that first tries them
/// (rippled `initPathTable`): s source, a accounts, b books, x book to XRP, f book to
/// the destination currency, d destination.
const XRP_TO_NON_XRP: &[(i32, &str)] = &[
    (1, "sfd"),
    (3, "sfad"),
    (5, "sfaad"),
    (6, "sbfd"),
    (8, "sbafd"),
    (9, "sbfad"),
    (10, "sbafad"),
];
const NON_XRP_TO_XRP: &[(i32, &str)] = &[
    (1, "sxd"),
    (2, "saxd"),
    (6, "saaxd"),
    (7, "sbxd"),
    (8, "sabxd"),
    (9, "sabaxd"),
];
const NON_XRP_SAME: &[(i32, &str)] = &[
    (1, "sad"),
    (1, "sfd"),
    (4, "safd"),
    (4, "sfad"),
    (5, "saad"),
    (5, "sbfd"),
    (6, "sxfad"),
    (6, "safad"),
    (6, "saxfd"),
    (6, "saxfad"),
    (6, "sabfd"),
    (7, "saaad"),
];
const NON_XRP_CROSS: &[(i32, &str)] = &[
    (1, "sfad"),
    (1, "safd"),
    (3, "safad"),
    (4, "sxfd"),
    (5, "saxfd"),
    (5, "sxfad"),
    (5, "sbfd"),
    (6, "saxfad"),
    (6, "sabfd"),
    (7, "saafd"),
    (8, "saafad"),
    (9, "safaad"),
];

/// One search: from `src` in one currency to `dst` (rippled `Pathfinder`).
pub struct Pathfinder<'c, 'v> {
    pub(super) cx: &'c PathCache<'v>,
    pub(super) keep_going: &'c dyn Fn() -> bool,
    pub(super) src: AccountId,
    pub(super) dst: AccountId,
    pub(super) effective_dst: AccountId,
    pub(super) dst_amount: Amount,
    pub(super) src_currency: Currency,
    pub(super) src_issuer: Option<AccountId>,
    pub(super) src_amount: Amount,
    pub(super) convert_all: bool,
    pub(super) source: Elem,
    pub(super) complete: Vec<Path>,
    pub(super) ranks: Vec<super::rank::PathRank>,
    pub(super) remaining: Amount,
    paths: HashMap<String, Vec<Path>>,
    paths_out: HashMap<Issue, usize>,
    partials: usize,
}

/// What a search is for.
pub struct Query {
    /// Who pays.
    pub src: AccountId,
    /// Who receives.
    pub dst: AccountId,
    /// The currency the source spends.
    pub src_currency: Currency,
    /// Its issuer, when one is required.
    pub src_issuer: Option<AccountId>,
    /// What arrives (already the largest amount when "as much as possible").
    pub dst_amount: Amount,
    /// The most the source spends (the request's `send_max`).
    pub src_amount: Option<Amount>,
}

impl<'c, 'v> Pathfinder<'c, 'v> {
    /// A search over `cx`; it stops early once `keep_going` answers false.
    pub fn new(
        cx: &'c PathCache<'v>,
        q: &Query,
        keep_going: &'c dyn Fn() -> bool,
    ) -> Pathfinder<'c, 'v> {
        let dst_issue = q.dst_amount.issue();
        let effective_dst = if dst_issue.is_xrp() {
            q.dst
        } else {
            dst_issue.issuer
        };
        let default_issuer = q.src_issuer.unwrap_or(if q.src_currency.is_xrp() {
            AccountId::ZERO
        } else {
            q.src
        });
        let src_amount = q.src_amount.unwrap_or_else(|| {
            super::rank::minus_one(&Issue {
                currency: q.src_currency,
                issuer: default_issuer,
            })
        });
        Pathfinder {
            cx,
            keep_going,
            src: q.src,
            dst: q.dst,
            effective_dst,
            dst_amount: q.dst_amount,
            src_currency: q.src_currency,
            src_issuer: q.src_issuer,
            src_amount,
            convert_all: super::rank::is_largest(&q.dst_amount),
            source: Elem::account(q.src, q.src_currency),
            complete: Vec::new(),
            ranks: Vec::new(),
            remaining: q.dst_amount,
            paths: HashMap::new(),
            paths_out: HashMap::new(),
            partials: 0,
        }
    }

    fn exists(&self, account: &AccountId) -> bool {
        self.cx
            .read_view()
            .read(&keylet::account(account))
            .is_some()
    }

    /// Whether a search makes sense, rippled's early answers of `findPaths`: `Some(false)`
    /// for a request that can never pay, `Some(true)` for one only the default path serves.
    fn precheck(&self) -> Option<bool> {
        let dst_currency = self.dst_amount.issue().currency;
        if self.dst_amount.is_zero() {
            return Some(false);
        }
        if self.src == self.dst
            && self.dst == self.effective_dst
            && self.src_currency == dst_currency
        {
            return Some(false);
        }
        if self.src == self.effective_dst && self.src_currency == dst_currency {
            return Some(true);
        }
        if !self.exists(&self.src) {
            return Some(false);
        }
        if self.effective_dst != self.dst && !self.exists(&self.effective_dst) {
            return Some(false);
        }
        if !self.exists(&self.dst) {
            let reserve = self.cx.read_view().info().fees.reserve_base_drops;
            let enough = self
                .dst_amount
                .as_drops()
                .is_some_and(|d| d >= i64::try_from(reserve).unwrap_or(i64::MAX));
            if !enough {
                return Some(false);
            }
        }
        None
    }

    /// Collects complete paths up to `level` (rippled `findPaths`); false when the request
    /// can never be paid.
    pub fn find_paths(&mut self, level: i32) -> bool {
        if let Some(answer) = self.precheck() {
            return answer;
        }
        let use_issuer = self
            .src_issuer
            .filter(|i| !self.src_currency.is_xrp() && *i != AccountId::ZERO);
        let account = use_issuer.unwrap_or(self.src);
        let issuer = if self.src_currency.is_xrp() {
            AccountId::ZERO
        } else {
            account
        };
        self.source = Elem {
            kind: TYPE_ACCOUNT
                | TYPE_CURRENCY
                | if issuer == AccountId::ZERO {
                    0
                } else {
                    TYPE_ISSUER
                },
            account,
            currency: self.src_currency,
            issuer,
        };
        let src_xrp = self.src_currency.is_xrp();
        let dst_currency = self.dst_amount.issue().currency;
        let table = match (src_xrp, dst_currency.is_xrp()) {
            (true, true) => &[][..],
            (true, false) => XRP_TO_NON_XRP,
            (false, true) => NON_XRP_TO_XRP,
            _ if self.src_currency == dst_currency => NON_XRP_SAME,
            _ => NON_XRP_CROSS,
        };
        for (cost, shape) in table {
            if !(self.keep_going)() {
                return false;
            }
            if *cost <= level {
                self.add_paths_for_type(shape);
                if self.complete.len() > PATHFIND_COMPLETE_PATHS_MAX {
                    break;
                }
            }
        }
        true
    }

    /// The complete paths found so far.
    pub fn complete_paths(&self) -> &[Path] {
        &self.complete
    }

    fn add_paths_for_type(&mut self, shape: &str) {
        if self.paths.contains_key(shape) {
            return;
        }
        if shape.is_empty() {
            self.paths.insert(String::new(), Vec::new());
            return;
        }
        if !(self.keep_going)() {
            return;
        }
        let parent = &shape[..shape.len() - 1];
        self.add_paths_for_type(parent);
        let parents = self.paths.get(parent).cloned().unwrap_or_default();
        let mut out = Vec::new();
        let flags = match shape.as_bytes()[shape.len() - 1] {
            b's' => {
                out.push(Vec::new());
                0
            }
            b'a' => AF_ADD_ACCOUNTS,
            b'b' => AF_ADD_BOOKS,
            b'x' => AF_ADD_BOOKS | AF_OB_XRP,
            b'f' => AF_ADD_BOOKS | AF_OB_LAST,
            _ => AF_ADD_ACCOUNTS | AF_AC_LAST,
        };
        if flags != 0 {
            for path in &parents {
                if !(self.keep_going)() || self.partials > PATHFIND_PARTIAL_PATHS_MAX {
                    break;
                }
                let before = out.len();
                self.add_link(path, &mut out, flags);
                self.partials += out.len() - before;
            }
        }
        self.paths.insert(shape.to_string(), out);
    }

    fn add_link(&mut self, current: &Path, incomplete: &mut Vec<Path>, flags: u32) {
        let end = current.last().copied().unwrap_or(self.source);
        if flags & AF_ADD_ACCOUNTS != 0 {
            if end.currency.is_xrp() {
                if self.dst_amount.is_xrp() && !current.is_empty() {
                    add_unique(&mut self.complete, current);
                }
            } else {
                self.add_accounts(current, &end, incomplete, flags & AF_AC_LAST != 0);
            }
        }
        if flags & AF_ADD_BOOKS != 0 {
            if flags & AF_OB_XRP != 0 {
                let from = Issue {
                    currency: end.currency,
                    issuer: end.issuer,
                };
                if !end.currency.is_xrp() && self.cx.books.to_xrp(&from) {
                    let mut p = current.clone();
                    p.push(Elem::xrp_book());
                    incomplete.push(p);
                }
            } else {
                self.add_books(current, &end, incomplete, flags & AF_OB_LAST != 0);
            }
        }
    }

    /// Extends `current` over the trust lines of its last account (`afADD_ACCOUNTS`).
    fn add_accounts(&mut self, current: &Path, end: &Elem, out: &mut Vec<Path>, dest_only: bool) {
        let view = self.cx.read_view();
        let Some(sle) = view.read(&keylet::account(&end.account)) else {
            return;
        };
        let require_auth = sle.flags() & lsf::REQUIRE_AUTH != 0;
        let dst_currency = self.dst_amount.issue().currency;
        let is_end_currency = end.currency == dst_currency;
        let no_ripple_out = self.is_no_ripple_out(current);
        let has_effective = self.effective_dst != self.dst;
        let dir = if no_ripple_out {
            Direction::Incoming
        } else {
            Direction::Outgoing
        };
        let lines = self.cx.lines(&end.account, dir);
        let mut candidates: Vec<(usize, AccountId)> = Vec::new();
        for rs in lines.iter() {
            if !(self.keep_going)() {
                return;
            }
            let acct = rs.peer;
            let to_dest = acct == self.effective_dst;
            if (has_effective && acct == self.dst) || (dest_only && !to_dest) {
                continue;
            }
            if end.currency != rs.currency || has_seen(current, &acct, &end.currency, &acct) {
                continue;
            }
            if rs.no_credit(require_auth) || (no_ripple_out && rs.no_ripple) {
                continue;
            }
            if to_dest {
                if end.currency == dst_currency {
                    if !current.is_empty() {
                        add_unique(&mut self.complete, current);
                    }
                } else if !dest_only {
                    candidates.push((HIGH_PRIORITY, acct));
                }
            } else if acct != self.src {
                let n = self.paths_out(&end.currency, &acct, rs.direction_peer(), is_end_currency);
                if n > 0 {
                    candidates.push((n, acct));
                }
            }
        }
        // rippled sorts by priority with a ledger-seeded tie-break that is not a strict
        // order; here: highest priority first, then the higher account id.
        candidates.sort_by(|a, b| b.0.cmp(&a.0).then(b.1.cmp(&a.1)));
        let cap = if end.account != self.src {
            PATHFIND_CANDIDATES_MAX
        } else {
            PATHFIND_SOURCE_CANDIDATES_MAX
        };
        for (_, acct) in candidates.into_iter().take(cap) {
            let mut p = current.clone();
            p.push(Elem::account(acct, end.currency));
            out.push(p);
        }
    }

    fn issue_matches_origin(&self, issue: &Issue) -> bool {
        issue.currency == self.src_currency
            && (issue.currency.is_xrp()
                || self.src_issuer == Some(issue.issuer)
                || issue.issuer == self.src)
    }

    /// Extends `current` through the books out of its last issue (`afADD_BOOKS`).
    fn add_books(&mut self, current: &Path, end: &Elem, out: &mut Vec<Path>, dest_only: bool) {
        let dst_currency = self.dst_amount.issue().currency;
        let has_effective = self.effective_dst != self.dst;
        let from = Issue {
            currency: end.currency,
            issuer: end.issuer,
        };
        for book_out in self.cx.books.books_from(&from) {
            if !(self.keep_going)() {
                return;
            }
            if has_seen(
                current,
                &AccountId::ZERO,
                &book_out.currency,
                &book_out.issuer,
            ) || self.issue_matches_origin(&book_out)
                || (dest_only && book_out.currency != dst_currency)
            {
                continue;
            }
            let mut p = current.clone();
            if book_out.currency.is_xrp() {
                p.push(Elem::xrp_book());
                if dst_currency.is_xrp() {
                    add_unique(&mut self.complete, &p);
                } else {
                    out.push(p);
                }
                continue;
            }
            if has_seen(
                current,
                &book_out.issuer,
                &book_out.currency,
                &book_out.issuer,
            ) {
                continue;
            }
            let book = Elem::book(book_out.currency, book_out.issuer);
            let n = p.len();
            if n >= 2 && !p[n - 1].is_offer() && p[n - 2].is_offer() {
                p[n - 1] = book;
            } else {
                p.push(book);
            }
            let reaches = book_out.currency == dst_currency;
            if has_effective && book_out.issuer == self.dst && reaches {
                // The path skipped the issuer the destination amount requires.
            } else if book_out.issuer == self.effective_dst && reaches {
                add_unique(&mut self.complete, &p);
            } else {
                p.push(Elem::account(book_out.issuer, book_out.currency));
                out.push(p);
            }
        }
    }

    /// How promising `account` is as a next hop in `currency` (rippled `getPathsOut`).
    fn paths_out(
        &mut self,
        currency: &Currency,
        account: &AccountId,
        dir: Direction,
        is_dst_currency: bool,
    ) -> usize {
        let issue = Issue {
            currency: *currency,
            issuer: *account,
        };
        if let Some(n) = self.paths_out.get(&issue) {
            return *n;
        }
        self.paths_out.insert(issue, 0);
        let Some(sle) = self.cx.read_view().read(&keylet::account(account)) else {
            return 0;
        };
        let flags = sle.flags();
        let auth_required = flags & lsf::REQUIRE_AUTH != 0;
        let mut count = 0;
        if flags & lsf::GLOBAL_FREEZE == 0 {
            count = self.cx.books.count_from(&issue);
            for rs in self.cx.lines(account, dir).iter() {
                if rs.currency != *currency || rs.no_credit(auth_required) {
                    continue;
                }
                if is_dst_currency && rs.peer == self.effective_dst {
                    count += HIGH_PRIORITY;
                } else if !rs.no_ripple_peer && !rs.freeze_peer {
                    count += 1;
                }
            }
        }
        self.paths_out.insert(issue, count);
        count
    }

    /// The path ends on an account hop whose account set NoRipple towards the hop before
    /// (rippled `isNoRippleOut`).
    fn is_no_ripple_out(&self, current: &Path) -> bool {
        let Some(end) = current.last() else {
            return false;
        };
        if end.kind & TYPE_ACCOUNT == 0 {
            return false;
        }
        let from = if current.len() == 1 {
            self.src
        } else {
            current[current.len() - 2].account
        };
        let to = end.account;
        let flag = if to > from {
            lsf::HIGH_NO_RIPPLE
        } else {
            lsf::LOW_NO_RIPPLE
        };
        self.cx
            .read_view()
            .read(&keylet::line(&to, &from, &end.currency))
            .is_some_and(|l| l.flags() & flag != 0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn elements_serialize_as_rippled_types() {
        let usd = Currency::iso(*b"USD");
        let path = vec![
            Elem::account(AccountId::ONE, usd),
            Elem::book(usd, AccountId::ONE),
            Elem::xrp_book(),
        ];
        let s = steps(&[path]);
        let json = super::super::request::paths_json(&s);
        let types: Vec<u64> = json[0]
            .as_array()
            .unwrap()
            .iter()
            .map(|e| e["type"].as_u64().unwrap())
            .collect();
        assert_eq!(types, [1, 48, 16]);
        assert!(json[0][0].get("currency").is_none());
        assert_eq!(json[0][2]["currency"], "XRP");
    }

    #[test]
    fn every_shape_starts_at_the_source_and_ends_at_the_destination() {
        for table in [XRP_TO_NON_XRP, NON_XRP_TO_XRP, NON_XRP_SAME, NON_XRP_CROSS] {
            for (level, shape) in table {
                assert!(shape.starts_with('s') && shape.ends_with('d'), "{shape}");
                assert!((1..=10).contains(level));
            }
        }
    }
}
