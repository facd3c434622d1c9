//! A small CSP solver for zebra (Einstein) puzzles.
//!
//! Items are `(attribute, value)` pairs numbered `attribute * houses +
//! value`; each has a domain of houses as a `u8` bitmask. Each attribute is
//! a permutation (all-different, every house used). Clues are binary or
//! unary relations on house positions. [`count_solutions`] propagates to a
//! fixpoint (singletons, hidden singles, every clue) and branches on the
//! smallest domain, with an explicit stack of domain snapshots.

use serde::{Deserialize, Serialize};

/// Most items: 8 attributes × 8 houses.
pub const MAX_ITEMS: usize = 64;

/// A relation between house positions of items.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Clue {
    /// Item lives in house `h` (0-based).
    At(usize, usize),
    NotAt(usize, usize),
    /// Both items belong to the same house.
    Same(usize, usize),
    NotSame(usize, usize),
    /// The first lives directly left of the second (house + 1).
    LeftOf(usize, usize),
    /// Neighbouring houses, either side.
    NextTo(usize, usize),
    /// The first lives somewhere left of the second.
    Before(usize, usize),
}

impl Clue {
    /// Whether the clue holds for positions `pos[item]`.
    pub fn holds(self, pos: &[usize]) -> bool {
        match self {
            Clue::At(x, h) => pos[x] == h,
            Clue::NotAt(x, h) => pos[x] != h,
            Clue::Same(x, y) => pos[x] == pos[y],
            Clue::NotSame(x, y) => pos[x] != pos[y],
            Clue::LeftOf(x, y) => pos[x] + 1 == pos[y],
            Clue::NextTo(x, y) => pos[x].abs_diff(pos[y]) == 1,
            Clue::Before(x, y) => pos[x] < pos[y],
        }
    }
}

#[derive(Clone, Copy)]
struct Domains {
    d: [u8; MAX_ITEMS],
}

struct Shape {
    houses: usize,
    attributes: usize,
    full: u8,
}

fn high_bit(mask: u8) -> u32 {
    7 - mask.leading_zeros()
}

/// Narrows domains to a fixpoint; false when one empties.
fn propagate(shape: &Shape, clues: &[Clue], dom: &mut Domains) -> bool {
    let k = shape.houses;
    loop {
        let before = dom.d;
        for a in 0..shape.attributes {
            let items = a * k..(a + 1) * k;
            // Singletons leave the other values of the attribute.
            for i in items.clone() {
                let m = dom.d[i];
                if m == 0 {
                    return false;
                }
                if m.is_power_of_two() {
                    for j in items.clone() {
                        if j != i {
                            dom.d[j] &= !m;
                        }
                    }
                }
            }
            // A house only one value can take gets that value.
            for h in 0..k {
                let bit = 1u8 << h;
                let mut holder = None;
                let mut count = 0;
                for i in items.clone() {
                    if dom.d[i] & bit != 0 {
                        count += 1;
                        holder = Some(i);
                    }
                }
                match (count, holder) {
                    (0, _) => return false,
                    (1, Some(i)) => dom.d[i] = bit,
                    _ => {}
                }
            }
        }
        for &clue in clues {
            match clue {
                Clue::At(x, h) => dom.d[x] &= 1 << h,
                Clue::NotAt(x, h) => dom.d[x] &= !(1 << h),
                Clue::Same(x, y) => {
                    let both = dom.d[x] & dom.d[y];
                    dom.d[x] = both;
                    dom.d[y] = both;
                }
                Clue::NotSame(x, y) => {
                    if dom.d[x].is_power_of_two() {
                        dom.d[y] &= !dom.d[x];
                    }
                    if dom.d[y].is_power_of_two() {
                        dom.d[x] &= !dom.d[y];
                    }
                }
                Clue::LeftOf(x, y) => {
                    dom.d[y] &= dom.d[x] << 1;
                    dom.d[x] &= dom.d[y] >> 1;
                }
                Clue::NextTo(x, y) => {
                    dom.d[y] &= (dom.d[x] << 1) | (dom.d[x] >> 1);
                    dom.d[x] &= (dom.d[y] << 1) | (dom.d[y] >> 1);
                }
                Clue::Before(x, y) => {
                    if dom.d[x] == 0 || dom.d[y] == 0 {
                        return false;
                    }
                    // x below y's highest house; y above x's lowest house.
                    let below_max_y = (1u8 << high_bit(dom.d[y])) - 1;
                    let lowest_x = u16::from(dom.d[x] & dom.d[x].wrapping_neg());
                    let above_min_x = !((lowest_x << 1) - 1) as u8;
                    dom.d[x] &= below_max_y;
                    dom.d[y] &= above_min_x;
                }
            }
            dom.d[..shape.attributes * k]
                .iter_mut()
                .for_each(|m| *m &= shape.full);
        }
        if dom.d[..shape.attributes * k].contains(&0) {
            return false;
        }
        if dom.d == before {
            return true;
        }
    }
}

