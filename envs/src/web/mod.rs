//! Web-like envs: generated sites rendered as a text accessibility tree with
//! per-episode element ids, driven by `click [id]`, `type [id] "text"`,
//! `scroll down`, `back`, `submit` and `answer "…"` (or the same calls in any format
//! of [`crate::toolkit::parse`]), and scored on the site's backend state.
//!
//! Shared here: the web tools ([`WEB_TOOLS`]), the page model (`Element`,
//! `Page`) and its rendering with scrolling, and per-view element ids; in
//! `browser`, the commands' dispatch onto a site and the turn plumbing.

use std::sync::LazyLock;

use serde_json::{Value, json};

use crate::core::Observation;
use crate::rng::Rng;
use crate::toolkit::calls::{ToolCall, random_format};
use crate::toolkit::spec::{Param, ParamType, ToolSpec, answer_tool, openai_specs};

mod browser;
pub mod forms;
pub mod shop;
pub mod site_nav;

/// Elements shown per viewport.
pub(crate) const VIEWPORT: usize = 12;

/// The web tools, shared by every web env.
pub static WEB_TOOLS: LazyLock<Vec<ToolSpec>> = LazyLock::new(|| {
    let id = || Param::required("id", ParamType::Integer, "element id shown in brackets");
    vec![
        ToolSpec::new(
            "click",
            "click a link, button, radio or checkbox",
            vec![id()],
        ),
        ToolSpec::new(
            "type",
            "replace the text of a text box",
            vec![id(), Param::required("text", ParamType::String, "the text")],
        ),
        ToolSpec::new(
            "scroll",
            "scroll the page",
            vec![
                Param::required("direction", ParamType::String, "up or down")
                    .one_of(&["up", "down"]),
            ],
        ),
        ToolSpec::new("back", "go to the previous page", vec![]),
        ToolSpec::new(
            "submit",
            "submit the form on this page (its main button)",
            vec![],
        ),
        answer_tool(
            "finish with an answer when the task asks for one, or `infeasible: EVIDENCE` if it cannot be done",
        ),
    ]
});

/// The web tools in OpenAI function format.
pub fn web_tool_specs() -> Value {
    openai_specs(&WEB_TOOLS)
}

pub(crate) const WEB_HELP: &str = "Act with one command per turn: click [ID], type [ID] \"text\", scroll down, scroll up, back, submit, \
or answer \"...\" (tool-call JSON, <tool_call> blocks and ReAct also work). \
If the task cannot be done, answer `infeasible: EVIDENCE` with the evidence the task asks for.";

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Role {
    Heading,
    Text,
    Link,
    Button,
    Textbox,
    Radio,
    Checkbox,
}

impl Role {
    fn name(self) -> &'static str {
        match self {
            Role::Heading => "heading",
            Role::Text => "text",
            Role::Link => "link",
            Role::Button => "button",
            Role::Textbox => "textbox",
            Role::Radio => "radio",
            Role::Checkbox => "checkbox",
        }
    }

    fn interactive(self) -> bool {
        !matches!(self, Role::Heading | Role::Text)
    }
}

/// One node of the accessibility tree. `key` is the env's own handle for
/// what the element does; the agent never sees it.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Element {
    pub role: Role,
    pub label: String,
    /// A text box's text, or `checked` for a selected radio or checkbox.
    pub value: Option<String>,
    pub key: String,
}

impl Element {
    pub fn new(role: Role, label: impl Into<String>, key: impl Into<String>) -> Self {
        Element {
            role,
            label: label.into(),
            value: None,
            key: key.into(),
        }
    }

    pub fn text(label: impl Into<String>) -> Self {
        Element::new(Role::Text, label, "")
    }

    pub fn with_value(mut self, value: Option<String>) -> Self {
        self.value = value;
        self
    }
}

/// A rendered page: its title, elements, scroll position, and the first id
/// of this view (ids change on every view, so stale ids fail).
#[derive(Clone, Debug, Default, PartialEq)]
pub(crate) struct Page {
    pub title: String,
    pub elements: Vec<Element>,
    pub scroll: usize,
    pub base_id: i64,
}

impl Page {
    /// View number `view` of an episode with `salt`, scrolled to the top,
    /// with ids of its own ([`base_id`]).
    pub fn new_view(title: String, elements: Vec<Element>, salt: u64, view: usize) -> Self {
        Page {
            title,
            elements,
            scroll: 0,
            base_id: base_id(salt, view),
        }
    }

    /// Element ids of this view: `base_id + index` for interactive elements.
    pub fn id_of(&self, index: usize) -> i64 {
        self.base_id + index as i64
    }

    fn visible(&self) -> std::ops::Range<usize> {
        let start = self.scroll.min(self.elements.len().saturating_sub(1));
        start..(start + VIEWPORT).min(self.elements.len())
    }

    /// The visible interactive element with this id.
    pub fn find(&self, id: i64) -> Option<&Element> {
        let index = usize::try_from(id - self.base_id).ok()?;
        self.visible()
            .contains(&index)
            .then(|| &self.elements[index])
            .filter(|e| e.role.interactive())
    }

    /// The visible interactive element with this key, and its id.
    pub fn id_for(&self, key: &str) -> Option<i64> {
        self.visible()
            .find(|&i| self.elements[i].key == key && self.elements[i].role.interactive())
            .map(|i| self.id_of(i))
    }

