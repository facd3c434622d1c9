//! Mutation testing of hidden tests: simple wrong versions ("mutants") of a reference
//! solution must fail the tests, or the tests cannot tell a right program from a nearly
//! right one.
//!
//! [`mutants`] writes the mutants of a Python, C or C++ source **as text** on the host
//! (nothing is executed here): each changes one token of the code (comments, strings and
//! preprocessor lines are skipped) by one of the [`Operator`]s:
//! * an integer constant `n` becomes `n + 1` or `n - 1`;
//! * a comparison `<` ↔ `<=`, `>` ↔ `>=`, `==` ↔ `!=`;
//! * arithmetic `+` ↔ `-`, `*` → `/` (Python `//`), `/` and `//` → `*`, `%` → `/`
//!   (Python `//`), `**` → `*`, `+=` ↔ `-=`, C `++` ↔ `--`;
//! * a logical connective `and` ↔ `or`, `&&` ↔ `||`;
//! * a Python loop bound: `range(a, b)`'s `b` (or `range(b)`'s) becomes `(b) + 1` or
//!   `(b) - 1`, its `a` `(a) + 1` or `(a) - 1` (C loop bounds are comparisons and
//!   constants, covered above);
//! * a sibling name: `bisect_left` ↔ `bisect_right`, `min` ↔ `max`.
//!
//! [`check_mutants`] runs every mutant through the caller's judge (which runs it in the
//! WASM sandbox on the tests under study) and returns the survivors. It is what the
//! generated code families are checked with in CI (`mutation::…` trials of the env gate)
//! and what an importer calls to report, per row, how many mutants of the row's reference
//! survive the row's tests.

mod lex;

use rayon::prelude::*;
use verigym_sandbox::{Language, Verdict};

use crate::sandboxed::SandboxedError;
use lex::{Kind, Syntax, Tok, tokens};

/// At most this many mutants are judged per source (evenly spaced over the full list,
/// so the choice is deterministic); bounded work for long imported solutions.
pub const MAX_MUTANTS: usize = 400;

/// The kind of change a mutant makes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Operator {
    Constant,
    Comparison,
    Arithmetic,
    Logical,
    LoopBound,
    Name,
}

/// One mutant: the changed source and where and how it differs from the original.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mutant {
    pub operator: Operator,
    /// 1-based line of the change.
    pub line: usize,
    /// The original text and its replacement.
    pub from: String,
    pub to: String,
    /// The whole mutated source.
    pub source: String,
}

impl Mutant {
    /// The mutated line, trimmed (for reports and equivalence lists).
    pub fn line_text(&self) -> &str {
        self.source
            .lines()
            .nth(self.line - 1)
            .unwrap_or_default()
            .trim()
    }
}

impl std::fmt::Display for Mutant {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "line {}: `{}` -> `{}` ({:?}): {}",
            self.line,
            self.from,
            self.to,
            self.operator,
            self.line_text()
        )
    }
}

/// What running the mutants gave.
#[derive(Clone, Debug, Default)]
pub struct MutationReport {
    /// Mutants written (before the cap on how many are judged).
    pub written: usize,
    /// Mutants judged.
    pub judged: usize,
    /// Failed the tests.
    pub killed: usize,
    /// Did not compile (C/C++) or was not valid Python: says nothing about the tests.
    pub stillborn: usize,
    /// Passed every test: the tests cannot tell these from the reference.
    pub survivors: Vec<Mutant>,
    /// The sandbox gave no verdict (the reason), counted in neither of the above.
    pub no_verdict: Vec<(Mutant, SandboxedError)>,
}

impl MutationReport {
    /// Survivors among the mutants that ran (stillborn and unjudged ones left out).
    pub fn survival_rate(&self) -> f64 {
        let ran = self.killed + self.survivors.len();
        if ran == 0 {
            0.0
        } else {
            self.survivors.len() as f64 / ran as f64
        }
    }
}

/// Why a mutation check could not be made.
#[derive(Debug, thiserror::Error)]
pub enum MutationError {
    #[error(
        "the reference itself does not pass the tests ({0}); fix the reference or its tests first"
    )]
    ReferenceFails(String),
    #[error("the sandbox gave no verdict on the reference: {0}")]
    NoVerdict(#[source] SandboxedError),
}

