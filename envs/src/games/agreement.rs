//! Agreement with an independent implementation: a game's random-vs-random
//! outcome rates and mean length against OpenSpiel's ([`check`]), or for a
//! one-player game its random play's mean score, mean length and the
//! distribution of a final quantity ([`check_one_player`]), or for a game of
//! more seats each turn-order position's win rate and mean return
//! ([`check_many`]), as written by
//! `scripts/openspiel-stats.py` into `envs/src/games/agreement/NAME.json`.

use serde::Deserialize;

use crate::rng::Rng;

/// OpenSpiel's random-vs-random statistics for one game.
#[derive(Deserialize)]
pub struct OpenSpiel {
    pub openspiel_game: String,
    pub games: u64,
    pub p0_wins: u64,
    pub p1_wins: u64,
    pub draws: u64,
    pub mean_plies: f64,
    pub sd_plies: f64,
}

/// How one random game ended: the winner (`None` for a draw) and its
/// length in plies.
pub type Outcome = (Option<usize>, u64);

/// Standard errors two independent estimates of one quantity may differ by.
const Z: f64 = 4.5;

/// Plays `games` seeded random games with `play` and checks player 0's and
/// player 1's win rates, the draw rate and the mean length against
/// OpenSpiel's `json`, each within [`Z`] standard errors of the difference
/// (pooled binomial for rates, the two sample deviations for the length).
/// Prints the counts and random-play steps per second.
///
/// # Panics
/// On any disagreement, or an unreadable `json`.
pub fn check(name: &str, json: &str, games: u64, mut play: impl FnMut(&mut Rng) -> Outcome) {
    let theirs: OpenSpiel = serde_json::from_str(json).expect("an OpenSpiel statistics file");
    let mut rng = Rng::from_seed(38);
    let mut outcomes = [0u64; 3];
    let (mut plies, mut plies_sq) = (0.0, 0.0);
    let started = std::time::Instant::now();
    for _ in 0..games {
        let (winner, n) = play(&mut rng);
        outcomes[winner.unwrap_or(2)] += 1;
        plies += n as f64;
        plies_sq += (n * n) as f64;
    }
    let seconds = started.elapsed().as_secs_f64();
    let (n_ours, n_theirs) = (games as f64, theirs.games as f64);
    let mean = plies / n_ours;
    let sd = (plies_sq / n_ours - mean * mean).max(0.0).sqrt();
    eprintln!(
        "{name} random play: {outcomes:?} of {games}, mean {mean:.2} plies; OpenSpiel ({}) [{}, {}, {}] of {}, \
         mean {:.2}; {:.0} steps/s",
        theirs.openspiel_game,
        theirs.p0_wins,
        theirs.p1_wins,
        theirs.draws,
        theirs.games,
        theirs.mean_plies,
        plies / seconds
    );
    for (what, ours, other) in [
        ("player 0 wins", outcomes[0], theirs.p0_wins),
        ("player 1 wins", outcomes[1], theirs.p1_wins),
        ("draws", outcomes[2], theirs.draws),
    ] {
        let (a, b) = (ours as f64 / n_ours, other as f64 / n_theirs);
        let pooled = (ours + other) as f64 / (n_ours + n_theirs);
        let se = (pooled * (1.0 - pooled) * (1.0 / n_ours + 1.0 / n_theirs)).sqrt();
        assert!(
            (a - b).abs() <= Z * se,
            "{name} {what}: ours {ours} of {games}, OpenSpiel {other} of {}",
            theirs.games
        );
    }
    let se = (sd * sd / n_ours + theirs.sd_plies * theirs.sd_plies / n_theirs).sqrt();
    assert!(
        (mean - theirs.mean_plies).abs() <= Z * se,
        "{name} mean length: ours {mean:.3}, OpenSpiel {:.3} (se {se:.3})",
        theirs.mean_plies
    );
}

/// OpenSpiel's random-play statistics for a one-player game.
#[derive(Deserialize)]
pub struct OnePlayer {
    pub openspiel_game: String,
    pub games: u64,
    pub mean_score: f64,
    pub sd_score: f64,
    pub mean_plies: f64,
    pub sd_plies: f64,
}

/// How one random one-player game ended: its final score, its length in
/// moves, and the value of a final quantity whose distribution is compared
/// (2048: the largest tile).
pub type Solo = (f64, u64, u64);

