#!/usr/bin/python3
"""run_workload's calibration data (issue 14): --calib takes .npy samples, stacks [N,...] and folders
of them (name order), --calib-count takes the first N of them (or N built-in inputs), and the
report says what the quantisation was calibrated on. Bad calibration data (a count beyond what is
there, an empty folder, the wrong shape or dtype, NaN) is an error with exit status 2 and no file.

Usage: run_workload_calibration_test.py RUN_WORKLOAD
"""
import json
import math
import os
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

    def tearDown(self):
        self.tmp.cleanup()

    def calibration(self, *args):
        p = subprocess.run([TOOL, *MODEL, *args, "--output-dir", self.out], capture_output=True,
                           text=True)
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertIn("calibrated on", p.stdout)
        with open(os.path.join(self.out, "report.json")) as f:
            report = json.load(f)
        self.assertEqual(report["check"]["status"], "pass")
        return report["accuracy"]["calibration"]

    def test_folders_stacks_and_counts_are_reported(self):
        files = [os.path.join(self.dir, n) for n in ("a.npy", "b.npy")]
        self.assertEqual(self.calibration("--calib", self.dir),
                         {"samples": 3, "source": "files", "files": files,
                          "observer": "percentile"})
        self.assertEqual(self.calibration("--calib", self.dir, "--calib-count", "2")["samples"], 2)
        self.assertEqual(self.calibration("--calib", files[1])["samples"], 1)
        self.assertEqual(self.calibration("--calib-count", "6"),
                         {"samples": 6, "source": "built-in", "files": [],
                          "observer": "percentile"})

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


if __name__ == "__main__":
    unittest.main(argv=sys.argv[:1], verbosity=2)
