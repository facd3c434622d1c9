//! `logic/skyscrapers-v1`: place buildings of heights 1..n in a latin
//! square so that the visibility clues hold; exactly one solution.
//!
//! # Task
//! An `n × n` grid (4..=7). A clue outside the grid says how many buildings
//! are visible looking along that row or column from that side (taller
//! buildings hide shorter ones behind them). The generator draws a random
//! latin square, computes all `4n` clues, and keeps the grid when they give
//! a unique solution; then it removes clues in random order while a limit-2
//! solution count stays 1.
//!
//! # Action
//! The full grid, one row per line, numbers separated by spaces, in
//! `\boxed{…}` or as the whole reply.
//! Read by the single-turn rule (`crate::single_turn`): reasoning is dropped,
//! then the last `\boxed{…}` counts (boxes that disagree are a hedge and
//! score 0), else the whole reply; prose around the box is ignored.
//!
//! # Observation
//! The four clue lists (`.` for no clue). Structured: the same, 0 = none.
//!
//! # Reward
//! 1 and `passed` for a latin square matching every clue; else 0.
//! Breakdown: `correct`, `format`.
//!
//! # Episode end
//! After the one answer.
//!
//! # Parameters
//! `n`, `target_clues` (stop removing clues at this many; 0 = minimal).
//!
//! # Seeding
//! Solution and clue removal order come from the task rng.
//!
//! # Version history
//! v1: first version.

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use verigym_verifiers::grid::{is_latin_square, parse_grid, visible_count};

use crate::core::{EnvKind, EnvSpec, Preset};
use crate::error::{ConfigError, NoTask};
use crate::logic::solvers::latin::LatinSolver;
use crate::rng::Rng;
use crate::single_turn::{CheckError, Question, SingleTurn};

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct SkyscrapersConfig {
    pub n: usize,
    /// Stop removing clues at this many (0: remove while unique).
    pub target_clues: usize,
}

impl Default for SkyscrapersConfig {
    fn default() -> Self {
        SkyscrapersConfig {
            n: 5,
            target_clues: 12,
        }
    }
}

/// Clues per side; 0 = no clue. `top[c]` looks down column c, `left[r]`
/// looks right along row r, and so on.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Clues {
    pub top: Vec<u8>,
    pub bottom: Vec<u8>,
    pub left: Vec<u8>,
    pub right: Vec<u8>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SkyscrapersTask {
    pub n: usize,
    pub clues: Clues,
    pub solution: Vec<u8>,
}

fn row(grid: &[u8], n: usize, r: usize) -> impl DoubleEndedIterator<Item = u8> + '_ {
    (0..n).map(move |c| grid[r * n + c])
}

fn col(grid: &[u8], n: usize, c: usize) -> impl DoubleEndedIterator<Item = u8> + '_ {
    (0..n).map(move |r| grid[r * n + c])
}

fn all_clues(grid: &[u8], n: usize) -> Clues {
    Clues {
        top: (0..n).map(|c| visible_count(col(grid, n, c))).collect(),
        bottom: (0..n)
            .map(|c| visible_count(col(grid, n, c).rev()))
            .collect(),
        left: (0..n).map(|r| visible_count(row(grid, n, r))).collect(),
        right: (0..n)
            .map(|r| visible_count(row(grid, n, r).rev()))
            .collect(),
    }
}

fn matches(clues: &Clues, grid: &[u8], n: usize) -> bool {
    let actual = all_clues(grid, n);
    let side = |want: &[u8], got: &[u8]| want.iter().zip(got).all(|(&w, &g)| w == 0 || w == g);
    side(&clues.top, &actual.top)
        && side(&clues.bottom, &actual.bottom)
        && side(&clues.left, &actual.left)
        && side(&clues.right, &actual.right)
}

/// Every permutation of `1..=n`, each a row candidate.
fn permutations(n: usize) -> Vec<Vec<u8>> {
    let mut out = Vec::new();
    let mut items: Vec<u8> = (1..=n as u8).collect();
    // Heap's algorithm, iterative.
    let mut c = vec![0usize; n];
    out.push(items.clone());
    let mut i = 0;
    while i < n {
        if c[i] < i {
            if i % 2 == 0 {
                items.swap(0, i)
            } else {
                items.swap(c[i], i)
            }
            out.push(items.clone());
            c[i] += 1;
            i = 0;
        } else {
            c[i] = 0;
            i += 1;
        }
    }
    out
}

