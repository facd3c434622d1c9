//! Integers appended to text without the formatting machinery.
//!
//! Generators write several numbers into every prompt and answer; through
//! `format!` each costs a formatter call and a reallocation, as much as a
//! small task's drawing. These append the decimal digits (written by
//! `itoa`, serde_json's writer of integers) to a buffer the caller sized
//! once.

/// Appends `value` in decimal.
pub fn push_u64(text: &mut String, value: u64) {
    // Small numbers, the most common in prompts, char by char.
    if value < 10 {
        text.push(char::from(b'0' + value as u8));
    } else if value < 100 {
        text.push(char::from(b'0' + (value / 10) as u8));
        text.push(char::from(b'0' + (value % 10) as u8));
    } else {
        text.push_str(itoa::Buffer::new().format(value));
    }
}

/// Appends `value` in decimal, with a `-` when negative.
pub fn push_i128(text: &mut String, value: i128) {
    text.push_str(itoa::Buffer::new().format(value));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn digits_match_display_at_the_edges() {
        for value in [0, 1, -1, 9, 10, -10, 99, 100, i128::MAX, i128::MIN, 1 << 64] {
            let mut text = String::from("x");
            push_i128(&mut text, value);
            assert_eq!(text, format!("x{value}"));
        }
        for value in [0, 7, 10, 12345, u64::MAX] {
            let mut text = String::new();
            push_u64(&mut text, value);
            assert_eq!(text, value.to_string());
        }
    }
}
