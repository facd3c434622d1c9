//! Cards and the seven-card hand evaluator: the value of the best five-card
//! hand among 5 to 7 cards, as one integer that orders hands exactly as the
//! poker ranking does (equal values split the pot).

/// Ranks, lowest first: a card is `4 * rank + suit`, so `0` is the two of
/// clubs and `51` the ace of spades.
const RANKS: &[u8; 13] = b"23456789TJQKA";
const SUITS: &[u8; 4] = b"cdhs";

/// The hand categories, weakest first; a value's category is `value >> 20`.
pub const CATEGORIES: [&str; 9] = [
    "high card",
    "one pair",
    "two pair",
    "three of a kind",
    "straight",
    "flush",
    "full house",
    "four of a kind",
    "straight flush",
];

/// A card's two-letter name, rank then suit (`As`, `Td`, `2c`).
pub fn name(card: u8) -> String {
    let mut text = String::with_capacity(2);
    push_name(&mut text, card);
    text
}

/// Appends a card's name to `text` (observations write dozens per step).
pub fn push_name(text: &mut String, card: u8) {
    let (rank, suit) = (usize::from(card / 4), usize::from(card % 4));
    text.push(char::from(RANKS[rank]));
    text.push(char::from(SUITS[suit]));
}

/// Cards named with spaces between (`As Kd`).
pub fn names(cards: &[u8]) -> String {
    let mut text = String::with_capacity(3 * cards.len());
    push_names(&mut text, cards);
    text
}

/// Appends [`names`] of `cards` to `text`.
pub fn push_names(text: &mut String, cards: &[u8]) {
    for (i, &c) in cards.iter().enumerate() {
        if i > 0 {
            text.push(' ');
        }
        push_name(text, c);
    }
}

/// The card a two-letter name (`As`, `td`) names.
pub fn parse(text: &str) -> Option<u8> {
    let bytes = text.as_bytes();
    if bytes.len() != 2 {
        return None;
    }
    let rank = RANKS
        .iter()
        .position(|&r| r == bytes[0].to_ascii_uppercase())?;
    let suit = SUITS
        .iter()
        .position(|&s| s == bytes[1].to_ascii_lowercase())?;
    Some((rank * 4 + suit) as u8)
}

/// The category's name of a hand value.
pub fn category(value: u32) -> &'static str {
    CATEGORIES[(value >> 20) as usize]
}

/// `category << 20`, then up to five ranks (most significant first) in 4
/// bits each: within a category, the ranks that decide, in order.
fn pack(category: u32, ranks: &[u8]) -> u32 {
    ranks.iter().enumerate().fold(category << 20, |v, (i, &r)| {
        v | u32::from(r) << (16 - 4 * i)
    })
}

/// The top rank of the highest straight in a rank mask (bit `r` for rank
/// `r`), the ace also counting low (A-2-3-4-5 is the five-high wheel).
fn straight_top(mask: u16) -> Option<u8> {
    // Bit r + 1 for rank r, bit 0 for the low ace.
    let ext = u32::from(mask) << 1 | u32::from(mask >> 12 & 1);
    (4..=13u8)
        .rev()
        .find(|&top| ext >> (top - 4) & 0x1f == 0x1f)
        .map(|top| top - 1)
}

/// The highest `n` ranks set in `mask`, highest first.
fn top_ranks(mask: u16, n: usize) -> Vec<u8> {
    (0..13u8)
        .rev()
        .filter(|&r| mask >> r & 1 == 1)
        .take(n)
        .collect()
}

/// The value of the best five-card hand in `cards` (5 to 7 distinct cards):
/// higher is better, equal is a split. Fewer cards (a flop or turn board
/// alone) get the value of their pairs, trips or quads and high cards.
pub fn value(cards: &[u8]) -> u32 {
    let mut counts = [0u8; 13];
    let mut by_suit = [0u16; 4];
    let mut all = 0u16;
    for &c in cards {
        let rank = c / 4;
        counts[usize::from(rank)] += 1;
        by_suit[usize::from(c % 4)] |= 1 << rank;
        all |= 1 << rank;
    }
    // With at most seven cards only one suit can hold five.
    let flush = by_suit.iter().copied().find(|s| s.count_ones() >= 5);
    if let Some(top) = flush.and_then(straight_top) {
        return pack(8, &[top]);
    }
    let with = |n: u8| -> Vec<u8> {
        (0..13u8)
            .rev()
            .filter(|&r| counts[usize::from(r)] == n)
            .collect()
    };
    let (quads, trips, pairs) = (with(4), with(3), with(2));
    let without = |ranks: &[u8]| ranks.iter().fold(all, |m, &r| m & !(1 << r));
    if let Some(&q) = quads.first() {
        let kicker = top_ranks(without(&[q]), 1).first().copied().unwrap_or(0);
        return pack(7, &[q, kicker]);
    }
    if let Some(&t) = trips.first() {
        // The pair of a full house may be a second set of trips.
        let pair = trips
            .get(1)
            .copied()
            .into_iter()
            .chain(pairs.first().copied())
            .max();
        if let Some(p) = pair {
            return pack(6, &[t, p]);
        }
    }
    if let Some(suit) = flush {
        return pack(5, &top_ranks(suit, 5));
    }
    if let Some(top) = straight_top(all) {
        return pack(4, &[top]);
    }
    if let Some(&t) = trips.first() {
        let mut ranks = vec![t];
        ranks.extend(top_ranks(without(&[t]), 2));
        return pack(3, &ranks);
    }
    if pairs.len() >= 2 {
        // The kicker may be the rank of a third pair.
        let (high, low) = (pairs[0], pairs[1]);
        let kicker = top_ranks(without(&[high, low]), 1)
            .first()
            .copied()
            .unwrap_or(0);
        return pack(2, &[high, low, kicker]);
    }
    if let Some(&p) = pairs.first() {
        let mut ranks = vec![p];
        ranks.extend(top_ranks(without(&[p]), 3));
        return pack(1, &ranks);
    }
    pack(0, &top_ranks(all, 5))
}
