//! Words that may follow a value as its unit (`cm`, `m^2`, `square units`), shared by
//! the parser (a unit remark after a value) and the reader (units trimmed off an answer).

/// Words that offer another candidate: text holding one is never a unit or a remark.
const HEDGE_WORDS: &[&str] = &["or", "maybe", "perhaps", "possibly", "either", "and"];

/// A word that can name a unit: letters (with a trailing `.` or a power like `m^2`),
/// not a word that offers an alternative.
pub(super) fn is_unit_word(w: &str) -> bool {
    let w = w.trim_end_matches(['.', ',']);
    let (letters, power) = w.split_once('^').unwrap_or((w, ""));
    !letters.is_empty()
        && letters.len() <= 20
        && letters
            .chars()
            .all(|c| c.is_alphabetic() || "²³".contains(c))
        && power
            .chars()
            .all(|c| c.is_ascii_digit() || "{}".contains(c))
        && !HEDGE_WORDS.iter().any(|h| letters.eq_ignore_ascii_case(h))
}
