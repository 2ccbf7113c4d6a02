//! What a path search reads of one ledger, read once and kept for the search: the trust
//! lines of each account it visits (rippled `RippleLineCache`, `PathFindTrustLine`) and
//! which order books exist (rippled `OrderBookDB`).

use std::cell::RefCell;
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::sync::Arc;

use crate::ledger::directory::for_each_owned;
use crate::ledger::flags::lt;
use crate::ledger::sf::{sf, StExt};
use crate::ledger::trust_line::TrustLine;
use crate::ledger::view::{ReadView, StateView};
use crate::protocol::amount::IouValue;
use crate::protocol::st::StValue;
use crate::protocol::types::{AccountId, Currency, Hash256, Issue};

/// Which lines of an account a search wants (rippled `LineDirection`): all of them, or
/// only those the account lets ripple.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Direction {
    /// Every line.
    Outgoing,
    /// Only lines without the account's NoRipple.
    Incoming,
}

/// One trust line as the path search sees it from one side.
#[derive(Clone, Debug)]
pub struct Line {
    /// The other account.
    pub peer: AccountId,
    /// The currency.
    pub currency: Currency,
    /// Positive when the viewer holds the peer's IOUs.
    pub balance: IouValue,
    /// The viewer's limit.
    pub limit: IouValue,
    /// The peer's limit.
    pub limit_peer: IouValue,
    /// The viewer set NoRipple.
    pub no_ripple: bool,
    /// The peer set NoRipple.
    pub no_ripple_peer: bool,
    /// The viewer authorized the peer (rippled `getAuth`).
    pub auth: bool,
    /// The peer froze the line.
    pub freeze_peer: bool,
}

impl Line {
    fn from(t: TrustLine) -> Line {
        Line {
            peer: t.peer,
            currency: t.currency,
            balance: t.balance,
            limit: t.limit,
            limit_peer: t.limit_peer,
            no_ripple: t.no_ripple,
            no_ripple_peer: t.no_ripple_peer,
            auth: t.authorized,
            freeze_peer: t.freeze_peer,
        }
    }

    /// The lines the peer would be asked for (rippled `getDirectionPeer`).
    pub fn direction_peer(&self) -> Direction {
        if self.no_ripple_peer {
            Direction::Incoming
        } else {
            Direction::Outgoing
        }
    }

    /// Nothing can move from the viewer to the peer on it (rippled's "no credit" test).
    pub fn no_credit(&self, require_auth: bool) -> bool {
        !self.balance.is_positive_value()
            && (self.limit_peer.is_zero()
                || self.balance.negate() >= self.limit_peer
                || (require_auth && !self.auth))
    }
}

trait Positive {
    fn is_positive_value(&self) -> bool;
}

impl Positive for IouValue {
    fn is_positive_value(&self) -> bool {
        !self.is_zero() && !self.is_negative()
    }
}

/// The order books of a ledger, by what their takers pay (rippled `OrderBookDB`).
#[derive(Default)]
pub struct BookDb {
    by_in: BTreeMap<Issue, BTreeSet<Issue>>,
}

impl BookDb {
    /// Every book with at least one quality directory in `view` (rippled `OrderBookDB`):
    /// the open books, or, when the search names a permissioned domain, that domain's
    /// books only (their pages carry its DomainID).
    pub fn from_view(view: &StateView, domain: Option<Hash256>) -> BookDb {
        let s = sf();
        let mut db = BookDb::default();
        let h160 = |root: &crate::protocol::st::StObject, f| match root.get(f) {
            Some(StValue::Hash160(h)) => Some(h.0),
            _ => None,
        };
        for key in view.book_roots() {
            let Some(root) = view.read(&key) else {
                continue;
            };
            if root.h256_of(s.domain_id) != domain {
                continue;
            }
            let (Some(pc), Some(pi), Some(gc), Some(gi)) = (
                h160(&root, s.taker_pays_currency),
                h160(&root, s.taker_pays_issuer),
                h160(&root, s.taker_gets_currency),
                h160(&root, s.taker_gets_issuer),
            ) else {
                continue;
            };
            let pays = Issue {
                currency: Currency(pc),
                issuer: AccountId(pi),
            };
            let gets = Issue {
                currency: Currency(gc),
                issuer: AccountId(gi),
            };
            db.by_in.entry(pays).or_default().insert(gets);
        }
        db
    }

    /// What the books whose takers pay `issue` give (rippled `getBooksByTakerPays`).
    pub fn books_from(&self, issue: &Issue) -> Vec<Issue> {
        self.by_in
            .get(issue)
            .map(|s| s.iter().copied().collect())
            .unwrap_or_default()
    }

    /// How many books take `issue` (rippled `getBookSize`).
    pub fn count_from(&self, issue: &Issue) -> usize {
        self.by_in.get(issue).map_or(0, BTreeSet::len)
    }

    /// True when a book turns `issue` into XRP (rippled `isBookToXRP`).
    pub fn to_xrp(&self, issue: &Issue) -> bool {
        self.by_in
            .get(issue)
            .is_some_and(|s| s.contains(&Issue::XRP))
    }
}

/// Each account's lines read so far, and which of them.
type LineMap = HashMap<AccountId, (Direction, Arc<Vec<Line>>)>;

/// One ledger as the path search reads it.
pub struct PathCache<'a> {
    /// The ledger.
    pub view: &'a StateView,
    /// Its order books.
    pub books: BookDb,
    /// The permissioned domain searched (its books only), if any.
    pub domain: Option<Hash256>,
    lines: RefCell<LineMap>,
}

impl<'a> PathCache<'a> {
    /// A cache over `view` (books of `domain` only, when one is named).
    pub fn new(view: &'a StateView, domain: Option<Hash256>) -> PathCache<'a> {
        PathCache {
            view,
            books: BookDb::from_view(view, domain),
            domain,
            lines: RefCell::new(HashMap::new()),
        }
    }

    /// The ledger as a [`ReadView`].
    pub fn read_view(&self) -> &'a dyn ReadView {
        self.view
    }

    /// `account`'s trust lines (rippled `getRippleLines`): an account is read once; asking
    /// for incoming lines when all are cached answers all of them, as rippled does.
    pub fn lines(&self, account: &AccountId, dir: Direction) -> Arc<Vec<Line>> {
        if let Some((have, lines)) = self.lines.borrow().get(account) {
            if *have == dir || *have == Direction::Outgoing {
                return lines.clone();
            }
        }
        let lines = Arc::new(read_lines(self.view, account, dir));
        self.lines
            .borrow_mut()
            .insert(*account, (dir, lines.clone()));
        lines
    }
}

fn read_lines(view: &dyn ReadView, account: &AccountId, dir: Direction) -> Vec<Line> {
    let s = sf();
    let mut out = Vec::new();
    for_each_owned(view, account, 0, |_, key| {
        let Some(entry) = view.read(key) else {
            return true;
        };
        if entry.u16_of(s.ledger_entry_type) != Some(lt::RIPPLE_STATE) {
            return true;
        }
        if let Some(t) = TrustLine::from_entry(&entry, account) {
            if dir == Direction::Outgoing || !t.no_ripple {
                out.push(Line::from(t));
            }
        }
        true
    });
    out
}
