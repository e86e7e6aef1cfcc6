#!/usr/bin/env python3
"""How fast run_workload is, end to end, as a user runs it: the wall time of the whole command
(compile, simulate, verify), of a timing-only run, the simulated cycles per wall second, the
split between compiling and simulating, and the peak memory. Each figure is the median of
--repeat runs pinned to one core (taskset -c 0). Not a ctest: timings go in docs, not in tests.

  tests/bench/run_workload_bench.py build/tools/run_workload resnet18 --repeat 5
"""
import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time


def one_run(tool, model, extra, pin):
    with tempfile.NamedTemporaryFile(suffix=".json") as report:
        cmd = (["taskset", "-c", "0"] if pin else []) + [tool, model, "--quiet", "--json",
                                                          report.name] + extra
        before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
        start = time.perf_counter()
        p = subprocess.run(cmd, capture_output=True, text=True)
        wall = time.perf_counter() - start
        peak_kib = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
        if p.returncode != 0:
            sys.exit(f"{' '.join(cmd)} failed:\n{p.stderr}")
        r = json.load(open(report.name))
    return {"wall": wall, "peak_mib": max(peak_kib, before) / 1024,
            "compile": r["compile"]["seconds"], "simulate": r["simulation"]["wall_seconds"],
            "cycles": r["totals"]["cycles"], "check": r["check"]["status"]}


def summarise(name, runs):
    med = lambda k: statistics.median(r[k] for r in runs)
    cycles = runs[0]["cycles"]
    assert all(r["cycles"] == cycles for r in runs), "cycles differ between runs"
    print(f"{name:12} wall {med('wall'):6.2f} s  (compile+quantise {med('compile'):.2f} s, "
          f"simulate {med('simulate'):.2f} s = {cycles / med('simulate') / 1e6:.1f} M cycles/s)  "
          f"peak {max(r['peak_mib'] for r in runs):.0f} MiB  cycles {cycles:,}  "
          f"check {runs[0]['check']}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("tool")
    parser.add_argument("model", nargs="?", default="resnet18")
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--no-pin", action="store_true", help="do not pin to core 0")
    a = parser.parse_args()
    pin = not a.no_pin and os.path.exists("/usr/bin/taskset")
    print(f"{a.model}, median of {a.repeat} runs{' on core 0' if pin else ''}:")
    cycles = set()
    for name, extra in [("full", []), ("timing-only", ["--timing-only"])]:
        runs = [one_run(a.tool, a.model, extra, pin) for _ in range(a.repeat)]
        summarise(name, runs)
        cycles.add(runs[0]["cycles"])
    assert len(cycles) == 1, f"timing-only cycles differ from the full run's: {cycles}"


if __name__ == "__main__":
    main()
