//! `logic/cryptarithm-v1`: find the digit of each letter in a word sum
//! like `SEND + MORE = MONEY`; exactly one solution.
//!
//! # Task
//! Two numbers of `digits` digits (the second may be one shorter) and their
//! sum, written with a random letter for each digit. Different letters are
//! different digits and no word starts with 0. The generator keeps a sum
//! only when a column-by-column search with carries finds exactly one
//! assignment (limit-2 count).
//!
//! # Action
//! Every letter's digit as `A=1, B=2, …` (also `A: 1` or one pair per line).
//! In `\boxed{…}` or as the whole reply.
//! Read by the single-turn rule (`crate::single_turn`): reasoning is dropped,
//! then the last `\boxed{…}` counts (boxes that disagree are a hedge and
//! score 0), else the whole reply; prose around the box is ignored.
//!
//! # Observation
//! The word sum. Structured: the words.
//!
//! # Reward
//! 1 and `passed` when every letter has a distinct digit, no word starts
//! with 0, and the sum holds; else 0. Breakdown: `correct`, `format`.
//!
//! # Episode end
//! After the one answer.
//!
//! # Parameters
//! `digits` (2..=6).
//!
//! # Seeding
//! Letters and numbers come from the task rng.
//!
//! # Version history
//! v1: first version.

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use crate::core::{EnvKind, EnvSpec, InvalidAction, Preset};
use crate::error::ConfigError;
use crate::rng::Rng;
use crate::single_turn::{CheckError, Question, SingleTurn};

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct CryptarithmConfig {
    pub digits: usize,
}

impl Default for CryptarithmConfig {
    fn default() -> Self {
        CryptarithmConfig { digits: 4 }
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CryptarithmTask {
    /// `[first, second, sum]`.
    pub words: Vec<String>,
    /// `(letter, digit)` for every letter used, sorted by letter.
    pub mapping: Vec<(char, u8)>,
}

/// Letters with their digits (`None` = unassigned), in a fixed letter order.
struct Search<'a> {
    words: &'a [Vec<u8>; 3],
    digit_of: [Option<u8>; 26],
    used: [bool; 10],
    leading: [bool; 26],
    found: usize,
    first: [Option<u8>; 26],
}

impl Search<'_> {
    /// Letter at column `col` from the right of word `w`, if it is that long.
    fn letter(&self, w: usize, col: usize) -> Option<u8> {
        let word = &self.words[w];
        (col < word.len()).then(|| word[word.len() - 1 - col])
    }

    /// Tries digits for the letters of column `col` (operands first, then
    /// the sum's letter follows from the carry).
    fn column(&mut self, col: usize, carry: u8, slot: usize, partial: u8, limit: usize) {
        if self.found >= limit {
            return;
        }
        if col == self.words[2].len() {
            if carry == 0 && self.words[0].len() <= col && self.words[1].len() <= col {
                if self.found == 0 {
                    self.first = self.digit_of;
                }
                self.found += 1;
            }
            return;
        }
        if slot < 2 {
            let Some(letter) = self.letter(slot, col) else {
                return self.column(col, carry, slot + 1, partial, limit);
            };
            if let Some(d) = self.digit_of[letter as usize] {
                return self.column(col, carry, slot + 1, partial + d, limit);
            }
            for d in 0..10u8 {
                if self.used[d as usize] || (d == 0 && self.leading[letter as usize]) {
                    continue;
                }
                self.assign(letter, Some(d));
                self.column(col, carry, slot + 1, partial + d, limit);
                self.assign(letter, None);
            }
            return;
        }
        let total = partial + carry;
        let (digit, next_carry) = (total % 10, total / 10);
        let letter = self.letter(2, col).expect("sum is the longest word");
        match self.digit_of[letter as usize] {
            Some(d) if d == digit => self.column(col + 1, next_carry, 0, 0, limit),
            Some(_) => {}
            None if !(self.used[digit as usize] || digit == 0 && self.leading[letter as usize]) => {
                self.assign(letter, Some(digit));
                self.column(col + 1, next_carry, 0, 0, limit);
                self.assign(letter, None);
            }
            None => {}
        }
    }

    fn assign(&mut self, letter: u8, digit: Option<u8>) {
        if let Some(old) = self.digit_of[letter as usize] {
            self.used[old as usize] = false;
        }
        if let Some(d) = digit {
            self.used[d as usize] = true;
        }
        self.digit_of[letter as usize] = digit;
    }
}

