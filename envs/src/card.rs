//! Task cards: one generated task as JSON, enough to replay its episode.

use std::sync::Arc;

use serde::{Deserialize, Serialize};
use serde_json::Value;
use sha2::{Digest, Sha256};

pub use crate::task_json::TaskJson;

/// One task, fully specified. Replaying a card (make the env from `env_id`
/// and `config`, then reset with the card) reproduces the episode exactly.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TaskCard {
    /// Stable and unique: env id, config hash prefix and seed.
    pub id: String,
    pub env_id: String,
    pub env_version: u32,
    /// The complete config (defaults filled in), not just the overrides;
    /// shared by every card of one env instance, not copied per card.
    #[serde(with = "shared_value")]
    pub config: Arc<Value>,
    /// SHA-256 of the canonical JSON of `config`, hex.
    pub config_hash: String,
    pub seed: u64,
    /// The text an LLM sees first (the first observation of the first mover).
    pub prompt: String,
    /// The structured task (canonical JSON text when generated; a `Value`
    /// on the first look).
    pub task: TaskJson,
    /// A reference answer or solution, where one exists.
    pub reference: Option<Value>,
}

impl TaskCard {
    /// The card id for a task of `env_id` under a config hash and seed.
    pub fn make_id(env_id: &str, config_hash: &str, seed: u64) -> String {
        // `env:hash10:seed as 16 hex digits`, written without the formatting
        // machinery: every generated card makes one.
        let hash = &config_hash[..config_hash.len().min(10)];
        let mut id = String::with_capacity(env_id.len() + hash.len() + 18);
        id.push_str(env_id);
        id.push(':');
        id.push_str(hash);
        id.push(':');
        for shift in (0..16).rev() {
            let nibble = (seed >> (4 * shift)) & 0xf;
            id.push(char::from_digit(nibble as u32, 16).expect("a nibble is a hex digit"));
        }
        id
    }

    /// One JSON line (no trailing newline).
    pub fn to_json_line(&self) -> String {
        serde_json::to_string(self).expect("task cards always serialise")
    }
}

/// SHA-256 hex of the canonical JSON of a value.
pub fn config_hash(config: &Value) -> String {
    sha256_hex(canonical_json(config).as_bytes())
}

/// SHA-256 of bytes as lowercase hex.
pub fn sha256_hex(bytes: &[u8]) -> String {
    Sha256::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// JSON with object keys sorted at every level and no whitespace, so that a
/// hash never depends on map ordering features of serde_json.
pub fn canonical_json(value: &Value) -> String {
    crate::canonical::to_string(value).expect("a JSON value always serialises")
}

/// Merges `patch` into `base` (RFC 7396 style without deletion: objects
/// merge key by key, anything else replaces).
pub fn merge_json(base: &mut Value, patch: &Value) {
    match (base, patch) {
        (Value::Object(base), Value::Object(patch)) => {
            for (key, value) in patch {
                merge_json(base.entry(key.clone()).or_insert(Value::Null), value);
            }
        }
        (base, patch) => *base = patch.clone(),
    }
}

/// An `Arc<Value>` read and written as the plain value (serde's `rc`
/// feature would do the same for every crate in the build).
mod shared_value {
    use std::sync::Arc;

    use serde::{Deserialize, Deserializer, Serialize, Serializer};
    use serde_json::Value;

    pub fn serialize<S: Serializer>(value: &Arc<Value>, serializer: S) -> Result<S::Ok, S::Error> {
        value.as_ref().serialize(serializer)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Arc<Value>, D::Error> {
        Value::deserialize(deserializer).map(Arc::new)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn canonical_json_sorts_keys_at_every_level() {
        let a = json!({"b": 1, "a": {"d": [1, {"z": 0, "y": 1}], "c": "x"}});
        assert_eq!(
            canonical_json(&a),
            r#"{"a":{"c":"x","d":[1,{"y":1,"z":0}]},"b":1}"#
        );
        assert_eq!(
            config_hash(&a),
            config_hash(&json!({"a": {"c": "x", "d": [1, {"y": 1, "z": 0}]}, "b": 1}))
        );
        assert_ne!(config_hash(&a), config_hash(&json!({"b": 2})));
    }

    #[test]
    fn merge_patches_nested_objects_and_replaces_scalars() {
        let mut base = json!({"digits": 2, "ops": {"mul": true, "div": false}});
        merge_json(&mut base, &json!({"ops": {"div": true}, "terms": 4}));
        assert_eq!(
            base,
            json!({"digits": 2, "ops": {"mul": true, "div": true}, "terms": 4})
        );
    }

    #[test]
    fn card_ids_hold_the_env_a_hash_prefix_and_the_seed_in_hex() {
        assert_eq!(
            TaskCard::make_id("logic/sat-v2", "0123456789abcdef", 0xbeef),
            "logic/sat-v2:0123456789:000000000000beef"
        );
        for seed in [0, 1, 0xfedc_ba98_7654_3210, u64::MAX] {
            assert_eq!(
                TaskCard::make_id("x", "ab", seed),
                format!("x:ab:{seed:016x}")
            );
        }
    }

    #[test]
    fn sha256_matches_a_known_vector() {
        assert_eq!(
            sha256_hex(b"abc"),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
    }
}
