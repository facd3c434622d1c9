//! Arithmetic expressions for countdown / 24-game answers, on exact rationals.
//!
//! Our own recursive-descent parser (never `eval`): non-negative integer
//! literals, `+ - * /` (also `×`, `x`, `·`, `÷`, `−`, and LaTeX `\times`, `\cdot`,
//! `\ast`, `\div`), parentheses or square brackets (also `\left(` … `\right)`),
//! `\frac{a}{b}`, usual precedence, left to right. LaTeX spacing (`\,`, `\;`, `\!`,
//! `\quad`) is spacing. No unary minus, no exponents, no concatenation of digits, and
//! plain braces only as `\frac` arguments (a brace group is invisible when rendered, so
//! `{2+3} \times 4` would read as 2 + 3 × 4). An optional trailing `= N` is allowed and
//! must equal the value. Division is exact; dividing by zero is an error.

use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::Zero;
use thiserror::Error;

/// Longest answer accepted (bounded work on hostile input).
pub const MAX_EXPRESSION_BYTES: usize = 2_000;
const MAX_DEPTH: usize = 64;

/// Why an answer is not a well-formed expression.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum ExpressionError {
    #[error("expression is {0} bytes, over the {MAX_EXPRESSION_BYTES}-byte cap")]
    TooLong(usize),
    #[error("number too large")]
    NumberTooLarge,
    #[error("unexpected `{0}` in the expression (use numbers, + - * / and parentheses)")]
    UnexpectedChar(char),
    #[error(
        "unknown command `\\{0}` in the expression (use + - * / or \\times, \\cdot, \\div, \\frac)"
    )]
    UnknownCommand(String),
    #[error("division by zero")]
    DivisionByZero,
    #[error("parentheses nested more than {MAX_DEPTH} deep")]
    TooDeep,
    #[error("missing `{0}`")]
    Missing(char),
    #[error("expected a number or `(`, found {0}")]
    ExpectedOperand(String),
    #[error("unexpected text after the expression")]
    TrailingText,
    #[error("the expression does not equal {0}")]
    WrongResult(u64),
}

#[derive(Clone, Debug, PartialEq)]
enum Token {
    Number(u64),
    Op(char),
    Open,
    Close,
    /// `{` and `}`: only as `\frac` arguments.
    OpenBrace,
    CloseBrace,
    Frac,
    Equals,
}

impl Token {
    fn describe(token: Option<&Token>) -> String {
        match token {
            None => "the end".into(),
            Some(Token::Number(n)) => format!("`{n}`"),
            Some(Token::Op(op)) => format!("`{op}`"),
            Some(Token::Open) => "`(`".into(),
            Some(Token::Close) => "`)`".into(),
            Some(Token::OpenBrace) => "`{` (braces only hold \\frac arguments)".into(),
            Some(Token::CloseBrace) => "`}`".into(),
            Some(Token::Frac) => "`\\frac`".into(),
            Some(Token::Equals) => "`=`".into(),
        }
    }
}

/// What a LaTeX command means in an expression.
enum Command {
    Token(Token),
    /// Spacing and delimiter sizing (`\,`, `\left`, `\big`): nothing.
    Nothing,
}

fn command(name: &str) -> Option<Command> {
    Some(match name {
        "times" | "cdot" | "ast" => Command::Token(Token::Op('*')),
        "div" => Command::Token(Token::Op('/')),
        "frac" | "dfrac" | "tfrac" => Command::Token(Token::Frac),
        "left" | "right" | "big" | "Big" | "bigg" | "Bigg" | "bigl" | "bigr" | "Bigl" | "Bigr"
        | "biggl" | "biggr" | "Biggl" | "Biggr" | "quad" | "qquad" | "," | ";" | ":" | "!"
        | " " => Command::Nothing,
        _ => return None,
    })
}