    /// Whether an element with this key exists below the viewport.
    pub fn below(&self, key: &str) -> bool {
        self.elements
            .iter()
            .enumerate()
            .any(|(i, e)| e.key == key && i >= self.visible().end)
    }

    pub fn scroll_by(&mut self, down: bool) -> bool {
        let max = self.elements.len().saturating_sub(VIEWPORT);
        let next = if down {
            (self.scroll + VIEWPORT / 2).min(max)
        } else {
            self.scroll.saturating_sub(VIEWPORT / 2)
        };
        let moved = next != self.scroll;
        self.scroll = next;
        moved
    }

    /// The accessibility tree of the viewport.
    pub fn render(&self) -> String {
        let range = self.visible();
        let mut out = format!("page \"{}\"\n", self.title);
        if range.start > 0 {
            out.push_str(&format!(
                "  (… {} elements above; scroll up)\n",
                range.start
            ));
        }
        for i in range.clone() {
            let e = &self.elements[i];
            let id = if e.role.interactive() {
                format!("[{}] ", self.id_of(i))
            } else {
                String::new()
            };
            let value = match (&e.value, e.role) {
                (Some(v), Role::Textbox) => format!(" value={}", json!(v)),
                (Some(v), _) => format!(" ({v})"),
                (None, _) => String::new(),
            };
            out.push_str(&format!(
                "  {id}{} {}{value}\n",
                e.role.name(),
                json!(e.label)
            ));
        }
        if range.end < self.elements.len() {
            out.push_str(&format!(
                "  (… {} elements below; scroll down)\n",
                self.elements.len() - range.end
            ));
        }
        out
    }
}

/// A web env's observation: the instruction, the page as an accessibility
/// tree, the outcome of the last command, and how to act; structured, the
/// same with the page's visible interactive elements.
pub(crate) fn observe_page(instruction: &str, page: &Page, message: &str) -> Observation {
    let last = if message.is_empty() {
        String::new()
    } else {
        format!("Last action: {message}\n")
    };
    let text = format!("{instruction}\n\n{}{last}\n{WEB_HELP}", page.render());
    let elements: Vec<Value> = (0..page.elements.len())
        .filter(|&i| page.find(page.id_of(i)).is_some())
        .map(|i| {
            let e = &page.elements[i];
            json!({"id": page.id_of(i), "role": e.role.name(), "label": e.label, "value": e.value})
        })
        .collect();
    Observation {
        text,
        structured: json!({"task": instruction, "tools": web_tool_specs(), "page": {"title": page.title, "elements": elements}, "message": message}),
        legal_actions: None,
    }
}

/// A random command on `page` for the `random` baseline, in a random call
/// format: typing junk, scrolling, going back, submitting, `answer` (the
/// env's random answer) or, most often, a click on a visible element.
pub(crate) fn random_command(page: &Page, answer: String, rng: &mut Rng) -> String {
    let ids: Vec<i64> = (0..page.elements.len())
        .map(|i| page.id_of(i))
        .filter(|&id| page.find(id).is_some())
        .collect();
    let id = ids
        .get(rng.below(ids.len().max(1) as u64) as usize)
        .copied()
        .unwrap_or(0);
    let call = match rng.below(10) {
        0 | 1 => ToolCall::new(
            "type",
            json!({"id": id, "text": format!("zq{}", rng.below(1000))}),
        ),
        2 => ToolCall::new(
            "scroll",
            json!({"direction": if rng.chance(0.5) { "down" } else { "up" }}),
        ),
        3 => ToolCall::new("back", json!({})),
        4 => ToolCall::new("submit", json!({})),
        5 => ToolCall::new("answer", json!({ "answer": answer })),
        _ => ToolCall::new("click", json!({"id": id})),
    };
    random_format(&call, &WEB_TOOLS, rng)
}

/// The first element id of view number `view` of an episode with `salt`:
/// ids differ per task and per view, so they must be read, not guessed.
pub(crate) fn base_id(salt: u64, view: usize) -> i64 {
    let mixed = crate::rng::splitmix64(salt ^ (view as u64).wrapping_mul(0x9E37_79B9));
    100 + (mixed % 800) as i64
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pages_render_ids_values_and_scrolling() {
        let mut elements = vec![
            Element::new(Role::Heading, "Shop", ""),
            Element::new(Role::Textbox, "Search", "q").with_value(Some("red \"hat\"".into())),
        ];
        elements.extend(
            (0..15).map(|i| Element::new(Role::Link, format!("item {i}"), format!("p{i}"))),
        );
        let mut page = Page {
            title: "Home".into(),
            elements,
            scroll: 0,
            base_id: 300,
        };
        let text = page.render();
        assert!(text.starts_with("page \"Home\"\n  heading \"Shop\"\n  [301] textbox \"Search\" value=\"red \\\"hat\\\"\"\n  [302] link \"item 0\"\n"), "{text}");
        assert!(
            text.ends_with("  [311] link \"item 9\"\n  (… 5 elements below; scroll down)\n"),
            "{text}"
        );
        assert_eq!(page.find(300), None, "headings have no id");
        assert_eq!(page.find(312), None, "below the viewport");
        assert!(page.below("p14"));
        assert!(page.scroll_by(true));
        assert_eq!(page.id_for("p14"), Some(316));
        assert!(page.render().contains("(… 5 elements above; scroll up)"));
        assert!(!page.scroll_by(true));
        assert_ne!(base_id(1, 0), base_id(1, 1));
    }
}
