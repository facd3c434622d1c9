//! `verigym.Env`: one env with Gymnasium-style `reset` / `step`.
//!
//! Text in, text out: the observation is what an LLM agent reads, the action
//! is its reply. `info` is the episode's view as the server answers it, the
//! one [`SeatView`] of `verigym_envs::seat_view` (its module docs say who
//! may see what), converted to a dict: `observation` (text, structured,
//! legal actions), `info` (whose view, who moves, steps, scores, events,
//! refusals, prompt), `card_id` once over, and after a step `player` and
//! `reward` (and `rewards`, every seat's, in the trainer view or once over).
//!
//! Views: by default `step` returns the view of the seat that acted and
//! `reset` the first mover's; the reward is that seat's own. `view="all"` is
//! the trainer view of a caller that plays every seat: every seat's
//! observations, rewards and scores, the card id, and the reward as a list
//! per player in games.
//!
//! Refusals: the env refuses an action, the episode is unchanged and
//! `info["info"]["invalid_action"]` says why. `verigym.Env` sets no retry
//! limit (its caller owns that policy); `verigym.SeatEnv` and the server
//! forfeit past `max_retries`.

use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};
use verigym_envs::seat_view::{SeatView, StepOutcome, ViewMode, default_seat};
use verigym_envs::session::{NO_RETRY_LIMIT, Rules, Session};
use verigym_envs::{DynEnv, EnvError as RustEnvError, Player, Rng, TaskCard};

use crate::convert::{card_from_py, from_py, to_py};
use crate::{env_error, registry};

/// What `step` returns: Gymnasium's `(observation, reward, terminated, truncated, info)`.
type StepResult<'py> = (String, Bound<'py, PyAny>, bool, bool, Bound<'py, PyDict>);

/// `view=` in Python.
fn parse_view(view: &str) -> PyResult<ViewMode> {
    match view {
        "seat" => Ok(ViewMode::Seat),
        "all" => Ok(ViewMode::All),
        other => Err(env_error(format!(
            "view must be \"seat\" (the acting seat's own view, the default) or \"all\" (every seat's, for a caller that plays them all), not {other:?}"
        ))),
    }
}

/// The episode rules of `verigym.Env`: no retry limit, the spec's step cap.
const RULES: Rules = Rules {
    max_retries: NO_RETRY_LIMIT,
    max_turns: None,
};

/// An environment made by `verigym.make(id)`; see the package docs.
#[pyclass(name = "Env", module = "verigym")]
pub struct PyEnv {
    env: Box<dyn DynEnv>,
    /// The id as asked, preset included (`logic/sudoku-v1@hard`).
    asked_id: String,
    /// The episode's card and rules' state (`None` before the first reset).
    episode: Option<(TaskCard, Session)>,
    /// The seed the next `reset()` without one uses.
    next_seed: u64,
}

/// Makes an env from `id[@preset]` (or `id@LEVEL`) and optional config overrides.
#[pyfunction]
#[pyo3(signature = (env_id, config=None))]
pub fn make(env_id: &str, config: Option<&Bound<'_, PyAny>>) -> PyResult<PyEnv> {
    let overrides = config.map(from_py).transpose()?;
    let env = registry()
        .make(env_id, overrides.as_ref())
        .map_err(env_error)?;
    Ok(PyEnv {
        env,
        asked_id: env_id.to_string(),
        episode: None,
        next_seed: 0,
    })
}

impl PyEnv {
    fn live(&self) -> PyResult<&(TaskCard, Session)> {
        self.episode
            .as_ref()
            .ok_or_else(|| env_error(RustEnvError::ResetNeeded))
    }

    /// The first player to move now, or None once the episode is over.
    fn to_move(&self) -> Option<Player> {
        let (_, session) = self.episode.as_ref()?;
        session.movers(&*self.env).first().copied()
    }

    /// The view (see the module docs) as `(observation text, info)`.
    fn view_of<'py>(
        &self,
        py: Python<'py>,
        mode: ViewMode,
        seat: Player,
        step: Option<&StepOutcome>,
    ) -> PyResult<(String, Bound<'py, PyDict>, SeatView)> {
        let (card, session) = self.live()?;
        let view = SeatView::new(&*self.env, session, card, mode, seat, step);
        let json = serde_json::to_value(&view).map_err(|e| env_error(e.to_string()))?;
        let info = to_py(py, &json)?.cast_into::<PyDict>()?;
        Ok((view.text().to_string(), info, view))
    }

    fn check_player(&self, player: Player) -> PyResult<Player> {
        let players = self.env.spec().players;
        if player < players {
            return Ok(player);
        }
        Err(env_error(format!(
            "player {player} does not exist: `{}` has {players} players",
            self.env.spec().id,
        )))
    }

    fn player_or_current(&self, player: Option<Player>) -> PyResult<Player> {
        let (_, session) = self.live()?;
        match player.or_else(|| self.to_move()) {
            Some(p) => self.check_player(p),
            None => Err(env_error(RustEnvError::EpisodeOver(session.status()))),
        }
    }
}

fn score_dict<'py>(py: Python<'py>, score: &verigym_envs::Score) -> PyResult<Bound<'py, PyDict>> {
    let dict = PyDict::new(py);
    dict.set_item("reward", score.reward)?;
    dict.set_item("passed", score.passed)?;
    dict.set_item("breakdown", score.breakdown.clone())?;
    Ok(dict)
}

#[pymethods]
impl PyEnv {
    /// The env id as given to `make`, preset included.
    #[getter]
    fn id(&self) -> &str {
        &self.asked_id
    }

