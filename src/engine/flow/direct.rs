//! Rippling along one trust line (rippled `DirectStep.cpp`): the source redeems the
//! destination's IOUs it holds, or issues its own up to the destination's limit, with
//! the line's QualityIn/QualityOut and the source's transfer rate when it passes on IOUs
//! it received by redemption.

use super::step::{DebtDir, Step, StrandDir};
use super::{amt_cmp, amt_positive, mul_ratio_or_zero};
use crate::engine::funds::{account_holds, credit_line, transfer_rate};
use crate::engine::ripple::limit_for;
use crate::engine::sandbox::Sandbox;
use crate::ledger::keylet;
use crate::ledger::sf::{sf, StExt};
use crate::ledger::view::ReadView;
use crate::protocol::amount::{Amount, IouValue};
use crate::protocol::amount_math::get_rate;
use crate::protocol::quality::{Quality, QUALITY_ONE};
use crate::protocol::types::{AccountId, Currency, Issue};

/// What the step did the last time it ran.
#[derive(Debug, Clone)]
pub struct DirectCache {
    /// What went in (before the source's QualityOut / transfer rate).
    pub inp: Amount,
    /// What moved along the line.
    pub src_to_dst: Amount,
    /// What came out (after the destination's QualityIn).
    pub out: Amount,
    /// Whether the source redeemed or issued.
    pub src_dir: DebtDir,
}

/// One trust-line hop.
#[derive(Debug, Clone)]
pub struct DirectStep {
    /// Who sends.
    pub src: AccountId,
    /// Who receives.
    pub dst: AccountId,
    /// The currency.
    pub currency: Currency,
    /// The strand's last step.
    pub is_last: bool,
    /// Offer crossing (ignores line qualities; the last step ignores limits).
    pub crossing: bool,
    /// The last run.
    pub cache: Option<DirectCache>,
}

/// Which line quality a step reads.
#[derive(Clone, Copy, PartialEq, Eq)]
enum QDir {
    In,
    Out,
}

impl DirectStep {
    fn iou(&self, v: IouValue) -> Amount {
        Amount::iou(v, self.currency, self.src)
    }

    fn quality(&self, view: &dyn ReadView, q: QDir) -> u32 {
        if self.crossing || self.src == self.dst {
            return QUALITY_ONE;
        }
        let s = sf();
        let Some(line) = view.read(&keylet::line(&self.dst, &self.src, &self.currency)) else {
            return QUALITY_ONE;
        };
        let field = match q {
            QDir::In if self.dst < self.src => s.low_quality_in,
            QDir::In => s.high_quality_in,
            QDir::Out if self.src < self.dst => s.low_quality_out,
            QDir::Out => s.high_quality_out,
        };
        match line.u32_of(field) {
            Some(q) if q != 0 => q,
            _ => QUALITY_ONE,
        }
    }

    /// The destination's QualityIn on this line (what a following step compares).
    pub fn line_quality_in(&self, view: &dyn ReadView) -> u32 {
        self.quality(view, QDir::In)
    }

    fn src_owed(&self, view: &dyn ReadView) -> IouValue {
        let issue = Issue {
            currency: self.currency,
            issuer: self.dst,
        };
        account_holds(view, &self.src, &issue, false)
            .as_iou()
            .unwrap_or(IouValue::ZERO)
    }

    fn max_payment_flow(&self, view: &dyn ReadView) -> (IouValue, DebtDir) {
        let owed = self.src_owed(view);
        if owed.signum() > 0 {
            return (owed, DebtDir::Redeems);
        }
        let limit = view
            .read(&keylet::line(&self.dst, &self.src, &self.currency))
            .map(|l| limit_for(&l, &self.dst, &self.src))
            .unwrap_or(IouValue::ZERO);
        (
            limit.checked_add(&owed).unwrap_or(IouValue::ZERO),
            DebtDir::Issues,
        )
    }

    fn max_flow(&self, view: &dyn ReadView, desired: &Amount) -> (Amount, DebtDir) {
        if self.crossing && self.is_last {
            return (*desired, DebtDir::Issues);
        }
        let (v, d) = self.max_payment_flow(view);
        (self.iou(v), d)
    }

    /// The step's debt direction.
    pub fn debt_dir(&self, view: &dyn ReadView, dir: StrandDir) -> DebtDir {
        if dir == StrandDir::Forward {
            if let Some(c) = &self.cache {
                return c.src_dir;
            }
        }
        if self.src_owed(view).signum() > 0 {
            DebtDir::Redeems
        } else {
            DebtDir::Issues
        }
    }

    fn qualities_src_redeems(&self, view: &dyn ReadView, prev: Option<&Step>) -> (u32, u32) {
        let Some(prev) = prev else {
            return (QUALITY_ONE, QUALITY_ONE);
        };
        let prev_q_in = prev.info(view, StrandDir::Reverse).line_quality_in;
        (prev_q_in.max(self.quality(view, QDir::Out)), QUALITY_ONE)
    }

    fn qualities_src_issues(&self, view: &dyn ReadView, prev_dir: DebtDir) -> (u32, u32) {
        let src_q_out = if prev_dir.redeems() {
            transfer_rate(view, &self.src)
        } else {
            QUALITY_ONE
        };
        let mut dst_q_in = self.quality(view, QDir::In);
        if self.is_last && dst_q_in > QUALITY_ONE {
            dst_q_in = QUALITY_ONE;
        }
        (src_q_out, dst_q_in)
    }

    fn qualities(
        &self,
        view: &dyn ReadView,
        src_dir: DebtDir,
        strand_dir: StrandDir,
        prev: Option<&Step>,
    ) -> (u32, u32) {
        if src_dir.redeems() {
            return self.qualities_src_redeems(view, prev);
        }
        let prev_dir = prev.map_or(DebtDir::Issues, |p| p.debt_dir(view, strand_dir));
        self.qualities_src_issues(view, prev_dir)
    }

