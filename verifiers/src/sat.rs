//! CNF formulas: DIMACS text in and out, SAT answers, and assignment checks.
//!
//! An answer to a SAT task is either `UNSAT` (also `UNSATISFIABLE`,
//! `s UNSATISFIABLE`) followed by the numbers of the clauses that form an
//! unsatisfiable subset (its evidence, e.g. `UNSAT: 2 5 9 11`), or a full
//! assignment written as signed literals, one per variable: `1 -2 3`, DIMACS
//! solver output (`v 1 -2 3 0`, with an optional `s SATISFIABLE` line), or
//! `x1=1 x2=0` / `x1=true`. Separators (spaces, commas, colons, newlines) are
//! free; content is strict: every variable exactly once, nothing out of
//! range, no second verdict, nothing but clause numbers after `UNSAT`. LaTeX
//! spellings read the same: `x_1`, `x_{1}`, `\neg x_3`, `\lnot x_3`, and spaces
//! around `=` (`x1 = 1`).

use thiserror::Error;

/// Why DIMACS text is not a formula.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum DimacsError {
    #[error("bad header `{0}` (write `p cnf VARIABLES CLAUSES`)")]
    BadHeader(String),
    #[error("clause before the `p cnf` header")]
    ClauseBeforeHeader,
    #[error("no `p cnf` header")]
    NoHeader,
    #[error("bad literal `{0}`")]
    BadLiteral(String),
    #[error("literal {literal} outside 1..={num_vars}")]
    LiteralOutOfRange { literal: i32, num_vars: usize },
    #[error("last clause is not terminated by 0")]
    Unterminated,
    #[error("header says {header} clauses, found {found}")]
    ClauseCount { header: usize, found: usize },
}

/// Why an answer to a SAT task could not be read.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum SatAnswerError {
    #[error("UNSAT must come first, followed only by clause numbers")]
    UnsatNotFirst,
    #[error("after UNSAT give only clause numbers (1, 2, ...), not `{0}`")]
    BadClauseNumber(String),
    #[error("cannot read `{0}` as a literal")]
    BadLiteral(String),
    #[error("variable {var} outside 1..={num_vars}")]
    VariableOutOfRange { var: usize, num_vars: usize },
    #[error("variable {0} is assigned twice")]
    AssignedTwice(usize),
    #[error("no assignment given")]
    NoAssignment,
    #[error("variables {missing:?} are not assigned (give all {num_vars})")]
    Unassigned {
        missing: Vec<usize>,
        num_vars: usize,
    },
}

/// A short quote of model text for an error message.
fn quote(token: &str) -> String {
    token.chars().take(32).collect()
}

/// A CNF formula over variables `1..=num_vars`; literal `-v` is "not v".
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Cnf {
    pub num_vars: usize,
    pub clauses: Vec<Vec<i32>>,
}

/// A parsed answer to a SAT task.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SatAnswer {
    /// `UNSAT` with the clause numbers (1-based, in the order listed) of an
    /// unsatisfiable subset, as given; empty when none were given.
    Unsat(Vec<usize>),
    /// `values[v - 1]` is the value of variable `v`.
    Assignment(Vec<bool>),
}

/// Largest formula the parser accepts (bounded work on hostile input).
pub const MAX_VARS: usize = 100_000;

/// DIMACS CNF text: a `p cnf V C` header and one `0`-terminated clause per line.
pub fn to_dimacs(cnf: &Cnf) -> String {
    let mut out = format!("p cnf {} {}\n", cnf.num_vars, cnf.clauses.len());
    for clause in &cnf.clauses {
        for lit in clause {
            out.push_str(&lit.to_string());
            out.push(' ');
        }
        out.push_str("0\n");
    }
    out
}

