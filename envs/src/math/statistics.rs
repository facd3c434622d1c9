//! `math/statistics-v1`: mean, median, mode and variance of a data list, exactly.
//!
//! # Task
//! A list of integers and one statistic of it: the mean, the median (lists of
//! even length, so the median is the mean of the two middle values), the
//! mode with its frequency (the list has one most frequent value), or the
//! variance, population (divide by n) or sample (divide by n − 1) as the
//! question states.
//!
//! # Action
//! One free-text answer whose last `\boxed{}` holds one exact number (an
//! integer, a fraction or an exact decimal), or for the mode the ordered pair
//! `(mode, frequency)`.
//!
//! # Observation
//! The data, the statistic asked (with its formula for the variance) and the
//! answer format.
//!
//! # Reward
//! 1 and `passed` when the boxed value equals the statistic exactly (a
//! rounded decimal fails), else 0. Breakdown: `correct`, `format`.
//!
//! # Episode end
//! After the one answer.
//!
//! # Parameters
//! `kind` (`mean`, `median`, `mode`, `variance` or `mixed`), `count` (the
//! list length, 4–40), `max_value` (10–9999, values drawn from 1 to it).
//!
//! # Seeding
//! Answers 0, 1 and 2, and answers that appear in the question (a mean or
//! median equal to a listed value), are redrawn; a mode task's list has a
//! unique mode.
//!
//! # Version history
//! v1: first version.

use std::collections::BTreeMap;

use num_rational::BigRational;
use num_traits::Zero;
use serde::{Deserialize, Serialize};

use super::effort;
use super::forms::Form;
use super::latex::{int, latex_rational};
use super::question::{Family, MathEnv, MathTask};
use crate::core::{EnvKind, EnvSpec, Preset};
use crate::error::ConfigError;
use crate::rng::Rng;

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct StatisticsConfig {
    pub kind: String,
    pub count: usize,
    pub max_value: i64,
}

impl Default for StatisticsConfig {
    fn default() -> Self {
        StatisticsConfig {
            kind: "mixed".into(),
            count: 10,
            max_value: 100,
        }
    }
}

pub struct StatisticsFamily;
pub type Statistics = MathEnv<StatisticsFamily>;

pub fn mean(xs: &[i64]) -> BigRational {
    BigRational::new(xs.iter().sum::<i64>().into(), (xs.len() as i64).into())
}

pub fn median(xs: &[i64]) -> BigRational {
    let mut s = xs.to_vec();
    s.sort_unstable();
    let n = s.len();
    if n % 2 == 1 {
        int(s[n / 2])
    } else {
        BigRational::new((s[n / 2 - 1] + s[n / 2]).into(), 2.into())
    }
}

/// The most frequent value and its frequency, `None` when several tie.
pub fn mode(xs: &[i64]) -> Option<(i64, usize)> {
    let mut counts: BTreeMap<i64, usize> = BTreeMap::new();
    for &x in xs {
        *counts.entry(x).or_default() += 1;
    }
    let top = *counts.values().max()?;
    let mut best = counts.into_iter().filter(|&(_, c)| c == top);
    let first = best.next()?;
    best.next().is_none().then_some(first)
}

/// The sum of squared deviations from the mean over `n` (population) or `n - 1` (sample).
pub fn variance(xs: &[i64], sample: bool) -> BigRational {
    let m = mean(xs);
    let ss = xs
        .iter()
        .map(|&x| {
            let d = int(x) - &m;
            &d * &d
        })
        .fold(BigRational::zero(), |a, b| a + b);
    ss / int(xs.len() as i64 - i64::from(sample))
}

impl Family for StatisticsFamily {
    type Config = StatisticsConfig;

    const SPEC: EnvSpec = EnvSpec {
        id: "math/statistics-v1",
        kind: EnvKind::SingleTurn,
        description: "Mean, median, mode (with frequency) or population/sample variance of an integer data list, as exact rationals",
        players: 1,
        max_steps: 1,
        reward_range: (0.0, 1.0),
        zero_sum: false,
        fixed_start: false,
        presets: &Preset::graded(Self::LEVELS, [1, 3, 5]),
    };

