//! `logic/bin-packing-v1`: pack items into as few bins as possible.
//!
//! # Task
//! `items` item sizes in `1..=max_size` and a bin capacity. The generator
//! computes the optimal bin count with an exact branch-and-bound search and
//! keeps tasks needing at least two bins.
//!
//! # Action
//! The bins, each a group of item sizes: one bin per line (or separated by
//! `;` or `|`, or each in `[...]`, the list itself optionally in brackets),
//! sizes separated by spaces, commas or `+`; a `Bin 1:` label before a group
//! is allowed. With brackets, nothing but separators and labels may stand
//! outside them (more text would be a second candidate). In `\boxed{…}` or
//! as the whole reply.
//! Read by the single-turn rule (`crate::single_turn`): reasoning is dropped,
//! then the last `\boxed{…}` counts (boxes that disagree are a hedge and
//! score 0), else the whole reply; prose around the box is ignored.
//!
//! # Observation
//! Sizes, capacity and the rules. Structured: the same.
//!
//! # Reward
//! 1 and `passed` when the groups use exactly the given items, no bin is
//! over capacity, and there are no more bins than the optimum; else 0.
//! Breakdown: `correct`, `format`.
//!
//! # Episode end
//! After the one answer.
//!
//! # Parameters
//! `items` (3..=16), `capacity` (5..=1000), `max_size` (2..=capacity).
//!
//! # Seeding
//! Sizes come from the task rng.
//!
//! # Version history
//! v1: first version.

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use crate::core::{EnvKind, EnvSpec, InvalidAction, Preset};
use crate::error::{ConfigError, NoTask};
use crate::rng::Rng;
use crate::single_turn::{CheckError, Question, SingleTurn};

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct BinPackingConfig {
    pub items: usize,
    pub capacity: u32,
    pub max_size: u32,
}

