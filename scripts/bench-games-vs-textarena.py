#!/usr/bin/env python3
"""Random-vs-random full games through TextArena's text path, in steps per
CPU-second, side by side with verigym's (issue #7's speed target: >= 10x).

TextArena side: for each game a fresh env from `ta.make` (its default,
LLM-facing wrappers; reusing one env object leaks the previous game's
history into the next), `reset`, then per step `get_observation()` (the
text an LLM reads), a uniformly random legal action as text (`[4]`,
`[bet]`; read from the game state, the cheapest way), and `step(text)`
(regex parse and apply). verigym side: `envs/examples/selfplay_speed.rs`,
the same loop through the episode driver (render the observation, random
legal action text, parse and apply). Both are single-threaded and timed in
CPU seconds of their own process.

Pairs: TextArena TicTacToe-v0 vs games/tictactoe-v1; TextArena
KuhnPoker-v0 (3 hands) vs games/kuhn-poker-v1@medium (3 hands); TextArena
2048-v0 vs games/2048-v1 (one player, target 2048 both); TextArena
SantoriniBaseFixed-v0 (workers start on fixed squares) vs
games/santorini-v1 (players place their workers first). A pair whose
verigym env is missing is skipped with a note. TextArena 0.7.4's Chess-v0
does not import on Python 3.11 (its `env.py` nests quotes in an f-string,
which needs 3.12), so chess has no pair here.

The random player's own work (listing the legal moves from the game state)
is timed apart and left out of TextArena's CPU time for 2048, where it
costs as much as a move (a move is legal when it changes the board), and
for Santorini (its stored list of valid moves split into moves); for
tic-tac-toe and Kuhn poker it is a dictionary read and stays in.

Usage (scripts/bench-games-vs-textarena.sh builds the example and picks the
venv): bench-games-vs-textarena.py --ours PATH_TO_selfplay_speed [--games N]
Prints a table and, with --json, one JSON object.
"""

import argparse
import json
import os
import random
import resource
import subprocess
import sys
import time

import textarena as ta

# (name, TextArena id, verigym env@preset, players)
PAIRS = [
    ("tictactoe", "TicTacToe-v0", "games/tictactoe-v1", 2),
    ("kuhn-poker (3 hands)", "KuhnPoker-v0", "games/kuhn-poker-v1@medium", 2),
    ("2048", "2048-v0", "games/2048-v1", 1),
    ("santorini", "SantoriniBaseFixed-v0", "games/santorini-v1", 2),
    # TextArena's hold'em is no-limit over 10 hands; the random player bets
    # and raises one big blind, as limit hold'em does pre-flop.
    ("hold'em (heads-up)", "Poker-v0", "games/heads-up-limit-holdem-v1", 2),
    # TextArena's word list is an NLTK download (no network here): its
    # Hangman plays on our list instead (`use_our_hangman_words`).
    ("hangman", "Hangman-v0", "games/hangman-v1", 1),
]


def legal_tictactoe(env):
    board = env.state.game_state["board"]
    return [f"[{r * 3 + c}]" for r in range(3) for c in range(3) if board[r][c] == ""]


def legal_kuhn(env):
    tree = env.state.game_state["current_legal_action_tree"]
    return [f"[{k}]" for k in tree.keys()]


def slides(line):
    """Whether sliding `line` towards its start changes it."""
    seen_gap = False
    previous = 0
    for v in line:
        if v == 0:
            seen_gap = True
        elif seen_gap or v == previous:
            return True
        else:
            previous = v
    return False


def legal_2048(env):
    board = env.state.game_state["board"]
    n = len(board)
    cols = [[board[r][c] for r in range(n)] for c in range(n)]
    lines = {
        "[Up]": cols,
        "[Down]": [col[::-1] for col in cols],
        "[Left]": board,
        "[Right]": [row[::-1] for row in board],
    }
    return [move for move, rows in lines.items() if any(slides(row) for row in rows)]


def legal_santorini(env):
    moves = env.state.game_state["valid_moves"]
    return [m.strip() for m in moves.split(",") if m.strip()]


def legal_poker(env):
    gs = env.state.game_state
    pid = env.state.current_player_id
    if gs["current_bet"] > gs["player_bets"][pid]:
        return ["[Call]", "[Fold]", f"[Raise {env.big_blind}]"]
    return ["[Check]", f"[Bet {env.big_blind}]"]


def legal_hangman(env):
    guessed = env.state.game_state["guessed_letters"]
    return [f"[{c}]" for c in "ABCDEFGHIJKLMNOPQRSTUVWXYZ" if c not in guessed]


def use_our_hangman_words():
    """TextArena's Hangman draws from NLTK's `words` corpus, which it
    downloads on import; without network it would fail at reset. Give it
    `games/hangman-v1`'s list (the same words both sides)."""
    import types

    import textarena.envs.Hangman.env as hangman

    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    path = os.path.join(root, "envs", "src", "games", "hangman_words.txt")
    with open(path, encoding="utf-8") as f:
        ours = [w.strip() for w in f if w.strip() and not w.startswith("#")]
    hangman.words = types.SimpleNamespace(words=lambda *_args: ours)


