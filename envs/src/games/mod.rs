//! Games: N-player, turn-based or simultaneous, possibly hidden information.
//!
//! Every game is two-player except 2048 (one player against the chance of
//! the new tiles), hangman (one player, a multi-turn env), yacht (one
//! player against the dice) and crazy eights (2, 3 or 4 seats, one id each). Each file's `//!` header states its rules,
//! move syntax, observation, reward and presets; its oracle is listed here.
//!
//! | id | information | oracle |
//! |---|---|---|
//! | `games/tictactoe-v1` | perfect | perfect (solved negamax table) |
//! | `games/connect-four-v1` | perfect | alpha-beta, 6 plies, line-count heuristic |
//! | `games/nim-v1` | perfect | perfect (nim-sum; misère rule) |
//! | `games/othello-v1` | perfect | alpha-beta, 3–4 plies, position weights + mobility |
//! | `games/breakthrough-v1` | perfect | alpha-beta, 3 plies, material + advancement |
//! | `games/hex-v1` | perfect | alpha-beta, 1–2 plies, connection distance |
//! | `games/gomoku-v1` | perfect | alpha-beta, 3 plies over 8 candidate points, open-line count |
//! | `games/nine-mens-morris-v1` | perfect | alpha-beta, 3 plies, men, half-made mills, mobility |
//! | `games/quoridor-v1` | perfect | alpha-beta, 2 plies over pawn moves and 4 walls, path-length difference |
//! | `games/santorini-v1` | perfect | alpha-beta, 2 plies, worker levels + reachable climbs |
//! | `games/go-9x9-v1` | perfect | two-ply search over the best 8 moves, influence + atari evaluation |
//! | `games/checkers-v1` | perfect | alpha-beta, 4 plies, material |
//! | `games/chess-v1` | perfect | alpha-beta, 2 plies, material + mobility (+ mop-up with a clear lead); moves from `cozy-chess` |
//! | `games/dots-and-boxes-v1` | perfect | scripted: take boxes, play safe, sacrifice least |
//! | `games/kalah-v1` | perfect | alpha-beta, 6 plies, store difference |
//! | `games/hangman-v1` | hidden word (one player) | consistent words of the shipped list: commonest letter, the word when one is left |
//! | `games/pig-v1` | chance | scripted: hold at 20 |
//! | `games/backgammon-v1` | chance | one ply over every legal play: pip count, blots weighted by the opponent's hitting rolls (all 36), points, primes |
//! | `games/kuhn-poker-v1` | hidden cards | Nash equilibrium (α = 0 family member) |
//! | `games/leduc-poker-v1` | hidden cards | CFR+ equilibrium table (exploitability 0.002 chips) |
//! | `games/heads-up-limit-holdem-v1` | hidden cards | Monte-Carlo equity against a random hand (200 deals) with pot odds |
//! | `games/liars-dice-v1` | hidden dice | scripted: binomial odds of bids |
//! | `games/battleship-v1` | hidden fleets | scripted: probability-density hunt/target |
//! | `games/negotiation-v1` | hidden values | scripted trader |
//! | `games/goofspiel-v1` | simultaneous | scripted: bid the prize |
//! | `games/blotto-v1` | simultaneous | scripted: best reply to random play |
//! | `games/prisoners-dilemma-v1` | simultaneous | tit-for-tat |
//! | `games/2048-v1` | chance, one player | expectimax over the next tile (two moves deep on a crowded board), row tables |
//! | `games/crazy-eights-v1`, `-3p-v1`, `-4p-v1` | hidden hands | determinised Monte-Carlo: 96 deals of the unseen cards read from the public moves (a seat that drew held nothing that fit; its plays since, as the heuristic's), heuristic play-outs of each card that fits and of each suit to name |
//! | `games/yacht-v1` | chance, one player | exact expected value of each keep over the turn's re-rolls, a hand worth its best category's points minus par |
//!
//! Every game also has a `heuristic` player, the middle rung of its ladder
//! in gym-bench between `random` and `oracle`: win or block (tic-tac-toe,
//! connect four, hex; gomoku adds a one-ply line count), greedy capture (othello, breakthrough, checkers, chess,
//! kalah, dots and boxes, nine men's morris; go adds saving a group in atari and never
//! filling its own eyes), the greedy climb (santorini), the shortest-path race (quoridor: step or wall
//! for the best path-length difference), bet the strong hands (poker), or a fixed simple
//! rule (nim, pig, liar's dice, goofspiel, blotto, prisoner's dilemma, hangman's English letter frequency,
//! battleship, negotiation, the corner rule of 2048, keeping the most common
//! value in yacht, the card that leaves the most follow-ups in crazy eights,
//! the greedy hit-make-points-avoid-blots play in backgammon).
//!
//! Shared pieces: [`common`] (lenient, hedge-refusing move parsing; win/loss
//! scores; alpha-beta search; the win-block-greedy heuristic) and [`cfr`] (game trees built from an env's own
//! transitions, CFR+, exact expected values, best responses and
//! exploitability of tabular policies, for Kuhn and Leduc poker); [`poker`]
//! (the match config, presets and betting actions of the poker games). In the
//! tests, `agreement` checks a game's random-play outcome rates and mean
//! length against OpenSpiel's (`scripts/openspiel-stats.py`).

