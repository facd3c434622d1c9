//! `verigym.SeatEnv`: one seat of an env against built-in opponents
//! ([`verigym_envs::seat`]), with Gymnasium-style `reset` / `step` that
//! return only that seat's view: the `info` dict is the seat view of
//! `verigym_envs::seat_view` (as `verigym.Env` and the server give it). The
//! trainer integrations (`verigym.integrations`) run every episode through
//! it.

use std::sync::{Mutex, MutexGuard};

use pyo3::prelude::*;
use pyo3::types::PyDict;
use serde_json::Value;
use verigym_envs::seat::{SeatEpisode, SeatOptions, StepOutcome};
use verigym_envs::{Player, Score};

use crate::convert::{card_from_py, from_py, to_py};
use crate::{env_error, registry};

/// One seat of an env against built-in opponents; see `verigym.SeatEnv`.
#[pyclass(name = "SeatEnv", module = "verigym")]
pub struct PySeatEnv {
    /// Behind a mutex only because a pyclass must be `Sync` and the
    /// opponents are `Send` only; `&mut self` methods never lock.
    episode: Mutex<SeatEpisode>,
    asked_id: String,
    /// The seed the next `reset()` without a card uses.
    next_seed: u64,
    /// The seat the next `reset()` without `seat=` gives the agent.
    seat: Player,
}

impl PySeatEnv {
    fn episode(&self) -> MutexGuard<'_, SeatEpisode> {
        // A panic while held would poison it; the episode is then as the
        // panic left it, which is still memory-safe to read.
        self.episode.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn episode_mut(&mut self) -> &mut SeatEpisode {
        self.episode.get_mut().unwrap_or_else(|e| e.into_inner())
    }

    /// `ResetNeeded` before the first reset.
    fn live(&self) -> PyResult<()> {
        self.episode().observe().map(|_| ()).map_err(env_error)
    }

    /// The seat's view (answering `step` if given): observation text, the
    /// info dict, and whether it ended as (terminated, truncated).
    fn view<'py>(
        &self,
        py: Python<'py>,
        step: Option<&StepOutcome>,
    ) -> PyResult<(String, Bound<'py, PyDict>, (bool, bool))> {
        let view = self.episode().view(step).map_err(env_error)?;
        let json = serde_json::to_value(&view).map_err(|e| env_error(e.to_string()))?;
        let info = to_py(py, &json)?.cast_into::<PyDict>()?;
        Ok((
            view.text().to_string(),
            info,
            (view.terminated, view.truncated),
        ))
    }
}

fn score_dict<'py>(py: Python<'py>, score: &Score) -> PyResult<Bound<'py, PyDict>> {
    let dict = PyDict::new(py);
    dict.set_item("reward", score.reward)?;
    dict.set_item("passed", score.passed)?;
    dict.set_item("breakdown", score.breakdown.clone())?;
    Ok(dict)
}

#[pymethods]
impl PySeatEnv {
    #[new]
    #[pyo3(signature = (env_id, config=None, *, seat=0, opponent="heuristic", max_retries=2, max_turns=None))]
    fn new(
        env_id: &str,
        config: Option<&Bound<'_, PyAny>>,
        seat: Player,
        opponent: &str,
        max_retries: u32,
        max_turns: Option<usize>,
    ) -> PyResult<Self> {
        let overrides = config.map(from_py).transpose()?;
        let env = registry()
            .make(env_id, overrides.as_ref())
            .map_err(env_error)?;
        let players = env.spec().players;
        if seat >= players {
            return Err(env_error(format!(
                "seat {seat} does not exist: `{}` has {players} player(s), seats 0..{}",
                env.spec().id,
                players - 1
            )));
        }
        let options = SeatOptions {
            opponent: opponent.to_string(),
            max_retries,
            max_turns,
        };
        Ok(PySeatEnv {
            episode: Mutex::new(SeatEpisode::new(env, options).map_err(env_error)?),
            asked_id: env_id.to_string(),
            next_seed: 0,
            seat,
        })
    }

