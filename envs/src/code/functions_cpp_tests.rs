use super::*;
use crate::code::families::{FAMILIES, build_task};
use crate::core::{Env, Score};

fn episode(task: &FnTask, answer: &str) -> Score {
    let mut env = FunctionsCpp::reset(task, Rng::from_seed(0));
    env.apply(0, answer.to_string()).unwrap();
    env.score(0)
}

fn task_of(family: &str, level: u8, seed: u64) -> FnTask {
    let family = FAMILIES.iter().find(|f| f.name == family).unwrap();
    build_task(family, level, 3, 15, &mut Rng::from_seed(seed))
}

/// The list family's pointer and length become one vector; integer families keep the C
/// prototype, and every body is the C body.
#[test]
fn cpp_prototypes_and_references() {
    let task = task_of("search_window", 2, 3);
    let c = task.c.as_ref().unwrap();
    let (proto, reference) = cpp_part(c);
    assert_eq!(
        proto,
        "int64_t count_window(const std::vector<int64_t> &xs, int64_t target)"
    );
    assert!(reference.starts_with(&format!("{proto} {{\n    const size_t n = xs.size();\n")));
    assert!(reference.ends_with(c.reference.split_once(" {\n").unwrap().1));
    for family in FAMILIES
        .iter()
        .filter(|f| f.has_c && f.name != "search_window")
    {
        let task = build_task(family, 2, 3, 15, &mut Rng::from_seed(4));
        let c = task.c.as_ref().unwrap();
        assert_eq!(cpp_part(c), (c.prototype.clone(), c.reference.clone()));
    }
    let prompt = FunctionsCppQuestion::prompt(&task);
    assert!(
        prompt.contains(&proto) && prompt.contains("```cpp"),
        "{prompt}"
    );
}

/// The body of a reference, for answers written around it in other styles.
fn body(task: &FnTask) -> String {
    let reference = FunctionsCppQuestion::reference(task);
    reference.split_once(" {\n").unwrap().1.to_string()
}

/// References pass at every level; answers in the styles models write pass; a C pointer
/// signature, a Python answer, constants, empty, echoed and hedged answers and harness
/// escapes fail. Skipped (with a message) without clang++ and libc++.
#[test]
fn cpp_answers_in_model_styles_pass_and_fakes_fail() {
    if let Err(why) = cpp_runtime() {
        eprintln!("skipping C++ checks: {why}");
        let task = FunctionsCpp::generate(&FunctionsConfig::default(), &mut Rng::from_seed(1));
        assert_eq!(episode(&task, "int x;").breakdown["sandbox_error"], 1.0);
        return;
    }
    let mut rng = Rng::from_seed(9);
    for family in FAMILIES.iter().filter(|f| f.has_c) {
        for level in 1..=3 {
            let task = build_task(family, level, 3, 15, &mut rng);
            let oracle = FunctionsCpp::reset(&task, Rng::from_seed(0))
                .oracle(0)
                .unwrap();
            let score = episode(&task, &oracle);
            assert!(
                score.passed,
                "{} level {level}: {score:?}\n{oracle}",
                family.name
            );
        }
    }
    let task = task_of("search_window", 2, 5);
    let proto = prototype(&task);
    let body = body(&task);
    let styles = [
        format!(
            "<think>\nThe list is sorted, so I could use binary search, but a linear scan is \
             simpler and fast enough. Let me check the edges: both ends are inclusive.\n</think>\n\
             Here is my solution:\n\n```cpp\n#include <bits/stdc++.h>\nusing namespace std;\n\n\
             {proto} {{\n{body}\n```\n\nIt counts the elements inside the window."
        ),
        format!("```c++\n#include <vector>\n#include <cstdint>\n{proto} {{\n{body}```"),
        format!("{proto} {{\n{body}"),
        format!(
            "First a draft:\n```cpp\nint64_t count_window() {{ return 0; }}\n```\nOn \
             reflection that ignores the input. Final answer:\n```cpp\n{proto} {{\n{body}```"
        ),
    ];
    for reply in &styles {
        assert!(episode(&task, reply).passed, "{reply}");
    }
    let c = task.c.as_ref().unwrap();
    let wrong = [
        String::new(),
        "7".to_string(),
        format!("```cpp\n{proto} {{ return 0; }}\n```"),
        format!("```cpp\n{proto} {{ return (int64_t)xs.size(); }}\n```"),
        // The C form is another overload; the declared function stays undefined.
        format!("```c\n{}```", c.reference),
        "```python\ndef count_window(xs, target):\n    return sum(1 for v in xs)\n```".to_string(),
        FunctionsCppQuestion::prompt(&task),
        format!("```cpp\n#include <cstdlib>\n{proto} {{ std::exit(0); }}\n```"),
        format!("```cpp\n{proto} {{ for (;;) {{}} }}\n```"),
        // A hedge: the right function, then a wrong one; the last block is judged.
        format!("```cpp\n{proto} {{\n{body}```\nor\n```cpp\n{proto} {{ return 1; }}\n```"),
    ];
    for reply in &wrong {
        let score = episode(&task, reply);
        assert!(!score.passed && score.reward == 0.0, "{reply}: {score:?}");
    }
}
