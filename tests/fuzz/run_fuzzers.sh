#!/usr/bin/env bash
# Fuzzes each target of a libFuzzer build (tools/npu fuzz makes one) for SECONDS: seeds its
# working corpus from targets.txt, runs it, and prints one line per target with executions,
# rate, coverage, corpus size and findings. Findings (crash-*, timeout-*, oom-* inputs) and each
# target's log stay under BUILD_DIR/fuzz/; exits 1 if any target found something.
#   tests/fuzz/run_fuzzers.sh BUILD_DIR [SECONDS] [TARGET...]
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
build="$1"
seconds="${2:-60}"
shift $(($# < 2 ? $# : 2))
only=("$@")
work="$build/fuzz"

# Seeds become the start of the working corpus; the corpus grows run after run.
seed_corpus() {
  local corpus="$1"
  shift
  mkdir -p "$corpus"
  for seed in "$@"; do
    if [ -d "$root/$seed" ]; then
      find "$root/$seed" -type f -exec cp -n {} "$corpus/" \;
    else
      cp -n "$root/$seed" "$corpus/"
    fi
  done
}

# libFuzzer options beyond the common ones. The platform target's child has a wall-clock limit
# of its own (kWallSeconds in platform_fuzzer.cc); libFuzzer's must be longer.
target_options() {
  case "$1" in
    fuzz_platform) echo "-timeout=120" ;;
    *) echo "-timeout=30" ;;
  esac
}

# "executions exec/s coverage corpus" from a libFuzzer log.
summarise_log() {
  local log="$1" execs rate cov corpus
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
  rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -1)
  cov=$(grep -o ' cov: [0-9]*' "$log" | tail -1 | tr -dc 0-9)
  corpus=$(grep -o ' corp: [0-9]*' "$log" | tail -1 | tr -dc 0-9)
  echo "${execs:-?} ${rate:-?} ${cov:-?} ${corpus:-?}"
}

printf '%-18s %12s %8s %8s %8s %9s\n' target executions exec/s cov corpus findings
failed=0
while read -r target seeds; do
  if [ ${#only[@]} -gt 0 ] && [[ ! " ${only[*]} " =~ " $target " ]]; then continue; fi
  corpus="$work/corpus/$target"
  findings="$work/findings/$target"
  log="$work/logs/$target.log"
  mkdir -p "$findings" "$(dirname "$log")"
  # shellcheck disable=SC2086  # seeds is a list of paths
  seed_corpus "$corpus" $seeds
  status=0
  # shellcheck disable=SC2046  # options are words
  "$build/tests/fuzz/$target" -max_total_time="$seconds" -print_final_stats=1 \
    -rss_limit_mb=4096 -artifact_prefix="$findings/" $(target_options "$target") \
    "$corpus" >"$log" 2>&1 || status=$?
  found=$(find "$findings" -type f | wc -l)
  read -r execs rate cov size <<<"$(summarise_log "$log")"
  printf '%-18s %12s %8s %8s %8s %9s\n' "$target" "$execs" "$rate" "$cov" "$size" "$found"
  if [ "$status" -ne 0 ] || [ "$found" -ne 0 ]; then
    failed=1
    echo "  $target: exit status $status; log $log; inputs in $findings" >&2
  fi
done < <(grep '^fuzz_' "$root/tests/fuzz/targets.txt")
exit "$failed"