    /// The env id as given, preset included.
    #[getter]
    fn id(&self) -> &str {
        &self.asked_id
    }

    /// `single_turn`, `multi_turn` or `game`.
    #[getter]
    fn kind(&self) -> String {
        match serde_json::to_value(self.episode().env().spec().kind) {
            Ok(Value::String(kind)) => kind,
            _ => String::new(),
        }
    }

    #[getter]
    fn players(&self) -> usize {
        self.episode().env().spec().players
    }

    /// The seat the agent plays (in the next episode, before a reset).
    #[getter]
    fn seat(&self) -> Player {
        self.seat
    }

    #[getter]
    fn opponent(&self) -> String {
        self.episode().options().opponent.clone()
    }

    /// Whether the episode has ended (or none has started).
    #[getter]
    fn done(&self) -> bool {
        self.episode().done()
    }

    /// Starts the episode of `card` (a task card, its JSON text, or a row
    /// holding one under `card`) or of `seed`, with the agent in `seat`
    /// (default: the seat given before). The opponents move first where
    /// the seat does not. Returns the seat's `(observation, info)`.
    #[pyo3(signature = (seed=None, *, card=None, seat=None))]
    fn reset<'py>(
        &mut self,
        py: Python<'py>,
        seed: Option<u64>,
        card: Option<&Bound<'py, PyAny>>,
        seat: Option<Player>,
    ) -> PyResult<(String, Bound<'py, PyDict>)> {
        let card = match card {
            Some(card) => card_from_py(card)?,
            None => {
                let seed = seed.unwrap_or(self.next_seed);
                self.next_seed = seed.wrapping_add(1);
                let env = self.episode_mut().env();
                py.detach(|| env.generate(seed))
            }
        };
        let seat = seat.unwrap_or(self.seat);
        let episode = self.episode_mut();
        py.detach(|| episode.reset(&card, seat, |c| registry().make_for_card(c)))
            .map_err(env_error)?;
        self.seat = seat;
        let (text, info, _) = self.view(py, None)?;
        Ok((text, info))
    }

    /// Applies the seat's `action` (text), then lets the opponents move.
    /// Returns `(observation, reward, terminated, truncated, info)`: the
    /// seat's next view and the change of its reward. A refused action
    /// leaves the episode as it was and sets `info["info"]["invalid_action"]`;
    /// past `max_retries` refusals on one turn the seat forfeits.
    fn step<'py>(
        &mut self,
        py: Python<'py>,
        action: &str,
    ) -> PyResult<(String, f64, bool, bool, Bound<'py, PyDict>)> {
        let episode = self.episode_mut();
        let step = py.detach(|| episode.step(action)).map_err(env_error)?;
        let (text, info, (terminated, truncated)) = self.view(py, Some(&step))?;
        Ok((text, step.reward(), terminated, truncated, info))
    }

    /// The seat's score so far (final once done): `{"reward", "passed",
    /// "breakdown"}`. Other seats' scores are never shown.
    fn score<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        self.live()?;
        score_dict(py, &self.episode().score())
    }

    /// The seat's current observation text.
    fn observe_text(&self) -> PyResult<String> {
        self.live()?;
        Ok(self.episode().observe().map_err(env_error)?.text)
    }

    /// The env's tools as OpenAI function schemas (from the seat's
    /// structured observation), or None for envs without tools.
    fn tools<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let observation = self.episode().observe().map_err(env_error)?;
        match observation.structured.get("tools") {
            Some(tools @ Value::Array(_)) => to_py(py, tools),
            _ => Ok(py.None().into_bound(py)),
        }
    }

    /// The reference solver's next action for the seat, or None. For tests
    /// and data; never part of what an agent is shown.
    fn oracle_action(&self) -> PyResult<Option<String>> {
        self.live()?;
        Ok(self.episode().oracle_action())
    }

    fn __repr__(&self) -> String {
        let episode = self.episode();
        format!(
            "<verigym.SeatEnv {} seat={} opponent={}>",
            self.asked_id,
            self.seat,
            episode.options().opponent
        )
    }
}
