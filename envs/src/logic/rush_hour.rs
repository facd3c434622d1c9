//! `logic/rush-hour-v1`: slide cars out of the way so the red car can leave,
//! in the fewest moves.
//!
//! # Task
//! A `size`×`size` parking lot (6 by default) with the red car `X`
//! (horizontal, length 2) in row 3 and `cars` other vehicles (length 2 or 3,
//! horizontal or vertical) labelled `A`, `B`, …. A move slides one vehicle
//! along its own direction by one or more free cells. The goal: `X` at the
//! right edge of its row (the exit). The generator places vehicles at
//! random, explores every position reachable from there by breadth-first
//! search, measures each one's distance to the nearest goal position (a
//! second breadth-first search from all goal positions; moves are
//! reversible), and starts the puzzle at a position farthest from the goal,
//! keeping it only when that distance is at least `min_moves`.
//!
//! # Action
//! The moves in order, one per part (newline, comma or `;`): a vehicle
//! letter, a direction (`U`, `D`, `L`, `R` or `up`, `down`, `left`, `right`)
//! and a number of cells (default 1): `A D 2`, `B left 1`, `XR3`. In
//! `\boxed{…}` or as the whole reply.
//!
//! # Observation
//! The lot as a grid of letters with `.` for free cells. Structured: size,
//! vehicles (letter, row, column, length, horizontal).
//!
//! # Reward
//! 1 and `passed` when every move is legal, the last one leaves `X` at the
//! exit, and the number of moves equals the optimum; else 0. Breakdown:
//! `correct`, `format`.
//!
//! # Episode end
//! After the one answer.
//!
//! # Parameters
//! `size` (5..=7), `cars` (2..=14), `min_moves` (1..=30).
//!
//! # Seeding
//! Vehicles and the chosen start come from the task rng; ties among the
//! farthest positions are broken by the rng.
//!
//! # Version history
//! v1: first version.

use std::collections::HashMap;
use std::collections::hash_map::Entry;
use std::hash::{BuildHasherDefault, Hasher};

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use crate::core::{EnvKind, EnvSpec, Preset};
use crate::rng::Rng;
use crate::single_turn::{Question, SingleTurn};

/// Positions explored at most per generated lot; larger ones are redrawn.
const MAX_POSITIONS: usize = 50_000;
/// X and at most 14 cars: 15 positions of 3 bits fit a `u64`.
const MAX_VEHICLES: usize = 15;
/// Most moves an answer may list (bounded work on hostile input).
const MAX_ANSWER_MOVES: usize = 500;

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct RushHourConfig {
    pub size: usize,
    pub cars: usize,
    pub min_moves: usize,
}

impl Default for RushHourConfig {
    fn default() -> Self {
        RushHourConfig {
            size: 6,
            cars: 10,
            min_moves: 8,
        }
    }
}

/// A vehicle: its fixed line and length; its place along the line is part of
/// the position, not of the vehicle.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Vehicle {
    pub letter: char,
    pub horizontal: bool,
    pub length: u8,
    /// The row of a horizontal vehicle, the column of a vertical one.
    pub line: u8,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RushHourTask {
    pub size: usize,
    /// `vehicles[0]` is `X`.
    pub vehicles: Vec<Vehicle>,
    /// Start of each vehicle along its line (column or row of its first cell).
    pub start: Vec<u8>,
    pub optimal_moves: usize,
    /// One shortest solution.
    pub solution: Vec<Move>,
}

/// Slide `vehicle` by `delta` cells (negative: up or left).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Move {
    pub vehicle: usize,
    pub delta: i8,
}

/// The row the red car drives along: the third (the classic exit row).
fn exit_row(size: usize) -> u8 {
    (size as u8 - 1) / 2
}

/// Occupancy bitmask of a position (bit `row * size + col`).
fn occupancy(size: usize, vehicles: &[Vehicle], position: &[u8]) -> u64 {
    let mut occupied = 0u64;
    for (v, &at) in vehicles.iter().zip(position) {
        for k in 0..v.length {
            occupied |= 1 << cell(size, v, at + k);
        }
    }
    occupied
}