    /// Difficulty levels, easiest first: the four statistics mixed
    /// throughout, on longer lists of larger values.
    const LEVELS: &'static [&'static str] = &[
        r#"{"count":4,"max_value":20}"#,
        r#"{"count":6,"max_value":50}"#,
        r#"{"count":8,"max_value":60}"#,
        "{}",
        r#"{"count":14,"max_value":300}"#,
        r#"{"count":20,"max_value":1000}"#,
        r#"{"count":30,"max_value":9999}"#,
    ];

    /// Digit operations: summing the list (each addition the digits of a
    /// value), a division for the mean; sorting (`n log n` comparisons) for
    /// the median and mode; for the variance also a squared deviation per
    /// value.
    fn effort(task: &MathTask) -> Option<f64> {
        let data = effort::math_spans(&task.question).into_iter().next()?;
        let xs = effort::integers_in(data);
        let n = xs.len() as f64;
        if xs.is_empty() {
            return None;
        }
        let d = xs
            .iter()
            .map(|x| x.unsigned_abs().to_string().len() as f64)
            .sum::<f64>()
            / n;
        let sum = n * d + d * d;
        let sort = n * n.log2().max(1.0);
        Some(if task.question.contains("variance") {
            sum + n * (2.0 * d) * (2.0 * d)
        } else if task.question.contains("mean") {
            sum
        } else {
            sort * d
        })
    }

    fn validate(config: &StatisticsConfig) -> Result<(), ConfigError> {
        if !["mean", "median", "mode", "variance", "mixed"].contains(&config.kind.as_str()) {
            return Err("kind must be mean, median, mode, variance or mixed".into());
        }
        if !(4..=40).contains(&config.count) {
            return Err("count must be in 4..=40".into());
        }
        if !(10..=9999).contains(&config.max_value) {
            return Err("max_value must be in 10..=9999".into());
        }
        Ok(())
    }

    fn draw(config: &StatisticsConfig, rng: &mut Rng) -> Option<MathTask> {
        let kind = match config.kind.as_str() {
            "mixed" => *rng.choose(&["mean", "median", "mode", "variance"])?,
            other => other,
        };
        let n = if kind == "median" {
            config.count - config.count % 2
        } else {
            config.count
        };
        let mut xs: Vec<i64> = (0..n).map(|_| rng.range_i64(1, config.max_value)).collect();
        if kind == "mode" {
            // One value repeated so that it is the most frequent.
            let v = xs[0];
            let times = rng.range_usize(2, (n / 3).max(2));
            for slot in xs.iter_mut().skip(1).take(times - 1) {
                *slot = v;
            }
            rng.shuffle(&mut xs);
        }
        let list = xs
            .iter()
            .map(|x| x.to_string())
            .collect::<Vec<_>>()
            .join(", ");
        let exact = "Give the exact value as an integer or a fraction in lowest terms.";
        let (ask, answer, form) = match kind {
            "mean" => (
                format!("Find the arithmetic mean of the data. {exact}"),
                latex_rational(&mean(&xs)),
                Form::Number,
            ),
            "median" => (
                format!("Find the median of the data. {exact}"),
                latex_rational(&median(&xs)),
                Form::Number,
            ),
            "mode" => {
                let (m, f) = mode(&xs)?;
                (
                    "Find the mode of the data (its most frequent value) and how many times it occurs. Give them as an ordered pair (mode, frequency).".to_string(),
                    format!("({m}, {f})"),
                    Form::Tuple,
                )
            }
            _ => {
                let sample = rng.chance(0.5);
                let (name, formula) = if sample {
                    (
                        "sample variance",
                        "s^2 = \\frac{1}{n-1}\\sum_{i=1}^{n} (x_i - \\bar{x})^2",
                    )
                } else {
                    (
                        "population variance",
                        "\\sigma^2 = \\frac{1}{n}\\sum_{i=1}^{n} (x_i - \\bar{x})^2",
                    )
                };
                (
                    format!(
                        "Find the {name} ${formula}$ of the data, where $n$ is the number of values and $\\bar{{x}}$ their mean. {exact}"
                    ),
                    latex_rational(&variance(&xs, sample)),
                    Form::Number,
                )
            }
        };
        Some(MathTask {
            question: format!("Consider the {n} numbers ${list}$. {ask}"),
            answer,
            form,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::question::check;
    use crate::math::testing;

    #[test]
    fn references_verify_and_do_not_transfer() {
        for preset in StatisticsFamily::SPEC.presets {
            let config: StatisticsConfig = serde_json::from_str(preset.overrides).unwrap();
            let tasks = testing::references_hold::<StatisticsFamily>(&config, 1000);
            for kind in ["mean", "median", "mode", "variance"] {
                let task = tasks.iter().find(|t| t.question.contains(kind)).unwrap();
                testing::attacks_fail::<StatisticsFamily>(task);
            }
        }
    }

    #[test]
    fn statistics_match_their_definitions() {
        let xs = [2, 4, 4, 4, 5, 5, 7, 9];
        assert_eq!(mean(&xs), int(5));
        assert_eq!(median(&xs), BigRational::new(9.into(), 2.into()));
        assert_eq!(mode(&xs), Some((4, 3)));
        assert_eq!(mode(&[1, 1, 2, 2]), None);
        assert_eq!(variance(&xs, false), int(4));
        assert_eq!(variance(&xs, true), BigRational::new(32.into(), 7.into()));
        // against the textbook formula E[x^2] - E[x]^2
        let mut rng = Rng::from_seed(9);
        for _ in 0..200 {
            let ys: Vec<i64> = (0..rng.range_usize(2, 12))
                .map(|_| rng.range_i64(-50, 50))
                .collect();
            let n = int(ys.len() as i64);
            let sq = BigRational::new(ys.iter().map(|y| y * y).sum::<i64>().into(), 1.into());
            assert_eq!(variance(&ys, false), sq / &n - mean(&ys) * mean(&ys));
        }
    }

    #[test]
    fn exact_values_pass_and_rounded_ones_fail() {
        let task = MathTask {
            question: "Consider the 4 numbers $1, 2, 4, 8$. Find the sample variance.".into(),
            answer: "\\frac{35}{4}".into(),
            form: Form::Number,
        };
        for good in ["\\boxed{\\frac{35}{4}}", "\\boxed{8.75}", "\\boxed{35/4}"] {
            assert!(check(&task, good).0, "{good}");
        }
        for bad in [
            "\\boxed{8.8}",
            "\\boxed{\\frac{105}{16}}",
            "\\boxed{\\frac{35}{4}} \\boxed{8}",
            "\\boxed{\\frac{1}{3}\\sum (x_i - \\bar{x})^2}",
        ] {
            assert!(!check(&task, bad).0, "{bad}");
        }
        let task = MathTask {
            question: "Consider $3, 3, 5$. Find the mode and its frequency.".into(),
            answer: "(3, 2)".into(),
            form: Form::Tuple,
        };
        assert!(check(&task, "\\boxed{(3, 2)}").0);
        for bad in ["\\boxed{3}", "\\boxed{(2, 3)}", "\\boxed{(3, 2), (5, 1)}"] {
            assert!(!check(&task, bad).0, "{bad}");
        }
    }
}
