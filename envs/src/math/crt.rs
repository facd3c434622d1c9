//! `math/crt-v1`: systems of linear congruences (the Chinese remainder theorem).
//!
//! # Task
//! "Find the least non-negative integer x with x ≡ 3 (mod 8), x ≡ 5 (mod 12),
//! x ≡ 1 (mod 15)". The moduli are pairwise coprime at the easy levels and
//! share factors (the system is still consistent) at the hard ones. The
//! question states the modulus of the solution set (the lcm of the moduli),
//! so the answer is the one solution in `0..lcm`.
//!
//! # Action
//! One free-text answer whose last `\boxed{}` holds one integer.
//!
//! # Observation
//! The system in LaTeX, the lcm of the moduli and the answer format.
//!
//! # Reward
//! 1 and `passed` when the boxed integer is the least non-negative solution,
//! else 0 (another member of the solution class fails). Breakdown:
//! `correct`, `format`.
//!
//! # Episode end
//! After the one answer.
//!
//! # Parameters
//! `congruences` (2–6), `max_modulus` (5–200, at least 4 per congruence),
//! `coprime` (pairwise coprime moduli, or moduli where some pair shares a
//! factor).
//!
//! # Seeding
//! The solution is drawn uniformly below the lcm and the residues follow from
//! it, so every system is consistent. No modulus divides another. Solutions
//! 0, 1 and 2, and solutions written in the question (a residue equal to the
//! solution), are redrawn. Inconsistent systems are never asked: their one
//! answer ("no solution") would be a constant.
//!
//! # Version history
//! v1: first version.

use serde::{Deserialize, Serialize};

use super::effort;
use super::forms::Form;
use super::question::{Family, MathEnv, MathTask};
use crate::core::{EnvKind, EnvSpec, Preset};
use crate::error::ConfigError;
use crate::rng::Rng;

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct CrtConfig {
    pub congruences: usize,
    pub max_modulus: i64,
    pub coprime: bool,
}

impl Default for CrtConfig {
    fn default() -> Self {
        CrtConfig {
            congruences: 3,
            max_modulus: 40,
            coprime: true,
        }
    }
}

pub struct CrtFamily;
pub type Crt = MathEnv<CrtFamily>;

pub fn gcd(a: i128, b: i128) -> i128 {
    if b == 0 { a.abs() } else { gcd(b, a % b) }
}

/// `(g, s, t)` with `s·a + t·b = g = gcd(a, b)`.
pub fn ext_gcd(a: i128, b: i128) -> (i128, i128, i128) {
    if b == 0 {
        (a, 1, 0)
    } else {
        let (g, s, t) = ext_gcd(b, a.rem_euclid(b));
        (g, t, s - a.div_euclid(b) * t)
    }
}

/// Solves `x ≡ a_i (mod m_i)` by merging the congruences one at a time:
/// `Some((x, lcm))` with `0 <= x < lcm`, or `None` when inconsistent.
pub fn solve(system: &[(i128, i128)]) -> Option<(i128, i128)> {
    let (mut x, mut m) = (0i128, 1i128);
    for &(a, n) in system {
        // x + m·k ≡ a (mod n)  ⇔  m·k ≡ a - x (mod n)
        let (g, s, _) = ext_gcd(m, n);
        let diff = a - x;
        if diff % g != 0 {
            return None;
        }
        let step = n / g;
        let k = (diff / g % step * s).rem_euclid(step);
        x += m * k;
        m *= step;
        x = x.rem_euclid(m);
    }
    Some((x, m))
}

fn draw_moduli(config: &CrtConfig, rng: &mut Rng) -> Option<Vec<i64>> {
    let mut moduli: Vec<i64> = Vec::new();
    let mut tries = 0;
    while moduli.len() < config.congruences {
        tries += 1;
        if tries > 200 {
            return None;
        }
        let m = rng.range_i64(3, config.max_modulus);
        let clash = moduli
            .iter()
            .any(|&o| o % m == 0 || m % o == 0 || (config.coprime && gcd(o.into(), m.into()) != 1));
        if !clash {
            moduli.push(m);
        }
    }
    let shared = moduli
        .iter()
        .enumerate()
        .any(|(i, &a)| moduli[i + 1..].iter().any(|&b| gcd(a.into(), b.into()) > 1));
    (config.coprime || shared).then_some(moduli)
}

impl Family for CrtFamily {
    type Config = CrtConfig;

    const SPEC: EnvSpec = EnvSpec {
        id: "math/crt-v1",
        kind: EnvKind::SingleTurn,
        description: "Least non-negative solution of a system of linear congruences (coprime or shared-factor moduli); answer an integer",
        players: 1,
        max_steps: 1,
        reward_range: (0.0, 1.0),
        zero_sum: false,
        fixed_start: false,
        presets: &Preset::graded(Self::LEVELS, [1, 3, 5]),
    };

