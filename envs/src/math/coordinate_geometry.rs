//! `math/coordinate-geometry-v1`: distances, midpoints, areas and intersections in the plane.
//!
//! # Task
//! One question about integer points and lines: the midpoint of a segment
//! (a pair), the distance between two points (an exact surd such as
//! `3\sqrt{5}`), the area of a convex polygon given by its vertices in order
//! (shoelace, an exact rational), the intersection point of two lines given
//! as equations (a pair of rationals), or the distance from a point to a
//! line (an exact surd, rationalised).
//!
//! # Action
//! One free-text answer whose last `\boxed{}` holds a number, an exact surd,
//! or a pair `(x, y)` (read by [`crate::single_turn`] and the math verifier).
//!
//! # Observation
//! The points or lines and the answer format.
//!
//! # Reward
//! 1 and `passed` when the boxed value equals the exact answer (surds
//! compared by the verifier's high-precision evaluation; a pair in order),
//! else 0. Rounded decimals fail, and a distance must be a rational times
//! one square root of a number (`\sqrt{45}` passes, the distance formula
//! written out does not). Breakdown: `correct`, `format`.
//!
//! # Episode end
//! After the one answer.
//!
//! # Parameters
//! `kinds` (non-empty subset of `midpoint`, `distance`, `area`,
//! `intersection`, `point_line`), `max_coord` (3–50, coordinates and
//! coefficients in size), `max_vertices` (3–8, the polygon's vertices).
//!
//! # Seeding
//! Answers 0, ±1, 2, the origin and answers written in the question are
//! redrawn; polygons are convex hulls of random points, redrawn until the
//! hull has at least the drawn vertex count, then thinned to it.
//!
//! # Version history
//! v1: first version.

use num_rational::BigRational;
use num_traits::Signed;
use serde::{Deserialize, Serialize};

use super::forms::Form;
use super::latex::{int, latex_rational, nonzero, rat};
use super::question::{Family, MathEnv, MathTask};
use crate::core::{EnvKind, EnvSpec, Preset};
use crate::error::ConfigError;
use crate::rng::Rng;

const KINDS: [&str; 5] = ["midpoint", "distance", "area", "intersection", "point_line"];

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct CoordinateGeometryConfig {
    pub kinds: Vec<String>,
    pub max_coord: i64,
    pub max_vertices: usize,
}

impl Default for CoordinateGeometryConfig {
    fn default() -> Self {
        CoordinateGeometryConfig {
            kinds: KINDS.iter().map(|k| k.to_string()).collect(),
            max_coord: 10,
            max_vertices: 4,
        }
    }
}

pub struct CoordinateGeometryFamily;
pub type CoordinateGeometry = MathEnv<CoordinateGeometryFamily>;

type Point = (i64, i64);

/// `n = k^2 m` with `m` square-free: `(k, m)`.
pub fn split_square(n: i64) -> (i64, i64) {
    let (mut k, mut m) = (1, n);
    let mut f = 2;
    while f * f <= m {
        while m % (f * f) == 0 {
            m /= f * f;
            k *= f;
        }
        f += 1;
    }
    (k, m)
}

/// `q \sqrt{m}` in LaTeX for a positive rational `q` and square-free `m`.
pub fn latex_surd(q: &BigRational, m: i64) -> String {
    if m == 1 {
        return latex_rational(q);
    }
    let root = format!("\\sqrt{{{m}}}");
    let numer = q.numer().abs();
    let top = if numer == 1.into() {
        root
    } else {
        format!("{numer}{root}")
    };
    if q.is_integer() {
        top
    } else {
        format!("\\frac{{{top}}}{{{}}}", q.denom())
    }
}

/// `|(a, b)(c, d)|` as `(q, m)`: the distance is `q \sqrt{m}`.
pub fn distance(p: Point, q: Point) -> (BigRational, i64) {
    let (k, m) = split_square((p.0 - q.0).pow(2) + (p.1 - q.1).pow(2));
    (int(k), m)
}

/// Twice the signed area (shoelace).
pub fn twice_area(poly: &[Point]) -> i64 {
    (0..poly.len())
        .map(|i| {
            let (a, b) = (poly[i], poly[(i + 1) % poly.len()]);
            a.0 * b.1 - b.0 * a.1
        })
        .sum()
}