/// Writes every mutant of `source` (see the module docs), in source order, without
/// duplicates.
pub fn mutants(language: Language, source: &str) -> Vec<Mutant> {
    let syntax = match language {
        Language::Python => Syntax::Python,
        Language::C | Language::Cpp => Syntax::C,
    };
    let toks = tokens(source, syntax);
    let mut edits: Vec<(Operator, usize, usize, String)> = Vec::new();
    for (n, tok) in toks.iter().enumerate() {
        let text = &source[tok.start..tok.end];
        let mut edit = |op, to: String| edits.push((op, tok.start, tok.end, to));
        match tok.kind {
            Kind::Int => {
                if let Ok(value) = text.parse::<u64>() {
                    edit(Operator::Constant, (value + 1).to_string());
                    if value > 0 {
                        edit(Operator::Constant, (value - 1).to_string());
                    }
                }
            }
            Kind::Op => {
                if identity_operand(source, &toks[n + 1..], text) {
                    continue;
                }
                for (op, to) in operator_swaps(text, syntax) {
                    edit(op, to.to_string());
                }
            }
            Kind::Name => {
                if let Some(to) = name_swap(text, syntax) {
                    edit(Operator::Name, to.to_string());
                }
                if syntax == Syntax::Python && text == "range" {
                    edits.extend(range_bounds(source, &toks, n));
                }
            }
        }
    }
    let mut seen = std::collections::HashSet::new();
    edits
        .into_iter()
        .filter_map(|(operator, start, end, to)| {
            let source_out = format!("{}{to}{}", &source[..start], &source[end..]);
            seen.insert(source_out.clone()).then(|| Mutant {
                operator,
                line: source[..start].matches('\n').count() + 1,
                from: source[start..end].to_string(),
                to,
                source: source_out,
            })
        })
        .collect()
}

fn operator_swaps(op: &str, syntax: Syntax) -> Vec<(Operator, &'static str)> {
    use Operator::{Arithmetic, Comparison, Logical};
    let py = syntax == Syntax::Python;
    let swaps: &[(Operator, &'static str)] = match op {
        "<" => &[(Comparison, "<=")],
        "<=" => &[(Comparison, "<")],
        ">" => &[(Comparison, ">=")],
        ">=" => &[(Comparison, ">")],
        "==" => &[(Comparison, "!=")],
        "!=" => &[(Comparison, "==")],
        "+" => &[(Arithmetic, "-")],
        "-" => &[(Arithmetic, "+")],
        "*" if py => &[(Arithmetic, "//")],
        "*" => &[(Arithmetic, "/")],
        "/" | "//" => &[(Arithmetic, "*")],
        "%" if py => &[(Arithmetic, "//")],
        "%" => &[(Arithmetic, "/")],
        "**" => &[(Arithmetic, "*")],
        "+=" => &[(Arithmetic, "-=")],
        "-=" => &[(Arithmetic, "+=")],
        "++" => &[(Arithmetic, "--")],
        "--" => &[(Arithmetic, "++")],
        "&&" => &[(Logical, "||")],
        "||" => &[(Logical, "&&")],
        _ => &[],
    };
    swaps.to_vec()
}

/// Whether `op` applies its identity (`+ 0`, `- 0`, `* 1`, `/ 1`, `// 1`, `** 1`, the
/// constant possibly signed and parenthesised): swapping such an operator changes nothing,
/// so the mutant is not written.
fn identity_operand(source: &str, rest: &[Tok], op: &str) -> bool {
    let identity = match op {
        "+" | "-" => "0",
        "*" | "/" | "//" | "**" => "1",
        _ => return false,
    };
    let text = |t: &Tok| &source[t.start..t.end];
    let mut i = 0;
    while rest
        .get(i)
        .is_some_and(|t| matches!(text(t), "(" | "-" | "+"))
    {
        i += 1;
    }
    let Some(constant) = rest.get(i) else {
        return false;
    };
    // The operand ends right after the constant (a closing bracket, a separator or the
    // end), so the operator applies to the constant alone.
    let ends = rest.get(i + 1).is_none_or(|t| {
        matches!(
            text(t),
            ")" | "]"
                | "}"
                | ","
                | ":"
                | ";"
                | "+"
                | "-"
                | "<"
                | ">"
                | "<="
                | ">="
                | "=="
                | "!="
                | "if"
                | "for"
                | "and"
                | "or"
                | "&&"
                | "||"
                | "?"
        )
    });
    constant.kind == Kind::Int && text(constant) == identity && ends
}

fn name_swap(name: &str, syntax: Syntax) -> Option<&'static str> {
    match (name, syntax) {
        ("and", Syntax::Python) => Some("or"),
        ("or", Syntax::Python) => Some("and"),
        ("bisect_left", Syntax::Python) => Some("bisect_right"),
        ("bisect_right", Syntax::Python) => Some("bisect_left"),
        ("min", _) => Some("max"),
        ("max", _) => Some("min"),
        _ => None,
    }
}

