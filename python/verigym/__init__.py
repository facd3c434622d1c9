"""verigym: verifiable-reward environments for RL training of LLM agents.

Math, code (run in a WASM sandbox), logic puzzles, tool use, web tasks and
self-play games, with rewards computed in Rust.

    >>> import verigym
    >>> env = verigym.make("math/arithmetic-v1@easy")
    >>> observation, info = env.reset(seed=0)
    >>> observation, reward, terminated, truncated, info = env.step("42")
    >>> cards = verigym.generate("math/arithmetic-v1", n=4, seed=1)
    >>> [s["reward"] for s in verigym.score(cards, ["1", "2", "3", "4"])]

Batch functions (``generate``, ``score``, ``check_math``) release the GIL
and use every core (``threads=`` caps that, e.g. 1 per Ray worker).
Failures raise :class:`EnvError` (a ``ValueError``) with the Rust message.
:class:`SeatEnv` plays one seat of an env against a built-in opponent and
shows only that seat's view; the trainer integrations (verl, TRL, OpenRLHF)
in :mod:`verigym.integrations` run every episode through it.
"""

from ._verigym import (
    Env,
    EnvError,
    SeatEnv,
    __version__,
    check_math,
    generate,
    import_rows,
    list_envs,
    make,
    reply_after_prompt,
    score,
    score_labels,
    spec,
    strip_end_of_turn,
)
from .client import Client

__all__ = [
    "Client",
    "Env",
    "EnvError",
    "SeatEnv",
    "__version__",
    "check_math",
    "generate",
    "import_rows",
    "list_envs",
    "make",
    "reply_after_prompt",
    "score",
    "score_labels",
    "spec",
    "strip_end_of_turn",
]
