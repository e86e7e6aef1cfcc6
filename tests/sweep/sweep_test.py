#!/usr/bin/python3
"""tools/sweep as architects run it: a spec with linked axes, two models and a constraint; every
finished point stored at once; a rerun skips what finished; precision as an axis; kill -9 of the sweep loses only the
points in flight and leaves no run_workload behind; Ctrl-C stops cleanly; bad specs are clear
errors with exit status 2; Pareto fronts.

Usage: sweep_test.py RUN_WORKLOAD SOURCE_DIR
"""
import csv
import os
import random
import signal
import sqlite3
import subprocess
import sys
import tempfile
import time
import unittest

TOOL, SOURCE = sys.argv[1], sys.argv[2]
SWEEP = os.path.join(SOURCE, "tools", "sweep", "sweep.py")
sys.path.insert(0, os.path.dirname(SWEEP))
sys.path.insert(0, os.path.join(SOURCE, "tools", "perf"))

import pareto  # noqa: E402


def children_with(marker):
    """Live processes whose command line holds `marker`."""
    found = []
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as f:
                if marker.encode() in f.read() and int(pid) != os.getpid():
                    found.append(int(pid))
        except OSError:
            pass
    return found


def children_left(marker, seconds=10):
    """children_with(marker) once none is left, or after `seconds`: a point process dies by the
    kernel's SIGKILL when its batch dies (PR_SET_PDEATHSIG), which on a busy machine may land a
    moment after the sweep has exited (seen once in CI as a failure of the Ctrl-C test)."""
    deadline = time.monotonic() + seconds
    while children_with(marker) and time.monotonic() < deadline:
        time.sleep(0.05)
    return children_with(marker)


