//! The math layouts: rows with a question and a gold answer, read with each data set's
//! own field names and conventions.
//!
//! | layout | question | gold answer | kept |
//! |---|---|---|---|
//! | `gsm8k` | `question` | `answer`'s final `#### N` line (thousands separators dropped) | |
//! | `math` | `problem` | `answer` if present, else the last `\boxed{}` (or `\fbox{}`) of `solution` | `level` (as difficulty 1–5), `type` |
//! | `deepmath` | `question` | `final_answer` | `difficulty`, `topic` |
//! | `verl` | the last user message of `prompt` (a trailing "output the final answer after ####" instruction dropped) | `reward_model.ground_truth` | `data_source`, `ability` |
//! | `generic` | `prompt` | `answer` | |
//! | `multiple-choice` | `question` (or `prompt`) | `answer`/`answerKey`/`label`: a letter, or an index into the choices | `choices`: a list of texts, or `{"text": [...], "label": [...]}` (ARC) |

use serde_json::{Value, json};
use verigym_envs::math::dataset::{MathRow, letter};

use crate::report::DropReason;
use crate::row::{field, opt_str, req_str};

fn row(question: String, answer: String) -> MathRow {
    MathRow {
        question,
        answer,
        choices: Vec::new(),
        difficulty: None,
        metadata: Value::Null,
        source: None,
    }
}

/// `1,234` → `1234` (commas between digit groups only), `$5` → `5`.
pub fn plain_number(text: &str) -> String {
    let t = text.trim().trim_start_matches('$').trim_end_matches('.');
    let bytes: Vec<char> = t.chars().collect();
    let mut out = String::new();
    for (i, &c) in bytes.iter().enumerate() {
        let grouping = c == ','
            && i > 0
            && bytes[i - 1].is_ascii_digit()
            && bytes.len() >= i + 4
            && bytes[i + 1..i + 4].iter().all(char::is_ascii_digit)
            && bytes.get(i + 4).is_none_or(|c| !c.is_ascii_digit());
        if !grouping {
            out.push(c);
        }
    }
    out.trim().to_string()
}

pub fn gsm8k(r: &Value) -> Result<MathRow, DropReason> {
    let question = req_str(r, "question")?;
    let answer = req_str(r, "answer")?;
    let final_line = answer
        .rsplit_once("####")
        .map(|(_, a)| a)
        .ok_or_else(|| DropReason::BadField("answer".into(), "no final `#### N` line".into()))?;
    let gold = plain_number(final_line);
    if gold.is_empty() {
        return Err(DropReason::BadField(
            "answer".into(),
            "empty after ####".into(),
        ));
    }
    Ok(row(question, gold))
}

/// The content of the last `\boxed{…}` / `\fbox{…}` (balanced braces) or `\boxed N`.
pub fn last_boxed(text: &str) -> Option<String> {
    let (at, tag) = ["\\boxed", "\\fbox"]
        .iter()
        .filter_map(|t| text.rfind(t).map(|i| (i, *t)))
        .max_by_key(|(i, _)| *i)?;
    let rest = &text[at + tag.len()..];
    if let Some(inner) = rest.strip_prefix('{') {
        let mut depth = 1usize;
        for (i, c) in inner.char_indices() {
            match c {
                '{' => depth += 1,
                '}' => {
                    depth -= 1;
                    if depth == 0 {
                        return Some(inner[..i].trim().to_string());
                    }
                }
                _ => {}
            }
        }
        return None;
    }
    // `\boxed 5` (MATH writes a few answers this way).
    let word = rest.strip_prefix(' ')?.split(['$', ' ', '\n']).next()?;
    (!word.is_empty()).then(|| word.to_string())
}

pub fn math(r: &Value) -> Result<MathRow, DropReason> {
    let question = req_str(r, "problem")?;
    let gold = match opt_str(r, "answer") {
        Some(answer) => answer,
        None => {
            let solution = req_str(r, "solution")?;
            last_boxed(&solution).ok_or_else(|| {
                DropReason::BadField("solution".into(), "no \\boxed{} answer".into())
            })?
        }
    };
    let mut m = row(question, gold);
    let level = opt_str(r, "level");
    m.difficulty = level
        .as_deref()
        .and_then(|l| l.trim_start_matches("Level").trim().parse::<f64>().ok());
    m.metadata = json!({ "level": level, "type": opt_str(r, "type") });
    Ok(m)
}

pub fn deepmath(r: &Value) -> Result<MathRow, DropReason> {
    let mut m = row(req_str(r, "question")?, req_str(r, "final_answer")?);
    m.difficulty = field(r, "difficulty").and_then(Value::as_f64);
    m.metadata = json!({ "topic": opt_str(r, "topic") });
    Ok(m)
}

/// Instructions verl's preprocess scripts append to the question; the env states its own.
const VERL_SUFFIXES: [&str; 2] = [
    "Let's think step by step and output the final answer after \"####\".",
    "Let's think step by step and output the final answer within \\boxed{}.",
];

