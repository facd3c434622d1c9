//! `math/series-v1`: exact values of finite and infinite sums.
//!
//! # Task
//! "Find the exact value of $\sum_{k=1}^{\infty} \frac{3}{(k+1)(k+3)}$."
//! Five kinds: arithmetic sums (as a sum formula or as written-out terms),
//! finite geometric sums with a rational ratio, infinite geometric series,
//! telescoping sums of `c / ((k+a)(k+b))` (finite or infinite), and
//! arithmetic–geometric sums `Σ (ak+b) r^k` (finite with an integer ratio or
//! infinite with |r| < 1).
//!
//! # Action
//! One free-text answer whose last `\boxed{}` holds one number: an integer
//! or a fraction (read by [`crate::single_turn`] and the math verifier).
//!
//! # Observation
//! The sum in LaTeX and the answer format.
//!
//! # Reward
//! 1 and `passed` when the boxed number equals the sum exactly, else 0 (a
//! rounded decimal fails; the boxed sum itself fails, a number is required).
//! Breakdown: `correct`, `format`.
//!
//! # Episode end
//! After the one answer.
//!
//! # Parameters
//! `kinds` (non-empty subset of `arithmetic`, `geometric`, `infinite`,
//! `telescoping`, `arithmetic_geometric`), `max_terms` (5–100; geometric sums
//! use at most 12 terms), `max_coef` (2–20).
//!
//! # Seeding
//! Sums 0, ±1, 2 and sums written in the question are redrawn.
//!
//! # Version history
//! v1: first version.

use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::{One, Signed, Zero};
use serde::{Deserialize, Serialize};

use super::forms::Form;
use super::latex::{int, latex_rational, nonzero, rat};
use super::question::{Family, MathEnv, MathTask};
use crate::core::{EnvKind, EnvSpec, Preset};
use crate::error::ConfigError;
use crate::rng::Rng;

const KINDS: [&str; 5] = [
    "arithmetic",
    "geometric",
    "infinite",
    "telescoping",
    "arithmetic_geometric",
];

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct SeriesConfig {
    pub kinds: Vec<String>,
    pub max_terms: i64,
    pub max_coef: i64,
}

impl Default for SeriesConfig {
    fn default() -> Self {
        SeriesConfig {
            kinds: KINDS.iter().map(|k| k.to_string()).collect(),
            max_terms: 20,
            max_coef: 9,
        }
    }
}

pub struct SeriesFamily;
pub type Series = MathEnv<SeriesFamily>;

/// `r^k` for a rational `r`.
fn power(r: &BigRational, k: i64) -> BigRational {
    num_traits::pow(r.clone(), k as usize)
}

/// `Σ_{k=lo}^{hi} f(k)` exactly.
pub fn finite_sum(lo: i64, hi: i64, f: impl Fn(i64) -> BigRational) -> BigRational {
    (lo..=hi).map(f).fold(BigRational::zero(), |a, b| a + b)
}

/// `Σ_{k=0}^{∞} c r^k = c / (1 - r)` for |r| < 1.
pub fn infinite_geometric(c: &BigRational, r: &BigRational) -> BigRational {
    c / (BigRational::one() - r)
}

/// `Σ_{k=1}^{∞} c / ((k+a)(k+b)) = c/(b-a) · Σ_{j=a+1}^{b} 1/j` for `a < b`.
pub fn infinite_telescoping(c: i64, a: i64, b: i64) -> BigRational {
    finite_sum(a + 1, b, |j| rat(1, j)) * rat(c, b - a)
}

/// `Σ_{k=1}^{∞} (ak+b) r^k = a r/(1-r)^2 + b r/(1-r)` for |r| < 1.
pub fn infinite_arithmetic_geometric(a: i64, b: i64, r: &BigRational) -> BigRational {
    let one_minus = BigRational::one() - r;
    int(a) * r / (&one_minus * &one_minus) + int(b) * r / one_minus
}

/// `(k + 2)` / `k`.
fn shifted(a: i64) -> String {
    if a == 0 {
        "k".into()
    } else {
        format!("(k + {a})")
    }
}

/// `3k + 2`, `-k - 1`, `4k`.
fn linear(a: i64, b: i64) -> String {
    super::latex::latex_poly_i(&[b, a], "k")
}

/// A ratio as a power base: `2`, `\left(-\frac{1}{3}\right)`.
fn base(r: &BigRational) -> String {
    if r.is_integer() && r > &BigRational::zero() {
        latex_rational(r)
    } else {
        format!("\\left({}\\right)", latex_rational(r))
    }
}

fn ratio(rng: &mut Rng, below_one: bool) -> BigRational {
    loop {
        let q = rng.range_i64(if below_one { 2 } else { 1 }, 5);
        let p = nonzero(rng, if below_one { q - 1 } else { 5 });
        let r = rat(p, q);
        if (p.abs() != q || below_one) && !(r.is_integer() && r.numer().abs() == BigInt::one()) {
            return r;
        }
    }
}

