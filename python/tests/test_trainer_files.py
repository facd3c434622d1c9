"""Trainer files that travel with the package: the verl agent loop config
(`agent_config_path()`), and the OpenRLHF feedback template read from the
tokenizer's chat template. No trainer install needed: the tokenizers here
render their templates in plain Python (the real Qwen2.5 tokenizer is
checked in test_trainer_openrlhf.py)."""

from __future__ import annotations

import fnmatch
import sys
from pathlib import Path

import pytest

import verigym
from verigym.integrations.chat_template import CHATML_FEEDBACK, feedback_template
from verigym.integrations.verl import AGENT_NAME, agent_config_path

PYTHON_DIR = Path(__file__).resolve().parents[1]


def test_the_agent_config_ships_inside_the_package_and_registers_the_loop():
    path = Path(agent_config_path())
    assert path.is_file()
    package = Path(verigym.__file__).resolve().parent
    assert package in path.resolve().parents, f"{path} is outside the package {package}"
    text = path.read_text()
    assert f"- name: {AGENT_NAME}\n" in text
    assert "_target_: verigym.integrations.verl_agent.VerigymAgentLoop" in text


def test_the_wheel_includes_the_agent_config():
    """maturin puts in the wheel what pyproject's `include` names besides
    the Python files; the config file must match it."""
    if sys.version_info < (3, 11):
        pytest.skip("tomllib needs Python 3.11")
    import tomllib

    pyproject = tomllib.loads((PYTHON_DIR / "pyproject.toml").read_text())
    include = pyproject["tool"]["maturin"]["include"]
    relative = Path(agent_config_path()).resolve().relative_to(PYTHON_DIR).as_posix()
    assert any(fnmatch.fnmatch(relative, pattern) for pattern in include), (relative, include)


class ChatMl:
    """Qwen2.5's ChatML, as its Jinja template renders it."""

    chat_template = "chatml"
    eos_token = "<|im_end|>"

    def apply_chat_template(self, messages, tokenize=False, add_generation_prompt=False):
        assert tokenize is False
        text = "<|im_start|>system\nYou are a helpful assistant.<|im_end|>\n"
        for m in messages:
            text += f"<|im_start|>{m['role']}\n{m['content']}<|im_end|>\n"
        return text + ("<|im_start|>assistant\n" if add_generation_prompt else "")


class Llama3:
    """Llama 3's header markup, end of turn `<|eot_id|>`."""

    chat_template = "llama3"
    eos_token = "<|eot_id|>"

    def apply_chat_template(self, messages, tokenize=False, add_generation_prompt=False):
        text = "<|begin_of_text|>"
        for m in messages:
            text += f"<|start_header_id|>{m['role']}<|end_header_id|>\n\n{m['content']}<|eot_id|>"
        return text + ("<|start_header_id|>assistant<|end_header_id|>\n\n" if add_generation_prompt else "")


class Braces(ChatMl):
    """A template whose markup holds braces, which str.format would eat."""

    eos_token = "{|im_end|>"

    def apply_chat_template(self, messages, tokenize=False, add_generation_prompt=False):
        return super().apply_chat_template(messages, tokenize, add_generation_prompt).replace("<|", "{|")


class Rewriting(ChatMl):
    """A template that drops earlier turns' text once the chat grows."""

    def apply_chat_template(self, messages, tokenize=False, add_generation_prompt=False):
        return super().apply_chat_template(messages[-1:], tokenize, add_generation_prompt)


def test_the_feedback_template_of_chatml_is_qwens():
    assert feedback_template(ChatMl()) == CHATML_FEEDBACK


def test_the_feedback_template_follows_another_model_familys_markup():
    template = feedback_template(Llama3())
    assert template == (
        "<|start_header_id|>user<|end_header_id|>\n\n{feedback}<|eot_id|>"
        "<|start_header_id|>assistant<|end_header_id|>\n\n"
    )
    assert "<|im_start|>" not in template
    # Appended after a turn the model ended with its own end-of-turn token,
    # the chat reads as the template renders it.
    llama = Llama3()
    turn = [{"role": "user", "content": "hi"}, {"role": "assistant", "content": "move"}]
    generated = llama.apply_chat_template(turn)
    assert generated + template.format(feedback="ok") == llama.apply_chat_template(
        [*turn, {"role": "user", "content": "ok"}], add_generation_prompt=True
    )


def test_braces_in_the_markup_survive_format():
    rendered = feedback_template(Braces()).format(feedback="x = {1}")
    assert rendered == CHATML_FEEDBACK.replace("{feedback}", "x = {1}").replace("<|", "{|")


def test_no_chat_template_falls_back_to_chatml_and_a_rewriting_one_is_refused():
    class Plain:
        chat_template = None

    assert feedback_template(Plain()) == CHATML_FEEDBACK
    with pytest.raises(ValueError, match="set the feedback template yourself"):
        feedback_template(Rewriting())
