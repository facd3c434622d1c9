"""The typed OpenEnv client of `verigym serve`: upstream's `EnvClient` over
the /ws session protocol, with verigym's action, observation and state."""

from typing import Any, Dict, Union

from openenv.core import EnvClient
from openenv.core.client_types import StepResult

from .models import VerigymAction, VerigymObservation, VerigymState


class VerigymEnv(EnvClient[VerigymAction, VerigymObservation, VerigymState]):
    """A session on a `verigym serve` (one env per session, picked at reset).

    Example:
        >>> with VerigymEnv(base_url="http://localhost:8000").sync() as env:
        ...     result = env.reset(env_id="games/kuhn-poker-v1", seed=3, seat=1, opponent="heuristic")
        ...     while not result.done:
        ...         result = env.step(VerigymAction(action=result.observation.legal_actions[0]))
        ...     print(result.reward, result.observation.metadata["scores"])

    `reset` takes `env_id` with `seed` and `config`, or a task `card`;
    games take `seat`, `opponent` (random, heuristic, oracle) and
    `view="all"` (a trainer session that moves every seat). `step` also
    takes a plain string.
    """

    def _step_payload(self, action: Union[VerigymAction, str]) -> Dict[str, Any]:
        if isinstance(action, str):
            action = VerigymAction(action=action)
        payload: Dict[str, Any] = {"action": action.action}
        if action.player is not None:
            payload["player"] = action.player
        if action.metadata:
            payload["metadata"] = action.metadata
        return payload

    def _parse_result(self, payload: Dict[str, Any]) -> StepResult[VerigymObservation]:
        done = payload.get("done", False)
        reward = payload.get("reward")
        observation = VerigymObservation(**{**payload.get("observation", {}), "done": done, "reward": reward})
        return StepResult(observation=observation, reward=reward, done=done)

    def _parse_state(self, payload: Dict[str, Any]) -> VerigymState:
        return VerigymState(**payload)
