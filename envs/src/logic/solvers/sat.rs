//! Two independent SAT solvers, so an UNSAT verdict never rests on one:
//!
//! - [`solve_watched`]: DPLL with two watched literals per clause, an
//!   occurrence-ordered decision heuristic and a trail (MiniSat-style
//!   propagation, chronological backtracking).
//! - [`solve_scanning`]: DPLL that re-scans every clause for units and
//!   conflicts, branching on the lowest free variable, false first.
//!
//! They share no code beyond the [`Cnf`] type. Both are iterative and both
//! return a model that the caller can check with
//! [`verigym_verifiers::sat::satisfies`].

use verigym_verifiers::sat::Cnf;

/// A solver's verdict.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// A model: `values[v - 1]` for variable `v`.
    Sat(Vec<bool>),
    Unsat,
}

/// Literal code: `2 * (v - 1) + (negative as usize)`.
fn code(lit: i32) -> usize {
    2 * (lit.unsigned_abs() as usize - 1) + usize::from(lit < 0)
}

/// DPLL with two watched literals per clause.
pub fn solve_watched(cnf: &Cnf) -> Verdict {
    solve_watched_with_core(cnf).0
}

/// [`solve_watched`], also returning, for an UNSAT verdict, the indices of
/// the clauses that ever propagated a literal or conflicted (ascending).
/// They alone are unsatisfiable: the search tree is a refutation in which
/// no other clause takes part. (For a SAT verdict the list is meaningless.)
pub fn solve_watched_with_core(cnf: &Cnf) -> (Verdict, Vec<usize>) {
    let n = cnf.num_vars;
    // value[code]: 1 true, -1 false, 0 unassigned (kept for both polarities).
    let mut value = vec![0i8; 2 * n];
    let mut clauses: Vec<Vec<usize>> = Vec::with_capacity(cnf.clauses.len());
    let mut watches: Vec<Vec<usize>> = vec![Vec::new(); 2 * n];
    let mut trail: Vec<usize> = Vec::with_capacity(n);
    let mut units = Vec::new();
    // Original index of each kept clause, and whether it took part.
    let mut origin: Vec<usize> = Vec::with_capacity(cnf.clauses.len());
    let mut unit_origin: Vec<usize> = Vec::new();
    for (index, clause) in cnf.clauses.iter().enumerate() {
        let mut lits: Vec<usize> = clause.iter().map(|&l| code(l)).collect();
        lits.sort_unstable();
        lits.dedup();
        if lits.windows(2).any(|w| w[0] ^ 1 == w[1]) {
            continue; // tautology
        }
        match lits.len() {
            0 => return (Verdict::Unsat, vec![index]),
            1 => {
                units.push(lits[0]);
                unit_origin.push(index);
            }
            _ => {
                watches[lits[0]].push(clauses.len());
                watches[lits[1]].push(clauses.len());
                clauses.push(lits);
                origin.push(index);
            }
        }
    }
    // Decide on the most frequent variables first.
    let mut occurrences = vec![0usize; n];
    for clause in &cnf.clauses {
        for &lit in clause {
            occurrences[lit.unsigned_abs() as usize - 1] += 1;
        }
    }
    let mut order: Vec<usize> = (0..n).collect();
    order.sort_by_key(|&v| std::cmp::Reverse(occurrences[v]));

    let assign = |lit: usize, value: &mut [i8], trail: &mut Vec<usize>| -> bool {
        match value[lit] {
            1 => true,
            -1 => false,
            _ => {
                value[lit] = 1;
                value[lit ^ 1] = -1;
                trail.push(lit);
                true
            }
        }
    };
    let mut used = vec![false; clauses.len()];
    // Every unit counts as used (they all act at the root).
    let core = |used: &[bool]| -> Vec<usize> {
        let mut core: Vec<usize> = unit_origin
            .iter()
            .copied()
            .chain((0..used.len()).filter(|&i| used[i]).map(|i| origin[i]))
            .collect();
        core.sort_unstable();
        core
    };
    for &unit in &units {
        if !assign(unit, &mut value, &mut trail) {
            return (Verdict::Unsat, core(&used));
        }
    }
    // Decision stack: (trail length before, literal, already flipped).
    let mut decisions: Vec<(usize, usize, bool)> = Vec::new();
    let mut head = 0;
    loop {
        // Propagate everything on the trail from `head`.
        let mut conflict = false;
        while head < trail.len() && !conflict {
            let false_lit = trail[head] ^ 1;
            head += 1;
            let mut watching = std::mem::take(&mut watches[false_lit]);
            let mut i = 0;
            while i < watching.len() {
                let ci = watching[i];
                let lits = &mut clauses[ci];
                if lits[0] == false_lit {
                    lits.swap(0, 1);
                }
                if value[lits[0]] == 1 {
                    i += 1;
                    continue;
                }
                if let Some(k) = (2..lits.len()).find(|&k| value[lits[k]] != -1) {
                    lits.swap(1, k);
                    watches[lits[1]].push(ci);
                    watching.swap_remove(i);
                    continue;
                }
                let other = lits[0];
                i += 1;
                // Not already true (checked above): it propagates or conflicts.
                used[ci] = true;
                if !assign(other, &mut value, &mut trail) {
                    conflict = true;
                    break;
                }
            }
            watches[false_lit].append(&mut watching);
        }
        if conflict {
            loop {
                let Some((start, lit, flipped)) = decisions.pop() else {
                    return (Verdict::Unsat, core(&used));
                };
                for &undone in &trail[start..] {
                    value[undone] = 0;
                    value[undone ^ 1] = 0;
                }
                trail.truncate(start);
                head = start;
                if !flipped {
                    decisions.push((start, lit ^ 1, true));
                    assign(lit ^ 1, &mut value, &mut trail);
                    break;
                }
            }
            continue;
        }
        match order.iter().find(|&&v| value[2 * v] == 0) {
            None => {
                let model = (0..n).map(|v| value[2 * v] == 1).collect();
                return (Verdict::Sat(model), Vec::new());
            }
            Some(&v) => {
                decisions.push((trail.len(), 2 * v, false));
                assign(2 * v, &mut value, &mut trail);
            }
        }
    }
}

