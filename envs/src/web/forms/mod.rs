//! `web/forms-v1`: a multi-page booking application (personal details,
//! address, booking, review & submit) whose pages state their validation
//! rules; the customer's message gives the data, some of it in a form the
//! validator rejects until normalised, and the submitted record is checked.
//!
//! # Task
//! A generated customer and the one record the form must end with. Each
//! page lists its fields with their rules: formats (`YYYY-MM-DD` dates, a
//! lowercase email, a phone of exactly 10 digits, 5-digit postcodes), ranges
//! (born 1920 to 2008, check-in in 2027, 1 to 6 guests), required fields,
//! cross-field rules (check-out after check-in and at most 14 nights later;
//! the Premium plan is contacted by Phone) and conditional sections (an
//! unlisted country goes under Other with an Other country box; a ticked
//! mailing-address box asks for the mailing address). The customer's
//! message writes `messy` of its values the way people do ("Smith, Robert",
//! "4 March 1990", capitals in the email, "(555) 123-4567", "for 5 nights",
//! "2 adults and 1 child") or asks for Premium with a contact the page
//! does not allow with it; `conditional` of the two conditional sections
//! are needed. Pressing Next validates the page: a broken rule reloads it
//! with its errors and the page is not left until they are fixed.
//!
//! # Action
//! Web commands (`click [ID]`, `type [ID] "text"`, `scroll down|up`,
//! `back`, `submit` (the page's Next or Submit button), `answer "…"`) or
//! the same calls in any format of [`crate::toolkit::parse`]. Unparseable
//! commands are [`crate::InvalidAction`]s; an id not in the current view
//! (ids change on every page view) is an *error observation* that changes
//! nothing.
//! Each turn is read out of the whole reply by `crate::reply`: reasoning is
//! dropped, then the reply as it is, the text after an `Action:`, `Move:` or
//! `Command:` marker, a fenced block, or the last line; two different
//! actions in one turn are refused as a hedge.
//! A turn may make several calls where its format writes several (an OpenAI
//! list, several `<tool_call>` blocks, a Mistral or pythonic list): they run
//! in order, each with its own result, and each counts toward the step cap
//! (`crate::toolkit::tool_env::apply_calls`). A turn with two different
//! final calls, another call after its final call, or a call beside a
//! different one in another format is refused; calls after one that ends
//! the episode by its effect are not run.
//!
//! # Observation
//! The instruction with the customer's message, the page as an
//! accessibility tree (each field's label carries its rule; errors of the
//! last Next are listed under the heading), the outcome of the last
//! command, and how to act. Structured: `task`, `tools` (OpenAI function
//! schemas), `page` (title and elements with ids), `message`.
//!
//! # Reward
//! 1 and `passed` only when exactly one submission was accepted, it meets
//! every rule (the server re-checks all pages on Submit, so a page changed
//! after its Next and reached by `back` cannot slip through), and its
//! record equals the expected one field by field (free text such as names
//! and streets ignoring case and spacing; dates, numbers, email, phone and
//! choices exactly). Breakdown: `fields_correct` (share of expected fields
//! right, never a pass), `submitted`, `rejected` (Next or Submit presses
//! refused by the validator).
//!
//! # Episode end
//! An accepted submission or the `answer` call (terminated); the step cap
//! truncates (score 0).
//!
//! # Parameters
//! `messy` (0..=8: values to normalise, the plan/contact conflict among
//! them), `conditional` (0..=2: conditional sections needed).
//!
//! # Seeding
//! Customer, listed countries, which values are messy and the id salt come
//! from the task rng; each candidate is screened (the oracle passes through
//! the agent's path; answers copied from the prompt fail).
//!
//! # Version history
//! v1: first version.

use serde_json::{Value, json};

use super::browser::{self, Browser, Chrome};
use super::{
    Element, Page, Role, VIEWPORT, WEB_TOOLS, observe_page, random_command, web_tool_specs,
};
use crate::core::{Env, EnvKind, EnvSpec, InvalidAction, Observation, Player, Preset, Score, Turn};
use crate::error::ConfigError;
use crate::rng::Rng;
use crate::toolkit::calls::{Calls, ToolCall};
use crate::toolkit::parse::parse_calls;
use crate::toolkit::screen::tool_effort;
use crate::toolkit::spec::ToolSpec;
use crate::toolkit::tool_env::{CallCount, ToolEnv, turn_until};

