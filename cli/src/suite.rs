//! Benchmark suites: which envs, presets, how many tasks, seeds, k for
//! pass@k, and turn caps, as a TOML file (the built-in one is `cli/suites/default.toml`).
//!
//! ```toml
//! name = "mini"
//! seed = 1
//! episodes = 50          # tasks per env
//! samples = 4            # attempts per task and agent (pass@1..pass@4)
//! agents = ["oracle", "random", "noop"]
//! game_agents = ["oracle", "heuristic", "random"]   # for games, if set
//!
//! [[env]]
//! id = "logic/guess-number-v2@hard"
//! config = { extra_guesses = 1 }   # JSON-style overrides
//! episodes = 20                    # per-env override
//! ```
//!
//! One-player envs score each agent alone. Games play every ordered pair of
//! distinct agents (both seatings), so ratings rest on a full round robin; a
//! one-player game (2048) plays `game_agents` too, each agent alone.

use serde::{Deserialize, Serialize};
use serde_json::Value;
use verigym_envs::card::{canonical_json, sha256_hex};

/// The built-in default suite (also at `cli/suites/default.toml`).
pub const DEFAULT_SUITE: &str = include_str!("../suites/default.toml");

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Suite {
    pub name: String,
    #[serde(default = "default_seed")]
    pub seed: u64,
    #[serde(default = "default_episodes")]
    pub episodes: usize,
    #[serde(default = "default_samples")]
    pub samples: usize,
    /// Turn cap below each env's own, for every env.
    #[serde(default)]
    pub max_turns: Option<usize>,
    /// Refused actions allowed per turn before a forfeit.
    #[serde(default = "default_retries")]
    pub retries: u32,
    #[serde(default = "default_agents")]
    pub agents: Vec<String>,
    /// Agents for the games (envs with several players) that set none of
    /// their own: a game's ladder needs random play, simple heuristics and
    /// the oracle. `expand` writes them into each game's entry.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub game_agents: Option<Vec<String>>,
    /// Also run every registered env not listed, at its default config,
    /// with `all_envs_episodes` tasks and one sample each.
    #[serde(default)]
    pub all_envs: bool,
    #[serde(default = "default_all_envs_episodes")]
    pub all_envs_episodes: usize,
    #[serde(rename = "env", default)]
    pub envs: Vec<SuiteEnv>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SuiteEnv {
    /// `family/name-vN[@preset]`.
    pub id: String,
    #[serde(default)]
    pub config: Option<Value>,
    #[serde(default)]
    pub episodes: Option<usize>,
    #[serde(default)]
    pub samples: Option<usize>,
    #[serde(default)]
    pub agents: Option<Vec<String>>,
}

fn default_seed() -> u64 {
    1
}
fn default_episodes() -> usize {
    100
}
fn default_samples() -> usize {
    1
}
fn default_all_envs_episodes() -> usize {
    20
}
fn default_retries() -> u32 {
    2
}
fn default_agents() -> Vec<String> {
    ["oracle", "random", "noop"].map(String::from).to_vec()
}

/// Largest samples per task (pass@k is reported up to this k).
pub const MAX_SAMPLES: usize = 64;

impl Suite {
    /// Parses and checks a suite file's text.
    ///
    /// # Errors
    /// TOML errors with their location, or a field out of range.
    pub fn from_toml(text: &str) -> Result<Suite, String> {
        let suite: Suite = toml::from_str(text).map_err(|e| format!("bad suite file: {e}"))?;
        if suite.envs.is_empty() && !suite.all_envs {
            return Err("the suite has no [[env]] entries (and all_envs is off)".into());
        }
        for env in &suite.envs {
            let samples = env.samples.unwrap_or(suite.samples);
            if !(1..=MAX_SAMPLES).contains(&samples) {
                return Err(format!("{}: samples must be 1..={MAX_SAMPLES}", env.id));
            }
            if env.episodes.unwrap_or(suite.episodes) == 0 {
                return Err(format!("{}: episodes must be at least 1", env.id));
            }
            if let Some(config) = &env.config
                && !config.is_object()
            {
                return Err(format!("{}: config must be a table", env.id));
            }
        }
        Ok(suite)
    }

    /// With `all_envs`, appends every registered env that no entry names
    /// (by id, any preset) and turns `all_envs` off, so the expanded suite
    /// (as saved in a run's manifest) lists exactly what ran.
    /// Games without agents of their own get `game_agents`, which is then
    /// cleared for the same reason.
    pub fn expand(mut self, registry: &verigym_envs::Registry) -> Suite {
        if self.all_envs {
            self.add_all_envs(registry);
        }
        if let Some(game_agents) = self.game_agents.take() {
            for env in &mut self.envs {
                let base = env.id.split('@').next().unwrap_or(&env.id);
                let game = registry.get(base).is_ok_and(|r| is_game(r.spec));
                if game && env.agents.is_none() {
                    env.agents = Some(game_agents.clone());
                }
            }
        }
        self
    }

    fn add_all_envs(&mut self, registry: &verigym_envs::Registry) {
        for registration in registry.entries() {
            let id = registration.spec.id;
            let listed = self.envs.iter().any(|e| e.id.split('@').next() == Some(id));
            if !listed {
                self.envs.push(SuiteEnv {
                    id: id.to_string(),
                    config: None,
                    episodes: Some(self.all_envs_episodes),
                    samples: Some(1),
                    agents: None,
                });
            }
        }
        self.all_envs = false;
    }

    /// SHA-256 of the suite's canonical JSON: two runs with equal hashes ran
    /// the same tasks.
    pub fn hash(&self) -> String {
        let json = serde_json::to_value(self).expect("suites serialise");
        sha256_hex(canonical_json(&json).as_bytes())
    }

    pub fn episodes_of(&self, env: &SuiteEnv) -> usize {
        env.episodes.unwrap_or(self.episodes)
    }

    pub fn samples_of(&self, env: &SuiteEnv) -> usize {
        env.samples.unwrap_or(self.samples)
    }

    pub fn agents_of<'a>(&'a self, env: &'a SuiteEnv) -> &'a [String] {
        env.agents.as_deref().unwrap_or(&self.agents)
    }
}

/// Whether an env plays a game's ladder: several players, or one player in
/// a game (2048 against its chance tiles).
fn is_game(spec: &verigym_envs::EnvSpec) -> bool {
    spec.players > 1 || spec.kind == verigym_envs::EnvKind::Game
}

/// The seatings an env plays: each agent alone in a one-player env; every
/// ordered pair of distinct agents in a two-player game (or self-play when
/// only one agent is named); the agents in order for larger games, and
/// when a larger game has more seats than agents, the agents repeated round
/// the table in each of their rotations, so every agent sits in every seat
/// (three agents at a four-seat table play three line-ups).
///
/// # Errors
/// No agents, or more agents than a game of three or more seats has.
pub fn lineups(agents: &[String], players: usize) -> Result<Vec<Vec<String>>, String> {
    let mut distinct: Vec<String> = Vec::new();
    for agent in agents {
        if !distinct.contains(agent) {
            distinct.push(agent.clone());
        }
    }
    // `random,random` asks for self-play, not for no games at all.
    let agents = if players > 1 && distinct.len() == 1 {
        distinct.as_slice()
    } else {
        agents
    };
    match (players, agents.len()) {
        (_, 0) => Err("no agents given".into()),
        (1, _) => Ok(agents.iter().map(|a| vec![a.clone()]).collect()),
        (p, 1) => Ok(vec![vec![agents[0].clone(); p]]),
        (2, _) => Ok(agents
            .iter()
            .flat_map(|a| {
                agents
                    .iter()
                    .filter(move |b| *b != a)
                    .map(move |b| vec![a.clone(), b.clone()])
            })
            .collect()),
        (p, n) if p == n => Ok(vec![agents.to_vec()]),
        (p, n) if n < p => Ok((0..n)
            .map(|turn| {
                (0..p)
                    .map(|seat| agents[(seat + turn) % n].clone())
                    .collect()
            })
            .collect()),
        (p, n) => Err(format!(
            "a {p}-player game needs at most {p} agents, got {n}"
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_default_suite_parses_and_hashes_stably() {
        let suite = Suite::from_toml(DEFAULT_SUITE).unwrap();
        assert_eq!(suite.name, "default");
        assert_eq!(
            suite.hash(),
            Suite::from_toml(DEFAULT_SUITE).unwrap().hash()
        );
        let mut changed = suite.clone();
        changed.seed += 1;
        assert_ne!(changed.hash(), suite.hash());
    }

    #[test]
    fn bad_suites_are_refused_with_the_reason() {
        assert!(Suite::from_toml("name = 'x'").unwrap_err().contains("env"));
        let all = Suite::from_toml("name = 'x'\nall_envs = true").unwrap();
        let expanded = all.expand(&verigym_envs::Registry::builtin());
        assert_eq!(
            expanded.envs.len(),
            verigym_envs::Registry::builtin().entries().len()
        );
        assert!(!expanded.all_envs);
        let err = Suite::from_toml("name='x'\n[[env]]\nid='a'\nsamples=0").unwrap_err();
        assert!(err.contains("samples must be"), "{err}");
        let err = Suite::from_toml("name='x'\nsede=3\n[[env]]\nid='a'").unwrap_err();
        assert!(err.contains("unknown field `sede`"), "{err}");
    }

    #[test]
    fn the_default_suite_plays_games_on_a_ladder() {
        let registry = verigym_envs::Registry::builtin();
        let suite = Suite::from_toml(DEFAULT_SUITE).unwrap().expand(&registry);
        assert!(suite.game_agents.is_none(), "expanded into the entries");
        let mut games = 0;
        for env in &suite.envs {
            let base = env.id.split('@').next().unwrap();
            let agents = suite.agents_of(env);
            if is_game(registry.get(base).unwrap().spec) {
                games += 1;
                for rung in ["random", "heuristic", "oracle"] {
                    assert!(agents.iter().any(|a| a == rung), "{}: {agents:?}", env.id);
                }
            } else {
                // One-player envs play the suite's agents, plus a shipped text
                // agent on the setting it was trained on.
                let builtin: Vec<&String> =
                    agents.iter().filter(|a| !a.starts_with("burn:")).collect();
                assert_eq!(
                    builtin,
                    suite.agents.iter().collect::<Vec<_>>(),
                    "{}",
                    env.id
                );
            }
        }
        assert!(games >= 15, "{games} games");
        // An env's own agents win over the suite's game agents.
        let own = Suite::from_toml(
            "name='x'\ngame_agents=['oracle','heuristic']\n[[env]]\nid='games/nim-v1'\nagents=['random']",
        )
        .unwrap()
        .expand(&registry);
        assert_eq!(own.agents_of(&own.envs[0]), ["random".to_string()]);
    }

    /// The checkpoints shipped in `datasets/agents/{sub}`, as (`burn:` agent
    /// name, the env it was trained on); `*.warm.json` (the warm start a
    /// checkpoint is compared with) is not one.
    fn shipped_checkpoints(sub: &str) -> Vec<(String, String)> {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../datasets/agents")
            .join(sub);
        let mut shipped = Vec::new();
        for file in std::fs::read_dir(&dir).unwrap() {
            let path = file.unwrap().path();
            let stem = path.file_stem().unwrap().to_string_lossy().to_string();
            if path.extension().and_then(|e| e.to_str()) != Some("json") || stem.contains('.') {
                continue;
            }
            let name = format!("{sub}{stem}");
            let trained = crate::agents::burn::trained_env(&name).unwrap();
            shipped.push((format!("burn:{name}"), trained));
        }
        assert!(!shipped.is_empty(), "no checkpoint in {}", dir.display());
        shipped
    }

    /// Every text checkpoint shipped in datasets/agents/text/ plays on an
    /// entry of the env it was trained on, beside the suite's agents.
    #[test]
    fn every_shipped_text_checkpoint_plays_on_its_env() {
        let registry = verigym_envs::Registry::builtin();
        let suite = Suite::from_toml(DEFAULT_SUITE).unwrap().expand(&registry);
        for (name, trained) in shipped_checkpoints("text/") {
            let entries: Vec<&crate::suite::SuiteEnv> = suite
                .envs
                .iter()
                .filter(|e| suite.agents_of(e).contains(&name))
                .collect();
            assert!(!entries.is_empty(), "{name} plays nowhere");
            for entry in entries {
                assert_eq!(entry.id.split('@').next(), Some(trained.as_str()), "{name}");
                for rung in &suite.agents {
                    assert!(suite.agents_of(entry).contains(rung), "{name}: {rung}");
                }
            }
        }
    }

    /// Every checkpoint shipped in datasets/agents/ plays in the ladder of
    /// the env it was trained on (and nowhere else), so the leaderboard
    /// shows the project's own agent beside the built-in ones.
    #[test]
    fn every_shipped_checkpoint_plays_on_its_envs_ladder() {
        let registry = verigym_envs::Registry::builtin();
        let suite = Suite::from_toml(DEFAULT_SUITE).unwrap().expand(&registry);
        let shipped = shipped_checkpoints("");
        for (name, trained) in &shipped {
            let playing: Vec<&str> = suite
                .envs
                .iter()
                .filter(|e| suite.agents_of(e).contains(name))
                .map(|e| e.id.as_str())
                .collect();
            assert_eq!(playing, [trained.as_str()], "{name}");
            let entry = suite.envs.iter().find(|e| e.id == *trained).unwrap();
            for rung in ["random", "heuristic", "oracle"] {
                assert!(
                    suite.agents_of(entry).iter().any(|a| a == rung),
                    "{trained}"
                );
            }
        }
        assert!(shipped.len() >= 3, "{} game checkpoints", shipped.len());
    }

    #[test]
    fn lineups_cover_both_seatings() {
        let agents: Vec<String> = ["a", "b", "c"].map(String::from).to_vec();
        assert_eq!(lineups(&agents, 1).unwrap().len(), 3);
        let pairs = lineups(&agents, 2).unwrap();
        assert_eq!(pairs.len(), 6);
        assert!(pairs.contains(&vec!["b".to_string(), "a".to_string()]));
        assert_eq!(
            lineups(&agents[..1], 2).unwrap(),
            vec![vec!["a".to_string(), "a".to_string()]]
        );
        // Fewer agents than seats: each rotation round the table.
        let table = lineups(&agents, 4).unwrap();
        let seats = |names: [&str; 4]| names.map(String::from).to_vec();
        assert_eq!(
            table,
            vec![
                seats(["a", "b", "c", "a"]),
                seats(["b", "c", "a", "b"]),
                seats(["c", "a", "b", "c"])
            ]
        );
        assert_eq!(lineups(&agents[..2], 3).unwrap().len(), 2);
        assert!(lineups(&agents, 2).is_ok());
        let five: Vec<String> = ["a", "b", "c", "d", "e"].map(String::from).to_vec();
        assert!(lineups(&five, 4).is_err());
        let twice = ["r", "r"].map(String::from);
        assert_eq!(lineups(&twice, 2).unwrap(), vec![twice.to_vec()]);
    }
}
