//! Tests of the rules, observations and oracle.
use super::*;

fn game() -> Negotiation {
    let task = NegotiationTask {
        inventories: [vec![3, 0, 1], vec![0, 2, 2]],
        values: [vec![1, 5, 2], vec![4, 1, 3]],
        turns: 4,
    };
    Negotiation::reset(&task, Rng::from_seed(0))
}

fn act(g: &mut Negotiation, text: &str) -> Result<Vec<String>, InvalidAction> {
    let deal = g.parse_action(g.to_move(), text)?;
    g.apply(g.to_move(), deal)
}

#[test]
fn trades_move_goods_and_gains_decide() {
    let mut g = game();
    act(&mut g, "Offer: give 2 wood for 1 stone").unwrap();
    act(&mut g, "accept").unwrap();
    assert_eq!(
        g.render(),
        "[1 wood 1 stone 1 grain] [2 wood 1 stone 2 grain] gains +3 +7"
    );
    act(&mut g, "pass").unwrap();
    act(&mut g, "reject").unwrap();
    assert_eq!(g.turn(), Turn::Over);
    assert_eq!(g.winner(), Some(1));
    assert_eq!(g.score(0).breakdown["gain"], 3.0);
    assert_eq!(g.score(0).reward + g.score(1).reward, 0.0);
}

#[test]
fn offers_must_be_feasible_and_single() {
    let mut g = game();
    assert!(
        act(&mut g, "offer give 1 stone for 1 wood").is_err(),
        "player 0 holds no stone"
    );
    assert!(
        act(&mut g, "offer give 1 wood for 3 stone").is_err(),
        "player 1 holds 2 stone"
    );
    assert!(act(&mut g, "accept").is_err(), "nothing to accept");
    assert!(g.parse_action(0, "accept or reject").is_err());
    assert!(g.parse_action(0, "offer give 1 gold for 1 wood").is_err());
    assert!(g.parse_action(0, "offer give 1 wood").is_err());
    assert_eq!(
        g.parse_action(0, "offer give 2 woods and 1 grain for stone"),
        Ok(Deal::Offer(Offer {
            give: vec![2, 0, 1],
            get: vec![0, 1, 0]
        }))
    );
    assert_eq!(
        g.parse_action(0, "Offer: I will give you 1 wood for 1 stone."),
        Ok(Deal::Offer(Offer {
            give: vec![1, 0, 0],
            get: vec![0, 1, 0]
        }))
    );
    act(&mut g, "offer give 1 wood for 1 stone").unwrap();
    assert!(act(&mut g, "offer give 1 stone for 5 wood").is_err());
}

#[test]
fn values_stay_private() {
    let mut g = game();
    act(&mut g, "offer give 1 wood for 1 grain").unwrap();
    let seen = g.observe(1);
    assert_eq!(
        seen.text,
        "Negotiation. You and your opponent trade resources (wood, stone, grain). Each unit is worth something \
         to you (your values below, which the opponent does not see) and possibly something else to them. At \
         the end, whoever gained more value from their starting inventory, by their own values, wins. On your \
         turn reply with `offer give <goods> for <goods>` (like `offer give 2 wood for 1 stone`), `accept` \
         (take the opponent's pending offer) or `reject`.\nYou are player 1. Your values per unit: wood 4, \
         stone 1, grain 3.\nYour inventory: 2 stone 2 grain. Opponent's inventory: 3 wood 1 grain.\nYour gain \
         so far: +0.\nturn 1: opponent: offer give 1 wood for 1 grain\nPending offer to you: you would give 1 \
         grain and get 1 wood. Your turn (3 turns left in the game)."
    );
    assert!(!seen.text.contains("wood 1,") && !seen.structured.to_string().contains("[1,5,2]"));
}

#[test]
fn the_scripted_trader_beats_random_play() {
    let config = NegotiationConfig::default();
    let (mut wins, mut losses, games) = (0, 0, 300);
    for seed in 0..games {
        let mut rng = Rng::from_seed(seed);
        let task = Negotiation::generate(&config, &mut rng);
        let mut g = Negotiation::reset(&task, Rng::from_seed(0));
        let seat = (seed % 2) as usize;
        while !g.over() {
            let p = g.to_move();
            let text = if p == seat {
                g.oracle(p).unwrap()
            } else {
                g.random_action(p, &mut rng)
            };
            let deal = g.parse_action(p, &text).unwrap();
            if g.apply(p, deal).is_err() {
                g.apply(p, Deal::Reject).unwrap();
            }
        }
        wins += u32::from(g.winner() == Some(seat));
        losses += u32::from(g.winner() == Some(1 - seat));
    }
    eprintln!("negotiation: oracle {wins} wins, {losses} losses of {games} against random");
    assert!(wins > 2 * losses, "{wins} wins, {losses} losses");
}
