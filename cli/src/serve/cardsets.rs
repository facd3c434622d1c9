//! Card sets: the only files a dataset env on the server reads.
//!
//! A dataset env's `config.cards` is a file path in the library and the CLI.
//! On a shared server no client may make it read a host path, so the
//! operator registers card sets at start (`verigym serve --cards
//! NAME=PATH`, repeatable) and requests name them: `"config": {"cards":
//! "NAME"}`. Every `cards` string in a request's config (or in a card's
//! config) must be a registered name, which the server replaces with its
//! path, or a registered path itself (what cards generated here carry);
//! anything else is refused with one message that does not depend on the
//! value, so the answer says nothing about the host's files.

use std::path::PathBuf;

use serde_json::Value;

use super::error::ApiError;

/// The registered card sets, by name.
#[derive(Clone, Debug, Default)]
pub struct CardSets {
    sets: Vec<(String, String)>,
}

impl CardSets {
    /// Registers `NAME=PATH` pairs; each path must be a readable regular
    /// file now (not a directory, device or FIFO).
    ///
    /// # Errors
    /// A pair without `=`, an empty or repeated name, or an unusable file.
    pub fn new(pairs: &[(String, PathBuf)]) -> Result<Self, String> {
        let mut sets: Vec<(String, String)> = Vec::new();
        for (name, path) in pairs {
            if name.is_empty() || sets.iter().any(|(n, _)| n == name) {
                return Err(format!(
                    "--cards: the name `{name}` is empty or given twice"
                ));
            }
            let is_file = std::fs::metadata(path).is_ok_and(|m| m.is_file());
            if !is_file || std::fs::File::open(path).is_err() {
                return Err(format!(
                    "--cards {name}={}: not a readable regular file (write one with `verigym \
                     import`)",
                    path.display()
                ));
            }
            let path = path.to_str().ok_or_else(|| {
                format!("--cards {name}: the path {} is not UTF-8", path.display())
            })?;
            sets.push((name.clone(), path.to_string()));
        }
        Ok(CardSets { sets })
    }

    /// Parses one `--cards NAME=PATH` argument.
    ///
    /// # Errors
    /// No `=` in it.
    pub fn parse_pair(arg: &str) -> Result<(String, PathBuf), String> {
        let (name, path) = arg
            .split_once('=')
            .ok_or_else(|| format!("--cards `{arg}`: write NAME=PATH"))?;
        Ok((name.to_string(), PathBuf::from(path)))
    }

    pub fn names(&self) -> Vec<&str> {
        self.sets.iter().map(|(n, _)| n.as_str()).collect()
    }

    fn refused(&self) -> ApiError {
        let names = self.names();
        let known = if names.is_empty() {
            "this server registered none".to_string()
        } else {
            format!("this server has: {}", names.join(", "))
        };
        ApiError::bad_request(format!(
            "`cards` in a config must name a card set registered when the server started \
             (`verigym serve --cards NAME=PATH`); requests may not name files ({known}); leave \
             `cards` out for the shipped samples"
        ))
    }

    /// Rewrites every `cards` string in `config` (at any depth): a
    /// registered name becomes its path, a registered path stays.
    ///
    /// # Errors
    /// 400 for any other string, with a message that does not depend on it.
    pub fn resolve(&self, config: &mut Value) -> Result<(), ApiError> {
        match config {
            Value::Object(map) => {
                for (key, value) in map.iter_mut() {
                    if key == "cards"
                        && let Value::String(text) = value
                    {
                        *text = self.path_of(text).ok_or_else(|| self.refused())?;
                    } else {
                        self.resolve(value)?;
                    }
                }
                Ok(())
            }
            Value::Array(items) => items.iter_mut().try_for_each(|v| self.resolve(v)),
            _ => Ok(()),
        }
    }

    /// [`CardSets::resolve`] on a request's optional config.
    ///
    /// # Errors
    /// As [`CardSets::resolve`].
    pub fn resolve_opt(&self, config: Option<&mut Value>) -> Result<(), ApiError> {
        config.map_or(Ok(()), |c| self.resolve(c))
    }

    /// [`CardSets::resolve`] on the config of a task card (or of a chat row
    /// holding it under `card`).
    ///
    /// # Errors
    /// As [`CardSets::resolve`].
    pub fn resolve_card(&self, card: &mut Value) -> Result<(), ApiError> {
        let card = match card {
            Value::Object(map) if map.contains_key("card") => map.get_mut("card"),
            Value::String(_) => return Ok(()),
            other => Some(other),
        };
        match card.and_then(|c| c.get_mut("config")) {
            Some(config) => self.resolve(config),
            None => Ok(()),
        }
    }

    fn path_of(&self, text: &str) -> Option<String> {
        self.sets
            .iter()
            .find(|(name, path)| name == text || path == text)
            .map(|(_, path)| path.clone())
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn sets() -> (CardSets, String) {
        let dir = std::env::temp_dir().join(format!("verigym-cardsets-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("pool.jsonl");
        std::fs::write(&path, "").unwrap();
        let sets = CardSets::new(&[("pool".into(), path.clone())]).unwrap();
        (sets, path.to_str().unwrap().to_string())
    }

    #[test]
    fn names_become_paths_and_registered_paths_stay() {
        let (sets, path) = sets();
        let mut config = json!({"cards": "pool", "level": 1});
        sets.resolve(&mut config).unwrap();
        assert_eq!(config, json!({"cards": path, "level": 1}));
        sets.resolve(&mut config).unwrap();
        assert_eq!(config["cards"], json!(path));
        // Numbers named `cards` (goofspiel's hand size) are not paths.
        let mut goofspiel = json!({"cards": 5});
        sets.resolve(&mut goofspiel).unwrap();
        assert_eq!(goofspiel, json!({"cards": 5}));
    }

    #[test]
    fn any_other_value_is_refused_with_the_same_message() {
        let (sets, _) = sets();
        let messages: Vec<String> = ["/etc/passwd", "/no/such/file", "/dev/zero", "other"]
            .iter()
            .map(|p| {
                let mut card = json!({"card": {"config": {"nested": [{"cards": p}]}}});
                sets.resolve_card(&mut card).unwrap_err().message
            })
            .collect();
        assert!(messages.iter().all(|m| *m == messages[0]), "{messages:?}");
        assert!(messages[0].contains("--cards NAME=PATH"));
    }

    #[test]
    fn only_regular_readable_files_register() {
        let fifo_like = PathBuf::from("/dev/zero");
        assert!(CardSets::new(&[("z".into(), fifo_like)]).is_err());
        assert!(CardSets::new(&[("d".into(), std::env::temp_dir())]).is_err());
        assert!(CardSets::parse_pair("no-equals").is_err());
        assert_eq!(
            CardSets::parse_pair("a=/x=y").unwrap(),
            ("a".to_string(), PathBuf::from("/x=y"))
        );
    }
}
