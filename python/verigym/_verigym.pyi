"""Type stubs of the Rust extension module (see ``verigym/__init__.py``)."""

from collections.abc import Iterable, Mapping, Sequence
from typing import Any, Literal, TypedDict, Union

__version__: str

JSON = Any
"""A JSON-shaped value: dict, list, str, int, float, bool or None."""

Card = Union[Mapping[str, JSON], str]
"""A task card from :func:`generate` (a dict, a chat row holding one under
``"card"``, or either as JSON text)."""

Answer = Union[str, Sequence[str], None]
"""One action text, a list of them (one per turn), or None (no answer)."""

class Score(TypedDict):
    id: str
    #: None when the answer got no verdict: the sandbox or a toolchain
    #: failed, not the answer (``no_verdict`` says why). Drop the sample.
    reward: float | None
    passed: bool
    breakdown: dict[str, float]
    no_verdict: str | None

class PlayerScore(TypedDict):
    reward: float
    passed: bool
    breakdown: dict[str, float]

class Observation(TypedDict):
    """What one seat sees: the text, the same as JSON, and the legal moves
    (None for open-ended text actions)."""

    text: str
    structured: JSON
    legal_actions: list[str] | None

class _ViewInfo(TypedDict):
    view: int | Literal["all"]
    current_player: int | None
    to_move: list[int]
    steps: int
    max_steps: int
    invalid_actions: int
    retries_left: int | None

class ViewInfo(_ViewInfo, total=False):
    """``SeatView["info"]``: keys after the first seven appear only where
    the view shows them (see :class:`SeatView`)."""

    invalid_action: str
    forfeit: int
    score: PlayerScore
    scores: list[PlayerScore]
    prompt: str
    events: list[str]

class _SeatView(TypedDict):
    env_id: str
    players: int
    observation: Observation | None
    observations: dict[str, Observation]
    terminated: bool
    truncated: bool
    info: ViewInfo

class SeatView(_SeatView, total=False):
    """The ``info`` of ``Env`` and ``SeatEnv``: the same view, key for key,
    as the server's episode answers (one Rust type makes both).

    A seat's view (the default) holds its own observation (``observations``
    has only its own), who moves, steps, its own refusals and
    ``retries_left`` (None: no limit), its own ``score``, after a step its
    own ``reward`` and the step's ``events`` (public facts). In a game it
    never holds another seat's observation, reward or score, the
    ``card_id`` or the ``prompt`` while the game runs; the ``card_id``
    (which ends in the seed) is never shown before the end, even in
    one-player envs. At the end every seat's ``scores``, the step's
    ``rewards``, the ``card_id`` and the ``prompt`` open. ``view="all"``
    (the trainer view) holds all of that at every step, every seat's
    observation and no ``score``."""

    card_id: str
    player: int
    reward: float
    rewards: list[float]

class MathVerdict(TypedDict):
    equivalent: bool
    gold_parsed: str | None
    prediction_parsed: str | None
    reason: str

class EnvError(ValueError):
    """An env refused: unknown id or preset, bad config or task card, a step
    out of turn or after the end. The message is the Rust error's.

    ``kind`` says which, as a stable snake_case word to branch on (messages
    may be reworded; kinds are not): the Rust ``EnvError`` variant
    (``unknown_env``, ``version_not_found``, ``superseded``,
    ``card_refused``, ``unknown_preset``, ``bad_config``, ``duplicate_id``,
    ``no_task_within_budget``, ``bad_card``, ``not_single_turn``,
    ``reset_needed``, ``episode_over``, ``not_your_turn``,
    ``invalid_action``), ``no_reply_found`` from ``reply_after_prompt``, or
    ``invalid_argument`` for an argument the Python layer refused itself (a
    ``player`` or ``view`` that does not exist). ``None`` when raised by
    Python code (the trainer integrations)."""

    kind: str | None

