#!/usr/bin/env bash
# Runs the default gym-bench suite and checks that its HTML report renders in
# headless Chromium, in the report's order: the summary table (one row per
# agent, as in summary.json), a score plot per family, the ratings across all
# games, then one collapsible <details> section of per-env tables per family.
# A screenshot is taken (left in the output dir, never committed). Installs
# Debian's chromium if it is missing.
#   bash scripts/check-report.sh [OUT_DIR]
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:-$(mktemp -d)}
if ! command -v chromium >/dev/null; then
  apt-get update -q && apt-get install -y -q chromium
fi
cargo run -q --release --bin gym-bench -- --n 30 --out "$out/run" >/dev/null
flags=(--headless --no-sandbox --disable-gpu --disable-quic --no-first-run
  --disable-background-networking --disable-component-update --disable-sync
  --user-data-dir="$out/chromium-profile")
dom="$out/dom.html"
timeout 120 chromium "${flags[@]}" --dump-dom "file://$out/run/report.html" >"$dom" 2>/dev/null
timeout 120 chromium "${flags[@]}" --window-size=1200,2400 --screenshot="$out/report.png" \
  "file://$out/run/report.html" >/dev/null 2>&1
fail=0
check() { grep -q "$1" "$dom" || { echo "FAIL: $2"; fail=1; }; }
check '<table id="summary">' "no summary table in the rendered page"
check '<figure id="family-math">' "no score plot for the math family"
check 'id="ratings-all-games"' "no all-games ratings table"
check '<details class="family" id="details-math">' "no per-env section for math"
# The summary opens the page: before the plots, the ratings and the details.
order=$(grep -o -e '<table id="summary">' -e '<figure id="family-' -e 'id="ratings-all-games"' \
  -e '<details class="family"' "$dom" | uniq | head -4 | tr '\n' '|')
[ "$order" = '<table id="summary">|<figure id="family-|id="ratings-all-games"|<details class="family"|' ] \
  || { echo "FAIL: sections out of order: $order"; fail=1; }
agents=$(python3 -c 'import json,sys; print(len(json.load(open(sys.argv[1]))["agents"]))' "$out/run/summary.json")
rows=$(grep -o '<tr data-agent=' "$dom" | wc -l)
[ "$rows" = "$agents" ] || { echo "FAIL: $rows summary rows rendered, summary.json has $agents agents"; fail=1; }
families=$(python3 -c 'import json,sys; print(len(json.load(open(sys.argv[1]))["families"]))' "$out/run/summary.json")
plots=$(grep -o '<figure id="family-[a-z]*"><svg' "$dom" | wc -l)
[ "$plots" = "$families" ] || { echo "FAIL: $plots family plots rendered, expected $families"; fail=1; }
sections=$(grep -o '<details class="family"' "$dom" | wc -l)
[ "$sections" -ge 5 ] || { echo "FAIL: only $sections per-family sections"; fail=1; }
[ -s "$out/report.png" ] || { echo "FAIL: no screenshot"; fail=1; }
[ "$fail" = 0 ] && echo "report renders: $rows agents, $plots family plots, $sections family sections; screenshot $out/report.png"
exit "$fail"
