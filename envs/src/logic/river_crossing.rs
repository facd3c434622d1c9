//! `logic/river-crossing-v1`: ferry everything across a river without
//! leaving a predator alone with its prey, in the fewest crossings.
//!
//! # Task
//! A farmer and `items` things (wolf, goat, cabbage, …) on the near bank; a
//! boat the farmer rows, carrying at most `capacity` things besides them.
//! Some pairs conflict ("the wolf eats the goat"): neither bank may hold
//! both without the farmer. The conflicts are drawn at random (each pair
//! with probability `conflict_chance`); the generator finds the fewest
//! crossings by breadth-first search over the 2^(items+1) bank states and
//! keeps puzzles that are solvable in at least `min_crossings`.
//!
//! # Action
//! The crossings in order, one per line (or separated by `;` or `,`), each naming
//! what the farmer takes: `goat`, `wolf and cabbage`, or `nothing` (also
//! `alone`, `none`). Filler such as `take the … across`/`back` is ignored;
//! any other word is an error. In `\boxed{…}` or as the whole reply.
//! Read by the single-turn rule (`crate::single_turn`): reasoning is dropped,
//! then the last `\boxed{…}` counts (boxes that disagree are a hedge and
//! score 0), else the whole reply; prose around the box is ignored.
//!
//! # Observation
//! The things, the conflicts and the boat size. Structured: the same.
//!
//! # Reward
//! 1 and `passed` when every crossing is legal (what is taken is on the
//! farmer's bank, fits in the boat, and no bank is left unsafe), everything
//! ends on the far bank, and the number of crossings equals the optimum;
//! else 0. Breakdown: `correct`, `format`.
//!
//! # Episode end
//! After the one answer.
//!
//! # Parameters
//! `items` (3..=8), `capacity` (1..=3), `conflict_chance` (0..=1),
//! `min_crossings` (1..=40).
//!
//! # Seeding
//! Names and conflicts come from the task rng.
//!
//! # Version history
//! v1: first version.

use std::collections::VecDeque;

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use crate::core::{EnvKind, EnvSpec, InvalidAction, Preset};
use crate::error::{ConfigError, NoTask};
use crate::rng::Rng;
use crate::single_turn::{CheckError, Question, SingleTurn};

/// Puzzles drawn at most for one task before the config is reported as
/// having none within budget (a count, never time: the outcome is a pure
/// function of config and seed).
const MAX_ATTEMPTS: u64 = 100_000;
/// Solver work allowed over all the puzzles drawn for one task, counted as
/// the (bank state, load) pairs the solves tried: at most `2^(2*items+1)`
/// per draw. Few conflicts leave every state safe, so each solve tries them
/// all: `items: 8, conflict_chance: 0` took over 10 s to give up after
/// 100,000 draws and now stops after about 8,000. Counting the pairs
/// actually tried (not the most a draw could take) leaves the hardest level,
/// whose draws rarely pass `min_crossings` but mostly end early, at least
/// 32,000 draws, so no level's task changes.
const MAX_WORK: u64 = 1 << 30;

const NAMES: [&str; 12] = [
    "wolf", "goat", "cabbage", "dog", "cat", "mouse", "fox", "hen", "grain", "lion", "sheep", "hay",
];
/// Words a crossing may contain besides the things' names.
const FILLER: [&str; 14] = [
    "take", "takes", "the", "a", "across", "back", "over", "cross", "with", "and", "+", "bring",
    "row", "farmer",
];
const NOTHING: [&str; 4] = ["nothing", "alone", "none", "empty"];
/// Most crossings an answer may list (bounded work on hostile input).
const MAX_ANSWER_CROSSINGS: usize = 500;

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct RiverCrossingConfig {
    pub items: usize,
    pub capacity: usize,
    pub conflict_chance: f64,
    pub min_crossings: usize,
}

