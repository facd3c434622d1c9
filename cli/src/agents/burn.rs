//! Trained reference agents, `burn:PATH`: where the checkpoint file is
//! found, which env it was trained on, and one parse per file and process.
//!
//! A suite plays thousands of episodes and makes its agents afresh for each
//! one; the Connect Four checkpoint is 430 KB of JSON, so game checkpoints
//! are parsed once and kept, and each episode only builds its network from
//! the kept weights.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, OnceLock};

use verigym_agent::game::agent::NetAgent;
use verigym_agent::game::checkpoint::GameCheckpoint;
use verigym_envs::Agent;

/// The checkout this binary was built from: relative checkpoint paths that
/// do not exist from the current directory are read from here, so the
/// default suite's `burn:tictactoe` works from any directory.
const CHECKOUT: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/..");

/// A parsed checkpoint: the env it was trained on and, for a game, its
/// weights (text checkpoints are rare in suites and are loaded per agent).
struct Loaded {
    env_id: String,
    game: Option<GameCheckpoint>,
}

type Cache = Mutex<HashMap<PathBuf, Arc<Loaded>>>;

fn cache() -> &'static Cache {
    static CACHE: OnceLock<Cache> = OnceLock::new();
    CACHE.get_or_init(Cache::default)
}

/// Where the shipped checkpoints are, in the checkout.
const SHIPPED: &str = "datasets/agents";

/// The checkpoint file `path` names: the path from the current directory if
/// it is there, else from the checkout; a bare name (`tictactoe`) is the
/// shipped `datasets/agents/tictactoe.json`.
pub fn resolve(path: &str) -> PathBuf {
    let given = PathBuf::from(path);
    if given.is_absolute() || given.exists() {
        return given;
    }
    let checkout = Path::new(CHECKOUT);
    [
        checkout.join(&given),
        checkout.join(SHIPPED).join(format!("{path}.json")),
    ]
    .into_iter()
    .find(|candidate| candidate.is_file())
    .unwrap_or(given)
}

fn load(path: &str) -> Result<Arc<Loaded>, String> {
    let file = resolve(path);
    // Held while parsing: the parallel first episodes wait for one parse
    // instead of each doing their own.
    let mut cache = cache()
        .lock()
        .map_err(|_| "the checkpoint cache is poisoned".to_string())?;
    if let Some(loaded) = cache.get(&file) {
        return Ok(Arc::clone(loaded));
    }
    let cannot = |e: &dyn std::fmt::Display| format!("cannot load the burn agent `{path}`: {e}");
    let loaded = match GameCheckpoint::load(&file) {
        Ok(game) => Loaded {
            env_id: game.env_id.clone(),
            game: Some(game),
        },
        Err(game_error) => {
            // Not a game checkpoint: a text one loads through the agent
            // crate (which also gives the error for a file that is neither).
            verigym_agent::load_agent(&file).map_err(|e| cannot(&e))?;
            let text = std::fs::read_to_string(&file).map_err(|e| cannot(&e))?;
            let json: serde_json::Value =
                serde_json::from_str(&text).map_err(|_| cannot(&game_error))?;
            Loaded {
                env_id: json["env_id"].as_str().unwrap_or_default().to_string(),
                game: None,
            }
        }
    };
    let loaded = Arc::new(loaded);
    cache.insert(file, Arc::clone(&loaded));
    Ok(loaded)
}

/// The agent of the checkpoint at `path` (named `burn:<file name>`).
///
/// # Errors
/// A missing file or one that is not a checkpoint.
pub fn make(path: &str) -> Result<Box<dyn Agent>, String> {
    let loaded = load(path)?;
    let file = resolve(path);
    match &loaded.game {
        Some(game) => {
            let name = file
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default();
            Ok(Box::new(NetAgent::new(
                format!("burn:{name}"),
                game.codec,
                game.play,
                &game.weights,
            )))
        }
        None => verigym_agent::load_agent(&file)
            .map_err(|e| format!("cannot load the burn agent `{path}`: {e}")),
    }
}

/// The env id (without preset) the checkpoint at `path` was trained on.
///
/// # Errors
/// As [`make`].
pub fn trained_env(path: &str) -> Result<String, String> {
    let loaded = load(path)?;
    Ok(base_id(&loaded.env_id).to_string())
}

/// `family/name-vN` of `family/name-vN@preset`.
pub fn base_id(id: &str) -> &str {
    id.split('@').next().unwrap_or(id)
}

#[cfg(test)]
mod tests {
    use super::*;

    const TICTACTOE: &str = "datasets/agents/tictactoe.json";

    #[test]
    fn shipped_checkpoints_resolve_from_the_checkout_and_name_their_env() {
        // Unit tests run in cli/, where the relative path does not exist.
        assert!(!Path::new(TICTACTOE).exists());
        assert!(resolve(TICTACTOE).is_file());
        assert_eq!(resolve("tictactoe"), resolve(TICTACTOE), "the bare name");
        assert_eq!(trained_env(TICTACTOE).unwrap(), "games/tictactoe-v1");
        assert_eq!(trained_env("kuhn-poker").unwrap(), "games/kuhn-poker-v1");
        assert_eq!(
            trained_env("connect-four").unwrap(),
            "games/connect-four-v1"
        );
        assert_eq!(make("tictactoe").unwrap().name(), "burn:tictactoe.json");
        for missing in ["no-such", "datasets/agents/no-such.json", "/no/such.json"] {
            let error = make(missing).err().unwrap();
            assert!(error.contains("cannot load the burn agent"), "{error}");
        }
        // A file that is neither a game nor a text checkpoint.
        let other = make("cli/suites/default.toml").err().unwrap();
        assert!(other.contains("cannot load the burn agent"), "{other}");
    }
}
