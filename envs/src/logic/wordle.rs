//! `logic/wordle-v1`: find a hidden made-up word from green/yellow/grey
//! letter feedback within a guess budget.
//!
//! # Task
//! A list of `words` distinct made-up words of `length` letters, shown in
//! full, one of them secret, and a budget of `max_guesses`. The words are
//! pronounceable consonant-vowel strings (`BAKOM`: consonant first, then
//! alternating) over `consonants` consonants and `vowels` vowels chosen per
//! task, so letters repeat often. No real-world word list is used.
//!
//! # Action
//! One guess per turn: a word from the list, e.g. `BAKO`, `b a k o`,
//! `Guess: BAKO` or `\boxed{BAKO}` (case-insensitive). A reply holding
//! several words, other characters, or a word not in the list is an
//! invalid action: it is refused with the reason and costs no guess (the
//! driver decides on retries).
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

use std::collections::BTreeSet;

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use verigym_verifiers::answer::final_answer;

use crate::checker::DEGENERATE_ANSWERS;
use crate::core::{Env, EnvKind, EnvSpec, InvalidAction, Observation, Player, Preset, Score, Turn};
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
            words: 50,
            consonants: 4,
            vowels: 2,
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
        if !DEGENERATE_ANSWERS
            .iter()
            .any(|d| d.eq_ignore_ascii_case(secret))
        {
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

    const SPEC: EnvSpec = EnvSpec {
        id: "logic/wordle-v1",
        kind: EnvKind::MultiTurn,
        description: "Find a hidden made-up word from a shown list by green/yellow/grey letter feedback within a guess budget",
        players: 1,
        max_steps: 20,
        reward_range: (0.0, 1.0),
        zero_sum: false,
        fixed_start: false,
        presets: &[
            Preset {
                name: "easy",
                overrides: r#"{"length":4,"words":12,"consonants":3,"vowels":2,"max_guesses":7}"#,
            },
            Preset {
                name: "medium",
                overrides: "{}",
            },
            Preset {
                name: "hard",
                overrides: r#"{"length":5,"words":80,"max_guesses":5}"#,
            },
        ],
    };

    // The reference player's worst case over 3,000 unguarded draws per
    // level (measured) is 3, 4, 4, 4, 4 guesses; the budgets leave one spare
    // (two at the easiest) and shrink as the lists grow denser.
    const LEVELS: &'static [&'static str] = &[
        r#"{"length":4,"words":12,"consonants":3,"vowels":2,"max_guesses":7}"#,
        r#"{"length":4,"words":24,"consonants":4,"vowels":2,"max_guesses":6}"#,
        "{}",
        r#"{"length":5,"words":80,"max_guesses":5}"#,
        r#"{"length":6,"words":150,"consonants":4,"vowels":3,"max_guesses":5}"#,
    ];

    fn effort(task: &WordleTask) -> Option<f64> {
        // Letters of the list the player must reason over.
        Some((task.words.len() * task.length) as f64)
    }

    fn validate(config: &WordleConfig) -> Result<(), String> {
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
            ));
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
mod tests {
    use super::*;
    use crate::rng::mix_seed;

    fn levels() -> Vec<WordleConfig> {
        Wordle::LEVELS
            .iter()
            .map(|patch| serde_json::from_str(patch).unwrap())
            .collect()
    }

    fn play(env: &mut Wordle, text: &str) -> Result<(), InvalidAction> {
        let guess = env.parse_action(0, text)?;
        env.apply(0, guess).map(|_| ())
    }

    /// Plays `answer(env)` each turn until the game ends or a reply is
    /// refused; whether the secret was found.
    fn passes(task: &WordleTask, answer: impl Fn(&Wordle) -> String) -> bool {
        let mut env = Wordle::reset(task, Rng::from_seed(0));
        while env.turn() != Turn::Over {
            let text = answer(&env);
            if play(&mut env, &text).is_err() {
                break;
            }
        }
        env.score(0).passed
    }

    fn hand_task() -> WordleTask {
        WordleTask {
            length: 4,
            max_guesses: 4,
            words: ["BABA", "BABE", "BEBA", "DABE", "DEDE"]
                .map(String::from)
                .to_vec(),
            secret: "DABE".into(),
        }
    }

