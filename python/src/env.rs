//! `verigym.Env`: one env with Gymnasium-style `reset` / `step`.
//!
//! Text in, text out: the observation is what an LLM agent reads, the action
//! is its reply. `info` carries the rest (whose turn, legal moves, the
//! structured observation, events, per-player rewards, scores).
//!
//! Views: by default `step` returns the view of the seat that acted and
//! `reset` the first mover's, each naming its seat in `info["observed_by"]`;
//! a game's info then holds no card and no task id (both name the seed, from
//! which every hidden card follows). `view="all"` is the driver's view of a
//! caller that plays every seat: the next mover's observation, every seat's
//! in `info["observations"]`, the card and the task id.

use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};
use verigym_envs::{DynEnv, EnvError as RustEnvError, Player, Rng, TaskCard, Turn};

use crate::convert::{card_from_py, from_py, to_py};
use crate::{env_error, registry};

/// What `step` returns: Gymnasium's `(observation, reward, terminated, truncated, info)`.
type StepResult<'py> = (String, Bound<'py, PyAny>, bool, bool, Bound<'py, PyDict>);

/// Whose view `reset` and `step` return: `view=` in Python.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum View {
    /// One seat's own view: what a player of a hidden-information game may
    /// be shown.
    Seat,
    /// Every seat's, for a caller that plays them all.
    All,
}

impl View {
    fn parse(view: &str) -> PyResult<View> {
        match view {
            "seat" => Ok(View::Seat),
            "all" => Ok(View::All),
            other => Err(env_error(format!(
                "view must be \"seat\" (the acting seat's own view, the default) or \"all\" (every seat's, for a caller that plays them all), not {other:?}"
            ))),
        }
    }
}

/// An environment made by `verigym.make(id)`; see the package docs.
#[pyclass(name = "Env", module = "verigym")]
pub struct PyEnv {
    env: Box<dyn DynEnv>,
    /// The id as asked, preset included (`logic/sudoku-v1@hard`).
    asked_id: String,
    card: Option<TaskCard>,
    /// The seed the next `reset()` without one uses.
    next_seed: u64,
    /// Refused actions in this episode.
    invalid_actions: usize,
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
        card: None,
        next_seed: 0,
        invalid_actions: 0,
    })
}

impl PyEnv {
    /// The player who moves now, or None once the episode is over.
    fn to_move(&self) -> Option<Player> {
        match self.env.turn() {
            Turn::Player(p) => Some(p),
            Turn::Simultaneous(players) => players.first().copied(),
            Turn::Over => None,
        }
    }