impl Default for BinPackingConfig {
    fn default() -> Self {
        BinPackingConfig {
            items: 10,
            capacity: 20,
            max_size: 12,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct BinPackingTask {
    pub sizes: Vec<u32>,
    pub capacity: u32,
    pub optimal_bins: usize,
    /// One optimal packing.
    pub packing: Vec<Vec<u32>>,
}

/// Item sets drawn at most for one task (a count, not time, so the outcome
/// is a pure function of config and seed).
const MAX_DRAWS: u64 = 100_000;

/// An optimal packing by depth-first branch and bound: items largest
/// first, each into an open bin (skipping bins of equal load) or a new one.
fn optimal_packing(sizes: &[u32], capacity: u32) -> Vec<Vec<u32>> {
    let mut items = sizes.to_vec();
    items.sort_unstable_by(|a, b| b.cmp(a));
    let lower = (items.iter().sum::<u32>()).div_ceil(capacity) as usize;
    let mut best: Vec<Vec<u32>> = items.iter().map(|&s| vec![s]).collect();
    let mut bins: Vec<Vec<u32>> = Vec::new();
    let mut loads: Vec<u32> = Vec::new();
    fn go(
        i: usize,
        items: &[u32],
        cap: u32,
        lower: usize,
        bins: &mut Vec<Vec<u32>>,
        loads: &mut Vec<u32>,
        best: &mut Vec<Vec<u32>>,
    ) {
        if bins.len() >= best.len() || best.len() == lower {
            return;
        }
        if i == items.len() {
            *best = bins.clone();
            return;
        }
        let size = items[i];
        for b in 0..bins.len() {
            if loads[b] + size <= cap && !loads[..b].contains(&loads[b]) {
                loads[b] += size;
                bins[b].push(size);
                go(i + 1, items, cap, lower, bins, loads, best);
                bins[b].pop();
                loads[b] -= size;
            }
        }
        bins.push(vec![size]);
        loads.push(size);
        go(i + 1, items, cap, lower, bins, loads, best);
        bins.pop();
        loads.pop();
    }
    go(0, &items, capacity, lower, &mut bins, &mut loads, &mut best);
    best
}

fn parse_bins(answer: &str) -> Result<Vec<Vec<u32>>, InvalidAction> {
    let groups = if answer.contains(['[', ']']) {
        bracketed_groups(answer)?
    } else {
        answer.split(['\n', ';', '|']).collect()
    };
    let mut bins = Vec::new();
    for group in groups {
        let text =
            strip_label(group.trim()).ok_or_else(|| format!("`{group}`: write `Bin k: sizes`"))?;
        let sizes: Vec<u32> = text
            .split(|c: char| c.is_whitespace() || ",+{}()".contains(c))
            .filter(|t| !t.is_empty())
            .map(|t| {
                t.parse::<u32>()
                    .map_err(|_| format!("`{t}` is not an item size"))
            })
            .collect::<Result<_, _>>()?;
        if !sizes.is_empty() {
            bins.push(sizes);
        }
        if bins.len() > 100 {
            return Err("too many bins".into());
        }
    }
    Ok(bins)
}

/// The text after a `Bin k:` label (`Bin:`, `bin 2:`), or the text itself
/// without one; `None` for a label with no colon.
fn strip_label(text: &str) -> Option<&str> {
    if text.len() >= 3 && text[..3].eq_ignore_ascii_case("bin") {
        return text.split_once(':').map(|(_, rest)| rest);
    }
    Some(text)
}

/// The innermost `[...]` groups of a bracketed answer (`[7, 3], [5]` or
/// `[[7, 3], [5]]`). Outside them only separators and `Bin k:` labels may
/// stand: anything else (`[7, 3], [5] or 7 3; 5`, a stray item) would be a
/// second candidate, and the answer is refused.
fn bracketed_groups(answer: &str) -> Result<Vec<&str>, InvalidAction> {
    let mut groups = Vec::new();
    let mut outside = String::new();
    let mut depth = 0usize;
    // Just after the last `[` while no bracket has followed it yet.
    let mut innermost_open: Option<usize> = None;
    let mut segment_start = 0;
    for (i, c) in answer.char_indices() {
        match c {
            '[' => {
                depth += 1;
                outside.push_str(&answer[segment_start..i]);
                outside.push(' ');
                innermost_open = Some(i + 1);
                segment_start = i + 1;
            }
            ']' => {
                depth = depth.checked_sub(1).ok_or("a `]` without its `[`")?;
                match innermost_open.take() {
                    Some(open) => groups.push(&answer[open..i]),
                    None => {
                        outside.push_str(&answer[segment_start..i]);
                        outside.push(' ');
                    }
                }
                segment_start = i + 1;
            }
            _ => {}
        }
    }
    if depth != 0 {
        return Err("a `[` without its `]`".into());
    }
    outside.push_str(&answer[segment_start..]);
    check_outside(&outside)?;
    Ok(groups)
}

/// Text outside the bracketed bins: separators and `Bin k:` labels only.
fn check_outside(text: &str) -> Result<(), InvalidAction> {
    let refuse = |word: &str| {
        Err(InvalidAction::from(format!(
            "`{word}` outside the bracketed bins: write the bins and nothing else"
        )))
    };
    let mut words = text
        .split(|c: char| c.is_whitespace() || ",;|".contains(c))
        .filter(|w| !w.is_empty());
    while let Some(word) = words.next() {
        let lower = word.to_ascii_lowercase();
        let Some(after) = lower.strip_prefix("bin") else {
            return refuse(word);
        };
        let number = after.strip_suffix(':').unwrap_or(after);
        let labelled = if !number.is_empty() {
            number.bytes().all(|b| b.is_ascii_digit()) && after.ends_with(':')
        } else if after.ends_with(':') {
            true
        } else {
            // `Bin 2:`: the number and its colon come next.
            words.next().is_some_and(|n| {
                n.strip_suffix(':')
                    .is_some_and(|d| d.bytes().all(|b| b.is_ascii_digit()))
            })
        };
        if !labelled {
            return refuse(word);
        }
    }
    Ok(())
}

pub struct BinPacking;

pub type BinPackingEnv = SingleTurn<BinPacking>;

impl Question for BinPacking {
    type Config = BinPackingConfig;
    type Task = BinPackingTask;
    const SPEC: EnvSpec = EnvSpec {
        id: "logic/bin-packing-v1",
        kind: EnvKind::SingleTurn,
        description: "Pack items into the fewest bins of a fixed capacity; any optimal packing passes",
        players: 1,
        max_steps: 1,
        reward_range: (0.0, 1.0),
        zero_sum: false,
        fixed_start: false,
        presets: &[
            Preset {
                name: "easy",
                overrides: r#"{"items":6,"capacity":10,"max_size":7}"#,
            },
            Preset {
                name: "medium",
                overrides: "{}",
            },
            Preset {
                name: "hard",
                overrides: r#"{"items":14,"capacity":100,"max_size":70}"#,
            },
        ],
    };

    fn validate(config: &BinPackingConfig) -> Result<(), ConfigError> {
        if !(3..=16).contains(&config.items)
            || !(5..=1000).contains(&config.capacity)
            || !(2..=config.capacity).contains(&config.max_size)
        {
            return Err(
                "need 3 <= items <= 16, 5 <= capacity <= 1000, 2 <= max_size <= capacity".into(),
            );
        }
        Ok(())
    }

    fn generate(config: &BinPackingConfig, rng: &mut Rng) -> BinPackingTask {
        Self::try_generate(config, rng).unwrap_or_else(|message| panic!("{message}"))
    }

    /// Draws items until they need two bins or more, which takes a total
    /// above `capacity`: impossible when even `items` items of `max_size`
    /// fit one bin, rare when only a lucky draw overflows it.
    fn try_generate(config: &BinPackingConfig, rng: &mut Rng) -> Result<BinPackingTask, NoTask> {
        let largest_total = config.items as u64 * u64::from(config.max_size);
        if largest_total <= u64::from(config.capacity) {
            return Err(format!(
                "{} items of at most {} always fit one bin of {}: raise items or max_size, or lower capacity",
                config.items, config.max_size, config.capacity
            ).into());
        }
        let draw = || {
            let sizes: Vec<u32> = (0..config.items)
                .map(|_| 1 + rng.below(u64::from(config.max_size)) as u32)
                .collect();
            // One bin holds them all exactly when their total fits it: the
            // same test as the optimum's bin count, without the search.
            if sizes.iter().sum::<u32>() <= config.capacity {
                return None;
            }
            let packing = optimal_packing(&sizes, config.capacity);
            Some(BinPackingTask {
                sizes,
                capacity: config.capacity,
                optimal_bins: packing.len(),
                packing,
            })
        };
        crate::budget::draw_until(MAX_DRAWS, draw, || {
            format!(
                "no {} items of at most {} overflowed a bin of {} in {MAX_DRAWS} draws: \
                 raise items or max_size, or lower capacity",
                config.items, config.max_size, config.capacity
            )
        })
    }

    fn prompt(task: &BinPackingTask) -> String {
        let sizes: Vec<String> = task.sizes.iter().map(u32::to_string).collect();
        format!(
            "Pack these items into as few bins as possible. Each bin holds items of total size at most {}.\n\
             Item sizes: {}\n\nUse every item exactly once. Only a packing with the fewest possible bins counts. \
             Answer with one bin per line, listing its item sizes separated by spaces, inside \\boxed{{}}.",
            task.capacity,
            sizes.join(", ")
        )
    }

    fn structured(task: &BinPackingTask) -> Value {
        json!({ "sizes": task.sizes, "capacity": task.capacity })
    }

    fn reference(task: &BinPackingTask) -> String {
        task.packing
            .iter()
            .map(|b| b.iter().map(u32::to_string).collect::<Vec<_>>().join(" "))
            .collect::<Vec<_>>()
            .join("\n")
    }

    fn check(task: &BinPackingTask, answer: &str) -> Result<bool, CheckError> {
        let bins = parse_bins(answer)?;
        let mut used: Vec<u32> = bins.iter().flatten().copied().collect();
        let mut given = task.sizes.clone();
        used.sort_unstable();
        given.sort_unstable();
        let fits = bins.iter().all(|b| b.iter().sum::<u32>() <= task.capacity);
        Ok(used == given && fits && bins.len() <= task.optimal_bins)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::single_turn::testing::{cross_reference_rate, passes, standard_answers};

    /// Items that always fit one bin, or almost always do, used to make the
    /// generator draw forever; now it says which fields to change.
    #[test]
    fn items_that_always_fit_one_bin_say_no_task_instead_of_drawing_forever() {
        for (items, capacity, max_size) in [(10, 200, 12), (3, 1000, 12), (16, 1000, 70)] {
            let config = BinPackingConfig {
                items,
                capacity,
                max_size,
            };
            let error = BinPacking::try_generate(&config, &mut Rng::from_seed(1)).unwrap_err();
            assert!(error.to_string().contains("lower capacity"), "{error}");
        }
    }

    /// Independent optimum: try every assignment of items to k bins.
    fn fits_in(sizes: &[u32], capacity: u32, bins: usize) -> bool {
        let mut loads = vec![0u32; bins];
        fn place(i: usize, sizes: &[u32], cap: u32, loads: &mut [u32]) -> bool {
            if i == sizes.len() {
                return true;
            }
            for b in 0..loads.len() {
                if loads[b] + sizes[i] <= cap {
                    loads[b] += sizes[i];
                    let ok = place(i + 1, sizes, cap, loads);
                    loads[b] -= sizes[i];
                    if ok {
                        return true;
                    }
                }
            }
            false
        }
        place(0, sizes, capacity, &mut loads)
    }

    #[test]
    fn the_optimum_matches_plain_search() {
        let mut rng = Rng::from_seed(9);
        for _ in 0..60 {
            let task = BinPacking::generate(
                &BinPackingConfig {
                    items: 7,
                    capacity: 10,
                    max_size: 7,
                },
                &mut rng,
            );
            assert!(fits_in(&task.sizes, task.capacity, task.optimal_bins));
            assert!(
                !fits_in(&task.sizes, task.capacity, task.optimal_bins - 1),
                "{task:?}"
            );
        }
    }

    #[test]
    fn reference_passes_and_degenerate_answers_fail() {
        for config in [
            BinPackingConfig::default(),
            BinPackingConfig {
                items: 6,
                capacity: 10,
                max_size: 7,
            },
        ] {
            standard_answers::<BinPacking>(&config, 30);
        }
    }

    #[test]
    fn packings_are_checked_for_items_capacity_and_count() {
        let task = BinPackingTask {
            sizes: vec![6, 4, 5, 5, 3],
            capacity: 10,
            optimal_bins: 3,
            packing: vec![vec![6, 4], vec![5, 5], vec![3]],
        };
        for good in [
            "6 4\n5 5\n3",
            "[6, 4], [5, 5], [3]",
            "[[6, 4], [5, 5], [3]]",
            "Bin 1: [6, 4]; Bin 2: [5, 5]; Bin 3: [3]",
            "bin1: [6, 4]\nbin2: [5, 5]\nbin3: [3]",
            "Bin 1: 5 5; Bin 2: 3 6; Bin 3: 4",
            "6+4 | 5+5 | 3",
        ] {
            assert!(passes::<BinPacking>(&task, good), "{good:?}");
        }
        for bad in [
            "6 4\n5 5 3",
            "6 4\n5 5",
            "6 4\n5 5\n3\n1",
            "6 4\n5\n5\n3",
            "6 4\n5 5\n3 3",
            "10\n10\n3",
        ] {
            assert!(!passes::<BinPacking>(&task, bad), "{bad:?}");
        }
    }

    #[test]
    fn text_outside_the_bracketed_bins_is_a_second_candidate() {
        let mut rng = Rng::from_seed(21);
        let join =
            |b: &[u32], sep: &str| b.iter().map(u32::to_string).collect::<Vec<_>>().join(sep);
        for _ in 0..100 {
            let task = BinPacking::generate(&BinPackingConfig::default(), &mut rng);
            let bins: Vec<String> = task
                .packing
                .iter()
                .map(|b| format!("[{}]", join(b, ", ")))
                .collect();
            let answer = bins.join(", ");
            for good in [answer.clone(), format!("[{answer}]"), bins.join("\n")] {
                assert!(
                    passes::<BinPacking>(&task, &format!("\\boxed{{{good}}}")),
                    "{good}"
                );
            }
            let flat = join(&task.sizes, " ");
            let stray = 1 + rng.below(u64::from(task.capacity));
            for hedge in [
                format!("{answer} or {flat}"),
                format!("{flat}; {answer}"),
                format!("{answer} {stray}"),
                format!("{answer}, maybe {}", bins[0]),
                format!("{answer} \\text{{or {flat}}}"),
            ] {
                assert!(
                    !passes::<BinPacking>(&task, &format!("\\boxed{{{hedge}}}")),
                    "{hedge}"
                );
            }
        }
    }

    #[test]
    fn another_tasks_reference_rarely_passes() {
        for config in [
            BinPackingConfig {
                items: 6,
                capacity: 10,
                max_size: 7,
            },
            BinPackingConfig::default(),
        ] {
            let rate = cross_reference_rate::<BinPacking>(&config, 1000);
            assert!(rate < 0.01, "{config:?}: {rate}");
        }
    }
}
