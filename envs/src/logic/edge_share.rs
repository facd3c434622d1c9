//! The one size rule of the graph envs drawn as "a random spanning tree
//! plus extra edges" (shortest path, minimum spanning tree, max flow): the
//! edges asked for must leave room, or the drawing of distinct extra edges
//! could not finish.

use crate::error::ConfigError;

/// Refuses an `edge_factor` that asks for more than 60% of all node pairs.
///
/// # Errors
/// A [`ConfigError`] saying to lower `edge_factor` or add nodes.
pub(crate) fn check_edge_share(nodes: usize, edge_factor: f64) -> Result<(), ConfigError> {
    let pairs = nodes * (nodes - 1) / 2;
    let edges = (edge_factor * nodes as f64).round() as usize;
    if edges * 5 > pairs * 3 {
        return Err(
            "edge_factor gives more than 60% of all node pairs; lower it or add nodes".into(),
        );
    }
    Ok(())
}