    /// The marks read off the rules directly: the one marking (of all 3^n)
    /// where G means an exact match, each letter gets G or Y as often as
    /// it is shared (the smaller count), and a letter's Y come before its
    /// grey on the non-green places.
    fn brute_force(secret: &[u8], guess: &[u8]) -> Vec<u8> {
        let n = guess.len();
        let mut found = Vec::new();
        for code in 0..3usize.pow(n as u32) {
            let m: Vec<u8> = (0..n)
                .map(|i| (code / 3usize.pow(i as u32) % 3) as u8)
                .collect();
            let exact = (0..n).all(|i| (m[i] == 2) == (secret[i] == guess[i]));
            let shared = guess.iter().all(|&x| {
                let marked = (0..n).filter(|&i| guess[i] == x && m[i] > 0).count();
                let common = guess
                    .iter()
                    .filter(|&&c| c == x)
                    .count()
                    .min(secret.iter().filter(|&&c| c == x).count());
                marked == common
            });
            let leftmost =
                (0..n).all(|i| m[i] != 1 || (0..i).all(|j| guess[j] != guess[i] || m[j] != 0));
            if exact && shared && leftmost {
                found.push(m);
            }
        }
        assert_eq!(found.len(), 1, "{found:?}");
        found.pop().unwrap()
    }

    #[test]
    fn marks_agree_with_an_independent_brute_force() {
        for (alphabet, n) in [(&b"ABC"[..], 4u32), (&b"ABCD"[..], 3)] {
            let k = alphabet.len();
            let word = |code: usize| -> Vec<u8> {
                (0..n).map(|i| alphabet[code / k.pow(i) % k]).collect()
            };
            for a in 0..k.pow(n) {
                for b in 0..k.pow(n) {
                    let (secret, guess) = (word(a), word(b));
                    let m = marks(&secret, &guess);
                    assert_eq!(
                        m[..n as usize],
                        brute_force(&secret, &guess)[..],
                        "{secret:?} {guess:?}"
                    );
                }
            }
        }
    }

    #[test]
    fn repeated_letters_are_marked_like_wordle() {
        let text = |s: &str, g: &str| marks_text(&marks(s.as_bytes(), g.as_bytes()), s.len());
        assert_eq!(text("BABE", "BBBB"), "G-G-");
        assert_eq!(text("BADE", "EBBB"), "YY--");
        assert_eq!(text("DABE", "BABA"), "-GG-");
        assert_eq!(text("KOKOK", "OKOKO"), "YYYY-");
        assert_eq!(text("ABCDE", "ABCDE"), "GGGGG");
        assert_eq!(text("LALA", "ALLA"), "YYGG");
        assert_eq!(text("MOMO", "OOOO"), "-G-G");
    }

    #[test]
    fn the_reference_player_wins_every_level_within_its_budget() {
        for (level, config) in levels().iter().enumerate() {
            let mut worst = 0;
            for i in 0..200 {
                // Unguarded draws: the budget itself covers the worst case.
                let raw = draw(config, &mut Rng::from_seed(mix_seed(11, i)));
                worst = worst.max(reference_guesses(&raw));
                // Generated tasks, played through the env.
                let task = Wordle::generate(config, &mut Rng::from_seed(mix_seed(12, i)));
                let mut env = Wordle::reset(&task, Rng::from_seed(0));
                while env.turn() != Turn::Over {
                    let guess = env.oracle(0).unwrap();
                    play(&mut env, &guess).unwrap();
                }
                assert!(env.score(0).passed, "level {level}: {}", env.render());
            }
            assert!(
                worst <= config.max_guesses,
                "level {level}: worst case {worst}"
            );
        }
    }

    #[test]
    fn the_observation_text_is_exact() {
        let mut env = Wordle::reset(&hand_task(), Rng::from_seed(0));
        play(&mut env, "Guess: baba").unwrap();
        play(&mut env, "\\boxed{D E D E}").unwrap();
        assert_eq!(
            env.observe(0).text,
            "Wordle: I have picked a secret word from the list below of 5 made-up words of 4 letters. \
             Find it in at most 4 guesses. Each guess must be a word from the list: reply with that one \
             word, like \\boxed{BABA}; other replies are refused and cost no guess. After each guess I mark \
             its letters in order: G = right letter in the right place, Y = the letter is in the secret \
             elsewhere, - = not in the secret. A letter guessed more often than the secret holds it is \
             marked Y only as often as the secret holds it beyond its G matches (leftmost first), and - \
             after that.\nWords: BABA BABE BEBA DABE DEDE\n\
             Guess 1: BABA -> -GG-\nGuess 2: DEDE -> G--G\nGuesses left: 2\n"
        );
        assert_eq!(
            env.render(),
            "secret=DABE words=5 left=2 [BABA:-GG- DEDE:G--G]"
        );
        assert_eq!(env.oracle(0).unwrap(), "DABE");
        play(&mut env, "DABE").unwrap();
        assert!(
            env.observe(0)
                .text
                .ends_with("Guess 3: DABE -> GGGG\nSolved.\n")
        );
        assert_eq!(env.turn(), Turn::Over);
        assert_eq!(env.observe(0).legal_actions, Some(Vec::new()));
        let score = env.score(0);
        assert!(score.passed);
        assert_eq!((score.reward, score.breakdown["guesses_used"]), (1.0, 3.0));
    }

