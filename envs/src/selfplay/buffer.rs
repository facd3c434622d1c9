//! A buffer of validated proposals for a self-play run: deduplicated by a hash of the
//! normalised source (comments, blank lines and whitespace runs removed), bounded (the
//! oldest proposal leaves first), sampled as reference examples for the next proposer
//! prompts, and exported as a fixed dataset (JSON lines).
//!
//! Feeding it back into generation goes through the env config: put
//! [`TaskBuffer::items`] (or a sample) into `reference_pool`, and the generator draws the
//! proposer's reference examples from it instead of the seeded pool. Cards stay
//! deterministic: the pool is part of the config, so of the config hash.
//!
//! ```
//! use verigym_envs::selfplay::buffer::{TaskBuffer, Proposal, normalize_python};
//! # #[derive(Clone, serde::Serialize, serde::Deserialize)]
//! # struct P(String);
//! # impl Proposal for P { fn normalized(&self) -> String { normalize_python(&self.0) } }
//! let mut buffer = TaskBuffer::new(100);
//! assert!(buffer.insert(P("def f(x):\n    return x + 1\n".into())));
//! // The same program with a comment and other spacing is a duplicate.
//! assert!(!buffer.insert(P("def f(x):  # add one\n  return x+1\n".into())));
//! assert_eq!(buffer.len(), 1);
//! ```

use std::collections::{BTreeSet, VecDeque};

use serde::Serialize;
use serde::de::DeserializeOwned;
use sha2::{Digest, Sha256};

use crate::rng::Rng;

/// Something a buffer can hold: it says what text identifies it.
pub trait Proposal: Clone + Serialize + DeserializeOwned {
    /// The normalised text two duplicates share.
    fn normalized(&self) -> String;

    /// The dedup key: a hash of [`Proposal::normalized`].
    fn key(&self) -> String {
        content_hash(&self.normalized())
    }
}

/// A bounded, deduplicated, insertion-ordered buffer of proposals.
#[derive(Clone, Debug)]
pub struct TaskBuffer<P> {
    capacity: usize,
    items: VecDeque<(String, P)>,
    keys: BTreeSet<String>,
    rejected_duplicates: usize,
}

impl<P: Proposal> TaskBuffer<P> {
    /// An empty buffer keeping at most `capacity` proposals (at least 1).
    pub fn new(capacity: usize) -> Self {
        TaskBuffer {
            capacity: capacity.max(1),
            items: VecDeque::new(),
            keys: BTreeSet::new(),
            rejected_duplicates: 0,
        }
    }

    /// Adds a validated proposal; false (and nothing changes) when an equivalent one is
    /// already held. Past capacity the oldest proposal is dropped.
    pub fn insert(&mut self, proposal: P) -> bool {
        let key = proposal.key();
        if self.keys.contains(&key) {
            self.rejected_duplicates += 1;
            return false;
        }
        if self.items.len() == self.capacity
            && let Some((old, _)) = self.items.pop_front()
        {
            self.keys.remove(&old);
        }
        self.keys.insert(key.clone());
        self.items.push_back((key, proposal));
        true
    }

    pub fn contains(&self, proposal: &P) -> bool {
        self.keys.contains(&proposal.key())
    }

    pub fn len(&self) -> usize {
        self.items.len()
    }

    pub fn is_empty(&self) -> bool {
        self.items.is_empty()
    }

    /// How many insertions were refused as duplicates.
    pub fn duplicates_refused(&self) -> usize {
        self.rejected_duplicates
    }

    /// The proposals, oldest first: a config's `reference_pool`, or a dataset.
    pub fn items(&self) -> Vec<P> {
        self.items.iter().map(|(_, p)| p.clone()).collect()
    }

    /// Up to `k` distinct proposals drawn uniformly with `rng` (reference examples).
    pub fn sample(&self, k: usize, rng: &mut Rng) -> Vec<P> {
        let mut indices: Vec<usize> = (0..self.items.len()).collect();
        rng.shuffle(&mut indices);
        indices
            .into_iter()
            .take(k)
            .map(|i| self.items[i].1.clone())
            .collect()
    }

    /// The buffer as a dataset: one JSON object per line, oldest first.
    pub fn to_jsonl(&self) -> String {
        self.items
            .iter()
            .map(|(_, p)| serde_json::to_string(p).expect("proposals serialise") + "\n")
            .collect()
    }

    /// A buffer from [`TaskBuffer::to_jsonl`] output (duplicates dropped).
    ///
    /// # Errors
    /// [`BadLine`]: the first line that is not a proposal, with its number.
    pub fn from_jsonl(text: &str, capacity: usize) -> Result<Self, BadLine> {
        let mut buffer = TaskBuffer::new(capacity);
        for (i, line) in text
            .lines()
            .enumerate()
            .filter(|(_, l)| !l.trim().is_empty())
        {
            let proposal: P = serde_json::from_str(line).map_err(|source| BadLine {
                line: i + 1,
                source,
            })?;
            buffer.insert(proposal);
        }
        Ok(buffer)
    }
}

