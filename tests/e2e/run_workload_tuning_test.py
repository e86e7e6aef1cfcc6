#!/usr/bin/python3
"""run_workload --tune (issue 15): the search runs within its budget, says what it did and stores
its tuning in the cache (NPU_CACHE_DIR/tuning) or --tuning-file; a later run of the same model
and config reuses it and runs the cycles it predicted; --no-tuning runs the heuristics' cycles.
A damaged or foreign tuning file is a notice, never trusted; a budget of zero or less, --no-tuning
with --tune, and a missing --tuning-file are errors with no report written.

Usage: run_workload_tuning_test.py RUN_WORKLOAD
"""
import glob
import json
import os
import subprocess
import sys
import tempfile
import unittest

TOOL = sys.argv[1]
MODEL = ["resnet18", "--image-size", "64", "--timing-only", "--quiet"]


class Tuning(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.cache = os.path.join(self.tmp.name, "cache")
        os.environ["NPU_CACHE_DIR"] = self.cache  # a cache of this test's own
        self.report = os.path.join(self.tmp.name, "report.json")

    def tearDown(self):
        self.tmp.cleanup()

    def run_tool(self, *args, code=0):
        if os.path.exists(self.report):
            os.remove(self.report)
        p = subprocess.run([TOOL, *MODEL, *args, "--json", self.report], capture_output=True,
                           text=True)
        self.assertEqual(p.returncode, code, p.stderr)
        if code != 0:
            self.assertFalse(os.path.exists(self.report))
            return p.stderr, None
        with open(self.report) as f:
            self.last = json.load(f)
            return p.stderr, self.last["totals"]["cycles"]

    def stored(self):
        files = glob.glob(os.path.join(self.cache, "tuning", "*.json"))
        self.assertEqual(len(files), 1, files)
        with open(files[0]) as f:
            return files[0], json.load(f)

    def test_tune_stores_and_later_runs_reuse(self):
        err, tuned = self.run_tool("--tune", "60")
        self.assertIn("tuning: ", err)
        self.assertIn("layers searched", err)
        path, tuning = self.stored()
        self.assertIn("stored in " + path, err)
        self.assertEqual(tuning["format"], "npu-tuning 3")
        self.assertEqual(tuning["strip_rows"], {})  # resnet18 has no row-strip pair
        self.assertEqual(tuning["tuned_cycles"], tuned)
        # Fewer cycles, or more for much less DRAM traffic (compile_model.h, Preferred).
        self.assertTrue(tuned <= tuning["baseline_cycles"]
                        or tuning["tuned_dram_bytes"] < tuning["baseline_dram_bytes"])
        self.assertGreater(tuning["candidates"], 0)
        said = self.last["tuning"]
        self.assertEqual((said["source"], said["file"]), ("searched", path))
        self.assertEqual(said["candidates"], tuning["candidates"])
        self.assertEqual(said["tuned_predicted_cycles"], tuned)
        self.assertEqual(said["tuned_predicted_dram_bytes"], tuning["tuned_dram_bytes"])
        self.assertEqual(said["tilings_changed"], len(tuning["tilings"]))
        self.assertEqual((said["row_strip_pairs"], said["row_strip_pairs_split"]), (0, 0))
        err, again = self.run_tool()
        self.assertIn("tuning: using " + path, err)
        self.assertEqual(again, tuned)
        self.assertEqual(self.last["tuning"]["source"], "stored")
        err, plain = self.run_tool("--no-tuning")
        self.assertNotIn("tuning", err)
        self.assertNotIn("tuning", self.last)
        self.assertEqual(plain, tuning["baseline_cycles"])

    def test_a_damaged_or_foreign_file_is_a_notice(self):
        _, tuned = self.run_tool("--tune", "60")
        path, tuning = self.stored()
        tuning["compiler"] = "another build"
        with open(path, "w") as f:
            json.dump(tuning, f)
        err, cycles = self.run_tool()
        self.assertIn("made by another compiler build", err)
        self.assertIn("ignored", err)
        self.assertEqual(cycles, tuning["baseline_cycles"])
        with open(path, "w") as f:
            f.write("{ not json")
        err, cycles = self.run_tool()
        self.assertIn("is not a tuning file", err)
        self.assertEqual(cycles, tuning["baseline_cycles"])

    def test_tuning_file(self):
        own = os.path.join(self.tmp.name, "mine.json")
        _, tuned = self.run_tool("--tune", "60", "--tuning-file", own)
        self.assertTrue(os.path.exists(own))
        self.assertFalse(glob.glob(os.path.join(self.cache, "tuning", "*.json")))
        err, again = self.run_tool("--tuning-file", own)
        self.assertIn("tuning: using " + own, err)
        self.assertEqual(again, tuned)
        err, _ = self.run_tool("--tuning-file", own + ".missing", code=2)
        self.assertIn("no such file", err)

    def test_bad_budgets_and_contradictions(self):
        for budget in ["0", "-3", "nan"]:
            err, _ = self.run_tool("--tune", budget, code=2)
            self.assertIn("--tune", err)
            self.assertIn("more than 0", err)
        err, _ = self.run_tool("--tune", "5", "--no-tuning", code=2)
        self.assertIn("contradicts", err)


if __name__ == "__main__":
    unittest.main(argv=sys.argv[:1])
