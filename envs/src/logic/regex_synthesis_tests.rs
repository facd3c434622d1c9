use std::collections::BTreeSet;

use super::*;
use crate::single_turn::testing::{cross_reference_rate, passes, standard_answers};

fn config(level: usize) -> RegexSynthesisConfig {
    serde_json::from_str(RegexSynthesis::LEVELS[level]).unwrap()
}

/// Independent: the set of words of at most `max` letters an expression
/// denotes, by set semantics.
fn language(ast: &Ast, max: usize) -> BTreeSet<Vec<u8>> {
    let concat = |a: &BTreeSet<Vec<u8>>, b: &BTreeSet<Vec<u8>>| -> BTreeSet<Vec<u8>> {
        a.iter()
            .flat_map(|x| b.iter().map(move |y| [x.clone(), y.clone()].concat()))
            .filter(|w| w.len() <= max)
            .collect()
    };
    match ast {
        Ast::Set(mask) => (0..3u8)
            .filter(|i| mask >> i & 1 == 1)
            .map(|i| vec![i])
            .collect(),
        Ast::Concat(a, b) => concat(&language(a, max), &language(b, max)),
        Ast::Alt(a, b) => language(a, max).union(&language(b, max)).cloned().collect(),
        Ast::Opt(a) => {
            let mut l = language(a, max);
            l.insert(Vec::new());
            l
        }
        Ast::Star(a) | Ast::Plus(a) => {
            let base = language(a, max);
            let mut all = base.clone();
            loop {
                let more: BTreeSet<Vec<u8>> = concat(&all, &base).union(&all).cloned().collect();
                if more.len() == all.len() {
                    break;
                }
                all = more;
            }
            if matches!(ast, Ast::Star(_)) {
                all.insert(Vec::new());
            }
            all
        }
    }
}

fn words(alphabet: u8, max: usize) -> Vec<Vec<u8>> {
    let mut all = vec![Vec::new()];
    let mut last = vec![Vec::new()];
    for _ in 0..max {
        last = last
            .iter()
            .flat_map(|w: &Vec<u8>| (0..alphabet).map(move |l| [w.clone(), vec![l]].concat()))
            .collect();
        all.extend(last.clone());
    }
    all
}

#[test]
fn reference_passes_and_degenerate_answers_fail() {
    for level in [0, 3, 6] {
        standard_answers::<RegexSynthesis>(&config(level), 20);
    }
}

#[test]
fn the_nfa_agrees_with_set_semantics_and_rendering_round_trips() {
    let mut rng = Rng::from_seed(6);
    let all = words(3, 5);
    for _ in 0..300 {
        let size = rng.range_usize(1, 6);
        let ast = draw_ast(size, 3, &mut rng);
        let lang = language(&ast, 5);
        let nfa = Nfa::new(&ast);
        let reread = Nfa::new(&parse(&ast.render(), 3).unwrap());
        for w in &all {
            assert_eq!(nfa.matches(w), lang.contains(w), "{} {w:?}", ast.render());
            assert_eq!(
                reread.matches(w),
                lang.contains(w),
                "{} {w:?}",
                ast.render()
            );
        }
    }
    for (text, yes, no) in [
        ("(xy)*", vec!["", "xy", "xyxy"], vec!["x", "xyx", "yx"]),
        (
            "x|y+z?",
            vec!["x", "y", "yyy", "yyz"],
            vec!["xy", "z", "yzz"],
        ),
        ("[xz]+y?", vec!["x", "zx", "xzy"], vec!["y", "xyz"]),
        ("(x*)*", vec!["", "xxx"], vec!["y"]),
    ] {
        let nfa = Nfa::new(&parse(text, 3).unwrap());
        for w in yes {
            assert!(nfa.matches(&letters(w)), "{text} {w}");
        }
        for w in no {
            assert!(!nfa.matches(&letters(w)), "{text} {w}");
        }
    }
    for bad in ["", "(x", "x)", "[]", "[xy", "x||y", "|x", "*x", "(|x)", "w"] {
        assert!(parse(bad, 3).is_err(), "{bad:?}");
    }
}

#[test]
fn any_short_consistent_expression_passes() {
    let task = RegexSynthesisTask {
        alphabet: 2,
        positives: ["xy", "xxy", "xxxy", "y"].map(String::from).to_vec(),
        negatives: ["x", "yx", "xyy", "yy"].map(String::from).to_vec(),
        limit: 5,
        hidden: "x*y".into(),
    };
    for good in [
        "x*y", "x*y.", "^x*y$", "/x*y/", "x * y", "(x)*y", "x*[y]", "x*y|y",
    ] {
        assert!(passes::<RegexSynthesis>(&task, good), "{good}");
    }
    for bad in ["x+y", "[xy]*", "y", "x*y+", "xy|xxy|xxxy|y", "x*y|yy"] {
        assert!(!passes::<RegexSynthesis>(&task, bad), "{bad}");
    }
    for unreadable in ["x*z", "x.*y", "x*y or y", "(x*y", "x{2}y", "\\w"] {
        assert!(
            matches!(
                RegexSynthesis::check(&task, unreadable),
                Err(CheckError::Unreadable(_))
            ),
            "{unreadable}"
        );
    }
    // A 1 MB answer is refused at once, without parsing.
    assert!(!RegexSynthesis::check(&task, &"(".repeat(1 << 20)).unwrap());
}

#[test]
fn listing_the_positives_never_fits_the_bound() {
    for level in [0, 3, 6] {
        for i in 0..30 {
            let task = RegexSynthesis::generate(&config(level), &mut Rng::from_seed(i));
            let listing = task.positives.join("|");
            assert!(listing.len() > task.limit);
            assert!(!RegexSynthesis::check(&task, &listing).unwrap());
        }
    }
}

#[test]
fn another_tasks_reference_never_passes() {
    for level in [0, 3] {
        let rate = cross_reference_rate::<RegexSynthesis>(&config(level), 500);
        assert!(rate < 0.01, "{level}: {rate}");
    }
}