/// The tools in OpenAI function format (the shared web tools).
pub fn tool_specs() -> Value {
    web_tool_specs()
}

mod filler;
mod generate;
mod task;
#[cfg(test)]
mod tests;

pub use task::{FormsConfig, FormsTask, Record};

use task::{
    CONTACTS, FIELDS, Kind, OTHER, PAGE_TITLES, PLANS, field_spec, page_errors, record,
    same_record, same_value, shown,
};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum View {
    /// One of the form's pages, by index into [`PAGE_TITLES`].
    Form(usize),
    Review,
    Done,
}

#[derive(Clone, Debug)]
pub struct Forms {
    task: FormsTask,
    /// The form's values as typed and chosen (kept across pages).
    values: Record,
    view: View,
    history: Vec<View>,
    /// Errors of the last refused Next or Submit, shown on its page.
    errors: Vec<String>,
    views: usize,
    page: Page,
    message: String,
    /// Accepted submissions.
    submitted: Vec<Record>,
    /// Next or Submit presses the validator refused.
    rejected: usize,
    answered: Option<String>,
    count: CallCount,
}

impl Forms {
    /// The options of a radio field.
    fn options(&self, key: &str) -> Vec<String> {
        match key {
            "country" => {
                let mut v = self.task.countries.clone();
                v.push(OTHER.into());
                v
            }
            "plan" => PLANS.iter().map(|s| s.to_string()).collect(),
            _ => CONTACTS.iter().map(|s| s.to_string()).collect(),
        }
    }

    fn value(&self, key: &str) -> &str {
        self.values.get(key).map_or("", String::as_str)
    }

    /// The elements of the current view.
    fn elements(&self) -> (String, Vec<Element>) {
        let mut e = Vec::new();
        let errors = |e: &mut Vec<Element>| {
            e.extend(self.errors.iter().map(Element::text));
        };
        match self.view {
            View::Form(p) => {
                e.push(Element::new(
                    Role::Heading,
                    format!("Step {} of 4: {}", p + 1, PAGE_TITLES[p]),
                    "",
                ));
                errors(&mut e);
                for f in FIELDS
                    .iter()
                    .filter(|f| f.page == p && shown(f.key, &self.values))
                {
                    let label = format!("{} ({})", f.label, f.hint);
                    match f.kind {
                        Kind::Text => e.push(
                            Element::new(Role::Textbox, label, format!("f:{}", f.key))
                                .with_value(Some(self.value(f.key).to_string())),
                        ),
                        Kind::Check => e.push(
                            Element::new(Role::Checkbox, label, format!("c:{}", f.key))
                                .with_value((self.value(f.key) == "yes").then(|| "checked".into())),
                        ),
                        Kind::Radio => {
                            e.push(Element::text(format!("{label}:")));
                            for o in self.options(f.key) {
                                let checked = self.value(f.key) == o;
                                e.push(
                                    Element::new(
                                        Role::Radio,
                                        o.clone(),
                                        format!("r:{}:{o}", f.key),
                                    )
                                    .with_value(checked.then(|| "checked".into())),
                                );
                            }
                        }
                    }
                }
                e.push(Element::new(Role::Button, "Next", "next"));
                (PAGE_TITLES[p].to_string(), e)
            }
            View::Review => {
                e.push(Element::new(
                    Role::Heading,
                    "Step 4 of 4: Review & submit",
                    "",
                ));
                errors(&mut e);
                let shown_record = record(&self.values);
                for (p, title) in PAGE_TITLES.iter().enumerate() {
                    let entries: Vec<String> = FIELDS
                        .iter()
                        .filter(|f| f.page == p)
                        .filter_map(|f| {
                            shown_record.get(f.key).map(|v| {
                                format!(
                                    "{}: {}",
                                    f.label,
                                    if v.is_empty() { "-" } else { v.as_str() }
                                )
                            })
                        })
                        .collect();
                    e.push(Element::text(format!("{title}: {}", entries.join("; "))));
                    e.push(Element::new(
                        Role::Link,
                        format!("Edit {}", title.to_lowercase()),
                        format!("edit:{p}"),
                    ));
                }
                e.push(Element::new(Role::Button, "Submit application", "next"));
                ("Review".to_string(), e)
            }
            View::Done => {
                e.push(Element::new(Role::Heading, "Application submitted", ""));
                e.push(Element::text(
                    "Thank you: your booking application was received.",
                ));
                ("Submitted".to_string(), e)
            }
        }
    }