/// Counts solutions up to `limit`; returns the count and the first
/// solution's positions.
pub fn count_solutions(
    houses: usize,
    attributes: usize,
    clues: &[Clue],
    limit: usize,
) -> (usize, Vec<usize>) {
    assert!(houses <= 8 && houses * attributes <= MAX_ITEMS);
    let shape = Shape {
        houses,
        attributes,
        full: ((1u16 << houses) - 1) as u8,
    };
    let n = houses * attributes;
    let mut start = Domains { d: [0; MAX_ITEMS] };
    start.d[..n].iter_mut().for_each(|m| *m = shape.full);
    let mut stack = vec![start];
    let mut found = 0;
    let mut first = Vec::new();
    while let Some(mut dom) = stack.pop() {
        if !propagate(&shape, clues, &mut dom) {
            continue;
        }
        let open = (0..n)
            .filter(|&i| !dom.d[i].is_power_of_two())
            .min_by_key(|&i| dom.d[i].count_ones());
        match open {
            None => {
                if found == 0 {
                    first = (0..n).map(|i| dom.d[i].trailing_zeros() as usize).collect();
                }
                found += 1;
                if found >= limit {
                    break;
                }
            }
            Some(i) => {
                let mut rest = dom.d[i];
                while rest != 0 {
                    let bit = rest & rest.wrapping_neg();
                    rest &= !bit;
                    let mut child = dom;
                    child.d[i] = bit;
                    stack.push(child);
                }
            }
        }
    }
    (found, first)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn no_clues_count_all_permutation_products() {
        // 3 houses, 2 attributes: 3! * 3! = 36 solutions.
        assert_eq!(count_solutions(3, 2, &[], 1000).0, 36);
        // Fixing every item of attribute 0 leaves 3! for attribute 1.
        let fixed = [Clue::At(0, 0), Clue::At(1, 1), Clue::At(2, 2)];
        assert_eq!(count_solutions(3, 2, &fixed, 1000).0, 6);
    }

    #[test]
    fn each_clue_kind_prunes_exactly() {
        // 3 houses, 1 attribute (3! = 6 orders); brute-force each clue.
        let orders: Vec<Vec<usize>> = vec![
            vec![0, 1, 2],
            vec![0, 2, 1],
            vec![1, 0, 2],
            vec![1, 2, 0],
            vec![2, 0, 1],
            vec![2, 1, 0],
        ];
        for clue in [
            Clue::At(0, 1),
            Clue::NotAt(0, 1),
            Clue::NotSame(0, 1),
            Clue::LeftOf(0, 1),
            Clue::NextTo(0, 2),
            Clue::Before(2, 0),
            Clue::Same(0, 0),
        ] {
            let want = orders.iter().filter(|pos| clue.holds(pos)).count();
            assert_eq!(count_solutions(3, 1, &[clue], 100).0, want, "{clue:?}");
        }
    }
}