impl Default for RiverCrossingConfig {
    fn default() -> Self {
        RiverCrossingConfig {
            items: 6,
            capacity: 2,
            conflict_chance: 0.6,
            min_crossings: 9,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RiverCrossingTask {
    pub names: Vec<String>,
    pub capacity: usize,
    /// `(predator, prey)`: they may not share a bank without the farmer.
    pub conflicts: Vec<(usize, usize)>,
    pub optimal_crossings: usize,
    /// One shortest solution: the things (bitmask) taken on each crossing.
    pub solution: Vec<u32>,
}

/// Bank state: bit `i` = thing `i` is on the far bank; bit `items` = the
/// farmer is.
fn safe(task_conflicts: &[(usize, usize)], items: usize, state: u32) -> bool {
    let farmer_far = state >> items & 1 == 1;
    task_conflicts.iter().all(|&(a, b)| {
        let (a_far, b_far) = (state >> a & 1 == 1, state >> b & 1 == 1);
        // Together on a bank without the farmer is unsafe.
        a_far != b_far || a_far == farmer_far
    })
}

/// The state after the farmer crosses with `load`, if that crossing is legal.
fn cross(task: &RiverCrossingTask, state: u32, load: u32) -> Option<u32> {
    let items = task.names.len();
    let farmer_far = state >> items & 1 == 1;
    let on_farmer_side = if farmer_far {
        state
    } else {
        !state & ((1 << items) - 1)
    };
    if load & !on_farmer_side != 0 || load.count_ones() as usize > task.capacity {
        return None;
    }
    let next = state ^ load ^ (1 << items);
    safe(&task.conflicts, items, next).then_some(next)
}

/// Shortest crossing sequence from all-near to all-far, by breadth-first
/// search; `None` when there is none. Adds the (state, load) pairs it tries
/// to `work`.
fn solve_counting(task: &RiverCrossingTask, work: &mut u64) -> Option<Vec<u32>> {
    let items = task.names.len();
    let goal = (1u32 << (items + 1)) - 1;
    let mut came_from: Vec<Option<(u32, u32)>> = vec![None; 1 << (items + 1)];
    let mut queue = VecDeque::from([0u32]);
    let mut seen = vec![false; 1 << (items + 1)];
    seen[0] = true;
    while let Some(state) = queue.pop_front() {
        *work += 1 << items;
        if state == goal {
            let mut path = Vec::new();
            let mut at = goal;
            while let Some((prev, load)) = came_from[at as usize] {
                path.push(load);
                at = prev;
            }
            path.reverse();
            return Some(path);
        }
        for load in 0..1u32 << items {
            if let Some(next) = cross(task, state, load)
                && !std::mem::replace(&mut seen[next as usize], true)
            {
                came_from[next as usize] = Some((state, load));
                queue.push_back(next);
            }
        }
    }
    None
}

fn load_text(task: &RiverCrossingTask, load: u32) -> String {
    if load == 0 {
        return "nothing".into();
    }
    (0..task.names.len())
        .filter(|&i| load >> i & 1 == 1)
        .map(|i| task.names[i].clone())
        .collect::<Vec<_>>()
        .join(" and ")
}

/// One crossing: a set of names, or `nothing`.
fn parse_crossing(task: &RiverCrossingTask, line: &str) -> Result<u32, InvalidAction> {
    let mut load = 0u32;
    let mut nothing = false;
    let words = line
        .split(|c: char| c.is_whitespace() || ",.:()*-".contains(c))
        .filter(|w| !w.is_empty());
    for (k, word) in words.enumerate() {
        let lower = word.to_ascii_lowercase();
        // A leading step number (`1.`, `2)`) is allowed.
        if k == 0 && lower.bytes().all(|b| b.is_ascii_digit()) {
            continue;
        }
        let singular = lower.strip_suffix('s').unwrap_or(&lower);
        if let Some(i) = task
            .names
            .iter()
            .position(|n| *n == lower || (*n == singular && !n.ends_with('s')))
        {
            if load >> i & 1 == 1 {
                return Err(format!("`{line}` names {} twice", task.names[i]).into());
            }
            load |= 1 << i;
        } else if NOTHING.contains(&lower.as_str()) {
            nothing = true;
        } else if !FILLER.contains(&lower.as_str()) {
            return Err(format!("unexpected `{word}` in `{line}`").into());
        }
    }
    match (nothing, load) {
        (true, 0) => Ok(0),
        (true, _) => Err(format!("`{line}` says nothing and names things").into()),
        (false, 0) => Err(format!("`{line}` names nothing to take (say `nothing`)").into()),
        (false, load) => Ok(load),
    }
}

fn parse_crossings(task: &RiverCrossingTask, answer: &str) -> Result<Vec<u32>, InvalidAction> {
    let mut crossings = Vec::new();
    for line in answer.split(['\n', ';', ',']) {
        if line.trim().is_empty() {
            continue;
        }
        crossings.push(parse_crossing(task, line)?);
        if crossings.len() > MAX_ANSWER_CROSSINGS {
            return Err("too many crossings".into());
        }
    }
    Ok(crossings)
}

pub struct RiverCrossing;

pub type RiverCrossingEnv = SingleTurn<RiverCrossing>;

impl Question for RiverCrossing {
    type Config = RiverCrossingConfig;
    type Task = RiverCrossingTask;
    const SPEC: EnvSpec = EnvSpec {
        id: "logic/river-crossing-v1",
        kind: EnvKind::SingleTurn,
        description: "Ferry a farmer's things across a river without leaving predator and prey alone, in the fewest crossings",
        players: 1,
        max_steps: 1,
        reward_range: (0.0, 1.0),
        zero_sum: false,
        fixed_start: false,
        presets: &Preset::graded(Self::LEVELS, [0, 2, 3]),
    };
    // Shortest solutions come in odd lengths (every trip out but the last
    // needs a trip back); these thresholds keep 15-60% of random conflict
    // sets (measured), so generation stays fast.
    const LEVELS: &'static [&'static str] = &[
        r#"{"items":3,"capacity":1,"min_crossings":5}"#,
        r#"{"items":4,"capacity":1,"min_crossings":7}"#,
        "{}",
        r#"{"items":7,"min_crossings":11}"#,
        r#"{"items":8,"capacity":3,"min_crossings":11}"#,
    ];

    fn effort(task: &RiverCrossingTask) -> Option<f64> {
        Some(task.optimal_crossings as f64)
    }

    fn validate(config: &RiverCrossingConfig) -> Result<(), ConfigError> {
        if !(3..=8).contains(&config.items) {
            return Err("items must be 3..=8".into());
        }
        if !(1..=3).contains(&config.capacity) || config.capacity >= config.items {
            return Err("capacity must be 1..=3 and below items".into());
        }
        if !(0.0..=1.0).contains(&config.conflict_chance) {
            return Err("conflict_chance must be 0..=1".into());
        }
        if !(1..=40).contains(&config.min_crossings) {
            return Err("min_crossings must be 1..=40".into());
        }
        Ok(())
    }

    fn generate(config: &RiverCrossingConfig, rng: &mut Rng) -> RiverCrossingTask {
        Self::try_generate(config, rng).unwrap_or_else(|message| panic!("{message}"))
    }

    fn try_generate(
        config: &RiverCrossingConfig,
        rng: &mut Rng,
    ) -> Result<RiverCrossingTask, NoTask> {
        let mut pool: Vec<&str> = NAMES.to_vec();
        let mut work = 0u64;
        let mut draws = 0u64;
        while draws < MAX_ATTEMPTS && work < MAX_WORK {
            draws += 1;
            if crate::cancel::cancelled() {
                return Err(NoTask::Cancelled);
            }
            rng.shuffle(&mut pool);
            let names: Vec<String> = pool[..config.items].iter().map(|s| s.to_string()).collect();
            let mut conflicts = Vec::new();
            for a in 0..config.items {
                for b in a + 1..config.items {
                    if rng.chance(config.conflict_chance) {
                        // Random direction: who eats whom.
                        conflicts.push(if rng.chance(0.5) { (a, b) } else { (b, a) });
                    }
                }
            }
            let mut task = RiverCrossingTask {
                names,
                capacity: config.capacity,
                conflicts,
                optimal_crossings: 0,
                solution: Vec::new(),
            };
            if let Some(solution) = solve_counting(&task, &mut work)
                && solution.len() >= config.min_crossings
            {
                task.optimal_crossings = solution.len();
                task.solution = solution;
                return Ok(task);
            }
        }
        Err(format!(
            "no solvable puzzle of {} items (boat for {}) needs {} crossings within \
             {draws} drawn puzzles ({MAX_WORK} solver steps); lower min_crossings or change \
             conflict_chance",
            config.items, config.capacity, config.min_crossings
        )
        .into())
    }

    fn prompt(task: &RiverCrossingTask) -> String {
        let conflicts: Vec<String> = task
            .conflicts
            .iter()
            .map(|&(a, b)| format!("the {} eats the {}", task.names[a], task.names[b]))
            .collect();
        format!(
            "A farmer must get these things across a river: {}. The farmer rows a boat that holds the farmer and \
             at most {} of them; only the farmer can row, so the farmer is on every crossing. If left on a bank \
             without the farmer, {}. Bring everything to the far bank in as few crossings as possible (going \
             back counts as a crossing); only a shortest solution counts.\n\nAnswer with the crossings in order, \
             one per line, each naming what the farmer takes (e.g. \"{} and {}\", or \"nothing\"), inside \
             \\boxed{{}}.",
            task.names.join(", "),
            task.capacity,
            if conflicts.is_empty() {
                "nothing bad happens".to_string()
            } else {
                conflicts.join(", ")
            },
            task.names[0],
            task.names[1]
        )
    }

    fn structured(task: &RiverCrossingTask) -> Value {
        let conflicts: Vec<Value> = task
            .conflicts
            .iter()
            .map(|&(a, b)| json!({ "eats": task.names[a], "eaten": task.names[b] }))
            .collect();
        json!({ "things": task.names, "capacity": task.capacity, "conflicts": conflicts })
    }

    fn reference(task: &RiverCrossingTask) -> String {
        task.solution
            .iter()
            .map(|&load| load_text(task, load))
            .collect::<Vec<_>>()
            .join("\n")
    }

    fn check(task: &RiverCrossingTask, answer: &str) -> Result<bool, CheckError> {
        let crossings = parse_crossings(task, answer)?;
        if crossings.len() != task.optimal_crossings {
            return Ok(false);
        }
        let mut state = 0u32;
        for &load in &crossings {
            match cross(task, state, load) {
                Some(next) => state = next,
                None => return Ok(false),
            }
        }
        Ok(state == (1 << (task.names.len() + 1)) - 1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::single_turn::testing::{cross_reference_rate, passes, standard_answers};
    use proptest::prelude::{ProptestConfig, any, prop_assert_eq, proptest};

    /// A config with no puzzle that long gives up with a message naming the
    /// field to relax (it used to panic after 100,000 draws).
    #[test]
    fn an_infeasible_config_says_no_task_instead_of_panicking() {
        let config = RiverCrossingConfig {
            min_crossings: 40,
            ..Default::default()
        };
        let error = RiverCrossing::try_generate(&config, &mut Rng::from_seed(1)).unwrap_err();
        assert!(error.to_string().contains("min_crossings"), "{error}");
    }

    /// Without conflicts every solve tries every (state, load) pair and
    /// the shortest crossing stays short: 8 items used to take over 10 s of
    /// 100,000 draws to give up, now its work budget.
    #[test]
    fn a_conflict_free_config_gives_up_within_its_work() {
        let config = RiverCrossingConfig {
            items: 8,
            conflict_chance: 0.0,
            ..Default::default()
        };
        let error = RiverCrossing::try_generate(&config, &mut Rng::from_seed(1)).unwrap_err();
        assert!(
            error
                .to_string()
                .contains(&format!("({MAX_WORK} solver steps)")),
            "{error}"
        );
    }

    fn presets() -> Vec<RiverCrossingConfig> {
        vec![
            RiverCrossingConfig {
                items: 3,
                capacity: 1,
                min_crossings: 5,
                ..Default::default()
            },
            RiverCrossingConfig::default(),
            RiverCrossingConfig {
                items: 7,
                min_crossings: 11,
                ..Default::default()
            },
        ]
    }

    fn wolf_goat_cabbage() -> RiverCrossingTask {
        let mut task = RiverCrossingTask {
            names: vec!["wolf".into(), "goat".into(), "cabbage".into()],
            capacity: 1,
            conflicts: vec![(0, 1), (1, 2)],
            optimal_crossings: 0,
            solution: Vec::new(),
        };
        task.solution = solve_counting(&task, &mut 0).unwrap();
        task.optimal_crossings = task.solution.len();
        task
    }

    #[test]
    fn the_classic_takes_seven_crossings() {
        let task = wolf_goat_cabbage();
        assert_eq!(task.optimal_crossings, 7);
        for good in [
            "goat\nnothing\nwolf\ngoat\ncabbage\nnothing\ngoat",
            "1. take the goat across\n2. back alone\n3. the wolf\n4. bring the goat back\n5. cabbage\n6. nothing\n7. goat",
            "goat; nothing; cabbage; goat; wolf; none; goats",
        ] {
            assert!(passes::<RiverCrossing>(&task, good), "{good:?}");
        }
        for bad in [
            "wolf\nnothing\ngoat\nwolf\ncabbage\nnothing\ngoat", // goat eats cabbage
            "goat\nnothing\nwolf\nnothing\ncabbage\nnothing\ngoat", // wolf eats goat
            "goat\nnothing\nwolf and cabbage\ngoat\nnothing\ngoat\nnothing", // boat too small
            "goat\nwolf\nwolf\ngoat\ncabbage\nnothing\ngoat",    // wolf not on the far bank's side
            "goat\nnothing\nwolf\ngoat\ncabbage\nnothing\ngoat\nnothing\nnothing", // not shortest
            "goat\nnothing\nwolf\ngoat\ncabbage\nnothing",       // goat left behind
            "goat\nnothing\nwolf\ngoat\ncabbage\nnothing\ngoat and nothing",
            "goat\nnothing\nwolf\ngoat\ncabbage\nnothing\nsheep",
        ] {
            assert!(!passes::<RiverCrossing>(&task, bad), "{bad:?}");
        }
    }

    #[test]
    fn reference_passes_and_degenerate_answers_fail() {
        for config in presets() {
            standard_answers::<RiverCrossing>(&config, 20);
        }
    }

    #[test]
    fn another_tasks_reference_rarely_passes() {
        for config in presets() {
            let rate = cross_reference_rate::<RiverCrossing>(&config, 500);
            assert!(rate < 0.01, "{config:?}: {rate}");
        }
    }

    /// Iterative deepening over crossing sequences: the shortest length by
    /// a search that shares nothing with the generator's BFS but `cross`'s
    /// rules, rewritten here from the statement.
    fn shortest_by_deepening(task: &RiverCrossingTask) -> usize {
        let items = task.names.len();
        let goal = (1u32 << (items + 1)) - 1;
        let legal = |state: u32, load: u32| -> Option<u32> {
            let farmer_far = state >> items & 1 == 1;
            let all_on_side = (0..items)
                .filter(|&i| load >> i & 1 == 1)
                .all(|i| (state >> i & 1 == 1) == farmer_far);
            if !all_on_side || load.count_ones() as usize > task.capacity {
                return None;
            }
            let next = state ^ load ^ (1 << items);
            let farmer = next >> items & 1;
            let ok = task
                .conflicts
                .iter()
                .all(|&(a, b)| next >> a & 1 != next >> b & 1 || next >> a & 1 == farmer);
            ok.then_some(next)
        };
        fn search(
            state: u32,
            goal: u32,
            depth: usize,
            items: usize,
            legal: &dyn Fn(u32, u32) -> Option<u32>,
        ) -> bool {
            if state == goal {
                return true;
            }
            depth > 0
                && (0..1u32 << items).any(|load| {
                    legal(state, load)
                        .is_some_and(|next| search(next, goal, depth - 1, items, legal))
                })
        }
        (0..).find(|&d| search(0, goal, d, items, &legal)).unwrap()
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(24))]
        #[test]
        fn the_stated_optimum_is_the_shortest_solution(seed in any::<u64>(), items in 3usize..=4) {
            let config = RiverCrossingConfig { items, capacity: 1, conflict_chance: 0.5, min_crossings: 1 };
            let task = RiverCrossing::generate(&config, &mut Rng::from_seed(seed));
            prop_assert_eq!(shortest_by_deepening(&task), task.optimal_crossings);
        }
    }
}
