//! Arithmetic witnesses on exact rationals, read by our own recursive-descent parser
//! (never `eval`): integer and decimal literals, `+ - * /`, `^` or `**` with a small
//! integer exponent, unary minus, parentheses. Division is exact; dividing by zero,
//! exponents beyond ±64 and results with more than 2,000 digits are errors, so the work
//! on hostile text stays bounded.

use crate::core::InvalidAction;
use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::{One, Pow, ToPrimitive, Zero};

/// Longest witness accepted.
pub const MAX_WITNESS_BYTES: usize = 1_000;
const MAX_DEPTH: usize = 40;
const MAX_EXPONENT: i64 = 64;
const MAX_BITS: u64 = 7_000;

/// The exact value of an arithmetic expression.
///
/// # Errors
/// What is malformed, a division by zero, or a value too large.
pub fn evaluate(text: &str) -> Result<BigRational, InvalidAction> {
    if text.len() > MAX_WITNESS_BYTES {
        return Err(format!("witness longer than {MAX_WITNESS_BYTES} bytes").into());
    }
    let tokens = tokenize(text)?;
    let mut parser = Parser { tokens, pos: 0 };
    let value = parser.sum(0)?;
    if parser.pos != parser.tokens.len() {
        return Err(format!(
            "unexpected {:?} after the expression",
            parser.tokens[parser.pos]
        )
        .into());
    }
    Ok(value)
}

#[derive(Clone, Debug, PartialEq)]
enum Token {
    Number(BigRational),
    Op(char),
    Open,
    Close,
}

fn tokenize(text: &str) -> Result<Vec<Token>, InvalidAction> {
    let mut tokens = Vec::new();
    let chars: Vec<char> = text.chars().collect();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        match c {
            '0'..='9' | '.' => {
                let start = i;
                while i < chars.len() && (chars[i].is_ascii_digit() || chars[i] == '.') {
                    i += 1;
                }
                let literal: String = chars[start..i].iter().collect();
                tokens.push(Token::Number(decimal(&literal)?));
                continue;
            }
            '*' if chars.get(i + 1) == Some(&'*') => {
                tokens.push(Token::Op('^'));
                i += 1;
            }
            '+' | '^' | '/' => tokens.push(Token::Op(c)),
            '*' | '×' | '·' => tokens.push(Token::Op('*')),
            '÷' => tokens.push(Token::Op('/')),
            '-' | '−' => tokens.push(Token::Op('-')),
            '(' | '[' => tokens.push(Token::Open),
            ')' | ']' => tokens.push(Token::Close),
            c if c.is_whitespace() => {}
            c => return Err(format!("unexpected `{c}` in the witness").into()),
        }
        i += 1;
    }
    Ok(tokens)
}

/// `12`, `0.25`, `.5` as an exact rational.
fn decimal(literal: &str) -> Result<BigRational, InvalidAction> {
    let (whole, frac) = literal.split_once('.').unwrap_or((literal, ""));
    if frac.contains('.') || (whole.is_empty() && frac.is_empty()) || literal.len() > 200 {
        return Err(format!("malformed number `{literal}`").into());
    }
    let digits = format!("{whole}{frac}");
    let numerator: BigInt = digits
        .parse()
        .map_err(|_| format!("malformed number `{literal}`"))?;
    let denominator = BigInt::from(10u32).pow(frac.len() as u32);
    Ok(BigRational::new(numerator, denominator))
}

struct Parser {
    tokens: Vec<Token>,
    pos: usize,
}

impl Parser {
    fn peek(&self) -> Option<&Token> {
        self.tokens.get(self.pos)
    }

    fn sum(&mut self, depth: usize) -> Result<BigRational, InvalidAction> {
        let mut value = self.product(depth)?;
        while let Some(Token::Op(op @ ('+' | '-'))) = self.peek().cloned() {
            self.pos += 1;
            let rhs = self.product(depth)?;
            value = if op == '+' { value + rhs } else { value - rhs };
            bounded(&value)?;
        }
        Ok(value)
    }

