use super::*;
use proptest::prelude::*;

#[test]
fn takes_the_last_box_and_strips_reasoning() {
    assert_eq!(final_answer("so \\boxed{12}").unwrap(), "12");
    assert_eq!(
        final_answer("<think>\\boxed{3}</think> done: \\boxed{ 4 }").unwrap(),
        "4"
    );
    assert_eq!(
        final_answer("\\boxed{\\frac{1}{2}}").unwrap(),
        "\\frac{1}{2}"
    );
    assert_eq!(final_answer("Answer: -7/3.").unwrap(), "-7/3");
    assert_eq!(final_answer("$5$").unwrap(), "5");
    assert_eq!(final_answer("Answer: $5$.").unwrap(), "5");
}

#[test]
fn rejects_hedges_empties_and_unbalanced_boxes() {
    assert!(matches!(
        final_answer("\\boxed{3} or \\boxed{4}"),
        Err(AnswerError::Hedged(..))
    ));
    assert_eq!(final_answer("\\boxed{}"), Err(AnswerError::EmptyBox));
    assert_eq!(
        final_answer("\\boxed{```\n```}"),
        Err(AnswerError::EmptyBox)
    );
    assert_eq!(final_answer("   "), Err(AnswerError::Empty));
    assert_eq!(final_answer("<think>12</think>  "), Err(AnswerError::Empty));
    assert_eq!(final_answer("\\boxed{1"), Err(AnswerError::UnbalancedBox));
    let long = "1".repeat(MAX_ANSWER_BYTES + 1);
    assert!(matches!(
        final_answer(&long),
        Err(AnswerError::AnswerTooLong { .. })
    ));
}

#[test]
fn multibyte_text_near_the_prefix_length_does_not_panic() {
    assert_eq!(
        final_answer("3 × [7 + 100 − 25] = 246").unwrap(),
        "3 × [7 + 100 − 25] = 246"
    );
    assert_eq!(final_answer("ééééééé").unwrap(), "ééééééé");
}

#[test]
fn repeated_identical_boxes_are_not_a_hedge() {
    assert_eq!(final_answer("\\boxed{7} so \\boxed{7}").unwrap(), "7");
    // The same answer in two presentations is one answer.
    assert_eq!(
        final_answer("\\boxed{1 2 \\\\ 3 4} that is \\boxed{```\n1 2\n3 4\n```}").unwrap(),
        "1 2\n3 4"
    );
}

/// About 30k tokens of reasoning, as R1-style models write at 16k–32k response length.
fn long_reasoning(bytes: usize) -> String {
    let sentence = "Let me check the next case: 3 + 4 = 7, and \\boxed{7} would be a draft. ";
    sentence.repeat(bytes / sentence.len() + 1)
}

#[test]
fn long_reasoning_never_counts_against_the_answer() {
    let reasoning = long_reasoning(116 * 1024);
    for response in [
        format!("<think>{reasoning}</think>\nSo the answer is \\boxed{{42}}."),
        format!("<thinking>{reasoning}</thinking>\\boxed{{42}}"),
        format!("<reasoning>{reasoning}</reasoning> \\boxed{{42}}"),
        format!("{reasoning}</think>\n\n**Final answer:** \\boxed{{42}}"),
    ] {
        assert!(response.len() > 116 * 1024);
        assert_eq!(final_answer(&response).as_deref(), Ok("42"));
    }
    // A megabyte of reasoning is still read; past the whole-response cap, the error
    // names the cap.
    let megabyte = format!("<think>{}</think>\\boxed{{42}}", long_reasoning(1 << 20));
    assert_eq!(final_answer(&megabyte).as_deref(), Ok("42"));
    let huge = format!(
        "<think>{}</think>\\boxed{{42}}",
        "x".repeat(MAX_RESPONSE_BYTES)
    );
    let err = final_answer(&huge).unwrap_err();
    assert!(matches!(err, AnswerError::ResponseTooLong { .. }));
    assert!(err.to_string().contains(&MAX_RESPONSE_BYTES.to_string()));
    // The answer cap applies to the text after the reasoning, and says so.
    let rambling = format!(
        "<think>x</think>{}\\boxed{{42}}",
        "y".repeat(MAX_ANSWER_BYTES)
    );
    let err = final_answer(&rambling).unwrap_err();
    assert!(
        err.to_string().contains(&MAX_ANSWER_BYTES.to_string()),
        "{err}"
    );
}

