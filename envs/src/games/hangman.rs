//! `games/hangman-v1`: Hangman: find a hidden English word letter by
//! letter before the misses run out. One player.
//!
//! # Task
//! A word drawn from the env's shipped list of common English words of 5
//! to 9 letters (`hangman_words.txt`, written for verigym and licensed with
//! it under MIT OR Apache-2.0), and a budget of `misses`. The player sees
//! only how many letters it has.
//!
//! # Action
//! One guess per turn: a letter (`e`, `Letter: E`, `guess e`), or the whole
//! word (`banana`). A letter already tried, or a wrong word already
//! guessed, is refused and costs nothing; so is a word of the wrong length
//! and text naming two different guesses (a hedge).
//! Each turn is read out of the whole reply by `crate::reply`: reasoning is
//! dropped, then the reply as it is, the text after an `Action:`, `Move:` or
//! `Command:` marker, a fenced block, or the last line; two different
//! actions in one turn are refused as a hedge.
//!
//! # Observation
//! The rules, the word with its unrevealed letters as `_` (a guessed letter
//! is shown wherever it occurs), the misses so far and the budget, the
//! letters and wrong words tried. The hidden word is never shown, not even
//! after a loss. Legal actions: the untried letters.
//!
//! # Reward
//! 1 and `passed` when every letter is revealed or the word is guessed
//! before the misses run out, else 0. Breakdown: `correct`, `misses`.
//!
//! # Episode end
//! The word found, or `misses` wrong guesses (a wrong letter or a wrong
//! word each count one); at most 26 letters and `misses` words.
//!
//! # Parameters
//! `misses` (1–12, default 6): wrong guesses allowed. Levels (`LEVELS`,
//! easiest first): 10, 8, 6, 5 and 4 misses; presets `easy` (10),
//! `medium` (6), `hard` (4).
//!
//! # Seeding
//! The task rng draws the word, redrawing (at most 10,000 times) words that
//! the reference player would not find within the budget and words that
//! blind play finds: guessing the listed letters in order, a to z or z to
//! a. The reference player keeps the listed words consistent with what it
//! has seen, guesses the word when one is left, else the untried letter
//! most of them hold (ties to the commoner letter in English).
//!
//! # Version history
//! v1: first version.

use std::sync::OnceLock;
use std::sync::atomic::{AtomicU8, Ordering};

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use crate::budget::draw_until;
use crate::core::{Env, EnvKind, EnvSpec, InvalidAction, Observation, Player, Preset, Score, Turn};
use crate::error::{ConfigError, NoTask};
use crate::rng::Rng;

const MIN_MISSES: usize = 1;
const MAX_MISSES: usize = 12;
const DEFAULT_MISSES: usize = 6;
/// Letters by frequency in English text, commonest first: the heuristic's
/// order and the reference player's tie-break.
const FREQUENCY: &[u8; 26] = b"etaoinshrdlcumwfgypbvkjxqz";
/// Words a guess may come with, never guesses themselves.
const FILLERS: [&str; 4] = ["guess", "letter", "word", "the"];
const DRAWS: u64 = 10_000;

/// Whether word `index` of [`words`] makes a fair game with `misses`: the reference
/// player finds it, and neither alphabetical order nor its reverse does. Known once per
/// (misses, word) for the process: a reference game is most of a random episode's cost.
fn fair(index: usize, misses: usize) -> bool {
    const UNKNOWN: u8 = 0;
    const FAIR: u8 = 1;
    const UNFAIR: u8 = 2;
    static KNOWN: [OnceLock<Vec<AtomicU8>>; MAX_MISSES + 1] =
        [const { OnceLock::new() }; MAX_MISSES + 1];
    let judge = || {
        let g = Hangman::new(words()[index], misses);
        g.reference_wins() && !g.blind_wins(b'a'..=b'z') && !g.blind_wins((b'a'..=b'z').rev())
    };
    let Some(known) = KNOWN.get(misses) else {
        return judge();
    };
    let known = known.get_or_init(|| words().iter().map(|_| AtomicU8::new(UNKNOWN)).collect());
    match known[index].load(Ordering::Relaxed) {
        FAIR => true,
        UNFAIR => false,
        _ => {
            let fair = judge();
            known[index].store(if fair { FAIR } else { UNFAIR }, Ordering::Relaxed);
            fair
        }
    }
}

