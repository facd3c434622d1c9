//! Week time for `tools/calendar`: minutes from Monday 00:00 UTC, working
//! windows per time zone, and the slot checks shared by the solver and the
//! scorer.

use serde::{Deserialize, Serialize};

pub(crate) const DAY: i64 = 24 * 60;
pub(crate) const DAYS: [&str; 6] = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat"];
/// Meetings start on this grid (minutes).
pub(crate) const GRID: i64 = 30;
/// Local working hours.
pub(crate) const WORK_START: i64 = 9 * 60;
pub(crate) const WORK_END: i64 = 17 * 60;

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Person {
    pub name: String,
    /// Whole hours east of UTC.
    pub utc_offset: i64,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Room {
    pub name: String,
    pub capacity: usize,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Booking {
    pub id: String,
    pub title: String,
    pub room: String,
    pub start: i64,
    pub end: i64,
    pub attendees: Vec<String>,
}

/// `Mon 14:30` for a week minute.
pub(crate) fn show(t: i64) -> String {
    let day = DAYS.get(t.div_euclid(DAY) as usize).copied().unwrap_or("?");
    let m = t.rem_euclid(DAY);
    format!("{day} {:02}:{:02}", m / 60, m % 60)
}

/// Reads `Mon 14:30` (optionally with `UTC`) back.
pub(crate) fn read(text: &str) -> Option<i64> {
    let text = text.trim().trim_end_matches('.');
    let text = text
        .strip_suffix("UTC")
        .or_else(|| text.strip_suffix("utc"))
        .unwrap_or(text)
        .trim();
    let (day, hm) = text.split_once(' ')?;
    // `Mon` or `Monday`, any case.
    let day = day.trim().to_ascii_lowercase();
    let d = DAYS.iter().position(|x| {
        let x = x.to_ascii_lowercase();
        day == x || (day.starts_with(&x) && day.ends_with("day") && day.len() <= 9)
    })? as i64;
    Some(d * DAY + clock(hm)?)
}

/// Minutes of `HH:MM`.
pub(crate) fn clock(hm: &str) -> Option<i64> {
    let (h, m) = hm.trim().split_once(':')?;
    let (h, m): (i64, i64) = (h.parse().ok()?, m.parse().ok()?);
    ((0..24).contains(&h) && (0..60).contains(&m)).then_some(h * 60 + m)
}

/// The person's working windows this week, in week minutes.
pub(crate) fn windows(person: &Person) -> Vec<(i64, i64)> {
    (0..5)
        .map(|d| {
            (
                d * DAY + WORK_START - person.utc_offset * 60,
                d * DAY + WORK_END - person.utc_offset * 60,
            )
        })
        .collect()
}

pub(crate) fn overlaps(a: (i64, i64), b: (i64, i64)) -> bool {
    a.0 < b.1 && b.0 < a.1
}

/// Whether `[start, end)` fits one working window of every attendee, and
/// they and the room are free then (ignoring the booking `skip`).
pub(crate) fn slot_ok(
    people: &[&Person],
    room: &Room,
    span: (i64, i64),
    bookings: &[Booking],
    skip: Option<&str>,
) -> bool {
    let working = people
        .iter()
        .all(|p| windows(p).iter().any(|w| w.0 <= span.0 && span.1 <= w.1));
    let free = bookings
        .iter()
        .filter(|b| Some(b.id.as_str()) != skip)
        .all(|b| {
            !overlaps((b.start, b.end), span)
                || (b.room != room.name
                    && !b
                        .attendees
                        .iter()
                        .any(|a| people.iter().any(|p| &p.name == a)))
        });
    working && free && room.capacity >= people.len()
}

/// The earliest grid start (and a fitting room, the first in list order)
/// for a meeting, optionally on one day.
pub(crate) fn earliest(
    people: &[&Person],
    rooms: &[Room],
    minutes: i64,
    bookings: &[Booking],
    day: Option<i64>,
) -> Option<(i64, String)> {
    let (from, to) = match day {
        Some(d) => (d * DAY, (d + 1) * DAY),
        None => (-DAY, 7 * DAY),
    };
    (from..to).step_by(GRID as usize).find_map(|t| {
        let span = (t, t + minutes);
        rooms
            .iter()
            .find(|r| slot_ok(people, r, span, bookings, None))
            .map(|r| (t, r.name.clone()))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn times_print_and_read_back() {
        assert_eq!(show(DAY + 14 * 60 + 30), "Tue 14:30");
        assert_eq!(read("tue 14:30 UTC"), Some(DAY + 870));
        assert_eq!(read("Tuesday 14:30"), Some(DAY + 870));
        assert_eq!(read("Tuesdays 14:30"), None);
        assert_eq!(read("Tue 24:00"), None);
        assert_eq!(read("14:30"), None);
        let tokyo = Person {
            name: "K".into(),
            utc_offset: 9,
        };
        assert_eq!(windows(&tokyo)[0], (0, 8 * 60));
    }

    #[test]
    fn slots_respect_hours_bookings_and_capacity() {
        let (a, b) = (
            Person {
                name: "A".into(),
                utc_offset: 0,
            },
            Person {
                name: "B".into(),
                utc_offset: -3,
            },
        );
        let rooms = [
            Room {
                name: "Tiny".into(),
                capacity: 1,
            },
            Room {
                name: "Big".into(),
                capacity: 4,
            },
        ];
        let busy = Booking {
            id: "B1".into(),
            title: "x".into(),
            room: "Big".into(),
            start: 12 * 60,
            end: 13 * 60,
            attendees: vec!["A".into()],
        };
        // B starts at 12:00 UTC; A is busy 12-13; so 13:00 in Big.
        assert_eq!(
            earliest(&[&a, &b], &rooms, 60, std::slice::from_ref(&busy), None),
            Some((13 * 60, "Big".into()))
        );
        assert_eq!(
            earliest(&[&a], &rooms, 60, &[busy], None),
            Some((9 * 60, "Tiny".into()))
        );
        let far = Person {
            name: "F".into(),
            utc_offset: -9,
        };
        assert_eq!(earliest(&[&a, &far], &rooms, 30, &[], None), None);
    }
}
