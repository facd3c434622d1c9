//! A restricted pickle reader for data, never a general unpickler: it understands only
//! the opcodes that build plain values (`None`, booleans, ints, floats, str, list, dict)
//! and refuses every opcode that names, imports, calls or builds an object (`GLOBAL`,
//! `STACK_GLOBAL`, `REDUCE`, `BUILD`, `INST`, `OBJ`, `NEWOBJ`, `PERSID`, …), tuples, sets
//! and bytes. So nothing in the data can run code, whatever the file holds.
//!
//! LiveCodeBench ships `private_test_cases` as base64 of zlib of a pickle of a JSON
//! string; [`decode_lcb_private`] undoes that.
//!
//! # Bounded work (hostile rows)
//! A few hundred bytes of pickle can describe a structure of gigabytes (memoise a list,
//! fetch it twice into a new list, repeat) or one nested ten thousand levels deep. The
//! reader is iterative and shares memoised values instead of copying them (a `GET` is
//! O(1)), and it refuses, with the reason and the byte offset, a pickle that goes past:
//!
//! - [`MAX_BYTES`] of decompressed pickle;
//! - [`MAX_DEPTH`] levels of nested lists and dicts (so the values it returns are
//!   safe to drop, compare and serialise recursively);
//! - [`MAX_MEMO`] memo entries;
//! - [`MAX_OBJECTS`] values created, counting every element copied when a shared list
//!   or dict is modified (copy on write);
//! - [`MAX_DECODED`] bytes of the plain value it would return (its size with every
//!   shared value expanded: `size_of::<Value>()` per value, the bytes of its strings
//!   and [`MAP_NODE`] per dict plus a quarter of that per entry, the B-tree nodes that
//!   hold them), computed before anything is expanded.
//!
//! The JSON text inside (and a field that is plain JSON) is scanned by [`check_json`]
//! before it is parsed, so that a small text cannot become a huge value either: at most
//! [`MAX_DEPTH`] levels, [`MAX_OBJECTS`] values and keys, and [`MAX_DECODED`] bytes of
//! value by the same measure (a list's items counted twice for its spare capacity).
//!
//! Memory bound: the decompressed input (≤ [`MAX_BYTES`]), the working values (at most
//! [`MAX_OBJECTS`] nodes of a few tens of bytes, whose strings are copied from the input
//! once) and the returned value (≤ [`MAX_DECODED`]), then, the pickle dropped, a JSON
//! text (≤ [`MAX_BYTES`]) and its value (≤ [`MAX_DECODED`]): under 1.2 GiB whatever the
//! input, and the memo-doubling pickle is refused in microseconds.

use std::collections::HashMap;
use std::io::Read;
use std::rc::Rc;

use base64::Engine;
use serde_json::{Map, Number, Value};

/// Largest decompressed pickle accepted.
pub const MAX_BYTES: u64 = 256 << 20;
/// Most entries in the memo.
pub const MAX_MEMO: usize = 1 << 20;
/// Deepest nesting of lists and dicts (LiveCodeBench's pickles are a string: depth 0).
pub const MAX_DEPTH: usize = 64;
/// Most values created while reading, copies made by copy-on-write included.
pub const MAX_OBJECTS: u64 = 1 << 22;
/// Largest decoded value, in bytes (see the module docs for how it is measured).
pub const MAX_DECODED: u64 = 512 << 20;
/// Bytes counted for one node of the B-tree behind a JSON object: eleven keys and
/// values, eleven child pointers and a header (728 on 64-bit targets). Non-root nodes
/// hold at least five entries, so a map of `n` entries takes at most `1 + n / 4` nodes.
pub const MAP_NODE: u64 = (11 * (size_of::<String>() + size_of::<Value>()) + 12 * 8 + 16) as u64;

