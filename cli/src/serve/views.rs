//! Whose view an answer is: one seat's (the default) or every seat's (the
//! trainer view, asked for explicitly).
//!
//! A seat's view holds what that player may see and nothing else: its own
//! observation, its own score and reward, who moves next. Other seats'
//! scores and rewards appear only once the episode is over. The task card's
//! prompt is player 0's opening view, and the card id ends in the seed
//! (which fixes every hidden deal), so in games both stay out of a seat's
//! view until the end. One-player envs have no one to hide anything from:
//! their seat view holds the prompt, card id and score as well (except for
//! a seat token on `/v1/episodes`, which never sees the card id, and so the
//! seed, before the end: see `episodes::Episode::view_for`).

use serde::Deserialize;
use serde_json::{Map, Value, json};
use verigym_envs::session::Session;
use verigym_envs::{DynEnv, Player, Score, Status, TaskCard, Turn};

/// Which view an answer carries.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ViewMode {
    /// One seat's view (the seat named by the request, or the one to move).
    #[default]
    Seat,
    /// Every seat's observation and score: for a trainer that plays all
    /// seats itself and never forwards an answer to a model unfiltered.
    All,
}

/// The seat an answer is for when the request names none: the first player
/// to move, or player 0 once the episode is over.
pub fn default_seat(env: &dyn DynEnv, session: &Session) -> Player {
    session.movers(env).first().copied().unwrap_or(0)
}

fn observation_json(env: &dyn DynEnv, player: Player) -> Value {
    env.observe(player)
        .ok()
        .and_then(|o| serde_json::to_value(o).ok())
        .unwrap_or(Value::Null)
}

fn score_json(score: &Score) -> Value {
    serde_json::to_value(score).unwrap_or(Value::Null)
}

/// Where an episode stands, as seen by `seat` (or by everyone with
/// [`ViewMode::All`]). `info.view` names whose view it is: a seat number or
/// `"all"`.
///
/// Where it stands is the episode session's word (its rules end an episode
/// by forfeit or turn cap while the env would go on), and so are the scores.
pub fn episode_view(
    env: &dyn DynEnv,
    session: &Session,
    card: &TaskCard,
    mode: ViewMode,
    seat: Player,
) -> Map<String, Value> {
    let spec = env.spec();
    let players = spec.players;
    let turn = env.turn();
    let movers = session.movers(env);
    let status = session.status();
    let invalid_actions: u32 = session.invalid_actions().iter().sum();
    let scores = session.scores(env);
    let over = status != Status::Running;
    let shown: Vec<Player> = match mode {
        ViewMode::Seat => vec![seat],
        ViewMode::All if movers.is_empty() => (0..players).collect(),
        ViewMode::All => movers.clone(),
    };
    let mut observations = Map::new();
    for &p in &shown {
        observations.insert(p.to_string(), observation_json(env, p));
    }
    let observation = shown
        .first()
        .and_then(|p| observations.get(&p.to_string()).cloned())
        .unwrap_or(Value::Null);
    let current_player = match turn {
        Turn::Player(p) if !over => Value::from(p),
        _ => Value::Null,
    };
    // Everyone sees everything once it is over, and a lone player always.
    let open = mode == ViewMode::All || over || players == 1;
    let mut info = json!({
        "view": match mode { ViewMode::All => Value::from("all"), ViewMode::Seat => seat.into() },
        "current_player": current_player,
        "to_move": movers,
        "steps": env.steps(),
        "max_steps": spec.max_steps,
        "invalid_actions": invalid_actions,
    });
    let info_map = info.as_object_mut().expect("a JSON object");
    if open {
        let scores: Vec<Value> = scores.iter().map(score_json).collect();
        info_map.insert("scores".into(), scores.into());
        info_map.insert("prompt".into(), card.prompt.clone().into());
    } else {
        info_map.insert("score".into(), score_json(&scores[seat]));
    }
    let mut view = Map::new();
    view.insert("env_id".into(), spec.id.into());
    if open {
        view.insert("card_id".into(), card.id.clone().into());
    }
    view.insert("players".into(), players.into());
    view.insert("observation".into(), observation);
    view.insert("observations".into(), Value::Object(observations));
    view.insert("terminated".into(), (status == Status::Terminated).into());
    view.insert("truncated".into(), (status == Status::Truncated).into());
    view.insert("info".into(), info);
    view
}

/// Adds what one accepted step did to `view`: the actor's reward, and in
/// the trainer view (or once over) every seat's reward and the env's events.
pub fn add_step(
    view: &mut Map<String, Value>,
    mode: ViewMode,
    player: Player,
    rewards: &[f64],
    events: &[String],
) {
    let open = mode == ViewMode::All
        || view["terminated"] == true
        || view["truncated"] == true
        || view["players"] == 1;
    view.insert("player".into(), player.into());
    view.insert(
        "reward".into(),
        rewards.get(player).copied().unwrap_or(0.0).into(),
    );
    if open {
        view.insert("rewards".into(), json!(rewards));
        if let Some(Value::Object(info)) = view.get_mut("info") {
            info.insert("events".into(), json!(events));
        }
    }
}

#[cfg(test)]
#[path = "views_tests.rs"]
mod tests;
