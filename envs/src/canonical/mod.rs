//! Canonical JSON text straight from any `Serialize` value: object keys
//! sorted at every level, no whitespace. The text is exactly what
//! `serde_json::to_string(&serde_json::to_value(x)?)` gives (a `Value`'s
//! objects are sorted maps), without building the `Value` tree first: a
//! task card is made by the hundred thousand per second, and the tree's
//! allocations (a string per key and name, a vector per array) were a third
//! of a small card's cost.
//!
//! How: an object's entries are written as they come, each remembered by its
//! key and byte range; when the object ends and its keys were out of order,
//! its bytes are rewritten in key order (a later duplicate key wins, as in a
//! map). Scalars are written by serde_json itself, so numbers and string
//! escapes are spelled as it spells them.

use std::cell::RefCell;

use serde::ser::{self, Error as _, Serialize};
use serde_json::Error;

use key::KeyWriter;

mod key;

/// Integer methods of a `Serializer`, each widened to 64 bits and written
/// by `Writer::signed` or `Writer::unsigned`.
macro_rules! integers {
    ($($method:ident($int:ty) => $write:ident),* $(,)?) => {$(
        fn $method(self, v: $int) -> Result<(), Error> {
            self.$write(v.into());
            Ok(())
        }
    )*};
}

/// The serde parts that write an array's elements (one body, three names).
macro_rules! array_parts {
    ($($part:ident::$method:ident),* $(,)?) => {$(
        impl ser::$part for Compound<'_> {
            type Ok = ();
            type Error = Error;
            fn $method<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Error> {
                self.element(value)
            }
            fn end(self) -> Result<(), Error> {
                self.end_array();
                Ok(())
            }
        }
    )*};
}

/// The canonical JSON text of `value`.
///
/// # Errors
/// Where `serde_json::to_value` fails: a map key that is not a string,
/// number, bool or unit variant, an integer out of the 64-bit range, or the
/// value's own `Serialize` error.
pub fn to_string<T: Serialize + ?Sized>(value: &T) -> Result<String, Error> {
    thread_local! {
        static SCRATCH: RefCell<Writer> = RefCell::new(Writer::default());
    }
    // Buffers are reused across calls on one thread; a `Serialize` that
    // itself asks for canonical text gets a fresh writer.
    SCRATCH.with(|scratch| match scratch.try_borrow_mut() {
        Ok(mut writer) => writer.text_of(value),
        Err(_) => Writer::default().text_of(value),
    })
}

/// What a byte is written as inside a JSON string, as serde_json writes it:
/// 0 for itself, `u` for `\u00xx` (lower-case hex), else the letter after
/// the backslash.
const ESCAPE: [u8; 256] = {
    let mut table = [0u8; 256];
    let mut byte = 0;
    while byte < 0x20 {
        table[byte] = b'u';
        byte += 1;
    }
    table[0x08] = b'b';
    table[0x09] = b't';
    table[0x0a] = b'n';
    table[0x0c] = b'f';
    table[0x0d] = b'r';
    table[b'"' as usize] = b'"';
    table[b'\\' as usize] = b'\\';
    table
};

/// Whether any of 8 bytes is a control character, `"` or `\\` (the bytes
/// [`ESCAPE`] names): the zero-byte and less-than tests of bit twiddling,
/// exact for "any", so a chunk without one is copied unlooked-at.
fn needs_escape(chunk: u64) -> bool {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    let control = chunk.wrapping_sub(ONES * 0x20);
    let quote = chunk ^ (ONES * u64::from(b'"'));
    let backslash = chunk ^ (ONES * u64::from(b'\\'));
    let zero_in = |x: u64| x.wrapping_sub(ONES) & !x;
    ((control & !chunk) | zero_in(quote) | zero_in(backslash)) & HIGH != 0
}

/// Writes `text` as a JSON string, escaped as serde_json escapes it
/// ([`ESCAPE`]). LaTeX questions are full of backslashes, so escaping is
/// the common path: the text is looked at 8 bytes at a time, and runs with
/// nothing to escape are copied whole.
fn push_string(out: &mut Vec<u8>, text: &str) {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    let bytes = text.as_bytes();
    out.reserve(bytes.len() + 2);
    out.push(b'"');
    let (mut run, mut i) = (0, 0);
    while i < bytes.len() {
        let end = (i + 8).min(bytes.len());
        if let Ok(chunk) = <[u8; 8]>::try_from(&bytes[i..end])
            && !needs_escape(u64::from_le_bytes(chunk))
        {
            i = end;
            continue;
        }
        for (at, &byte) in bytes.iter().enumerate().take(end).skip(i) {
            let escape = ESCAPE[usize::from(byte)];
            if escape == 0 {
                continue;
            }
            out.extend_from_slice(&bytes[run..at]);
            run = at + 1;
            if escape == b'u' {
                out.extend_from_slice(b"\\u00");
                out.push(HEX[usize::from(byte >> 4)]);
                out.push(HEX[usize::from(byte & 0xf)]);
            } else {
                out.push(b'\\');
                out.push(escape);
            }
        }
        i = end;
    }
    out.extend_from_slice(&bytes[run..]);
    out.push(b'"');
}

