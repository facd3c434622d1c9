//! Llama-3.2 pythonic calls: `[get_schedule(name="Jonas"), f(n=1)]`.
//!
//! Keyword arguments only; values are Python literals read as data, never
//! evaluated: strings in `'` or `"` (with backslash escapes), integers,
//! floats, `True`/`False`/`None`, and lists, tuples and dicts of those. Work
//! is linear in the text and nesting is capped, so hostile input is cheap.

use serde_json::{Map, Number, Value};

use super::check::clip;
use crate::core::InvalidAction;

/// A call as written, before its schema check: the name and the arguments.
pub(crate) type RawCall = (String, Value);

/// Deepest nesting of lists and dicts inside one argument.
const MAX_DEPTH: usize = 32;

/// Whether `text` opens a pythonic call list: `[`, a name, then `(`.
pub(crate) fn opens_call_list(text: &str) -> bool {
    let mut reader = Reader::new(text);
    reader.eat(b'[') && {
        reader.skip_space();
        reader.ident().is_some() && {
            reader.skip_space();
            reader.peek() == Some(b'(')
        }
    }
}

/// Reads the call list at the start of `text`: the calls and the bytes
/// read (what follows is prose).
///
/// # Errors
/// What is malformed and where, for the refusal.
pub(crate) fn read_call_list(text: &str) -> Result<(Vec<RawCall>, usize), InvalidAction> {
    let mut r = Reader::new(text);
    r.expect(b'[')?;
    let mut calls = Vec::new();
    loop {
        r.skip_space();
        if r.eat(b']') {
            break;
        }
        calls.push(r.call()?);
        r.skip_space();
        if !r.eat(b',') {
            r.skip_space();
            r.expect(b']')?;
            break;
        }
    }
    if calls.is_empty() {
        return Err("an empty list of calls".into());
    }
    Ok((calls, r.at))
}

struct Reader<'a> {
    text: &'a str,
    at: usize,
}

impl<'a> Reader<'a> {
    fn new(text: &'a str) -> Self {
        Reader { text, at: 0 }
    }

    fn peek(&self) -> Option<u8> {
        self.text.as_bytes().get(self.at).copied()
    }

    fn skip_space(&mut self) {
        while self.peek().is_some_and(|b| b.is_ascii_whitespace()) {
            self.at += 1;
        }
    }

    fn eat(&mut self, byte: u8) -> bool {
        let hit = self.peek() == Some(byte);
        self.at += usize::from(hit);
        hit
    }

    fn expect(&mut self, byte: u8) -> Result<(), InvalidAction> {
        if self.eat(byte) {
            Ok(())
        } else {
            Err(format!(
                "expected `{}` at byte {} of the call list",
                byte as char, self.at
            )
            .into())
        }
    }

