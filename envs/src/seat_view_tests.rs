use serde_json::{Value, json};

use super::*;
use crate::Registry;
use crate::rng::Rng;
use crate::seat::{SeatEpisode, SeatOptions};
use crate::session::Rules;

fn started(registry: &Registry, card: &TaskCard, rules: Rules) -> (Box<dyn DynEnv>, Session) {
    let mut env = registry.make_for_card(card).unwrap();
    env.reset(card).unwrap();
    let session = Session::start(&*env, rules);
    (env, session)
}

fn card_of(registry: &Registry, id: &str, seed: u64) -> TaskCard {
    registry.make(id, None).unwrap().generate(seed)
}

/// Plays `mover`'s heuristic move (as a seat would) through the rules.
fn heuristic_step(env: &mut dyn DynEnv, session: &mut Session, rng: &mut Rng) -> StepOutcome {
    let mover = default_seat(env, session);
    let action = env.heuristic_action(mover, rng);
    StepOutcome::play(env, session, mover, &action).unwrap()
}

// ---- hidden information: paired episodes ---------------------------------

/// The hidden-information games, and how to change seat `q`'s secret.
fn vary_opponent(env_id: &str, task: &mut Value, q: usize, donor: &Value) {
    match env_id {
        // Cards 0..3 (J, Q, K): give q the one card neither seat holds.
        "games/kuhn-poker-v1" => {
            let deal = task["deals"][0].as_array_mut().unwrap();
            let (mine, theirs) = (deal[1 - q].as_u64().unwrap(), deal[q].as_u64().unwrap());
            let other = (0..3).find(|c| *c != mine && *c != theirs).unwrap();
            deal[q] = other.into();
        }
        // [p0 card, p1 card, public card] out of six (J J Q Q K K: rank =
        // card / 2): give q an unused card of another rank.
        "games/leduc-poker-v1" => {
            let deal = task["deals"][0].as_array_mut().unwrap();
            let used: Vec<u64> = deal.iter().map(|c| c.as_u64().unwrap()).collect();
            let other = (0..6)
                .find(|c| !used.contains(c) && c / 2 != used[q] / 2)
                .unwrap();
            deal[q] = other.into();
        }
        // [p0's two cards, p1's two, five board cards] out of 52: give q
        // two cards nobody holds.
        "games/heads-up-limit-holdem-v1" => {
            let deal = task["deals"][0].as_array_mut().unwrap();
            let used: Vec<u64> = deal.iter().map(|c| c.as_u64().unwrap()).collect();
            let mut spare = (0..52).filter(|c| !used.contains(c));
            for slot in [2 * q, 2 * q + 1] {
                deal[slot] = spare.next().unwrap().into();
            }
        }
        "games/liars-dice-v1" => {
            for die in task["dice"][q].as_array_mut().unwrap() {
                *die = (die.as_u64().unwrap() % 6 + 1).into();
            }
        }
        // Another legal fleet for q: the generator's for another seed.
        "games/battleship-v1" => task["fleets"][q] = donor["fleets"][q].clone(),
        "games/negotiation-v1" => {
            let values = task["values"][q].as_array_mut().unwrap();
            values.rotate_left(1);
        }
        other => panic!("no hidden state known for {other}"),
    }
}

const HIDDEN: &[&str] = &[
    "games/kuhn-poker-v1",
    "games/leduc-poker-v1",
    "games/heads-up-limit-holdem-v1",
    "games/liars-dice-v1",
    "games/battleship-v1",
    "games/negotiation-v1",
];

/// Battleship cells where a ship of seat `q` lies in either card: a shot
/// there is news (hit or miss) that the seat is owed, so it never fires
/// there and nothing it is shown may differ between the pair.
fn ships_in_either(a: &TaskCard, b: &TaskCard, q: usize) -> Vec<String> {
    let size = a.task["size"].as_u64().unwrap_or(0) as usize;
    let mut cells = Vec::new();
    for card in [a, b] {
        for ship in card.task["fleets"][q].as_array().into_iter().flatten() {
            for cell in ship.as_array().into_iter().flatten() {
                let i = cell.as_u64().unwrap() as usize;
                cells.push(format!(
                    "{}{}",
                    (b'a' + (i % size) as u8) as char,
                    i / size + 1
                ));
            }
        }
    }
    cells
}

