#!/usr/bin/env bash
# run_workload as a user runs it: the same run twice gives the same report (but for wall and
# compile time), PASS exits 0, bad usage exits non-zero with a message, --help and --list work.
# (run_workload_files_test.py covers the files and the bad-input cases.)
set -u
tool="$1"
fail() { echo "FAIL: $*"; exit 1; }

first=$("$tool" conv3x3 --set mac.rows=16) || fail "conv3x3 exited $?"
second=$("$tool" conv3x3 --set mac.rows=16) || fail "second conv3x3 exited $?"
strip() { grep -v "simulated in"; }
[ "$(echo "$first" | strip)" = "$(echo "$second" | strip)" ] || fail "two runs differ"
echo "$first" | grep -q "PASS" || fail "no PASS in: $first"
echo "$first" | grep -q "MAC utilisation" || fail "no utilisation line"

expect_error() {  # expect_error "needle" args...
  local needle="$1"; shift
  out=$("$tool" "$@" 2>&1) && fail "'$*' exited 0"
  echo "$out" | grep -q "$needle" || fail "'$*' said: $out (expected '$needle')"
}
expect_error "unrecognised option" conv3x3 --frobnicate
expect_error "no MODEL" 
"$tool" --help | grep -q -- "--set" || fail "--help does not explain --set"
"$tool" --list | grep -q "conv3x3" || fail "--list does not list conv3x3"
"$tool" --version | grep -Eq '^run_workload [0-9]+\.[0-9]+\.[0-9]+ \(commit ([0-9a-f]{12}|unknown)(\+dirty)?, [A-Za-z]+\)$' \
  || fail "--version said: $("$tool" --version)"
"$tool" --help | grep -q -- "--version" || fail "--help does not list --version"
echo "ok"
