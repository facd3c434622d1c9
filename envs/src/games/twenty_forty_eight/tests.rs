//! Tests of the rules, the OpenSpiel agreement and the built-in players.
use super::*;

fn task(target: u32, tiles: [[u32; 4]; 4]) -> TwentyFortyEightTask {
    TwentyFortyEightTask { target, tiles }
}

fn game(target: u32, tiles: [[u32; 4]; 4]) -> TwentyFortyEight {
    TwentyFortyEight::new(&task(target, tiles), Rng::from_seed(5))
}

/// A slide written the other way, tile by tile as OpenSpiel's `2048` does
/// it: visit tiles from the wall side, move each to the farthest empty
/// square, and merge it into an equal neighbour there that has not merged
/// this move.
fn slide_by_tiles(tiles: [[u32; 4]; 4], d: usize) -> ([[u32; 4]; 4], u32) {
    let (dr, dc): (i32, i32) = [(-1, 0), (0, 1), (1, 0), (0, -1)][d];
    let order: Vec<i32> = if dr > 0 || dc > 0 {
        vec![3, 2, 1, 0]
    } else {
        vec![0, 1, 2, 3]
    };
    let (mut grid, mut merged, mut points) = (tiles, [[false; 4]; 4], 0);
    let inside = |r: i32, c: i32| (0..4).contains(&r) && (0..4).contains(&c);
    for &a in &order {
        for b in 0..4 {
            let (r, c) = if dr != 0 { (a, b) } else { (b, a) };
            let tile = grid[r as usize][c as usize];
            if tile == 0 {
                continue;
            }
            let (mut fr, mut fc) = (r, c);
            while inside(fr + dr, fc + dc) && grid[(fr + dr) as usize][(fc + dc) as usize] == 0 {
                fr += dr;
                fc += dc;
            }
            let (nr, nc) = (fr + dr, fc + dc);
            grid[r as usize][c as usize] = 0;
            if inside(nr, nc)
                && grid[nr as usize][nc as usize] == tile
                && !merged[nr as usize][nc as usize]
            {
                grid[nr as usize][nc as usize] = 2 * tile;
                merged[nr as usize][nc as usize] = true;
                points += 2 * tile;
            } else {
                grid[fr as usize][fc as usize] = tile;
            }
        }
    }
    (grid, points)
}

#[test]
fn rows_slide_and_merge_once_from_the_wall() {
    let cases: [([u32; 4], [u32; 4], u32); 8] = [
        ([2, 2, 2, 2], [4, 4, 0, 0], 8),
        ([2, 2, 4, 0], [4, 4, 0, 0], 4),
        ([4, 2, 2, 0], [4, 4, 0, 0], 4),
        ([2, 2, 2, 0], [4, 2, 0, 0], 4),
        ([2, 0, 2, 4], [4, 4, 0, 0], 4),
        ([0, 0, 0, 2], [2, 0, 0, 0], 0),
        ([2, 4, 8, 16], [2, 4, 8, 16], 0),
        ([8, 8, 16, 16], [16, 32, 0, 0], 48),
    ];
    for (row, want, points) in cases {
        let mut tiles = [[0; 4]; 4];
        tiles[2] = row;
        let (after, p) = slide(board_of(&tiles), 3);
        assert_eq!(tiles_of(after)[2], want, "{row:?} left");
        assert_eq!(p, points, "{row:?} left");
        // The same row slid right is the mirror image.
        tiles[2].reverse();
        let (after, p) = slide(board_of(&tiles), 1);
        let mut mirrored = want;
        mirrored.reverse();
        assert_eq!(tiles_of(after)[2], mirrored, "{row:?} right");
        assert_eq!(p, points);
    }
    // Up and down move columns, toward row 1 and row 4.
    let tiles = [[2, 0, 0, 4], [2, 0, 0, 0], [4, 8, 0, 4], [0, 8, 2, 0]];
    assert_eq!(
        tiles_of(slide(board_of(&tiles), 0).0),
        [[4, 16, 2, 8], [4, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0]]
    );
    assert_eq!(
        tiles_of(slide(board_of(&tiles), 2).0),
        [[0, 0, 0, 0], [0, 0, 0, 0], [4, 0, 0, 0], [4, 16, 2, 8]]
    );
}

