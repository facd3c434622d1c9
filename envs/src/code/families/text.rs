//! String families: letter rotation, record parsing, word counting.

use std::collections::BTreeMap;

use serde_json::{Value, json};

use super::family::{Family, Spec, size, str_arg};
use crate::rng::Rng;

/// Shift ASCII letters by `s` (keeping case), optionally reverse the result.
pub const ROTATE_LETTERS: Family = Family {
    name: "rotate_letters",
    topic: "string",
    draw: rotate_letters,
    has_c: false,
};

fn random_text(rng: &mut Rng, max_len: usize, alphabet: &[u8]) -> String {
    let n = rng.range_usize(0, max_len);
    (0..n)
        .map(|_| char::from(alphabet[rng.below(alphabet.len() as u64) as usize]))
        .collect()
}

fn rotate_letters(level: u8, rng: &mut Rng) -> Spec {
    let shift = rng.range_i64(1, 25) as u8;
    let digit_shift = rng.range_i64(0, 9) as u8;
    let reverse = rng.chance(0.5);
    let n = size(level, [10, 30, 120]);
    let digits = if digit_shift == 0 {
        "leave digits and every other character unchanged".to_string()
    } else {
        format!(
            "replace every digit by the digit {digit_shift} places later, wrapping around from 9 to 0; leave every other character unchanged"
        )
    };
    let then = if reverse {
        " Then return the resulting string reversed."
    } else {
        " Return the resulting string."
    };
    let ret = if reverse {
        "''.join(out)[::-1]"
    } else {
        "''.join(out)"
    };
    Spec {
        entry: "rotate",
        signature: "rotate(s: str) -> str".into(),
        description: format!(
            "Replace every ASCII letter of `s` by the letter {shift} places later in the \
             alphabet, wrapping around from z to a and keeping its case; {digits}.{then}"
        ),
        reference: format!(
            "def rotate(s):\n    out = []\n    for c in s:\n        \
             if 'a' <= c <= 'z':\n            out.append(chr((ord(c) - 97 + {shift}) % 26 + 97))\n        \
             elif 'A' <= c <= 'Z':\n            out.append(chr((ord(c) - 65 + {shift}) % 26 + 65))\n        \
             elif '0' <= c <= '9':\n            out.append(chr((ord(c) - 48 + {digit_shift}) % 10 + 48))\n        \
             else:\n            out.append(c)\n    return {ret}\n"
        ),
        c: None,
        args: Box::new(move |rng| {
            json!([random_text(
                rng,
                n,
                b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ  .,!?0123456789-"
            )])
        }),
        // Every letter and digit, the ends of each range, and the characters just outside
        // them (`@[`{/:`).
        edges: vec![
            json!([""]),
            json!(["abcdefghijklmnopqrstuvwxyz ABCDEFGHIJKLMNOPQRSTUVWXYZ 0123456789"]),
            json!(["azAZ09"]),
            json!(["`{@[/: .,!?-"]),
            json!(["Zz9 a"]),
        ],
        solve: Box::new(move |args| {
            let rotated: String = str_arg(args, 0)
                .chars()
                .map(|c| match c {
                    'a'..='z' => char::from((c as u8 - b'a' + shift) % 26 + b'a'),
                    'A'..='Z' => char::from((c as u8 - b'A' + shift) % 26 + b'A'),
                    '0'..='9' => char::from((c as u8 - b'0' + digit_shift) % 10 + b'0'),
                    c => c,
                })
                .collect();
            let out: String = if reverse {
                rotated.chars().rev().collect()
            } else {
                rotated
            };
            json!(out)
        }),
    }
}

/// Parse `key<kv>value<sep>…` records and aggregate the values per key.
pub const PARSE_RECORDS: Family = Family {
    name: "parse_records",
    topic: "parsing",
    draw: parse_records,
    has_c: false,
};

const KEYS: &[&str] = &[
    "alpha", "beta", "gamma", "delta", "eps", "zeta", "eta", "theta",
];