class Env:
    """One environment with Gymnasium-style ``reset`` / ``step``.

    Observations are the text an LLM agent reads; actions are its reply.
    ``info`` is a :class:`SeatView`: by default the acting seat's own view
    (``reset``: the first mover's, ``observe(player)``: any seat's);
    ``view="all"`` is the trainer view for a caller that plays every seat.
    A refused action leaves the episode unchanged and sets
    ``info["info"]["invalid_action"]``; ``Env`` sets no retry limit. The
    task card is ``env.card``.
    """

    @property
    def id(self) -> str: ...
    @property
    def players(self) -> int: ...
    @property
    def config(self) -> dict[str, JSON]: ...
    @property
    def card(self) -> dict[str, JSON] | None: ...
    def reset(
        self,
        seed: int | None = None,
        *,
        card: Card | None = None,
        options: Mapping[str, Any] | None = None,
        view: Literal["seat", "all"] = "seat",
    ) -> tuple[str, SeatView]:
        """Starts the task of ``seed`` (default: the last seed + 1, from 0),
        or the given ``card``. Returns the first mover's ``(observation,
        info)``."""
    def step(
        self, action: str, player: int | None = None, *, view: Literal["seat", "all"] = "seat"
    ) -> tuple[str, float | list[float], bool, bool, SeatView]:
        """Applies ``action`` for ``player`` (default: whoever moves now).
        Returns ``(observation, reward, terminated, truncated, info)``: the
        acting seat's view and its own reward (``view="all"``: the trainer
        view led by the next mover, the reward a per-player list in games).
        Raises EnvError before reset, after the end, or out of turn."""
    def observe_text(self, player: int | None = None) -> str: ...
    def observe(self, player: int | None = None) -> tuple[str, SeatView]:
        """``player``'s own seat view now (default: whoever moves now)."""
    def score(self, player: int = 0) -> PlayerScore: ...
    def oracle_action(self, player: int | None = None) -> str | None:
        """The reference solver's next action (for data and tests)."""
    def random_action(self, player: int | None = None, seed: int = 0) -> str: ...
    def render(self) -> str: ...

class SeatEnv:
    """One seat of an env against a built-in opponent (``random``,
    ``heuristic`` or ``oracle``), which moves inside ``reset`` and ``step``.
    Everything returned is that seat's own view, a :class:`SeatView` (as
    ``Env`` and the server give it): its observation, legal moves, own
    score and reward, the public events of its step and the opponents'
    replies; another seat's view or score, the card id and (in games) the
    prompt only once the episode is over. After a refused action
    ``info["info"]["invalid_action"]`` says why; past ``max_retries``
    refusals on one turn the seat forfeits (the driver's rule) and
    ``info["info"]["forfeit"]`` names the seat."""

    def __init__(
        self,
        env_id: str,
        config: Mapping[str, JSON] | None = None,
        *,
        seat: int = 0,
        opponent: Literal["random", "heuristic", "oracle"] = "heuristic",
        max_retries: int = 2,
        max_turns: int | None = None,
    ) -> None: ...
    @property
    def id(self) -> str: ...
    @property
    def kind(self) -> Literal["single_turn", "multi_turn", "game"]: ...
    @property
    def players(self) -> int: ...
    @property
    def seat(self) -> int: ...
    @property
    def opponent(self) -> str: ...
    @property
    def done(self) -> bool: ...
    def reset(
        self, seed: int | None = None, *, card: Card | None = None, seat: int | None = None
    ) -> tuple[str, SeatView]:
        """Starts the episode of ``card`` or ``seed`` with the agent in
        ``seat``; the opponents move until the seat must."""
    def step(self, action: str) -> tuple[str, float, bool, bool, SeatView]:
        """The seat's action, then the opponents' replies:
        ``(observation, reward change, terminated, truncated, info)``."""
    def score(self) -> PlayerScore: ...
    def observe_text(self) -> str: ...
    def tools(self) -> list[dict[str, JSON]] | None:
        """The env's tools as OpenAI function schemas, or None."""
    def oracle_action(self) -> str | None:
        """The reference solver's next action for the seat (tests and data)."""

def strip_end_of_turn(text: str) -> str:
    """``text`` without trailing end-of-turn markers (``<|im_end|>``, ``</s>``, ...)."""

