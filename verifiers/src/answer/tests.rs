use super::*;
use proptest::prelude::*;

#[test]
fn boxes_that_differ_in_operators_or_punctuation_are_two_answers() {
    for hedge in [
        "\\boxed{(3+4)*5} or \\boxed{(3*4)+5}",
        "\\boxed{x-y} or \\boxed{x+y}",
        "\\boxed{(/think>} or \\boxed{(think>}",
        "\\boxed{A, B} then \\boxed{A B}",
    ] {
        assert!(
            matches!(final_answer(hedge), Err(AnswerError::Hedged(..))),
            "{hedge}"
        );
    }
    // Spacing, ASCII case and the same number written twice are one answer.
    for (reply, want) in [
        ("\\boxed{(7, 6)}\n\nSo \\boxed{(7,6)}", "(7,6)"),
        ("\\boxed{Alice} and again \\boxed{alice}", "alice"),
        ("\\boxed{42} and \\boxed{42.0}", "42.0"),
    ] {
        assert_eq!(final_answer(reply).as_deref(), Ok(want), "{reply}");
    }
}

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
        "3 × [7 + 100 - 25] = 246"
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
        "Maybe \\boxed{3}.</THINK>\n## Final answer\n$\\boxed{4}$",
        "<think>a <think> nested \\boxed{3} </think>\\boxed{4}",
        "◁think▷\\boxed{3}?◁/think▷\\boxed{4}",
        "[THINK]\\boxed{3}?[/THINK]\n\\boxed{4}",
        "<|channel|>analysis<|message|>\\boxed{3}?<|end|><|start|>assistant<|channel|>final<|message|>\\boxed{4}<|return|>",
    ] {
        assert_eq!(final_answer(response).as_deref(), Ok("4"), "{response:?}");
    }
    // A closing tag after a closed block is text: it never erases what precedes it.
    for response in [
        "<think>\\boxed{3}</think> wait \\boxed{5} </think> \\boxed{4}",
        "<think>x</think>\n\\boxed{5}\n\nI closed it with </think>. \\boxed{4}",
    ] {
        assert!(
            matches!(final_answer(response), Err(AnswerError::Hedged(..))),
            "{response:?}"
        );
    }
    assert_eq!(
        final_answer("<think>x</think>\n\\boxed{4}\n\nI closed my reasoning with </think> above.")
            .as_deref(),
        Ok("4")
    );
    // So is a tag inside a code fence or inline code of visible text, or in the
    // middle of a line.
    for response in [
        "\\boxed{4}\n\nWrap drafts like this:\n```\n<think>draft</think>\n```",
        "\\boxed{4}\n```\n</think>\n```",
        "\\boxed{4} and `</think>` closes reasoning.",
        "\\boxed{4}. I wrap drafts in <think> tags.",
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
        "\\boxed{4}\n<think> more",
        "x</think> answer\n<think> cut",
        "◁think▷\\boxed{4}",
        "[THINK]\\boxed{4}",
        "<|channel|>analysis<|message|>\\boxed{4}<|end|>",
        "<think>\\boxed{4}<|im_end|></think>\\boxed{4}",
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
fn prose_after_the_box_is_not_graded_even_when_it_names_other_values() {
    for (tail, boxed) in [
        (" 17", "42"),
        (" or 17", "42"),
        ("\n17", "42"),
        ("\n\n$17$", "42"),
        (". Or maybe 17.", "42"),
        (" (maybe 17)", "42"),
        ("\n\nAlternatively, \\(17\\).", "42"),
        ("\n\nAlternatively, the answer could be 17.", "42"),
        ("\n\nBut 17 is also possible.", "42"),
        ("\nx = 17", "x = 42"),
        (" 1 2 2 1", "2 1\n1 2"),
        (" DIMU", "BAKO"),
        (" A", "B"),
        ("<|im_end|>\n\\boxed{17}", "42"),
        ("\n\n**Final answer: 42**", "42"),
        ("\n\nThe answer is not 17.", "42"),
    ] {
        let box_text = boxed.replace('\n', " \\\\ ");
        let response = reasoned(&format!("The answer is \\boxed{{{box_text}}}{tail}"));
        assert_eq!(final_answer(&response).as_deref(), Ok(boxed), "{tail:?}");
    }
}

#[test]
fn a_box_and_a_statement_that_disagree_are_ambiguous_in_either_order() {
    for response in [
        "\\boxed{42}\n\nThe answer is 17.",
        "\\boxed{42}\nAnswer: 17",
        "\\boxed{42}\n\n**Final Answer:** 17",
        "\\boxed{42}\n\n## Final Answer\n\n17",
        "Final answer: 17\n\nWait, let me redo it. \\boxed{42}",
        "The answer is 17.\n\n\\boxed{42}",
        "\\boxed{BAKO}\n\nFinal answer: DIMU",
        "\\boxed{1 2 \\\\ 3 4}\n\nFinal answer:\n2 1\n4 3",
        // Without a box, two statements that differ are two answers.
        "The answer is 17.\n\nOn reflection, the final answer is 42.",
        // Alternatives inside the box are the env's to refuse; two boxes are two answers.
        "\\boxed{42}\n\n(long check)\n\n\\boxed{17}",
    ] {
        assert!(
            matches!(final_answer(response), Err(AnswerError::Hedged(..))),
            "{response:?}: {:?}",
            final_answer(response)
        );
    }
    // A statement that agrees, in any presentation, is a restatement.
    for response in [
        "\\boxed{42}\n\n**Final answer: 42**",
        "The answer is $42$.\n\n\\boxed{42}",
        "\\boxed{1 2 \\\\ 3 4}\n\nFinal answer:\nRow 1: 1 2\nRow 2: 3 4",
        "\\boxed{42}\n\nLet me check whether the answer is right: 6 × 7 = 42.",
    ] {
        assert!(
            final_answer(response).is_ok(),
            "{response:?}: {:?}",
            final_answer(response)
        );
    }
    // A negated statement is never read as the value it negates.
    assert_ne!(final_answer("The answer is not 41.").as_deref(), Ok("41"));
    assert_ne!(final_answer("Final answer: not 41").as_deref(), Ok("41"));
}

/// Answers that are themselves English words (`yes`/`no`, strings over a small
/// alphabet such as `a`, `as`, `be`, `at`): a short statement beside the box states
/// another answer whatever its words, and prose around the answer is still prose.
#[test]
fn answers_made_of_prose_words_are_held_to_the_one_answer_rule() {
    for (boxed, statement) in [
        ("yes", "no"),
        ("no", "yes"),
        ("at", "be"),
        ("as", "a"),
        ("a", "as"),
        ("at", "at or be"),
        ("be", "it"),
        ("a b a", "a a b"),
        ("is at", "at is"),
        ("x y z", "the"),
        ("DDDDL", "up"),
    ] {
        for template in [
            "\\boxed{B}\n\nFinal answer: S",
            "\\boxed{B}\n\n**Final Answer:** S",
            "The answer is S.\n\n\\boxed{B}",
        ] {
            let response = reasoned(&template.replace('B', boxed).replace('S', statement));
            assert!(
                matches!(final_answer(&response), Err(AnswerError::Hedged(..))),
                "{boxed:?} beside {statement:?}: {:?}",
                final_answer(&response)
            );
        }
    }
    // Without a box, two labelled statements that differ are two answers.
    let two = reasoned("The answer is be.\n\nFinal answer: at");
    assert!(matches!(final_answer(&two), Err(AnswerError::Hedged(..))));
    for (boxed, statement) in [
        ("yes", "yes"),
        ("at", "at"),
        ("at", "AT"),
        ("at", "the answer is at"),
        ("a b a", "a b a"),
        ("no", "verified"),
        ("at", "checked above"),
        ("yes", "this holds because every premise is satisfied"),
        ("x y z", "as shown in the derivation"),
        ("DDDDL", "path = DDDDL"),
    ] {
        let response = reasoned(&format!("\\boxed{{{boxed}}}\n\nFinal answer: {statement}"));
        assert_eq!(
            final_answer(&response).as_deref(),
            Ok(boxed),
            "{boxed:?} beside {statement:?}"
        );
    }
}

/// A grid whose cells include `.` keeps its last row whole when unboxed: every row of
/// a block is as long as the others, so the final `.` is a cell, not a full stop.
#[test]
fn an_unboxed_grid_keeps_a_final_dot_cell() {
    for (response, want) in [
        ("Final answer:\n#..\n.#.\n..#.", "#..\n.#.\n..#"),
        ("Final answer:\n#..\n.#.\n..#", "#..\n.#.\n..#"),
        ("Final answer:\n*..\n...\n*..", "*..\n...\n*.."),
        ("Final answer:\nx.\n.x", "x.\n.x"),
        ("The answer is 42.", "42"),
        ("Final answer: 42...", "42"),
        ("Final answer: the goat.", "the goat"),
    ] {
        assert_eq!(final_answer(response).as_deref(), Ok(want), "{response:?}");
    }
}

#[test]
fn honest_presentations_of_the_answer_are_read() {
    for (response, want) in [
        ("\\boxed{42.}", "42"),
        ("\\boxed{−７}", "-7"),
        ("\\boxed{\n1. U\n2. D\n3. L\n}", "U\nD\nL"),
        ("\\boxed{\n- A C\n- A B\n}", "A C\nA B"),
        ("\\boxed{Row 1: 1 2 \\\\ Row 2: 2 1}", "1 2\n2 1"),
        (
            "\\boxed{\nStep 1: fill A\nStep 2: pour A B\n}",
            "fill A\npour A B",
        ),
        ("\\boxed{1.5}", "1.5"),
        ("\\boxed{\n1 2\n3 4\n}", "1 2\n3 4"),
    ] {
        assert_eq!(final_answer(response).as_deref(), Ok(want), "{response:?}");
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

/// Reasoning text: no tag, no code fence or inline code that could hide one.
fn without_tags() -> impl Strategy<Value = String> {
    arbitrary_text().prop_map(|s| {
        s.replace('<', "(")
            .replace(['`', '~'], "'")
            .replace(['◁', '['], "(")
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn prose_after_the_box_never_changes_the_answer(
        answer in -1000i64..1000,
        other in -1000i64..1000,
        joint in prop::sample::select(vec![" ", " or ", "\n", "\n\nOr ", " (maybe ", ". Perhaps ", "\nAlternatively, $"]),
    ) {
        let response = format!("Working it out gives \\boxed{{{answer}}}{joint}{other}");
        prop_assert_eq!(final_answer(&response), Ok(answer.to_string()));
    }

    #[test]
    fn a_statement_of_another_number_beside_the_box_is_ambiguous(
        answer in -1000i64..1000,
        other in -1000i64..1000,
        form in prop::sample::select(vec!["The answer is {}.", "Final answer: {}", "**Final Answer:** ${}$", "## Final Answer\n\n{}"]),
        before in any::<bool>(),
    ) {
        prop_assume!(other != answer);
        let statement = form.replace("{}", &other.to_string());
        let response = match before {
            true => format!("{statement}\n\n\\boxed{{{answer}}}"),
            false => format!("\\boxed{{{answer}}}\n\n{statement}"),
        };
        prop_assert!(matches!(final_answer(&response), Err(AnswerError::Hedged(..))), "{:?}", response);
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
        // The response's own closing tags are text after a block, and reasoning when
        // they come first: only responses without them read the same either way.
        prop_assume!(!["</", "◁/", "[/"].iter().any(|t| response.contains(t)));
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
