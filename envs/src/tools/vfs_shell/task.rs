//! The config and task of `tools/vfs-shell`.

use serde::{Deserialize, Serialize};

use super::fs::Tree;

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct VfsShellConfig {
    pub invoices: usize,
    pub logs: usize,
    pub notes: usize,
    /// Invoices sit in per-year folders, so `find`/`grep` over the subtree
    /// are needed.
    pub by_year: bool,
    pub infeasible_share: f64,
}

impl Default for VfsShellConfig {
    fn default() -> Self {
        VfsShellConfig {
            invoices: 12,
            logs: 8,
            notes: 4,
            by_year: false,
            infeasible_share: 0.2,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct VfsShellTask {
    pub instruction: String,
    pub initial: Tree,
    pub expected: Tree,
    /// The expected answer; `infeasible: EVIDENCE` for infeasible tasks.
    pub answer: String,
    pub feasible: bool,
}