pub fn verl(r: &Value) -> Result<MathRow, DropReason> {
    let messages = field(r, "prompt")
        .and_then(Value::as_array)
        .ok_or_else(|| DropReason::MissingField("prompt".into()))?;
    let user = messages
        .iter()
        .rev()
        .find(|m| m.get("role").and_then(Value::as_str) == Some("user"))
        .and_then(|m| m.get("content").and_then(Value::as_str))
        .ok_or_else(|| DropReason::BadField("prompt".into(), "no user message".into()))?;
    let mut question = user.trim().to_string();
    for suffix in VERL_SUFFIXES {
        if let Some(stripped) = question.strip_suffix(suffix) {
            question = stripped.trim_end().to_string();
        }
    }
    let truth = field(r, "reward_model")
        .and_then(|rm| rm.get("ground_truth"))
        .ok_or_else(|| DropReason::MissingField("reward_model.ground_truth".into()))?;
    let gold = match truth {
        Value::String(s) => s.clone(),
        Value::Number(n) => n.to_string(),
        _ => {
            return Err(DropReason::BadField(
                "reward_model.ground_truth".into(),
                "not a string or number".into(),
            ));
        }
    };
    let mut m = row(question, plain_number(&gold));
    m.metadata =
        json!({ "data_source": opt_str(r, "data_source"), "ability": opt_str(r, "ability") });
    Ok(m)
}

pub fn generic(r: &Value) -> Result<MathRow, DropReason> {
    let answer = match field(r, "answer") {
        Some(Value::Number(n)) => n.to_string(),
        _ => req_str(r, "answer")?,
    };
    Ok(row(req_str(r, "prompt")?, answer))
}

pub fn multiple_choice(r: &Value) -> Result<MathRow, DropReason> {
    let question = req_str(r, "question").or_else(|_| req_str(r, "prompt"))?;
    let choices: Vec<String> = match field(r, "choices").or_else(|| field(r, "options")) {
        Some(Value::Array(items)) => items.iter().map(text_of).collect(),
        Some(Value::Object(map)) => map
            .get("text")
            .and_then(Value::as_array)
            .map(|items| items.iter().map(text_of).collect())
            .unwrap_or_default(),
        _ => return Err(DropReason::MissingField("choices".into())),
    };
    if choices.len() < 2 || choices.len() > 26 {
        return Err(DropReason::BadField(
            "choices".into(),
            format!("{} choices; need 2 to 26", choices.len()),
        ));
    }
    let labels: Option<Vec<String>> = field(r, "choices")
        .and_then(|c| c.get("label"))
        .and_then(Value::as_array)
        .map(|l| l.iter().map(text_of).collect());
    let answer = ["answer", "answerKey", "label"]
        .iter()
        .find_map(|k| field(r, k))
        .ok_or_else(|| DropReason::MissingField("answer".into()))?;
    let index = match answer {
        Value::Number(n) => n.as_u64().map(|i| i as usize),
        Value::String(s) => {
            let s = s.trim();
            match (&labels, s.parse::<usize>()) {
                (Some(labels), _) => labels.iter().position(|l| l == s),
                (None, Ok(i)) => Some(i),
                (None, Err(_)) => {
                    let mut chars = s.chars();
                    match (chars.next(), chars.next()) {
                        (Some(c), None) if c.is_ascii_alphabetic() => {
                            Some((c.to_ascii_uppercase() as u8 - b'A') as usize)
                        }
                        _ => None,
                    }
                }
            }
        }
        _ => None,
    }
    .filter(|&i| i < choices.len())
    .ok_or_else(|| DropReason::BadField("answer".into(), format!("{answer} names no choice")))?;
    let mut m = row(question, letter(index).to_string());
    m.choices = choices;
    Ok(m)
}

fn text_of(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gold_answers_are_read_by_each_convention() {
        assert_eq!(plain_number(" 1,234 "), "1234");
        assert_eq!(plain_number("$18"), "18");
        assert_eq!(plain_number("1,2"), "1,2");
        assert_eq!(
            last_boxed("so $\\boxed{\\frac{1}{2}}$. Also \\boxed{x^{2}}").unwrap(),
            "x^{2}"
        );
        assert_eq!(last_boxed("\\boxed 5$").unwrap(), "5");
        assert_eq!(last_boxed("\\fbox{3}").unwrap(), "3");
        assert_eq!(last_boxed("none"), None);
        let g = gsm8k(&json!({"question": "q", "answer": "a\nb\n#### 1,500"})).unwrap();
        assert_eq!(g.answer, "1500");
        assert!(gsm8k(&json!({"question": "q", "answer": "no marker"})).is_err());
        let m = math(&json!({"problem": "p", "solution": "so \\boxed{7}", "level": "Level 4", "type": "Algebra"})).unwrap();
        assert_eq!((m.answer.as_str(), m.difficulty), ("7", Some(4.0)));
        let v = verl(&json!({"prompt": [{"role": "user", "content": "What? Let's think step by step and output the final answer after \"####\"."}], "reward_model": {"ground_truth": "72", "style": "rule"}})).unwrap();
        assert_eq!((v.question.as_str(), v.answer.as_str()), ("What?", "72"));
        let mc =
            multiple_choice(&json!({"question": "q", "choices": ["a", "b", "c"], "answer": 2}))
                .unwrap();
        assert_eq!(mc.answer, "C");
        let arc = multiple_choice(&json!({"question": "q", "choices": {"text": ["x", "y"], "label": ["1", "2"]}, "answerKey": "2"})).unwrap();
        assert_eq!(arc.answer, "B");
        assert!(
            multiple_choice(&json!({"question": "q", "choices": ["a", "b"], "answer": "E"}))
                .is_err()
        );
    }
}