#[test]
fn template_opened_reasoning_with_a_draft_box_is_not_a_hedge() {
    // The chat template put `<think>` in the prompt: the completion holds only the rest.
    for response in [
        "Try 3: \\boxed{3}? No, that fails.</think>\nThe answer is \\boxed{4}.",
        "\\boxed{3}</think>\\boxed{4}",
        "<think>\\boxed{3}</think> wait \\boxed{5} </think> \\boxed{4}",
        "Maybe \\boxed{3}.</THINK>\n## Final answer\n$\\boxed{4}$",
        "<think>a <think> nested \\boxed{3} </think> still reasoning \\boxed{5} </think>\\boxed{4}",
    ] {
        assert_eq!(final_answer(response).as_deref(), Ok("4"), "{response:?}");
    }
    // Text between reasoning blocks is shown to the reader, so its box counts.
    assert!(matches!(
        final_answer("<think>a</think> \\boxed{3} <think>b</think> \\boxed{4}"),
        Err(AnswerError::Hedged(..))
    ));
}

#[test]
fn reasoning_opened_and_never_closed_is_truncated() {
    for response in [
        "<think>Let me compute \\boxed{4}",
        "<thinking>long",
        "<reasoning>",
        "\\boxed{4} <think> more",
        "x</think> answer <think> cut",
    ] {
        assert_eq!(
            final_answer(response),
            Err(AnswerError::Truncated),
            "{response:?}"
        );
    }
    assert!(AnswerError::Truncated.to_string().starts_with("truncated"));
    assert_eq!(strip_reasoning("<think>5"), Err(AnswerError::Truncated));
}

#[test]
fn presentations_the_prompts_invite_are_read() {
    let grid = "1 2 3\n3 1 2\n2 3 1";
    for response in [
        "\\boxed{```\n1 2 3\n3 1 2\n2 3 1\n```}".to_string(),
        "\\boxed{```text\n1 2 3\n3 1 2\n2 3 1\n```}".to_string(),
        "\\boxed{1 2 3 \\\\ 3 1 2 \\\\ 2 3 1}".to_string(),
        "\\boxed{1 & 2 & 3 \\\\ 3 & 1 & 2 \\\\ 2 & 3 & 1}".to_string(),
        "\\boxed{\\begin{array}{ccc} 1 & 2 & 3 \\\\ 3 & 1 & 2 \\\\ 2 & 3 & 1 \\end{array}}"
            .to_string(),
        "\\boxed{\\begin{pmatrix}1&2&3\\\\\\hline 3&1&2\\\\2&3&1\\end{pmatrix}}".to_string(),
        "\\boxed{\\text{1 2 3} \\\\ \\text{3 1 2} \\\\ \\text{2 3 1}}".to_string(),
        format!("The grid is complete.\n\n### Final answer\n\\[\n\\boxed{{{grid}}}\n\\]"),
        format!("**Final answer:** $\\boxed{{{grid}}}$"),
        format!("```\n{grid}\n```"),
        format!("## Final Answer\n{grid}"),
        format!("**Final answer:**\n{grid}"),
    ] {
        assert_eq!(final_answer(&response).as_deref(), Ok(grid), "{response:?}");
    }
    for (response, want) in [
        ("**Final answer: 42**", "42"),
        ("The answer is 42.", "42"),
        ("\\boxed{\\text{UDLR}}", "UDLR"),
        ("\\boxed{`A->C`}", "A->C"),
        ("\\boxed{1,\\!000}", "1,000"),
        ("\\boxed{(10 - 4) \\times 4}", "(10 - 4) \\times 4"),
        ("\\boxed{a \\& b}", "a \\& b"),
        ("answer 42", "answer 42"),
        ("#5", "#5"),
    ] {
        assert_eq!(final_answer(response).as_deref(), Ok(want), "{response:?}");
    }
}

