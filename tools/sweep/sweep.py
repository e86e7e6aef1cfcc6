#!/usr/bin/env python3
"""Design-space sweep: run one model over the cross product of config values and tabulate what
each design point measured (cycles, utilisation, DRAM traffic, roofline ratio, bit-exact check).

  tools/npu sweep conv3x3 --grid mac.rows=16,32,64 --grid sram.size_bytes=262144,1048576
  tools/npu sweep resnet18 --grid mac.dataflow=WEIGHT_STATIONARY,OUTPUT_STATIONARY \
      --set dram.bytes_per_cycle=16 --timing-only --csv sweep.csv --jobs 2

Each design point is its own run_workload process (SystemC elaborates once per process) writing
a JSON report; points run in parallel with --jobs. The CSV has one row per point: the swept
fields, then the measured totals. A point that fails (e.g. a config the compiler refuses) gets a
row with its error and does not stop the sweep; the exit status is non-zero if any point failed
or did not match the integer reference.
"""
import argparse
import concurrent.futures
import csv
import itertools
import json
import os
import subprocess
import sys
import tempfile

import svg_plot

COLUMNS = ["cycles", "predicted_cycles", "latency_us", "inferences_per_second", "mac_utilisation",
           "dram_read_bytes", "dram_write_bytes", "achieved_gbps", "roofline_cycles",
           "roofline_ratio", "peak_sram_bytes"]


def parse_grid(items):
    axes = []
    for item in items:
        key, sep, values = item.partition("=")
        if not sep or not key or not values:
            sys.exit(f"sweep: --grid '{item}': expected key=v1,v2,... e.g. mac.rows=16,32")
        axes.append((key, values.split(",")))
    return axes


def run_point(tool, model, point, fixed, timing_only, workdir, index):
    report = os.path.join(workdir, f"point{index}.json")
    args = [tool, model, "--quiet", "--json", report]
    for key, value in list(point) + fixed:
        args += ["--set", f"{key}={value}"]
    if timing_only:
        args.append("--timing-only")
    p = subprocess.run(args, capture_output=True, text=True)
    if p.returncode not in (0, 1) or not os.path.exists(report):
        return {"status": "error", "error": (p.stderr.strip() or f"exit {p.returncode}")}
    r = json.load(open(report))
    row = {k: r["totals"][k] for k in COLUMNS}
    row["status"] = r["check"]["status"]
    row["simulate_seconds"] = r["simulation"]["wall_seconds"]
    return row


def write_plot(path, model, axes, rows):
    x_key, x_values = axes[0]
    others = [k for k, _ in axes[1:]]
    series = {}
    for r in rows:
        name = ", ".join(f"{k}={r[k]}" for k in others) or model
        series.setdefault(name, {})[r[x_key]] = r.get("cycles")
    lines = [(name, [by_x.get(x) for x in x_values]) for name, by_x in series.items()]
    svg = svg_plot.line_chart(f"{model}: cycles per inference", x_key, x_values, lines, "cycles")
    with open(path, "w") as f:
        f.write(svg)


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("model", help="a model run_workload knows (run_workload --list)")
    parser.add_argument("--grid", action="append", default=[], metavar="KEY=V1,V2,...",
                        help="a config field and the values to sweep (repeatable: cross product)")
    parser.add_argument("--set", action="append", default=[], metavar="KEY=VALUE",
                        help="a config override for every point")
    parser.add_argument("--timing-only", action="store_true", help="skip data (cycles identical)")
    parser.add_argument("--csv", help="write the table here (default: stdout)")
    parser.add_argument("--plot", metavar="FILE.svg",
                        help="draw cycles against the first --grid field, one line per value of "
                             "the others, as an SVG")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--tool", default=os.path.join(here, "..", "..", "build", "tools",
                                                       "run_workload"))
    a = parser.parse_args()
    axes = parse_grid(a.grid)
    fixed = [tuple(s.split("=", 1)) for s in a.set]
    keys = [k for k, _ in axes]
    points = [list(zip(keys, values)) for values in itertools.product(*[v for _, v in axes])]
    with tempfile.TemporaryDirectory() as workdir, \
            concurrent.futures.ThreadPoolExecutor(max_workers=max(1, a.jobs)) as pool:
        futures = [pool.submit(run_point, a.tool, a.model, p, fixed, a.timing_only, workdir, i)
                   for i, p in enumerate(points)]
        rows = []
        for i, (point, future) in enumerate(zip(points, futures)):
            row = dict(point)
            row.update(future.result())
            rows.append(row)
            print(f"sweep: {i + 1}/{len(points)} {dict(point)}: {row['status']}", file=sys.stderr)
    fields = keys + ["status"] + COLUMNS + ["simulate_seconds", "error"]
    out = open(a.csv, "w", newline="") if a.csv else sys.stdout
    writer = csv.DictWriter(out, fieldnames=fields, restval="")
    writer.writeheader()
    writer.writerows(rows)
    if a.plot:
        write_plot(a.plot, a.model, axes, rows)
    failed = [r for r in rows if r["status"] not in ("pass", "skipped")]
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
