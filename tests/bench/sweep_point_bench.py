#!/usr/bin/env python3
"""What one point of a hardware sweep costs (issue 13's target: at most 0.2 CPU-seconds per
resnet18 timing-only point, a 1,000-point sweep in under 5 minutes on 2 cores). Runs
`run_workload MODEL --timing-only --points FILE` (the model prepared once, each point compiled and
simulated in a forked child) with 1 point and with N points, and reports per point the CPU time
(user + system of the batch and its children: (N-point run - 1-point run) / (N - 1)) and the wall
time at --jobs J. Each figure is the median of --repeat runs. Not a ctest: timings go in docs.

  tests/bench/sweep_point_bench.py build/tools/run_workload resnet18 --points 100 --jobs 2
"""
import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time

# Array shapes, SRAM sizes and banks crossed, as an architect's sweep would (every point runs).
ROWS = [8, 16, 32, 64]
SRAM = [262144, 524288, 1048576, 2097152]
BANKS = [4, 8, 16, 32]


def points_file(path, n):
    with open(path, "w") as f:
        for i in range(n):
            r, s, b = ROWS[i % 4], SRAM[(i // 4) % 4], BANKS[(i // 16) % 4]
            f.write(f"p{i} mac.rows={r} mac.cols={r} sram.size_bytes={s} sram.banks={b} "
                    f"clock_mhz={500 + i // 64}\n")


def one_batch(tool, model, n, jobs):
    """(CPU seconds, wall seconds, failed points) of one batch of n points."""
    with tempfile.TemporaryDirectory() as scratch:
        points = os.path.join(scratch, "points.txt")
        points_file(points, n)
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        p = subprocess.run([tool, model, "--quiet", "--timing-only", "--points", points,
                            "--report-dir", os.path.join(scratch, "reports"), "--jobs",
                            str(jobs)], capture_output=True, text=True)
        wall = time.perf_counter() - start
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        if p.returncode not in (0, 1):
            sys.exit(f"run_workload failed:\n{p.stderr}")
        failed = sum(1 for line in p.stdout.splitlines() if line.split()[1] != "0")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return cpu, wall, failed


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("tool")
    ap.add_argument("model")
    ap.add_argument("--points", type=int, default=100)
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--repeat", type=int, default=3)
    a = ap.parse_args()
    one = [one_batch(a.tool, a.model, 1, 1) for _ in range(a.repeat)]
    many = [one_batch(a.tool, a.model, a.points, a.jobs) for _ in range(a.repeat)]
    prepare_cpu = statistics.median(c for c, _, _ in one)
    cpu = statistics.median(c for c, _, _ in many)
    wall = statistics.median(w for _, w, _ in many)
    per_point = (cpu - prepare_cpu) / (a.points - 1)
    print(f"{a.model}, timing-only, {a.points} points, --jobs {a.jobs}, median of {a.repeat}:")
    print(f"  one-point batch (preparation + 1 point): {prepare_cpu:.2f} CPU-s")
    print(f"  {a.points}-point batch: {cpu:.2f} CPU-s, {wall:.2f} s wall "
          f"({many[0][2]} points could not run)")
    print(f"  per point: {per_point:.3f} CPU-s; {wall / a.points:.3f} s wall at --jobs {a.jobs}")
    print(f"  1,000 points at --jobs {a.jobs}: about "
          f"{(prepare_cpu + 1000 * per_point) / a.jobs / 60:.1f} min if CPU-bound")


if __name__ == "__main__":
    main()