/// Why a pickle was not read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PickleError {
    #[error("pickle truncated at byte {0}")]
    Truncated(usize),
    #[error(
        "pickle opcode 0x{op:02x} at byte {at} is not a plain str/list/dict/int/float/None value: refused"
    )]
    Refused { op: u8, at: usize },
    #[error("pickle malformed at byte {at}: {why}")]
    Malformed { at: usize, why: String },
    #[error(
        "pickle refused at byte {at}: {what} exceeds the cap of {cap} (a hostile or broken row; fix or drop it)"
    )]
    Cap {
        at: usize,
        what: &'static str,
        cap: u64,
    },
    #[error(
        "pickle decodes to more than {MAX_DECODED} bytes (a hostile or broken row; fix or drop it)"
    )]
    TooLarge,
    #[error(
        "JSON text refused at byte {at}: {what} exceeds the cap of {cap} (a hostile or broken row; fix or drop it)"
    )]
    JsonCap {
        at: usize,
        what: &'static str,
        cap: u64,
    },
}

/// A value while reading: scalars and strings are plain values, lists and dicts are
/// shared (memoised values are not copied) and copied on write.
#[derive(Clone)]
enum Node {
    Leaf(Rc<Value>),
    List(Rc<Vec<Node>>, usize),
    Dict(Rc<Vec<(Rc<Value>, Node)>>, usize),
}

impl Node {
    fn depth(&self) -> usize {
        match self {
            Node::Leaf(_) => 0,
            Node::List(_, d) | Node::Dict(_, d) => *d,
        }
    }
}

struct Reader<'a> {
    data: &'a [u8],
    pos: usize,
    at: usize,
    objects: u64,
}

impl<'a> Reader<'a> {
    fn take(&mut self, n: usize) -> Result<&'a [u8], PickleError> {
        let end = self.pos.checked_add(n).filter(|&e| e <= self.data.len());
        let end = end.ok_or(PickleError::Truncated(self.pos))?;
        let slice = &self.data[self.pos..end];
        self.pos = end;
        Ok(slice)
    }

    fn le(&mut self, n: usize) -> Result<u64, PickleError> {
        let bytes = self.take(n)?;
        Ok(bytes
            .iter()
            .rev()
            .fold(0u64, |acc, &x| (acc << 8) | x as u64))
    }

    fn malformed(&self, why: impl Into<String>) -> PickleError {
        PickleError::Malformed {
            at: self.at,
            why: why.into(),
        }
    }

    /// Counts `n` more values created or copied.
    fn count(&mut self, n: u64) -> Result<(), PickleError> {
        self.objects = self.objects.saturating_add(n);
        if self.objects > MAX_OBJECTS {
            return Err(PickleError::Cap {
                at: self.at,
                what: "values created",
                cap: MAX_OBJECTS,
            });
        }
        Ok(())
    }

    fn leaf(&mut self, v: Value) -> Result<Node, PickleError> {
        self.count(1)?;
        Ok(Node::Leaf(Rc::new(v)))
    }

    fn deeper(&self, depth: usize) -> Result<usize, PickleError> {
        if depth > MAX_DEPTH {
            return Err(PickleError::Cap {
                at: self.at,
                what: "nesting depth",
                cap: MAX_DEPTH as u64,
            });
        }
        Ok(depth)
    }

    /// Appends `items` to the list on top of `stack` (copying it first when shared).
    fn extend_list(&mut self, stack: &mut [Node], items: Vec<Node>) -> Result<(), PickleError> {
        let Some(Node::List(list, depth)) = stack.last_mut() else {
            return Err(self.malformed("APPEND to a non-list"));
        };
        let deepest = items.iter().map(Node::depth).max().map_or(0, |d| d + 1);
        *depth = self.deeper((*depth).max(deepest).max(1))?;
        if Rc::strong_count(list) > 1 {
            let copied = list.len() as u64;
            self.count(copied)?;
        }
        Rc::make_mut(list).extend(items);
        Ok(())
    }

    /// Sets `pairs` (key, value, key, value, …) in the dict on top of `stack`.
    fn set_items(&mut self, stack: &mut [Node], pairs: Vec<Node>) -> Result<(), PickleError> {
        let Some(Node::Dict(map, depth)) = stack.last_mut() else {
            return Err(self.malformed("SETITEM on a non-dict"));
        };
        if !pairs.len().is_multiple_of(2) {
            return Err(self.malformed("SETITEMS with an odd number of items"));
        }
        let mut new = Vec::with_capacity(pairs.len() / 2);
        let mut pairs = pairs.into_iter();
        while let (Some(k), Some(v)) = (pairs.next(), pairs.next()) {
            match k {
                Node::Leaf(k) if k.is_string() => new.push((k, v)),
                _ => return Err(self.malformed("a dict key is not a str")),
            }
        }
        let deepest = new
            .iter()
            .map(|(_, v)| v.depth())
            .max()
            .map_or(0, |d| d + 1);
        let d = (*depth).max(deepest).max(1);
        if d > MAX_DEPTH {
            return Err(PickleError::Cap {
                at: self.at,
                what: "nesting depth",
                cap: MAX_DEPTH as u64,
            });
        }
        *depth = d;
        if Rc::strong_count(map) > 1 {
            let copied = map.len() as u64;
            self.count(copied)?;
        }
        Rc::make_mut(map).extend(new);
        Ok(())
    }
}