def reply_after_prompt(query: str, prompt: str) -> str:
    """The reply in ``query`` (decoded prompt + reply), end-of-turn markers
    stripped. Raises EnvError when the query holds neither its prompt nor an
    assistant turn."""

def score_labels(
    labels: Iterable[str | Mapping[str, Any]],
    completions: Iterable[Any],
    *,
    opponent: str = "heuristic",
    shaping: Mapping[str, Any] | None = None,
    max_retries: int = 2,
    max_turns: int | None = None,
    threads: int | None = None,
) -> list[dict[str, Any]]:
    """The trainer reward path, one call per batch: ``completions[i]``
    (text, a message or a conversation) against ``labels[i]`` (a task card,
    or ``{"card", "seat"}`` for games, as a dict or JSON text). One-player
    envs score as ``score`` does, games replay the label's seat against
    ``opponent``. Returns what ``score`` returns; raises EnvError naming the
    first bad item."""

def parse_label(label: str | Mapping[str, Any]) -> tuple[dict[str, Any], int]:
    """The task card and seat of a label; raises EnvError when it holds none."""

def completion_actions(completion: Any, action_tool: str | None = None) -> list[str]:
    """The actions of a completion, one per assistant turn: tool calls as
    one ``{"tool_calls": [...]}`` action in OpenAI's shape (a call of
    ``action_tool`` is its ``action`` argument), else the text with separate
    reasoning in front as ``<think>…</think>``."""

def completion_answer(completion: Any, action_tool: str | None = None) -> str:
    """A single-turn answer: the completion's last action."""

def message_actions(message: Mapping[str, Any], action_tool: str | None = None) -> list[str]:
    """The actions of one chat message (none for another role)."""

def tool_call_action(name: str, arguments: Any) -> str:
    """One tool call as the action text envs read."""

def make(env_id: str, config: Mapping[str, JSON] | None = None) -> Env:
    """Makes ``env_id`` (``family/name-vN``, optionally ``@preset`` or
    ``@LEVEL``) with optional config overrides."""

def list_envs(family: str | None = None) -> list[str]:
    """Ids of every env (or one family's: math, logic, games, tools, web, code)."""

def spec(env_id: str) -> dict[str, Any]:
    """id, family, version, kind, description, players, max_steps,
    reward_range, zero_sum, presets, levels."""

def generate(
    env_id: str,
    n: int,
    seed: int = 0,
    config: Mapping[str, JSON] | None = None,
    format: Literal["card", "chat"] = "card",
    threads: int | None = None,
    start: int = 0,
) -> list[dict[str, JSON]]:
    """Task cards ``start .. start + n`` of the batch from ``seed`` (the same
    as ``verigym generate``; shards with consecutive ``start`` concatenate to
    one batch). ``format="chat"`` gives rows ``{"id", "env_id", "messages",
    "card"}`` for chat trainers."""

def score(
    tasks: Iterable[Card],
    answers: Iterable[Answer],
    shaping: Mapping[str, JSON] | None = None,
    threads: int | None = None,
) -> list[Score]:
    """Scores ``answers[i]`` against ``tasks[i]`` in parallel with the GIL
    released. Raises EnvError naming the first bad task. An answer the env
    could not judge (sandbox or toolchain failure) gets ``reward`` None and
    the reason in ``no_verdict``, never a zero."""

def check_math(
    golds: Sequence[str],
    predictions: Sequence[str],
    config: Mapping[str, JSON] | None = None,
    details: bool = False,
    threads: int | None = None,
) -> list[bool] | list[MathVerdict]:
    """Whether each prediction equals its gold answer mathematically."""

def import_rows(
    rows: Iterable[Mapping[str, JSON]],
    layout: str,
    file: str = "<rows>",
    map: Mapping[str, str] | None = None,
    validate: bool = True,
    mutants: bool = False,
) -> dict[str, JSON]:
    """A data set's rows as task cards of math/dataset-v1 or code/dataset-v2:
    {"cards": [...], "summary": {"rows", "kept", "dropped", "drops", "mutants", ...}}.
    `mutants=True` runs mutants of each reference solution on its row's tests and
    lists, per row, how many ran and how many passed every test (weak tests)."""
