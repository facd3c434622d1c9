use super::*;

fn guess(g: &mut Hangman, text: &str) -> Result<Vec<String>, InvalidAction> {
    let parsed = g.parse_action(0, text)?;
    g.apply(0, parsed)
}

#[test]
fn the_word_list_is_clean_and_licensed() {
    let text = include_str!("hangman_words.txt");
    assert!(text.lines().next().unwrap().starts_with('#'));
    assert!(text.contains("MIT OR Apache-2.0"));
    let list = words();
    assert!(list.len() > 400, "{}", list.len());
    assert!(list.windows(2).all(|w| w[0] < w[1]), "sorted and distinct");
    assert!(list.iter().all(|w| (5..=9).contains(&w.len())
        && w.bytes().all(|c| c.is_ascii_lowercase())
        && !FILLERS.contains(w)));
    // No listed word is part of the observation's own text, won or lost.
    for (word, misses, last) in [("banana", 6, "banana"), ("zebra", 1, "q")] {
        let mut g = Hangman::new(word, misses);
        let shown = |g: &Hangman| {
            let obs = g.observe(0);
            format!("{} {}", obs.text, obs.structured).to_lowercase()
        };
        let start = shown(&g);
        guess(&mut g, last).unwrap();
        let end = shown(&g);
        assert!(
            list.iter()
                .all(|w| !start.contains(w) && !end.contains(w) || *w == word)
        );
    }
}

#[test]
fn a_hand_played_game_reveals_letters_counts_misses_and_wins() {
    let mut g = Hangman::new("banana", 6);
    assert_eq!(guess(&mut g, "a").unwrap(), ["a: in the word"]);
    assert_eq!(g.pattern(), "_a_a_a");
    assert_eq!(guess(&mut g, "Letter: E").unwrap(), ["e: a miss"]);
    assert_eq!(guess(&mut g, "guess n").unwrap(), ["n: in the word"]);
    assert_eq!(g.pattern(), "_anana");
    assert_eq!(g.misses, 1);
    let text = g.observe(0).text;
    assert!(
        text.contains("Word: _ a n a n a\nMisses: 1 of 6 (e)\nTried letters: a, e, n\n"),
        "{text}"
    );
    assert_eq!(g.observe(0).legal_actions.unwrap().len(), 23);
    // A wrong word costs a miss; the right one wins.
    assert_eq!(guess(&mut g, "cabana").unwrap(), ["cabana: a miss"]);
    assert_eq!((g.misses, g.turn()), (2, Turn::Player(0)));
    assert!(g.observe(0).text.contains("Misses: 2 of 6 (e, cabana)"));
    assert_eq!(
        guess(&mut g, "BANANA").unwrap(),
        ["banana: in the word", "solved"]
    );
    assert_eq!(g.turn(), Turn::Over);
    assert_eq!(g.score(0).reward, 1.0);
    assert_eq!(g.score(0).breakdown.get("misses"), Some(&2.0));
    // Revealing every letter wins too.
    let mut g = Hangman::new("zebra", 6);
    for l in ["z", "e", "b", "r"] {
        guess(&mut g, l).unwrap();
    }
    assert_eq!(guess(&mut g, "a").unwrap(), ["a: in the word", "solved"]);
    assert!(g.score(0).passed);
}

#[test]
fn running_out_of_misses_loses_without_showing_the_word() {
    let mut g = Hangman::new("zebra", 2);
    guess(&mut g, "q").unwrap();
    assert_eq!(guess(&mut g, "x").unwrap(), ["x: a miss", "out of misses"]);
    assert_eq!(g.turn(), Turn::Over);
    let obs = g.observe(0);
    assert!(!obs.text.contains("zebra") && !obs.structured.to_string().contains("zebra"));
    assert!(obs.text.ends_with("Game over: out of misses."));
    assert_eq!(obs.legal_actions, Some(Vec::new()));
    assert!(!g.render().contains("zebra"));
    assert_eq!(g.score(0).reward, 0.0);
    assert!(!g.score(0).passed);
}

#[test]
fn repeats_wrong_lengths_and_hedges_are_refused() {
    let mut g = Hangman::new("banana", 6);
    guess(&mut g, "a").unwrap();
    guess(&mut g, "potato").unwrap();
    assert_eq!(
        guess(&mut g, "A").unwrap_err().reason,
        "you already tried a"
    );
    assert_eq!(
        guess(&mut g, "potato").unwrap_err().reason,
        "you already guessed potato"
    );
    assert_eq!(g.misses, 1);
    for text in [
        "e or a",
        "e, n",
        "banana or cabana",
        "",
        "42",
        "the",
        "apple",
    ] {
        assert!(g.parse_action(0, text).is_err(), "{text}");
    }
    assert!(
        g.parse_action(0, "apple")
            .unwrap_err()
            .reason
            .contains("has 5 letters but the word has 6")
    );
    assert_eq!(g.parse_action(0, "e e"), Ok(Guess::Letter(4)));
    assert_eq!(g.parse_action(0, "\"E\"."), Ok(Guess::Letter(4)));
    assert_eq!(
        g.parse_action(0, "the word: Banana"),
        Ok(Guess::Word("banana".into()))
    );
}

