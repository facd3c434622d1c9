//! `logic/sliding-puzzle-v1`: solve the 8-puzzle (3×3 sliding tiles) in the
//! fewest moves.
//!
//! # Task
//! A 3×3 board with tiles 1–8 and one blank, scrambled from the goal by
//! `scramble` random blank moves. The optimal move count comes from IDA*
//! with the Manhattan-distance heuristic (admissible, so the count is
//! exact); boards needing fewer than `min_moves` are redrawn.
//!
//! # Action
//! The blank's moves as letters `U D L R` (run together or separated) or
//! words `up down left right`: `U` swaps the blank with the tile above it.
//! In `\boxed{…}` or as the whole reply.
//! Read by the single-turn rule (`crate::single_turn`): reasoning is dropped,
//! then the last `\boxed{…}` counts (boxes that disagree are a hedge and
//! score 0), else the whole reply; prose around the box is ignored.
//!
//! # Observation
//! The board (`_` for the blank) and the goal `1 2 3 / 4 5 6 / 7 8 _`.
//! Structured: the board as 9 numbers, 0 for the blank.
//!
//! # Reward
//! 1 and `passed` when every move stays on the board, the final board is
//! the goal, and the number of moves equals the optimum; else 0.
//! Breakdown: `correct`, `format`.
//!
//! # Episode end
//! After the one answer.
//!
//! # Parameters
//! `scramble` (4..=200), `min_moves` (2..=31).
//!
//! # Seeding
//! The scramble walk comes from the task rng.
//!
//! # Version history
//! v1: first version.

use std::collections::VecDeque;
use std::sync::OnceLock;

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use crate::core::{EnvKind, EnvSpec, InvalidAction, Preset};
use crate::error::{ConfigError, NoTask};
use crate::rng::Rng;
use crate::single_turn::{CheckError, Question, SingleTurn};

const GOAL: [u8; 9] = [1, 2, 3, 4, 5, 6, 7, 8, 0];
const MOVES: [(char, i32, i32); 4] = [('U', -1, 0), ('D', 1, 0), ('L', 0, -1), ('R', 0, 1)];

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct SlidingPuzzleConfig {
    pub scramble: usize,
    pub min_moves: usize,
}

