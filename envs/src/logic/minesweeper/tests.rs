//! Tests of the Minesweeper env: the solver, the rules, the hacks.
use super::*;

fn level(i: usize) -> MinesweeperConfig {
    let mut value = serde_json::to_value(MinesweeperConfig::default()).unwrap();
    let patch: Value = serde_json::from_str(Minesweeper::LEVELS[i]).unwrap();
    for (k, v) in patch.as_object().unwrap() {
        value[k] = v.clone();
    }
    serde_json::from_value(value).unwrap()
}

fn play(env: &mut Minesweeper, text: &str) -> Result<(), InvalidAction> {
    let action = env.parse_action(0, text)?;
    env.apply(0, action).map(|_| ())
}

type Answer = Box<dyn Fn(&Minesweeper) -> String>;

/// Plays `answer` each turn the way the driver does (two retries after
/// a refusal, then a forfeit); whether the episode passed.
fn passes_with(task: &MinesweeperTask, answer: impl Fn(&Minesweeper) -> String) -> bool {
    let mut env = Minesweeper::reset(task, Rng::from_seed(0));
    let mut refused = 0;
    while env.turn() != Turn::Over {
        let text = answer(&env);
        match play(&mut env, &text) {
            Ok(()) => refused = 0,
            Err(_) if refused < 2 => refused += 1,
            Err(_) => return false,
        }
    }
    env.score(0).passed
}

/// A 5x5 board by hand: mines at (1,5), (3,4), (5,1) and (5,3)
/// (1-based), start at (2,2); the solver needs 7 moves.
fn hand_task() -> MinesweeperTask {
    MinesweeperTask {
        rows: 5,
        cols: 5,
        mines: vec![4, 13, 20, 22],
        start: 6,
        solver_moves: 7,
    }
}

#[test]
fn the_solver_clears_every_generated_board_of_every_level() {
    for i in 0..Minesweeper::LEVELS.len() {
        let config = level(i);
        let mut rng = Rng::from_seed(17 + i as u64);
        let seeds = if i == Minesweeper::LEVELS.len() - 1 {
            60
        } else {
            200
        };
        for _ in 0..seeds {
            let task = Minesweeper::generate(&config, &mut rng);
            assert_eq!(task.mines.len(), config.mines);
            let (sr, sc) = (task.start / task.cols, task.start % task.cols);
            assert!(
                task.mines
                    .iter()
                    .all(|&m| (m / task.cols).abs_diff(sr) > 1 || (m % task.cols).abs_diff(sc) > 1)
            );
            let mut env = Minesweeper::reset(&task, Rng::from_seed(0));
            assert!(env.hidden_safe() > 0, "solved at the start");
            let mut moves = 0;
            while env.turn() != Turn::Over {
                let text = env.oracle(0).expect("the solver always has a safe cell");
                let Move::Reveal(cell) = env.parse_action(0, &text).unwrap() else {
                    panic!("the solver only reveals");
                };
                assert!(!task.mines.contains(&cell), "the solver opened a mine");
                play(&mut env, &text).unwrap();
                moves += 1;
            }
            assert!(env.score(0).passed, "{}", env.render());
            assert_eq!(moves, task.solver_moves);
            assert!(moves >= MIN_SOLVER_MOVES && moves <= env.budget);
            let reference = Minesweeper::reference(&task).unwrap();
            assert_eq!(reference.as_array().unwrap().len(), moves);
        }
    }
}

#[test]
fn numbers_match_an_independent_count() {
    let mut rng = Rng::from_seed(5);
    let task = Minesweeper::generate(&level(3), &mut rng);
    let (rows, cols) = (task.rows as i64, task.cols as i64);
    let truth = numbers(task.rows, task.cols, &task.mines);
    for r in 0..rows {
        for c in 0..cols {
            let mine = |rr: i64, cc: i64| task.mines.contains(&((rr * cols + cc) as usize));
            let expected = if mine(r, c) {
                -1
            } else {
                let mut k = 0;
                for rr in r - 1..=r + 1 {
                    for cc in c - 1..=c + 1 {
                        k += i8::from(
                            (0..rows).contains(&rr) && (0..cols).contains(&cc) && mine(rr, cc),
                        );
                    }
                }
                k
            };
            assert_eq!(truth[(r * cols + c) as usize], expected);
        }
    }
}

