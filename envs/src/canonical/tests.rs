use std::collections::{BTreeMap, HashMap};

use proptest::prelude::*;
use serde::Serialize;
use serde::ser::SerializeMap;
use serde_json::{Value, json};

use super::{ESCAPE, needs_escape, to_string};

/// What the canonical text must equal: the value made a `Value` (sorted
/// maps), then written.
fn through_value<T: Serialize + ?Sized>(value: &T) -> String {
    serde_json::to_string(&serde_json::to_value(value).unwrap()).unwrap()
}

#[derive(Serialize)]
enum Shape {
    Dot,
    Circle(f64),
    Segment(i32, i32),
    Box {
        width: u8,
        height: u8,
        label: String,
    },
}

#[derive(Serialize)]
struct Unit;

#[derive(Serialize)]
struct Meters(f32);

#[derive(Serialize)]
struct Inner {
    zeta: Vec<(usize, usize, u64)>,
    alpha: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    skipped: Option<u8>,
}

#[derive(Serialize)]
struct Outer {
    names: Vec<String>,
    directed: bool,
    inner: Inner,
    shapes: Vec<Shape>,
    by_number: HashMap<u32, &'static str>,
    by_flag: BTreeMap<bool, char>,
    big: i128,
    small: i64,
    ratio: f32,
    not_a_number: f64,
    unit: Unit,
    meters: Meters,
    bytes: serde_bytes_like::Bytes,
    #[serde(rename = "é key")]
    accented: (),
    #[serde(rename = "\"quoted\\\"")]
    quoted: char,
    #[serde(flatten)]
    extra: BTreeMap<String, Value>,
}

/// `serialize_bytes` without a crate for it.
mod serde_bytes_like {
    pub struct Bytes(pub Vec<u8>);
    impl serde::Serialize for Bytes {
        fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            s.serialize_bytes(&self.0)
        }
    }
}

#[test]
fn typed_values_write_as_their_json_value_writes() {
    let outer = Outer {
        names: vec!["kip".into(), "a\"b\\c\n\u{1}".into(), "ünï".into()],
        directed: true,
        inner: Inner {
            zeta: vec![(0, 1, 5), (2, 0, u64::MAX)],
            alpha: None,
            skipped: None,
        },
        shapes: vec![
            Shape::Dot,
            Shape::Circle(0.1),
            Shape::Segment(-3, 4),
            Shape::Box {
                width: 2,
                height: 3,
                label: "b".into(),
            },
        ],
        // "10" sorts before "9" as text, as in a `Value`.
        by_number: [(9, "nine"), (10, "ten"), (100, "hundred"), (0, "zero")].into(),
        by_flag: [(true, 't'), (false, 'f')].into(),
        big: i128::from(u64::MAX),
        small: i64::MIN,
        ratio: 0.1,
        not_a_number: f64::NAN,
        unit: Unit,
        meters: Meters(2.5),
        bytes: serde_bytes_like::Bytes(vec![0, 255]),
        accented: (),
        quoted: '\'',
        extra: [("aardvark".to_string(), json!({"z": [], "y": {}}))].into(),
    };
    let text = to_string(&outer).unwrap();
    assert_eq!(text, through_value(&outer));
    assert!(text.starts_with(r#"{"\"quoted\\\"":"'","aardvark":{"y":{},"z":[]},"big":"#));
    assert!(text.contains(r#""by_number":{"0":"zero","10":"ten","100":"hundred","9":"nine"}"#));
}

/// Map keys of every kind `to_value` takes, floats among them.
struct OddKeys;

impl Serialize for OddKeys {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut map = s.serialize_map(None)?;
        map.serialize_entry(&0.3f32, &1)?;
        map.serialize_entry(&0.1f64, &2)?;
        map.serialize_entry(&-7i128, &3)?;
        map.serialize_entry(&'k', &4)?;
        map.serialize_entry(&false, &5)?;
        map.serialize_entry(&Shape::Dot, &6)?;
        map.serialize_entry(&Meters(2.5), &7)?;
        map.end()
    }
}

#[test]
fn keys_of_every_kind_write_as_through_a_value() {
    let text = to_string(&OddKeys).unwrap();
    assert_eq!(text, through_value(&OddKeys));
    // An f32 key is spelled as an f32, unlike an f32 value.
    assert!(text.contains(r#""0.3":1"#), "{text}");
}

#[test]
fn a_raw_json_value_inside_writes_as_its_parsed_value() {
    let raw =
        serde_json::value::to_raw_value(&json!({"b": [1, {"d": 0, "c": 1}], "a": 2})).unwrap();
    let outer = json!({"z": 0});
    let both = (&raw, &outer, vec![raw.clone()]);
    let text = to_string(&both).unwrap();
    assert_eq!(text, through_value(&both));
    assert!(
        text.starts_with(r#"[{"a":2,"b":[1,{"c":1,"d":0}]},"#),
        "{text}"
    );
}

#[test]
fn a_computed_float_reads_back_as_a_written_card_does() {
    // serde_json (without `float_roundtrip`) may read the shortest
    // spelling of a computed f64 back one ulp off: a card's value is what
    // its text reads as, in memory as from a file, and stays put after.
    let task = json!({"x": 0.9452706955539223_f64, "y": 0.5});
    let text = to_string(&task).unwrap();
    let read: Value = serde_json::from_str(&text).unwrap();
    assert_eq!(read["y"], 0.5);
    let again = to_string(&read).unwrap();
    assert_eq!(serde_json::from_str::<Value>(&again).unwrap(), read);
    assert_eq!(
        again,
        to_string(&serde_json::from_str::<Value>(&again).unwrap()).unwrap()
    );
}

#[test]
fn out_of_range_numbers_and_odd_keys_fail_as_through_a_value() {
    assert!(to_string(&(u128::from(u64::MAX) + 1)).is_err());
    assert!(serde_json::to_value(u128::from(u64::MAX) + 1).is_err());
    let keyed_by_pairs: BTreeMap<(u8, u8), u8> = [((1, 2), 3)].into();
    assert!(to_string(&keyed_by_pairs).is_err());
    assert!(serde_json::to_value(&keyed_by_pairs).is_err());
}

/// A JSON-like tree whose objects keep their entries in the order given,
/// duplicates included: the writer must sort them and keep the last.
#[derive(Clone, Debug)]
enum Tree {
    Leaf(Value),
    Array(Vec<Tree>),
    Object(Vec<(String, Tree)>),
}

impl Serialize for Tree {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            Tree::Leaf(value) => value.serialize(s),
            Tree::Array(items) => items.serialize(s),
            Tree::Object(entries) => {
                let mut map = s.serialize_map(Some(entries.len()))?;
                for (key, value) in entries {
                    map.serialize_entry(key, value)?;
                }
                map.end()
            }
        }
    }
}

fn tree() -> impl Strategy<Value = Tree> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::from),
        any::<i64>().prop_map(Value::from),
        any::<u64>().prop_map(Value::from),
        any::<f64>().prop_map(Value::from),
        ".{0,6}".prop_map(Value::from),
    ]
    .prop_map(Tree::Leaf);
    leaf.prop_recursive(4, 48, 6, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..6).prop_map(Tree::Array),
            // Few key letters, so that duplicates and near-ties are common.
            prop::collection::vec(("[ab\"\\\\é]{0,3}", inner), 0..6).prop_map(Tree::Object),
        ]
    })
}