fn parse_records(level: u8, rng: &mut Rng) -> Spec {
    let sep = *rng.choose(&[";", ",", "|", "&", " "]).unwrap_or(&";");
    let kv = *rng.choose(&["=", ":", "->", "~"]).unwrap_or(&"=");
    let agg = rng.below(4);
    let n = size(level, [4, 10, 40]);
    let (rule, update) = match agg {
        0 => ("the sum of its values", "out[k] = out.get(k, 0) + v"),
        1 => (
            "the largest of its values",
            "out[k] = max(out[k], v) if k in out else v",
        ),
        2 => (
            "the number of records with that key",
            "out[k] = out.get(k, 0) + 1",
        ),
        _ => ("the value of its last record", "out[k] = v"),
    };
    Spec {
        entry: "parse_records",
        signature: "parse_records(s: str) -> dict[str, int]".into(),
        description: format!(
            "`s` holds zero or more records separated by {sep:?}; each record is a key, then \
             {kv:?}, then an integer (possibly negative), with no spaces around them. An empty \
             `s` has no records. Return a dict mapping each key to {rule}."
        ),
        reference: format!(
            "def parse_records(s):\n    out = {{}}\n    if not s:\n        return out\n    \
             for item in s.split({sep:?}):\n        k, v = item.split({kv:?})\n        \
             v = int(v)\n        {update}\n    return out\n"
        ),
        c: None,
        args: Box::new(move |rng| {
            let count = rng.range_usize(0, n);
            let keys = rng.range_usize(2, KEYS.len());
            let records: Vec<String> = (0..count)
                .map(|_| {
                    let key = KEYS[rng.below(keys as u64) as usize];
                    format!("{key}{kv}{}", rng.range_i64(-30, 30))
                })
                .collect();
            json!([records.join(sep)])
        }),
        // No records, one record, a key rising then falling, only negative values.
        edges: [
            vec![],
            vec![("alpha", -5)],
            vec![
                ("beta", 3),
                ("beta", -7),
                ("alpha", 0),
                ("beta", 10),
                ("beta", 2),
            ],
            vec![("gamma", -4), ("gamma", -9), ("delta", -1)],
        ]
        .into_iter()
        .map(|records: Vec<(&str, i64)>| {
            let text: Vec<String> = records.iter().map(|(k, v)| format!("{k}{kv}{v}")).collect();
            json!([text.join(sep)])
        })
        .collect(),
        solve: Box::new(move |args| {
            let s = str_arg(args, 0);
            let mut out: BTreeMap<String, i64> = BTreeMap::new();
            if !s.is_empty() {
                for item in s.split(sep) {
                    let Some((k, v)) = item.split_once(kv) else {
                        continue;
                    };
                    let v: i64 = v.parse().unwrap_or_default();
                    let slot = out.get(k).copied();
                    let new = match (agg, slot) {
                        (0, old) => old.unwrap_or(0) + v,
                        (1, Some(old)) => old.max(v),
                        (2, old) => old.unwrap_or(0) + 1,
                        _ => v,
                    };
                    out.insert(k.to_string(), new);
                }
            }
            json!(out)
        }),
    }
}

/// Count words of at least `min_len` letters appearing at least `min_count` times.
pub const WORD_COUNTS: Family = Family {
    name: "word_counts",
    topic: "dict",
    draw: word_counts,
    has_c: false,
};

const WORDS: &[&str] = &[
    "a", "an", "the", "cat", "Cat", "dog", "DOG", "sun", "moon", "tree", "Tree", "river", "stone",
    "x", "by", "Sky",
];

fn word_counts(level: u8, rng: &mut Rng) -> Spec {
    let min_len = rng.range_usize(1, 4);
    let fold = rng.chance(0.5);
    let min_count = rng.range_i64(1, 3);
    let stop = *rng
        .choose(&["", "the", "a", "an", "by", "sun", "moon", "tree", "dog"])
        .unwrap_or(&"");
    let stop_text = if stop.is_empty() {
        String::new()
    } else {
        format!(" Leave out the word {stop:?} (compared after any case folding).")
    };
    let n = size(level, [6, 16, 60]);
    let fold_text = if fold {
        "Words are compared case-insensitively and reported in lower case."
    } else {
        "Case matters: `Cat` and `cat` are different words."
    };
    let word_expr = if fold { "w.lower()" } else { "w" };
    Spec {
        entry: "word_counts",
        signature: "word_counts(text: str) -> dict[str, int]".into(),
        description: format!(
            "A word is a maximal run of ASCII letters in `text`. {fold_text} Return a dict \
             mapping each word of at least {min_len} letters that occurs at least {min_count} \
             times to its number of occurrences.{stop_text}"
        ),
        reference: format!(
            "import re\n\ndef word_counts(text):\n    counts = {{}}\n    \
             for w in re.findall(r'[A-Za-z]+', text):\n        w = {word_expr}\n        \
             if len(w) >= {min_len} and w != {stop:?}:\n            counts[w] = counts.get(w, 0) + 1\n    \
             return {{w: c for w, c in counts.items() if c >= {min_count}}}\n"
        ),
        c: None,
        args: Box::new(move |rng| {
            let count = rng.range_usize(0, n);
            let mut text = String::new();
            for i in 0..count {
                if i > 0 {
                    text.push_str(
                        rng.choose(&[" ", " ", ", ", ". ", "-", "  ", "1"])
                            .unwrap_or(&" "),
                    );
                }
                text.push_str(WORDS[rng.below(WORDS.len() as u64) as usize]);
            }
            json!([text])
        }),
        edges: word_edges(min_count),
        solve: Box::new(move |args: &Value| {
            let mut counts: BTreeMap<String, i64> = BTreeMap::new();
            for w in str_arg(args, 0).split(|c: char| !c.is_ascii_alphabetic()) {
                if w.is_empty() {
                    continue;
                }
                let w = if fold {
                    w.to_ascii_lowercase()
                } else {
                    w.to_string()
                };
                if w.len() >= min_len && w != stop {
                    *counts.entry(w).or_default() += 1;
                }
            }
            counts.retain(|_, c| *c >= min_count);
            json!(counts)
        }),
    }
}

/// Texts where every word occurs exactly `min_count` times, and `min_count - 1` times
/// (when that is at least 1), in several cases and separators: every word length and
/// each count threshold is met exactly.
fn word_edges(min_count: i64) -> Vec<Value> {
    let text = |times: i64, sep: &str| {
        let words: Vec<&str> = (0..times).flat_map(|_| WORDS.iter().copied()).collect();
        words.join(sep)
    };
    let mut cases = vec![json!([""]), json!([text(min_count, " ")])];
    if min_count > 1 {
        cases.push(json!([text(min_count - 1, ", ")]));
    }
    cases.push(json!([text(min_count + 1, "1")]));
    cases
}