#[test]
fn table_slides_agree_with_tile_by_tile_slides_on_random_boards() {
    let mut rng = Rng::from_seed(11);
    for _ in 0..3000 {
        let mut tiles = [[0u32; 4]; 4];
        for tile in tiles.iter_mut().flatten() {
            let e = rng.below(6) as u32;
            *tile = if e == 0 { 0 } else { 1 << e };
        }
        let b = board_of(&tiles);
        assert_eq!(tiles_of(b), tiles);
        let t = transpose(b);
        for (r, c) in (0..16).map(|i| (i / 4, i % 4)) {
            assert_eq!(exponent(t, 4 * c + r), exponent(b, 4 * r + c));
        }
        for (d, name) in DIRECTIONS.iter().enumerate() {
            let (after, points) = slide(b, d);
            assert_eq!(
                (tiles_of(after), points),
                slide_by_tiles(tiles, d),
                "{tiles:?} {name}"
            );
        }
    }
}

#[test]
fn moves_that_change_nothing_and_hedges_are_refused_and_text_is_exact() {
    let mut g = game(64, [[2, 0, 0, 0], [4, 0, 0, 0], [0; 4], [0; 4]]);
    assert_eq!(g.legal(), vec![1, 2]);
    assert_eq!(
        g.observe(0).legal_actions,
        Some(vec!["right".to_string(), "down".to_string()])
    );
    let err = g.apply(0, 3).unwrap_err();
    assert_eq!(
        err.reason,
        "`left` changes nothing on this board; legal moves: right, down"
    );
    assert!(g.apply(0, 0).is_err());
    assert_eq!(g.parse_action(0, "Move: LEFT"), Ok(3));
    assert!(g.parse_action(0, "left or down").is_err());
    assert!(g.parse_action(0, "leftdown").is_err());
    assert!(g.parse_action(0, "").is_err());
    assert_eq!(
        g.observe(0).text,
        "2048. Reply up, right, down or left: every tile slides that way as far as it goes, and two equal \
         tiles that meet merge into one tile of their sum (each tile at most once per move), which adds to \
         your score. After each move a 2 (one time in ten a 4) appears on a random empty square. A move that \
         changes nothing is not allowed. Make a 64 tile to win; the game also ends when no move changes the \
         board.\nScore 0, moves 0, largest tile 4.\n    2    .    .    .\n    4    .    .    .\n    .    .    \
         .    .\n    .    .    .    .\nYour move: reply with one of right, down."
    );
    let events = g.apply(0, 1).unwrap();
    assert!(events[0].starts_with("right (+0); a "), "{events:?}");
    assert_eq!(g.moves(), 1);
    assert_eq!(empty_cells(g.board()).len(), 13, "one new tile");
}

#[test]
fn the_game_ends_at_the_target_tile_without_a_new_tile() {
    let mut g = game(64, [[32, 32, 0, 0], [0; 4], [0; 4], [0; 4]]);
    let events = g.apply(0, 3).unwrap();
    assert_eq!(
        events,
        vec!["left (+64)".to_string(), "made 64".to_string()]
    );
    assert_eq!(g.turn(), Turn::Over);
    assert_eq!(tiles_of(g.board())[0], [64, 0, 0, 0]);
    assert_eq!(empty_cells(g.board()).len(), 15);
    let score = g.score(0);
    assert!(score.passed);
    assert_eq!(score.reward, 1.0);
    assert_eq!(score.breakdown["score"], 64.0);
    assert_eq!(g.observe(0).legal_actions, Some(Vec::new()));
    assert!(
        g.observe(0)
            .text
            .ends_with("Game over: you made the 64 tile.")
    );
    assert!(g.oracle(0).is_none() && g.heuristic(0, &mut Rng::from_seed(1)).is_none());
}

#[test]
fn the_game_ends_when_no_move_changes_the_board() {
    let full = [[2, 4, 2, 4], [4, 2, 4, 2], [2, 4, 2, 4], [4, 2, 4, 8]];
    let g = game(2048, full);
    assert!(g.legal().is_empty());
    assert_eq!(g.turn(), Turn::Over);
    let score = g.score(0);
    assert!(!score.passed);
    assert_eq!(score.reward, 3.0 / 11.0);
    assert!(
        g.observe(0)
            .text
            .ends_with("Game over: no move changes the board.")
    );
    // A full board with one merge left is not over.
    let mut one = full;
    one[3][3] = 4;
    assert_eq!(game(2048, one).legal(), vec![0, 1, 2, 3]);
}