#[test]
fn the_solver_only_claims_what_every_consistent_layout_agrees_on() {
    // Brute force over all mine layouts of the hidden cells of small
    // boards after the opening: a cell the solver calls safe is safe in
    // every layout consistent with the open numbers.
    let config = MinesweeperConfig {
        rows: 5,
        cols: 5,
        mines: 4,
    };
    let mut rng = Rng::from_seed(9);
    let mut checked = 0;
    while checked < 30 {
        let task = Minesweeper::generate(&config, &mut rng);
        let env = Minesweeper::reset(&task, Rng::from_seed(0));
        let view = env.view();
        let hidden: Vec<usize> = (0..25).filter(|&i| view[i].is_none()).collect();
        if hidden.len() > 12 {
            continue;
        }
        let cell = first_safe(5, 5, &view).unwrap();
        for mask in 0u32..1 << hidden.len() {
            let mines: Vec<usize> = (0..hidden.len())
                .filter(|&k| mask >> k & 1 == 1)
                .map(|k| hidden[k])
                .collect();
            let truth = numbers(5, 5, &mines);
            let consistent = (0..25).all(|i| view[i].is_none_or(|n| truth[i] == n));
            if consistent {
                assert!(!mines.contains(&cell), "{mines:?} {cell}");
            }
        }
        checked += 1;
    }
}

#[test]
fn the_first_observation_reads_exactly() {
    let env = Minesweeper::reset(&hand_task(), Rng::from_seed(0));
    assert_eq!(
        env.observe(0).text,
        "Minesweeper on a 5x5 board with 4 mines. Open every safe cell without opening a mine. An opened \
         cell shows how many mines are among its up to 8 neighbours; opening a 0 also opens its neighbours. \
         The opening around row 2, column 2 is already open, and from it the board can be cleared by logic \
         alone, with no guessing. Board: # hidden, F flagged, 0-8 opened. Rows and columns count from 1. \
         Reply with one move: `reveal ROW COL` to open a cell, or `flag ROW COL` to mark or unmark a \
         suspected mine (flags are only notes). Moves left: 11.\n\n\
         \x20     1  2  3  4  5\n\
         \x20  1  0  0  0  1  #\n\
         \x20  2  0  0  1  2  #\n\
         \x20  3  0  0  1  #  #\n\
         \x20  4  1  2  2  #  #\n\
         \x20  5  #  #  #  #  #\n"
    );
    assert_eq!(
        Minesweeper::reference(&hand_task()).unwrap(),
        json!([
            "reveal 4 4",
            "reveal 5 4",
            "reveal 3 5",
            "reveal 2 5",
            "reveal 4 5",
            "reveal 5 5",
            "reveal 5 2"
        ])
    );
}

#[test]
fn revealing_a_mine_ends_the_episode_with_zero() {
    let mut env = Minesweeper::reset(&hand_task(), Rng::from_seed(0));
    play(&mut env, "reveal 4 4").unwrap();
    assert_eq!(env.turn(), Turn::Player(0));
    play(&mut env, "reveal 1 5").unwrap();
    assert_eq!(env.turn(), Turn::Over);
    let score = env.score(0);
    assert!(!score.passed);
    assert_eq!(score.reward, 0.0);
    assert_eq!(score.breakdown["exploded"], 1.0);
    assert!(env.parse_action(0, "reveal 2 5").is_ok());
    assert!(env.observe(0).text.ends_with(
        "   1  0  0  0  1  *\n   2  0  0  1  2  #\n   3  0  0  1  #  #\n   4  1  2  2  2  #\n   5  #  #  #  #  #\nLast move: reveal 1 5: a mine\nRow 1, column 5 was a mine. You lost.\n"
    ));
}

