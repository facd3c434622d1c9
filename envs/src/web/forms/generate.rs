//! Candidate tasks of `web/forms`: a customer, the record the form must end
//! with, and the customer's message, some of whose values the form rejects
//! until they are written as its page asks (the env screens them).

use super::task::{
    CONTACTS, FormsConfig, FormsTask, MESSY, OTHER, PLANS, Record, days_from_civil, iso,
};
use crate::rng::Rng;

const FIRST: &[&str] = &[
    "Robert", "Amara", "Lucia", "Tomas", "Ingrid", "Kenji", "Nadia", "Pavel", "Ruth", "Omar",
    "Elena", "Felix", "Greta", "Hugo", "Irene", "Jonas",
];
const LAST: &[&str] = &[
    "Smith", "Okafor", "Moreno", "Novak", "Berg", "Tanaka", "Haddad", "Ivanov", "Cole", "Farah",
    "Rossi", "Weber", "Lind", "Dubois", "Costa", "Meyer",
];
const STREETS: &[&str] = &[
    "Oak", "Mill", "Harbor", "Cedar", "Station", "Church", "Willow", "Bridge", "Elm", "Quarry",
];
const STREET_KINDS: &[&str] = &["Street", "Lane", "Road", "Avenue"];
const CITIES: &[&str] = &[
    "Springfield",
    "Riverton",
    "Lakeside",
    "Fairview",
    "Brookfield",
    "Ashford",
    "Greenhill",
    "Northgate",
];
const COUNTRIES: &[&str] = &[
    "France", "Germany", "Spain", "Italy", "Portugal", "Ireland", "Norway", "Japan", "Canada",
    "Brazil", "Kenya", "Chile", "Peru", "Poland",
];
/// Countries the Country radio lists.
const LISTED: usize = 5;
const MONTHS: [&str; 12] = [
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
];
const DOMAINS: &[&str] = &["example.com", "mail.test", "inbox.example"];

fn pick<'a>(rng: &mut Rng, items: &[&'a str]) -> &'a str {
    items[rng.below(items.len() as u64) as usize]
}

fn digits(rng: &mut Rng, n: usize) -> String {
    (0..n)
        .map(|_| char::from(b'0' + rng.below(10) as u8))
        .collect()
}

fn street(rng: &mut Rng) -> String {
    format!(
        "{} {} {}",
        rng.range_i64(1, 220),
        pick(rng, STREETS),
        pick(rng, STREET_KINDS)
    )
}

/// A date written out in words, in one of two orders.
pub(super) fn in_words(days: i64, rng: &mut Rng) -> String {
    let (y, m, d) = super::task::civil_from_days(days);
    let month = MONTHS[(m - 1) as usize];
    if rng.chance(0.5) {
        format!("{d} {month} {y}")
    } else {
        format!("{month} {d}, {y}")
    }
}

/// The phone number as people write it: grouped, with symbols or the
/// country code.
pub(super) fn phone_messy(phone: &str, rng: &mut Rng) -> String {
    let (a, b, c) = (&phone[..3], &phone[3..6], &phone[6..]);
    match rng.below(4) {
        0 => format!("({a}) {b}-{c}"),
        1 => format!("{a} {b} {c}"),
        2 => format!("{a}.{b}.{c}"),
        _ => format!("+1 {a} {b} {c}"),
    }
}

/// An email with capitals in it (the form takes lowercase only).
pub(super) fn email_messy(email: &str) -> String {
    let mut capital = true;
    email
        .chars()
        .map(|c| {
            let out = if capital { c.to_ascii_uppercase() } else { c };
            capital = matches!(c, '.' | '@');
            out
        })
        .collect()
}

