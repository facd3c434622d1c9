//! `tools/search-qa-v2`: multi-hop questions over a generated corpus about
//! fictional entities, with a BM25 search tool and an open-document tool.
//!
//! # Task
//! A corpus of short documents about fictional companies, people and cities
//! (with distractors: people sharing a first or last name with the one
//! asked about, headquarters cities that are not birthplaces) and one
//! question that needs two or three hops: the city where a company's
//! founder was born, the river of that city, or the founding year of the
//! company a person founded. A fixed share (`infeasible_share`) asks about a
//! founder whose birthplace is not on record: those pass only with the
//! verdict `infeasible: NAME` naming the last entity the documents lead to
//! (the founder), which only following the chain reveals.
//!
//! # Action
//! Tool calls in any format of [`crate::toolkit::parse`]: `search`
//! (BM25, top 5 with id, title and snippet), `open` (a document by id),
//! `answer`. Unparseable calls and bad arguments are
//! [`crate::InvalidAction`]s; an unknown document id is an error result.
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
//! The question, the tools, how to call, and the latest calls with results.
//! Structured: `task`, `tools` (OpenAI function schemas), `history`,
//! `answered`.
//!
//! # Reward
//! 1 and `passed` only for the exact answer (case and a final full stop
//! aside; numbers by value). Breakdown: `correct`. The `random` baseline
//! answers with random numbers; a guesser that names a random city of the
//! corpus would be right about one time in `companies * 2`.
//!
//! # Episode end
//! The `answer` call (terminated); the step cap truncates (score 0).
//!
//! # Parameters
//! `companies` (3..=40), `hops` (2 or 3: 3 adds river questions),
//! `infeasible_share` (0..=0.5).
//!
//! # Seeding
//! Names are built from syllables by the task rng and are unique within a
//! corpus; documents are shuffled. Each candidate is screened: the oracle
//! passes through the agent's path, every search it makes ranks the
//! document it opens next in the top 5, and constant answers fail.
//!
//! # Version history
//! v1: first version.
//! v2: infeasible verdicts name where the chain breaks (a bare `infeasible`
//! passed every infeasible task); no questions about absent companies.

use std::sync::LazyLock;

use serde_json::{Value, json};

use crate::core::{
    Env, EnvKind, EnvSpec, InvalidAction, Observation, Player, Preset, Score, Superseded, Turn,
    Upgrade,
};
use crate::error::ConfigError;
use crate::refusals::refuse_constant_verdict;
use crate::rng::Rng;
use crate::toolkit::bm25;
use crate::toolkit::calls::{Calls, ToolCall, random_format};
use crate::toolkit::final_answer::answers_match;
use crate::toolkit::parse::{parse_call, parse_calls};
use crate::toolkit::screen::{MAX_ATTEMPTS, screen, tool_effort};
use crate::toolkit::spec::{Param, ParamType, ToolSpec, answer_tool, openai_specs};
use crate::toolkit::tool_env::{
    CallCount, Log, ToolEnv, answer_observation, apply_calls, turn_until,
};

mod generate;
mod task;
#[cfg(test)]
mod tests;

pub use task::{Doc, SearchQaConfig, SearchQaTask};

/// Results per search.
const TOP_K: usize = 5;
const SNIPPET_CHARS: usize = 80;

#[derive(Clone, Debug)]
pub struct SearchQa {
    task: SearchQaTask,
    /// Built on the first search: scripts that never search never pay.
    index: std::sync::OnceLock<bm25::Index>,
    log: Log,
    count: CallCount,
    answered: Option<String>,
}

pub static TOOLS: LazyLock<Vec<ToolSpec>> = LazyLock::new(|| {
    vec![
        ToolSpec::new(
            "search",
            "BM25 search over the documents: the top 5 as id | title | snippet",
            vec![Param::required("query", ParamType::String, "keywords")],
        ),
        ToolSpec::new(
            "open",
            "the full text of a document",
            vec![Param::required("doc_id", ParamType::String, "id like D12")],
        ),
        answer_tool(
            "finish with the answer, or `infeasible: NAME` if the documents cannot answer it",
        ),
    ]
});

/// The tools in OpenAI function format.
pub fn tool_specs() -> Value {
    openai_specs(&TOOLS)
}

impl SearchQa {
    fn index(&self) -> &bm25::Index {
        self.index
            .get_or_init(|| bm25::Index::new(self.task.docs.iter().map(|d| d.text.as_str())))
    }

    fn run(&mut self, call: &ToolCall) -> String {
        match call.name.as_str() {
            "search" => {
                let hits = self.index().search(call.str("query"), TOP_K);
                if hits.is_empty() {
                    return "(no results)".into();
                }
                hits.iter()
                    .map(|(i, _)| {
                        let d = &self.task.docs[*i];
                        let snippet: String = d.text.chars().take(SNIPPET_CHARS).collect();
                        format!("{} | {} | {snippet}…", d.id, d.title)
                    })
                    .collect::<Vec<_>>()
                    .join("\n")
            }
            "open" => {
                let id = call
                    .str("doc_id")
                    .trim()
                    .trim_matches(|c| c == '[' || c == ']');
                match self
                    .task
                    .docs
                    .iter()
                    .find(|d| d.id.eq_ignore_ascii_case(id))
                {
                    Some(d) => format!("{}\n{}", d.title, d.text),
                    None => format!("error: no document {id}"),
                }
            }
            _ => {
                self.answered = Some(call.str("answer").to_string());
                "answer recorded".into()
            }
        }
    }
}

impl ToolEnv for SearchQa {
    fn tools(&self) -> &[ToolSpec] {
        &TOOLS
    }

    fn feasible(task: &SearchQaTask) -> bool {
        task.feasible
    }

