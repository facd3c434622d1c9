//! Python literals read on the host, without evaluating anything: the solver's predicted
//! outputs (deduction) and everyone's argument lists (proposed inputs, abduction answers).
//!
//! The grammar is the plain-value subset of `ast.literal_eval`: `None`, `True`, `False`,
//! integers (with `_` separators), floats, single- or double-quoted strings with the usual
//! escapes, lists, tuples and dicts, nested, with an optional sign on numbers. Sets, bytes,
//! complex numbers, f-strings, names and calls are refused: they are not plain values.
//!
//! Values come out in the sandbox's tagged JSON encoding (see `verigym_sandbox::python`),
//! so they compare type-exactly with what the sandbox returns.

use num_bigint::BigInt;
use serde_json::{Map, Value, json};

use crate::sandboxed::py_literal;

/// Longest literal accepted (bounded work on hostile text).
pub const MAX_LITERAL_BYTES: usize = 10_000;
const MAX_DEPTH: usize = 50;
const RESERVED_KEYS: [&str; 4] = ["$tuple", "$int", "$float", "$dict"];

/// Why a text is not a plain Python literal (or argument list): what is wrong and where.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum LiteralError {
    #[error("literal longer than {MAX_LITERAL_BYTES} bytes")]
    TooLong,
    #[error("no arguments: write them as in a call, e.g. f([3, 1, 2])")]
    NoArguments,
    /// `what` was wrong at byte `at`, just before `near`.
    #[error("{what} at byte {at} (near {near:?})")]
    At {
        what: String,
        at: usize,
        near: String,
    },
}

/// Parses one Python literal.
///
/// # Errors
/// What is wrong and where, e.g. "expected a value at byte 3".
pub(crate) fn parse_literal(text: &str) -> Result<Value, LiteralError> {
    let mut parser = Parser::new(text)?;
    let value = parser.value(0)?;
    parser.end()?;
    Ok(value)
}

/// Parses the one Python literal that opens `text` (after whitespace), as
/// [`parse_literal`] does, and returns it with the bytes it took: for a
/// literal stated inside prose. Reads at most [`MAX_LITERAL_BYTES`].
///
/// # Errors
/// As [`parse_literal`].
pub(crate) fn parse_literal_prefix(text: &str) -> Result<(Value, usize), LiteralError> {
    let mut end = text.len().min(MAX_LITERAL_BYTES);
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    let mut parser = Parser::new(&text[..end])?;
    let value = parser.value(0)?;
    Ok((value, parser.pos))
}

/// Parses an argument list: `f(1, [2])`, `(1, [2])` read as written between the
/// parentheses of a call, or the bare `1, [2]`. Returns the arguments as a JSON array.
///
/// # Errors
/// As [`parse_literal`], or when there are no arguments.
pub(crate) fn parse_args(text: &str) -> Result<Value, LiteralError> {
    let trimmed = text.trim();
    let inner = trimmed
        .strip_prefix("f(")
        .and_then(|rest| rest.strip_suffix(')'))
        .unwrap_or(trimmed);
    let mut parser = Parser::new(inner)?;
    let mut args = Vec::new();
    loop {
        parser.skip_ws();
        if parser.at_end() {
            break;
        }
        args.push(parser.value(0)?);
        parser.skip_ws();
        if !parser.eat(b',') {
            break;
        }
    }
    parser.end()?;
    if args.is_empty() {
        return Err(LiteralError::NoArguments);
    }
    Ok(Value::Array(args))
}

/// Renders a value in the tagged encoding as a Python literal that `parse_literal`
/// reads back to the same value: tuples, big ints, non-finite floats and dicts with
/// non-str keys included.
pub fn to_python(value: &Value) -> String {
    match value {
        Value::Object(map) if map.len() == 1 => {
            let (tag, inner) = map.iter().next().expect("one entry");
            match (tag.as_str(), inner) {
                ("$tuple", Value::Array(items)) => match items.len() {
                    1 => format!("({},)", to_python(&items[0])),
                    _ => format!("({})", join(items)),
                },
                ("$int", Value::String(digits)) => digits.clone(),
                ("$float", Value::String(f)) => match f.as_str() {
                    "inf" => "1e999".into(),
                    "-inf" => "-1e999".into(),
                    _ => "float('nan')".into(),
                },
                ("$dict", Value::Array(pairs)) => {
                    let items: Vec<String> = pairs
                        .iter()
                        .map(|kv| match kv.as_array().map(Vec::as_slice) {
                            Some([k, v]) => format!("{}: {}", to_python(k), to_python(v)),
                            _ => String::new(),
                        })
                        .collect();
                    format!("{{{}}}", items.join(", "))
                }
                _ => py_literal(value),
            }
        }
        Value::Array(items) => format!("[{}]", join(items)),
        Value::Object(map) => {
            let items: Vec<String> = map
                .iter()
                .map(|(k, v)| {
                    format!(
                        "{}: {}",
                        py_literal(&Value::String(k.clone())),
                        to_python(v)
                    )
                })
                .collect();
            format!("{{{}}}", items.join(", "))
        }
        other => py_literal(other),
    }
}