/// The name serde_json gives the struct that carries a `RawValue`'s text
/// (and the text's one field); not public API, but stable since `RawValue`
/// came (1.0.29), and a test holds it to `to_value`.
const RAW_VALUE: &str = "$serde_json::private::RawValue";

/// Buffer capacity a thread keeps between calls.
const KEPT_BYTES: usize = 1 << 20;

#[derive(Default)]
struct Writer {
    out: Vec<u8>,
    /// The entries of every object still open, innermost last.
    entries: Vec<Entry>,
    /// The open objects' keys, unescaped (`Entry::key` ranges).
    keys: String,
    /// Where an object's bytes are copied while they are put in order.
    scratch: Vec<u8>,
}

/// One `"key":value` of an open object: its key and its bytes in `out`.
#[derive(Clone, Copy)]
struct Entry {
    key: (usize, usize),
    start: usize,
    end: usize,
}

impl Writer {
    fn text_of<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<String, Error> {
        self.out.clear();
        self.entries.clear();
        self.keys.clear();
        let written = value.serialize(&mut *self);
        // Only valid UTF-8 goes in: serde_json's writing of strings and
        // numbers, and ASCII punctuation.
        let text =
            written.map(|()| String::from_utf8(self.out.clone()).expect("JSON text is UTF-8"));
        // The buffers are kept for the next task, but not a huge one's for
        // the thread's life.
        if self.out.capacity() > KEPT_BYTES {
            *self = Writer::default();
        }
        text
    }

    fn scalar<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Error> {
        serde_json::to_writer(&mut self.out, value)
    }

    /// Integers and plain strings are most of a task's JSON: written here
    /// in one copy each, as serde_json spells them.
    fn unsigned(&mut self, value: u64) {
        // Indices and small weights, most of a task's numbers, byte by byte.
        if value < 10 {
            self.out.push(b'0' + value as u8);
        } else if value < 100 {
            self.out.push(b'0' + (value / 10) as u8);
            self.out.push(b'0' + (value % 10) as u8);
        } else {
            let mut digits = itoa::Buffer::new();
            self.out.extend_from_slice(digits.format(value).as_bytes());
        }
    }

    fn signed(&mut self, value: i64) {
        if value < 0 {
            self.out.push(b'-');
        }
        self.unsigned(value.unsigned_abs());
    }

    fn string(&mut self, text: &str) -> Result<(), Error> {
        push_string(&mut self.out, text);
        Ok(())
    }

    fn key_text(&self, entry: &Entry) -> &str {
        &self.keys[entry.key.0..entry.key.1]
    }

    /// Closes the object whose entries start at `first` and whose bytes
    /// start at `body` (after its `{`): puts the entries in key order.
    fn close_object(&mut self, first: usize, body: usize, keys_from: usize) {
        let open = &self.entries[first..];
        let in_order = open
            .windows(2)
            .all(|pair| self.key_text(&pair[0]) < self.key_text(&pair[1]));
        if !in_order {
            let mut order: Vec<Entry> = open.to_vec();
            // Stable: of equal keys the later one stays last, and wins.
            order.sort_by(|a, b| self.key_text(a).cmp(self.key_text(b)));
            order.dedup_by(|later, earlier| {
                let same = self.key_text(later) == self.key_text(earlier);
                if same {
                    *earlier = *later;
                }
                same
            });
            self.scratch.clear();
            self.scratch.extend_from_slice(&self.out[body..]);
            self.out.truncate(body);
            for (i, entry) in order.iter().enumerate() {
                if i > 0 {
                    self.out.push(b',');
                }
                let (start, end) = (entry.start - body, entry.end - body);
                self.out.extend_from_slice(&self.scratch[start..end]);
            }
        }
        self.out.push(b'}');
        self.entries.truncate(first);
        self.keys.truncate(keys_from);
    }

