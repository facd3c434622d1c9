//! The env checker catches deliberately broken envs. (Every registered
//! preset is checked by the per-env trials, `envs/tests/envs.rs`.)

use std::sync::atomic::{AtomicU64, Ordering};

use super::checker::{CheckOptions, CheckResult, check_env, summarize};
use crate::{
    DynEnv, Env, EnvKind, EnvSpec, Instance, InvalidAction, Observation, Player, Preset, Rng,
    Score, Turn,
};
use serde::{Deserialize, Serialize};
use serde_json::json;

fn failed(results: &[CheckResult]) -> Vec<&'static str> {
    results
        .iter()
        .filter(|r| r.outcome.is_err())
        .map(|r| r.name)
        .collect()
}

fn checks_of<E: Env>() -> Vec<CheckResult> {
    let make = || Box::new(Instance::<E>::new(E::Config::default()).unwrap()) as Box<dyn DynEnv>;
    check_env(&make, &CheckOptions::default())
}

/// A single-turn "say the secret number" task; the knobs break it.
#[derive(Clone)]
struct Echo<
    const FLAKY: bool,
    const GULLIBLE: bool,
    const MUTE: bool = false,
    const STALE_TEXT: bool = false,
> {
    secret: u64,
    answer: Option<String>,
}

static DRAWS: AtomicU64 = AtomicU64::new(0);

#[derive(Clone, Default, Serialize, Deserialize)]
struct NoConfig {}

impl<const FLAKY: bool, const GULLIBLE: bool, const MUTE: bool, const STALE_TEXT: bool> Env
    for Echo<FLAKY, GULLIBLE, MUTE, STALE_TEXT>
{
    type Config = NoConfig;
    type Task = u64;
    type Action = String;
    const SPEC: EnvSpec = EnvSpec {
        id: "test/echo-v1",
        kind: EnvKind::SingleTurn,
        description: "say the number",
        players: 1,
        max_steps: 1,
        reward_range: (0.0, 1.0),
        zero_sum: false,
        fixed_start: false,
        presets: &[Preset {
            name: "default",
            overrides: "{}",
        }],
    };
    fn generate(_: &NoConfig, rng: &mut Rng) -> u64 {
        // A flaky env reads hidden global state: the checker must notice.
        let noise = if FLAKY {
            DRAWS.fetch_add(1, Ordering::Relaxed)
        } else {
            0
        };
        100 + rng.below(1_000_000) + noise
    }
    fn reset(task: &u64, _: Rng) -> Self {
        Echo {
            secret: *task,
            answer: None,
        }
    }
    fn turn(&self) -> Turn {
        if self.answer.is_some() {
            Turn::Over
        } else {
            Turn::Player(0)
        }
    }
    fn observe(&self, _: Player) -> Observation {
        Observation {
            // A mute prompt never says what to write.
            text: if MUTE {
                format!("The secret is {}.", self.secret)
            } else {
                format!("Say {}: reply with the number.", self.secret)
            },
            structured: json!({}),
            legal_actions: None,
        }
    }
    /// A stale text-only view shows a number the full observation does not.
    fn observe_text(&self, player: Player) -> String {
        if STALE_TEXT {
            format!("Say {}: reply with the number.", self.secret + 1)
        } else {
            self.observe(player).text
        }
    }
    fn parse_action(&self, _: Player, text: &str) -> Result<String, InvalidAction> {
        Ok(text.to_string())
    }
    fn apply(&mut self, _: Player, action: String) -> Result<Vec<String>, InvalidAction> {
        self.answer = Some(action);
        Ok(vec![])
    }
    fn score(&self, _: Player) -> Score {
        let answer = self.answer.as_deref().map(str::trim);
        let correct =
            answer == Some(self.secret.to_string().as_str()) || (GULLIBLE && answer == Some(""));
        Score::binary(correct)
    }
    fn oracle(&self, _: Player) -> Option<String> {
        Some(self.secret.to_string())
    }
}

/// A two-player game that claims to be zero-sum but pays both players.
#[derive(Clone)]
struct NotZeroSum {
    moved: usize,
}

impl Env for NotZeroSum {
    type Config = NoConfig;
    type Task = u64;
    type Action = ();
    const SPEC: EnvSpec = EnvSpec {
        id: "test/not-zero-sum-v1",
        kind: EnvKind::Game,
        description: "both win",
        players: 2,
        max_steps: 4,
        reward_range: (-1.0, 1.0),
        zero_sum: true,
        fixed_start: true,
        presets: &[Preset {
            name: "default",
            overrides: "{}",
        }],
    };
    fn generate(_: &NoConfig, _: &mut Rng) -> u64 {
        0
    }
    fn reset(_: &u64, _: Rng) -> Self {
        NotZeroSum { moved: 0 }
    }
    fn turn(&self) -> Turn {
        if self.moved == 2 {
            Turn::Over
        } else {
            Turn::Player(self.moved)
        }
    }
    fn observe(&self, _: Player) -> Observation {
        Observation {
            text: "Reply `go`.".into(),
            structured: json!({}),
            legal_actions: Some(vec!["go".into()]),
        }
    }
    fn parse_action(&self, _: Player, _: &str) -> Result<(), InvalidAction> {
        Ok(())
    }
    fn apply(&mut self, _: Player, _: ()) -> Result<Vec<String>, InvalidAction> {
        self.moved += 1;
        Ok(vec![])
    }
    fn score(&self, _: Player) -> Score {
        Score::binary(self.moved == 2)
    }
}

#[test]
fn a_sound_env_passes_every_check() {
    summarize(&checks_of::<Echo<false, false>>()).unwrap();
}

#[test]
fn a_nondeterministic_env_fails_determinism() {
    let failures = failed(&checks_of::<Echo<true, false>>());
    assert!(failures.contains(&"determinism"), "{failures:?}");
}

#[test]
fn an_env_that_rewards_the_empty_answer_fails() {
    let failures = failed(&checks_of::<Echo<false, true>>());
    assert_eq!(failures, vec!["degenerate_answers_fail"]);
}

#[test]
fn a_prompt_that_never_says_how_to_answer_fails() {
    let failures = failed(&checks_of::<Echo<false, false, true>>());
    assert_eq!(failures, vec!["prompt_states_answer_form"]);
}

#[test]
fn a_text_view_that_differs_from_the_observation_fails() {
    let failures = failed(&checks_of::<Echo<false, false, false, true>>());
    assert!(failures.contains(&"text_view_matches"), "{failures:?}");
}

#[test]
fn a_game_whose_returns_do_not_cancel_fails_zero_sum() {
    let failures = failed(&checks_of::<NotZeroSum>());
    assert_eq!(failures, vec!["zero_sum"]);
}