    fn ident(&mut self) -> Option<&'a str> {
        let start = self.at;
        let bytes = self.text.as_bytes();
        if !bytes
            .get(start)
            .is_some_and(|b| b.is_ascii_alphabetic() || *b == b'_')
        {
            return None;
        }
        while bytes
            .get(self.at)
            .is_some_and(|b| b.is_ascii_alphanumeric() || *b == b'_')
        {
            self.at += 1;
        }
        Some(&self.text[start..self.at])
    }

    /// `name(key=value, …)`.
    fn call(&mut self) -> Result<RawCall, InvalidAction> {
        let name = self
            .ident()
            .ok_or_else(|| format!("expected a function name at byte {}", self.at))?
            .to_string();
        self.skip_space();
        self.expect(b'(')?;
        let mut args = Map::new();
        loop {
            self.skip_space();
            if self.eat(b')') {
                break;
            }
            let key = self.ident().ok_or_else(|| {
                format!(
                    "`{}(…)`: arguments are keyword arguments, e.g. {}(path=\"/\")",
                    clip(&name),
                    clip(&name)
                )
            })?;
            self.skip_space();
            if !self.eat(b'=') {
                return Err(format!(
                    "`{}(…)`: arguments are keyword arguments, e.g. {}({}=…)",
                    clip(&name),
                    clip(&name),
                    clip(key)
                )
                .into());
            }
            self.skip_space();
            let value = self.literal(0)?;
            args.insert(key.to_string(), value);
            self.skip_space();
            if !self.eat(b',') {
                self.skip_space();
                self.expect(b')')?;
                break;
            }
        }
        Ok((name, Value::Object(args)))
    }

    fn literal(&mut self, depth: usize) -> Result<Value, InvalidAction> {
        if depth > MAX_DEPTH {
            return Err("arguments nested too deeply".into());
        }
        match self.peek() {
            Some(q @ (b'"' | b'\'')) => self.string(q).map(Value::String),
            Some(b'[') => self.sequence(b']', depth),
            Some(b'(') => self.sequence(b')', depth),
            Some(b'{') => self.dict(depth),
            Some(b'-' | b'+' | b'0'..=b'9' | b'.') => self.number(),
            _ => match self.ident() {
                Some("True") => Ok(Value::Bool(true)),
                Some("False") => Ok(Value::Bool(false)),
                Some("None") => Ok(Value::Null),
                Some(other) => Err(format!(
                    "`{}` is not a literal: values are strings, numbers, True, False, None, lists or dicts",
                    clip(other)
                ).into()),
                None => Err(format!("expected a value at byte {}", self.at).into()),
            },
        }
    }

    fn sequence(&mut self, close: u8, depth: usize) -> Result<Value, InvalidAction> {
        self.at += 1;
        let mut items = Vec::new();
        loop {
            self.skip_space();
            if self.eat(close) {
                return Ok(Value::Array(items));
            }
            items.push(self.literal(depth + 1)?);
            self.skip_space();
            if !self.eat(b',') {
                self.skip_space();
                self.expect(close)?;
                return Ok(Value::Array(items));
            }
        }
    }

    fn dict(&mut self, depth: usize) -> Result<Value, InvalidAction> {
        self.at += 1;
        let mut map = Map::new();
        loop {
            self.skip_space();
            if self.eat(b'}') {
                return Ok(Value::Object(map));
            }
            let key = match self.literal(depth + 1)? {
                Value::String(s) => s,
                other => {
                    return Err(
                        format!("dict keys are strings, got {}", clip(&other.to_string())).into(),
                    );
                }
            };
            self.skip_space();
            self.expect(b':')?;
            self.skip_space();
            map.insert(key, self.literal(depth + 1)?);
            self.skip_space();
            if !self.eat(b',') {
                self.skip_space();
                self.expect(b'}')?;
                return Ok(Value::Object(map));
            }
        }
    }

    /// A quoted string with Python's common escapes; an unknown escape keeps
    /// its backslash, as Python does.
    fn string(&mut self, quote: u8) -> Result<String, InvalidAction> {
        self.at += 1;
        let mut out = String::new();
        let mut chars = self.text[self.at..].char_indices();
        while let Some((i, c)) = chars.next() {
            match c {
                _ if c as u32 == u32::from(quote) => {
                    self.at += i + 1;
                    return Ok(out);
                }
                '\\' => match chars.next() {
                    Some((_, 'n')) => out.push('\n'),
                    Some((_, 't')) => out.push('\t'),
                    Some((_, 'r')) => out.push('\r'),
                    Some((_, '0')) => out.push('\0'),
                    Some((_, e @ ('\\' | '\'' | '"'))) => out.push(e),
                    Some((_, e @ ('x' | 'u'))) => {
                        let len = if e == 'x' { 2 } else { 4 };
                        let hex: String = chars.by_ref().take(len).map(|(_, h)| h).collect();
                        let code = u32::from_str_radix(&hex, 16)
                            .ok()
                            .filter(|_| hex.len() == len)
                            .and_then(char::from_u32)
                            .ok_or_else(|| format!("bad escape `\\{e}{}`", clip(&hex)))?;
                        out.push(code);
                    }
                    Some((_, other)) => {
                        out.push('\\');
                        out.push(other);
                    }
                    None => break,
                },
                _ => out.push(c),
            }
        }
        Err("unclosed string in the call list".into())
    }

    fn number(&mut self) -> Result<Value, InvalidAction> {
        let start = self.at;
        let bytes = self.text.as_bytes();
        if matches!(self.peek(), Some(b'-' | b'+')) {
            self.at += 1;
        }
        while bytes.get(self.at).is_some_and(|b| {
            b.is_ascii_digit()
                || matches!(b, b'.' | b'e' | b'E' | b'_')
                || (matches!(b, b'-' | b'+') && matches!(bytes[self.at - 1], b'e' | b'E'))
        }) {
            self.at += 1;
        }
        let word = self.text[start..self.at].replace('_', "");
        let word = word.strip_prefix('+').unwrap_or(&word);
        if let Ok(n) = word.parse::<i64>() {
            return Ok(Value::Number(n.into()));
        }
        word.parse::<f64>()
            .ok()
            .and_then(Number::from_f64)
            .map(Value::Number)
            .ok_or_else(|| format!("`{}` is not a number", clip(word)).into())
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn literals_are_read_as_data() {
        let (calls, used) = read_call_list(
            "[f(a='x\\'y', b=\"q\\n\", c=-3, d=2.5, e=True, g=None, h=[1, (2, 'z')], i={'k': False},)] then prose",
        )
        .unwrap();
        assert_eq!(
            calls,
            vec![(
                "f".to_string(),
                json!({"a": "x'y", "b": "q\n", "c": -3, "d": 2.5, "e": true, "g": null,
                    "h": [1, [2, "z"]], "i": {"k": false}})
            )]
        );
        assert_eq!(used, "[f(a='x\\'y', b=\"q\\n\", c=-3, d=2.5, e=True, g=None, h=[1, (2, 'z')], i={'k': False},)]".len());
        let (calls, _) = read_call_list("[f(), g(b=\"x\")]").unwrap();
        assert_eq!(calls.len(), 2);
    }

    #[test]
    fn anything_but_literals_is_refused() {
        for text in [
            "[f(1)]",
            "[f(a=open('/etc/passwd'))]",
            "[f(a=__import__('os'))]",
            "[f(a=1 + 2)]",
            "[f(a='x)]",
            "[f(a=1]",
            "[]",
            "[f(a=[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]])]",
        ] {
            assert!(read_call_list(text).is_err(), "{text}");
        }
        assert!(opens_call_list("[ get_schedule (name='J')]"));
        assert!(!opens_call_list("[12]"));
        assert!(!opens_call_list("[TOOL_CALLS]"));
    }
}
