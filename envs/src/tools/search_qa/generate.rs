//! Candidate tasks of `tools/search-qa`: a corpus and a question over it
//! (the env screens them).

use std::collections::BTreeSet;

use super::task::{Doc, SearchQaConfig, SearchQaTask, gold_calls};
use crate::rng::Rng;
use crate::toolkit::final_answer::infeasible_answer;

const SYLLABLES: &[&str] = &[
    "va", "ro", "ssa", "quel", "lin", "tor", "mer", "ka", "zu", "bel", "den", "ost", "ra", "fen",
    "lo", "mi", "dra", "sel", "ny", "ar", "gus", "tha", "vel", "cor", "pri", "um", "ste", "an",
    "lek", "wy",
];
const SUFFIXES: &[&str] = &[
    "Labs", "Works", "Dynamics", "Systems", "Foods", "Textiles", "Freight",
];
const INDUSTRIES: &[&str] = &[
    "robotics", "shipping", "textile", "software", "food", "mining", "optics",
];
const PROFESSIONS: &[&str] = &[
    "engineer",
    "chemist",
    "architect",
    "economist",
    "designer",
    "pilot",
];
const KNOWN_FOR: &[&str] = &[
    "bridges",
    "spice markets",
    "glassworks",
    "observatory",
    "harbour",
    "old library",
];

struct Names<'a> {
    rng: &'a mut Rng,
    used: BTreeSet<String>,
}

impl Names<'_> {
    fn word(&mut self) -> String {
        loop {
            let n = self.rng.range_usize(2, 3);
            let w: String = (0..n)
                .map(|_| SYLLABLES[self.rng.below(SYLLABLES.len() as u64) as usize])
                .collect();
            let mut chars = w.chars();
            let first = chars
                .next()
                .expect("syllables are non-empty")
                .to_ascii_uppercase();
            let name = format!("{first}{}", chars.as_str());
            if self.used.insert(name.to_lowercase()) {
                return name;
            }
        }
    }
}

struct Person {
    first: String,
    last: String,
    city: Option<usize>,
    born: i64,
    profession: &'static str,
    founded: Option<usize>,
}

impl Person {
    fn name(&self) -> String {
        format!("{} {}", self.first, self.last)
    }
}

struct Company {
    name: String,
    founder: usize,
    year: i64,
    hq: usize,
    industry: &'static str,
}