/// The cell index of the `offset`-th cell along a vehicle's line.
fn cell(size: usize, v: &Vehicle, offset: u8) -> usize {
    if v.horizontal {
        v.line as usize * size + offset as usize
    } else {
        offset as usize * size + v.line as usize
    }
}

/// Every legal move from `position`, in a fixed order.
fn moves_from(size: usize, vehicles: &[Vehicle], position: &[u8], out: &mut Vec<Move>) {
    out.clear();
    let occupied = occupancy(size, vehicles, position);
    for (i, v) in vehicles.iter().enumerate() {
        let at = position[i];
        for step in 1..=at {
            if occupied >> cell(size, v, at - step) & 1 == 1 {
                break;
            }
            out.push(Move {
                vehicle: i,
                delta: -(step as i8),
            });
        }
        let end = at + v.length; // first cell after the vehicle
        for step in 0..(size as u8).saturating_sub(end) {
            if occupied >> cell(size, v, end + step) & 1 == 1 {
                break;
            }
            out.push(Move {
                vehicle: i,
                delta: step as i8 + 1,
            });
        }
    }
}

/// Applies a move if it is legal: the vehicle exists, stays on the lot and
/// passes only free cells.
fn try_move(size: usize, vehicles: &[Vehicle], position: &mut [u8], m: Move) -> bool {
    let Some(v) = vehicles.get(m.vehicle) else {
        return false;
    };
    let at = i16::from(position[m.vehicle]);
    let target = at + i16::from(m.delta);
    if m.delta == 0 || target < 0 || target + i16::from(v.length) > size as i16 {
        return false;
    }
    let occupied = occupancy(size, vehicles, position);
    let (from, to) = if m.delta < 0 {
        (target, at - 1)
    } else {
        (at + i16::from(v.length), target + i16::from(v.length) - 1)
    };
    if (from..=to).any(|c| occupied >> cell(size, v, c as u8) & 1 == 1) {
        return false;
    }
    position[m.vehicle] = target as u8;
    true
}

fn pack(position: &[u8]) -> u64 {
    position
        .iter()
        .fold(0u64, |acc, &p| acc << 3 | u64::from(p))
}

/// The position of `count` vehicles packed by [`pack`].
fn unpack(mut key: u64, count: usize) -> [u8; MAX_VEHICLES] {
    let mut position = [0u8; MAX_VEHICLES];
    for slot in position[..count].iter_mut().rev() {
        *slot = (key & 7) as u8;
        key >>= 3;
    }
    position
}

/// The packed position after a legal move.
fn moved(key: u64, count: usize, m: Move) -> u64 {
    let shift = 3 * (count - 1 - m.vehicle);
    let at = (key >> shift & 7) as i64 + i64::from(m.delta);
    key & !(7 << shift) | (at as u64) << shift
}

fn is_goal(size: usize, position: &[u8]) -> bool {
    position[0] as usize == size - 2
}

/// A fast deterministic hasher for packed positions (FxHash's mixing).
#[derive(Default)]
struct PositionHasher(u64);

impl Hasher for PositionHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u64(u64::from(b));
        }
    }
    fn write_u64(&mut self, x: u64) {
        self.0 = (self.0.rotate_left(5) ^ x).wrapping_mul(0x517c_c1b7_2722_0a95);
    }
}

type PositionMap<V> = HashMap<u64, V, BuildHasherDefault<PositionHasher>>;

