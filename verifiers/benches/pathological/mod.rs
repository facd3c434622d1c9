//! One-megabyte inputs shaped to hit the worst case of each reader's scan, shared by the
//! scale test (`tests/reader_scale.rs`: they must come back, with bounded output) and the
//! bench (`benches/readers.rs`: how long each takes per megabyte).

/// One megabyte.
pub const MEGABYTE: usize = 1 << 20;

/// About 30k tokens of ordinary reasoning with draft answers in it.
pub fn reasoning(bytes: usize) -> String {
    let sentence = "Let me check the next case: 3 + 4 = 7, and \\boxed{7} would be a draft. ";
    sentence.repeat(bytes / sentence.len() + 1)
}

/// `(name, text)` pairs of about one megabyte each.
pub fn megabyte_shapes() -> Vec<(&'static str, String)> {
    let fill = |unit: &str| unit.repeat(MEGABYTE / unit.len());
    let half = MEGABYTE / 2;
    vec![
        (
            "reasoning then box",
            format!("<think>{}</think>\\boxed{{4}}", reasoning(MEGABYTE)),
        ),
        (
            "template-opened reasoning",
            format!("{}</think>\\boxed{{4}}", reasoning(MEGABYTE)),
        ),
        ("many <think>", fill("<think>")),
        ("many </think>", fill("</think>")),
        ("many <", fill("<")),
        ("many think blocks", fill("<think>a</think>b")),
        ("many \\boxed{", fill("\\boxed{")),
        ("many boxes", fill("\\boxed{1}")),
        ("many \\fbox{}", fill("\\fbox{}")),
        (
            "deep braces",
            format!("\\boxed{{{}{}}}", "{".repeat(half), "}".repeat(half)),
        ),
        ("many \\\\", fill("\\\\")),
        ("many \\text{", fill("\\text{")),
        ("many backslashes", fill("\\")),
        ("many fences", fill("```")),
        ("many &", fill("& ")),
        ("digits and spaces", fill("1 ")),
        (
            "deep parentheses",
            format!("{}1{}", "(".repeat(half), ")".repeat(half)),
        ),
        ("many = and spaces", fill(" = ")),
        ("many x_{", fill("x_{")),
        ("many \\neg", fill("\\neg ")),
        ("multibyte", fill("é×")),
    ]
}
