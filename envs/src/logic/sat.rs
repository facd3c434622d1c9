//! `logic/sat-v1`: find a satisfying assignment of a random k-SAT formula.
//!
//! # Task
//! A random k-CNF formula with `num_vars` variables and
//! `round(ratio · num_vars)` clauses of `k` distinct variables, near the
//! satisfiability threshold by default (4.26 for k = 3). `planted` formulas
//! are built around a hidden assignment (clauses it falsifies are redrawn);
//! unplanted ones are solved at generation and kept only with the wanted
//! verdict. A share `unsat_share` of tasks is unsatisfiable: those are kept
//! only when both of our independent solvers (watched-literal DPLL and
//! clause-scanning DPLL) prove UNSAT. The default is 0, because the constant
//! answer `UNSAT` then passes exactly that share of tasks.
//!
//! # Action
//! `UNSAT`, or a full assignment as signed literals, one per variable
//! (`1 -2 3 …`; DIMACS solver output `v 1 -2 3 0` and `x1=1` also read),
//! in `\boxed{…}` or as the whole reply.
//!
//! # Observation
//! The formula in DIMACS CNF. Structured: `num_vars`, `clauses`.
//!
//! # Reward
//! 1 and `passed` when the assignment satisfies every clause, or for `UNSAT`
//! on a proven-unsatisfiable formula; else 0. Breakdown: `correct`, `format`.
//!
//! # Episode end
//! After the one answer.
//!
//! # Parameters
//! `num_vars` (3..=200), `k` (2..=7), `ratio` (clauses per variable),
//! `planted`, `unsat_share` (0..=1).
//!
//! # Seeding
//! Formulas that the all-true or all-false assignment satisfies are
//! redrawn, so no constant assignment scores.
//!
//! # Version history
//! v1: first version.

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use verigym_verifiers::sat::{
    Cnf, SatAnswer, format_assignment, parse_sat_answer, satisfies, to_dimacs,
};

use crate::core::{EnvKind, EnvSpec, Preset};
use crate::logic::puzzle::{Puzzle, SingleTurn};
use crate::logic::solvers::sat::{Verdict, solve_scanning, solve_watched};
use crate::rng::Rng;

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct SatConfig {
    pub num_vars: usize,
    pub k: usize,
    pub ratio: f64,
    pub planted: bool,
    pub unsat_share: f64,
}

