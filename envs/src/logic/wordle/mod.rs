//! `logic/wordle-v2`: find a hidden made-up word from green/yellow/grey
//! letter feedback within a guess budget.
//!
//! # Task
//! A list of `words` distinct made-up words of `length` letters, shown in
//! full, one of them secret, and a budget of `max_guesses`. The words are
//! pronounceable consonant-vowel strings (`BAKOM`: consonant first, then
//! alternating) over `consonants` consonants and `vowels` vowels chosen per
//! task, so letters repeat often. No real-world word list is used.
//!
//! Blind play: guessing listed words in a fixed order without reading the
//! marks wins with chance at most `max_guesses / (words - 1)` (the secret is
//! never the first word). Every level lists at least 20 times as many words
//! as it gives guesses, so blind play wins under 5.1% at every level; a game
//! over a shown list cannot reach 1% with lists a prompt can hold, so the
//! audit's bar for blind sequences here is 10% (`testing::blind`).
//!
//! # Action
//! One guess per turn: a word from the list, e.g. `BAKO`, `b a k o`,
//! `Guess: BAKO` or `\boxed{BAKO}` (case-insensitive). A reply holding
//! several words, other characters, or a word not in the list is an
//! invalid action: it is refused with the reason and costs no guess (the
//! driver decides on retries).
//! Each turn is read out of the whole reply by `crate::reply`: reasoning is
//! dropped, then the reply as it is, the text after an `Action:`, `Move:` or
//! `Command:` marker, a fenced block, or the last line; two different
//! actions in one turn are refused as a hedge.
//!
//! # Observation
//! The rules, the budget, the word list, and every earlier guess with its
//! marks, one per letter: `G` (green) right letter in the right place, `Y`
//! (yellow) the letter is in the secret elsewhere, `-` (grey) not in the
//! secret. A letter guessed more often than the secret holds it is marked
//! `Y` only as often as the secret holds it beyond its `G` matches, leftmost
//! first, and `-` after that. Structured: the same, plus the guesses left;
//! the legal actions are the words while the game runs.
//!
//! # Reward
//! 1 and `passed` when the secret is guessed within the budget, else 0.
//! Breakdown: `correct`, `guesses_used`, `greens` (the most green letters
//! any guess got, as a share of `length`: partial credit only here).
//!
//! # Episode end
//! On the right guess, or when the budget is spent.
//!
//! # Parameters
//! `length` (3..=8), `words` (3..=400), `consonants` (2..=14), `vowels`
//! (2..=5), `max_guesses` (1..=20); the possible words must number at least
//! twice `words`.
//!
//! # Seeding
//! The letters, the words and the secret come from the task rng. The secret
//! is never the first listed word (the prompt's format example) nor a
//! degenerate answer such as `NONE`. The reference player guesses, among the
//! words consistent with all marks so far, the one that splits them into
//! the most mark patterns (then the smallest sum of squared pattern sizes,
//! then list order). The presets' budgets cover its worst case over the
//! tested seeds; as a safety net, a task it would not win within the budget
//! is redrawn (at most 100 times: custom configs with tiny budgets may keep
//! one it loses).
//!
//! # Version history
//! v1: first version.
//! v2: lists of 120 to 400 words with 6 guesses (v1 gave 7 guesses for 12
//! words at `easy`: guessing the first 7 listed words without reading any
//! marks won 54%; 10.7% at `medium`, 5.7% at `hard`).

use std::collections::BTreeSet;

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use verigym_verifiers::answer::final_answer;

use crate::answers::{Role, degenerate_answers};
use crate::core::{
    Env, EnvKind, EnvSpec, InvalidAction, Observation, Player, Preset, Score, Superseded, Turn,
};
use crate::error::ConfigError;
use crate::rng::Rng;

const CONSONANTS: &[u8] = b"BDFGKLMNPRSTVZ";
const VOWELS: &[u8] = b"AEIOU";
const MAX_LENGTH: usize = 8;
/// Redraws when the reference player would lose a drawn task.
const MAX_REDRAWS: usize = 100;

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct WordleConfig {
    pub length: usize,
    pub words: usize,
    pub consonants: usize,
    pub vowels: usize,
    pub max_guesses: usize,
}

