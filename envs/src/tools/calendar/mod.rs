//! `tools/calendar-v2`: book meetings across people, rooms and time zones;
//! "earliest slot" tasks are checked exactly, "any valid slot" tasks by the
//! constraints; some have no valid slot.
//!
//! # Task
//! People with time zones (working hours 09:00–17:00 local), rooms with
//! capacities, a week of existing bookings, and one meeting to book (title,
//! attendees, length): either at the earliest valid start of the week, or
//! at any valid start on a given UTC day. Valid: on the half hour, inside
//! every attendee's working hours, attendees and room free, room big
//! enough. A fixed share (`infeasible_share`) has no valid slot (time zones
//! that never overlap, or a day already full): those pass only with no
//! booking and the verdict `infeasible: EVIDENCE` naming what blocks it
//! (see `blockers.rs`), which only the tools reveal.
//!
//! # Action
//! Tool calls in any format of [`crate::toolkit::parse`]:
//! `list_people`, `list_rooms`, `get_schedule`, `room_schedule`, `book`
//! (refuses double bookings, but not out-of-hours or crowded rooms),
//! `cancel`, `answer`. Unparseable calls and bad arguments are
//! [`crate::InvalidAction`]s; refused bookings are error results.
//! Each turn is read out of the whole reply by `crate::reply`: reasoning is
//! dropped, then the reply as it is, the text after an `Action:`, `Move:` or
//! `Command:` marker, a fenced block, or the last line; two different
//! actions in one turn are refused as a hedge.
//! A turn may make several calls where its format writes several (an OpenAI
//! list, several `<tool_call>` blocks, a Mistral or pythonic list): they run
//! in order, each with its own result, and each counts toward the step cap
//! (`crate::toolkit::tool_env::apply_calls`). A turn with two different
//! final calls, another call after its final call, or a call beside a
//! different one in another format is refused; calls after one that ends
//! the episode by its effect are not run.
//!
//! # Observation
//! The request, the tools, how to call, and the latest calls with results.
//! Structured: `task`, `tools` (OpenAI function schemas), `history`,
//! `answered`.
//!
//! # Reward
//! 1 and `passed` only when no existing booking was cancelled or changed,
//! exactly one booking was added, it satisfies every constraint (and is the
//! earliest valid start for earliest tasks), and the answer names its start
//! (`Tue 14:30`); for infeasible tasks, no booking and a verdict with a
//! true blocker.
//! Breakdown: `correct`, `booking_valid`, `answer_correct`.
//!
//! # Episode end
//! The `answer` call (terminated); the step cap truncates (score 0).
//!
//! # Parameters
//! `people` (3..=12), `rooms` (2..=6), `bookings_per_person` (0..=6),
//! `attendees` (2..=4), `infeasible_share` (0..=0.5).
//!
//! # Seeding
//! Everything comes from the task rng; each candidate is screened (the
//! oracle passes through the agent's path; constant answers and the right
//! answer without a booking fail).
//!
//! # Version history
//! v1: first version.
//! v2: infeasible verdicts name the blocker (a bare `infeasible` passed
//! every infeasible task).

use std::sync::LazyLock;

use serde_json::{Value, json};

use crate::core::{
    Env, EnvKind, EnvSpec, InvalidAction, Observation, Player, Preset, Score, Superseded, Turn,
    Upgrade,
};
use crate::error::ConfigError;
use crate::refusals::refuse_constant_verdict;
use crate::rng::Rng;
use crate::toolkit::calls::{Calls, ToolCall, call_text, random_format};
use crate::toolkit::final_answer::infeasible_answer;
use crate::toolkit::parse::parse_calls;
use crate::toolkit::screen::{MAX_ATTEMPTS, screen, tool_effort};
use crate::toolkit::spec::{Param, ParamType, ToolSpec, answer_tool, openai_specs};
use crate::toolkit::tool_env::{
    CallCount, Log, ToolEnv, ToolError, answer_observation, apply_calls, turn_until,
};

mod blockers;
mod generate;
mod task;
#[cfg(test)]
mod tests;
pub mod time;

pub use task::{CalendarConfig, CalendarTask, Meeting};

use time::{Booking, DAY, DAYS, overlaps, show, slot_ok};

#[derive(Clone, Debug)]
pub struct Calendar {
    task: CalendarTask,
    bookings: Vec<Booking>,
    next_id: usize,
    log: Log,
    count: CallCount,
    answered: Option<String>,
}

