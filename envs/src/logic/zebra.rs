//! `logic/zebra-v1`: an Einstein puzzle; fill in the whole house table.
//!
//! # Task
//! `houses` houses in a row, `attributes` categories (names, colours, pets,
//! drinks, …), each value in exactly one house. The generator draws a
//! random solution, adds random true clues until a limit-2 solution count
//! (CSP propagation + search) is 1, then drops every clue that is not
//! needed, so the clue set is minimal and the solution unique.
//!
//! # Action
//! The table: one line per house, `House 1: Alice, red, dog` (the values of
//! that house, any order, separated by commas, spaces or `|`). A header line
//! of category names is ignored. In `\boxed{…}` or as the whole reply.
//! Read by the single-turn rule (`crate::single_turn`): reasoning is dropped,
//! then the last `\boxed{…}` counts (boxes that disagree are a hedge and
//! score 0), else the whole reply; prose around the box is ignored.
//!
//! # Observation
//! The categories with their values, and the numbered clues. Structured:
//! the same, clues as JSON.
//!
//! # Reward
//! 1 and `passed` when every house has exactly its values; else 0.
//! Breakdown: `correct`, `format`.
//!
//! # Episode end
//! After the one answer.
//!
//! # Parameters
//! `houses` (2..=7), `attributes` (2..=7).
//!
//! # Seeding
//! Categories, values, solution and clues come from the task rng.
//!
//! # Version history
//! v1: first version.

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use crate::core::{EnvKind, EnvSpec, InvalidAction, Preset};
use crate::error::ConfigError;
use crate::logic::solvers::zebra::{Clue, count_solutions};
use crate::rng::Rng;
use crate::single_turn::{CheckError, Question, SingleTurn};

/// Category name, how a value is described in a clue, and the values.
const CATEGORIES: [(&str, &str, [&str; 7]); 7] = [
    (
        "name",
        "{}",
        ["Alice", "Bob", "Carol", "David", "Emma", "Frank", "Grace"],
    ),
    (
        "colour",
        "the person in the {} house",
        [
            "red", "green", "blue", "yellow", "white", "purple", "orange",
        ],
    ),
    (
        "pet",
        "the {} owner",
        ["dog", "cat", "bird", "fish", "horse", "rabbit", "hamster"],
    ),
    (
        "drink",
        "the person who drinks {}",
        ["tea", "coffee", "milk", "juice", "water", "soda", "cocoa"],
    ),
    (
        "hobby",
        "the person who enjoys {}",
        [
            "chess",
            "painting",
            "hiking",
            "reading",
            "cooking",
            "gardening",
            "dancing",
        ],
    ),
    (
        "nationality",
        "the {} person",
        [
            "British",
            "Swedish",
            "Danish",
            "Norwegian",
            "German",
            "Spanish",
            "Italian",
        ],
    ),
    (
        "flower",
        "the person who grows {}",
        [
            "roses", "tulips", "lilies", "daisies", "orchids", "irises", "peonies",
        ],
    ),
];

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct ZebraConfig {
    pub houses: usize,
    pub attributes: usize,
}