/// The loop-bound edits of the `range(...)` call whose name is token `n`.
fn range_bounds(source: &str, toks: &[Tok], n: usize) -> Vec<(Operator, usize, usize, String)> {
    let text = |t: &Tok| &source[t.start..t.end];
    if toks.get(n + 1).map(text) != Some("(") {
        return Vec::new();
    }
    // The top-level arguments' token ranges, up to the matching `)`.
    let (mut depth, mut args, mut first) = (0usize, Vec::new(), n + 2);
    for (i, tok) in toks.iter().enumerate().skip(n + 1) {
        match text(tok) {
            "(" | "[" | "{" => depth += 1,
            ")" | "]" | "}" => {
                depth -= 1;
                if depth == 0 {
                    if i > first {
                        args.push((first, i - 1));
                    }
                    break;
                }
            }
            "," if depth == 1 => {
                args.push((first, i - 1));
                first = i + 1;
            }
            _ => {}
        }
    }
    let bounds: &[usize] = match args.len() {
        1 => &[0],
        2 | 3 => &[1, 0],
        _ => &[],
    };
    let mut out = Vec::new();
    for &k in bounds {
        let (a, b) = args[k];
        let (start, end) = (toks[a].start, toks[b].end);
        let arg = &source[start..end];
        for delta in ["+ 1", "- 1"] {
            out.push((Operator::LoopBound, start, end, format!("({arg}) {delta}")));
        }
    }
    out
}

/// Judges every mutant of `reference` (at most [`MAX_MUTANTS`]) with `judge`, which runs
/// a source on the tests under study in the sandbox; first checks that the reference
/// itself passes.
///
/// # Errors
/// [`MutationError::ReferenceFails`] when the reference fails the tests,
/// [`MutationError::NoVerdict`] when the judge cannot run it.
pub fn check_mutants<J>(
    language: Language,
    reference: &str,
    judge: J,
) -> Result<MutationReport, MutationError>
where
    J: Fn(&str) -> Result<Verdict, SandboxedError> + Sync,
{
    check_mutants_at_most(language, reference, MAX_MUTANTS, judge)
}

/// [`check_mutants`] judging at most `max` mutants (evenly spaced over the full list):
/// an importer checks thousands of rows and affords a few dozen per row.
///
/// # Errors
/// As [`check_mutants`].
pub fn check_mutants_at_most<J>(
    language: Language,
    reference: &str,
    max: usize,
    judge: J,
) -> Result<MutationReport, MutationError>
where
    J: Fn(&str) -> Result<Verdict, SandboxedError> + Sync,
{
    match judge(reference) {
        Ok(Verdict::Passed) => {}
        Ok(other) => return Err(MutationError::ReferenceFails(format!("{other:?}"))),
        Err(reason) => return Err(MutationError::NoVerdict(reason)),
    }
    let all = mutants(language, reference);
    let written = all.len();
    let max = max.max(1);
    let chosen: Vec<Mutant> = if written > max {
        (0..max).map(|i| all[i * written / max].clone()).collect()
    } else {
        all
    };
    let fates: Vec<(Mutant, Result<Verdict, SandboxedError>)> = chosen
        .into_par_iter()
        .map(|m| {
            let verdict = judge(&m.source);
            (m, verdict)
        })
        .collect();
    let mut report = MutationReport {
        written,
        judged: fates.len(),
        ..MutationReport::default()
    };
    for (mutant, verdict) in fates {
        match verdict {
            Ok(Verdict::Passed) => report.survivors.push(mutant),
            Ok(v) if stillborn(&v) => report.stillborn += 1,
            Ok(_) => report.killed += 1,
            Err(reason) => report.no_verdict.push((mutant, reason)),
        }
    }
    Ok(report)
}

