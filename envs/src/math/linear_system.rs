//! `math/linear-system-v1`: solve a system of two or three linear equations.
//!
//! # Task
//! "Solve the system 2x + 3y = 7, x - y = 1" with a unique solution, given as
//! an ordered tuple `(x, y)` or `(x, y, z)`.
//!
//! # Action
//! One free-text answer whose last `\boxed{}` holds the tuple in the stated
//! variable order; entries are integers, fractions or exact decimals.
//!
//! # Observation
//! The equations, the variable order and the answer format.
//!
//! # Reward
//! 1 and `passed` when the tuple equals the solution entry by entry (order
//! matters), else 0. Breakdown: `correct`, `format` (1 for a tuple of numbers).
//!
//! # Episode end
//! After the one answer.
//!
//! # Parameters
//! `unknowns` (2 or 3), `max_coefficient` (2–20), `max_solution` (2–50),
//! `fractional` (solutions may be fractions: the right-hand sides are then
//! drawn and the solution computed).
//!
//! # Seeding
//! Singular systems are redrawn; the tuple never appears in the question.
//!
//! # Version history
//! v1: first version.

use num_rational::BigRational;
use num_traits::Zero;
use serde::{Deserialize, Serialize};

use super::forms::Form;
use super::latex::{int, latex_rational};
use super::question::{Family, MathEnv, MathTask};
use crate::core::{EnvKind, EnvSpec, Preset};
use crate::error::ConfigError;
use crate::rng::Rng;

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct LinearSystemConfig {
    pub unknowns: usize,
    pub max_coefficient: i64,
    pub max_solution: i64,
    pub fractional: bool,
}

impl Default for LinearSystemConfig {
    fn default() -> Self {
        LinearSystemConfig {
            unknowns: 2,
            max_coefficient: 9,
            max_solution: 12,
            fractional: true,
        }
    }
}

pub struct LinearSystemFamily;
pub type LinearSystem = MathEnv<LinearSystemFamily>;

const NAMES: [&str; 3] = ["x", "y", "z"];

/// Solves `a x = b` by Gauss–Jordan elimination; `None` when singular.
pub fn solve(mut a: Vec<Vec<BigRational>>, mut b: Vec<BigRational>) -> Option<Vec<BigRational>> {
    let n = b.len();
    for col in 0..n {
        let pivot = (col..n).find(|&r| !a[r][col].is_zero())?;
        a.swap(col, pivot);
        b.swap(col, pivot);
        for r in 0..n {
            if r != col && !a[r][col].is_zero() {
                let f = &a[r][col] / &a[col][col];
                let pivot_row = a[col].clone();
                for (cell, p) in a[r].iter_mut().zip(&pivot_row).skip(col) {
                    *cell -= &f * p;
                }
                let sub = &f * &b[col];
                b[r] -= sub;
            }
        }
    }
    Some((0..n).map(|i| &b[i] / &a[i][i]).collect())
}

fn equation(row: &[i64], rhs: &BigRational) -> String {
    let mut out = String::new();
    for (c, name) in row.iter().zip(NAMES) {
        if *c == 0 {
            continue;
        }
        let sign = match (out.is_empty(), *c < 0) {
            (true, true) => "-".to_string(),
            (true, false) => String::new(),
            (false, true) => " - ".into(),
            (false, false) => " + ".into(),
        };
        let mag = if c.abs() == 1 {
            String::new()
        } else {
            c.abs().to_string()
        };
        out.push_str(&format!("{sign}{mag}{name}"));
    }
    format!("{out} = {}", latex_rational(rhs))
}

impl Family for LinearSystemFamily {
    type Config = LinearSystemConfig;

    const SPEC: EnvSpec = EnvSpec {
        id: "math/linear-system-v1",
        kind: EnvKind::SingleTurn,
        description: "Solve a 2x2 or 3x3 linear system; answer the ordered tuple",
        players: 1,
        max_steps: 1,
        reward_range: (0.0, 1.0),
        zero_sum: false,
        fixed_start: false,
        presets: &Preset::graded(Self::LEVELS, [1, 3, 4]),
    };

