//! Python asserts turned into call tests on the host, by reading literals (never
//! evaluating): `assert NAME(ARGS) == EXPECTED`, with `ARGS` and `EXPECTED` plain
//! literals. Anything else (`assert math.isclose(f(x), y)`, `assert set(f(x)) == …`,
//! `assert f(x)`, `assert f(x) is True`, names or calls inside the arguments) is not a
//! plain assert: the caller drops its row with that reason.

use serde_json::Value;
use verigym_envs::code::dataset::{parse_python_args, parse_python_literal};
use verigym_sandbox::TestCase;

/// One plain assert: the called function's name and the test.
#[derive(Clone, Debug, PartialEq)]
pub struct PlainAssert {
    pub function: String,
    pub case: TestCase,
}

/// Byte index of the `)` closing the `(` at `open`, skipping string literals.
fn closing_paren(text: &str, open: usize) -> Option<usize> {
    let bytes = text.as_bytes();
    let mut depth = 0usize;
    let mut i = open;
    while i < bytes.len() {
        match bytes[i] {
            b'(' | b'[' | b'{' => depth += 1,
            b')' | b']' | b'}' => {
                depth = depth.checked_sub(1)?;
                if depth == 0 {
                    return (bytes[i] == b')').then_some(i);
                }
            }
            quote @ (b'"' | b'\'') => {
                let triple = bytes[i..].starts_with(&[quote; 3]);
                let step = if triple { 3 } else { 1 };
                i += step;
                loop {
                    if i >= bytes.len() {
                        return None;
                    }
                    if bytes[i] == b'\\' {
                        i += 2;
                        continue;
                    }
                    if bytes[i..].starts_with(&vec![quote; step]) {
                        i += step - 1;
                        break;
                    }
                    i += 1;
                }
            }
            _ => {}
        }
        i += 1;
    }
    None
}

/// Reads `assert NAME(ARGS) == EXPECTED` (an optional trailing `, "message"` is refused
/// too: keep the rule simple and visible).
///
/// # Errors
/// Why the line is not a plain assert.
pub fn parse_assert(line: &str) -> Result<PlainAssert, String> {
    let text = line.trim();
    let body = text
        .strip_prefix("assert ")
        .or_else(|| text.strip_prefix("assert("))
        .map(str::trim)
        .ok_or_else(|| format!("not an assert: {}", excerpt(text)))?;
    let name_end = body
        .find(|c: char| !(c.is_alphanumeric() || c == '_'))
        .ok_or_else(|| format!("not a call compared to a literal: {}", excerpt(text)))?;
    let function = &body[..name_end];
    if function.is_empty()
        || function.starts_with(|c: char| c.is_ascii_digit())
        || !body[name_end..].starts_with('(')
    {
        return Err(format!(
            "not a call compared to a literal: {}",
            excerpt(text)
        ));
    }
    let close = closing_paren(body, name_end)
        .ok_or_else(|| format!("unbalanced call: {}", excerpt(text)))?;
    let args_text = &body[name_end + 1..close];
    let rest = body[close + 1..].trim();
    let expected_text = rest.strip_prefix("==").ok_or_else(|| {
        format!(
            "not a call compared to a literal with ==: {}",
            excerpt(text)
        )
    })?;
    let args = if args_text.trim().is_empty() {
        Value::Array(Vec::new())
    } else {
        // Wrapped as a call so that the reader strips exactly this `f(…)`, never one of
        // the arguments (`g(f(1))` must not read as `g(1)`).
        parse_python_args(&format!("f({args_text})"))
            .map_err(|e| format!("arguments not plain literals ({e}): {}", excerpt(text)))?
    };
    let expected = parse_python_literal(expected_text.trim()).map_err(|e| {
        format!(
            "expected value not a plain literal ({e}): {}",
            excerpt(text)
        )
    })?;
    Ok(PlainAssert {
        function: function.to_string(),
        case: TestCase { args, expected },
    })
}

fn excerpt(text: &str) -> &str {
    &text[..text.floor_char_boundary(120)]
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn plain_asserts_become_cases() {
        let a = parse_assert("assert remove_Occ(\"hello\",\"l\") == \"heo\"").unwrap();
        assert_eq!(a.function, "remove_Occ");
        assert_eq!(a.case.args, json!(["hello", "l"]));
        assert_eq!(a.case.expected, json!("heo"));
        let a =
            parse_assert("assert similar_elements((3, 4, 5, 6),(5, 7, 4, 10)) == (4, 5)").unwrap();
        assert_eq!(
            a.case.args,
            json!([{"$tuple": [3, 4, 5, 6]}, {"$tuple": [5, 7, 4, 10]}])
        );
        assert_eq!(a.case.expected, json!({"$tuple": [4, 5]}));
        let a = parse_assert("assert f(')(', [1, (2,)]) == {'a': None}").unwrap();
        assert_eq!(a.case.args, json!([")(", [1, {"$tuple": [2]}]]));
        assert_eq!(
            parse_assert("assert f() == 3.5").unwrap().case.args,
            json!([])
        );
    }

    #[test]
    fn other_asserts_are_refused_with_a_reason() {
        for line in [
            "assert math.isclose(area(2), 12.56, rel_tol=0.001)",
            "assert set(f([1,2])) == set([1])",
            "assert f(3)",
            "assert f(3) is True",
            "assert f(x) == 3",
            "assert f(3) == g(2)",
            "assert f(3) == 3, 'message'",
            "print(f(3))",
            "assert f(3 == 3",
            "assert g(f(1)) == 2",
        ] {
            assert!(parse_assert(line).is_err(), "{line}");
        }
    }
}