/// The decoded size of `node` (see [`MAX_DECODED`]), each shared list or dict measured
/// once; saturating.
fn size(node: &Node, seen: &mut HashMap<usize, u64>) -> u64 {
    let one = std::mem::size_of::<Value>() as u64;
    let text = |v: &Value| v.as_str().map_or(0, |s| s.len() as u64);
    match node {
        Node::Leaf(v) => one + text(v),
        Node::List(items, _) => {
            let key = Rc::as_ptr(items) as usize;
            if let Some(&n) = seen.get(&key) {
                return n;
            }
            let n = items
                .iter()
                .fold(one, |acc, item| acc.saturating_add(size(item, seen)));
            seen.insert(key, n);
            n
        }
        Node::Dict(pairs, _) => {
            let key = Rc::as_ptr(pairs) as usize;
            if let Some(&n) = seen.get(&key) {
                return n;
            }
            // An empty map allocates nothing; a full one, its B-tree nodes.
            let nodes = if pairs.is_empty() { 0 } else { MAP_NODE };
            let n = pairs.iter().fold(one + nodes, |acc, (k, v)| {
                acc.saturating_add(MAP_NODE / 4 + text(k))
                    .saturating_add(size(v, seen))
            });
            seen.insert(key, n);
            n
        }
    }
}

/// The plain value of `node` (its depth is at most [`MAX_DEPTH`]). What nothing else
/// holds is moved, not copied: a pickled string of 256 MiB is not held twice.
fn into_plain(node: Node) -> Value {
    match node {
        Node::Leaf(v) => Rc::unwrap_or_clone(v),
        Node::List(items, _) => Value::Array(
            Rc::unwrap_or_clone(items)
                .into_iter()
                .map(into_plain)
                .collect(),
        ),
        Node::Dict(pairs, _) => {
            let mut map = Map::new();
            for (k, v) in Rc::unwrap_or_clone(pairs) {
                let k = match Rc::unwrap_or_clone(k) {
                    Value::String(k) => k,
                    _ => String::new(), // keys are checked to be strings when set
                };
                map.insert(k, into_plain(v));
            }
            Value::Object(map)
        }
    }
}

