#!/usr/bin/env python3
"""The AOT binary as a file: npu_compile writes it, run_workload runs it alone in the same cycles
as the model it came from (and, compiled --with-reference, checks it bit for bit); options that
would recompile it are refused; damaged files (truncated, bad checksum, and re-sealed with a bad
field) are refused with the reason, exit status 2 and no report file; the watchdog
(--max-cycles, --timeout) ends a long run with an error saying where each queue stands.

Usage: npu_binary_test.py NPU_COMPILE RUN_WORKLOAD SOURCE_DIR
"""
import json
import os
import struct
import subprocess
import sys
import tempfile

COMPILE, RUN, SOURCE = sys.argv[1], sys.argv[2], sys.argv[3]
CONVNEXT = os.path.join(SOURCE, "tests/corpus/data/convnext.op17.onnx")


def run(tool, *args, expect=0):
    p = subprocess.run([tool, *args], capture_output=True, text=True)
    if p.returncode != expect:
        sys.exit(f"FAIL: {os.path.basename(tool)} {' '.join(args)} exited {p.returncode}, "
                 f"expected {expect}\n{p.stdout}\n{p.stderr}")
    return p


def report(*args):
    """Runs run_workload with a JSON report and returns it."""
    path = os.path.join(TMP, "report.json")
    run(RUN, *args, "--quiet", "--json", path)
    return json.load(open(path))


def cycles(r):
    return r["totals"]["cycles"], [l["cycles"] for l in r["layers"]]


# CRC-64/XZ and the protobuf wire format, enough to edit a binary and seal it again.
def crc64(data):
    crc = 0xFFFFFFFFFFFFFFFF
    for b in data:
        crc ^= b
        for _ in range(8):
            crc = (crc >> 1) ^ (0xC96C5795D7870F42 if crc & 1 else 0)
    return crc ^ 0xFFFFFFFFFFFFFFFF


def varint(v):
    out = bytearray()
    while True:
        out.append((v & 0x7F) | (0x80 if v > 0x7F else 0))
        v >>= 7
        if not v:
            return bytes(out)


def read_varint(data, i):
    v, shift = 0, 0
    while True:
        v |= (data[i] & 0x7F) << shift
        shift += 7
        i += 1
        if not data[i - 1] & 0x80:
            return v, i


def fields(data):
    """(field number, wire type, value bytes or int) of a message, in order."""
    i, out = 0, []
    while i < len(data):
        key, i = read_varint(data, i)
        number, wire = key >> 3, key & 7
        if wire == 0:
            v, i = read_varint(data, i)
        elif wire == 2:
            n, i = read_varint(data, i)
            v, i = data[i:i + n], i + n
        elif wire == 1:
            v, i = data[i:i + 8], i + 8
        else:
            v, i = data[i:i + 4], i + 4
        out.append((number, wire, v))
    return out


def encode(msg):
    out = bytearray()
    for number, wire, v in msg:
        out += varint(number << 3 | wire)
        if wire == 0:
            out += varint(v)
        elif wire == 2:
            out += varint(len(v)) + v
        else:
            out += v
    return bytes(out)


def reseal(path, edit_program, out):
    """Edits the Program inside the envelope at `path` and writes it sealed again to `out`."""
    envelope = fields(open(path, "rb").read())
    program = next(v for n, _, v in envelope if n == 4)
    program = encode(edit_program(fields(program)))
    sealed = [(n, w, program if n == 4 else crc64(program) if n == 3 else v)
              for n, w, v in envelope]
    open(out, "wb").write(encode(sealed))


def edit_field(number, change):
    """An edit_program that applies `change` to the value of the first field `number`."""
    def edit(program):
        done = False
        out = []
        for n, w, v in program:
            if n == number and not done:
                v, done = change(v), True
            out.append((n, w, v))
        return out
    return edit


def write_npy(path, shape, values):
    hdr = "{'descr': '<f4', 'fortran_order': False, 'shape': (%s), }" % "".join(
        f"{d}," for d in shape)
    hdr += " " * ((64 - (10 + len(hdr) + 1) % 64) % 64) + "\n"
    with open(path, "wb") as f:
        f.write(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(hdr)) + hdr.encode())
        f.write(struct.pack(f"<{len(values)}f", *values))


