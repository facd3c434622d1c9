//! The config, task and validation rules of `web/forms`: the form's fields
//! page by page, when a conditional field is shown, and the rule each field
//! (and each cross-field pair) must meet before its page is accepted.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

/// A submitted record: field key to value, for the fields shown.
pub type Record = BTreeMap<String, String>;

/// Titles of the form's pages; the review page follows them.
pub(super) const PAGE_TITLES: [&str; 3] = ["Personal details", "Address", "Booking"];

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Kind {
    Text,
    Radio,
    Check,
}

/// One field of the form, with the rule its page states next to it.
pub(super) struct Field {
    pub key: &'static str,
    pub label: &'static str,
    pub hint: &'static str,
    pub page: usize,
    pub kind: Kind,
}

const fn field(
    key: &'static str,
    label: &'static str,
    hint: &'static str,
    page: usize,
    kind: Kind,
) -> Field {
    Field {
        key,
        label,
        hint,
        page,
        kind,
    }
}

/// Every field in display order (a conditional field right after the one
/// that shows it).
pub(super) const FIELDS: &[Field] = &[
    field(
        "name",
        "Full name",
        "First Last, letters and spaces only, no commas",
        0,
        Kind::Text,
    ),
    field(
        "dob",
        "Date of birth",
        "YYYY-MM-DD, born 1920 to 2008",
        0,
        Kind::Text,
    ),
    field(
        "email",
        "Email",
        "lowercase only, like name@example.com",
        0,
        Kind::Text,
    ),
    field(
        "phone",
        "Phone",
        "exactly 10 digits: no country code, spaces or symbols",
        0,
        Kind::Text,
    ),
    field("street", "Street", "required", 1, Kind::Text),
    field("city", "City", "required", 1, Kind::Text),
    field("postcode", "Postcode", "exactly 5 digits", 1, Kind::Text),
    field(
        "country",
        "Country",
        "choose one; if yours is not listed, choose Other and type it in Other country",
        1,
        Kind::Radio,
    ),
    field(
        "other_country",
        "Other country",
        "required when Country is Other",
        1,
        Kind::Text,
    ),
    field(
        "mailing",
        "Letters go to a different mailing address",
        "tick only if letters should go elsewhere; then fill in the mailing address",
        1,
        Kind::Check,
    ),
    field(
        "mail_street",
        "Mailing street",
        "required when the box is ticked",
        1,
        Kind::Text,
    ),
    field(
        "mail_city",
        "Mailing city",
        "required when the box is ticked",
        1,
        Kind::Text,
    ),
    field(
        "mail_postcode",
        "Mailing postcode",
        "exactly 5 digits",
        1,
        Kind::Text,
    ),
    field("plan", "Plan", "choose one", 2, Kind::Radio),
    field(
        "contact",
        "Contact by",
        "choose one; the Premium plan must be contacted by Phone",
        2,
        Kind::Radio,
    ),
    field(
        "start",
        "Check-in date",
        "YYYY-MM-DD, in 2027",
        2,
        Kind::Text,
    ),
    field(
        "end",
        "Check-out date",
        "YYYY-MM-DD, after check-in and at most 14 nights later",
        2,
        Kind::Text,
    ),
    field(
        "guests",
        "Guests",
        "a number from 1 to 6, children included",
        2,
        Kind::Text,
    ),
];

pub(super) const PLANS: [&str; 3] = ["Basic", "Standard", "Premium"];
pub(super) const CONTACTS: [&str; 3] = ["Email", "Phone", "Post"];
/// The radio a country not listed is entered under.
pub(super) const OTHER: &str = "Other";

/// Values in the request that the form rejects until normalised, or a
/// conflict the page resolves: which fields a task writes that way.
pub(super) const MESSY: [&str; 8] = [
    "name", "dob", "email", "phone", "start", "end", "guests", "contact",
];

/// Free-text fields compare ignoring case and spacing (a name or street
/// typed in another case is the same record); formatted fields compare exactly.
pub(super) const FREE_TEXT: [&str; 7] = [
    "name",
    "street",
    "city",
    "other_country",
    "mail_street",
    "mail_city",
    "country",
];

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct FormsConfig {
    /// Values written in a form the validator rejects (or the plan/contact
    /// conflict), out of [`MESSY`].
    pub messy: usize,
    /// Conditional sections the request needs: an unlisted country, a
    /// separate mailing address.
    pub conditional: usize,
}