/// Counts solutions up to `limit`: rows from permutations that meet their
/// row clues and the height bounds of the column clues (a building `d`
/// cells from a clue `k` is at most `n - k + 1 + d` tall), columns kept
/// distinct by masks, top clues checked as rows arrive, all clues at the end.
/// Spends one of `steps` per search step (and one per permutation and row
/// for the row options); `None` when they run out first.
fn count_solutions(
    n: usize,
    clues: &Clues,
    perms: &[Vec<u8>],
    limit: usize,
    steps: &mut u64,
) -> Option<usize> {
    *steps = steps.checked_sub((n * perms.len()) as u64)?;
    let bound = |clue: u8, distance: usize| {
        if clue == 0 {
            n
        } else {
            n + 1 + distance - clue as usize
        }
    };
    let options: Vec<Vec<&Vec<u8>>> = (0..n)
        .map(|r| {
            perms
                .iter()
                .filter(|p| {
                    (clues.left[r] == 0 || visible_count(p.iter().copied()) == clues.left[r])
                        && (clues.right[r] == 0
                            || visible_count(p.iter().rev().copied()) == clues.right[r])
                        && p.iter().enumerate().all(|(c, &h)| {
                            (h as usize) <= bound(clues.top[c], r)
                                && (h as usize) <= bound(clues.bottom[c], n - 1 - r)
                        })
                })
                .collect()
        })
        .collect();
    // Per depth and column: the tallest building so far and how many are
    // seen from the top.
    let mut tallest = vec![vec![0u8; n]; n + 1];
    let mut seen_top = vec![vec![0u8; n]; n + 1];
    let mut used = vec![0u16; n];
    let mut next = vec![0usize; n + 1];
    let mut placed: Vec<&Vec<u8>> = Vec::with_capacity(n);
    let mut grid = vec![0u8; n * n];
    let mut found = 0;
    loop {
        *steps = steps.checked_sub(1)?;
        let r = placed.len();
        if r == n {
            if matches(clues, &grid, n) {
                found += 1;
                if found >= limit {
                    return Some(found);
                }
            }
        } else if next[r] < options[r].len() {
            let p = options[r][next[r]];
            next[r] += 1;
            let top_ok = (0..n).all(|c| {
                let seen = seen_top[r][c] + u8::from(p[c] > tallest[r][c]);
                let done = p[c] as usize == n || tallest[r][c] as usize == n;
                clues.top[c] == 0 || (seen <= clues.top[c] && (!done || seen == clues.top[c]))
            });
            if top_ok && p.iter().enumerate().all(|(c, &v)| used[c] & (1 << v) == 0) {
                for (c, &v) in p.iter().enumerate() {
                    used[c] |= 1 << v;
                    grid[r * n + c] = v;
                    seen_top[r + 1][c] = seen_top[r][c] + u8::from(v > tallest[r][c]);
                    tallest[r + 1][c] = tallest[r][c].max(v);
                }
                placed.push(p);
                next[r + 1] = 0;
            }
            continue;
        }
        let Some(p) = placed.pop() else {
            return Some(found);
        };
        for (c, &v) in p.iter().enumerate() {
            used[c] &= !(1 << v);
        }
    }
}

/// Solver steps spent at most for one task, over all drawn squares and
/// every uniqueness check while clues are dropped.
const MAX_STEPS: u64 = 100_000_000;

pub struct Skyscrapers;

pub type SkyscrapersEnv = SingleTurn<Skyscrapers>;

impl Question for Skyscrapers {
    type Config = SkyscrapersConfig;
    type Task = SkyscrapersTask;
    const SPEC: EnvSpec = EnvSpec {
        id: "logic/skyscrapers-v1",
        kind: EnvKind::SingleTurn,
        description: "Skyscrapers: a latin square of heights matching visibility clues; unique solution",
        players: 1,
        max_steps: 1,
        reward_range: (0.0, 1.0),
        zero_sum: false,
        fixed_start: false,
        presets: &[
            Preset {
                name: "easy",
                overrides: r#"{"n":4,"target_clues":0}"#,
            },
            Preset {
                name: "medium",
                overrides: "{}",
            },
            Preset {
                name: "hard",
                overrides: r#"{"n":5,"target_clues":7}"#,
            },
        ],
    };

