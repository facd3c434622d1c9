//! Generation: random vehicles, the positions reachable from them, each
//! one's distance to the goal, and a start farthest from it.

use std::collections::hash_map::Entry;

use super::rules::{
    PositionMap, cell, exit_row, is_goal, moved, moves_from, occupancy, pack, unpack,
};
use super::{Move, RushHourConfig, RushHourTask, Vehicle};
use crate::error::NoTask;
use crate::rng::Rng;

/// Positions explored at most per generated lot; larger ones are redrawn.
pub(super) const MAX_POSITIONS: usize = 50_000;

/// Positions explored at most over all the lots drawn for one task: a
/// config whose farthest start is rarely (or never) `min_moves` away, such
/// as `min_moves: 30`, gives up after this much work (a few seconds; it
/// took half a minute at 20,000,000) instead of searching for minutes.
/// Counted in positions, not time, so the outcome is a pure function of
/// config and seed; every level finds its tasks within a tenth of it
/// (tested).
pub(super) const MAX_WORK: usize = 3_000_000;

/// Draws of vehicles that do not fit the lot allowed for one task (cheap:
/// nothing is explored), as before the budget on positions was lowered.
const MAX_MISFITS: usize = 20_000;

/// Draws lots until one's farthest position is at least `min_moves` from
/// the goal, and starts there (ties broken by the rng).
///
/// # Errors
/// No lot within [`MAX_WORK`] explored positions (or [`MAX_MISFITS`]
/// draws of vehicles that do not fit) has a start that far.
pub(super) fn generate(config: &RushHourConfig, rng: &mut Rng) -> Result<RushHourTask, NoTask> {
    generate_within(config, rng, MAX_WORK)
}

/// [`generate`] with a budget of `max_work` explored positions (the tests
/// check that every level finds its tasks within a tenth of the budget).
pub(super) fn generate_within(
    config: &RushHourConfig,
    rng: &mut Rng,
    max_work: usize,
) -> Result<RushHourTask, NoTask> {
    let size = config.size;
    let (mut work, mut misfits) = (0usize, 0usize);
    loop {
        if crate::cancel::cancelled() {
            return Err(NoTask::Cancelled);
        }
        if work > max_work || misfits > MAX_MISFITS {
            return Err(format!(
                "no lot of {} cars on a {size}x{size} lot has a start {} moves from the goal \
                 within {max_work} explored positions; lower min_moves or change cars",
                config.cars, config.min_moves
            )
            .into());
        }
        let Some((vehicles, placed)) = place_vehicles(config, rng) else {
            misfits += 1;
            continue;
        };
        let count = vehicles.len();
        let Some((positions, bound)) = component(size, &vehicles, pack(&placed)) else {
            work += MAX_POSITIONS;
            continue;
        };
        work += positions.len();
        // No start can be `min_moves` away (or no goal is reachable): skip
        // measuring distances, which a rejected lot never needs.
        match bound {
            Some(bound) if bound >= config.min_moves => {}
            _ => continue,
        }
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
        return Ok(RushHourTask {
            size,
            vehicles,
            start,
            optimal_moves: solution.len(),
            solution,
        });
    }
}

/// Random vehicles on an empty lot; `None` when they do not fit.
pub(super) fn place_vehicles(
    config: &RushHourConfig,
    rng: &mut Rng,
) -> Option<(Vec<Vehicle>, Vec<u8>)> {
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

/// Every position reachable from `start` (packed), in breadth-first order,
/// and a bound on any one's distance to the nearest goal: its distance to
/// `start` plus `start`'s to the nearest goal, at most the depth of the
/// search plus the depth of the first goal found (`None`: no goal here).
pub(super) fn component(
    size: usize,
    vehicles: &[Vehicle],
    start: u64,
) -> Option<(Vec<u64>, Option<usize>)> {
    let count = vehicles.len();
    let mut seen: PositionMap<()> = PositionMap::default();
    seen.insert(start, ());
    let mut order = vec![start];
    let mut moves = Vec::new();
    let mut head = 0;
    // Breadth-first layers: `order[..layer_end]` is at most `depth` away.
    let (mut depth, mut layer_end, mut nearest_goal) = (0, 1, None);
    while head < order.len() {
        if head == layer_end {
            depth += 1;
            layer_end = order.len();
        }
        let key = order[head];
        head += 1;
        let position = unpack(key, count);
        if nearest_goal.is_none() && is_goal(size, &position) {
            nearest_goal = Some(depth);
        }
        moves_from(size, vehicles, &position[..count], &mut moves);
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
    Some((order, nearest_goal.map(|goal| goal + depth)))
}

/// Moves to the nearest goal from every position of `positions` (a closed
/// component), by breadth-first search from all goal positions at once.
pub(super) fn distances_to_goal(
    size: usize,
    vehicles: &[Vehicle],
    positions: &[u64],
) -> PositionMap<u32> {
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
pub(super) fn descend(
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
