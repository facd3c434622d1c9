//! Tests of the audit: planted bad verifiers are caught, and builtin envs
//! are clean.

use super::audit::*;
use crate::core::EnvKind;
use crate::registry::Registry;
use crate::rng::Rng;
use serde::{Deserialize, Serialize};
use serde_json::json;

use crate::core::{Env, EnvSpec, InvalidAction, Observation, Player, Preset, Score, Turn};

/// A planted bad verifier: passes any answer that contains the right
/// number anywhere, the classic substring-match bug.
#[derive(Clone)]
struct Substring {
    answer: u64,
    response: Option<String>,
}

#[derive(Clone, Default, Serialize, Deserialize)]
struct NoConfig {}

impl Env for Substring {
    type Config = NoConfig;
    type Task = u64;
    type Action = String;
    const SPEC: EnvSpec = EnvSpec {
        id: "test/substring-v1",
        kind: EnvKind::SingleTurn,
        description: "accepts any answer containing the number",
        players: 1,
        max_steps: 1,
        reward_range: (0.0, 1.0),
        zero_sum: false,
        fixed_start: false,
        presets: &[Preset {
            name: "default",
            overrides: "{}",
        }],
    };
    fn generate(_: &NoConfig, rng: &mut Rng) -> u64 {
        1000 + rng.below(9000)
    }
    fn reset(task: &u64, _: Rng) -> Self {
        Substring {
            answer: *task,
            response: None,
        }
    }
    fn turn(&self) -> Turn {
        if self.response.is_some() {
            Turn::Over
        } else {
            Turn::Player(0)
        }
    }
    fn observe(&self, _: Player) -> Observation {
        Observation {
            text: "What is the secret?".into(),
            structured: json!({}),
            legal_actions: None,
        }
    }
    fn parse_action(&self, _: Player, text: &str) -> Result<String, InvalidAction> {
        Ok(text.into())
    }
    fn apply(&mut self, _: Player, action: String) -> Result<Vec<String>, InvalidAction> {
        self.response = Some(action);
        Ok(vec![])
    }
    fn score(&self, _: Player) -> Score {
        Score::binary(
            self.response
                .as_deref()
                .is_some_and(|r| r.contains(&self.answer.to_string())),
        )
    }
    fn oracle(&self, _: Player) -> Option<String> {
        Some(self.answer.to_string())
    }
}

#[test]
fn the_audit_catches_a_substring_verifier_through_its_hedges() {
    let mut registry = Registry::empty();
    registry.register::<Substring>().unwrap();
    let audit = audit_env(&registry, "test/substring-v1", 50, 1).unwrap();
    let flagged: Vec<&str> = audit
        .probes
        .iter()
        .filter(|p| p.flagged)
        .map(|p| p.probe.as_str())
        .collect();
    assert_eq!(
        flagged,
        vec![
            "echo_givens",
            "hedge_or",
            "hedge_list",
            "hedge_boxes",
            "hedge_boxes_far_apart",
            "hedge_inside_box_or",
            "statement_after_box_disagrees",
            "statement_before_box_disagrees",
            "negated_statement",
            "truncated_after_draft",
            "harmony_analysis_only",
            "hedge_outside_after",
            "hedge_outside_or",
            "hedge_outside_text"
        ],
        "{audit}"
    );
    let reference = audit
        .probes
        .iter()
        .find(|p| p.probe == "reference")
        .unwrap();
    assert_eq!((reference.passed, reference.flagged), (50, false));
}

/// A planted incomplete verifier: only the bare reference, byte for byte.
#[derive(Clone)]
struct Exact(Substring);

