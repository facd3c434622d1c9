//! The config and task of `tools/sql-db`.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::sql::Db;
use crate::toolkit::calls::call_text;

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct SqlDbConfig {
    pub departments: usize,
    pub employees: usize,
    pub projects: usize,
    pub infeasible_share: f64,
}

impl Default for SqlDbConfig {
    fn default() -> Self {
        SqlDbConfig {
            departments: 5,
            employees: 30,
            projects: 15,
            infeasible_share: 0.2,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SqlDbTask {
    pub instruction: String,
    pub initial: Db,
    pub expected: Db,
    pub answer: String,
    pub feasible: bool,
    /// The reference calls, answer last.
    pub gold: Vec<String>,
}

/// Hermes text of a tool call, for gold plans.
pub(super) fn gold(name: &str, args: Value) -> String {
    call_text(name, args)
}
