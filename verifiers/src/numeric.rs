//! Exact numbers written as answers: integers, decimals, fractions.
//!
//! Accepts `-12`, `+3`, `0.25`, `-7/3`, `\frac{-7}{3}`, `-\dfrac{7}{3}`,
//! `1,000` (thousands separators) and surrounding `$…$`, with the decoration
//! models put on a number: a currency sign (`\$42`, `€42`, `-\$3`), a percent
//! sign (`42\%`: the number shown, 42), degrees (`42^\circ`, `42°`) and unit
//! words (`42 units`, `12 cm`). Anything else — several numbers, words that
//! offer an alternative, an expression — is not a number: the caller scores
//! it zero. Values are exact rationals; nothing goes through floats. This is
//! the one number reader of every env whose answer is a number.

use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::{One, Zero};

/// Longest numeral accepted (bounded work on hostile input).
const MAX_DIGITS: usize = 400;

/// Parses one exact number, or `None` when `text` is anything else.
pub fn parse_exact_number(text: &str) -> Option<BigRational> {
    let t = text.trim();
    let t = t
        .strip_prefix('$')
        .and_then(|s| s.strip_suffix('$'))
        .unwrap_or(t)
        .trim();
    let t = without_suffix(t);
    let (negative, body) = match t.strip_prefix(['-', '−']) {
        Some(rest) => (true, rest.trim_start()),
        None => (false, t.strip_prefix('+').unwrap_or(t).trim_start()),
    };
    let body = without_currency(body);
    let value = parse_latex_fraction(body).or_else(|| match body.split_once('/') {
        Some((num, den)) => ratio(parse_decimal(num.trim())?, parse_decimal(den.trim())?),
        None => parse_decimal(body),
    })?;
    Some(if negative { -value } else { value })
}

/// Currency signs before a number.
const CURRENCY: [&str; 6] = ["\\$", "$", "€", "£", "¥", "US$"];

/// Marks after a number that keep its value as shown.
const SUFFIXES: [&str; 7] = [
    "\\%",
    "%",
    "^\\circ",
    "^{\\circ}",
    "\\circ",
    "°",
    "\\degree",
];

/// Words that offer another value: never a unit.
const NOT_UNITS: [&str; 7] = ["or", "and", "maybe", "perhaps", "possibly", "either", "not"];

/// Most unit words after a number (`square units`, `km per hour`).
const MAX_UNIT_WORDS: usize = 3;

fn without_currency(body: &str) -> &str {
    CURRENCY
        .iter()
        .find_map(|c| body.strip_prefix(c))
        .map_or(body, str::trim_start)
}

/// The number without unit words, degrees or a percent sign after it.
fn without_suffix(text: &str) -> &str {
    let mut t = text;
    let mut words = 0;
    while let Some((head, last)) = t.rsplit_once(' ') {
        let unit = last
            .trim_end_matches('.')
            .chars()
            .all(|c| c.is_alphabetic() || "²³".contains(c))
            && !last.is_empty()
            && !NOT_UNITS.iter().any(|w| last.eq_ignore_ascii_case(w));
        if !unit || words == MAX_UNIT_WORDS {
            break;
        }
        t = head.trim_end();
        words += 1;
    }
    for suffix in SUFFIXES {
        if let Some(rest) = t.strip_suffix(suffix) {
            return rest.trim_end();
        }
    }
    t
}

fn parse_latex_fraction(body: &str) -> Option<BigRational> {
    let rest = ["\\frac", "\\dfrac", "\\tfrac"]
        .iter()
        .find_map(|p| body.strip_prefix(p))?
        .trim_start();
    let (num, rest) = braced(rest)?;
    let (den, rest) = braced(rest.trim_start())?;
    if !rest.trim().is_empty() {
        return None;
    }
    ratio(parse_exact_number(num)?, parse_exact_number(den)?)
}

/// Splits `{inner}rest` into `(inner, rest)`; no nesting is needed for numbers.
fn braced(text: &str) -> Option<(&str, &str)> {
    let inner = text.strip_prefix('{')?;
    let close = inner.find('}')?;
    Some((&inner[..close], &inner[close + 1..]))
}

fn ratio(num: BigRational, den: BigRational) -> Option<BigRational> {
    (!den.is_zero()).then(|| num / den)
}

