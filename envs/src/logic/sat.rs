//! `logic/sat-v2`: satisfy a random k-SAT formula, or prove it unsatisfiable.
//!
//! # Task
//! A random k-CNF formula with `num_vars` variables and
//! `round(ratio · num_vars)` clauses of `k` distinct variables, near the
//! satisfiability threshold by default (4.26 for k = 3). `planted` formulas
//! are built around a hidden assignment (clauses it falsifies are redrawn);
//! unplanted ones are solved at generation and kept only with the wanted
//! verdict. A share `unsat_share` of tasks is unsatisfiable: those are kept
//! only when both of our independent solvers (watched-literal DPLL and
//! clause-scanning DPLL) prove UNSAT, and when a minimal unsatisfiable subset
//! of at most `core_limit` clauses exists (found by deletion at generation).
//! `core_limit` is the same function of the clause count for every task,
//! so stating it in the prompt says nothing about the verdict.
//!
//! # Action
//! A full assignment as signed literals, one per variable (`1 -2 3 …`;
//! DIMACS solver output `v 1 -2 3 0` and `x1=1` also read), or `UNSAT`
//! followed by the numbers (1-based, in the order listed) of at most
//! `core_limit` clauses that are unsatisfiable on their own (`UNSAT: 2 7 9`),
//! in `\boxed{…}` or as the whole reply. The bare verdict `UNSAT` carries no
//! evidence and never passes: otherwise the constant `UNSAT` would collect
//! the whole UNSAT share.
//! Read by the single-turn rule (`crate::single_turn`): reasoning is dropped,
//! then the last `\boxed{…}` counts (boxes that disagree are a hedge and
//! score 0), else the whole reply; prose around the box is ignored.
//!
//! # Observation
//! The formula in DIMACS CNF. Structured: `num_vars`, `clauses`.
//!
//! # Reward
//! 1 and `passed` when the assignment satisfies every clause, or when the
//! listed clauses (distinct, in range, at most `core_limit`) are proven
//! unsatisfiable by both solvers at verification (at most 50 variables:
//! milliseconds); else 0. Breakdown: `correct`, `format`.
//!
//! # Episode end
//! After the one answer.
//!
//! # Parameters
//! `num_vars` (3..=200), `k` (2..=7), `ratio` (clauses per variable),
//! `planted`, `unsat_share` (0..=1; above 0 needs `num_vars` <= 50).
//!
//! # Seeding
//! Formulas that the all-true or all-false assignment satisfies are
//! redrawn, so no constant assignment scores.
//!
//! # Version history
//! v1: first version (a bare `UNSAT` answer; `unsat_share` 0 in presets).
//! v2: UNSAT answers carry an unsatisfiable subset of clauses as evidence;
//! clauses are numbered in the prompt; presets have a 25% UNSAT share.

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use verigym_verifiers::sat::{
    Cnf, SatAnswer, clauses_satisfied, format_assignment, parse_sat_answer, satisfies, to_dimacs,
};

use crate::card::TaskCard;
use crate::core::{EnvKind, EnvSpec, Preset, Superseded, Upgrade};
use crate::error::{ConfigError, NoTask, Refusal};
use crate::logic::solvers::sat::{Verdict, minimal_unsat_core, solve_scanning, solve_watched};
use crate::rng::Rng;
use crate::single_turn::{CheckError, Question, SingleTurn};

/// Formulas drawn at most for one task ([`Sat::try_generate`]).
const MAX_FORMULAS: usize = 2_000;

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
            unsat_share: 0.25,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SatTask {
    pub num_vars: usize,
    pub clauses: Vec<Vec<i32>>,
    /// Most clause numbers an UNSAT answer may list ([`core_limit`]).
    pub core_limit: usize,
    /// A satisfying assignment as signed literals, or `UNSAT: ` and the
    /// clause numbers of a minimal unsatisfiable subset.
    pub reference: String,
}

/// Most clauses UNSAT evidence may list for a formula of `clauses` clauses:
/// two thirds, so that listing every clause (evidence-free) never passes.
/// Minimal cores of random 3-SAT near the threshold are smaller than this
/// for nearly all UNSAT formulas of the sizes we generate; the others are
/// redrawn.
pub fn core_limit(clauses: usize) -> usize {
    clauses * 2 / 3
}

