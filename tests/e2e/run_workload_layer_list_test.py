#!/usr/bin/env python3
"""run_workload on layer lists (docs/topologies.md), as an architect runs them: a small SCALE-Sim
topology and a small GEMM list compile, run bit-exact (PASS, exit 0) and report one layer per
row, with each row's MACs; a bad list exits 2 with the file, line and field named, and writes no
file.

Usage: run_workload_layer_list_test.py RUN_WORKLOAD SOURCE_DIR
"""
import csv
import json
import os
import subprocess
import sys
import tempfile

TOOL, SOURCE = sys.argv[1], sys.argv[2]
DATA = os.path.join(SOURCE, "tests", "e2e", "data")

# Name -> MACs: ofmap pixels x filter taps x channels x filters (no padding), or M x N x K.
TOPOLOGY = {"conv3x3": 8 * 8 * 9 * 8 * 16, "conv_s2": 4 * 4 * 9 * 16 * 8,
            "pointwise": 6 * 6 * 16 * 32, "tall": 6 * 12 * 3 * 4 * 8, "fc": 64 * 10}
GEMMS = {"gemm_a": 16 * 32 * 64, "gemm_odd": 7 * 5 * 3, "gemv": 1 * 10 * 64}


def run(*args):
    return subprocess.run([TOOL, *args, "--quiet"], capture_output=True, text=True)


def check_list(csv_path, expected_macs, tmp):
    out = os.path.join(tmp, os.path.basename(csv_path) + ".out")
    p = run(csv_path, "--output-dir", out)
    assert p.returncode == 0, f"{csv_path}: exit {p.returncode}\n{p.stdout}\n{p.stderr}"
    assert "PASS" in p.stdout, p.stdout
    report = json.load(open(os.path.join(out, "report.json")))
    assert report["check"]["status"] == "pass", report["check"]
    macs = {}
    for layer in report["layers"]:
        macs[layer["name"]] = macs.get(layer["name"], 0) + layer["macs"]
    for name, want in expected_macs.items():
        assert macs.get(name) == want, f"{csv_path}: layer {name}: {macs.get(name)} MACs, " \
            f"expected {want} (report layers: {sorted(macs)})"
        assert name in p.stdout, f"no row for {name} in the table:\n{p.stdout}"
        assert os.path.exists(os.path.join(out, name + ".npy")), f"no {name}.npy"
    rows = [r["layer"] for r in csv.DictReader(open(os.path.join(out, "layers.csv")))]
    assert set(expected_macs) <= set(rows), rows


def check_refused(tmp, text, needle, *extra, file_name="bad.csv"):
    path = os.path.join(tmp, file_name)
    if text is not None:
        with open(path, "w") as f:
            f.write(text)
    out = os.path.join(tmp, "refused")
    p = run(path, "--output-dir", out, *extra)
    assert p.returncode == 2, f"{text!r}: exit {p.returncode}\n{p.stderr}"
    assert needle in p.stderr, f"{text!r}: stderr was {p.stderr!r}, expected {needle!r}"
    assert not os.path.exists(out), f"{text!r}: {out} was written"
    assert not os.path.exists(os.path.join(tmp, "x.npy")), "a file escaped the output dir"


def main():
    with tempfile.TemporaryDirectory() as tmp:
        check_list(os.path.join(DATA, "tiny_topology.csv"), TOPOLOGY, tmp)
        check_list(os.path.join(DATA, "tiny_gemms.csv"), GEMMS, tmp)
        header = "Layer name,IFMAP Height,IFMAP Width,Filter Height,Filter Width,Channels," \
                 "Num Filter,Strides,\n"
        bad = os.path.join(tmp, "bad.csv")
        check_refused(tmp, header + "a,8,8,3,3,4,4,1,\na,8,8,3,3,4,4,1,\n",
                      f"{bad}:3: field 1 (Layer name): duplicate layer name 'a' (first on line 2)")
        check_refused(tmp, header + "a,8,8,9,3,4,4,1,\n",
                      f"{bad}:2: field 4 (Filter Height): 9 is larger than the IFMAP Height 8")
        check_refused(tmp, header + "a,8,8,3,3,4,4,0,\n", "field 8 (Strides): 0 must be positive")
        check_refused(tmp, header + "../x,8,8,3,3,4,4,1,\n", "layer name '../x': only letters")
        check_refused(tmp, "Layer,M,N,K,\ng,4,4,x4,\n", "field 4 (K): 'x4' is not an integer")
        check_refused(tmp, header, f"{bad}: no layers")
        # Each layer fits the limits; the list does not fit this config's DRAM.
        check_refused(tmp, "Layer,M,N,K,\ng,1024,1024,1024,\n", "needs at least 3145728 bytes",
                      "--set", "dram.size_bytes=1048576")
        os.mkdir(os.path.join(tmp, "dir.csv"))
        check_refused(tmp, None, "is a directory, not a file", file_name="dir.csv")
        check_refused(tmp, None, "cannot open layer list", file_name="missing.csv")
    print("ok")


if __name__ == "__main__":
    main()