/// Whether two sample means, with these deviations and sizes, agree within
/// [`Z`] standard errors of their difference.
fn means_agree(a: (f64, f64, f64), b: (f64, f64, f64)) -> (bool, f64) {
    let ((ma, sa, na), (mb, sb, nb)) = (a, b);
    let se = (sa * sa / na + sb * sb / nb).sqrt();
    ((ma - mb).abs() <= Z * se, se)
}

/// Plays `games` seeded random games with `play` and checks the mean score,
/// the mean length and the rate of every value of the distribution named
/// `what` in OpenSpiel's `json`, each within [`Z`] standard errors of the
/// difference (the two sample deviations for means, pooled binomial for
/// rates). Prints both sides and random-play steps per second.
///
/// # Panics
/// On any disagreement, or an unreadable `json`.
pub fn check_one_player(
    name: &str,
    json: &str,
    what: &str,
    games: u64,
    mut play: impl FnMut(&mut Rng) -> Solo,
) {
    let theirs: OnePlayer = serde_json::from_str(json).expect("an OpenSpiel statistics file");
    let raw: serde_json::Value = serde_json::from_str(json).expect("JSON");
    let their_counts: std::collections::BTreeMap<u64, u64> = raw[what]
        .as_object()
        .unwrap_or_else(|| panic!("`{what}` counts in the statistics file"))
        .iter()
        .map(|(k, v)| {
            (
                k.parse().expect("numeric keys"),
                v.as_u64().expect("counts"),
            )
        })
        .collect();
    let mut rng = Rng::from_seed(38);
    let mut counts = std::collections::BTreeMap::<u64, u64>::new();
    let (mut score, mut score_sq, mut plies, mut plies_sq) = (0.0, 0.0, 0.0, 0.0);
    let started = std::time::Instant::now();
    for _ in 0..games {
        let (points, n, value) = play(&mut rng);
        score += points;
        score_sq += points * points;
        plies += n as f64;
        plies_sq += (n * n) as f64;
        *counts.entry(value).or_default() += 1;
    }
    let seconds = started.elapsed().as_secs_f64();
    let (n_ours, n_theirs) = (games as f64, theirs.games as f64);
    let moments = |sum: f64, sq: f64| {
        let mean = sum / n_ours;
        (mean, (sq / n_ours - mean * mean).max(0.0).sqrt())
    };
    let (mean_score, sd_score) = moments(score, score_sq);
    let (mean_plies, sd_plies) = moments(plies, plies_sq);
    eprintln!(
        "{name} random play: mean score {mean_score:.2}, mean length {mean_plies:.2}, {what} {counts:?} of {games}; \
         OpenSpiel ({}) mean score {:.2}, mean length {:.2}, {what} {their_counts:?} of {}; {:.0} steps/s",
        theirs.openspiel_game,
        theirs.mean_score,
        theirs.mean_plies,
        theirs.games,
        plies / seconds
    );
    for (quantity, ours, other) in [
        (
            "mean score",
            (mean_score, sd_score),
            (theirs.mean_score, theirs.sd_score),
        ),
        (
            "mean length",
            (mean_plies, sd_plies),
            (theirs.mean_plies, theirs.sd_plies),
        ),
    ] {
        let (agree, se) = means_agree((ours.0, ours.1, n_ours), (other.0, other.1, n_theirs));
        assert!(
            agree,
            "{name} {quantity}: ours {:.3}, OpenSpiel {:.3} (se {se:.3})",
            ours.0, other.0
        );
    }
    let values: std::collections::BTreeSet<u64> =
        counts.keys().chain(their_counts.keys()).copied().collect();
    for value in values {
        let ours = counts.get(&value).copied().unwrap_or(0);
        let other = their_counts.get(&value).copied().unwrap_or(0);
        let (a, b) = (ours as f64 / n_ours, other as f64 / n_theirs);
        let pooled = (ours + other) as f64 / (n_ours + n_theirs);
        let se = (pooled * (1.0 - pooled) * (1.0 / n_ours + 1.0 / n_theirs)).sqrt();
        assert!(
            (a - b).abs() <= Z * se,
            "{name} {what} {value}: ours {ours} of {games}, OpenSpiel {other} of {}",
            theirs.games
        );
    }
}

