//! `human`: a person at the terminal plays a seat in `gym-bench`.
//!
//! The observation goes to stderr (stdout stays the report) and one line of
//! stdin is the action. Runs with a human play their episodes one at a time.

use std::io::{BufRead, Write};
use std::sync::Mutex;

use verigym_envs::{Agent, AgentTurn};

/// Whether a suite or line-up includes a person.
pub fn is_human(name: &str) -> bool {
    name == "human"
}

/// Reads actions from stdin.
pub struct HumanAgent;

/// One prompt at a time, even if episodes were ever run concurrently.
static TERMINAL: Mutex<()> = Mutex::new(());

impl Agent for HumanAgent {
    fn name(&self) -> String {
        "human".into()
    }

    fn act(&mut self, turn: &AgentTurn<'_>) -> String {
        let _terminal = TERMINAL.lock().unwrap_or_else(|e| e.into_inner());
        let mut err = std::io::stderr().lock();
        let _ = writeln!(err, "\n{}", turn.observation.text);
        if let Some(reason) = turn.last_error {
            let _ = writeln!(err, "(refused: {reason})");
        }
        let _ = write!(err, "player {} > ", turn.player);
        let _ = err.flush();
        let mut line = String::new();
        let _ = std::io::stdin().lock().read_line(&mut line);
        line.trim_end_matches(['\n', '\r']).to_string()
    }
}