    #[test]
    fn bad_replies_are_refused_without_spending_a_guess() {
        let env = Wordle::reset(&hand_task(), Rng::from_seed(0));
        for bad in [
            "",
            "BAB",
            "BABAB",
            "BOBO",
            "BAB4",
            "BABA BABE",
            "BABA or BABE",
            "\\boxed{BABA} \\boxed{BABE}",
            "B A B",
            "DABE 1",
            "DABE\nDABE",
        ] {
            assert!(env.parse_action(0, bad).is_err(), "{bad:?}");
        }
        let refusal = env.parse_action(0, "BOBO").unwrap_err().reason;
        assert_eq!(refusal, "`BOBO` is not in the word list (no guess spent)");
        assert_eq!(env.guesses_left(), 4);
        for good in [
            "dabe",
            "d-a-b-e",
            "Guess: DABE",
            "<think>BABA?</think> \\boxed{DABE}",
            "Answer: DABE.",
        ] {
            assert_eq!(env.parse_action(0, good).unwrap(), "DABE", "{good:?}");
        }
    }

    #[test]
    fn degenerate_echoed_hedged_and_padded_replies_never_pass() {
        for config in levels() {
            for i in 0..30 {
                let task = Wordle::generate(&config, &mut Rng::from_seed(mix_seed(13, i)));
                let (secret, first) = (task.secret.clone(), task.words[0].clone());
                assert_ne!(secret, first);
                assert!(passes(&task, |_| format!("\\boxed{{{secret}}}")));
                let constant: Vec<String> = DEGENERATE_ANSWERS
                    .iter()
                    .map(|a| a.to_string())
                    .chain([
                        first.clone(),
                        format!("\\boxed{{{secret}}} or \\boxed{{{first}}}"),
                        format!("{secret} or {first}"),
                        format!("{secret} 1"),
                        format!("{secret}\n{secret}"),
                        task.words.join(" "),
                    ])
                    .collect();
                for text in &constant {
                    assert!(!passes(&task, |_| text.clone()), "{text:?} passed");
                }
                assert!(!passes(&task, |env| env.observe(0).text), "echo passed");
            }
        }
    }

    #[test]
    fn a_lost_game_scores_zero_with_partial_credit_only_in_the_breakdown() {
        let mut env = Wordle::reset(&hand_task(), Rng::from_seed(0));
        while env.turn() != Turn::Over {
            play(&mut env, "BABE").unwrap();
        }
        let score = env.score(0);
        assert!(!score.passed);
        assert_eq!(score.reward, 0.0);
        assert_eq!(score.breakdown["greens"], 0.75);
        assert_eq!(score.breakdown["guesses_used"], 4.0);
    }

    #[test]
    fn presets_are_levels_and_configs_are_checked() {
        for config in levels() {
            assert_eq!(Wordle::validate(&config), Ok(()));
        }
        assert_eq!(Wordle::LEVELS[2], "{}");
        for bad in [
            r#"{"length":2}"#,
            r#"{"length":9}"#,
            r#"{"words":2}"#,
            r#"{"max_guesses":0}"#,
            r#"{"vowels":6}"#,
            r#"{"length":3,"consonants":2,"vowels":2,"words":5}"#,
        ] {
            let config: WordleConfig = serde_json::from_str(bad).unwrap();
            assert!(Wordle::validate(&config).is_err(), "{bad}");
        }
        let effort: Vec<f64> = levels()
            .iter()
            .map(|c| Wordle::effort(&Wordle::generate(c, &mut Rng::from_seed(1))).unwrap())
            .collect();
        assert!(effort.windows(2).all(|w| w[0] < w[1]), "{effort:?}");
    }
}
