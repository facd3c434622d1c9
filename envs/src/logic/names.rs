//! Random names for the things a task lists (tasks, items), and reading an
//! answer that names them. Drawn per task, so one task's answer never names
//! another's things.

use crate::core::InvalidAction;
use crate::rng::Rng;

/// `count` distinct three-letter names.
pub(crate) fn draw_names(count: usize, rng: &mut Rng) -> Vec<String> {
    let mut names: Vec<String> = Vec::with_capacity(count);
    while names.len() < count {
        let letters = [0; 3].map(|_| b'A' + rng.below(26) as u8);
        // A linear scan: at most a few dozen names, and no second copy of each.
        if !names.iter().any(|n| n.as_bytes() == letters) {
            names.push(letters.iter().map(|&letter| char::from(letter)).collect());
        }
    }
    names
}

/// The indices of the named `tokens` in `names`, case ignored; `noun` says
/// what they are in messages. Unreadable: an unknown name, more tokens than
/// names, or none.
pub(crate) fn read_names<'a>(
    tokens: impl Iterator<Item = &'a str>,
    names: &[String],
    noun: &str,
) -> Result<Vec<usize>, InvalidAction> {
    let mut read = Vec::new();
    for token in tokens {
        // A scan, not a map: a task names a few dozen things at most, and
        // building a map of them cost more than the rest of a check. The
        // last of two names equal but for case wins, as it would in a map.
        match names
            .iter()
            .rposition(|name| name.eq_ignore_ascii_case(token))
        {
            Some(i) => read.push(i),
            None => return Err(format!("`{token}` is not one of the {noun} names").into()),
        }
        if read.len() > names.len() {
            return Err(format!("more than the {} {noun} names", names.len()).into());
        }
    }
    if read.is_empty() {
        return Err(format!("no {noun} names given").into());
    }
    Ok(read)
}
