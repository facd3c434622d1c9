"""Per-seat views of `verigym.Env`: `step` returns the acting seat's own view
and names it; nothing of another seat's hidden state reaches a seat before
the showdown. Each hidden-information game plays paired episodes that differ
only in the opponent's hidden state; the seat's responses (its own reward
and the step's public events included) must be identical until the episode
ends (where the showdown may reveal the difference)."""

from __future__ import annotations

import copy
from typing import Any, Callable

import pytest

import verigym


def kuhn(task: dict, opponent: int) -> None:
    for deal in task["deals"]:
        # The third card: neither the seat's nor the opponent's.
        deal[opponent] = ({0, 1, 2} - {deal[0], deal[1]}).pop()


def leduc(task: dict, opponent: int) -> None:
    # Cards 0..5, rank card // 2 (J J Q Q K K): an unused card of another rank.
    for deal in task["deals"]:
        deal[opponent] = min(c for c in set(range(6)) - set(deal) if c // 2 != deal[opponent] // 2)


def holdem(task: dict, opponent: int) -> None:
    # [p0's two cards, p1's two, five board cards] out of 52: the opponent
    # gets two cards nobody holds.
    for deal in task["deals"]:
        spare = [c for c in range(52) if c not in deal]
        deal[2 * opponent], deal[2 * opponent + 1] = spare[0], spare[1]


def liars_dice(task: dict, opponent: int) -> None:
    task["dice"][opponent] = [d % 6 + 1 for d in task["dice"][opponent]]


def battleship(task: dict, opponent: int) -> None:
    size = task["size"]
    # The fleet mirrored left to right: same ships, other cells (the
    # generated fleets are never all symmetric; checked below).
    task["fleets"][opponent] = [[r * size + (size - 1 - c) for r, c in (divmod(x, size) for x in ship)] for ship in task["fleets"][opponent]]


def negotiation(task: dict, opponent: int) -> None:
    task["values"][opponent] = [v % 9 + 1 for v in task["values"][opponent]]


def battleship_misses_in_both(cards: tuple[dict, dict], opponent: int, move: str) -> bool:
    """A shot is an honest reveal (hit or miss), so the seat fires only at
    cells empty in both fleets: then nothing it is shown may differ."""
    size = cards[0]["task"]["size"]
    cell = (int(move[1:]) - 1) * size + (ord(move[0]) - ord("a"))
    return all(cell not in ship for card in cards for ship in card["task"]["fleets"][opponent])


HIDDEN: dict[str, Callable[[dict, int], None]] = {
    "games/kuhn-poker-v1": kuhn,
    "games/leduc-poker-v1": leduc,
    "games/heads-up-limit-holdem-v1": holdem,
    "games/liars-dice-v1": liars_dice,
    "games/battleship-v1": battleship,
    "games/negotiation-v1": negotiation,
}


#: Moves the seat may make in a pair without legitimately learning the
#: difference before the end (default: any).
SEAT_MOVES: dict[str, Callable[[tuple[dict, dict], int, str], bool]] = {
    "games/battleship-v1": battleship_misses_in_both,
}


def paired_cards(game_id: str, seed: int, opponent: int) -> tuple[dict, dict]:
    card = verigym.generate(game_id, 1, seed=seed)[0]
    other = copy.deepcopy(card)
    HIDDEN[game_id](other["task"], opponent)
    assert other["task"] != card["task"], f"{game_id} seed {seed}: the pair does not differ"
    return card, other


#: Moves neither seat plays here, so an episode goes past its first step
#: (a fold ends a hold'em hand at once, before any seat view is compared).
PLAY_ON: dict[str, Callable[[str], bool]] = {
    "games/heads-up-limit-holdem-v1": lambda move: move != "fold",
}


def pick(legal: list[str] | None, env: verigym.Env, player: int, k: int) -> str:
    """A move chosen by position only, so both episodes of a pair play the
    same one; open-text games use the env's sampler on the same seed."""
    if legal:
        keep = PLAY_ON.get(env.card["env_id"])
        if keep:
            legal = [m for m in legal if keep(m)] or legal
        return legal[(k * 7 + 3) % len(legal)]
    return env.random_action(player, seed=k)


def transcript(
    card: dict, seat: int, view: str = "seat", allowed: Callable[[str], bool] = lambda move: True, plies: int = 400
) -> tuple[list[Any], list[str]]:
    """Plays `card` with moves picked by position (the seat's among those
    `allowed`); returns what `seat` was handed before the end (reset, its
    own steps' returns, its observe()) and the moves played."""
    env = verigym.make(card["env_id"], card["config"])
    seen: list[Any] = []
    _, info = env.reset(card=card, view=view)
    if info["info"]["view"] == seat:
        seen.append(("reset", info))
    moves = []
    for k in range(plies):
        if not info["info"]["to_move"]:
            break
        player = info["info"]["to_move"][0]
        text, own = env.observe(player)
        legal = own["observation"]["legal_actions"]
        if player == seat and legal:
            legal = [m for m in legal if allowed(m)]
            if not legal:
                break
        move = pick(legal, env, player, k)
        moves.append(move)
        result = env.step(move, player, view=view)
        text, reward, terminated, truncated, info = result
        if terminated or truncated:
            break
        if player == seat:
            seen.append(("step", result))
        seen.append(("observe", env.observe(seat)))
    return seen, moves


@pytest.mark.parametrize("game_id", sorted(HIDDEN))
@pytest.mark.parametrize("seat", [0, 1])
def test_a_seat_sees_nothing_of_the_opponents_hidden_state(game_id, seat):
    opponent = 1 - seat
    compared = 0
    for seed in range(12):
        card, other = paired_cards(game_id, seed, opponent)
        rule = SEAT_MOVES.get(game_id)
        allowed = (lambda m: rule((card, other), opponent, m)) if rule else (lambda m: True)
        seen_a, moves_a = transcript(card, seat, allowed=allowed)
        seen_b, moves_b = transcript(other, seat, allowed=allowed)
        assert moves_a == moves_b, f"{game_id} seed {seed}: the pair's moves differ; the test needs equal moves"
        assert seen_a == seen_b, f"{game_id} seed {seed}: seat {seat} saw the opponent's hidden state"
        compared += len(seen_a)
        # The pair really differs: the opponent's own first view shows it.
        env_a, env_b = verigym.make(game_id), verigym.make(game_id)
        env_a.reset(card=card)
        env_b.reset(card=other)
        assert env_a.observe_text(opponent) != env_b.observe_text(opponent)
    assert compared >= 12, "at least one response per pair was compared"


@pytest.mark.parametrize("game_id", sorted(HIDDEN))
def test_the_all_seat_view_is_explicit_and_does_differ(game_id):
    """`view="all"` hands out every seat's view: the same pairs differ there,
    so the comparison above would catch a leak."""
    differed = 0
    for seed in range(12):
        card, other = paired_cards(game_id, seed, 1)
        rule = SEAT_MOVES.get(game_id)
        allowed = (lambda m: rule((card, other), 1, m)) if rule else (lambda m: True)
        seen_a, _ = transcript(card, 0, view="all", allowed=allowed)
        seen_b, _ = transcript(other, 0, view="all", allowed=allowed)
        differed += seen_a != seen_b
    assert differed >= 6


@pytest.mark.parametrize("game_id", sorted(HIDDEN))
def test_a_games_seat_view_holds_no_card_id_prompt_or_other_seat(game_id):
    env = verigym.make(game_id)
    _, info = env.reset(seed=3)
    player = info["info"]["to_move"][0]
    assert "card_id" not in info and "prompt" not in info["info"] and "scores" not in info["info"]
    assert info["info"]["view"] == player and set(info["observations"]) == {str(player)}
    text, own = env.observe(player)
    _, reward, _, _, info = env.step(pick(own["observation"]["legal_actions"], env, player, 0), player)
    assert info["info"]["view"] == info["player"] == player and reward == info["reward"]
    assert "card_id" not in info and "prompt" not in info["info"] and "rewards" not in info
    assert set(info["observations"]) == {str(player)} and "score" in info["info"]
    assert isinstance(info["info"]["events"], list)
    _, info = env.reset(seed=3, view="all")
    assert info["card_id"] == env.card["id"] and env.card["seed"] == 3
    assert len(info["observations"]) == env.players and len(info["info"]["scores"]) == env.players


def test_one_player_envs_keep_their_card_and_view_is_checked():
    env = verigym.make("logic/guess-number-v2")
    text, info = env.reset(seed=0)
    assert env.card["seed"] == 0 and info["info"]["view"] == 0
    # The prompt is the lone seat's own; the card id (it ends in the seed) waits for the end.
    assert info["info"]["prompt"] == text and "card_id" not in info
    with pytest.raises(verigym.EnvError, match='view must be "seat"'):
        env.step("50", view="everyone")
    with pytest.raises(verigym.EnvError, match="player 3 does not exist"):
        env.observe(3)