    fn validate(config: &SkyscrapersConfig) -> Result<(), ConfigError> {
        if !(4..=7).contains(&config.n) || config.target_clues > 4 * config.n {
            return Err("need 4 <= n <= 7 and target_clues <= 4n".into());
        }
        Ok(())
    }

    fn generate(config: &SkyscrapersConfig, rng: &mut Rng) -> SkyscrapersTask {
        Self::try_generate(config, rng).unwrap_or_else(|message| panic!("{message}"))
    }

    fn try_generate(config: &SkyscrapersConfig, rng: &mut Rng) -> Result<SkyscrapersTask, NoTask> {
        generate_within(config, rng, MAX_STEPS)
    }

    fn prompt(task: &SkyscrapersTask) -> String {
        let n = task.n;
        let show = |v: &[u8]| {
            v.iter()
                .map(|&c| {
                    if c == 0 {
                        ".".to_string()
                    } else {
                        c.to_string()
                    }
                })
                .collect::<Vec<_>>()
                .join(" ")
        };
        format!(
            "Skyscrapers on a {n}x{n} grid: place a building of height 1-{n} in every cell so that each row and each \
             column contains every height exactly once. A clue says how many buildings are visible when looking \
             along that row or column from that side; a taller building hides every shorter one behind it. \
             (. = no clue.)\nTop (columns left to right, looking down): {}\nBottom (columns left to right, looking \
             up): {}\nLeft (rows top to bottom, looking right): {}\nRight (rows top to bottom, looking left): {}\n\n\
             The solution is unique. Answer with the grid, {n} lines of {n} numbers separated by spaces, inside \
             \\boxed{{}}.",
            show(&task.clues.top),
            show(&task.clues.bottom),
            show(&task.clues.left),
            show(&task.clues.right)
        )
    }

    fn structured(task: &SkyscrapersTask) -> Value {
        json!({ "n": task.n, "clues": task.clues })
    }

    fn reference(task: &SkyscrapersTask) -> String {
        task.solution
            .chunks(task.n)
            .map(|r| r.iter().map(u8::to_string).collect::<Vec<_>>().join(" "))
            .collect::<Vec<_>>()
            .join("\n")
    }

    fn check(task: &SkyscrapersTask, answer: &str) -> Result<bool, CheckError> {
        let grid = parse_grid(answer, task.n, task.n, task.n as u8).map_err(|e| e.to_string())?;
        Ok(is_latin_square(&grid, task.n) && matches(&task.clues, &grid, task.n))
    }
}

