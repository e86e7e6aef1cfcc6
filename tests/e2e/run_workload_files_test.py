#!/usr/bin/env python3
"""run_workload's files, as dashboards and people read them: the JSON report validates against
docs/report.schema.json; the CSV has one row per layer; the trace is valid Chrome trace JSON whose
events cover the run on every engine without overlap; outputs are readable .npy; a timing-only run
reports the same cycles; bad input exits non-zero with a message and writes no report file.

Usage: run_workload_files_test.py RUN_WORKLOAD SOURCE_DIR
"""
import csv
import json
import os
import struct
import subprocess
import sys
import tempfile

import jsonschema

TOOL, SOURCE = sys.argv[1], sys.argv[2]
MODEL = ["conv3x3", "--set", "mac.rows=16", "--quiet"]


def run(*args, expect=0):
    p = subprocess.run([TOOL, *args], capture_output=True, text=True)
    if (expect == 0) != (p.returncode == 0):
        sys.exit(f"FAIL: {' '.join(args)} exited {p.returncode}\n{p.stdout}\n{p.stderr}")
    return p


def read_npy(path):
    data = open(path, "rb").read()
    assert data[:6] == b"\x93NUMPY", path
    header_len = struct.unpack("<H", data[8:10])[0]
    header = data[10:10 + header_len].decode()
    return header, data[10 + header_len:]


def write_npy(path, shape, values):
    """A float32 C-order .npy, as NumPy writes it (no NumPy needed)."""
    header = "{'descr': '<f4', 'fortran_order': False, 'shape': (%s), }" % "".join(
        f"{d}," for d in shape)
    header += " " * (63 - (10 + len(header)) % 64) + "\n"
    with open(path, "wb") as f:
        f.write(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)) + header.encode())
        f.write(struct.pack(f"<{len(values)}f", *values))


def check_trace(trace, total_us):
    by_track = {}
    for e in trace["traceEvents"]:
        if e["ph"] == "X":
            by_track.setdefault(e["tid"], []).append(e)
    assert by_track, "trace has no events"
    for tid, events in by_track.items():
        events.sort(key=lambda e: e["ts"])
        assert abs(events[0]["ts"]) < 1e-9, f"track {tid} does not start at 0"
        for a, b in zip(events, events[1:]):
            assert a["ts"] + a["dur"] <= b["ts"] + 1e-6, f"track {tid}: {a} overlaps {b}"
            assert abs(a["ts"] + a["dur"] - b["ts"]) < 1e-6, f"track {tid}: gap after {a}"
        end = events[-1]["ts"] + events[-1]["dur"]
        assert abs(end - total_us) < 1e-3, f"track {tid} ends at {end}, run at {total_us}"
    names = {e["args"]["name"] for e in trace["traceEvents"] if e["name"] == "thread_name"}
    for engine in ["fetch", "compute", "vector", "load.0", "store.0"]:
        assert engine in names, f"no {engine} track in {names}"


def check_provenance(report, args):
    """The build's version and commit (as --version prints them), the command line, the model."""
    p = report["provenance"]
    version = subprocess.run([TOOL, "--version"], capture_output=True, text=True, check=True)
    assert version.stdout.startswith(f"run_workload {p['version']} (commit {p['commit'][:12]}"), \
        (version.stdout, p)
    assert ("+dirty" in version.stdout) == p["dirty"], (version.stdout, p)
    assert p["command_line"].endswith(" ".join(args)), p["command_line"]
    assert p["config_fingerprint"] == report["config"]["fingerprint"], p
    # Same model, same checksum; another model, another.
    other = subprocess.run([TOOL, "fc", "--timing-only", "--quiet", "--json", "-"],
                           capture_output=True, text=True, check=True)
    again = subprocess.run([TOOL, *args[:3], "--timing-only", "--quiet", "--json", "-"],
                           capture_output=True, text=True, check=True)
    assert json.loads(again.stdout)["provenance"]["model_checksum"] == p["model_checksum"]
    assert json.loads(other.stdout)["provenance"]["model_checksum"] != p["model_checksum"]