/// Reads one pickle holding a plain value, within the caps of the module docs.
///
/// # Errors
/// The first refused or malformed opcode, or the first cap exceeded, with its offset.
pub fn read_plain(data: &[u8]) -> Result<Value, PickleError> {
    if data.len() as u64 > MAX_BYTES {
        return Err(PickleError::Cap {
            at: 0,
            what: "pickle length",
            cap: MAX_BYTES,
        });
    }
    let mut r = Reader {
        data,
        pos: 0,
        at: 0,
        objects: 0,
    };
    let mut stack: Vec<Node> = Vec::new();
    let mut marks: Vec<usize> = Vec::new();
    let mut memo: Vec<Node> = Vec::new();
    loop {
        r.at = r.pos;
        let op = r.take(1)?[0];
        let node = match op {
            0x80 => {
                r.take(1)?; // PROTO n
                continue;
            }
            0x95 => {
                r.take(8)?; // FRAME length
                continue;
            }
            b'.' => {
                let top = stack
                    .pop()
                    .ok_or_else(|| r.malformed("STOP on an empty stack"))?;
                if size(&top, &mut HashMap::new()) > MAX_DECODED {
                    return Err(PickleError::TooLarge);
                }
                // Unshare the working values first, so that the result takes them over.
                drop((stack, memo));
                return Ok(into_plain(top));
            }
            b'N' => r.leaf(Value::Null)?,
            0x88 => r.leaf(Value::Bool(true))?,
            0x89 => r.leaf(Value::Bool(false))?,
            b'J' => {
                let v = r.le(4)? as u32 as i32;
                r.leaf(Value::from(v))?
            }
            b'K' => {
                let v = r.le(1)?;
                r.leaf(Value::from(v))?
            }
            b'M' => {
                let v = r.le(2)?;
                r.leaf(Value::from(v))?
            }
            0x8a => {
                // LONG1: little-endian two's complement of n bytes.
                let n = r.le(1)? as usize;
                let bytes = r.take(n)?.to_vec();
                if n > 8 {
                    return Err(r.malformed(format!("integer of {n} bytes: too large")));
                }
                let mut v = bytes
                    .iter()
                    .rev()
                    .fold(0u64, |acc, &x| (acc << 8) | x as u64) as i64;
                if n > 0 && n < 8 && bytes[n - 1] & 0x80 != 0 {
                    v -= 1i64 << (8 * n);
                }
                r.leaf(Value::from(v))?
            }
            b'G' => {
                let bytes: [u8; 8] = r.take(8)?.try_into().map_err(|_| r.malformed("float"))?;
                let f = f64::from_be_bytes(bytes);
                r.leaf(Number::from_f64(f).map_or(Value::Null, Value::Number))?
            }
            0x8c | b'X' | 0x8d => {
                let width = match op {
                    0x8c => 1,
                    b'X' => 4,
                    _ => 8,
                };
                let n = usize::try_from(r.le(width)?).unwrap_or(usize::MAX);
                let text = std::str::from_utf8(r.take(n)?)
                    .map(str::to_string)
                    .map_err(|e| r.malformed(format!("string: {e}")))?;
                r.leaf(Value::String(text))?
            }
            b']' => {
                r.count(1)?;
                Node::List(Rc::new(Vec::new()), 1)
            }
            b'}' => {
                r.count(1)?;
                Node::Dict(Rc::new(Vec::new()), 1)
            }
            b'(' => {
                marks.push(stack.len());
                continue;
            }
            b'a' => {
                let item = stack
                    .pop()
                    .ok_or_else(|| r.malformed("APPEND on an empty stack"))?;
                r.extend_list(&mut stack, vec![item])?;
                continue;
            }
            b'e' => {
                let mark = marks
                    .pop()
                    .ok_or_else(|| r.malformed("APPENDS without MARK"))?;
                let items: Vec<Node> = stack.drain(mark.min(stack.len())..).collect();
                r.extend_list(&mut stack, items)?;
                continue;
            }
            b's' => {
                let v = stack
                    .pop()
                    .ok_or_else(|| r.malformed("SETITEM on an empty stack"))?;
                let k = stack
                    .pop()
                    .ok_or_else(|| r.malformed("SETITEM on an empty stack"))?;
                r.set_items(&mut stack, vec![k, v])?;
                continue;
            }
            b'u' => {
                let mark = marks
                    .pop()
                    .ok_or_else(|| r.malformed("SETITEMS without MARK"))?;
                let pairs: Vec<Node> = stack.drain(mark.min(stack.len())..).collect();
                r.set_items(&mut stack, pairs)?;
                continue;
            }
            0x94 | b'q' | b'r' => {
                match op {
                    b'q' => {
                        r.take(1)?;
                    }
                    b'r' => {
                        r.take(4)?;
                    }
                    _ => {}
                }
                if memo.len() >= MAX_MEMO {
                    return Err(PickleError::Cap {
                        at: r.at,
                        what: "memo entries",
                        cap: MAX_MEMO as u64,
                    });
                }
                let top = stack.last().cloned();
                memo.push(top.ok_or_else(|| r.malformed("MEMOIZE on an empty stack"))?);
                continue;
            }
            b'h' | b'j' => {
                let n =
                    usize::try_from(r.le(if op == b'h' { 1 } else { 4 })?).unwrap_or(usize::MAX);
                let node = memo.get(n).cloned();
                r.count(1)?;
                node.ok_or_else(|| r.malformed(format!("memo {n} unknown")))?
            }
            other => {
                return Err(PickleError::Refused {
                    op: other,
                    at: r.at,
                });
            }
        };
        stack.push(node);
    }
}