fn tokenize(text: &str) -> Result<Vec<Token>, ExpressionError> {
    if text.len() > MAX_EXPRESSION_BYTES {
        return Err(ExpressionError::TooLong(text.len()));
    }
    let mut tokens = Vec::new();
    let mut chars = text.char_indices().peekable();
    while let Some((at, ch)) = chars.next() {
        let token = match ch {
            '0'..='9' => {
                let mut value = u64::from(ch as u8 - b'0');
                while let Some(d) = chars.peek().and_then(|(_, c)| c.to_digit(10)) {
                    value = value
                        .checked_mul(10)
                        .and_then(|v| v.checked_add(u64::from(d)))
                        .ok_or(ExpressionError::NumberTooLarge)?;
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
            '{' => Token::OpenBrace,
            '}' => Token::CloseBrace,
            '=' => Token::Equals,
            '\\' => {
                let rest = &text[at + 1..];
                let letters = rest.bytes().take_while(u8::is_ascii_alphabetic).count();
                let name_len = match letters {
                    0 => rest.chars().next().map_or(0, char::len_utf8),
                    n => n,
                };
                let name = &rest[..name_len];
                for _ in 0..name.chars().count() {
                    chars.next();
                }
                match command(name) {
                    Some(Command::Token(token)) => token,
                    Some(Command::Nothing) => continue,
                    None => {
                        return Err(ExpressionError::UnknownCommand(
                            name.chars().take(24).collect(),
                        ));
                    }
                }
            }
            c if c.is_whitespace() => continue,
            c => return Err(ExpressionError::UnexpectedChar(c)),
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

    fn expr(&mut self, depth: usize) -> Result<BigRational, ExpressionError> {
        let mut value = self.term(depth)?;
        while let Some(Token::Op(op @ ('+' | '-'))) = self.peek().cloned() {
            self.pos += 1;
            let rhs = self.term(depth)?;
            value = if op == '+' { value + rhs } else { value - rhs };
        }
        Ok(value)
    }

    fn term(&mut self, depth: usize) -> Result<BigRational, ExpressionError> {
        let mut value = self.factor(depth)?;
        while let Some(Token::Op(op @ ('*' | '/'))) = self.peek().cloned() {
            self.pos += 1;
            let rhs = self.factor(depth)?;
            if op == '*' {
                value *= rhs;
            } else {
                if rhs.is_zero() {
                    return Err(ExpressionError::DivisionByZero);
                }
                value /= rhs;
            }
        }
        Ok(value)
    }

    fn factor(&mut self, depth: usize) -> Result<BigRational, ExpressionError> {
        if depth > MAX_DEPTH {
            return Err(ExpressionError::TooDeep);
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
                self.expect(&Token::Close, ')')?;
                Ok(value)
            }
            Some(Token::Frac) => {
                self.pos += 1;
                let numerator = self.frac_argument(depth)?;
                let denominator = self.frac_argument(depth)?;
                if denominator.is_zero() {
                    return Err(ExpressionError::DivisionByZero);
                }
                Ok(numerator / denominator)
            }
            other => Err(ExpressionError::ExpectedOperand(Token::describe(
                other.as_ref(),
            ))),
        }
    }

    /// `{expression}` after `\\frac`.
    fn frac_argument(&mut self, depth: usize) -> Result<BigRational, ExpressionError> {
        self.expect(&Token::OpenBrace, '{')?;
        let value = self.expr(depth + 1)?;
        self.expect(&Token::CloseBrace, '}')?;
        Ok(value)
    }

    fn expect(&mut self, token: &Token, shown: char) -> Result<(), ExpressionError> {
        if self.peek() != Some(token) {
            return Err(ExpressionError::Missing(shown));
        }
        self.pos += 1;
        Ok(())
    }
}

/// Parses and values an expression; returns the value and the numbers it
/// uses, in order of appearance.
///
/// # Errors
/// Malformed text, division by zero, or a trailing `= N` that disagrees.
pub fn evaluate(text: &str) -> Result<(BigRational, Vec<u64>), ExpressionError> {
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
                return Err(ExpressionError::WrongResult(n));
            }
        }
        _ => return Err(ExpressionError::TrailingText),
    }
    Ok((value, parser.numbers))
}

/// Whether `text` uses exactly the multiset `numbers` and equals `target`.
///
/// # Errors
/// As [`evaluate`]: the answer is not a well-formed expression.
pub fn check_countdown(text: &str, numbers: &[u64], target: i64) -> Result<bool, ExpressionError> {
    let (value, mut used) = evaluate(text)?;
    let mut wanted = numbers.to_vec();
    used.sort_unstable();
    wanted.sort_unstable();
    Ok(used == wanted && value == BigRational::from_integer(BigInt::from(target)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

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
        assert_eq!(evaluate(&deep), Err(ExpressionError::TooDeep));
        assert_eq!(evaluate("1 / 0"), Err(ExpressionError::DivisionByZero));
        assert_eq!(evaluate("2 + 2 = 5"), Err(ExpressionError::WrongResult(5)));
        assert_eq!(
            evaluate("2 \\pm 3"),
            Err(ExpressionError::UnknownCommand("pm".into()))
        );
    }

    #[test]
    fn latex_operators_are_operators() {
        let value = |t: &str| evaluate(t).map(|v| v.0);
        let q = |n: i64, d: i64| Ok(BigRational::new(n.into(), d.into()));
        assert_eq!(value("(10 - 4) \\times 4 \\times 1"), q(24, 1));
        assert_eq!(value("8 \\div (3 - 8 \\div 3)"), q(24, 1));
        assert_eq!(value("6 \\cdot 4"), q(24, 1));
        assert_eq!(value("3\\ast 8"), q(24, 1));
        assert_eq!(value("\\left( 10 - 4 \\right) \\times 4"), q(24, 1));
        assert_eq!(value("\\left[ 2 + 1 \\right] \\times\\,8"), q(24, 1));
        assert_eq!(value("\\frac{8}{3 - \\frac{8}{3}}"), q(24, 1));
        assert_eq!(value("\\dfrac{6}{4} \\times 16 = 24"), q(24, 1));
        assert_eq!(value("\\bigl(1+2\\bigr)\\quad\\times 8"), q(24, 1));
        for bad in [
            // A brace group is invisible when rendered: not a parenthesis.
            "{2 + 1} \\times 8",
            "\\frac{8}",
            "\\frac{8}{0}",
            "\\frac 8 3",
            "\\times 3",
            "3 \\\\ 8",
            "\\",
        ] {
            assert!(evaluate(bad).is_err(), "{bad:?}");
        }
        assert_eq!(
            check_countdown("(10 - 4) \\times 4 \\div 1", &[1, 4, 4, 10], 24),
            Ok(true)
        );
    }

    proptest! {
        /// Arbitrary and structure-aware text never panics, never panics the rational
        /// arithmetic, and errors stay short.
        #[test]
        fn reading_never_panics_and_is_bounded(
            text in prop_oneof![
                any::<String>(),
                prop::collection::vec(
                    prop::sample::select(&[
                        "1", "24", "99999999999", "+", "-", "*", "/", "(", ")", "[", "{", "}",
                        "\\times", "\\div", "\\frac", "\\left(", "\\right)", "\\,", "\\",
                        "=", " ", "×", "é", "x",
                    ][..]),
                    0..80,
                ).prop_map(|f| f.concat()),
            ],
        ) {
            match evaluate(&text) {
                Ok((_, numbers)) => prop_assert!(numbers.len() <= text.len()),
                Err(e) => prop_assert!(e.to_string().len() < 200),
            }
        }
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
