//! [`TaskJson`]: a card's task as JSON. A generated card holds the task as
//! canonical text (keys sorted at every level, [`crate::canonical`]),
//! written once without building a `serde_json::Value` tree; the tree is
//! made on the first look through `Deref` and kept. An env reading its own
//! task back (`reset`, `grader`) parses the text straight into its type.
//!
//! A card reads and writes as before: the same JSON, byte for byte. Its
//! value is what its text reads back as, in memory as for a card read from
//! a file (serde_json, without `float_roundtrip`, may read a computed `f64`
//! one ulp off; no task computes one, and a value read once stays put).

use std::fmt;
use std::ops::{Deref, DerefMut};
use std::sync::OnceLock;

use serde::de::DeserializeOwned;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::Value;
use serde_json::value::RawValue;

pub struct TaskJson {
    /// Canonical JSON text, when the card was generated and not edited
    /// since.
    text: Option<Box<str>>,
    /// The task as a `Value`: made from `text` on the first look, or given.
    value: OnceLock<Value>,
}

impl TaskJson {
    /// The task's canonical JSON.
    ///
    /// # Errors
    /// Where `serde_json::to_value(task)` fails (see [`crate::canonical::to_string`]).
    pub fn of<T: Serialize + ?Sized>(task: &T) -> Result<TaskJson, serde_json::Error> {
        Ok(TaskJson {
            text: Some(crate::canonical::to_string(task)?.into_boxed_str()),
            value: OnceLock::new(),
        })
    }

    /// The task read into `T`: from the text where the card has it (no
    /// `Value` tree), else from the value.
    ///
    /// # Errors
    /// When the JSON is not a `T`.
    pub fn read<T: DeserializeOwned>(&self) -> Result<T, serde_json::Error> {
        match (&self.text, self.value.get()) {
            (_, Some(value)) => T::deserialize(value),
            (Some(text), None) => serde_json::from_str(text),
            (None, None) => unreachable!("a task holds its text or its value"),
        }
    }

    /// The canonical JSON text (written from the value where the text was
    /// dropped by an edit).
    pub fn canonical_text(&self) -> std::borrow::Cow<'_, str> {
        match &self.text {
            Some(text) => text.as_ref().into(),
            None => crate::card::canonical_json(self).into(),
        }
    }

    /// The task as an owned `Value`.
    pub fn into_value(mut self) -> Value {
        match self.value.take() {
            Some(value) => value,
            None => Self::parse(self.text.as_deref()),
        }
    }

    fn parse(text: Option<&str>) -> Value {
        let text = text.expect("a task holds its text or its value");
        serde_json::from_str(text).expect("a task's text is the JSON it was written as")
    }
}

impl Deref for TaskJson {
    type Target = Value;
    fn deref(&self) -> &Value {
        self.value.get_or_init(|| Self::parse(self.text.as_deref()))
    }
}

/// An edit goes to the value; the text, now stale, is dropped.
impl DerefMut for TaskJson {
    fn deref_mut(&mut self) -> &mut Value {
        if self.value.get().is_none() {
            let value = Self::parse(self.text.as_deref());
            let _ = self.value.set(value);
        }
        self.text = None;
        self.value.get_mut().expect("set above")
    }
}

impl From<Value> for TaskJson {
    fn from(value: Value) -> TaskJson {
        TaskJson {
            text: None,
            value: OnceLock::from(value),
        }
    }
}

impl Clone for TaskJson {
    fn clone(&self) -> TaskJson {
        TaskJson {
            text: self.text.clone(),
            value: self.value.clone(),
        }
    }
}

impl PartialEq for TaskJson {
    fn eq(&self, other: &TaskJson) -> bool {
        **self == **other
    }
}

impl PartialEq<Value> for TaskJson {
    fn eq(&self, other: &Value) -> bool {
        **self == *other
    }
}

impl fmt::Debug for TaskJson {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&**self, f)
    }
}

impl Serialize for TaskJson {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match &self.text {
            // Written as it is (checked as JSON on the way, which costs a
            // scan rather than a tree).
            Some(text) => {
                let raw: &RawValue =
                    serde_json::from_str(text).map_err(serde::ser::Error::custom)?;
                raw.serialize(serializer)
            }
            None => (**self).serialize(serializer),
        }
    }
}

impl<'de> Deserialize<'de> for TaskJson {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<TaskJson, D::Error> {
        Value::deserialize(deserializer).map(TaskJson::from)
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[derive(Serialize, Deserialize, Debug, PartialEq)]
    struct Task {
        zeta: Vec<(u8, u8)>,
        alpha: String,
    }

    fn task() -> Task {
        Task {
            zeta: vec![(1, 2)],
            alpha: "a".into(),
        }
    }

    #[test]
    fn a_generated_task_writes_reads_and_compares_as_its_value() {
        let from_text = TaskJson::of(&task()).unwrap();
        let from_value = TaskJson::from(serde_json::to_value(task()).unwrap());
        let expected = r#"{"alpha":"a","zeta":[[1,2]]}"#;
        assert_eq!(from_text.canonical_text(), expected);
        assert_eq!(from_value.canonical_text(), expected);
        assert_eq!(serde_json::to_string(&from_text).unwrap(), expected);
        assert_eq!(serde_json::to_string(&from_value).unwrap(), expected);
        assert_eq!(serde_json::to_value(&from_text).unwrap(), *from_value);
        assert_eq!(from_text, from_value);
        assert_eq!(from_text["zeta"][0][1], 2);
        assert_eq!(from_text.read::<Task>().unwrap(), task());
        assert_eq!(from_value.read::<Task>().unwrap(), task());
        assert!(from_text.read::<Vec<u8>>().is_err());
        assert_eq!(
            from_text.clone().into_value(),
            from_value.clone().into_value()
        );
        let read_back: TaskJson = serde_json::from_str(expected).unwrap();
        assert_eq!(read_back, from_text);
    }

    #[test]
    fn an_edit_replaces_the_text() {
        let mut edited = TaskJson::of(&task()).unwrap();
        edited["alpha"] = json!("b");
        assert_eq!(edited.canonical_text(), r#"{"alpha":"b","zeta":[[1,2]]}"#);
        assert_eq!(
            serde_json::to_string(&edited).unwrap(),
            r#"{"alpha":"b","zeta":[[1,2]]}"#
        );
        assert_eq!(edited.read::<Task>().unwrap().alpha, "b");
    }
}