/// A minimal unsatisfiable subset of an unsatisfiable formula's clauses (by
/// deletion: drop each clause in `order` unless the rest turns satisfiable),
/// as clause indices into `cnf.clauses`, ascending. Every clause of the
/// result is needed: removing any one leaves a satisfiable formula.
///
/// # Panics
/// If `cnf` is satisfiable.
pub fn minimal_unsat_core(cnf: &Cnf, order: &[usize]) -> Vec<usize> {
    let sub = |kept: &[bool]| -> (Vec<usize>, Cnf) {
        let indices: Vec<usize> = (0..kept.len()).filter(|&i| kept[i]).collect();
        let clauses = indices.iter().map(|&i| cnf.clauses[i].clone()).collect();
        (
            indices,
            Cnf {
                num_vars: cnf.num_vars,
                clauses,
            },
        )
    };
    // Keep only the clauses a refutation used; shrink again after every
    // successful removal (clause-set refinement), so most clauses go without
    // a solver call of their own.
    let refine = |kept: &mut Vec<bool>| -> bool {
        let (indices, subset) = sub(kept);
        match solve_watched_with_core(&subset) {
            (Verdict::Unsat, used) => {
                kept.iter_mut().for_each(|k| *k = false);
                for u in used {
                    kept[indices[u]] = true;
                }
                true
            }
            (Verdict::Sat(_), _) => false,
        }
    };
    let mut kept = vec![true; cnf.clauses.len()];
    assert!(refine(&mut kept), "the formula must be UNSAT");
    for &i in order {
        if !kept[i] {
            continue;
        }
        kept[i] = false;
        if !refine(&mut kept) {
            kept[i] = true;
        }
    }
    (0..kept.len()).filter(|&i| kept[i]).collect()
}

