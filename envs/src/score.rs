//! Offline scoring: answers against task cards (`verigym score`, the
//! server's `/v1/score`, the Python package's batch scoring).
//!
//! Tasks are JSONL task cards; answers are JSONL `{"id": …, "answer": …}`
//! where `answer` is a string, or a list of strings for a multi-turn env
//! (the actions in order). A malformed line is reported with its line
//! number and the rest are still scored.

use std::collections::{BTreeMap, HashMap};

use rayon::prelude::*;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::card::TaskCard;
use crate::completion::CompletionError;
pub use crate::completion::response_action;
use crate::dynenv::DynEnv;
use crate::error::{CardProblem, EnvError};
use crate::registry::Registry;
use crate::session::{Attempt, Rules, Session};
use crate::shaping::Shaping;

/// One scored answer.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ScoredAnswer {
    pub id: String,
    /// `None` (`null` in JSON) when the answer got no verdict: the sandbox,
    /// a toolchain or the host failed, not the answer. Drop such a sample;
    /// a zero would teach a model as wrongly as a false pass.
    pub reward: Option<f64>,
    pub passed: bool,
    pub breakdown: BTreeMap<String, f64>,
    /// Why there is no verdict (the env's note), when there is none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub no_verdict: Option<String>,
    /// The env version that scored it, when not the card's own: a card of
    /// a superseded version is scored by the newest, through its upgrade.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub scored_by: Option<String>,
}

/// Why an answer (an `answer` value or a chat `response`) cannot be read as
/// actions.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum AnswerError {
    #[error("give exactly one of \"answer\" and \"response\"")]
    AnswerOrResponse,
    /// An action that is neither a string nor a number or boolean.
    #[error("an action must be a string or number, got `{0}`")]
    NotAnAction(Value),
    /// A chat response that is not a completion or message.
    #[error(transparent)]
    Response(#[from] CompletionError),
}

/// Why one item of a batch ([`score_items`]) was not scored.
#[derive(Debug, thiserror::Error)]
pub enum ScoreError {
    #[error("not a task card: {0}")]
    NotACard(#[source] serde_json::Error),
    #[error(transparent)]
    Answer(#[from] AnswerError),
    #[error(transparent)]
    Env(#[from] EnvError),
}

impl ScoreError {
    /// A stable word for the cause: `bad_card` (not a task card),
    /// `bad_answer` (an answer that is not actions), or the env error's
    /// [`EnvError::kind`].
    pub fn kind(&self) -> &'static str {
        match self {
            ScoreError::NotACard(_) => "bad_card",
            ScoreError::Answer(_) => "bad_answer",
            ScoreError::Env(error) => error.kind(),
        }
    }
}

/// A line that could not be used, with its 1-based number.
#[derive(Clone, Debug, PartialEq)]
pub struct LineError {
    pub file: &'static str,
    pub line: usize,
    pub message: String,
}

impl std::fmt::Display for LineError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} line {}: {}", self.file, self.line, self.message)
    }
}

/// Everything `verigym score` reports.
#[derive(Debug, Default)]
pub struct ScoreReport {
    /// Scored answers, in answers-file order.
    pub scored: Vec<ScoredAnswer>,
    pub errors: Vec<LineError>,
    /// Tasks that no answer line named.
    pub unanswered: usize,
}

