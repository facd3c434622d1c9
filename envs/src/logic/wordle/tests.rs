//! Tests of the Wordle-like env: marks, the reference player, refusals, hacks.
use super::*;
use crate::rng::mix_seed;

fn levels() -> Vec<WordleConfig> {
    Wordle::LEVELS
        .iter()
        .map(|patch| serde_json::from_str(patch).unwrap())
        .collect()
}

fn play(env: &mut Wordle, text: &str) -> Result<(), InvalidAction> {
    let guess = env.parse_action(0, text)?;
    env.apply(0, guess).map(|_| ())
}

/// Plays `answer(env)` each turn until the game ends or a reply is
/// refused; whether the secret was found.
fn passes(task: &WordleTask, answer: impl Fn(&Wordle) -> String) -> bool {
    let mut env = Wordle::reset(task, Rng::from_seed(0));
    while env.turn() != Turn::Over {
        let text = answer(&env);
        if play(&mut env, &text).is_err() {
            break;
        }
    }
    env.score(0).passed
}

fn hand_task() -> WordleTask {
    WordleTask {
        length: 4,
        max_guesses: 4,
        words: ["BABA", "BABE", "BEBA", "DABE", "DEDE"]
            .map(String::from)
            .to_vec(),
        secret: "DABE".into(),
    }
}

/// The marks read off the rules directly: the one marking (of all 3^n)
/// where G means an exact match, each letter gets G or Y as often as
/// it is shared (the smaller count), and a letter's Y come before its
/// grey on the non-green places.
fn brute_force(secret: &[u8], guess: &[u8]) -> Vec<u8> {
    let n = guess.len();
    let mut found = Vec::new();
    for code in 0..3usize.pow(n as u32) {
        let m: Vec<u8> = (0..n)
            .map(|i| (code / 3usize.pow(i as u32) % 3) as u8)
            .collect();
        let exact = (0..n).all(|i| (m[i] == 2) == (secret[i] == guess[i]));
        let shared = guess.iter().all(|&x| {
            let marked = (0..n).filter(|&i| guess[i] == x && m[i] > 0).count();
            let common = guess
                .iter()
                .filter(|&&c| c == x)
                .count()
                .min(secret.iter().filter(|&&c| c == x).count());
            marked == common
        });
        let leftmost =
            (0..n).all(|i| m[i] != 1 || (0..i).all(|j| guess[j] != guess[i] || m[j] != 0));
        if exact && shared && leftmost {
            found.push(m);
        }
    }
    assert_eq!(found.len(), 1, "{found:?}");
    found.pop().unwrap()
}

#[test]
fn marks_agree_with_an_independent_brute_force() {
    for (alphabet, n) in [(&b"ABC"[..], 4u32), (&b"ABCD"[..], 3)] {
        let k = alphabet.len();
        let word =
            |code: usize| -> Vec<u8> { (0..n).map(|i| alphabet[code / k.pow(i) % k]).collect() };
        for a in 0..k.pow(n) {
            for b in 0..k.pow(n) {
                let (secret, guess) = (word(a), word(b));
                let m = marks(&secret, &guess);
                assert_eq!(
                    m[..n as usize],
                    brute_force(&secret, &guess)[..],
                    "{secret:?} {guess:?}"
                );
            }
        }
    }
}

#[test]
fn repeated_letters_are_marked_like_wordle() {
    let text = |s: &str, g: &str| marks_text(&marks(s.as_bytes(), g.as_bytes()), s.len());
    assert_eq!(text("BABE", "BBBB"), "G-G-");
    assert_eq!(text("BADE", "EBBB"), "YY--");
    assert_eq!(text("DABE", "BABA"), "-GG-");
    assert_eq!(text("KOKOK", "OKOKO"), "YYYY-");
    assert_eq!(text("ABCDE", "ABCDE"), "GGGGG");
    assert_eq!(text("LALA", "ALLA"), "YYGG");
    assert_eq!(text("MOMO", "OOOO"), "-G-G");
}

#[test]
fn the_reference_player_wins_every_level_within_its_budget() {
    for (level, config) in levels().iter().enumerate() {
        let mut worst = 0;
        for i in 0..200 {
            // Unguarded draws: the budget itself covers the worst case.
            let raw = draw(config, &mut Rng::from_seed(mix_seed(11, i)));
            worst = worst.max(reference_guesses(&raw));
            // Generated tasks, played through the env.
            let task = Wordle::generate(config, &mut Rng::from_seed(mix_seed(12, i)));
            let mut env = Wordle::reset(&task, Rng::from_seed(0));
            while env.turn() != Turn::Over {
                let guess = env.oracle(0).unwrap();
                play(&mut env, &guess).unwrap();
            }
            assert!(env.score(0).passed, "level {level}: {}", env.render());
        }
        assert!(
            worst <= config.max_guesses,
            "level {level}: worst case {worst}"
        );
    }
}

