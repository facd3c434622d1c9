//! Golden files: one readable text file per env id that pins what the env
//! generates and how its reference player plays.
//!
//! The file of `family/name-vN` is `envs/tests/golden/family/name-vN.txt`.
//! It holds one section per preset, in the order of the env's presets:
//!
//! ```text
//! === math/arithmetic-v1@easy
//! cards-sha256 math/arithmetic-v1@easy e4d1c3c0…
//! --- card 0
//! id: "math/arithmetic-v1:…"
//! task: {…}
//! --- prompt
//! | What is 3 + 4? …
//! --- oracle episode
//! turn 1, player 0 sees: the prompt
//! turn 1, player 0 plays:
//! | \boxed{7}
//! --- result
//! terminated after 1 steps; returns [1.0]; passed [true]
//! ```
//!
//! The `cards-sha256` line is the SHA-256 of the preset's first
//! [`GOLDEN_CARDS`] cards from seed [`GOLDEN_SEED`] as JSONL (one
//! [`TaskCard::to_json_line`] plus `\n` each): it pins every byte of them.
//! The rest shows card 0 and the oracle playing every seat of it, for a
//! person to read; long texts are cut ([`MAX_TEXT_LINES`],
//! [`MAX_LINE_CHARS`], [`FULL_TURNS`]). Text from the env is prefixed with
//! `| `, so a section boundary never appears inside it.
//!
//! Regenerate (only with a deliberate env version bump and a CHANGELOG
//! line): `VERIGYM_BLESS=1 cargo test -p verigym-envs --test envs golden`.

use std::collections::BTreeMap;
use std::fmt::Write;
use std::sync::{Arc, Mutex};

use crate::card::{TaskCard, sha256_hex};
use crate::driver::{Agent, AgentTurn, DriverConfig, OracleAgent, run_episode};
use crate::dynenv::DynEnv;
use crate::generate::generate_cards;
use crate::registry::{Registration, Registry};
use crate::testing::CheckFailure;

/// Cards per preset in the hash.
pub const GOLDEN_CARDS: usize = 50;
/// The batch seed of the hashed cards (card `i` has seed
/// [`card_seed(GOLDEN_SEED, i)`](crate::generate::card_seed)).
pub const GOLDEN_SEED: u64 = 1;
/// Lines kept of one text (an observation, a prompt, an action).
pub const MAX_TEXT_LINES: usize = 40;
/// Characters kept of one line of text or of one card field.
pub const MAX_LINE_CHARS: usize = 400;
/// Turns shown with their observation; later turns show only the action.
pub const FULL_TURNS: usize = 4;
/// Turns listed at all; the rest are counted.
pub const MAX_TURNS_LISTED: usize = 60;

/// The command that rewrites the golden files, for messages.
pub const BLESS_COMMAND: &str = "VERIGYM_BLESS=1 cargo test -p verigym-envs --test envs golden";

/// Task card fields in the order [`TaskCard`] declares them.
const CARD_FIELDS: [&str; 9] = [
    "id",
    "env_id",
    "env_version",
    "config",
    "config_hash",
    "seed",
    "prompt",
    "task",
    "reference",
];
/// Leading lines an observation must share with the same player's previous
/// one before they are summarised instead of repeated.
const MIN_SHARED_LINES: usize = 3;

/// The header line that starts a preset's section.
const SECTION: &str = "=== ";
/// The line that starts the oracle episode (everything after it depends on
/// running the env, not only on generating it).
const EPISODE: &str = "--- oracle episode";
/// The prefix of the hash line.
const HASH: &str = "cards-sha256 ";

/// SHA-256 of the first [`GOLDEN_CARDS`] cards from [`GOLDEN_SEED`] as JSONL.
pub fn cards_hash(env: &dyn DynEnv) -> String {
    let jsonl: String = generate_cards(env, GOLDEN_SEED, GOLDEN_CARDS)
        .iter()
        .map(|c| c.to_json_line() + "\n")
        .collect();
    sha256_hex(jsonl.as_bytes())
}

/// The file of an env id, relative to the golden folder:
/// `family/name-vN.txt`.
pub fn file_name(env_id: &str) -> String {
    format!("{env_id}.txt")
}

