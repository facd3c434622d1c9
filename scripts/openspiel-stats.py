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
the total in bands of 10). Games of more seats (`TURN_ORDER`: crazy eights)
record, in turn order from the first mover, how often each position alone
ends with the highest return, the ties, and each position's mean and
standard deviation of the return.
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
    "heads-up-limit-holdem": (
        "universal_poker(betting=limit,numPlayers=2,numRounds=4,blind=10 5,firstPlayer=2 1 1 1,"
        "numSuits=4,numRanks=13,numHoleCards=2,numBoardCards=0 3 1 1,raiseSize=10 10 20 20,"
        "maxRaises=3 4 4 4,bettingAbstraction=fcpa)",
        {},
        "pyspiel.hulh_game_string('fcpa'), one hand: player 0 posts the big blind (10) and player 1 the small "
        "blind (5) and acts first before the flop, player 0 first after it; bets 10 before the turn, 20 on it "
        "and the river; at most 3 raises before the flop (the blind not counted, so the cap is 40) and 4 "
        "after; fold is listed only when facing a bet, as in verigym. With the fullgame abstraction "
        "OpenSpiel 2.0.2 lists a raise as a second fold, so fcpa (fold, call, bet; no pot or all-in in a "
        "limit game) is the playable full limit game. A draw is a split pot. Poker also records showdowns "
        "(hands that did not end in a fold) and the mean and deviation of player 0's return",
    ),
    "crazy-eights": (
        "crazy_eights(players=4,max_draw_cards=5,max_turns=100,reshuffle=False,use_special_cards=False)",
        {"max_draw_cards": 5, "max_turns": 100, "reshuffle": False, "scoring": "openspiel"},
        "4 players (verigym's games/crazy-eights-4p-v1), no special cards; the dealer is drawn uniformly "
        "and the player after it moves first; 5 cards each (7 with 2 players); a first face-up 8 goes back "
        "into the deck and another is turned; drawing is its own ply (at most max_draw_cards a turn), "
        "passing is legal only after that many draws or with an empty deck, naming a suit after an 8 is "
        "its own ply; the game ends when a hand is empty, after max_turns cards played, or after players+1 "
        "passes in a row with an empty deck; each hand left costs 50 per 8, 10 per J, Q, K or A and, as "
        "OpenSpiel 2.0.2 computes it, the card's index (rank*4 + suit, 2 of clubs = 0) plus 2 for a 2 to 10, "
        "which verigym plays with scoring=openspiel. Seats are counted in turn order from the first mover: "
        "wins[k] = games where the k-th mover alone has the highest return; ties = a shared highest return",
    ),
    "crazy-eights-2p": (
        "crazy_eights(players=2,max_draw_cards=5,max_turns=100,reshuffle=False,use_special_cards=False)",
        {"max_draw_cards": 5, "max_turns": 100, "reshuffle": False, "scoring": "openspiel"},
        "2 players (verigym's games/crazy-eights-v1), 7 cards each; otherwise as crazy-eights",
    ),
}

# Games of more than two seats whose outcome is counted by turn order from
# the first mover: OpenSpiel short name -> the first mover given the state's
# history (crazy eights: the player after the dealer, chance action 52 + d).
TURN_ORDER = {
    "crazy-eights": lambda history, players: (history[0] - 52 + 1) % players,
    "crazy-eights-2p": lambda history, players: (history[0] - 52 + 1) % players,
}

# Poker games: also counts showdowns and player 0's return.
POKER = {"heads-up-limit-holdem"}


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
    if args.name in TURN_ORDER:
        result = many_players(args, game, game_string, config, note, rng)
    elif args.name in ONE_PLAYER:
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


def many_players(args, game, game_string, config, note, rng):
    """Wins by turn order (wins[k]: the k-th mover alone has the highest
    return), ties, and each turn-order position's mean and sd return."""
    players = game.num_players()
    first_mover = TURN_ORDER[args.name]
    wins = [0] * players
    ties = 0
    ret = [0.0] * players
    ret_sq = [0.0] * players
    total = total_sq = 0
    start = time.process_time()
    for _ in range(args.games):
        state, plies = play_out(game, rng)
        first = first_mover(state.history(), players)
        returns = state.returns()
        ordered = [returns[(first + k) % players] for k in range(players)]
        best = max(ordered)
        if ordered.count(best) > 1:
            ties += 1
        else:
            wins[ordered.index(best)] += 1
        for k, r in enumerate(ordered):
            ret[k] += r
            ret_sq[k] += r * r
        total += plies
        total_sq += plies * plies
    seconds = time.process_time() - start
    mean, sd = mean_sd(total, total_sq, args.games)
    moments = [mean_sd(ret[k], ret_sq[k], args.games) for k in range(players)]
    return {
        "game": args.name,
        "openspiel_game": game_string,
        "openspiel_version": version(),
        "verigym_config": config,
        "note": note,
        "games": args.games,
        "seed": args.seed,
        "players": players,
        "wins": wins,
        "ties": ties,
        "mean_return": [round(m, 4) for m, _ in moments],
        "sd_return": [round(s, 4) for _, s in moments],
        "mean_plies": round(mean, 4),
        "sd_plies": round(sd, 4),
        "cpu_seconds": round(seconds, 1),
    }


def two_player(args, game, game_string, config, note, rng):
    counts = [0, 0, 0]
    total = total_sq = 0
    showdowns = 0
    ret = ret_sq = 0.0
    start = time.process_time()
    for _ in range(args.games):
        state, plies = play_out(game, rng)
        returns = state.returns()
        outcome = 0 if returns[0] > returns[1] else 1 if returns[1] > returns[0] else 2
        if args.name in POKER:
            # A hand ends on a player's action (the river deal is followed by
            # betting); it is a showdown unless that action was a fold (0).
            showdowns += state.history()[-1] != 0
            ret += returns[0]
            ret_sq += returns[0] * returns[0]
        counts[outcome] += 1
        total += plies
        total_sq += plies * plies
    seconds = time.process_time() - start
    mean = total / args.games
    sd = math.sqrt(max(total_sq / args.games - mean * mean, 0.0))
    extras = {}
    if args.name in POKER:
        mean_return, sd_return = mean_sd(ret, ret_sq, args.games)
        extras = {"showdowns": showdowns, "mean_return_p0": round(mean_return, 4), "sd_return_p0": round(sd_return, 4)}
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
        **extras,
        "cpu_seconds": round(seconds, 1),
    }


if __name__ == "__main__":
    main()