impl Default for ZebraConfig {
    fn default() -> Self {
        ZebraConfig {
            houses: 4,
            attributes: 4,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ZebraTask {
    /// Category indices into the fixed category list.
    pub categories: Vec<usize>,
    /// `values[a][v]`: the name of value `v` of attribute `a`.
    pub values: Vec<Vec<String>>,
    pub clues: Vec<Clue>,
    /// `positions[a * houses + v]`: the house of value `v` of attribute `a`.
    pub positions: Vec<usize>,
}

impl ZebraTask {
    fn houses(&self) -> usize {
        self.values[0].len()
    }

    fn item_text(&self, item: usize) -> String {
        let k = self.houses();
        let (attribute, value) = (item / k, item % k);
        CATEGORIES[self.categories[attribute]]
            .1
            .replace("{}", &self.values[attribute][value])
    }

    fn clue_text(&self, clue: Clue) -> String {
        let t = |i| self.item_text(i);
        let text = match clue {
            Clue::At(x, h) => format!("{} lives in house {}", t(x), h + 1),
            Clue::NotAt(x, h) => format!("{} does not live in house {}", t(x), h + 1),
            Clue::Same(x, y) => format!("{} is {}", t(x), t(y)),
            Clue::NotSame(x, y) => format!("{} is not {}", t(x), t(y)),
            Clue::LeftOf(x, y) => format!("{} lives directly left of {}", t(x), t(y)),
            Clue::NextTo(x, y) => format!("{} and {} live next to each other", t(x), t(y)),
            Clue::Before(x, y) => format!("{} lives somewhere left of {}", t(x), t(y)),
        };
        let mut chars = text.chars();
        chars
            .next()
            .map(|c| c.to_uppercase().collect::<String>() + chars.as_str() + ".")
            .unwrap_or_default()
    }

    /// `table[h]`: the value index of each attribute in house `h`.
    fn table(&self) -> Vec<Vec<usize>> {
        let k = self.houses();
        let mut table = vec![vec![0; self.values.len()]; k];
        for (item, &h) in self.positions.iter().enumerate() {
            table[h][item / k] = item % k;
        }
        table
    }
}

fn random_clue(positions: &[usize], houses: usize, attributes: usize, rng: &mut Rng) -> Clue {
    let n = houses * attributes;
    loop {
        let x = rng.below(n as u64) as usize;
        let y = rng.below(n as u64) as usize;
        // Two items of one attribute are never in one house: skip such pairs
        // for the relations where that makes the clue trivial.
        let same_attribute = x / houses == y / houses;
        let clue = match rng.below(10) {
            0 => Clue::At(x, positions[x]),
            1 => Clue::NotAt(x, rng.below(houses as u64) as usize),
            2..=4 => Clue::Same(x, y),
            5 => Clue::NotSame(x, y),
            6 => Clue::LeftOf(x, y),
            7 | 8 => Clue::NextTo(x, y),
            _ => Clue::Before(x, y),
        };
        let trivial = x == y || (same_attribute && matches!(clue, Clue::NotSame(..)));
        if !trivial && clue.holds(positions) {
            return clue;
        }
    }
}

/// Spaces and the punctuation of a table row (`House 1: Bob | cat`).
fn is_word_break(c: char) -> bool {
    c.is_whitespace() || (c.is_ascii() && ASCII_BREAKS[c as usize])
}

/// [`is_word_break`] for ASCII, as a table (false past ASCII): a row is read byte by byte.
const ASCII_BREAKS: [bool; 256] = {
    let mut table = [false; 256];
    let breaks = b" \t\n\r\x0b\x0c,;:|-=#.()[]";
    let mut i = 0;
    while i < breaks.len() {
        table[breaks[i] as usize] = true;
        i += 1;
    }
    table
};

/// The character at byte `at`: its length, and whether it breaks words (decoded only
/// outside ASCII, where a Unicode space breaks words too).
fn char_at(line: &str, at: usize) -> (usize, bool) {
    match line.as_bytes()[at] {
        b if b.is_ascii() => (1, ASCII_BREAKS[usize::from(b)]),
        _ => line[at..]
            .chars()
            .next()
            .map_or((1, false), |c| (c.len_utf8(), is_word_break(c))),
    }
}

/// The words of a line, split at [`is_word_break`].
fn words(line: &str) -> impl Iterator<Item = &str> {
    let ascii = line.is_ascii();
    let bytes = line.as_bytes();
    // Where the run of breaks (`breaks`) or of word characters from `at` ends.
    let run_end = move |mut at: usize, breaks: bool| {
        if ascii {
            while at < bytes.len() && ASCII_BREAKS[usize::from(bytes[at])] == breaks {
                at += 1;
            }
            return at;
        }
        while at < line.len() {
            let (len, is_break) = char_at(line, at);
            if is_break != breaks {
                break;
            }
            at += len;
        }
        at
    };
    let mut at = 0;
    std::iter::from_fn(move || {
        let start = run_end(at, true);
        at = run_end(start, false);
        (at > start).then(|| &line[start..at])
    })
}

/// `a` and `b` are one word, ignoring ASCII case (most words a row is matched against
/// differ in length or first letter; most matches are written as the prompt wrote them).
fn same_word(a: &str, b: &str) -> bool {
    let first = |w: &str| w.as_bytes().first().map(u8::to_ascii_lowercase);
    a.len() == b.len() && first(a) == first(b) && (a == b || a.eq_ignore_ascii_case(b))
}

/// Most houses and attributes ([`Zebra::validate`]): a read table fits fixed arrays.
const MAX_SIDE: usize = 7;

/// `table[h][a]`: the value index of attribute `a` in house `h`, as read.
type ReadTable = [[Option<u8>; MAX_SIDE]; MAX_SIDE];

/// Reads the table: for each house, the value index of every attribute.
fn parse_table(task: &ZebraTask, answer: &str) -> Result<ReadTable, InvalidAction> {
    let (k, m) = (task.houses(), task.values.len());
    let mut table: ReadTable = [[None; MAX_SIDE]; MAX_SIDE];
    let mut given = [false; MAX_SIDE];
    for line in verigym_verifiers::answer::lines(answer) {
        let mut house = None;
        let mut row = [None; MAX_SIDE];
        let mut category_words = 0;
        let mut filled = 0;
        for word in words(line) {
            if same_word(word, "House") {
                continue;
            }
            if word.starts_with(|c: char| c.is_ascii_digit())
                && let Ok(h) = word.parse::<usize>()
            {
                if !(1..=k).contains(&h) || house.replace(h - 1).is_some() {
                    return Err(format!("bad house number in `{line}`").into());
                }
                continue;
            }
            let in_attribute = |a: usize| {
                task.values[a]
                    .iter()
                    .position(|v| same_word(v, word))
                    .map(|v| (a, v))
            };
            // Rows usually list the values in the header's order: try the next
            // attribute first, then every one.
            let found = (filled < m)
                .then(|| in_attribute(filled))
                .flatten()
                .or_else(|| (0..m).find_map(in_attribute));
            if found.is_none()
                && task
                    .categories
                    .iter()
                    .any(|&c| CATEGORIES[c].0.eq_ignore_ascii_case(word))
            {
                category_words += 1;
                continue;
            }
            let Some((a, v)) = found else {
                return Err(format!("unknown value `{word}`").into());
            };
            filled += 1;
            if row[a].replace(v as u8).is_some() {
                return Err(
                    format!("two {}s in `{line}`", CATEGORIES[task.categories[a]].0).into(),
                );
            }
        }
        match house {
            None if row.iter().all(Option::is_none) => {} // blank or header line
            None => return Err(format!("no house number in `{line}`").into()),
            Some(_) if category_words > 0 => {
                return Err(format!("category names mixed into `{line}`").into());
            }
            Some(h) => {
                if row[..m].contains(&None) {
                    return Err(format!("house {} lacks a value", h + 1).into());
                }
                if std::mem::replace(&mut given[h], true) {
                    return Err(format!("house {} given twice", h + 1).into());
                }
                table[h] = row;
            }
        }
    }
    match given[..k].iter().position(|&g| !g) {
        Some(h) => Err(format!("house {} missing", h + 1).into()),
        None => Ok(table),
    }
}

pub struct Zebra;

pub type ZebraEnv = SingleTurn<Zebra>;

impl Question for Zebra {
    type Config = ZebraConfig;
    type Task = ZebraTask;
    const SPEC: EnvSpec = EnvSpec {
        id: "logic/zebra-v1",
        kind: EnvKind::SingleTurn,
        description: "Einstein/zebra puzzle with a minimal clue set and a unique solution; answer the full table",
        players: 1,
        max_steps: 1,
        reward_range: (0.0, 1.0),
        zero_sum: false,
        fixed_start: false,
        presets: &[
            Preset {
                name: "easy",
                overrides: r#"{"houses":3,"attributes":3}"#,
            },
            Preset {
                name: "medium",
                overrides: "{}",
            },
            Preset {
                name: "hard",
                overrides: r#"{"houses":5,"attributes":5}"#,
            },
        ],
    };

    fn validate(config: &ZebraConfig) -> Result<(), ConfigError> {
        if !(2..=7).contains(&config.houses) || !(2..=7).contains(&config.attributes) {
            return Err("houses and attributes must be 2..=7".into());
        }
        Ok(())
    }

    fn generate(config: &ZebraConfig, rng: &mut Rng) -> ZebraTask {
        let (k, m) = (config.houses, config.attributes);
        // Names always; the other categories at random.
        let mut others: Vec<usize> = (1..CATEGORIES.len()).collect();
        rng.shuffle(&mut others);
        let mut categories = vec![0];
        categories.extend_from_slice(&others[..m - 1]);
        let values: Vec<Vec<String>> = categories
            .iter()
            .map(|&c| {
                let mut pool: Vec<&str> = CATEGORIES[c].2.to_vec();
                rng.shuffle(&mut pool);
                pool[..k].iter().map(|s| s.to_string()).collect()
            })
            .collect();
        let mut positions = vec![0; k * m];
        for a in 0..m {
            let mut houses: Vec<usize> = (0..k).collect();
            rng.shuffle(&mut houses);
            positions[a * k..(a + 1) * k].copy_from_slice(&houses);
        }
        let mut clues = Vec::new();
        while count_solutions(k, m, &clues, 2).0 > 1 {
            clues.push(random_clue(&positions, k, m, rng));
        }
        // Drop clues the solution does not need, in random order.
        rng.shuffle(&mut clues);
        let mut i = 0;
        while i < clues.len() {
            let removed = clues.remove(i);
            if count_solutions(k, m, &clues, 2).0 != 1 {
                clues.insert(i, removed);
                i += 1;
            }
        }
        ZebraTask {
            categories,
            values,
            clues,
            positions,
        }
    }

    fn prompt(task: &ZebraTask) -> String {
        let k = task.houses();
        let mut text = format!(
            "There are {k} houses in a row, numbered 1 to {k} from left to right. Each house has one person, \
             and each of the following takes a different value in every house:\n"
        );
        for (a, &c) in task.categories.iter().enumerate() {
            text.push_str(&format!(
                "- {}: {}\n",
                CATEGORIES[c].0,
                task.values[a].join(", ")
            ));
        }
        text.push_str("\nClues:\n");
        for (i, &clue) in task.clues.iter().enumerate() {
            text.push_str(&format!("{}. {}\n", i + 1, task.clue_text(clue)));
        }
        text.push_str(&format!(
            "\nThe clues have exactly one solution. Give the full table inside \\boxed{{}}: {k} lines, one per \
             house, each like `House 1: <{}>` listing that house's value of every category, separated by commas.",
            task.categories.iter().map(|&c| CATEGORIES[c].0).collect::<Vec<_>>().join(", ")
        ));
        text
    }

    fn structured(task: &ZebraTask) -> Value {
        let categories: Vec<&str> = task.categories.iter().map(|&c| CATEGORIES[c].0).collect();
        json!({ "categories": categories, "values": task.values, "clues": task.clues })
    }

    fn reference(task: &ZebraTask) -> String {
        task.table()
            .iter()
            .enumerate()
            .map(|(h, row)| {
                let vals: Vec<&str> = row
                    .iter()
                    .enumerate()
                    .map(|(a, &v)| task.values[a][v].as_str())
                    .collect();
                format!("House {}: {}", h + 1, vals.join(", "))
            })
            .collect::<Vec<_>>()
            .join("\n")
    }

    fn check(task: &ZebraTask, answer: &str) -> Result<bool, CheckError> {
        let k = task.houses();
        // House `h` holds value `v` of attribute `a` when `positions` says so.
        let table = parse_table(task, answer)?;
        Ok(table[..k].iter().enumerate().all(|(h, row)| {
            row[..task.values.len()]
                .iter()
                .enumerate()
                .all(|(a, &v)| v.is_some_and(|v| task.positions[a * k + usize::from(v)] == h))
        }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::single_turn::testing::{cross_reference_rate, passes, standard_answers};
    use proptest::prelude::{ProptestConfig, any, prop_assert_eq, proptest};

    /// Independent counter: every combination of per-attribute permutations,
    /// keeping those where every clue holds (small sizes only).
    fn count_by_enumeration(task: &ZebraTask) -> usize {
        let (k, m) = (task.houses(), task.values.len());
        let mut perms = Vec::new();
        permutations(&mut (0..k).collect(), 0, &mut perms);
        let mut positions = vec![0; k * m];
        let mut count = 0;
        let mut index = vec![0usize; m];
        loop {
            for a in 0..m {
                positions[a * k..(a + 1) * k].copy_from_slice(&perms[index[a]]);
            }
            count += usize::from(task.clues.iter().all(|c| c.holds(&positions)));
            let mut a = 0;
            while a < m {
                index[a] += 1;
                if index[a] < perms.len() {
                    break;
                }
                index[a] = 0;
                a += 1;
            }
            if a == m {
                return count;
            }
        }
    }

    fn permutations(items: &mut Vec<usize>, start: usize, out: &mut Vec<Vec<usize>>) {
        if start == items.len() {
            out.push(items.clone());
            return;
        }
        for i in start..items.len() {
            items.swap(start, i);
            permutations(items, start + 1, out);
            items.swap(start, i);
        }
    }

    #[test]
    fn reference_passes_and_degenerate_answers_fail() {
        standard_answers::<Zebra>(&ZebraConfig::default(), 20);
        standard_answers::<Zebra>(
            &ZebraConfig {
                houses: 5,
                attributes: 6,
            },
            5,
        );
    }

    #[test]
    fn table_answers_are_read_leniently_and_checked_strictly() {
        let task = Zebra::generate(
            &ZebraConfig {
                houses: 3,
                attributes: 2,
            },
            &mut Rng::from_seed(1),
        );
        let reference = Zebra::reference(&task);
        let lines: Vec<&str> = reference.lines().collect();
        let header: Vec<&str> = task.categories.iter().map(|&c| CATEGORIES[c].0).collect();
        let reordered = format!(
            "House | {}\n{}\n{}\n{}",
            header.join(" | "),
            lines[2],
            lines[0],
            lines[1]
        );
        assert!(passes::<Zebra>(&task, &reordered));
        let markdown = reference.replace("House ", "| ").replace([':', ','], " |");
        assert!(passes::<Zebra>(&task, &markdown), "{markdown}");
        // Unicode spaces (no-break, ideographic) separate words as ASCII ones do.
        let unicode_spaces = reference.replace(' ', "\u{a0}").replace(',', "\u{3000}");
        assert!(passes::<Zebra>(&task, &unicode_spaces), "{unicode_spaces}");
        assert!(!passes::<Zebra>(&task, &reference.replace(' ', "\u{b7}")));
        assert!(
            !passes::<Zebra>(&task, &lines[..2].join("\n")),
            "a missing house"
        );
        // Swap two houses' names: a wrong table.
        let table = task.table();
        let name = |h: usize| task.values[0][table[h][0]].clone();
        let swapped = reference
            .replace(&name(0), "@")
            .replace(&name(1), &name(0))
            .replace('@', &name(1));
        assert!(!passes::<Zebra>(&task, &swapped));
        let hedged = reference.replacen(&name(0), &format!("{} or {}", name(0), name(1)), 1);
        assert!(!passes::<Zebra>(&task, &hedged));
    }

    #[test]
    fn another_tasks_reference_never_passes() {
        assert!(
            cross_reference_rate::<Zebra>(
                &ZebraConfig {
                    houses: 3,
                    attributes: 3
                },
                500
            ) < 0.01
        );
        assert_eq!(
            cross_reference_rate::<Zebra>(&ZebraConfig::default(), 300),
            0.0
        );
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(40))]
        #[test]
        fn clue_sets_have_exactly_one_solution_and_are_minimal(seed in any::<u64>(), houses in 2usize..=4, attributes in 2usize..=3) {
            let task = Zebra::generate(&ZebraConfig { houses, attributes }, &mut Rng::from_seed(seed));
            prop_assert_eq!(count_by_enumeration(&task), 1);
            for i in 0..task.clues.len() {
                let mut fewer = task.clone();
                fewer.clues.remove(i);
                prop_assert_eq!(count_by_enumeration(&fewer) > 1, true);
            }
        }
    }
}