/// The shipped words, in file order.
fn words() -> &'static [&'static str] {
    static WORDS: OnceLock<Vec<&'static str>> = OnceLock::new();
    WORDS.get_or_init(|| {
        include_str!("hangman_words.txt")
            .lines()
            .filter(|l| !l.starts_with('#') && !l.is_empty())
            .collect()
    })
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct HangmanConfig {
    /// Wrong guesses allowed, 1–12.
    pub misses: usize,
}

impl Default for HangmanConfig {
    fn default() -> Self {
        HangmanConfig {
            misses: DEFAULT_MISSES,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct HangmanTask {
    pub word: String,
    pub misses: usize,
}

/// A guess: a letter (0 = `a`) or a whole word.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Guess {
    Letter(u8),
    Word(String),
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Hangman {
    word: Vec<u8>,
    budget: usize,
    /// Bit l: letter l tried.
    tried: u32,
    wrong_words: Vec<String>,
    misses: usize,
    guessed: bool,
}

fn letter_bit(c: u8) -> u32 {
    1 << (c - b'a')
}

impl Hangman {
    fn new(word: &str, budget: usize) -> Self {
        Hangman {
            word: word.as_bytes().to_vec(),
            budget,
            tried: 0,
            wrong_words: Vec::new(),
            misses: 0,
            guessed: false,
        }
    }

    fn won(&self) -> bool {
        self.guessed || self.word.iter().all(|&c| self.tried & letter_bit(c) != 0)
    }

    fn over(&self) -> bool {
        self.won() || self.misses >= self.budget
    }

    /// The word with unrevealed letters as `_`.
    fn pattern(&self) -> String {
        if self.won() {
            return String::from_utf8_lossy(&self.word).into_owned();
        }
        self.word
            .iter()
            .map(|&c| {
                if self.tried & letter_bit(c) != 0 {
                    c as char
                } else {
                    '_'
                }
            })
            .collect()
    }

    fn tried_letters(&self) -> impl Iterator<Item = u8> + '_ {
        (b'a'..=b'z').filter(|&c| self.tried & letter_bit(c) != 0)
    }

    /// The observation's text, written straight into one string: an observation
    /// per step is most of a random game's cost.
    fn text(&self) -> String {
        use std::fmt::Write as _;
        let status = if self.won() {
            "Solved: you found the word."
        } else if self.over() {
            "Game over: out of misses."
        } else {
            "Your move: reply with one untried letter like `e`, or the whole word."
        };
        let mut text = String::with_capacity(420);
        let _ = write!(
            text,
            "Hangman. Find the hidden word, a common English word of {} letters. Each turn, \
             guess one letter or the whole word. A letter in the word is shown wherever it \
             occurs; a wrong letter or a wrong word costs a miss, and {} misses lose.\nWord: ",
            self.word.len(),
            self.budget,
        );
        for (i, c) in self.pattern().chars().enumerate() {
            if i > 0 {
                text.push(' ');
            }
            text.push(c);
        }
        let _ = write!(text, "\nMisses: {} of {}", self.misses, self.budget);
        let mut first = true;
        let mut sep = |text: &mut String| {
            text.push_str(if first { " (" } else { ", " });
            first = false;
        };
        for c in self.tried_letters().filter(|c| !self.word.contains(c)) {
            sep(&mut text);
            text.push(char::from(c));
        }
        for w in &self.wrong_words {
            sep(&mut text);
            text.push_str(w);
        }
        if !first {
            text.push(')');
        }
        text.push_str("\nTried letters: ");
        if self.tried == 0 {
            text.push_str("none");
        }
        for (i, c) in self.tried_letters().enumerate() {
            if i > 0 {
                text.push_str(", ");
            }
            text.push(char::from(c));
        }
        text.push('\n');
        text.push_str(status);
        text
    }

    fn untried(&self) -> impl Iterator<Item = u8> + '_ {
        (b'a'..=b'z').filter(|&c| self.tried & letter_bit(c) == 0)
    }

    /// Plays a guess already known to be new.
    fn play(&mut self, guess: &Guess) -> bool {
        let hit = match guess {
            Guess::Letter(l) => {
                let c = b'a' + l;
                self.tried |= letter_bit(c);
                self.word.contains(&c)
            }
            Guess::Word(w) => {
                self.guessed = w.as_bytes() == self.word;
                if !self.guessed {
                    self.wrong_words.push(w.clone());
                }
                self.guessed
            }
        };
        self.misses += usize::from(!hit);
        hit
    }

    /// The listed words consistent with everything seen so far.
    fn candidates(&self) -> Vec<&'static str> {
        let pattern = self.pattern();
        words()
            .iter()
            .filter(|w| {
                w.len() == self.word.len()
                    && w.bytes().zip(pattern.bytes()).all(|(c, p)| {
                        if p == b'_' {
                            self.tried & letter_bit(c) == 0
                        } else {
                            c == p
                        }
                    })
                    && !self.wrong_words.iter().any(|x| x.as_str() == **w)
            })
            .copied()
            .collect()
    }

    /// The reference player's guess; `None` once over.
    fn best_guess(&self) -> Option<Guess> {
        if self.over() {
            return None;
        }
        let candidates = self.candidates();
        if let [one] = candidates.as_slice() {
            return Some(Guess::Word(one.to_string()));
        }
        // How many candidates hold each letter, in one pass over them (fairness
        // checks play a reference game per drawn word).
        let mut holders = [0usize; 26];
        for w in &candidates {
            let held = w.bytes().fold(0u32, |m, c| m | letter_bit(c));
            for (l, count) in holders.iter_mut().enumerate() {
                *count += (held >> l & 1) as usize;
            }
        }
        FREQUENCY
            .iter()
            .copied()
            .filter(|&c| self.tried & letter_bit(c) == 0)
            .enumerate()
            .max_by_key(|&(rank, c)| (holders[usize::from(c - b'a')], std::cmp::Reverse(rank)))
            .map(|(_, c)| Guess::Letter(c - b'a'))
    }

    /// Whether guessing `letters` in order, ignoring what is revealed, finds
    /// the word within the budget.
    fn blind_wins(&self, letters: impl Iterator<Item = u8>) -> bool {
        let mut g = self.clone();
        for c in letters {
            if g.over() {
                break;
            }
            g.play(&Guess::Letter(c - b'a'));
        }
        g.won()
    }

    /// Whether the reference player finds the word within the budget.
    fn reference_wins(&self) -> bool {
        let mut g = self.clone();
        while let Some(guess) = g.best_guess() {
            g.play(&guess);
        }
        g.won()
    }
}

impl Env for Hangman {
    type Config = HangmanConfig;
    type Task = HangmanTask;
    type Action = Guess;

    const SPEC: EnvSpec = EnvSpec {
        id: "games/hangman-v1",
        kind: EnvKind::MultiTurn,
        description: "Hangman: find a hidden English word letter by letter within 6 misses; the reference keeps the consistent words of a shipped list",
        players: 1,
        max_steps: 26 + MAX_MISSES,
        reward_range: (0.0, 1.0),
        zero_sum: false,
        fixed_start: false,
        presets: &Preset::graded(Self::LEVELS, [0, 2, 4]),
    };

    /// Fewer misses allowed, each guess must be surer.
    const LEVELS: &'static [&'static str] = &[
        r#"{"misses": 10}"#,
        r#"{"misses": 8}"#,
        "{}",
        r#"{"misses": 5}"#,
        r#"{"misses": 4}"#,
    ];

    /// The letters of the alphabet the player may not waste.
    fn effort(task: &HangmanTask) -> Option<f64> {
        Some(26.0 - task.misses as f64)
    }

    fn validate(config: &HangmanConfig) -> Result<(), ConfigError> {
        if (MIN_MISSES..=MAX_MISSES).contains(&config.misses) {
            Ok(())
        } else {
            Err(format!(
                "misses must be in {MIN_MISSES}..={MAX_MISSES}, got {}",
                config.misses
            )
            .into())
        }
    }

    fn generate(config: &HangmanConfig, rng: &mut Rng) -> HangmanTask {
        Self::try_generate(config, rng).expect("a word the reference player finds")
    }

    fn try_generate(config: &HangmanConfig, rng: &mut Rng) -> Result<HangmanTask, NoTask> {
        let list = words();
        draw_until(
            DRAWS,
            || {
                let index = rng.below(list.len() as u64) as usize;
                let word = list[index];
                fair(index, config.misses).then(|| HangmanTask {
                    word: word.to_string(),
                    misses: config.misses,
                })
            },
            || {
                format!(
                    "no word the reference player finds within misses {} in {DRAWS} draws: raise misses",
                    config.misses
                )
            },
        )
    }

    fn reference(task: &HangmanTask) -> Option<Value> {
        Some(json!(task.word))
    }

    fn reset(task: &HangmanTask, _rng: Rng) -> Self {
        Hangman::new(&task.word, task.misses)
    }

    fn turn(&self) -> Turn {
        if self.over() {
            Turn::Over
        } else {
            Turn::Player(0)
        }
    }

    fn observe(&self, _player: Player) -> Observation {
        // Sized up front: a filtered iterator's `collect` grows the vector
        // three times on the way to 20-odd letters.
        let tried_count = self.tried.count_ones() as usize;
        let mut legal = Vec::new();
        if !self.over() {
            legal.reserve_exact(26 - tried_count);
            legal.extend(self.untried().map(|c| char::from(c).to_string()));
        }
        let mut tried = Vec::with_capacity(tried_count);
        tried.extend(
            self.tried_letters()
                .map(|c| Value::String(char::from(c).to_string())),
        );
        Observation {
            text: self.text(),
            structured: json!({
                "shown": self.pattern(),
                "length": self.word.len(),
                "tried": tried,
                "wrong_words": self.wrong_words,
                "misses": self.misses,
                "max_misses": self.budget,
            }),
            legal_actions: Some(legal),
        }
    }

    /// A card's prompt needs only the text.
    fn observe_text(&self, _player: Player) -> String {
        self.text()
    }

    /// The one guess in `text`: its alphabetic words, lowercased, less the
    /// fillers `guess`, `letter`, `word`, `the`, must be one letter or one
    /// word of the hidden word's length (repeats allowed).
    fn parse_action(&self, _player: Player, text: &str) -> Result<Guess, InvalidAction> {
        let hint = "reply with one letter like `e`, or the whole word";
        let mut found: Option<&str> = None;
        for w in text
            .split(|c: char| !c.is_ascii_alphabetic())
            .filter(|w| !w.is_empty())
        {
            if FILLERS.iter().any(|f| w.eq_ignore_ascii_case(f)) {
                continue;
            }
            match found {
                Some(f) if !f.eq_ignore_ascii_case(w) => {
                    return Err(InvalidAction::new(format!(
                        "name exactly one guess, not several; {hint}"
                    )));
                }
                _ => found = Some(w),
            }
        }
        let Some(w) = found else {
            return Err(InvalidAction::new(format!("no guess found; {hint}")));
        };
        let w = w.to_ascii_lowercase();
        match w.len() {
            1 => Ok(Guess::Letter(w.as_bytes()[0] - b'a')),
            n if n == self.word.len() => Ok(Guess::Word(w)),
            n => Err(InvalidAction::new(format!(
                "your guess has {n} letters but the word has {}; {hint}",
                self.word.len()
            ))),
        }
    }

    fn apply(&mut self, _player: Player, guess: Guess) -> Result<Vec<String>, InvalidAction> {
        match &guess {
            Guess::Letter(l) if self.tried & (1 << l) != 0 => {
                return Err(format!("you already tried {}", (b'a' + l) as char).into());
            }
            Guess::Word(w) if self.wrong_words.contains(w) => {
                return Err(format!("you already guessed {w}").into());
            }
            _ => {}
        }
        let hit = self.play(&guess);
        let what = match &guess {
            Guess::Letter(l) => ((b'a' + l) as char).to_string(),
            Guess::Word(w) => w.clone(),
        };
        let mut events = vec![format!(
            "{what}: {}",
            if hit { "in the word" } else { "a miss" }
        )];
        if self.won() {
            events.push("solved".to_string());
        } else if self.over() {
            events.push("out of misses".to_string());
        }
        Ok(events)
    }

    fn score(&self, _player: Player) -> Score {
        Score::binary(self.won())
            .part("correct", f64::from(u8::from(self.won())))
            .part("misses", self.misses as f64)
    }

    fn oracle(&self, _player: Player) -> Option<String> {
        self.best_guess().map(|g| match g {
            Guess::Letter(l) => ((b'a' + l) as char).to_string(),
            Guess::Word(w) => w,
        })
    }

    /// The commonest English letter not yet tried; never a whole word.
    fn heuristic(&self, _player: Player, _rng: &mut Rng) -> Option<String> {
        if self.over() {
            return None;
        }
        FREQUENCY
            .iter()
            .find(|&&c| self.tried & letter_bit(c) == 0)
            .map(|&c| (c as char).to_string())
    }

    /// A uniformly random untried letter, as the default draws from the
    /// observation's list, without building the observation.
    fn random_action(&self, _player: Player, rng: &mut Rng) -> String {
        let untried = if self.over() {
            0
        } else {
            26 - self.tried.count_ones() as usize
        };
        match untried {
            0 => rng.range_i64(-20, 20).to_string(),
            k => {
                let pick = self.untried().nth(rng.below(k as u64) as usize);
                char::from(pick.expect("k letters are untried")).to_string()
            }
        }
    }

    fn render(&self) -> String {
        format!(
            "{} ({} of {} misses)",
            self.pattern(),
            self.misses,
            self.budget
        )
    }
}

#[cfg(test)]
#[path = "hangman_tests.rs"]
mod tests;
