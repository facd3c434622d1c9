//! The one list of degenerate answers: constant replies (empty, `0`, `yes`,
//! `infeasible`, …) that a policy can give without reading the task, so
//! none of them may ever pass.
//!
//! Each entry says where it is used ([`Role`]). The roles differ because two
//! of them act at generation time, where a new entry would change which tasks
//! are drawn (a version bump of every env concerned); the env checker acts
//! only in tests, so it may check more than the generation screens reject.

/// Where a degenerate answer is used.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Role {
    /// The env checker plays it as a constant agent on every single-agent env
    /// and fails an env it passes too often. Wordle's generation also uses
    /// this set: it never draws one of these words as the secret.
    Checker,
    /// Math generation redraws a task whose reference answer is equivalent
    /// to it (the single-answer math envs).
    MathGeneration,
    /// The tool and web generation screen redraws a task that answering it
    /// at once (`answer(TEXT)`) solves.
    ToolGeneration,
}

use Role::{Checker, MathGeneration, ToolGeneration};

/// One degenerate answer and the roles it plays.
#[derive(Clone, Copy, Debug)]
pub struct DegenerateAnswer {
    pub text: &'static str,
    pub roles: &'static [Role],
}

const fn entry(text: &'static str, roles: &'static [Role]) -> DegenerateAnswer {
    DegenerateAnswer { text, roles }
}

/// Every degenerate answer. `done` is screened only at tool generation:
/// adding it to the checker's set would change the secrets wordle draws.
pub const DEGENERATE_ANSWERS: &[DegenerateAnswer] = &[
    entry("", &[Checker, ToolGeneration]),
    entry(" ", &[Checker]),
    entry("0", &[Checker, MathGeneration, ToolGeneration]),
    entry("1", &[Checker, MathGeneration, ToolGeneration]),
    entry("-1", &[Checker, MathGeneration]),
    entry("2", &[Checker, MathGeneration, ToolGeneration]),
    entry("yes", &[Checker, MathGeneration, ToolGeneration]),
    entry("no", &[Checker, MathGeneration, ToolGeneration]),
    entry("true", &[Checker, MathGeneration]),
    entry("false", &[Checker, MathGeneration]),
    entry("A", &[Checker]),
    entry("B", &[Checker]),
    entry("C", &[Checker]),
    entry("D", &[Checker]),
    entry("none", &[Checker, ToolGeneration]),
    entry("\\boxed{}", &[Checker]),
    entry("\\boxed{0}", &[Checker]),
    entry("\\boxed{1}", &[Checker]),
    entry("UNSAT", &[Checker]),
    entry("SAT", &[Checker]),
    entry("infeasible", &[Checker, ToolGeneration]),
    entry("I don't know", &[Checker]),
    entry("done", &[ToolGeneration]),
];

/// The degenerate answers that play `role`, in list order.
pub fn degenerate_answers(role: Role) -> impl Iterator<Item = &'static str> + Clone {
    DEGENERATE_ANSWERS
        .iter()
        .filter(move |a| a.roles.contains(&role))
        .map(|a| a.text)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn set(role: Role) -> Vec<&'static str> {
        let mut texts: Vec<_> = degenerate_answers(role).collect();
        texts.sort_unstable();
        texts
    }

    /// The generation-time sets are exactly those that made today's tasks:
    /// changing one changes generated tasks (a version bump, not an edit).
    #[test]
    fn generation_sets_are_pinned() {
        let mut math = vec!["0", "1", "-1", "2", "yes", "no", "true", "false"];
        math.sort_unstable();
        assert_eq!(set(MathGeneration), math);
        let mut tools = vec!["infeasible", "", "0", "1", "2", "yes", "no", "done", "none"];
        tools.sort_unstable();
        assert_eq!(set(ToolGeneration), tools);
        assert_eq!(set(Checker).len(), 22);
        assert!(!set(Checker).contains(&"done"));
    }

    #[test]
    fn entries_are_unique_and_have_a_role() {
        let mut texts: Vec<_> = DEGENERATE_ANSWERS.iter().map(|a| a.text).collect();
        texts.sort_unstable();
        texts.dedup();
        assert_eq!(texts.len(), DEGENERATE_ANSWERS.len());
        assert!(DEGENERATE_ANSWERS.iter().all(|a| !a.roles.is_empty()));
    }
}