struct Corpus {
    cities: Vec<(String, String, &'static str)>,
    people: Vec<Person>,
    companies: Vec<Company>,
}

fn pick<T: Copy>(rng: &mut Rng, items: &[T]) -> T {
    items[rng.below(items.len() as u64) as usize]
}

fn draw_corpus(config: &SearchQaConfig, rng: &mut Rng) -> (Corpus, Vec<String>) {
    let mut fork = rng.fork(7);
    let mut names = Names {
        rng: &mut fork,
        used: BTreeSet::new(),
    };
    let n = config.companies;
    let cities: Vec<(String, String, &'static str)> = (0..2 * n)
        .map(|_| (names.word(), names.word(), ""))
        .collect();
    let mut people = Vec::new();
    let mut companies = Vec::new();
    for c in 0..n {
        let founder = Person {
            first: names.word(),
            last: names.word(),
            city: Some(names.rng.below(cities.len() as u64) as usize),
            born: names.rng.range_i64(1900, 1990),
            profession: pick(names.rng, PROFESSIONS),
            founded: Some(c),
        };
        let born = founder.born;
        let city = founder.city.expect("set above");
        // Distractors: namesakes born elsewhere.
        let (first, last) = (founder.first.clone(), founder.last.clone());
        people.push(founder);
        for (f, l) in [(first, names.word()), (names.word(), last)] {
            let mut other = (names.rng.below(cities.len() as u64) as usize, 0);
            other.1 = names.rng.range_i64(1900, 1990);
            people.push(Person {
                first: f,
                last: l,
                city: Some(other.0),
                born: other.1,
                profession: pick(names.rng, PROFESSIONS),
                founded: None,
            });
        }
        let hq = loop {
            let h = names.rng.below(cities.len() as u64) as usize;
            if h != city {
                break h;
            }
        };
        let name = format!("{} {}", names.word(), pick(names.rng, SUFFIXES));
        companies.push(Company {
            name,
            founder: people.len() - 3,
            year: born + names.rng.range_i64(22, 45),
            hq,
            industry: pick(names.rng, INDUSTRIES),
        });
    }
    let cities = cities
        .into_iter()
        .map(|(c, r, _)| (c, r, pick(names.rng, KNOWN_FOR)))
        .collect();
    let spare = (0..4).map(|_| names.word()).collect();
    (
        Corpus {
            cities,
            people,
            companies,
        },
        spare,
    )
}

fn documents(
    corpus: &Corpus,
    unknown_birthplace: Option<usize>,
    rng: &mut Rng,
) -> Vec<(String, String)> {
    let mut docs = Vec::new();
    for (city, river, known) in &corpus.cities {
        docs.push((
            city.clone(),
            format!("{city} is a city on the {river} river, known for its {known}."),
        ));
    }
    for (i, p) in corpus.people.iter().enumerate() {
        let mut text = if unknown_birthplace == Some(i) {
            format!(
                "{} is a {} born in {}. Nothing is on record about where {} was born.",
                p.name(),
                p.profession,
                p.born,
                p.first
            )
        } else {
            let city = &corpus.cities[p.city.expect("people have cities")].0;
            format!(
                "{} is a {} born in {city} in {}.",
                p.name(),
                p.profession,
                p.born
            )
        };
        if let Some(c) = p.founded {
            text.push_str(&format!(
                " {} founded {}.",
                p.last, corpus.companies[c].name
            ));
        }
        docs.push((p.name(), text));
    }
    for c in &corpus.companies {
        docs.push((
            c.name.clone(),
            format!(
                "{} is a {} company founded in {} by {}. Its headquarters are in {}.",
                c.name,
                c.industry,
                c.year,
                corpus.people[c.founder].name(),
                corpus.cities[c.hq].0
            ),
        ));
    }
    rng.shuffle(&mut docs);
    docs
}

pub(super) fn draw(config: &SearchQaConfig, rng: &mut Rng) -> SearchQaTask {
    let (corpus, _spare) = draw_corpus(config, rng);
    let target = rng.below(corpus.companies.len() as u64) as usize;
    let company = &corpus.companies[target];
    let founder = &corpus.people[company.founder];
    let infeasible = rng.chance(config.infeasible_share);
    // Infeasible questions follow a real chain to a founder whose birthplace
    // is not on record; the founder is the evidence (a question about a
    // company not in the corpus would have none only searching can give).
    let kind = if infeasible {
        11
    } else {
        rng.below(if config.hops == 3 { 3 } else { 2 })
    };
    let unknown = (kind == 11).then_some(company.founder);
    let raw = documents(&corpus, unknown, rng);
    let docs: Vec<Doc> = raw
        .into_iter()
        .enumerate()
        .map(|(i, (title, text))| Doc {
            id: format!("D{}", i + 1),
            title,
            text,
        })
        .collect();
    let id_of = |title: &str| {
        docs.iter()
            .find(|d| d.title == title)
            .map(|d| d.id.clone())
            .unwrap_or_default()
    };
    let city = founder
        .city
        .map(|c| corpus.cities[c].clone())
        .expect("founders have cities");
    let (founder_name, company_name) = (founder.name(), company.name.clone());
    let (question, steps, answer): (String, Vec<(String, String)>, String) = match kind {
        0 => (
            format!(
                "In which city was the founder of {company_name} born? Answer with the city's name only."
            ),
            vec![
                (company_name.clone(), id_of(&company_name)),
                (founder_name.clone(), id_of(&founder_name)),
            ],
            city.0.clone(),
        ),
        1 => (
            format!(
                "In what year was the company founded by {founder_name} established? Answer with the year only."
            ),
            vec![
                (founder_name.clone(), id_of(&founder_name)),
                (company_name.clone(), id_of(&company_name)),
            ],
            company.year.to_string(),
        ),
        2 => (
            format!(
                "On which river lies the city where the founder of {company_name} was born? Answer with the river's name only."
            ),
            vec![
                (company_name.clone(), id_of(&company_name)),
                (founder_name.clone(), id_of(&founder_name)),
                (city.0.clone(), id_of(&city.0)),
            ],
            city.1.clone(),
        ),
        _ => (
            format!(
                "In which city was the founder of {company_name} born? Answer with the city's name only."
            ),
            vec![
                (company_name.clone(), id_of(&company_name)),
                (founder_name.clone(), id_of(&founder_name)),
            ],
            infeasible_answer(&founder_name),
        ),
    };
    let steps_ref: Vec<(&str, &str)> = steps
        .iter()
        .map(|(q, d)| (q.as_str(), d.as_str()))
        .collect();
    SearchQaTask {
        question,
        gold: gold_calls(&steps_ref, &answer),
        docs,
        answer,
        feasible: !infeasible,
    }
}
