//! `math/diophantine-v1`: linear Diophantine equations `ax + by = c`.
//!
//! # Task
//! One of three questions about the integer solutions of `ax + by = c`
//! (always solvable: `gcd(a, b)` divides `c`): how many solutions lie in a
//! box `x0 <= x <= x1, y0 <= y <= y1` (`count`); the solution with the least
//! positive `x` (`least`, answer an ordered pair); every solution with
//! `x, y >= 0` for positive `a`, `b` (`nonnegative`, answer a set of pairs).
//!
//! # Action
//! One free-text answer whose last `\boxed{}` holds one integer (`count`),
//! one pair `(x, y)` (`least`) or a set of pairs `\{(x_1, y_1), …\}`
//! (`nonnegative`).
//!
//! # Observation
//! The equation, the question and the answer format.
//!
//! # Reward
//! 1 and `passed` when the boxed answer is right, else 0. A set of pairs is
//! checked as a set: every listed pair must be a solution in range, none may
//! be missing and none repeated (a repeated pair is not the asked form), in
//! any order. Breakdown: `correct`, `format`.
//!
//! # Episode end
//! After the one answer.
//!
//! # Parameters
//! `kind` (`count`, `least`, `nonnegative` or `mixed`), `max_coefficient`
//! (5–1000, the largest `|a|`, `|b|`).
//!
//! # Seeding
//! `c` is built from a drawn solution, so the equation is solvable. Counts 0,
//! 1 and 2 and answers written in the question are redrawn; a `nonnegative`
//! task has 2 to 10 solutions.
//!
//! # Version history
//! v1: first version.

use serde::{Deserialize, Serialize};

use super::crt::{ext_gcd, gcd};
use super::effort;
use super::forms::Form;
use super::question::{Family, MathEnv, MathTask};
use crate::core::{EnvKind, EnvSpec, Preset};
use crate::error::ConfigError;
use crate::rng::Rng;

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct DiophantineConfig {
    pub kind: String,
    pub max_coefficient: i64,
}

impl Default for DiophantineConfig {
    fn default() -> Self {
        DiophantineConfig {
            kind: "mixed".into(),
            max_coefficient: 30,
        }
    }
}

pub struct DiophantineFamily;
pub type Diophantine = MathEnv<DiophantineFamily>;

/// One solution of `ax + by = c` and the steps `(dx, dy)` between solutions
/// (`(x + k·dx, y - k·dy)` for all integers `k`), or `None` if unsolvable.
pub fn general(a: i128, b: i128, c: i128) -> Option<((i128, i128), (i128, i128))> {
    let (g, s, t) = ext_gcd(a, b);
    let g_sign = g.signum();
    let g = g.abs();
    if g == 0 || c % g != 0 {
        return None;
    }
    let (s, t) = (s * g_sign, t * g_sign);
    Some(((s * (c / g), t * (c / g)), (b / g, a / g)))
}

/// The `k` range with `lo <= v + k·step <= hi` (`step != 0`).
fn k_range(v: i128, step: i128, lo: i128, hi: i128) -> (i128, i128) {
    let (s, l, h) = if step > 0 {
        (step, lo - v, hi - v)
    } else {
        (-step, v - hi, v - lo)
    };
    (-(-l).div_euclid(s), h.div_euclid(s))
}

/// The solutions in the box `[x0, x1] × [y0, y1]`, in increasing `x`.
pub fn solutions_in(a: i128, b: i128, c: i128, bx: [i128; 4]) -> Vec<(i128, i128)> {
    let Some(((x, y), (dx, dy))) = general(a, b, c) else {
        return Vec::new();
    };
    let (k1, k2) = k_range(x, dx, bx[0], bx[1]);
    let (k3, k4) = k_range(y, -dy, bx[2], bx[3]);
    let mut out: Vec<(i128, i128)> = (k1.max(k3)..=k2.min(k4))
        .map(|k| (x + k * dx, y - k * dy))
        .collect();
    out.sort();
    out
}

/// The number of solutions in the box, without listing them.
pub fn count_in(a: i128, b: i128, c: i128, bx: [i128; 4]) -> i128 {
    let Some(((x, y), (dx, dy))) = general(a, b, c) else {
        return 0;
    };
    let (k1, k2) = k_range(x, dx, bx[0], bx[1]);
    let (k3, k4) = k_range(y, -dy, bx[2], bx[3]);
    (k2.min(k4) - k1.max(k3) + 1).max(0)
}

/// The solution with the least positive `x`.
pub fn least_positive_x(a: i128, b: i128, c: i128) -> Option<(i128, i128)> {
    let ((x, _), (dx, _)) = general(a, b, c)?;
    let period = dx.abs();
    let x = (x - 1).rem_euclid(period) + 1;
    Some((x, (c - a * x) / b))
}

fn equation(a: i64, b: i64, c: i64) -> String {
    let b_term = match b {
        1 => "+ y".to_string(),
        -1 => "- y".to_string(),
        b if b < 0 => format!("- {}y", -b),
        b => format!("+ {b}y"),
    };
    let a_term = match a {
        1 => "x".to_string(),
        -1 => "-x".to_string(),
        a => format!("{a}x"),
    };
    format!("{a_term} {b_term} = {c}")
}

fn pair(p: (i128, i128)) -> String {
    format!("({}, {})", p.0, p.1)
}