def same_cycles_as_the_model():
    plain, checked = os.path.join(TMP, "small.npub"), os.path.join(TMP, "small_ref.npub")
    run(COMPILE, "small_cnn", "-o", plain, "--quiet")
    p = run(COMPILE, "small_cnn", "-o", checked, "--with-reference")
    assert "with its reference graph" in p.stderr and "input " in p.stderr, p.stderr
    model = report("small_cnn")
    alone = report(plain)
    assert alone["check"]["status"] == "not-checked", alone["check"]
    assert "compiled without --with-reference" in alone["check"]["reason"], alone["check"]
    # A compiled binary's model checksum is the file's CRC-64.
    assert alone["provenance"]["model_checksum"] == f"{crc64(open(plain, 'rb').read()):016x}"
    with_reference = report(checked)
    assert with_reference["check"]["status"] == "pass", with_reference["check"]
    assert with_reference["check"]["bytes"] == model["check"]["bytes"]
    assert cycles(alone) == cycles(model) == cycles(with_reference), (cycles(alone), cycles(model))
    # The same float input (NCHW, as the model takes it): the same output bytes.
    write_npy(os.path.join(TMP, "x.npy"), [1, 3, 32, 32],
              [((i * 13) % 97 - 48) * 0.05 for i in range(3 * 32 * 32)])
    out_model, out_binary = os.path.join(TMP, "out_model"), os.path.join(TMP, "out_binary")
    run(RUN, "small_cnn", "--quiet", "--input", os.path.join(TMP, "x.npy"), "--output-dir",
        out_model)
    p = run(RUN, checked, "--input", os.path.join(TMP, "x.npy"), "--output-dir", out_binary)
    assert "PASS" in p.stdout, p.stdout
    names = sorted(f for f in os.listdir(out_model) if f.endswith(".npy"))
    assert names and names == sorted(f for f in os.listdir(out_binary) if f.endswith(".npy"))
    for name in names:
        assert open(os.path.join(out_model, name), "rb").read() == \
            open(os.path.join(out_binary, name), "rb").read(), name
    return plain, checked


def batch_and_cpu_ops():
    """convnext's layer norms on the control core: an NPU without the normaliser."""
    path = os.path.join(TMP, "convnext.npub")
    no_norm = ("--set", "act.norm_dividers=0")
    run(COMPILE, CONVNEXT, "--batch", "2", *no_norm, "--with-reference", "-o", path, "--quiet")
    model, alone = report(CONVNEXT, "--batch", "2", *no_norm), report(path)
    assert alone["check"]["status"] == "pass" and alone["totals"]["batch"] == 2, alone["check"]
    assert alone["totals"]["engines"]["cpu_ops"] > 0
    assert cycles(alone) == cycles(model), (cycles(alone), cycles(model))


def fp16():
    """An FP16 binary: FLOAT16 tensors, checked against its FP16 reference, the same cycles as
    the model run directly, float inputs rounded to FP16, outputs written as float16."""
    path = os.path.join(TMP, "small_cnn_fp16.npub")
    p = run(COMPILE, "small_cnn", "--precision", "fp16", "--with-reference", "-o", path)
    assert "input  input: float16 [1,32,32,3] NHWC" in p.stdout + p.stderr, p.stderr
    model, alone = report("small_cnn", "--precision", "fp16"), report(path)
    assert alone["check"]["status"] == "pass", alone["check"]
    assert cycles(alone) == cycles(model), (cycles(alone), cycles(model))
    x = os.path.join(TMP, "x16.npy")
    write_npy(x, [1, 32, 32, 3], [((i * 37) % 101) / 50.0 - 1.0 for i in range(32 * 32 * 3)])
    out = os.path.join(TMP, "out16")
    run(RUN, path, "--quiet", "--input", x, "--output-dir", out)
    header = open(os.path.join(out, "fc.npy"), "rb").read(128)
    assert b"'descr': '<f2'" in header, header


def configs(plain):
    path = os.path.join(TMP, "rows16.npub")
    run(COMPILE, "conv3x3", "--set", "mac.rows=16", "-o", path, "--quiet")
    assert report(path)["config"]["mac"]["rows"] == 16  # runs on the config it records
    assert report(path, "--set", "cpu.core=LARGE_CORE")["check"]["status"] == "not-checked"
    p = run(RUN, path, "--set", "mac.rows=32", expect=2)
    assert "recompile for this config" in p.stderr, p.stderr
    p = run(RUN, plain, "--batch", "2", expect=2)
    assert "--batch changes how a model compiles" in p.stderr, p.stderr
    p = run(RUN, plain, "--precision", "w4a8", expect=2)
    assert "--precision changes how a model compiles" in p.stderr, p.stderr
    p = run(COMPILE, "conv3x3", "--with-reference", "-o", os.path.join(TMP, "no.npub"), expect=2)
    assert "single-layer" in p.stderr and not os.path.exists(os.path.join(TMP, "no.npub"))