    /// Builds the page of the current view as a new view (new ids).
    fn build(&mut self) {
        self.views += 1;
        let (title, elements) = self.elements();
        self.page = Page::new_view(title, elements, self.task.salt, self.views);
    }

    /// Rebuilds the current view in place (same ids where elements did not
    /// move, same scroll): a choice shows or hides a conditional field.
    fn redraw(&mut self) {
        let scroll = self.page.scroll;
        let (title, elements) = self.elements();
        self.page.title = title;
        self.page.elements = elements;
        self.page.scroll = scroll.min(self.page.elements.len().saturating_sub(VIEWPORT));
    }

    fn go(&mut self, view: View) {
        let old = std::mem::replace(&mut self.view, view);
        self.history.push(old);
        self.errors.clear();
        self.build();
    }

    /// Next on a form page, Submit on the review page: the validator.
    fn press_next(&mut self) -> String {
        match self.view {
            View::Form(p) => {
                let errors = page_errors(p, &self.values);
                if errors.is_empty() {
                    self.go(if p + 1 < PAGE_TITLES.len() {
                        View::Form(p + 1)
                    } else {
                        View::Review
                    });
                    return format!("page {} accepted", p + 1);
                }
                self.refuse(errors)
            }
            View::Review => {
                // The server checks every page again: a page changed after
                // its Next (reached back by `back`) is caught here.
                let bad =
                    (0..PAGE_TITLES.len()).find(|&p| !page_errors(p, &self.values).is_empty());
                match bad {
                    Some(p) => {
                        self.go(View::Form(p));
                        self.refuse(page_errors(p, &self.values))
                    }
                    None => {
                        self.submitted.push(record(&self.values));
                        self.go(View::Done);
                        "application submitted".into()
                    }
                }
            }
            View::Done => "error: no form on this page".into(),
        }
    }

    fn refuse(&mut self, errors: Vec<String>) -> String {
        self.rejected += 1;
        let n = errors.len();
        self.errors = errors;
        // The server answers with the page reloaded: new ids.
        self.build();
        format!("error: the page was not accepted: {n} error(s) listed on the page")
    }

    /// Share of the expected fields the submitted record (or, before any
    /// submission, the form) has right.
    fn fields_correct(&self) -> f64 {
        let got = self
            .submitted
            .first()
            .cloned()
            .unwrap_or_else(|| record(&self.values));
        let want = &self.task.expected;
        let right = want
            .iter()
            .filter(|(k, v)| got.get(*k).is_some_and(|g| same_value(k, g, v)))
            .count();
        right as f64 / want.len().max(1) as f64
    }
}

impl Browser for Forms {
    fn chrome(&mut self) -> Chrome<'_> {
        (&mut self.page, &mut self.message, &mut self.answered)
    }

    fn click(&mut self, key: &str) -> String {
        if key == "next" {
            return self.press_next();
        }
        if let Some(p) = key.strip_prefix("edit:") {
            self.go(View::Form(p.parse().unwrap_or(0)));
            return format!("opened {}", self.page.title);
        }
        if let Some(rest) = key.strip_prefix("r:") {
            let (field, value) = rest.split_once(':').unwrap_or((rest, ""));
            self.values.insert(field.into(), value.into());
            self.redraw();
            return format!("selected {value}");
        }
        if let Some(field) = key.strip_prefix("c:") {
            let on = self.value(field) == "yes";
            self.values
                .insert(field.into(), if on { "no" } else { "yes" }.into());
            self.redraw();
            return format!("{} the box", if on { "unticked" } else { "ticked" });
        }
        "nothing happened".into()
    }

    fn type_into(&mut self, _id: i64, key: &str, text: String) -> String {
        let Some(field) = key.strip_prefix("f:").and_then(field_spec) else {
            return "error: nothing to type into".into();
        };
        self.values.insert(field.key.into(), text.clone());
        self.page
            .elements
            .iter_mut()
            .filter(|e| e.key == key)
            .for_each(|e| e.value = Some(text.clone()));
        format!("typed into {}", field.label)
    }

    /// Next on a form page, Submit on the review page.
    fn submit(&mut self) -> String {
        self.click("next")
    }

    /// Not from the confirmation page: the application is in.
    fn back(&mut self) -> Option<()> {
        let previous = self.history.pop();
        if self.view == View::Done {
            return None;
        }
        self.view = previous?;
        self.errors.clear();
        self.build();
        Some(())
    }
}

