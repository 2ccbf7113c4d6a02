//! How a strand's average quality changes with its output (rippled `QualityFunction`):
//! `1 / q = m * out + b`. An offer's quality is constant (`m = 0`); a pool's average
//! quality falls linearly as it gives more. A single strand through a pool and a quality
//! limit asks the strand for the output at which its average quality meets the limit.

use crate::engine::amm::amm_math::fee_mult;
use crate::protocol::amount::Amount;
use crate::protocol::number::{Number, RoundGuard, RoundingMode};
use crate::protocol::quality::Quality;

/// `1 / quality = m * out + b`, with the quality kept while it is constant.
#[derive(Debug, Clone, Copy)]
pub struct QualityFunction {
    m: Number,
    b: Number,
    quality: Option<Quality>,
}

fn rate_of(q: &Quality) -> Number {
    Number::from_iou(&q.rate())
}

impl QualityFunction {
    /// A constant quality (an offer, a trust line).
    pub fn clob_like(q: &Quality) -> Option<QualityFunction> {
        let rate = rate_of(q);
        if rate.signum() <= 0 {
            return None;
        }
        Some(QualityFunction {
            m: Number::ZERO,
            b: Number::one() / rate,
            quality: Some(*q),
        })
    }

    /// A pool paying `pool_out` against `pool_in` at trading fee `fee`.
    pub fn amm(pool_in: &Amount, pool_out: &Amount, fee: u16) -> Option<QualityFunction> {
        let (i, o) = (pool_in.to_number(), pool_out.to_number());
        if i.signum() <= 0 || o.signum() <= 0 {
            return None;
        }
        let cfee = fee_mult(fee);
        Some(QualityFunction {
            m: -cfee / i,
            b: o * cfee / i,
            quality: None,
        })
    }

    /// The function of this step followed by `next` (rippled `combine`).
    pub fn combine(&mut self, next: &QualityFunction) {
        self.m = self.m + self.b * next.m;
        self.b = self.b * next.b;
        if self.m != Number::ZERO {
            self.quality = None;
        }
    }

    /// True when the quality does not depend on the output.
    pub fn is_const(&self) -> bool {
        self.quality.is_some()
    }

    /// The output at which the average quality is `q` (rippled `outFromAvgQ`, rounded
    /// up); none for a constant function or a non-positive answer.
    pub fn out_from_avg_q(&self, q: &Quality) -> Option<Number> {
        let rate = rate_of(q);
        if self.m == Number::ZERO || rate.signum() == 0 {
            return None;
        }
        let _g = RoundGuard::new(RoundingMode::Upward);
        let out = (Number::one() / rate - self.b) / self.m;
        (out.signum() > 0).then_some(out)
    }
}