/// The convex hull, counter-clockwise, without collinear points (monotone chain).
pub fn hull(points: &[Point]) -> Vec<Point> {
    let mut pts = points.to_vec();
    pts.sort();
    pts.dedup();
    if pts.len() < 3 {
        return pts;
    }
    let cross =
        |o: Point, a: Point, b: Point| (a.0 - o.0) * (b.1 - o.1) - (a.1 - o.1) * (b.0 - o.0);
    let mut out: Vec<Point> = Vec::new();
    for pass in 0..2 {
        let start = out.len();
        let iter: Box<dyn Iterator<Item = &Point>> = if pass == 0 {
            Box::new(pts.iter())
        } else {
            Box::new(pts.iter().rev())
        };
        for &p in iter {
            while out.len() >= start + 2 && cross(out[out.len() - 2], out[out.len() - 1], p) <= 0 {
                out.pop();
            }
            out.push(p);
        }
        out.pop();
    }
    out
}

/// The intersection of `a1 x + b1 y = c1` and `a2 x + b2 y = c2` (Cramer), if unique.
pub fn intersect(l1: [i64; 3], l2: [i64; 3]) -> Option<(BigRational, BigRational)> {
    let det = l1[0] * l2[1] - l1[1] * l2[0];
    if det == 0 {
        return None;
    }
    Some((
        rat(l1[2] * l2[1] - l1[1] * l2[2], det),
        rat(l1[0] * l2[2] - l1[2] * l2[0], det),
    ))
}

/// The distance from `p` to `a x + b y = c` as `(q, m)`: `q \sqrt{m}`.
pub fn point_line(p: Point, l: [i64; 3]) -> (BigRational, i64) {
    let n = (l[0] * p.0 + l[1] * p.1 - l[2]).abs();
    let (k, m) = split_square(l[0] * l[0] + l[1] * l[1]);
    // n / (k sqrt m) = n sqrt(m) / (k m).
    (rat(n, k * m), m)
}

fn point(p: Point) -> String {
    format!("({}, {})", p.0, p.1)
}

fn pair(x: &BigRational, y: &BigRational) -> String {
    format!(
        "\\left({}, {}\\right)",
        latex_rational(x),
        latex_rational(y)
    )
}

/// `3x - 2y = 7`.
fn line(l: [i64; 3]) -> String {
    let mut s = super::latex::latex_poly_i(&[0, l[0]], "x");
    if l[0] == 0 {
        s = super::latex::latex_poly_i(&[0, l[1]], "y");
    } else if l[1] != 0 {
        let y = super::latex::latex_poly_i(&[0, l[1].abs()], "y");
        s = format!("{s} {} {y}", if l[1] < 0 { "-" } else { "+" });
    }
    format!("{s} = {}", l[2])
}

fn random_point(rng: &mut Rng, k: i64) -> Point {
    (rng.range_i64(-k, k), rng.range_i64(-k, k))
}

fn random_line(rng: &mut Rng, k: i64) -> [i64; 3] {
    let a = rng.range_i64(-k.min(9), k.min(9));
    let b = if a == 0 {
        nonzero(rng, k.min(9))
    } else {
        rng.range_i64(-k.min(9), k.min(9))
    };
    [a, b, rng.range_i64(-k, k)]
}

/// `(question, answer, form)` of one kind.
fn draw_kind(
    kind: &str,
    config: &CoordinateGeometryConfig,
    rng: &mut Rng,
) -> Option<(String, String, Form)> {
    let k = config.max_coord;
    Some(match kind {
        "midpoint" => {
            let (p, q) = (random_point(rng, k), random_point(rng, k));
            if p == q {
                return None;
            }
            let (x, y) = (rat(p.0 + q.0, 2), rat(p.1 + q.1, 2));
            (
                format!(
                    "Find the midpoint of the segment from ${}$ to ${}$. Give it as a pair $(x, y)$.",
                    point(p),
                    point(q)
                ),
                pair(&x, &y),
                Form::Tuple,
            )
        }
        "distance" => {
            let (p, q) = (random_point(rng, k), random_point(rng, k));
            if p == q {
                return None;
            }
            let (c, m) = distance(p, q);
            (
                format!(
                    "Find the distance between the points ${}$ and ${}$. Give the exact value, with any square root simplified.",
                    point(p),
                    point(q)
                ),
                latex_surd(&c, m),
                Form::Surd,
            )
        }
        "area" => {
            let n = rng.range_usize(3, config.max_vertices);
            let points: Vec<Point> = (0..3 * n).map(|_| random_point(rng, k)).collect();
            let mut poly = hull(&points);
            if poly.len() < n {
                return None;
            }
            // Points in strictly convex position stay so when some are dropped.
            while poly.len() > n {
                poly.remove(rng.range_usize(0, poly.len() - 1));
            }
            // Start at a random vertex; the order stays counter-clockwise.
            poly.rotate_left(rng.range_usize(0, n - 1));
            let list: Vec<String> = poly.iter().map(|&p| point(p)).collect();
            let shape = match n {
                3 => "triangle".to_string(),
                4 => "quadrilateral".to_string(),
                _ => format!("convex polygon with {n} vertices"),
            };
            (
                format!(
                    "Find the area of the {shape} with vertices ${}$, in this order. Give an integer or a fraction.",
                    list.join("$, $")
                ),
                latex_rational(&rat(twice_area(&poly).abs(), 2)),
                Form::Number,
            )
        }
        "intersection" => {
            let (l1, l2) = (random_line(rng, k), random_line(rng, k));
            let (x, y) = intersect(l1, l2)?;
            (
                format!(
                    "Find the point where the lines ${}$ and ${}$ intersect. Give it as a pair $(x, y)$.",
                    line(l1),
                    line(l2)
                ),
                pair(&x, &y),
                Form::Tuple,
            )
        }
        _ => {
            let (p, l) = (random_point(rng, k), random_line(rng, k));
            let (c, m) = point_line(p, l);
            (
                format!(
                    "Find the distance from the point ${}$ to the line ${}$. Give the exact value, with any square root simplified and the denominator rationalised.",
                    point(p),
                    line(l)
                ),
                latex_surd(&c, m),
                Form::Surd,
            )
        }
    })
}

