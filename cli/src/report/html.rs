//! The self-contained HTML report (inline CSS and SVG; nothing fetched, so
//! it renders offline). Its order: the summary table and the skipped envs,
//! one plot per family, the ratings (across all games, then per game), the
//! per-env tables in one collapsible `<details>` section per family (each
//! with the family's pass@k curves and accuracy by difficulty preset), and
//! the wall-clock figures.

use std::fmt::Write;

use crate::bench::{GameRatings, Leaderboard, Row};
use crate::runlog::Manifest;
use crate::summary::{Summary, family_rank};

use super::plots::{difficulty_svg, family_scores_svg, pass_at_k_svg};
use super::{env_rows, manifest_lines, ratings_order, speed_rows, summary_rows};

const STYLE: &str = "body{font-family:sans-serif;margin:2em;color:#222}\
    table{border-collapse:collapse;font-size:13px}\
    th,td{border:1px solid #ccc;padding:3px 8px;text-align:left}th{background:#eee}\
    #summary td:nth-child(n+2){text-align:right}\
    .plots{display:flex;flex-wrap:wrap;gap:8px}.plots figure{margin:0}\
    details{margin:6px 0}summary{cursor:pointer;font-weight:bold}\
    p.rule{max-width:60em;font-size:13px;color:#555}\
    p.no-plot{font-size:13px;color:#777;margin:4px 0}";

pub(crate) fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// A table with a header row; `attrs` go on the `<table>` tag, and
/// `row_attr` gives attributes for each body row.
fn table(
    out: &mut String,
    attrs: &str,
    rows: &[Vec<String>],
    row_attr: &dyn Fn(&[String]) -> String,
) {
    let _ = writeln!(out, "<table {attrs}>");
    for (i, row) in rows.iter().enumerate() {
        let tag = if i == 0 { "th" } else { "td" };
        let cells: String = row
            .iter()
            .map(|c| format!("<{tag}>{}</{tag}>", escape(c)))
            .collect();
        let extra = if i == 0 { String::new() } else { row_attr(row) };
        let _ = writeln!(out, "<tr{extra}>{cells}</tr>");
    }
    out.push_str("</table>\n");
}

fn no_attr(_: &[String]) -> String {
    String::new()
}

fn ratings_table(out: &mut String, id: &str, game: &GameRatings) {
    let mut rows = vec![["agent", "Elo", "95% CI"].map(String::from).to_vec()];
    for (agent, elo, low, high) in ratings_order(game) {
        rows.push(vec![
            agent.to_string(),
            format!("{elo:+.0}"),
            format!("{low:+.0} to {high:+.0}"),
        ]);
    }
    table(
        out,
        &format!("class=\"ratings\" id=\"{id}\""),
        &rows,
        &no_attr,
    );
}

/// A family's pass@k curves and accuracy by difficulty, each a figure, or
/// a line saying what the suite would need for it (several samples per
/// task; several presets of one env).
fn family_curves(out: &mut String, family: &str, rows: &[&Row]) {
    let family_id = escape(family);
    out.push_str("<div class=\"plots\">\n");
    let curves = [
        (
            "pass-at-k",
            pass_at_k_svg(family, rows),
            "no pass@k curve: every env of this family ran one sample per task here \
             (set `samples` above 1 in the suite)",
        ),
        (
            "difficulty",
            difficulty_svg(family, rows),
            "no accuracy by difficulty: no env of this family ran at more than one \
             preset here (list an env at several presets in the suite)",
        ),
    ];
    for (kind, svg, missing) in curves {
        if svg.is_empty() {
            let _ = writeln!(
                out,
                "<p class=\"no-plot {kind}\" id=\"{kind}-{family_id}\">{}</p>",
                escape(missing)
            );
        } else {
            let _ = writeln!(
                out,
                "<figure class=\"{kind}\" id=\"{kind}-{family_id}\">{svg}</figure>"
            );
        }
    }
    out.push_str("</div>\n");
}

/// The HTML report.
pub fn html(manifest: &Manifest, board: &Leaderboard, summary: &Summary) -> String {
    let mut out = format!(
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\
         <title>gym-bench report</title>\n<style>{STYLE}</style></head><body>\n\
         <h1>gym-bench report</h1>\n<ul>\n"
    );
    for line in manifest_lines(manifest) {
        let _ = writeln!(out, "<li>{}</li>", escape(&line));
    }
    let _ = writeln!(
        out,
        "</ul>\n<h2>Summary</h2>\n<p class=\"rule\">Score: {}. Interval: {}.</p>",
        escape(&summary.score),
        escape(&summary.interval)
    );
    table(
        &mut out,
        "id=\"summary\"",
        &summary_rows(summary),
        &|row: &[String]| format!(" data-agent=\"{}\"", escape(&row[0])),
    );
    if !summary.skipped.is_empty() {
        out.push_str("<h2>Skipped (not scored)</h2>\n");
        let mut rows = vec![["env", "reason", "fix"].map(String::from).to_vec()];
        for s in &summary.skipped {
            rows.push(vec![s.env.clone(), s.reason.clone(), s.fix.clone()]);
        }
        table(&mut out, "id=\"skipped\"", &rows, &no_attr);
    }
    out.push_str("<h2>Scores by family</h2>\n<div class=\"plots\" id=\"family-plots\">\n");
    for family in &summary.families {
        if let Some(svg) = family_scores_svg(summary, family) {
            let _ = writeln!(
                out,
                "<figure id=\"family-{}\">{svg}</figure>",
                escape(family)
            );
        }
    }
    out.push_str("</div>\n");
    if let Some(all) = &board.all_games {
        out.push_str(
            "<h2>Ratings</h2>\n<h3>Across all games of the games family (one Bradley–Terry fit, Elo scale)</h3>\n",
        );
        ratings_table(&mut out, "ratings-all-games", all);
        let _ = writeln!(
            out,
            "<details class=\"game-ratings\"><summary>Per game ({} games)</summary>",
            board.ratings.len()
        );
        for (i, game) in board.ratings.iter().enumerate() {
            let _ = writeln!(out, "<h3>{}</h3>", escape(&game.env));
            ratings_table(&mut out, &format!("ratings-{i}"), game);
        }
        out.push_str("</details>\n");
    }
    out.push_str("<h2>Per env</h2>\n");
    let mut families: Vec<&str> = board.rows.iter().map(|r| r.family.as_str()).collect();
    families.sort_by_key(|f| family_rank(f));
    families.dedup();
    for family in families {
        let rows: Vec<&Row> = board.rows.iter().filter(|r| r.family == family).collect();
        let mut envs: Vec<&str> = rows.iter().map(|r| r.env.as_str()).collect();
        envs.dedup();
        let _ = writeln!(
            out,
            "<details class=\"family\" id=\"details-{0}\"><summary>{0}: {1} envs</summary>",
            escape(family),
            envs.len()
        );
        table(
            &mut out,
            "class=\"envs\"",
            &env_rows(rows.iter().copied()),
            &no_attr,
        );
        family_curves(&mut out, family, &rows);
        out.push_str("</details>\n");
    }
    out.push_str(
        "<details id=\"speed\"><summary>Speed (wall-clock time; varies between runs)</summary>\n",
    );
    table(&mut out, "class=\"speed\"", &speed_rows(board), &no_attr);
    out.push_str("</details>\n</body></html>\n");
    out
}