impl Env for Exact {
    type Config = NoConfig;
    type Task = u64;
    type Action = String;
    const SPEC: EnvSpec = EnvSpec {
        id: "test/exact-v1",
        description: "accepts only the bare boxed answer",
        ..Substring::SPEC
    };
    fn generate(config: &NoConfig, rng: &mut Rng) -> u64 {
        Substring::generate(config, rng)
    }
    fn reset(task: &u64, rng: Rng) -> Self {
        Exact(Substring::reset(task, rng))
    }
    fn turn(&self) -> Turn {
        self.0.turn()
    }
    fn observe(&self, player: Player) -> Observation {
        self.0.observe(player)
    }
    fn parse_action(&self, _: Player, text: &str) -> Result<String, InvalidAction> {
        Ok(text.into())
    }
    fn apply(&mut self, player: Player, action: String) -> Result<Vec<String>, InvalidAction> {
        self.0.apply(player, action)
    }
    fn score(&self, _: Player) -> Score {
        Score::binary(self.0.response.as_deref() == Some(&format!("\\boxed{{{}}}", self.0.answer)))
    }
    fn oracle(&self, _: Player) -> Option<String> {
        Some(format!("\\boxed{{{}}}", self.0.answer))
    }
}

#[test]
fn the_audit_flags_a_verifier_that_refuses_the_styles_models_write() {
    let mut registry = Registry::empty();
    registry.register::<Exact>().unwrap();
    let audit = audit_env(&registry, "test/exact-v1", 30, 1).unwrap();
    let flagged: Vec<&str> = audit
        .probes
        .iter()
        .filter(|p| p.flagged)
        .map(|p| p.probe.as_str())
        .collect();
    assert_eq!(
        flagged,
        vec![
            "style_long_reasoning",
            "style_template_opened_draft",
            "style_prose_around",
            "style_markdown_heading",
            "style_bold_final_answer",
            "style_display_math",
            "style_check_after",
            "style_bold_restatement",
            "style_statement_before_box",
            "style_prose_mentions_other_values",
            "style_period_in_box",
            "style_full_width_digits",
            "style_digit_grouping",
            "style_unit_after_number",
            "style_currency",
            "style_degrees",
            "style_percent",
            "style_kimi_reasoning",
            "style_magistral_reasoning",
            "style_harmony_channels",
            "style_end_of_turn_marker",
            "style_eot_id_marker",
            "style_close_tag_mentioned_after",
            "style_tags_in_a_fence"
        ],
        "{audit}"
    );
    assert_eq!(audit.completeness_worst, Some(0.0));
    assert_eq!(audit.soundness_worst, Some(0.0));
}

#[test]
fn builtin_envs_have_no_flags() {
    let registry = Registry::builtin();
    for id in [
        "math/arithmetic-v1@easy",
        "logic/guess-number-v2@easy",
        "games/tictactoe-v1",
    ] {
        let audit = audit_env(&registry, id, 60, 2).unwrap();
        assert_eq!(audit.flags(), 0, "{audit}");
        let styles = audit
            .probes
            .iter()
            .filter(|p| p.class == ProbeClass::Completeness)
            .count();
        assert!(styles >= 5, "{id}: {styles} completeness probes\n{audit}");
        assert!(
            audit.completeness_worst >= Some(MIN_STYLE_PASS_RATE),
            "{audit}"
        );
    }
}

/// Planted blind holes, one per `MODE`: 0, an `infeasible: PART` verdict
/// whose evidence is the request's last part (copyable from the prompt);
/// 1, a code shown only in the second observation, matched as a substring
/// (an echo of the current observation passes); 2, a secret among 12 listed
/// codes with 5 guesses and no feedback needed (blind sequences win).
#[derive(Clone)]
struct Planted<const MODE: u8> {
    codes: Vec<u64>,
    actions: Vec<String>,
}

impl<const MODE: u8> Planted<MODE> {
    const OPTIONS: usize = 12;
    fn secret(&self) -> u64 {
        self.codes[1 + (self.codes[0] as usize % (Self::OPTIONS - 1))]
    }
    fn cancel_part(&self) -> String {
        format!("Cancel order ORD-{}.", self.codes[1])
    }
}

