//! `logic/blocksworld-v1`: restack named blocks into goal towers in the
//! fewest moves (STRIPS blocksworld, optimum proven by A* search).
//!
//! # Task
//! `blocks` blocks with distinct random three-letter names stand in towers
//! on a table; a start and a goal arrangement (every block's place given)
//! are drawn independently. A move takes a clear block (nothing on it) and
//! puts it on the table or on another clear block. The generator finds the
//! fewest moves by A* search (its admissible bound: the blocks not yet on
//! their goal foundation, plus those that must move twice) and keeps tasks
//! needing at least `min_moves`.
//!
//! # Action
//! The moves in order, each `move(X, Y)` with `Y` a block or `table`; also
//! `move X to Y`, `move X onto the table`, `move X on top of Y`, or
//! `move X from Z to Y` (then `Z` must be what `X` stands on). Moves are
//! separated by newlines, `;` or `,`; list numbering (`1.`, `2)`) is skipped
//! and case is ignored. In `\boxed{…}` or as the whole reply.
//! Read by the single-turn rule (`crate::single_turn`): reasoning is dropped,
//! then the last `\boxed{…}` counts (boxes that disagree are a hedge and
//! score 0), else the whole reply; prose around the box is ignored.
//!
//! # Observation
//! The blocks, the start towers and the goal towers, bottom to top.
//! Structured: the same.
//!
//! # Reward
//! 1 and `passed` when the plan, simulated from the start, makes only legal
//! moves, ends in exactly the goal towers and is as short as the optimum
//! (any shortest plan passes; the check never compares with one reference
//! plan); else 0. Breakdown: `correct`, `format`.
//!
//! # Episode end
//! After the one answer.
//!
//! # Parameters
//! `blocks` (3..=10), `min_moves` (1..=2·blocks − 2).
//!
//! # Seeding
//! Names and both arrangements come from the task rng.
//!
//! # Version history
//! v1: first version.

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use crate::budget::draw_until;
use crate::core::{EnvKind, EnvSpec, Preset};
use crate::error::{ConfigError, NoTask};
use crate::logic::solvers::plan::{Domain, Found, draw_object_names, read_actions, shortest_plan};
use crate::rng::Rng;
use crate::single_turn::{CheckError, Question, SingleTurn};

/// Draws at most for one task.
const MAX_DRAWS: u64 = 2_000;
/// States A* may expand for one draw before the draw is given up.
const MAX_EXPANSIONS: usize = 60_000;
/// Moves read at most from one answer.
const MAX_MOVES: usize = 400;

const VERBS: &[&[&str]] = &[&["move"]];
const FILLERS: &[&str] = &["to", "onto", "on", "the", "top", "of", "from", "then"];
/// Words no block may be named.
const RESERVED: &[&str] = &[
    "move", "to", "onto", "on", "the", "top", "of", "from", "then", "table",
];

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct BlocksworldConfig {
    pub blocks: usize,
    pub min_moves: usize,
}

impl Default for BlocksworldConfig {
    fn default() -> Self {
        BlocksworldConfig {
            blocks: 6,
            min_moves: 6,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct BlocksworldTask {
    pub names: Vec<String>,
    /// What each block stands on: 0 = the table, `i + 1` = block `i`.
    pub start: Vec<usize>,
    pub goal: Vec<usize>,
    /// One shortest plan: (block, where it goes, 0 = the table).
    pub plan: Vec<(usize, usize)>,
}

/// The search domain: a state packs what block `i` stands on into bits
/// `4i..4i + 4`.
struct Restack<'a> {
    goal: &'a [usize],
}

fn pack(on: &[usize]) -> u64 {
    on.iter()
        .enumerate()
        .fold(0, |acc, (i, &below)| acc | (below as u64) << (4 * i))
}

fn support(state: u64, block: usize) -> usize {
    (state >> (4 * block) & 15) as usize
}

/// A bit per block with nothing on it.
fn clear_blocks(state: u64, n: usize) -> u32 {
    (0..n).fold((1u32 << n) - 1, |clear, i| match support(state, i) {
        0 => clear,
        below => clear & !(1 << (below - 1)),
    })
}

/// Moves `block` onto `to` (0 = the table) when legal: the block is clear,
/// does not stand there already, and `to` is the table or another clear
/// block.
fn apply_move(state: u64, n: usize, block: usize, to: usize) -> Option<u64> {
    let clear = clear_blocks(state, n);
    let legal = clear & (1 << block) != 0
        && support(state, block) != to
        && (to == 0 || (to - 1 != block && clear & (1 << (to - 1)) != 0));
    legal.then(|| state & !(15 << (4 * block)) | (to as u64) << (4 * block))
}

impl Restack<'_> {
    /// The blocks below each block's goal place (bit `j` = block `j`).
    fn goal_below(&self, block: usize) -> u32 {
        let mut below = 0;
        let mut at = self.goal[block];
        while at != 0 {
            below |= 1 << (at - 1);
            at = self.goal[at - 1];
        }
        below
    }
}

impl Domain for Restack<'_> {
    type Action = (usize, usize);

