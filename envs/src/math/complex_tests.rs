use super::*;
use crate::math::question::check;
use crate::math::testing;

#[test]
fn references_verify_and_do_not_transfer() {
    for preset in ComplexFamily::SPEC.presets {
        let config: ComplexConfig = serde_json::from_str(preset.overrides).unwrap();
        let tasks = testing::references_hold::<ComplexFamily>(&config, 1000);
        for kind in ["modulus", "^{", "\\frac", ")("] {
            let task = tasks.iter().find(|t| t.question.contains(kind)).unwrap();
            testing::attacks_fail::<ComplexFamily>(task);
        }
    }
}

#[test]
fn the_text_rule_refuses_what_the_full_check_refuses() {
    testing::canonical_answers_agree::<ComplexFamily>(400);
}

#[test]
fn arithmetic_is_exact() {
    let z = Cx::int(3, 2);
    let w = Cx::int(1, -4);
    assert_eq!(latex_cx(&z.mul(&w)), "11 - 10i");
    assert_eq!(z.div(&w).mul(&w), z);
    assert_eq!(latex_cx(&Cx::int(1, 1).pow(4)), "-4");
    assert_eq!(latex_cx(&Cx::int(1, 1).pow(2)), "2i");
    assert_eq!(
        latex_cx(&Cx::int(1, 2).div(&Cx::int(3, 4))),
        "\\frac{11}{25} + \\frac{2}{25}i"
    );
    assert_eq!(split_square(72), (6, 2));
    assert_eq!(latex_sqrt(&Cx::int(3, 4).norm()).unwrap(), "5");
    assert_eq!(latex_sqrt(&Cx::int(2, 4).norm()).unwrap(), "2\\sqrt{5}");
    // |(1+2i)/(1+3i)| = sqrt(5/10) = sqrt(2)/2
    let q = Cx::int(1, 2).div(&Cx::int(1, 3)).norm();
    assert_eq!(latex_sqrt(&q).unwrap(), "\\frac{\\sqrt{2}}{2}");
    // powers agree with repeated multiplication by the binomial theorem's values
    let mut rng = Rng::from_seed(4);
    for _ in 0..200 {
        let z = Cx::int(rng.range_i64(-9, 9), rng.range_i64(-9, 9));
        let n = rng.range_i64(0, 8) as u32;
        let norm = z.norm();
        let expected = (0..n).fold(Q::one(), |acc, _| acc * norm);
        assert_eq!(z.pow(n).norm(), expected);
    }
}

#[test]
fn every_exact_spelling_passes_and_unworked_forms_fail() {
    let task = MathTask {
        question: "Compute $\\frac{1 + 2i}{3 + 4i}$.".into(),
        answer: "\\frac{11}{25} + \\frac{2}{25}i".into(),
        form: Form::Complex,
    };
    for good in [
        "\\boxed{\\frac{11}{25} + \\frac{2}{25}i}",
        "\\boxed{\\frac{11 + 2i}{25}}",
        "\\boxed{\\frac{2}{25}i + \\frac{11}{25}}",
        "\\boxed{\\frac{11}{25}+\\frac{2i}{25}}",
    ] {
        assert!(check(&task, good).0, "{good}");
    }
    for bad in [
        "\\boxed{\\frac{11}{25} - \\frac{2}{25}i}",
        "\\boxed{\\frac{1 + 2i}{3 + 4i}}",
        "\\boxed{\\frac{(1 + 2i)(3 - 4i)}{25}}",
        "\\boxed{\\frac{11}{25}}",
        "\\boxed{\\frac{11}{25} + \\frac{2}{25}i} \\boxed{1}",
    ] {
        assert!(!check(&task, bad).0, "{bad}");
    }
    let task = MathTask {
        question: "Compute $|z|$ of $z = (1 + 2i)(1 + 3i)$.".into(),
        answer: "5\\sqrt{2}".into(),
        form: Form::Surd,
    };
    for good in [
        "\\boxed{5\\sqrt{2}}",
        "\\boxed{\\sqrt{50}}",
        "\\boxed{\\frac{10}{\\sqrt{2}}}",
    ] {
        let (ok, form) = check(&task, good);
        assert!(ok || good.contains("frac") && !form, "{good}");
    }
    for bad in [
        "\\boxed{|(1 + 2i)(1 + 3i)|}",
        "\\boxed{\\sqrt{5}\\sqrt{10}}",
        "\\boxed{7.0710678}",
        "\\boxed{50}",
    ] {
        assert!(!check(&task, bad).0, "{bad}");
    }
}