impl Default for WordleConfig {
    fn default() -> Self {
        WordleConfig {
            length: 5,
            words: 200,
            consonants: 5,
            vowels: 3,
            max_guesses: 6,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct WordleTask {
    pub length: usize,
    pub max_guesses: usize,
    /// The allowed words, sorted, uppercase.
    pub words: Vec<String>,
    pub secret: String,
}

/// Marks of one guess: 0 grey, 1 yellow, 2 green (first `length` used).
type Marks = [u8; MAX_LENGTH];

/// The marks of `guess` against `secret` (same length, uppercase ASCII).
pub fn marks(secret: &[u8], guess: &[u8]) -> Marks {
    let mut out = [0u8; MAX_LENGTH];
    let mut spare = [0u8; 26];
    for (i, (&s, &g)) in secret.iter().zip(guess).enumerate() {
        if s == g {
            out[i] = 2;
        } else {
            spare[(s - b'A') as usize] += 1;
        }
    }
    for (i, &g) in guess.iter().enumerate() {
        let slot = &mut spare[(g - b'A') as usize];
        if out[i] == 0 && *slot > 0 {
            *slot -= 1;
            out[i] = 1;
        }
    }
    out
}

/// Marks as text: `G`, `Y`, `-`.
fn marks_text(m: &Marks, length: usize) -> String {
    m[..length]
        .iter()
        .map(|&x| match x {
            2 => 'G',
            1 => 'Y',
            _ => '-',
        })
        .collect()
}

/// Marks as one number, base 3.
fn marks_code(m: &Marks, length: usize) -> u16 {
    m[..length].iter().fold(0u16, |acc, &x| acc * 3 + x as u16)
}

/// The words consistent with every (guess, marks) so far, in list order.
fn consistent<'a>(words: &'a [String], history: &[(String, Marks)]) -> Vec<&'a [u8]> {
    words
        .iter()
        .map(|w| w.as_bytes())
        .filter(|w| history.iter().all(|(g, m)| marks(w, g.as_bytes()) == *m))
        .collect()
}

/// The reference guess: the consistent word splitting the consistent words
/// into the most mark patterns, then the smallest sum of squared pattern
/// sizes, then the first in list order.
fn best_guess(candidates: &[&[u8]], length: usize) -> usize {
    let mut best = (0usize, usize::MAX, 0usize);
    let mut codes = Vec::with_capacity(candidates.len());
    for (i, guess) in candidates.iter().enumerate() {
        codes.clear();
        codes.extend(
            candidates
                .iter()
                .map(|s| marks_code(&marks(s, guess), length)),
        );
        codes.sort_unstable();
        let (mut parts, mut squares, mut run) = (0usize, 0usize, 0usize);
        for (j, code) in codes.iter().enumerate() {
            run += 1;
            if j + 1 == codes.len() || codes[j + 1] != *code {
                parts += 1;
                squares += run * run;
                run = 0;
            }
        }
        if parts > best.0 || (parts == best.0 && squares < best.1) {
            best = (parts, squares, i);
        }
    }
    best.2
}

/// Guesses the reference player needs for `task` (it always finds the
/// secret eventually: each wrong guess drops out of the consistent words).
fn reference_guesses(task: &WordleTask) -> usize {
    let mut history: Vec<(String, Marks)> = Vec::new();
    loop {
        let candidates = consistent(&task.words, &history);
        let guess = candidates[best_guess(&candidates, task.length)];
        let m = marks(task.secret.as_bytes(), guess);
        history.push((String::from_utf8_lossy(guess).into_owned(), m));
        if guess == task.secret.as_bytes() {
            return history.len();
        }
    }
}

/// One task straight from the rng, without the reference player's check.
fn draw(config: &WordleConfig, rng: &mut Rng) -> WordleTask {
    let pick = |pool: &[u8], n: usize, rng: &mut Rng| {
        let mut letters = pool.to_vec();
        rng.shuffle(&mut letters);
        letters.truncate(n);
        letters.sort_unstable();
        letters
    };
    let consonants = pick(CONSONANTS, config.consonants, rng);
    let vowels = pick(VOWELS, config.vowels, rng);
    let mut set = BTreeSet::new();
    while set.len() < config.words {
        let word: String = (0..config.length)
            .map(|i| {
                let pool = if i % 2 == 0 { &consonants } else { &vowels };
                pool[rng.below(pool.len() as u64) as usize] as char
            })
            .collect();
        set.insert(word);
    }
    let words: Vec<String> = set.into_iter().collect();
    let secret = loop {
        // Never the first word: the prompt shows it as the format example.
        let secret = &words[1 + rng.below(words.len() as u64 - 1) as usize];
        if !degenerate_answers(Role::Checker).any(|d| d.eq_ignore_ascii_case(secret)) {
            break secret.clone();
        }
    };
    WordleTask {
        length: config.length,
        max_guesses: config.max_guesses,
        words,
        secret,
    }
}

#[derive(Clone, Debug)]
pub struct Wordle {
    task: WordleTask,
    history: Vec<(String, Marks)>,
}

impl Wordle {
    fn solved(&self) -> bool {
        self.history
            .last()
            .is_some_and(|(g, _)| *g == self.task.secret)
    }

