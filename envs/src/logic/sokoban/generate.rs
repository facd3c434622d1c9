//! Generation: random walls, goals, boxes pulled back from their goals,
//! the player somewhere it can reach, kept when the solver needs at least
//! `min_pushes` pushes; all within a budget of solver work.

use super::*;
use crate::error::NoTask;

/// Levels drawn at most for one task (the bound before budgets were
/// counted in work; kept so that no task of any config changes).
const MAX_ATTEMPTS: u32 = 100_000;

/// [`SokobanEnv::try_generate`] with a budget of `max_work` cells flooded:
/// each wall and pull of a level floods the board once (to keep the floor
/// connected, to find the pulls), and each solver state about twice per
/// box (a flood per push it tries); the tests check that every level finds
/// its tasks within a tenth of [`MAX_WORK`].
///
/// # Errors
/// No level within the budget needs `min_pushes` pushes.
pub(super) fn generate_within(
    config: &SokobanConfig,
    rng: &mut Rng,
    max_work: usize,
) -> Result<SokobanTask, NoTask> {
    let (rows, cols) = (config.height + 2, config.width + 2);
    let inside =
        |c: usize| (1..rows - 1).contains(&(c / cols)) && (1..cols - 1).contains(&(c % cols));
    let mut work = 0usize;
    let area = config.width * config.height;
    for _ in 0..MAX_ATTEMPTS {
        if crate::cancel::cancelled() {
            return Err(NoTask::Cancelled);
        }
        if work > max_work {
            break;
        }
        work += (1 + config.walls + config.pulls) * area;
        let mut board = Board {
            cols,
            walls: (0..rows * cols).map(|c| !inside(c)).collect(),
            goals: vec![false; rows * cols],
        };
        let first = cols + 1;
        for _ in 0..config.walls {
            let cell = first
                + rng.below((rows - 2) as u64) as usize * cols
                + rng.below((cols - 2) as u64) as usize;
            if board.walls[cell] {
                continue;
            }
            board.walls[cell] = true;
            let open = (0..rows * cols)
                .find(|&c| !board.walls[c])
                .expect("floor left");
            let floor = board.walls.iter().filter(|&&w| !w).count();
            if board.reach(&[], open).iter().filter(|&&s| s).count() != floor {
                board.walls[cell] = false;
            }
        }
        let mut floor: Vec<usize> = (0..rows * cols).filter(|&c| !board.walls[c]).collect();
        rng.shuffle(&mut floor);
        let mut boxes = floor[..config.boxes].to_vec();
        for &g in &boxes {
            board.goals[g] = true;
        }
        let mut player = floor[config.boxes];
        for _ in 0..config.pulls {
            let region = board.reach(&boxes, player);
            let mut pulls = Vec::new();
            for (i, &b) in boxes.iter().enumerate() {
                for dir in 0..4 {
                    let stand = board.step(b, dir);
                    if region[stand] {
                        let back = board.step(stand, dir);
                        if !board.walls[back] && !boxes.contains(&back) {
                            pulls.push((i, stand, back));
                        }
                    }
                }
            }
            let Some(&(i, stand, back)) = rng.choose(&pulls) else {
                break;
            };
            boxes[i] = stand;
            player = back;
        }
        let region = board.reach(&boxes, player);
        let cells: Vec<usize> = (0..region.len()).filter(|&c| region[c]).collect();
        player = *rng.choose(&cells).expect("the player's own cell");
        let (solution, states) = solve_counted(&board, player, &boxes, STATE_LIMIT);
        work += states * 2 * config.boxes * area;
        let Solution::Pushes(pushes) = solution else {
            continue;
        };
        let solution = plan_moves(&board, player, &boxes, &pushes);
        let max_moves = 2 * solution.len() + 10;
        if pushes.len() < config.min_pushes
            || max_moves > MAX_MOVES
            || one_direction_solves(&board, player, &boxes, max_moves)
        {
            continue;
        }
        return Ok(SokobanTask {
            rows: draw(&board, player, &boxes),
            optimal_pushes: pushes.len(),
            solution,
            max_moves,
        });
    }
    Err(format!(
        "no level of {} boxes on {}x{} with {} walls needs {} pushes within {max_work} cells \
         of search; lower min_pushes, width, height or walls, or raise pulls",
        config.boxes, config.width, config.height, config.walls, config.min_pushes
    )
    .into())
}
