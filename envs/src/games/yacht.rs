//! `games/yacht-v1`: Yacht, the dice game, one player (Knizia's rules, as
//! OpenSpiel's `yacht(players=1)`).
//!
//! # Task
//! Fill a scorecard of 12 categories in 12 turns. Each turn starts with a
//! roll of five dice; the player may re-roll any of them twice more (three
//! rolls in all), then must score the dice in one open category:
//! ones to sixes (the sum of the dice showing that number), chance (the sum
//! of all dice), four of a kind (the sum of all five dice if four or more
//! show one number), full house (the sum of the dice if three show one
//! number and two another; five of a kind counts), small straight 1-2-3-4-5
//! and large straight 2-3-4-5-6 (30 each), yacht (five of a kind, 50). No
//! upper bonus. A category scoring 0 may still be chosen.
//!
//! # Action
//! `keep 1 1 5` keeps dice showing those values and re-rolls the others;
//! `reroll 2 3` re-rolls dice showing those values; `keep none` (`reroll
//! all`) re-rolls all five; `keep all` (`reroll none`) stops rolling, as
//! OpenSpiel's action 0 (a move of its own); `score full house` (or the
//! category alone) scores the dice and ends the turn, at any roll. Values
//! not among the dice, a re-roll with no rolls left and a used category are
//! refused, and so is text naming two actions (`keep 5 or score fives`).
//! Each turn is read out of the whole reply by `crate::reply`.
//!
//! # Observation
//! The rules, the total and the target, the turn and moves so far, the
//! dice (sorted) with the roll number, the scorecard (filled categories
//! with their scores, open ones with what the dice would score there now)
//! and the legal actions. Nothing is hidden except the dice to come.
//!
//! # Reward
//! The total over 305 (OpenSpiel's maximum; its one-player return), in
//! [0, 1]; `passed` when the total reaches the target. Breakdown: `score`
//! (the total), `moves`, `reached_target`.
//!
//! # Episode end
//! All 12 categories are filled (12 turns).
//!
//! # Parameters
//! `target` (the total that passes, 30–300, default 100). On the difficulty
//! scale (`LEVELS`: targets 40 to 160): presets `easy` (40), `medium`
//! (60), `hard` (80), totals the oracle reaches on every audited task.
//!
//! # Seeding
//! The task's seed rolls the first five dice; the episode's seed rolls every
//! later die, so a card replays exactly.
//!
//! # Version history
//! v1: first version.

use std::sync::OnceLock;

use serde::{Deserialize, Serialize};
use serde_json::json;

use crate::core::{Env, EnvKind, EnvSpec, InvalidAction, Observation, Player, Preset, Score, Turn};
use crate::error::ConfigError;
use crate::games::common::{pick, words};
use crate::rng::Rng;

/// The categories, in OpenSpiel's order (its actions 32–43).
pub const CATEGORIES: [&str; 12] = [
    "ones",
    "twos",
    "threes",
    "fours",
    "fives",
    "sixes",
    "chance",
    "four of a kind",
    "full house",
    "small straight",
    "large straight",
    "yacht",
];
/// The largest possible total (OpenSpiel's `max_possible_score`).
pub const MAX_TOTAL: u32 = 305;
/// Rolls per turn.
pub const ROLLS: u8 = 3;

/// Dice, sorted; a hand of five.
pub type Dice = [u8; 5];
/// How many dice show each value (index 1–6; index 0 unused).
pub type Counts = [u8; 7];

pub fn counts(dice: &[u8]) -> Counts {
    let mut c = [0; 7];
    for &d in dice {
        c[usize::from(d)] += 1;
    }
    c
}