#[test]
fn new_tiles_are_twos_nine_times_in_ten_on_uniform_empty_squares() {
    let mut rng = Rng::from_seed(3);
    let (mut fours, mut squares, n) = (0, [0u32; 16], 40_000);
    for _ in 0..n {
        let mut b = board_of(&[[2, 0, 0, 0], [0; 4], [0; 4], [0; 4]]);
        let (i, v) = spawn(&mut b, &mut rng).unwrap();
        assert!(i > 0 && (v == 2 || v == 4));
        fours += u32::from(v == 4);
        squares[i] += 1;
    }
    let rate = f64::from(fours) / f64::from(n);
    assert!((rate - 0.1).abs() < 0.01, "{rate}");
    for &count in &squares[1..] {
        let share = f64::from(count) / f64::from(n);
        assert!((share - 1.0 / 15.0).abs() < 0.01, "{squares:?}");
    }
}

#[test]
fn configs_are_checked_and_tasks_are_two_tiles() {
    for bad in [8, 100, 4096, 0] {
        let config = TwentyFortyEightConfig { target: bad };
        assert!(TwentyFortyEight::validate(&config).is_err(), "{bad}");
    }
    let config = TwentyFortyEightConfig { target: 128 };
    assert!(TwentyFortyEight::validate(&config).is_ok());
    for seed in 0..50 {
        let t = TwentyFortyEight::generate(&config, &mut Rng::from_seed(seed));
        let tiles: Vec<u32> = t
            .tiles
            .iter()
            .flatten()
            .copied()
            .filter(|&v| v > 0)
            .collect();
        assert_eq!(tiles.len(), 2);
        assert!(tiles.iter().all(|&v| v == 2 || v == 4));
    }
}

/// Plays one game of `target` with `choose` picking each move; returns the
/// game at its end.
fn play_out(
    target: u32,
    seed: u64,
    mut choose: impl FnMut(&TwentyFortyEight, &mut Rng) -> usize,
) -> TwentyFortyEight {
    let config = TwentyFortyEightConfig { target };
    let mut rng = Rng::from_seed(seed);
    let mut g =
        TwentyFortyEight::reset(&TwentyFortyEight::generate(&config, &mut rng), rng.fork(1));
    while !g.over() {
        let d = choose(&g, &mut rng);
        g.play(d);
    }
    g
}

#[test]
fn the_oracle_makes_256_and_the_ladder_climbs() {
    let games = 12;
    let mut means = Vec::new();
    for name in ["random", "heuristic", "oracle"] {
        let mut total = 0.0;
        for seed in 0..games {
            let g = play_out(256, seed, |g, rng| match name {
                "random" => *rng.choose(&g.legal()).unwrap(),
                "heuristic" => corner_move(g.board()).unwrap(),
                _ => expectimax_move(g.board(), 8).unwrap(),
            });
            if name == "oracle" {
                assert!(g.reached(), "seed {seed}:\n{}", g.render());
            }
            total += g.score(0).reward;
        }
        means.push(total / games as f64);
    }
    eprintln!(
        "2048 to 256: mean reward random {:.3}, heuristic {:.3}, oracle {:.3}",
        means[0], means[1], means[2]
    );
    assert!(means[0] < means[1] && means[1] < means[2], "{means:?}");
}

/// The cells of the four lines a slide in each direction moves along,
/// each from the wall it moves toward.
const LINES: [[[usize; 4]; 4]; 4] = {
    let mut lines = [[[0; 4]; 4]; 4];
    let mut k = 0;
    while k < 4 {
        let mut i = 0;
        while i < 4 {
            lines[0][k][i] = 4 * i + k;
            lines[1][k][i] = 4 * k + 3 - i;
            lines[2][k][i] = 4 * (3 - i) + k;
            lines[3][k][i] = 4 * k + i;
            i += 1;
        }
        k += 1;
    }
    lines
};

