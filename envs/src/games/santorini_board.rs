//! The Santorini board: square names, neighbours and the name order.

use super::SIDE;

/// The name of a square, like `c3`.
pub fn name(cell: u8) -> String {
    let mut text = String::with_capacity(2);
    push_name(&mut text, cell);
    text
}

/// Appends the name of a square to `text` (no formatter: every observation
/// names each legal move's squares).
pub fn push_name(text: &mut String, cell: u8) {
    text.push((b'a' + cell % SIDE as u8) as char);
    text.push((b'1' + cell / SIDE as u8) as char);
}

/// The squares around `cell`, in name order (column, then row).
pub fn neighbours(cell: u8) -> impl Iterator<Item = u8> {
    let (r, c) = ((cell / SIDE as u8) as i32, (cell % SIDE as u8) as i32);
    (-1..=1)
        .flat_map(move |dc| (-1..=1).map(move |dr| (r + dr, c + dc)))
        .filter(move |&(rr, cc)| {
            (rr, cc) != (r, c) && (0..SIDE as i32).contains(&rr) && (0..SIDE as i32).contains(&cc)
        })
        .map(|(rr, cc)| (rr * SIDE as i32 + cc) as u8)
}

/// Every square in name order (`a1`, `a2`, …, `e5`).
pub fn squares() -> impl Iterator<Item = u8> {
    (0..SIDE as u8).flat_map(|c| (0..SIDE as u8).map(move |r| r * SIDE as u8 + c))
}

/// A square's place in name order.
pub fn name_order(cell: u8) -> u8 {
    (cell % SIDE as u8) * SIDE as u8 + cell / SIDE as u8
}

/// The square a word like `c3` names (any case).
pub fn parse_square(word: &str) -> Option<u8> {
    let [c, r] = *word.as_bytes() else {
        return None;
    };
    let (c, r) = (
        c.to_ascii_lowercase().checked_sub(b'a')?,
        r.checked_sub(b'1')?,
    );
    (usize::from(c) < SIDE && usize::from(r) < SIDE).then(|| r * SIDE as u8 + c)
}