class Sweep(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.dir = self.tmp.name
        self.db = os.path.join(self.dir, "store.sqlite")
        self.csv = os.path.join(self.dir, "out.csv")

    def tearDown(self):
        self.tmp.cleanup()

    def spec(self, text):
        path = os.path.join(self.dir, "spec.textproto")
        with open(path, "w") as f:
            f.write(text)
        return path

    def sweep(self, *args, expect=0):
        p = subprocess.run([SWEEP, *args, "--tool", TOOL, "--db", self.db], capture_output=True,
                           text=True)
        self.assertEqual(p.returncode, expect, p.stdout + p.stderr)
        return p

    def csv_rows(self):
        with open(self.csv) as f:
            return list(csv.DictReader(f))

    def stored(self):
        """Points in the store; 0 while the sweep has made the file but not yet its tables (the
        kill -9 and Ctrl-C tests poll it from the start)."""
        with sqlite3.connect(self.db) as db:
            try:
                return db.execute("SELECT COUNT(*) FROM sweep_points").fetchone()[0]
            except sqlite3.OperationalError:
                return 0

    def test_spec_with_linked_axes_models_and_a_constraint(self):
        spec = self.spec("""
            name: "square arrays"
            models { name: "conv3x3" } models { name: "fc" weight: 2 }
            linked { axes { field: "mac.rows" values: ["8", "16"] }
                     axes { field: "mac.cols" values: ["8", "16"] } }
            axes { field: "sram.banks" values: ["8", "16"] }
            constraints { metric: "cycles" op: "<=" value: 100000 }
            timing_only: true""")
        out = self.sweep("--spec", spec, "--csv", self.csv, "--jobs", "2")
        rows = self.csv_rows()
        self.assertEqual(len(rows), 8, rows)
        self.assertEqual({(r["mac.rows"], r["mac.cols"]) for r in rows}, {("8", "8"), ("16", "16")})
        self.assertEqual({r["model"] for r in rows}, {"conv3x3", "fc"})
        for r in rows:
            over = int(r["cycles"]) > 100000
            self.assertEqual(bool(r["excluded"]), over, r)
        self.assertIn("8 points; 0 finished before", out.stderr)
        again = self.sweep("--spec", spec, "--csv", self.csv)
        self.assertIn("8 finished before by this build (skipped); running 0", again.stderr)
        self.assertEqual(len(self.csv_rows()), 8)
        self.assertEqual(self.stored(), 8)

    def test_precision_is_an_axis_one_model_per_value(self):
        plot = os.path.join(self.dir, "p.svg")
        self.sweep("mlp", "--grid", "precision=int8,w4a8", "--grid", "mac.rows=8,16",
                   "--timing-only", "--csv", self.csv, "--plot", plot)
        rows = self.csv_rows()
        self.assertEqual(len(rows), 4, rows)
        self.assertEqual({r["model"] for r in rows}, {"mlp int8", "mlp w4a8"})
        by = {(r["model"], r["mac.rows"]): r for r in rows}
        for n in ("8", "16"):  # int4 weights: half the weight bytes from DRAM
            self.assertLess(int(by[("mlp w4a8", n)]["dram_read_bytes"]),
                            int(by[("mlp int8", n)]["dram_read_bytes"]) * 0.7)
        with open(plot) as f:
            self.assertIn("mlp w4a8", f.read())
        # Precision alone is a sweep too: the models against each other.
        self.sweep("mlp", "--grid", "precision=int8,w4a8,fp16", "--timing-only", "--csv", self.csv,
                   "--plot", plot)
        self.assertEqual([r["model"] for r in self.csv_rows()], ["mlp int8", "mlp w4a8", "mlp fp16"])
        for text, message in (
                ('models { name: "mlp" } axes { field: "precision" values: ["int8", "fp8"] }',
                 "unknown precision 'fp8'"),
                ('models { name: "mlp" precision: "w4a8" } '
                 'axes { field: "precision" values: ["int8"] }', "sets a precision and"),
                ('models { name: "mlp" precision: "w4a8" accuracy_budget_db: 2 } '
                 'axes { field: "mac.rows" values: ["8"] }', "accuracy_budget_db needs"),
                ('models { name: "mlp" precision: "int8" accuracy_target_db: 40 } '
                 'axes { field: "mac.rows" values: ["8"] }', "accuracy_target_db needs")):
            err = self.sweep("--spec", self.spec(text), expect=2).stderr
            self.assertIn(message, err, text)
        # A built-in single layer has no precision to choose: every point says so.
        self.sweep("fc", "--grid", "precision=w4a8", "--timing-only", "--csv", self.csv,
                   expect=1)
        self.assertIn("--precision does not apply", self.csv_rows()[0]["error"])

    def test_kill_9_loses_only_points_in_flight_and_leaves_no_child(self):
        marker = f"clock_mhz={random.randint(500, 999)}"
        # Full runs (data computed), not timing-only: a prepared batch finishes timing-only points
        # in ~0.15 s each, fast enough for all four to end before a busy machine delivers the kill.
        cmd = [SWEEP, "resnet18", "--grid", "mac.rows=8,16,32,64", "--set", marker,
               "--jobs", "1", "--csv", self.csv, "--tool", TOOL, "--db", self.db]
        driver = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline and (not os.path.exists(self.db) or self.stored() == 0):
            time.sleep(0.1)
        self.assertGreater(self.stored(), 0, "no point finished in time")
        driver.kill()
        driver.wait()
        self.assertEqual(children_left(marker), [], "run_workload outlived the sweep")
        before = self.stored()
        self.assertLess(before, 4)
        p = subprocess.run(cmd, capture_output=True, text=True)
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertIn(f"{before} finished before by this build", p.stderr)
        rows = self.csv_rows()
        self.assertEqual(sorted(r["mac.rows"] for r in rows), ["16", "32", "64", "8"])

    def test_ctrl_c_stops_cleanly_keeping_what_finished(self):
        marker = f"clock_mhz={random.randint(500, 999)}"
        # Full runs, as above: timing-only points could all finish before a busy machine
        # delivers the signal (seen as a flaky failure: exit 0 instead of 130).
        cmd = [SWEEP, "resnet18", "--grid", "mac.rows=8,16,32,64", "--set", marker,
               "--jobs", "1", "--csv", self.csv, "--tool", TOOL, "--db", self.db]
        driver = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline and (not os.path.exists(self.db) or self.stored() == 0):
            time.sleep(0.1)
        driver.send_signal(signal.SIGINT)
        _, err = driver.communicate(timeout=60)
        self.assertEqual(driver.returncode, 130, err)
        self.assertIn("interrupted", err)
        self.assertNotIn("Traceback", err)
        self.assertEqual(children_left(marker), [], "run_workload outlived the sweep")
        self.assertEqual(len(self.csv_rows()), self.stored())

    def test_bad_specs_are_clear_errors(self):
        for text, message in (
                ('models { name: "fc" } axes { field: "mac.rowz" values: ["8"] }',
                 "unknown config field 'mac.rowz'"),
                ('models { name: "fc" } axes { field: "mac.rows" }', "has no values"),
                ('models { name: "fc" }', "no axes"),
                ('axes { field: "mac.rows" values: ["8"] }', "no models"),
                ('models { name: "fc" } linked { axes { field: "mac.rows" values: ["8", "16"] } '
                 'axes { field: "mac.cols" values: ["8"] } }', "different numbers of values"),
                ('models { name: "fc" } axes { field: "mac.rows" values: ["8"] } '
                 'constraints { metric: "speed" op: "<" value: 1 }', "unknown metric 'speed'"),
                ('models { name: "fc" } axes { field: "mac.rows" values: ["8"] } '
                 'constraints { metric: "cycles" op: "<" value: 1 } timing_only: true',
                 "no point meets the constraints"),
                ('modelz { name: "fc" }', "modelz")):
            err = self.sweep("--spec", self.spec(text), expect=2).stderr
            self.assertIn(message, err, text)
            self.assertNotIn("Traceback", err)
        self.assertEqual(self.stored(), 1)  # the point of the unmet constraint is kept
        err = self.sweep("fc", "--grid", "mac.rows", expect=2).stderr
        self.assertIn("expected key=v1,v2", err)

    def test_pareto_charts_from_the_reports_energy_and_area(self):
        prefix = os.path.join(self.dir, "front")
        self.sweep("conv3x3", "--grid", "mac.rows=8,16", "--timing-only", "--csv", self.csv,
                   "--pareto", prefix)
        for r in self.csv_rows():
            self.assertGreater(float(r["energy_pj"]), 0, r)
            self.assertGreater(float(r["area_mm2"]), 0, r)
        for name in ("latency-vs-area", "energy-vs-area", "latency-vs-energy"):
            with open(f"{prefix}-{name}.svg") as f:
                self.assertIn("<svg", f.read())

    def test_pareto_front_and_charts(self):
        pts = [(1, 5, "a"), (2, 3, "b"), (3, 4, "c"), (4, 1, "d"), (2, 6, "e")]
        self.assertEqual([p[2] for p in pareto.front(pts)], ["a", "b", "d"])
        rows = [{"area_mm2": x, "latency_us": y, "energy_pj": x * y, "name": n}
                for x, y, n in pts]
        written = pareto.charts(rows, lambda r: r["name"], os.path.join(self.dir, "p"), "t")
        self.assertEqual(len(written), 3)
        for path in written:
            with open(path) as f:
                self.assertIn("<svg", f.read())


if __name__ == "__main__":
    unittest.main(argv=sys.argv[:1], verbosity=2)
