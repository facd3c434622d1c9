"""Action, observation and state of verigym's OpenEnv sessions: the models
that `verigym serve` publishes at GET /schema (VerigymAction,
VerigymObservation, VerigymState)."""

from typing import Any, Dict, List, Optional

from openenv.core.env_server.types import Action, Observation, State
from pydantic import ConfigDict, Field


class VerigymAction(Action):
    """One move: the reply text, or a game's move (one of `legal_actions`)."""

    action: str = Field(..., description="The reply text (or the move).")
    player: Optional[int] = Field(default=None, description="Who acts (trainer sessions, reset(view='all'), only).")


class VerigymObservation(Observation):
    """What the session's seat sees. `metadata` holds the seat view's
    `info` (the server's one seat view: `invalid_actions`, `retries_left`,
    `invalid_action`, the seat's `score`, the step's `events`; every seat's
    `scores`, the `prompt`, `card_id` and `seed` once the episode is over)
    with `terminated`, `truncated` and `step_count`."""

    # Fields a newer server adds are kept, not refused.
    model_config = ConfigDict(extra="allow", validate_assignment=True, arbitrary_types_allowed=True)

    env_id: str = Field(default="", description="The env this session plays, e.g. logic/sudoku-v1.")
    episode_id: str = Field(default="", description="The session's episode.")
    text: str = Field(default="", description="The prompt or the current view, as text.")
    structured: Any = Field(default=None, description="The same view as JSON.")
    legal_actions: Optional[List[str]] = Field(default=None, description="A game's legal moves; None: any text.")
    tools: List[Dict[str, Any]] = Field(default_factory=list, description="OpenAI function schemas, for tool envs.")
    view: Any = Field(default=None, description='Whose view: a seat number, or "all".')
    current_player: Optional[int] = Field(default=None, description="The seat to move; None once over.")
    to_move: List[int] = Field(default_factory=list, description="Every seat to move.")


class VerigymState(State):
    """The session's state (GET /state, or `state` on /ws)."""

    env_id: str = Field(default="", description="The env this session plays.")
    done: bool = Field(default=False, description="Whether the episode is over.")
    players: int = Field(default=1, description="Seats in the env.")
    seat: Any = Field(default=None, description='The session\'s seat, or "all".')
    to_move: List[int] = Field(default_factory=list, description="Every seat to move.")