    /// Number of players (1 for everything but games).
    #[getter]
    fn players(&self) -> usize {
        self.env.spec().players
    }

    /// The complete config (defaults filled in).
    #[getter]
    fn config<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        to_py(py, self.env.config())
    }

    /// The task card of the current episode, or None before `reset`.
    #[getter]
    fn card<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        match &self.episode {
            Some((card, _)) => to_py(py, &serde_json::to_value(card).expect("cards serialise")),
            None => Ok(py.None().into_bound(py)),
        }
    }

    /// Starts an episode on the task of `seed` (or on `card`, a task card
    /// from `generate`). Returns the first mover's `(observation, info)`;
    /// see the module docs for `view`.
    #[pyo3(signature = (seed=None, *, card=None, options=None, view="seat"))]
    fn reset<'py>(
        &mut self,
        py: Python<'py>,
        seed: Option<u64>,
        card: Option<&Bound<'py, PyAny>>,
        options: Option<&Bound<'py, PyAny>>,
        view: &str,
    ) -> PyResult<(String, Bound<'py, PyDict>)> {
        let _ = options; // Gymnasium's signature; verigym has no reset options.
        let mode = parse_view(view)?;
        let card = match card {
            Some(card) => card_from_py(card)?,
            None => {
                let seed = seed.unwrap_or(self.next_seed);
                self.next_seed = seed.wrapping_add(1);
                let env = &self.env;
                py.detach(|| env.generate(seed))
            }
        };
        self.env.reset(&card).map_err(env_error)?;
        let session = Session::start(&*self.env, RULES);
        let seat = default_seat(&*self.env, &session);
        self.episode = Some((card, session));
        let (text, info, _) = self.view_of(py, mode, seat, None)?;
        Ok((text, info))
    }

    /// Applies `action` (text) for `player` (default: whoever moves now).
    /// Returns `(observation, reward, terminated, truncated, info)`: the
    /// acting seat's view and its own reward (`view="all"`: the trainer
    /// view, led by the next mover, with the reward a per-player list in
    /// games). A refused action leaves the episode unchanged and sets
    /// `info["info"]["invalid_action"]` to the env's reason.
    #[pyo3(signature = (action, player=None, *, view="seat"))]
    fn step<'py>(
        &mut self,
        py: Python<'py>,
        action: &str,
        player: Option<Player>,
        view: &str,
    ) -> PyResult<StepResult<'py>> {
        let mode = parse_view(view)?;
        let player = self.player_or_current(player)?;
        let Some((_, session)) = self.episode.as_mut() else {
            return Err(env_error(RustEnvError::ResetNeeded));
        };
        let env = &mut self.env;
        let outcome = py
            .detach(|| StepOutcome::play(&mut **env, session, player, action))
            .map_err(env_error)?;
        let (text, info, shown) = self.view_of(py, mode, player, Some(&outcome))?;
        let reward = match mode {
            ViewMode::All if self.env.spec().players > 1 => {
                PyList::new(py, &outcome.rewards)?.into_any()
            }
            _ => shown.reward.unwrap_or(0.0).into_pyobject(py)?.into_any(),
        };
        Ok((text, reward, shown.terminated, shown.truncated, info))
    }

    /// The observation text for `player` (default: whoever moves now).
    #[pyo3(signature = (player=None))]
    fn observe_text(&self, player: Option<Player>) -> PyResult<String> {
        self.live()?;
        let player = player.or_else(|| self.to_move()).unwrap_or(0);
        Ok(self.env.observe(player).map_err(env_error)?.text)
    }

    /// `player`'s own seat view now (default: whoever moves now), as
    /// `reset` returns it: `(observation, info)`.
    #[pyo3(signature = (player=None))]
    fn observe<'py>(
        &self,
        py: Python<'py>,
        player: Option<Player>,
    ) -> PyResult<(String, Bound<'py, PyDict>)> {
        self.live()?;
        let player = self.check_player(player.or_else(|| self.to_move()).unwrap_or(0))?;
        let (text, info, _) = self.view_of(py, ViewMode::Seat, player, None)?;
        Ok((text, info))
    }

    /// The player's score so far: `{"reward", "passed", "breakdown"}`.
    #[pyo3(signature = (player=0))]
    fn score<'py>(&self, py: Python<'py>, player: Player) -> PyResult<Bound<'py, PyDict>> {
        match &self.episode {
            Some((_, session)) => {
                let scores = session.scores(&*self.env);
                let score = scores.get(player).cloned().unwrap_or_default();
                score_dict(py, &score)
            }
            None => score_dict(py, &self.env.score(player)),
        }
    }

    /// The reference solver's next action for `player` (default: whoever
    /// moves now), or None where the env has none. For data and tests; a
    /// policy that calls it is cheating.
    #[pyo3(signature = (player=None))]
    fn oracle_action(&self, player: Option<Player>) -> PyResult<Option<String>> {
        let player = self.player_or_current(player)?;
        Ok(self.env.oracle_action(player))
    }

    /// A random (usually legal) action for `player`, reproducible by `seed`.
    #[pyo3(signature = (player=None, seed=0))]
    fn random_action(&self, player: Option<Player>, seed: u64) -> PyResult<String> {
        let player = self.player_or_current(player)?;
        Ok(self.env.random_action(player, &mut Rng::from_seed(seed)))
    }

    /// A compact text dump of the state.
    fn render(&self) -> String {
        self.env.render()
    }

    fn __repr__(&self) -> String {
        match &self.episode {
            Some((card, _)) => format!("<verigym.Env {} task={}>", self.asked_id, card.id),
            None => format!("<verigym.Env {}>", self.asked_id),
        }
    }
}