    fn product(&mut self, depth: usize) -> Result<BigRational, InvalidAction> {
        let mut value = self.unary(depth)?;
        while let Some(Token::Op(op @ ('*' | '/'))) = self.peek().cloned() {
            self.pos += 1;
            let rhs = self.unary(depth)?;
            if op == '*' {
                value *= rhs;
            } else if rhs.is_zero() {
                return Err("division by zero in the witness".into());
            } else {
                value /= rhs;
            }
            bounded(&value)?;
        }
        Ok(value)
    }

    fn unary(&mut self, depth: usize) -> Result<BigRational, InvalidAction> {
        match self.peek() {
            Some(Token::Op('-')) => {
                self.pos += 1;
                Ok(-self.unary(depth + 1)?)
            }
            Some(Token::Op('+')) => {
                self.pos += 1;
                self.unary(depth + 1)
            }
            _ => self.power(depth),
        }
    }

    /// `a ^ b` binds tighter than unary minus on its left (`-2^2 = -4`) and is
    /// right-associative.
    fn power(&mut self, depth: usize) -> Result<BigRational, InvalidAction> {
        let base = self.atom(depth)?;
        if self.peek() != Some(&Token::Op('^')) {
            return Ok(base);
        }
        self.pos += 1;
        let exponent = self.unary(depth + 1)?;
        if !exponent.is_integer() {
            return Err("exponents must be integers".into());
        }
        let n = exponent
            .to_integer()
            .to_i64()
            .filter(|n| n.abs() <= MAX_EXPONENT)
            .ok_or_else(|| format!("exponents must be within ±{MAX_EXPONENT}"))?;
        if base.is_zero() && n < 0 {
            return Err("division by zero in the witness".into());
        }
        let mut value = BigRational::one();
        for _ in 0..n.abs() {
            value *= &base;
            bounded(&value)?;
        }
        if n < 0 {
            value = value.recip();
        }
        Ok(value)
    }

    fn atom(&mut self, depth: usize) -> Result<BigRational, InvalidAction> {
        if depth > MAX_DEPTH {
            return Err("witness nested too deeply".into());
        }
        match self.peek().cloned() {
            Some(Token::Number(n)) => {
                self.pos += 1;
                Ok(n)
            }
            Some(Token::Open) => {
                self.pos += 1;
                let value = self.sum(depth + 1)?;
                if self.peek() != Some(&Token::Close) {
                    return Err("missing `)` in the witness".into());
                }
                self.pos += 1;
                Ok(value)
            }
            other => Err(format!("expected a number or `(`, found {other:?}").into()),
        }
    }
}

fn bounded(value: &BigRational) -> Result<(), InvalidAction> {
    if value.numer().bits() + value.denom().bits() > MAX_BITS {
        return Err("the witness's value is too large".into());
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn q(n: i64, d: i64) -> BigRational {
        BigRational::new(n.into(), d.into())
    }

    #[test]
    fn evaluates_exactly() {
        assert_eq!(evaluate("1/3 + 1/6").unwrap(), q(1, 2));
        assert_eq!(evaluate("-2^2").unwrap(), q(-4, 1));
        assert_eq!(evaluate("(-2)**3").unwrap(), q(-8, 1));
        assert_eq!(evaluate("2^-2").unwrap(), q(1, 4));
        assert_eq!(evaluate("2^3^2").unwrap(), q(512, 1));
        assert_eq!(evaluate("0.25 * [4 - -4]").unwrap(), q(2, 1));
        assert_eq!(evaluate("7 - 2 - 1").unwrap(), q(4, 1));
        assert_eq!(evaluate("12 / 4 / 3").unwrap(), q(1, 1));
    }

    #[test]
    fn refuses_what_is_not_arithmetic() {
        for text in [
            "",
            "1/0",
            "0^-1",
            "2^0.5",
            "2^1000",
            "x + 1",
            "__import__('os')",
            "1 2",
            "(1",
            "1..2",
            "9^64^64",
        ] {
            assert!(evaluate(text).is_err(), "{text:?}");
        }
        assert!(evaluate(&"(".repeat(100)).is_err());
        assert!(evaluate(&"9*".repeat(600)).is_err());
    }
}