fn join(items: &[Value]) -> String {
    items.iter().map(to_python).collect::<Vec<_>>().join(", ")
}

struct Parser<'a> {
    text: &'a str,
    pos: usize,
}

impl<'a> Parser<'a> {
    fn new(text: &'a str) -> Result<Self, LiteralError> {
        if text.len() > MAX_LITERAL_BYTES {
            return Err(LiteralError::TooLong);
        }
        Ok(Parser { text, pos: 0 })
    }

    fn bytes(&self) -> &[u8] {
        self.text.as_bytes()
    }

    fn peek(&self) -> Option<u8> {
        self.bytes().get(self.pos).copied()
    }

    fn at_end(&self) -> bool {
        self.pos >= self.text.len()
    }

    fn skip_ws(&mut self) {
        while matches!(self.peek(), Some(b' ' | b'\t' | b'\n' | b'\r')) {
            self.pos += 1;
        }
    }

    fn eat(&mut self, byte: u8) -> bool {
        self.skip_ws();
        if self.peek() == Some(byte) {
            self.pos += 1;
            true
        } else {
            false
        }
    }

    fn end(&mut self) -> Result<(), LiteralError> {
        self.skip_ws();
        if self.at_end() {
            Ok(())
        } else {
            Err(self.error("unexpected text after the value"))
        }
    }

    fn error(&self, what: &str) -> LiteralError {
        LiteralError::At {
            what: what.to_string(),
            at: self.pos,
            near: self.text[self.pos.min(self.text.len())..]
                .chars()
                .take(20)
                .collect(),
        }
    }

    fn value(&mut self, depth: usize) -> Result<Value, LiteralError> {
        if depth > MAX_DEPTH {
            return Err(self.error("nested too deeply"));
        }
        self.skip_ws();
        match self.peek() {
            Some(b'[') => {
                self.pos += 1;
                let (items, _) = self.sequence(b']', depth)?;
                Ok(Value::Array(items))
            }
            Some(b'(') => {
                self.pos += 1;
                let (items, trailing_comma) = self.sequence(b')', depth)?;
                if items.len() == 1 && !trailing_comma {
                    // `(x)` is just x, parenthesised.
                    return Ok(items.into_iter().next().unwrap_or(Value::Null));
                }
                Ok(json!({ "$tuple": items }))
            }
            Some(b'{') => {
                self.pos += 1;
                self.dict(depth)
            }
            Some(b'\'' | b'"') => self.string().map(Value::String),
            Some(b'-' | b'+' | b'0'..=b'9' | b'.') => self.number(),
            Some(_) => self.word(),
            None => Err(self.error("expected a value")),
        }
    }

    /// Items up to `close`; the bool says whether a comma followed the last item.
    fn sequence(&mut self, close: u8, depth: usize) -> Result<(Vec<Value>, bool), LiteralError> {
        let mut items = Vec::new();
        let mut trailing = false;
        loop {
            if self.eat(close) {
                return Ok((items, trailing));
            }
            items.push(self.value(depth + 1)?);
            trailing = self.eat(b',');
            if !trailing {
                if self.eat(close) {
                    return Ok((items, false));
                }
                return Err(self.error(&format!("expected `,` or `{}`", close as char)));
            }
        }
    }

