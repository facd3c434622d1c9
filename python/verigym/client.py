"""A small client for ``verigym serve``, so that remote rollout workers use
the server without writing HTTP (standard library only).

>>> client = verigym.Client("http://127.0.0.1:8080")        # doctest: +SKIP
>>> cards = client.generate("logic/sudoku-v1@easy", n=4, seed=1)
>>> client.score([{"card": c, "answer": "..."} for c in cards])["summary"]
>>> episode = client.create_episode("games/kuhn-poker-v1", seed=3)
>>> episode = client.step(episode["episode_id"], "check")

Each episode answer is one seat's view (``info.view`` says whose); pass
``view="all"`` to :meth:`Client.create_episode` for the trainer view of
every seat. Creating an episode answers its tokens (``tokens.creator`` and
``tokens.seats[P]``); the client keeps the creator token of each episode it
created and sends it (``Authorization: Bearer``) unless ``token=`` names
another, e.g. a seat token handed over by the episode's creator. A busy server (503) is retried after its ``Retry-After``;
failures raise a subclass of :class:`ServerError` that carries the status
and the server's message.
"""

from __future__ import annotations

import json
import time
import urllib.error
import urllib.parse
import urllib.request
from typing import Any, Iterable

__all__ = [
    "BadRequest",
    "Busy",
    "Client",
    "Conflict",
    "Forbidden",
    "NotFound",
    "PayloadTooLarge",
    "ServerError",
    "TooManyEpisodes",
    "Unreachable",
]


class ServerError(Exception):
    """An error answer of the server: ``status`` and its ``message``."""

    def __init__(self, status: int, message: str, method: str = "", path: str = ""):
        super().__init__(f"{method} {path}: {status} {message}".strip())
        self.status = status
        self.message = message


class BadRequest(ServerError, ValueError):
    """400: malformed JSON, a bad config, an invalid action."""


class Forbidden(ServerError, PermissionError):
    """403: a seat token used for another seat, or to delete."""


class NotFound(ServerError, LookupError):
    """404: an unknown env id (the message suggests one), or an episode that
    is unknown or not this token's."""


class Conflict(ServerError):
    """409: the episode is over, or it is not this player's turn."""


class PayloadTooLarge(ServerError, ValueError):
    """413: the body is over the server's ``--max-body``; split the batch."""


class TooManyEpisodes(ServerError):
    """429: ``--max-episodes`` episodes are live; delete finished ones."""


class Busy(ServerError):
    """503 after every retry: the server's work queue stayed full."""


class Unreachable(ServerError, ConnectionError):
    """No HTTP answer at all (refused, reset, timed out)."""


_ERRORS = {400: BadRequest, 403: Forbidden, 404: NotFound, 409: Conflict, 413: PayloadTooLarge, 429: TooManyEpisodes, 503: Busy}


