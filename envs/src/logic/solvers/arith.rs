//! Exact small-rational search for countdown-style puzzles: combine numbers
//! pairwise with `+ - * /` until one value is left.

/// A rational `num/den` in lowest terms with `den > 0`, on checked `i64`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Frac {
    pub num: i64,
    pub den: i64,
}

fn gcd(mut a: i64, mut b: i64) -> i64 {
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a.abs()
}

impl Frac {
    pub fn int(n: i64) -> Self {
        Frac { num: n, den: 1 }
    }

    fn new(num: i64, den: i64) -> Option<Self> {
        if den == 0 {
            return None;
        }
        let g = gcd(num, den).max(1);
        let sign = if den < 0 { -1 } else { 1 };
        Some(Frac {
            num: sign * num / g,
            den: sign * den / g,
        })
    }

    /// `self op other`, or `None` on division by zero or overflow.
    pub fn apply(self, op: char, other: Frac) -> Option<Frac> {
        let (a, b, c, d) = (self.num, self.den, other.num, other.den);
        match op {
            '+' => Frac::new(
                a.checked_mul(d)?.checked_add(c.checked_mul(b)?)?,
                b.checked_mul(d)?,
            ),
            '-' => Frac::new(
                a.checked_mul(d)?.checked_sub(c.checked_mul(b)?)?,
                b.checked_mul(d)?,
            ),
            '*' => Frac::new(a.checked_mul(c)?, b.checked_mul(d)?),
            _ => Frac::new(a.checked_mul(d)?, b.checked_mul(c)?),
        }
    }
}

/// An expression using every number once that equals `target`, if any:
/// depth-first over pairs to combine (at most 6 numbers). The search works
/// on values only and records its choices; the text is rebuilt once.
pub fn find_expression(numbers: &[i64], target: i64) -> Option<String> {
    let mut unbounded = u64::MAX;
    find_expression_within(numbers, target, &mut unbounded)
        .expect("an unbounded search always finishes")
}

/// [`find_expression`] that spends at most `*budget` search nodes (and
/// takes them off `budget`), so a generator can bound its total work: a
/// failing search of 6 numbers visits millions. `Err(())` when the budget
/// ran out first; within the budget the answer is the unbounded one.
///
/// # Errors
/// The budget ran out before the search finished.
#[allow(clippy::result_unit_err)]
pub fn find_expression_within(
    numbers: &[i64],
    target: i64,
    budget: &mut u64,
) -> Result<Option<String>, ()> {
    assert!(numbers.len() <= 6, "search is exponential in the count");
    let mut values: Vec<Frac> = numbers.iter().map(|&n| Frac::int(n)).collect();
    let mut path = Vec::with_capacity(numbers.len());
    if !search(&mut values, Frac::int(target), &mut path, budget)? {
        return Ok(None);
    }
    let mut texts: Vec<String> = numbers.iter().map(i64::to_string).collect();
    for &(i, j, op) in &path {
        let text = format!("{} {op} {}", wrap(&texts[i]), wrap(&texts[j]));
        combine(&mut texts, i, j, text);
    }
    Ok(texts.pop())
}

/// Replaces items `i` and `j` by `merged` (at the end); returns the removed
/// pair so [`split`] can undo it.
fn combine<T>(items: &mut Vec<T>, i: usize, j: usize, merged: T) -> (T, T) {
    let (hi, lo) = (i.max(j), i.min(j));
    let removed_hi = items.swap_remove(hi);
    let removed_lo = items.swap_remove(lo);
    items.push(merged);
    (removed_hi, removed_lo)
}

/// Undoes [`combine`].
fn split<T>(items: &mut Vec<T>, i: usize, j: usize, (removed_hi, removed_lo): (T, T)) {
    let (hi, lo) = (i.max(j), i.min(j));
    items.pop();
    items.push(removed_lo);
    let last = items.len() - 1;
    items.swap(lo, last);
    items.push(removed_hi);
    let last = items.len() - 1;
    items.swap(hi, last);
}

/// `Err(())` once `budget` nodes are spent (the values are restored).
fn search(
    values: &mut Vec<Frac>,
    target: Frac,
    path: &mut Vec<(usize, usize, char)>,
    budget: &mut u64,
) -> Result<bool, ()> {
    if *budget == 0 {
        return Err(());
    }
    *budget -= 1;
    if values.len() == 1 {
        return Ok(values[0] == target);
    }
    for i in 0..values.len() {
        for j in 0..values.len() {
            if i == j {
                continue;
            }
            for op in ['+', '-', '*', '/'] {
                // + and * commute: try each unordered pair once.
                if (op == '+' || op == '*') && j < i {
                    continue;
                }
                let Some(value) = values[i].apply(op, values[j]) else {
                    continue;
                };
                let removed = combine(values, i, j, value);
                path.push((i, j, op));
                let found = search(values, target, path, budget);
                if found != Ok(true) {
                    path.pop();
                }
                split(values, i, j, removed);
                if found != Ok(false) {
                    return found;
                }
            }
        }
    }
    Ok(false)
}

/// Parenthesises compound sub-expressions.
pub fn wrap(text: &str) -> String {
    if text.contains(' ') {
        format!("({text})")
    } else {
        text.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use verigym_verifiers::countdown::check_countdown;

    #[test]
    fn finds_known_24_solutions_and_reports_impossible_ones() {
        for numbers in [[4, 4, 10, 10], [1, 5, 5, 5], [3, 3, 8, 8], [1, 2, 3, 4]] {
            let expr = find_expression(&numbers, 24).unwrap_or_else(|| panic!("{numbers:?}"));
            let as_u64: Vec<u64> = numbers.iter().map(|&n| n as u64).collect();
            assert_eq!(check_countdown(&expr, &as_u64, 24), Ok(true), "{expr}");
        }
        assert_eq!(find_expression(&[1, 1, 1, 1], 24), None);
        assert_eq!(find_expression(&[1, 1, 1, 2], 24), None);
    }

    #[test]
    fn the_item_list_is_restored_after_search() {
        let mut items: Vec<Frac> = [3, 5, 7].iter().map(|&n| Frac::int(n)).collect();
        let before = items.clone();
        let mut budget = u64::MAX;
        assert_eq!(
            search(&mut items, Frac::int(1000), &mut Vec::new(), &mut budget),
            Ok(false)
        );
        assert_eq!(items, before);
        assert_eq!(
            search(&mut items, Frac::int(22), &mut Vec::new(), &mut budget),
            Ok(true)
        );
        assert_eq!(items, before);
        let mut small = 10;
        assert_eq!(
            search(&mut items, Frac::int(1000), &mut Vec::new(), &mut small),
            Err(())
        );
        assert_eq!((items, small), (before, 0));
    }
}