/// The whole golden file of one env: a header, then every preset's section.
///
/// # Errors
/// A preset that does not make an env, or an oracle episode that fails.
pub fn env_file(registry: &Registry, registration: &Registration) -> Result<String, CheckFailure> {
    let spec = registration.spec;
    let mut out = format!(
        "# {}: golden cards and an oracle episode per preset.\n\
         # Any change of these bytes is a behaviour change: bump the env version, add a\n\
         # CHANGELOG line, then regenerate: {BLESS_COMMAND}\n",
        spec.id
    );
    for preset in spec.presets {
        out.push('\n');
        out.push_str(&preset_section(
            registry,
            &format!("{}@{}", spec.id, preset.name),
            true,
        )?);
    }
    Ok(out)
}

/// The section of one `ID@PRESET`: its hash line, card 0, and (when
/// `with_episode`) the oracle's episode on card 0.
///
/// # Errors
/// An id that does not make an env, or an oracle episode that fails.
pub fn preset_section(
    registry: &Registry,
    id: &str,
    with_episode: bool,
) -> Result<String, CheckFailure> {
    let env = registry.make(id, None)?;
    let card = env.generate(crate::generate::card_seed(GOLDEN_SEED, 0));
    let mut out = format!("{SECTION}{id}\n{HASH}{id} {}\n", cards_hash(&*env));
    out.push_str("--- card 0\n");
    let value = serde_json::to_value(&card).map_err(|e| e.to_string())?;
    let fields = value.as_object().ok_or("a task card is a JSON object")?;
    // The card's own field order (a JSON map would sort them); the prompt
    // gets its own block below.
    let order = CARD_FIELDS
        .iter()
        .copied()
        .chain(fields.keys().map(String::as_str))
        .filter(|&f| f != "prompt");
    let mut shown = std::collections::BTreeSet::new();
    for field in order {
        if let Some(value) = fields.get(field)
            && shown.insert(field)
        {
            let _ = writeln!(out, "{field}: {}", cut_line(&value.to_string()));
        }
    }
    out.push_str("--- prompt\n");
    out.push_str(&quote(&card.prompt));
    if with_episode {
        out.push_str(EPISODE);
        out.push('\n');
        out.push_str(&oracle_episode(env, &card)?);
    }
    Ok(out)
}

/// What one agent saw and did on one attempt.
struct Attempt {
    player: usize,
    observation: String,
    refusal: Option<String>,
    action: String,
}

/// The oracle, recording every attempt in one shared log.
struct Recorder {
    log: Arc<Mutex<Vec<Attempt>>>,
}

impl Agent for Recorder {
    fn name(&self) -> String {
        "oracle".into()
    }
    fn act(&mut self, turn: &AgentTurn<'_>) -> String {
        let action = OracleAgent.act(turn);
        self.log
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .push(Attempt {
                player: turn.player,
                observation: turn.observation.text.clone(),
                refusal: turn.last_error.map(String::from),
                action: action.clone(),
            });
        action
    }
}

