"""Runs a suite's points with run_workload, in parallel, each its own process."""
import concurrent.futures
import functools
import json
import os
import re
import subprocess
import sys
import tempfile
import time

import reports
from errors import PerfError


def builtin_names(tool):
    """The built-in model and config names `run_workload --list` prints."""
    try:
        listing = subprocess.run([tool, "--list"], capture_output=True, text=True, check=True).stdout
    except (OSError, subprocess.CalledProcessError) as e:
        raise PerfError(f"{tool} --list: {e}") from e
    sections = listing.split("\n\n")
    names = [set(re.findall(r"^  (\S+)", s, re.M)) for s in sections[:2]]
    if len(names) < 2 or not all(names):
        raise PerfError(f"{tool} --list: unexpected output")
    return names[0], names[1]


class Result:
    """One point's outcome: a report (run row and layers), or an error message."""

    def __init__(self, point, report=None, error=None, wall_seconds=0.0):
        self.point, self.report, self.error = point, report, error
        self.wall_seconds = wall_seconds


def tool_help(tool):
    """`tool --help`: older builds (backfill) lack some options, e.g. --quiet. Backfill rebuilds
    the same path, so the answer is remembered per build of it (its modification time)."""
    return _help(tool, os.stat(tool).st_mtime_ns)


@functools.lru_cache(maxsize=None)
def _help(tool, mtime_ns):
    result = subprocess.run([tool, "--help"], capture_output=True, text=True)
    return result.stdout + result.stderr


def run_point(tool, point):
    with tempfile.TemporaryDirectory(prefix="npu-perf-") as scratch:
        out = os.path.join(scratch, "report.json")
        # The default config needs no --config: tools older than named configs (backfill) run it.
        config = [] if point.config == "default" else ["--config", point.config]
        cmd = [tool, point.model, *config, *point.args, "--json", out]
        if "--quiet" in tool_help(tool):
            cmd.append("--quiet")
        if point.timing_only:
            cmd.append("--timing-only")
        # The heuristics' cycles, whatever tunings the user's cache holds (unless the suite's
        # point asks for a tuning itself).
        if "--no-tuning" in tool_help(tool) and not {"--tune", "--tuning-file"} & set(point.args):
            cmd.append("--no-tuning")
        start = time.monotonic()
        result = subprocess.run(cmd, capture_output=True, text=True, stdin=subprocess.DEVNULL)
        wall = time.monotonic() - start
        if result.returncode not in (0, 1) or not os.path.exists(out):
            lines = (result.stderr or result.stdout).strip().splitlines()
            why = lines[-1] if lines else f"exit status {result.returncode}"
            return Result(point, error=why, wall_seconds=wall)
        try:
            report = reports.load(out)
        except PerfError as e:
            return Result(point, error=str(e), wall_seconds=wall)
        return Result(point, report=report, wall_seconds=wall)


def run_all(tool, points, jobs, progress=True):
    """Every point's Result, in the points' order; progress on stderr as they finish."""
    results = [None] * len(points)
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
        futures = {pool.submit(run_point, tool, p): i for i, p in enumerate(points)}
        for done, future in enumerate(concurrent.futures.as_completed(futures), 1):
            i = futures[future]
            results[i] = r = future.result()
            if progress:
                what = (f"error: {r.error}" if r.error else
                        f"{r.report['totals']['cycles']:,} cycles, {r.report['check']['status']}")
                print(f"  [{done}/{len(points)}] {r.point.label()}: {what} "
                      f"({r.wall_seconds:.1f} s)", file=sys.stderr, flush=True)
    return results


def to_rows(result, sha, dirty):
    """The store's run row and layer rows for a Result."""
    p = result.point
    model, config, variant = p.key()
    run = {"sha": sha, "dirty": int(dirty), "model": model, "config": config,
           "variant": variant, "wall_seconds": result.wall_seconds}
    if result.error:
        run.update({"status": "error", "error": result.error})
        return run, []
    run.update(reports.run_row(result.report))
    return run, reports.layer_rows(result.report)


def provenance_commit(results):
    """(sha, dirty) the reports say they were built from; PerfError if they disagree."""
    seen = {(r.report.get("provenance", {}).get("commit"),
             bool(r.report.get("provenance", {}).get("dirty"))) for r in results if r.report}
    if len(seen) > 1:
        raise PerfError(f"reports name different builds: {sorted(map(str, seen))}")
    return next(iter(seen), (None, False))


def dumps(obj):
    return json.dumps(obj, indent=2, sort_keys=True) + "\n"
