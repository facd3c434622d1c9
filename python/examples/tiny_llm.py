"""A tiny randomly initialised chat model, built locally with no download:
a byte-level BPE tokenizer trained with `tokenizers` on verigym prompts and
oracle transcripts, Qwen2.5's chat template (shipped with TRL, so TRL and
verl recognise its tool-call format), and a small Qwen2 config.

For the end-to-end training example and the trainer tests; it learns
nothing useful, it only makes every upstream code path run.
"""

from __future__ import annotations

import json
from collections.abc import Iterable

from tokenizers import Tokenizer, decoders, models, pre_tokenizers, trainers

import verigym
from verigym.integrations.episodes import SYSTEM_PROMPT, env_tools

SPECIAL = ["<|endoftext|>", "<|im_start|>", "<|im_end|>"]
# Plain added tokens, as in Qwen's own tokenizer (decoding keeps them).
MARKERS = ["<tool_call>", "</tool_call>", "<tool_response>", "</tool_response>", "<think>", "</think>"]


def corpus(env_ids: Iterable[str], n: int = 20) -> list[str]:
    """Prompts, tool schemas and oracle transcripts of a few envs."""
    texts = [SYSTEM_PROMPT]
    for env_id in env_ids:
        tools = env_tools(env_id)
        if tools:
            texts += list(tools)
        for card in verigym.generate(env_id, n, seed=99):
            env = verigym.make(env_id)
            observation, info = env.reset(card=card)
            texts.append(observation)
            for _ in range(200):
                action = env.oracle_action()
                if action is None:
                    break
                texts.append(action)
                observation, _, terminated, truncated, info = env.step(action)
                texts.append(observation)
                if terminated or truncated:
                    break
    return texts


def tiny_tokenizer(texts: Iterable[str], vocab_size: int = 1200):
    """A byte-level BPE tokenizer with Qwen2.5's chat template."""
    from transformers import AddedToken, PreTrainedTokenizerFast
    from trl.chat_template_utils import qwen2_5_chat_template

    tokenizer = Tokenizer(models.BPE())
    tokenizer.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    tokenizer.decoder = decoders.ByteLevel()
    trainer = trainers.BpeTrainer(
        vocab_size=vocab_size,
        special_tokens=SPECIAL,
        initial_alphabet=pre_tokenizers.ByteLevel.alphabet(),
        show_progress=False,
    )
    tokenizer.train_from_iterator(list(texts) + [json.dumps({"name": "x", "arguments": {}})], trainer)
    fast = PreTrainedTokenizerFast(
        tokenizer_object=tokenizer,
        eos_token="<|im_end|>",
        pad_token="<|endoftext|>",
        chat_template=qwen2_5_chat_template,
    )
    fast.add_tokens([AddedToken(m, special=False, normalized=False) for m in MARKERS])
    return fast


def tiny_model(tokenizer, hidden: int = 64, layers: int = 2):
    """A randomly initialised Qwen2 causal LM sized for `tokenizer`."""
    from transformers import Qwen2Config, Qwen2ForCausalLM

    config = Qwen2Config(
        vocab_size=len(tokenizer),
        hidden_size=hidden,
        intermediate_size=hidden * 2,
        num_hidden_layers=layers,
        num_attention_heads=4,
        num_key_value_heads=2,
        max_position_embeddings=8192,
        eos_token_id=tokenizer.eos_token_id,
        pad_token_id=tokenizer.pad_token_id,
        bos_token_id=None,
        tie_word_embeddings=True,
    )
    return Qwen2ForCausalLM(config)
