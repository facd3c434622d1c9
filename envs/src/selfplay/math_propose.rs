//! `selfplay/math-propose-v1`: propose a math problem with a checkable answer; solve it.
//!
//! # Task
//! Reference problems for the proposer (from `reference_pool` when the config has one,
//! else generated from the seed: exact-arithmetic problems with `operands` numbers) and
//! the scripted proposal the oracle proposer plays.
//!
//! # Action
//! - Proposer (player 0): three lines, `PROBLEM: ...`, `ANSWER: ...` (an exact number:
//!   integer, fraction or decimal) and `WITNESS: ...`, an arithmetic expression over
//!   exact rationals (`+ - * /`, `^` with integer exponents, parentheses) whose value is
//!   the answer. Any text is accepted; an invalid proposal ends the episode with the
//!   penalty.
//! - Solver (player 1), `solver_samples` times: a reply with the answer in `\boxed{}`.
//!
//! Each turn is read out of the whole reply by `crate::reply`: reasoning is
//! dropped, then the reply as it is, the text after an `Action:`, `Move:` or
//! `Command:` marker, a fenced block, or the last line; two different
//! actions in one turn are refused as a hedge.
//!
//! # Observation
//! The proposer sees the instructions and the reference problems (`references` in the
//! JSON); the solver sees the proposed problem and its attempt number, never the
//! proposer's answer, witness or the other attempts. The JSON carries the ledger (whose
//! turn, attempts so far) and the problem once proposed.
//!
//! # Validation of a proposal
//! A problem of 10–1,500 bytes that is not a copy of a reference problem (normalised
//! text); an answer the math verifier parses as an exact number and accepts against
//! itself; a witness our own parser (`witness`, never `eval`) evaluates to
//! exactly that number.
//!
//! # Verification of an attempt
//! [`verigym_verifiers::math::verify_visible_with_prompt`] with `require_boxed` (an echo of the
//! problem fails).
//!
//! # Reward
//! As in [`super`]: solver `1/N` per verified attempt; proposer learnability; penalty
//! `-invalid_penalty` (default 0.5) for an invalid proposal.
//!
//! # Episode end
//! After an invalid proposal, or after the solver's `solver_samples`-th attempt.
//!
//! # Parameters
//! `solver_samples` (1–16), `references` (0–8), `operands` (2–12), `invalid_penalty`
//! (0–1), `reference_pool` (validated proposals to draw references from).
//!
//! # Seeding
//! The seed draws the reference problems (or picks them from `reference_pool`) and the
//! oracle's scripted proposal; the model-written proposal is not seeded.
//!
//! # Version history
//! v1: first version.

use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::Zero;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use verigym_verifiers::answer::boxed_contents;
use verigym_verifiers::math::{MathConfig, verify, verify_visible_with_prompt};
use verigym_verifiers::numeric::{format_rational, parse_exact_number};

use super::buffer::{Proposal, normalize_text};
use super::episode::{EPISODE_SPEC, ProposeSolve, ProposeSolveEnv, draw_fresh, draw_references};
use super::witness::evaluate;
use super::{MAX_SOLVER_SAMPLES, PROPOSER, Rejection, field};
use crate::core::{EnvSpec, Player, Preset};
use crate::error::ConfigError;
use crate::rng::Rng;

/// A problem, its answer and the witness: a reference, a proposal, a buffer entry.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MathExample {
    pub problem: String,
    pub answer: String,
    pub witness: String,
}

