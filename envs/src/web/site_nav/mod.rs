//! `web/site-nav-v2`: an account portal of several pages (navigation bar,
//! profile form, newsletter checkboxes, support-ticket form, help-centre
//! search), rendered as an accessibility tree with per-view ids; tasks are
//! checked against the portal's backend state.
//!
//! # Task
//! A generated account (profile fields, newsletter topics, earlier support
//! tickets, orders) and help-centre articles, and one errand: change profile
//! fields; change newsletter subscriptions; open a support ticket with a
//! category, order number and message; or look up a return window in the
//! help centre. Form drafts are lost unless saved or submitted. A fixed
//! share (`infeasible_share`) asks for something the portal does not offer
//! (a ticket category the form does not offer, a help article that is not
//! there): those pass only with no change and the verdict
//! `infeasible: EVIDENCE` listing what the portal does offer (the form's
//! categories, or the ranges with return articles), which only looking
//! shows.
//!
//! # Action
//! Web commands (`click [ID]`, `type [ID] "text"`, `scroll down|up`,
//! `back`, `submit`, `answer "…"`) or the same calls in any format of
//! [`crate::toolkit::parse`]. Unparseable commands are
//! [`crate::InvalidAction`]s; an id not in the current view (ids change on
//! every page view) is an *error observation* that changes nothing.
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
//! The errand, the page as an accessibility tree, the outcome of the last
//! command, and how to act. Structured: `task`, `tools` (OpenAI function
//! schemas), `page` (title and elements with ids), `message`.
//!
//! # Reward
//! 1 and `passed` only when the backend (profile, subscriptions, tickets)
//! equals the expected one and the answer matches (`done` for profile and
//! ticket errands, the count of subscribed topics after a subscription
//! change, the number for look-ups, `infeasible: EVIDENCE`). Breakdown: `correct`,
//! `state_correct`, `answer_correct`.
//!
//! # Episode end
//! The `answer` call (terminated); the step cap truncates (score 0).
//!
//! # Parameters
//! `topics` (3..=8), `articles` (2..=10), `tickets` (0..=6),
//! `infeasible_share` (0..=0.5).
//!
//! # Seeding
//! Account, articles, errand and the id salt come from the task rng; each
//! candidate is screened (the oracle passes through the agent's path;
//! constant answers and `done` without the change fail).
//!
//! # Version history
//! v1: first version.
//! v2: infeasible verdicts carry evidence (a bare `infeasible` passed every
//! infeasible task); the ticket form offers a per-task set of categories;
//! subscription errands end with the count of subscribed topics (random
//! clicking passed some on short topic lists).

use serde_json::{Value, json};

use super::browser::{self, Browser, Chrome};
use super::{Page, Role, WEB_TOOLS, observe_page, random_command, web_tool_specs};
use crate::core::{
    Env, EnvKind, EnvSpec, InvalidAction, Observation, Player, Preset, Score, Superseded, Turn,
    Upgrade,
};
use crate::error::ConfigError;
use crate::rng::Rng;
use crate::toolkit::calls::{Calls, ToolCall};
use crate::toolkit::final_answer::{answers_match, infeasible_answer};
use crate::toolkit::parse::parse_calls;
use crate::toolkit::screen::tool_effort;
use crate::toolkit::spec::ToolSpec;
use crate::toolkit::tool_env::{CallCount, ToolEnv, turn_until};

/// The tools in OpenAI function format (the shared web tools).
pub fn tool_specs() -> Value {
    web_tool_specs()
}

mod generate;
mod navigator;
mod pages;
mod task;
#[cfg(test)]
mod tests;

pub use task::{Article, Backend, Errand, SiteNavConfig, SiteNavTask, Ticket};

use task::{CATEGORIES, OFFERED_CATEGORIES, upgrade_v1};

const FIELDS: [&str; 3] = ["email", "phone", "city"];
const NAV: [(&str, &str); 5] = [
    ("Home", "home"),
    ("Profile", "profile"),
    ("Settings", "settings"),
    ("Support", "support"),
    ("Help center", "help"),
];

#[derive(Clone, Debug, PartialEq, Eq)]
enum View {
    Home,
    Profile,
    Edit([String; 3]),
    Settings(Vec<bool>),
    Support,
    NewTicket {
        category: Option<String>,
        order: String,
        message: String,
    },
    Help {
        query: String,
        searched: Option<String>,
    },
    Article(usize),
}