impl Default for SlidingPuzzleConfig {
    fn default() -> Self {
        SlidingPuzzleConfig {
            scramble: 60,
            min_moves: 12,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SlidingPuzzleTask {
    /// Row-major, 0 = blank.
    pub board: Vec<u8>,
    pub optimal_moves: usize,
    pub solution: String,
}

/// Moves the blank; `None` when it would leave the board.
fn slide(board: &mut [u8; 9], letter: char) -> Option<()> {
    let (_, dr, dc) = MOVES.iter().copied().find(|&(l, _, _)| l == letter)?;
    let blank = board.iter().position(|&t| t == 0)?;
    let (r, c) = ((blank / 3) as i32 + dr, (blank % 3) as i32 + dc);
    if !(0..3).contains(&r) || !(0..3).contains(&c) {
        return None;
    }
    board.swap(blank, (r * 3 + c) as usize);
    Some(())
}

fn manhattan(board: &[u8; 9]) -> usize {
    board
        .iter()
        .enumerate()
        .filter(|(_, t)| **t != 0)
        .map(|(i, &t)| {
            let goal = t as usize - 1;
            (i / 3).abs_diff(goal / 3) + (i % 3).abs_diff(goal % 3)
        })
        .sum()
}

/// Scrambles drawn at most for one task (a count, not time, so the outcome
/// is a pure function of config and seed). A draw costs a scramble and a
/// table lookup, so this many take about a second; boards 31 moves from the
/// goal, 2 of the 181,440, come within it, while a scramble too short for
/// `min_moves` gives up.
const MAX_DRAWS: u64 = 1_000_000;

/// The index of a board among the 9! orders of its tiles (Lehmer code).
fn rank(board: &[u8; 9]) -> usize {
    (0..9).fold(0, |r, i| {
        let smaller_after = board[i + 1..].iter().filter(|&&t| t < board[i]).count();
        r * (9 - i) + smaller_after
    })
}

/// Moves from every board to the goal, by [`rank`] (`u8::MAX`: a board of
/// the other parity, never reached): one breadth-first search from the
/// goal, so a generator can reject short boards without solving them.
fn distances() -> &'static [u8] {
    static TABLE: OnceLock<Vec<u8>> = OnceLock::new();
    TABLE.get_or_init(|| {
        let mut distance = vec![u8::MAX; 362_880];
        distance[rank(&GOAL)] = 0;
        let mut queue = VecDeque::from([GOAL]);
        while let Some(board) = queue.pop_front() {
            let d = distance[rank(&board)];
            for (letter, _, _) in MOVES {
                let mut next = board;
                if slide(&mut next, letter).is_some() && distance[rank(&next)] == u8::MAX {
                    distance[rank(&next)] = d + 1;
                    queue.push_back(next);
                }
            }
        }
        distance
    })
}

/// IDA*: depth-first searches with a growing bound on moves + heuristic.
fn solve(start: &[u8; 9]) -> String {
    fn search(board: &mut [u8; 9], path: &mut Vec<char>, bound: usize) -> Result<(), usize> {
        let f = path.len() + manhattan(board);
        if f > bound {
            return Err(f);
        }
        if *board == GOAL {
            return Ok(());
        }
        let mut next_bound = usize::MAX;
        for (letter, undo) in [('U', 'D'), ('D', 'U'), ('L', 'R'), ('R', 'L')] {
            if path.last() == Some(&undo) || slide(board, letter).is_none() {
                continue;
            }
            path.push(letter);
            match search(board, path, bound) {
                Ok(()) => return Ok(()),
                Err(b) => next_bound = next_bound.min(b),
            }
            path.pop();
            slide(board, undo).expect("undo stays on the board");
        }
        Err(next_bound)
    }
    let mut board = *start;
    let mut bound = manhattan(&board);
    let mut path = Vec::new();
    loop {
        match search(&mut board, &mut path, bound) {
            Ok(()) => return path.into_iter().collect(),
            Err(b) => bound = b,
        }
    }
}

fn parse_moves(answer: &str) -> Result<Vec<char>, InvalidAction> {
    let mut moves = Vec::new();
    for word in answer
        .split(|c: char| c.is_whitespace() || ",;->→|".contains(c))
        .filter(|w| !w.is_empty())
    {
        let lower = word.to_ascii_lowercase();
        match lower.as_str() {
            "up" => moves.push('U'),
            "down" => moves.push('D'),
            "left" => moves.push('L'),
            "right" => moves.push('R'),
            _ if lower.chars().all(|c| "udlr".contains(c)) => {
                moves.extend(lower.to_ascii_uppercase().chars())
            }
            _ => return Err(format!("unexpected `{word}`: use U, D, L, R").into()),
        }
        if moves.len() > 1000 {
            return Err("too many moves".into());
        }
    }
    Ok(moves)
}

pub struct SlidingPuzzle;

pub type SlidingPuzzleEnv = SingleTurn<SlidingPuzzle>;

impl Question for SlidingPuzzle {
    type Config = SlidingPuzzleConfig;
    type Task = SlidingPuzzleTask;
    const SPEC: EnvSpec = EnvSpec {
        id: "logic/sliding-puzzle-v1",
        kind: EnvKind::SingleTurn,
        description: "Solve the 8-puzzle in the fewest blank moves; any shortest solution passes",
        players: 1,
        max_steps: 1,
        reward_range: (0.0, 1.0),
        zero_sum: false,
        fixed_start: false,
        presets: &[
            Preset {
                name: "easy",
                overrides: r#"{"scramble":20,"min_moves":8}"#,
            },
            Preset {
                name: "medium",
                overrides: "{}",
            },
            Preset {
                name: "hard",
                overrides: r#"{"scramble":200,"min_moves":20}"#,
            },
        ],
    };

    fn validate(config: &SlidingPuzzleConfig) -> Result<(), ConfigError> {
        if !(4..=200).contains(&config.scramble) || !(2..=31).contains(&config.min_moves) {
            return Err("need scramble 4..=200 and min_moves 2..=31".into());
        }
        Ok(())
    }

    fn generate(config: &SlidingPuzzleConfig, rng: &mut Rng) -> SlidingPuzzleTask {
        Self::try_generate(config, rng).unwrap_or_else(|message| panic!("{message}"))
    }

    fn try_generate(
        config: &SlidingPuzzleConfig,
        rng: &mut Rng,
    ) -> Result<SlidingPuzzleTask, NoTask> {
        generate_within(config, rng, MAX_DRAWS)
    }

    fn prompt(task: &SlidingPuzzleTask) -> String {
        let rows: Vec<String> = task
            .board
            .chunks(3)
            .map(|r| {
                r.iter()
                    .map(|&t| {
                        if t == 0 {
                            "_".to_string()
                        } else {
                            t.to_string()
                        }
                    })
                    .collect::<Vec<_>>()
                    .join(" ")
            })
            .collect();
        format!(
            "Solve this 8-puzzle. The blank is _. A move slides the blank up (U), down (D), left (L) or right (R), \
             swapping it with the neighbouring tile; it cannot leave the 3x3 board.\n\n{}\n\nReach the goal\n1 2 3\n\
             4 5 6\n7 8 _\nin as few moves as possible; only a shortest solution counts. Answer with the moves as \
             letters, e.g. ULDR, inside \\boxed{{}}.",
            rows.join("\n")
        )
    }

    fn structured(task: &SlidingPuzzleTask) -> Value {
        json!({ "board": task.board })
    }

    fn reference(task: &SlidingPuzzleTask) -> String {
        task.solution.clone()
    }

    fn check(task: &SlidingPuzzleTask, answer: &str) -> Result<bool, CheckError> {
        let moves = parse_moves(answer)?;
        let mut board: [u8; 9] = task
            .board
            .as_slice()
            .try_into()
            .map_err(|_| "bad board".to_string())?;
        for &m in &moves {
            if slide(&mut board, m).is_none() {
                return Ok(false);
            }
        }
        Ok(board == GOAL && moves.len() == task.optimal_moves)
    }
}

/// Scrambles until the optimum needs `min_moves`, at most `max_draws`
/// times. Undoing the scramble solves the board, so more moves than
/// `scramble` never come. Boards are kept by their distance in the table,
/// the optimum IDA* finds for them, and only a kept board is solved: near
/// the 8-puzzle's maximum of 31, solving every draw took minutes.
fn generate_within(
    config: &SlidingPuzzleConfig,
    rng: &mut Rng,
    max_draws: u64,
) -> Result<SlidingPuzzleTask, NoTask> {
    if config.min_moves > config.scramble {
        return Err(format!(
            "a scramble of {} moves never needs {} to undo: raise scramble or lower min_moves",
            config.scramble, config.min_moves
        )
        .into());
    }
    let distance = distances();
    let draw = || {
        let mut board = GOAL;
        for _ in 0..config.scramble {
            let (letter, _, _) = MOVES[rng.below(4) as usize];
            let _ = slide(&mut board, letter);
        }
        if usize::from(distance[rank(&board)]) < config.min_moves {
            return None;
        }
        let solution = solve(&board);
        Some(SlidingPuzzleTask {
            board: board.to_vec(),
            optimal_moves: solution.len(),
            solution,
        })
    };
    crate::budget::draw_until(max_draws, draw, || {
        format!(
            "no scramble of {} moves needed {} moves to undo in {max_draws} draws; lower min_moves \
             or raise scramble",
            config.scramble, config.min_moves
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::single_turn::testing::{cross_reference_rate, passes, standard_answers};
    use std::collections::{HashMap, VecDeque};

    /// The table's distance is the optimum IDA* finds (so keeping boards
    /// by it keeps the same boards as solving each one did).
    #[test]
    fn the_distance_table_agrees_with_the_solver() {
        let mut rng = Rng::from_seed(3);
        for _ in 0..200 {
            let mut board = GOAL;
            for _ in 0..60 {
                let _ = slide(&mut board, MOVES[rng.below(4) as usize].0);
            }
            assert_eq!(usize::from(distances()[rank(&board)]), solve(&board).len());
        }
        let reached = distances().iter().filter(|&&d| d != u8::MAX).count();
        assert_eq!(reached, 181_440);
        assert_eq!(distances().iter().filter(|&&d| d == 31).count(), 2);
    }

    /// A scramble of 10 never needs 12 moves (that used to draw forever)
    /// and a scramble of 31 almost never does: both give up with a message
    /// naming the fields, while a 31-move board from long scrambles, which
    /// took about a minute of solving, comes at once.
    #[test]
    fn rare_or_impossible_optima_give_up_and_the_rarest_board_comes_quickly() {
        let impossible = SlidingPuzzleConfig {
            scramble: 10,
            min_moves: 12,
        };
        let error = SlidingPuzzle::try_generate(&impossible, &mut Rng::from_seed(1)).unwrap_err();
        assert!(error.to_string().contains("raise scramble"), "{error}");
        let rare = SlidingPuzzleConfig {
            scramble: 31,
            min_moves: 31,
        };
        let error = SlidingPuzzle::try_generate(&rare, &mut Rng::from_seed(1)).unwrap_err();
        assert!(error.to_string().contains("lower min_moves"), "{error}");
        let rarest = SlidingPuzzleConfig {
            scramble: 200,
            min_moves: 31,
        };
        let task = SlidingPuzzle::try_generate(&rarest, &mut Rng::from_seed(1)).unwrap();
        assert_eq!(task.optimal_moves, 31);
    }

    /// Independent optimum: breadth-first search from the goal.
    fn bfs_distances() -> HashMap<[u8; 9], usize> {
        let mut dist = HashMap::from([(GOAL, 0)]);
        let mut queue = VecDeque::from([GOAL]);
        while let Some(board) = queue.pop_front() {
            let d = dist[&board];
            for (letter, _, _) in MOVES {
                let mut next = board;
                if slide(&mut next, letter).is_some() && !dist.contains_key(&next) {
                    dist.insert(next, d + 1);
                    queue.push_back(next);
                }
            }
        }
        dist
    }

    #[test]
    fn ida_star_matches_breadth_first_search() {
        let dist = bfs_distances();
        assert_eq!(
            dist.len(),
            181_440,
            "half of all permutations are reachable"
        );
        let mut rng = Rng::from_seed(2);
        for config in [
            SlidingPuzzleConfig::default(),
            SlidingPuzzleConfig {
                scramble: 200,
                min_moves: 20,
            },
        ] {
            for _ in 0..30 {
                let task = SlidingPuzzle::generate(&config, &mut rng);
                let board: [u8; 9] = task.board.as_slice().try_into().unwrap();
                assert_eq!(task.optimal_moves, dist[&board]);
            }
        }
    }

    #[test]
    fn reference_passes_and_degenerate_answers_fail() {
        for config in [
            SlidingPuzzleConfig::default(),
            SlidingPuzzleConfig {
                scramble: 20,
                min_moves: 8,
            },
        ] {
            standard_answers::<SlidingPuzzle>(&config, 20);
        }
    }

    #[test]
    fn moves_are_simulated() {
        let task = SlidingPuzzleTask {
            board: vec![1, 2, 3, 4, 5, 6, 0, 7, 8],
            optimal_moves: 2,
            solution: "RR".into(),
        };
        assert!(passes::<SlidingPuzzle>(&task, "R R"));
        assert!(passes::<SlidingPuzzle>(&task, "right, right"));
        for bad in ["R", "RRL", "RRLR", "LRR", "UD", "DD", "R R or L"] {
            assert!(!passes::<SlidingPuzzle>(&task, bad), "{bad:?}");
        }
    }

    #[test]
    fn another_tasks_reference_rarely_passes() {
        for config in [
            SlidingPuzzleConfig {
                scramble: 20,
                min_moves: 8,
            },
            SlidingPuzzleConfig::default(),
        ] {
            let rate = cross_reference_rate::<SlidingPuzzle>(&config, 1000);
            assert!(rate < 0.01, "{config:?}: {rate}");
        }
    }
}
