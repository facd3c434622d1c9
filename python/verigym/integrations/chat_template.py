"""The text that puts env feedback into a running chat, read from the
tokenizer's own chat template.

Trainers that append env feedback to the token stream (OpenRLHF's
multi-turn executor) need the exact text between the end of the model's turn
and the start of its next one, with the feedback as a user message in
between. Hard-coding one model family's markup (ChatML) feeds any other
model text it was never trained on; rendering the tokenizer's template
twice and taking the difference gives the right markup for every model.
"""

from __future__ import annotations

from typing import Any

__all__ = ["CHATML_FEEDBACK", "feedback_template"]

#: Qwen's ChatML user turn: the fallback for a tokenizer without a chat
#: template.
CHATML_FEEDBACK = "\n<|im_start|>user\n{feedback}<|im_end|>\n<|im_start|>assistant\n"

# Stand-ins that no template changes and no chat contains.
_ASSISTANT = "\x00verigym-assistant\x00"
_FEEDBACK = "\x00verigym-feedback\x00"


def feedback_template(tokenizer: Any) -> str:
    """The feedback template (with ``{feedback}``, literal braces doubled
    for ``str.format``) that follows the model's turn in ``tokenizer``'s
    chat template: the end of the assistant turn after the end-of-turn token
    the model itself generates, a user turn holding the feedback, and the
    prompt of the next assistant turn.

    Falls back to :data:`CHATML_FEEDBACK` when the tokenizer has no chat
    template.

    Raises ``ValueError`` when the template renders a longer chat as
    something other than the shorter one plus more (templates that rewrite
    earlier turns cannot be continued by appending text); set the template
    yourself then.
    """
    if getattr(tokenizer, "chat_template", None) is None:
        return CHATML_FEEDBACK
    turn = [{"role": "user", "content": "hi"}, {"role": "assistant", "content": _ASSISTANT}]
    before = tokenizer.apply_chat_template(turn, tokenize=False)
    after = tokenizer.apply_chat_template(
        [*turn, {"role": "user", "content": _FEEDBACK}], tokenize=False, add_generation_prompt=True
    )
    if not after.startswith(before) or _ASSISTANT not in before or _FEEDBACK not in after:
        raise ValueError(
            "the tokenizer's chat template does not render a longer chat as the shorter one plus "
            "more, so feedback cannot be appended; set the feedback template yourself"
        )
    # What the template puts after the assistant's words; the model already
    # generated its end-of-turn token, so that part is not repeated.
    closing = before[before.index(_ASSISTANT) + len(_ASSISTANT) :]
    eos = getattr(tokenizer, "eos_token", None) or ""
    if eos and closing.startswith(eos):
        closing = closing[len(eos) :]
    text = closing + after[len(before) :]
    escaped = text.replace("{", "{{").replace("}", "}}")
    return escaped.replace(_FEEDBACK, "{feedback}")
