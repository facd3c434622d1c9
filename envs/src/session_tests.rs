use super::*;
use crate::Registry;
use crate::card::TaskCard;
use crate::driver::{DriverConfig, play_builtin};

fn started(id: &str, seed: u64, rules: Rules) -> (Box<dyn DynEnv>, TaskCard, Session) {
    let mut env = Registry::builtin().make(id, None).unwrap();
    let card = env.generate(seed);
    env.reset(&card).unwrap();
    let session = Session::start(&*env, rules);
    (env, card, session)
}

#[test]
fn refusals_past_the_retries_forfeit_and_end_the_episode() {
    let rules = Rules {
        max_retries: 1,
        max_turns: None,
    };
    let (mut env, _, mut session) = started("games/tictactoe-v1", 3, rules);
    let mover = session.movers(&*env)[0];
    assert_eq!(session.retries_left(mover), 1);
    assert!(matches!(
        session.attempt(&mut *env, mover, "nowhere").unwrap(),
        Attempt::Refused(_)
    ));
    assert_eq!(session.retries_left(mover), 0);
    assert_eq!(session.ending(), Ending::Running);
    assert!(matches!(
        session.attempt(&mut *env, mover, "still nowhere").unwrap(),
        Attempt::Refused(_)
    ));
    assert_eq!(session.ending(), Ending::Forfeit(mover));
    assert_eq!(session.status(), Status::Truncated);
    assert!(session.movers(&*env).is_empty());
    assert!(matches!(
        session.attempt(&mut *env, mover, "5"),
        Err(EnvError::EpisodeOver(Status::Truncated))
    ));
    assert_eq!(session.invalid_actions()[mover], 2);
    // Zero-sum: the forfeiting player gets the floor, the other the top.
    let scores = session.scores(&*env);
    assert_eq!(scores[mover].reward, -1.0);
    assert!(!scores[mover].passed);
    assert_eq!(scores[1 - mover].reward, 1.0);
    assert!(scores[1 - mover].passed);
}

#[test]
fn an_accepted_action_gives_the_player_its_retries_back() {
    let (mut env, _, mut session) = started("logic/guess-number-v2", 1, Rules::default());
    for _ in 0..3 {
        assert!(matches!(
            session.attempt(&mut *env, 0, "banana").unwrap(),
            Attempt::Refused(_)
        ));
        assert_eq!(session.ending(), Ending::Running);
        let action = env.oracle_action(0).unwrap();
        // Two refusals, then a good guess: never a forfeit.
        assert!(matches!(
            session.attempt(&mut *env, 0, "banana").unwrap(),
            Attempt::Refused(_)
        ));
        assert!(matches!(
            session.attempt(&mut *env, 0, &action).unwrap(),
            Attempt::Accepted(_)
        ));
        assert_eq!(session.retries_left(0), 2);
        if session.over() {
            break;
        }
    }
    assert_eq!(session.forfeited_by(), None);
}

#[test]
fn the_turn_cap_truncates_with_the_scores_as_they_stand() {
    let rules = Rules {
        max_retries: 2,
        max_turns: Some(2),
    };
    let (mut env, _, mut session) = started("games/tictactoe-v1", 5, rules);
    for _ in 0..2 {
        let mover = session.movers(&*env)[0];
        let action = env.oracle_action(mover).unwrap();
        session.attempt(&mut *env, mover, &action).unwrap();
    }
    assert_eq!(session.ending(), Ending::Truncated);
    assert_eq!(env.status(), Status::Running, "the env itself goes on");
    let scores = session.scores(&*env);
    assert_eq!(
        scores.iter().map(|s| s.reward).collect::<Vec<_>>(),
        (0..2).map(|p| env.score(p).reward).collect::<Vec<_>>()
    );
}

#[test]
fn the_driver_and_the_session_agree_on_a_played_episode() {
    // The driver keeps no rules of its own: its result is the session's.
    let registry = Registry::builtin();
    let mut env = registry.make("games/tictactoe-v1", None).unwrap();
    let config = DriverConfig {
        max_turns: Some(3),
        ..DriverConfig::default()
    };
    let result = play_builtin(&mut *env, 9, &["random", "random"], &config).unwrap();
    assert_eq!(result.status, Status::Truncated);
    assert_eq!(result.steps, 3);
}
