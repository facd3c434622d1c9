//! `logic/guess-number-v2`: find a secret integer from higher/lower feedback.
//!
//! # Task
//! A secret integer in `low..=high` and a guess budget of
//! `floor(log2(high - low + 1)) + 1 + extra_guesses`: exactly enough for
//! binary search when `extra_guesses` is 0.
//!
//! Blind play: a fixed sequence of guesses that ignores the feedback wins
//! with chance at most `max_guesses / (high - low + 1)`. Every preset's range
//! holds over 100 times its budget (13/2000 at `easy`, 11/2000 at `medium`,
//! 21/2000001 at `hard`), so blind play wins under 1% at every preset.
//!
//! # Action
//! A text holding exactly one integer in range (`42`, `Guess: 42`,
//! `\boxed{42}`). Anything else is an invalid action (the driver decides on
//! retries); an out-of-range guess too.
//! Each turn is read out of the whole reply by `crate::reply`: reasoning is
//! dropped, then the reply as it is, the text after an `Action:`, `Move:` or
//! `Command:` marker, a fenced block, or the last line; two different
//! actions in one turn are refused as a hedge.
//!
//! # Observation
//! The range, the guesses left, and every earlier guess with its feedback
//! (`higher`, `lower`). Structured: the same, plus the tightest known bounds.
//!
//! # Reward
//! 1 and `passed` when the secret is guessed within the budget, else 0.
//! Breakdown: `correct`, `guesses_used`.
//!
//! # Episode end
//! On the correct guess (terminated) or when the budget is spent
//! (terminated, failed).
//!
//! # Parameters
//! `low`, `high` (range size 2..=2^40), `extra_guesses` (0..=8).
//!
//! # Seeding
//! The secret is uniform in the range.
//!
//! # Version history
//! v1: first version.
//! v2: `easy` and the default (`medium`) draw from 1..=2000 (v1: 1..=100
//! with 9 guesses at `easy`, where guessing the prompt's own numbers in
//! order without reading the feedback won 4%; 1..=1000 at `medium`).

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use crate::core::{
    Env, EnvKind, EnvSpec, InvalidAction, Observation, Player, Preset, Score, Superseded, Turn,
};
use crate::error::ConfigError;
use crate::rng::Rng;

const MAX_RANGE: i64 = 1 << 40;
const MAX_EXTRA: u32 = 8;

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct GuessNumberConfig {
    pub low: i64,
    pub high: i64,
    pub extra_guesses: u32,
}

