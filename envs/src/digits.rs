//! Integers appended to text without the formatting machinery.
//!
//! Generators write several numbers into every prompt and answer; through
//! `format!` each costs a formatter call and a reallocation, as much as a
//! small task's drawing. These append the decimal digits to a buffer the
//! caller sized once.

/// Appends `value` in decimal.
pub fn push_u64(text: &mut String, mut value: u64) {
    let mut digits = [0u8; 20];
    let mut start = digits.len();
    loop {
        start -= 1;
        digits[start] = b'0' + (value % 10) as u8;
        value /= 10;
        if value == 0 {
            break;
        }
    }
    text.extend(digits[start..].iter().map(|&d| d as char));
}

/// Appends `value` in decimal, with a `-` when negative.
pub fn push_i128(text: &mut String, value: i128) {
    if value < 0 {
        text.push('-');
    }
    push_u128(text, value.unsigned_abs());
}

fn push_u128(text: &mut String, mut value: u128) {
    // 128-bit division is a library call: most values fit 64 bits.
    if let Ok(small) = u64::try_from(value) {
        return push_u64(text, small);
    }
    // u128::MAX has 39 digits.
    let mut digits = [0u8; 39];
    let mut start = digits.len();
    loop {
        start -= 1;
        digits[start] = b'0' + (value % 10) as u8;
        value /= 10;
        if value == 0 {
            break;
        }
    }
    text.extend(digits[start..].iter().map(|&d| d as char));
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