#[test]
fn hedges_still_fail_in_every_presentation() {
    for response in [
        "\\boxed{1 2 \\\\ 3 4} or \\boxed{1 2 \\\\ 4 3}",
        "**Final answer:** \\boxed{3}\n\nor maybe \\boxed{```\n4\n```}",
        "</think> \\boxed{3} \\[ \\boxed{4} \\]",
    ] {
        assert!(
            matches!(final_answer(response), Err(AnswerError::Hedged(..))),
            "{response:?}"
        );
    }
}

/// Long reasoning, as reasoning models write it, before every response of the class tests.
fn reasoned(answer: &str) -> String {
    let reasoning = "Try 5 × 8 = 40, too small; 6 × 7 = 42 fits. Maybe 17? No. ".repeat(200);
    format!("<think>{reasoning}</think>\n{answer}")
}

#[test]
fn prose_after_the_box_passes_numbers_included() {
    for (tail, boxed) in [
        ("", "42"),
        ("\n\nCheck: 6 × 7 = 42.", "42"),
        (" since $6 \\times 7 = 42$.", "42"),
        ("\n\nSo the answer is 42.", "42"),
        ("\n\nThis is the final answer.", "42"),
        (" cm", "42"),
        (" \\text{ cm}^2", "42"),
        ("^\\circ", "42"),
        (" \\pmod{11}.", "9"),
        ("\n\n**Verification:** 42 − 7 = 35, and 35 + 7 = 42 ✓", "42"),
        ("\n\nI found it in 2 steps.", "42"),
        ("\n\nThe answer is 42.", "42"),
        ("\n42", "42"),
        ("\n$$42.0$$", "42"),
        (", or equivalently 6 × 7.", "42"),
        (", or at least I believe so.", "42"),
        ("\n\nx = -7/3 satisfies the equation.", "-7/3"),
        (
            "\n\nEach row and column holds every digit once.",
            "1 2\n2 1",
        ),
        ("\n\nThis path avoids every wall.", "DDDDL"),
        (
            "\n\nKofi tells the truth and Igor lies.",
            "Kofi: knight, Igor: knave",
        ),
        (
            "\n\nThe farmer takes the goat back, or the cabbage is eaten.",
            "cabbage",
        ),
        ("\n\nDDDDL", "DDDDL"),
    ] {
        let box_text = boxed.replace('\n', " \\\\ ");
        let response = reasoned(&format!("The answer is \\boxed{{{box_text}}}{tail}"));
        assert_eq!(final_answer(&response).as_deref(), Ok(boxed), "{tail:?}");
    }
}

#[test]
fn a_second_candidate_after_the_box_is_a_hedge() {
    for (tail, boxed) in [
        (" 17", "42"),
        (" or 17", "42"),
        ("\n17", "42"),
        ("\n\n$17$", "42"),
        (". Or maybe 17.", "42"),
        (" (maybe 17)", "42"),
        (" \\text{(or maybe 17)}", "42"),
        ("\n\nAlternatively, \\(17\\).", "42"),
        ("\n\nAlternatively, the answer could be 17.", "42"),
        ("\nperhaps -42", "42"),
        ("\n\nThe answer is 17.", "42"),
        ("\nAnswer: 17", "42"),
        ("\nx = 17", "x = 42"),
        (" 1 2 2 1", "2 1\n1 2"),
        (" DIMU", "BAKO"),
        (" or Zed knight Amy knave", "Kofi: knight, Igor: knave"),
        ("\ngoat nothing cabbage", "cabbage\nnothing\ngoat"),
        (" A", "B"),
        (" 12", "D"),
        (" or 12", "D"),
    ] {
        let box_text = boxed.replace('\n', " \\\\ ");
        let response = reasoned(&format!("The answer is \\boxed{{{box_text}}}{tail}"));
        assert!(
            matches!(
                final_answer(&response),
                Err(AnswerError::AlternativeOffered(_))
            ),
            "{tail:?}: {:?}",
            final_answer(&response)
        );
    }
}

