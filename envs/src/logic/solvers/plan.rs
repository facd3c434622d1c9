//! Shortest plans for the STRIPS planning envs (blocksworld, logistics):
//! a domain states its successors, its goal and an admissible lower bound;
//! [`shortest_plan`] runs A* (with reopening, so the bound need only be
//! admissible) and returns a plan of proven optimal length, and
//! [`breadth_first_plan`] is the blind search the tests compare it with.
//! [`read_actions`] reads a plan's text into verbs and argument words, the
//! same way for every domain.

use std::cmp::Reverse;
use std::collections::hash_map::Entry;
use std::collections::{BinaryHeap, HashMap};
use std::hash::{BuildHasherDefault, Hasher};

use crate::core::InvalidAction;
use crate::logic::names::draw_names;
use crate::rng::{Rng, splitmix64};

/// A planning domain over states packed into a `u64`, with unit-cost actions.
pub trait Domain {
    type Action: Copy;
    /// Every action legal in `state`, with the state it leads to, in a
    /// fixed order (the search's ties break by it).
    fn successors(&self, state: u64, out: &mut Vec<(Self::Action, u64)>);
    fn is_goal(&self, state: u64) -> bool;
    /// A lower bound on the actions from `state` to a goal (admissible).
    fn lower_bound(&self, state: u64) -> u32;
}

/// What a bounded search found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Found<A> {
    /// A shortest plan.
    Plan(Vec<A>),
    /// No goal is reachable.
    Unreachable,
    /// The search expanded `max_expansions` states without an answer.
    GaveUp,
}

/// A* from `start`: a plan of optimal length, breaking ties towards deeper
/// states and then by the order states were reached (so the plan is a pure
/// function of the domain).
pub fn shortest_plan<D: Domain>(domain: &D, start: u64, max_expansions: usize) -> Found<D::Action> {
    search(domain, start, max_expansions, true)
}

/// Breadth-first search (A* without the bound): the brute force the tests
/// check [`shortest_plan`] against.
pub fn breadth_first_plan<D: Domain>(
    domain: &D,
    start: u64,
    max_expansions: usize,
) -> Found<D::Action> {
    search(domain, start, max_expansions, false)
}

/// A cheap hasher for packed states (lookups only: nothing iterates the
/// map, so its order never shows).
#[derive(Default)]
struct StateHasher(u64);

impl Hasher for StateHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = splitmix64(self.0 ^ u64::from(b));
        }
    }
    fn write_u64(&mut self, value: u64) {
        self.0 = splitmix64(self.0 ^ value);
    }
}

/// How the search reached a state: the steps from the start, and the
/// state before with the action from it (none for the start).
type Reached<A> = (u32, Option<(u64, A)>);

fn search<D: Domain>(
    domain: &D,
    start: u64,
    max_expansions: usize,
    bounded: bool,
) -> Found<D::Action> {
    let bound = |state| {
        if bounded {
            domain.lower_bound(state)
        } else {
            0
        }
    };
    let mut reached: HashMap<u64, Reached<D::Action>, BuildHasherDefault<StateHasher>> =
        HashMap::default();
    reached.insert(start, (0, None));
    // (f, deeper first, arrival order, state)
    let mut open = BinaryHeap::new();
    let mut arrivals = 0u64;
    open.push(Reverse((bound(start), Reverse(0u32), arrivals, start)));
    let mut successors = Vec::new();
    let mut expansions = 0;
    while let Some(Reverse((_, Reverse(g), _, state))) = open.pop() {
        if reached[&state].0 < g {
            continue;
        }
        if domain.is_goal(state) {
            let mut plan = Vec::new();
            let mut at = state;
            while let Some((before, action)) = reached[&at].1 {
                plan.push(action);
                at = before;
            }
            plan.reverse();
            return Found::Plan(plan);
        }
        expansions += 1;
        if expansions > max_expansions {
            return Found::GaveUp;
        }
        successors.clear();
        domain.successors(state, &mut successors);
        for &(action, next) in &successors {
            let steps = g + 1;
            match reached.entry(next) {
                Entry::Occupied(mut seen) => {
                    if seen.get().0 <= steps {
                        continue;
                    }
                    seen.insert((steps, Some((state, action))));
                }
                Entry::Vacant(slot) => {
                    slot.insert((steps, Some((state, action))));
                }
            }
            arrivals += 1;
            open.push(Reverse((
                steps + bound(next),
                Reverse(steps),
                arrivals,
                next,
            )));
        }
    }
    Found::Unreachable
}

/// `count` distinct random names, none of them one of the `reserved`
/// words (a verb or filler word of the plan syntax), case ignored.
pub(crate) fn draw_object_names(count: usize, reserved: &[&str], rng: &mut Rng) -> Vec<String> {
    loop {
        let names = draw_names(count, rng);
        if !names
            .iter()
            .any(|name| reserved.iter().any(|word| word.eq_ignore_ascii_case(name)))
        {
            return names;
        }
    }
}

