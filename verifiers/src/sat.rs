//! CNF formulas: DIMACS text in and out, SAT answers, and assignment checks.
//!
//! An answer to a SAT task is either `UNSAT` (also `UNSATISFIABLE`,
//! `s UNSATISFIABLE`) followed by the numbers of the clauses that form an
//! unsatisfiable subset (its evidence, e.g. `UNSAT: 2 5 9 11`), or a full
//! assignment written as signed literals, one per variable: `1 -2 3`, DIMACS
//! solver output (`v 1 -2 3 0`, with an optional `s SATISFIABLE` line), or
//! `x1=1 x2=0` / `x1=true`. Separators (spaces, commas, colons, newlines) are
//! free; content is strict: every variable exactly once, nothing out of
//! range, no second verdict, nothing but clause numbers after `UNSAT`.

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
pub fn parse_dimacs(text: &str) -> Result<Cnf, String> {
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
            let [kind, vars, count] = fields.as_slice() else {
                return Err(format!("bad header `{line}`"));
            };
            let vars: usize = vars.parse().map_err(|_| format!("bad header `{line}`"))?;
            let count: usize = count.parse().map_err(|_| format!("bad header `{line}`"))?;
            if *kind != "cnf" || vars > MAX_VARS || header.is_some() {
                return Err(format!("bad header `{line}`"));
            }
            header = Some((vars, count));
            continue;
        }
        let (vars, _) = header.ok_or("clause before the `p cnf` header")?;
        for token in line.split_whitespace() {
            let lit: i32 = token
                .parse()
                .map_err(|_| format!("bad literal `{token}`"))?;
            if lit == 0 {
                clauses.push(std::mem::take(&mut current));
            } else if lit.unsigned_abs() as usize > vars {
                return Err(format!("literal {lit} outside 1..={vars}"));
            } else {
                current.push(lit);
            }
        }
    }
    let (num_vars, count) = header.ok_or("no `p cnf` header")?;
    if !current.is_empty() {
        return Err("last clause is not terminated by 0".into());
    }
    if clauses.len() != count {
        return Err(format!(
            "header says {count} clauses, found {}",
            clauses.len()
        ));
    }
    Ok(Cnf { num_vars, clauses })
}

/// Reads a SAT answer for a formula over `num_vars` variables.
///
/// # Errors
/// A message saying what is wrong: unknown words, a variable missing,
/// repeated or out of range, or a verdict mixed with an assignment.
pub fn parse_sat_answer(text: &str, num_vars: usize) -> Result<SatAnswer, String> {
    let cleaned = text.replace([',', ';', ':'], " ");
    let mut tokens: Vec<String> = Vec::new();
    for line in cleaned.lines() {
        let mut words = line.split_whitespace().peekable();
        // Solver-output prefixes: `s VERDICT`, `v literals`.
        if let Some(first) = words.peek()
            && (first.eq_ignore_ascii_case("s") || first.eq_ignore_ascii_case("v"))
        {
            words.next();
        }
        tokens.extend(words.map(str::to_ascii_lowercase));
    }
    let is_unsat = |t: &str| t == "unsat" || t == "unsatisfiable";
    let is_sat = |t: &str| t == "sat" || t == "satisfiable";
    if let Some(first) = tokens.first()
        && is_unsat(first)
    {
        let core = tokens[1..]
            .iter()
            .map(|t| parse_clause_number(t))
            .collect::<Result<Vec<usize>, String>>()?;
        return Ok(SatAnswer::Unsat(core));
    }
    let mut values: Vec<Option<bool>> = vec![None; num_vars];
    let mut literals = 0usize;
    for token in &tokens {
        if is_unsat(token) {
            return Err("UNSAT must come first, followed only by clause numbers".into());
        }
        if is_sat(token) || token == "0" {
            continue;
        }
        let (var, value) = parse_literal(token)?;
        if var == 0 || var > num_vars {
            return Err(format!("variable {var} outside 1..={num_vars}"));
        }
        if values[var - 1].replace(value).is_some() {
            return Err(format!("variable {var} is assigned twice"));
        }
        literals += 1;
    }
    if literals == 0 {
        return Err("no assignment given".into());
    }
    let missing: Vec<usize> = (1..=num_vars)
        .filter(|v| values[v - 1].is_none())
        .take(5)
        .collect();
    if !missing.is_empty() {
        return Err(format!(
            "variables {missing:?} are not assigned (give all {num_vars})"
        ));
    }
    Ok(SatAnswer::Assignment(
        values.into_iter().map(|v| v.unwrap_or(false)).collect(),
    ))
}

/// A clause number after `UNSAT`: a positive decimal integer.
fn parse_clause_number(token: &str) -> Result<usize, String> {
    let bad = || format!("after UNSAT give only clause numbers (1, 2, ...), not `{token}`");
    if token.is_empty() || token.len() > 9 || !token.bytes().all(|b| b.is_ascii_digit()) {
        return Err(bad());
    }
    match token.parse() {
        Ok(0) | Err(_) => Err(bad()),
        Ok(n) => Ok(n),
    }
}

/// `-3`, `3`, `x3=1`, `x3=true`, `x3=0`, `x3=false`, `-x3`, `¬x3` (lower-cased).
fn parse_literal(token: &str) -> Result<(usize, bool), String> {
    let bad = || format!("cannot read `{token}` as a literal");
    if let Some((name, value)) = token.split_once('=') {
        let var = name
            .strip_prefix('x')
            .unwrap_or(name)
            .parse()
            .map_err(|_| bad())?;
        let value = match value {
            "1" | "true" | "t" => true,
            "0" | "false" | "f" => false,
            _ => return Err(bad()),
        };
        return Ok((var, value));
    }
    let (negative, body) = match token.strip_prefix('-').or_else(|| token.strip_prefix('¬')) {
        Some(rest) => (true, rest),
        None => (false, token),
    };
    let body = body.strip_prefix('x').unwrap_or(body);
    if body.is_empty() || !body.bytes().all(|b| b.is_ascii_digit()) || body.len() > 9 {
        return Err(bad());
    }
    Ok((body.parse().map_err(|_| bad())?, !negative))
}

/// Whether every clause has a true literal under `values` (`values[v-1]`).
pub fn satisfies(cnf: &Cnf, values: &[bool]) -> bool {
    values.len() == cnf.num_vars
        && cnf.clauses.iter().all(|clause| {
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

    #[test]
    fn satisfaction_is_checked_clause_by_clause() {
        assert!(satisfies(&cnf(), &[true, true, false]));
        assert!(!satisfies(&cnf(), &[true, false, true]));
        assert!(!satisfies(&cnf(), &[true, true]));
        assert_eq!(format_assignment(&[true, false]), "1 -2");
    }
}
