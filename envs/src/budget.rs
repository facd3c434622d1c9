//! Bounded rejection sampling for generators.
//!
//! Many generators draw a random candidate and keep it only when it passes
//! a test (unique solution, long enough, reachable target). A config that
//! passes `validate` can still make passing candidates rare or impossible,
//! and a shared server must then answer "no task within budget" at once
//! instead of drawing forever. [`draw_until`] bounds the draws by a count,
//! never by time, so a task stays a pure function of config and seed, and a
//! search that finds its task within the bound finds the same task as the
//! unbounded loop it replaces.

use crate::error::NoTask;

/// Calls `draw` until it returns a task, at most `max_draws` times, and
/// stops early when the caller's time budget ran out
/// ([`crate::cancel::cancelled`]).
///
/// # Errors
/// [`NoTask::Cancelled`] when cancelled; else, after `max_draws` draws
/// without a task, [`NoTask::Exhausted`] with the message `exhausted` builds
/// (it should say which requirement no draw met and which config field to
/// change).
pub fn draw_until<T>(
    max_draws: u64,
    mut draw: impl FnMut() -> Option<T>,
    exhausted: impl FnOnce() -> String,
) -> Result<T, NoTask> {
    for _ in 0..max_draws {
        if crate::cancel::cancelled() {
            return Err(NoTask::Cancelled);
        }
        if let Some(task) = draw() {
            return Ok(task);
        }
    }
    Err(NoTask::Exhausted(exhausted()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_first_task_wins_and_a_barren_search_stops_at_the_bound() {
        let mut calls = 0;
        let found = draw_until(
            10,
            || {
                calls += 1;
                (calls == 3).then_some(calls)
            },
            String::new,
        );
        assert_eq!(found, Ok(3));
        let mut calls = 0;
        let none: Result<(), NoTask> = draw_until(
            10,
            || {
                calls += 1;
                None
            },
            || "lower min_moves".into(),
        );
        assert_eq!(
            (none, calls),
            (Err(NoTask::Exhausted("lower min_moves".into())), 10)
        );
    }
}
