//! Tests of the restricted pickle reader: plain values read, code-building opcodes and
//! hostile structures (deep nesting, memo doubling) are refused quickly with a reason.

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
        let err = read_plain(evil).unwrap_err().to_string();
        assert!(err.contains("refused"), "{err}");
    }
    assert!(
        read_plain(b"\x80\x02]")
            .unwrap_err()
            .to_string()
            .contains("truncated")
    );
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

/// `depth` nested empty lists: `[[[…]]]`.
fn nested(depth: usize) -> Vec<u8> {
    let mut p = vec![0x80, 4];
    p.extend(std::iter::repeat_n(b']', depth));
    p.extend(std::iter::repeat_n(b'a', depth - 1));
    p.push(b'.');
    p
}

/// Memoise a list, then build a list holding it twice, `steps` times: 2^steps leaves.
fn memo_doubling(steps: u32) -> Vec<u8> {
    let mut p = vec![0x80, 4, b']', 0x94];
    for i in 0..steps {
        p.extend([b']', b'(', b'j']);
        p.extend(i.to_le_bytes());
        p.push(b'j');
        p.extend(i.to_le_bytes());
        p.extend([b'e', 0x94]);
    }
    p.push(b'.');
    p
}

#[test]
fn deep_nesting_is_refused_not_a_crash() {
    let ok = read_plain(&nested(MAX_DEPTH)).unwrap();
    assert!(ok.is_array());
    for depth in [MAX_DEPTH + 1, 10_000, 1_000_000] {
        let err = read_plain(&nested(depth)).unwrap_err();
        assert!(
            matches!(
                err,
                PickleError::Cap {
                    what: "nesting depth",
                    ..
                }
            ),
            "{err}"
        );
        assert!(err.to_string().contains("nesting depth"), "{err}");
    }
    // Dicts count too: {"k": {"k": …}}.
    let mut p = vec![0x80, 4];
    for _ in 0..10_000 {
        p.extend([b'}', 0x8c, 1, b'k']);
    }
    p.push(b'}');
    p.extend(std::iter::repeat_n(b's', 10_000));
    p.push(b'.');
    assert!(
        read_plain(&p)
            .unwrap_err()
            .to_string()
            .contains("nesting depth")
    );
}

#[test]
fn memo_doubling_is_refused_quickly_with_a_reason() {
    // A small doubling decodes (2^10 leaves) and shares nothing in the result.
    let small = read_plain(&memo_doubling(10)).unwrap();
    assert_eq!(small.to_string().matches("[]").count(), 1 << 10);
    let started = std::time::Instant::now();
    let data = memo_doubling(60);
    assert!(data.len() < 1000, "{}", data.len());
    let err = read_plain(&data).unwrap_err();
    assert_eq!(err, PickleError::TooLarge);
    assert!(err.to_string().contains("more than"), "{err}");
    assert!(
        started.elapsed().as_secs_f64() < 1.0,
        "{:?}",
        started.elapsed()
    );
}

#[test]
fn memo_and_object_caps_hold() {
    // MAX_MEMO + 1 memoised Nones.
    let mut p = vec![0x80, 4, b'N'];
    p.extend(std::iter::repeat_n(0x94, MAX_MEMO + 1));
    p.push(b'.');
    let err = read_plain(&p).unwrap_err();
    assert!(
        matches!(
            err,
            PickleError::Cap {
                what: "memo entries",
                ..
            }
        ),
        "{err}"
    );
    // Copy on write of a shared list counts every copied element: a memoised list of
    // 2^21 items fetched and appended to, over and over.
    let mut p = vec![0x80, 4, b']', 0x94, b'('];
    p.extend(std::iter::repeat_n(b'N', 1 << 21));
    p.push(b'e');
    p.push(0x94);
    for _ in 0..4 {
        p.extend([b'h', 1, b'N', b'a']);
    }
    p.push(b'.');
    let err = read_plain(&p).unwrap_err();
    assert!(
        matches!(
            err,
            PickleError::Cap {
                what: "values created",
                ..
            }
        ),
        "{err}"
    );
}

#[test]
fn json_texts_over_the_caps_are_refused_before_parsing() {
    let legit = r#"[{"input": "[1, 2]\n", "output": "3", "testtype": "functional"}]"#;
    assert_eq!(check_json(legit), Ok(()));
    // Brackets, commas and colons inside strings do not count.
    let quoted = format!("[\"{}\\\"{}\"]", "[,:{".repeat(1 << 21), "]".repeat(100));
    assert_eq!(check_json(&quoted), Ok(()));
    let cap_of = |text: &str| match check_json(text) {
        Err(PickleError::JsonCap { what, .. }) => what,
        other => panic!("{other:?}"),
    };
    // Depth: MAX_DEPTH levels read, one more refused (objects count too).
    let deep = |n: usize| format!("{}{}", "[".repeat(n), "]".repeat(n));
    assert_eq!(check_json(&deep(MAX_DEPTH)), Ok(()));
    assert_eq!(cap_of(&deep(MAX_DEPTH + 1)), "nesting depth");
    assert_eq!(cap_of(&"{\"k\":".repeat(MAX_DEPTH + 1)), "nesting depth");
    // Values: a list of MAX_OBJECTS - 1 items (MAX_OBJECTS with the list) is read, one
    // more item is refused.
    let zeros = |n: usize| format!("[{}]", vec!["0"; n].join(","));
    assert_eq!(check_json(&zeros(MAX_OBJECTS as usize - 1)), Ok(()));
    assert_eq!(cap_of(&zeros(MAX_OBJECTS as usize)), "values and keys");
    // Size: few values, but each an object (a B-tree node): refused by size, not count.
    let objects = format!("[{}]", vec![r#"{"k":0}"#; 600_000].join(","));
    assert_eq!(cap_of(&objects), "decoded size in bytes");
    // Through decode_lcb_private, plain and pickled: the error names the cap.
    let err = decode_lcb_private(&zeros(MAX_OBJECTS as usize)).unwrap_err();
    assert!(
        err.contains("values and keys exceeds the cap of 4194304"),
        "{err}"
    );
    let mut pickle = vec![0x80, 4, b'X'];
    let text = deep(1000);
    pickle.extend((text.len() as u32).to_le_bytes());
    pickle.extend(text.as_bytes());
    pickle.push(b'.');
    let mut z = flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::default());
    z.write_all(&pickle).unwrap();
    let field = base64::engine::general_purpose::STANDARD.encode(z.finish().unwrap());
    let err = decode_lcb_private(&field).unwrap_err();
    assert!(
        err.starts_with("pickled text: JSON text refused") && err.contains("nesting depth"),
        "{err}"
    );
}
