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
Trainer hooks (verl, TRL) are in :mod:`verigym.adapters`.
"""

from ._verigym import (
    Env,
    EnvError,
    __version__,
    check_math,
    generate,
    list_envs,
    make,
    score,
    spec,
)

__all__ = [
    "Env",
    "EnvError",
    "__version__",
    "check_math",
    "generate",
    "list_envs",
    "make",
    "score",
    "spec",
]
