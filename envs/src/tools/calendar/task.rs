//! The config and task of `tools/calendar`.

use serde::{Deserialize, Serialize};

use super::time::{Booking, Person, Room};

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct CalendarConfig {
    pub people: usize,
    pub rooms: usize,
    pub bookings_per_person: usize,
    pub attendees: usize,
    pub infeasible_share: f64,
}

impl Default for CalendarConfig {
    fn default() -> Self {
        CalendarConfig {
            people: 6,
            rooms: 3,
            bookings_per_person: 3,
            attendees: 3,
            infeasible_share: 0.2,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Meeting {
    pub title: String,
    pub attendees: Vec<String>,
    pub minutes: i64,
    /// A required UTC day (0 = Monday), for "any valid slot" tasks.
    pub day: Option<i64>,
    /// Whether the start must be the earliest valid one.
    pub earliest: bool,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CalendarTask {
    pub instruction: String,
    pub people: Vec<Person>,
    pub rooms: Vec<Room>,
    pub bookings: Vec<Booking>,
    pub meeting: Meeting,
    /// The earliest valid start (any-slot tasks accept others); `None` when
    /// there is no valid slot.
    pub earliest: Option<i64>,
    /// The reference calls, answer last.
    pub gold: Vec<String>,
}

impl CalendarTask {
    pub(super) fn person(&self, name: &str) -> Option<&Person> {
        self.people
            .iter()
            .find(|p| p.name.eq_ignore_ascii_case(name.trim()))
    }

    pub(super) fn attendees(&self) -> Vec<&Person> {
        self.meeting
            .attendees
            .iter()
            .filter_map(|a| self.person(a))
            .collect()
    }
}
