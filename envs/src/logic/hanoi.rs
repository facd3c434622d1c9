//! `logic/hanoi-v1`: move every disk onto one peg in the fewest moves.
//!
//! # Task
//! `disks` disks on pegs A, B, C in a random legal position (no disk on a
//! smaller one) and a goal peg; the task is to gather every disk on the
//! goal peg. The shortest solution from any legal position to a full tower
//! is unique; the generator computes its length.
//!
//! # Action
//! The move list, one move per part: `A->C`, `A C`, `A to C`, or
//! `move disk 1 from A to C` (a disk number, if given after `disk`, must be
//! the disk that moves); parts separated by newlines, commas or `;`. In `\boxed{…}`
//! or as the whole reply.
//! Read by the single-turn rule (`crate::single_turn`): reasoning is dropped,
//! then the last `\boxed{…}` counts (boxes that disagree are a hedge and
//! score 0), else the whole reply; prose around the box is ignored.
//!
//! # Observation
//! Each peg's disks from bottom to top, and the goal peg. Structured: the
//! same.
//!
//! # Reward
//! 1 and `passed` when every move is legal, the disks end on the goal peg,
//! and the number of moves equals the optimum; else 0. Breakdown:
//! `correct`, `format`.
//!
//! # Episode end
//! After the one answer.
//!
//! # Parameters
//! `disks` (2..=10).
//!
//! # Seeding
//! Each disk's peg and the goal come from the task rng; positions already
//! solved or one move from solved are redrawn.
//!
//! # Version history
//! v1: first version.

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use crate::core::{EnvKind, EnvSpec, InvalidAction, Preset};
use crate::error::ConfigError;
use crate::rng::Rng;
use crate::single_turn::{CheckError, Question, SingleTurn};

const PEGS: [char; 3] = ['A', 'B', 'C'];

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct HanoiConfig {
    pub disks: usize,
}

