#!/usr/bin/env bash
# Runs the default gym-bench suite and checks that its HTML report renders in
# headless Chromium, in the report's order: the summary table (one row per
# agent, as in summary.json), a score plot per family, the ratings across all
# games, then one collapsible <details> section of per-env tables per family,
# each holding that family's pass@k curves and accuracy by difficulty (a plot,
# or a line saying what the suite lacks for it). The page must be one
# self-contained file (nothing fetched). Two screenshots are taken (left in
# the output dir, never committed): the page as it opens, and the page with
# every section expanded. Installs Debian's chromium if it is missing.
#   bash scripts/check-report.sh [OUT_DIR]
#   GYM_BENCH=target/debug/gym-bench bash scripts/check-report.sh   # a built binary
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:-$(mktemp -d)}
mkdir -p "$out"
if ! command -v chromium >/dev/null; then
  apt-get update -q && apt-get install -y -q chromium
fi
if [ -n "${GYM_BENCH:-}" ]; then
  "$GYM_BENCH" --n 30 --out "$out/run" >"$out/terminal.txt"
else
  cargo run -q --release --bin gym-bench -- --n 30 --out "$out/run" >"$out/terminal.txt"
fi
flags=(--headless --no-sandbox --disable-gpu --disable-quic --no-first-run
  --disable-background-networking --disable-component-update --disable-sync
  --user-data-dir="$out/chromium-profile")
dom="$out/dom.html"
timeout 120 chromium "${flags[@]}" --dump-dom "file://$out/run/report.html" >"$dom" 2>/dev/null
timeout 120 chromium "${flags[@]}" --window-size=1200,2400 --screenshot="$out/report.png" \
  "file://$out/run/report.html" >/dev/null 2>&1
# The same page with every <details> open, to see the per-family plots.
sed 's/<details /<details open /g' "$out/run/report.html" >"$out/report-open.html"
timeout 120 chromium "${flags[@]}" --window-size=1400,9000 --screenshot="$out/report-open.png" \
  "file://$out/report-open.html" >/dev/null 2>&1
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
# Inside each family's section: its per-env table, then its pass@k and
# difficulty entries; math and logic (several samples, three presets in the
# default suite) must have real plots there.
python3 - "$dom" <<'EOF' || fail=1
import sys
from html.parser import HTMLParser

class Sections(HTMLParser):
    def __init__(self):
        super().__init__()
        self.family, self.depth, self.found = None, 0, {}
    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "details":
            if self.family:
                self.depth += 1
            elif a.get("class") == "family":
                self.family = a["id"].removeprefix("details-")
                self.found[self.family] = []
        elif self.family and tag in ("table", "figure", "p", "svg"):
            self.found[self.family].append((tag, a.get("class", ""), a.get("id", "")))
    def handle_endtag(self, tag):
        if tag == "details" and self.family:
            if self.depth:
                self.depth -= 1
            else:
                self.family = None

p = Sections()
p.feed(open(sys.argv[1]).read())
bad = []
for family, items in p.found.items():
    if not items or items[0][:2] != ("table", "envs"):
        bad.append(f"{family}: the section does not open with its per-env table")
    for kind in ("pass-at-k", "difficulty"):
        ids = [i for i in items if i[2] == f"{kind}-{family}"]
        if len(ids) != 1:
            bad.append(f"{family}: {len(ids)} {kind} entries in its section")
for family in ("math", "logic"):
    items = p.found.get(family, [])
    for kind in ("pass-at-k", "difficulty"):
        at = [n for n, i in enumerate(items) if i[:2] == ("figure", kind)]
        if not at or at[0] + 1 >= len(items) or items[at[0] + 1][0] != "svg":
            bad.append(f"{family}: no {kind} plot in its section")
for line in bad:
    print("FAIL:", line)
print(f"{len(p.found)} family sections, each with a per-env table, pass@k and difficulty entries"
      if not bad else "", end="")
sys.exit(1 if bad else 0)
EOF
echo
# One self-contained file: nothing loaded from elsewhere.
if grep -o -E '(src|href)="[^"#][^"]*"|<link |<script [^>]*src' "$out/run/report.html"; then
  echo "FAIL: the report loads something from outside the file"; fail=1
fi
lines=$(wc -l <"$out/terminal.txt")
[ "$lines" -le 60 ] || { echo "FAIL: the terminal summary takes $lines lines"; fail=1; }
[ -s "$out/report.png" ] && [ -s "$out/report-open.png" ] || { echo "FAIL: no screenshot"; fail=1; }
[ "$fail" = 0 ] && echo "report renders: $rows agents, $plots family plots, $sections family sections," \
  "terminal $lines lines; screenshots $out/report.png, $out/report-open.png"
exit "$fail"