impl Default for SatConfig {
    fn default() -> Self {
        SatConfig {
            num_vars: 25,
            k: 3,
            ratio: 4.26,
            planted: false,
            unsat_share: 0.0,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SatTask {
    pub num_vars: usize,
    pub clauses: Vec<Vec<i32>>,
    /// A satisfying assignment as signed literals, or `UNSAT`.
    pub reference: String,
}

impl SatTask {
    fn cnf(&self) -> Cnf {
        Cnf {
            num_vars: self.num_vars,
            clauses: self.clauses.clone(),
        }
    }
}

fn random_clause(config: &SatConfig, rng: &mut Rng, vars: &mut [i32]) -> Vec<i32> {
    // Partial Fisher–Yates: k distinct variables.
    for i in 0..config.k {
        let j = i + rng.below((vars.len() - i) as u64) as usize;
        vars.swap(i, j);
    }
    vars[..config.k]
        .iter()
        .map(|&v| if rng.chance(0.5) { v } else { -v })
        .collect()
}

fn constant_assignment_works(cnf: &Cnf) -> bool {
    satisfies(cnf, &vec![true; cnf.num_vars]) || satisfies(cnf, &vec![false; cnf.num_vars])
}

pub struct Sat;

pub type SatEnv = SingleTurn<Sat>;

impl Puzzle for Sat {
    type Config = SatConfig;
    type Task = SatTask;
    const SPEC: EnvSpec = EnvSpec {
        id: "logic/sat-v1",
        kind: EnvKind::SingleTurn,
        description: "Satisfy a random k-CNF formula near the phase transition (DIMACS in, assignment out)",
        players: 1,
        max_steps: 1,
        reward_range: (0.0, 1.0),
        zero_sum: false,
        fixed_start: false,
        presets: &[
            Preset {
                name: "easy",
                overrides: r#"{"num_vars":12,"ratio":4.0}"#,
            },
            Preset {
                name: "medium",
                overrides: "{}",
            },
            Preset {
                name: "hard",
                overrides: r#"{"num_vars":60}"#,
            },
        ],
    };

    fn validate(config: &SatConfig) -> Result<(), String> {
        if !(3..=200).contains(&config.num_vars) {
            return Err("num_vars must be 3..=200".into());
        }
        if !(2..=7).contains(&config.k) || config.k > config.num_vars {
            return Err("k must be 2..=7 and at most num_vars".into());
        }
        if !(0.5..=60.0).contains(&config.ratio) {
            return Err("ratio must be 0.5..=60".into());
        }
        if !(0.0..=1.0).contains(&config.unsat_share) {
            return Err("unsat_share must be 0..=1".into());
        }
        if config.unsat_share > 0.0 && config.num_vars > 80 {
            return Err("unsat_share > 0 needs num_vars <= 80 (UNSAT proofs by DPLL)".into());
        }
        Ok(())
    }

    fn generate(config: &SatConfig, rng: &mut Rng) -> SatTask {
        let m = (config.ratio * config.num_vars as f64).round().max(1.0) as usize;
        let mut vars: Vec<i32> = (1..=config.num_vars as i32).collect();
        let want_unsat = rng.chance(config.unsat_share);
        loop {
            let mut clauses = Vec::with_capacity(m);
            let hidden: Vec<bool> = (0..config.num_vars).map(|_| rng.chance(0.5)).collect();
            while clauses.len() < m {
                let clause = random_clause(config, rng, &mut vars);
                let ok_for_hidden = clause
                    .iter()
                    .any(|&l| hidden[l.unsigned_abs() as usize - 1] == (l > 0));
                if !config.planted || want_unsat || ok_for_hidden {
                    clauses.push(clause);
                }
            }
            let cnf = Cnf {
                num_vars: config.num_vars,
                clauses,
            };
            if constant_assignment_works(&cnf) {
                continue;
            }
            let reference = match solve_watched(&cnf) {
                Verdict::Sat(model) if !want_unsat => {
                    assert!(satisfies(&cnf, &model), "solver returned a non-model");
                    format_assignment(&model)
                }
                Verdict::Unsat if want_unsat => {
                    // The second, independent solver must agree.
                    match solve_scanning(&cnf) {
                        Verdict::Unsat => "UNSAT".to_string(),
                        Verdict::Sat(model) => {
                            assert!(!satisfies(&cnf, &model), "solvers disagree on {cnf:?}");
                            continue;
                        }
                    }
                }
                _ => continue,
            };
            return SatTask {
                num_vars: cnf.num_vars,
                clauses: cnf.clauses,
                reference,
            };
        }
    }

    fn prompt(task: &SatTask) -> String {
        format!(
            "Find an assignment that satisfies this CNF formula, given in DIMACS format (each line after the \
             header is a clause: a list of literals ending in 0; a negative literal is the negation of the \
             variable).\n\n{}\nGive a value to every variable 1..{} as signed literals separated by spaces \
             (positive = true, negative = false), for example for 3 variables: 1 -2 3. If no satisfying \
             assignment exists, answer UNSAT. Put the answer inside \\boxed{{}}.",
            to_dimacs(&task.cnf()),
            task.num_vars
        )
    }

    fn structured(task: &SatTask) -> Value {
        json!({ "num_vars": task.num_vars, "clauses": task.clauses })
    }

    fn reference(task: &SatTask) -> String {
        task.reference.clone()
    }

    fn check(task: &SatTask, answer: &str) -> Result<bool, String> {
        Ok(match parse_sat_answer(answer, task.num_vars)? {
            SatAnswer::Unsat => task.reference == "UNSAT",
            SatAnswer::Assignment(values) => satisfies(&task.cnf(), &values),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::logic::puzzle::testing::{cross_reference_rate, passes, standard_answers};

    #[test]
    fn reference_passes_and_degenerate_answers_fail() {
        standard_answers::<Sat>(&SatConfig::default(), 20);
        standard_answers::<Sat>(
            &SatConfig {
                planted: true,
                num_vars: 40,
                ..Default::default()
            },
            10,
        );
    }

    #[test]
    fn any_satisfying_assignment_passes_and_a_flipped_one_fails() {
        let task = Sat::generate(&SatConfig::default(), &mut Rng::from_seed(8));
        assert!(passes::<Sat>(&task, &format!("v {} 0", task.reference)));
        // Flip one variable at a time: each flip either still satisfies (and
        // must pass) or breaks a clause (and must fail).
        let cnf = task.cnf();
        let model: Vec<bool> = task
            .reference
            .split(' ')
            .map(|l| !l.starts_with('-'))
            .collect();
        for v in 0..task.num_vars {
            let mut flipped = model.clone();
            flipped[v] = !flipped[v];
            assert_eq!(
                passes::<Sat>(&task, &format_assignment(&flipped)),
                satisfies(&cnf, &flipped)
            );
        }
        assert!(
            !passes::<Sat>(&task, "UNSAT"),
            "UNSAT on a satisfiable formula"
        );
    }

    #[test]
    fn unsat_tasks_accept_only_unsat_and_are_proven_by_both_solvers() {
        let config = SatConfig {
            num_vars: 20,
            unsat_share: 1.0,
            ..Default::default()
        };
        let mut rng = Rng::from_seed(2);
        for _ in 0..20 {
            let task = Sat::generate(&config, &mut rng);
            assert_eq!(task.reference, "UNSAT");
            assert_eq!(solve_scanning(&task.cnf()), Verdict::Unsat);
            assert!(passes::<Sat>(&task, "\\boxed{UNSAT}"));
            assert!(passes::<Sat>(&task, "s UNSATISFIABLE"));
            assert!(!passes::<Sat>(&task, &format_assignment(&[true; 20])));
        }
    }

    #[test]
    fn unsat_share_is_respected_roughly() {
        let config = SatConfig {
            num_vars: 15,
            unsat_share: 0.3,
            ..Default::default()
        };
        let mut rng = Rng::from_seed(6);
        let unsat = (0..200)
            .filter(|_| Sat::generate(&config, &mut rng).reference == "UNSAT")
            .count();
        assert!((40..=80).contains(&unsat), "{unsat} of 200");
    }

    #[test]
    fn another_tasks_reference_rarely_passes() {
        for config in [
            SatConfig {
                num_vars: 12,
                ratio: 4.0,
                ..Default::default()
            },
            SatConfig::default(),
        ] {
            let rate = cross_reference_rate::<Sat>(&config, 500);
            assert!(rate < 0.01, "{config:?}: {rate}");
        }
    }
}
