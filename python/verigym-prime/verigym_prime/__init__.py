"""verigym environments for verifiers (v1 API) and prime-rl.

Install this package next to verifiers, then name it as the taskset::

    vf-eval verigym-prime --env.taskset.envs '["logic/guess-number-v2@easy"]' \
        --env.taskset.n 8 -m MODEL --client.base-url URL --no-push

verifiers finds the package by its module name (`verigym_prime`) and takes
the one `Taskset`, `Env` and `Harness` subclass each exported here:
`VerigymTaskset` (task cards from `verigym.generate`, finite or endless,
and the `verigym` reward), `VerigymEnv` (plays multi-turn, tool and game
episodes through verigym) and `VerigymHarness` (one in-process model call
per turn).
"""

from verigym_prime.env import VerigymEnv, VerigymEnvConfig
from verigym_prime.harness import VerigymHarness, VerigymHarnessConfig
from verigym_prime.taskset import VerigymConfig, VerigymData, VerigymTask, VerigymTaskset

__all__ = [
    "VerigymConfig",
    "VerigymData",
    "VerigymEnv",
    "VerigymEnvConfig",
    "VerigymHarness",
    "VerigymHarnessConfig",
    "VerigymTask",
    "VerigymTaskset",
]