/// A verdict that says the mutant is not a program at all.
fn stillborn(verdict: &Verdict) -> bool {
    match verdict {
        Verdict::CompileError { .. } => true,
        Verdict::RuntimeError { msg } => msg.contains("SyntaxError"),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn changes(language: Language, src: &str) -> Vec<String> {
        mutants(language, src)
            .iter()
            .map(|m| format!("{}:{}>{}", m.line, m.from, m.to))
            .collect()
    }

    #[test]
    fn python_mutants_cover_each_operator_and_skip_strings() {
        let src = "import bisect\ndef f(xs, t):\n    # 3 < 4\n    s = 'x<1'\n    \
                   if t <= 2 and xs:\n        return bisect.bisect_left(xs, t) + min(xs)\n    \
                   return sum(x * 2 for x in range(1, len(xs)))\n";
        let got = changes(Language::Python, src);
        for want in [
            "5:2>3",
            "5:2>1",
            "5:<=><",
            "5:and>or",
            "6:bisect_left>bisect_right",
            "6:+>-",
            "6:min>max",
            "7:*>//",
            "7:len(xs)>(len(xs)) + 1",
            "7:len(xs)>(len(xs)) - 1",
            "7:1>(1) + 1",
        ] {
            assert!(
                got.contains(&want.to_string()),
                "{want} missing from {got:?}"
            );
        }
        assert!(
            !got.iter()
                .any(|g| g.starts_with("3:") || g.starts_with("4:"))
        );
        for m in mutants(Language::Python, src) {
            assert_ne!(m.source, src);
        }
    }

    #[test]
    fn c_mutants_leave_directives_and_literals_alone() {
        let src = "#include <stdint.h>\nint64_t f(int64_t n) {\n    int64_t c = 0; /* 7 */\n    \
                   for (int64_t i = 0; i < n; i++) if (i % 3 == 1 && i != 4) c += i;\n    \
                   return c;\n}\n";
        let got = changes(Language::C, src);
        for want in [
            "4:<><=", "4:++>--", "4:%>/", "4:==>!=", "4:&&>||", "4:3>4", "4:3>2", "4:+=>-=",
            "3:0>1",
        ] {
            assert!(
                got.contains(&want.to_string()),
                "{want} missing from {got:?}"
            );
        }
        assert!(!got.iter().any(|g| g.starts_with("1:")), "{got:?}");
        assert!(!got.contains(&"3:7>8".to_string()));
    }

    #[test]
    fn survivors_are_those_the_judge_passes() {
        let src = "def f(x):\n    return x + 1\n";
        // A stand-in judge that passes the reference's text only.
        let judge = |code: &str| -> Result<Verdict, SandboxedError> {
            Ok(if code.contains("x + 1") || code.contains("x - -1") {
                Verdict::Passed
            } else {
                Verdict::OutOfFuel
            })
        };
        let report = check_mutants(Language::Python, src, judge).unwrap();
        assert_eq!(report.written, 3);
        assert_eq!(report.killed, 3);
        assert!(report.survivors.is_empty());
        let lenient = |_: &str| -> Result<Verdict, SandboxedError> { Ok(Verdict::Passed) };
        let report = check_mutants(Language::Python, src, lenient).unwrap();
        assert_eq!(report.survivors.len(), 3);
        assert!((report.survival_rate() - 1.0).abs() < 1e-12);
        let failing = |_: &str| -> Result<Verdict, SandboxedError> { Ok(Verdict::OutOfFuel) };
        assert!(matches!(
            check_mutants(Language::Python, src, failing),
            Err(MutationError::ReferenceFails(_))
        ));
    }
}