class Client:
    """``verigym serve`` at ``url`` (e.g. ``http://127.0.0.1:8080``).

    ``retries`` is how many times a 503 is retried, each after the server's
    ``Retry-After`` seconds (capped by ``max_wait``); ``timeout`` is per
    request, in seconds.
    """

    def __init__(self, url: str, *, timeout: float = 60.0, retries: int = 5, max_wait: float = 10.0):
        if not url.startswith(("http://", "https://")):
            raise ValueError(f"url must start with http:// or https://, got {url!r}")
        self.url = url.rstrip("/")
        self.timeout = timeout
        self.retries = retries
        self.max_wait = max_wait
        # Creator tokens of the episodes this client created, by episode id.
        self._tokens: dict[str, str] = {}

    def __repr__(self) -> str:
        return f"Client({self.url!r})"

    # -- transport ---------------------------------------------------------

    def request(self, method: str, path: str, body: Any = None, *, token: str | None = None) -> Any:
        """One JSON request (with ``Authorization: Bearer token`` when a
        token is given); the decoded answer. Retries 503 answers.

        Raises:
            ServerError: a subclass by status (BadRequest, NotFound, ...).
        """
        data = None if body is None else json.dumps(body).encode()
        headers = {"content-type": "application/json"}
        if token is not None:
            headers["authorization"] = f"Bearer {token}"
        for attempt in range(self.retries + 1):
            request = urllib.request.Request(self.url + path, data=data, method=method, headers=headers)
            try:
                with urllib.request.urlopen(request, timeout=self.timeout) as response:
                    payload = response.read()
                    return json.loads(payload) if payload else None
            except urllib.error.HTTPError as error:
                status, payload = error.code, error.read()
                retry_after = error.headers.get("Retry-After")
            except (urllib.error.URLError, ConnectionError, TimeoutError) as error:
                reason = getattr(error, "reason", error)
                raise Unreachable(0, f"no answer from {self.url}: {reason}", method, path) from error
            if status == 503 and attempt < self.retries:
                time.sleep(min(_seconds(retry_after), self.max_wait))
                continue
            raise _error(status, payload, method, path)
        raise AssertionError("unreachable")  # pragma: no cover

    # -- stateless ---------------------------------------------------------

    def health(self) -> dict:
        return self.request("GET", "/healthz")

    def envs(self) -> list[dict]:
        """Every env with its spec, presets, levels and default config."""
        return self.request("GET", "/v1/envs")["envs"]

    def generate(
        self,
        env_id: str,
        n: int = 10,
        *,
        seed: int = 0,
        offset: int = 0,
        config: dict | None = None,
        format: str = "card",
    ) -> list[dict]:
        """``n`` task cards (or chat rows with ``format="chat"``), exactly as
        ``verigym.generate`` makes them."""
        body: dict[str, Any] = {"id": env_id, "n": n, "seed": seed, "offset": offset, "format": format}
        if config is not None:
            body["config"] = config
        return self.request("POST", "/v1/generate", body)["cards"]

    def score(self, items: Iterable[dict], *, shaping: dict | None = None) -> dict:
        """Scores ``{"card", "answer" | "response"}`` items in one batch:
        ``{"results": [...], "summary": {...}}``; a bad item gets its own
        ``error`` and the rest are still scored."""
        body: dict[str, Any] = {"items": list(items)}
        if shaping is not None:
            body["shaping"] = shaping
        return self.request("POST", "/v1/score", body)

    # -- episodes ----------------------------------------------------------

    def create_episode(
        self,
        env_id: str | None = None,
        *,
        seed: int | None = None,
        config: dict | None = None,
        card: dict | None = None,
        view: str = "seat",
        player: int | None = None,
    ) -> dict:
        """Starts an episode of ``env_id`` (or of ``card``); the answer holds
        ``episode_id``, ``tokens`` (``creator`` and one per seat), ``seed``
        (random when none was given) and the view of ``player`` (default:
        the first to move), or of every seat with ``view="all"``."""
        body: dict[str, Any] = {"view": view}
        for key, value in (("id", env_id), ("seed", seed), ("config", config), ("card", card), ("player", player)):
            if value is not None:
                body[key] = value
        answer = self.request("POST", "/v1/episodes", body)
        self._tokens[answer["episode_id"]] = answer["tokens"]["creator"]
        return answer

    def step(self, episode_id: str, action: str, *, player: int | None = None, token: str | None = None) -> dict:
        """One action; the answer is the acting player's view. ``token``:
        a seat token (default: the creator token of an episode created
        here)."""
        body: dict[str, Any] = {"action": action}
        if player is not None:
            body["player"] = player
        path = f"/v1/episodes/{_quote(episode_id)}/step"
        return self.request("POST", path, body, token=self._token(episode_id, token))

    def get_episode(self, episode_id: str, *, player: int | None = None, token: str | None = None) -> dict:
        """The episode as ``player`` sees it (default: the token's seat, or
        for the creator the one to move)."""
        query = "" if player is None else f"?player={int(player)}"
        path = f"/v1/episodes/{_quote(episode_id)}{query}"
        return self.request("GET", path, token=self._token(episode_id, token))

    def delete_episode(self, episode_id: str, *, token: str | None = None) -> dict:
        """Ends the episode (creator token only); answers its final view."""
        answer = self.request("DELETE", f"/v1/episodes/{_quote(episode_id)}", token=self._token(episode_id, token))
        self._tokens.pop(episode_id, None)
        return answer

    def _token(self, episode_id: str, token: str | None) -> str | None:
        return token if token is not None else self._tokens.get(episode_id)


def _quote(episode_id: str) -> str:
    return urllib.parse.quote(episode_id, safe="")


def _seconds(retry_after: str | None) -> float:
    try:
        return max(0.0, float(retry_after)) if retry_after else 1.0
    except ValueError:
        return 1.0


def _error(status: int, payload: bytes, method: str, path: str) -> ServerError:
    try:
        message = json.loads(payload).get("error") or payload.decode(errors="replace")
    except (ValueError, AttributeError):
        message = payload.decode(errors="replace")
    cls = _ERRORS.get(status, ServerError)
    return cls(status, message, method, path)