fn draw_kind(kind: &str, config: &SeriesConfig, rng: &mut Rng) -> (String, BigRational) {
    let m = config.max_coef;
    let n = rng.range_i64(4, config.max_terms);
    match kind {
        "arithmetic" => {
            let (a, b) = (nonzero(rng, m), rng.range_i64(-m, m));
            let value = finite_sum(1, n, |k| int(a * k + b));
            let text = if rng.chance(0.5) {
                format!("$\\sum_{{k=1}}^{{{n}}} ({})$", linear(a, b))
            } else {
                let t = |k: i64| a * k + b;
                let join = |x: i64| {
                    if x < 0 {
                        format!("- {}", -x)
                    } else {
                        format!("+ {x}")
                    }
                };
                format!(
                    "${} {} {} + \\cdots {}$ (an arithmetic progression whose last term is {})",
                    t(1),
                    join(t(2)),
                    join(t(3)),
                    join(t(n)),
                    t(n)
                )
            };
            (text, value)
        }
        "geometric" => {
            let (c, r) = (int(nonzero(rng, m)), ratio(rng, false));
            let n = n.min(12);
            let value = finite_sum(0, n - 1, |k| &c * power(&r, k));
            let text = format!(
                "$\\sum_{{k=0}}^{{{}}} {}\\cdot {}^{{k}}$",
                n - 1,
                latex_rational(&c),
                base(&r)
            );
            (text, value)
        }
        "infinite" => {
            let (c, r) = (int(nonzero(rng, m)), ratio(rng, true));
            let start = rng.range_i64(0, 2);
            let value = infinite_geometric(&c, &r) * power(&r, start);
            let text = format!(
                "$\\sum_{{k={start}}}^{{\\infty}} {}\\cdot {}^{{k}}$",
                latex_rational(&c),
                base(&r)
            );
            (text, value)
        }
        "telescoping" => {
            let a = rng.range_i64(0, 3);
            let b = a + rng.range_i64(1, 4);
            let c = nonzero(rng, m);
            let infinite = rng.chance(0.5);
            let value = if infinite {
                infinite_telescoping(c, a, b)
            } else {
                finite_sum(1, n, |k| rat(c, (k + a) * (k + b)))
            };
            let top = if infinite {
                "\\infty".to_string()
            } else {
                n.to_string()
            };
            let text = format!(
                "$\\sum_{{k=1}}^{{{top}}} \\frac{{{c}}}{{{}{}}}$",
                shifted(a),
                shifted(b)
            );
            (text, value)
        }
        _ => {
            let (a, b) = (nonzero(rng, m), rng.range_i64(-m, m));
            if rng.chance(0.5) {
                let r = int(rng.range_i64(2, 3) * if rng.chance(0.3) { -1 } else { 1 });
                let n = n.min(12);
                let value = finite_sum(1, n, |k| int(a * k + b) * power(&r, k));
                let text = format!(
                    "$\\sum_{{k=1}}^{{{n}}} ({})\\cdot {}^{{k}}$",
                    linear(a, b),
                    base(&r)
                );
                (text, value)
            } else {
                let r = ratio(rng, true);
                let text = format!(
                    "$\\sum_{{k=1}}^{{\\infty}} ({})\\cdot {}^{{k}}$",
                    linear(a, b),
                    base(&r)
                );
                (text, infinite_arithmetic_geometric(a, b, &r))
            }
        }
    }
}

impl Family for SeriesFamily {
    type Config = SeriesConfig;

    const SPEC: EnvSpec = EnvSpec {
        id: "math/series-v1",
        kind: EnvKind::SingleTurn,
        description: "Exact value of an arithmetic, geometric, telescoping or arithmetic-geometric sum (finite or infinite); answer a number",
        players: 1,
        max_steps: 1,
        reward_range: (0.0, 1.0),
        zero_sum: false,
        fixed_start: false,
        presets: &Preset::graded(Self::LEVELS, [1, 3, 5]),
    };