impl ScoreReport {
    /// One line for stderr.
    pub fn summary(&self) -> String {
        let rewards: Vec<f64> = self.scored.iter().filter_map(|s| s.reward).collect();
        let n = rewards.len();
        let no_verdict = self.scored.len() - n;
        let passed = self.scored.iter().filter(|s| s.passed).count();
        let mean = if n == 0 {
            0.0
        } else {
            rewards.iter().sum::<f64>() / n as f64
        };
        let pct = if n == 0 {
            0.0
        } else {
            100.0 * passed as f64 / n as f64
        };
        let mut line = format!(
            "scored {n} answers: {passed} passed ({pct:.1}%), mean reward {mean:.4}; {} lines with errors; {} tasks without an answer",
            self.errors.len(),
            self.unanswered
        );
        if no_verdict > 0 {
            line += &format!(
                "; {no_verdict} answers got no verdict (reward null: the sandbox or a toolchain failed, see `no_verdict`)"
            );
        }
        line
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct AnswerLine {
    id: String,
    /// The action text (or a list of them, one per turn).
    #[serde(default)]
    answer: Option<serde_json::Value>,
    /// A whole chat completion (or just its message): its content, or its
    /// tool calls, is the answer.
    #[serde(default)]
    response: Option<serde_json::Value>,
}

/// The answer of a line: `answer`, or the action in `response`.
fn line_actions(line: &AnswerLine) -> Result<Vec<String>, AnswerError> {
    item_actions(line.answer.as_ref(), line.response.as_ref())
}

/// The actions of an answer given as `answer` or as a chat `response` (a
/// whole completion or its message: [`response_action`]).
fn item_actions(
    answer: Option<&serde_json::Value>,
    response: Option<&serde_json::Value>,
) -> Result<Vec<String>, AnswerError> {
    match (answer, response) {
        (Some(answer), None) => answer_actions(answer),
        (None, Some(response)) => response_action(response)
            .map(|(action, _)| vec![action])
            .map_err(AnswerError::Response),
        _ => Err(AnswerError::AnswerOrResponse),
    }
}

/// The card of a task: a card itself, or a chat row from
/// `generate --format chat` that carries it under `card`.
///
/// # Errors
/// JSON that is not a task card.
pub fn card_from_json(mut value: serde_json::Value) -> serde_json::Result<TaskCard> {
    let card = value.get_mut("card").map(std::mem::take).unwrap_or(value);
    serde_json::from_value::<TaskCard>(card)
}

/// The actions of an answer: a string is one action, a list is one action
/// per turn; numbers and booleans are taken as their JSON text.
///
/// # Errors
/// [`AnswerError::NotAnAction`]: an action that is neither a string nor a
/// number or boolean.
pub fn answer_actions(answer: &serde_json::Value) -> Result<Vec<String>, AnswerError> {
    use serde_json::Value;
    let one = |v: &Value| match v {
        Value::String(s) => Ok(s.clone()),
        Value::Number(_) | Value::Bool(_) => Ok(v.to_string()),
        other => Err(AnswerError::NotAnAction(other.clone())),
    };
    match answer {
        Value::Array(items) => items.iter().map(one).collect(),
        other => Ok(vec![one(other)?]),
    }
}

/// Scores every answer line against the task cards: parses both files,
/// then [`score_cards`].
pub fn score_answers(
    registry: &Registry,
    tasks_jsonl: &str,
    answers_jsonl: &str,
    shaping: &Shaping,
) -> ScoreReport {
    let mut report = ScoreReport::default();
    let mut cards: HashMap<String, TaskCard> = HashMap::new();
    let mut made: HashMap<(String, String), Result<(), EnvError>> = HashMap::new();
    for (i, line) in nonblank_lines(tasks_jsonl) {
        let error = |message: String| LineError {
            file: "tasks",
            line: i,
            message,
        };
        let parsed = serde_json::from_str::<serde_json::Value>(line).and_then(card_from_json);
        let card: TaskCard = match parsed {
            Ok(card) => card,
            Err(e) => {
                report.errors.push(error(format!("not a task card: {e}")));
                continue;
            }
        };
        // A card whose env cannot be made is its task line's error, not
        // every answer's (made once per env and config).
        let key = (card.env_id.clone(), card.config_hash.clone());
        let usable = made
            .entry(key)
            .or_insert_with(|| registry.make_for_card(&card).map(drop));
        if let Err(e) = usable {
            report.errors.push(error(e.to_string()));
            continue;
        }
        if cards.insert(card.id.clone(), card).is_some() {
            report
                .errors
                .push(error("duplicate task id; the later card is used".into()));
        }
    }

    let mut answered = std::collections::HashSet::new();
    let (mut lines, mut job_cards, mut job_actions) = (Vec::new(), Vec::new(), Vec::new());
    for (i, line) in nonblank_lines(answers_jsonl) {
        let error = |message: String| LineError {
            file: "answers",
            line: i,
            message,
        };
        let answer: AnswerLine = match serde_json::from_str(line) {
            Ok(a) => a,
            Err(e) => {
                report.errors.push(error(format!(
                    "expected {{\"id\": \"…\", \"answer\": \"…\"}} or {{\"id\": \"…\", \"response\": {{…}}}}: {e}"
                )));
                continue;
            }
        };
        let Some(card) = cards.get(&answer.id) else {
            report.errors.push(error(format!(
                "no task with id `{}` in the tasks file",
                answer.id
            )));
            continue;
        };
        let actions = match line_actions(&answer) {
            Ok(actions) => actions,
            Err(e) => {
                report.errors.push(error(e.to_string()));
                continue;
            }
        };
        if !answered.insert(answer.id.clone()) {
            report.errors.push(error(format!(
                "a second answer for `{}`; only the first counts",
                answer.id
            )));
            continue;
        }
        lines.push(i);
        job_cards.push(card.clone());
        job_actions.push(actions);
    }
    report.unanswered = cards.len() - answered.len();

    let results = score_cards(registry, &job_cards, &job_actions, shaping);
    for (line, result) in lines.into_iter().zip(results) {
        match result {
            Ok(scored) => report.scored.push(scored),
            Err(e) => report.errors.push(LineError {
                file: "answers",
                line,
                message: e.to_string(),
            }),
        }
    }
    report
        .errors
        .sort_by(|a, b| (a.file, a.line).cmp(&(b.file, b.line)));
    report
}

/// One answer to score in memory (the HTTP server's `/v1/score`): the task
/// card (or a chat row with the card under `card`) and exactly one of
/// `answer` and `response`, as in an answers-file line.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ScoreItem {
    #[serde(alias = "task")]
    pub card: serde_json::Value,
    #[serde(default)]
    pub answer: Option<serde_json::Value>,
    #[serde(default)]
    pub response: Option<serde_json::Value>,
}

/// Scores a batch in parallel: one result per item, in order; an unusable
/// item gets its own error and the rest are still scored. Parses the items,
/// then [`score_cards`].
pub fn score_items(
    registry: &Registry,
    items: &[ScoreItem],
    shaping: &Shaping,
) -> Vec<Result<ScoredAnswer, ScoreError>> {
    let (mut cards, mut actions) = (Vec::new(), Vec::new());
    let usable: Vec<Result<(), ScoreError>> = items
        .iter()
        .map(|item| {
            // Read from the item in place: a batch's cards are never copied.
            let card = item.card.get("card").unwrap_or(&item.card);
            let card = TaskCard::deserialize(card).map_err(ScoreError::NotACard)?;
            actions.push(item_actions(item.answer.as_ref(), item.response.as_ref())?);
            cards.push(card);
            Ok(())
        })
        .collect();
    let mut scored = score_cards(registry, &cards, &actions, shaping).into_iter();
    usable
        .into_iter()
        .map(|usable| {
            usable?;
            Ok(scored.next().expect("one result per card")?)
        })
        .collect()
}

fn score_one(
    mut env: Box<dyn DynEnv>,
    card: &TaskCard,
    actions: &[String],
    shaping: &Shaping,
    rules: Rules,
) -> Result<ScoredAnswer, EnvError> {
    if env.spec().players != 1 {
        return Err(EnvError::bad_card(
            &card.id,
            &card.env_id,
            CardProblem::Multiplayer {
                players: env.spec().players,
            },
        ));
    }
    env.reset(card)?;
    // The episode rules, as in live play: a refused action may be retried
    // `max_retries` times on one turn, one more forfeits, the turn cap
    // truncates; actions left over after the end are ignored.
    let mut session = Session::start(&*env, rules);
    let (mut used, mut last_events) = (Vec::new(), Vec::new());
    for action in actions {
        if session.over() {
            break;
        }
        if let Attempt::Accepted(transition) = session.attempt(&mut *env, 0, action.as_str())? {
            last_events = transition.events;
        }
        used.push(action.clone());
    }
    let invalid = session.invalid_actions()[0];
    let scores = session.scores(&*env);
    let judged = scores[0].has_verdict();
    let score = shaping.apply(&scores[0], &used, invalid);
    Ok(ScoredAnswer {
        id: card.id.clone(),
        reward: judged.then_some(score.reward),
        passed: score.passed,
        breakdown: score.breakdown,
        no_verdict: (!judged).then(|| match last_events.last() {
            Some(note) => note.clone(),
            None => "the env could not judge the answer".to_string(),
        }),
        scored_by: (card.env_id != env.spec().id).then(|| env.spec().id.to_string()),
    })
}

fn nonblank_lines(text: &str) -> impl Iterator<Item = (usize, &str)> {
    text.lines()
        .enumerate()
        .map(|(i, l)| (i + 1, l.trim()))
        .filter(|(_, l)| !l.is_empty())
}

/// Scores `answers[i]` (its actions in order) against `cards[i]`, in
/// parallel, keeping order, under the default episode rules: the one
/// scoring loop behind [`score_answers`], [`score_items`], the trainer
/// labels ([`crate::labels`]) and the Python package.
///
/// # Panics
/// When `cards` and `answers` differ in length.
pub fn score_cards(
    registry: &Registry,
    cards: &[TaskCard],
    answers: &[Vec<String>],
    shaping: &Shaping,
) -> Vec<Result<ScoredAnswer, EnvError>> {
    score_cards_under(registry, cards, answers, shaping, Rules::default())
}

/// [`score_cards`] under the given episode rules.
///
/// # Panics
/// When `cards` and `answers` differ in length.
pub fn score_cards_under(
    registry: &Registry,
    cards: &[TaskCard],
    answers: &[Vec<String>],
    shaping: &Shaping,
    rules: Rules,
) -> Vec<Result<ScoredAnswer, EnvError>> {
    assert_eq!(cards.len(), answers.len(), "one answer per card");
    // One env per (env id, config hash), or why it could not be made.
    type EnvsByConfig<'a> = HashMap<(&'a str, &'a str), Result<Box<dyn DynEnv>, EnvError>>;
    let mut envs = EnvsByConfig::new();
    for card in cards {
        envs.entry((card.env_id.as_str(), card.config_hash.as_str()))
            .or_insert_with(|| registry.make_for_card(card));
    }
    cards
        .par_iter()
        .zip(answers.par_iter())
        .map(|(card, actions)| {
            match &envs[&(card.env_id.as_str(), card.config_hash.as_str())] {
                Ok(env) => score_one(env.clone_box(), card, actions, shaping, rules),
                // Made once per (env, config); each card still reports it.
                Err(error) => Err(EnvError::bad_card(
                    &card.id,
                    &card.env_id,
                    CardProblem::EnvUnavailable(Box::new(error.clone())),
                )),
            }
        })
        .collect()
}

#[cfg(test)]
#[path = "score_tests.rs"]
mod tests;