#[test]
fn moves_are_read_leniently_and_checked_strictly() {
    let mut env = Minesweeper::reset(&hand_task(), Rng::from_seed(0));
    for bad in [
        "",
        "reveal",
        "reveal 3",
        "reveal 0 1",
        "reveal 6 1",
        "reveal 1 6",
        "reveal 2 5 or reveal 3 5",
        "reveal 2 5, reveal 3 5",
        "reveal 2 5 reveal 2 5",
        "\\boxed{reveal 2 5} \\boxed{reveal 3 5}",
        "dig 2 5",
        "reveal 2 5 please",
        "reveal a b",
        "2 5",
    ] {
        assert!(env.parse_action(0, bad).is_err(), "{bad:?}");
    }
    assert_eq!(
        env.parse_action(0, "Reveal (2, 5)").unwrap(),
        Move::Reveal(9)
    );
    assert_eq!(
        env.parse_action(0, "\\boxed{open 2,5}").unwrap(),
        Move::Reveal(9)
    );
    assert!(play(&mut env, "reveal 1 1").is_err(), "already open");
    assert!(
        play(&mut env, "flag 3 3").is_err(),
        "open cells cannot be flagged"
    );
    play(&mut env, "flag 2 5").unwrap();
    assert!(play(&mut env, "reveal 2 5").is_err(), "flagged");
    assert!(env.observe(0).text.contains("   2  0  0  1  2  F\n"));
    play(&mut env, "flag: 2 5").unwrap();
    assert_eq!(env.moves_used, 2);
    for text in [
        "reveal 4 4",
        "reveal 5 4",
        "reveal 3 5",
        "reveal 2 5",
        "reveal 4 5",
        "reveal 5 5",
    ] {
        play(&mut env, text).unwrap();
        assert_eq!(env.turn(), Turn::Player(0));
    }
    play(&mut env, "reveal 5 2").unwrap();
    assert_eq!(env.turn(), Turn::Over);
    assert!(env.score(0).passed);
    assert_eq!(env.score(0).reward, 1.0);
    assert!(env.observe(0).text.ends_with("You won.\n"));
}

#[test]
fn the_budget_ends_a_flagging_loop() {
    let mut env = Minesweeper::reset(&hand_task(), Rng::from_seed(0));
    while env.turn() != Turn::Over {
        play(&mut env, "flag 5 5").unwrap();
    }
    assert_eq!(env.moves_used, 11);
    assert!(!env.score(0).passed);
    assert_eq!(env.score(0).reward, 0.0);
}

#[test]
fn degenerate_and_hedged_answers_never_pass() {
    for i in 0..3 {
        let config = level(i);
        let mut rng = Rng::from_seed(41);
        let tasks: Vec<MinesweeperTask> = (0..100)
            .map(|_| Minesweeper::generate(&config, &mut rng))
            .collect();
        for (k, task) in tasks.iter().enumerate() {
            let other = &tasks[(k + 1) % tasks.len()];
            let other_first = Minesweeper::reference(other).unwrap()[0]
                .as_str()
                .unwrap()
                .to_string();
            let answers: Vec<Answer> = vec![
                Box::new(|_| String::new()),
                Box::new(|_| "reveal 1 1".into()),
                Box::new(|_| "flag 1 1".into()),
                Box::new(|_| "\\boxed{}".into()),
                Box::new(move |_| other_first.clone()),
                Box::new(|e| e.observe(0).text),
                Box::new(|e| format!("{} please", e.oracle(0).unwrap())),
                Box::new(|e| format!("{} or reveal 1 1", e.oracle(0).unwrap())),
                Box::new(|e| format!("{}, reveal 1 1", e.oracle(0).unwrap())),
                Box::new(|e| format!("\\boxed{{{}}} \\boxed{{reveal 1 1}}", e.oracle(0).unwrap())),
            ];
            for (a, answer) in answers.iter().enumerate() {
                assert!(
                    !passes_with(task, answer),
                    "answer {a} passed level {i} task {k}"
                );
            }
            assert!(passes_with(task, |e| format!(
                "\\boxed{{{}}}",
                e.oracle(0).unwrap()
            )));
        }
    }
}

#[test]
fn extreme_configs_generate() {
    for (rows, cols, mines) in [(5, 5, 3), (5, 5, 5), (5, 16, 16), (16, 16, 51)] {
        let config = MinesweeperConfig { rows, cols, mines };
        Minesweeper::validate(&config).unwrap();
        let mut rng = Rng::from_seed(1);
        for _ in 0..5 {
            Minesweeper::generate(&config, &mut rng);
        }
    }
    for bad in [(4, 5, 3), (5, 17, 3), (5, 5, 2), (5, 5, 6)] {
        let config = MinesweeperConfig {
            rows: bad.0,
            cols: bad.1,
            mines: bad.2,
        };
        assert!(Minesweeper::validate(&config).is_err());
    }
}
