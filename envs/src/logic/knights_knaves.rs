//! `logic/knights-knaves-v1`: decide who is a knight (always truthful) and
//! who is a knave (always lies) from what each islander says.
//!
//! # Task
//! `people` islanders with distinct names, each making one statement about
//! the group (one person's kind, two people's kinds joined by and / or /
//! if-then / same-kind / exactly-one, or a count of knaves). Statements are
//! redrawn until exactly one knight/knave assignment is consistent (checked
//! over all 2^n assignments with truth tables).
//!
//! # Action
//! Every islander's kind, e.g. `Alice: knight, Bob: knave` (also
//! `Alice is a knight`; one per line or separated by commas, `;` or `and`),
//! in `\boxed{…}` or as the whole reply. Each part must name one islander
//! and one kind and nothing else; every islander exactly once.
//! Read by the single-turn rule (`crate::single_turn`): reasoning is dropped,
//! then the last `\boxed{…}` counts (boxes that disagree are a hedge and
//! score 0), else the whole reply; prose around the box is ignored.
//!
//! # Observation
//! The statements. Structured: names and statements.
//!
//! # Reward
//! 1 and `passed` when every kind is right; else 0. Breakdown: `correct`,
//! `format`.
//!
//! # Episode end
//! After the one answer.
//!
//! # Parameters
//! `people` (2..=6: a claim's truth table is one `u64`, a bit per assignment).
//!
//! # Seeding
//! Names and statements come from the task rng.
//!
//! # Version history
//! v1: first version.

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use crate::core::{EnvKind, EnvSpec, InvalidAction, Preset};
use crate::error::ConfigError;
use crate::rng::Rng;
use crate::single_turn::{CheckError, Question, SingleTurn};

const NAMES: [&str; 40] = [
    "Alice", "Bob", "Carol", "Dave", "Eve", "Frank", "Grace", "Heidi", "Ivan", "Judy", "Karl",
    "Laura", "Mallory", "Nina", "Oscar", "Peggy", "Quentin", "Rita", "Sam", "Tina", "Uma",
    "Victor", "Wendy", "Xavier", "Yara", "Zane", "Aria", "Blake", "Cyrus", "Daria", "Elias",
    "Fiona", "Gus", "Hana", "Igor", "Jade", "Kofi", "Lena", "Milo", "Nora",
];