pub static TOOLS: LazyLock<Vec<ToolSpec>> = LazyLock::new(|| {
    let s = |n: &str, d: &str| Param::required(n, ParamType::String, d);
    vec![
        ToolSpec::new("list_people", "everyone with their UTC offset", vec![]),
        ToolSpec::new("list_rooms", "every room with its capacity", vec![]),
        ToolSpec::new(
            "get_schedule",
            "a person's bookings this week (UTC)",
            vec![s("name", "person's name")],
        ),
        ToolSpec::new(
            "room_schedule",
            "a room's bookings this week (UTC)",
            vec![s("room", "room name")],
        ),
        ToolSpec::new(
            "book",
            "book a meeting; refuses double bookings of a person or room",
            vec![
                s("title", "meeting title"),
                s("room", "room name"),
                s("day", "UTC day").one_of(&DAYS),
                s("start", "UTC start as HH:MM"),
                Param::required("minutes", ParamType::Integer, "length in minutes"),
                s("attendees", "comma-separated names"),
            ],
        ),
        ToolSpec::new(
            "cancel",
            "cancel a booking",
            vec![s("booking_id", "id like B3")],
        ),
        answer_tool("finish: the meeting's UTC start as `Day HH:MM`, or `infeasible: EVIDENCE`"),
    ]
});

/// The tools in OpenAI function format.
pub fn tool_specs() -> Value {
    openai_specs(&TOOLS)
}

fn booking_line(b: &Booking) -> String {
    format!(
        "{} {}-{} \"{}\" in {} with {}",
        b.id,
        show(b.start),
        &show(b.end)[4..],
        b.title,
        b.room,
        b.attendees.join(", ")
    )
}

impl Calendar {
    fn run(&mut self, call: &ToolCall) -> Result<String, ToolError> {
        let task = &self.task;
        let lines = |bs: Vec<&Booking>| {
            if bs.is_empty() {
                "(no bookings)".to_string()
            } else {
                bs.into_iter()
                    .map(booking_line)
                    .collect::<Vec<_>>()
                    .join("\n")
            }
        };
        match call.name.as_str() {
            "list_people" => Ok(task
                .people
                .iter()
                .map(|p| format!("{} (UTC{:+})", p.name, p.utc_offset))
                .collect::<Vec<_>>()
                .join("\n")),
            "list_rooms" => Ok(task
                .rooms
                .iter()
                .map(|r| format!("{} (capacity {})", r.name, r.capacity))
                .collect::<Vec<_>>()
                .join("\n")),
            "get_schedule" => {
                let p = task.person(call.str("name")).ok_or("no such person")?;
                Ok(lines(
                    self.bookings
                        .iter()
                        .filter(|b| b.attendees.contains(&p.name))
                        .collect(),
                ))
            }
            "room_schedule" => {
                let room = call.str("room").trim();
                let r = task
                    .rooms
                    .iter()
                    .find(|r| r.name.eq_ignore_ascii_case(room))
                    .ok_or("no such room")?;
                Ok(lines(
                    self.bookings.iter().filter(|b| b.room == r.name).collect(),
                ))
            }
            "book" => {
                let room = task
                    .rooms
                    .iter()
                    .find(|r| r.name.eq_ignore_ascii_case(call.str("room").trim()))
                    .ok_or("no such room")?;
                let mut attendees = Vec::new();
                for name in call
                    .str("attendees")
                    .split(',')
                    .filter(|n| !n.trim().is_empty())
                {
                    let p = task
                        .person(name)
                        .ok_or_else(|| format!("no person named {:?}", name.trim()))?;
                    if !attendees.contains(&p.name) {
                        attendees.push(p.name.clone());
                    }
                }
                let day = DAYS.iter().position(|d| *d == call.str("day")).unwrap_or(0) as i64;
                let start =
                    day * DAY + time::clock(call.str("start")).ok_or("start must be HH:MM")?;
                let minutes = call.int("minutes");
                if !(15..=480).contains(&minutes)
                    || attendees.is_empty()
                    || self.bookings.len() >= 200
                {
                    return Err("need 15 to 480 minutes and at least one attendee".into());
                }
                let span = (start, start + minutes);
                if let Some(clash) = self.bookings.iter().find(|b| {
                    overlaps((b.start, b.end), span)
                        && (b.room == room.name
                            || b.attendees.iter().any(|a| attendees.contains(a)))
                }) {
                    return Err(format!("conflicts with {}", booking_line(clash)).into());
                }
                self.next_id += 1;
                let b = Booking {
                    id: format!("B{}", self.next_id),
                    title: call.str("title").trim().to_string(),
                    room: room.name.clone(),
                    start,
                    end: start + minutes,
                    attendees,
                };
                let line = booking_line(&b);
                self.bookings.push(b);
                Ok(format!("booked {line}"))
            }
            "cancel" => {
                let at = self
                    .bookings
                    .iter()
                    .position(|b| b.id.eq_ignore_ascii_case(call.str("booking_id").trim()))
                    .ok_or("no such booking")?;
                Ok(format!(
                    "cancelled {}",
                    booking_line(&self.bookings.remove(at))
                ))
            }
            _ => {
                self.answered = Some(call.str("answer").to_string());
                Ok("answer recorded".into())
            }
        }
    }