    fn successors(&self, state: u64, out: &mut Vec<((usize, usize), u64)>) {
        let n = self.goal.len();
        let clear = clear_blocks(state, n);
        for block in (0..n).filter(|&b| clear & (1 << b) != 0) {
            let lifted = state & !(15 << (4 * block));
            let on = support(state, block);
            for to in (0..=n).filter(|&to| {
                to != on && (to == 0 || (to - 1 != block && clear & (1 << (to - 1)) != 0))
            }) {
                out.push(((block, to), lifted | (to as u64) << (4 * block)));
            }
        }
    }

    fn is_goal(&self, state: u64) -> bool {
        state == pack(self.goal)
    }

    /// Each block not on its goal foundation (its goal support, itself on
    /// its goal foundation, down to the table) moves at least once; one that
    /// stands above a block it must end above, which itself must move, moves
    /// at least twice (off it before that block moves, back above it after).
    fn lower_bound(&self, state: u64) -> u32 {
        let n = self.goal.len();
        let mut misplaced = 0u32;
        let mut below = [0u32; 16];
        for (block, beneath) in below.iter_mut().enumerate().take(n) {
            let mut at = block;
            loop {
                let under = support(state, at);
                if under != self.goal[at] {
                    misplaced |= 1 << block;
                }
                if under == 0 {
                    break;
                }
                *beneath |= 1 << (under - 1);
                at = under - 1;
            }
        }
        let twice = (0..n)
            .filter(|&b| {
                misplaced & (1 << b) != 0 && below[b] & self.goal_below(b) & misplaced != 0
            })
            .count();
        misplaced.count_ones() + twice as u32
    }
}

/// A random arrangement: blocks in random order, each on the table or on
/// top of a random tower so far.
fn arrangement(n: usize, rng: &mut Rng) -> Vec<usize> {
    let mut order: Vec<usize> = (0..n).collect();
    rng.shuffle(&mut order);
    let mut tops: Vec<usize> = Vec::new();
    let mut on = vec![0; n];
    for block in order {
        let slot = rng.below(tops.len() as u64 + 1) as usize;
        if slot == tops.len() {
            tops.push(block);
        } else {
            on[block] = tops[slot] + 1;
            tops[slot] = block;
        }
    }
    on
}

/// The towers of an arrangement, bottom to top, ordered by their bottom block.
fn towers(on: &[usize]) -> Vec<Vec<usize>> {
    (0..on.len())
        .filter(|&b| on[b] == 0)
        .map(|bottom| {
            let mut tower = vec![bottom];
            while let Some(up) = (0..on.len()).find(|&b| on[b] == tower[tower.len() - 1] + 1) {
                tower.push(up);
            }
            tower
        })
        .collect()
}

fn tower_names(task: &BlocksworldTask, on: &[usize]) -> Vec<Vec<String>> {
    towers(on)
        .into_iter()
        .map(|tower| tower.into_iter().map(|b| task.names[b].clone()).collect())
        .collect()
}

fn place_name(task: &BlocksworldTask, to: usize) -> &str {
    if to == 0 {
        "table"
    } else {
        &task.names[to - 1]
    }
}

/// A place named in an answer: 0 = the table, `i + 1` = block `i`.
fn read_place(task: &BlocksworldTask, word: &str) -> Result<usize, CheckError> {
    if word.eq_ignore_ascii_case("table") {
        return Ok(0);
    }
    task.names
        .iter()
        .position(|name| name.eq_ignore_ascii_case(word))
        .map(|b| b + 1)
        .ok_or_else(|| format!("`{word}` is not a block name or `table`").into())
}

pub struct Blocksworld;

pub type BlocksworldEnv = SingleTurn<Blocksworld>;

impl Blocksworld {
    /// One draw: a start and a goal, kept when the optimum is long enough
    /// and A* proves it within its budget.
    fn draw(config: &BlocksworldConfig, rng: &mut Rng) -> Option<BlocksworldTask> {
        let n = config.blocks;
        let names = draw_object_names(n, RESERVED, rng);
        let start = arrangement(n, rng);
        let goal = arrangement(n, rng);
        let Found::Plan(plan) =
            shortest_plan(&Restack { goal: &goal }, pack(&start), MAX_EXPANSIONS)
        else {
            return None;
        };
        (plan.len() >= config.min_moves).then_some(BlocksworldTask {
            names,
            start,
            goal,
            plan,
        })
    }
}

