//! The reference navigator of `web/site-nav`: reads the current view and
//! picks the next command towards the errand, or the verdict on an
//! infeasible one.

use serde_json::json;

use super::task::Errand;
use super::{FIELDS, SiteNav, View};
use crate::toolkit::calls::call_text;

/// What the reference navigator searches the help center for to list every
/// returns article.
const RETURNS_QUERY: &str = "returns";

/// Clicks the element with `key`, scrolling to it first.
fn click(env: &SiteNav, key: &str) -> String {
    match env.page.id_for(key) {
        Some(id) => format!("click [{id}]"),
        None if env.page.below(key) => "scroll down".into(),
        None => "scroll up".into(),
    }
}

fn type_text(env: &SiteNav, key: &str, text: &str) -> String {
    match env.page.id_for(key) {
        Some(id) => format!("type [{id}] {}", json!(text)),
        None => click(env, key),
    }
}

/// Hermes text of an answer, for screens.
fn answer_text(answer: &str) -> String {
    call_text("answer", json!({"answer": answer}))
}

impl SiteNav {
    /// The reference navigator's next command, read off the current view.
    pub(super) fn next_command(&self) -> String {
        let env = self;
        let task = &env.task;
        let want = &task.expected;
        if !matches!(
            task.errand,
            Errand::Lookup(_) | Errand::MissingCategory | Errand::MissingArticle
        ) && env.backend == *want
        {
            return answer_text(&task.answer);
        }
        match (&task.errand, &env.view) {
            // The evidence of an infeasible errand is on the page that lacks
            // what it asks for: look at it, then give the verdict.
            (Errand::MissingCategory, View::NewTicket { .. }) => answer_text(&task.answer),
            (Errand::MissingCategory, View::Support) => click(env, "new_ticket"),
            (Errand::MissingCategory, _) => click(env, "nav:support"),
            (Errand::MissingArticle, View::Help { query, searched }) => match searched {
                Some(q) if q == RETURNS_QUERY => answer_text(&task.answer),
                _ if query != RETURNS_QUERY => type_text(env, "f:query", RETURNS_QUERY),
                _ => click(env, "save"),
            },
            (Errand::MissingArticle, _) => click(env, "nav:help"),
            (Errand::Lookup(i), View::Article(j)) if i == j => answer_text(&task.answer),
            (Errand::Lookup(i), View::Help { query, searched }) => {
                let line = task.articles[*i]
                    .title
                    .trim_start_matches("Returns: ")
                    .to_string();
                match searched {
                    Some(q) if *q == line => click(env, &format!("a:{i}")),
                    _ if *query != line => type_text(env, "f:query", &line),
                    _ => click(env, "save"),
                }
            }
            (Errand::Lookup(_), _) => click(env, "nav:help"),
            (Errand::Profile, View::Edit(draft)) => match FIELDS
                .iter()
                .enumerate()
                .find(|(k, _)| draft[*k] != want.profile[*k])
            {
                Some((k, field)) => type_text(env, &format!("f:{field}"), &want.profile[k]),
                None => click(env, "save"),
            },
            (Errand::Profile, View::Profile) => click(env, "edit"),
            (Errand::Profile, _) => click(env, "nav:profile"),
            (Errand::Topics, View::Settings(draft)) => {
                match want.topics.iter().zip(draft).find(|((_, on), d)| on != *d) {
                    Some(((topic, _), _)) => click(env, &format!("t:{topic}")),
                    None => click(env, "save"),
                }
            }
            (Errand::Topics, _) => click(env, "nav:settings"),
            (
                Errand::Ticket,
                View::NewTicket {
                    category,
                    order,
                    message,
                },
            ) => {
                let t = want.tickets.last().expect("ticket errands add one");
                if category.as_deref() != Some(t.category.as_str()) {
                    click(env, &format!("cat:{}", t.category))
                } else if *order != t.order {
                    type_text(env, "f:order", &t.order)
                } else if *message != t.message {
                    type_text(env, "f:message", &t.message)
                } else {
                    click(env, "save")
                }
            }
            (Errand::Ticket, View::Support) => click(env, "new_ticket"),
            _ => click(env, "nav:support"),
        }
    }
}