/// Random vehicles on an empty lot; `None` when they do not fit.
fn place_vehicles(config: &RushHourConfig, rng: &mut Rng) -> Option<(Vec<Vehicle>, Vec<u8>)> {
    let size = config.size;
    let row = exit_row(size);
    let red = Vehicle {
        letter: 'X',
        horizontal: true,
        length: 2,
        line: row,
    };
    let mut vehicles = vec![red];
    let mut position = vec![rng.below(size as u64 - 2) as u8];
    let letters = ('A'..='Z').filter(|&c| c != 'X');
    for letter in letters.take(config.cars) {
        let mut placed = false;
        for _ in 0..40 {
            let horizontal = rng.chance(0.5);
            let length = if rng.chance(0.3) { 3 } else { 2 };
            let line = rng.below(size as u64) as u8;
            // A horizontal vehicle in the exit row could never let X out.
            if horizontal && line == row {
                continue;
            }
            let at = rng.below((size - length as usize + 1) as u64) as u8;
            let v = Vehicle {
                letter,
                horizontal,
                length,
                line,
            };
            let occupied = occupancy(size, &vehicles, &position);
            if (0..length).all(|k| occupied >> cell(size, &v, at + k) & 1 == 0) {
                vehicles.push(v);
                position.push(at);
                placed = true;
                break;
            }
        }
        if !placed {
            return None;
        }
    }
    Some((vehicles, position))
}

/// Every position reachable from `start` (packed), in breadth-first order.
fn component(size: usize, vehicles: &[Vehicle], start: u64) -> Option<Vec<u64>> {
    let count = vehicles.len();
    let mut seen: PositionMap<()> = PositionMap::default();
    seen.insert(start, ());
    let mut order = vec![start];
    let mut moves = Vec::new();
    let mut head = 0;
    while head < order.len() {
        let key = order[head];
        head += 1;
        moves_from(size, vehicles, &unpack(key, count)[..count], &mut moves);
        for &m in &moves {
            let next = moved(key, count, m);
            if seen.insert(next, ()).is_none() {
                order.push(next);
                if order.len() > MAX_POSITIONS {
                    return None;
                }
            }
        }
    }
    Some(order)
}

/// Moves to the nearest goal from every position of `positions` (a closed
/// component), by breadth-first search from all goal positions at once.
fn distances_to_goal(size: usize, vehicles: &[Vehicle], positions: &[u64]) -> PositionMap<u32> {
    let count = vehicles.len();
    let mut distance: PositionMap<u32> = PositionMap::default();
    let mut queue: Vec<u64> = Vec::new();
    for &key in positions {
        if is_goal(size, &unpack(key, count)) {
            distance.insert(key, 0);
            queue.push(key);
        }
    }
    let mut moves = Vec::new();
    let mut head = 0;
    while head < queue.len() {
        let key = queue[head];
        head += 1;
        let d = distance[&key];
        moves_from(size, vehicles, &unpack(key, count)[..count], &mut moves);
        for &m in &moves {
            let next = moved(key, count, m);
            if let Entry::Vacant(e) = distance.entry(next) {
                e.insert(d + 1);
                queue.push(next);
            }
        }
    }
    distance
}

/// A shortest solution from `start`: always step to a neighbour one move
/// nearer the goal.
fn descend(
    size: usize,
    vehicles: &[Vehicle],
    start: u64,
    distance: &PositionMap<u32>,
) -> Vec<Move> {
    let count = vehicles.len();
    let mut key = start;
    let mut path = Vec::new();
    let mut moves = Vec::new();
    while !is_goal(size, &unpack(key, count)) {
        let here = distance[&key];
        moves_from(size, vehicles, &unpack(key, count)[..count], &mut moves);
        let m = *moves
            .iter()
            .find(|&&m| distance[&moved(key, count, m)] + 1 == here)
            .expect("a position at distance d > 0 has a neighbour at d - 1");
        path.push(m);
        key = moved(key, count, m);
    }
    path
}

fn render(task: &RushHourTask) -> String {
    let n = task.size;
    let mut grid = vec!['.'; n * n];
    for (v, &at) in task.vehicles.iter().zip(&task.start) {
        for k in 0..v.length {
            grid[cell(n, v, at + k)] = v.letter;
        }
    }
    let row = exit_row(n) as usize;
    grid.chunks(n)
        .enumerate()
        .map(|(r, line)| {
            let mut text: String = line.iter().map(|c| format!("{c} ")).collect();
            text.pop();
            if r == row {
                text.push_str("  <- exit");
            }
            text
        })
        .collect::<Vec<_>>()
        .join("\n")
}