impl Question for Blocksworld {
    type Config = BlocksworldConfig;
    type Task = BlocksworldTask;
    const SPEC: EnvSpec = EnvSpec {
        id: "logic/blocksworld-v1",
        kind: EnvKind::SingleTurn,
        description: "Restack named blocks into goal towers in the fewest moves; any shortest legal plan passes",
        players: 1,
        max_steps: 1,
        reward_range: (0.0, 1.0),
        zero_sum: false,
        fixed_start: false,
        presets: &Preset::graded(Self::LEVELS, [1, 3, 5]),
    };
    const LEVELS: &'static [&'static str] = &[
        r#"{"blocks":3,"min_moves":2}"#,
        r#"{"blocks":4,"min_moves":3}"#,
        r#"{"blocks":5,"min_moves":4}"#,
        "{}",
        r#"{"blocks":7,"min_moves":7}"#,
        r#"{"blocks":8,"min_moves":9}"#,
        r#"{"blocks":9,"min_moves":11}"#,
    ];

    fn effort(task: &BlocksworldTask) -> Option<f64> {
        Some((task.plan.len() * task.names.len()) as f64)
    }

    fn validate(config: &BlocksworldConfig) -> Result<(), ConfigError> {
        if !(3..=10).contains(&config.blocks) {
            return Err("blocks must be in 3..=10".into());
        }
        if !(1..=2 * config.blocks - 2).contains(&config.min_moves) {
            return Err("min_moves must be in 1..=2*blocks-2".into());
        }
        Ok(())
    }

    fn generate(config: &BlocksworldConfig, rng: &mut Rng) -> BlocksworldTask {
        Self::try_generate(config, rng).unwrap_or_else(|e| panic!("{e}"))
    }

    fn try_generate(config: &BlocksworldConfig, rng: &mut Rng) -> Result<BlocksworldTask, NoTask> {
        draw_until(
            MAX_DRAWS,
            || Self::draw(config, rng),
            || {
                format!(
                    "no pair of {}-block arrangements in {MAX_DRAWS} draws needed {} moves (within the search \
                     budget): lower min_moves or blocks",
                    config.blocks, config.min_moves
                )
            },
        )
    }

    fn prompt(task: &BlocksworldTask) -> String {
        let show = |on: &[usize]| {
            tower_names(task, on)
                .iter()
                .map(|tower| tower.join(" "))
                .collect::<Vec<_>>()
                .join("\n")
        };
        format!(
            "Blocksworld: {} blocks named {} stand in towers on a table. One move takes a clear block (one with \
             nothing on it) and puts it on the table or on top of another clear block.\n\n\
             Start (one tower per line, bottom to top):\n{}\n\n\
             Goal (one tower per line, bottom to top):\n{}\n\n\
             Find a plan that turns the start into exactly the goal in as few moves as possible; only a shortest \
             plan counts. Answer with the moves in order, one per line, each written move(X, Y) where X is the \
             block moved and Y is the block it goes onto or table, inside \\boxed{{}}.",
            task.names.len(),
            task.names.join(", "),
            show(&task.start),
            show(&task.goal)
        )
    }

    fn structured(task: &BlocksworldTask) -> Value {
        json!({
            "blocks": task.names,
            "start": tower_names(task, &task.start),
            "goal": tower_names(task, &task.goal),
        })
    }

    fn reference(task: &BlocksworldTask) -> String {
        task.plan
            .iter()
            .map(|&(block, to)| format!("move({}, {})", task.names[block], place_name(task, to)))
            .collect::<Vec<_>>()
            .join("\n")
    }

    fn check(task: &BlocksworldTask, answer: &str) -> Result<bool, CheckError> {
        let mut moves = Vec::new();
        for action in read_actions(answer, VERBS, FILLERS, MAX_MOVES)? {
            let places = action
                .args
                .iter()
                .map(|word| read_place(task, word))
                .collect::<Result<Vec<_>, _>>()?;
            match places[..] {
                [block, to] => moves.push((block, None, to)),
                [block, from, to] => moves.push((block, Some(from), to)),
                _ => {
                    return Err("a move names the block and where it goes: move(X, Y)".into());
                }
            }
        }
        let n = task.names.len();
        let mut state = pack(&task.start);
        for &(block, from, to) in &moves {
            let stands_on = block.checked_sub(1).map(|b| support(state, b));
            if block == 0 || from.is_some_and(|from| Some(from) != stands_on) {
                return Ok(false);
            }
            match apply_move(state, n, block - 1, to) {
                Some(next) => state = next,
                None => return Ok(false),
            }
        }
        Ok(state == pack(&task.goal) && moves.len() == task.plan.len())
    }
}

#[cfg(test)]
#[path = "blocksworld_tests.rs"]
mod tests;
