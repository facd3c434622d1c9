use super::*;
use crate::math::question::check;
use crate::math::testing;
use num_traits::ToPrimitive;

#[test]
fn references_verify_and_do_not_transfer() {
    for preset in CoordinateGeometryFamily::SPEC.presets {
        let config: CoordinateGeometryConfig = serde_json::from_str(preset.overrides).unwrap();
        let tasks = testing::references_hold::<CoordinateGeometryFamily>(&config, 600);
        testing::attacks_fail::<CoordinateGeometryFamily>(&tasks[0]);
    }
}

#[test]
fn exact_answers_match_floating_point() {
    let mut rng = Rng::from_seed(2);
    for _ in 0..500 {
        let (p, q) = (random_point(&mut rng, 20), random_point(&mut rng, 20));
        let (c, m) = distance(p, q);
        let exact = c.to_f64().unwrap() * (m as f64).sqrt();
        let float = (((p.0 - q.0).pow(2) + (p.1 - q.1).pow(2)) as f64).sqrt();
        assert!((exact - float).abs() < 1e-9);
        let l = random_line(&mut rng, 20);
        let (c, m) = point_line(p, l);
        let exact = c.to_f64().unwrap() * (m as f64).sqrt();
        let float = (l[0] * p.0 + l[1] * p.1 - l[2]).abs() as f64
            / ((l[0] * l[0] + l[1] * l[1]) as f64).sqrt();
        assert!((exact - float).abs() < 1e-9);
        let l2 = random_line(&mut rng, 20);
        if let Some((x, y)) = intersect(l, l2) {
            for m in [l, l2] {
                assert_eq!(int(m[0]) * &x + int(m[1]) * &y, int(m[2]));
            }
        }
    }
}

#[test]
fn hull_areas_match_a_lattice_count() {
    // Pick's theorem: A = I + B/2 - 1, with I and B counted point by point.
    let mut rng = Rng::from_seed(9);
    for _ in 0..100 {
        let points: Vec<Point> = (0..8).map(|_| random_point(&mut rng, 6)).collect();
        let poly = hull(&points);
        if poly.len() < 3 {
            continue;
        }
        assert!(twice_area(&poly) > 0, "counter-clockwise");
        let n = poly.len();
        let edge = |i: usize| (poly[i], poly[(i + 1) % n]);
        let (mut inside, mut boundary) = (0i64, 0i64);
        for x in -6..=6 {
            for y in -6..=6 {
                let crosses: Vec<i64> = (0..n)
                    .map(|i| {
                        let (a, b) = edge(i);
                        (b.0 - a.0) * (y - a.1) - (b.1 - a.1) * (x - a.0)
                    })
                    .collect();
                if crosses.iter().all(|&c| c > 0) {
                    inside += 1;
                } else if crosses.iter().all(|&c| c >= 0) {
                    boundary += 1;
                }
            }
        }
        assert_eq!(twice_area(&poly), 2 * inside + boundary - 2, "{poly:?}");
    }
}

#[test]
fn only_the_exact_answer_passes() {
    let (c, m) = distance((1, 2), (4, 8));
    assert_eq!(latex_surd(&c, m), "3\\sqrt{5}");
    let task = MathTask {
        question: "Find the distance between the points $(1, 2)$ and $(4, 8)$.".into(),
        answer: latex_surd(&c, m),
        form: Form::Surd,
    };
    for good in ["\\boxed{3\\sqrt{5}}", "\\boxed{\\sqrt{45}}"] {
        assert!(check(&task, good).0, "{good}");
    }
    for bad in [
        "\\boxed{6.708203932}",
        "\\boxed{5\\sqrt{3}}",
        "\\boxed{3\\sqrt{5}} \\boxed{45}",
        // The distance formula written out is the question, not its answer.
        "\\boxed{\\sqrt{(4-1)^2 + (8-2)^2}}",
        "\\boxed{\\sqrt{3^2 + 6^2}}",
    ] {
        assert!(!check(&task, bad).0, "{bad}");
    }
    let (c, m) = point_line((1, 1), [1, 2, 0]);
    assert_eq!(latex_surd(&c, m), "\\frac{3\\sqrt{5}}{5}");
    let (x, y) = intersect([1, 1, 3], [1, -1, 0]).unwrap();
    let task = MathTask {
        question: "Find the point where the lines $x + y = 3$ and $x - y = 0$ intersect.".into(),
        answer: pair(&x, &y),
        form: Form::Tuple,
    };
    for good in [
        "\\boxed{(\\frac{3}{2}, \\frac{3}{2})}",
        "\\boxed{(1.5, 1.5)}",
    ] {
        assert!(check(&task, good).0, "{good}");
    }
    for bad in [
        "\\boxed{\\frac{3}{2}}",
        "\\boxed{(1.5, 1)}",
        "\\boxed{(3, 3)}",
    ] {
        assert!(!check(&task, bad).0, "{bad}");
    }
}