/// A `logic/sat-v1` card as v2 reads it: v2 tasks carry `core_limit`, the
/// same function of the clause count. v1 took a bare `UNSAT`, a constant v2
/// refuses, so its unsatisfiable tasks stay refused.
fn upgrade_v1(card: &mut TaskCard) -> Result<(), Refusal> {
    let task = card
        .task
        .as_object_mut()
        .ok_or("the task is not a JSON object")?;
    if task["reference"]
        .as_str()
        .is_some_and(|r| r.starts_with("UNSAT"))
    {
        return Err("v1 paid a bare `UNSAT`; v2 pays only an unsatisfiable core, which the v1 prompt never asked for".into());
    }
    let clauses = task["clauses"]
        .as_array()
        .ok_or("the task has no clauses")?
        .len();
    task.insert("core_limit".into(), json!(core_limit(clauses)));
    Ok(())
}

/// Whether the clauses numbered `core` (1-based) are a valid UNSAT
/// evidence for `task`: distinct, in range, at most the limit, and proven
/// unsatisfiable by both independent solvers.
fn is_unsat_evidence(task: &SatTask, core: &[usize]) -> bool {
    let mut seen = vec![false; task.clauses.len()];
    for &number in core {
        if number == 0
            || number > task.clauses.len()
            || std::mem::replace(&mut seen[number - 1], true)
        {
            return false;
        }
    }
    if core.len() > task.core_limit {
        return false;
    }
    // A set of clauses that holds the reference core is unsatisfiable: the
    // core was proven so by both solvers when the task was made, so the
    // answer is compared with it as data, no search needed.
    if let Ok(SatAnswer::Unsat(known)) = parse_sat_answer(&task.reference, task.num_vars)
        && !known.is_empty()
        && known.iter().all(|n| core.contains(n))
    {
        return true;
    }
    let subset = Cnf {
        num_vars: task.num_vars,
        clauses: core.iter().map(|&n| task.clauses[n - 1].clone()).collect(),
    };
    solve_watched(&subset) == Verdict::Unsat && solve_scanning(&subset) == Verdict::Unsat
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

impl Question for Sat {
    type Config = SatConfig;
    type Task = SatTask;
    const SUPERSEDED: &'static [Superseded] = &[Superseded {
        version: 1,
        upgrade: Upgrade::Map(upgrade_v1),
    }];
    const SPEC: EnvSpec = EnvSpec {
        id: "logic/sat-v2",
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
                overrides: r#"{"num_vars":40}"#,
            },
        ],
    };

    fn validate(config: &SatConfig) -> Result<(), ConfigError> {
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
        if config.unsat_share > 0.0 && config.num_vars > 50 {
            return Err(
                "unsat_share > 0 needs num_vars <= 50 (UNSAT proofs by DPLL at generation and verification): \
                 lower num_vars or set unsat_share to 0"
                    .into(),
            );
        }
        Ok(())
    }

    fn generate(config: &SatConfig, rng: &mut Rng) -> SatTask {
        Self::try_generate(config, rng).unwrap_or_else(|message| panic!("{message}"))
    }

    /// Draws formulas until one is satisfiable (or, for an UNSAT task, has a core within
    /// the limit); a ratio far from the threshold can make that (nearly) impossible, so
    /// it gives up after [`MAX_FORMULAS`] draws. Every preset needs a few.
    fn try_generate(config: &SatConfig, rng: &mut Rng) -> Result<SatTask, NoTask> {
        let m = (config.ratio * config.num_vars as f64).round().max(1.0) as usize;
        let mut vars: Vec<i32> = (1..=config.num_vars as i32).collect();
        let want_unsat = rng.chance(config.unsat_share);
        for _ in 0..MAX_FORMULAS {
            if crate::cancel::cancelled() {
                return Err(NoTask::Cancelled);
            }
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
            let limit = core_limit(cnf.clauses.len());
            let reference = match solve_watched(&cnf) {
                Verdict::Sat(model) if !want_unsat => {
                    assert!(satisfies(&cnf, &model), "solver returned a non-model");
                    format_assignment(&model)
                }
                Verdict::Unsat if want_unsat => {
                    // The second, independent solver must agree.
                    if let Verdict::Sat(model) = solve_scanning(&cnf) {
                        assert!(!satisfies(&cnf, &model), "solvers disagree on {cnf:?}");
                        continue;
                    }
                    let mut order: Vec<usize> = (0..cnf.clauses.len()).collect();
                    rng.shuffle(&mut order);
                    let core = minimal_unsat_core(&cnf, &order);
                    if core.len() > limit {
                        continue;
                    }
                    // Answers holding this core are paid without a search
                    // (`is_unsat_evidence`): the independent solver must
                    // agree that it alone is unsatisfiable.
                    let core_cnf = Cnf {
                        num_vars: cnf.num_vars,
                        clauses: core.iter().map(|&i| cnf.clauses[i].clone()).collect(),
                    };
                    assert_eq!(
                        solve_scanning(&core_cnf),
                        Verdict::Unsat,
                        "solvers disagree on the core of {cnf:?}"
                    );
                    let numbers: Vec<String> = core.iter().map(|i| (i + 1).to_string()).collect();
                    format!("UNSAT: {}", numbers.join(" "))
                }
                _ => continue,
            };
            return Ok(SatTask {
                num_vars: cnf.num_vars,
                clauses: cnf.clauses,
                core_limit: limit,
                reference,
            });
        }
        let wanted = if want_unsat {
            "unsatisfiable with a small core: raise ratio"
        } else {
            "satisfiable: lower ratio or set planted"
        };
        Err(format!(
            "no formula of {} variables at ratio {} in {MAX_FORMULAS} draws was {wanted}, or lower unsat_share",
            config.num_vars, config.ratio
        ).into())
    }

    fn prompt(task: &SatTask) -> String {
        format!(
            "Find an assignment that satisfies this CNF formula, given in DIMACS format (each line after the \
             header is a clause: a list of literals ending in 0; a negative literal is the negation of the \
             variable). The clauses are numbered 1 to {m} in the order listed.\n\n{}\nGive a value to every \
             variable 1..{} as signed literals separated by spaces (positive = true, negative = false), for \
             example for 3 variables: 1 -2 3. If no satisfying assignment exists, prove it: answer UNSAT \
             followed by the numbers of at most {} clauses that on their own already have no satisfying \
             assignment, for example UNSAT: 2 7 9 15 (the bare word UNSAT scores 0). Put the answer inside \
             \\boxed{{}}.",
            to_dimacs(&task.cnf()),
            task.num_vars,
            task.core_limit,
            m = task.clauses.len(),
        )
    }

    fn structured(task: &SatTask) -> Value {
        json!({ "num_vars": task.num_vars, "clauses": task.clauses, "core_limit": task.core_limit })
    }

    fn reference(task: &SatTask) -> String {
        task.reference.clone()
    }

    fn check(task: &SatTask, answer: &str) -> Result<bool, CheckError> {
        Ok(
            match parse_sat_answer(answer, task.num_vars).map_err(|e| e.to_string())? {
                SatAnswer::Unsat(core) => is_unsat_evidence(task, &core),
                SatAnswer::Assignment(values) => {
                    clauses_satisfied(&task.clauses, task.num_vars, &values)
                }
            },
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::single_turn::testing::{cross_reference_rate, passes, standard_answers};

    #[test]
    fn reference_passes_and_degenerate_answers_fail() {
        // Satisfiable tasks only: on UNSAT ones a "padded" answer (one more
        // clause number) is still valid evidence; those have their own test.
        let satisfiable = SatConfig {
            unsat_share: 0.0,
            ..Default::default()
        };
        standard_answers::<Sat>(&satisfiable, 20);
        standard_answers::<Sat>(
            &SatConfig {
                planted: true,
                num_vars: 40,
                ..satisfiable
            },
            10,
        );
    }

    #[test]
    fn any_satisfying_assignment_passes_and_a_flipped_one_fails() {
        let config = SatConfig {
            unsat_share: 0.0,
            ..Default::default()
        };
        let task = Sat::generate(&config, &mut Rng::from_seed(8));
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
        for unsat in ["UNSAT", "UNSAT: 1 2 3 4 5 6 7 8"] {
            assert!(
                !passes::<Sat>(&task, unsat),
                "{unsat} on a satisfiable formula"
            );
        }
    }

    fn unsat_config() -> SatConfig {
        SatConfig {
            num_vars: 20,
            unsat_share: 1.0,
            ..Default::default()
        }
    }

    #[test]
    fn unsat_tasks_pass_only_with_evidence_proven_by_both_solvers() {
        let mut rng = Rng::from_seed(2);
        for _ in 0..20 {
            let task = Sat::generate(&unsat_config(), &mut rng);
            assert!(task.reference.starts_with("UNSAT: "), "{}", task.reference);
            assert_eq!(solve_scanning(&task.cnf()), Verdict::Unsat);
            let SatAnswer::Unsat(core) = parse_sat_answer(&task.reference, task.num_vars).unwrap()
            else {
                panic!("reference is not an UNSAT answer")
            };
            assert!(!core.is_empty() && core.len() <= task.core_limit);
            assert!(passes::<Sat>(
                &task,
                &format!("\\boxed{{{}}}", task.reference)
            ));
            let listed = core.iter().map(usize::to_string).collect::<Vec<_>>();
            assert!(passes::<Sat>(
                &task,
                &format!("s UNSATISFIABLE\n{}", listed.join("\n"))
            ));
            // Evidence-free, hedged, padded and broken evidence all fail.
            let all: Vec<String> = (1..=task.clauses.len()).map(|i| i.to_string()).collect();
            for bad in [
                "UNSAT".to_string(),
                "\\boxed{UNSAT}".to_string(),
                "s UNSATISFIABLE".to_string(),
                format!("UNSAT: {}", all.join(" ")),
                format!("UNSAT: {} {}", listed.join(" "), listed[0]),
                format!("UNSAT: {} {}", listed.join(" "), task.clauses.len() + 1),
                format!("UNSAT: {}", listed[1..].join(" ")),
                format!("UNSAT or {}", format_assignment(&[true; 20])),
                format!(
                    "{} UNSAT: {}",
                    format_assignment(&[true; 20]),
                    listed.join(" ")
                ),
                format_assignment(&[true; 20]),
            ] {
                assert!(!passes::<Sat>(&task, &bad), "{bad:?} passed");
            }
        }
    }

    #[test]
    fn another_core_than_the_reference_is_proven_by_search() {
        let mut checked = 0;
        let mut rng = Rng::from_seed(9);
        for _ in 0..20 {
            let task = Sat::generate(&unsat_config(), &mut rng);
            let SatAnswer::Unsat(reference) =
                parse_sat_answer(&task.reference, task.num_vars).unwrap()
            else {
                panic!("reference is not an UNSAT answer")
            };
            // Deletion in the reverse order finds another minimal core, when
            // there is one; minimal cores never hold one another.
            let order: Vec<usize> = (0..task.clauses.len()).rev().collect();
            let other: Vec<usize> = minimal_unsat_core(&task.cnf(), &order)
                .iter()
                .map(|i| i + 1)
                .collect();
            if other.len() > task.core_limit || reference.iter().all(|n| other.contains(n)) {
                continue;
            }
            let listed: Vec<String> = other.iter().map(usize::to_string).collect();
            assert!(passes::<Sat>(
                &task,
                &format!("UNSAT: {}", listed.join(" "))
            ));
            // Without any one clause it is satisfiable: the search says so.
            let short = listed[1..].join(" ");
            assert!(!passes::<Sat>(&task, &format!("UNSAT: {short}")));
            checked += 1;
        }
        assert!(checked > 0, "no task had a second core within the limit");
    }

    #[test]
    fn a_minimal_core_loses_unsatisfiability_without_any_one_clause() {
        let task = Sat::generate(&unsat_config(), &mut Rng::from_seed(5));
        let SatAnswer::Unsat(core) = parse_sat_answer(&task.reference, task.num_vars).unwrap()
        else {
            panic!("reference is not an UNSAT answer")
        };
        for drop in 0..core.len() {
            let rest: Vec<String> = core
                .iter()
                .enumerate()
                .filter(|&(i, _)| i != drop)
                .map(|(_, n)| n.to_string())
                .collect();
            assert!(!passes::<Sat>(&task, &format!("UNSAT: {}", rest.join(" "))));
        }
    }

    #[test]
    fn unsat_evidence_never_passes_on_satisfiable_formulas() {
        // The reference cores of UNSAT tasks, given to satisfiable tasks of
        // the same size (same clause count, so all numbers are in range).
        let mut rng = Rng::from_seed(9);
        let sat_config = SatConfig {
            unsat_share: 0.0,
            ..unsat_config()
        };
        for _ in 0..30 {
            let unsat = Sat::generate(&unsat_config(), &mut rng);
            let sat = Sat::generate(&sat_config, &mut rng);
            assert!(!sat.reference.starts_with("UNSAT"));
            assert!(!passes::<Sat>(&sat, &unsat.reference));
            assert!(!passes::<Sat>(&unsat, &sat.reference));
        }
    }

    #[test]
    fn unsat_share_is_respected_roughly_and_stated_limits_do_not_leak_it() {
        let config = SatConfig {
            num_vars: 15,
            unsat_share: 0.3,
            ..Default::default()
        };
        let mut rng = Rng::from_seed(6);
        let tasks: Vec<SatTask> = (0..200).map(|_| Sat::generate(&config, &mut rng)).collect();
        let unsat = tasks
            .iter()
            .filter(|t| t.reference.starts_with("UNSAT"))
            .count();
        assert!((40..=80).contains(&unsat), "{unsat} of 200");
        assert!(
            tasks
                .iter()
                .all(|t| t.core_limit == core_limit(t.clauses.len()))
        );
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

    #[test]
    fn a_ratio_without_the_wanted_formulas_gives_up_naming_the_fields() {
        let config = SatConfig {
            num_vars: 20,
            ratio: 0.5,
            unsat_share: 1.0,
            ..SatConfig::default()
        };
        let error = Sat::try_generate(&config, &mut Rng::from_seed(1)).unwrap_err();
        assert!(
            error.to_string().contains("raise ratio") && error.to_string().contains("unsat_share"),
            "{error}"
        );
    }
}
