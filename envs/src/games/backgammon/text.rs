//! Backgammon text: reading the notation models write, and drawing the
//! board from one seat's side.

use std::collections::HashMap;

use super::board::{BAR, Board, OFF, Play};
use crate::core::Player;

/// One stretch of notation as written (`13/7* 8/7`, `bar/22 6/off`,
/// `8/5(2)`): the net change it makes to the mover's checkers on each
/// point (0 = off, 25 = bar), the points marked `*` as hits, and the text.
#[derive(Clone, Debug, PartialEq)]
pub struct Written {
    pub delta: [i32; 26],
    pub stars: Vec<u8>,
    pub pass: bool,
    pub text: String,
}

/// What one piece of a reply is.
enum Item {
    /// A checker path with its stops and hit marks, and a repeat count.
    Path(Vec<(u8, bool)>, u8),
    Pass,
    /// A word that is not notation: it ends a stretch of notation.
    Break,
}

/// A point name at the start of `s`: `bar` (25), `off` (0) or a number
/// 0–25; its value and length.
fn point_at(s: &[u8]) -> Option<(u8, usize)> {
    if s.starts_with(b"bar") {
        return Some((BAR as u8, 3));
    }
    if s.starts_with(b"off") {
        return Some((OFF as u8, 3));
    }
    let n = s.iter().take(2).take_while(|c| c.is_ascii_digit()).count();
    if n == 0 {
        return None;
    }
    let v: u32 = std::str::from_utf8(&s[..n]).ok()?.parse().ok()?;
    (v <= 25).then_some((v as u8, n))
}

/// A path at the start of `s` (`13/7*/5`, then an optional `(n)`), with
/// its length; `None` unless it has two stops and ends a word.
fn path_at(s: &[u8]) -> Option<(Item, usize)> {
    let mut stops = Vec::new();
    let mut at = 0;
    loop {
        let (point, len) = point_at(&s[at..])?;
        at += len;
        let hit = s.get(at) == Some(&b'*');
        if hit {
            at += 1;
        }
        stops.push((point, hit));
        if s.get(at) == Some(&b'/') && s.get(at + 1).is_some_and(|c| c.is_ascii_alphanumeric()) {
            at += 1;
        } else {
            break;
        }
    }
    if stops.len() < 2 {
        return None;
    }
    let mut times = 1;
    if s.get(at) == Some(&b'(')
        && let Some(&d) = s.get(at + 1)
        && (b'1'..=b'4').contains(&d)
        && s.get(at + 2) == Some(&b')')
    {
        times = d - b'0';
        at += 3;
    }
    if s.get(at).is_some_and(|c| c.is_ascii_alphanumeric()) {
        return None;
    }
    Some((Item::Path(stops, times), at))
}

/// Every stretch of notation in `text`: paths separated only by
/// punctuation, spaces, `and` or `then`; any other word ends a stretch.
/// `pass` is a stretch of its own.
pub fn stretches(text: &str) -> Vec<Result<Written, String>> {
    let lower = text.to_ascii_lowercase();
    let s = lower.as_bytes();
    let mut items: Vec<(Item, usize, usize)> = Vec::new();
    let mut i = 0;
    while i < s.len() {
        let word_start = i == 0 || !s[i - 1].is_ascii_alphanumeric();
        if !s[i].is_ascii_alphanumeric() {
            i += 1;
            continue;
        }
        if word_start && let Some((item, len)) = path_at(&s[i..]) {
            items.push((item, i, i + len));
            i += len;
            continue;
        }
        let end = i + s[i..]
            .iter()
            .take_while(|c| c.is_ascii_alphanumeric())
            .count();
        match &lower[i..end] {
            "and" | "then" => {}
            "pass" => items.push((Item::Pass, i, end)),
            _ => items.push((Item::Break, i, end)),
        }
        i = end;
    }
    let mut out = Vec::new();
    let mut k = 0;
    while k < items.len() {
        match &items[k].0 {
            Item::Break => k += 1,
            Item::Pass => {
                out.push(Ok(Written {
                    delta: [0; 26],
                    stars: Vec::new(),
                    pass: true,
                    text: "pass".to_string(),
                }));
                k += 1;
            }
            Item::Path(..) => {
                let start = items[k].1;
                let mut end = items[k].2;
                let mut paths = Vec::new();
                while let Some((Item::Path(stops, times), _, e)) = items.get(k) {
                    paths.push((stops.clone(), *times));
                    end = *e;
                    k += 1;
                }
                out.push(written(&paths, &text[start..end]));
            }
        }
    }
    out
}

/// `text` cut to 40 characters, so a refusal stays short however long the
/// reply.
fn clip(text: &str) -> String {
    match text.char_indices().nth(40) {
        Some((at, _)) => format!("{}…", &text[..at]),
        None => text.to_string(),
    }
}