impl<const MODE: u8> Env for Planted<MODE> {
    type Config = NoConfig;
    type Task = Vec<u64>;
    type Action = String;
    const SPEC: EnvSpec = EnvSpec {
        id: ["test/quoted-v1", "test/relay-v1", "test/shown-v1"][MODE as usize],
        kind: if MODE == 0 {
            EnvKind::SingleTurn
        } else {
            EnvKind::MultiTurn
        },
        description: "a planted blind hole",
        max_steps: [1, 2, 5][MODE as usize],
        ..Substring::SPEC
    };
    fn generate(_: &NoConfig, rng: &mut Rng) -> Vec<u64> {
        let mut codes: Vec<u64> = (0..Self::OPTIONS as u64).map(|i| 1000 + 1000 * i).collect();
        for c in &mut codes {
            *c += rng.below(1000);
        }
        rng.shuffle(&mut codes);
        codes
    }
    fn reset(task: &Vec<u64>, _: Rng) -> Self {
        Planted {
            codes: task.clone(),
            actions: Vec::new(),
        }
    }
    fn turn(&self) -> Turn {
        let solved = MODE == 2 && self.actions.contains(&self.secret().to_string());
        if solved || self.actions.len() >= Self::SPEC.max_steps {
            Turn::Over
        } else {
            Turn::Player(0)
        }
    }
    fn observe(&self, _: Player) -> Observation {
        let c = &self.codes;
        let (text, listed) = match MODE {
            0 => (
                format!(
                    "Request: Ship order ORD-{}. Then: {}\nIf a part cannot be done, answer `infeasible: PART`.",
                    c[0],
                    self.cancel_part()
                ),
                None,
            ),
            1 if self.actions.is_empty() => ("Reply with anything to get the code.".into(), None),
            1 => (format!("The code is {}. Reply with it.", c[0]), None),
            _ => {
                let listed: Vec<String> = c.iter().map(u64::to_string).collect();
                (
                    format!("Guess the secret code among: {}", listed.join(" ")),
                    Some(listed),
                )
            }
        };
        Observation {
            text,
            structured: json!({}),
            legal_actions: listed,
        }
    }
    fn parse_action(&self, _: Player, text: &str) -> Result<String, InvalidAction> {
        Ok(text.trim().into())
    }
    fn apply(&mut self, _: Player, action: String) -> Result<Vec<String>, InvalidAction> {
        self.actions.push(action);
        Ok(vec![])
    }
    fn score(&self, _: Player) -> Score {
        let last = self.actions.last().map_or("", String::as_str);
        Score::binary(match MODE {
            0 => crate::toolkit::final_answer::infeasible_matches(last, &self.cancel_part()),
            1 => self.actions.len() == 2 && last.contains(&self.codes[0].to_string()),
            _ => last == self.secret().to_string(),
        })
    }
    fn oracle(&self, _: Player) -> Option<String> {
        Some(match MODE {
            0 => format!("infeasible: {}", self.cancel_part()),
            1 if self.actions.is_empty() => "ready".into(),
            1 => self.codes[0].to_string(),
            _ => self.secret().to_string(),
        })
    }
}

/// The flagged soundness probes (the planted envs read replies verbatim,
/// so the completeness styles fail them by design).
fn flagged_probes(audit: &EnvAudit) -> Vec<&str> {
    audit
        .probes
        .iter()
        .filter(|p| p.flagged && p.class == ProbeClass::Soundness)
        .map(|p| p.probe.as_str())
        .collect()
}

#[test]
fn the_audit_finds_blind_holes_by_itself() {
    let mut registry = Registry::empty();
    registry.register::<Planted<0>>().unwrap();
    registry.register::<Planted<1>>().unwrap();
    registry.register::<Planted<2>>().unwrap();
    let quoted = audit_env(&registry, "test/quoted-v1", 50, 1).unwrap();
    assert_eq!(
        flagged_probes(&quoted),
        ["copied_verdict_part_last"],
        "{quoted}"
    );
    // The prompt's echo fails; the echo of the current observation passes
    // (and so do the givens, which hold the code).
    let relay = audit_env(&registry, "test/relay-v1", 50, 1).unwrap();
    assert_eq!(
        flagged_probes(&relay),
        ["echo_givens", "echo_observation"],
        "{relay}"
    );
    let shown = audit_env(&registry, "test/shown-v1", 50, 1).unwrap();
    let flagged = flagged_probes(&shown);
    for probe in ["blind_first_k", "blind_last_k", "blind_repeat_last"] {
        assert!(flagged.contains(&probe), "{probe}: {shown}");
    }
    let best = shown
        .probes
        .iter()
        .find(|p| p.probe == "blind_best")
        .unwrap();
    assert!(best.rate() > 0.3 && !best.flagged, "{shown}");
}
