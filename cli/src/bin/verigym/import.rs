//! `verigym import FILE --layout NAME -o CARDS.jsonl`: a data set's rows as task cards
//! of `math/dataset-v1` / `code/dataset-v2`.
//!
//! Exit codes: 0 every row became a card; 1 some rows were dropped (how many, counted by
//! reason, and each with its row, line and reason in the summary on stderr, and in
//! `--report` as JSON); 2 the input is unusable (unreadable file, unknown layout, bad
//! `--map`, no rows).

use std::io::Write;
use std::path::PathBuf;

use anyhow::{Context, Result};
use verigym_cli::bin_support::{EXIT_OK, EXIT_SOME_FAILED, open_output, progress_bar_from};
use verigym_import::read::read_lines;
use verigym_import::sample::DEFAULT_MAX_TESTS;
use verigym_import::{Layout, Options, import_lines, parse_map};

/// Import a data set (JSONL, gzipped JSONL, JSON array or Parquet) as task cards.
///
/// One card per usable row, in input order, each carrying the row and its source
/// (file, layout, row, row hash). Rows are deduplicated by normalised prompt; rows
/// with a reference solution have it run in the sandbox, and are dropped when it
/// fails or runs out of time. Exit codes: 0 all rows kept, 1 some rows dropped (the
/// summary says which and why), 2 unusable input.
#[derive(clap::Args)]
pub(crate) struct ImportArgs {
    /// The data file.
    file: PathBuf,
    /// gsm8k, math, deepmath, verl, generic, multiple-choice, apps, taco,
    /// codecontests, livecodebench, mbpp or humaneval.
    #[arg(long)]
    layout: String,
    /// Output JSONL of task cards (default: stdout).
    #[arg(long, short = 'o')]
    output: Option<String>,
    /// Read other field names as the layout's: `prompt=question,answer=final`.
    #[arg(long)]
    map: Option<String>,
    /// Do not run reference solutions.
    #[arg(long)]
    no_validate: bool,
    /// Check each code row's tests by mutation: mutants of its reference solution (a
    /// constant ±1, an operator swapped, a loop bound off by one; up to 24 per row) run
    /// on its tests, and rows whose tests let some pass are listed as weak. Slow: every
    /// mutant is a full run of the row's tests.
    #[arg(long, conflicts_with = "no_validate")]
    mutants: bool,
    /// Tests kept per code row at most (0: all). A row with more keeps a deterministic
    /// sample (seeded by the row's hash), recorded in its card's `sampled`.
    #[arg(long, default_value_t = DEFAULT_MAX_TESTS)]
    max_tests: usize,
    /// Keep code rows whose tests a trivial program passes (the empty program, a
    /// constant, echoing the input, the first example's output, a lookup table of the
    /// shown examples), listed as weak in the summary; by default they are dropped.
    #[arg(long, conflicts_with = "no_validate")]
    keep_weak: bool,
    /// Also write the summary, every dropped row with its reason, as JSON here.
    #[arg(long)]
    report: Option<PathBuf>,
}

pub(crate) fn run(args: ImportArgs) -> Result<u8> {
    let layout: Layout = args.layout.parse()?;
    let options = Options {
        file: args.file.display().to_string(),
        map: parse_map(args.map.as_deref().unwrap_or(""))?,
        validate: !args.no_validate,
        mutants: args.mutants,
        max_tests: args.max_tests,
        keep_weak: args.keep_weak,
    };
    let rows = read_lines(&args.file)?;
    // Code rows run their reference (and mutants) in the sandbox: slow enough to watch.
    let bar = progress_bar_from(rows.len() as u64, "rows", 100);
    let imported = import_lines(rows.into_iter().inspect(|_| bar.inc(1)), &layout, &options);
    bar.finish_and_clear();
    let mut out = open_output(args.output.as_deref())?;
    for card in &imported.cards {
        writeln!(out, "{}", card.to_json_line())?;
    }
    out.flush()?;
    eprint!("{}", imported.summary);
    if let Some(report) = &args.report {
        std::fs::write(report, serde_json::to_string_pretty(&imported.summary)?)
            .with_context(|| format!("writing {}", report.display()))?;
    }
    Ok(if imported.summary.kept == imported.summary.rows {
        EXIT_OK
    } else {
        EXIT_SOME_FAILED
    })
}