fn written(paths: &[(Vec<(u8, bool)>, u8)], text: &str) -> Result<Written, String> {
    let mut delta = [0i32; 26];
    let mut stars = Vec::new();
    for (stops, times) in paths {
        for pair in stops.windows(2) {
            let ((a, _), (b, _)) = (pair[0], pair[1]);
            if a <= b || a == OFF as u8 || b == BAR as u8 {
                return Err(format!(
                    "`{}`: checkers move from higher points to lower ones (the bar is 25, \
                     off is below 1), so {}/{} is not a move",
                    clip(text),
                    super::board::point_name(a),
                    super::board::point_name(b)
                ));
            }
        }
        let (first, last) = (stops[0].0, stops[stops.len() - 1].0);
        delta[usize::from(first)] -= i32::from(*times);
        delta[usize::from(last)] += i32::from(*times);
        stars.extend(stops.iter().filter(|s| s.1).map(|s| s.0));
    }
    stars.sort_unstable();
    stars.dedup();
    Ok(Written {
        delta,
        stars,
        pass: false,
        text: text.to_string(),
    })
}

/// The legal plays keyed by the checkers they leave the mover, so reading a
/// stretch costs one lookup however many plays a double has.
pub struct Index<'a> {
    board: &'a Board,
    p: Player,
    plays: &'a [Play],
    by_side: HashMap<[u8; 26], Vec<usize>>,
}

impl<'a> Index<'a> {
    pub fn new(board: &'a Board, p: Player, plays: &'a [Play]) -> Self {
        let mut by_side: HashMap<[u8; 26], Vec<usize>> = HashMap::new();
        for (k, play) in plays.iter().enumerate() {
            by_side.entry(play.board.c[p]).or_default().push(k);
        }
        Index {
            board,
            p,
            plays,
            by_side,
        }
    }

    /// The index in `plays` of the play `w` names: the one leaving the
    /// mover's checkers as written; when plays differ only in what they
    /// hit, the one hitting exactly on the points marked `*`.
    ///
    /// # Errors
    /// No such play, or several the hit marks do not tell apart.
    pub fn resolve(&self, w: &Written) -> Result<usize, String> {
        let plays = self.plays;
        if w.pass {
            return match plays {
                [only] if only.steps.is_empty() => Ok(0),
                _ => Err("you can move, so you may not pass".to_string()),
            };
        }
        let mut side = [0u8; 26];
        for (i, n) in side.iter_mut().enumerate() {
            let v = i32::from(self.board.c[self.p][i]) + w.delta[i];
            *n = u8::try_from(v).map_err(|_| {
                format!(
                    "`{}` moves more checkers from {} than you have there",
                    clip(&w.text),
                    super::board::point_name(i as u8)
                )
            })?;
        }
        let Some(matches) = self.by_side.get(&side) else {
            return Err(format!("`{}` is not a legal play", clip(&w.text)));
        };
        // Plays reaching one board are one play (OpenSpiel lists each order).
        let one_board = |ks: &[usize]| ks.iter().all(|&k| plays[k].board == plays[ks[0]].board);
        if one_board(matches) {
            return Ok(matches[0]);
        }
        let marked: Vec<usize> = matches
            .iter()
            .copied()
            .filter(|&k| plays[k].hits() == w.stars)
            .collect();
        match marked.first() {
            Some(&one) if one_board(&marked) => Ok(one),
            _ => Err(format!(
                "`{}` can be played hitting on different points; mark each hit with `*` (like \
                 `13/7*`) to say which",
                clip(&w.text)
            )),
        }
    }
}

/// The board drawn from `p`'s side: its points 13–24 on top, 12–1 below,
/// each with its checkers (`X3`: three of X's), then the bars, the trays
/// and the pip counts.
pub fn draw(b: &Board, p: Player, marks: [char; 2]) -> String {
    let cell = |i: usize| {
        let (mine, theirs) = (b.c[p][i], b.opp(p, i));
        if mine > 0 {
            format!("{}{mine}", marks[p])
        } else if theirs > 0 {
            format!("{}{theirs}", marks[1 - p])
        } else {
            ".".to_string()
        }
    };
    let row = |points: Vec<usize>, f: &dyn Fn(usize) -> String| {
        let cells: Vec<String> = points.iter().map(|&i| format!("{:>4}", f(i))).collect();
        format!("{} |{}", cells[..6].concat(), cells[6..].concat())
    };
    let top: Vec<usize> = (13..=24).collect();
    let bottom: Vec<usize> = (1..=12).rev().collect();
    let q = 1 - p;
    format!(
        "{}\n{}\n{}\n{}\nBar: you {}, opponent {}. Borne off: you {}, opponent {} (of 15). \
         Pips to go: you {}, opponent {}.",
        row(top.clone(), &|i| i.to_string()),
        row(top, &cell),
        row(bottom.clone(), &cell),
        row(bottom, &|i| i.to_string()),
        b.c[p][BAR],
        b.c[q][BAR],
        b.off(p),
        b.off(q),
        b.pips(p),
        b.pips(q),
    )
}