/// The cells where a slide of `b` in direction `d` makes merged tiles.
fn merged_cells(b: Board, d: usize) -> u16 {
    let mut mask = 0;
    for line in &LINES[d] {
        let (mut tiles, mut n) = ([0u8; 4], 0);
        for &i in line {
            if exponent(b, i) > 0 {
                tiles[n] = exponent(b, i);
                n += 1;
            }
        }
        let (mut i, mut k) = (0, 0);
        while i < n {
            if i + 1 < n && tiles[i] == tiles[i + 1] {
                mask |= 1 << line[k];
                i += 2;
            } else {
                i += 1;
            }
            k += 1;
        }
    }
    mask
}

/// Whether OpenSpiel's `2048` lists direction `d`: its legality check
/// (`DoesActionChangeBoard`) reads the merge flags the previous move left on
/// the tiles it merged (`merged`), so a move whose only change would merge
/// into such a tile is not listed, although it changes the board.
fn openspiel_lists(b: Board, merged: u16, d: usize) -> bool {
    LINES[d].iter().any(|line| {
        (1..4).any(|i| {
            let tile = exponent(b, line[i]);
            if tile == 0 {
                return false;
            }
            if exponent(b, line[i - 1]) == 0 {
                return true;
            }
            let next = line[i - 1];
            exponent(b, next) == tile && merged & (1 << next) == 0
        })
    })
}

#[test]
fn openspiel_lists_the_moves_that_change_the_board_but_for_stale_merges() {
    // A board OpenSpiel's random play met: when the 4 in row 1, column 1
    // merged on the previous move, `up` (whose only change would merge the
    // 4 below into it) is not listed.
    let b = board_of(&[[4, 8, 0, 2], [4, 4, 0, 0], [2, 2, 0, 0], [0; 4]]);
    assert_eq!(legal_moves(b), vec![0, 1, 2, 3]);
    let listed = |merged| {
        (0..4)
            .filter(|&d| openspiel_lists(b, merged, d))
            .collect::<Vec<_>>()
    };
    assert_eq!(listed(1), vec![1, 2, 3]);
    assert_eq!(listed(1 << 4), vec![0, 1, 2, 3]);
    assert_eq!(listed(0), vec![0, 1, 2, 3]);
    let before = board_of(&[[2, 2, 0, 0], [2, 2, 0, 0], [0; 4], [0; 4]]);
    assert_eq!(merged_cells(before, 3), 1 | 1 << 4);
    // With no merge flags the two agree on random boards.
    let mut rng = Rng::from_seed(2);
    for _ in 0..2000 {
        let b = (0..16).fold(0, |b, i| b | (rng.below(5) << (4 * i)));
        let listed: Vec<usize> = (0..4).filter(|&d| openspiel_lists(b, 0, d)).collect();
        assert_eq!(listed, legal_moves(b));
    }
}

/// Random games with OpenSpiel's default `max_tile`, through `play`.
const AGREEMENT_GAMES: u64 = 100_000;

#[test]
fn random_play_agrees_with_openspiel() {
    let json = include_str!("../agreement/2048.json");
    assert!(json.contains(r#""openspiel_game": "2048(max_tile=2048)""#));
    let config = TwentyFortyEightConfig::default();
    crate::games::agreement::check_one_player("2048", json, "max_tile", AGREEMENT_GAMES, |rng| {
        let task = TwentyFortyEight::generate(&config, rng);
        let mut g = TwentyFortyEight::reset(&task, rng.fork(0));
        // Uniform over the moves OpenSpiel lists (see `openspiel_lists`).
        let mut merged = 0;
        while !g.reached() {
            let b = g.board();
            let (mut listed, mut n) = ([0; 4], 0);
            for d in (0..4).filter(|&d| openspiel_lists(b, merged, d)) {
                listed[n] = d;
                n += 1;
            }
            let Some(&d) = rng.choose(&listed[..n]) else {
                break;
            };
            merged = merged_cells(b, d);
            g.play(d);
        }
        assert!(
            g.over(),
            "OpenSpiel lists no move, but one is legal:\n{}",
            g.render()
        );
        (
            f64::from(g.score_points()),
            u64::from(g.moves()),
            u64::from(g.largest_tile()),
        )
    });
}