/// Refuses a JSON text whose value would break the caps of the module docs, in one pass
/// over its bytes and without allocating. It counts every `[`, `{`, `,` and `:` outside
/// strings (one more than that bounds the values and keys), and measures an upper bound
/// of the value's size: `2 × size_of::<Value>()` per value or key (a list's spare
/// capacity), four items per list, [`MAP_NODE`] per object and a quarter of that per
/// entry, and twice the text for strings (each string and the parser's scratch copy).
///
/// # Errors
/// The first cap broken, with the byte it was broken at.
pub fn check_json(text: &str) -> Result<(), PickleError> {
    let value = 2 * size_of::<Value>() as u64;
    let cap = |at, what, cap| Err(PickleError::JsonCap { at, what, cap });
    let (mut in_string, mut escaped) = (false, false);
    let (mut depth, mut values) = (0usize, 1u64);
    let mut bytes = 2 * text.len() as u64 + value;
    for (at, &b) in text.as_bytes().iter().enumerate() {
        if in_string {
            match b {
                _ if escaped => escaped = false,
                b'\\' => escaped = true,
                b'"' => in_string = false,
                _ => {}
            }
            continue;
        }
        let extra = match b {
            b'"' => {
                in_string = true;
                continue;
            }
            b'[' | b'{' => {
                depth += 1;
                if depth > MAX_DEPTH {
                    return cap(at, "nesting depth", MAX_DEPTH as u64);
                }
                if b == b'[' { 4 * value } else { MAP_NODE }
            }
            b']' | b'}' => {
                depth = depth.saturating_sub(1);
                continue;
            }
            b':' => MAP_NODE / 4,
            b',' => 0,
            _ => continue,
        };
        values += 1;
        if values > MAX_OBJECTS {
            return cap(at, "values and keys", MAX_OBJECTS);
        }
        bytes += value + extra;
        if bytes > MAX_DECODED {
            return cap(at, "decoded size in bytes", MAX_DECODED);
        }
    }
    // The text itself may be too long even without a structural byte: one huge string.
    if bytes > MAX_DECODED {
        return cap(text.len(), "decoded size in bytes", MAX_DECODED);
    }
    Ok(())
}

/// LiveCodeBench's `private_test_cases`: plain JSON, or base64 → zlib → pickle of a JSON
/// string (or of the list itself). JSON texts are checked by [`check_json`] first.
///
/// # Errors
/// Why the text could not be decoded, or the cap it breaks.
pub fn decode_lcb_private(text: &str) -> Result<Value, String> {
    // Only a list, object or string can be large; a base64 text (which may be long) is
    // not scanned, so it is never refused as JSON.
    if text.trim_start().starts_with(['[', '{', '"']) {
        check_json(text).map_err(|e| e.to_string())?;
    }
    if let Ok(value) = serde_json::from_str::<Value>(text) {
        return Ok(value);
    }
    let compressed = base64::engine::general_purpose::STANDARD
        .decode(text.trim())
        .map_err(|e| format!("not JSON and not base64: {e}"))?;
    let mut pickle = Vec::new();
    flate2::read::ZlibDecoder::new(&compressed[..])
        .take(MAX_BYTES + 1)
        .read_to_end(&mut pickle)
        .map_err(|e| format!("not zlib data: {e}"))?;
    // Each stage's input is dropped before the next, so that the peak is one stage's.
    drop(compressed);
    pickle.shrink_to_fit();
    let value = read_plain(&pickle).map_err(|e| e.to_string())?;
    drop(pickle);
    match value {
        Value::String(json) => {
            check_json(&json).map_err(|e| format!("pickled text: {e}"))?;
            serde_json::from_str(&json).map_err(|e| format!("pickled text is not JSON: {e}"))
        }
        value => Ok(value),
    }
}

#[cfg(test)]
#[path = "pickle_tests.rs"]
mod tests;
