#!/usr/bin/env python3

"""Random-vs-random outcome statistics from OpenSpiel, the independent
implementation the games' agreement tests compare verigym's rules with.

For each named game: N full games of the matched OpenSpiel variant, every
move uniformly random among OpenSpiel's legal actions (Python's
`random.Random(seed)`; chance outcomes drawn with OpenSpiel's own
probabilities), then counts of player-0 wins, player-1 wins and draws, and
the mean and standard deviation of the game length in plies (player moves;
chance outcomes are not plies). One-player games (`ONE_PLAYER`) record the
mean and standard deviation of the final score and of the length instead,
and the distribution of a final quantity (2048: the largest tile; yacht:
the total in bands of 10).
Writes `envs/src/games/agreement/<name>.json` with the OpenSpiel game string and
version; the Rust test in the game's module plays its own random games with
verigym's rules and checks each rate and the mean length against these
within a binomial / normal interval.

With --replays K it writes instead `envs/src/games/agreement/<name>-replays.txt`:
K random games, one a line, each ply as `move/L` (OpenSpiel's name of the
move played and L, its number of legal actions before it), then `=> 0`, `=> 1`
or `=> draw`; the Rust test replays them move by move with the same counts.

Setup (once): python3 -m venv .venv-openspiel &&
    .venv-openspiel/bin/pip install open-spiel==2.0.2
Usage: .venv-openspiel/bin/python scripts/openspiel-stats.py gomoku [--games 100000] [--seed 1]
"""

import argparse
import json
import math
import os
import random
import sys
import time

import pyspiel

# verigym env name (its id without family and version) -> (OpenSpiel game string, verigym config the Rust test uses, note)
GAMES = {
    "gomoku": (
        "gomoku(size=15,connect=5)",
        {"overlines_win": True},
        "OpenSpiel's gomoku is freestyle (a line of five or more wins); "
        "verigym's default is exactly five, so the test plays overlines_win=true",
    ),
    "2048": (
        "2048(max_tile=2048)",
        {"target": 2048},
        "one player; the game ends when a 2048 tile is made or no move changes the board, "
        "as verigym's with target 2048; score = sum of merged tiles. OpenSpiel's legal-move check reads "
        "the merge flags of the previous move, so a move whose only change merges into a tile merged on "
        "the previous move is not listed; the Rust test's random player draws from the moves OpenSpiel lists",
    ),
    "yacht": (
        "yacht(players=1)",
        {},
        "one player, Knizia's rules as OpenSpiel's: 12 categories, no upper bonus, 3 rolls a turn; "
        "keeping all dice (OpenSpiel's action 0) ends the rolling and counts as a move; score = the total "
        "(OpenSpiel's return times 305); score_band = the total rounded down to a multiple of 10",
    ),
    "nine-mens-morris": (
        "nine_mens_morris",
        {},
        "a removal after a mill is its own ply, as in OpenSpiel; a draw after 200 turns",
    ),
    "chess": (
        "chess",
        {},
        "standard chess; OpenSpiel seats Black as player 0 and White as player 1, so the Rust test "
        "counts White's wins as p1_wins; draws are automatic in both: stalemate, the fifty-move rule "
        "(100 plies without a capture or pawn move), threefold repetition, insufficient material; "
        "checkmate on the 100th ply still wins; no ply cap (OpenSpiel's max length 17695 is never reached)",
    ),
    "go-9x9": (
        "go(board_size=9,komi=7.5)",
        {"superko": "draw"},
        "9x9, komi 7.5, Tromp-Taylor area scoring; the board is scored as it stands after two passes in a row "
        "or once 2*9*9 = 162 plies have been played (OpenSpiel's max_game_length); suicide and the immediate "
        "ko recapture are illegal, and any other move that recreates an earlier position ends the game as a "
        "draw (OpenSpiel's superko rule), which verigym plays with superko=draw",
    ),
    "backgammon": (
        "backgammon(hyper_backgammon=false,max_player_turns=500,scoring_type=winloss_scoring)",
        {},
        "standard backgammon, no cube, a win counts 1 (gammons single); the first chance node draws one of the "
        "30 ordered non-doubles, which picks the first player; an action is an ordered pair of checker moves "
        "(one per die; a double is two actions by the same player, the second only when the first used both "
        "dice), so a ply is one action and the random player draws uniformly among ordered pairs; a draw once "
        "more than 500 turns have been played. Replay names: `rollX41` (the opening roll, X or O to start), "
        "`roll41`, or OpenSpiel's move string without its action number, spaces as `_`",
    ),
    "quoridor": (
        "quoridor(board_size=9,wall_count=10,players=2)",
        {},
        "9x9, 10 walls each; a draw once 4*9*9 = 324 plies have been played, "
        "even when that ply reaches the goal, as in OpenSpiel",
    ),
}


# One-player games: name -> (the final quantity whose distribution is kept,
# a function of the terminal state giving it, the final score).
ONE_PLAYER = {
    "2048": (
        "max_tile",
        lambda state: int(max(state.observation_tensor(0))),
        lambda state: state.returns()[0],
    ),
    "yacht": (
        "score_band",
        lambda state: int(round(state.returns()[0] * 305)) // 10 * 10,
        lambda state: int(round(state.returns()[0] * 305)),
    ),
}


def chance(state, rng):
    """A chance outcome drawn with OpenSpiel's probabilities."""
    outcomes = state.chance_outcomes()
    x = rng.random()
    for action, p in outcomes:
        x -= p
        if x < 0:
            return action
    return outcomes[-1][0]


def yacht_roll(last, rng):
    """A yacht roll without listing OpenSpiel's 6^k equally likely outcomes:
    the re-roll mask is the last move (all five dice at a turn's start)."""
    dice = bin(last).count("1") if 0 < last < 32 else 5
    return rng.randrange(6**dice)