impl Family for DiophantineFamily {
    type Config = DiophantineConfig;

    const SPEC: EnvSpec = EnvSpec {
        id: "math/diophantine-v1",
        kind: EnvKind::SingleTurn,
        description: "Linear Diophantine equations ax + by = c: count the solutions in a box, the solution with least positive x, or all non-negative solutions as a set",
        players: 1,
        max_steps: 1,
        reward_range: (0.0, 1.0),
        zero_sum: false,
        fixed_start: false,
        presets: &Preset::graded(Self::LEVELS, [1, 3, 5]),
    };

    /// Difficulty levels, easiest first: the three kinds mixed throughout,
    /// with coefficients growing from 6 to 1000.
    const LEVELS: &'static [&'static str] = &[
        r#"{"max_coefficient":6}"#,
        r#"{"max_coefficient":12}"#,
        r#"{"max_coefficient":20}"#,
        "{}",
        r#"{"max_coefficient":80}"#,
        r#"{"max_coefficient":300}"#,
        r#"{"max_coefficient":1000}"#,
    ];

    /// Digit operations: the extended Euclidean algorithm on `a` and `b`
    /// (a division per step, each the square of the coefficients' digits),
    /// scaling the particular solution by `c`, and one line of arithmetic
    /// per listed solution or bound.
    fn effort(task: &MathTask) -> Option<f64> {
        let text = effort::math_spans(&task.question).into_iter().next()?;
        let numbers = effort::integers_in(text);
        let (a, b, c) = match numbers.as_slice() {
            [a, b, c] => (*a, *b, *c),
            _ => return None,
        };
        let digits = |x: i64| x.unsigned_abs().max(1).to_string().len() as f64;
        let (mut p, mut q, mut steps) = (a.abs(), b.abs(), 0.0);
        while q != 0 {
            (p, q) = (q, p % q);
            steps += 1.0;
        }
        let d = digits(a).max(digits(b));
        let listed = match &task.form {
            Form::Pairs => task.answer.matches('(').count() as f64,
            _ => 2.0,
        };
        Some(steps * d * d + d * digits(c) + listed * digits(c) * d)
    }

    fn validate(config: &DiophantineConfig) -> Result<(), ConfigError> {
        if !["count", "least", "nonnegative", "mixed"].contains(&config.kind.as_str()) {
            return Err("kind must be count, least, nonnegative or mixed".into());
        }
        if !(5..=1000).contains(&config.max_coefficient) {
            return Err("max_coefficient must be in 5..=1000".into());
        }
        Ok(())
    }

    fn draw(config: &DiophantineConfig, rng: &mut Rng) -> Option<MathTask> {
        let k = config.max_coefficient;
        let kind = match config.kind.as_str() {
            "mixed" => *rng.choose(&["count", "least", "nonnegative"])?,
            other => other,
        };
        let (a, b, c, question, answer, form);
        if kind == "nonnegative" {
            a = rng.range_i64(2, k);
            b = rng.range_i64(2, k);
            let g = gcd(a.into(), b.into()) as i64;
            let (x, y) = (rng.range_i64(0, 3 * b / g), rng.range_i64(0, 3 * a / g));
            c = a * x + b * y;
            let all = solutions_in(a.into(), b.into(), c.into(), [0, c.into(), 0, c.into()]);
            if !(2..=10).contains(&all.len()) {
                return None;
            }
            question = "Find all solutions $(x, y)$ in non-negative integers ($x \\ge 0$, $y \\ge 0$). Give them as a set of ordered pairs, e.g. \\{(1, 2), (3, 4)\\}.".to_string();
            answer = format!(
                "\\{{{}\\}}",
                all.into_iter().map(pair).collect::<Vec<_>>().join(", ")
            );
            form = Form::Pairs;
        } else {
            let nonzero = |rng: &mut Rng| loop {
                let v = rng.range_i64(-k, k);
                if v.abs() >= 2 {
                    return v;
                }
            };
            a = nonzero(rng);
            b = nonzero(rng);
            let (x, y) = (rng.range_i64(-k, k), rng.range_i64(-k, k));
            c = a * x + b * y;
            if kind == "least" {
                let p = least_positive_x(a.into(), b.into(), c.into())?;
                question = "Among all integer solutions $(x, y)$, find the one with the least positive $x$. Give it as an ordered pair $(x, y)$.".to_string();
                answer = pair(p);
                form = Form::Tuple;
            } else {
                let range = |rng: &mut Rng| {
                    let width = rng.range_i64(2 * k, 20 * k);
                    let lo = -rng.range_i64(0, width);
                    (lo, lo + width)
                };
                let ((x0, x1), (y0, y1)) = (range(rng), range(rng));
                let bx = [x0.into(), x1.into(), y0.into(), y1.into()];
                let n = count_in(a.into(), b.into(), c.into(), bx);
                question = format!(
                    "How many integer solutions $(x, y)$ have both ${x0} \\le x \\le {x1}$ and ${y0} \\le y \\le {y1}$? Give a single integer."
                );
                answer = n.to_string();
                form = Form::Number;
            }
        }
        Some(MathTask {
            question: format!(
                "Consider the linear Diophantine equation ${}$ in integers $x$ and $y$. {question}",
                equation(a, b, c)
            ),
            answer,
            form,
        })
    }
}

#[cfg(test)]
#[path = "diophantine_tests.rs"]
mod tests;