    /// The one booking added, when the existing ones are untouched.
    fn added(&self) -> Result<Vec<&Booking>, ()> {
        if !self.task.bookings.iter().all(|b| self.bookings.contains(b)) {
            return Err(());
        }
        Ok(self
            .bookings
            .iter()
            .filter(|b| !self.task.bookings.contains(b))
            .collect())
    }

    fn booking_valid(&self, b: &Booking) -> bool {
        let m = &self.task.meeting;
        let mut want: Vec<String> = m.attendees.clone();
        let mut got = b.attendees.clone();
        want.sort();
        got.sort();
        let room = self.task.rooms.iter().find(|r| r.name == b.room);
        b.title.eq_ignore_ascii_case(&m.title)
            && want == got
            && b.end - b.start == m.minutes
            && b.start.rem_euclid(time::GRID) == 0
            && m.day.is_none_or(|d| b.start.div_euclid(DAY) == d)
            && (!m.earliest || Some(b.start) == self.task.earliest)
            && room.is_some_and(|r| {
                slot_ok(
                    &self.task.attendees(),
                    r,
                    (b.start, b.end),
                    &self.bookings,
                    Some(&b.id),
                )
            })
    }
}

impl ToolEnv for Calendar {
    fn tools(&self) -> &[ToolSpec] {
        &TOOLS
    }

    fn feasible(task: &CalendarTask) -> bool {
        task.earliest.is_some()
    }

    fn run_call(&mut self, call: ToolCall) -> String {
        let result = self.run(&call).unwrap_or_else(|e| format!("error: {e}"));
        self.log.record(&call, result)
    }

    fn call_count(&mut self) -> &mut CallCount {
        &mut self.count
    }
}

impl Env for Calendar {
    type Config = CalendarConfig;
    type Task = CalendarTask;
    type Action = Calls;

