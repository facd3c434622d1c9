//! The portal's pages as accessibility trees.

use super::{FIELDS, NAV, SiteNav, View};
use crate::web::{Element, Page, Role};

impl SiteNav {
    /// Builds the page of the current view (a new view gets new ids).
    pub(super) fn build(&mut self) {
        self.views += 1;
        let mut e: Vec<Element> = NAV
            .iter()
            .map(|(label, key)| Element::new(Role::Link, *label, format!("nav:{key}")))
            .collect();
        let textbox = |label: &str, key: &str, value: &str| {
            Element::new(Role::Textbox, label, key).with_value(Some(value.to_string()))
        };
        let title = match &self.view {
            View::Home => {
                e.push(Element::new(Role::Heading, "Account portal", ""));
                e.push(Element::text(format!("Welcome back, {}.", self.task.name)));
                "Home"
            }
            View::Profile => {
                e.push(Element::new(Role::Heading, "Profile", ""));
                for (field, value) in FIELDS.iter().zip(&self.backend.profile) {
                    e.push(Element::text(format!("{field}: {value}")));
                }
                e.push(Element::new(Role::Link, "Edit profile", "edit"));
                "Profile"
            }
            View::Edit(draft) => {
                e.push(Element::new(Role::Heading, "Edit profile", ""));
                for (field, value) in FIELDS.iter().zip(draft) {
                    e.push(textbox(field, &format!("f:{field}"), value));
                }
                e.push(Element::new(Role::Button, "Save", "save"));
                "Edit profile"
            }
            View::Settings(draft) => {
                e.push(Element::new(Role::Heading, "Newsletter preferences", ""));
                for ((topic, _), on) in self.backend.topics.iter().zip(draft) {
                    e.push(
                        Element::new(Role::Checkbox, topic.clone(), format!("t:{topic}"))
                            .with_value(on.then(|| "checked".into())),
                    );
                }
                e.push(Element::new(Role::Button, "Save preferences", "save"));
                "Settings"
            }
            View::Support => {
                e.push(Element::new(Role::Heading, "Support", ""));
                for (i, t) in self.backend.tickets.iter().enumerate() {
                    e.push(Element::text(format!(
                        "Ticket #{}: {} / order {} / {}",
                        i + 1,
                        t.category,
                        t.order,
                        t.message
                    )));
                }
                e.push(Element::new(Role::Link, "New ticket", "new_ticket"));
                "Support"
            }
            View::NewTicket {
                category,
                order,
                message,
            } => {
                e.push(Element::new(Role::Heading, "New ticket", ""));
                e.push(Element::text("Category:"));
                for c in &self.task.categories {
                    e.push(
                        Element::new(Role::Radio, c.clone(), format!("cat:{c}")).with_value(
                            (category.as_deref() == Some(c.as_str())).then(|| "checked".into()),
                        ),
                    );
                }
                e.push(textbox("Order number", "f:order", order));
                e.push(textbox("Message", "f:message", message));
                e.push(Element::new(Role::Button, "Submit ticket", "save"));
                "New ticket"
            }
            View::Help { query, searched } => {
                e.push(Element::new(Role::Heading, "Help center", ""));
                e.push(textbox("Search articles", "f:query", query));
                e.push(Element::new(Role::Button, "Search", "save"));
                if let Some(q) = searched {
                    let hits = self.help_hits(q);
                    e.push(Element::text(format!(
                        "{} articles for \"{q}\"",
                        hits.len()
                    )));
                    e.extend(hits.into_iter().map(|i| {
                        Element::new(
                            Role::Link,
                            self.task.articles[i].title.clone(),
                            format!("a:{i}"),
                        )
                    }));
                }
                "Help center"
            }
            View::Article(i) => {
                let a = &self.task.articles[*i];
                e.push(Element::new(Role::Heading, a.title.clone(), ""));
                e.push(Element::text(a.body.clone()));
                "Article"
            }
        };
        self.page = Page::new_view(title.into(), e, self.task.salt, self.views);
    }

    /// Redraws the same view after a draft change (same ids, same scroll).
    pub(super) fn redraw(&mut self) {
        let scroll = self.page.scroll;
        self.views -= 1;
        self.build();
        self.page.scroll = scroll;
    }
}