impl ToolEnv for Forms {
    fn tools(&self) -> &[ToolSpec] {
        &WEB_TOOLS
    }

    fn feasible(_task: &FormsTask) -> bool {
        true
    }

    fn run_call(&mut self, call: ToolCall) -> String {
        browser::run_call(self, &call)
    }

    fn call_count(&mut self) -> &mut CallCount {
        &mut self.count
    }
}

impl Env for Forms {
    type Config = FormsConfig;
    type Task = FormsTask;
    type Action = Calls;

    const SPEC: EnvSpec = EnvSpec {
        id: "web/forms-v1",
        kind: EnvKind::MultiTurn,
        description: "Multi-page booking form with stated validation rules: normalise the customer's data, recover from errors, submit once",
        players: 1,
        max_steps: 50,
        reward_range: (0.0, 1.0),
        zero_sum: false,
        fixed_start: false,
        presets: &Preset::graded(Self::LEVELS, [0, 2, 4]),
    };

    /// Five levels; `easy`, `medium` and `hard` are among them.
    const LEVELS: &'static [&'static str] = &[
        r#"{"messy":1,"conditional":0}"#,
        r#"{"messy":2,"conditional":0}"#,
        r#"{}"#,
        r#"{"messy":5,"conditional":1}"#,
        r#"{"messy":8,"conditional":2}"#,
    ];

    fn effort(task: &FormsTask) -> Option<f64> {
        // Values to normalise count as records to read twice.
        tool_effort::<Self>(task.expected.len() + task.messy.len(), task)
    }

    fn validate(c: &FormsConfig) -> Result<(), ConfigError> {
        if c.messy <= task::MESSY.len() && c.conditional <= 2 {
            Ok(())
        } else {
            Err("need messy 0..=8, conditional 0..=2".into())
        }
    }

    fn generate(config: &FormsConfig, rng: &mut Rng) -> FormsTask {
        browser::draw_screened::<Forms>(rng, |rng| Some(generate::draw(config, rng)))
    }

    fn reference(task: &FormsTask) -> Option<Value> {
        Some(json!(task.expected))
    }

    fn reset(task: &FormsTask, _rng: Rng) -> Self {
        let mut env = Forms {
            task: task.clone(),
            values: Record::new(),
            view: View::Form(0),
            history: Vec::new(),
            errors: Vec::new(),
            views: 0,
            page: Page::default(),
            message: String::new(),
            submitted: Vec::new(),
            rejected: 0,
            answered: None,
            count: CallCount::default(),
        };
        env.build();
        env
    }

    fn turn(&self) -> Turn {
        turn_until(
            !self.submitted.is_empty()
                || self.answered.is_some()
                || self.count.spent(Self::SPEC.max_steps),
        )
    }

    fn observe(&self, _player: Player) -> Observation {
        observe_page(&self.task.instruction, &self.page, &self.message)
    }

    fn parse_action(&self, _player: Player, text: &str) -> Result<Calls, InvalidAction> {
        parse_calls(text, &WEB_TOOLS)
    }

    fn apply(&mut self, _player: Player, calls: Calls) -> Result<Vec<String>, InvalidAction> {
        Ok(browser::apply_turn(self, calls))
    }

    fn score(&self, _player: Player) -> Score {
        let passed = match self.submitted.as_slice() {
            [one] => {
                (0..PAGE_TITLES.len()).all(|p| page_errors(p, one).is_empty())
                    && same_record(one, &self.task.expected)
            }
            _ => false,
        };
        Score::binary(passed)
            .part("fields_correct", self.fields_correct())
            .part("submitted", self.submitted.len() as f64)
            .part("rejected", self.rejected as f64)
    }

    fn oracle(&self, _player: Player) -> Option<String> {
        Some(self.next_command())
    }

    fn random_action(&self, _player: Player, rng: &mut Rng) -> String {
        random_command(&self.page, "done".into(), rng)
    }

    fn render(&self) -> String {
        format!(
            "view={:?} submitted={} rejected={} answered={:?} values={:?}",
            self.view,
            self.submitted.len(),
            self.rejected,
            self.answered,
            self.values
        )
    }
}