/// Draws latin squares until all their clues have one solution, then drops
/// clues (keeping it unique) down to `target_clues`; large grids with few
/// clues (`n: 7, target_clues: 0`) make each uniqueness check slow, so all
/// of it is bounded by `max_steps` solver steps (a count, not time, so the
/// outcome is a pure function of config and seed).
fn generate_within(
    config: &SkyscrapersConfig,
    rng: &mut Rng,
    max_steps: u64,
) -> Result<SkyscrapersTask, NoTask> {
    let n = config.n;
    let mut steps = max_steps;
    let out_of_steps = || {
        format!(
            "no {n}x{n} skyscrapers puzzle with {} clues was proven unique within {max_steps} \
             solver steps; lower n or raise target_clues",
            config.target_clues
        )
    };
    let perms = permutations(n);
    let mut blank = LatinSolver::new(n, None);
    blank.load(&vec![0; n * n]);
    loop {
        if crate::cancel::cancelled() {
            return Err(NoTask::Cancelled);
        }
        let solution = blank.random_solution(rng).expect("latin squares exist");
        let mut clues = all_clues(&solution, n);
        if count_solutions(n, &clues, &perms, 2, &mut steps).ok_or_else(out_of_steps)? != 1 {
            continue;
        }
        let mut slots: Vec<(usize, usize)> = (0..4)
            .flat_map(|side| (0..n).map(move |i| (side, i)))
            .collect();
        rng.shuffle(&mut slots);
        let mut remaining = 4 * n;
        for (side, i) in slots {
            if remaining <= config.target_clues {
                break;
            }
            let list = match side {
                0 => &mut clues.top,
                1 => &mut clues.bottom,
                2 => &mut clues.left,
                _ => &mut clues.right,
            };
            let kept = std::mem::replace(&mut list[i], 0);
            if count_solutions(n, &clues, &perms, 2, &mut steps).ok_or_else(out_of_steps)? != 1 {
                let list = match side {
                    0 => &mut clues.top,
                    1 => &mut clues.bottom,
                    2 => &mut clues.left,
                    _ => &mut clues.right,
                };
                list[i] = kept;
            } else {
                remaining -= 1;
            }
        }
        return Ok(SkyscrapersTask { n, clues, solution });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::single_turn::testing::{cross_reference_rate, passes, standard_answers};
    use proptest::prelude::{ProptestConfig, any, prop_assert_eq, proptest};

    /// 7x7 puzzles without clues to spare make every uniqueness check slow:
    /// the search gives up with a message naming the fields (it used to run
    /// for minutes); here with a thousandth of the budget, to keep the test
    /// quick.
    #[test]
    fn a_slow_config_gives_up_within_its_steps() {
        let config = SkyscrapersConfig {
            n: 7,
            target_clues: 0,
        };
        let error = generate_within(&config, &mut Rng::from_seed(1), MAX_STEPS / 1000).unwrap_err();
        assert!(error.to_string().contains("target_clues"), "{error}");
    }

    /// Independent counter: every latin square (cell by cell, scanning for
    /// clashes), clues checked at the end.
    fn count_plainly(task: &SkyscrapersTask, grid: &mut Vec<u8>, limit: usize) -> usize {
        let n = task.n;
        let Some(cell) = grid.iter().position(|&v| v == 0) else {
            return usize::from(matches(&task.clues, grid, n));
        };
        let (r, c) = (cell / n, cell % n);
        let mut total = 0;
        for v in 1..=n as u8 {
            if (0..n).all(|i| grid[r * n + i] != v && grid[i * n + c] != v) {
                grid[cell] = v;
                total += count_plainly(task, grid, limit - total);
                grid[cell] = 0;
                if total >= limit {
                    break;
                }
            }
        }
        total
    }

    #[test]
    fn reference_passes_and_degenerate_answers_fail() {
        for n in [4, 5] {
            standard_answers::<Skyscrapers>(&SkyscrapersConfig { n, target_clues: 0 }, 10);
        }
    }

    #[test]
    fn permutations_and_visibility() {
        assert_eq!(permutations(4).len(), 24);
        assert_eq!(visible_count([2, 1, 4, 3].into_iter()), 2);
        let task = Skyscrapers::generate(
            &SkyscrapersConfig {
                n: 4,
                target_clues: 0,
            },
            &mut Rng::from_seed(1),
        );
        let mut transposed = vec![0; 16];
        for r in 0..4 {
            for c in 0..4 {
                transposed[c * 4 + r] = task.solution[r * 4 + c];
            }
        }
        if transposed != task.solution {
            let text: Vec<String> = transposed.iter().map(u8::to_string).collect();
            assert!(!passes::<Skyscrapers>(&task, &text.join(" ")));
        }
    }

    #[test]
    fn another_tasks_reference_rarely_passes() {
        assert!(
            cross_reference_rate::<Skyscrapers>(
                &SkyscrapersConfig {
                    n: 4,
                    target_clues: 0
                },
                1000
            ) < 0.01
        );
        assert_eq!(
            cross_reference_rate::<Skyscrapers>(&SkyscrapersConfig::default(), 200),
            0.0
        );
    }

    #[test]
    fn five_by_five_puzzles_are_unique_by_plain_count() {
        for seed in 0..3 {
            let task =
                Skyscrapers::generate(&SkyscrapersConfig::default(), &mut Rng::from_seed(seed));
            assert_eq!(count_plainly(&task, &mut vec![0; 25], 2), 1);
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(32))]
        #[test]
        fn generated_clues_have_exactly_one_solution(seed in any::<u64>()) {
            let n = 4;
            let task = Skyscrapers::generate(&SkyscrapersConfig { n, target_clues: 0 }, &mut Rng::from_seed(seed));
            prop_assert_eq!(count_plainly(&task, &mut vec![0; n * n], 2), 1);
        }
    }
}