impl Family for CoordinateGeometryFamily {
    type Config = CoordinateGeometryConfig;

    const SPEC: EnvSpec = EnvSpec {
        id: "math/coordinate-geometry-v1",
        kind: EnvKind::SingleTurn,
        description: "Midpoints, distances (exact surds), polygon areas, line intersections and point-line distances in the plane; answer an exact number or pair",
        players: 1,
        max_steps: 1,
        reward_range: (0.0, 1.0),
        zero_sum: false,
        fixed_start: false,
        presets: &Preset::graded(Self::LEVELS, [1, 3, 5]),
    };

    /// Difficulty levels, easiest first: midpoints and distances of small
    /// points, then intersections and triangle areas, then all kinds (the
    /// default), then larger coordinates and polygons with more vertices.
    const LEVELS: &'static [&'static str] = &[
        r#"{"kinds":["midpoint","distance"],"max_coord":5,"max_vertices":3}"#,
        r#"{"kinds":["midpoint","distance","intersection"],"max_coord":6,"max_vertices":3}"#,
        r#"{"kinds":["distance","intersection","area"],"max_coord":9,"max_vertices":3}"#,
        "{}",
        r#"{"kinds":["area","intersection","point_line"],"max_coord":15,"max_vertices":5}"#,
        r#"{"kinds":["area","intersection","point_line"],"max_coord":25,"max_vertices":6}"#,
        r#"{"kinds":["area","point_line"],"max_coord":50,"max_vertices":8}"#,
    ];

    /// The method's weight (1 midpoint, 2 distance or area, 3 intersection
    /// or point-line distance) times the digits in the question's math.
    fn effort(task: &MathTask) -> Option<f64> {
        let q = &task.question;
        let weight = if q.contains("midpoint") {
            1.0
        } else if q.contains("intersect") || q.contains("to the line") {
            3.0
        } else {
            2.0
        };
        let digits: usize = super::effort::math_spans(q)
            .iter()
            .map(|s| s.chars().filter(char::is_ascii_digit).count())
            .sum();
        Some(weight * digits as f64)
    }

    fn validate(config: &CoordinateGeometryConfig) -> Result<(), ConfigError> {
        if config.kinds.is_empty() || config.kinds.iter().any(|k| !KINDS.contains(&k.as_str())) {
            return Err("kinds must be a non-empty subset of midpoint, distance, area, intersection, point_line".into());
        }
        if !(3..=50).contains(&config.max_coord) {
            return Err("max_coord must be in 3..=50".into());
        }
        if !(3..=8).contains(&config.max_vertices) {
            return Err("max_vertices must be in 3..=8".into());
        }
        Ok(())
    }

    fn draw(config: &CoordinateGeometryConfig, rng: &mut Rng) -> Option<MathTask> {
        let kind = rng.choose(&config.kinds)?.clone();
        let (question, answer, form) = draw_kind(&kind, config, rng)?;
        if answer == "\\left(0, 0\\right)" {
            return None;
        }
        Some(MathTask {
            question,
            answer,
            form,
        })
    }
}

#[cfg(test)]
#[path = "coordinate_geometry_tests.rs"]
mod tests;