    fn dict(&mut self, depth: usize) -> Result<Value, LiteralError> {
        let mut pairs: Vec<(Value, Value)> = Vec::new();
        loop {
            if self.eat(b'}') {
                break;
            }
            let key = self.value(depth + 1)?;
            if !self.eat(b':') {
                return Err(self.error("expected `:` (sets are not plain values)"));
            }
            let value = self.value(depth + 1)?;
            if matches!(key, Value::Array(_) | Value::Object(_)) && !is_tuple(&key) {
                return Err(self.error("unhashable dict key"));
            }
            // Python keeps the last value of a repeated key, in the first key's place.
            match pairs.iter_mut().find(|(k, _)| *k == key) {
                Some(pair) => pair.1 = value,
                None => pairs.push((key, value)),
            }
            if !self.eat(b',') {
                if self.eat(b'}') {
                    break;
                }
                return Err(self.error("expected `,` or `}`"));
            }
        }
        if pairs.iter().all(|(k, _)| k.is_string()) {
            if pairs.len() == 1
                && let Value::String(k) = &pairs[0].0
                && RESERVED_KEYS.contains(&k.as_str())
            {
                return Err(self.error("this dict key is reserved by the harness"));
            }
            let map: Map<String, Value> = pairs
                .into_iter()
                .map(|(k, v)| (k.as_str().unwrap_or_default().to_string(), v))
                .collect();
            return Ok(Value::Object(map));
        }
        let pairs: Vec<Value> = pairs.into_iter().map(|(k, v)| json!([k, v])).collect();
        Ok(json!({ "$dict": pairs }))
    }

    fn word(&mut self) -> Result<Value, LiteralError> {
        let start = self.pos;
        while matches!(self.peek(), Some(b) if b.is_ascii_alphanumeric() || b == b'_') {
            self.pos += 1;
        }
        match &self.text[start..self.pos] {
            "None" => Ok(Value::Null),
            "True" => Ok(Value::Bool(true)),
            "False" => Ok(Value::Bool(false)),
            _ => {
                self.pos = start;
                Err(self.error("expected a literal (names, calls and expressions are not values)"))
            }
        }
    }

    fn number(&mut self) -> Result<Value, LiteralError> {
        let mut negative = false;
        while let Some(sign @ (b'-' | b'+')) = self.peek() {
            negative ^= sign == b'-';
            self.pos += 1;
            self.skip_ws();
        }
        let start = self.pos;
        let mut is_float = false;
        while let Some(b) = self.peek() {
            match b {
                b'0'..=b'9' | b'_' => {}
                b'.' => is_float = true,
                b'e' | b'E' => {
                    is_float = true;
                    if matches!(self.bytes().get(self.pos + 1), Some(b'-' | b'+')) {
                        self.pos += 1;
                    }
                }
                _ => break,
            }
            self.pos += 1;
        }
        let raw = &self.text[start..self.pos];
        if raw.is_empty() || raw.starts_with('_') || raw.ends_with('_') || raw.contains("__") {
            return Err(self.error("malformed number"));
        }
        if matches!(self.peek(), Some(b'j' | b'J' | b'x' | b'o' | b'b')) {
            return Err(self.error("only decimal int and float literals are plain values"));
        }
        let digits = raw.replace('_', "");
        if is_float {
            let x: f64 = digits.parse().map_err(|_| self.error("malformed float"))?;
            let x = if negative { -x } else { x };
            return Ok(match serde_json::Number::from_f64(x) {
                Some(n) if x.is_finite() => Value::Number(n),
                _ => json!({ "$float": if x > 0.0 { "inf" } else { "-inf" } }),
            });
        }
        if digits.len() > 1 && digits.starts_with('0') && digits.bytes().any(|b| b != b'0') {
            return Err(self.error("leading zeros are not allowed in Python ints"));
        }
        let mut n: BigInt = digits.parse().map_err(|_| self.error("malformed int"))?;
        if negative {
            n = -n;
        }
        Ok(int_value(&n))
    }

    fn string(&mut self) -> Result<String, LiteralError> {
        let quote = self.peek().unwrap_or(b'\'') as char;
        self.pos += 1;
        let mut out = String::new();
        let mut chars = self.text[self.pos..].char_indices();
        while let Some((i, c)) = chars.next() {
            match c {
                c if c == quote => {
                    self.pos += i + 1;
                    return Ok(out);
                }
                '\n' => break,
                '\\' => {
                    let Some((_, e)) = chars.next() else { break };
                    match e {
                        'n' => out.push('\n'),
                        't' => out.push('\t'),
                        'r' => out.push('\r'),
                        '0' => out.push('\0'),
                        '\\' | '\'' | '"' => out.push(e),
                        '\n' => {}
                        'x' | 'u' | 'U' => {
                            let len = match e {
                                'x' => 2,
                                'u' => 4,
                                _ => 8,
                            };
                            let hex: String = chars.by_ref().take(len).map(|(_, h)| h).collect();
                            let code = u32::from_str_radix(&hex, 16)
                                .ok()
                                .filter(|_| hex.len() == len)
                                .and_then(char::from_u32)
                                .ok_or_else(|| self.error("bad escape in string"))?;
                            out.push(code);
                        }
                        _ => {
                            // Python keeps unknown escapes as written.
                            out.push('\\');
                            out.push(e);
                        }
                    }
                }
                c => out.push(c),
            }
        }
        Err(self.error("unterminated string"))
    }
}

