//! Splitting an answer into lines: what `str::lines` does, with a vector byte search
//! (readers split every answer, so the split is on the hot path of every grid and table).

/// The lines of `text`, split as [`str::lines`] splits them: at `\n` or `\r\n`, with no
/// empty line after a final break.
pub fn lines(text: &str) -> impl Iterator<Item = &str> {
    let mut rest = Some(text).filter(|t| !t.is_empty());
    std::iter::from_fn(move || {
        let current = rest?;
        Some(match memchr::memchr(b'\n', current.as_bytes()) {
            Some(at) => {
                rest = Some(&current[at + 1..]).filter(|t| !t.is_empty());
                let line = &current[..at];
                line.strip_suffix('\r').unwrap_or(line)
            }
            None => {
                rest = None;
                current
            }
        })
    })
}

#[cfg(test)]
mod tests {
    use super::lines;
    use proptest::prelude::*;

    #[test]
    fn splits_as_str_lines() {
        for text in [
            "",
            "\n",
            "a",
            "a\n",
            "a\n\nb",
            "a\r\nb\r\n",
            "a\r",
            "\r\n\r\n",
            "a\rb\n",
        ] {
            assert_eq!(
                lines(text).collect::<Vec<_>>(),
                text.lines().collect::<Vec<_>>(),
                "{text:?}"
            );
        }
    }

    proptest! {
        #[test]
        fn matches_str_lines_on_any_text(text in "[a\\r\\n é]{0,24}") {
            prop_assert_eq!(lines(&text).collect::<Vec<_>>(), text.lines().collect::<Vec<_>>());
        }
    }
}
