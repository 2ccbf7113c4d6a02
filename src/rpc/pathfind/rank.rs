//! Ranking the complete paths by what the payment engine can move along each (rippled
//! `Pathfinder::computePathRanks`, `rankPaths`, `getPathLiquidity`, `getBestPaths`), and
//! the engine call they share with the request (rippled `RippleCalc::rippleCalculate`).

use std::cmp::Ordering;

use super::search::{steps, Path, Pathfinder};
use crate::engine::flow::{flow, Crossing, FlowOutcome, FlowRequest};
use crate::engine::sandbox::Sandbox;
use crate::engine::Ter;
use crate::protocol::amount::{Amount, IouValue, Rounding, IOU_EXPONENT_MAX, IOU_MANTISSA_MAX};
use crate::protocol::amount_math::{compare, divide, get_rate};
use crate::protocol::st::PathStep;
use crate::protocol::types::{AccountId, Issue};

/// One ranked path.
#[derive(Clone, Debug)]
pub struct PathRank {
    /// Its initial quality (lower is better).
    pub quality: u64,
    /// Its length.
    pub length: usize,
    /// What it can deliver.
    pub liquidity: Amount,
    /// Where it is in the list it came from.
    pub index: usize,
}

/// All of `issue` there could be (rippled `largestAmount`): 100 billion XRP, or the
/// largest IOU value.
pub fn largest(issue: &Issue) -> Amount {
    if issue.is_xrp() {
        return Amount::Xrp(100_000_000_000 * 1_000_000);
    }
    let value = IouValue::from_parts(
        u128::from(IOU_MANTISSA_MAX),
        IOU_EXPONENT_MAX,
        false,
        Rounding::Down,
    )
    .unwrap_or(IouValue::ZERO);
    Amount::iou(value, issue.currency, issue.issuer)
}

/// True for [`largest`] (rippled `convertAllCheck`).
pub fn is_largest(a: &Amount) -> bool {
    compare(a, &largest(&a.issue())) == Ordering::Equal
}

/// Minus one of `issue`: rippled's "no limit" source amount and "as much as possible".
pub fn minus_one(issue: &Issue) -> Amount {
    if issue.is_xrp() {
        return Amount::Xrp(-1);
    }
    Amount::iou(IouValue::from_i64(-1), issue.currency, issue.issuer)
}

/// One engine run in `sb`, as rippled's `rippleCalculate` calls `flow`: a negative
/// `max` of the delivered issue from the source itself means "no limit".
pub struct Calc<'p> {
    /// The most to spend (negative: no limit).
    pub max: Amount,
    /// What to deliver.
    pub deliver: Amount,
    /// Who receives.
    pub dst: AccountId,
    /// Who pays.
    pub src: AccountId,
    /// Explicit paths.
    pub paths: &'p [Vec<PathStep>],
    /// Also try the default path.
    pub default_paths: bool,
    /// Less is fine.
    pub partial: bool,
    /// A permissioned domain's books only.
    pub domain: Option<crate::protocol::types::Hash256>,
}

/// Runs `c` in `sb`, keeping its changes there on success.
pub fn ripple_calc(sb: &mut Sandbox, c: &Calc) -> FlowOutcome {
    let max = c.max;
    let send_max =
        (!max.is_negative() || max.issue() != c.deliver.issue() || max.issue().issuer != c.src)
            .then_some(max);
    let req = FlowRequest {
        src: c.src,
        dst: c.dst,
        deliver: c.deliver,
        send_max,
        paths: c.paths,
        default_path: c.default_paths,
        partial: c.partial,
        owner_pays_fee: false,
        crossing: Crossing::No,
        limit_quality: None,
        domain: c.domain,
    };
    flow(sb, &req)
}

impl Pathfinder<'_, '_> {
    fn calc(
        &self,
        sb: &mut Sandbox,
        deliver: Amount,
        paths: &[Vec<PathStep>],
        default_paths: bool,
        partial: bool,
    ) -> FlowOutcome {
        ripple_calc(
            sb,
            &Calc {
                max: self.src_amount,
                deliver,
                dst: self.dst,
                src: self.src,
                paths,
                default_paths,
                partial,
                domain: self.cx.domain,
            },
        )
    }

    /// What `path` alone can deliver and at what initial quality, if at least `min_dst`
    /// (rippled `getPathLiquidity`).
    fn path_liquidity(&self, path: &Path, min_dst: &Amount) -> Result<(Amount, u64), Ter> {
        let set = steps(std::slice::from_ref(path));
        let mut sb = Sandbox::new(self.cx.read_view());
        let rc = self.calc(&mut sb, *min_dst, &set, false, self.convert_all);
        rc.ter.into_result()?;
        let quality = get_rate(&rc.actual_out, &rc.actual_in);
        let mut out = rc.actual_out;
        if !self.convert_all {
            let rest = self.dst_amount.sub_nearest(&out);
            let more = self.calc(&mut sb, rest, &set, false, true);
            if more.ter == Ter::tesSUCCESS {
                out = out.add_nearest(&more.actual_out);
            }
        }
        Ok((out, quality))
    }

    /// Takes away what the default path delivers, then ranks the complete paths (rippled
    /// `computePathRanks`).
    pub fn compute_path_ranks(&mut self, max_paths: usize) {
        self.remaining = self.dst_amount;
        let mut sb = Sandbox::new(self.cx.read_view());
        let rc = self.calc(&mut sb, self.remaining, &[], true, true);
        if rc.ter == Ter::tesSUCCESS {
            self.remaining = self.remaining.sub_nearest(&rc.actual_out);
        }
        let complete = self.complete.clone();
        self.ranks = self.rank_paths(max_paths, &complete);
    }

