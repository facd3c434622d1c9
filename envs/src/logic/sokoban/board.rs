//! Sokoban's rules engine: the board, the push-optimal search (the oracle and
//! the generator's check) and move playback. The env in `mod.rs` renders,
//! parses and scores on top of it.

use std::collections::{HashMap, VecDeque};

use super::*;
use crate::core::InvalidAction;

/// The fixed part of a level: walls and goals, cells indexed row-major.
#[derive(Clone, Debug, PartialEq)]
pub(super) struct Board {
    pub(super) cols: usize,
    pub(super) walls: Vec<bool>,
    pub(super) goals: Vec<bool>,
}

impl Board {
    /// The neighbour of an inside cell: 0 up, 1 down, 2 left, 3 right.
    pub(super) fn step(&self, cell: usize, dir: usize) -> usize {
        match dir {
            0 => cell - self.cols,
            1 => cell + self.cols,
            2 => cell - 1,
            _ => cell + 1,
        }
    }

    /// Cells reachable from `from` without crossing walls or boxes.
    pub(super) fn reach(&self, boxes: &[usize], from: usize) -> Vec<bool> {
        let mut seen = vec![false; self.walls.len()];
        seen[from] = true;
        let mut stack = vec![from];
        while let Some(cell) = stack.pop() {
            for dir in 0..4 {
                let next = self.step(cell, dir);
                if !seen[next] && !self.walls[next] && !boxes.contains(&next) {
                    seen[next] = true;
                    stack.push(next);
                }
            }
        }
        seen
    }

    /// Cells from which a lone box can still be pushed onto some goal.
    pub(super) fn live_cells(&self) -> Vec<bool> {
        let mut live = self.goals.clone();
        let mut stack: Vec<usize> = (0..live.len()).filter(|&c| live[c]).collect();
        while let Some(cell) = stack.pop() {
            for dir in 0..4 {
                let from = self.step(cell, dir);
                if !self.walls[from] && !live[from] && !self.walls[self.step(from, dir)] {
                    live[from] = true;
                    stack.push(from);
                }
            }
        }
        live
    }

    pub(super) fn solved(&self, boxes: &[usize]) -> bool {
        boxes.iter().all(|&b| self.goals[b])
    }

    /// The letters of a shortest walk from `from` to `to`, if there is one.
    pub(super) fn walk(&self, boxes: &[usize], from: usize, to: usize) -> Option<String> {
        let mut came: Vec<Option<(usize, usize)>> = vec![None; self.walls.len()];
        let mut queue = VecDeque::from([from]);
        let mut seen = vec![false; self.walls.len()];
        seen[from] = true;
        while let Some(cell) = queue.pop_front() {
            if cell == to {
                let mut letters = Vec::new();
                let mut at = to;
                while let Some((prev, dir)) = came[at] {
                    letters.push(LETTERS[dir]);
                    at = prev;
                }
                return Some(letters.iter().rev().collect());
            }
            for dir in 0..4 {
                let next = self.step(cell, dir);
                if !seen[next] && !self.walls[next] && !boxes.contains(&next) {
                    seen[next] = true;
                    came[next] = Some((cell, dir));
                    queue.push_back(next);
                }
            }
        }
        None
    }
}

/// What the push search found.
#[derive(Clone, Debug, PartialEq)]
pub(super) enum Solution {
    /// The fewest pushes, each as (box cell, direction).
    Pushes(Vec<(usize, usize)>),
    Unsolvable,
    /// The search passed its state bound.
    TooBig,
}

/// A state key: the smallest cell of the player's region, then the sorted
/// box cells, one byte each (boards have at most 144 cells).
pub(super) fn key(region: &[bool], boxes: &[usize]) -> u32 {
    let norm = region.iter().position(|&r| r).unwrap_or(0);
    boxes
        .iter()
        .enumerate()
        .fold(norm as u32, |k, (i, &b)| k | (b as u32) << (8 * (i + 1)))
}

pub(super) fn unkey(key: u32, count: usize) -> (usize, Vec<usize>) {
    let boxes = (0..count).map(|i| (key >> (8 * (i + 1)) & 0xff) as usize);
    ((key & 0xff) as usize, boxes.collect())
}

/// Breadth-first search over pushes: the fewest pushes that put every box
/// on a goal. Boxes never enter dead cells (no goal reachable by pushing).
pub(super) fn solve(board: &Board, player: usize, boxes: &[usize], limit: usize) -> Solution {
    solve_counted(board, player, boxes, limit).0
}

