//! Every answer reader on one-megabyte inputs of pathological shape: no panic, output no
//! longer than the input. Time is measured per megabyte in `benches/readers.rs`, not here
//! (a timed test is flaky on a shared machine); a quadratic scan would still show as a
//! test that takes minutes instead of a second.

#[path = "../benches/pathological/mod.rs"]
mod pathological;

use verigym_verifiers::answer::{boxed_contents, final_answer, plain_answer, strip_reasoning};
use verigym_verifiers::countdown::evaluate;
use verigym_verifiers::grid::{parse_binary_grid, parse_grid};
use verigym_verifiers::math::{MathConfig, verify};
use verigym_verifiers::sat::{SatAnswer, parse_dimacs, parse_sat_answer};

#[test]
fn megabyte_inputs_of_pathological_shape_are_handled() {
    for (name, text) in pathological::megabyte_shapes() {
        let len = text.len();
        assert!(len >= pathological::MEGABYTE / 2, "{name}");
        if let Ok(answer) = final_answer(&text) {
            assert!(answer.len() <= len, "{name}");
        }
        assert!(
            strip_reasoning(&text).map_or(0, |s| s.len()) <= len,
            "{name}"
        );
        assert!(
            boxed_contents(&text).map_or(0, |b| b.len()) <= len,
            "{name}"
        );
        assert!(plain_answer(&text).len() <= len, "{name}");
        assert!(parse_grid(&text, 9, 9, 9).is_err(), "{name}");
        assert!(parse_binary_grid(&text, 30, 30).is_err(), "{name}");
        assert!(evaluate(&text).is_err(), "{name}");
        if let Ok(SatAnswer::Assignment(values)) = parse_sat_answer(&text, 100_000) {
            assert_eq!(values.len(), 100_000, "{name}");
        }
        assert!(parse_dimacs(&text).is_err(), "{name}");
        let verdict = verify("$4$", &text, &MathConfig::default());
        assert!(verdict.reason.len() <= 2 * len + 200, "{name}");
    }
}

#[test]
fn a_megabyte_of_reasoning_before_the_answer_still_scores() {
    let response = format!(
        "<think>{}</think>\nSo the answer is $\\boxed{{4}}$.",
        pathological::reasoning(pathological::MEGABYTE)
    );
    assert_eq!(final_answer(&response).as_deref(), Ok("4"));
    assert!(verify("$4$", &response, &MathConfig::default()).equivalent);
}