fn move_text(task: &RushHourTask, m: Move) -> String {
    let v = &task.vehicles[m.vehicle];
    let direction = match (v.horizontal, m.delta > 0) {
        (true, true) => 'R',
        (true, false) => 'L',
        (false, true) => 'D',
        (false, false) => 'U',
    };
    format!("{} {direction} {}", v.letter, m.delta.unsigned_abs())
}

/// Reads one move such as `A D 2`, `B left`, `XR3`.
fn parse_move(task: &RushHourTask, part: &str) -> Result<Move, String> {
    let compact: String = part.chars().filter(|c| !c.is_whitespace()).collect();
    let mut chars = compact.chars();
    let letter = chars
        .next()
        .ok_or_else(|| format!("empty move `{part}`"))?
        .to_ascii_uppercase();
    let vehicle = task
        .vehicles
        .iter()
        .position(|v| v.letter == letter)
        .ok_or_else(|| format!("no vehicle `{letter}` in `{part}`"))?;
    let rest = chars.as_str().to_ascii_lowercase();
    let digits_at = rest
        .find(|c: char| c.is_ascii_digit())
        .unwrap_or(rest.len());
    let (word, count) = rest.split_at(digits_at);
    let sign: i8 = match word {
        "u" | "up" | "l" | "left" => -1,
        "d" | "down" | "r" | "right" => 1,
        _ => return Err(format!("no direction (U, D, L, R) in `{part}`")),
    };
    let horizontal_word = matches!(word, "l" | "left" | "r" | "right");
    if horizontal_word != task.vehicles[vehicle].horizontal {
        return Err(format!(
            "`{part}`: {letter} moves only {}",
            if task.vehicles[vehicle].horizontal {
                "left or right"
            } else {
                "up or down"
            }
        ));
    }
    let cells: i8 = if count.is_empty() {
        1
    } else if count.len() <= 2 && count.bytes().all(|b| b.is_ascii_digit()) {
        count
            .parse()
            .map_err(|_| format!("bad count in `{part}`"))?
    } else {
        return Err(format!("bad count in `{part}`"));
    };
    Ok(Move {
        vehicle,
        delta: sign * cells,
    })
}

fn parse_moves(task: &RushHourTask, answer: &str) -> Result<Vec<Move>, String> {
    let mut moves = Vec::new();
    for part in answer.split(['\n', ',', ';']) {
        if part.trim().is_empty() {
            continue;
        }
        moves.push(parse_move(task, part.trim())?);
        if moves.len() > MAX_ANSWER_MOVES {
            return Err("too many moves".into());
        }
    }
    Ok(moves)
}

pub struct RushHour;

pub type RushHourEnv = SingleTurn<RushHour>;