/// Counts solutions up to `limit`; returns the count and the first.
fn solve(words: &[String], limit: usize) -> (usize, [Option<u8>; 26]) {
    let codes: [Vec<u8>; 3] = std::array::from_fn(|i| words[i].bytes().map(|b| b - b'A').collect());
    let mut leading = [false; 26];
    for w in &codes {
        leading[w[0] as usize] = true;
    }
    let mut search = Search {
        words: &codes,
        digit_of: [None; 26],
        used: [false; 10],
        leading,
        found: 0,
        first: [None; 26],
    };
    search.column(0, 0, 0, 0, limit);
    (search.found, search.first)
}

fn parse_mapping(answer: &str) -> Result<Vec<(char, u8)>, InvalidAction> {
    let mut pairs = Vec::new();
    let cleaned = answer.replace("->", "=").replace([':', '→'], "=");
    for part in cleaned
        .split([',', ';', '\n'])
        .filter(|p| !p.trim().is_empty())
    {
        let (letter, digit) = part
            .split_once('=')
            .ok_or_else(|| format!("`{part}` is not `letter=digit`"))?;
        let (letter, digit) = (letter.trim(), digit.trim());
        let mut chars = letter.chars();
        let (Some(l), None) = (chars.next(), chars.next()) else {
            return Err(format!("`{letter}` is not one letter").into());
        };
        if !l.is_ascii_alphabetic() || digit.len() != 1 || !digit.as_bytes()[0].is_ascii_digit() {
            return Err(format!("`{part}` is not `letter=digit`").into());
        }
        pairs.push((l.to_ascii_uppercase(), digit.as_bytes()[0] - b'0'));
    }
    pairs.sort_unstable();
    Ok(pairs)
}

pub struct Cryptarithm;

pub type CryptarithmEnv = SingleTurn<Cryptarithm>;

impl Question for Cryptarithm {
    type Config = CryptarithmConfig;
    type Task = CryptarithmTask;
    const SPEC: EnvSpec = EnvSpec {
        id: "logic/cryptarithm-v1",
        kind: EnvKind::SingleTurn,
        description: "Solve a letter sum like SEND + MORE = MONEY; unique solution; answer letter=digit pairs",
        players: 1,
        max_steps: 1,
        reward_range: (0.0, 1.0),
        zero_sum: false,
        fixed_start: false,
        presets: &[
            Preset {
                name: "easy",
                overrides: r#"{"digits":3}"#,
            },
            Preset {
                name: "medium",
                overrides: "{}",
            },
            Preset {
                name: "hard",
                overrides: r#"{"digits":5}"#,
            },
        ],
    };

    fn validate(config: &CryptarithmConfig) -> Result<(), ConfigError> {
        if !(2..=6).contains(&config.digits) {
            return Err("digits must be 2..=6".into());
        }
        Ok(())
    }

    fn generate(config: &CryptarithmConfig, rng: &mut Rng) -> CryptarithmTask {
        let mut alphabet: Vec<u8> = (b'A'..=b'Z').collect();
        let low = 10u64.pow(config.digits as u32 - 1);
        loop {
            rng.shuffle(&mut alphabet);
            let a = low + rng.below(9 * low);
            let b_low = if rng.chance(0.5) { low } else { low / 10 };
            let b = b_low.max(1) + rng.below(9 * b_low.max(1));
            let encode = |n: u64| -> String {
                n.to_string()
                    .bytes()
                    .map(|d| alphabet[(d - b'0') as usize] as char)
                    .collect()
            };
            let words = vec![encode(a), encode(b), encode(a + b)];
            let (count, first) = solve(&words, 2);
            if count == 1 {
                let mapping: Vec<(char, u8)> = (0..26)
                    .filter_map(|l| first[l].map(|d| ((b'A' + l as u8) as char, d)))
                    .collect();
                return CryptarithmTask { words, mapping };
            }
        }
    }

    fn prompt(task: &CryptarithmTask) -> String {
        format!(
            "Solve this cryptarithm: each letter stands for a different digit, and no word starts with 0.\n\n    \
             {} + {} = {}\n\nThe solution is unique. Answer with every letter's digit as letter=digit pairs \
             separated by commas, for example X=1, Y=2, inside \\boxed{{}}.",
            task.words[0], task.words[1], task.words[2]
        )
    }

    fn structured(task: &CryptarithmTask) -> Value {
        json!({ "words": task.words })
    }

    fn reference(task: &CryptarithmTask) -> String {
        task.mapping
            .iter()
            .map(|(l, d)| format!("{l}={d}"))
            .collect::<Vec<_>>()
            .join(", ")
    }