    fn open_object(&mut self) -> Compound<'_> {
        self.out.push(b'{');
        Compound {
            first: true,
            entries_from: self.entries.len(),
            keys_from: self.keys.len(),
            body: self.out.len(),
            pending: None,
            raw: false,
            writer: self,
        }
    }

    fn open_array(&mut self) -> Compound<'_> {
        self.out.push(b'[');
        Compound {
            first: true,
            entries_from: 0,
            keys_from: 0,
            body: 0,
            pending: None,
            raw: false,
            writer: self,
        }
    }

    /// `{"variant":` of an externally tagged enum variant.
    fn open_variant(&mut self, variant: &str) -> Result<(), Error> {
        self.out.push(b'{');
        self.string(variant)?;
        self.out.push(b':');
        Ok(())
    }
}

/// An open array or object (or a variant's one-entry object around one).
pub struct Compound<'a> {
    writer: &'a mut Writer,
    first: bool,
    entries_from: usize,
    keys_from: usize,
    body: usize,
    /// A map entry whose key is written and value not yet: its key and
    /// start.
    pending: Option<((usize, usize), usize)>,
    /// serde_json's `RawValue` (a struct by a private name holding JSON
    /// text): its text is read and written in canonical form, as
    /// `to_value` parses it.
    raw: bool,
}

impl Compound<'_> {
    fn comma(&mut self) {
        if !std::mem::take(&mut self.first) {
            self.writer.out.push(b',');
        }
    }

    fn element<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Error> {
        self.comma();
        value.serialize(&mut *self.writer)
    }

    fn field<T: Serialize + ?Sized>(&mut self, key: &str, value: &T) -> Result<(), Error> {
        self.comma();
        let start = self.writer.out.len();
        let key_from = self.writer.keys.len();
        self.writer.keys.push_str(key);
        self.writer.string(key)?;
        self.writer.out.push(b':');
        value.serialize(&mut *self.writer)?;
        let entry = Entry {
            key: (key_from, self.writer.keys.len()),
            start,
            end: self.writer.out.len(),
        };
        self.writer.entries.push(entry);
        Ok(())
    }

    fn end_array(self) {
        self.writer.out.push(b']');
    }

    fn end_object(self) {
        self.writer
            .close_object(self.entries_from, self.body, self.keys_from);
    }
}

impl<'a> ser::Serializer for &'a mut Writer {
    type Ok = ();
    type Error = Error;
    type SerializeSeq = Compound<'a>;
    type SerializeTuple = Compound<'a>;
    type SerializeTupleStruct = Compound<'a>;
    type SerializeTupleVariant = Compound<'a>;
    type SerializeMap = Compound<'a>;
    type SerializeStruct = Compound<'a>;
    type SerializeStructVariant = Compound<'a>;

    fn serialize_bool(self, v: bool) -> Result<(), Error> {
        self.scalar(&v)
    }
    integers! {
        serialize_i8(i8) => signed,
        serialize_i16(i16) => signed,
        serialize_i32(i32) => signed,
        serialize_i64(i64) => signed,
        serialize_u8(u8) => unsigned,
        serialize_u16(u16) => unsigned,
        serialize_u32(u32) => unsigned,
        serialize_u64(u64) => unsigned,
    }
    fn serialize_i128(self, v: i128) -> Result<(), Error> {
        // A `Value` number holds 64 bits (no arbitrary precision).
        match (i64::try_from(v), u64::try_from(v)) {
            (Ok(v), _) => self.signed(v),
            (_, Ok(v)) => self.unsigned(v),
            _ => return Err(Error::custom("number out of range")),
        }
        Ok(())
    }
    fn serialize_u128(self, v: u128) -> Result<(), Error> {
        let v = u64::try_from(v).map_err(|_| Error::custom("number out of range"))?;
        self.unsigned(v);
        Ok(())
    }
    fn serialize_f32(self, v: f32) -> Result<(), Error> {
        // A `Value` keeps an f32 as the f64 it widens to, and prints that.
        self.scalar(&f64::from(v))
    }
    fn serialize_f64(self, v: f64) -> Result<(), Error> {
        self.scalar(&v)
    }
    fn serialize_char(self, v: char) -> Result<(), Error> {
        self.scalar(&v)
    }
    fn serialize_str(self, v: &str) -> Result<(), Error> {
        self.string(v)
    }
    fn serialize_bytes(self, v: &[u8]) -> Result<(), Error> {
        self.scalar(v)
    }
    fn serialize_none(self) -> Result<(), Error> {
        self.serialize_unit()
    }
    fn serialize_some<T: Serialize + ?Sized>(self, value: &T) -> Result<(), Error> {
        value.serialize(self)
    }
    fn serialize_unit(self) -> Result<(), Error> {
        self.out.extend_from_slice(b"null");
        Ok(())
    }
    fn serialize_unit_struct(self, _name: &'static str) -> Result<(), Error> {
        self.serialize_unit()
    }
    fn serialize_unit_variant(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
    ) -> Result<(), Error> {
        self.string(variant)
    }
    fn serialize_newtype_struct<T: Serialize + ?Sized>(
        self,
        _name: &'static str,
        value: &T,
    ) -> Result<(), Error> {
        value.serialize(self)
    }
    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
        value: &T,
    ) -> Result<(), Error> {
        self.open_variant(variant)?;
        value.serialize(&mut *self)?;
        self.out.push(b'}');
        Ok(())
    }
    fn serialize_seq(self, _len: Option<usize>) -> Result<Compound<'a>, Error> {
        Ok(self.open_array())
    }
    fn serialize_tuple(self, _len: usize) -> Result<Compound<'a>, Error> {
        Ok(self.open_array())
    }
    fn serialize_tuple_struct(
        self,
        _name: &'static str,
        _len: usize,
    ) -> Result<Compound<'a>, Error> {
        Ok(self.open_array())
    }
    fn serialize_tuple_variant(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
        _len: usize,
    ) -> Result<Compound<'a>, Error> {
        self.open_variant(variant)?;
        Ok(self.open_array())
    }
    fn serialize_map(self, _len: Option<usize>) -> Result<Compound<'a>, Error> {
        Ok(self.open_object())
    }
    fn serialize_struct(self, name: &'static str, _len: usize) -> Result<Compound<'a>, Error> {
        if name == RAW_VALUE {
            return Ok(Compound {
                first: true,
                entries_from: 0,
                keys_from: 0,
                body: 0,
                pending: None,
                raw: true,
                writer: self,
            });
        }
        Ok(self.open_object())
    }
    fn serialize_struct_variant(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
        _len: usize,
    ) -> Result<Compound<'a>, Error> {
        self.open_variant(variant)?;
        Ok(self.open_object())
    }
}

