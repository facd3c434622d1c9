//! The reference shopper of `web/shop`: reads the current page and picks
//! the next command; on an infeasible task it opens a near miss and gives
//! the verdict about it.

use serde_json::json;

use super::task::{Goal, broken_requirement, near_miss_evidence};
use super::{PER_PAGE, Shop, View};
use crate::toolkit::calls::call_text;
use crate::toolkit::final_answer::{evidence_words, infeasible_answer, infeasible_evidence};

/// What the reference shopper searches for.
pub(super) fn shopper_query(goal: &Goal) -> String {
    format!("{} {}", goal.feature, goal.category)
}

impl Shop {
    /// The near miss the reference shopper opens on an infeasible task: the
    /// best-ranked result of its search that breaks exactly one requirement.
    pub(super) fn witness(&self) -> Option<(usize, &'static str)> {
        let goal = &self.task.goal;
        self.results(&shopper_query(goal))
            .into_iter()
            .find_map(|i| broken_requirement(&self.task.products[i], goal).map(|b| (i, b)))
    }

    /// Whether `answer` is an infeasible verdict naming a near miss of this
    /// catalogue and the one requirement it breaks.
    pub(super) fn verdict_holds(&self, answer: &str) -> bool {
        let goal = &self.task.goal;
        infeasible_evidence(answer).is_some_and(|given| {
            let given = evidence_words(given);
            self.task.products.iter().any(|p| {
                broken_requirement(p, goal)
                    .is_some_and(|b| evidence_words(&near_miss_evidence(p, b)) == given)
            })
        })
    }

    /// The next command of the reference shopper, read off the current page:
    /// search, open the wanted product (or, on an infeasible task, a near
    /// miss), choose the options and buy (or give the verdict on the miss).
    pub(super) fn next_command(&self) -> String {
        let goal = &self.task.goal;
        let (target, witness) = match (self.task.target, self.witness()) {
            (Some(t), _) => (t, None),
            (None, Some((w, broken))) => (w, Some(broken)),
            (None, None) => return "back".into(),
        };
        let click = |key: &str| self.page.id_for(key).map(|id| format!("click [{id}]"));
        let query = shopper_query(goal);
        let command = match &self.view {
            View::Home if self.query_box != query => self
                .page
                .id_for("q")
                .map(|id| format!("type [{id}] {}", json!(query))),
            View::Home => click("search"),
            View::Results { query: q, page } => {
                let hits = self.results(q);
                let key = format!("p:{target}");
                match hits.iter().position(|&i| i == target) {
                    Some(at) if at / PER_PAGE == *page => {
                        click(&key).or_else(|| self.page.below(&key).then(|| "scroll down".into()))
                    }
                    Some(at) if at / PER_PAGE > *page => {
                        click("next").or_else(|| Some("scroll down".into()))
                    }
                    Some(_) => click("prev").or_else(|| Some("scroll down".into())),
                    None => click("home").or_else(|| Some("scroll down".into())),
                }
            }
            View::Item { product, .. } if *product == target && witness.is_some() => {
                let evidence =
                    near_miss_evidence(&self.task.products[target], witness.unwrap_or(""));
                Some(call_text(
                    "answer",
                    json!({"answer": infeasible_answer(&evidence)}),
                ))
            }
            View::Item { product, chosen } if *product == target => {
                let want = [("color", &goal.color), ("size", &goal.size)];
                let missing = want
                    .iter()
                    .find(|(g, v)| chosen.get(*g) != Some(*v))
                    .map(|(g, v)| format!("opt:{g}:{v}"));
                let key = missing.unwrap_or_else(|| "buy".into());
                click(&key).or_else(|| Some("scroll down".into()))
            }
            View::Item { .. } => Some("back".into()),
        };
        command.unwrap_or_else(|| "back".into())
    }
}