/// An unsigned decimal numeral: `123`, `1,234`, `0.5`, `.5`.
fn parse_decimal(text: &str) -> Option<BigRational> {
    if text.is_empty() || text.len() > MAX_DIGITS {
        return None;
    }
    let (int_part, frac_part) = match text.split_once('.') {
        Some((i, f)) => (i, f),
        None => (text, ""),
    };
    let int_digits = strip_thousands(int_part)?;
    if int_digits.is_empty() && frac_part.is_empty() {
        return None;
    }
    if !frac_part.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let digits = format!("{int_digits}{frac_part}");
    let numer: BigInt = if digits.is_empty() {
        BigInt::zero()
    } else {
        digits.parse().ok()?
    };
    let denom = num_traits::pow(BigInt::from(10u32), frac_part.len());
    Some(BigRational::new(numer, denom))
}

/// `1,234,567` → `1234567`; rejects misplaced commas like `12,34`.
fn strip_thousands(text: &str) -> Option<String> {
    if !text.contains(',') {
        return text
            .bytes()
            .all(|b| b.is_ascii_digit())
            .then(|| text.to_string());
    }
    let groups: Vec<&str> = text.split(',').collect();
    let first_ok = (1..=3).contains(&groups[0].len());
    let rest_ok = groups[1..].iter().all(|g| g.len() == 3);
    let digits_ok = groups.iter().all(|g| g.bytes().all(|b| b.is_ascii_digit()));
    (first_ok && rest_ok && digits_ok).then(|| groups.concat())
}

/// Formats a rational the way prompts ask for answers: `-7/3`, `12`.
pub fn format_rational(value: &BigRational) -> String {
    if value.denom().is_one() {
        value.numer().to_string()
    } else {
        format!("{}/{}", value.numer(), value.denom())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn q(n: i64, d: i64) -> BigRational {
        BigRational::new(n.into(), d.into())
    }

    #[test]
    fn parses_the_accepted_forms() {
        assert_eq!(parse_exact_number("-12"), Some(q(-12, 1)));
        assert_eq!(parse_exact_number("+3"), Some(q(3, 1)));
        assert_eq!(parse_exact_number("0.25"), Some(q(1, 4)));
        assert_eq!(parse_exact_number(".5"), Some(q(1, 2)));
        assert_eq!(parse_exact_number("5."), Some(q(5, 1)));
        assert_eq!(parse_exact_number("-7/3"), Some(q(-7, 3)));
        assert_eq!(parse_exact_number("14/6"), Some(q(7, 3)));
        assert_eq!(parse_exact_number("\\frac{-7}{3}"), Some(q(-7, 3)));
        assert_eq!(parse_exact_number("-\\dfrac{7}{3}"), Some(q(-7, 3)));
        assert_eq!(parse_exact_number("1,234"), Some(q(1234, 1)));
        assert_eq!(parse_exact_number("$42$"), Some(q(42, 1)));
    }

    #[test]
    fn decoration_on_a_number_keeps_its_value() {
        for (text, value) in [
            ("\\$1,234", 1234),
            ("-\\$3", -3),
            ("€42", 42),
            ("42\\%", 42),
            ("42%", 42),
            ("42^\\circ", 42),
            ("42°", 42),
            ("42 units", 42),
            ("12 square cm", 12),
            ("−7", -7),
        ] {
            assert_eq!(parse_exact_number(text), Some(q(value, 1)), "{text:?}");
        }
        for bad in ["42 or 43", "42 or so", "not 42", "42 43 units", "units"] {
            assert_eq!(parse_exact_number(bad), None, "{bad:?}");
        }
    }

    #[test]
    fn rejects_everything_else() {
        for bad in [
            "",
            "-",
            "3 or 4",
            "3, 4",
            "12,34",
            "1/0",
            "x",
            "2+2",
            "1e5",
            "\\frac{1}{0}",
            "\\frac{1}{2}3",
            "..5",
            "3 4",
        ] {
            assert_eq!(parse_exact_number(bad), None, "{bad:?} should not parse");
        }
        assert_eq!(parse_exact_number(&"9".repeat(MAX_DIGITS + 1)), None);
    }

    #[test]
    fn formats_in_lowest_terms() {
        assert_eq!(format_rational(&q(14, -6)), "-7/3");
        assert_eq!(format_rational(&q(10, 5)), "2");
    }
}