/// Parses DIMACS CNF (comments `c …` allowed; clauses may span lines).
///
/// # Errors
/// A missing or malformed header, a literal out of range, a clause count
/// that disagrees with the header, or an unterminated last clause.
pub fn parse_dimacs(text: &str) -> Result<Cnf, DimacsError> {
    let mut header: Option<(usize, usize)> = None;
    let mut clauses = Vec::new();
    let mut current = Vec::new();
    for line in text.lines() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('c') || line.starts_with('%') {
            continue;
        }
        if let Some(rest) = line.strip_prefix('p') {
            let fields: Vec<&str> = rest.split_whitespace().collect();
            let bad = || DimacsError::BadHeader(quote(line));
            let [kind, vars, count] = fields.as_slice() else {
                return Err(bad());
            };
            let vars: usize = vars.parse().map_err(|_| bad())?;
            let count: usize = count.parse().map_err(|_| bad())?;
            if *kind != "cnf" || vars > MAX_VARS || header.is_some() {
                return Err(bad());
            }
            header = Some((vars, count));
            continue;
        }
        let (vars, _) = header.ok_or(DimacsError::ClauseBeforeHeader)?;
        for token in line.split_whitespace() {
            let lit: i32 = token
                .parse()
                .map_err(|_| DimacsError::BadLiteral(quote(token)))?;
            if lit == 0 {
                clauses.push(std::mem::take(&mut current));
            } else if lit.unsigned_abs() as usize > vars {
                return Err(DimacsError::LiteralOutOfRange {
                    literal: lit,
                    num_vars: vars,
                });
            } else {
                current.push(lit);
            }
        }
    }
    let (num_vars, count) = header.ok_or(DimacsError::NoHeader)?;
    if !current.is_empty() {
        return Err(DimacsError::Unterminated);
    }
    if clauses.len() != count {
        return Err(DimacsError::ClauseCount {
            header: count,
            found: clauses.len(),
        });
    }
    Ok(Cnf { num_vars, clauses })
}

/// Reads a SAT answer for a formula over `num_vars` variables.
///
/// # Errors
/// A [`SatAnswerError`] saying what is wrong: unknown words, a variable missing,
/// repeated or out of range, or a verdict mixed with an assignment.
pub fn parse_sat_answer(text: &str, num_vars: usize) -> Result<SatAnswer, SatAnswerError> {
    let cleaned = unlatex(text);
    // Tokens are read lazily, so the first bad one ends the work.
    let mut tokens = cleaned
        .lines()
        .flat_map(|line| {
            let mut words = line.split_whitespace().peekable();
            // Solver-output prefixes: `s VERDICT`, `v literals`.
            if words
                .peek()
                .is_some_and(|w| w.eq_ignore_ascii_case("s") || w.eq_ignore_ascii_case("v"))
            {
                words.next();
            }
            words
        })
        .peekable();
    let is_unsat =
        |t: &str| t.eq_ignore_ascii_case("unsat") || t.eq_ignore_ascii_case("unsatisfiable");
    let is_sat = |t: &str| t.eq_ignore_ascii_case("sat") || t.eq_ignore_ascii_case("satisfiable");
    if tokens.next_if(|t| is_unsat(t)).is_some() {
        let core = tokens
            .map(parse_clause_number)
            .collect::<Result<Vec<usize>, SatAnswerError>>()?;
        return Ok(SatAnswer::Unsat(core));
    }
    let mut values: Vec<Option<bool>> = vec![None; num_vars];
    let mut literals = 0usize;
    for token in tokens {
        if is_unsat(token) {
            return Err(SatAnswerError::UnsatNotFirst);
        }
        if is_sat(token) || token == "0" {
            continue;
        }
        let (var, value) = parse_literal(token)?;
        if var == 0 || var > num_vars {
            return Err(SatAnswerError::VariableOutOfRange { var, num_vars });
        }
        if values[var - 1].replace(value).is_some() {
            return Err(SatAnswerError::AssignedTwice(var));
        }
        literals += 1;
    }
    if literals == 0 {
        return Err(SatAnswerError::NoAssignment);
    }
    let missing: Vec<usize> = (1..=num_vars)
        .filter(|v| values[v - 1].is_none())
        .take(5)
        .collect();
    if !missing.is_empty() {
        return Err(SatAnswerError::Unassigned { missing, num_vars });
    }
    Ok(SatAnswer::Assignment(
        values.into_iter().map(|v| v.unwrap_or(false)).collect(),
    ))
}