#[derive(Clone, Debug)]
pub struct SiteNav {
    task: SiteNavTask,
    backend: Backend,
    view: View,
    history: Vec<View>,
    views: usize,
    page: Page,
    message: String,
    answered: Option<String>,
    count: CallCount,
}

impl SiteNav {
    fn help_hits(&self, query: &str) -> Vec<usize> {
        let words: Vec<String> = query
            .split_whitespace()
            .map(str::to_lowercase)
            .filter(|w| w.len() > 2)
            .collect();
        (0..self.task.articles.len())
            .filter(|&i| {
                let title = self.task.articles[i].title.to_lowercase();
                !words.is_empty() && words.iter().any(|w| title.contains(w.as_str()))
            })
            .collect()
    }

    fn go(&mut self, view: View) {
        let old = std::mem::replace(&mut self.view, view);
        self.history.push(old);
        self.build();
    }
}

impl Browser for SiteNav {
    fn chrome(&mut self) -> Chrome<'_> {
        (&mut self.page, &mut self.message, &mut self.answered)
    }

    fn click(&mut self, key: &str) -> String {
        if let Some(target) = key.strip_prefix("nav:") {
            let view = match target {
                "home" => View::Home,
                "profile" => View::Profile,
                "settings" => View::Settings(self.backend.topics.iter().map(|t| t.1).collect()),
                "support" => View::Support,
                _ => View::Help {
                    query: String::new(),
                    searched: None,
                },
            };
            self.go(view);
            return format!("opened {target}");
        }
        let message = match (&mut self.view, key) {
            (View::Profile, "edit") => {
                let draft = self.backend.profile.clone();
                self.go(View::Edit(draft));
                return "opened the profile form".into();
            }
            (View::Support, "new_ticket") => {
                self.go(View::NewTicket {
                    category: None,
                    order: String::new(),
                    message: String::new(),
                });
                return "opened the ticket form".into();
            }
            (View::Edit(draft), "save") => {
                self.backend.profile = draft.clone();
                self.go(View::Profile);
                return "profile saved".into();
            }
            (View::Settings(draft), "save") => {
                for (topic, on) in self.backend.topics.iter_mut().zip(draft.iter()) {
                    topic.1 = *on;
                }
                "preferences saved".to_string()
            }
            (View::Settings(draft), k) if k.starts_with("t:") => {
                let at = self
                    .backend
                    .topics
                    .iter()
                    .position(|t| format!("t:{}", t.0) == k)
                    .unwrap_or(0);
                draft[at] = !draft[at];
                format!("toggled {}", &k[2..])
            }
            (View::NewTicket { category, .. }, k) if k.starts_with("cat:") => {
                *category = Some(k[4..].to_string());
                format!("selected {}", &k[4..])
            }
            (
                View::NewTicket {
                    category,
                    order,
                    message,
                },
                "save",
            ) => {
                let Some(category) = category.clone() else {
                    return "error: choose a category first".into();
                };
                if order.trim().is_empty()
                    || message.trim().is_empty()
                    || self.backend.tickets.len() >= 20
                {
                    return "error: fill in the order number and the message".into();
                }
                let ticket = Ticket {
                    category,
                    order: order.trim().to_string(),
                    message: message.trim().to_string(),
                };
                self.backend.tickets.push(ticket);
                self.go(View::Support);
                return "ticket submitted".into();
            }
            (View::Help { query, searched }, "save") => {
                *searched = Some(query.trim().to_string());
                self.go(self.view.clone());
                return "searched".into();
            }
            (View::Help { .. }, k) if k.starts_with("a:") => {
                self.go(View::Article(k[2..].parse().unwrap_or(0)));
                return "opened the article".into();
            }
            _ => return "nothing happened".into(),
        };
        self.redraw();
        message
    }

    fn type_into(&mut self, _id: i64, key: &str, text: String) -> String {
        match (&mut self.view, key) {
            (View::Edit(draft), k) => {
                let at = FIELDS
                    .iter()
                    .position(|f| format!("f:{f}") == k)
                    .unwrap_or(0);
                draft[at] = text;
            }
            (View::NewTicket { order, .. }, "f:order") => *order = text,
            (View::NewTicket { message, .. }, _) => *message = text,
            (View::Help { query, .. }, _) => *query = text,
            _ => return "error: nothing to type into".into(),
        }
        self.redraw();
        "typed".into()
    }

    /// Presses the page's Save button (the forms' and the search's).
    fn submit(&mut self) -> String {
        if self
            .page
            .elements
            .iter()
            .any(|e| e.key == "save" && e.role == Role::Button)
        {
            self.click("save")
        } else {
            "error: no form on this page".into()
        }
    }

    fn back(&mut self) -> Option<()> {
        self.view = self.history.pop()?;
        self.build();
        Some(())
    }
}