/// The points `dice` score in category `c` (OpenSpiel's `ComputeCategoryScore`).
pub fn category_score(c: usize, dice: &[u8]) -> u32 {
    let n = counts(dice);
    let total: u32 = dice.iter().map(|&d| u32::from(d)).sum();
    let straight = |lo: usize| (lo..lo + 5).all(|v| n[v] > 0);
    match c {
        0..=5 => u32::from(n[c + 1]) * (c as u32 + 1),
        6 => total,
        7 if n.iter().any(|&k| k >= 4) => total,
        8 if n.contains(&5) || (n.contains(&3) && n.contains(&2)) => total,
        9 if straight(1) => 30,
        10 if straight(2) => 30,
        11 if n.contains(&5) => 50,
        _ => 0,
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct YachtConfig {
    /// The total that passes (30–300).
    pub target: u32,
}

impl Default for YachtConfig {
    fn default() -> Self {
        YachtConfig { target: 100 }
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct YachtTask {
    pub target: u32,
    /// The first roll, sorted.
    pub dice: Dice,
}

/// One action: keep the dice with these value counts (re-rolling the rest;
/// all of them: stop rolling), or score a category.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Move {
    Keep(Counts),
    Score(usize),
}

#[derive(Clone, Debug)]
pub struct Yacht {
    dice: Dice,
    /// Rolls made this turn (1–3; 3 once the player stops rolling).
    rolls: u8,
    scores: [Option<u32>; 12],
    target: u32,
    rng: Rng,
    moves: u32,
}

fn roll(rng: &mut Rng, kept: &Counts) -> Dice {
    let mut dice = [0; 5];
    let mut i = 0;
    for v in 1..=6u8 {
        for _ in 0..kept[usize::from(v)] {
            dice[i] = v;
            i += 1;
        }
    }
    for d in &mut dice[i..] {
        *d = 1 + rng.below(6) as u8;
    }
    dice.sort_unstable();
    dice
}

fn values(k: &Counts) -> Vec<String> {
    (1..=6)
        .flat_map(|v| std::iter::repeat_n(v.to_string(), usize::from(k[v])))
        .collect()
}

/// `keep <values>`, `keep none` or `keep all`.
pub fn keep_text(k: &Counts, dice: &Dice) -> String {
    if *k == counts(dice) {
        "keep all".to_string()
    } else if k.iter().all(|&n| n == 0) {
        "keep none".to_string()
    } else {
        format!("keep {}", values(k).join(" "))
    }
}

fn subset(k: &Counts, of: &Counts) -> bool {
    (1..=6).all(|v| k[v] <= of[v])
}

/// The distinct multisets of dice that can be kept from `dice`, the whole
/// hand first.
pub fn keeps(dice: &Dice) -> Vec<Counts> {
    let mut out: Vec<Counts> = Vec::with_capacity(32);
    for mask in (0..32u32).rev() {
        let k = counts(
            &(0..5)
                .filter(|i| mask >> i & 1 == 1)
                .map(|i| dice[i])
                .collect::<Vec<_>>(),
        );
        if !out.contains(&k) {
            out.push(k);
        }
    }
    out
}

const HINT: &str = "reply `keep` and the values of the dice to keep (e.g. keep 1 1 5), `reroll` and the values \
                    to roll again, `keep all` to stop rolling, or `score` and a category (e.g. score full house)";

impl Yacht {
    pub fn new(task: &YachtTask, rng: Rng) -> Self {
        Yacht {
            dice: task.dice,
            rolls: 1,
            scores: [None; 12],
            target: task.target,
            rng,
            moves: 0,
        }
    }

    pub fn dice(&self) -> Dice {
        self.dice
    }

    pub fn rolls(&self) -> u8 {
        self.rolls
    }

    pub fn moves(&self) -> u32 {
        self.moves
    }

    pub fn open(&self) -> Vec<usize> {
        (0..12).filter(|&c| self.scores[c].is_none()).collect()
    }

    pub fn total(&self) -> u32 {
        self.scores.iter().flatten().sum()
    }

    pub fn over(&self) -> bool {
        self.scores.iter().all(Option::is_some)
    }

    /// The legal moves: the keeps while rolls are left (the whole hand
    /// first), then a score in every open category.
    pub fn legal(&self) -> Vec<Move> {
        if self.over() {
            return Vec::new();
        }
        let mut out: Vec<Move> = if self.rolls < ROLLS {
            keeps(&self.dice).into_iter().map(Move::Keep).collect()
        } else {
            Vec::new()
        };
        out.extend(self.open().into_iter().map(Move::Score));
        out
    }

    pub fn move_text(&self, m: Move) -> String {
        match m {
            Move::Keep(k) => keep_text(&k, &self.dice),
            Move::Score(c) => format!("score {}", CATEGORIES[c]),
        }
    }

    /// Plays a legal move: returns the points scored (0 for a keep).
    pub fn play(&mut self, m: Move) -> u32 {
        self.moves += 1;
        match m {
            Move::Keep(k) if k == counts(&self.dice) => {
                self.rolls = ROLLS;
                0
            }
            Move::Keep(k) => {
                self.dice = roll(&mut self.rng, &k);
                self.rolls += 1;
                0
            }
            Move::Score(c) => {
                let points = category_score(c, &self.dice);
                self.scores[c] = Some(points);
                if !self.over() {
                    self.dice = roll(&mut self.rng, &[0; 7]);
                    self.rolls = 1;
                }
                points
            }
        }
    }

    /// The oracle's move ([`best_move`]).
    pub fn best(&self) -> Option<Move> {
        if self.over() {
            return None;
        }
        Some(best_move(&self.dice, ROLLS - self.rolls, &self.scores))
    }

    /// The heuristic's move: while re-rolls are left and no open category
    /// scores 25 or more, keep the most common value (ties: the higher) and
    /// re-roll the rest; otherwise score in the open category the dice score
    /// most in (ties: the first).
    pub fn greedy(&self) -> Option<Move> {
        let best = self
            .open()
            .into_iter()
            .rev()
            .max_by_key(|&c| category_score(c, &self.dice))?;
        let n = counts(&self.dice);
        if self.rolls < ROLLS && category_score(best, &self.dice) < 25 && !n.contains(&5) {
            let v = (1..=6).rev().max_by_key(|&v| (n[v], v)).unwrap_or(6);
            let mut k = [0; 7];
            k[v] = n[v];
            return Some(Move::Keep(k));
        }
        Some(Move::Score(best))
    }

    fn card(&self) -> String {
        CATEGORIES
            .iter()
            .enumerate()
            .map(|(c, name)| match self.scores[c] {
                Some(s) => format!("  {name}: {s}"),
                None => format!(
                    "  {name}: open (these dice would score {})",
                    category_score(c, &self.dice)
                ),
            })
            .collect::<Vec<_>>()
            .join("\n")
    }

    fn dice_text(&self) -> String {
        self.dice.map(|d| d.to_string()).join(" ")
    }
}

/// What a category is worth to the oracle beyond its points: a typical
/// score there, subtracted so that a poor hand fills the category it costs
/// least to spoil.
const PAR: [f64; 12] = [
    2.0, 5.0, 8.0, 11.0, 14.0, 17.0, 22.0, 13.0, 16.0, 15.0, 15.0, 12.0,
];

/// The oracle's tables over every multiset of 0–5 dice (462).
struct Tables {
    /// Code (base 6 in the counts) to index.
    index: Vec<u16>,
    /// The indices of the 252 five-dice hands.
    hands: Vec<usize>,
    /// Per hand: its points in each category.
    scores: Vec<[u32; 12]>,
    /// Per multiset: the hands rolling the rest makes, with probabilities.
    outcomes: Vec<Vec<(usize, f64)>>,
    /// Per hand: the distinct multisets it can keep.
    subs: Vec<Vec<usize>>,
}

fn tables() -> &'static Tables {
    static T: OnceLock<Tables> = OnceLock::new();
    T.get_or_init(|| {
        let fact = |n: u8| (1..=u32::from(n)).product::<u32>() as f64;
        let by_size: Vec<Vec<(Counts, f64)>> = (0..=5)
            .map(|s| {
                let mut out = Vec::new();
                fill(&mut [0u8; 7], 1, s, &mut out);
                out.into_iter()
                    .map(|c| {
                        let ways = fact(s as u8) / (1..=6).map(|v| fact(c[v])).product::<f64>();
                        (c, ways / 6f64.powi(s as i32))
                    })
                    .collect()
            })
            .collect();
        let all: Vec<Counts> = by_size.iter().flatten().map(|(c, _)| *c).collect();
        let mut index = vec![u16::MAX; 6usize.pow(6)];
        for (i, c) in all.iter().enumerate() {
            index[code(c)] = i as u16;
        }
        let at = |c: &Counts| usize::from(index[code(c)]);
        let size = |c: &Counts| c.iter().map(|&n| usize::from(n)).sum::<usize>();
        let hands: Vec<usize> = (0..all.len()).filter(|&i| size(&all[i]) == 5).collect();
        let scores = all
            .iter()
            .map(|c| {
                let d = hand(c);
                std::array::from_fn(|k| {
                    if size(c) == 5 {
                        category_score(k, &d)
                    } else {
                        0
                    }
                })
            })
            .collect();
        let outcomes = all
            .iter()
            .map(|k| {
                by_size[5 - size(k)]
                    .iter()
                    .map(|(o, p)| (at(&plus(k, o)), *p))
                    .collect()
            })
            .collect();
        let subs = all
            .iter()
            .map(|c| {
                if size(c) == 5 {
                    keeps(&hand(c)).iter().map(at).collect()
                } else {
                    Vec::new()
                }
            })
            .collect();
        Tables {
            index,
            hands,
            scores,
            outcomes,
            subs,
        }
    })
}

fn fill(c: &mut Counts, v: usize, left: usize, out: &mut Vec<Counts>) {
    if v == 6 {
        c[6] = left as u8;
        out.push(*c);
        return;
    }
    for n in 0..=left {
        c[v] = n as u8;
        fill(c, v + 1, left - n, out);
    }
    c[v] = 0;
}

/// A multiset's code (base 6 in the counts).
fn code(c: &Counts) -> usize {
    (1..=6).fold(0, |acc, v| acc * 6 + usize::from(c[v]))
}

fn plus(a: &Counts, b: &Counts) -> Counts {
    let mut c = *a;
    for v in 1..=6 {
        c[v] += b[v];
    }
    c
}

fn hand(c: &Counts) -> Dice {
    let mut d = [0; 5];
    let mut i = 0;
    for v in 1..=6u8 {
        for _ in 0..c[usize::from(v)] {
            d[i] = v;
            i += 1;
        }
    }
    d
}

/// The oracle: the keep with the greatest expected value over this turn's
/// remaining rolls (exact, by tables over all 252 hands and 462 kept
/// multisets), where a finished hand is worth the most points minus
/// [`PAR`] it makes in an open category; stopping is valued the same way,
/// and the category chosen is the one with the most points minus par.
/// `left` is the number of re-rolls left.
pub fn best_move(dice: &Dice, left: u8, scores: &[Option<u32>; 12]) -> Move {
    let t = tables();
    let open: Vec<usize> = (0..12).filter(|&c| scores[c].is_none()).collect();
    let leaf = |h: usize| -> (f64, usize) {
        let mut best = (f64::MIN, open[0]);
        for &c in &open {
            let s = f64::from(t.scores[h][c]) - PAR[c];
            if s > best.0 {
                best = (s, c);
            }
        }
        best
    };
    let all = counts(dice);
    let now = usize::from(t.index[code(&all)]);
    let (stop, category) = leaf(now);
    if left == 0 {
        return Move::Score(category);
    }
    let n = t.outcomes.len();
    let mut value = vec![0.0; n];
    for &h in &t.hands {
        value[h] = leaf(h).0;
    }
    let mut expected = vec![0.0; n];
    for r in 1..=left {
        for (e, outs) in expected.iter_mut().zip(&t.outcomes) {
            *e = outs.iter().map(|&(h, p)| p * value[h]).sum();
        }
        if r == left {
            break;
        }
        for &h in &t.hands {
            value[h] = t.subs[h]
                .iter()
                .map(|&k| expected[k])
                .fold(f64::MIN, f64::max);
        }
    }
    let mut best = (stop, now);
    for &k in &t.subs[now] {
        if k != now && expected[k] > best.0 + 1e-9 {
            best = (expected[k], k);
        }
    }
    if best.1 == now {
        Move::Score(category)
    } else {
        Move::Keep(counts_of(t, best.1))
    }
}

fn counts_of(t: &Tables, i: usize) -> Counts {
    let c = t
        .index
        .iter()
        .position(|&j| usize::from(j) == i)
        .expect("an indexed multiset");
    let mut k = [0; 7];
    let mut x = c;
    for v in (1..=6).rev() {
        k[v] = (x % 6) as u8;
        x /= 6;
    }
    k
}

impl Env for Yacht {
    type Config = YachtConfig;
    type Task = YachtTask;
    type Action = Move;

    const SPEC: EnvSpec = EnvSpec {
        id: "games/yacht-v1",
        kind: EnvKind::Game,
        description: "Yacht (Knizia's rules as OpenSpiel's), one player, seeded dice; oracle maximises this turn's expected category value (points minus par)",
        players: 1,
        // Three moves a turn at most: two re-rolls (or a keep-all) and a score.
        max_steps: 36,
        reward_range: (0.0, 1.0),
        zero_sum: false,
        fixed_start: false,
        presets: &Preset::graded(Self::LEVELS, [0, 1, 2]),
    };

    /// Higher targets.
    const LEVELS: &'static [&'static str] = &[
        r#"{"target": 40}"#,
        r#"{"target": 60}"#,
        r#"{"target": 80}"#,
        "{}",
        r#"{"target": 120}"#,
        r#"{"target": 140}"#,
        r#"{"target": 160}"#,
    ];

    /// The target total.
    fn effort(task: &YachtTask) -> Option<f64> {
        Some(f64::from(task.target))
    }

    fn validate(config: &YachtConfig) -> Result<(), ConfigError> {
        if !(30..=300).contains(&config.target) {
            return Err(format!("target must be in 30..=300, got {}", config.target).into());
        }
        Ok(())
    }

    fn generate(config: &YachtConfig, rng: &mut Rng) -> YachtTask {
        YachtTask {
            target: config.target,
            dice: roll(rng, &[0; 7]),
        }
    }

    fn reset(task: &YachtTask, rng: Rng) -> Self {
        Yacht::new(task, rng)
    }

    fn turn(&self) -> Turn {
        if self.over() {
            Turn::Over
        } else {
            Turn::Player(0)
        }
    }

    fn observe(&self, _player: Player) -> Observation {
        let legal: Vec<String> = self
            .legal()
            .into_iter()
            .map(|m| self.move_text(m))
            .collect();
        let status = if self.over() {
            format!("Game over: total {}.", self.total())
        } else {
            let left = ROLLS - self.rolls;
            format!(
                "Dice: {} (roll {} of {ROLLS}; {left} re-roll{} left). Your move: reply with one move: {}.",
                self.dice_text(),
                self.rolls,
                if left == 1 { "" } else { "s" },
                if left > 0 {
                    "keep some dice and re-roll the rest (e.g. keep 1 1 5, or reroll 2 3), keep all to stop, or score a category"
                } else {
                    "score an open category"
                }
            )
        };
        Observation {
            text: format!(
                "Yacht, one player. Each turn you roll five dice, may re-roll any of them twice more, then score them \
                 in one open category: ones to sixes (the sum of the dice showing that number), chance (the sum of \
                 all dice), four of a kind (the sum of all dice if four show one number), full house (the sum of the \
                 dice if three show one number and two another, or all five one number), small straight 1-2-3-4-5 \
                 (30), large straight 2-3-4-5-6 (30), yacht (five of a kind, 50). A category scoring 0 may be \
                 chosen. The game ends when all 12 are filled; reach a total of {} to pass.\nTotal {}, turn {} of 12, \
                 moves {}.\nScorecard:\n{}\n{status}",
                self.target,
                self.total(),
                (12 - self.open().len() + 1).min(12),
                self.moves,
                self.card(),
            ),
            structured: json!({
                "dice": self.dice,
                "roll": self.rolls,
                "scores": self.scores,
                "total": self.total(),
                "target": self.target,
            }),
            legal_actions: Some(legal),
        }
    }

    fn parse_action(&self, _player: Player, text: &str) -> Result<Move, InvalidAction> {
        parse_move(text, &self.dice)
    }

    fn apply(&mut self, _player: Player, m: Move) -> Result<Vec<String>, InvalidAction> {
        match m {
            Move::Keep(_) if self.rolls >= ROLLS => {
                return Err(InvalidAction::new(
                    "no re-rolls left this turn; score an open category",
                ));
            }
            Move::Keep(k) if !subset(&k, &counts(&self.dice)) => {
                return Err(InvalidAction::new(format!(
                    "the dice are {}: `{}` keeps dice you do not have",
                    self.dice_text(),
                    values(&k).join(" ")
                )));
            }
            Move::Score(c) if self.scores[c].is_some() => {
                return Err(InvalidAction::new(format!(
                    "{} is already filled; open: {}",
                    CATEGORIES[c],
                    self.open()
                        .iter()
                        .map(|&c| CATEGORIES[c])
                        .collect::<Vec<_>>()
                        .join(", ")
                )));
            }
            _ => {}
        }
        let text = self.move_text(m);
        let points = self.play(m);
        let event = match m {
            Move::Score(_) => format!("{text} (+{points}), total {}", self.total()),
            Move::Keep(_) if self.rolls == ROLLS && text == "keep all" => text,
            Move::Keep(_) => format!("{text}; the dice are {}", self.dice_text()),
        };
        let mut events = vec![event];
        if self.over() {
            events.push(format!("game over: total {}", self.total()));
        }
        Ok(events)
    }

    fn score(&self, _player: Player) -> Score {
        let total = self.total();
        let reached = total >= self.target;
        Score::default()
            .with(f64::from(total) / f64::from(MAX_TOTAL), reached)
            .part("score", f64::from(total))
            .part("moves", f64::from(self.moves))
            .part("reached_target", f64::from(u8::from(reached)))
    }

    fn oracle(&self, _player: Player) -> Option<String> {
        self.best().map(|m| self.move_text(m))
    }

    /// Keep the most common value, then the best open category ([`Yacht::greedy`]).
    fn heuristic(&self, _player: Player, _rng: &mut Rng) -> Option<String> {
        self.greedy().map(|m| self.move_text(m))
    }

    /// Uniform over the legal moves, without building the observation.
    fn random_action(&self, _player: Player, rng: &mut Rng) -> String {
        rng.choose(&self.legal())
            .map_or_else(String::new, |&m| self.move_text(m))
    }

    fn render(&self) -> String {
        format!(
            "total {} moves {} roll {}\ndice {}\n{}",
            self.total(),
            self.moves,
            self.rolls,
            self.dice_text(),
            self.card()
        )
    }
}

/// Reads one action: a category (with or without `score`), or `keep` /
/// `reroll` with dice values, `all` or `none`.
///
/// # Errors
/// Nothing readable, two actions, or keep values the dice lack.
pub fn parse_move(text: &str, dice: &Dice) -> Result<Move, InvalidAction> {
    let mut phrases: Vec<(&str, usize)> = CATEGORIES
        .iter()
        .enumerate()
        .map(|(c, &n)| (n, c))
        .collect();
    phrases.extend([
        ("4 of a kind", 7),
        ("four-of-a-kind", 7),
        ("1s", 0),
        ("2s", 1),
        ("3s", 2),
        ("4s", 3),
        ("5s", 4),
        ("6s", 5),
        ("yahtzee", 11),
    ]);
    let w = words(text);
    // Only texts with a category's first word can name one (a cheap pass
    // before `pick` on long texts).
    let first = |s: &str| {
        phrases
            .iter()
            .any(|(p, _)| p.split([' ', '-']).next() == Some(s))
    };
    let named = w.iter().any(|s| first(s));
    let category = match if named {
        pick(text, phrases, HINT)
    } else {
        Err(InvalidAction::new(""))
    } {
        Ok(c) => Some(c),
        Err(e) if e.reason.contains("several") => return Err(InvalidAction::ambiguous(e.reason)),
        Err(_) => None,
    };
    let is_keep = |s: &str| matches!(s, "keep" | "hold" | "keeping");
    let is_reroll = |s: &str| matches!(s, "reroll" | "roll" | "rerolling" | "rolling");
    let verbs: Vec<usize> = (0..w.len())
        .filter(|&i| is_keep(&w[i]) || is_reroll(&w[i]))
        .collect();
    if let Some(c) = category {
        if !verbs.is_empty() {
            return Err(InvalidAction::ambiguous(format!(
                "name one action, not a re-roll and a score; {HINT}"
            )));
        }
        return Ok(Move::Score(c));
    }
    let [at] = verbs[..] else {
        return Err(if verbs.is_empty() {
            InvalidAction::new(format!("no action found; {HINT}"))
        } else {
            InvalidAction::ambiguous(format!("name one action; {HINT}"))
        });
    };
    let rest = &w[at + 1..];
    let digit = |s: &str| matches!(s, "1" | "2" | "3" | "4" | "5" | "6");
    if w[..at].iter().any(|s| digit(s)) {
        return Err(InvalidAction::new(format!(
            "dice values belong after the verb; {HINT}"
        )));
    }
    let hand = counts(dice);
    let named: Counts = match rest {
        [one] if one == "all" => hand,
        [one] if one == "none" || one == "nothing" => [0; 7],
        [] => return Err(InvalidAction::new(format!("say which dice; {HINT}"))),
        _ if rest.iter().all(|s| digit(s)) => counts(
            &rest
                .iter()
                .map(|s| s.parse::<u8>().unwrap())
                .collect::<Vec<_>>(),
        ),
        _ => {
            return Err(InvalidAction::new(format!(
                "`{}` is not a list of dice values 1-6; {HINT}",
                rest.join(" ")
            )));
        }
    };
    if !subset(&named, &hand) {
        return Err(InvalidAction::new(format!(
            "the dice are {}: `{}` names dice you do not have",
            dice.map(|d| d.to_string()).join(" "),
            values(&named).join(" ")
        )));
    }
    if is_keep(&w[at]) {
        Ok(Move::Keep(named))
    } else {
        let mut kept = hand;
        for v in 1..=6 {
            kept[v] -= named[v];
        }
        Ok(Move::Keep(kept))
    }
}

#[cfg(test)]
#[path = "yacht_tests.rs"]
mod tests;