/// The oracle playing every seat of `card` through the episode driver, as
/// text.
fn oracle_episode(mut env: Box<dyn DynEnv>, card: &TaskCard) -> Result<String, CheckFailure> {
    let log = Arc::new(Mutex::new(Vec::new()));
    let mut agents: Vec<Recorder> = (0..env.spec().players)
        .map(|_| Recorder { log: log.clone() })
        .collect();
    let mut refs: Vec<&mut dyn Agent> = agents.iter_mut().map(|a| a as &mut dyn Agent).collect();
    let result = run_episode(env.as_mut(), card, &mut refs, &DriverConfig::default())
        .map_err(CheckFailure::during(format!("{}: oracle episode", card.id)))?;
    let attempts = std::mem::take(&mut *log.lock().unwrap_or_else(|e| e.into_inner()));
    let mut out = String::new();
    // Each player's latest observation and its turn, to show only what changed.
    let mut seen: Vec<Option<(usize, &str)>> = vec![None; env.spec().players];
    for (i, attempt) in attempts.iter().enumerate().take(MAX_TURNS_LISTED) {
        let (turn, player) = (i + 1, attempt.player);
        if let Some(refusal) = &attempt.refusal {
            let _ = writeln!(out, "turn {turn}, player {player} was refused:");
            out.push_str(&quote(refusal));
        }
        if i < FULL_TURNS {
            let who = format!("turn {turn}, player {player} sees");
            out.push_str(&observation(&who, &attempt.observation, seen[player], card));
            seen[player] = Some((turn, &attempt.observation));
            let _ = writeln!(out, "turn {turn}, player {player} plays:");
            out.push_str(&quote(&attempt.action));
        } else {
            let _ = writeln!(
                out,
                "turn {turn}, player {player} plays: {}",
                cut_line(&attempt.action.replace('\n', "\\n"))
            );
        }
    }
    if attempts.len() > MAX_TURNS_LISTED {
        let _ = writeln!(
            out,
            "… {} more turns not listed",
            attempts.len() - MAX_TURNS_LISTED
        );
    }
    if let Ok(last) = env.observe(0) {
        out.push_str(&observation(
            "--- player 0 sees at the end",
            &last.text,
            seen[0],
            card,
        ));
    }
    let _ = writeln!(
        out,
        "--- result\n{} after {} steps; returns {}; passed {}",
        json(&result.status).trim_matches('"'),
        result.steps,
        json(&result.returns),
        json(&result.passed)
    );
    for (player, breakdown) in result.breakdown.iter().enumerate() {
        let _ = writeln!(out, "breakdown of player {player}: {}", json(breakdown));
    }
    if result.invalid_actions.iter().any(|&n| n > 0) || result.forfeited_by.is_some() {
        let _ = writeln!(
            out,
            "refused actions {}; forfeited by {}",
            json(&result.invalid_actions),
            json(&result.forfeited_by)
        );
    }
    Ok(out)
}

/// An observation under the heading `who`: `the prompt` when it is the
/// card's prompt, else its text, with the leading lines it shares with the
/// same player's `previous` observation summarised.
fn observation(who: &str, text: &str, previous: Option<(usize, &str)>, card: &TaskCard) -> String {
    if text == card.prompt {
        return format!("{who}: the prompt\n");
    }
    let Some((turn, previous)) = previous else {
        return format!("{who}:\n{}", quote(text));
    };
    if text == previous {
        return format!("{who}: the same as on turn {turn}\n");
    }
    let shared = text
        .lines()
        .zip(previous.lines())
        .take_while(|(a, b)| a == b)
        .count();
    if shared < MIN_SHARED_LINES {
        return format!("{who}:\n{}", quote(text));
    }
    let rest: Vec<&str> = text.lines().skip(shared).collect();
    format!(
        "{who} (its first {shared} lines as on turn {turn}, then):\n{}",
        quote(&rest.join("\n"))
    )
}

/// Compact JSON of a part of the result.
fn json<T: serde::Serialize>(value: &T) -> String {
    serde_json::to_string(value).unwrap_or_default()
}

/// `text` as `| `-prefixed lines, cut to [`MAX_TEXT_LINES`] lines.
fn quote(text: &str) -> String {
    let lines: Vec<&str> = text.lines().collect();
    let mut out = String::new();
    for line in lines.iter().take(MAX_TEXT_LINES) {
        let line = cut_line(line.trim_end());
        if line.is_empty() {
            out.push_str("|\n");
        } else {
            let _ = writeln!(out, "| {line}");
        }
    }
    if lines.len() > MAX_TEXT_LINES {
        let _ = writeln!(out, "| … {} more lines", lines.len() - MAX_TEXT_LINES);
    }
    if lines.is_empty() {
        out.push_str("(empty)\n");
    }
    out
}

/// One line cut to [`MAX_LINE_CHARS`] characters.
fn cut_line(line: &str) -> String {
    let total = line.chars().count();
    if total <= MAX_LINE_CHARS {
        return line.to_string();
    }
    let kept: String = line.chars().take(MAX_LINE_CHARS).collect();
    format!("{kept} … ({} more characters)", total - MAX_LINE_CHARS)
}