/// Separators become spaces and LaTeX spellings plain ones: `\neg x_{3} = 1` →
/// `¬x3=1`, a LaTeX line break `\\` a newline.
fn unlatex(text: &str) -> String {
    let text = text
        .replace("\\\\", "\n")
        .replace("\\lnot", "¬")
        .replace("\\neg", "¬")
        .replace("x_{", "x")
        .replace("x_", "x")
        .replace(['{', '}'], "");
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    while let Some(ch) = chars.next() {
        match ch {
            ',' | ';' | ':' => out.push(' '),
            // `x1 = 1`: no spaces around `=` or after `¬`, so each literal is one token.
            '=' | '¬' => {
                while out.ends_with([' ', '\t']) && ch == '=' {
                    out.pop();
                }
                out.push(ch);
                while chars.next_if(|c| *c == ' ' || *c == '\t').is_some() {}
            }
            c => out.push(c),
        }
    }
    out
}

/// A clause number after `UNSAT`: a positive decimal integer.
fn parse_clause_number(token: &str) -> Result<usize, SatAnswerError> {
    let bad = || SatAnswerError::BadClauseNumber(quote(token));
    if token.is_empty() || token.len() > 9 || !token.bytes().all(|b| b.is_ascii_digit()) {
        return Err(bad());
    }
    match token.parse() {
        Ok(0) | Err(_) => Err(bad()),
        Ok(n) => Ok(n),
    }
}

/// `-3`, `3`, `x3=1`, `x3=true`, `x3=0`, `x3=false`, `-x3`, `¬x3` (ASCII case ignored).
fn parse_literal(token: &str) -> Result<(usize, bool), SatAnswerError> {
    let bad = || SatAnswerError::BadLiteral(quote(token));
    if let Some((name, value)) = token.split_once('=') {
        let var = name
            .strip_prefix(['x', 'X'])
            .unwrap_or(name)
            .parse()
            .map_err(|_| bad())?;
        let is = |words: [&str; 3]| words.iter().any(|w| value.eq_ignore_ascii_case(w));
        let value = if is(["1", "true", "t"]) {
            true
        } else if is(["0", "false", "f"]) {
            false
        } else {
            return Err(bad());
        };
        return Ok((var, value));
    }
    let (negative, body) = match token.strip_prefix('-').or_else(|| token.strip_prefix('¬')) {
        Some(rest) => (true, rest),
        None => (false, token),
    };
    let body = body.strip_prefix(['x', 'X']).unwrap_or(body);
    if body.is_empty() || !body.bytes().all(|b| b.is_ascii_digit()) || body.len() > 9 {
        return Err(bad());
    }
    Ok((body.parse().map_err(|_| bad())?, !negative))
}

/// Whether every clause has a true literal under `values` (`values[v-1]`).
pub fn satisfies(cnf: &Cnf, values: &[bool]) -> bool {
    clauses_satisfied(&cnf.clauses, cnf.num_vars, values)
}

/// [`satisfies`] over clauses held elsewhere (no [`Cnf`] built for one check).
pub fn clauses_satisfied(clauses: &[Vec<i32>], num_vars: usize, values: &[bool]) -> bool {
    values.len() == num_vars
        && clauses.iter().all(|clause| {
            clause.iter().any(|&lit| {
                let value = values[lit.unsigned_abs() as usize - 1];
                if lit > 0 { value } else { !value }
            })
        })
}

