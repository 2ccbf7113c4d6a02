//! The steps of a strand (rippled `Steps.h`): each moves value one hop, in the reverse
//! pass (given what must come out, what must go in) and the forward pass (given what goes
//! in, what comes out), writing its transfers into the strand's sandbox.

use std::collections::BTreeSet;

use super::book::BookStep;
use super::direct::DirectStep;
use super::quality_fn::QualityFunction;
use super::xrp_endpoint::XrpEndpointStep;
use crate::engine::sandbox::Sandbox;
use crate::ledger::view::ReadView;
use crate::protocol::amount::Amount;
use crate::protocol::quality::Quality;
use crate::protocol::types::{AccountId, Hash256, Issue};

/// Whether a step's source holds the destination's IOUs (redeems) or issues its own.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DebtDir {
    /// The source sends its own IOUs (or XRP).
    Issues,
    /// The source returns IOUs the destination issued.
    Redeems,
}

impl DebtDir {
    /// True for [`DebtDir::Redeems`].
    pub fn redeems(self) -> bool {
        self == DebtDir::Redeems
    }
}

/// Which pass asks (a direct step's debt direction is cached for the forward pass).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StrandDir {
    /// The forward pass.
    Forward,
    /// The reverse pass.
    Reverse,
}

/// Offers the strands found unfunded, expired or unauthorized: removed even if the
/// payment fails.
pub type OffersToRemove = BTreeSet<Hash256>;

/// One step. A strand holds a handful; their sizes do not matter.
#[derive(Debug, Clone)]
#[allow(clippy::large_enum_variant)]
pub enum Step {
    /// Rippling along a trust line.
    Direct(DirectStep),
    /// Consuming offers of one order book.
    Book(BookStep),
    /// XRP leaving the source or reaching the destination.
    XrpEndpoint(XrpEndpointStep),
}

/// What a step's neighbours need to know about the step before them.
#[derive(Debug, Clone, Copy)]
pub struct PrevInfo {
    /// The step's debt direction (from the current view, or its forward cache).
    pub dir: DebtDir,
    /// A direct step's source account.
    pub direct_src: Option<AccountId>,
    /// A book step's book (in, out).
    pub book: Option<(Issue, Issue)>,
    /// A direct step's QualityIn for its destination.
    pub line_quality_in: u32,
}

impl Step {
    /// The reverse pass: produce `out`; returns `(in, out)` actually achievable.
    pub fn rev(
        &mut self,
        sb: &mut Sandbox,
        base: &dyn ReadView,
        prev: Option<&Step>,
        ofrs: &mut OffersToRemove,
        out: &Amount,
    ) -> (Amount, Amount) {
        match self {
            Step::Direct(s) => s.rev(sb, prev, out),
            Step::Book(s) => s.rev(sb, base, prev, ofrs, out),
            Step::XrpEndpoint(s) => s.exec(sb, out),
        }
    }

    /// The forward pass: consume `inp`; returns `(in, out)`.
    pub fn fwd(
        &mut self,
        sb: &mut Sandbox,
        base: &dyn ReadView,
        prev: Option<&Step>,
        ofrs: &mut OffersToRemove,
        inp: &Amount,
    ) -> (Amount, Amount) {
        match self {
            Step::Direct(s) => s.fwd(sb, prev, inp),
            Step::Book(s) => s.fwd(sb, base, prev, ofrs, inp),
            Step::XrpEndpoint(s) => s.exec(sb, inp),
        }
    }

    /// What went in the last time the step ran.
    pub fn cached_in(&self) -> Option<Amount> {
        match self {
            Step::Direct(s) => s.cache.as_ref().map(|c| c.inp),
            Step::Book(s) => s.cache.map(|c| c.0),
            Step::XrpEndpoint(s) => s.cache,
        }
    }

    /// What came out the last time the step ran.
    pub fn cached_out(&self) -> Option<Amount> {
        match self {
            Step::Direct(s) => s.cache.as_ref().map(|c| c.out),
            Step::Book(s) => s.cache.map(|c| c.1),
            Step::XrpEndpoint(s) => s.cache,
        }
    }

    /// The step's debt direction.
    pub fn debt_dir(&self, view: &dyn ReadView, dir: StrandDir) -> DebtDir {
        match self {
            Step::Direct(s) => s.debt_dir(view, dir),
            Step::Book(s) => s.debt_dir(),
            Step::XrpEndpoint(_) => DebtDir::Issues,
        }
    }

    /// What the next step needs to know about this one.
    pub fn info(&self, view: &dyn ReadView, dir: StrandDir) -> PrevInfo {
        PrevInfo {
            dir: self.debt_dir(view, dir),
            direct_src: match self {
                Step::Direct(s) => Some(s.src),
                _ => None,
            },
            book: match self {
                Step::Book(s) => Some((s.book_in, s.book_out)),
                _ => None,
            },
            line_quality_in: match self {
                Step::Direct(s) => s.line_quality_in(view),
                _ => crate::protocol::quality::QUALITY_ONE,
            },
        }
    }

    /// The best quality the step can offer now, and its debt direction.
    pub fn quality_upper_bound(
        &self,
        view: &dyn ReadView,
        prev_dir: DebtDir,
        prev: Option<&Step>,
    ) -> (Option<Quality>, DebtDir) {
        match self {
            Step::Direct(s) => s.quality_upper_bound(view, prev_dir, prev),
            Step::Book(s) => s.quality_upper_bound(view, prev_dir),
            Step::XrpEndpoint(_) => (Some(Quality::ONE), DebtDir::Issues),
        }
    }

    /// How the step's average quality falls with its output (rippled `getQualityFunc`):
    /// a book step's pool curve, else the constant best quality.
    pub fn quality_function(
        &self,
        view: &dyn ReadView,
        prev_dir: DebtDir,
        prev: Option<&Step>,
    ) -> (Option<QualityFunction>, DebtDir) {
        match self {
            Step::Book(b) => b.quality_function(view, prev_dir),
            _ => {
                let (q, d) = self.quality_upper_bound(view, prev_dir, prev);
                (q.and_then(|q| QualityFunction::clob_like(&q)), d)
            }
        }
    }

    /// True when the step consumed too many offers to be used again.
    pub fn inactive(&self) -> bool {
        matches!(self, Step::Book(b) if b.inactive)
    }

    /// Offers the step looked at the last time it ran.
    pub fn offers_used(&self) -> u32 {
        match self {
            Step::Book(b) => b.offers_used,
            _ => 0,
        }
    }

    /// Same step (strand deduplication).
    pub fn same_as(&self, other: &Step) -> bool {
        match (self, other) {
            (Step::Direct(a), Step::Direct(b)) => {
                a.src == b.src && a.dst == b.dst && a.currency == b.currency
            }
            (Step::Book(a), Step::Book(b)) => {
                a.book_in == b.book_in && a.book_out == b.book_out && a.domain == b.domain
            }
            (Step::XrpEndpoint(a), Step::XrpEndpoint(b)) => {
                a.account == b.account && a.is_last == b.is_last
            }
            _ => false,
        }
    }
}