    /// Difficulty levels, easiest first: two then more congruences with
    /// growing coprime moduli, then moduli that share factors (`hard`), up
    /// to six congruences with moduli up to 200.
    const LEVELS: &'static [&'static str] = &[
        r#"{"congruences":2,"max_modulus":12}"#,
        r#"{"congruences":2,"max_modulus":30}"#,
        r#"{"congruences":3,"max_modulus":20}"#,
        "{}",
        r#"{"congruences":4,"max_modulus":60,"coprime":false}"#,
        r#"{"congruences":5,"max_modulus":100,"coprime":false}"#,
        r#"{"congruences":6,"max_modulus":200,"coprime":false}"#,
    ];

    /// Digit operations of merging the congruences one by one: each merge
    /// runs the extended Euclidean algorithm on the lcm so far and the next
    /// modulus (a division per step, costing the product of their digits)
    /// and a multiplication to lift the solution.
    fn effort(task: &MathTask) -> Option<f64> {
        let moduli: Vec<i64> = task
            .question
            .split("\\pmod{")
            .skip(1)
            .filter_map(|s| effort::integers_in(s.split('}').next()?).first().copied())
            .collect();
        if moduli.is_empty() {
            return None;
        }
        let digits = |x: i128| x.unsigned_abs().to_string().len() as f64;
        let mut lcm = 1i128;
        let mut work = 0.0;
        for &m in &moduli {
            let m = i128::from(m);
            let steps = (m as f64).log2().max(1.0);
            work += steps * digits(lcm) * digits(m) + digits(lcm) * digits(m);
            lcm = lcm / gcd(lcm, m) * m;
        }
        Some(work)
    }

    fn validate(config: &CrtConfig) -> Result<(), ConfigError> {
        if !(2..=6).contains(&config.congruences) {
            return Err("congruences must be in 2..=6".into());
        }
        if !(5..=200).contains(&config.max_modulus)
            || config.max_modulus < 4 * config.congruences as i64
        {
            return Err("max_modulus must be in 5..=200 and at least 4 x congruences".into());
        }
        Ok(())
    }

    fn draw(config: &CrtConfig, rng: &mut Rng) -> Option<MathTask> {
        let moduli = draw_moduli(config, rng)?;
        let lcm = moduli
            .iter()
            .fold(1i128, |l, &m| l / gcd(l, m.into()) * i128::from(m));
        let x = i128::from(rng.next_u64() >> 1) % lcm;
        let lines: Vec<String> = moduli
            .iter()
            .map(|&m| format!("x \\equiv {} \\pmod{{{m}}}", x % i128::from(m)))
            .collect();
        Some(MathTask {
            question: format!(
                "Find the least non-negative integer $x$ that satisfies the system of congruences\n$$\\begin{{cases}} {} \\end{{cases}}$$\nThe system has a solution, and its solutions form a single residue class modulo {lcm} (the least common multiple of the moduli). Give a single integer from 0 to {}.",
                lines.join(" \\\\ "),
                lcm - 1
            ),
            answer: x.to_string(),
            form: Form::Number,
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
        for preset in CrtFamily::SPEC.presets {
            let config: CrtConfig = serde_json::from_str(preset.overrides).unwrap();
            let tasks = testing::references_hold::<CrtFamily>(&config, 1000);
            testing::attacks_fail::<CrtFamily>(&tasks[0]);
        }
    }

    #[test]
    fn the_solver_agrees_with_brute_force() {
        let mut rng = Rng::from_seed(5);
        for _ in 0..2000 {
            let n = rng.range_usize(1, 4);
            let system: Vec<(i128, i128)> = (0..n)
                .map(|_| {
                    let m = rng.range_i64(1, 24);
                    (rng.range_i64(0, m - 1).into(), m.into())
                })
                .collect();
            let lcm = system.iter().fold(1, |l, &(_, m)| l / gcd(l, m) * m);
            let brute = (0..lcm).find(|x| system.iter().all(|&(a, m)| x % m == a));
            assert_eq!(solve(&system), brute.map(|x| (x, lcm)), "{system:?}");
        }
    }

    #[test]
    fn generated_systems_are_consistent_and_their_answer_is_the_least_solution() {
        for level in CrtFamily::LEVELS {
            let config: CrtConfig = serde_json::from_str(level).unwrap();
            let mut rng = Rng::from_seed(11);
            for _ in 0..200 {
                let Some(task) = CrtFamily::draw(&config, &mut rng) else {
                    continue;
                };
                let system: Vec<(i128, i128)> = task
                    .question
                    .split("\\equiv ")
                    .skip(1)
                    .map(|s| {
                        let n = effort::integers_in(s.split('}').next().unwrap());
                        (n[0].into(), n[1].into())
                    })
                    .collect();
                assert_eq!(system.len(), config.congruences);
                let (x, lcm) = solve(&system).unwrap();
                assert_eq!(task.answer, x.to_string());
                assert!(task.question.contains(&format!("modulo {lcm} ")));
            }
        }
    }

    #[test]
    fn only_the_least_solution_passes() {
        let task = MathTask {
            question: "Find x with x = 2 mod 3, x = 3 mod 5; modulo 15.".into(),
            answer: "8".into(),
            form: Form::Number,
        };
        assert!(check(&task, "\\boxed{8}").0);
        assert!(check(&task, "\\boxed{x = 8}").0);
        for bad in [
            "\\boxed{23}",
            "\\boxed{-7}",
            "\\boxed{8 + 15k}",
            "\\boxed{8, 23}",
            "\\boxed{8} \\boxed{23}",
        ] {
            assert!(!check(&task, bad).0, "{bad}");
        }
    }
}