    // v1's feasible tasks read as v2's; its infeasible ones (no earliest
    // slot) took a bare `infeasible`, and v2 asks for the blocker.
    const SUPERSEDED: &'static [Superseded] = &[Superseded {
        version: 1,
        upgrade: Upgrade::Map(|card| refuse_constant_verdict(card.task["earliest"].is_null())),
    }];
    const SPEC: EnvSpec = EnvSpec {
        id: "tools/calendar-v2",
        kind: EnvKind::MultiTurn,
        description: "Book meetings across people, rooms and time zones: earliest slots exact, any-slot tasks by constraint check",
        players: 1,
        max_steps: 30,
        reward_range: (0.0, 1.0),
        zero_sum: false,
        fixed_start: false,
        presets: &Preset::graded(Self::LEVELS, [0, 2, 4]),
    };

    /// Five levels; `easy`, `medium` and `hard` are among them.
    const LEVELS: &'static [&'static str] = &[
        r#"{"people":4,"rooms":2,"bookings_per_person":2,"attendees":2}"#,
        r#"{"people":5,"rooms":2,"bookings_per_person":3,"attendees":2}"#,
        r#"{}"#,
        r#"{"people":8,"rooms":4,"bookings_per_person":4,"attendees":3}"#,
        r#"{"people":10,"rooms":5,"bookings_per_person":6,"attendees":4}"#,
    ];

    fn effort(task: &CalendarTask) -> Option<f64> {
        tool_effort::<Self>(
            task.bookings.len() + task.people.len() + task.rooms.len(),
            task,
        )
    }

    fn validate(c: &CalendarConfig) -> Result<(), ConfigError> {
        let ok = (3..=12).contains(&c.people)
            && (2..=6).contains(&c.rooms)
            && c.bookings_per_person <= 6
            && (2..=4).contains(&c.attendees)
            && c.attendees <= c.people
            && (0.0..=0.5).contains(&c.infeasible_share);
        if ok {
            Ok(())
        } else {
            Err("need people 3..=12, rooms 2..=6, bookings_per_person <= 6, attendees 2..=4 (<= people), infeasible_share 0..=0.5".into())
        }
    }

    fn generate(config: &CalendarConfig, rng: &mut Rng) -> CalendarTask {
        let mut fallback = None;
        for _ in 0..MAX_ATTEMPTS {
            let task = generate::draw(config, rng);
            let mut extra = Vec::new();
            if let Some(t) = task.earliest {
                extra.push(vec![call_text("answer", json!({"answer": show(t)}))]);
            }
            if screen::<Calendar>(&task, &extra) {
                return task;
            }
            fallback = Some(task);
        }
        fallback.expect("some candidate is drawn within the attempts")
    }

    fn reference(task: &CalendarTask) -> Option<Value> {
        Some(json!(match task.earliest {
            Some(t) => show(t),
            None => infeasible_answer(task.blockers().first()?),
        }))
    }

    fn reset(task: &CalendarTask, _rng: Rng) -> Self {
        Calendar {
            bookings: task.bookings.clone(),
            next_id: task.bookings.len(),
            task: task.clone(),
            log: Log::default(),
            count: CallCount::default(),
            answered: None,
        }
    }

    fn turn(&self) -> Turn {
        turn_until(self.answered.is_some() || self.count.spent(Self::SPEC.max_steps))
    }

    fn observe(&self, _player: Player) -> Observation {
        answer_observation(
            &format!(
                "You manage a shared calendar through tools. Times are UTC unless a person's local time is meant.\nTask: {}\n\
                 Change nothing else. If no valid slot exists, book nothing and answer `infeasible: EVIDENCE`: two attendees whose working hours \
                 never overlap, with their UTC offsets (`Name UTC+3, Name UTC-6`), or an attendee and the booking that fills the meeting's day for them (`Name B12`).",
                self.task.instruction
            ),
            &self.task.instruction,
            &TOOLS,
            &self.log,
            self.answered.as_deref(),
        )
    }

    fn parse_action(&self, _player: Player, text: &str) -> Result<Calls, InvalidAction> {
        parse_calls(text, &TOOLS)
    }

    fn apply(&mut self, _player: Player, calls: Calls) -> Result<Vec<String>, InvalidAction> {
        Ok(apply_calls(self, calls))
    }

    fn score(&self, _player: Player) -> Score {
        let answered = self.answered.as_deref();
        let (valid, answer) = match (self.added(), self.task.earliest) {
            (Ok(added), Some(_)) => match added.as_slice() {
                [b] => (
                    self.booking_valid(b),
                    answered.and_then(time::read) == Some(b.start),
                ),
                _ => (false, false),
            },
            (Ok(added), None) => (
                added.is_empty(),
                answered.is_some_and(|a| self.task.verdict_holds(a)),
            ),
            (Err(()), _) => (false, false),
        };
        Score::binary(valid && answer)
            .part("booking_valid", f64::from(u8::from(valid)))
            .part("answer_correct", f64::from(u8::from(answer)))
    }

    /// The reference calls in order (assumes it made every earlier call).
    fn oracle(&self, _player: Player) -> Option<String> {
        self.log.next_gold(&self.task.gold)
    }

    fn random_action(&self, _player: Player, rng: &mut Rng) -> String {
        let person = self.task.people[rng.below(self.task.people.len() as u64) as usize]
            .name
            .clone();
        let room = self.task.rooms[rng.below(self.task.rooms.len() as u64) as usize]
            .name
            .clone();
        let start = format!("{:02}:{:02}", rng.below(24), 30 * rng.below(2));
        let call = match rng.below(6) {
            0 => ToolCall::new("list_people", json!({})),
            1 => ToolCall::new("get_schedule", json!({"name": person})),
            2 => ToolCall::new("room_schedule", json!({"room": room})),
            3 => ToolCall::new(
                "book",
                json!({"title": "x", "room": room, "day": DAYS[rng.below(5) as usize], "start": start, "minutes": 30, "attendees": person}),
            ),
            4 => ToolCall::new(
                "cancel",
                json!({"booking_id": format!("B{}", rng.range_i64(1, 20))}),
            ),
            _ => ToolCall::new(
                "answer",
                json!({"answer": format!("{} {start}", DAYS[rng.below(5) as usize])}),
            ),
        };
        random_format(&call, &TOOLS, rng)
    }

    fn render(&self) -> String {
        format!(
            "bookings={} calls={} answered={:?} earliest={:?}",
            self.bookings.len(),
            self.log.entries.len(),
            self.answered,
            self.task.earliest.map(show)
        )
    }
}
