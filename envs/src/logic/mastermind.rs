//! `logic/mastermind-v2`: find a hidden colour code from black/white-peg
//! feedback within a guess budget.
//!
//! # Task
//! A secret code of `pegs` colours (letters `A`, `B`, …, `colors` of them,
//! repeats allowed) and a budget of `max_guesses`.
//!
//! # Action
//! One guess per turn: `pegs` colour letters, e.g. `ABCA`, `A B C A` or
//! `\boxed{ABCA}` (an optional `guess:` prefix is allowed). Anything else
//! is an invalid action (the driver decides on retries).
//! Each turn is read out of the whole reply by `crate::reply`: reasoning is
//! dropped, then the reply as it is, the text after an `Action:`, `Move:` or
//! `Command:` marker, a fenced block, or the last line; two different
//! actions in one turn are refused as a hedge.
//!
//! # Observation
//! The rules, the budget, and every earlier guess with its feedback:
//! black = right colour in the right place, white = right colour in another
//! place. Structured: the same, plus the guesses left.
//!
//! # Reward
//! 1 and `passed` when the code is guessed within the budget, else 0.
//! Breakdown: `correct`, `guesses_used`.
//!
//! # Episode end
//! On the right guess, or when the budget is spent.
//!
//! # Parameters
//! `pegs` (2..=6), `colors` (2..=8), `max_guesses` (1..=20).
//!
//! # Seeding
//! The secret is uniform over all codes. The reference player guesses the
//! first code (in alphabetical order) that agrees with all feedback so far;
//! the presets' budgets cover its worst case.
//!
//! # Version history
//! v1: first version.
//! v2: the `easy` preset has 6 colours, not 4: among 4^3 = 64 codes a
//! constant first guess won 1.6% of games, above the audit's 1% bar
//! (`verigym audit` flagged it at 5/200); 6^3 = 216 codes make it 0.5%.

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use verigym_verifiers::answer::final_answer;

use crate::core::{
    Env, EnvKind, EnvSpec, InvalidAction, Observation, Player, Preset, Score, Superseded, Turn,
};
use crate::error::ConfigError;
use crate::rng::Rng;

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct MastermindConfig {
    pub pegs: usize,
    pub colors: usize,
    pub max_guesses: usize,
}

