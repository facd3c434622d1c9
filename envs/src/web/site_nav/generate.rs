//! Candidate accounts and errands of `web/site-nav` (the env screens them).

use super::task::{
    Article, Backend, CATEGORIES, Errand, OFFERED_CATEGORIES, SiteNavConfig, SiteNavTask, Ticket,
};
use crate::rng::Rng;
use crate::toolkit::final_answer::infeasible_answer;

const FIRST: &[&str] = &[
    "Alex", "Sam", "Noor", "Tomas", "Yara", "Lior", "Mina", "Oskar",
];
const LAST: &[&str] = &[
    "Moreau", "Okoye", "Varga", "Lund", "Castillo", "Haddad", "Price",
];
const CITIES: &[&str] = &[
    "Leeds", "Ghent", "Brno", "Cork", "Tartu", "Split", "Malaga", "Bergen",
];
const TOPICS: &[&str] = &[
    "deals",
    "new arrivals",
    "events",
    "product tips",
    "community",
    "security alerts",
    "surveys",
    "partner offers",
];
const LINES: &[&str] = &[
    "outdoor",
    "kitchen",
    "electronics",
    "garden",
    "toys",
    "furniture",
    "sports",
    "beauty",
    "books",
    "pet care",
    "lighting",
    "audio",
];
const MESSAGES: &[&str] = &[
    "The parcel arrived damaged.",
    "I was charged twice.",
    "The app crashes at checkout.",
    "Please update my delivery slot.",
];

fn pick<'a>(rng: &mut Rng, items: &[&'a str]) -> &'a str {
    items[rng.below(items.len() as u64) as usize]
}

pub(super) fn draw(config: &SiteNavConfig, rng: &mut Rng) -> SiteNavTask {
    let (first, last) = (pick(rng, FIRST), pick(rng, LAST));
    let profile = [
        format!("{}.{}@mail.test", first.to_lowercase(), last.to_lowercase()),
        format!("+1 555 {:04}", rng.below(10_000)),
        pick(rng, CITIES).to_string(),
    ];
    let mut topics: Vec<&str> = TOPICS.to_vec();
    rng.shuffle(&mut topics);
    let topics: Vec<(String, bool)> = topics[..config.topics]
        .iter()
        .map(|t| (t.to_string(), rng.chance(0.5)))
        .collect();
    let mut pool = CATEGORIES.to_vec();
    rng.shuffle(&mut pool);
    let (offered, missing) = pool.split_at(OFFERED_CATEGORIES);
    let order = |rng: &mut Rng| format!("A-{}", rng.range_i64(10_000, 99_999));
    let tickets: Vec<Ticket> = (0..config.tickets)
        .map(|_| Ticket {
            category: pick(rng, offered).into(),
            order: order(rng),
            message: pick(rng, MESSAGES).into(),
        })
        .collect();
    let mut lines = LINES.to_vec();
    rng.shuffle(&mut lines);
    let days: Vec<i64> = (0..config.articles)
        .map(|_| 14 + 7 * rng.range_i64(0, 10))
        .collect();
    let mut articles: Vec<Article> = (0..config.articles)
        .map(|i| Article {
            title: format!("Returns: {} range", lines[i]),
            body: format!("Items from our {} range can be returned within {} days of delivery, in their original packaging.", lines[i], days[i]),
        })
        .collect();
    articles.push(Article {
        title: "Shipping times".into(),
        body: "Standard delivery takes 3 to 5 working days.".into(),
    });
    let initial = Backend {
        profile,
        topics,
        tickets,
    };
    let mut expected = initial.clone();
    let infeasible = rng.chance(config.infeasible_share);
    let kind = if infeasible {
        10 + rng.below(2)
    } else {
        rng.below(4)
    };
    let (instruction, errand, answer) = match kind {
        0 => {
            let phone = format!("+1 555 {:04}", rng.below(10_000));
            let city = loop {
                let c = pick(rng, CITIES);
                if c != expected.profile[2] {
                    break c.to_string();
                }
            };
            expected.profile[1] = phone.clone();
            expected.profile[2] = city.clone();
            (
                format!(
                    "Change your phone number to {phone} and your city to {city} in your profile. Then answer `done`."
                ),
                Errand::Profile,
                "done".to_string(),
            )
        }
        1 => {
            let n = expected.topics.len();
            let a = rng.below(n as u64) as usize;
            let b = (a + 1 + rng.below(n as u64 - 1) as usize) % n;
            for i in [a, b] {
                expected.topics[i].1 = !expected.topics[i].1;
            }
            let describe = |t: &(String, bool)| {
                if t.1 {
                    format!("subscribe to \"{}\"", t.0)
                } else {
                    format!("unsubscribe from \"{}\"", t.0)
                }
            };
            let (da, db) = (describe(&expected.topics[a]), describe(&expected.topics[b]));
            // The count (not `done`) keeps lucky clicking on a short list
            // of topics from passing.
            let subscribed = expected.topics.iter().filter(|t| t.1).count();
            (
                format!(
                    "In your newsletter settings, {da} and {db}, leaving the other topics as they are, and save. \
                     Then answer with the number of topics you are subscribed to afterwards."
                ),
                Errand::Topics,
                subscribed.to_string(),
            )
        }
        2 => {
            let ticket = Ticket {
                category: pick(rng, offered).into(),
                order: order(rng),
                message: pick(rng, MESSAGES).into(),
            };
            let text = ticket_errand(&ticket);
            expected.tickets.push(ticket);
            (text, Errand::Ticket, "done".to_string())
        }
        3 => {
            let i = rng.below(config.articles as u64) as usize;
            (
                lookup_errand(lines[i]),
                Errand::Lookup(i),
                days[i].to_string(),
            )
        }
        10 => (
            ticket_errand(&Ticket {
                category: pick(rng, missing).into(),
                order: order(rng),
                message: pick(rng, MESSAGES).into(),
            }),
            Errand::MissingCategory,
            infeasible_answer(&offered.join(", ")),
        ),
        _ => {
            let mut covered = lines[..config.articles].to_vec();
            covered.sort_unstable();
            (
                lookup_errand(lines[config.articles]),
                Errand::MissingArticle,
                infeasible_answer(&covered.join(", ")),
            )
        }
    };
    SiteNavTask {
        instruction,
        name: format!("{first} {last}"),
        initial,
        expected,
        articles,
        categories: offered.iter().map(|c| c.to_string()).collect(),
        errand,
        answer,
        salt: rng.next_u64(),
    }
}

/// A ticket errand's text, the same whether the form offers its category
/// or not (so the text does not tell which).
fn ticket_errand(ticket: &Ticket) -> String {
    format!(
        "Open a support ticket in the category \"{}\" for order {} with the message \"{}\". Then answer `done`. \
         If the ticket form does not offer that category, answer `infeasible: CATEGORIES` listing the categories it offers, in its order, separated by commas.",
        ticket.category, ticket.order, ticket.message
    )
}

/// A look-up errand's text, the same whether the help center has the
/// article or not.
fn lookup_errand(line: &str) -> String {
    format!(
        "According to the help center, within how many days can items from the {line} range be returned? Answer with the number. \
         If the help center has no returns article for that range, answer `infeasible: RANGES` listing the ranges that have one, alphabetically, separated by commas."
    )
}
