#!/usr/bin/env bash
# The design-space sweep: one CSV row per point with its measured cycles, a refused config is a
# row with its error (and a non-zero exit), and the chart is an SVG.
set -u
tool="$1"; sweep="$2"; dir=$(mktemp -d); trap 'rm -rf "$dir"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

"$sweep" conv3x3 --tool "$tool" --db "$dir/store.sqlite" --grid mac.rows=8,16 --set mac.cols=16 --timing-only \
  --csv "$dir/s.csv" --plot "$dir/s.svg" 2>/dev/null || fail "sweep exited $?"
[ "$(wc -l < "$dir/s.csv")" -eq 3 ] || fail "expected a header and 2 rows: $(cat "$dir/s.csv")"
grep -q "^8,skipped,[0-9]" "$dir/s.csv" || fail "no measured row for mac.rows=8: $(cat "$dir/s.csv")"
grep -q "<polyline" "$dir/s.svg" || fail "no line in the chart"

"$sweep" conv3x3 --tool "$tool" --db "$dir/store.sqlite" --grid mac.rows=16,0 --timing-only --csv "$dir/bad.csv" \
  2>/dev/null && fail "a sweep with an invalid point exited 0"
grep -q "^0,error,.*mac.rows = 0" "$dir/bad.csv" || fail "invalid point not reported: $(cat "$dir/bad.csv")"
echo ok