LEGAL = {
    "TicTacToe-v0": (legal_tictactoe, False),
    "KuhnPoker-v0": (legal_kuhn, False),
    "2048-v0": (legal_2048, True),
    "SantoriniBaseFixed-v0": (legal_santorini, True),
    "Poker-v0": (legal_poker, False),
    "Hangman-v0": (legal_hangman, False),
}


def unwrap(env):
    while hasattr(env, "env"):
        env = env.env
    return env


def textarena_games(env_id, games, seed, players):
    rng = random.Random(seed)
    legal, apart = LEGAL[env_id]
    if env_id == "Hangman-v0":
        use_our_hangman_words()
    steps = 0
    player_cpu = 0.0
    start_cpu = time.process_time()
    start_wall = time.perf_counter()
    for game in range(games):
        env = ta.make(env_id)
        env.reset(num_players=players, seed=seed + game)
        inner = unwrap(env)
        done = False
        while not done:
            _player, observation = env.get_observation()
            before = time.process_time()
            action = rng.choice(legal(inner))
            player_cpu += time.process_time() - before
            done, _info = env.step(action=action)
            steps += 1
        env.close()
    cpu = time.process_time() - start_cpu
    if apart:
        cpu -= player_cpu
    return {
        "impl": "textarena",
        "env": env_id,
        "games": games,
        "steps": steps,
        "cpu_seconds": round(cpu, 4),
        "wall_seconds": round(time.perf_counter() - start_wall, 4),
        "steps_per_cpu_second": round(steps / cpu, 1),
        "random_player_cpu_left_out": round(player_cpu, 4) if apart else 0.0,
    }


def ours(binary, env_id, games, seed):
    out = subprocess.run(
        [binary, env_id, str(games), str(seed)], check=True, capture_output=True, text=True
    )
    return json.loads(out.stdout.strip().splitlines()[-1])


def ours_gym_bench(binary, env_id, games, seed):
    """The whole `gym-bench run --agents random,random` process on one
    thread: its CPU time (startup, agents, driver, aggregation and the
    Bradley-Terry fit included) against the env steps it played."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start_wall = time.perf_counter()
    out = subprocess.run(
        [binary, "--threads", "1", "run", "--env", env_id, "--agents", "random,random",
         "--n", str(games), "--seed", str(seed), "--json"],
        check=True, capture_output=True, text=True,
    )
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    board = json.loads(out.stdout)
    rows = [r for r in board["rows"] if r["seat"] == 0]
    steps = round(sum(r["mean_steps"] * r["tasks"] * r["samples"] for r in rows))
    return {
        "impl": "verigym (gym-bench run, whole process)",
        "env": env_id,
        "games": games,
        "steps": steps,
        "cpu_seconds": round(cpu, 4),
        "wall_seconds": round(time.perf_counter() - start_wall, 4),
        "steps_per_cpu_second": round(steps / cpu, 1),
    }


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    which = parser.add_mutually_exclusive_group(required=True)
    which.add_argument("--ours", help="path to the selfplay_speed example binary")
    which.add_argument("--gym-bench", help="path to a gym-bench binary (times the whole process)")
    parser.add_argument("--games", type=int, default=2000, help="TextArena games per pair")
    parser.add_argument(
        "--our-games", type=int, default=0, help="verigym games per pair (default 20x --games)"
    )
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    our_games = args.our_games or 20 * args.games
    results = []
    for name, theirs_id, ours_id, players in PAIRS:
        try:
            if args.ours:
                mine = ours(args.ours, ours_id, our_games, args.seed)
            else:
                mine = ours_gym_bench(args.gym_bench, ours_id, our_games, args.seed)
        except subprocess.CalledProcessError as e:
            print(f"skipped {name}: verigym has no {ours_id} here ({e.stderr.strip()[:120]})",
                  file=sys.stderr)
            continue
        theirs = textarena_games(theirs_id, args.games, args.seed, players)
        results.append(
            {
                "game": name,
                "textarena": theirs,
                "verigym": mine,
                "speedup": round(mine["steps_per_cpu_second"] / theirs["steps_per_cpu_second"], 1),
            }
        )
    load = os.getloadavg()
    summary = {
        "textarena_version": getattr(ta, "__version__", "?"),
        "python": sys.version.split()[0],
        "load_average": [round(x, 2) for x in load],
        "cpus": os.cpu_count(),
        "results": results,
    }
    if args.json:
        print(json.dumps(summary))
        return
    print(
        f"random-vs-random full games, text path, steps per CPU-second "
        f"(TextArena {summary['textarena_version']}, load {load[0]:.2f} on {os.cpu_count()} CPUs)"
    )
    print(f"{'game':<22} {'TextArena':>12} {'verigym':>12} {'speedup':>8}")
    for r in results:
        print(
            f"{r['game']:<22} {r['textarena']['steps_per_cpu_second']:>12,.0f} "
            f"{r['verigym']['steps_per_cpu_second']:>12,.0f} {r['speedup']:>7.1f}x"
        )


if __name__ == "__main__":
    main()
