#!/usr/bin/python3
"""run_workload --points: one model prepared once, run on many configs. Each point's report is the
one a single run with the same --set writes (same cycles, same check); a point that cannot run
leaves NAME.error and the others go on; a bad points file or option is refused (exit 2) before
anything is written; the points run in child processes that die with the batch.

Usage: run_workload_batch_test.py RUN_WORKLOAD
"""
import json
import os
import subprocess
import sys
import tempfile
import time
import unittest

TOOL = sys.argv[1]


def run(*args):
    return subprocess.run([TOOL, *args], capture_output=True, text=True)


class Batch(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.dir = self.tmp.name
        self.reports = os.path.join(self.dir, "reports")

    def tearDown(self):
        self.tmp.cleanup()

    def points(self, text):
        path = os.path.join(self.dir, "points.txt")
        with open(path, "w") as f:
            f.write(text)
        return path

    def report(self, name):
        with open(os.path.join(self.reports, name + ".json")) as f:
            return json.load(f)

    def single_run_cycles(self, model, *sets, options=()):
        out = os.path.join(self.dir, "single.json")
        args = [model, "--quiet", "--json", out, *options]
        for s in sets:
            args += ["--set", s]
        p = run(*args)
        self.assertEqual(p.returncode, 0, p.stderr)
        with open(out) as f:
            return json.load(f)["totals"]["cycles"]

    def test_points_match_single_runs_and_bad_points_go_on(self):
        points = self.points("# name overrides\n"
                             "r8 mac.rows=8\n\n"
                             "r16 mac.rows=16 mac.cols=16\n"
                             "tiny dram.size_bytes=1048576\n"
                             "nosram sram.size_bytes=1024\n")
        model = ["--batch", "8", "--image-size", "64"]
        p = run("small_cnn", *model, "--quiet", "--points", points, "--report-dir", self.reports,
                "--jobs", "2", "--set", "clock_mhz=800")
        self.assertEqual(p.returncode, 1, p.stderr)  # the tiny DRAM cannot hold the model
        lines = sorted(line.split()[:2] for line in p.stdout.splitlines())
        self.assertEqual(lines, [["nosram", "2"], ["r16", "0"], ["r8", "0"], ["tiny", "2"]],
                         p.stdout)
        for name, sets in (("r8", ["mac.rows=8"]), ("r16", ["mac.rows=16", "mac.cols=16"])):
            r = self.report(name)
            self.assertEqual(r["check"]["status"], "pass")
            self.assertIn("accuracy", r)
            self.assertEqual(r["totals"]["cycles"],
                             self.single_run_cycles("small_cnn", "clock_mhz=800", *sets, options=model))
            self.assertIn(f"# point {name}", r["provenance"]["command_line"])
        self.assertNotEqual(self.report("r8")["totals"]["cycles"],
                            self.report("r16")["totals"]["cycles"])
        self.assertFalse(os.path.exists(os.path.join(self.reports, "tiny.json")))
        with open(os.path.join(self.reports, "tiny.error")) as f:
            self.assertIn("the config's DRAM", f.read())
        # A config the rules refuse is that point's error (no process run), not the batch's.
        with open(os.path.join(self.reports, "nosram.error")) as f:
            self.assertIn("points.txt:6: point 'nosram': sram.size_bytes = 1024", f.read())

    def test_single_layer_workload_and_timing_only(self):
        points = self.points("a mac.rows=8\nb mac.rows=32\n")
        p = run("conv3x3", "--quiet", "--timing-only", "--points", points, "--report-dir",
                self.reports)
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertEqual(self.report("b")["totals"]["cycles"],
                         self.single_run_cycles("conv3x3", "mac.rows=32"))

    def assert_refused(self, args, message):
        p = run(*args)
        self.assertEqual(p.returncode, 2, p.stdout + p.stderr)
        self.assertIn(message, p.stderr)
        self.assertEqual(p.stdout, "")
        self.assertFalse(os.path.exists(self.reports), "a refused batch wrote its report dir")

    def test_bad_points_files_and_options_are_refused_before_anything_runs(self):
        cases = [
            ("a mac.rows=8\nb mac.rowz=8\n", "points.txt:2: point 'b'"),
            ("a mac.rows=8\na mac.rows=16\n", "points.txt:2: point 'a' named twice"),
            ("../up mac.rows=8\n", "points.txt:1: point name '../up'"),
            ("a mac.rows\n", "'mac.rows' is not KEY=VALUE"),
            ("# only a comment\n\n", "no points"),
            ("a mac.rows=99999999999999999999999\n", "points.txt:1"),
            ("a mac.dataflow=DIAGONAL\n", "points.txt:1: point 'a'"),
        ]
        for text, message in cases:
            with self.subTest(text=text):
                self.assert_refused(["conv3x3", "--points", self.points(text), "--report-dir",
                                     self.reports], message)
        good = self.points("a mac.rows=8\n")
        self.assert_refused(["conv3x3", "--points", good], "go together")
        self.assert_refused(["conv3x3", "--points", good, "--report-dir", self.reports,
                             "--json", "x.json"], "--json is for a single run")
        for jobs in ("0", "-1", "two", "99999999999"):
            self.assert_refused(["conv3x3", "--points", good, "--report-dir", self.reports,
                                 "--jobs", jobs], "--jobs")
        self.assert_refused(["conv3x3", "--points", self.dir, "--report-dir", self.reports],
                            "directory")
        self.assert_refused(["nosuchmodel", "--points", good, "--report-dir", self.reports],
                            "no model 'nosuchmodel'")
        self.assert_refused(["conv3x3", "--points", good, "--report-dir", self.reports,
                             "--config", os.path.join(self.dir, "missing.textproto")],
                            "missing.textproto")
        self.assert_refused(["conv3x3", "--points", good, "--report-dir", self.reports,
                             "--set", "mac.rowz=3"], "mac.rowz")

    def test_points_die_with_the_batch(self):
        marker = "clock_mhz=777"
        points = self.points("".join(f"p{i} mac.rows={8 << (i % 3)}\n" for i in range(40)))
        batch = subprocess.Popen([TOOL, "resnet18", "--quiet", "--timing-only", "--points", points,
                                  "--report-dir", self.reports, "--set", marker],
                                 stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        batch.stdout.readline()  # one point finished: the next is running
        batch.kill()
        batch.wait()
        batch.stdout.close()
        time.sleep(0.5)
        left = []
        for pid in filter(str.isdigit, os.listdir("/proc")):
            try:
                with open(f"/proc/{pid}/cmdline", "rb") as f:
                    if marker.encode() in f.read():
                        left.append(pid)
            except OSError:
                pass
        self.assertEqual(left, [], "a point outlived its batch")


if __name__ == "__main__":
    unittest.main(argv=sys.argv[:1], verbosity=2)