    /// The observation text for `player` and the info dict shared by reset
    /// and step, as `view` may show them.
    fn view_of<'py>(
        &self,
        py: Python<'py>,
        player: Player,
        view: View,
    ) -> PyResult<(String, Bound<'py, PyDict>)> {
        let observation = self.env.observe(player).map_err(env_error)?;
        let info = PyDict::new(py);
        info.set_item("player", self.to_move())?;
        if let Turn::Simultaneous(players) = self.env.turn() {
            info.set_item("simultaneous", players)?;
        }
        info.set_item("observed_by", player)?;
        info.set_item("legal_actions", observation.legal_actions)?;
        info.set_item("structured", to_py(py, &observation.structured)?)?;
        info.set_item("steps", self.env.steps())?;
        info.set_item("invalid_actions", self.invalid_actions)?;
        if self.shows_card(view)
            && let Some(card) = &self.card
        {
            info.set_item("task_id", &card.id)?;
        }
        if view == View::All {
            let observations = PyList::empty(py);
            for p in 0..self.env.spec().players {
                observations.append(self.env.observe(p).map_err(env_error)?.text)?;
            }
            info.set_item("observations", observations)?;
        }
        Ok((observation.text, info))
    }

    /// Whether `view` may hold the card and task id: a one-player env's
    /// only seat owns its task; in a game they reveal every seat's hand.
    fn shows_card(&self, view: View) -> bool {
        view == View::All || self.env.spec().players == 1
    }

    fn live_card(&self) -> PyResult<&TaskCard> {
        self.card
            .as_ref()
            .ok_or_else(|| env_error(RustEnvError::ResetNeeded))
    }

    fn player_or_current(&self, player: Option<Player>) -> PyResult<Player> {
        self.live_card()?;
        match player.or_else(|| self.to_move()) {
            Some(p) if p < self.env.spec().players => Ok(p),
            Some(p) => Err(env_error(format!(
                "player {p} does not exist: `{}` has {} players",
                self.env.spec().id,
                self.env.spec().players
            ))),
            None => Err(env_error(RustEnvError::EpisodeOver(self.env.status()))),
        }
    }

    /// One player's reward as a float, several players' as a list.
    fn rewards_object<'py>(&self, py: Python<'py>, rewards: &[f64]) -> PyResult<Bound<'py, PyAny>> {
        if self.env.spec().players == 1 {
            Ok(rewards
                .first()
                .copied()
                .unwrap_or(0.0)
                .into_pyobject(py)?
                .into_any())
        } else {
            Ok(PyList::new(py, rewards)?.into_any())
        }
    }

    fn scores<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let list = PyList::empty(py);
        for p in 0..self.env.spec().players {
            list.append(score_dict(py, &self.env.score(p))?)?;
        }
        Ok(list)
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
        match &self.card {
            Some(card) => to_py(py, &serde_json::to_value(card).expect("cards serialise")),
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
        let view = View::parse(view)?;
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
        self.card = Some(card);
        self.invalid_actions = 0;
        let player = self.to_move().unwrap_or(0);
        let (text, info) = self.view_of(py, player, view)?;
        if self.shows_card(view) {
            info.set_item("card", self.card(py)?)?;
        }
        Ok((text, info))
    }

    /// Applies `action` (text) for `player` (default: whoever moves now).
    /// Returns `(observation, reward, terminated, truncated, info)`; the
    /// reward is a float for one player and a per-player list for games.
    /// The observation is the acting player's (`view="all"`: the next
    /// mover's), named by `info["observed_by"]`.
    /// A refused action leaves the episode unchanged and sets
    /// `info["invalid_action"]` to the env's reason.
    #[pyo3(signature = (action, player=None, *, view="seat"))]
    fn step<'py>(
        &mut self,
        py: Python<'py>,
        action: &str,
        player: Option<Player>,
        view: &str,
    ) -> PyResult<StepResult<'py>> {
        let view = View::parse(view)?;
        let player = self.player_or_current(player)?;
        let env = &mut self.env;
        let outcome = py.detach(|| env.step(player, action));
        let players = self.env.spec().players;
        let (rewards, events, invalid) = match outcome {
            Ok(transition) => (transition.rewards, transition.events, None),
            Err(RustEnvError::InvalidAction(reason)) => {
                self.invalid_actions += 1;
                (vec![0.0; players], Vec::new(), Some(reason.reason))
            }
            Err(other) => return Err(env_error(other)),
        };
        let status = self.env.status();
        let terminated = status == verigym_envs::Status::Terminated;
        let truncated = status == verigym_envs::Status::Truncated;
        // A seat sees what it may after its own move; a caller that plays
        // every seat is handed the next mover's view (at the end, the mover's).
        let observer = match view {
            View::Seat => player,
            View::All => self.to_move().unwrap_or(player),
        };
        let (text, info) = self.view_of(py, observer, view)?;
        info.set_item("acted", player)?;
        info.set_item("events", events)?;
        info.set_item("rewards", &rewards)?;
        if let Some(reason) = invalid {
            info.set_item("invalid_action", reason)?;
        }
        if terminated || truncated {
            info.set_item("scores", self.scores(py)?)?;
        }
        let reward = self.rewards_object(py, &rewards)?;
        Ok((text, reward, terminated, truncated, info))
    }

    /// The observation text for `player` (default: whoever moves now).
    #[pyo3(signature = (player=None))]
    fn observe_text(&self, player: Option<Player>) -> PyResult<String> {
        self.live_card()?;
        let player = player.or_else(|| self.to_move()).unwrap_or(0);
        Ok(self.env.observe(player).map_err(env_error)?.text)
    }

    /// `player`'s own view now (default: whoever moves now), as `step`
    /// returns it: `(observation, info)`.
    #[pyo3(signature = (player=None))]
    fn observe<'py>(
        &self,
        py: Python<'py>,
        player: Option<Player>,
    ) -> PyResult<(String, Bound<'py, PyDict>)> {
        self.live_card()?;
        let player = player.or_else(|| self.to_move()).unwrap_or(0);
        if player >= self.env.spec().players {
            return Err(env_error(format!(
                "player {player} does not exist: `{}` has {} players",
                self.env.spec().id,
                self.env.spec().players
            )));
        }
        self.view_of(py, player, View::Seat)
    }

    /// The player's score so far: `{"reward", "passed", "breakdown"}`.
    #[pyo3(signature = (player=0))]
    fn score<'py>(&self, py: Python<'py>, player: Player) -> PyResult<Bound<'py, PyDict>> {
        score_dict(py, &self.env.score(player))
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
        match &self.card {
            Some(card) => format!("<verigym.Env {} task={}>", self.asked_id, card.id),
            None => format!("<verigym.Env {}>", self.asked_id),
        }
    }
}
