//! Why a meeting has no valid slot, as an infeasible verdict must say it:
//! two attendees whose working hours never overlap, with their UTC offsets
//! (`Name UTC+3, Name UTC-6`), or an attendee and the booking that fills
//! the meeting's day for them (`Name B12`). Either needs the calendar's
//! tools to find, so a bare `infeasible` (or a guess) never passes.

use super::task::CalendarTask;
use super::time::{Person, overlaps, windows};
use crate::toolkit::final_answer::{evidence_words, infeasible_evidence};

/// Whether two people's working windows never overlap this week.
fn never_overlap(a: &Person, b: &Person) -> bool {
    let (wa, wb) = (windows(a), windows(b));
    !wa.iter().any(|x| wb.iter().any(|y| overlaps(*x, *y)))
}

/// Evidence words with UTC offsets' signs kept as words (`UTC-6` is
/// `utc minus 6`, not `utc 6`).
fn offset_words(text: &str) -> String {
    let text = text
        .to_lowercase()
        .replace("utc+", " utc plus ")
        .replace("utc-", " utc minus ")
        .replace("utc\u{2212}", " utc minus ");
    evidence_words(&text)
}

impl CalendarTask {
    /// Every statement of why no slot exists, in the reference's order
    /// (empty when nothing blocks the meeting on its own).
    pub(crate) fn blockers(&self) -> Vec<String> {
        let people = self.attendees();
        let mut out = Vec::new();
        for (i, a) in people.iter().enumerate() {
            for b in &people[i + 1..] {
                if never_overlap(a, b) {
                    for (x, y) in [(a, b), (b, a)] {
                        out.push(format!(
                            "{} UTC{:+}, {} UTC{:+}",
                            x.name, x.utc_offset, y.name, y.utc_offset
                        ));
                    }
                }
            }
        }
        if let Some(day) = self.meeting.day {
            for p in &people {
                let window = windows(p)[day as usize];
                for booking in &self.bookings {
                    if booking.attendees.contains(&p.name)
                        && booking.start <= window.0
                        && booking.end >= window.1
                    {
                        out.push(format!("{} {}", p.name, booking.id));
                    }
                }
            }
        }
        out
    }

    /// Whether `answer` is an infeasible verdict with one of the blockers.
    pub(crate) fn verdict_holds(&self, answer: &str) -> bool {
        infeasible_evidence(answer).is_some_and(|given| {
            let given = offset_words(given);
            self.blockers().iter().any(|b| offset_words(b) == given)
        })
    }
}
