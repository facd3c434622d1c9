//! Helpers shared by the `verigym` and `gym-bench` binaries.

use std::io::IsTerminal;

use anyhow::{Context, Result, bail};
use indicatif::{ProgressBar, ProgressStyle};
use serde_json::Value;

/// Exit code: everything worked.
pub const EXIT_OK: u8 = 0;
/// Exit code: the command ran, but some items failed (bad lines, episodes).
pub const EXIT_SOME_FAILED: u8 = 1;
/// Exit code: bad usage or setup (unknown env, bad JSON, missing file).
pub const EXIT_USAGE: u8 = 2;

/// Parses `--config`: inline JSON, or `@path` to a JSON file.
///
/// # Errors
/// Unreadable file or invalid JSON, with a hint.
pub fn parse_config_arg(arg: Option<&str>) -> Result<Option<Value>> {
    let Some(arg) = arg else { return Ok(None) };
    let text = match arg.strip_prefix('@') {
        Some(path) => std::fs::read_to_string(path)
            .with_context(|| format!("cannot read config file `{path}`"))?,
        None => arg.to_string(),
    };
    let value: Value = serde_json::from_str(&text).with_context(|| {
        format!(
            "--config is not valid JSON: `{text}` (expected an object such as '{{\"digits\": 3}}')"
        )
    })?;
    if !value.is_object() {
        bail!("--config must be a JSON object such as '{{\"digits\": 3}}', got `{value}`");
    }
    Ok(Some(value))
}

/// Joins `ID` and `--preset P` into `ID@P`, refusing both at once.
///
/// # Errors
/// When `ID` already names a preset and `--preset` is given too.
pub fn env_with_preset(id: &str, preset: Option<&str>) -> Result<String> {
    match preset {
        None => Ok(id.to_string()),
        Some(_) if id.contains('@') => {
            bail!("give the preset either as `{id}` or with --preset, not both")
        }
        Some(p) => Ok(format!("{id}@{p}")),
    }
}

/// A progress bar on stderr when it is a terminal and the work is long
/// enough to watch; hidden otherwise (logs and pipes stay clean).
pub fn progress_bar(total: u64, what: &str) -> ProgressBar {
    progress_bar_from(total, what, 2_000)
}

/// [`progress_bar`] for items slow enough that `min_total` of them are worth a bar
/// (rows whose reference solutions run in the sandbox, say).
pub fn progress_bar_from(total: u64, what: &str, min_total: u64) -> ProgressBar {
    if !std::io::stderr().is_terminal() || total < min_total {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::new(total);
    bar.set_style(
        ProgressStyle::with_template("{msg} [{bar:40}] {pos}/{len} ({per_sec}, eta {eta})")
            .expect("static template")
            .progress_chars("=> "),
    );
    bar.set_message(what.to_string());
    bar
}

/// Reads a whole input file, `-` meaning stdin.
///
/// # Errors
/// A message naming the file.
pub fn read_input(path: &str) -> Result<String> {
    if path == "-" {
        let mut text = String::new();
        std::io::Read::read_to_string(&mut std::io::stdin(), &mut text)
            .context("cannot read stdin")?;
        return Ok(text);
    }
    std::fs::read_to_string(path).with_context(|| format!("cannot read `{path}`"))
}

/// Opens `-o FILE` or stdout for writing.
///
/// # Errors
/// A message naming the file.
pub fn open_output(path: Option<&str>) -> Result<Box<dyn std::io::Write>> {
    Ok(match path {
        None | Some("-") => Box::new(std::io::BufWriter::new(std::io::stdout().lock())),
        Some(path) => Box::new(std::io::BufWriter::new(
            std::fs::File::create(path).with_context(|| format!("cannot create `{path}`"))?,
        )),
    })
}