/// Plays the pair in lockstep, the same move in both; compares every view
/// seat `p` could be handed while the game runs: the one it reads, and
/// its answer to every step, its own and the opponent's (a seat episode
/// shows it the opponents' events). Returns how many were compared.
fn compare_pair(registry: &Registry, a: &TaskCard, b: &TaskCard, p: Player) -> usize {
    let rules = Rules::default();
    let ((mut env_a, mut session_a), (mut env_b, mut session_b)) =
        (started(registry, a, rules), started(registry, b, rules));
    let q = 1 - p;
    assert_ne!(
        env_a.observe(q).unwrap(),
        env_b.observe(q).unwrap(),
        "{}: the pair must differ in seat {q}'s view, or the test proves nothing",
        a.env_id
    );
    let avoid = match a.env_id.as_str() {
        "games/battleship-v1" => ships_in_either(a, b, q),
        _ => Vec::new(),
    };
    let view =
        |env: &dyn DynEnv, session: &Session, card: &TaskCard, step: Option<&StepOutcome>| {
            serde_json::to_value(SeatView::new(env, session, card, ViewMode::Seat, p, step))
                .unwrap()
        };
    let mut rng = Rng::from_seed(a.seed);
    let mut compared = 0;
    let mut step: Option<(StepOutcome, StepOutcome)> = None;
    while !session_a.over() && !session_b.over() {
        let (step_a, step_b) = (step.as_ref().map(|s| &s.0), step.as_ref().map(|s| &s.1));
        assert_eq!(
            view(&*env_a, &session_a, a, step_a),
            view(&*env_b, &session_b, b, step_b),
            "{}: seat {p}'s view differs after {} steps though only seat {q}'s secret did",
            a.env_id,
            env_a.steps()
        );
        compared += 1;
        let mover = default_seat(&*env_a, &session_a);
        let action = match env_a.observe(mover).unwrap().legal_actions {
            Some(legal) if mover == p && !avoid.is_empty() => {
                let Some(safe) = legal.into_iter().find(|m| !avoid.contains(m)) else {
                    break;
                };
                safe
            }
            _ => env_a.heuristic_action(mover, &mut rng),
        };
        let outcome_a = StepOutcome::play(&mut *env_a, &mut session_a, mover, &action).unwrap();
        let outcome_b = StepOutcome::play(&mut *env_b, &mut session_b, mover, &action).unwrap();
        if outcome_a.invalid.is_some() || outcome_b.invalid.is_some() {
            break;
        }
        step = Some((outcome_a, outcome_b));
    }
    compared
}

#[test]
fn mid_game_a_seat_sees_nothing_of_the_opponents_hidden_state() {
    let registry = Registry::builtin();
    for &id in HIDDEN {
        let env = registry.make(id, None).unwrap();
        for p in 0..2 {
            let mut compared = 0;
            for seed in 0..12 {
                let a = env.generate(seed);
                let mut b = a.clone();
                let donor = env.generate(seed + 1000).task;
                vary_opponent(id, &mut b.task, 1 - p, &donor);
                compared += compare_pair(&registry, &a, &b, p);
            }
            assert!(
                compared >= 24,
                "{id} seat {p}: only {compared} views compared"
            );
        }
    }
}

// ---- the contract, field by field ----------------------------------------