/// The sections of a golden file by `ID@PRESET`.
pub fn sections(file: &str) -> BTreeMap<String, String> {
    let mut out = BTreeMap::new();
    let mut current: Option<(String, String)> = None;
    for line in file.lines() {
        if let Some(id) = line.strip_prefix(SECTION) {
            out.extend(current.take());
            current = Some((id.to_string(), String::new()));
        }
        if let Some((_, text)) = &mut current {
            // Blank lines only separate sections.
            if !line.is_empty() {
                text.push_str(line);
                text.push('\n');
            }
        }
    }
    out.extend(current);
    out
}

/// A section without its oracle episode: what can be compared where the
/// episode cannot run (a missing toolchain).
pub fn without_episode(section: &str) -> &str {
    section
        .find(&format!("\n{EPISODE}\n"))
        .map_or(section, |end| &section[..=end])
}

/// The `ID@PRESET HASH` of a section (the line `cards.txt` used to hold).
pub fn hash_line(section: &str) -> Option<&str> {
    section.lines().find_map(|l| l.strip_prefix(HASH))
}

/// A line diff of `expected` and `actual`: hunks of changed lines (`-`
/// expected, `+` actual) with two lines of context, at most `max_lines`
/// lines in all.
pub fn line_diff(expected: &str, actual: &str, max_lines: usize) -> String {
    let old: Vec<&str> = expected.lines().collect();
    let new: Vec<&str> = actual.lines().collect();
    // Longest common subsequence table, from the end; golden sections are a
    // few hundred lines, so the quadratic table stays small. Past that,
    // lines are compared position by position.
    let (n, m) = (old.len(), new.len());
    let mut ops: Vec<(char, &str)> = Vec::new();
    if n.saturating_mul(m) <= 4_000_000 {
        let mut lcs = vec![vec![0u32; m + 1]; n + 1];
        for i in (0..n).rev() {
            for j in (0..m).rev() {
                lcs[i][j] = if old[i] == new[j] {
                    lcs[i + 1][j + 1] + 1
                } else {
                    lcs[i + 1][j].max(lcs[i][j + 1])
                };
            }
        }
        let (mut i, mut j) = (0, 0);
        while i < n || j < m {
            if i < n && j < m && old[i] == new[j] {
                ops.push((' ', old[i]));
                (i, j) = (i + 1, j + 1);
            } else if i < n && (j == m || lcs[i + 1][j] >= lcs[i][j + 1]) {
                ops.push(('-', old[i]));
                i += 1;
            } else {
                ops.push(('+', new[j]));
                j += 1;
            }
        }
    } else {
        for k in 0..n.max(m) {
            match (old.get(k), new.get(k)) {
                (Some(a), Some(b)) if a == b => ops.push((' ', a)),
                (a, b) => {
                    ops.extend(a.map(|a| ('-', *a)));
                    ops.extend(b.map(|b| ('+', *b)));
                }
            }
        }
    }
    // Show each changed line with CONTEXT lines around it; a gap starts a
    // new hunk headed by its first expected line number.
    const CONTEXT: usize = 2;
    let mut show = vec![false; ops.len()];
    for (k, op) in ops.iter().enumerate() {
        if op.0 != ' ' {
            let last = (k + CONTEXT).min(ops.len() - 1);
            show[k.saturating_sub(CONTEXT)..=last].fill(true);
        }
    }
    let mut out = Vec::new();
    for (k, op) in ops.iter().enumerate() {
        if !show[k] {
            continue;
        }
        if k == 0 || !show[k - 1] {
            let line = ops[..k].iter().filter(|o| o.0 != '+').count() + 1;
            out.push(format!("@@ expected line {line} @@"));
        }
        out.push(format!("{}{}", op.0, op.1));
    }
    if out.len() > max_lines {
        let more = out.len() - max_lines;
        out.truncate(max_lines);
        out.push(format!("… {more} more diff lines"));
    }
    out.join("\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_section_holds_the_hash_the_card_and_the_oracle_episode() {
        let registry = Registry::builtin();
        let id = "math/arithmetic-v1@easy";
        let section = preset_section(&registry, id, true).unwrap();
        let env = registry.make(id, None).unwrap();
        assert_eq!(
            hash_line(&section).unwrap(),
            format!("{id} {}", cards_hash(&*env))
        );
        assert!(section.starts_with("=== math/arithmetic-v1@easy\n"));
        assert!(section.contains("turn 1, player 0 sees: the prompt\n"));
        assert!(section.contains("terminated after 1 steps; returns [1.0]; passed [true]"));
        // Generation alone is the part without the episode.
        let cards_only = preset_section(&registry, id, false).unwrap();
        assert_eq!(without_episode(&section), cards_only);
        assert_eq!(preset_section(&registry, id, true).unwrap(), section);
    }

    #[test]
    fn a_game_section_lists_both_seats_and_the_final_board() {
        let registry = Registry::builtin();
        let section = preset_section(&registry, "games/tictactoe-v1@standard", true).unwrap();
        assert!(section.contains("player 0 plays") && section.contains("player 1 plays"));
        assert!(section.contains("--- player 0 sees at the end"));
        assert!(section.contains("breakdown of player 1: "));
    }

    #[test]
    fn observations_repeat_only_what_changed_since_the_players_last_one() {
        let registry = Registry::builtin();
        let card = registry
            .make("math/arithmetic-v1@easy", None)
            .unwrap()
            .generate(1);
        let who = "turn 3, player 0 sees";
        assert_eq!(
            observation(who, &card.prompt, None, &card),
            "turn 3, player 0 sees: the prompt\n"
        );
        let first = "a\nb\nc\nd";
        assert_eq!(
            observation(who, first, Some((1, first)), &card),
            "turn 3, player 0 sees: the same as on turn 1\n"
        );
        assert_eq!(
            observation(who, "a\nb\nc\nd\ne", Some((1, first)), &card),
            "turn 3, player 0 sees (its first 4 lines as on turn 1, then):\n| e\n"
        );
        assert_eq!(
            observation(who, "a\nb\nX", Some((1, first)), &card),
            "turn 3, player 0 sees:\n| a\n| b\n| X\n"
        );
    }

    #[test]
    fn files_split_into_sections_by_preset() {
        let file = "# header\n\n=== a@x\ncards-sha256 a@x 1\n| === not a section\n\n=== a@y\ncards-sha256 a@y 2\n";
        let parsed = sections(file);
        assert_eq!(parsed.keys().collect::<Vec<_>>(), ["a@x", "a@y"]);
        assert_eq!(
            parsed["a@x"],
            "=== a@x\ncards-sha256 a@x 1\n| === not a section\n"
        );
        assert_eq!(hash_line(&parsed["a@y"]), Some("a@y 2"));
    }

    #[test]
    fn long_texts_are_cut_and_say_how_much_was_cut() {
        let long: String = (0..100).map(|i| format!("line {i}\n")).collect();
        let quoted = quote(&long);
        assert_eq!(quoted.lines().count(), MAX_TEXT_LINES + 1);
        assert!(quoted.ends_with("| … 60 more lines\n"), "{quoted}");
        let wide = "x".repeat(MAX_LINE_CHARS + 5);
        assert!(cut_line(&wide).ends_with("… (5 more characters)"));
        assert_eq!(quote(""), "(empty)\n");
        assert_eq!(quote("a\n\nb"), "| a\n|\n| b\n");
    }

    #[test]
    fn the_diff_shows_changed_lines_with_context_and_nothing_when_equal() {
        let old = "a\nb\nc\nd\ne\nf\ng\nh\ni\nj\nk\nl\n";
        let new = "a\nb\nc\nD\ne\nf\ng\nh\ni\nj\nk\nl\nm\n";
        let diff = line_diff(old, new, 50);
        assert_eq!(
            diff,
            "@@ expected line 2 @@\n b\n c\n-d\n+D\n e\n f\n@@ expected line 11 @@\n k\n l\n+m"
        );
        let near = line_diff("a\nb\nc\n", "a\nB\nc\nd\n", 50);
        assert_eq!(near, "@@ expected line 1 @@\n a\n-b\n+B\n c\n+d");
        assert_eq!(line_diff(old, old, 50), "");
        let many: String = (0..100).map(|i| format!("{i}\n")).collect();
        let cut = line_diff("", &many, 10);
        assert!(cut.ends_with("… 91 more diff lines"), "{cut}");
    }
}
