//! Paired episodes of every hidden-information game: two cards that differ
//! only in the opponent's hidden state, the same moves in both. Each seat's
//! view must be byte-identical until the showdown (or, in battleship, until
//! the seat's own shot, whose hit or miss is news it is owed).

use serde_json::{Value, json};
use verigym_envs::session::{Attempt, Rules, Session};
use verigym_envs::{DynEnv, Player, Registry, Rng, TaskCard};

use super::{ViewMode, add_step, default_seat, episode_view};

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
        // [p0 card, p1 card, public card] out of six (J J Q Q K K: rank = card / 2):
        // give q an unused card of another rank, which q's view names.
        "games/leduc-poker-v1" => {
            let deal = task["deals"][0].as_array_mut().unwrap();
            let used: Vec<u64> = deal.iter().map(|c| c.as_u64().unwrap()).collect();
            let other = (0..6)
                .find(|c| !used.contains(c) && c / 2 != used[q] / 2)
                .unwrap();
            deal[q] = other.into();
        }
        "games/liars-dice-v1" => {
            for die in task["dice"][q].as_array_mut().unwrap() {
                *die = (die.as_u64().unwrap() % 6 + 1).into();
            }
        }
        // Another legal fleet for q: the one the generator made for q
        // under another seed.
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
    "games/liars-dice-v1",
    "games/battleship-v1",
    "games/negotiation-v1",
];

fn started(registry: &Registry, card: &TaskCard) -> (Box<dyn DynEnv>, Session) {
    let mut env = registry.make_for_card(card).unwrap();
    env.reset(card).unwrap();
    let session = Session::start(&*env, Rules::default());
    (env, session)
}

/// Every field of `p`'s views, step by step, with the ids left out.
fn seat_view(env: &dyn DynEnv, session: &Session, card: &TaskCard, p: Player) -> Value {
    Value::Object(episode_view(env, session, card, ViewMode::Seat, p))
}

/// Plays the pair in lockstep; returns how many views of `p` were compared.
fn compare_pair(registry: &Registry, a: &TaskCard, b: &TaskCard, p: Player) -> usize {
    let ((mut env_a, mut session_a), (mut env_b, mut session_b)) =
        (started(registry, a), started(registry, b));
    let q = 1 - p;
    assert_ne!(
        env_a.observe(q).unwrap(),
        env_b.observe(q).unwrap(),
        "{}: the pair must differ in seat {q}'s view, or the test proves nothing",
        a.env_id
    );
    let mut rng = Rng::from_seed(a.seed);
    let mut compared = 0;
    let reveals_on_own_move = a.env_id == "games/battleship-v1";
    while !session_a.over() && !session_b.over() {
        assert_eq!(
            seat_view(&*env_a, &session_a, a, p),
            seat_view(&*env_b, &session_b, b, p),
            "{}: seat {p}'s view differs after {} steps though only seat {q}'s secret did",
            a.env_id,
            env_a.steps()
        );
        compared += 1;
        let mover = default_seat(&*env_a, &session_a);
        if mover == p && reveals_on_own_move {
            break;
        }
        let action = env_a.heuristic_action(mover, &mut rng);
        let (step_a, step_b) = (
            session_a.attempt(&mut *env_a, mover, &action),
            session_b.attempt(&mut *env_b, mover, &action),
        );
        let (Ok(Attempt::Accepted(step_a)), Ok(Attempt::Accepted(step_b))) = (step_a, step_b)
        else {
            break;
        };
        if mover == p && !(reveals_on_own_move) {
            // The step answer to p, too, is p's alone.
            let mut view_a = episode_view(&*env_a, &session_a, a, ViewMode::Seat, p);
            let mut view_b = episode_view(&*env_b, &session_b, b, ViewMode::Seat, p);
            add_step(
                &mut view_a,
                ViewMode::Seat,
                p,
                &step_a.rewards,
                &step_a.events,
            );
            add_step(
                &mut view_b,
                ViewMode::Seat,
                p,
                &step_b.rewards,
                &step_b.events,
            );
            if !session_a.over() && !session_b.over() {
                assert_eq!(
                    view_a, view_b,
                    "{}: seat {p}'s step answer differs",
                    a.env_id
                );
            }
        }
    }
    compared
}

#[test]
fn each_seat_sees_the_same_until_the_showdown_whatever_the_opponent_holds() {
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
                compared >= 12,
                "{id} seat {p}: only {compared} views compared"
            );
        }
    }
}

#[test]
fn the_trainer_view_and_the_end_show_everything() {
    let registry = Registry::builtin();
    let env = registry.make("games/kuhn-poker-v1", None).unwrap();
    let card = env.generate(3);
    let (mut env, mut session) = started(&registry, &card);
    let all = episode_view(&*env, &session, &card, ViewMode::All, 0);
    assert_eq!(all["info"]["view"], "all");
    assert_eq!(all["info"]["scores"].as_array().unwrap().len(), 2);
    assert_eq!(all["card_id"], json!(card.id));
    let seat = episode_view(&*env, &session, &card, ViewMode::Seat, 1);
    assert_eq!(seat["info"]["view"], 1);
    for hidden in ["scores", "prompt"] {
        assert!(
            seat["info"].get(hidden).is_none(),
            "{hidden} in a seat view"
        );
    }
    assert!(seat.get("card_id").is_none());
    assert_eq!(seat["observations"].as_object().unwrap().len(), 1);
    let mut rng = Rng::from_seed(1);
    while !session.over() {
        let mover = session.movers(&*env)[0];
        let action = env.heuristic_action(mover, &mut rng);
        session.attempt(&mut *env, mover, &action).unwrap();
    }
    let end = episode_view(&*env, &session, &card, ViewMode::Seat, 1);
    assert_eq!(end["info"]["scores"].as_array().unwrap().len(), 2);
    assert_eq!(end["card_id"], json!(card.id));
}