#[test]
fn mid_game_a_game_seat_has_no_other_seats_view_score_reward_card_or_prompt() {
    let registry = Registry::builtin();
    for id in [
        "games/tictactoe-v1",
        "games/kuhn-poker-v1",
        "games/goofspiel-v1",
    ] {
        let card = card_of(&registry, id, 3);
        let (mut env, mut session) = started(&registry, &card, Rules::default());
        let mut rng = Rng::from_seed(3);
        let mut step = None;
        while !session.over() {
            for seat in 0..2 {
                let view =
                    SeatView::new(&*env, &session, &card, ViewMode::Seat, seat, step.as_ref());
                assert_eq!(view.info.view, Viewer::Seat(seat));
                let keys: Vec<&String> = view.observations.keys().collect();
                assert_eq!(
                    keys,
                    [&seat.to_string()],
                    "{id}: another seat's observation"
                );
                assert_eq!(
                    view.observation.as_ref(),
                    view.observations.get(&seat.to_string())
                );
                assert!(view.card_id.is_none() && view.info.prompt.is_none(), "{id}");
                assert!(view.info.scores.is_none() && view.rewards.is_none(), "{id}");
                assert_eq!(view.info.score, Some(session.scores(&*env)[seat].clone()));
                let text = serde_json::to_string(&view).unwrap();
                assert!(
                    !text.contains(&card.id),
                    "{id}: the card id (and seed) in {text}"
                );
                if let Some(s) = &step {
                    assert_eq!(
                        view.reward,
                        Some(s.rewards[seat]),
                        "{id}: not the own reward"
                    );
                    assert_eq!(view.info.events.as_ref(), Some(&s.events));
                }
            }
            step = Some(heuristic_step(&mut *env, &mut session, &mut rng));
        }
    }
}

#[test]
fn at_the_end_every_seat_sees_every_score_the_card_id_and_the_prompt() {
    let registry = Registry::builtin();
    let card = card_of(&registry, "games/kuhn-poker-v1", 5);
    let (mut env, mut session) = started(&registry, &card, Rules::default());
    let mut rng = Rng::from_seed(5);
    let mut last = None;
    while !session.over() {
        last = Some(heuristic_step(&mut *env, &mut session, &mut rng));
    }
    let last = last.unwrap();
    for seat in 0..2 {
        let view = SeatView::new(&*env, &session, &card, ViewMode::Seat, seat, Some(&last));
        assert!(view.over());
        assert_eq!(view.info.scores.as_ref(), Some(&session.scores(&*env)));
        assert_eq!(view.card_id.as_deref(), Some(card.id.as_str()));
        assert_eq!(view.info.prompt.as_deref(), Some(card.prompt.as_str()));
        assert_eq!(view.rewards.as_ref(), Some(&last.rewards));
        assert!(view.info.to_move.is_empty() && view.info.current_player.is_none());
    }
}

#[test]
fn the_own_reward_is_the_seats_score_change_opponents_and_forfeits_included() {
    let registry = Registry::builtin();
    for (id, opponent) in [
        ("games/tictactoe-v1", "random"),
        ("games/kuhn-poker-v1", "heuristic"),
        ("games/pig-v1", "random"),
        ("logic/guess-number-v2", "random"),
    ] {
        let players = registry.make(id, None).unwrap().spec().players;
        for (seed, seat) in [(1, 0), (2, players - 1)] {
            let options = SeatOptions {
                opponent: opponent.into(),
                ..SeatOptions::default()
            };
            let mut episode = SeatEpisode::new(registry.make(id, None).unwrap(), options).unwrap();
            let card = card_of(&registry, id, seed);
            episode
                .reset(&card, seat, |c| registry.make_for_card(c))
                .unwrap();
            let mut rng = Rng::from_seed(seed);
            for turn in 0.. {
                if episode.done() {
                    break;
                }
                let before = episode.score().reward;
                // Now and then a refusal: its reward is the change too.
                let action = match turn % 4 {
                    3 => "no such move at all".to_string(),
                    _ => episode.env().heuristic_action(seat, &mut rng),
                };
                let outcome = episode.step(&action).unwrap();
                let view = episode.view(Some(&outcome)).unwrap();
                let change = episode.score().reward - before;
                assert!(
                    (view.reward.unwrap() - change).abs() < 1e-9,
                    "{id} seed {seed}"
                );
                assert_eq!(view.info.score.as_ref(), Some(&episode.score()));
                assert_eq!(view.info.invalid_action, outcome.invalid);
            }
        }
    }
    // Refusals past the retries: the forfeit is the seat's reward change.
    let mut episode = SeatEpisode::new(
        registry.make("games/tictactoe-v1", None).unwrap(),
        SeatOptions::default(),
    )
    .unwrap();
    let card = card_of(&registry, "games/tictactoe-v1", 6);
    episode
        .reset(&card, 0, |c| registry.make_for_card(c))
        .unwrap();
    let mut outcome = None;
    for _ in 0..3 {
        outcome = Some(episode.step("nowhere").unwrap());
    }
    let view = episode.view(outcome.as_ref()).unwrap();
    assert_eq!((view.reward, view.info.forfeit), (Some(-1.0), Some(0)));
    assert_eq!(view.info.retries_left, Some(0));
    assert!(view.truncated && view.card_id.is_some());
}