/// One action as read: the index of its verb and its argument words, in
/// order, with the filler words dropped.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReadAction {
    pub verb: usize,
    pub args: Vec<String>,
}

/// The verb index of `word` (case, `-` and `_` ignored) among `verbs`, each
/// a list of spellings.
fn verb_of(word: &str, verbs: &[&[&str]]) -> Option<usize> {
    let plain: String = word
        .chars()
        .filter(|c| !matches!(c, '-' | '_'))
        .collect::<String>()
        .to_ascii_lowercase();
    verbs
        .iter()
        .position(|spellings| spellings.contains(&plain.as_str()))
}

/// Reads a plan: actions in order, each a verb followed by its arguments.
/// Brackets, commas, semicolons, colons, arrows and line breaks separate
/// words; list numbering (`1.`, `2)`, `3:`) and the `fillers` (lowercase)
/// are skipped. Unreadable: words before the first verb, an action without
/// arguments, more than `max_actions` actions, or nothing at all.
pub fn read_actions(
    answer: &str,
    verbs: &[&[&str]],
    fillers: &[&str],
    max_actions: usize,
) -> Result<Vec<ReadAction>, InvalidAction> {
    let mut actions: Vec<ReadAction> = Vec::new();
    for chunk in answer.split_whitespace() {
        let numbering = chunk.trim_end_matches(['.', ')', ':']);
        if numbering.len() < chunk.len()
            && !numbering.is_empty()
            && numbering.bytes().all(|b| b.is_ascii_digit())
        {
            continue;
        }
        let cleaned = chunk
            .replace("->", " ")
            .replace(['(', ')', '[', ']', ',', ';', ':', '→', '{', '}', '.'], " ");
        for word in cleaned.split_whitespace() {
            if let Some(verb) = verb_of(word, verbs) {
                if actions.last().is_some_and(|a| a.args.is_empty()) {
                    return Err("an action has no arguments".into());
                }
                if actions.len() == max_actions {
                    return Err(format!("more than {max_actions} actions").into());
                }
                actions.push(ReadAction {
                    verb,
                    args: Vec::new(),
                });
            } else if fillers.contains(&word.to_ascii_lowercase().as_str()) {
            } else if let Some(action) = actions.last_mut() {
                if action.args.len() == 8 {
                    return Err(format!("too many arguments before `{word}`").into());
                }
                action.args.push(word.to_string());
            } else {
                return Err(format!("`{word}` comes before any action").into());
            }
        }
    }
    match actions.last() {
        None => Err("no actions given".into()),
        Some(action) if action.args.is_empty() => Err("an action has no arguments".into()),
        Some(_) => Ok(actions),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A line of cells 0..len: step left or right; the bound is the distance.
    struct Line {
        len: u64,
        goal: u64,
    }

    impl Domain for Line {
        type Action = i8;
        fn successors(&self, state: u64, out: &mut Vec<(i8, u64)>) {
            if state > 0 {
                out.push((-1, state - 1));
            }
            if state + 1 < self.len {
                out.push((1, state + 1));
            }
        }
        fn is_goal(&self, state: u64) -> bool {
            state == self.goal
        }
        fn lower_bound(&self, state: u64) -> u32 {
            state.abs_diff(self.goal) as u32
        }
    }

    #[test]
    fn both_searches_find_the_shortest_plan_and_stop_at_their_bound() {
        let line = Line { len: 10, goal: 7 };
        assert_eq!(shortest_plan(&line, 2, 100), Found::Plan(vec![1; 5]));
        assert_eq!(breadth_first_plan(&line, 9, 100), Found::Plan(vec![-1; 2]));
        assert_eq!(breadth_first_plan(&line, 0, 3), Found::GaveUp);
        let far = Line { len: 5, goal: 7 };
        assert_eq!(shortest_plan(&far, 0, 100), Found::Unreachable);
    }

    #[test]
    fn plans_read_in_every_spelling_and_junk_is_unreadable() {
        let verbs: &[&[&str]] = &[&["move"], &["load", "loadtruck"]];
        let fillers = ["to", "the"];
        let read = |text| read_actions(text, verbs, &fillers, 10);
        let expected = vec![
            ReadAction {
                verb: 0,
                args: vec!["a".into(), "table".into()],
            },
            ReadAction {
                verb: 1,
                args: vec!["B".into(), "C".into()],
            },
        ];
        for good in [
            "move(a, table)\nload(B, C)",
            "1. move a to the table; 2. load-truck B C",
            "Move(a,table), LOAD_TRUCK(B,C).",
            "1) move a -> table 2) load B -> C",
            "[move(a, table), load(B, C)]",
        ] {
            assert_eq!(read(good).unwrap(), expected, "{good:?}");
        }
        for bad in [
            "",
            "a table",
            "move a table or load B C",
            "move load B",
            "move",
            "move a table 1",
        ] {
            let result = read(bad);
            assert!(
                result.is_err() || result.unwrap().iter().any(|a| a.args.len() != 2),
                "{bad:?}"
            );
        }
        assert!(read(&"move a b\n".repeat(11)).is_err());
    }
}