# Games whose chance outcomes are uniform and drawn without listing them:
# OpenSpiel short name -> a function of the last player move and the rng.
FAST_CHANCE = {"yacht": yacht_roll}


def play_out(game, rng):
    """A random game: its terminal state and length in player moves."""
    state = game.new_initial_state()
    fast = FAST_CHANCE.get(game.get_type().short_name)
    plies = 0
    last = -1
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(fast(last, rng) if fast else chance(state, rng))
        else:
            last = rng.choice(state.legal_actions())
            state.apply_action(last)
            plies += 1
    return state, plies


def play(game, rng):
    state, plies = play_out(game, rng)
    returns = state.returns()
    if returns[0] > returns[1]:
        return 0, plies
    if returns[1] > returns[0]:
        return 1, plies
    return 2, plies


def backgammon_name(state, action):
    """A backgammon ply as one word: `rollX41` for the opening roll (X or O
    starts), `roll41` for a later one, else OpenSpiel's move string without
    its action number and with `_` for spaces (`24/18_13/11`, `Pass`)."""
    text = state.action_to_string(state.current_player(), action)
    if state.is_chance_node():
        dice = text.split("(roll: ")[1].rstrip(")")
        starter = "X" if "X starts" in text else "O" if "O starts" in text else ""
        return f"roll{starter}{dice}"
    return text.split(" - ", 1)[-1].replace(" ", "_")


# Games whose replay names need more than OpenSpiel's move string (which has
# spaces, or chance outcomes to name): short name -> function(state, action).
REPLAY_NAMES = {"backgammon": backgammon_name}


def replays(game, rng, k):
    lines = []
    for _ in range(k):
        state = game.new_initial_state()
        plies = []
        while not state.is_terminal():
            legal = state.legal_actions()
            action = rng.choice(legal)
            name = REPLAY_NAMES.get(game.get_type().short_name)
            text = name(state, action) if name else state.action_to_string(state.current_player(), action)
            plies.append(f"{text}/{len(legal)}")
            state.apply_action(action)
        returns = state.returns()
        result = "0" if returns[0] > returns[1] else "1" if returns[1] > returns[0] else "draw"
        lines.append(" ".join(plies) + " => " + result)
    return "".join(line + "\n" for line in lines)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("name", choices=sorted(GAMES))
    parser.add_argument("--games", type=int, default=100_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", default=None, help="default envs/src/games/agreement/<name>.json")
    parser.add_argument("--replays", type=int, default=0, help="write K move-by-move replays instead")
    args = parser.parse_args()
    game_string, config, note = GAMES[args.name]
    game = pyspiel.load_game(game_string)
    rng = random.Random(args.seed)
    folder = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "envs", "src", "games", "agreement")
    if args.replays:
        out = args.out or os.path.join(folder, f"{args.name}-replays.txt")
        with open(out, "w") as f:
            f.write(replays(game, rng, args.replays))
        print(f"wrote {args.replays} replays of {game_string} to {out}")
        return
    if args.name in ONE_PLAYER:
        result = one_player(args, game, game_string, config, note, rng)
    else:
        result = two_player(args, game, game_string, config, note, rng)
    out = args.out or os.path.join(folder, f"{args.name}.json")
    os.makedirs(os.path.dirname(out), exist_ok=True)
    with open(out, "w") as f:
        json.dump(result, f, indent=2)
        f.write("\n")
    json.dump(result, sys.stdout, indent=2)
    print()


def version():
    return pyspiel.__version__ if hasattr(pyspiel, "__version__") else "2.0.2"


def mean_sd(total, total_sq, n):
    mean = total / n
    return mean, math.sqrt(max(total_sq / n - mean * mean, 0.0))


def one_player(args, game, game_string, config, note, rng):
    what, final, final_score = ONE_PLAYER[args.name]
    distribution = {}
    score = score_sq = length = length_sq = 0
    start = time.process_time()
    for _ in range(args.games):
        state, plies = play_out(game, rng)
        points = final_score(state)
        score += points
        score_sq += points * points
        length += plies
        length_sq += plies * plies
        key = final(state)
        distribution[key] = distribution.get(key, 0) + 1
    seconds = time.process_time() - start
    mean_score, sd_score = mean_sd(score, score_sq, args.games)
    mean, sd = mean_sd(length, length_sq, args.games)
    return {
        "game": args.name,
        "openspiel_game": game_string,
        "openspiel_version": version(),
        "verigym_config": config,
        "note": note,
        "games": args.games,
        "seed": args.seed,
        "mean_score": round(mean_score, 4),
        "sd_score": round(sd_score, 4),
        "mean_plies": round(mean, 4),
        "sd_plies": round(sd, 4),
        what: {str(k): distribution[k] for k in sorted(distribution)},
        "cpu_seconds": round(seconds, 1),
    }


def two_player(args, game, game_string, config, note, rng):
    counts = [0, 0, 0]
    total = total_sq = 0
    start = time.process_time()
    for _ in range(args.games):
        outcome, plies = play(game, rng)
        counts[outcome] += 1
        total += plies
        total_sq += plies * plies
    seconds = time.process_time() - start
    mean = total / args.games
    sd = math.sqrt(max(total_sq / args.games - mean * mean, 0.0))
    return {
        "game": args.name,
        "openspiel_game": game_string,
        "openspiel_version": version(),
        "verigym_config": config,
        "note": note,
        "games": args.games,
        "seed": args.seed,
        "p0_wins": counts[0],
        "p1_wins": counts[1],
        "draws": counts[2],
        "mean_plies": round(mean, 4),
        "sd_plies": round(sd, 4),
        "cpu_seconds": round(seconds, 1),
    }


if __name__ == "__main__":
    main()