/// The 8-byte test finds every byte that needs escaping, at every position,
/// among neighbours of every kind (high-bit bytes included), and nothing else.
#[test]
fn the_chunk_test_finds_exactly_the_bytes_to_escape() {
    for fill in [b'a', 0x7f, 0xff, 0x80, b'!', b'#', b'[', b']'] {
        for byte in 0..=255u8 {
            for at in 0..8 {
                let mut chunk = [fill; 8];
                chunk[at] = byte;
                let expected = ESCAPE[usize::from(byte)] != 0;
                assert_eq!(
                    needs_escape(u64::from_le_bytes(chunk)),
                    expected,
                    "{chunk:?}"
                );
            }
        }
    }
}

/// Mostly plain text with now and then a byte to escape, as questions are:
/// whole clean chunks, and escapes at every offset in a chunk.
fn question_like() -> impl Strategy<Value = String> {
    "([a-z0-9 ${}é]{0,11}[\\x00-\\x1f\\\\\"]?){0,8}"
}

proptest! {
    #[test]
    fn question_like_strings_escape_as_serde_json_escapes_them(text in question_like()) {
        prop_assert_eq!(to_string(&text).unwrap(), serde_json::to_string(&text).unwrap());
    }

    #[test]
    fn any_tree_writes_as_its_json_value_writes(tree in tree()) {
        prop_assert_eq!(to_string(&tree).unwrap(), through_value(&tree));
    }

    /// Strings are escaped as serde_json escapes them (long enough for
    /// whole 8-byte chunks, clean and not): every control
    /// character, quotes and backslashes (LaTeX), DEL and non-ASCII left as
    /// they are; as a value and as a key.
    #[test]
    fn any_string_escapes_as_serde_json_escapes_it(text in "[\\x00-\\x7f\\\\\"é\\u{2028}]{0,40}") {
        prop_assert_eq!(to_string(&text).unwrap(), serde_json::to_string(&text).unwrap());
        let keyed = BTreeMap::from([(text.clone(), 1)]);
        prop_assert_eq!(to_string(&keyed).unwrap(), through_value(&keyed));
    }
}