pub(super) fn draw(config: &FormsConfig, rng: &mut Rng) -> FormsTask {
    let mut messy: Vec<&str> = MESSY.to_vec();
    rng.shuffle(&mut messy);
    messy.truncate(config.messy);
    let is_messy = |k: &str| messy.contains(&k);
    let (other_country, mailing) = match config.conditional {
        0 => (false, false),
        1 => {
            let other = rng.chance(0.5);
            (other, !other)
        }
        _ => (true, true),
    };

    let (first, last) = (pick(rng, FIRST), pick(rng, LAST));
    let name = format!("{first} {last}");
    let dob = days_from_civil(rng.range_i64(1950, 2000), 1, 1) + rng.range_i64(0, 364);
    let email = format!(
        "{}.{}@{}",
        first.to_lowercase(),
        last.to_lowercase(),
        pick(rng, DOMAINS)
    );
    let phone = format!("{}{}", rng.range_i64(2, 9), digits(rng, 9));
    let home = (street(rng), pick(rng, CITIES).to_string(), digits(rng, 5));
    let mut countries: Vec<&str> = COUNTRIES.to_vec();
    rng.shuffle(&mut countries);
    let listed: Vec<String> = countries[..LISTED].iter().map(|c| c.to_string()).collect();
    let country = if other_country {
        countries[LISTED]
    } else {
        countries[rng.below(LISTED as u64) as usize]
    };
    let letters = (street(rng), pick(rng, CITIES).to_string(), digits(rng, 5));
    let (plan, asked_contact, contact) = if is_messy("contact") {
        // The customer asks for Premium and a contact the page does not
        // allow with it: the page says Premium is contacted by Phone.
        let asked = if rng.chance(0.5) { "Email" } else { "Post" };
        ("Premium", asked, "Phone")
    } else {
        let plan = pick(rng, &PLANS);
        let contact = if plan == "Premium" {
            "Phone"
        } else {
            pick(rng, &CONTACTS)
        };
        (plan, contact, contact)
    };
    let start = days_from_civil(2027, 1, 1) + rng.range_i64(0, 330);
    let nights = rng.range_i64(1, 14);
    let guests = if is_messy("guests") {
        rng.range_i64(2, 6)
    } else {
        rng.range_i64(1, 6)
    };

    let mut expected = Record::new();
    let mut put = |k: &str, v: &str| {
        expected.insert(k.to_string(), v.to_string());
    };
    put("name", &name);
    put("dob", &iso(dob));
    put("email", &email);
    put("phone", &phone);
    put("street", &home.0);
    put("city", &home.1);
    put("postcode", &home.2);
    put("country", if other_country { OTHER } else { country });
    if other_country {
        put("other_country", country);
    }
    put("mailing", if mailing { "yes" } else { "no" });
    if mailing {
        put("mail_street", &letters.0);
        put("mail_city", &letters.1);
        put("mail_postcode", &letters.2);
    }
    put("plan", plan);
    put("contact", contact);
    put("start", &iso(start));
    put("end", &iso(start + nights));
    put("guests", &guests.to_string());

    let name_text = if is_messy("name") {
        format!("{last}, {first}")
    } else {
        name.clone()
    };
    let dob_text = if is_messy("dob") {
        in_words(dob, rng)
    } else {
        iso(dob)
    };
    let email_text = if is_messy("email") {
        email_messy(&email)
    } else {
        email.clone()
    };
    let phone_text = if is_messy("phone") {
        phone_messy(&phone, rng)
    } else {
        phone.clone()
    };
    let start_text = if is_messy("start") {
        in_words(start, rng)
    } else {
        iso(start)
    };
    let stay_text = if is_messy("end") {
        let s = if nights == 1 { "" } else { "s" };
        format!("for {nights} night{s}")
    } else {
        format!("checking out {}", iso(start + nights))
    };
    let guests_text = if is_messy("guests") {
        let children = rng.range_i64(1, guests - 1);
        let adults = guests - children;
        let plural =
            |n: i64, one: &str, many: &str| format!("{n} {}", if n == 1 { one } else { many });
        format!(
            "{} and {}",
            plural(adults, "adult", "adults"),
            plural(children, "child", "children")
        )
    } else {
        let s = if guests == 1 { "" } else { "s" };
        format!("{guests} guest{s}")
    };
    let letters_text = if mailing {
        format!(
            " Please send letters to {}, {} {}, not to my home.",
            letters.0, letters.1, letters.2
        )
    } else {
        " Letters can come to my home address.".to_string()
    };
    let message = format!(
        "Hi, I am {name_text}, born {dob_text}. My email is {email_text} and my phone is {phone_text}. \
         I live at {}, {} {}, {country}.{letters_text} I would like the {plan} plan; please contact me by {}. \
         Check-in {start_text}, {stay_text}, {guests_text}.",
        home.0,
        home.1,
        home.2,
        asked_contact.to_lowercase()
    );
    let instruction = format!(
        "Fill in the booking application below for this customer and submit it once. \
         Each page states its rules: the form rejects values written any other way, so enter the customer's details as the page asks, \
         and where the request conflicts with a rule, follow the page.\nCustomer's message: \"{message}\""
    );
    let mut messy: Vec<String> = messy.iter().map(|k| k.to_string()).collect();
    messy.sort();
    FormsTask {
        instruction,
        countries: listed,
        expected,
        messy,
        salt: rng.next_u64(),
    }
}