    fn credit(&self, sb: &mut Sandbox, amount: &Amount) {
        if let Some(v) = amount.as_iou() {
            // A failed credit leaves the line unchanged; the invariants and the
            // strand's own checks catch what it should have moved.
            let _ = credit_line(sb, &self.src, &self.dst, &self.currency, &v);
        }
    }

    fn dry(&mut self, src_dir: DebtDir) -> (Amount, Amount) {
        let z = self.iou(IouValue::ZERO);
        self.cache = Some(DirectCache {
            inp: z,
            src_to_dst: z,
            out: z,
            src_dir,
        });
        (z, z)
    }

    /// The reverse pass.
    pub fn rev(&mut self, sb: &mut Sandbox, prev: Option<&Step>, out: &Amount) -> (Amount, Amount) {
        self.cache = None;
        let (max, src_dir) = self.max_flow(&*sb, out);
        let (q_out, q_in) = self.qualities(&*sb, src_dir, StrandDir::Reverse, prev);
        if !amt_positive(&max) {
            return self.dry(src_dir);
        }
        let src_to_dst = mul_ratio_or_zero(out, QUALITY_ONE, q_in, true);
        if amt_cmp(&src_to_dst, &max).is_le() {
            let inp = mul_ratio_or_zero(&src_to_dst, q_out, QUALITY_ONE, true);
            self.cache = Some(DirectCache {
                inp,
                src_to_dst,
                out: *out,
                src_dir,
            });
            self.credit(sb, &src_to_dst);
            return (inp, *out);
        }
        let inp = mul_ratio_or_zero(&max, q_out, QUALITY_ONE, true);
        let actual_out = mul_ratio_or_zero(&max, q_in, QUALITY_ONE, false);
        self.cache = Some(DirectCache {
            inp,
            src_to_dst: max,
            out: actual_out,
            src_dir,
        });
        self.credit(sb, &max);
        (inp, actual_out)
    }

    fn set_cache_limiting(&mut self, inp: Amount, src_to_dst: Amount, out: Amount, d: DebtDir) {
        let Some(c) = self.cache.as_mut() else {
            self.cache = Some(DirectCache {
                inp,
                src_to_dst,
                out,
                src_dir: d,
            });
            return;
        };
        if amt_cmp(&c.inp, &inp).is_lt() {
            let diff = inp.sub_nearest(&c.inp);
            let small = Amount::iou(
                IouValue::from_parts(1, -9, false, crate::protocol::amount::Rounding::Nearest)
                    .unwrap_or(IouValue::ZERO),
                self.currency,
                self.src,
            );
            if amt_cmp(&diff, &small).is_gt() && large_difference(&inp, &c.inp) {
                *c = DirectCache {
                    inp,
                    src_to_dst,
                    out,
                    src_dir: d,
                };
                return;
            }
        }
        c.inp = inp;
        if amt_cmp(&src_to_dst, &c.src_to_dst).is_lt() {
            c.src_to_dst = src_to_dst;
        }
        if amt_cmp(&out, &c.out).is_lt() {
            c.out = out;
        }
        c.src_dir = d;
    }

    /// The forward pass.
    pub fn fwd(&mut self, sb: &mut Sandbox, prev: Option<&Step>, inp: &Amount) -> (Amount, Amount) {
        let desired = self.cache.as_ref().map(|c| c.src_to_dst).unwrap_or(*inp);
        let (max, src_dir) = self.max_flow(&*sb, &desired);
        let (q_out, q_in) = self.qualities(&*sb, src_dir, StrandDir::Forward, prev);
        if !amt_positive(&max) {
            return self.dry(src_dir);
        }
        let src_to_dst = mul_ratio_or_zero(inp, QUALITY_ONE, q_out, false);
        if amt_cmp(&src_to_dst, &max).is_le() {
            let out = mul_ratio_or_zero(&src_to_dst, q_in, QUALITY_ONE, false);
            self.set_cache_limiting(*inp, src_to_dst, out, src_dir);
        } else {
            let actual_in = mul_ratio_or_zero(&max, q_out, QUALITY_ONE, true);
            let out = mul_ratio_or_zero(&max, q_in, QUALITY_ONE, false);
            self.set_cache_limiting(actual_in, max, out, src_dir);
        }
        let Some(c) = self.cache.clone() else {
            return self.dry(src_dir);
        };
        self.credit(sb, &c.src_to_dst);
        (c.inp, c.out)
    }

    /// The step's best quality and debt direction.
    pub fn quality_upper_bound(
        &self,
        view: &dyn ReadView,
        prev_dir: DebtDir,
        prev: Option<&Step>,
    ) -> (Option<Quality>, DebtDir) {
        let dir = self.debt_dir(view, StrandDir::Forward);
        let (q_out, q_in) = if dir.redeems() {
            self.qualities_src_redeems(view, prev)
        } else {
            self.qualities_src_issues(view, prev_dir)
        };
        let as_amount = |q: u32| Amount::iou(IouValue::from_i64(q as i64), self.currency, self.src);
        (
            Some(Quality(get_rate(&as_amount(q_in), &as_amount(q_out)))),
            dir,
        )
    }
}

/// rippled's "large diff" test in `setCacheLimiting`: different exponents, or more
/// than 1% apart.
fn large_difference(fwd: &Amount, cached: &Amount) -> bool {
    match (fwd.as_iou(), cached.as_iou()) {
        (Some(f), Some(c)) => {
            f.exponent() != c.exponent()
                || c.mantissa() == 0
                || (f.mantissa() as f64 / c.mantissa() as f64) > 1.01
        }
        _ => true,
    }
}
