//! The rules of crazy eights as OpenSpiel 2.0.2's `crazy_eights` plays them
//! without special cards: the table (hands, draw pile, top card), the legal
//! moves and their effects. Chance (the deal and each drawn card) comes from
//! the [`Rng`] passed in, with OpenSpiel's probabilities: uniform over the
//! cards left in the draw pile.

use serde::{Deserialize, Serialize};

use crate::rng::Rng;

/// A card, `rank * 4 + suit`: ranks 2..A as 0..12, suits clubs, diamonds,
/// hearts, spades as 0..3 (OpenSpiel's numbering, which its scoring reads).
pub type Card = u8;

pub const CARDS: u8 = 52;
/// All 52 cards as a bit set.
pub const FULL: u64 = (1 << CARDS) - 1;
/// The rank index of the 8s.
pub const EIGHT: u8 = 6;
/// The most seats a table deals for (one deck).
pub const MAX_PLAYERS: usize = 4;
const RANK_CHARS: &[u8] = b"23456789TJQKA";
const SUIT_CHARS: &[u8] = b"CDHS";
pub const SUIT_NAMES: [&str; 4] = ["clubs", "diamonds", "hearts", "spades"];

pub fn rank(card: Card) -> u8 {
    card / 4
}

pub fn suit(card: Card) -> u8 {
    card % 4
}

/// `7H`, `TD` (ten of diamonds), `QS`.
pub fn card_name(card: Card) -> String {
    format!(
        "{}{}",
        RANK_CHARS[rank(card) as usize] as char,
        SUIT_CHARS[suit(card) as usize] as char
    )
}

/// The card a [`card_name`] names (`10` for `T` too), case-insensitively.
pub fn parse_card(name: &str) -> Option<Card> {
    let upper = name.trim().to_ascii_uppercase();
    if !upper.is_ascii() {
        return None;
    }
    let (r, s) = upper.split_at(upper.len().checked_sub(1)?);
    let r = if r == "10" { "T" } else { r };
    let [r] = r.as_bytes() else { return None };
    let rank = RANK_CHARS.iter().position(|c| c == r)? as u8;
    let suit = SUIT_CHARS.iter().position(|c| s.as_bytes() == [*c])? as u8;
    Some(rank * 4 + suit)
}

/// The cards of a bit set, lowest first.
pub fn cards_of(set: u64) -> impl Iterator<Item = Card> {
    (0..CARDS).filter(move |c| set >> c & 1 == 1)
}

/// How the cards left in a hand are charged at the end.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Scoring {
    /// 50 per 8, 10 per J, Q, K, 1 per ace, the pip value for 2 to 10.
    #[default]
    Standard,
    /// As OpenSpiel 2.0.2 computes it: 50 per 8, 10 per J, Q, K and ace,
    /// and for a 2 to 10 the card's index (`rank * 4 + suit`) plus 2, so the
    /// 2 of clubs costs 2 and the 10 of spades 37.
    Openspiel,
}

impl Scoring {
    pub fn penalty(self, card: Card) -> u32 {
        let r = rank(card);
        match (self, r) {
            (_, EIGHT) => 50,
            (Scoring::Standard, 12) => 1,
            (_, 9..) => 10,
            (Scoring::Standard, _) => u32::from(r) + 2,
            (Scoring::Openspiel, _) => u32::from(card) + 2,
        }
    }

    /// The most one hand can cost: every card but the first face-up one
    /// (the cheapest non-8 card).
    pub fn max_penalty(self) -> u32 {
        let all: u32 = (0..CARDS).map(|c| self.penalty(c)).sum();
        all - (0..CARDS)
            .filter(|&c| rank(c) != EIGHT)
            .map(|c| self.penalty(c))
            .min()
            .unwrap_or(0)
    }

    pub fn hand_penalty(self, hand: u64) -> u32 {
        cards_of(hand).map(|c| self.penalty(c)).sum()
    }
}

/// The table rules a game is played with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rules {
    pub players: usize,
    /// Cards a player may draw in one turn before it must play or pass.
    pub max_draw: u32,
    /// The game ends once this many cards have been played.
    pub max_turns: u32,
    /// An empty draw pile is refilled from the discards but the top card.
    pub reshuffle: bool,
    pub scoring: Scoring,
}

impl Rules {
    /// Cards dealt to each player: 7 with two players, else 5.
    pub fn hand_size(&self) -> usize {
        if self.players == 2 { 7 } else { 5 }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Move {
    Play(Card),
    Draw,
    Pass,
    /// The suit to match after an 8.
    Name(u8),
}

/// A game in progress.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Table {
    pub rules: Rules,
    pub hands: [u64; MAX_PLAYERS],
    /// The draw pile, as a set: draws are uniform over it.
    pub deck: u64,
    pub top: Card,
    /// The suit to match: the top card's, or the one named after an 8.
    pub suit: u8,
    /// The mover played an 8 and must name a suit.
    pub naming: bool,
    /// Cards the mover has drawn this turn (OpenSpiel's
    /// `num_draws_before_play_`; set to `max_draw` when the pile runs out).
    pub drawn: u32,
    /// OpenSpiel's `can_pass_action_`.
    pub can_pass: bool,
    /// Passes in a row made with an empty draw pile.
    pub passes: u32,
    /// Cards played so far.
    pub plays: u32,
    pub mover: usize,
    pub dealer: usize,
    pub over: bool,
}

/// A uniformly random card of a non-empty set.
pub fn pick_card(set: u64, rng: &mut Rng) -> Card {
    let mut k = rng.below(u64::from(set.count_ones()));
    let mut rest = set;
    while k > 0 {
        rest &= rest - 1;
        k -= 1;
    }
    rest.trailing_zeros() as Card
}

impl Table {
    /// OpenSpiel's deal: a uniformly random dealer, `hand_size` cards each,
    /// then the first card turned face up (an 8 goes back and another is
    /// turned, so it is uniform over the non-8s left); the player after the
    /// dealer moves first.
    pub fn deal(rules: Rules, rng: &mut Rng) -> Table {
        let dealer = rng.below(rules.players as u64) as usize;
        let mut hands = [0u64; MAX_PLAYERS];
        let mut deck = FULL;
        for hand in hands.iter_mut().take(rules.players) {
            for _ in 0..rules.hand_size() {
                let c = pick_card(deck, rng);
                deck &= !(1 << c);
                *hand |= 1 << c;
            }
        }
        let eights = 0xFu64 << (4 * EIGHT);
        let top = pick_card(deck & !eights, rng);
        Table::from_deal(rules, dealer, hands, top)
    }