/// A line (1-based) of a saved buffer that is not a proposal.
#[derive(Debug, thiserror::Error)]
#[error("line {line}: {source}")]
pub struct BadLine {
    pub line: usize,
    #[source]
    pub source: serde_json::Error,
}

/// The first 16 hex digits of the SHA-256 of `text`.
pub fn content_hash(text: &str) -> String {
    let digest = Sha256::digest(text.as_bytes());
    digest.iter().take(8).map(|b| format!("{b:02x}")).collect()
}

/// Python source with comments, blank lines and whitespace runs removed (string
/// literals are kept as written, `#` inside them included), so reformatting or
/// commenting a program does not make it new.
pub fn normalize_python(src: &str) -> String {
    let mut out = String::with_capacity(src.len());
    for line in src.lines() {
        let code = strip_comment(line);
        let words: Vec<&str> = code.split_whitespace().collect();
        if words.is_empty() {
            continue;
        }
        // Spacing around operators is not significant either: `x+1` is `x + 1`.
        let joined = words.join(" ");
        let squeezed: String = squeeze_operators(&joined);
        out.push_str(&squeezed);
        out.push('\n');
    }
    out
}

/// Free text lower-cased with whitespace runs collapsed (math problems).
pub fn normalize_text(text: &str) -> String {
    text.split_whitespace()
        .map(str::to_lowercase)
        .collect::<Vec<_>>()
        .join(" ")
}

/// The line up to a `#` that is not inside a string literal.
fn strip_comment(line: &str) -> &str {
    let mut quote: Option<char> = None;
    let mut escaped = false;
    for (i, c) in line.char_indices() {
        match quote {
            Some(q) => {
                if escaped {
                    escaped = false;
                } else if c == '\\' {
                    escaped = true;
                } else if c == q {
                    quote = None;
                }
            }
            None if c == '#' => return &line[..i],
            None if c == '\'' || c == '"' => quote = Some(c),
            None => {}
        }
    }
    line
}

/// Drops spaces next to operator and bracket characters outside string literals.
fn squeeze_operators(line: &str) -> String {
    const TIGHT: &str = "+-*/%=<>!&|^~,:()[]{}";
    let chars: Vec<char> = line.chars().collect();
    let mut out = String::with_capacity(line.len());
    let mut quote: Option<char> = None;
    for (i, &c) in chars.iter().enumerate() {
        if let Some(q) = quote {
            out.push(c);
            if c == q && chars.get(i.wrapping_sub(1)) != Some(&'\\') {
                quote = None;
            }
            continue;
        }
        if c == '\'' || c == '"' {
            quote = Some(c);
        }
        if c == ' ' {
            let prev = out.chars().last();
            let next = chars.get(i + 1);
            if prev.is_some_and(|p| TIGHT.contains(p)) || next.is_some_and(|n| TIGHT.contains(*n)) {
                continue;
            }
        }
        out.push(c);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde::Deserialize;

    #[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
    struct Src(String);

    impl Proposal for Src {
        fn normalized(&self) -> String {
            normalize_python(&self.0)
        }
    }

    #[test]
    fn reformatted_and_commented_programs_are_duplicates() {
        let a = "def f(xs):\n    return sorted(xs)[0] + 1\n";
        let b = "# smallest plus one\ndef f( xs ):  # entry\n\n  return sorted(xs)[0]+1   \n";
        assert_eq!(normalize_python(a), normalize_python(b));
        // `#` inside a string is code, and different strings differ.
        let c = "def f(xs):\n    return '#' + str(xs)\n";
        let d = "def f(xs):\n    return '' + str(xs)\n";
        assert_ne!(normalize_python(c), normalize_python(d));
        assert!(normalize_python(c).contains("'#'"));
        // Changing a constant makes a new program.
        assert_ne!(
            normalize_python(a),
            normalize_python(&a.replace("+ 1", "+ 2"))
        );
    }

    #[test]
    fn buffer_dedups_bounds_samples_and_round_trips() {
        let mut buffer = TaskBuffer::new(3);
        assert!(buffer.insert(Src("def f(x):\n    return x\n".into())));
        assert!(!buffer.insert(Src("def f(x):   # same\n  return x\n".into())));
        assert_eq!(buffer.duplicates_refused(), 1);
        for k in 1..=3 {
            assert!(buffer.insert(Src(format!("def f(x):\n    return x + {k}\n"))));
        }
        assert_eq!(buffer.len(), 3, "capacity");
        assert!(
            !buffer.contains(&Src("def f(x):\n    return x\n".into())),
            "oldest left"
        );
        let mut rng = Rng::from_seed(1);
        let sample = buffer.sample(2, &mut rng);
        assert_eq!(sample.len(), 2);
        assert_ne!(sample[0], sample[1]);
        assert_eq!(sample, buffer.sample(2, &mut Rng::from_seed(1)), "seeded");
        let back = TaskBuffer::<Src>::from_jsonl(&buffer.to_jsonl(), 3).unwrap();
        assert_eq!(back.items(), buffer.items());
        assert!(TaskBuffer::<Src>::from_jsonl("{not json", 3).is_err());
    }
}
