//! The episode rules on the server: `/v1/episodes` runs the same episode
//! session as the driver, the seat episodes and offline scoring.

use serde_json::json;
use verigym_cli::serve::ServeOptions;

use crate::serve::call_as;
use crate::util::start_server as start;

#[test]
fn refusals_past_the_retries_forfeit_as_in_every_other_runner() {
    // The episode rules are the same session the driver and offline scoring
    // use: two retries per turn, the third refusal forfeits.
    let server = start(ServeOptions::default());
    let addr = server.addr().to_string();
    let (status, episode) = call_as(
        &addr,
        "POST",
        "/v1/episodes",
        Some(&json!({"id": "games/tictactoe-v1", "seed": 4, "view": "all"})),
        None,
    );
    assert_eq!(status, 200, "{episode}");
    let id = episode["episode_id"].as_str().unwrap().to_string();
    let token = episode["tokens"]["creator"].as_str().unwrap().to_string();
    let mover = episode["info"]["current_player"].as_u64().unwrap();
    let step = format!("/v1/episodes/{id}/step");
    for left in [2, 1] {
        let (status, refused) = call_as(
            &addr,
            "POST",
            &step,
            Some(&json!({"action": "99"})),
            Some(&token),
        );
        assert_eq!(status, 400, "{refused}");
        assert!(
            refused["error"]
                .as_str()
                .unwrap_or_default()
                .contains(&format!("{left} more refused action(s)")),
            "{refused}"
        );
    }
    let (status, last) = call_as(
        &addr,
        "POST",
        &step,
        Some(&json!({"action": "99"})),
        Some(&token),
    );
    assert_eq!(status, 400, "{last}");
    assert!(
        last["error"]
            .as_str()
            .unwrap_or_default()
            .contains("forfeits"),
        "{last}"
    );
    let (status, shown) = call_as(
        &addr,
        "GET",
        &format!("/v1/episodes/{id}"),
        None,
        Some(&token),
    );
    assert_eq!(status, 200, "{shown}");
    assert_eq!(shown["truncated"], true, "{shown}");
    assert_eq!(shown["info"]["invalid_actions"], 3);
    assert_eq!(shown["info"]["to_move"], json!([]));
    let scores = &shown["info"]["scores"];
    assert_eq!(scores[mover as usize]["reward"], -1.0, "{shown}");
    assert_eq!(scores[1 - mover as usize]["reward"], 1.0, "{shown}");
    let (status, _) = call_as(
        &addr,
        "POST",
        &step,
        Some(&json!({"action": "5"})),
        Some(&token),
    );
    assert_eq!(status, 409, "a forfeited episode takes no more moves");
}