/// DPLL by clause scanning: simple, slow on big formulas, independent.
pub fn solve_scanning(cnf: &Cnf) -> Verdict {
    let n = cnf.num_vars;
    // assignment[v]: None free, Some(value).
    let mut assignment: Vec<Option<bool>> = vec![None; n + 1];
    // Each frame: (variable, whether true was tried yet, the variables that
    // propagation set after this decision).
    let mut frames: Vec<(usize, bool, Vec<usize>)> = Vec::new();
    let mut implied_at_root: Vec<usize> = Vec::new();
    loop {
        let mut implied = Vec::new();
        let ok = propagate_by_scanning(cnf, &mut assignment, &mut implied);
        match frames.last_mut() {
            Some(frame) => frame.2.extend(implied),
            None => implied_at_root.extend(implied),
        }
        if !ok {
            // Backtrack to the newest decision whose true branch is untried.
            loop {
                let Some((var, tried_true, implied)) = frames.pop() else {
                    return Verdict::Unsat;
                };
                for v in implied {
                    assignment[v] = None;
                }
                assignment[var] = None;
                if !tried_true {
                    assignment[var] = Some(true);
                    frames.push((var, true, Vec::new()));
                    break;
                }
            }
            continue;
        }
        match (1..=n).find(|&v| assignment[v].is_none()) {
            None => return Verdict::Sat((1..=n).map(|v| assignment[v] == Some(true)).collect()),
            Some(var) => {
                assignment[var] = Some(false);
                frames.push((var, false, Vec::new()));
            }
        }
    }
}