array_parts!(
    SerializeSeq::serialize_element,
    SerializeTuple::serialize_element,
    SerializeTupleStruct::serialize_field,
);

impl ser::SerializeTupleVariant for Compound<'_> {
    type Ok = ();
    type Error = Error;
    fn serialize_field<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Error> {
        self.element(value)
    }
    fn end(self) -> Result<(), Error> {
        // The array, then the variant's one-entry object around it.
        self.writer.out.extend_from_slice(b"]}");
        Ok(())
    }
}

impl ser::SerializeStruct for Compound<'_> {
    type Ok = ();
    type Error = Error;
    fn serialize_field<T: Serialize + ?Sized>(
        &mut self,
        key: &'static str,
        value: &T,
    ) -> Result<(), Error> {
        if !self.raw {
            return self.field(key, value);
        }
        if key != RAW_VALUE {
            return Err(Error::custom("unexpected field in a raw JSON value"));
        }
        let text = serde_json::to_value(value)?;
        let text = text
            .as_str()
            .ok_or_else(|| Error::custom("a raw JSON value holds text"))?;
        serde_json::from_str::<serde_json::Value>(text)?.serialize(&mut *self.writer)
    }
    fn end(self) -> Result<(), Error> {
        if !self.raw {
            self.end_object();
        }
        Ok(())
    }
}

impl ser::SerializeStructVariant for Compound<'_> {
    type Ok = ();
    type Error = Error;
    fn serialize_field<T: Serialize + ?Sized>(
        &mut self,
        key: &'static str,
        value: &T,
    ) -> Result<(), Error> {
        self.field(key, value)
    }
    fn end(self) -> Result<(), Error> {
        let writer = &mut *self.writer;
        writer.close_object(self.entries_from, self.body, self.keys_from);
        writer.out.push(b'}');
        Ok(())
    }
}

impl ser::SerializeMap for Compound<'_> {
    type Ok = ();
    type Error = Error;
    fn serialize_key<T: Serialize + ?Sized>(&mut self, key: &T) -> Result<(), Error> {
        self.comma();
        let start = self.writer.out.len();
        let key_from = self.writer.keys.len();
        key.serialize(KeyWriter {
            keys: &mut self.writer.keys,
        })?;
        let key_range = (key_from, self.writer.keys.len());
        let text = &self.writer.keys[key_range.0..key_range.1];
        push_string(&mut self.writer.out, text);
        self.writer.out.push(b':');
        self.pending = Some((key_range, start));
        Ok(())
    }
    fn serialize_value<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Error> {
        let (key, start) = self
            .pending
            .take()
            .ok_or_else(|| Error::custom("a map value came before its key"))?;
        value.serialize(&mut *self.writer)?;
        let end = self.writer.out.len();
        self.writer.entries.push(Entry { key, start, end });
        Ok(())
    }
    fn end(self) -> Result<(), Error> {
        self.end_object();
        Ok(())
    }
}

#[cfg(test)]
mod tests;
