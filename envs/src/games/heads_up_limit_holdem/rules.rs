//! The betting rules, the showdown, and the hand reading of the built-in
//! players (the heuristic's strength tiers, the oracle's equity and pot
//! odds).

use super::*;

/// The oracle bets or raises with at least this equity against a random
/// hand when no bet is pending...
const BET_EQUITY: f64 = 0.55;
/// ...and raises a bet with at least this much.
const RAISE_EQUITY: f64 = 0.75;
/// Each bet or raise the opponent made this hand lowers the oracle's
/// estimate by this much: a random hand is weaker than the range of a
/// player who bets.
const AGGRESSION_DISCOUNT: f64 = 0.08;

impl HeadsUpLimitHoldem {
    /// Monte-Carlo equity against a random hand, discounted for the
    /// opponent's aggression, then pot odds: call when the equity pays for
    /// the call, bet or raise well ahead, else check or fold.
    pub(super) fn oracle_act(&self, player: Player) -> Act {
        let seed = decision_seed(
            self.oracle_seed,
            self.hand(),
            self.round,
            self.rounds[self.round].len(),
        );
        let mut rng = Rng::from_seed(seed);
        let opponent_bets = self
            .rounds
            .iter()
            .enumerate()
            .flat_map(|(round, acts)| {
                let first = self.first_actor(round);
                acts.iter()
                    .enumerate()
                    .filter(move |(i, _)| (first + i) % 2 != player)
                    .map(|(_, a)| a)
            })
            .filter(|a| matches!(a, Act::Bet | Act::Raise))
            .count();
        let equity = self.equity(player, &mut rng) - AGGRESSION_DISCOUNT * opponent_bets as f64;
        let legal = self.legal();
        let aggressive = legal
            .iter()
            .copied()
            .find(|a| matches!(a, Act::Bet | Act::Raise));
        let to_call = self.put[1 - player] - self.put[player];
        if to_call == 0 {
            return match aggressive {
                Some(act) if equity >= BET_EQUITY => act,
                _ => Act::Check,
            };
        }
        let pot = self.put[0] + self.put[1];
        let odds = f64::from(to_call) / f64::from(pot + to_call);
        match aggressive {
            Some(act) if equity >= RAISE_EQUITY => act,
            _ if equity >= odds => Act::Call,
            _ => Act::Fold,
        }
    }

    pub(super) fn hand(&self) -> usize {
        self.results.len()
    }

    pub(super) fn over(&self) -> bool {
        self.hand() == self.deals.len()
    }

    pub(super) fn deal(&self) -> &Deal {
        &self.deals[self.hand()]
    }

    /// The big blind's seat: player 0 in the first hand, as in OpenSpiel.
    pub(super) fn big_blind(&self) -> Player {
        self.hand() % 2
    }

    /// The small blind acts first before the flop, the big blind after.
    pub(super) fn first_actor(&self, round: usize) -> Player {
        if round == 0 {
            1 - self.big_blind()
        } else {
            self.big_blind()
        }
    }

    pub(super) fn to_move(&self) -> Player {
        (self.first_actor(self.round) + self.rounds[self.round].len()) % 2
    }

    pub(super) fn raises(&self) -> usize {
        self.rounds[self.round]
            .iter()
            .filter(|a| matches!(a, Act::Bet | Act::Raise))
            .count()
    }

    /// The legal actions, in OpenSpiel's order (fold, check or call, bet or
    /// raise) so that uniform random play draws over the same sets.
    pub(super) fn legal(&self) -> Vec<Act> {
        if self.over() {
            return Vec::new();
        }
        let p = self.to_move();
        if self.put[1 - p] > self.put[p] {
            let mut acts = vec![Act::Fold, Act::Call];
            if self.raises() < MAX_RAISES[self.round] {
                acts.push(Act::Raise);
            }
            acts
        } else if self.round == 0 {
            // The big blind's option after the small blind calls.
            vec![Act::Check, Act::Raise]
        } else {
            vec![Act::Check, Act::Bet]
        }
    }

    pub(super) fn blinds(&self) -> [i32; 2] {
        let mut put = [SMALL_BLIND; 2];
        put[self.big_blind()] = BIG_BLIND;
        put
    }

