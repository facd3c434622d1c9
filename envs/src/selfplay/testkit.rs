//! Test support shared by the propose-then-solve envs' tests: a task by seed, one turn
//! through the reply rule, and a scripted episode's scores and events.

use super::episode::{ProposeSolve, ProposeSolveEnv};
use super::{PROPOSER, SOLVER};
use crate::core::{Env, Player, Score, Turn};
use crate::reply::parse_reply;
use crate::rng::Rng;

/// The task of the default config at `seed`.
pub(crate) fn task<T: ProposeSolve>(seed: u64) -> T {
    T::generate(&T::Config::default(), &mut Rng::from_seed(seed))
}

/// One turn through the path a session takes: the shared reply rule, then the env.
pub(crate) fn turn<T: ProposeSolve>(
    env: &mut ProposeSolveEnv<T>,
    player: Player,
    reply: &str,
) -> Vec<String> {
    let observation = env.observe(player).text;
    let action = parse_reply(reply, |t| env.parse_action(player, t), || observation)
        .unwrap_or_else(|e| panic!("{reply:.200} refused: {e:?}"));
    env.apply(player, action).unwrap()
}

/// Plays `proposal`, then the solver's `answers` until the episode ends, each reply a
/// [`turn`]; returns the proposer's and the solver's scores and the events.
pub(crate) fn play<T: ProposeSolve>(
    task: &T,
    proposal: &str,
    answers: &[&str],
) -> (Score, Score, Vec<String>) {
    episode(task, proposal, answers, turn)
}

/// As [`play`], with each reply applied as the action as it is (no reply rule).
pub(crate) fn play_applied<T: ProposeSolve>(
    task: &T,
    proposal: &str,
    answers: &[impl AsRef<str>],
) -> (Score, Score, Vec<String>) {
    episode(task, proposal, answers, |env, player, reply| {
        env.apply(player, reply.to_string()).unwrap()
    })
}

/// `played` (from [`play`] or [`play_applied`]) ended at once on `proposal`, refused
/// with `code`: the default penalty with `rejected_<code>` and the refusal's event for
/// the proposer, nothing for the solver.
pub(crate) fn assert_refused(played: &(Score, Score, Vec<String>), proposal: &str, code: &str) {
    let (proposer, solver, events) = played;
    assert_eq!(proposer.reward, -0.5, "{proposal:.200}: {events:?}");
    assert_eq!(
        proposer.breakdown.get(&format!("rejected_{code}")),
        Some(&1.0),
        "{proposal:.200}: {events:?}"
    );
    assert!(
        events[0].starts_with(&format!("invalid proposal ({code})")),
        "{events:?}"
    );
    assert_eq!((solver.reward, solver.passed), (0.0, false));
}

fn episode<T: ProposeSolve>(
    task: &T,
    proposal: &str,
    answers: &[impl AsRef<str>],
    mut step: impl FnMut(&mut ProposeSolveEnv<T>, Player, &str) -> Vec<String>,
) -> (Score, Score, Vec<String>) {
    let mut env = ProposeSolveEnv::reset(task, Rng::from_seed(0));
    let mut events = step(&mut env, PROPOSER, proposal);
    for answer in answers {
        if env.turn() == Turn::Over {
            break;
        }
        events.extend(step(&mut env, SOLVER, answer.as_ref()));
    }
    (env.score(PROPOSER), env.score(SOLVER), events)
}