def damaged_files(plain):
    """Each refused with the reason, exit status 2, no report file."""
    data = open(plain, "rb").read()
    truncated, unsealed = os.path.join(TMP, "truncated.npub"), os.path.join(TMP, "unsealed.npub")
    open(truncated, "wb").write(data[:len(data) // 2])
    flipped = bytearray(data)
    flipped[len(data) // 3] ^= 0x10
    open(unsealed, "wb").write(bytes(flipped))

    def first_opcode(v):
        return bytes([0x7F]) + v[1:]

    def dram_bytes(v):
        return 0xFFFFFFFF

    bad_opcode, huge = os.path.join(TMP, "opcode.npub"), os.path.join(TMP, "huge.npub")
    reseal(plain, edit_field(4, first_opcode), bad_opcode)   # Program.instructions
    reseal(plain, edit_field(6, dram_bytes), huge)           # Program.dram_bytes
    cases = [(truncated, "not an NPU binary"), (unsealed, "checksum mismatch"),
             (bad_opcode, "instruction 0: unknown opcode 127"),
             (huge, "binary needs 4294967295 bytes of DRAM"),
             (os.path.join(TMP, "missing.npub"), "cannot open"),
             (TMP + "/.npub", "is a directory")]
    os.makedirs(TMP + "/.npub", exist_ok=True)
    bad_json = os.path.join(TMP, "bad.json")
    for path, reason in cases:
        p = run(RUN, path, "--json", bad_json, "--quiet", expect=2)
        assert reason in p.stderr, f"{path}: {p.stderr!r}, expected {reason!r}"
        assert not os.path.exists(bad_json), path


def watchdog(plain):
    out = os.path.join(TMP, "watchdog")
    p = run(RUN, plain, "--max-cycles", "5000", "--output-dir", out, "--quiet", expect=2)
    assert "within its budget of 5000 cycles" in p.stderr, p.stderr
    assert "load queue" in p.stderr and "store queue" in p.stderr, p.stderr
    assert not os.path.exists(out), os.listdir(out)
    # resnet18 simulates for most of a second, in slices of about 0.03 s.
    p = run(RUN, "resnet18", "--timeout", "0.05", "--output-dir", out, "--quiet", expect=2)
    assert "within its time limit of 0.05 s" in p.stderr and "queue" in p.stderr, p.stderr
    assert not os.path.exists(out)
    for bad in ["-1", "0", "12x", "99999999999999999999999"]:
        p = run(RUN, plain, "--max-cycles", bad, expect=2)
        assert "--max-cycles" in p.stderr, p.stderr
    p = run(RUN, plain, "--timeout", "nan", expect=2)
    assert "--timeout" in p.stderr, p.stderr


def compile_report():
    """--report prints what the compiler decided per layer and the memory plan; a single-layer
    workload has no compile report: refused, nothing written."""
    path = os.path.join(TMP, "reported.npub")
    p = run(COMPILE, "small_cnn", "-o", path, "--quiet", "--report")
    for needle in ("model 'small_cnn'", "predicted DRAM traffic", "fused layer groups: "):
        assert needle in p.stdout, p.stdout
    assert any(line.startswith("conv1 ") for line in p.stdout.splitlines()), p.stdout
    assert os.path.exists(path)
    single = os.path.join(TMP, "single.npub")
    p = run(COMPILE, "conv3x3", "-o", single, "--report", expect=2)
    assert "--report: 'conv3x3' is a single-layer workload" in p.stderr, p.stderr
    assert not os.path.exists(single)


def main():
    plain, _ = same_cycles_as_the_model()
    batch_and_cpu_ops()
    fp16()
    configs(plain)
    damaged_files(plain)
    watchdog(plain)
    compile_report()
    p = run(COMPILE, "small_cnn", expect=2)
    assert "-o FILE" in p.stderr, p.stderr
    assert run(COMPILE, "--version").stdout.startswith("npu_compile ")
    print("ok")


if __name__ == "__main__":
    with tempfile.TemporaryDirectory() as TMP:
        main()