impl Default for HanoiConfig {
    fn default() -> Self {
        HanoiConfig { disks: 5 }
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct HanoiTask {
    /// `start[d]`: the peg (0..3) of disk `d + 1` (disk 1 is the smallest).
    pub start: Vec<usize>,
    pub goal: usize,
    pub optimal_moves: usize,
}

/// The unique shortest move list gathering disks `1..=n` (given their pegs)
/// onto `target`: the largest disk moves at most once.
fn solve(pegs: &mut [usize], n: usize, target: usize, moves: &mut Vec<(usize, usize)>) {
    if n == 0 {
        return;
    }
    let from = pegs[n - 1];
    if from == target {
        solve(pegs, n - 1, target, moves);
        return;
    }
    let spare = 3 - from - target;
    solve(pegs, n - 1, spare, moves);
    moves.push((from, target));
    pegs[n - 1] = target;
    solve(pegs, n - 1, target, moves);
}

/// Plays `moves` from `start`; the final pegs, or `None` on an illegal move.
fn simulate(start: &[usize], moves: &[(usize, usize)]) -> Option<Vec<usize>> {
    let mut pegs = start.to_vec();
    for &(from, to) in moves {
        // The top disk of a peg is its smallest.
        let disk = pegs.iter().position(|&p| p == from)?;
        if pegs[..disk].contains(&to) {
            return None;
        }
        pegs[disk] = to;
    }
    Some(pegs)
}

/// Reads moves; a stated disk number is checked against `start` by replay.
fn parse_moves(answer: &str, start: &[usize]) -> Result<Vec<(usize, usize)>, InvalidAction> {
    let mut moves = Vec::new();
    let mut pegs = start.to_vec();
    let normalized = answer.replace("->", " ").replace('→', " ");
    for part in normalized.split(['\n', ',', ';']) {
        let mut named: Vec<usize> = Vec::new();
        let mut disk: Option<usize> = None;
        let mut after_disk = false;
        for word in part
            .split(|c: char| c.is_whitespace() || ":.()-".contains(c))
            .filter(|w| !w.is_empty())
        {
            let lower = word.to_ascii_lowercase();
            let follows_disk = std::mem::replace(&mut after_disk, lower == "disk");
            if let Some(p) = PEGS
                .iter()
                .position(|c| c.to_ascii_lowercase().to_string() == lower)
            {
                named.push(p);
            } else if let Ok(d) = word.parse::<usize>() {
                // A number only as in `disk 3`.
                if !follows_disk || disk.replace(d).is_some() {
                    return Err(format!("unexpected number in `{part}`").into());
                }
            } else if !["move", "disk", "from", "to", "peg"].contains(&lower.as_str()) {
                return Err(format!("unexpected `{word}` in `{part}`").into());
            }
        }
        match (named.as_slice(), disk) {
            ([], None) => continue,
            (&[from, to], _) if from != to => {
                let top = pegs
                    .iter()
                    .position(|&p| p == from)
                    .ok_or_else(|| format!("peg {} is empty", PEGS[from]))?;
                if disk.is_some_and(|d| d != top + 1) {
                    return Err(format!(
                        "`{part}` names disk {} but the top disk is {}",
                        disk.unwrap_or(0),
                        top + 1
                    )
                    .into());
                }
                pegs[top] = to;
                moves.push((from, to));
            }
            _ => return Err(format!("`{part}` is not a move between two pegs").into()),
        }
        if moves.len() > 4096 {
            return Err("too many moves".into());
        }
    }
    Ok(moves)
}

pub struct Hanoi;

pub type HanoiEnv = SingleTurn<Hanoi>;

impl Question for Hanoi {
    type Config = HanoiConfig;
    type Task = HanoiTask;
    const SPEC: EnvSpec = EnvSpec {
        id: "logic/hanoi-v1",
        kind: EnvKind::SingleTurn,
        description: "Tower of Hanoi from a random legal position: give the shortest move list",
        players: 1,
        max_steps: 1,
        reward_range: (0.0, 1.0),
        zero_sum: false,
        fixed_start: false,
        presets: &[
            Preset {
                name: "easy",
                overrides: r#"{"disks":4}"#,
            },
            Preset {
                name: "medium",
                overrides: "{}",
            },
            Preset {
                name: "hard",
                overrides: r#"{"disks":8}"#,
            },
        ],
    };

    fn validate(config: &HanoiConfig) -> Result<(), ConfigError> {
        if !(2..=10).contains(&config.disks) {
            return Err("disks must be 2..=10".into());
        }
        Ok(())
    }

    fn generate(config: &HanoiConfig, rng: &mut Rng) -> HanoiTask {
        loop {
            let start: Vec<usize> = (0..config.disks).map(|_| rng.below(3) as usize).collect();
            let goal = rng.below(3) as usize;
            let mut moves = Vec::new();
            solve(&mut start.clone(), config.disks, goal, &mut moves);
            if moves.len() >= 2 {
                return HanoiTask {
                    start,
                    goal,
                    optimal_moves: moves.len(),
                };
            }
        }
    }

    fn prompt(task: &HanoiTask) -> String {
        let mut pegs = String::new();
        for (p, name) in PEGS.iter().enumerate() {
            let disks: Vec<String> = (1..=task.start.len())
                .rev()
                .filter(|&d| task.start[d - 1] == p)
                .map(|d| d.to_string())
                .collect();
            let shown = if disks.is_empty() {
                "(empty)".to_string()
            } else {
                disks.join(" ")
            };
            pegs.push_str(&format!("{name}: {shown}\n"));
        }
        format!(
            "Tower of Hanoi with {} disks numbered by size (1 is the smallest). Each peg lists its disks from \
             bottom to top:\n{pegs}\nMove all disks onto peg {} in as few moves as possible. A move takes the \
             top disk of one peg to another peg and may never put a disk on a smaller one. Only a shortest \
             solution counts. Answer with the moves in order, one per line, written like A->C, inside \\boxed{{}}.",
            task.start.len(),
            PEGS[task.goal]
        )
    }

    fn structured(task: &HanoiTask) -> Value {
        json!({ "start": task.start.iter().map(|&p| PEGS[p].to_string()).collect::<Vec<_>>(), "goal": PEGS[task.goal].to_string() })
    }

    fn reference(task: &HanoiTask) -> String {
        let mut moves = Vec::new();
        solve(
            &mut task.start.clone(),
            task.start.len(),
            task.goal,
            &mut moves,
        );
        moves
            .iter()
            .map(|&(f, t)| format!("{}->{}", PEGS[f], PEGS[t]))
            .collect::<Vec<_>>()
            .join("\n")
    }

    fn check(task: &HanoiTask, answer: &str) -> Result<bool, CheckError> {
        let moves = parse_moves(answer, &task.start)?;
        let solved =
            simulate(&task.start, &moves).is_some_and(|end| end.iter().all(|&p| p == task.goal));
        Ok(solved && moves.len() == task.optimal_moves)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::single_turn::testing::{cross_reference_rate, passes, standard_answers};
    use std::collections::{HashMap, VecDeque};

    /// Independent optimum: breadth-first search over all 3^n positions.
    fn bfs_distance(start: &[usize], goal: usize) -> usize {
        let n = start.len();
        let mut seen: HashMap<Vec<usize>, usize> = HashMap::from([(start.to_vec(), 0)]);
        let mut queue = VecDeque::from([start.to_vec()]);
        while let Some(state) = queue.pop_front() {
            let d = seen[&state];
            if state.iter().all(|&p| p == goal) {
                return d;
            }
            for from in 0..3 {
                for to in 0..3 {
                    if from == to {
                        continue;
                    }
                    if let Some(next) = simulate(&state, &[(from, to)])
                        && next != state
                        && !seen.contains_key(&next)
                        && next.len() == n
                    {
                        seen.insert(next.clone(), d + 1);
                        queue.push_back(next);
                    }
                }
            }
        }
        unreachable!("every position reaches every tower")
    }

    #[test]
    fn optimum_matches_breadth_first_search() {
        let mut rng = Rng::from_seed(5);
        for disks in 2..=6 {
            for _ in 0..20 {
                let task = Hanoi::generate(&HanoiConfig { disks }, &mut rng);
                assert_eq!(
                    task.optimal_moves,
                    bfs_distance(&task.start, task.goal),
                    "{task:?}"
                );
            }
        }
    }

    #[test]
    fn reference_passes_and_degenerate_answers_fail() {
        for disks in [4, 5, 8] {
            standard_answers::<Hanoi>(&HanoiConfig { disks }, 20);
        }
    }

    #[test]
    fn move_formats_and_wrong_solutions() {
        let task = HanoiTask {
            start: vec![0, 0, 0],
            goal: 2,
            optimal_moves: 7,
        };
        let classic = "A->C\nA->B\nC->B\nA->C\nB->A\nB->C\nA->C";
        assert!(passes::<Hanoi>(&task, classic));
        assert!(passes::<Hanoi>(
            &task,
            &classic.replace('\n', ", ").replace("->", " to ")
        ));
        let verbose = "Move disk 1 from A to C\nMove disk 2 from A to B\nMove disk 1 from C to B\nMove disk 3 from A to C\n\
                       Move disk 1 from B to A\nMove disk 2 from B to C\nMove disk 1 from A to C";
        assert!(passes::<Hanoi>(&task, verbose));
        for bad in [
            verbose.replace("Move disk 3", "Move disk 2"),
            "A->B\nA->C\nB->C\nA->B\nC->A\nC->B\nA->B".to_string(), // solves onto B, not C
            "A->C\nC->A\nA->C\nA->B\nC->B\nA->C\nB->A\nB->C\nA->C".to_string(), // legal but longer
            "A->B\nA->B".to_string(),                               // illegal
            "A->C\nA->B\nC->B\nA->C\nB->A\nB->C".to_string(),       // unfinished
            format!("{classic}\nA->B"),
            format!("{classic} maybe"),
        ] {
            assert!(!passes::<Hanoi>(&task, &bad), "{bad:?}");
        }
        assert!(Hanoi::prompt(&task).contains("A: 3 2 1\nB: (empty)\nC: (empty)\n"));
    }

    #[test]
    fn another_tasks_reference_rarely_passes() {
        for disks in [4, 5] {
            let rate = cross_reference_rate::<Hanoi>(&HanoiConfig { disks }, 1000);
            assert!(rate < 0.01, "{disks} disks: {rate}");
        }
    }
}
