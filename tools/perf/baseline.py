"""The committed baseline: exact cycles and DRAM bytes of a small suite (tests/perf/baseline.json).

`check` reruns the suite and fails on any difference, so a commit that changes cycles must update
the baseline in the same commit (`update` rewrites it and prints the diff for the message).
"""
import json
import os

import runner
from errors import PerfError
from suite import Point

SCHEMA = "npu-perf-baseline"
MODELS = ["resnet18", "mobilenet_v2", "small_cnn"]
CONFIGS = ["default", "tiny", "server"]


def path(root):
    return os.path.join(root, "tests", "perf", "baseline.json")


def points():
    # Timing-only runs have the same cycles and bytes as full ones (docs/report.md), in less time.
    return [Point(m, c, "", [], timing_only=True) for m in MODELS for c in CONFIGS]


def measure(tool, jobs):
    figures = {}
    for r in runner.run_all(tool, points(), jobs, progress=False):
        if r.error:
            raise PerfError(f"{r.point.label()}: {r.error}")
        t = r.report["totals"]
        figures[" ".join(r.point.key()).strip()] = {
            "cycles": t["cycles"], "dram_bytes": t["dram_read_bytes"] + t["dram_write_bytes"]}
    return figures


def load(file):
    try:
        with open(file, encoding="utf-8") as f:
            data = json.load(f)
    except FileNotFoundError:
        return {}
    except (OSError, json.JSONDecodeError) as e:
        raise PerfError(f"{file}: {e}") from e
    if data.get("schema") != SCHEMA or not isinstance(data.get("runs"), dict):
        raise PerfError(f"{file}: not a perf baseline (schema '{SCHEMA}')")
    return data["runs"]


def write(file, figures):
    data = {"schema": SCHEMA,
            "about": "Exact cycles and DRAM bytes (timing-only runs); tools/npu perf baseline "
                     "--update rewrites this file. docs/perf.md.",
            "runs": figures}
    tmp = file + ".tmp"
    with open(tmp, "w", encoding="utf-8") as f:
        f.write(runner.dumps(data))
    os.replace(tmp, file)


def diff(old, new):
    """Lines naming every point whose figures changed, appeared or went."""
    lines = []
    for key in sorted(set(old) | set(new)):
        a, b = old.get(key), new.get(key)
        if a == b:
            continue
        if a is None or b is None:
            lines.append(f"  {key}: {'added' if a is None else 'removed'}")
            continue
        for field in ("cycles", "dram_bytes"):
            if a.get(field) != b.get(field):
                pct = 100.0 * (b[field] - a[field]) / a[field] if a.get(field) else float("inf")
                lines.append(f"  {key}: {field} {a.get(field):,} -> {b[field]:,} ({pct:+.2f}%)")
    return lines
