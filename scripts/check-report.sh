#!/usr/bin/env bash
# Runs the default gym-bench suite and checks that its HTML report renders in
# headless Chromium: the leaderboard table and the three SVG plots must be in
# the rendered DOM, and a screenshot is taken (left in the temp dir, never
# committed). Installs Debian's chromium if it is missing.
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
grep -q '<table id="leaderboard">' "$dom" || { echo "FAIL: no leaderboard table in the rendered page"; fail=1; }
rows=$(grep -o '<tr>' "$dom" | wc -l)
[ "$rows" -ge 10 ] || { echo "FAIL: only $rows table rows rendered"; fail=1; }
plots=$(grep -o '<svg' "$dom" | wc -l)
[ "$plots" -ge 3 ] || { echo "FAIL: $plots plots rendered, expected 3"; fail=1; }
grep -q 'Pass rate by family' "$dom" || { echo "FAIL: family plot has no title"; fail=1; }
[ -s "$out/report.png" ] || { echo "FAIL: no screenshot"; fail=1; }
[ "$fail" = 0 ] && echo "report renders: $rows table rows, $plots plots; screenshot $out/report.png"
exit "$fail"