#[test]
fn the_trainer_view_has_every_observation_reward_score_and_the_card() {
    let registry = Registry::builtin();
    let card = card_of(&registry, "games/kuhn-poker-v1", 3);
    let (mut env, mut session) = started(&registry, &card, Rules::default());
    let all = SeatView::new(&*env, &session, &card, ViewMode::All, 0, None);
    assert_eq!(all.info.view, Viewer::All);
    assert_eq!(all.observations.len(), 2);
    assert_eq!(all.info.scores.as_ref().map(Vec::len), Some(2));
    assert!(all.info.score.is_none());
    assert_eq!(all.card_id.as_deref(), Some(card.id.as_str()));
    assert_eq!(all.info.prompt.as_deref(), Some(card.prompt.as_str()));
    let mover = default_seat(&*env, &session);
    assert_eq!(
        all.observation.as_ref(),
        all.observations.get(&mover.to_string())
    );
    let step = heuristic_step(&mut *env, &mut session, &mut Rng::from_seed(3));
    let all = SeatView::new(
        &*env,
        &session,
        &card,
        ViewMode::All,
        step.player,
        Some(&step),
    );
    assert_eq!(all.rewards.as_ref(), Some(&step.rewards));
    assert_eq!(all.info.events.as_ref(), Some(&step.events));
    assert_eq!(
        (all.player, all.reward),
        (Some(step.player), Some(step.reward()))
    );
    let json = serde_json::to_value(&all).unwrap();
    assert_eq!(json["info"]["view"], "all");
    let back: SeatView = serde_json::from_value(json).unwrap();
    assert_eq!(back, all);
}

#[test]
fn a_one_player_seat_sees_its_prompt_but_the_card_id_only_at_the_end() {
    let registry = Registry::builtin();
    let card = card_of(&registry, "logic/guess-number-v2", 4);
    let (mut env, mut session) = started(&registry, &card, Rules::default());
    let view = SeatView::new(&*env, &session, &card, ViewMode::Seat, 0, None);
    assert_eq!(view.info.prompt.as_deref(), Some(card.prompt.as_str()));
    assert!(view.card_id.is_none() && view.info.scores.is_none());
    assert_eq!(view.info.retries_left, Some(2));
    let json = serde_json::to_value(&view).unwrap();
    assert_eq!(json["info"]["view"], 0);
    assert!(json.get("card_id").is_none() && json.get("reward").is_none());
    assert_eq!(json["info"]["retries_left"], 2);
    while !session.over() {
        let action = env.oracle_action(0).unwrap();
        StepOutcome::play(&mut *env, &mut session, 0, &action).unwrap();
    }
    let end = SeatView::new(&*env, &session, &card, ViewMode::Seat, 0, None);
    assert_eq!(end.card_id.as_deref(), Some(card.id.as_str()));
    assert_eq!(end.info.scores.as_ref().map(Vec::len), Some(1));
    // A runner without a retry limit says so.
    let unlimited = Rules {
        max_retries: NO_RETRY_LIMIT,
        max_turns: None,
    };
    let (env, session) = started(&registry, &card, unlimited);
    let view = SeatView::new(&*env, &session, &card, ViewMode::Seat, 0, None);
    assert_eq!(view.info.retries_left, None);
    assert_eq!(
        serde_json::to_value(&view).unwrap()["info"]["retries_left"],
        json!(null)
    );
}
