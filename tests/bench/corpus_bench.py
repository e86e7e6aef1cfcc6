#!/usr/bin/env python3
"""Model coverage, measured: every model of a corpus directory (tests/corpus/data, or the full-size
models tools/onnx_models/export_corpus.py --full writes) through run_workload on its own input,
calibrated on that input: bit-exactness, cycles, the roofline ratio, the share of the cycles and of
the MACs on the NPU and on the control core, and the int8 output's cosine against the float model
(compiler/accuracy) and against torch's output (the .npy beside the model). Prints the markdown
table of docs/model-coverage.md. Not a ctest: full-size models take minutes.

  tests/bench/corpus_bench.py build/tools/run_workload /work/corpus_full --opset 17 \\
      [--config default] [--only resnet50,convnext_tiny] [--timing-only]
"""
import argparse
import json
import os
import struct
import subprocess
import sys
import tempfile
import time


def read_npy(path):
    """A float32 C-order .npy (what numpy.save writes): (shape, values)."""
    with open(path, "rb") as f:
        data = f.read()
    header_len = struct.unpack("<H", data[8:10])[0]
    header = data[10:10 + header_len].decode("latin1")
    shape = tuple(int(d) for d in header.split("'shape': (")[1].split(")")[0].split(",") if d.strip())
    count = 1
    for d in shape:
        count *= d
    return shape, struct.unpack(f"<{count}f", data[10 + header_len:10 + header_len + 4 * count])


def cosine(a, b):
    ab = sum(x * y for x, y in zip(a, b))
    aa = sum(x * x for x in a)
    bb = sum(y * y for y in b)
    return ab / (aa * bb) ** 0.5 if aa > 0 and bb > 0 else float("nan")


def nhwc_to_nchw(values, shape):
    if len(shape) != 4:
        return values
    n, c, h, w = shape
    out = [0.0] * len(values)
    for b in range(n):
        for y in range(h):
            for x in range(w):
                for k in range(c):
                    out[((b * c + k) * h + y) * w + x] = values[((b * h + y) * w + x) * c + k]
    return out


def run(tool, entry, directory, config, timing_only):
    model, inp, outp = entry
    with tempfile.TemporaryDirectory() as out_dir:
        cmd = [tool, os.path.join(directory, model), "--quiet", "--config", config,
               "--input", os.path.join(directory, inp), "--calib", os.path.join(directory, inp),
               "--json", os.path.join(out_dir, "report.json")]
        if timing_only:
            cmd.append("--timing-only")
        else:
            cmd += ["--output-dir", out_dir]
        start = time.perf_counter()
        p = subprocess.run(cmd, capture_output=True, text=True)
        wall = time.perf_counter() - start
        if p.returncode != 0:
            return {"model": model, "error": p.stderr.strip().splitlines()[-1][:200]}
        r = json.load(open(os.path.join(out_dir, "report.json")))
        torch_cos = float("nan")
        if not timing_only:
            floats = [f for f in os.listdir(out_dir) if f.endswith(".float.npy")]
            if floats:
                shape, ours = read_npy(os.path.join(out_dir, floats[0]))
                tshape, theirs = read_npy(os.path.join(directory, outp))
                torch_cos = cosine(nhwc_to_nchw(ours, tshape) if shape != tshape else ours, theirs)
    t, e = r["totals"], r["totals"]["engines"]
    acc = r.get("accuracy", {}).get("outputs", [{}])
    macs = e["npu_macs"] + e["cpu_macs"]
    return {"model": model, "check": r["check"]["status"], "cycles": t["cycles"],
            "roofline": t["roofline_ratio"], "npu_cycles": e["npu_cycles"] / t["cycles"],
            "cpu_cycles": e["cpu_cycles"] / t["cycles"], "cpu_ops": e["cpu_ops"],
            "npu_macs": e["npu_macs"] / macs if macs else 1.0, "gmacs": macs / 1e9,
            "float_cos": acc[0].get("cosine", float("nan")), "torch_cos": torch_cos,
            "wall": wall}


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("tool")
    parser.add_argument("directory")
    parser.add_argument("--opset", default="17")
    parser.add_argument("--config", default="default")
    parser.add_argument("--only", default="")
    parser.add_argument("--timing-only", action="store_true")
    args = parser.parse_args()
    entries = [line.split() for line in open(os.path.join(args.directory, "manifest.txt"))
               if line.strip()]
    only = set(filter(None, args.only.split(",")))
    entries = [e for e in entries if f".op{args.opset}." in e[0] and
               (not only or e[0].split(".")[0] in only)]
    print(f"| model | GMACs | check | cycles | roofline | NPU cycles | CPU cycles (ops) | "
          f"MACs on NPU | cosine vs float | cosine vs torch | wall s |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    for entry in entries:
        r = run(args.tool, entry, args.directory, args.config, args.timing_only)
        name = r["model"].split(".")[0]
        if "error" in r:
            print(f"| {name} | | error: {r['error']} |||||||||", flush=True)
            continue
        print(f"| {name} | {r['gmacs']:.2f} | {r['check']} | {r['cycles']:,} | {r['roofline']:.2f}x "
              f"| {100 * r['npu_cycles']:.1f}% | {100 * r['cpu_cycles']:.1f}% ({r['cpu_ops']}) "
              f"| {100 * r['npu_macs']:.2f}% | {r['float_cos']:.4f} | {r['torch_cos']:.4f} "
              f"| {r['wall']:.0f} |", flush=True)


if __name__ == "__main__":
    sys.exit(main())