    fn check(task: &CryptarithmTask, answer: &str) -> Result<bool, CheckError> {
        let pairs = parse_mapping(answer)?;
        let letters: Vec<char> = task.mapping.iter().map(|(l, _)| *l).collect();
        let given: Vec<char> = pairs.iter().map(|(l, _)| *l).collect();
        if given != letters {
            return Ok(false);
        }
        let mut digits: Vec<u8> = pairs.iter().map(|(_, d)| *d).collect();
        digits.sort_unstable();
        digits.dedup();
        if digits.len() != pairs.len() {
            return Ok(false);
        }
        let value = |word: &str| -> Option<u64> {
            let ds: Vec<u8> = word
                .chars()
                .map(|c| pairs.iter().find(|(l, _)| *l == c).map(|(_, d)| *d))
                .collect::<Option<_>>()?;
            (ds[0] != 0).then(|| ds.iter().fold(0u64, |acc, &d| acc * 10 + u64::from(d)))
        };
        Ok(
            match (
                value(&task.words[0]),
                value(&task.words[1]),
                value(&task.words[2]),
            ) {
                (Some(a), Some(b), Some(c)) => a + b == c,
                _ => false,
            },
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::single_turn::testing::{cross_reference_rate, passes, standard_answers};
    use proptest::prelude::{ProptestConfig, any, prop_assert_eq, proptest};

    /// Independent counter: every injective digit assignment to the letters.
    fn count_by_brute_force(task: &CryptarithmTask) -> usize {
        let letters: Vec<char> = task.mapping.iter().map(|(l, _)| *l).collect();
        let mut digits = vec![0u8; letters.len()];
        let mut count = 0;
        fn go(
            i: usize,
            letters: &[char],
            digits: &mut Vec<u8>,
            used: &mut [bool; 10],
            task: &CryptarithmTask,
            count: &mut usize,
        ) {
            if i == letters.len() {
                let answer: Vec<String> = letters
                    .iter()
                    .zip(digits.iter())
                    .map(|(l, d)| format!("{l}={d}"))
                    .collect();
                *count += usize::from(matches!(
                    Cryptarithm::check(task, &answer.join(",")),
                    Ok(true)
                ));
                return;
            }
            for d in 0..10u8 {
                if !used[d as usize] {
                    used[d as usize] = true;
                    digits[i] = d;
                    go(i + 1, letters, digits, used, task, count);
                    used[d as usize] = false;
                }
            }
        }
        go(0, &letters, &mut digits, &mut [false; 10], task, &mut count);
        count
    }

    #[test]
    fn send_more_money_has_one_solution() {
        let words: Vec<String> = ["SEND", "MORE", "MONEY"].map(String::from).to_vec();
        let (count, first) = solve(&words, 10);
        assert_eq!(count, 1);
        assert_eq!(first[(b'M' - b'A') as usize], Some(1));
        assert_eq!(first[(b'Y' - b'A') as usize], Some(2));
        let task = CryptarithmTask {
            words,
            mapping: vec![],
        };
        assert!(
            !passes::<Cryptarithm>(&task, "S=9, E=5, N=6, D=7, M=1, O=0, R=8, Y=2"),
            "mapping lists no letters"
        );
    }

    #[test]
    fn reference_passes_and_degenerate_answers_fail() {
        for digits in [3, 4, 5] {
            standard_answers::<Cryptarithm>(&CryptarithmConfig { digits }, 15);
        }
    }

    #[test]
    fn answers_are_read_leniently_and_checked_strictly() {
        let task = Cryptarithm::generate(&CryptarithmConfig { digits: 3 }, &mut Rng::from_seed(2));
        let reference = Cryptarithm::reference(&task);
        assert!(passes::<Cryptarithm>(
            &task,
            &reference
                .replace(", ", "\n")
                .replace('=', ": ")
                .to_lowercase()
        ));
        let (l0, d0) = task.mapping[0];
        let (l1, d1) = task.mapping[1];
        let swapped = reference
            .replace(&format!("{l0}={d0}"), &format!("{l0}={d1}"))
            .replace(&format!("{l1}={d1}"), &format!("{l1}={d0}"));
        assert!(!passes::<Cryptarithm>(&task, &swapped));
        assert!(!passes::<Cryptarithm>(&task, &format!("{reference}, Q=9")));
        assert!(!passes::<Cryptarithm>(
            &task,
            &format!("{reference}, {l0}={d0}")
        ));
    }

    #[test]
    fn another_tasks_reference_never_passes() {
        assert!(cross_reference_rate::<Cryptarithm>(&CryptarithmConfig { digits: 3 }, 1000) < 0.01);
        assert_eq!(
            cross_reference_rate::<Cryptarithm>(&CryptarithmConfig::default(), 500),
            0.0
        );
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(12))]
        #[test]
        fn generated_sums_have_exactly_one_solution(seed in any::<u64>()) {
            let task = Cryptarithm::generate(&CryptarithmConfig { digits: 2 }, &mut Rng::from_seed(seed));
            prop_assert_eq!(count_by_brute_force(&task), 1);
        }
    }
}