    /// Difficulty levels, easiest first: 2 then 3 `unknowns`, with `max_coefficient` and `max_solution` growing and fractional solutions from `medium` on.
    const LEVELS: &'static [&'static str] = &[
        r#"{"unknowns":2,"max_coefficient":3,"max_solution":5,"fractional":false}"#,
        r#"{"unknowns":2,"max_coefficient":5,"max_solution":9,"fractional":false}"#,
        r#"{"unknowns":2,"max_coefficient":9,"max_solution":12,"fractional":false}"#,
        "{}",
        r#"{"unknowns":3,"max_coefficient":9,"max_solution":15}"#,
        r#"{"unknowns":3,"max_coefficient":20,"max_solution":40}"#,
    ];

    fn validate(config: &LinearSystemConfig) -> Result<(), ConfigError> {
        if !(2..=3).contains(&config.unknowns) {
            return Err("unknowns must be 2 or 3".into());
        }
        if !(2..=20).contains(&config.max_coefficient) || !(2..=50).contains(&config.max_solution) {
            return Err("need max_coefficient 2..=20 and max_solution 2..=50".into());
        }
        Ok(())
    }

    fn draw(config: &LinearSystemConfig, rng: &mut Rng) -> Option<MathTask> {
        let n = config.unknowns;
        let k = config.max_coefficient;
        let rows: Vec<Vec<i64>> = (0..n)
            .map(|_| (0..n).map(|_| rng.range_i64(-k, k)).collect())
            .collect();
        let a: Vec<Vec<BigRational>> = rows
            .iter()
            .map(|r| r.iter().map(|&c| int(c)).collect())
            .collect();
        let s = config.max_solution;
        let (solution, rhs) = if config.fractional {
            let rhs: Vec<BigRational> = (0..n).map(|_| int(rng.range_i64(-s * k, s * k))).collect();
            (solve(a, rhs.clone())?, rhs)
        } else {
            let x: Vec<BigRational> = (0..n).map(|_| int(rng.range_i64(-s, s))).collect();
            solve(a.clone(), vec![BigRational::zero(); n])?;
            let rhs = a
                .iter()
                .map(|r| r.iter().zip(&x).map(|(c, v)| c * v).sum())
                .collect();
            (x, rhs)
        };
        let equations: Vec<String> = rows
            .iter()
            .zip(&rhs)
            .map(|(r, b)| format!("    ${}$", equation(r, b)))
            .collect();
        let names = NAMES[..n].join(", ");
        let answer: Vec<String> = solution.iter().map(latex_rational).collect();
        Some(MathTask {
            question: format!(
                "Solve the system of equations\n\n{}\n\nGive the solution as an ordered tuple $({names})$, using integers or fractions in lowest terms.",
                equations.join("\n")
            ),
            answer: format!("({})", answer.join(", ")),
            form: Form::Tuple,
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
        for preset in LinearSystemFamily::SPEC.presets {
            let config: LinearSystemConfig = serde_json::from_str(preset.overrides).unwrap();
            let tasks = testing::references_hold::<LinearSystemFamily>(&config, 1000);
            testing::attacks_fail::<LinearSystemFamily>(&tasks[0]);
        }
    }

    #[test]
    fn order_matters_and_forms_vary() {
        let x = solve(
            vec![vec![int(2), int(3)], vec![int(1), int(-1)]],
            vec![int(7), int(1)],
        )
        .unwrap();
        assert_eq!(x, vec![int(2), int(1)]);
        let task = MathTask {
            question: "Solve $2x + 3y = 8$, $x - y = 1$.".into(),
            answer: "(\\frac{11}{5}, \\frac{6}{5})".into(),
            form: Form::Tuple,
        };
        for good in [
            "\\boxed{(2.2, 1.2)}",
            "\\boxed{\\left(\\frac{11}{5}, \\frac{6}{5}\\right)}",
        ] {
            assert!(check(&task, good).0, "{good}");
        }
        for bad in [
            "\\boxed{(1.2, 2.2)}",
            "\\boxed{2.2}",
            "\\boxed{(2.2, 1.2, 0)}",
            "\\boxed{x = 2.2, y = 1.3}",
        ] {
            assert!(!check(&task, bad).0, "{bad}");
        }
    }
}