impl ToolEnv for SiteNav {
    fn tools(&self) -> &[ToolSpec] {
        &WEB_TOOLS
    }

    fn feasible(task: &SiteNavTask) -> bool {
        task.errand.feasible()
    }

    fn run_call(&mut self, call: ToolCall) -> String {
        browser::run_call(self, &call)
    }

    fn call_count(&mut self) -> &mut CallCount {
        &mut self.count
    }
}

impl Env for SiteNav {
    type Config = SiteNavConfig;
    type Task = SiteNavTask;
    type Action = Calls;

    // v1 tasks lack the form's categories ([`upgrade_v1`]).
    const SUPERSEDED: &'static [Superseded] = &[Superseded {
        version: 1,
        upgrade: Upgrade::Map(upgrade_v1),
    }];
    const SPEC: EnvSpec = EnvSpec {
        id: "web/site-nav-v2",
        kind: EnvKind::MultiTurn,
        description: "Multi-page account portal as an accessibility tree: forms, checkboxes, tickets and help search, checked on the backend",
        players: 1,
        max_steps: 40,
        reward_range: (0.0, 1.0),
        zero_sum: false,
        fixed_start: false,
        presets: &Preset::graded(Self::LEVELS, [0, 2, 4]),
    };

    /// Five levels; `easy`, `medium` and `hard` are among them.
    const LEVELS: &'static [&'static str] = &[
        r#"{"topics":3,"articles":2,"tickets":0}"#,
        r#"{"topics":4,"articles":3,"tickets":1}"#,
        r#"{}"#,
        r#"{"topics":6,"articles":8,"tickets":4}"#,
        r#"{"topics":8,"articles":10,"tickets":6}"#,
    ];

    fn effort(task: &SiteNavTask) -> Option<f64> {
        tool_effort::<Self>(
            task.initial.topics.len() + task.articles.len() + task.initial.tickets.len(),
            task,
        )
    }

    fn validate(c: &SiteNavConfig) -> Result<(), ConfigError> {
        let ok = (3..=8).contains(&c.topics)
            && (2..=10).contains(&c.articles)
            && c.tickets <= 6
            && (0.0..=0.5).contains(&c.infeasible_share);
        if ok {
            Ok(())
        } else {
            Err("need topics 3..=8, articles 2..=10, tickets <= 6, infeasible_share 0..=0.5".into())
        }
    }

    fn generate(config: &SiteNavConfig, rng: &mut Rng) -> SiteNavTask {
        // `done` on an untouched portal must not pass (constants cover it
        // too); a look-up's number without reading is knowledge, not a hack.
        browser::draw_screened::<SiteNav>(rng, |rng| Some(generate::draw(config, rng)))
    }

    fn reference(task: &SiteNavTask) -> Option<Value> {
        Some(json!({"answer": task.answer, "backend": task.expected}))
    }

    fn reset(task: &SiteNavTask, _rng: Rng) -> Self {
        let mut env = SiteNav {
            task: task.clone(),
            backend: task.initial.clone(),
            view: View::Home,
            history: Vec::new(),
            views: 0,
            page: Page::default(),
            message: String::new(),
            answered: None,
            count: CallCount::default(),
        };
        env.build();
        env
    }

    fn turn(&self) -> Turn {
        turn_until(self.answered.is_some() || self.count.spent(Self::SPEC.max_steps))
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
        let state = self.backend == self.task.expected;
        let answer = self
            .answered
            .as_deref()
            .is_some_and(|a| answers_match(a, &self.task.answer));
        Score::binary(state && answer)
            .part("state_correct", f64::from(u8::from(state)))
            .part("answer_correct", f64::from(u8::from(answer)))
    }

    fn oracle(&self, _player: Player) -> Option<String> {
        Some(self.next_command())
    }

    fn random_action(&self, _player: Player, rng: &mut Rng) -> String {
        let answer = if rng.chance(0.5) {
            "done".to_string()
        } else {
            infeasible_answer(&CATEGORIES[..OFFERED_CATEGORIES].join(", "))
        };
        random_command(&self.page, answer, rng)
    }

    fn render(&self) -> String {
        format!(
            "view={:?} answered={:?} state_ok={}",
            self.view,
            self.answered,
            self.backend == self.task.expected
        )
    }
}
