//! The one-answer rule: an answer position that carries two candidates fails — two
//! numbers where one is asked, "or …" inside the box or an unboxed answer, a box per
//! candidate, a box and a final-answer statement that disagree. Prose around a box is
//! not graded: an alternative there neither passes nor fails the box. Wrong, constant,
//! empty, echoed and padded answers fail too, while the right answer passes in the
//! styles models write it.

use crate::{cases, eq};
use proptest::prelude::*;
use verigym_verifiers::math::{MathConfig, verify_with_prompt};

/// Responses that offer `v` and another value `w`.
fn hedges(v: i64, w: i64) -> Vec<String> {
    vec![
        format!("\\boxed{{{v}}}\n\nFinal answer: {w}"),
        format!("The final answer is {w}.\n\n\\boxed{{{v}}}"),
        format!("\\boxed{{{v} \\text{{(or maybe {w})}}}}"),
        format!("\\boxed{{{v} \\text{{ or }} {w}}}"),
        format!("\\boxed{{{v}}} or \\boxed{{{w}}}"),
        format!("\\boxed{{{w}}}. Actually \\boxed{{{v}}}"),
        format!("\\boxed{{{v}, {w}}}"),
        format!("\\boxed{{{v} {w}}}"),
        format!("The answer is {w} {v}"),
        format!("The answer is {v} {w}."),
        format!("The answer is {v} or {w}."),
        format!("\\boxed{{\\text{{{v} or {w} apples}}}}"),
        format!("\\boxed{{\\text{{{v} apples (or {w})}}}}"),
        format!("\\boxed{{x = {v} \\text{{ or }} x = {w}}}"),
        format!("$x = {w}$ or $x = {v}$"),
    ]
}

/// Prose around the boxed `v` that mentions `w`: only the box is graded.
fn prose_around(v: i64, w: i64) -> Vec<String> {
    vec![
        format!("\\boxed{{{v}}} or {w}"),
        format!("\\boxed{{{v}}} (or maybe {w})"),
        format!("\\boxed{{{v}}}. Or maybe {w}."),
        format!("\\boxed{{{v}}}\n\nPerhaps {w} instead."),
        format!("The answer is \\boxed{{{v}}}, or possibly {w}."),
        format!("It is either {w} or \\boxed{{{v}}}."),
        format!("\\boxed{{{v}}} \\text{{ or }} {w}"),
        format!("\\boxed{{{v}}}\n\nCheck: {w} - {w} + {v} = {v}."),
    ]
}

/// The right answer written the way models write it.
fn right(v: i64) -> Vec<String> {
    let long = "Let me think about this carefully, step by step. ".repeat(40);
    vec![
        format!("\\boxed{{{v}}}"),
        format!("{long}So the answer is $\\boxed{{{v}}}$."),
        format!(
            "<think>{long} maybe {} or {}</think>The answer is \\boxed{{{v}}}.",
            v + 1,
            v + 2
        ),
        format!("The final answer is ${v}$. I hope it is correct."),
        format!("**Answer:** {v}"),
        format!("\\boxed{{{v}}} apples"),
        format!("\\boxed{{\\text{{{v} apples}}}}"),
        format!("\\boxed{{\\boxed{{{v}}}}}"),
        format!("Since 3 is odd or prime, the answer is \\boxed{{{v}}}."),
        format!("\\boxed{{x = {v}}}"),
        format!("\\[\\boxed{{{v}}}\\]\nThis is the only value."),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(cases()))]

    #[test]
    fn hedged_answers_fail(v in 2i64..2000, shift in 1i64..500) {
        let w = v + shift;
        let gold = format!("${v}$");
        for h in hedges(v, w) {
            assert!(!eq(&gold, &h), "hedge passed: {}", h);
        }
        // The other candidate is not the answer either.
        for h in hedges(w, v) {
            assert!(!eq(&gold, &h), "hedge passed: {}", h);
        }
    }

    #[test]
    fn prose_around_the_box_is_not_graded(v in 2i64..2000, shift in 1i64..500) {
        let w = v + shift;
        let gold = format!("${v}$");
        for p in prose_around(v, w) {
            assert!(eq(&gold, &p), "the box {v} failed beside prose: {}", p);
        }
        for p in prose_around(w, v) {
            assert!(!eq(&gold, &p), "prose raised a reward: {}", p);
        }
    }

    #[test]
    fn right_answers_pass_and_wrong_ones_fail(v in 3i64..2000, shift in 1i64..500) {
        let gold = format!("${v}$");
        for r in right(v) {
            assert!(eq(&gold, &r), "right answer failed: {}", r);
        }
        let wrong = v + shift;
        for r in right(wrong) {
            assert!(!eq(&gold, &r), "wrong answer passed: {}", r);
        }
        for constant in ["\\boxed{0}", "\\boxed{1}", "\\boxed{2}", "0", "1"] {
            assert!(!eq(&gold, constant), "{}", constant);
        }
        for empty in ["", " ", "\\boxed{}", "\\boxed{ }", "$$", "<think>", "<think>5"] {
            assert!(!eq(&gold, empty), "{:?}", empty);
        }
        let prompt = format!("What is {} + {}? Put the answer in \\boxed{{}}.", v - 1, 1);
        let echo = verify_with_prompt(&gold, &prompt, &prompt, &MathConfig::default());
        assert!(!echo.equivalent, "{:?}", echo);
        let padded = format!("{}\\boxed{{{wrong}}}{}", " ".repeat(500), "\n".repeat(50));
        assert!(!eq(&gold, &padded));
    }
}