pub mod backgammon;
pub mod battleship;
pub mod blotto;
pub mod breakthrough;
pub mod cfr;
pub mod checkers;
pub mod chess;
pub mod common;
pub mod connect_four;
pub mod crazy_eights;
pub mod dots_and_boxes;
pub mod go;
pub mod gomoku;
pub mod goofspiel;
pub mod hangman;
pub mod heads_up_limit_holdem;
pub mod hex;
pub mod kalah;
pub mod kuhn_poker;
pub mod leduc_poker;
pub mod liars_dice;
pub mod negotiation;
pub mod nim;
pub mod nine_mens_morris;
pub mod othello;
pub mod pig;
pub mod poker;
pub mod prisoners_dilemma;
pub mod quoridor;
pub mod santorini;
pub mod tictactoe;
pub mod twenty_forty_eight;
pub mod yacht;

#[cfg(test)]
mod agreement;
#[cfg(test)]
mod ladder_tests;

#[cfg(test)]
mod tests {
    use crate::driver::{DriverConfig, play_builtin};
    use crate::registry::Registry;

    /// Through the same driver agents use, the oracle's and the heuristic's
    /// moves always parse and apply, from either seat, on every game preset
    /// (a one-player game seats the first agent of each pairing alone).
    #[test]
    fn every_game_oracle_and_heuristic_play_only_legal_moves() {
        let registry = Registry::builtin();
        for r in registry
            .entries()
            .iter()
            .filter(|r| r.spec.family() == "games")
        {
            for preset in r.spec.presets {
                let id = format!("{}@{}", r.spec.id, preset.name);
                let mut env = registry.make(&id, None).unwrap();
                let pairings = [
                    (1, ["oracle", "random"]),
                    (2, ["random", "oracle"]),
                    (3, ["oracle", "oracle"]),
                    (4, ["heuristic", "random"]),
                    (5, ["oracle", "heuristic"]),
                ];
                for (seed, seats) in pairings {
                    // A one-player game (2048, hangman, yacht) takes the first seat's
                    // agent; a larger table (crazy eights) repeats the pairing round it.
                    let seats: Vec<&str> = (0..r.spec.players).map(|i| seats[i % 2]).collect();
                    let result =
                        play_builtin(env.as_mut(), seed, &seats, &DriverConfig::default()).unwrap();
                    for (seat, agent) in seats.iter().enumerate().filter(|(_, a)| **a != "random") {
                        assert_eq!(
                            result.invalid_actions[seat], 0,
                            "{id}: {agent} in seat {seat} was refused"
                        );
                    }
                    assert!(
                        result.forfeited_by.is_none_or(|p| seats[p] == "random"),
                        "{id}"
                    );
                }
            }
        }
    }
}
