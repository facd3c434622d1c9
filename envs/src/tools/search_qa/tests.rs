use super::*;
use crate::toolkit::calls::call_text;
use crate::toolkit::screen::run_script;
use crate::toolkit::testkit;

fn tiny() -> SearchQaTask {
    let doc = |id: &str, title: &str, text: &str| Doc {
        id: id.into(),
        title: title.into(),
        text: text.into(),
    };
    SearchQaTask {
        question: "In which city was the founder of Velmo Labs born?".into(),
        docs: vec![
            doc(
                "D1",
                "Velmo Labs",
                "Velmo Labs is a optics company founded in 1970 by Ada Kor. Its headquarters are in Ostra.",
            ),
            doc(
                "D2",
                "Ada Kor",
                "Ada Kor is a pilot born in Fenwy in 1940. Kor founded Velmo Labs.",
            ),
            doc(
                "D3",
                "Ada Miel",
                "Ada Miel is a chemist born in Ostra in 1951.",
            ),
            doc(
                "D4",
                "Fenwy",
                "Fenwy is a city on the Drast river, known for its harbour.",
            ),
        ],
        answer: "Fenwy".into(),
        feasible: true,
        gold: Vec::new(),
    }
}

#[test]
fn search_and_open_read_exactly() {
    let mut env = SearchQa::reset(&tiny(), Rng::from_seed(0));
    let call = env.parse_action(0, "search \"Ada Kor\"").unwrap();
    env.apply(0, call).unwrap();
    assert_eq!(
        env.log.last_result().unwrap(),
        "D2 | Ada Kor | Ada Kor is a pilot born in Fenwy in 1940. Kor founded Velmo Labs.…\n\
         D1 | Velmo Labs | Velmo Labs is a optics company founded in 1970 by Ada Kor. Its headquarters are …\n\
         D3 | Ada Miel | Ada Miel is a chemist born in Ostra in 1951.…"
    );
    let call = env.parse_action(0, "open D4").unwrap();
    env.apply(0, call).unwrap();
    assert_eq!(
        env.log.last_result().unwrap(),
        "Fenwy\nFenwy is a city on the Drast river, known for its harbour."
    );
}

#[test]
fn only_the_exact_answer_passes() {
    let answer = |a: &str| call_text("answer", json!({"answer": a}));
    for (given, passes) in [
        ("Fenwy", true),
        ("fenwy.", true),
        ("Ostra", false),
        ("Fenwy or Ostra", false),
        ("infeasible", false),
        ("", false),
    ] {
        assert_eq!(
            run_script::<SearchQa>(&tiny(), [answer(given)]).0.passed,
            passes,
            "{given:?}"
        );
    }
}

#[test]
fn corpora_hold_namesakes_and_questions_are_mixed() {
    let mut rng = Rng::from_seed(2);
    let config = SearchQaConfig {
        hops: 3,
        infeasible_share: 0.3,
        ..SearchQaConfig::default()
    };
    let mut answers_infeasible = 0;
    for _ in 0..60 {
        let task = SearchQa::generate(&config, &mut rng);
        assert_eq!(task.docs.len(), 8 * 2 + 8 * 3 + 8);
        let firsts: Vec<&str> = task
            .docs
            .iter()
            .filter(|d| d.text.contains(" born "))
            .map(|d| d.title.split(' ').next().unwrap())
            .collect();
        assert!(
            firsts
                .iter()
                .any(|f| firsts.iter().filter(|g| *g == f).count() >= 2)
        );
        let verdict = crate::toolkit::final_answer::infeasible_evidence(&task.answer);
        answers_infeasible += usize::from(verdict.is_some());
        assert_eq!(task.feasible, verdict.is_none());
        if let Some(founder) = verdict {
            // The evidence is a person of the corpus, never named in the question.
            assert!(task.docs.iter().any(|d| d.title == founder), "{founder}");
            assert!(!task.question.contains(founder));
        }
    }
    assert!(
        (8..=30).contains(&answers_infeasible),
        "{answers_infeasible}"
    );
}

#[test]
fn acceptance_easy_and_hard() {
    testkit::assert_acceptance::<SearchQa>(
        SearchQaConfig {
            companies: 4,
            hops: 2,
            ..SearchQaConfig::default()
        },
        true,
    );
    testkit::assert_acceptance::<SearchQa>(
        SearchQaConfig {
            companies: 25,
            hops: 3,
            ..SearchQaConfig::default()
        },
        true,
    );
}

testkit::format_tests!(SearchQa, SearchQaConfig::default());

#[test]
fn replaying_logged_actions_rescores_the_same() {
    testkit::assert_replay_rescores::<SearchQa>(SearchQaConfig::default());
}

#[test]
fn infeasible_verdicts_need_their_evidence() {
    testkit::assert_infeasible_needs_evidence::<SearchQa>(SearchQaConfig {
        infeasible_share: 0.5,
        ..SearchQaConfig::default()
    });
}