/// OpenSpiel's random-play statistics for a game of more than two seats,
/// counted in turn order from the first mover.
#[derive(Deserialize)]
pub struct ManyPlayers {
    pub openspiel_game: String,
    pub games: u64,
    pub players: usize,
    /// `wins[k]`: games the k-th mover alone ended with the highest return.
    pub wins: Vec<u64>,
    /// Games whose highest return was shared.
    pub ties: u64,
    pub mean_return: Vec<f64>,
    pub sd_return: Vec<f64>,
    pub mean_plies: f64,
    pub sd_plies: f64,
}

/// How one random game of several seats ended, in turn order from the
/// first mover: the sole best seat (`None` for a shared best), each seat's
/// return, and the length in plies.
pub type Table = (Option<usize>, Vec<f64>, u64);

/// Plays `games` seeded random games with `play` and checks each
/// turn-order position's win rate, the tie rate, each position's mean
/// return and the mean length against OpenSpiel's `json`, each within
/// [`Z`] standard errors of the difference. Prints both sides and
/// random-play steps per second.
///
/// # Panics
/// On any disagreement, or an unreadable `json`.
pub fn check_many(name: &str, json: &str, games: u64, mut play: impl FnMut(&mut Rng) -> Table) {
    let theirs: ManyPlayers = serde_json::from_str(json).expect("an OpenSpiel statistics file");
    let n = theirs.players;
    let mut rng = Rng::from_seed(38);
    let mut wins = vec![0u64; n + 1];
    let (mut ret, mut ret_sq) = (vec![0.0; n], vec![0.0; n]);
    let (mut plies, mut plies_sq) = (0.0, 0.0);
    let started = std::time::Instant::now();
    for _ in 0..games {
        let (winner, returns, length) = play(&mut rng);
        wins[winner.unwrap_or(n)] += 1;
        for (k, r) in returns.iter().enumerate() {
            ret[k] += r;
            ret_sq[k] += r * r;
        }
        plies += length as f64;
        plies_sq += (length * length) as f64;
    }
    let seconds = started.elapsed().as_secs_f64();
    let (n_ours, n_theirs) = (games as f64, theirs.games as f64);
    let moments = |sum: f64, sq: f64| {
        let mean = sum / n_ours;
        (mean, (sq / n_ours - mean * mean).max(0.0).sqrt())
    };
    let returns: Vec<(f64, f64)> = (0..n).map(|k| moments(ret[k], ret_sq[k])).collect();
    let (mean_plies, sd_plies) = moments(plies, plies_sq);
    eprintln!(
        "{name} random play: wins by turn order {:?}, ties {}, mean returns {:?}, mean {mean_plies:.2} plies of \
         {games}; OpenSpiel ({}) wins {:?}, ties {}, mean returns {:?}, mean {:.2} plies of {}; {:.0} steps/s",
        &wins[..n],
        wins[n],
        returns
            .iter()
            .map(|r| (r.0 * 100.0).round() / 100.0)
            .collect::<Vec<_>>(),
        theirs.openspiel_game,
        theirs.wins,
        theirs.ties,
        theirs.mean_return,
        theirs.mean_plies,
        theirs.games,
        plies / seconds
    );
    let their_counts = theirs.wins.iter().copied().chain([theirs.ties]);
    for (k, (ours, other)) in wins.iter().copied().zip(their_counts).enumerate() {
        let (a, b) = (ours as f64 / n_ours, other as f64 / n_theirs);
        let pooled = (ours + other) as f64 / (n_ours + n_theirs);
        let se = (pooled * (1.0 - pooled) * (1.0 / n_ours + 1.0 / n_theirs)).sqrt();
        assert!(
            (a - b).abs() <= Z * se,
            "{name} {}: ours {ours} of {games}, OpenSpiel {other} of {}",
            if k < n {
                format!("wins of mover {k}")
            } else {
                "ties".to_string()
            },
            theirs.games
        );
    }
    for (k, &(mean, sd)) in returns.iter().enumerate() {
        let (agree, se) = means_agree(
            (mean, sd, n_ours),
            (theirs.mean_return[k], theirs.sd_return[k], n_theirs),
        );
        assert!(
            agree,
            "{name} mean return of mover {k}: ours {mean:.3}, OpenSpiel {:.3} (se {se:.3})",
            theirs.mean_return[k]
        );
    }
    let (agree, se) = means_agree(
        (mean_plies, sd_plies, n_ours),
        (theirs.mean_plies, theirs.sd_plies, n_theirs),
    );
    assert!(
        agree,
        "{name} mean length: ours {mean_plies:.3}, OpenSpiel {:.3} (se {se:.3})",
        theirs.mean_plies
    );
}
