#!/usr/bin/python3
"""run_workload's calibration data (issue 14): --calib takes .npy samples, stacks [N,...] and folders
of them (name order), --calib-count takes the first N of them (or N built-in inputs), and the
report says what the quantisation was calibrated on, and at which precision (--precision int8 or
w4a8). A repeated run reuses the quantised model of
an earlier one with the same model, samples and options from the cache (NPU_CACHE_DIR), with
identical results; --no-quant-cache neither reads nor writes it; a damaged entry is a notice, not
an error. Bad calibration data (a count beyond what is
there, an empty folder, the wrong shape or dtype, NaN) is an error with exit status 2 and no file.

Usage: run_workload_calibration_test.py RUN_WORKLOAD
"""
import json
import math
import os
import shutil
import struct
import subprocess
import sys
import tempfile
import unittest

TOOL = sys.argv[1]
MODEL = ["small_cnn", "--image-size", "32", "--quiet"]
SAMPLE = [3, 32, 32]


def write_npy(path, shape, values, descr="<f4"):
    header = "{'descr': '%s', 'fortran_order': False, 'shape': (%s), }" % (
        descr, "".join(f"{d}," for d in shape))
    header += " " * (63 - (10 + len(header)) % 64) + "\n"
    with open(path, "wb") as f:
        f.write(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)) + header.encode())
        f.write(struct.pack(f"<{len(values)}{'f' if descr == '<f4' else 'b'}", *values))


def samples(n, seed):
    count = n * math.prod(SAMPLE)
    return [((i * 7919 + seed * 104729) % 4001) / 1000.0 - 2.0 for i in range(count)]