    fn guesses_left(&self) -> usize {
        self.task.max_guesses - self.history.len()
    }
}

impl Env for Wordle {
    type Config = WordleConfig;
    type Task = WordleTask;
    type Action = String;

    // v1's levels had shorter lists and more guesses; a task carries its own
    // list and budget.
    const SUPERSEDED: &'static [Superseded] = &[Superseded::as_is(1)];
    const SPEC: EnvSpec = EnvSpec {
        id: "logic/wordle-v2",
        kind: EnvKind::MultiTurn,
        description: "Find a hidden made-up word from a shown list by green/yellow/grey letter feedback within a guess budget",
        players: 1,
        max_steps: 20,
        reward_range: (0.0, 1.0),
        zero_sum: false,
        fixed_start: false,
        presets: &Preset::graded(Self::LEVELS, [0, 2, 3]),
    };

    // The reference player's worst case over 200 unguarded draws per level
    // (the test `the_reference_player_wins_every_level_within_its_budget`)
    // is within the budget of 6; the lists are 20 times the budget or more,
    // so blind play wins under 5.1% (see the header).
    const LEVELS: &'static [&'static str] = &[
        r#"{"length":4,"words":120,"consonants":6,"vowels":3,"max_guesses":6}"#,
        r#"{"length":4,"words":150,"consonants":6,"vowels":3,"max_guesses":6}"#,
        "{}",
        r#"{"length":5,"words":300,"max_guesses":6}"#,
        r#"{"length":6,"words":400,"max_guesses":6}"#,
    ];

    fn effort(task: &WordleTask) -> Option<f64> {
        // Letters of the list the player must reason over.
        Some((task.words.len() * task.length) as f64)
    }

    fn validate(config: &WordleConfig) -> Result<(), ConfigError> {
        if !(3..=MAX_LENGTH).contains(&config.length)
            || !(3..=400).contains(&config.words)
            || !(2..=CONSONANTS.len()).contains(&config.consonants)
            || !(2..=VOWELS.len()).contains(&config.vowels)
            || !(1..=20).contains(&config.max_guesses)
        {
            return Err(
                "need length 3..=8, words 3..=400, consonants 2..=14, vowels 2..=5, max_guesses 1..=20"
                    .into(),
            );
        }
        let space = (config.consonants as u64).pow(config.length.div_ceil(2) as u32)
            * (config.vowels as u64).pow((config.length / 2) as u32);
        if space < 2 * config.words as u64 {
            return Err(format!(
                "only {space} possible words: need at least twice `words` ({}); add letters or length",
                config.words
            ).into());
        }
        Ok(())
    }

    fn generate(config: &WordleConfig, rng: &mut Rng) -> WordleTask {
        let mut task = draw(config, rng);
        for _ in 0..MAX_REDRAWS {
            if reference_guesses(&task) <= task.max_guesses {
                break;
            }
            task = draw(config, rng);
        }
        task
    }

    fn reference(task: &WordleTask) -> Option<Value> {
        Some(json!(task.secret))
    }