/// Sets every unit literal until none is left; false on a falsified clause.
fn propagate_by_scanning(
    cnf: &Cnf,
    assignment: &mut [Option<bool>],
    implied: &mut Vec<usize>,
) -> bool {
    loop {
        let mut changed = false;
        for clause in &cnf.clauses {
            let mut free = None;
            let mut free_count = 0;
            let mut satisfied = false;
            for &lit in clause {
                let var = lit.unsigned_abs() as usize;
                match assignment[var] {
                    Some(v) if v == (lit > 0) => {
                        satisfied = true;
                        break;
                    }
                    Some(_) => {}
                    None => {
                        free_count += 1;
                        free = Some(lit);
                    }
                }
            }
            if satisfied {
                continue;
            }
            match (free_count, free) {
                (0, _) => return false,
                (1, Some(lit)) => {
                    let var = lit.unsigned_abs() as usize;
                    // A repeated literal can count twice; that only delays units.
                    assignment[var] = Some(lit > 0);
                    implied.push(var);
                    changed = true;
                }
                _ => {}
            }
        }
        if !changed {
            return true;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::Rng;
    use verigym_verifiers::sat::satisfies;

    /// Pigeonhole: `pigeons` pigeons into `holes` holes, each hole one pigeon.
    fn pigeonhole(pigeons: usize, holes: usize) -> Cnf {
        let var = |p: usize, h: usize| (p * holes + h + 1) as i32;
        let mut clauses: Vec<Vec<i32>> = (0..pigeons)
            .map(|p| (0..holes).map(|h| var(p, h)).collect())
            .collect();
        for h in 0..holes {
            for a in 0..pigeons {
                for b in a + 1..pigeons {
                    clauses.push(vec![-var(a, h), -var(b, h)]);
                }
            }
        }
        Cnf {
            num_vars: pigeons * holes,
            clauses,
        }
    }

    fn random_cnf(rng: &mut Rng, n: usize, m: usize, k: usize) -> Cnf {
        let clauses = (0..m)
            .map(|_| {
                (0..k)
                    .map(|_| {
                        let v = rng.range_i64(1, n as i64) as i32;
                        if rng.chance(0.5) { v } else { -v }
                    })
                    .collect()
            })
            .collect();
        Cnf {
            num_vars: n,
            clauses,
        }
    }

    fn brute_force_sat(cnf: &Cnf) -> bool {
        (0u32..1 << cnf.num_vars).any(|bits| {
            let values: Vec<bool> = (0..cnf.num_vars).map(|i| bits >> i & 1 == 1).collect();
            satisfies(cnf, &values)
        })
    }

    #[test]
    fn pigeonhole_formulas_are_unsat_for_both() {
        for holes in 2..=4 {
            let cnf = pigeonhole(holes + 1, holes);
            assert_eq!(
                solve_watched(&cnf),
                Verdict::Unsat,
                "watched, {holes} holes"
            );
            assert_eq!(
                solve_scanning(&cnf),
                Verdict::Unsat,
                "scanning, {holes} holes"
            );
            let fits = pigeonhole(holes, holes);
            for verdict in [solve_watched(&fits), solve_scanning(&fits)] {
                let Verdict::Sat(model) = verdict else {
                    panic!("{holes} into {holes} is SAT")
                };
                assert!(satisfies(&fits, &model));
            }
        }
    }

    #[test]
    fn edge_cases() {
        let empty_clause = Cnf {
            num_vars: 1,
            clauses: vec![vec![]],
        };
        assert_eq!(solve_watched(&empty_clause), Verdict::Unsat);
        assert_eq!(solve_scanning(&empty_clause), Verdict::Unsat);
        let contradiction = Cnf {
            num_vars: 1,
            clauses: vec![vec![1], vec![-1]],
        };
        assert_eq!(solve_watched(&contradiction), Verdict::Unsat);
        assert_eq!(solve_scanning(&contradiction), Verdict::Unsat);
        let none = Cnf {
            num_vars: 2,
            clauses: vec![],
        };
        assert!(matches!(solve_watched(&none), Verdict::Sat(_)));
        let tautology = Cnf {
            num_vars: 1,
            clauses: vec![vec![1, -1], vec![-1, -1]],
        };
        assert_eq!(solve_watched(&tautology), Verdict::Sat(vec![false]));
        assert_eq!(solve_scanning(&tautology), Verdict::Sat(vec![false]));
    }

    #[test]
    fn cores_are_unsat_for_the_other_solver_and_minimal_cores_are_minimal() {
        let mut rng = Rng::from_seed(11);
        let mut checked = 0;
        while checked < 40 {
            let n = rng.range_usize(4, 10);
            let cnf = random_cnf(&mut rng, n, 6 * n, 3);
            let (Verdict::Unsat, used) = solve_watched_with_core(&cnf) else {
                continue;
            };
            checked += 1;
            let pick = |indices: &[usize]| Cnf {
                num_vars: n,
                clauses: indices.iter().map(|&i| cnf.clauses[i].clone()).collect(),
            };
            assert!(
                !brute_force_sat(&pick(&used)),
                "used clauses are SAT: {cnf:?}"
            );
            let order: Vec<usize> = (0..cnf.clauses.len()).rev().collect();
            let core = minimal_unsat_core(&cnf, &order);
            assert_eq!(solve_scanning(&pick(&core)), Verdict::Unsat);
            for drop in 0..core.len() {
                let mut fewer = core.clone();
                fewer.remove(drop);
                assert!(brute_force_sat(&pick(&fewer)), "core not minimal: {cnf:?}");
            }
        }
    }

    #[test]
    fn both_solvers_agree_with_brute_force_on_random_formulas() {
        let mut rng = Rng::from_seed(4);
        let (mut sat, mut unsat) = (0, 0);
        for _ in 0..400 {
            let n = rng.range_usize(3, 10);
            let k = rng.range_usize(2, 4);
            let m = rng.range_usize(n, 7 * n);
            let cnf = random_cnf(&mut rng, n, m, k);
            let truth = brute_force_sat(&cnf);
            for verdict in [solve_watched(&cnf), solve_scanning(&cnf)] {
                match verdict {
                    Verdict::Sat(model) => assert!(truth && satisfies(&cnf, &model), "{cnf:?}"),
                    Verdict::Unsat => assert!(!truth, "{cnf:?}"),
                }
            }
            if truth { sat += 1 } else { unsat += 1 }
        }
        assert!(
            sat > 50 && unsat > 50,
            "{sat} sat, {unsat} unsat: the test must see both"
        );
    }
}
