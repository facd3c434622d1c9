//! Reading a data file into rows: JSONL (one object per line; `.gz` decompressed), a
//! JSON array, or Parquet (the `parquet` feature; how a Hugging Face dataset is saved).
//! A line that is not JSON becomes a row error (dropped with that reason, never
//! skipped); blank lines are not rows, but each row keeps its physical line
//! ([`read_lines`]) for the import report; a leading UTF-8 byte-order mark is stripped
//! (it would make the first row unreadable); a file that cannot be read at all is an
//! [`ImportError`].

use std::io::Read;
use std::path::Path;

use serde_json::Value;

use crate::error::ImportError;
use crate::pickle::check_json;

/// One row as read: the JSON value, or why its line is not JSON.
pub type Row = Result<Value, String>;

/// A row with its 1-based physical line in a JSONL file (`None` for the items of a JSON
/// array and for Parquet rows).
pub type LineRow = (Option<u64>, Row);

/// The rows of `path`, in file order.
///
/// # Errors
/// As [`read_lines`].
pub fn read_rows(path: &Path) -> Result<Vec<Row>, ImportError> {
    Ok(read_lines(path)?.into_iter().map(|(_, row)| row).collect())
}

/// The rows of `path` with their physical lines, in file order.
///
/// # Errors
/// The file cannot be read or decompressed, is Parquet without the feature, or holds
/// no rows.
pub fn read_lines(path: &Path) -> Result<Vec<LineRow>, ImportError> {
    let name = path.display().to_string();
    let io = |source| ImportError::Io {
        path: name.clone(),
        source,
    };
    let bytes = std::fs::read(path).map_err(io)?;
    let rows = if bytes.starts_with(b"PAR1") {
        parquet_rows(path, &name)?
            .into_iter()
            .map(|row| (None, row))
            .collect()
    } else {
        let text = if bytes.starts_with(&[0x1f, 0x8b]) {
            let mut text = String::new();
            flate2::read::GzDecoder::new(&bytes[..])
                .read_to_string(&mut text)
                .map_err(io)?;
            text
        } else {
            String::from_utf8(bytes)
                .map_err(|e| io(std::io::Error::new(std::io::ErrorKind::InvalidData, e)))?
        };
        lines_of_text(&text)
    };
    if rows.is_empty() {
        return Err(ImportError::Empty(name));
    }
    Ok(rows)
}

/// JSONL rows, or the items of a JSON array when the text is one.
pub fn rows_of_text(text: &str) -> Vec<Row> {
    lines_of_text(text)
        .into_iter()
        .map(|(_, row)| row)
        .collect()
}

/// [`rows_of_text`] with each row's 1-based physical line (blank lines counted).
pub fn lines_of_text(text: &str) -> Vec<LineRow> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    // Every text is scanned against the JSON caps before it is parsed, so no
    // row (or file that is one JSON array) can grow past the memory bound.
    if text.trim_start().starts_with('[') {
        match check_json(text) {
            Ok(()) => {
                if let Ok(Value::Array(items)) = serde_json::from_str(text) {
                    return items.into_iter().map(|v| (None, Ok(v))).collect();
                }
            }
            Err(e) => {
                return vec![(
                    None,
                    Err(format!(
                        "the file is one JSON array too large to read at once ({e}); \
                         write it as JSONL, one row per line"
                    )),
                )];
            }
        }
    }
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
        .map(|(i, l)| {
            if let Err(e) = check_json(l) {
                return (Some(i as u64 + 1), Err(e.to_string()));
            }
            let row = match serde_json::from_str::<Value>(l) {
                Ok(v @ Value::Object(_)) => Ok(v),
                Ok(other) => {
                    let text = other.to_string();
                    Err(format!(
                        "not a JSON object: {}",
                        &text[..text.floor_char_boundary(60)]
                    ))
                }
                Err(e) => Err(e.to_string()),
            };
            (Some(i as u64 + 1), row)
        })
        .collect()
}

#[cfg(not(feature = "parquet"))]
fn parquet_rows(_path: &Path, name: &str) -> Result<Vec<Row>, ImportError> {
    Err(ImportError::NoParquet {
        path: name.to_string(),
    })
}

#[cfg(feature = "parquet")]
fn parquet_rows(path: &Path, name: &str) -> Result<Vec<Row>, ImportError> {
    use parquet::basic::Compression;
    use parquet::file::reader::{FileReader, SerializedFileReader};
    let err = |e: parquet::errors::ParquetError| ImportError::Parquet {
        path: name.to_string(),
        message: e.to_string(),
    };
    let file = std::fs::File::open(path).map_err(|source| ImportError::Io {
        path: name.to_string(),
        source,
    })?;
    let reader = SerializedFileReader::new(file).map_err(err)?;
    // A codec this build lacks must be refused up front: read anyway, its pages are
    // taken for uncompressed ones, and their garbage lengths ask for gigabytes.
    for group in reader.metadata().row_groups() {
        for column in group.columns() {
            let codec = column.compression();
            if !matches!(
                codec,
                Compression::UNCOMPRESSED | Compression::SNAPPY | Compression::GZIP(_)
            ) {
                return Err(ImportError::Parquet {
                    path: name.to_string(),
                    message: format!(
                        "column `{}` is compressed with {codec}, which this build does not read (it reads uncompressed, SNAPPY and GZIP); rewrite it, e.g. `pyarrow.parquet.write_table(pyarrow.parquet.read_table(IN), OUT)` (SNAPPY), or export JSONL",
                        column.column_path()
                    ),
                });
            }
        }
    }
    let mut rows = Vec::new();
    for row in reader.get_row_iter(None).map_err(err)? {
        rows.push(row.map(|r| r.to_json_value()).map_err(|e| e.to_string()));
    }
    Ok(rows)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn jsonl_lines_that_are_not_objects_become_row_errors() {
        let rows = rows_of_text("{\"a\": 1}\n\nnot json\n[1]\n{\"b\": 2}\n");
        assert_eq!(rows.len(), 4);
        assert!(rows[0].is_ok() && rows[3].is_ok());
        assert!(rows[1].is_err() && rows[2].is_err());
        assert_eq!(rows_of_text("[{\"a\": 1}, {\"a\": 2}]").len(), 2);
    }

    #[test]
    fn a_byte_order_mark_is_stripped_and_rows_keep_their_physical_lines() {
        let rows = lines_of_text("\u{feff}{\"a\": 1}\n\n\n{\"b\": 2}\nnope\n");
        let lines: Vec<Option<u64>> = rows.iter().map(|(l, _)| *l).collect();
        assert_eq!(lines, [Some(1), Some(4), Some(5)]);
        assert_eq!(rows[0].1, Ok(serde_json::json!({"a": 1})));
        assert!(rows[2].1.is_err());
        let array = lines_of_text("\u{feff}[{\"a\": 1}]");
        assert_eq!(array, [(None, Ok(serde_json::json!({"a": 1})))]);
    }
}
