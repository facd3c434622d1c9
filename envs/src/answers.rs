//! Answers that must never pay off: the empty answer, yes/no, small
//! numbers, multiple-choice letters, SAT verdicts, "infeasible", "I don't
//! know". The env checker plays each of them on every env; envs whose
//! generators could draw one as a solution (wordle words) draw again.

/// Answers that must never pay off across many tasks.
pub const DEGENERATE_ANSWERS: &[&str] = &[
    "",
    " ",
    "0",
    "1",
    "-1",
    "2",
    "yes",
    "no",
    "true",
    "false",
    "A",
    "B",
    "C",
    "D",
    "none",
    "\\boxed{}",
    "\\boxed{0}",
    "\\boxed{1}",
    "UNSAT",
    "SAT",
    "infeasible",
    "I don't know",
];