    /// Ranks `paths` that can carry a useful amount, best first (rippled `rankPaths`).
    fn rank_paths(&self, max_paths: usize, paths: &[Path]) -> Vec<PathRank> {
        let min_dst = if self.convert_all {
            largest(&self.dst_amount.issue())
        } else {
            let parts = Amount::Xrp(i64::try_from(max_paths + 2).unwrap_or(i64::MAX));
            divide(&self.dst_amount, &parts, &self.dst_amount.issue()).unwrap_or(self.dst_amount)
        };
        let mut ranks = Vec::new();
        for (index, path) in paths.iter().enumerate() {
            if !(self.keep_going)() {
                break;
            }
            if path.is_empty() {
                continue;
            }
            if let Ok((liquidity, quality)) = self.path_liquidity(path, &min_dst) {
                ranks.push(PathRank {
                    quality,
                    length: path.len(),
                    liquidity,
                    index,
                });
            }
        }
        let convert_all = self.convert_all;
        ranks.sort_by(|a, b| {
            let by_quality = if convert_all {
                Ordering::Equal
            } else {
                a.quality.cmp(&b.quality)
            };
            by_quality
                .then_with(|| compare(&b.liquidity, &a.liquidity))
                .then(a.length.cmp(&b.length))
                .then(b.index.cmp(&a.index))
        });
        ranks
    }

    /// The best paths, at most `max_paths`, merging `extra` (paths found for the request
    /// before); `full` gets the best further path that alone can deliver everything
    /// (rippled `getBestPaths`).
    pub fn best_paths(
        &self,
        max_paths: usize,
        full: &mut Option<Path>,
        extra: &[Path],
        src_issuer: &AccountId,
    ) -> Vec<Path> {
        if self.complete.is_empty() && extra.is_empty() {
            return Vec::new();
        }
        let issuer_is_sender = self.src_currency.is_xrp() || *src_issuer == self.src;
        let extra_ranks = self.rank_paths(max_paths, extra);
        let mut best: Vec<Path> = Vec::new();
        let mut remaining = self.remaining;
        let (mut i, mut j) = (0, 0);
        while i < self.ranks.len() || j < extra_ranks.len() {
            if !(self.keep_going)() {
                break;
            }
            let (use_path, use_extra) = pick(self.ranks.get(i), extra_ranks.get(j));
            let rank = if use_path {
                &self.ranks[i]
            } else {
                &extra_ranks[j]
            };
            let path = if use_path {
                &self.complete[rank.index]
            } else {
                &extra[rank.index]
            };
            i += usize::from(use_path);
            j += usize::from(use_extra);
            let left = max_paths.saturating_sub(best.len());
            if left == 0 && full.is_some() {
                break;
            }
            let mut starts_with_issuer = false;
            if !issuer_is_sender && use_path {
                if path.len() == 1 || path[0].account != *src_issuer {
                    continue;
                }
                starts_with_issuer = true;
            }
            let chosen = if starts_with_issuer {
                path[1..].to_vec()
            } else {
                path.clone()
            };
            let fills = |a: &Amount| compare(&rank.liquidity, a) != Ordering::Less;
            if left > 1 || (left > 0 && fills(&remaining)) {
                remaining = remaining.sub_nearest(&rank.liquidity);
                best.push(chosen);
            } else if left == 0 && fills(&self.dst_amount) && full.is_none() {
                *full = Some(chosen);
            }
        }
        best
    }
}

/// Which list the next best path comes from: (the search's, the extra one's).
fn pick(path: Option<&PathRank>, extra: Option<&PathRank>) -> (bool, bool) {
    match (path, extra) {
        (None, _) => (false, true),
        (_, None) => (true, false),
        (Some(p), Some(e)) => match e.quality.cmp(&p.quality) {
            Ordering::Less => (false, true),
            Ordering::Greater => (true, false),
            Ordering::Equal => match compare(&e.liquidity, &p.liquidity) {
                Ordering::Greater => (false, true),
                Ordering::Less => (true, false),
                Ordering::Equal => (true, true),
            },
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::types::Currency;

    fn usd() -> Issue {
        Issue {
            currency: Currency::iso(*b"USD"),
            issuer: AccountId::ONE,
        }
    }

    #[test]
    fn largest_and_minus_one_are_rippleds() {
        assert_eq!(largest(&Issue::XRP), Amount::Xrp(100_000_000_000_000_000));
        assert!(is_largest(&largest(&usd())));
        assert!(!is_largest(&minus_one(&usd())));
        assert_eq!(minus_one(&Issue::XRP), Amount::Xrp(-1));
        assert_eq!(minus_one(&usd()).value_text(), "-1");
    }

    #[test]
    fn the_extra_list_wins_on_quality_then_liquidity() {
        let r = |quality, v: i64| PathRank {
            quality,
            length: 1,
            liquidity: Amount::Xrp(v),
            index: 0,
        };
        assert_eq!(pick(Some(&r(5, 1)), Some(&r(4, 1))), (false, true));
        assert_eq!(pick(Some(&r(4, 1)), Some(&r(5, 1))), (true, false));
        assert_eq!(pick(Some(&r(4, 1)), Some(&r(4, 2))), (false, true));
        assert_eq!(pick(Some(&r(4, 2)), Some(&r(4, 2))), (true, true));
        assert_eq!(pick(None, Some(&r(4, 2))), (false, true));
        assert_eq!(pick(Some(&r(4, 2)), None), (true, false));
    }
}