    /// Difficulty levels, easiest first: arithmetic sums, then geometric and
    /// infinite geometric ones, then all kinds (the default), then
    /// telescoping and arithmetic–geometric sums with more terms and larger
    /// coefficients.
    const LEVELS: &'static [&'static str] = &[
        r#"{"kinds":["arithmetic"],"max_terms":10,"max_coef":5}"#,
        r#"{"kinds":["arithmetic","geometric"],"max_terms":8,"max_coef":5}"#,
        r#"{"kinds":["geometric","infinite"],"max_terms":10,"max_coef":9}"#,
        "{}",
        r#"{"kinds":["telescoping","arithmetic_geometric","geometric"],"max_terms":30,"max_coef":12}"#,
        r#"{"kinds":["telescoping","arithmetic_geometric"],"max_terms":60,"max_coef":15}"#,
        r#"{"kinds":["telescoping","arithmetic_geometric"],"max_terms":100,"max_coef":20}"#,
    ];

    /// The method's weight (1 for an arithmetic sum, 2 geometric, 3
    /// telescoping or arithmetic–geometric) times the digits of the value.
    fn effort(task: &MathTask) -> Option<f64> {
        let q = &task.question;
        let weight = if q.contains("\\frac{") && q.contains("(k") || q.contains(")\\cdot") {
            3.0
        } else if q.contains("^{k}") {
            2.0
        } else {
            1.0
        };
        let digits = task.answer.chars().filter(char::is_ascii_digit).count() as f64;
        Some(weight * digits)
    }

    fn validate(config: &SeriesConfig) -> Result<(), ConfigError> {
        if config.kinds.is_empty() || config.kinds.iter().any(|k| !KINDS.contains(&k.as_str())) {
            return Err("kinds must be a non-empty subset of arithmetic, geometric, infinite, telescoping, arithmetic_geometric".into());
        }
        if !(5..=100).contains(&config.max_terms) {
            return Err("max_terms must be in 5..=100".into());
        }
        if !(2..=20).contains(&config.max_coef) {
            return Err("max_coef must be in 2..=20".into());
        }
        Ok(())
    }

    fn draw(config: &SeriesConfig, rng: &mut Rng) -> Option<MathTask> {
        let kind = rng.choose(&config.kinds)?.clone();
        let (text, value) = draw_kind(&kind, config, rng);
        Some(MathTask {
            question: format!(
                "Find the exact value of {text}. Give an integer or a fraction in lowest terms."
            ),
            answer: latex_rational(&value),
            form: Form::Number,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::question::check;
    use crate::math::testing;
    use num_traits::ToPrimitive;

    #[test]
    fn references_verify_and_do_not_transfer() {
        for preset in SeriesFamily::SPEC.presets {
            let config: SeriesConfig = serde_json::from_str(preset.overrides).unwrap();
            let tasks = testing::references_hold::<SeriesFamily>(&config, 600);
            testing::attacks_fail::<SeriesFamily>(&tasks[0]);
        }
    }

    fn close(closed: &BigRational, partial: &BigRational) -> bool {
        (closed - partial).to_f64().unwrap().abs() < 1e-9
    }

    #[test]
    fn closed_forms_match_partial_sums() {
        let mut rng = Rng::from_seed(8);
        for _ in 0..40 {
            let r = ratio(&mut rng, true);
            let c = int(nonzero(&mut rng, 9));
            // |r| <= 4/5, so 200 terms leave a tail far below 1e-9.
            let partial = finite_sum(0, 200, |k| &c * power(&r, k));
            assert!(close(&infinite_geometric(&c, &r), &partial));
            let (a, b) = (nonzero(&mut rng, 9), rng.range_i64(-9, 9));
            let partial = finite_sum(1, 200, |k| int(a * k + b) * power(&r, k));
            assert!(close(&infinite_arithmetic_geometric(a, b, &r), &partial));
        }
        for a in 0..4 {
            for b in a + 1..a + 5 {
                // The tail after n terms is below c (b - a) / n.
                let n = 200_000;
                let partial: f64 = (1..=n).map(|k| 3.0 / ((k + a) * (k + b)) as f64).sum();
                let closed = infinite_telescoping(3, a, b).to_f64().unwrap();
                assert!((closed - partial).abs() < 1e-4, "a={a} b={b}");
            }
        }
        assert_eq!(infinite_telescoping(1, 0, 1), int(1));
        assert_eq!(infinite_arithmetic_geometric(1, 0, &rat(1, 2)), int(2));
    }

    #[test]
    fn only_the_exact_value_passes() {
        let task = MathTask {
            question: "Find the exact value of $\\sum_{k=1}^{\\infty} \\frac{3}{(k + 1)(k + 3)}$."
                .into(),
            answer: latex_rational(&infinite_telescoping(3, 1, 3)),
            form: Form::Number,
        };
        assert_eq!(task.answer, "\\frac{5}{4}");
        for good in ["\\boxed{\\frac{5}{4}}", "\\boxed{5/4}", "\\boxed{1.25}"] {
            assert!(check(&task, good).0, "{good}");
        }
        for bad in [
            "\\boxed{\\frac{3}{2}}",
            "\\boxed{1.2}",
            "\\boxed{\\frac{3}{2}(\\frac{1}{2} + \\frac{1}{3})}",
            "\\boxed{\\frac{5}{4}} \\boxed{\\frac{3}{2}}",
        ] {
            assert!(!check(&task, bad).0, "{bad}");
        }
    }
}
