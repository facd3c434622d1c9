//! `logic/fol-entailment-v1`: which of several first-order conclusions
//! follow from the premises over a small finite domain (decided by model
//! checking every structure).
//!
//! # Task
//! A domain of `domain` elements, each named by a constant (distinct, and
//! every element has a name), `unary` one-place and `binary` two-place
//! predicates (random names), `premises` closed formulas and `conclusions`
//! labelled candidate conclusions (random three-letter labels). The answer
//! is the set of labels of the conclusions true in every interpretation of
//! the predicates over the domain that makes all premises true. Each task
//! has at least two entailed and at least one non-entailed conclusion, so
//! no single label, no constant and not the whole list passes.
//!
//! # Action
//! The labels of the entailed conclusions, separated by spaces, commas, `+`
//! or `;`; order and case are ignored. In `\boxed{…}` or as the whole reply.
//! Read by the single-turn rule (`crate::single_turn`): reasoning is dropped,
//! then the last `\boxed{…}` counts (boxes that disagree are a hedge and
//! score 0), else the whole reply; prose around the box is ignored. A token
//! that is not a label is unreadable.
//!
//! # Observation
//! The domain, the predicates, the premises and the labelled conclusions.
//! Structured: the same.
//!
//! # Reward
//! 1 and `passed` when the named set is exactly the entailed set (each label
//! once); else 0. The entailed set is computed by evaluating every formula on
//! every structure (bitsets over all `2^atoms` interpretations). Breakdown:
//! `correct`, `format`.
//!
//! # Episode end
//! After the one answer.
//!
//! # Parameters
//! `domain` (2..=4), `unary` (1..=4), `binary` (0..=2), with at most 16
//! ground atoms (`unary*domain + binary*domain^2`); `premises` (1..=6),
//! `depth` (1..=4, the nesting of connectives and quantifiers),
//! `conclusions` (4..=6).
//!
//! # Seeding
//! Names, formulas and the order of the conclusions come from the task rng.
//!
//! # Version history
//! v1: first version.

use std::collections::BTreeSet;

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use crate::budget::draw_until;
use crate::core::{EnvKind, EnvSpec, Preset};
use crate::error::{ConfigError, NoTask};
use crate::logic::names::{draw_names, read_names};
use crate::logic::solvers::fol::{
    Formula, Place, Signature, Term, Universe, VARS, members, no_vacuous, render, size, substitute,
};
use crate::rng::Rng;
use crate::single_turn::{CheckError, Question, SingleTurn};

/// Most ground atoms (so at most 2^16 structures are enumerated).
const MAX_ATOMS: usize = 16;
/// Premise sets drawn before giving up.
const MAX_DRAWS: u64 = 400;
/// Candidate conclusions proposed per premise set.
const PROPOSALS: usize = 80;

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct FolEntailmentConfig {
    pub domain: usize,
    pub unary: usize,
    pub binary: usize,
    pub premises: usize,
    pub depth: usize,
    pub conclusions: usize,
}

impl Default for FolEntailmentConfig {
    fn default() -> Self {
        FolEntailmentConfig {
            domain: 2,
            unary: 2,
            binary: 1,
            premises: 3,
            depth: 3,
            conclusions: 5,
        }
    }
}