/// Formats an assignment as signed literals: `1 -2 3`.
pub fn format_assignment(values: &[bool]) -> String {
    values
        .iter()
        .enumerate()
        .map(|(i, &v)| {
            if v {
                format!("{}", i + 1)
            } else {
                format!("-{}", i + 1)
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn cnf() -> Cnf {
        Cnf {
            num_vars: 3,
            clauses: vec![vec![1, -2], vec![2, 3], vec![-1, -3]],
        }
    }

    #[test]
    fn dimacs_round_trips_and_rejects_malformed_text() {
        let text = to_dimacs(&cnf());
        assert_eq!(text, "p cnf 3 3\n1 -2 0\n2 3 0\n-1 -3 0\n");
        assert_eq!(parse_dimacs(&text).unwrap(), cnf());
        assert_eq!(
            parse_dimacs("c hi\np cnf 3 3\n1 -2\n 0 2 3 0 -1 -3 0\n").unwrap(),
            cnf()
        );
        for bad in [
            "",
            "1 2 0",
            "p cnf 3 2\n1 2 0",
            "p cnf 2 1\n1 3 0",
            "p cnf 2 1\n1 2",
            "p dnf 2 0",
        ] {
            assert!(parse_dimacs(bad).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn answers_in_every_accepted_form() {
        let want = SatAnswer::Assignment(vec![true, false, false]);
        for text in [
            "1 -2 -3",
            "v 1 -2 -3 0",
            "s SATISFIABLE\nv 1 -2 -3 0",
            "x1=1, x2=0, x3=false",
            "-x3 x1 -x2",
            "x_1 = 1, x_2 = 0, x_3 = 0",
            "x_{1}=true, x_{2}=false, x_{3}=false",
            "x_1 \\\\ \\neg x_2 \\\\ \\lnot x_3",
            "x1 = true\nx2 = false\nx3 = false",
        ] {
            assert_eq!(parse_sat_answer(text, 3).unwrap(), want, "{text:?}");
        }
        assert_eq!(
            parse_sat_answer("UNSAT", 3).unwrap(),
            SatAnswer::Unsat(vec![])
        );
        assert_eq!(
            parse_sat_answer("s UNSATISFIABLE", 3).unwrap(),
            SatAnswer::Unsat(vec![])
        );
        for text in ["UNSAT: 4, 2, 9", "unsat 4 2 9", "s UNSATISFIABLE\n4\n2\n9"] {
            assert_eq!(
                parse_sat_answer(text, 3).unwrap(),
                SatAnswer::Unsat(vec![4, 2, 9]),
                "{text:?}"
            );
        }
    }

    #[test]
    fn partial_repeated_hedged_and_junk_answers_are_errors() {
        for bad in [
            "",
            "1 -2",
            "1 -2 -3 4",
            "1 -2 -3 -1",
            "1 -2 -3 UNSAT",
            "UNSAT or 1 -2 -3",
            "UNSAT 1 -2",
            "UNSAT 0 1",
            "UNSAT: clauses 1 2",
            "1 2 UNSAT",
            "yes",
            "1 -2 x",
            "0",
            "1 1 -2 -3",
        ] {
            assert!(parse_sat_answer(bad, 3).is_err(), "{bad:?}");
        }
    }

    proptest! {
        /// Arbitrary and structure-aware text never panics; an assignment that reads
        /// gives every variable once, and errors stay short.
        #[test]
        fn reading_never_panics_and_is_bounded(
            text in prop_oneof![
                any::<String>(),
                prop::collection::vec(
                    prop::sample::select(&[
                        "1", "-2", "3", "x1", "x_{2}", "=", "0", "true", " ", "\n", ",", "v ",
                        "s ", "UNSAT", "SAT", "\\neg", "\\\\", "¬", "{", "é", "99999999999",
                    ][..]),
                    0..60,
                ).prop_map(|f| f.concat()),
            ],
        ) {
            match parse_sat_answer(&text, 3) {
                Ok(SatAnswer::Assignment(values)) => prop_assert_eq!(values.len(), 3),
                Ok(SatAnswer::Unsat(core)) => prop_assert!(core.len() <= text.len()),
                Err(e) => prop_assert!(e.to_string().len() < 200),
            }
            if let Err(e) = parse_dimacs(&text) {
                prop_assert!(e.to_string().len() < 200);
            }
        }
    }

    #[test]
    fn satisfaction_is_checked_clause_by_clause() {
        assert!(satisfies(&cnf(), &[true, true, false]));
        assert!(!satisfies(&cnf(), &[true, false, true]));
        assert!(!satisfies(&cnf(), &[true, true]));
        assert_eq!(format_assignment(&[true, false]), "1 -2");
    }
}