    /// The table after a given deal, before the first move.
    pub fn from_deal(rules: Rules, dealer: usize, hands: [u64; MAX_PLAYERS], top: Card) -> Table {
        let used = hands.iter().fold(1u64 << top, |a, h| a | h);
        Table {
            rules,
            hands,
            deck: FULL & !used,
            top,
            suit: suit(top),
            naming: false,
            drawn: 0,
            can_pass: false,
            passes: 0,
            plays: 0,
            mover: (dealer + 1) % rules.players,
            dealer,
            over: false,
        }
    }

    pub fn deck_size(&self) -> u32 {
        self.deck.count_ones()
    }

    /// Cards no hand, pile or top card holds: the discards under the top.
    pub fn discards(&self) -> u64 {
        let held = self
            .hands
            .iter()
            .fold(self.deck | 1 << self.top, |a, h| a | h);
        FULL & !held
    }

    /// Whether `card` may go on the top card now.
    pub fn fits(&self, card: Card) -> bool {
        rank(card) == EIGHT || suit(card) == self.suit || rank(card) == rank(self.top)
    }

    /// The mover's legal moves, in OpenSpiel's action order (cards, draw,
    /// pass, suits); empty once the game is over.
    pub fn legal(&self) -> Vec<Move> {
        let mut moves = Vec::new();
        if self.over {
            return moves;
        }
        if self.naming {
            return (0..4).map(Move::Name).collect();
        }
        moves.extend(
            cards_of(self.hands[self.mover])
                .filter(|&c| self.fits(c))
                .map(Move::Play),
        );
        if self.deck != 0 && self.drawn != self.rules.max_draw {
            moves.push(Move::Draw);
        }
        if self.can_pass || self.deck == 0 {
            moves.push(Move::Pass);
        }
        moves
    }

    pub fn is_legal(&self, mv: Move) -> bool {
        match mv {
            Move::Play(c) => {
                !self.over && !self.naming && self.hands[self.mover] >> c & 1 == 1 && self.fits(c)
            }
            _ => self.legal().contains(&mv),
        }
    }

    fn next(&mut self) {
        self.mover = (self.mover + 1) % self.rules.players;
    }

    /// Refills the empty draw pile with every card not held and not on top.
    fn reshuffle(&mut self) {
        if self.deck == 0 && self.rules.reshuffle {
            self.deck = self.discards();
        }
    }

    /// Plays a legal move (the caller checks with [`Table::is_legal`]);
    /// a draw takes a uniformly random card of the pile. Returns the card
    /// drawn, if any.
    pub fn apply(&mut self, mv: Move, rng: &mut Rng) -> Option<Card> {
        if mv != Move::Pass {
            self.passes = 0;
        }
        match mv {
            Move::Pass => {
                if self.deck == 0 {
                    self.passes += 1;
                } else {
                    self.passes = 0;
                }
                if self.passes as usize == self.rules.players + 1 {
                    self.over = true;
                    return None;
                }
                if self.drawn == self.rules.max_draw {
                    self.drawn = 0;
                }
                self.next();
                if self.deck != 0 {
                    self.can_pass = false;
                }
                None
            }
            Move::Draw => {
                let c = pick_card(self.deck, rng);
                self.deck &= !(1 << c);
                self.hands[self.mover] |= 1 << c;
                self.reshuffle();
                if self.deck == 0 {
                    self.can_pass = true;
                    self.drawn = self.rules.max_draw;
                } else {
                    self.drawn += 1;
                }
                if self.drawn == self.rules.max_draw {
                    self.can_pass = true;
                }
                Some(c)
            }
            Move::Name(s) => {
                self.suit = s;
                self.naming = false;
                self.next();
                None
            }
            Move::Play(c) => {
                self.plays += 1;
                self.can_pass = false;
                self.drawn = 0;
                self.hands[self.mover] &= !(1 << c);
                if self.hands[self.mover] == 0 || self.plays >= self.rules.max_turns {
                    self.over = true;
                }
                self.top = c;
                self.suit = suit(c);
                self.reshuffle();
                if self.over {
                    return None;
                }
                if rank(c) == EIGHT {
                    self.naming = true;
                } else {
                    self.next();
                }
                None
            }
        }
    }

    pub fn penalty(&self, player: usize) -> u32 {
        self.rules.scoring.hand_penalty(self.hands[player])
    }

    /// The one player with the lowest penalty once the game is over (the
    /// one who emptied their hand, if any); `None` for a shared lowest.
    pub fn winner(&self) -> Option<usize> {
        if !self.over {
            return None;
        }
        let penalties: Vec<u32> = (0..self.rules.players).map(|p| self.penalty(p)).collect();
        let best = *penalties.iter().min()?;
        let mut at_best = (0..self.rules.players).filter(|&p| penalties[p] == best);
        match (at_best.next(), at_best.next()) {
            (Some(p), None) => Some(p),
            _ => None,
        }
    }
}
