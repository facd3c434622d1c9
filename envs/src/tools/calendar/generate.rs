//! Candidate tasks of `tools/calendar` (the env screens them): people, rooms
//! and bookings, the meeting, and the solver's earliest slot.

use serde_json::json;

use super::task::{CalendarConfig, CalendarTask, Meeting};
use super::time::{self, Booking, DAY, DAYS, Person, Room, earliest, overlaps, show};
use crate::rng::Rng;
use crate::toolkit::calls::call_text;
use crate::toolkit::final_answer::infeasible_answer;

const NAMES: &[&str] = &[
    "Amara", "Bjorn", "Chiara", "Dmitri", "Elif", "Farid", "Greta", "Hiro", "Isla", "Jonas",
    "Keanu", "Lucia",
];
const ROOMS: &[&str] = &["Aspen", "Birch", "Cedar", "Elm", "Maple", "Oak"];
const TITLES: &[&str] = &[
    "Design review",
    "Budget sync",
    "Hiring panel",
    "Launch retro",
    "Roadmap check",
];

pub(super) fn draw(config: &CalendarConfig, rng: &mut Rng) -> CalendarTask {
    let infeasible = rng.chance(config.infeasible_share);
    let base = rng.range_i64(-6, 6);
    let mut names = NAMES.to_vec();
    rng.shuffle(&mut names);
    let mut people: Vec<Person> = names[..config.people]
        .iter()
        .map(|n| Person {
            name: n.to_string(),
            utc_offset: (base + rng.range_i64(-3, 3)).clamp(-9, 9),
        })
        .collect();
    let rooms: Vec<Room> = ROOMS[..config.rooms]
        .iter()
        .map(|r| Room {
            name: r.to_string(),
            capacity: rng.range_usize(2, 8),
        })
        .collect();
    let by_zone = rng.chance(0.5);
    if infeasible && by_zone {
        // Two attendees whose working hours never overlap.
        people[1].utc_offset = if people[0].utc_offset > 0 {
            people[0].utc_offset - 9
        } else {
            people[0].utc_offset + 9
        };
    }
    let mut bookings: Vec<Booking> = Vec::new();
    for (i, p) in people.iter().enumerate() {
        for _ in 0..config.bookings_per_person {
            let w = time::windows(p)[rng.below(5) as usize];
            let minutes = 30 * rng.range_i64(1, 4);
            let start = w.0 + 30 * rng.range_i64(0, (w.1 - w.0 - minutes) / 30);
            let mut attendees = vec![p.name.clone()];
            if let Some(other) = people
                .get(rng.below(people.len() as u64) as usize)
                .filter(|o| o.name != p.name)
            {
                attendees.push(other.name.clone());
            }
            let room = rooms[rng.below(rooms.len() as u64) as usize].name.clone();
            let span = (start, start + minutes);
            if bookings.iter().any(|b| {
                overlaps((b.start, b.end), span)
                    && (b.room == room || b.attendees.iter().any(|a| attendees.contains(a)))
            }) {
                continue;
            }
            let title = format!("{} {}", TITLES[rng.below(TITLES.len() as u64) as usize], i);
            bookings.push(Booking {
                id: format!("B{}", bookings.len() + 1),
                title,
                room,
                start,
                end: start + minutes,
                attendees,
            });
        }
    }
    let attendees: Vec<String> = people[..config.attendees]
        .iter()
        .map(|p| p.name.clone())
        .collect();
    let refs: Vec<&Person> = people[..config.attendees].iter().collect();
    let minutes = 30 * rng.range_i64(1, 3);
    let any_day = rng.chance(0.5);
    let mut day = any_day.then(|| rng.range_i64(0, 4));
    if infeasible && !by_zone {
        // Fill the meeting's day for the first attendee.
        let d = *day.get_or_insert(rng.range_i64(0, 4));
        let w = time::windows(&people[0])[d as usize];
        bookings.retain(|b| {
            !(b.attendees.contains(&people[0].name)
                && overlaps((b.start, b.end), (d * DAY - DAY, d * DAY + 2 * DAY)))
        });
        bookings.push(Booking {
            id: format!("B{}", bookings.len() + 100),
            title: "Offsite".into(),
            room: "Remote".into(),
            start: w.0.min(d * DAY) - DAY,
            end: w.1.max((d + 1) * DAY) + DAY,
            attendees: vec![people[0].name.clone()],
        });
    }
    let slot = earliest(&refs, &rooms, minutes, &bookings, day);
    let title = TITLES[rng.below(TITLES.len() as u64) as usize].to_string();
    let who = match attendees.as_slice() {
        [a, b] => format!("{a} and {b}"),
        many => format!(
            "{} and {}",
            many[..many.len() - 1].join(", "),
            many[many.len() - 1]
        ),
    };
    let instruction = match day {
        Some(d) => format!(
            "Book a {minutes}-minute meeting titled \"{title}\" with {who} on {} (UTC), at any start on the half hour within everyone's working hours \
             (09:00-17:00 in their own time zone) when all of them and the room are free, in a room that fits them all. Then answer with its start in UTC as `Day HH:MM`.",
            DAYS[d as usize]
        ),
        None => format!(
            "Book a {minutes}-minute meeting titled \"{title}\" with {who} at the earliest start this week (on the half hour, within everyone's working hours \
             09:00-17:00 in their own time zone, when all of them and the room are free), in a room that fits them all. Then answer with its start in UTC as `Day HH:MM`."
        ),
    };
    let mut gold = vec![
        call_text("list_people", json!({})),
        call_text("list_rooms", json!({})),
    ];
    gold.extend(
        attendees
            .iter()
            .map(|a| call_text("get_schedule", json!({"name": a}))),
    );
    if let Some((t, room)) = &slot {
        gold.push(call_text(
            "book",
            json!({"title": title, "room": room, "day": DAYS[t.div_euclid(DAY) as usize], "start": &show(*t)[4..], "minutes": minutes, "attendees": attendees.join(", ")}),
        ));
    }
    let mut task = CalendarTask {
        instruction,
        meeting: Meeting {
            title,
            attendees,
            minutes,
            day,
            earliest: !any_day,
        },
        earliest: slot.map(|(t, _)| t),
        people,
        rooms,
        bookings,
        gold,
    };
    // A task with no slot and no blocker the tools can show has no verdict
    // the oracle can give; the screen rejects it.
    let answer = match (task.earliest, task.blockers().first()) {
        (Some(t), _) => show(t),
        (None, Some(blocker)) => infeasible_answer(blocker),
        (None, None) => "infeasible".into(),
    };
    task.gold
        .push(call_text("answer", json!({ "answer": answer })));
    task
}
