//! Sample points for comparing expressions in variables, and the domain rule.
//!
//! Points are seeded rationals, not floats, and they cover the whole real line: positive
//! values, negative values, values of magnitude below one, mixed signs across variables
//! and zero. An identity that holds only for positive arguments (`\sqrt{x^2} = x`,
//! `\ln(x^2) = 2\ln x`, `|x| = x`) therefore fails at a negative point. The trial order
//! visits every kind before "equal" may be claimed.
//!
//! **Domain rule.** At a *generic* point (a random rational with a large denominator,
//! no variable forced to an integer) an expression is only undefined where it is
//! undefined on a whole interval (a root or logarithm of a negative number), never at
//! an isolated singularity, which a random rational misses. So when one side is
//! provably undefined ([`Undefined::Domain`]) and the other is defined there, the two
//! have different domains and are not equivalent. At zero and at integer points one
//! side may have a removable singularity (`\frac{x^2}{x}` against `x`), so a one-sided
//! failure there is skipped.

use super::eval::{Env, mix64};
use super::value::{Decision, NResult, Num, Undefined, decide};
use num_bigint::BigInt;
use num_rational::BigRational;

/// What kind of value the non-integer variables take at one trial.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Positive,
    Negative,
    /// Magnitude below one, either sign.
    Small,
    /// Signs alternating across variables (the first one random), so that a product of
    /// two variables is negative.
    Mixed,
    Zero,
}

/// The trial order: every kind once before anything repeats, then mostly positive
/// points (where most answers are defined) so that root and log answers still find
/// enough points at which both sides are defined.
const SCHEDULE: [Kind; 16] = [
    Kind::Positive,
    Kind::Negative,
    Kind::Small,
    Kind::Mixed,
    Kind::Zero,
    Kind::Positive,
    Kind::Mixed,
    Kind::Small,
    Kind::Positive,
    Kind::Negative,
    Kind::Positive,
    Kind::Mixed,
    Kind::Positive,
    Kind::Small,
    Kind::Positive,
    Kind::Mixed,
];

/// Trials per comparison.
pub const MAX_TRIALS: usize = SCHEDULE.len();
/// Points at which both sides must agree.
pub const NEEDED_POINTS: usize = 4;
/// "Equal" is not claimed before every kind of point was tried.
const FIRST_REPEAT: usize = 5;

/// One sample point: the values, and whether a one-sided domain failure there proves
/// the domains differ.
pub struct Point {
    pub env: Vec<(String, Num)>,
    pub generic: bool,
}

/// The point for `trial`. Variables in `ints` (sum bounds, factorial arguments) take
/// positive integers 1..=40 at every trial.
pub fn point(vars: &[String], ints: &[String], trial: usize, seed: u64) -> Point {
    let kind = SCHEDULE[trial % MAX_TRIALS];
    let mut generic = kind != Kind::Zero;
    let env = vars
        .iter()
        .enumerate()
        .map(|(i, v)| {
            let h = mix64(seed ^ mix64((trial as u64).wrapping_mul(0x1000_0000_01B3) ^ i as u64));
            let value = if ints.contains(v) {
                generic = false;
                Num::int(1 + (mix64(h ^ 0x1) % 40) as i64)
            } else {
                let flip = (seed >> 7) & 1 == 1;
                rational(kind, h, (i % 2 == 1) != flip)
            };
            (v.clone(), value)
        })
        .collect();
    Point { env, generic }
}

/// A rational of the given kind with a denominator in 97..=193, so Schwartz–Zippel has
/// a large set to draw from and no value is an integer (except zero).
fn rational(kind: Kind, h: u64, odd: bool) -> Num {
    let den = 97 + (h % 97) as i64;
    let positive = den / 2 + 1 + ((h >> 20) % (10 * den as u64)) as i64;
    let num = match kind {
        Kind::Positive => positive,
        Kind::Negative => -positive,
        Kind::Small => {
            let m = 1 + ((h >> 20) % (den as u64 - 1)) as i64;
            if (h >> 50) & 1 == 0 { m } else { -m }
        }
        Kind::Mixed => {
            if odd {
                positive
            } else {
                -positive
            }
        }
        Kind::Zero => 0,
    };
    Num::Exact(BigRational::new(BigInt::from(num), BigInt::from(den)))
}

/// The verdict of one trial.
pub enum Trial {
    /// Both sides are defined and equal.
    Agree,
    /// The sides differ, or their domains do.
    Differ,
    /// Nothing can be concluded here.
    Skip,
}

/// Compares two evaluations at `point` with the domain rule.
pub fn judge(x: NResult, y: NResult, generic: bool) -> Trial {
    match (x, y) {
        (Ok(x), Ok(y)) => match decide(&x, &y) {
            Decision::Equal => Trial::Agree,
            _ => Trial::Differ,
        },
        (Err(Undefined::Domain), Ok(_)) | (Ok(_), Err(Undefined::Domain)) if generic => {
            Trial::Differ
        }
        _ => Trial::Skip,
    }
}

/// Whether enough points agreed to call two expressions equal.
pub fn enough(good: usize, trial: usize) -> bool {
    good >= NEEDED_POINTS && trial + 1 >= FIRST_REPEAT
}

/// Runs the trials: `Some(true)` when equal, `Some(false)` when different or too few
/// points agree, `None` when no point was conclusive (nothing evaluates: symbolic sums,
/// indexed names).
pub fn run(
    vars: &[String],
    ints: &[String],
    seed: u64,
    mut eval_pair: impl FnMut(&Env) -> (NResult, NResult),
) -> Option<bool> {
    let mut good = 0;
    for trial in 0..MAX_TRIALS {
        let p = point(vars, ints, trial, seed);
        let (x, y) = eval_pair(&p.env);
        match judge(x, y, p.generic) {
            Trial::Agree => good += 1,
            Trial::Differ => return Some(false),
            Trial::Skip => continue,
        }
        if enough(good, trial) {
            return Some(true);
        }
    }
    (good > 0).then_some(false)
}

#[cfg(test)]
mod tests {
    use super::*;
    use num_traits::{Signed, Zero};

    #[test]
    fn points_cover_the_line() {
        let vars = vec!["x".to_string()];
        let values: Vec<BigRational> = (0..MAX_TRIALS)
            .map(|t| match &point(&vars, &[], t, 42).env[0].1 {
                Num::Exact(q) => q.clone(),
                Num::Approx { .. } => unreachable!("points are exact"),
            })
            .collect();
        assert!(values[..FIRST_REPEAT].iter().any(|q| q.is_negative()));
        assert!(values[..FIRST_REPEAT].iter().any(|q| q.is_zero()));
        assert!(values[..FIRST_REPEAT].iter().any(|q| q.is_positive()));
        let unit = BigRational::from_integer(1.into());
        assert!(values.iter().any(|q| !q.is_zero() && q.abs() < unit));
        assert!(values.iter().all(|q| q.is_zero() || !q.is_integer()));
    }
}