#[test]
fn the_observation_text_is_exact() {
    let mut env = Wordle::reset(&hand_task(), Rng::from_seed(0));
    play(&mut env, "Guess: baba").unwrap();
    play(&mut env, "\\boxed{D E D E}").unwrap();
    assert_eq!(
        env.observe(0).text,
        "Wordle: I have picked a secret word from the list below of 5 made-up words of 4 letters. \
         Find it in at most 4 guesses. Each guess must be a word from the list: reply with that one \
         word, like \\boxed{BABA}; other replies are refused and cost no guess. After each guess I mark \
         its letters in order: G = right letter in the right place, Y = the letter is in the secret \
         elsewhere, - = not in the secret. A letter guessed more often than the secret holds it is \
         marked Y only as often as the secret holds it beyond its G matches (leftmost first), and - \
         after that.\nWords: BABA BABE BEBA DABE DEDE\n\
         Guess 1: BABA -> -GG-\nGuess 2: DEDE -> G--G\nGuesses left: 2\n"
    );
    assert_eq!(
        env.render(),
        "secret=DABE words=5 left=2 [BABA:-GG- DEDE:G--G]"
    );
    assert_eq!(env.oracle(0).unwrap(), "DABE");
    play(&mut env, "DABE").unwrap();
    assert!(
        env.observe(0)
            .text
            .ends_with("Guess 3: DABE -> GGGG\nSolved.\n")
    );
    assert_eq!(env.turn(), Turn::Over);
    assert_eq!(env.observe(0).legal_actions, Some(Vec::new()));
    let score = env.score(0);
    assert!(score.passed);
    assert_eq!((score.reward, score.breakdown["guesses_used"]), (1.0, 3.0));
}

#[test]
fn bad_replies_are_refused_without_spending_a_guess() {
    let env = Wordle::reset(&hand_task(), Rng::from_seed(0));
    for bad in [
        "",
        "BAB",
        "BABAB",
        "BOBO",
        "BAB4",
        "BABA BABE",
        "BABA or BABE",
        "\\boxed{BABA} \\boxed{BABE}",
        "B A B",
        "DABE 1",
        "DABE\nDABE",
    ] {
        assert!(env.parse_action(0, bad).is_err(), "{bad:?}");
    }
    let refusal = env.parse_action(0, "BOBO").unwrap_err().reason;
    assert_eq!(refusal, "`BOBO` is not in the word list (no guess spent)");
    assert_eq!(env.guesses_left(), 4);
    for good in [
        "dabe",
        "d-a-b-e",
        "Guess: DABE",
        "<think>BABA?</think> \\boxed{DABE}",
        "Answer: DABE.",
    ] {
        assert_eq!(env.parse_action(0, good).unwrap(), "DABE", "{good:?}");
    }
}

#[test]
fn degenerate_echoed_hedged_and_padded_replies_never_pass() {
    for config in levels() {
        for i in 0..30 {
            let task = Wordle::generate(&config, &mut Rng::from_seed(mix_seed(13, i)));
            let (secret, first) = (task.secret.clone(), task.words[0].clone());
            assert_ne!(secret, first);
            assert!(passes(&task, |_| format!("\\boxed{{{secret}}}")));
            let constant: Vec<String> = degenerate_answers(Role::Checker)
                .map(|a| a.to_string())
                .chain([
                    first.clone(),
                    format!("\\boxed{{{secret}}} or \\boxed{{{first}}}"),
                    format!("{secret} or {first}"),
                    format!("{secret} 1"),
                    format!("{secret}\n{secret}"),
                    task.words.join(" "),
                ])
                .collect();
            for text in &constant {
                assert!(!passes(&task, |_| text.clone()), "{text:?} passed");
            }
            assert!(!passes(&task, |env| env.observe(0).text), "echo passed");
        }
    }
}

#[test]
fn a_lost_game_scores_zero_with_partial_credit_only_in_the_breakdown() {
    let mut env = Wordle::reset(&hand_task(), Rng::from_seed(0));
    while env.turn() != Turn::Over {
        play(&mut env, "BABE").unwrap();
    }
    let score = env.score(0);
    assert!(!score.passed);
    assert_eq!(score.reward, 0.0);
    assert_eq!(score.breakdown["greens"], 0.75);
    assert_eq!(score.breakdown["guesses_used"], 4.0);
}

#[test]
fn presets_are_levels_and_configs_are_checked() {
    for config in levels() {
        assert_eq!(Wordle::validate(&config), Ok(()));
    }
    assert_eq!(Wordle::LEVELS[2], "{}");
    for bad in [
        r#"{"length":2}"#,
        r#"{"length":9}"#,
        r#"{"words":2}"#,
        r#"{"max_guesses":0}"#,
        r#"{"vowels":6}"#,
        r#"{"length":3,"consonants":2,"vowels":2,"words":5}"#,
    ] {
        let config: WordleConfig = serde_json::from_str(bad).unwrap();
        assert!(Wordle::validate(&config).is_err(), "{bad}");
    }
    let effort: Vec<f64> = levels()
        .iter()
        .map(|c| Wordle::effort(&Wordle::generate(c, &mut Rng::from_seed(1))).unwrap())
        .collect();
    assert!(effort.windows(2).all(|w| w[0] < w[1]), "{effort:?}");
}

#[test]
fn blind_play_wins_under_ten_percent_at_every_level() {
    // A fixed order of guesses that ignores the marks wins only when the
    // secret is among its first `max_guesses` words: at most
    // max_guesses / (words - 1), the secret never being the first word.
    for (level, config) in levels().iter().enumerate() {
        let bound = config.max_guesses as f64 / (config.words - 1) as f64;
        assert!(bound < 0.051, "level {level}: blind bound {bound}");
        let mut wins = 0;
        for i in 0..200 {
            let task = Wordle::generate(config, &mut Rng::from_seed(mix_seed(13, i)));
            let mut env = Wordle::reset(&task, Rng::from_seed(0));
            for word in task.words.iter().rev() {
                if env.turn() == Turn::Over {
                    break;
                }
                play(&mut env, word).unwrap();
            }
            wins += usize::from(env.score(0).passed);
        }
        assert!(
            wins < 20,
            "level {level}: the last words in reverse won {wins}/200"
        );
    }
}
