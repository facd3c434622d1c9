//! A restricted pickle reader for data, never a general unpickler: it understands only
//! the opcodes that build plain values (`None`, booleans, ints, floats, str, list, dict)
//! and refuses every opcode that names, imports, calls or builds an object (`GLOBAL`,
//! `STACK_GLOBAL`, `REDUCE`, `BUILD`, `INST`, `OBJ`, `NEWOBJ`, `PERSID`, …), tuples, sets
//! and bytes. So nothing in the data can run code, whatever the file holds.
//!
//! LiveCodeBench ships `private_test_cases` as base64 of zlib of a pickle of a JSON
//! string; [`decode_lcb_private`] undoes that.

use std::io::Read;

use base64::Engine;
use serde_json::{Map, Number, Value};

/// Largest decompressed pickle accepted.
const MAX_BYTES: u64 = 256 << 20;
/// Most entries in the memo.
const MAX_MEMO: usize = 1 << 20;

/// Reads one pickle holding a plain value.
///
/// # Errors
/// The first refused or malformed opcode, with its offset.
pub fn read_plain(data: &[u8]) -> Result<Value, String> {
    let mut stack: Vec<Value> = Vec::new();
    let mut marks: Vec<usize> = Vec::new();
    let mut memo: Vec<Value> = Vec::new();
    let mut pos = 0usize;
    let take = |pos: &mut usize, n: usize| -> Result<&[u8], String> {
        let end = pos.checked_add(n).filter(|&e| e <= data.len());
        let end = end.ok_or_else(|| format!("pickle truncated at byte {pos}"))?;
        let slice = &data[*pos..end];
        *pos = end;
        Ok(slice)
    };
    let le = |b: &[u8]| b.iter().rev().fold(0u64, |acc, &x| (acc << 8) | x as u64);
    loop {
        let at = pos;
        let op = *take(&mut pos, 1)?.first().expect("one byte");
        let pop = |stack: &mut Vec<Value>| {
            stack
                .pop()
                .ok_or_else(|| format!("empty stack at byte {at}"))
        };
        match op {
            0x80 => {
                take(&mut pos, 1)?; // PROTO n
            }
            0x95 => {
                take(&mut pos, 8)?; // FRAME length
            }
            b'.' => return pop(&mut stack),
            b'N' => stack.push(Value::Null),
            0x88 => stack.push(Value::Bool(true)),
            0x89 => stack.push(Value::Bool(false)),
            b'J' => {
                let v = le(take(&mut pos, 4)?) as u32 as i32;
                stack.push(Value::from(v));
            }
            b'K' => stack.push(Value::from(take(&mut pos, 1)?[0])),
            b'M' => stack.push(Value::from(le(take(&mut pos, 2)?))),
            0x8a => {
                // LONG1: little-endian two's complement of n bytes.
                let n = take(&mut pos, 1)?[0] as usize;
                let bytes = take(&mut pos, n)?;
                if n > 8 {
                    return Err(format!("integer of {n} bytes at byte {at}: too large"));
                }
                let mut v = le(bytes) as i64;
                if n > 0 && n < 8 && bytes[n - 1] & 0x80 != 0 {
                    v -= 1i64 << (8 * n);
                }
                stack.push(Value::from(v));
            }
            b'G' => {
                let bytes: [u8; 8] = take(&mut pos, 8)?.try_into().expect("8 bytes");
                let f = f64::from_be_bytes(bytes);
                stack.push(Number::from_f64(f).map_or(Value::Null, Value::Number));
            }
            0x8c | b'X' | 0x8d => {
                let width = match op {
                    0x8c => 1,
                    b'X' => 4,
                    _ => 8,
                };
                let n = le(take(&mut pos, width)?) as usize;
                let text = std::str::from_utf8(take(&mut pos, n)?)
                    .map_err(|e| format!("string at byte {at}: {e}"))?;
                stack.push(Value::String(text.to_string()));
            }
            b']' => stack.push(Value::Array(Vec::new())),
            b'}' => stack.push(Value::Object(Map::new())),
            b'(' => marks.push(stack.len()),
            b'a' => {
                let item = pop(&mut stack)?;
                match stack.last_mut() {
                    Some(Value::Array(items)) => items.push(item),
                    _ => return Err(format!("APPEND to a non-list at byte {at}")),
                }
            }
            b'e' => {
                let mark = marks
                    .pop()
                    .ok_or_else(|| format!("APPENDS without MARK at byte {at}"))?;
                let items: Vec<Value> = stack.drain(mark.min(stack.len())..).collect();
                match stack.last_mut() {
                    Some(Value::Array(list)) => list.extend(items),
                    _ => return Err(format!("APPENDS to a non-list at byte {at}")),
                }
            }
            b's' | b'u' => {
                let pairs: Vec<Value> = if op == b's' {
                    let v = pop(&mut stack)?;
                    let k = pop(&mut stack)?;
                    vec![k, v]
                } else {
                    let mark = marks
                        .pop()
                        .ok_or_else(|| format!("SETITEMS without MARK at byte {at}"))?;
                    stack.drain(mark.min(stack.len())..).collect()
                };
                let Some(Value::Object(map)) = stack.last_mut() else {
                    return Err(format!("SETITEM on a non-dict at byte {at}"));
                };
                for pair in pairs.chunks(2) {
                    match pair {
                        [Value::String(k), v] => {
                            map.insert(k.clone(), v.clone());
                        }
                        _ => return Err(format!("dict key at byte {at} is not a str")),
                    }
                }
            }
            0x94 | b'q' | b'r' => {
                match op {
                    b'q' => {
                        take(&mut pos, 1)?;
                    }
                    b'r' => {
                        take(&mut pos, 4)?;
                    }
                    _ => {}
                }
                if memo.len() >= MAX_MEMO {
                    return Err("pickle memo too large".into());
                }
                let top = stack
                    .last()
                    .cloned()
                    .ok_or_else(|| format!("MEMOIZE on empty stack at byte {at}"))?;
                memo.push(top);
            }
            b'h' | b'j' => {
                let n = if op == b'h' {
                    take(&mut pos, 1)?[0] as usize
                } else {
                    le(take(&mut pos, 4)?) as usize
                };
                let v = memo
                    .get(n)
                    .cloned()
                    .ok_or_else(|| format!("memo {n} unknown at byte {at}"))?;
                stack.push(v);
            }
            other => {
                return Err(format!(
                    "pickle opcode 0x{other:02x} at byte {at} is not a plain str/list/dict/int/float/None value: refused"
                ));
            }
        }
    }
}