def check_energy(report):
    """The run's energy is its layers' summed, unit by unit; the events the units counted agree
    with the hardware's counters; pJ/MAC and inferences/J follow from the total."""
    energy, layers = report["energy"], report["layers"]
    close = lambda a, b: abs(a - b) <= 1e-9 * max(1.0, abs(b))
    assert close(sum(l["energy"]["total_pj"] for l in layers), energy["total_pj"]), energy
    for unit, pj in energy["units_pj"].items():
        assert close(sum(l["energy"]["units_pj"][unit] for l in layers), pj), unit
    assert close(sum(energy["units_pj"].values()), energy["total_pj"])
    events, totals = energy["events"], report["totals"]
    assert events["macs"] == totals["macs"], (events, totals)
    assert events["dram_read_bytes"] == totals["dram_read_bytes"], (events, totals)
    assert events["dram_write_bytes"] == totals["dram_write_bytes"], (events, totals)
    moved = totals["dram_read_bytes"] + totals["dram_write_bytes"]
    assert totals["min_dram_bytes"] > 0 and moved >= totals["min_dram_bytes"], totals
    assert close(totals["dram_ratio"], moved / totals["min_dram_bytes"]), totals
    assert events["fetched_instructions"] == report["compile"]["instructions"]
    assert close(energy["pj_per_mac"], energy["total_pj"] / totals["macs"])
    assert close(energy["inferences_per_joule"], totals["batch"] / (energy["total_pj"] * 1e-12))
    assert report["area"]["total_mm2"] > 0