impl Default for GuessNumberConfig {
    fn default() -> Self {
        GuessNumberConfig {
            low: 1,
            high: 2000,
            extra_guesses: 0,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GuessNumberTask {
    pub low: i64,
    pub high: i64,
    pub secret: i64,
    pub max_guesses: u32,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Feedback {
    Higher,
    Lower,
    Correct,
}

impl Feedback {
    fn word(self) -> &'static str {
        match self {
            Feedback::Higher => "higher",
            Feedback::Lower => "lower",
            Feedback::Correct => "correct",
        }
    }
}

#[derive(Clone, Debug)]
pub struct GuessNumber {
    task: GuessNumberTask,
    history: Vec<(i64, Feedback)>,
}

impl GuessNumber {
    fn solved(&self) -> bool {
        self.history
            .last()
            .is_some_and(|(_, f)| *f == Feedback::Correct)
    }

    fn guesses_left(&self) -> u32 {
        self.task.max_guesses - self.history.len() as u32
    }

    /// The tightest bounds the feedback so far proves.
    fn known_bounds(&self) -> (i64, i64) {
        self.history.iter().fold(
            (self.task.low, self.task.high),
            |(lo, hi), &(g, f)| match f {
                Feedback::Higher => (lo.max(g + 1), hi),
                Feedback::Lower => (lo, hi.min(g - 1)),
                Feedback::Correct => (g, g),
            },
        )
    }
}

/// Binary search needs `floor(log2(n)) + 1` guesses for a range of n.
fn binary_search_guesses(range: i64) -> u32 {
    64 - (range as u64).leading_zeros()
}

impl Env for GuessNumber {
    type Config = GuessNumberConfig;
    type Task = GuessNumberTask;
    type Action = i64;

    // v1 drew from other ranges by default and at `easy`; a task carries its
    // own range and budget, so v1's read as v2's.
    const SUPERSEDED: &'static [Superseded] = &[Superseded::as_is(1)];
    const SPEC: EnvSpec = EnvSpec {
        id: "logic/guess-number-v2",
        kind: EnvKind::MultiTurn,
        description: "Find a secret integer from higher/lower feedback within a binary-search budget",
        players: 1,
        max_steps: 64,
        reward_range: (0.0, 1.0),
        zero_sum: false,
        fixed_start: false,
        presets: &[
            Preset {
                name: "easy",
                overrides: r#"{"low":1,"high":2000,"extra_guesses":2}"#,
            },
            Preset {
                name: "medium",
                overrides: "{}",
            },
            Preset {
                name: "hard",
                overrides: r#"{"low":-1000000,"high":1000000,"extra_guesses":0}"#,
            },
        ],
    };

    fn validate(config: &GuessNumberConfig) -> Result<(), ConfigError> {
        let range = config
            .high
            .checked_sub(config.low)
            .map(|d| d + 1)
            .unwrap_or(i64::MAX);
        if !(2..=MAX_RANGE).contains(&range) {
            return Err(format!(
                "need low < high with at most 2^40 numbers in low..=high (got {}..={})",
                config.low, config.high
            )
            .into());
        }
        if config.extra_guesses > MAX_EXTRA {
            return Err(format!("extra_guesses must be at most {MAX_EXTRA}").into());
        }
        Ok(())
    }

    fn generate(config: &GuessNumberConfig, rng: &mut Rng) -> GuessNumberTask {
        let range = config.high - config.low + 1;
        GuessNumberTask {
            low: config.low,
            high: config.high,
            secret: rng.range_i64(config.low, config.high),
            max_guesses: binary_search_guesses(range) + config.extra_guesses,
        }
    }

    fn reference(task: &GuessNumberTask) -> Option<Value> {
        Some(json!(task.secret))
    }

    fn reset(task: &GuessNumberTask, _rng: Rng) -> Self {
        GuessNumber {
            task: task.clone(),
            history: Vec::new(),
        }
    }

    fn turn(&self) -> Turn {
        if self.solved() || self.guesses_left() == 0 {
            Turn::Over
        } else {
            Turn::Player(0)
        }
    }

    fn observe(&self, _player: Player) -> Observation {
        let mut text = format!(
            "I am thinking of an integer between {} and {} inclusive. Guess it: reply with one integer. \
             After each guess I say whether the secret is higher or lower. You have {} guesses.\n",
            self.task.low, self.task.high, self.task.max_guesses
        );
        for (i, (guess, feedback)) in self.history.iter().enumerate() {
            text.push_str(&format!(
                "Guess {}: {guess} -> {}\n",
                i + 1,
                feedback.word()
            ));
        }
        if self.solved() {
            text.push_str("Solved.\n");
        } else {
            text.push_str(&format!("Guesses left: {}\n", self.guesses_left()));
        }
        let (lo, hi) = self.known_bounds();
        Observation {
            text,
            structured: json!({
                "low": self.task.low, "high": self.task.high,
                "guesses_left": self.guesses_left(),
                "history": self.history.iter().map(|(g, f)| json!([g, f.word()])).collect::<Vec<_>>(),
                "known_bounds": [lo, hi],
            }),
            legal_actions: None,
        }
    }

    fn parse_action(&self, _player: Player, text: &str) -> Result<i64, InvalidAction> {
        let numbers = integers_in(text);
        let guess = match numbers.as_slice() {
            [one] => *one,
            [] => return Err(InvalidAction::new("reply with one integer, e.g. 500")),
            _ => {
                return Err(InvalidAction::new(
                    "reply with exactly one integer, not several",
                ));
            }
        };
        if guess < self.task.low || guess > self.task.high {
            return Err(InvalidAction::new(format!(
                "{guess} is outside {}..={}",
                self.task.low, self.task.high
            )));
        }
        Ok(guess)
    }

    fn apply(&mut self, _player: Player, guess: i64) -> Result<Vec<String>, InvalidAction> {
        let feedback = match guess.cmp(&self.task.secret) {
            std::cmp::Ordering::Less => Feedback::Higher,
            std::cmp::Ordering::Greater => Feedback::Lower,
            std::cmp::Ordering::Equal => Feedback::Correct,
        };
        self.history.push((guess, feedback));
        Ok(vec![format!("{guess}: {}", feedback.word())])
    }

    fn score(&self, _player: Player) -> Score {
        Score::binary(self.solved()).part("guesses_used", self.history.len() as f64)
    }

    fn oracle(&self, _player: Player) -> Option<String> {
        let (lo, hi) = self.known_bounds();
        Some((lo + (hi - lo) / 2).to_string())
    }

    fn random_action(&self, _player: Player, rng: &mut Rng) -> String {
        rng.range_i64(self.task.low, self.task.high).to_string()
    }

    fn render(&self) -> String {
        let guesses: Vec<String> = self
            .history
            .iter()
            .map(|(g, f)| format!("{g}{}", &f.word()[..1]))
            .collect();
        format!(
            "secret={} range={}..={} left={} [{}]",
            self.task.secret,
            self.task.low,
            self.task.high,
            self.guesses_left(),
            guesses.join(" ")
        )
    }
}

/// Every integer written in `text` (a `-` directly before digits is a sign).
fn integers_in(text: &str) -> Vec<i64> {
    let bytes = text.as_bytes();
    let mut found = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i].is_ascii_digit() {
            let start = if i > 0 && bytes[i - 1] == b'-' {
                i - 1
            } else {
                i
            };
            let mut end = i;
            while end < bytes.len() && bytes[end].is_ascii_digit() {
                end += 1;
            }
            // Over-long numerals are out of any range anyway.
            found.push(text[start..end].parse().unwrap_or(i64::MAX));
            i = end;
        } else {
            i += 1;
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    fn task(secret: i64) -> GuessNumberTask {
        GuessNumberTask {
            low: 1,
            high: 100,
            secret,
            max_guesses: 7,
        }
    }

    fn play(env: &mut GuessNumber, text: &str) -> Result<(), InvalidAction> {
        let guess = env.parse_action(0, text)?;
        env.apply(0, guess).map(|_| ())
    }

    #[test]
    fn budget_is_exactly_binary_search() {
        assert_eq!(binary_search_guesses(1000), 10);
        assert_eq!(binary_search_guesses(1024), 11);
        assert_eq!(binary_search_guesses(1023), 10);
        assert_eq!(binary_search_guesses(2), 2);
    }

    #[test]
    fn oracle_always_finds_the_secret_within_budget() {
        for secret in 1..=100 {
            let mut env = GuessNumber::reset(&task(secret), Rng::from_seed(0));
            while env.turn() != Turn::Over {
                let guess = env.oracle(0).unwrap();
                play(&mut env, &guess).unwrap();
            }
            assert!(env.score(0).passed, "secret {secret}: {}", env.render());
        }
    }

    #[test]
    fn feedback_and_observation_text_are_exact() {
        let mut env = GuessNumber::reset(&task(37), Rng::from_seed(0));
        play(&mut env, "Guess: 50").unwrap();
        play(&mut env, "\\boxed{25}").unwrap();
        assert_eq!(
            env.observe(0).text,
            "I am thinking of an integer between 1 and 100 inclusive. Guess it: reply with one integer. \
             After each guess I say whether the secret is higher or lower. You have 7 guesses.\n\
             Guess 1: 50 -> lower\nGuess 2: 25 -> higher\nGuesses left: 5\n"
        );
        assert_eq!(env.render(), "secret=37 range=1..=100 left=5 [50l 25h]");
        assert_eq!(env.observe(0).structured["known_bounds"], json!([26, 49]));
    }

    #[test]
    fn malformed_and_out_of_range_guesses_are_refused_without_cost() {
        let mut env = GuessNumber::reset(&task(37), Rng::from_seed(0));
        for bad in [
            "",
            "fifty",
            "40 or 41",
            "0",
            "101",
            "-5",
            "99999999999999999999999",
        ] {
            assert!(play(&mut env, bad).is_err(), "{bad:?} accepted");
        }
        assert_eq!(env.guesses_left(), 7);
    }

    #[test]
    fn a_constant_guess_fails_unless_it_is_the_secret() {
        let mut env = GuessNumber::reset(&task(37), Rng::from_seed(0));
        while env.turn() != Turn::Over {
            play(&mut env, "50").unwrap();
        }
        assert!(!env.score(0).passed);
        assert_eq!(env.score(0).breakdown["guesses_used"], 7.0);
    }
}