class Calibration(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.dir = os.path.join(self.tmp.name, "calib")
        os.mkdir(self.dir)
        write_npy(os.path.join(self.dir, "a.npy"), [2] + SAMPLE, samples(2, 1))  # a stack of 2
        write_npy(os.path.join(self.dir, "b.npy"), [1] + SAMPLE, samples(1, 2))
        self.out = os.path.join(self.tmp.name, "out")
        self.cache = os.path.join(self.tmp.name, "cache")
        os.environ["NPU_CACHE_DIR"] = self.cache  # a cache of this test's own

    def tearDown(self):
        self.tmp.cleanup()

    def run_tool(self, *args):
        p = subprocess.run([TOOL, *MODEL, *args, "--output-dir", self.out], capture_output=True,
                           text=True)
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertIn("calibrated on", p.stdout)
        with open(os.path.join(self.out, "report.json")) as f:
            report = json.load(f)
        self.assertEqual(report["check"]["status"], "pass")
        return p, report

    def calibration(self, *args):
        return self.run_tool(*args)[1]["accuracy"]["calibration"]

    def output_bytes(self):
        return {n: open(os.path.join(self.out, n), "rb").read()
                for n in sorted(os.listdir(self.out)) if n.endswith(".npy")}

    def entries(self):
        folder = os.path.join(self.cache, "quantized")
        return sorted(os.listdir(folder)) if os.path.isdir(folder) else []

    def test_a_repeated_run_reuses_the_quantisation_with_identical_results(self):
        p, first = self.run_tool("--calib", self.dir)
        self.assertFalse(first["accuracy"]["calibration"]["from_cache"])
        outputs = self.output_bytes()
        self.assertEqual(len(self.entries()), 1)
        p, again = self.run_tool("--calib", self.dir)
        self.assertTrue(again["accuracy"]["calibration"]["from_cache"])
        self.assertIn("an earlier run", p.stdout)
        self.assertEqual(self.output_bytes(), outputs)
        self.assertEqual(again["totals"]["cycles"], first["totals"]["cycles"])
        self.assertEqual(again["accuracy"]["outputs"], first["accuracy"]["outputs"])
        # Other samples miss; --no-quant-cache neither reads nor stores.
        self.assertFalse(self.calibration("--calib", self.dir, "--calib-count", "2")["from_cache"])
        self.assertEqual(len(self.entries()), 2)
        self.assertFalse(self.calibration("--calib", self.dir, "--no-quant-cache")["from_cache"])
        self.assertFalse(self.calibration("--calib-count", "5", "--no-quant-cache")["from_cache"])
        self.assertEqual(len(self.entries()), 2)

    def test_a_damaged_entry_is_a_notice_and_is_replaced(self):
        self.calibration("--calib", self.dir)
        entry = os.path.join(self.cache, "quantized", self.entries()[0])
        with open(entry, "r+b") as f:
            f.truncate(12)
        p, report = self.run_tool("--calib", self.dir)
        self.assertIn("notice: ignored the quantisation cache entry " + entry, p.stderr)
        self.assertFalse(report["accuracy"]["calibration"]["from_cache"])
        self.assertTrue(self.calibration("--calib", self.dir)["from_cache"])

    def test_folders_stacks_and_counts_are_reported(self):
        files = [os.path.join(self.dir, n) for n in ("a.npy", "b.npy")]
        self.assertEqual(self.calibration("--calib", self.dir),
                         {"samples": 3, "source": "files", "files": files,
                          "observer": "percentile", "from_cache": False, "precision": "int8",
                          "int4_layers": [], "fp16_layers": []})
        self.assertEqual(self.calibration("--calib", self.dir, "--calib-count", "2")["samples"], 2)
        self.assertEqual(self.calibration("--calib", files[1])["samples"], 1)
        self.assertEqual(self.calibration("--calib-count", "6"),
                         {"samples": 6, "source": "built-in", "files": [],
                          "observer": "percentile", "from_cache": False, "precision": "int8",
                          "int4_layers": [], "fp16_layers": []})

    def refused(self, args, message):
        p = subprocess.run([TOOL, *MODEL, *args, "--output-dir", self.out], capture_output=True,
                           text=True)
        self.assertEqual(p.returncode, 2, p.stdout + p.stderr)
        self.assertIn(message, p.stderr)
        self.assertFalse(os.path.exists(self.out), "a refused run left its output folder")

    def test_bad_calibration_data_is_refused(self):
        empty = os.path.join(self.tmp.name, "empty")
        os.mkdir(empty)
        wrong_shape = os.path.join(self.tmp.name, "wrong_shape.npy")
        write_npy(wrong_shape, [1, 3, 16, 16], [0.5] * (3 * 16 * 16))
        int8 = os.path.join(self.tmp.name, "int8.npy")
        write_npy(int8, [1] + SAMPLE, [1] * math.prod(SAMPLE), descr="|i1")
        nan = os.path.join(self.tmp.name, "nan.npy")
        write_npy(nan, [1] + SAMPLE, [float("nan")] + [0.0] * (math.prod(SAMPLE) - 1))
        self.refused(["--calib", self.dir, "--calib-count", "4"],
                     "4 calibration samples asked for; the calibration data holds 3")
        self.refused(["--calib", empty], "the folder holds no .npy file")
        self.refused(["--calib", wrong_shape], "wrong_shape.npy")
        self.refused(["--calib", int8], "must be float32")
        self.refused(["--calib", nan], "nan.npy")
        self.refused(["--calib", os.path.join(self.tmp.name, "missing.npy")], "missing.npy")
        for count in ("0", "-3", "100001"):
            self.refused(["--calib-count", count], "--calib-count")
        for precision in ("fp8", "int4", ""):
            self.refused(["--precision", precision], "--precision")
        self.refused(["--accuracy-budget-db", "3"], "applies to --precision auto")
        for budget in ("-1", "nan", "inf"):
            self.refused(["--precision", "auto", "--accuracy-budget-db", budget],
                         "--accuracy-budget-db")

    def test_fp16_runs_bit_exact_without_calibration(self):
        # FP16: the output equals the FP16 reference (check), close to float, nothing calibrated.
        p = subprocess.run([TOOL, *MODEL, "--precision", "fp16", "--output-dir", self.out],
                           capture_output=True, text=True)
        self.assertEqual(p.returncode, 0, p.stderr)
        with open(os.path.join(self.out, "report.json")) as f:
            report = json.load(f)
        self.assertEqual(report["check"]["status"], "pass")
        self.assertEqual(report["accuracy"]["calibration"]["precision"], "fp16")
        self.assertGreaterEqual(report["accuracy"]["outputs"][0]["cosine"], 0.9999)
        self.assertIn("no calibration: every activation and weight rounded to FP16", p.stdout)
        self.assertEqual(self.entries(), [])  # nothing quantised, nothing cached
        shutil.rmtree(self.out)
        self.refused(["--precision", "fp16", "--calib", self.dir], "calibrates nothing")

    def test_precision_where_nothing_is_quantised_is_refused(self):
        # A built-in single layer is int8 with its own data (a binary: npu_binary_test.py).
        for args in (["fc", "--precision", "w4a8"], ["conv3x3", "--calib", self.dir]):
            p = subprocess.run([TOOL, *args, "--output-dir", self.out], capture_output=True,
                               text=True)
            self.assertEqual(p.returncode, 2, p.stdout + p.stderr)
            self.assertIn("is a built-in int8 layer", p.stderr)
            self.assertFalse(os.path.exists(self.out))

    def test_w4a8_is_bit_exact_reported_and_cached_apart(self):
        # int4 weights: the output still equals the integer reference (run_tool checks), the
        # report names the precision, and the int8 quantisation is not reused for it.
        self.assertEqual(self.calibration()["precision"], "int8")
        w4a8 = self.calibration("--precision", "w4a8")
        self.assertEqual(w4a8["precision"], "w4a8")
        self.assertFalse(w4a8["from_cache"])
        self.assertEqual(len(self.entries()), 2)
        self.assertTrue(self.calibration("--precision", "w4a8")["from_cache"])

    def test_auto_precision_reports_its_choice_and_caches_it(self):
        # small_cnn's layers each lose 10-15 dB alone: a 12 dB budget takes some, not all.
        p, report = self.run_tool("--precision", "auto", "--accuracy-budget-db", "12")
        c = report["accuracy"]["calibration"]
        self.assertEqual(c["precision"], "auto")
        self.assertTrue(0 < len(c["int4_layers"]) < 4, c["int4_layers"])
        self.assertIn("mixed precision: %d of 4 layers int4" % len(c["int4_layers"]), p.stdout)
        for layer in c["int4_layers"]:
            self.assertRegex(p.stdout, layer + r" .* int4\n")
        # What the choice saves against the same model all int8, as the compiler predicts both.
        saved = report["precision"]
        self.assertEqual(saved["int4_layers"], len(c["int4_layers"]))
        self.assertEqual(saved["predicted_cycles"], report["totals"]["predicted_cycles"])
        self.assertLess(saved["predicted_cycles"], saved["int8_predicted_cycles"])
        self.assertLess(saved["predicted_dram_bytes"], saved["int8_predicted_dram_bytes"])
        self.assertIn("against all int8 (predicted)", p.stdout)
        # Again: the choice comes from the cache, and the same layers are int4.
        p, again = self.run_tool("--precision", "auto", "--accuracy-budget-db", "12")
        self.assertTrue(again["accuracy"]["calibration"]["from_cache"])
        self.assertEqual(again["accuracy"]["calibration"]["int4_layers"], c["int4_layers"])
        self.assertIn("mixed precision (chosen by an earlier run)", p.stdout)
        self.assertEqual(again["precision"], report["precision"])  # the int8 twin was cached too

    def test_an_accuracy_target_buys_fp16_layers_bit_exact(self):
        # small_cnn is about 33 dB all int8: 40 dB needs FP16 layers, not all of them.
        p, report = self.run_tool("--precision", "auto", "--accuracy-target-db", "40")
        c = report["accuracy"]["calibration"]
        self.assertTrue(0 < len(c["fp16_layers"]) <= 4, c["fp16_layers"])
        self.assertIn("%d FP16" % len(c["fp16_layers"]), p.stdout)
        self.assertIn("target 40.0 dB", p.stdout)
        for layer in c["fp16_layers"]:
            self.assertRegex(p.stdout, layer + r" .* fp16\n")
        saved = report["precision"]
        self.assertEqual(saved["fp16_layers"], len(c["fp16_layers"]))
        self.assertGreater(saved["predicted_cycles"], saved["int8_predicted_cycles"])  # FP16 costs
        self.assertEqual(saved["predicted_cycles"], report["totals"]["predicted_cycles"])
        p, again = self.run_tool("--precision", "auto", "--accuracy-target-db", "40")
        self.assertTrue(again["accuracy"]["calibration"]["from_cache"])
        self.assertEqual(again["accuracy"]["calibration"]["fp16_layers"], c["fp16_layers"])
        self.assertIn("layers int4, %d FP16" % len(c["fp16_layers"]), p.stdout)

    def test_bad_or_unreachable_targets_are_refused(self):
        self.refused(["--accuracy-target-db", "40"], "applies to --precision auto")
        self.refused(["--precision", "auto", "--accuracy-target-db", "40",
                      "--accuracy-budget-db", "1"], "without --accuracy-budget-db")
        self.refused(["--precision", "auto", "--accuracy-target-db", "nan"], "finite")
        self.refused(["--precision", "auto", "--accuracy-target-db", "200"],
                     "cannot be reached: the best reachable output SNR is")


if __name__ == "__main__":
    unittest.main(argv=sys.argv[:1], verbosity=2)