impl Default for FormsConfig {
    fn default() -> Self {
        FormsConfig {
            messy: 3,
            conditional: 1,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct FormsTask {
    pub instruction: String,
    /// The countries the Country radio lists, in order (Other follows).
    pub countries: Vec<String>,
    /// The one record that passes.
    pub expected: Record,
    /// The fields whose request value needs normalising.
    pub messy: Vec<String>,
    /// Salt of the per-view element ids.
    pub salt: u64,
}

pub(super) fn field_spec(key: &str) -> Option<&'static Field> {
    FIELDS.iter().find(|f| f.key == key)
}

/// Whether `key` is shown given the values so far (conditional sections).
pub(super) fn shown(key: &str, values: &Record) -> bool {
    let get = |k: &str| values.get(k).map_or("", String::as_str);
    match key {
        "other_country" => get("country") == OTHER,
        "mail_street" | "mail_city" | "mail_postcode" => get("mailing") == "yes",
        _ => true,
    }
}

/// The record the form holds now: every shown field, trimmed.
pub(super) fn record(values: &Record) -> Record {
    FIELDS
        .iter()
        .filter(|f| shown(f.key, values))
        .map(|f| {
            let v = values.get(f.key).map_or("", |v| v.trim());
            let v = if f.kind == Kind::Check && v.is_empty() {
                "no"
            } else {
                v
            };
            (f.key.to_string(), v.to_string())
        })
        .collect()
}

/// Days since 1970-01-01 of a proleptic Gregorian date.
pub(super) fn days_from_civil(y: i64, m: i64, d: i64) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = (m + 9) % 12;
    let doy = (153 * mp + 2) / 5 + d - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

/// The date `days` after 1970-01-01, as (year, month, day).
pub(super) fn civil_from_days(days: i64) -> (i64, i64, i64) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    (
        if m <= 2 {
            yoe + era * 400 + 1
        } else {
            yoe + era * 400
        },
        m,
        d,
    )
}

pub(super) fn iso(days: i64) -> String {
    let (y, m, d) = civil_from_days(days);
    format!("{y:04}-{m:02}-{d:02}")
}

/// A strict `YYYY-MM-DD` date as days since 1970-01-01 and its year.
pub(super) fn parse_iso(text: &str) -> Option<(i64, i64)> {
    let b = text.as_bytes();
    let digits = |r: std::ops::Range<usize>| {
        b[r.clone()]
            .iter()
            .all(u8::is_ascii_digit)
            .then(|| text[r].parse::<i64>().ok())
            .flatten()
    };
    if b.len() != 10 || b[4] != b'-' || b[7] != b'-' {
        return None;
    }
    let (y, m, d) = (digits(0..4)?, digits(5..7)?, digits(8..10)?);
    let days = days_from_civil(y, m, d);
    (civil_from_days(days) == (y, m, d)).then_some((days, y))
}

fn digits_only(text: &str, n: usize) -> bool {
    text.len() == n && text.bytes().all(|b| b.is_ascii_digit())
}

fn valid_email(text: &str) -> bool {
    let Some((local, domain)) = text.split_once('@') else {
        return false;
    };
    let part_ok = |p: &str| {
        !p.is_empty()
            && p.chars()
                .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || "._-".contains(c))
    };
    part_ok(local)
        && part_ok(domain)
        && domain.contains('.')
        && !domain.starts_with('.')
        && !domain.ends_with('.')
}

fn valid_name(text: &str) -> bool {
    text.split_whitespace().count() >= 2 && text.chars().all(|c| c.is_alphabetic() || c == ' ')
}

/// Whether the value of `key` meets its rule, given the other values (for
/// the cross-field rules).
pub(super) fn valid(key: &str, values: &Record) -> bool {
    let get = |k: &str| values.get(k).map_or("", |v| v.trim());
    let v = get(key);
    match key {
        "name" => valid_name(v),
        "dob" => parse_iso(v).is_some_and(|(_, y)| (1920..=2008).contains(&y)),
        "email" => valid_email(v),
        "phone" => digits_only(v, 10),
        "postcode" | "mail_postcode" => digits_only(v, 5),
        "country" => !v.is_empty(),
        "plan" => PLANS.contains(&v),
        "contact" => CONTACTS.contains(&v) && (get("plan") != "Premium" || v == "Phone"),
        "start" => parse_iso(v).is_some_and(|(_, y)| y == 2027),
        "end" => match (parse_iso(v), parse_iso(get("start"))) {
            (Some((end, _)), Some((start, 2027))) => end > start && end - start <= 14,
            (Some(_), _) => true,
            (None, _) => false,
        },
        "guests" => digits_only(v, 1) && (1..=6).contains(&v.parse::<u8>().unwrap_or(0)),
        "mailing" => true,
        _ => !v.is_empty(),
    }
}

/// The errors page `page` shows for these values, one per broken rule.
pub(super) fn page_errors(page: usize, values: &Record) -> Vec<String> {
    FIELDS
        .iter()
        .filter(|f| f.page == page && shown(f.key, values) && !valid(f.key, values))
        .map(|f| format!("Error: {}: {}", f.label, f.hint))
        .collect()
}

/// Whether two values of `key` are the same entry of the record.
pub(super) fn same_value(key: &str, a: &str, b: &str) -> bool {
    if FREE_TEXT.contains(&key) {
        let norm = |s: &str| {
            s.split_whitespace()
                .collect::<Vec<_>>()
                .join(" ")
                .to_lowercase()
        };
        norm(a) == norm(b)
    } else {
        a.trim() == b.trim()
    }
}

/// Whether a submitted record is the expected one, field by field.
pub(super) fn same_record(got: &Record, want: &Record) -> bool {
    got.len() == want.len()
        && want
            .iter()
            .all(|(k, v)| got.get(k).is_some_and(|g| same_value(k, g, v)))
}
