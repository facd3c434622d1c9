//! Arithmetic expressions for countdown / 24-game answers, on exact rationals.
//!
//! Our own recursive-descent parser (never `eval`): non-negative integer
//! literals, `+ - * /` (also `×`, `x`, `·`, `÷`, `−`), parentheses or
//! square brackets, usual precedence, left to right. No unary minus, no
//! exponents, no concatenation of digits. An optional trailing `= N` is
//! allowed and must equal the value. Division is exact; dividing by zero
//! is an error.

use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::Zero;

/// Longest answer accepted (bounded work on hostile input).
pub const MAX_EXPRESSION_BYTES: usize = 2_000;
const MAX_DEPTH: usize = 64;

#[derive(Clone, Debug, PartialEq)]
enum Token {
    Number(u64),
    Op(char),
    Open,
    Close,
    Equals,
}

fn tokenize(text: &str) -> Result<Vec<Token>, String> {
    if text.len() > MAX_EXPRESSION_BYTES {
        return Err("expression too long".into());
    }
    let mut tokens = Vec::new();
    let mut chars = text.chars().peekable();
    while let Some(ch) = chars.next() {
        let token = match ch {
            '0'..='9' => {
                let mut value = u64::from(ch as u8 - b'0');
                while let Some(d) = chars.peek().and_then(|c| c.to_digit(10)) {
                    value = value
                        .checked_mul(10)
                        .and_then(|v| v.checked_add(u64::from(d)))
                        .ok_or("number too large")?;
                    chars.next();
                }
                Token::Number(value)
            }
            '+' => Token::Op('+'),
            '-' | '−' | '–' => Token::Op('-'),
            '*' | '×' | 'x' | 'X' | '·' | '⋅' => Token::Op('*'),
            '/' | '÷' => Token::Op('/'),
            '(' | '[' => Token::Open,
            ')' | ']' => Token::Close,
            '=' => Token::Equals,
            c if c.is_whitespace() => continue,
            c => return Err(format!("unexpected `{c}` in the expression")),
        };
        tokens.push(token);
    }
    Ok(tokens)
}

struct Parser {
    tokens: Vec<Token>,
    pos: usize,
    numbers: Vec<u64>,
}

impl Parser {
    fn peek(&self) -> Option<&Token> {
        self.tokens.get(self.pos)
    }

    fn expr(&mut self, depth: usize) -> Result<BigRational, String> {
        let mut value = self.term(depth)?;
        while let Some(Token::Op(op @ ('+' | '-'))) = self.peek().cloned() {
            self.pos += 1;
            let rhs = self.term(depth)?;
            value = if op == '+' { value + rhs } else { value - rhs };
        }
        Ok(value)
    }

    fn term(&mut self, depth: usize) -> Result<BigRational, String> {
        let mut value = self.factor(depth)?;
        while let Some(Token::Op(op @ ('*' | '/'))) = self.peek().cloned() {
            self.pos += 1;
            let rhs = self.factor(depth)?;
            if op == '*' {
                value *= rhs;
            } else {
                if rhs.is_zero() {
                    return Err("division by zero".into());
                }
                value /= rhs;
            }
        }
        Ok(value)
    }

    fn factor(&mut self, depth: usize) -> Result<BigRational, String> {
        if depth > MAX_DEPTH {
            return Err("parentheses nested too deeply".into());
        }
        match self.peek().cloned() {
            Some(Token::Number(n)) => {
                self.pos += 1;
                self.numbers.push(n);
                Ok(BigRational::from_integer(BigInt::from(n)))
            }
            Some(Token::Open) => {
                self.pos += 1;
                let value = self.expr(depth + 1)?;
                if self.peek() != Some(&Token::Close) {
                    return Err("missing `)`".into());
                }
                self.pos += 1;
                Ok(value)
            }
            other => Err(format!("expected a number or `(`, found {other:?}")),
        }
    }
}

/// Parses and values an expression; returns the value and the numbers it
/// uses, in order of appearance.
///
/// # Errors
/// Malformed text, division by zero, or a trailing `= N` that disagrees.
pub fn evaluate(text: &str) -> Result<(BigRational, Vec<u64>), String> {
    let mut parser = Parser {
        tokens: tokenize(text)?,
        pos: 0,
        numbers: Vec::new(),
    };
    let value = parser.expr(0)?;
    match parser.tokens[parser.pos..] {
        [] => {}
        [Token::Equals, Token::Number(n)] => {
            if value != BigRational::from_integer(BigInt::from(n)) {
                return Err(format!("the expression does not equal {n}"));
            }
        }
        _ => return Err("unexpected text after the expression".into()),
    }
    Ok((value, parser.numbers))
}

/// Whether `text` uses exactly the multiset `numbers` and equals `target`.
///
/// # Errors
/// As [`evaluate`]: the answer is not a well-formed expression.
pub fn check_countdown(text: &str, numbers: &[u64], target: i64) -> Result<bool, String> {
    let (value, mut used) = evaluate(text)?;
    let mut wanted = numbers.to_vec();
    used.sort_unstable();
    wanted.sort_unstable();
    Ok(used == wanted && value == BigRational::from_integer(BigInt::from(target)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_follow_precedence_and_are_exact() {
        let value = |t: &str| evaluate(t).unwrap().0;
        let q = |n: i64, d: i64| BigRational::new(n.into(), d.into());
        assert_eq!(value("2 + 3 * 4"), q(14, 1));
        assert_eq!(value("(2 + 3) * 4"), q(20, 1));
        assert_eq!(value("8 / 3 / 2"), q(4, 3));
        assert_eq!(value("8 - 3 - 2"), q(3, 1));
        assert_eq!(value("[8 ÷ (3 - 1)] × 6"), q(24, 1));
        assert_eq!(value("8 / (3 - 8 / 3)"), q(24, 1));
        assert_eq!(evaluate("3 * 8 = 24").unwrap().1, vec![3, 8]);
    }

    #[test]
    fn malformed_expressions_are_errors() {
        for bad in [
            "",
            "2 +",
            "(2 + 3",
            "2 3",
            "-2 + 3",
            "2 ** 3",
            "2 ^ 3",
            "1 / 0",
            "2 + 2 = 5",
            "abs(3)",
            "2 + 3 = 5 = 5",
            "24 or 25",
        ] {
            assert!(evaluate(bad).is_err(), "{bad:?}");
        }
        let deep = format!("{}1{}", "(".repeat(100), ")".repeat(100));
        assert!(evaluate(&deep).is_err());
    }

    #[test]
    fn countdown_needs_exactly_the_given_numbers() {
        assert_eq!(
            check_countdown("(10 - 4) * 4 * 1", &[1, 4, 4, 10], 24),
            Ok(true)
        );
        assert_eq!(
            check_countdown("(10 - 4) * 4", &[1, 4, 4, 10], 24),
            Ok(false)
        );
        assert_eq!(
            check_countdown("(10 - 4) * 4 * 1 * 1", &[1, 4, 4, 10], 24),
            Ok(false)
        );
        assert_eq!(
            check_countdown("(10 - 4) * 4 + 1", &[1, 4, 4, 10], 24),
            Ok(false)
        );
        assert_eq!(
            check_countdown("(10 - 1) * 4 - 4 * 3", &[1, 4, 4, 10], 24),
            Ok(false)
        );
        assert!(check_countdown("24", &[1, 4, 4, 10], 24).is_ok_and(|ok| !ok));
    }
}
