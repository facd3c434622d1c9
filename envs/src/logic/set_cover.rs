//! `logic/set-cover-v1`: choose the fewest named subsets whose union is the
//! whole universe (minimum set cover, optimum proven by exhaustive
//! branch-and-bound search).
//!
//! # Task
//! A universe of the numbers `1..=universe` and `sets` subsets with distinct
//! random three-letter names, each of `2..=max_size` random numbers; every
//! number lies in some subset. Draws where one subset covers everything,
//! where every subset is needed, or where the greedy cover (largest gain
//! first) is already optimal at the harder levels (`universe` ≥ 12) are
//! redrawn. Names are drawn per task, so one task's cover never answers
//! another.
//!
//! # Action
//! The chosen subset names, separated by spaces, commas, `+` or `;`; case is
//! ignored. In `\boxed{…}` or as the whole reply.
//! Read by the single-turn rule (`crate::single_turn`): reasoning is dropped,
//! then the last `\boxed{…}` counts (boxes that disagree are a hedge and
//! score 0), else the whole reply; prose around the box is ignored.
//!
//! # Observation
//! The universe and the subsets. Structured: the same.
//!
//! # Reward
//! 1 and `passed` for any set of distinct subsets that covers every number
//! and has the fewest subsets possible (every minimum cover passes; the check
//! never compares with one reference cover); else 0. Breakdown: `correct`,
//! `format`.
//!
//! # Episode end
//! After the one answer.
//!
//! # Parameters
//! `universe` (4..=60), `sets` (3..=40), `max_size` (2..=`universe`).
//!
//! # Seeding
//! Names and subsets come from the task rng.
//!
//! # Version history
//! v1: first version.

use std::collections::BTreeSet;

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use crate::core::{EnvKind, EnvSpec, InvalidAction, Preset};
use crate::error::{ConfigError, NoTask};
use crate::logic::names::{draw_names, read_names};
use crate::rng::Rng;
use crate::single_turn::{CheckError, Question, SingleTurn};

/// Draws before giving up on a config.
const MAX_DRAWS: u64 = 2_000;
/// From this universe on, the greedy cover must miss the optimum.
const GREEDY_MISSES_FROM: usize = 12;

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct SetCoverConfig {
    pub universe: usize,
    pub sets: usize,
    pub max_size: usize,
}