def main():
    schema = json.load(open(os.path.join(SOURCE, "docs/report.schema.json")))
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "out")
        run(*MODEL, "--output-dir", out)
        report = json.load(open(os.path.join(out, "report.json")))
        jsonschema.validate(report, schema, cls=jsonschema.Draft202012Validator)
        assert report["check"]["status"] == "pass", report["check"]
        assert sum(l["cycles"] for l in report["layers"]) == report["totals"]["cycles"]
        check_energy(report)
        check_provenance(report, MODEL + ["--output-dir", out])
        rows = list(csv.DictReader(open(os.path.join(out, "layers.csv"))))
        assert len(rows) == len(report["layers"]) and rows[0]["layer"] == "conv3x3", rows
        assert int(rows[0]["cycles"]) == report["layers"][0]["cycles"]
        total_us = report["totals"]["cycles"] / report["config"]["clock_mhz"]
        check_trace(json.load(open(os.path.join(out, "trace.json"))), total_us)
        svg = open(os.path.join(out, "layers.svg")).read()
        assert svg.startswith("<svg") and svg.count("<title>") == len(report["layers"]), svg[:200]
        header, data = read_npy(os.path.join(out, "output.npy"))
        assert "'|i1'" in header and len(data) == report["check"]["bytes"], header
        header, data = read_npy(os.path.join(out, "output.float.npy"))
        assert "'<f4'" in header and len(data) == 4 * report["check"]["bytes"], header

        timing = os.path.join(tmp, "timing.json")
        run(*MODEL, "--timing-only", "--json", timing)
        fast = json.load(open(timing))
        jsonschema.validate(fast, schema, cls=jsonschema.Draft202012Validator)
        assert fast["mode"] == "timing-only" and fast["check"]["status"] == "skipped"
        assert fast["totals"]["cycles"] == report["totals"]["cycles"], "timing-only cycles differ"
        assert [l["cycles"] for l in fast["layers"]] == [l["cycles"] for l in report["layers"]]

        # A float32 input, quantised by the tool, still checks bit-exactly.
        n = report["check"]["bytes"]  # conv3x3 keeps the spatial size and channel count
        hdr = "{'descr': '<f4', 'fortran_order': False, 'shape': (%d,), }" % n
        hdr += " " * ((64 - (10 + len(hdr) + 1) % 64) % 64) + "\n"
        npy = os.path.join(tmp, "in.npy")
        with open(npy, "wb") as f:
            f.write(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(hdr)) + hdr.encode())
            f.write(struct.pack(f"<{n}f", *[((i * 7) % 50 - 25) * 0.1 for i in range(n)]))
        assert "PASS" in run(*MODEL, "--input", npy).stdout

        # A whole model: bit-exact, with the accuracy report in the JSON.
        model_json = os.path.join(tmp, "model.json")
        model_trace = os.path.join(tmp, "model_trace.json")
        run("small_cnn", "--quiet", "--json", model_json, "--trace", model_trace)
        model = json.load(open(model_json))
        jsonschema.validate(model, schema, cls=jsonschema.Draft202012Validator)
        assert model["check"]["status"] == "pass" and len(model["layers"]) > 3, model["check"]
        assert model["accuracy"]["outputs"][0]["cosine"] > 0.99, model["accuracy"]["outputs"]
        # Its pool runs under the convolution before it (docs/network-compiler.md, interleaving),
        # and the trace names every NPU instruction's layer, the interleaved ones' too.
        interleaved = {l["name"] for l in model["layers"] if l["interleaved"]}
        assert interleaved, model["layers"]
        trace = json.load(open(model_trace))
        labels = {e["args"]["layer"] for e in trace["traceEvents"] if "insn" in e.get("args", {})}
        assert interleaved <= labels <= {l["name"] for l in model["layers"]}, labels
        check_energy(model)
        # mobilenet_v2's expansions run fused with their depthwise in row strips: each group is
        # listed with its layers' figures summed, its layers name it, the terminal says it. The
        # copies of the rows a strip keeps for the next are the group's too (the keeping strip's).
        groups_json = os.path.join(tmp, "groups.json")
        out = run("mobilenet_v2", "--timing-only", "--json", groups_json).stdout
        grouped = json.load(open(groups_json))
        jsonschema.validate(grouped, schema, cls=jsonschema.Draft202012Validator)
        assert grouped["groups"], "no fused group"
        kept_halos = 0
        for g in grouped["groups"]:
            members = [l for l in grouped["layers"] if l["fused_group"] == g["name"]]
            computing = [l for l in members if l["op"] != "copy"]
            assert len(members) == g["layers"], (g, members)
            assert len(computing) == 2 * g["strips"], (g, members)
            for copy in (l for l in members if l["op"] == "copy"):
                kept_halos += 1
                assert f"#strip{copy['strip']}#strip{copy['strip'] + 1}#" in copy["name"], copy
            assert sorted({l["strip"] for l in members}) == list(range(g["strips"])), members
            assert g["cycles"] == sum(l["cycles"] for l in members), g
            assert g["dram_read_bytes"] == sum(l["dram_read_bytes"] for l in members), g
            assert f"fused in row strips (intermediate on chip): {g['name']}: {g['strips']} strips" \
                in out, out
        assert kept_halos > 0, "mobilenet_v2 keeps no strip's rows for the next"
        assert not [g for g in model["groups"]], model["groups"]  # small_cnn: nothing to fuse
        run("small_cnn", "--quiet", "--timing-only", "--json", model_json)
        fast_model = json.load(open(model_json))
        assert fast_model["totals"]["cycles"] == model["totals"]["cycles"], "timing-only differs"
        assert "accuracy" not in fast_model
        assert "dram" not in fast_model  # IDEAL: no device section

        # A DRAM standard adds the device's row-buffer hits and efficiency, in range.
        run("small_cnn", "--quiet", "--timing-only", "--set", "dram.standard=DDR4_3200",
            "--json", model_json)
        ddr4 = json.load(open(model_json))
        jsonschema.validate(ddr4, schema, cls=jsonschema.Draft202012Validator)
        assert ddr4["dram"]["standard"] == "DDR4_3200" and ddr4["dram"]["bursts"] > 0, ddr4["dram"]
        assert 0.5 < ddr4["dram"]["row_hit_rate"] <= 1 and 0 < ddr4["dram"]["efficiency"] <= 1

        # A torch export with ops this NPU cannot run (convnext's layer normalisations, on an NPU
        # without the normaliser): they run on the control core (cpu layers, the engines'
        # shares, a cpu track in the trace); without the fallback it is refused.
        convnext = os.path.join(SOURCE, "tests/corpus/data/convnext.op17.onnx")
        out_dir = os.path.join(tmp, "convnext")
        no_norm = ("--set", "act.norm_dividers=0")
        run(convnext, "--quiet", *no_norm, "--output-dir", out_dir)
        report = json.load(open(os.path.join(out_dir, "report.json")))
        jsonschema.validate(report, schema, cls=jsonschema.Draft202012Validator)
        engines = report["totals"]["engines"]
        assert report["check"]["status"] == "pass" and engines["cpu_ops"] > 0, engines
        assert engines["npu_cycles"] + engines["cpu_cycles"] + engines["other_cycles"] == \
            report["totals"]["cycles"], engines
        check_energy(report)
        cpu_layers = [l for l in report["layers"] if l["engine"] == "cpu"]
        assert len(cpu_layers) == engines["cpu_ops"] and all(l["instructions"] == 0
                                                                for l in cpu_layers)
        trace = json.load(open(os.path.join(out_dir, "trace.json")))
        names = [e["args"]["name"] for e in trace["traceEvents"] if e["name"] == "thread_name"]
        assert "cpu" in names, names
        check_trace(trace, report["totals"]["cycles"] / report["config"]["clock_mhz"])
        p = run(convnext, "--quiet", *no_norm, "--no-cpu-fallback", "--json",
                os.path.join(tmp, "no.json"), expect=1)
        assert p.returncode == 2 and "fallback is off" in p.stderr and \
            "layer_normalization" in p.stderr
        assert not os.path.exists(os.path.join(tmp, "no.json"))

        # A batch: cycles per inference in the report.
        batch_json = os.path.join(tmp, "batch.json")
        run("small_cnn", "--quiet", "--batch", "2", "--timing-only", "--json", batch_json)
        batch = json.load(open(batch_json))
        jsonschema.validate(batch, schema, cls=jsonschema.Draft202012Validator)
        assert batch["totals"]["batch"] == 2
        assert batch["totals"]["cycles_per_inference"] == batch["totals"]["cycles"] // 2
        check_energy(batch)

        # A report on standard output: the JSON alone there, the table on standard error.
        p = run("conv3x3", "--quiet", "--timing-only", "--json", "-")
        assert json.loads(p.stdout)["model"] == "conv3x3" and "cycles" in p.stderr

        # An output tensor named "../../escaping": its files stay inside --output-dir.
        escaping = os.path.join(SOURCE, "tests/e2e/data/escaping_output_name.onnx")
        inside = os.path.join(tmp, "inside", "out")
        run(escaping, "--quiet", "--output-dir", inside)
        assert sorted(f for f in os.listdir(inside) if f.endswith(".npy")) == \
            ["_.._.._escape.float.npy", "_.._.._escape.npy"], os.listdir(inside)
        assert not os.path.exists(os.path.join(tmp, "escape.npy"))

        nan = os.path.join(tmp, "nan.npy")
        write_npy(nan, [1, 3, 8, 8], [0.0] * 100 + [float("nan")] + [0.0] * 91)
        bad = os.path.join(tmp, "bad.json")
        cases = [(["resnet9"], "no model 'resnet9'"),
                 (["/nonexistent/model.onnx"], "cannot open"),
                 (["conv3x3", "--set", "mac.rows=0"], "mac.rows = 0"),
                 (["conv3x3", "--set", "mac.rowz=3"], "no field 'rowz'"),
                 (["conv3x3", "--config", "/nonexistent.textproto"], "cannot open config file"),
                 (["conv3x3", "--input", "/nonexistent.npy"], "cannot open input file"),
                 (["conv3x3", "--input", os.path.join(SOURCE, "README.md")], "not a .npy file"),
                 (["small_cnn", "--batch", "-2"], "--batch -2"),
                 (["small_cnn", "--cpu-ops", "fused_conv", "--no-cpu-fallback"],
                  "fallback is off"),
                 (["conv3x3", "--set", "mac.rows=18446744073709551632"],
                  "is not an unsigned 32-bit integer"),
                 (["conv3x3", "--config", tmp], "is a directory, not a file"),
                 # Refused before calibration: the weights alone exceed the DRAM.
                 (["resnet18", "--set", "dram.size_bytes=4000000"],
                  "needs at least 11836240 bytes of DRAM"),
                 (["conv3x3", "--config", "/nonexistent.textproto"], "No such file or directory"),
                 ([escaping, "--input", nan], "element [0, 1, 4, 4] is nan"),
                 # The JSON could be written, the CSV cannot: neither is.
                 (["conv3x3", "--timing-only", "--csv", "/nonexistent/layers.csv"],
                  "no directory '/nonexistent'"),
                 (["conv3x3", "--timing-only", "--output-dir", os.path.join(tmp, "od"), "--csv",
                   "/nonexistent/layers.csv"], "cannot write"),
                 # An op neither the NPU nor the control core has (a determinant).
                 ([os.path.join(SOURCE, "tests/e2e/data/unsupported_op.onnx")],
                  "node 'Det_0' (op Det")]
        for args, needle in cases:
            p = run(*args, "--json", bad, "--quiet", expect=1)
            assert p.returncode == 2, f"{args}: exit {p.returncode}"
            assert needle in p.stderr, f"{args}: stderr was {p.stderr!r}, expected {needle!r}"
            assert not os.path.exists(bad) and not os.path.exists(bad + ".partial"), args
            assert not os.path.exists(os.path.join(tmp, "od")), args
            assert not [f for f in os.listdir(tmp) if f.startswith(".bad.json")], args
    print("ok")


if __name__ == "__main__":
    main()
