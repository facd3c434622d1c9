//! The model's reply inside the text a trainer hands back.
//!
//! Trainers decode whole sequences: OpenRLHF's reward `query` is the
//! chat-templated prompt followed by the reply, special tokens included, and
//! every decoded turn may end in an end-of-turn marker. Scoring the prompt
//! along with the reply would let the task's own text count as an answer,
//! so the prompt is cut off exactly, or the reply is refused.

/// End-of-turn markers of the common chat templates (ChatML/Qwen, Llama 3,
/// Phi, Gemma, SentencePiece EOS, harmony): the reply reader's own list.
pub const END_OF_TURN: &[&str] = &verigym_verifiers::answer::END_OF_TURN_MARKERS;

/// Where an assistant turn starts in the common chat templates, for a query
/// whose prompt part does not decode back to the exact prompt text.
const ASSISTANT_STARTS: &[&str] = &[
    "<|im_start|>assistant\n",
    "<|start_header_id|>assistant<|end_header_id|>\n\n",
    "<|assistant|>\n",
    "<start_of_turn>model\n",
];

/// `text` without trailing end-of-turn markers and whitespace.
pub fn strip_end_of_turn(text: &str) -> &str {
    let mut text = text.trim_end();
    while let Some(rest) = END_OF_TURN.iter().find_map(|m| text.strip_suffix(m)) {
        text = rest.trim_end();
    }
    text
}

/// A query that holds neither its prompt nor an assistant turn, so its reply
/// cannot be found.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "the query holds neither its prompt nor an assistant turn; send the decoded prompt + reply as \
     `query` and the prompt text as `prompts`"
)]
pub struct NoReplyFound;

/// The reply in `query` (prompt followed by reply), end-of-turn markers
/// stripped: the text after `prompt` when the query starts with it or holds
/// it, else after the last assistant-turn start.
///
/// # Errors
/// [`NoReplyFound`] when the query holds neither its prompt nor an assistant turn.
pub fn reply_after_prompt<'a>(query: &'a str, prompt: &str) -> Result<&'a str, NoReplyFound> {
    if let Some(reply) = query.strip_prefix(prompt) {
        return Ok(strip_end_of_turn(reply));
    }
    let trimmed = prompt.trim();
    if !trimmed.is_empty()
        && let Some(at) = query.rfind(trimmed)
    {
        // The prompt's trailing newline was trimmed to find it: drop it from the reply too.
        return Ok(strip_end_of_turn(query[at + trimmed.len()..].trim_start()));
    }
    ASSISTANT_STARTS
        .iter()
        .filter_map(|start| query.rfind(start).map(|at| at + start.len()))
        .max()
        .map(|at| strip_end_of_turn(&query[at..]))
        .ok_or(NoReplyFound)
}

#[cfg(test)]
mod tests {
    use super::*;

    const PROMPT: &str = "<|im_start|>user\nWhat is 2+3?<|im_end|>\n<|im_start|>assistant\n";

    #[test]
    fn the_prompt_is_cut_off_and_end_markers_dropped() {
        let query = format!("{PROMPT}The answer is \\boxed{{5}}<|im_end|><|endoftext|>");
        assert_eq!(
            reply_after_prompt(&query, PROMPT).unwrap(),
            "The answer is \\boxed{5}"
        );
        // Decoding may lose the prompt's leading token: found inside.
        let query = format!("<s>{PROMPT}5</s>");
        assert_eq!(reply_after_prompt(&query, PROMPT).unwrap(), "5");
    }

    #[test]
    fn without_the_prompt_the_last_assistant_turn_counts_or_nothing_does() {
        let query = "<|im_start|>user\nWhat is  2+3?<|im_end|>\n<|im_start|>assistant\n7<|im_end|>";
        assert_eq!(reply_after_prompt(query, PROMPT).unwrap(), "7");
        assert!(reply_after_prompt("What is 2+3? 5", "Compute 2+3").is_err());
        assert_eq!(reply_after_prompt(PROMPT, PROMPT).unwrap(), "");
    }
}