    fn reset(task: &WordleTask, _rng: Rng) -> Self {
        Wordle {
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
        let t = &self.task;
        let mut text = format!(
            "Wordle: I have picked a secret word from the list below of {} made-up words of {} letters. \
             Find it in at most {} guesses. Each guess must be a word from the list: reply with that one \
             word, like \\boxed{{{}}}; other replies are refused and cost no guess. After each guess I mark \
             its letters in order: G = right letter in the right place, Y = the letter is in the secret \
             elsewhere, - = not in the secret. A letter guessed more often than the secret holds it is \
             marked Y only as often as the secret holds it beyond its G matches (leftmost first), and - \
             after that.\nWords: {}\n",
            t.words.len(),
            t.length,
            t.max_guesses,
            t.words[0],
            t.words.join(" ")
        );
        for (i, (guess, m)) in self.history.iter().enumerate() {
            text.push_str(&format!(
                "Guess {}: {guess} -> {}\n",
                i + 1,
                marks_text(m, t.length)
            ));
        }
        if self.solved() {
            text.push_str("Solved.\n");
        } else {
            text.push_str(&format!("Guesses left: {}\n", self.guesses_left()));
        }
        let over = self.turn() == Turn::Over;
        Observation {
            text,
            structured: json!({
                "length": t.length, "words": t.words, "max_guesses": t.max_guesses,
                "guesses_left": self.guesses_left(),
                "history": self.history.iter().map(|(g, m)| json!([g, marks_text(m, t.length)])).collect::<Vec<_>>(),
            }),
            legal_actions: Some(if over { Vec::new() } else { t.words.clone() }),
        }
    }

    fn parse_action(&self, _player: Player, text: &str) -> Result<String, InvalidAction> {
        let answer = final_answer(text).map_err(|e| InvalidAction::new(e.to_string()))?;
        let body = match answer.get(..5) {
            Some(head) if head.eq_ignore_ascii_case("guess") => {
                answer[5..].trim_start_matches([':', ' '])
            }
            _ => answer.as_str(),
        };
        let tokens: Vec<&str> = body
            .split(|c: char| c.is_whitespace() || ",|-".contains(c))
            .filter(|t| !t.is_empty())
            .collect();
        let word = if tokens.len() > 1 && tokens.iter().all(|t| t.chars().count() == 1) {
            tokens.concat() // spelled out letter by letter
        } else if let [one] = tokens.as_slice() {
            one.to_string()
        } else {
            return Err(InvalidAction::new(format!(
                "reply with exactly one word from the list, e.g. {}",
                self.task.words[0]
            )));
        };
        if let Some(c) = word.chars().find(|c| !c.is_ascii_alphabetic()) {
            return Err(InvalidAction::new(format!(
                "`{c}` is not a letter: reply with one word from the list"
            )));
        }
        let word = word.to_ascii_uppercase();
        if word.len() != self.task.length {
            return Err(InvalidAction::new(format!(
                "`{word}` has {} letters; the words have {}",
                word.len(),
                self.task.length
            )));
        }
        if self.task.words.binary_search(&word).is_err() {
            return Err(InvalidAction::new(format!(
                "`{word}` is not in the word list (no guess spent)"
            )));
        }
        Ok(word)
    }

    fn apply(&mut self, _player: Player, guess: String) -> Result<Vec<String>, InvalidAction> {
        let m = marks(self.task.secret.as_bytes(), guess.as_bytes());
        let note = format!("{guess}: {}", marks_text(&m, self.task.length));
        self.history.push((guess, m));
        Ok(vec![note])
    }

    fn score(&self, _player: Player) -> Score {
        let greens = self
            .history
            .iter()
            .map(|(_, m)| m.iter().filter(|&&x| x == 2).count())
            .max()
            .unwrap_or(0);
        Score::binary(self.solved())
            .part("guesses_used", self.history.len() as f64)
            .part("greens", greens as f64 / self.task.length as f64)
    }

    fn oracle(&self, _player: Player) -> Option<String> {
        let candidates = consistent(&self.task.words, &self.history);
        let guess = candidates.get(best_guess(&candidates, self.task.length))?;
        Some(String::from_utf8_lossy(guess).into_owned())
    }

    fn random_action(&self, _player: Player, rng: &mut Rng) -> String {
        let words = &self.task.words;
        words[rng.below(words.len() as u64) as usize].clone()
    }

    fn render(&self) -> String {
        let guesses: Vec<String> = self
            .history
            .iter()
            .map(|(g, m)| format!("{g}:{}", marks_text(m, self.task.length)))
            .collect();
        format!(
            "secret={} words={} left={} [{}]",
            self.task.secret,
            self.task.words.len(),
            self.guesses_left(),
            guesses.join(" ")
        )
    }
}

#[cfg(test)]
mod tests;