impl FolEntailmentConfig {
    fn atoms(&self) -> usize {
        self.unary * self.domain + self.binary * self.domain * self.domain
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Conclusion {
    pub label: String,
    pub formula: String,
    pub entailed: bool,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct FolEntailmentTask {
    /// The constants naming the domain's elements.
    pub elements: Vec<String>,
    pub unary: Vec<String>,
    pub binary: Vec<String>,
    pub premises: Vec<String>,
    pub conclusions: Vec<Conclusion>,
    /// Ground atoms times formula nodes: the work of a truth-table check.
    pub work: usize,
}

/// A random formula of nesting at most `depth` over the variables in scope
/// (`0..bound`); a quantifier at the top with probability `quantify`.
fn random_formula(
    sig: &Signature,
    depth: usize,
    bound: usize,
    quantify: f64,
    rng: &mut Rng,
) -> Formula {
    if depth == 0 {
        let pred = rng.below((sig.unary + sig.binary) as u64) as usize;
        let args = (0..sig.arity(pred))
            .map(|_| {
                if bound > 0 && rng.below(4) != 0 {
                    Term::Var(rng.below(bound as u64) as usize)
                } else {
                    Term::Const(rng.below(sig.domain as u64) as usize)
                }
            })
            .collect();
        return Formula::Atom(pred, args);
    }
    let sub = |rng: &mut Rng, bound| {
        let d = if rng.chance(0.5) {
            depth - 1
        } else {
            rng.below(depth as u64) as usize
        };
        Box::new(random_formula(sig, d, bound, 0.4, rng))
    };
    if bound < VARS.len() && rng.chance(quantify) {
        let body = sub(rng, bound + 1);
        return if rng.chance(0.5) {
            Formula::Forall(bound, body)
        } else {
            Formula::Exists(bound, body)
        };
    }
    match rng.below(7) {
        0 => Formula::Not(sub(rng, bound)),
        1 | 2 => Formula::And(sub(rng, bound), sub(rng, bound)),
        3 | 4 => Formula::Or(sub(rng, bound), sub(rng, bound)),
        _ => Formula::Implies(sub(rng, bound), sub(rng, bound)),
    }
}

/// A variant of `f`: one quantifier or connective flipped, an implication
/// reversed, a top universal instantiated, or one atom redrawn.
fn mutate(sig: &Signature, f: &Formula, rng: &mut Rng) -> Formula {
    let boxed = |a: &Formula| Box::new(a.clone());
    match (f, rng.below(3)) {
        (Formula::Forall(v, a), 0) => Formula::Exists(*v, boxed(a)),
        (Formula::Exists(v, a), 0) => Formula::Forall(*v, boxed(a)),
        (Formula::Forall(v, a), 1) => Formula::Forall(*v, Box::new(mutate(sig, a, rng))),
        (Formula::Exists(v, a), 1) => Formula::Exists(*v, Box::new(mutate(sig, a, rng))),
        (Formula::Forall(v, a), _) => substitute(a, *v, rng.below(sig.domain as u64) as usize),
        (Formula::Implies(a, b), 0) => Formula::Implies(boxed(b), boxed(a)),
        (Formula::And(a, b), 0) => Formula::Or(boxed(a), boxed(b)),
        (Formula::Or(a, b), 0) => Formula::And(boxed(a), boxed(b)),
        (Formula::Implies(a, b) | Formula::And(a, b) | Formula::Or(a, b), k) => {
            let (a, b) = if k == 1 {
                (Box::new(mutate(sig, a, rng)), boxed(b))
            } else {
                (boxed(a), Box::new(mutate(sig, b, rng)))
            };
            match f {
                Formula::Implies(..) => Formula::Implies(a, b),
                Formula::And(..) => Formula::And(a, b),
                _ => Formula::Or(a, b),
            }
        }
        (Formula::Not(a), 0) => (**a).clone(),
        (Formula::Not(a), _) => Formula::Not(Box::new(mutate(sig, a, rng))),
        (Formula::Atom(_, args), _) => {
            let pred = (0..sig.unary + sig.binary)
                .filter(|&p| sig.arity(p) == args.len())
                .collect::<Vec<_>>();
            Formula::Atom(*rng.choose(&pred).expect("a predicate"), args.clone())
        }
        (Formula::Exists(v, a), _) => Formula::Exists(*v, boxed(a)),
    }
}

/// A closed formula whose quantifiers all bind something, which is true in
/// some and false in some of the `sample`'s structures (so neither valid
/// nor contradictory).
fn contingent(sig: &Signature, sample: &Universe, depth: usize, rng: &mut Rng) -> Formula {
    loop {
        let f = random_formula(sig, depth, 0, 0.75, rng);
        if no_vacuous(&f) && is_contingent(sig, sample, &f) {
            return f;
        }
    }
}

fn is_contingent(sig: &Signature, sample: &Universe, f: &Formula) -> bool {
    let bits = sample.eval(sig, f, &mut [0; 3]);
    bits.iter().any(|&w| w != 0) && bits != sample.full()
}

/// One draw: premises with a few (but some) models, then conclusions until
/// the wanted numbers of entailed and non-entailed ones are found.
fn draw(config: &FolEntailmentConfig, rng: &mut Rng) -> Option<FolEntailmentTask> {
    let sig = Signature {
        domain: config.domain,
        unary: config.unary,
        binary: config.binary,
    };
    let atoms = sig.atoms();
    // 64 random structures (or all, when that is fewer) screen out valid
    // and contradictory formulas cheaply.
    let sample: Vec<u64> = if atoms <= 6 {
        (0..1u64 << atoms).collect()
    } else {
        (0..64)
            .map(|_| rng.next_u64() & ((1u64 << atoms) - 1))
            .collect()
    };
    let sample = Universe::of(&sig, &sample);
    let premises: Vec<Formula> = (0..config.premises)
        .map(|_| contingent(&sig, &sample, config.depth, rng))
        .collect();
    let all = Universe::all(&sig);
    let mut models = all.full();
    for p in &premises {
        let holds = all.eval(&sig, p, &mut [0; 3]);
        models.iter_mut().zip(holds).for_each(|(m, h)| *m &= h);
    }
    let models = members(&models);
    if models.is_empty() || models.len() * 4 > all.len {
        return None;
    }
    let models = Universe::of(&sig, &models);
    let names = draw_names(
        config.conclusions + config.unary + config.binary + config.domain,
        rng,
    );
    let (labels, rest) = names.split_at(config.conclusions);
    let (pred_names, element_names) = rest.split_at(config.unary + config.binary);
    let preds: Vec<String> = pred_names
        .iter()
        .map(|n| n[..1].to_string() + &n[1..].to_ascii_lowercase())
        .collect();
    let elements: Vec<String> = element_names
        .iter()
        .map(|n| n.to_ascii_lowercase())
        .collect();
    let text = |f: &Formula| render(f, &preds, &elements, Place::Top);
    let wanted = rng.range_usize(2, config.conclusions - 1);
    let mut seen: BTreeSet<String> = premises.iter().map(text).collect();
    let (mut entailed, mut other) = (Vec::new(), Vec::new());
    for _ in 0..PROPOSALS {
        let candidate = if rng.chance(0.5) {
            mutate(
                &sig,
                &premises[rng.below(premises.len() as u64) as usize],
                rng,
            )
        } else {
            random_formula(&sig, config.depth, 0, 0.75, rng)
        };
        if !no_vacuous(&candidate) || !is_contingent(&sig, &sample, &candidate) {
            continue;
        }
        if !seen.insert(text(&candidate)) {
            continue;
        }
        let holds = models.eval(&sig, &candidate, &mut [0; 3]);
        let list = if holds == models.full() {
            &mut entailed
        } else {
            &mut other
        };
        list.push(candidate);
        if entailed.len() >= wanted && other.len() >= config.conclusions - wanted {
            break;
        }
    }
    if entailed.len() < wanted || other.len() < config.conclusions - wanted {
        return None;
    }
    let mut chosen: Vec<(Formula, bool)> = entailed
        .into_iter()
        .take(wanted)
        .map(|f| (f, true))
        .chain(
            other
                .into_iter()
                .take(config.conclusions - wanted)
                .map(|f| (f, false)),
        )
        .collect();
    rng.shuffle(&mut chosen);
    let nodes: usize = premises
        .iter()
        .chain(chosen.iter().map(|c| &c.0))
        .map(size)
        .sum();
    Some(FolEntailmentTask {
        premises: premises.iter().map(text).collect(),
        conclusions: chosen
            .iter()
            .zip(labels)
            .map(|((f, entailed), label)| Conclusion {
                label: label.clone(),
                formula: text(f),
                entailed: *entailed,
            })
            .collect(),
        work: atoms * nodes,
        elements,
        unary: preds[..config.unary].to_vec(),
        binary: preds[config.unary..].to_vec(),
    })
}

pub struct FolEntailment;

pub type FolEntailmentEnv = SingleTurn<FolEntailment>;

impl Question for FolEntailment {
    type Config = FolEntailmentConfig;
    type Task = FolEntailmentTask;
    const SPEC: EnvSpec = EnvSpec {
        id: "logic/fol-entailment-v1",
        kind: EnvKind::SingleTurn,
        description: "Name the first-order conclusions that follow from the premises over a small finite domain (decided by model checking every structure)",
        players: 1,
        max_steps: 1,
        reward_range: (0.0, 1.0),
        zero_sum: false,
        fixed_start: false,
        presets: &Preset::graded(Self::LEVELS, [1, 3, 5]),
    };
    const LEVELS: &'static [&'static str] = &[
        r#"{"domain":2,"unary":2,"binary":0,"premises":2,"depth":2,"conclusions":4}"#,
        r#"{"domain":3,"unary":2,"binary":0,"premises":2,"depth":2,"conclusions":4}"#,
        r#"{"domain":3,"unary":3,"binary":0,"premises":3,"depth":2,"conclusions":5}"#,
        "{}",
        r#"{"domain":3,"unary":1,"binary":1,"premises":3,"depth":3,"conclusions":5}"#,
        r#"{"domain":4,"unary":3,"binary":0,"premises":4,"depth":3,"conclusions":6}"#,
        r#"{"domain":3,"unary":1,"binary":1,"premises":4,"depth":4,"conclusions":6}"#,
    ];

    fn effort(task: &FolEntailmentTask) -> Option<f64> {
        Some(task.work as f64)
    }

    fn validate(config: &FolEntailmentConfig) -> Result<(), ConfigError> {
        if !(2..=4).contains(&config.domain)
            || !(1..=4).contains(&config.unary)
            || config.binary > 2
            || config.atoms() > MAX_ATOMS
            || !(1..=6).contains(&config.premises)
            || !(1..=4).contains(&config.depth)
            || !(4..=6).contains(&config.conclusions)
        {
            return Err(format!(
                "need 2 <= domain <= 4, 1 <= unary <= 4, 0 <= binary <= 2, unary*domain + binary*domain^2 <= {MAX_ATOMS}, \
                 1 <= premises <= 6, 1 <= depth <= 4, 4 <= conclusions <= 6"
            )
            .into());
        }
        Ok(())
    }

    fn generate(config: &FolEntailmentConfig, rng: &mut Rng) -> FolEntailmentTask {
        Self::try_generate(config, rng).unwrap_or_else(|message| panic!("{message}"))
    }

    fn try_generate(
        config: &FolEntailmentConfig,
        rng: &mut Rng,
    ) -> Result<FolEntailmentTask, NoTask> {
        draw_until(
            MAX_DRAWS,
            || draw(config, rng),
            || {
                format!(
                    "no premise set with at most a quarter of the structures as models and enough entailed and \
                     non-entailed conclusions in {MAX_DRAWS} draws: raise premises, depth or unary"
                )
            },
        )
    }

    fn prompt(task: &FolEntailmentTask) -> String {
        let mut preds: Vec<String> = task.unary.iter().map(|p| format!("{p}(_)")).collect();
        preds.extend(task.binary.iter().map(|p| format!("{p}(_, _)")));
        let premises: Vec<String> = task.premises.iter().map(|p| format!("- {p}")).collect();
        let conclusions: Vec<String> = task
            .conclusions
            .iter()
            .map(|c| format!("{}: {}", c.label, c.formula))
            .collect();
        format!(
            "First-order logic over a finite domain. The domain has exactly {} elements, named {} (distinct \
             names; every element has one). The predicates are {}; an interpretation may make each predicate \
             true of any elements. Syntax: `not`, `and`, `or`, `->` (implies), `forall x.` and `exists x.` (a \
             quantifier's scope is its parenthesised group, or the rest of the line); variables are x, y, z.\n\nPremises:\n{}\n\nCandidate conclusions:\n{}\n\nA conclusion is entailed \
             when it is true in every interpretation over this domain that makes all the premises true. \
             Answer with the labels of exactly the entailed conclusions (at least two are), separated by \
             spaces, inside \\boxed{{}}.",
            task.elements.len(),
            task.elements.join(", "),
            preds.join(", "),
            premises.join("\n"),
            conclusions.join("\n")
        )
    }

    fn structured(task: &FolEntailmentTask) -> Value {
        let conclusions: Vec<Value> = task
            .conclusions
            .iter()
            .map(|c| json!({"label": c.label, "formula": c.formula}))
            .collect();
        json!({
            "elements": task.elements,
            "unary": task.unary,
            "binary": task.binary,
            "premises": task.premises,
            "conclusions": conclusions,
        })
    }

    fn reference(task: &FolEntailmentTask) -> String {
        task.conclusions
            .iter()
            .filter(|c| c.entailed)
            .map(|c| c.label.as_str())
            .collect::<Vec<_>>()
            .join(" ")
    }

    fn check(task: &FolEntailmentTask, answer: &str) -> Result<bool, CheckError> {
        let labels: Vec<String> = task.conclusions.iter().map(|c| c.label.clone()).collect();
        let tokens = answer
            .split(|c: char| c.is_whitespace() || ",+;".contains(c))
            .filter(|t| !t.is_empty());
        let named = read_names(tokens, &labels, "conclusion label")?;
        let distinct: BTreeSet<usize> = named.iter().copied().collect();
        let entailed: BTreeSet<usize> = (0..labels.len())
            .filter(|&i| task.conclusions[i].entailed)
            .collect();
        Ok(distinct.len() == named.len() && distinct == entailed)
    }
}

#[cfg(test)]
#[path = "fol_entailment_tests.rs"]
mod tests;
