//! Crazy eights as text: a seat's observation, move names and the reader
//! of a reply.

use std::collections::HashSet;
use std::sync::LazyLock;

use serde_json::json;

use crate::core::{InvalidAction, Observation, Player};
use crate::games::common::pick;
use crate::games::crazy_eights::rules::{
    CARDS, Move, SUIT_NAMES, Scoring, Table, card_name, cards_of, rank, suit,
};

pub fn move_text(mv: Move) -> String {
    match mv {
        Move::Play(c) => format!("play {}", card_name(c)),
        Move::Draw => "draw".to_string(),
        Move::Pass => "pass".to_string(),
        Move::Name(s) => format!("name {}", SUIT_NAMES[s as usize]),
    }
}

const RANK_WORDS: [&str; 13] = [
    "2", "3", "4", "5", "6", "7", "8", "9", "10", "jack", "queen", "king", "ace",
];

/// Every phrase a reply may name a move with: built once, as every turn
/// of every episode reads replies with it.
static PHRASES: LazyLock<Vec<(String, Move)>> = LazyLock::new(|| {
    let mut phrases = vec![
        ("draw".to_string(), Move::Draw),
        ("pass".to_string(), Move::Pass),
    ];
    for c in 0..CARDS {
        let name = card_name(c);
        let long = format!(
            "{} of {}",
            RANK_WORDS[rank(c) as usize],
            SUIT_NAMES[suit(c) as usize]
        );
        let mut forms = vec![name.clone(), long];
        if let Some(suit_letter) = name.strip_prefix('T') {
            forms.push(format!("10{suit_letter}"));
        }
        for form in forms {
            phrases.push((format!("play {form}"), Move::Play(c)));
            phrases.push((form, Move::Play(c)));
        }
    }
    for (s, word) in SUIT_NAMES.iter().enumerate() {
        let letter = &word[..1];
        // The bare word too, so `name hearts or spades` reads as the hedge
        // it is.
        phrases.push((word.to_string(), Move::Name(s as u8)));
        for verb in ["name", "suit", "nominate", "choose"] {
            phrases.push((format!("{verb} {word}"), Move::Name(s as u8)));
            phrases.push((format!("{verb} {letter}"), Move::Name(s as u8)));
        }
    }
    // Lowercase, so `parse` can test each phrase's words against the
    // reply's (matching ignores case anyway).
    phrases
        .into_iter()
        .map(|(p, m)| (p.to_ascii_lowercase(), m))
        .collect()
});

/// The one move a reply names.
///
/// # Errors
/// No move, or two different ones (a hedge).
pub fn parse(text: &str) -> Result<Move, InvalidAction> {
    // Only phrases whose every word the reply holds can match: one pass
    // over the reply spares `pick` hundreds of scans of a long one.
    let words: HashSet<String> = text
        .split(|c: char| !c.is_ascii_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_ascii_lowercase)
        .collect();
    pick(
        text,
        PHRASES
            .iter()
            .filter(|(p, _)| p.split(' ').all(|w| words.contains(w)))
            .map(|(p, m)| (p.as_str(), *m)),
        "reply with one move: `play 7H`, `draw`, `pass`, or after an 8 `name hearts`",
    )
}

fn cards_text(set: u64) -> String {
    let names: Vec<String> = cards_of(set).map(card_name).collect();
    if names.is_empty() {
        "none".to_string()
    } else {
        names.join(" ")
    }
}

fn scoring_text(scoring: Scoring) -> &'static str {
    match scoring {
        Scoring::Standard => "50 per 8, 10 per J, Q or K, 1 per ace, the pip value for 2 to 10",
        Scoring::Openspiel => {
            "50 per 8, 10 per J, Q, K or A, and for 2 to 10 the card's index (rank 2..A as 0..12, times 4, plus \
             the suit C 0, D 1, H 2, S 3) plus 2, as OpenSpiel computes it"
        }
    }
}

