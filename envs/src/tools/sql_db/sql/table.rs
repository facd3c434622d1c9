//! The tables our SQL runs on: cells, tables, and a database of named tables.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

/// A cell: integers and text only (no NULLs in generated tables).
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(untagged)]
pub enum Cell {
    Int(i64),
    Text(String),
}

impl std::fmt::Display for Cell {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Cell::Int(i) => write!(f, "{i}"),
            Cell::Text(s) => write!(f, "{s}"),
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Table {
    pub columns: Vec<String>,
    /// Per column: true for integers, false for text.
    pub int_columns: Vec<bool>,
    pub rows: Vec<Vec<Cell>>,
}

pub type Db = BTreeMap<String, Table>;