    pub(super) fn play(&mut self, act: Act) {
        let p = self.to_move();
        self.acted[p] += 1;
        poker::put_chips(&mut self.put, p, act, BET_SIZE[self.round]);
        self.rounds[self.round].push(act);
        // A round ends when the bets are level and both have acted.
        let round_over =
            matches!(act, Act::Check | Act::Call) && self.rounds[self.round].len() >= 2;
        if act == Act::Fold {
            self.finish(Some(1 - p), false);
        } else if round_over && self.round < 3 {
            self.round += 1;
        } else if round_over {
            let deal = self.deal();
            let winner =
                poker::showdown_winner(showdown_value(deal, 0).cmp(&showdown_value(deal, 1)));
            self.finish(winner, true);
        }
    }

    pub(super) fn finish(&mut self, winner: Option<Player>, showdown: bool) {
        let rounds = std::mem::take(&mut self.rounds);
        self.results.push(HandResult {
            won_by_p0: poker::won_by_p0(winner, self.put),
            showdown,
            round: self.round,
            rounds,
        });
        self.round = 0;
        if !self.over() {
            self.put = self.blinds();
        }
    }

    pub(super) fn chips(&self, player: Player) -> i32 {
        poker::for_seat(self.results.iter().map(|r| r.won_by_p0).sum(), player)
    }

    /// Appends each round reached to `text`: its name, the board it showed, who
    /// did what. Written in place: an observation carries one per hand, and random
    /// play is mostly observations.
    pub(super) fn push_rounds(
        text: &mut String,
        deal: &Deal,
        rounds: &[Vec<Act>; 4],
        reached: usize,
        big_blind: Player,
        player: Player,
    ) {
        for round in 0..=reached {
            if round > 0 {
                text.push_str("; ");
            }
            text.push_str(ROUND_NAMES[round]);
            if round > 0 {
                text.push_str(" (");
                eval::push_names(
                    text,
                    &deal[4 + BOARD_SHOWN[round - 1]..4 + BOARD_SHOWN[round]],
                );
                text.push(')');
            }
            text.push_str(": ");
            let first = if round == 0 { 1 - big_blind } else { big_blind };
            poker::write_actions(text, &rounds[round], first, player);
        }
    }

    /// The chance that `player`'s cards beat a uniformly random hand,
    /// splits counting half, over seeded random completions of the board:
    /// only the player's own cards and the visible board are used.
    pub(super) fn equity(&self, player: Player, rng: &mut Rng) -> f64 {
        let deal = self.deal();
        let shown = BOARD_SHOWN[self.round];
        let mut known: Vec<u8> = hole(deal, player).to_vec();
        known.extend_from_slice(&deal[4..4 + shown]);
        let mut deck: Vec<u8> = (0..52u8).filter(|c| !known.contains(c)).collect();
        let needed = 2 + 5 - shown;
        let mut total = 0.0;
        let (mut mine, mut theirs) = (known.clone(), Vec::with_capacity(7));
        for _ in 0..ORACLE_SAMPLES {
            // A partial shuffle: the first `needed` cards of the deck.
            for i in 0..needed {
                let j = i + rng.below((deck.len() - i) as u64) as usize;
                deck.swap(i, j);
            }
            mine.truncate(known.len());
            mine.extend_from_slice(&deck[2..needed]);
            theirs.clear();
            theirs.extend_from_slice(&mine[2..]);
            theirs.extend_from_slice(&deck[..2]);
            total += match eval::value(&mine).cmp(&eval::value(&theirs)) {
                std::cmp::Ordering::Greater => 1.0,
                std::cmp::Ordering::Equal => 0.5,
                std::cmp::Ordering::Less => 0.0,
            };
        }
        total / ORACLE_SAMPLES as f64
    }

    /// The heuristic's hand strength: 2 strong, 1 playable, 0 weak.
    pub(super) fn strength(&self, player: Player) -> u8 {
        let deal = self.deal();
        let cards = hole(deal, player);
        if self.round == 0 {
            let (hi, lo) = (cards[0].max(cards[1]) / 4, cards[0].min(cards[1]) / 4);
            let suited = cards[0] % 4 == cards[1] % 4;
            let strong =
                (hi == lo && hi >= 7) || (hi == 12 && lo >= 9) || (hi == 11 && lo == 10 && suited);
            let playable = hi == lo || hi >= 8 || suited || hi == lo + 1;
            return if strong { 2 } else { u8::from(playable) };
        }
        // After the flop: what the hole cards add to the board's own hand.
        let board = &deal[4..4 + BOARD_SHOWN[self.round]];
        let mut all = board.to_vec();
        all.extend(cards);
        let (mine, board_only) = (eval::value(&all) >> 20, eval::value(board) >> 20);
        if mine > board_only && mine >= 2 {
            2
        } else {
            u8::from(mine > board_only)
        }
    }
}
