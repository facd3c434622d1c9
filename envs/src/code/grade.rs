//! Grading a code reply, shared by the code envs: the code is its last
//! fenced block (or the whole reply), judged once. Here, not in the sandbox
//! adapter (`sandboxed.rs`), which sits below the single-turn base.

use crate::sandboxed::{Judged, extract_code, judged_event, judged_score};
use crate::single_turn::Graded;

/// Grades a code reply: the code is its last fenced block (or the whole reply),
/// judged once by `judge`; the score and the step's event note.
pub(crate) fn grade_code(reply: &str, judge: impl FnOnce(&str) -> Judged) -> Graded {
    let (code, fenced) = extract_code(reply);
    let judged = judge(&code);
    Graded {
        score: judged_score(&judged, fenced),
        events: vec![judged_event(&judged)],
    }
}