impl Default for SetCoverConfig {
    fn default() -> Self {
        SetCoverConfig {
            universe: 12,
            sets: 10,
            max_size: 5,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SetCoverTask {
    pub names: Vec<String>,
    pub universe: usize,
    /// Each subset's numbers as a bit mask (bit `k` = the number `k + 1`).
    pub masks: Vec<u64>,
    /// One minimum cover, as indices (ascending).
    pub cover: Vec<usize>,
}

/// A minimum cover of `full` by `masks`: branch on the subsets holding the
/// uncovered number that the fewest subsets hold, starting from the greedy
/// cover and cutting branches that cannot beat the best so far (the numbers
/// left over the most one subset adds is a lower bound).
fn min_cover(masks: &[u64], full: u64) -> Option<Vec<usize>> {
    fn search(
        masks: &[u64],
        full: u64,
        covered: u64,
        taken: &mut Vec<usize>,
        best: &mut Vec<usize>,
    ) {
        if covered == full {
            if taken.len() < best.len() {
                *best = taken.clone();
            }
            return;
        }
        let missing = full & !covered;
        let most = masks
            .iter()
            .map(|&m| (m & missing).count_ones())
            .max()
            .unwrap_or(0);
        if most == 0 || taken.len() + missing.count_ones().div_ceil(most) as usize >= best.len() {
            return;
        }
        let holders = |bit: u32| masks.iter().filter(|&&m| m >> bit & 1 == 1).count();
        let Some(bit) = (0..64)
            .filter(|&bit| missing >> bit & 1 == 1)
            .min_by_key(|&bit| holders(bit))
        else {
            return;
        };
        for (i, &m) in masks.iter().enumerate() {
            if m >> bit & 1 == 1 {
                taken.push(i);
                search(masks, full, covered | m, taken, best);
                taken.pop();
            }
        }
    }
    let mut best = greedy(masks, full)?;
    search(masks, full, 0, &mut Vec::new(), &mut best);
    best.sort_unstable();
    Some(best)
}

/// The greedy cover: the subset of the largest gain first (`None`: no cover).
fn greedy(masks: &[u64], full: u64) -> Option<Vec<usize>> {
    let (mut covered, mut cover) = (0, Vec::new());
    while covered != full {
        let (i, &m) = masks
            .iter()
            .enumerate()
            .max_by_key(|&(i, &m)| ((m & !covered).count_ones(), std::cmp::Reverse(i)))?;
        if m & !covered == 0 {
            return None;
        }
        covered |= m;
        cover.push(i);
    }
    Some(cover)
}

fn full(universe: usize) -> u64 {
    if universe == 64 {
        u64::MAX
    } else {
        (1 << universe) - 1
    }
}

fn parse_names(answer: &str, task: &SetCoverTask) -> Result<Vec<usize>, InvalidAction> {
    let tokens = answer
        .split(|c: char| c.is_whitespace() || ",+;{}$".contains(c))
        .filter(|t| !t.is_empty());
    read_names(tokens, &task.names, "subset")
}

fn members(mask: u64) -> Vec<usize> {
    (0..64)
        .filter(|k| mask >> k & 1 == 1)
        .map(|k| k + 1)
        .collect()
}

pub struct SetCover;

impl SetCover {
    fn draw(config: &SetCoverConfig, rng: &mut Rng) -> Option<SetCoverTask> {
        let names = draw_names(config.sets, rng);
        let masks: Vec<u64> = (0..config.sets)
            .map(|_| {
                let size = rng.range_usize(2, config.max_size);
                let mut numbers: Vec<usize> = (0..config.universe).collect();
                rng.shuffle(&mut numbers);
                numbers[..size].iter().fold(0, |m, &k| m | 1 << k)
            })
            .collect();
        let all = full(config.universe);
        if masks.iter().fold(0, |u, &m| u | m) != all {
            return None;
        }
        let cover = min_cover(&masks, all)?;
        let greedy_fine = config.universe < GREEDY_MISSES_FROM
            || greedy(&masks, all).is_some_and(|g| g.len() > cover.len());
        (cover.len() >= 2 && cover.len() < config.sets && greedy_fine).then_some(SetCoverTask {
            names,
            universe: config.universe,
            masks,
            cover,
        })
    }
}

pub type SetCoverEnv = SingleTurn<SetCover>;

impl Question for SetCover {
    type Config = SetCoverConfig;
    type Task = SetCoverTask;
    const SPEC: EnvSpec = EnvSpec {
        id: "logic/set-cover-v1",
        kind: EnvKind::SingleTurn,
        description: "Choose the fewest subsets that together cover a universe; any minimum cover passes (optimum proven)",
        players: 1,
        max_steps: 1,
        reward_range: (0.0, 1.0),
        zero_sum: false,
        fixed_start: false,
        presets: &Preset::graded(Self::LEVELS, [1, 3, 5]),
    };
    const LEVELS: &'static [&'static str] = &[
        r#"{"universe":6,"sets":5,"max_size":3}"#,
        r#"{"universe":8,"sets":6,"max_size":4}"#,
        r#"{"universe":10,"sets":8,"max_size":4}"#,
        "{}",
        r#"{"universe":18,"sets":14,"max_size":6}"#,
        r#"{"universe":25,"sets":20,"max_size":7}"#,
        r#"{"universe":40,"sets":30,"max_size":9}"#,
    ];

    fn effort(task: &SetCoverTask) -> Option<f64> {
        Some((task.universe + task.names.len()) as f64)
    }

    fn validate(config: &SetCoverConfig) -> Result<(), ConfigError> {
        if !(4..=60).contains(&config.universe)
            || !(3..=40).contains(&config.sets)
            || !(2..=config.universe).contains(&config.max_size)
        {
            return Err(
                "need 4 <= universe <= 60, 3 <= sets <= 40 and 2 <= max_size <= universe".into(),
            );
        }
        Ok(())
    }

    fn generate(config: &SetCoverConfig, rng: &mut Rng) -> SetCoverTask {
        Self::try_generate(config, rng).unwrap_or_else(|message| panic!("{message}"))
    }

    fn try_generate(config: &SetCoverConfig, rng: &mut Rng) -> Result<SetCoverTask, NoTask> {
        crate::budget::draw_until(
            MAX_DRAWS,
            || Self::draw(config, rng),
            || {
                format!(
                    "no draw in {MAX_DRAWS} covered the universe with a minimum of two subsets or more, \
                     fewer than all (and missed by the greedy cover): change sets (now {}) or max_size \
                     (now {})",
                    config.sets, config.max_size
                )
            },
        )
    }

    fn prompt(task: &SetCoverTask) -> String {
        let lines: Vec<String> = task
            .masks
            .iter()
            .zip(&task.names)
            .map(|(&m, name)| {
                let numbers: Vec<String> = members(m).iter().map(usize::to_string).collect();
                format!("{name}: {}", numbers.join(", "))
            })
            .collect();
        format!(
            "Choose as few of these subsets as possible so that together they contain every number from \
             1 to {}.\nSubsets:\n{}\n\nAnswer with the names of the chosen subsets, separated by spaces, \
             inside \\boxed{{}}.",
            task.universe,
            lines.join("\n")
        )
    }

    fn structured(task: &SetCoverTask) -> Value {
        let subsets: Vec<Value> = task
            .masks
            .iter()
            .zip(&task.names)
            .map(|(&m, name)| json!({"name": name, "members": members(m)}))
            .collect();
        json!({ "universe": task.universe, "subsets": subsets })
    }

    fn reference(task: &SetCoverTask) -> String {
        task.cover
            .iter()
            .map(|&i| task.names[i].as_str())
            .collect::<Vec<_>>()
            .join(" ")
    }

    fn check(task: &SetCoverTask, answer: &str) -> Result<bool, CheckError> {
        let chosen = parse_names(answer, task)?;
        let distinct: BTreeSet<usize> = chosen.iter().copied().collect();
        let covered = chosen.iter().fold(0, |u, &i| u | task.masks[i]);
        Ok(distinct.len() == chosen.len()
            && covered == full(task.universe)
            && chosen.len() == task.cover.len())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::single_turn::testing::{cross_reference_rate, passes, standard_answers};

    /// Universe 1..=6: AAA {1,2,3}, BBB {4,5,6}, CCC {1,4}, DDD {2,5}, EEE
    /// {3,6}, FFF {1,2,4,5}: two covers of two (AAA+BBB, EEE+FFF).
    fn small() -> SetCoverTask {
        let names = ["AAA", "BBB", "CCC", "DDD", "EEE", "FFF"]
            .map(String::from)
            .to_vec();
        let sets: [&[usize]; 6] = [
            &[1, 2, 3],
            &[4, 5, 6],
            &[1, 4],
            &[2, 5],
            &[3, 6],
            &[1, 2, 4, 5],
        ];
        let masks: Vec<u64> = sets
            .iter()
            .map(|s| s.iter().fold(0, |m, &k| m | 1 << (k - 1)))
            .collect();
        let cover = min_cover(&masks, full(6)).unwrap();
        SetCoverTask {
            names,
            universe: 6,
            masks,
            cover,
        }
    }

    #[test]
    fn the_search_finds_the_minimum_a_brute_force_finds() {
        let mut rng = Rng::from_seed(11);
        for _ in 0..200 {
            let (u, s) = (3 + rng.below(6) as usize, 2 + rng.below(8) as usize);
            let masks: Vec<u64> = (0..s).map(|_| rng.below(1 << u)).collect();
            let all = full(u);
            let brute = (0u32..1 << s)
                .filter(|mask| {
                    (0..s)
                        .filter(|i| mask >> i & 1 == 1)
                        .fold(0, |c, i| c | masks[i])
                        == all
                })
                .map(u32::count_ones)
                .min();
            let cover = min_cover(&masks, all);
            assert_eq!(cover.as_ref().map(|c| c.len() as u32), brute);
            if let Some(cover) = cover {
                assert_eq!(cover.iter().fold(0, |c, &i| c | masks[i]), all);
            }
        }
    }

    #[test]
    fn reference_passes_and_degenerate_answers_fail() {
        for level in [0, 3, 6] {
            let config = serde_json::from_str(SetCover::LEVELS[level]).unwrap();
            standard_answers::<SetCover>(&config, 30);
        }
    }

    #[test]
    fn every_minimum_cover_passes_and_others_fail() {
        let task = small();
        assert_eq!(task.cover.len(), 2);
        for good in [
            "AAA BBB",
            "EEE FFF",
            "fff, eee",
            "BBB + AAA",
            "\\boxed{EEE FFF}",
        ] {
            assert!(passes::<SetCover>(&task, good), "{good:?}");
        }
        for bad in [
            "AAA",
            "AAA CCC",
            "CCC DDD EEE",
            "AAA BBB CCC",
            "AAA AAA BBB",
            "AAA BBB or EEE FFF",
            "\\boxed{AAA BBB} \\boxed{CCC}",
            "AAA XYZ",
            "2",
            "",
        ] {
            assert!(!passes::<SetCover>(&task, bad), "{bad:?}");
        }
    }

    #[test]
    fn generated_tasks_need_several_subsets_and_not_all() {
        let mut rng = Rng::from_seed(5);
        for level in SetCover::LEVELS {
            let config: SetCoverConfig = serde_json::from_str(level).unwrap();
            SetCover::validate(&config).unwrap();
            for _ in 0..10 {
                let task = SetCover::generate(&config, &mut rng);
                for name in &task.names {
                    assert!(!SetCover::check(&task, name).unwrap());
                }
                assert!(!SetCover::check(&task, &task.names.join(" ")).unwrap());
                assert!(SetCover::check(&task, &SetCover::reference(&task)).unwrap());
            }
        }
    }

    #[test]
    fn another_tasks_reference_never_passes() {
        for level in [0, 3] {
            let config = serde_json::from_str(SetCover::LEVELS[level]).unwrap();
            let rate = cross_reference_rate::<SetCover>(&config, 1000);
            assert!(rate < 0.01, "{level}: {rate}");
        }
    }
}
