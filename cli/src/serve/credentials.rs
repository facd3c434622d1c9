//! Ids and tokens are credentials: 128 random bits from the kernel, in hex,
//! never chosen by a client and never derived from a counter, a clock or
//! the process id. Tokens travel in `Authorization: Bearer TOKEN`.

use std::io::Read;

use hyper::header::{self, HeaderMap};

use super::error::ApiError;

/// `n` random bytes from `/dev/urandom`.
fn random_bytes<const N: usize>() -> Result<[u8; N], ApiError> {
    let mut bytes = [0u8; N];
    std::fs::File::open("/dev/urandom")
        .and_then(|mut f| f.read_exact(&mut bytes))
        .map_err(|e| ApiError::internal(format!("cannot read /dev/urandom for an id: {e}")))?;
    Ok(bytes)
}

/// A fresh 128-bit credential as 32 hex digits, after `prefix`.
///
/// # Errors
/// 500 when the kernel's random source cannot be read.
pub fn new_credential(prefix: &str) -> Result<String, ApiError> {
    let bytes: [u8; 16] = random_bytes()?;
    let mut id = String::with_capacity(prefix.len() + 32);
    id.push_str(prefix);
    for b in bytes {
        id.push_str(&format!("{b:02x}"));
    }
    Ok(id)
}

/// A fresh random seed, for a request that names none.
///
/// # Errors
/// 500 when the kernel's random source cannot be read.
pub fn random_seed() -> Result<u64, ApiError> {
    Ok(u64::from_le_bytes(random_bytes()?))
}

/// Compares a presented credential with a stored one in time that does not
/// depend on where they first differ.
pub fn same_secret(presented: &str, stored: &str) -> bool {
    let (a, b) = (presented.as_bytes(), stored.as_bytes());
    if a.len() != b.len() {
        return false;
    }
    a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

/// The token of `Authorization: Bearer TOKEN`, if the request has one.
pub fn bearer(headers: &HeaderMap) -> Option<String> {
    let value = headers.get(header::AUTHORIZATION)?.to_str().ok()?.trim();
    let (scheme, token) = value.split_once(' ')?;
    scheme
        .eq_ignore_ascii_case("bearer")
        .then(|| token.trim().to_string())
        .filter(|t| !t.is_empty())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn credentials_are_128_random_bits_in_hex_and_never_repeat() {
        let a = new_credential("ep-").unwrap();
        let b = new_credential("ep-").unwrap();
        assert_eq!(a.len(), 3 + 32);
        assert!(a[3..].bytes().all(|c| c.is_ascii_hexdigit()));
        assert_ne!(a, b);
        assert_ne!(random_seed().unwrap(), random_seed().unwrap());
    }

    #[test]
    fn secrets_compare_exactly() {
        assert!(same_secret("abc", "abc"));
        assert!(!same_secret("abd", "abc"));
        assert!(!same_secret("ab", "abc"));
    }

    #[test]
    fn the_bearer_token_is_read_from_the_authorization_header() {
        let mut headers = HeaderMap::new();
        assert_eq!(bearer(&headers), None);
        headers.insert(header::AUTHORIZATION, "Bearer tok-1".parse().unwrap());
        assert_eq!(bearer(&headers).as_deref(), Some("tok-1"));
        headers.insert(header::AUTHORIZATION, "Basic eA==".parse().unwrap());
        assert_eq!(bearer(&headers), None);
    }
}
