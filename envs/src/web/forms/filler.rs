//! The reference filler of `web/forms`: reads the current view and fills
//! the first field that differs from the expected record (choosing the
//! radio or ticking the box that shows a conditional field first), presses
//! Next when the page is right, and submits from the review page.

use serde_json::json;

use super::task::{FIELDS, Field, Kind, shown};
use super::{Forms, View};

impl Forms {
    /// Clicks the element with `key`, scrolling to it first.
    fn click_key(&self, key: &str) -> String {
        match self.page.id_for(key) {
            Some(id) => format!("click [{id}]"),
            None if self.page.below(key) => "scroll down".into(),
            None => "scroll up".into(),
        }
    }

    /// The first field of page `p` whose value is not the expected one.
    fn wrong_field(&self, p: usize) -> Option<(&'static Field, &str)> {
        FIELDS
            .iter()
            .filter(|f| f.page == p && shown(f.key, &self.values))
            .find_map(|f| {
                let want = self.task.expected.get(f.key)?.as_str();
                let have = self.value(f.key);
                let wrong = match f.kind {
                    Kind::Check => (have == "yes") != (want == "yes"),
                    Kind::Text | Kind::Radio => have != want,
                };
                wrong.then_some((f, want))
            })
    }

    /// The reference filler's next command, read off the current view.
    pub(super) fn next_command(&self) -> String {
        match self.view {
            View::Form(p) => match self.wrong_field(p) {
                Some((f, want)) => {
                    let key = match f.kind {
                        Kind::Text => format!("f:{}", f.key),
                        Kind::Radio => format!("r:{}:{want}", f.key),
                        Kind::Check => format!("c:{}", f.key),
                    };
                    match (f.kind, self.page.id_for(&key)) {
                        (Kind::Text, Some(id)) => format!("type [{id}] {}", json!(want)),
                        _ => self.click_key(&key),
                    }
                }
                None => self.click_key("next"),
            },
            View::Review => {
                match (0..super::PAGE_TITLES.len()).find(|&p| self.wrong_field(p).is_some()) {
                    Some(p) => self.click_key(&format!("edit:{p}")),
                    None => self.click_key("next"),
                }
            }
            View::Done => "back".into(),
        }
    }
}