impl Proposal for MathExample {
    fn normalized(&self) -> String {
        normalize_text(&self.problem)
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct MathProposeConfig {
    /// Solver attempts per proposal (1–16).
    pub solver_samples: usize,
    /// Reference problems shown to the proposer (0–8).
    pub references: usize,
    /// Numbers in generated problems (2–12).
    pub operands: usize,
    /// Subtracted from the proposer's reward for an invalid proposal (0–1).
    pub invalid_penalty: f64,
    /// Validated proposals to draw reference problems from instead of generating them.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub reference_pool: Vec<MathExample>,
}

impl Default for MathProposeConfig {
    fn default() -> Self {
        MathProposeConfig {
            solver_samples: 4,
            references: 3,
            operands: 4,
            invalid_penalty: 0.5,
            reference_pool: Vec::new(),
        }
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MathProposeTask {
    pub solver_samples: usize,
    pub invalid_penalty: f64,
    pub operands: usize,
    pub references: Vec<MathExample>,
    pub scripted: MathExample,
}

/// A random exact-arithmetic problem with `operands` numbers.
pub(crate) fn generated_example(operands: usize, rng: &mut Rng) -> MathExample {
    loop {
        let (witness, value) = random_expression(operands.max(1), rng);
        let Some(value) = value else { continue };
        let verb = *rng
            .choose(&["Compute", "Evaluate", "What is"])
            .unwrap_or(&"Compute");
        return MathExample {
            problem: format!(
                "{verb} {witness}? Give the exact value as an integer or a reduced fraction."
            ),
            answer: format_rational(&value),
            witness,
        };
    }
}

/// A random expression tree with `n` leaves, as text and value (`None` on division by 0).
fn random_expression(n: usize, rng: &mut Rng) -> (String, Option<BigRational>) {
    if n == 1 {
        let k = rng.range_i64(1, 12);
        return (
            k.to_string(),
            Some(BigRational::from_integer(BigInt::from(k))),
        );
    }
    let left_n = rng.range_usize(1, n - 1);
    let (lt, lv) = random_expression(left_n, rng);
    let (rt, rv) = random_expression(n - left_n, rng);
    let op = *rng.choose(&['+', '-', '*', '/']).unwrap_or(&'+');
    let wrap = |t: String, leaf: bool| if leaf { t } else { format!("({t})") };
    let text = format!(
        "{} {op} {}",
        wrap(lt, left_n == 1),
        wrap(rt, n - left_n == 1)
    );
    let value = match (lv, rv) {
        (Some(a), Some(b)) => match op {
            '+' => Some(a + b),
            '-' => Some(a - b),
            '*' => Some(a * b),
            _ if b.is_zero() => None,
            _ => Some(a / b),
        },
        _ => None,
    };
    (text, value)
}

/// The proposer's action text for an example.
pub fn proposal_text(example: &MathExample) -> String {
    format!(
        "PROBLEM: {}\nANSWER: {}\nWITNESS: {}\n",
        example.problem, example.answer, example.witness
    )
}

fn solver_config() -> MathConfig {
    MathConfig {
        require_boxed: true,
        ..MathConfig::default()
    }
}

/// Reads and validates a proposal against the task's reference problems.
///
/// # Errors
/// The [`Rejection`]: `format`, `copy`, `answer` or `witness`, with the reason.
pub fn validate_proposal(task: &MathProposeTask, text: &str) -> Result<MathExample, Rejection> {
    let get = |key: &str| field(text, key).map(str::to_string).unwrap_or_default();
    let example = MathExample {
        problem: get("problem"),
        answer: get("answer"),
        witness: get("witness"),
    };
    if !(10..=1500).contains(&example.problem.len()) {
        return Err(Rejection::new(
            "format",
            "write the problem (10 to 1,500 bytes) on one `PROBLEM: ...` line, then `ANSWER: ...` and `WITNESS: ...` lines",
        ));
    }
    if let Some(i) = task
        .references
        .iter()
        .position(|r| r.key() == example.key())
    {
        return Err(Rejection::new(
            "copy",
            format!("the problem copies reference problem {i}: propose a new one"),
        ));
    }
    let Some(value) = parse_exact_number(&example.answer) else {
        return Err(Rejection::new(
            "answer",
            "ANSWER must be one exact number: an integer, a fraction like -7/3, or a decimal",
        ));
    };
    if !verify(
        &example.answer,
        &format!("\\boxed{{{}}}", example.answer),
        &solver_config(),
    )
    .equivalent
    {
        return Err(Rejection::new(
            "answer",
            "the math verifier cannot check this ANSWER",
        ));
    }
    match evaluate(&example.witness) {
        Ok(w) if w == value => Ok(example),
        Ok(w) => Err(Rejection::new(
            "witness",
            format!(
                "the WITNESS equals {}, not the ANSWER {}",
                format_rational(&w),
                example.answer
            ),
        )),
        Err(e) => Err(Rejection::new(
            "witness",
            format!("WITNESS must be an arithmetic expression equal to the answer: {e}"),
        )),
    }
}

/// Verifies one solver reply against a validated proposal: exactly one `\boxed{}`, holding
/// a number (so boxing the problem's own expression is not an answer), equivalent to the
/// proposer's answer.
pub fn verify_answer(proposal: &MathExample, answer: &str) -> (bool, String) {
    // `answer` is the turn's visible text (`crate::reply` removed the reasoning once).
    let boxes = boxed_contents(answer).unwrap_or_default();
    match boxes.as_slice() {
        [one] if parse_exact_number(one).is_some() => {}
        [_] => return (false, "the boxed answer is not a number".into()),
        _ => return (false, "write exactly one \\boxed{} answer".into()),
    }
    let verdict = verify_visible_with_prompt(
        &proposal.answer,
        answer,
        &proposal.problem,
        &solver_config(),
    );
    (verdict.equivalent, verdict.reason)
}

/// `selfplay/math-propose-v1`: the shared propose-then-solve episode on math problems.
pub type MathPropose = ProposeSolveEnv<MathProposeTask>;

impl ProposeSolve for MathProposeTask {
    type Config = MathProposeConfig;
    type Proposal = MathExample;

    const SPEC: EnvSpec = EnvSpec {
        id: "selfplay/math-propose-v1",
        description: "Propose-and-solve self-play on math problems with exact-arithmetic witnesses; learnability reward",
        presets: &Preset::graded(LEVELS, [1, 2, 3]),
        ..EPISODE_SPEC
    };

    const LEVELS: &'static [&'static str] = LEVELS;

    fn effort(&self) -> Option<f64> {
        // Arithmetic operations in the scripted problem.
        Some(self.operands as f64 - 1.0)
    }

    fn validate_config(c: &MathProposeConfig) -> Result<(), ConfigError> {
        if !(1..=MAX_SOLVER_SAMPLES).contains(&c.solver_samples) {
            return Err("solver_samples must be 1..=16".into());
        }
        if c.references > 8 {
            return Err("references must be 0..=8".into());
        }
        if !(2..=12).contains(&c.operands) {
            return Err("operands must be 2..=12".into());
        }
        if !(0.0..=1.0).contains(&c.invalid_penalty) {
            return Err("invalid_penalty must be 0..=1".into());
        }
        Ok(())
    }

    fn generate(c: &MathProposeConfig, rng: &mut Rng) -> MathProposeTask {
        let references = draw_references(&c.reference_pool, c.references, rng, |rng| {
            generated_example(c.operands, rng)
        });
        let scripted = draw_fresh(&references, rng, |rng| generated_example(c.operands, rng));
        MathProposeTask {
            solver_samples: c.solver_samples,
            invalid_penalty: c.invalid_penalty,
            operands: c.operands,
            references,
            scripted,
        }
    }

    fn solver_samples(&self) -> usize {
        self.solver_samples
    }

    fn invalid_penalty(&self) -> f64 {
        self.invalid_penalty
    }

    fn render_name(&self) -> String {
        "selfplay/math-propose".into()
    }

    fn proposer_prompt(&self) -> String {
        let mut text = format!(
            "You are the proposer in a propose-and-solve game. Write a math problem whose answer \
             is one exact number, the answer, and a witness: an arithmetic expression (+ - * /, \
             ^ with integer exponents, parentheses) that equals the answer exactly. Your reward \
             is high when the solver gets it right in some but not all of its {} attempts.\n",
            self.solver_samples
        );
        for (i, r) in self.references.iter().enumerate() {
            text.push_str(&format!("\nReference problem {i}:\n{}", proposal_text(r)));
        }
        text.push_str("\nReply with `PROBLEM: ...`, `ANSWER: ...` and `WITNESS: ...` lines.");
        text
    }

    fn solver_prompt(&self, p: &MathExample, head: &str) -> String {
        format!(
            "{head}\n\n{}\n\nPut your final answer in \\boxed{{}}.",
            p.problem
        )
    }

    fn fields(&self, proposal: Option<&MathExample>, player: Player) -> Value {
        json!({
            "references": if player == PROPOSER { json!(self.references) } else { json!(null) },
            "problem": proposal.map(|p| &p.problem),
        })
    }

    fn check_proposal(&self, text: &str) -> Result<MathExample, Rejection> {
        validate_proposal(self, text)
    }

    fn grade(
        &self,
        proposal: &MathExample,
        answer: &str,
        _prompt: impl FnOnce() -> String,
    ) -> (Option<bool>, String) {
        let (ok, note) = verify_answer(proposal, answer);
        (Some(ok), note)
    }

    fn scripted_proposal(&self) -> String {
        proposal_text(&self.scripted)
    }

    fn solution(&self, proposal: &MathExample) -> String {
        format!("\\boxed{{{}}}", proposal.answer)
    }

    fn random_action(
        &self,
        _proposal: Option<&MathExample>,
        player: Player,
        rng: &mut Rng,
    ) -> String {
        if player == PROPOSER {
            return proposal_text(&generated_example(self.operands, rng));
        }
        format!("\\boxed{{{}}}", rng.range_i64(-20, 20))
    }
}

/// The difficulty scale: numbers in the generated problems.
const LEVELS: &[&str] = &[
    r#"{"operands":2}"#,
    r#"{"operands":3}"#,
    "{}",
    r#"{"operands":6}"#,
    r#"{"operands":8}"#,
];