/// [`solve`], with the number of states it stored: the generator's measure
/// of work, which bounds its search.
pub(super) fn solve_counted(
    board: &Board,
    player: usize,
    boxes: &[usize],
    limit: usize,
) -> (Solution, usize) {
    if board.solved(boxes) {
        return (Solution::Pushes(Vec::new()), 0);
    }
    let live = board.live_cells();
    if boxes.iter().any(|&b| !live[b]) {
        return (Solution::Unsolvable, 0);
    }
    let mut sorted = boxes.to_vec();
    sorted.sort_unstable();
    let start = key(&board.reach(&sorted, player), &sorted);
    // Each state's parent and the push (box cell, direction) that made it.
    let mut parents: HashMap<u32, (u32, usize, usize)> = HashMap::from([(start, (start, 0, 0))]);
    let mut queue = VecDeque::from([start]);
    while let Some(here) = queue.pop_front() {
        let (norm, boxes) = unkey(here, sorted.len());
        let region = board.reach(&boxes, norm);
        for (i, &b) in boxes.iter().enumerate() {
            for dir in 0..4 {
                let dest = board.step(b, dir);
                if !region[board.step(b, dir ^ 1)]
                    || board.walls[dest]
                    || !live[dest]
                    || boxes.contains(&dest)
                {
                    continue;
                }
                let mut next = boxes.clone();
                next[i] = dest;
                next.sort_unstable();
                let child = key(&board.reach(&next, b), &next);
                if parents.contains_key(&child) {
                    continue;
                }
                parents.insert(child, (here, b, dir));
                if board.solved(&next) {
                    let mut pushes = Vec::new();
                    let mut at = child;
                    while at != start {
                        let (prev, cell, d) = parents[&at];
                        pushes.push((cell, d));
                        at = prev;
                    }
                    pushes.reverse();
                    return (Solution::Pushes(pushes), parents.len());
                }
                if parents.len() > limit {
                    return (Solution::TooBig, parents.len());
                }
                queue.push_back(child);
            }
        }
    }
    (Solution::Unsolvable, parents.len())
}

/// The pushes as move letters, walking between them.
pub(super) fn plan_moves(
    board: &Board,
    mut player: usize,
    boxes: &[usize],
    pushes: &[(usize, usize)],
) -> String {
    let mut boxes = boxes.to_vec();
    let mut moves = String::new();
    for &(cell, dir) in pushes {
        let behind = board.step(cell, dir ^ 1);
        moves.push_str(
            &board
                .walk(&boxes, player, behind)
                .expect("the search checked the walk"),
        );
        moves.push(LETTERS[dir]);
        let i = boxes
            .iter()
            .position(|&b| b == cell)
            .expect("a box is there");
        boxes[i] = board.step(cell, dir);
        player = cell;
    }
    moves
}

/// Plays `moves`; stops once solved. Errors name the first illegal move.
pub(super) fn play_moves(
    board: &Board,
    mut player: usize,
    mut boxes: Vec<usize>,
    moves: &[usize],
) -> Result<(usize, Vec<usize>, usize, usize), InvalidAction> {
    let (mut played, mut pushes) = (0, 0);
    for (n, &dir) in moves.iter().enumerate() {
        if board.solved(&boxes) {
            // Moves past the solve would let "the plan, then anything" pass
            // (a hedge): the reply must stop where the level is solved.
            return Err(format!(
                "the level is solved after move {n}; send only the moves up to there \
                 ({} more were sent); nothing was played",
                moves.len() - n
            )
            .into());
        }
        let target = board.step(player, dir);
        let letter = LETTERS[dir];
        if board.walls[target] {
            return Err(format!(
                "move {} ({letter}) walks into a wall; nothing was played",
                n + 1
            )
            .into());
        }
        if let Some(i) = boxes.iter().position(|&b| b == target) {
            let beyond = board.step(target, dir);
            if board.walls[beyond] || boxes.contains(&beyond) {
                let what = if board.walls[beyond] {
                    "a wall"
                } else {
                    "another box"
                };
                return Err(format!(
                    "move {} ({letter}) would push a box into {what}; nothing was played",
                    n + 1
                )
                .into());
            }
            boxes[i] = beyond;
            pushes += 1;
        }
        player = target;
        played += 1;
    }
    Ok((player, boxes, played, pushes))
}