    fn run_call(&mut self, call: ToolCall) -> String {
        let result = self.run(&call);
        self.log.record(&call, result)
    }

    fn call_count(&mut self) -> &mut CallCount {
        &mut self.count
    }
}

impl Env for SearchQa {
    type Config = SearchQaConfig;
    type Task = SearchQaTask;
    type Action = Calls;

    // v1's feasible tasks read as v2's (a task carries its expected answer);
    // its infeasible ones took a bare `infeasible`.
    const SUPERSEDED: &'static [Superseded] = &[Superseded {
        version: 1,
        upgrade: Upgrade::Map(|card| refuse_constant_verdict(card.task["feasible"] == false)),
    }];
    const SPEC: EnvSpec = EnvSpec {
        id: "tools/search-qa-v2",
        kind: EnvKind::MultiTurn,
        description: "Multi-hop questions over a generated corpus with BM25 search and document tools; typed answer",
        players: 1,
        max_steps: 24,
        reward_range: (0.0, 1.0),
        zero_sum: false,
        fixed_start: false,
        presets: &Preset::graded(Self::LEVELS, [0, 1, 4]),
    };

    /// Five levels; `easy`, `medium` and `hard` are among them.
    const LEVELS: &'static [&'static str] = &[
        r#"{"companies":4,"hops":2}"#,
        r#"{}"#,
        r#"{"companies":14,"hops":2}"#,
        r#"{"companies":18,"hops":3}"#,
        r#"{"companies":25,"hops":3}"#,
    ];

    fn effort(task: &SearchQaTask) -> Option<f64> {
        tool_effort::<Self>(task.docs.len(), task)
    }

    fn validate(config: &SearchQaConfig) -> Result<(), ConfigError> {
        if !(3..=40).contains(&config.companies) {
            return Err(format!("companies must be in 3..=40, got {}", config.companies).into());
        }
        if !(2..=3).contains(&config.hops) {
            return Err(format!("hops must be 2 or 3, got {}", config.hops).into());
        }
        if !(0.0..=0.5).contains(&config.infeasible_share) {
            return Err("infeasible_share must be in 0..=0.5".into());
        }
        Ok(())
    }

    fn generate(config: &SearchQaConfig, rng: &mut Rng) -> SearchQaTask {
        let mut fallback = None;
        for _ in 0..MAX_ATTEMPTS {
            let task = generate::draw(config, rng);
            if searches_find_their_documents(&task) && screen::<SearchQa>(&task, &[]) {
                return task;
            }
            fallback = Some(task);
        }
        fallback.expect("some candidate is drawn within the attempts")
    }

    fn reference(task: &SearchQaTask) -> Option<Value> {
        Some(json!(task.answer))
    }

    fn reset(task: &SearchQaTask, _rng: Rng) -> Self {
        SearchQa {
            index: std::sync::OnceLock::new(),
            task: task.clone(),
            log: Log::default(),
            count: CallCount::default(),
            answered: None,
        }
    }

    fn turn(&self) -> Turn {
        turn_until(self.answered.is_some() || self.count.spent(Self::SPEC.max_steps))
    }

    fn observe(&self, _player: Player) -> Observation {
        answer_observation(
            &format!(
                "Answer the question using only the document collection ({} documents).\nQuestion: {}\n\
                 If the documents cannot answer it, answer `infeasible: NAME` with the name of the last person, company or city they lead you to.",
                self.task.docs.len(),
                self.task.question
            ),
            &self.task.question,
            &TOOLS,
            &self.log,
            self.answered.as_deref(),
        )
    }

    fn parse_action(&self, _player: Player, text: &str) -> Result<Calls, InvalidAction> {
        parse_calls(text, &TOOLS)
    }

    fn apply(&mut self, _player: Player, calls: Calls) -> Result<Vec<String>, InvalidAction> {
        Ok(apply_calls(self, calls))
    }

    fn score(&self, _player: Player) -> Score {
        Score::binary(
            self.answered
                .as_deref()
                .is_some_and(|a| answers_match(a, &self.task.answer)),
        )
    }

    /// The reference calls in order (assumes it made every earlier call).
    fn oracle(&self, _player: Player) -> Option<String> {
        self.log.next_gold(&self.task.gold)
    }

    fn random_action(&self, _player: Player, rng: &mut Rng) -> String {
        let doc = &self.task.docs[rng.below(self.task.docs.len() as u64) as usize];
        let words: Vec<&str> = doc.text.split_whitespace().collect();
        let call = match rng.below(3) {
            0 => ToolCall::new(
                "search",
                json!({"query": words[rng.below(words.len() as u64) as usize]}),
            ),
            1 => ToolCall::new("open", json!({"doc_id": doc.id})),
            _ => ToolCall::new(
                "answer",
                json!({"answer": rng.range_i64(0, 100_000).to_string()}),
            ),
        };
        random_format(&call, &TOOLS, rng)
    }

    fn render(&self) -> String {
        format!(
            "docs={} calls={} answered={:?} expected={:?}",
            self.task.docs.len(),
            self.log.entries.len(),
            self.answered,
            self.task.answer
        )
    }
}

/// Every search of the reference path ranks the document it opens next in
/// the top results.
fn searches_find_their_documents(task: &SearchQaTask) -> bool {
    let env = SearchQa::reset(task, Rng::from_seed(0));
    task.gold.windows(2).all(|pair| {
        let (Ok(search), Ok(open)) = (parse_call(&pair[0], &TOOLS), parse_call(&pair[1], &TOOLS))
        else {
            return true;
        };
        if search.name != "search" || open.name != "open" {
            return true;
        }
        env.index()
            .search(search.str("query"), TOP_K)
            .iter()
            .any(|(i, _)| task.docs[*i].id == open.str("doc_id"))
    })
}