/// What a statement claims; `true` in a role slot means "knight".
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Claim {
    Is(usize, bool),
    Both(usize, usize, bool),
    Either(usize, bool, usize, bool),
    IfThen(usize, bool, usize, bool),
    Same(usize, usize),
    ExactlyOne(usize, usize),
    KnaveCount(usize),
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct KnightsKnavesConfig {
    pub people: usize,
}

impl Default for KnightsKnavesConfig {
    fn default() -> Self {
        KnightsKnavesConfig { people: 4 }
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct KnightsKnavesTask {
    pub names: Vec<String>,
    /// `claims[i]` is what person `i` says.
    pub claims: Vec<Claim>,
    /// `knights[i]`: person `i` is a knight.
    pub knights: Vec<bool>,
}

/// The truth table of a claim: bit `a` is its value when assignment `a`
/// (bit `i` = person `i` is a knight) holds.
fn truth_table(claim: Claim, people: usize) -> u64 {
    let mut table = 0u64;
    for a in 0..1u64 << people {
        let is = |p: usize, knight: bool| (a >> p & 1 == 1) == knight;
        let value = match claim {
            Claim::Is(p, r) => is(p, r),
            Claim::Both(p, q, r) => is(p, r) && is(q, r),
            Claim::Either(p, rp, q, rq) => is(p, rp) || is(q, rq),
            Claim::IfThen(p, rp, q, rq) => !is(p, rp) || is(q, rq),
            Claim::Same(p, q) => is(p, true) == is(q, true),
            Claim::ExactlyOne(p, q) => is(p, true) != is(q, true),
            Claim::KnaveCount(k) => (people - a.count_ones() as usize) == k,
        };
        table |= u64::from(value) << a;
    }
    table
}

/// The assignments under which every speaker's kind matches their claim.
fn consistent_assignments(claims: &[Claim]) -> Vec<u64> {
    let n = claims.len();
    let tables: Vec<u64> = claims.iter().map(|&c| truth_table(c, n)).collect();
    (0..1u64 << n)
        .filter(|&a| {
            tables
                .iter()
                .enumerate()
                .all(|(i, t)| (a >> i & 1) == (t >> a & 1))
        })
        .collect()
}

fn random_claim(n: usize, rng: &mut Rng) -> Claim {
    let person = |rng: &mut Rng| rng.below(n as u64) as usize;
    let pair = |rng: &mut Rng| {
        let p = rng.below(n as u64) as usize;
        let q = (p + 1 + rng.below(n as u64 - 1) as usize) % n;
        (p, q)
    };
    match rng.below(7) {
        0 => Claim::Is(person(rng), rng.chance(0.5)),
        1 => {
            let (p, q) = pair(rng);
            Claim::Both(p, q, rng.chance(0.5))
        }
        2 => {
            let (p, q) = pair(rng);
            Claim::Either(p, rng.chance(0.5), q, rng.chance(0.5))
        }
        3 => {
            let (p, q) = pair(rng);
            Claim::IfThen(p, rng.chance(0.5), q, rng.chance(0.5))
        }
        4 => {
            let (p, q) = pair(rng);
            Claim::Same(p, q)
        }
        5 => {
            let (p, q) = pair(rng);
            Claim::ExactlyOne(p, q)
        }
        _ => Claim::KnaveCount(rng.below(n as u64 + 1) as usize),
    }
}

fn kind(knight: bool) -> &'static str {
    if knight { "knight" } else { "knave" }
}

/// A claim in English from `speaker`'s mouth.
fn say(task_names: &[String], speaker: usize, claim: Claim) -> String {
    let who = |p: usize| {
        if p == speaker {
            "I".to_string()
        } else {
            task_names[p].clone()
        }
    };
    let is = |p: usize, r: bool| {
        let verb = if p == speaker { "am" } else { "is" };
        format!("{} {verb} a {}", who(p), kind(r))
    };
    match claim {
        Claim::Is(p, r) => is(p, r),
        Claim::Both(p, q, r) => format!("{} and {} are both {}s", who(p), who(q), kind(r)),
        Claim::Either(p, rp, q, rq) => format!("{} or {}", is(p, rp), is(q, rq)),
        Claim::IfThen(p, rp, q, rq) => format!("if {}, then {}", is(p, rp), is(q, rq)),
        Claim::Same(p, q) => format!("{} and {} are the same kind", who(p), who(q)),
        Claim::ExactlyOne(p, q) => format!("exactly one of {} and {} is a knight", who(p), who(q)),
        Claim::KnaveCount(k) => format!(
            "exactly {k} of us {} knaves",
            if k == 1 { "is a" } else { "are" }
        )
        .replace("is a knaves", "is a knave"),
    }
}

/// Reads `name: kind` parts; every name exactly once.
fn parse_kinds(answer: &str, names: &[String]) -> Result<Vec<bool>, InvalidAction> {
    let mut kinds: Vec<Option<bool>> = vec![None; names.len()];
    let normalized = answer.replace(" and ", ",").replace(" AND ", ",");
    for part in normalized.split([',', ';', '\n']) {
        let words: Vec<&str> = part
            .split(|c: char| c.is_whitespace() || ":-=.()*|".contains(c))
            .filter(|w| !w.is_empty())
            .collect();
        if words.is_empty() {
            continue;
        }
        let (mut person, mut role) = (None, None);
        for word in words {
            let lower = word.to_ascii_lowercase();
            if let Some(i) = names.iter().position(|n| n.eq_ignore_ascii_case(word)) {
                if person.replace(i).is_some() {
                    return Err(format!("`{part}` names two islanders").into());
                }
            } else if lower == "knight" || lower == "knave" {
                if role.replace(lower == "knight").is_some() {
                    return Err(format!("`{part}` gives two kinds").into());
                }
            } else if !["is", "a", "an"].contains(&lower.as_str()) {
                return Err(format!("unexpected `{word}` in `{part}`").into());
            }
        }
        let (Some(person), Some(role)) = (person, role) else {
            return Err(format!("`{part}` needs one name and one kind").into());
        };
        if kinds[person].replace(role).is_some() {
            return Err(format!("{} is given twice", names[person]).into());
        }
    }
    kinds
        .into_iter()
        .enumerate()
        .map(|(i, k)| k.ok_or_else(|| format!("{} is missing", names[i]).into()))
        .collect()
}

pub struct KnightsKnaves;

pub type KnightsKnavesEnv = SingleTurn<KnightsKnaves>;

impl Question for KnightsKnaves {
    type Config = KnightsKnavesConfig;
    type Task = KnightsKnavesTask;
    const SPEC: EnvSpec = EnvSpec {
        id: "logic/knights-knaves-v1",
        kind: EnvKind::SingleTurn,
        description: "Decide who is a knight and who is a knave from their statements; unique solution",
        players: 1,
        max_steps: 1,
        reward_range: (0.0, 1.0),
        zero_sum: false,
        fixed_start: false,
        presets: &[
            Preset {
                name: "easy",
                overrides: r#"{"people":2}"#,
            },
            Preset {
                name: "medium",
                overrides: "{}",
            },
            Preset {
                name: "hard",
                overrides: r#"{"people":6}"#,
            },
        ],
    };

    fn validate(config: &KnightsKnavesConfig) -> Result<(), ConfigError> {
        // 7 or 8 people overflowed the 64-bit truth tables (a panic in a
        // debug build, wrong puzzles in a release one).
        if !(2..=6).contains(&config.people) {
            return Err("people must be 2..=6".into());
        }
        Ok(())
    }

    fn generate(config: &KnightsKnavesConfig, rng: &mut Rng) -> KnightsKnavesTask {
        let n = config.people;
        let mut pool = NAMES;
        for i in 0..n {
            let j = i + rng.below((pool.len() - i) as u64) as usize;
            pool.swap(i, j);
        }
        let names: Vec<String> = pool[..n].iter().map(|s| s.to_string()).collect();
        loop {
            let claims: Vec<Claim> = (0..n).map(|_| random_claim(n, rng)).collect();
            if let [only] = consistent_assignments(&claims)[..] {
                let knights = (0..n).map(|i| only >> i & 1 == 1).collect();
                return KnightsKnavesTask {
                    names,
                    claims,
                    knights,
                };
            }
        }
    }

    fn prompt(task: &KnightsKnavesTask) -> String {
        let mut text = format!(
            "On an island every inhabitant is either a knight, who always tells the truth, or a knave, who always \
             lies. You meet {} inhabitants: {}.\n\n",
            task.names.len(),
            task.names.join(", ")
        );
        for (i, &claim) in task.claims.iter().enumerate() {
            let said = say(&task.names, i, claim);
            let mut chars = said.chars();
            let capitalised: String = chars
                .next()
                .map(|c| c.to_uppercase().collect::<String>() + chars.as_str())
                .unwrap_or_default();
            text.push_str(&format!("{} says: \"{capitalised}.\"\n", task.names[i]));
        }
        text.push_str(
            "\nExactly one assignment is consistent. Say who is a knight and who is a knave, one islander per \
             part, like `Name: knight, Name: knave`, inside \\boxed{}.",
        );
        text
    }

    fn structured(task: &KnightsKnavesTask) -> Value {
        json!({ "names": task.names, "claims": task.claims })
    }

    fn reference(task: &KnightsKnavesTask) -> String {
        task.names
            .iter()
            .zip(&task.knights)
            .map(|(n, &k)| format!("{n}: {}", kind(k)))
            .collect::<Vec<_>>()
            .join(", ")
    }

    fn check(task: &KnightsKnavesTask, answer: &str) -> Result<bool, CheckError> {
        Ok(parse_kinds(answer, &task.names)? == task.knights)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::single_turn::testing::{cross_reference_rate, passes, standard_answers};
    use proptest::prelude::{ProptestConfig, any, prop_assert_eq, proptest};

    /// Independent evaluation of a claim under an assignment of kinds.
    fn holds(claim: Claim, knights: &[bool]) -> bool {
        match claim {
            Claim::Is(p, r) => knights[p] == r,
            Claim::Both(p, q, r) => knights[p] == r && knights[q] == r,
            Claim::Either(p, rp, q, rq) => knights[p] == rp || knights[q] == rq,
            Claim::IfThen(p, rp, q, rq) => knights[p] != rp || knights[q] == rq,
            Claim::Same(p, q) => knights[p] == knights[q],
            Claim::ExactlyOne(p, q) => knights[p] ^ knights[q],
            Claim::KnaveCount(k) => knights.iter().filter(|&&x| !x).count() == k,
        }
    }

    #[test]
    fn reference_passes_and_degenerate_answers_fail() {
        for people in [2, 4, 6] {
            standard_answers::<KnightsKnaves>(&KnightsKnavesConfig { people }, 30);
        }
    }

    /// Truth tables hold 2^people bits in a `u64`: more than 6 people
    /// overflowed them, so such configs are refused up front.
    #[test]
    fn more_people_than_the_truth_tables_hold_are_refused() {
        for people in [7, 8] {
            let error = KnightsKnaves::validate(&KnightsKnavesConfig { people }).unwrap_err();
            assert!(error.to_string().contains("people"), "{error}");
        }
    }

    #[test]
    fn answer_forms_and_hedges() {
        let task = KnightsKnavesTask {
            names: vec!["Alice".into(), "Bob".into()],
            claims: vec![Claim::Both(0, 1, false), Claim::Is(1, true)],
            knights: vec![false, true],
        };
        assert_eq!(consistent_assignments(&task.claims), vec![0b10]);
        for good in [
            "Alice: knave, Bob: knight",
            "Alice is a knave and Bob is a knight",
            "bob - KNIGHT\nalice = knave",
        ] {
            assert!(passes::<KnightsKnaves>(&task, good), "{good:?}");
        }
        for bad in [
            "Alice: knight, Bob: knave",
            "Alice: knave",
            "Alice: knave, Bob: knight, Bob: knight",
            "Alice: knave or knight, Bob: knight",
            "Alice: not a knight, Bob: knight",
            "Alice: knave, Bob: knight, Carol: knave",
            "knave, knight",
        ] {
            assert!(!passes::<KnightsKnaves>(&task, bad), "{bad:?}");
        }
        assert!(
            KnightsKnaves::prompt(&task).contains(
                "Alice says: \"I and Bob are both knaves.\"\nBob says: \"I am a knight.\""
            )
        );
    }

    #[test]
    fn another_tasks_reference_never_passes() {
        assert!(
            cross_reference_rate::<KnightsKnaves>(&KnightsKnavesConfig { people: 2 }, 1000) < 0.01
        );
        assert_eq!(
            cross_reference_rate::<KnightsKnaves>(&KnightsKnavesConfig::default(), 1000),
            0.0
        );
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(200))]
        #[test]
        fn exactly_one_assignment_is_consistent(seed in any::<u64>(), people in 2usize..=6) {
            let task = KnightsKnaves::generate(&KnightsKnavesConfig { people }, &mut Rng::from_seed(seed));
            let mut solutions = Vec::new();
            for bits in 0..1u32 << people {
                let knights: Vec<bool> = (0..people).map(|i| bits >> i & 1 == 1).collect();
                if task.claims.iter().enumerate().all(|(i, &c)| holds(c, &knights) == knights[i]) {
                    solutions.push(knights);
                }
            }
            prop_assert_eq!(solutions, vec![task.knights.clone()]);
        }
    }
}