impl Default for MastermindConfig {
    fn default() -> Self {
        MastermindConfig {
            pegs: 4,
            colors: 6,
            max_guesses: 10,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MastermindTask {
    pub pegs: usize,
    pub colors: usize,
    pub max_guesses: usize,
    /// Colour indices `0..colors`.
    pub secret: Vec<u8>,
}

#[derive(Clone, Debug)]
pub struct Mastermind {
    task: MastermindTask,
    /// Each guess with its (black, white) feedback.
    history: Vec<(Vec<u8>, (usize, usize))>,
}

/// Black and white peg counts of `guess` against `secret`.
pub fn feedback(secret: &[u8], guess: &[u8]) -> (usize, usize) {
    let black = secret.iter().zip(guess).filter(|(a, b)| a == b).count();
    let mut counts = [0i32; 16];
    for &s in secret {
        counts[s as usize] += 1;
    }
    let mut common = 0;
    for &g in guess {
        if counts[g as usize] > 0 {
            counts[g as usize] -= 1;
            common += 1;
        }
    }
    (black, common - black)
}

fn code_text(code: &[u8]) -> String {
    code.iter().map(|&c| (b'A' + c) as char).collect()
}

impl Mastermind {
    fn solved(&self) -> bool {
        self.history
            .last()
            .is_some_and(|(_, (black, _))| *black == self.task.pegs)
    }

    /// The first code, in alphabetical order, consistent with all feedback.
    fn first_consistent(&self) -> Vec<u8> {
        let (pegs, colors) = (self.task.pegs, self.task.colors);
        let mut code = vec![0u8; pegs];
        loop {
            if self.history.iter().all(|(g, f)| feedback(&code, g) == *f) {
                return code;
            }
            // Next code in order (the last peg varies fastest).
            let mut i = pegs;
            loop {
                if i == 0 {
                    return self.task.secret.clone(); // unreachable: the secret is consistent
                }
                i -= 1;
                code[i] += 1;
                if (code[i] as usize) < colors {
                    break;
                }
                code[i] = 0;
            }
        }
    }
}

impl Env for Mastermind {
    type Config = MastermindConfig;
    type Task = MastermindTask;
    type Action = Vec<u8>;

    // v1's `easy` had 4 colours; a task carries its own colours and code.
    const SUPERSEDED: &'static [Superseded] = &[Superseded::as_is(1)];
    const SPEC: EnvSpec = EnvSpec {
        id: "logic/mastermind-v2",
        kind: EnvKind::MultiTurn,
        description: "Find a hidden colour code from black/white-peg feedback within a guess budget",
        players: 1,
        max_steps: 20,
        reward_range: (0.0, 1.0),
        zero_sum: false,
        fixed_start: false,
        presets: &[
            Preset {
                name: "easy",
                overrides: r#"{"pegs":3,"colors":6,"max_guesses":8}"#,
            },
            Preset {
                name: "medium",
                overrides: "{}",
            },
            Preset {
                name: "hard",
                overrides: r#"{"pegs":5,"colors":8,"max_guesses":12}"#,
            },
        ],
    };

    fn validate(config: &MastermindConfig) -> Result<(), ConfigError> {
        if !(2..=6).contains(&config.pegs)
            || !(2..=8).contains(&config.colors)
            || !(1..=20).contains(&config.max_guesses)
        {
            return Err("need pegs 2..=6, colors 2..=8, max_guesses 1..=20".into());
        }
        Ok(())
    }

    fn generate(config: &MastermindConfig, rng: &mut Rng) -> MastermindTask {
        MastermindTask {
            pegs: config.pegs,
            colors: config.colors,
            max_guesses: config.max_guesses,
            secret: (0..config.pegs)
                .map(|_| rng.below(config.colors as u64) as u8)
                .collect(),
        }
    }

    fn reference(task: &MastermindTask) -> Option<Value> {
        Some(json!(code_text(&task.secret)))
    }

    fn reset(task: &MastermindTask, _rng: Rng) -> Self {
        Mastermind {
            task: task.clone(),
            history: Vec::new(),
        }
    }

    fn turn(&self) -> Turn {
        if self.solved() || self.history.len() >= self.task.max_guesses {
            Turn::Over
        } else {
            Turn::Player(0)
        }
    }

    fn observe(&self, _player: Player) -> Observation {
        let letters: String = (0..self.task.colors)
            .map(|c| (b'A' + c as u8) as char)
            .collect();
        let mut text = format!(
            "Mastermind: I have a secret code of {} colours, each one of {} (repeats allowed). Guess it: reply \
             with {} letters, like {}. After each guess I say how many pegs are the right colour in the right \
             place (black) and how many more are a right colour in the wrong place (white). You have {} guesses.\n",
            self.task.pegs,
            letters
                .chars()
                .map(String::from)
                .collect::<Vec<_>>()
                .join(", "),
            self.task.pegs,
            letters
                .chars()
                .cycle()
                .take(self.task.pegs)
                .collect::<String>(),
            self.task.max_guesses
        );
        for (i, (guess, (black, white))) in self.history.iter().enumerate() {
            text.push_str(&format!(
                "Guess {}: {} -> {black} black, {white} white\n",
                i + 1,
                code_text(guess)
            ));
        }
        if self.solved() {
            text.push_str("Solved.\n");
        } else {
            text.push_str(&format!(
                "Guesses left: {}\n",
                self.task.max_guesses - self.history.len()
            ));
        }
        Observation {
            text,
            structured: json!({
                "pegs": self.task.pegs, "colors": self.task.colors,
                "guesses_left": self.task.max_guesses - self.history.len(),
                "history": self.history.iter().map(|(g, (b, w))| json!([code_text(g), b, w])).collect::<Vec<_>>(),
            }),
            legal_actions: None,
        }
    }

    fn parse_action(&self, _player: Player, text: &str) -> Result<Vec<u8>, InvalidAction> {
        let answer = final_answer(text).map_err(|e| InvalidAction::new(e.to_string()))?;
        let lower = answer.to_ascii_lowercase();
        let body = lower
            .strip_prefix("guess")
            .map(|r| r.trim_start_matches([':', ' ']))
            .unwrap_or(&lower);
        let mut code = Vec::with_capacity(self.task.pegs);
        for ch in body.chars() {
            match ch {
                'a'..='h' if ((ch as u8 - b'a') as usize) < self.task.colors => {
                    code.push(ch as u8 - b'a')
                }
                c if c.is_whitespace() || ",-|".contains(c) => {}
                c => {
                    return Err(InvalidAction::new(format!(
                        "`{c}` is not one of the colour letters"
                    )));
                }
            }
        }
        if code.len() != self.task.pegs {
            return Err(InvalidAction::new(format!(
                "a guess is exactly {} colour letters",
                self.task.pegs
            )));
        }
        Ok(code)
    }

    fn apply(&mut self, _player: Player, guess: Vec<u8>) -> Result<Vec<String>, InvalidAction> {
        let result = feedback(&self.task.secret, &guess);
        let note = format!(
            "{}: {} black, {} white",
            code_text(&guess),
            result.0,
            result.1
        );
        self.history.push((guess, result));
        Ok(vec![note])
    }

    fn score(&self, _player: Player) -> Score {
        Score::binary(self.solved()).part("guesses_used", self.history.len() as f64)
    }

    fn oracle(&self, _player: Player) -> Option<String> {
        Some(code_text(&self.first_consistent()))
    }

    fn random_action(&self, _player: Player, rng: &mut Rng) -> String {
        (0..self.task.pegs)
            .map(|_| (b'A' + rng.below(self.task.colors as u64) as u8) as char)
            .collect()
    }

    fn render(&self) -> String {
        let guesses: Vec<String> = self
            .history
            .iter()
            .map(|(g, (b, w))| format!("{}:{b}b{w}w", code_text(g)))
            .collect();
        format!(
            "secret={} [{}]",
            code_text(&self.task.secret),
            guesses.join(" ")
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn play(env: &mut Mastermind, text: &str) -> Result<(), InvalidAction> {
        let guess = env.parse_action(0, text)?;
        env.apply(0, guess).map(|_| ())
    }

    #[test]
    fn feedback_counts_pegs_correctly() {
        assert_eq!(feedback(&[0, 1, 2, 3], &[0, 1, 2, 3]), (4, 0));
        assert_eq!(feedback(&[0, 1, 2, 3], &[3, 2, 1, 0]), (0, 4));
        assert_eq!(feedback(&[0, 0, 1, 1], &[0, 1, 0, 2]), (1, 2));
        assert_eq!(feedback(&[0, 0, 0, 1], &[1, 1, 1, 1]), (1, 0));
        assert_eq!(feedback(&[2, 2, 2, 2], &[0, 1, 3, 4]), (0, 0));
    }

    #[test]
    fn the_reference_player_always_wins_within_every_preset_budget() {
        // Exhaustive over all secrets for the small presets.
        for config in [
            MastermindConfig {
                pegs: 3,
                colors: 6,
                max_guesses: 8,
            },
            MastermindConfig::default(),
        ] {
            let total = config.colors.pow(config.pegs as u32);
            let mut worst = 0;
            for index in 0..total {
                let secret: Vec<u8> = (0..config.pegs)
                    .map(|p| ((index / config.colors.pow(p as u32)) % config.colors) as u8)
                    .collect();
                let task = MastermindTask {
                    pegs: config.pegs,
                    colors: config.colors,
                    max_guesses: config.max_guesses,
                    secret,
                };
                let mut env = Mastermind::reset(&task, Rng::from_seed(0));
                while env.turn() != Turn::Over {
                    let guess = env.oracle(0).unwrap();
                    play(&mut env, &guess).unwrap();
                }
                assert!(env.score(0).passed, "{}", env.render());
                worst = worst.max(env.history.len());
            }
            assert!(worst <= config.max_guesses, "worst case {worst}");
        }
    }

    #[test]
    fn the_hard_budget_covers_sampled_secrets() {
        let config = MastermindConfig {
            pegs: 5,
            colors: 8,
            max_guesses: 12,
        };
        let mut rng = Rng::from_seed(3);
        for _ in 0..40 {
            let task = Mastermind::generate(&config, &mut rng);
            let mut env = Mastermind::reset(&task, Rng::from_seed(0));
            while env.turn() != Turn::Over {
                let guess = env.oracle(0).unwrap();
                play(&mut env, &guess).unwrap();
            }
            assert!(env.score(0).passed, "{}", env.render());
        }
    }

    #[test]
    fn guesses_are_read_leniently_and_checked_strictly() {
        let task = MastermindTask {
            pegs: 4,
            colors: 6,
            max_guesses: 10,
            secret: vec![0, 1, 2, 3],
        };
        let mut env = Mastermind::reset(&task, Rng::from_seed(0));
        for bad in [
            "",
            "ABC",
            "ABCDE",
            "ABCG",
            "A B C 1",
            "\\boxed{AB} \\boxed{CD}",
            "maybe ABCD",
            "0",
        ] {
            assert!(env.parse_action(0, bad).is_err(), "{bad:?}");
        }
        play(&mut env, "Guess: F E D C").unwrap();
        play(&mut env, "\\boxed{a,a,b,b}").unwrap();
        assert!(env.observe(0).text.ends_with("Guess 1: FEDC -> 0 black, 2 white\nGuess 2: AABB -> 1 black, 1 white\nGuesses left: 8\n"));
        play(&mut env, "ABCD").unwrap();
        assert_eq!(env.turn(), Turn::Over);
        assert!(env.score(0).passed);
        assert_eq!(env.score(0).breakdown["guesses_used"], 3.0);
    }

    #[test]
    fn a_repeated_wrong_guess_spends_the_budget_and_fails() {
        let task = MastermindTask {
            pegs: 4,
            colors: 6,
            max_guesses: 10,
            secret: vec![0, 1, 2, 3],
        };
        let mut env = Mastermind::reset(&task, Rng::from_seed(0));
        while env.turn() != Turn::Over {
            play(&mut env, "AAAA").unwrap();
        }
        assert!(!env.score(0).passed);
        assert_eq!(env.history.len(), 10);
    }
}