#[test]
fn the_reference_player_narrows_the_list_and_guesses_the_last_word() {
    // After z, only one listed five-letter word starts with it.
    let mut g = Hangman::new("zebra", 6);
    guess(&mut g, "z").unwrap();
    assert_eq!(g.candidates(), ["zebra"]);
    assert_eq!(g.oracle(0).as_deref(), Some("zebra"));
    // At the start it asks for a letter most six-letter words hold.
    let g = Hangman::new("banana", 6);
    let six: Vec<&str> = words().iter().copied().filter(|w| w.len() == 6).collect();
    assert_eq!(g.candidates(), six);
    let Some(Guess::Letter(l)) = g.best_guess() else {
        panic!()
    };
    let holders = |c: u8| six.iter().filter(|w| w.as_bytes().contains(&c)).count();
    assert!((b'a'..=b'z').all(|c| holders(c) <= holders(b'a' + l)));
    // The heuristic goes by English letter frequency.
    let mut g = Hangman::new("banana", 6);
    guess(&mut g, "e").unwrap();
    assert_eq!(g.heuristic(0, &mut Rng::from_seed(1)).as_deref(), Some("t"));
}

#[test]
fn every_level_draws_words_the_reference_finds_and_blind_play_misses() {
    for level in Hangman::LEVELS {
        let config: HangmanConfig = serde_json::from_str(level).unwrap();
        Hangman::validate(&config).unwrap();
        for seed in 0..60 {
            let task = Hangman::generate(&config, &mut Rng::from_seed(seed));
            let g = Hangman::reset(&task, Rng::from_seed(0));
            assert!(g.reference_wins(), "{level}: {}", task.word);
            assert!(!g.blind_wins(b'a'..=b'z') && !g.blind_wins((b'a'..=b'z').rev()));
        }
    }
    for bad in [r#"{"misses": 0}"#, r#"{"misses": 13}"#] {
        let config: HangmanConfig = serde_json::from_str(bad).unwrap();
        assert!(Hangman::validate(&config).is_err(), "{bad}");
    }
    let tight = HangmanConfig { misses: 1 };
    assert!(Hangman::try_generate(&tight, &mut Rng::from_seed(1)).is_ok());
}

/// The per-word memo answers as a fresh judgement does, the first time and after, and
/// some words are unfair (so the memo's "no" is exercised).
#[test]
fn the_fairness_memo_matches_a_fresh_judgement() {
    let mut unfair = 0;
    for misses in [2, DEFAULT_MISSES] {
        for (i, word) in words().iter().enumerate().step_by(3) {
            let g = Hangman::new(word, misses);
            let fresh = g.reference_wins()
                && !g.blind_wins(b'a'..=b'z')
                && !g.blind_wins((b'a'..=b'z').rev());
            assert_eq!(fair(i, misses), fresh, "{word} with {misses} misses");
            assert_eq!(
                fair(i, misses),
                fresh,
                "{word} with {misses} misses, memoised"
            );
            unfair += usize::from(!fresh);
        }
    }
    assert!(unfair > 0);
    // Out of the memo's range, it judges afresh.
    assert_eq!(fair(0, MAX_MISSES + 5), {
        let g = Hangman::new(words()[0], MAX_MISSES + 5);
        g.reference_wins() && !g.blind_wins(b'a'..=b'z') && !g.blind_wins((b'a'..=b'z').rev())
    });
}

/// Mean score of `pick` over `n` tasks at the default level.
fn mean_score(n: u64, mut pick: impl FnMut(&Hangman, &mut Rng) -> String) -> f64 {
    let mut total = 0.0;
    for seed in 0..n {
        let mut rng = Rng::from_seed(seed);
        let task = Hangman::generate(&HangmanConfig::default(), &mut rng);
        let mut g = Hangman::reset(&task, rng.fork(1));
        while !g.over() {
            let text = pick(&g, &mut rng);
            let obs = g.observe(0);
            // The hidden word never shows while the game runs.
            let shown = format!("{} {}", obs.text, obs.structured);
            assert!(!shown.contains(&task.word), "{}: {shown}", task.word);
            guess(&mut g, &text).unwrap();
        }
        total += g.score(0).reward;
    }
    total / n as f64
}

#[test]
fn random_play_scores_below_the_heuristic_which_scores_below_the_reference() {
    let random = mean_score(200, |g, rng| g.random_action(0, rng));
    let heuristic = mean_score(200, |g, rng| g.heuristic(0, rng).unwrap());
    let oracle = mean_score(200, |g, _| g.oracle(0).unwrap());
    eprintln!("hangman mean score: random {random}, heuristic {heuristic}, oracle {oracle}");
    // Random-play speed through the env's API (the task drawn once).
    let task = Hangman::generate(&HangmanConfig::default(), &mut Rng::from_seed(0));
    let (mut rng, mut steps) = (Rng::from_seed(1), 0);
    let started = std::time::Instant::now();
    for _ in 0..2_000 {
        let mut g = Hangman::reset(&task, Rng::from_seed(0));
        while !g.over() {
            let action = g.random_action(0, &mut rng);
            guess(&mut g, &action).unwrap();
            steps += 1;
        }
    }
    let rate = f64::from(steps) / started.elapsed().as_secs_f64();
    eprintln!("hangman random play: {rate:.0} steps/s");
    // Of 200 words: random play finds about 1, the frequency order about 15.
    assert!(random * 200.0 + 8.0 < heuristic * 200.0 && heuristic + 0.5 < oracle);
    assert_eq!(oracle, 1.0);
}