/// What `player` sees: own hand, public counts and moves, never another
/// seat's cards.
pub fn observe(t: &Table, log: &[String], player: Player) -> Observation {
    let n = t.rules.players;
    let max_draw = t.rules.max_draw;
    let sizes: Vec<u32> = (0..n).map(|p| t.hands[p].count_ones()).collect();
    let held: Vec<String> = (0..n)
        .map(|p| {
            let you = if p == player { " (you)" } else { "" };
            format!("player {p}{you} {}", sizes[p])
        })
        .collect();
    let recent = &log[log.len().saturating_sub(2 * n)..];
    let legal: Vec<String> = if !t.over && t.mover == player {
        t.legal().into_iter().map(move_text).collect()
    } else {
        Vec::new()
    };
    let status = if t.over {
        let penalties: Vec<String> = (0..n)
            .map(|p| format!("player {p} {}", t.penalty(p)))
            .collect();
        let why = if sizes.contains(&0) {
            "a hand is empty"
        } else if t.plays >= t.rules.max_turns {
            "the last card allowed has been played"
        } else {
            "every player passed with an empty draw pile"
        };
        let verdict = match t.winner() {
            Some(w) if w == player => "You win.".to_string(),
            Some(w) => format!("Player {w} wins."),
            None => "No single winner.".to_string(),
        };
        format!(
            "Game over: {why}. Penalties: {}. {verdict}",
            penalties.join(", ")
        )
    } else if t.mover != player {
        format!("Waiting for player {}.", t.mover)
    } else if t.naming {
        format!(
            "You played an 8: name the suit to match. Legal moves: {}.\nReply with one move, e.g. `name {}`.",
            legal.join(", "),
            SUIT_NAMES[crate::games::crazy_eights::players::best_suit(t.hands[player]) as usize]
        )
    } else {
        format!(
            "Your move (you have drawn {} of at most {max_draw} cards this turn). Legal moves: {}.\nReply with \
             one move, e.g. `{}`.",
            t.drawn.min(max_draw),
            legal.join(", "),
            legal.first().map_or("pass", String::as_str)
        )
    };
    let text = format!(
        "Crazy eights for {n} players; you are player {player}. Players move in seat order. On your turn play \
         a card that matches the top card's rank or the suit to match; an 8 is wild, and after playing one you \
         name the suit to match as a separate move (`name hearts`). Instead you may `draw` from the pile, one \
         card a move and at most {max_draw} a turn; you may `pass` only after drawing {max_draw} or when the \
         pile is empty. The first to empty their hand wins; everyone pays for the cards left: {}. The game also \
         ends after {} cards played in all, or when {} passes in a row are made with an empty pile.\nCards are \
         rank then suit: ranks 2-9, T (ten), J, Q, K, A; suits C, D, H, S. Play one with `play` and its name.\n\
         Your hand ({}): {}\nTop card: {}; suit to match: {}.\nCards held: {}.\nDraw pile: {} cards. Cards \
         played: {} of {}.\nRecent moves: {}.\n{status}",
        scoring_text(t.rules.scoring),
        t.rules.max_turns,
        n + 1,
        sizes[player],
        cards_text(t.hands[player]),
        card_name(t.top),
        SUIT_NAMES[t.suit as usize],
        held.join(", "),
        t.deck_size(),
        t.plays,
        t.rules.max_turns,
        if recent.is_empty() {
            "none".to_string()
        } else {
            recent.join("; ")
        },
    );
    Observation {
        text,
        structured: json!({
            "you": player,
            "hand": cards_of(t.hands[player]).map(card_name).collect::<Vec<_>>(),
            "top": card_name(t.top),
            "suit": SUIT_NAMES[t.suit as usize],
            "hand_sizes": sizes,
            "draw_pile": t.deck_size(),
            "plays": t.plays,
            "max_turns": t.rules.max_turns,
            "drawn_this_turn": if t.mover == player { t.drawn.min(max_draw) } else { 0 },
            "to_move": if t.over { json!(null) } else { json!(t.mover) },
            "naming": t.naming && t.mover == player,
            "penalties": if t.over {
                json!((0..n).map(|p| t.penalty(p)).collect::<Vec<_>>())
            } else {
                json!(null)
            },
        }),
        legal_actions: Some(legal),
    }
}

/// Every hand, the pile and the top card: for logs and golden files.
pub fn render(t: &Table) -> String {
    let hands: Vec<String> = (0..t.rules.players)
        .map(|p| format!("p{p}: {}", cards_text(t.hands[p])))
        .collect();
    format!(
        "{} | top {} ({}) | pile {} | plays {}{}",
        hands.join(" | "),
        card_name(t.top),
        SUIT_NAMES[t.suit as usize],
        t.deck_size(),
        t.plays,
        if t.over { " | over" } else { "" }
    )
}