/// LiveCodeBench's `private_test_cases`: plain JSON, or base64 → zlib → pickle of a JSON
/// string (or of the list itself).
///
/// # Errors
/// Why the text could not be decoded.
pub fn decode_lcb_private(text: &str) -> Result<Value, String> {
    if let Ok(value) = serde_json::from_str::<Value>(text) {
        return Ok(value);
    }
    let compressed = base64::engine::general_purpose::STANDARD
        .decode(text.trim())
        .map_err(|e| format!("not JSON and not base64: {e}"))?;
    let mut pickle = Vec::new();
    flate2::read::ZlibDecoder::new(&compressed[..])
        .take(MAX_BYTES)
        .read_to_end(&mut pickle)
        .map_err(|e| format!("not zlib data: {e}"))?;
    match read_plain(&pickle)? {
        Value::String(json) => {
            serde_json::from_str(&json).map_err(|e| format!("pickled text is not JSON: {e}"))
        }
        value => Ok(value),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    // Made by CPython 3.12: pickle.dumps('[{"input": "1\\n", "output": "2\\n"}]')
    // (protocol 4, frame, short unicode, memoize, stop).
    fn pickled_json_string(json: &str) -> Vec<u8> {
        let mut out = vec![0x80, 4, 0x95];
        let body_len = 1 + 1 + json.len() + 1 + 1;
        out.extend((body_len as u64).to_le_bytes());
        out.push(0x8c);
        out.push(json.len() as u8);
        out.extend(json.as_bytes());
        out.push(0x94);
        out.push(b'.');
        out
    }

    #[test]
    fn plain_values_read_and_code_building_opcodes_are_refused() {
        // pickle.dumps([1, "a", {"k": None, "f": 2.5}, True], protocol=2)
        let data = b"\x80\x02]q\x00(K\x01X\x01\x00\x00\x00aq\x01}q\x02(X\x01\x00\x00\x00kq\x03NX\x01\x00\x00\x00fq\x04G@\x04\x00\x00\x00\x00\x00\x00u\x88e.";
        assert_eq!(
            read_plain(data).unwrap(),
            serde_json::json!([1, "a", {"k": null, "f": 2.5}, true])
        );
        // pickle.dumps(os.system) style payloads: GLOBAL, STACK_GLOBAL, REDUCE.
        for evil in [
            &b"cos\nsystem\n(S'echo hi'\ntR."[..],
            b"\x80\x04\x8c\x02os\x8c\x06system\x93\x8c\x02id\x85R.",
            b"\x80\x02)R.",
        ] {
            let err = read_plain(evil).unwrap_err();
            assert!(err.contains("refused"), "{err}");
        }
        assert!(read_plain(b"\x80\x02]").unwrap_err().contains("truncated"));
        // LONG1 of -1 and of 2**40.
        assert_eq!(read_plain(b"\x8a\x01\xff.").unwrap(), serde_json::json!(-1));
        assert_eq!(
            read_plain(b"\x8a\x06\x00\x00\x00\x00\x00\x01.").unwrap(),
            serde_json::json!(1u64 << 40)
        );
    }

    #[test]
    fn livecodebench_private_tests_decode() {
        let json = r#"[{"input": "1\n", "output": "2\n", "testtype": "stdin"}]"#;
        let mut z = flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::default());
        z.write_all(&pickled_json_string(json)).unwrap();
        let text = base64::engine::general_purpose::STANDARD.encode(z.finish().unwrap());
        let value = decode_lcb_private(&text).unwrap();
        assert_eq!(value[0]["output"], "2\n");
        assert_eq!(decode_lcb_private(json).unwrap(), value);
        assert!(decode_lcb_private("%%%").is_err());
    }
}