/// Fragments that matter to the scanners, for structure-aware inputs.
const FRAGMENTS: &[&str] = &[
    "<think>",
    "</think>",
    "<thinking>",
    "</reasoning>",
    "<",
    "\\boxed{",
    "\\fbox{",
    "{",
    "}",
    "```",
    "`",
    "$",
    "$$",
    "\\[",
    "\\]",
    "\\\\",
    "\\text{",
    "\\begin{array}{cc}",
    "\\end{array}",
    "&",
    "\\,",
    "\\!",
    "\\",
    "**",
    "## ",
    "Final answer:",
    "answer",
    "\n",
    " ",
    "1",
    "x",
    "é",
    "×",
];

fn structured() -> impl Strategy<Value = String> {
    prop::collection::vec(prop::sample::select(FRAGMENTS), 0..60).prop_map(|f| f.concat())
}

fn arbitrary_text() -> impl Strategy<Value = String> {
    prop_oneof![
        any::<String>(),
        prop::collection::vec(any::<u8>(), 0..400)
            .prop_map(|b| String::from_utf8_lossy(&b).into_owned()),
        structured(),
    ]
}

/// Structured text that cannot close a box or open reasoning.
fn box_content() -> impl Strategy<Value = String> {
    structured().prop_map(|s| s.replace(['{', '}'], "").replace('<', "("))
}

fn without_tags() -> impl Strategy<Value = String> {
    arbitrary_text().prop_map(|s| s.replace('<', "("))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn any_other_number_after_the_box_alone_or_joined_is_a_hedge(
        answer in -1000i64..1000,
        other in -1000i64..1000,
        joint in prop::sample::select(vec![" ", " or ", "\n", "\n\nOr ", " (maybe ", ". Perhaps ", "\nAlternatively, $"]),
    ) {
        prop_assume!(other != answer);
        let response = format!("Working it out gives \\boxed{{{answer}}}{joint}{other}");
        prop_assert!(matches!(final_answer(&response), Err(AnswerError::AlternativeOffered(_))));
    }

    #[test]
    fn a_verification_or_a_sentence_with_numbers_after_the_box_passes(
        a in 1i64..100,
        b in 1i64..100,
        steps in 1u32..50,
        which in 0usize..4,
    ) {
        let answer = a * b;
        let tail = [
            format!("\n\nCheck: {a} × {b} = {answer}."),
            format!(" since ${a} \\cdot {b} = {answer}$"),
            format!("\n\nI found it in {steps} steps, and {answer} is the product."),
            format!("\n\nSo the answer is {answer}."),
        ][which].clone();
        let response = format!("The product is \\boxed{{{answer}}}{tail}");
        prop_assert_eq!(final_answer(&response), Ok(answer.to_string()));
    }

    #[test]
    fn never_panics_and_output_is_bounded(text in arbitrary_text()) {
        match final_answer(&text) {
            Ok(answer) => prop_assert!(!answer.is_empty() && answer.len() <= text.len()),
            Err(e) => prop_assert!(e.to_string().len() <= 2 * text.len() + 200),
        }
        prop_assert!(plain_answer(&text).len() <= text.len());
    }

    #[test]
    fn closed_reasoning_in_front_never_changes_the_answer(
        reasoning in without_tags(),
        response in arbitrary_text(),
    ) {
        let want = final_answer(&response);
        let block = format!("<think>{reasoning}</think>{response}");
        let template_opened = format!("{reasoning}</think>{response}");
        prop_assert_eq!(&final_answer(&block), &want);
        prop_assert_eq!(&final_answer(&template_opened), &want);
    }

    #[test]
    fn two_different_boxes_never_pass(a in box_content(), b in box_content()) {
        let response = format!("\\boxed{{{a}}} or \\boxed{{{b}}}");
        if let Ok(answer) = final_answer(&response) {
            prop_assert_eq!(plain_answer(&a), plain_answer(&b));
            prop_assert_eq!(answer, plain_answer(&b));
        }
    }
}