fn is_tuple(value: &Value) -> bool {
    value
        .as_object()
        .is_some_and(|m| m.len() == 1 && m.contains_key("$tuple"))
}

/// An int in the tagged encoding: a JSON number inside ±2^63, else `{"$int": "…"}`.
fn int_value(n: &BigInt) -> Value {
    match i64::try_from(n) {
        Ok(small) => Value::from(small),
        Err(_) => json!({ "$int": n.to_string() }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_values_parse_type_exactly() {
        let cases = [
            ("None", json!(null)),
            ("True", json!(true)),
            ("-3", json!(-3)),
            ("+ 4", json!(4)),
            ("1_000", json!(1000)),
            ("2.5", json!(2.5)),
            ("1.0", json!(1.0)),
            ("1e3", json!(1000.0)),
            ("'a\\'b'", json!("a'b")),
            ("\"x\\ny\"", json!("x\ny")),
            ("[1, 'a', None,]", json!([1, "a", null])),
            ("(1,)", json!({"$tuple": [1]})),
            ("(1)", json!(1)),
            ("()", json!({"$tuple": []})),
            ("{'a': 1, 'b': [2.0]}", json!({"a": 1, "b": [2.0]})),
            ("{1: 'x', 1: 'y'}", json!({"$dict": [[1, "y"]]})),
            ("{}", json!({})),
            (
                "123456789012345678901234567890",
                json!({"$int": "123456789012345678901234567890"}),
            ),
        ];
        for (text, want) in cases {
            let got = parse_literal(text).unwrap_or_else(|e| panic!("{text}: {e}"));
            assert_eq!(got, want, "{text}");
            assert!(got.is_f64() == want.is_f64(), "{text}");
        }
        assert!(parse_literal("1").unwrap().is_i64());
        assert!(parse_literal("1.0").unwrap().is_f64());
    }

    #[test]
    fn non_values_are_refused() {
        for text in [
            "",
            "x",
            "f(1)",
            "__import__('os').system('ls')",
            "{1, 2}",
            "b'x'",
            "1j",
            "0x10",
            "007",
            "[1, 2",
            "'abc",
            "1 + 2",
            "[1] [2]",
            "{'$tuple': [1]}",
            "lambda: 1",
            "```python\nclass A:\n    def __eq__(self, o): return True\n```",
        ] {
            assert!(parse_literal(text).is_err(), "{text:?} parsed");
        }
        assert!(parse_literal(&"[".repeat(100)).is_err());
        assert!(parse_literal(&"1".repeat(MAX_LITERAL_BYTES + 1)).is_err());
    }

    #[test]
    fn arguments_parse_as_in_a_call() {
        assert_eq!(parse_args("f([3, 1], 'a')").unwrap(), json!([[3, 1], "a"]));
        assert_eq!(parse_args("[3, 1]").unwrap(), json!([[3, 1]]));
        assert_eq!(parse_args(" 1, 2 ").unwrap(), json!([1, 2]));
        assert!(parse_args("").is_err());
        assert!(parse_args("f()").is_err());
        assert!(parse_args("f(x)").is_err());
    }

    #[test]
    fn rendering_then_parsing_round_trips() {
        for value in [
            json!([1, -2, "q'\"\\", null, true, {"$tuple": [1.5, []]}]),
            json!({"even": 2, "odd": {"$tuple": []}}),
            json!({"$dict": [[1, "a"], [{"$tuple": [1, 2]}, [0.25]]]}),
            json!([{"$int": "-123456789012345678901234567890"}, {"$float": "inf"}, {"$float": "-inf"}]),
        ] {
            assert_eq!(parse_literal(&to_python(&value)).unwrap(), value);
        }
    }
}