impl Question for RushHour {
    type Config = RushHourConfig;
    type Task = RushHourTask;
    const SPEC: EnvSpec = EnvSpec {
        id: "logic/rush-hour-v1",
        kind: EnvKind::SingleTurn,
        description: "Rush hour: slide cars so the red car X can exit, in the fewest moves",
        players: 1,
        max_steps: 1,
        reward_range: (0.0, 1.0),
        zero_sum: false,
        fixed_start: false,
        presets: &[
            Preset {
                name: "easy",
                overrides: Self::LEVELS[1],
            },
            Preset {
                name: "medium",
                overrides: Self::LEVELS[3],
            },
            Preset {
                name: "hard",
                overrides: Self::LEVELS[5],
            },
        ],
    };
    const LEVELS: &'static [&'static str] = &[
        r#"{"cars":4,"min_moves":2}"#,
        r#"{"cars":6,"min_moves":3}"#,
        r#"{"cars":8,"min_moves":5}"#,
        "{}",
        r#"{"cars":11,"min_moves":11}"#,
        r#"{"cars":12,"min_moves":14}"#,
    ];

    fn effort(task: &RushHourTask) -> Option<f64> {
        Some(task.optimal_moves as f64)
    }

    fn validate(config: &RushHourConfig) -> Result<(), String> {
        if !(5..=7).contains(&config.size) {
            return Err("size must be 5..=7".into());
        }
        if !(2..=14).contains(&config.cars) || config.cars > config.size * config.size / 3 {
            return Err(format!(
                "cars must be 2..=14 and at most size*size/3 = {}",
                config.size * config.size / 3
            ));
        }
        if !(1..=30).contains(&config.min_moves) {
            return Err("min_moves must be 1..=30".into());
        }
        Ok(())
    }

    fn generate(config: &RushHourConfig, rng: &mut Rng) -> RushHourTask {
        let size = config.size;
        loop {
            let Some((vehicles, placed)) = place_vehicles(config, rng) else {
                continue;
            };
            let count = vehicles.len();
            let Some(positions) = component(size, &vehicles, pack(&placed)) else {
                continue;
            };
            let distance = distances_to_goal(size, &vehicles, &positions);
            // Positions that cannot reach a goal have no distance.
            let Some(farthest) = positions
                .iter()
                .filter_map(|k| distance.get(k))
                .max()
                .copied()
            else {
                continue;
            };
            if (farthest as usize) < config.min_moves {
                continue;
            }
            let candidates: Vec<u64> = positions
                .iter()
                .copied()
                .filter(|k| distance.get(k) == Some(&farthest))
                .collect();
            let start_key = candidates[rng.below(candidates.len() as u64) as usize];
            let solution = descend(size, &vehicles, start_key, &distance);
            let start = unpack(start_key, count)[..count].to_vec();
            return RushHourTask {
                size,
                vehicles,
                start,
                optimal_moves: solution.len(),
                solution,
            };
        }
    }

    fn prompt(task: &RushHourTask) -> String {
        format!(
            "Rush hour on a {n}x{n} lot. Each letter is a vehicle; vehicles only slide along their own direction \
             (a horizontal vehicle left/right, a vertical one up/down) and cannot pass through each other or \
             leave the lot. Get the red car X to the exit at the right edge of its row (X's right end in the last \
             column) in as few moves as possible; a move slides one vehicle any number of free cells, and only a \
             shortest solution counts.\n\n{}\n\nAnswer with the moves in order, one per line, each as the vehicle \
             letter, a direction (U, D, L or R) and the number of cells, e.g. A D 2, inside \\boxed{{}}.",
            render(task),
            n = task.size
        )
    }

    fn structured(task: &RushHourTask) -> Value {
        let vehicles: Vec<Value> = task
            .vehicles
            .iter()
            .zip(&task.start)
            .map(|(v, &at)| {
                let (row, col) = if v.horizontal {
                    (v.line, at)
                } else {
                    (at, v.line)
                };
                json!({ "letter": v.letter.to_string(), "row": row, "col": col,
                        "length": v.length, "horizontal": v.horizontal })
            })
            .collect();
        json!({ "size": task.size, "vehicles": vehicles })
    }

    fn reference(task: &RushHourTask) -> String {
        task.solution
            .iter()
            .map(|&m| move_text(task, m))
            .collect::<Vec<_>>()
            .join("\n")
    }

    fn check(task: &RushHourTask, answer: &str) -> Result<bool, String> {
        let moves = parse_moves(task, answer)?;
        if moves.len() != task.optimal_moves {
            return Ok(false);
        }
        let mut position = task.start.clone();
        for &m in &moves {
            if !try_move(task.size, &task.vehicles, &mut position, m) {
                return Ok(false);
            }
        }
        Ok(is_goal(task.size, &position))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::single_turn::testing::{cross_reference_rate, passes, standard_answers};
    use proptest::prelude::{ProptestConfig, any, prop_assert_eq, proptest};

    fn presets() -> Vec<RushHourConfig> {
        vec![
            RushHourConfig {
                cars: 6,
                min_moves: 3,
                ..Default::default()
            },
            RushHourConfig::default(),
            RushHourConfig {
                cars: 12,
                min_moves: 14,
                ..Default::default()
            },
        ]
    }

    #[test]
    fn reference_passes_and_degenerate_answers_fail() {
        for config in presets() {
            standard_answers::<RushHour>(&config, 8);
        }
    }

    /// A lot by hand: X in row 2 at column 0; a vertical truck A at column 3
    /// rows 0-2 blocks it; A can only go down (3 cells free below).
    fn hand_task() -> RushHourTask {
        let vehicles = vec![
            Vehicle {
                letter: 'X',
                horizontal: true,
                length: 2,
                line: 2,
            },
            Vehicle {
                letter: 'A',
                horizontal: false,
                length: 3,
                line: 3,
            },
        ];
        RushHourTask {
            size: 6,
            vehicles,
            start: vec![0, 0],
            optimal_moves: 2,
            solution: vec![
                Move {
                    vehicle: 1,
                    delta: 3,
                },
                Move {
                    vehicle: 0,
                    delta: 4,
                },
            ],
        }
    }

    #[test]
    fn moves_are_simulated_and_must_be_shortest() {
        let task = hand_task();
        assert_eq!(RushHour::reference(&task), "A D 3\nX R 4");
        for good in ["A D 3\nX R 4", "a down 3, x right 4", "AD3; XR4"] {
            assert!(passes::<RushHour>(&task, good), "{good:?}");
        }
        for bad in [
            "X R 4",               // through A
            "A D 2\nX R 4",        // A still blocks row 2
            "A D 4\nX R 4",        // off the lot
            "A D 3\nX R 3",        // not at the exit
            "A D 3\nX R 2\nX R 2", // legal but not shortest
            "A R 3\nX R 4",        // A is vertical
            "B D 1\nX R 4",        // no such vehicle
            "A D 3\nX R 4\nX L 1",
            "A D 3 X R 4",
        ] {
            assert!(!passes::<RushHour>(&task, bad), "{bad:?}");
        }
    }

    #[test]
    fn another_tasks_reference_rarely_passes() {
        for config in presets() {
            let rate = cross_reference_rate::<RushHour>(&config, 300);
            assert!(rate < 0.01, "{config:?}: {rate}");
        }
    }

    /// Plain breadth-first search from the start over packed positions, one
    /// cell per step counted by moves: independent of the generator's
    /// two-search construction.
    fn shortest_by_plain_search(task: &RushHourTask) -> usize {
        let mut frontier = vec![task.start.clone()];
        let mut seen = std::collections::HashSet::from([task.start.clone()]);
        for depth in 0.. {
            if frontier.iter().any(|p| is_goal(task.size, p)) {
                return depth;
            }
            let mut next_frontier = Vec::new();
            for p in &frontier {
                for vehicle in 0..task.vehicles.len() {
                    for delta in (-6i8..=6).filter(|&d| d != 0) {
                        let mut q = p.clone();
                        if try_move(task.size, &task.vehicles, &mut q, Move { vehicle, delta })
                            && seen.insert(q.clone())
                        {
                            next_frontier.push(q);
                        }
                    }
                }
            }
            assert!(!next_frontier.is_empty(), "goal unreachable");
            frontier = next_frontier;
        }
        unreachable!()
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(24))]
        #[test]
        fn the_stated_optimum_is_the_shortest_solution(seed in any::<u64>(), cars in 3usize..=10) {
            let config = RushHourConfig { cars, min_moves: 2, ..Default::default() };
            let task = RushHour::generate(&config, &mut Rng::from_seed(seed));
            prop_assert_eq!(shortest_by_plain_search(&task), task.optimal_moves);
            prop_assert_eq!(task.solution.len(), task.optimal_moves);
        }
    }
}
