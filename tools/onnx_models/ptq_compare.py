#!/usr/bin/python3
"""Our int8 quantisation against PyTorch's own post-training quantisation, side by side.

For each model (full-size torchvision resnet18 and mobilenet_v2 by default, random weights as
export_corpus.py draws them, never downloaded) it:
  1. draws a calibration set and a held-out evaluation set from one seeded image distribution
     (smooth random fields: low-frequency noise octaves, not the white noise the model's
     BatchNorm statistics came from, so that calibrating on the right data matters);
  2. quantises the float model with PyTorch FX graph mode PTQ (prepare_fx / convert_fx) on the
     calibration set, with per-channel symmetric weights and histogram activation observers
     (the like-for-like comparison, run on the onednn engine) and with the qnnpack default
     qconfig (per-tensor weights), and runs it on the evaluation set (Debian's torch has no
     fbgemm engine);
  3. exports the float model to ONNX and runs it through `run_workload MODEL.onnx --calib
     calib.npy --input x.npy --output-dir DIR` for every evaluation input: compiled, run on the
     simulated NPU, bit-exact against the integer reference, its dequantised output read back;
  4. reports, against torch's float output over the evaluation set, each quantisation's SNR
     (10 log10 of signal power over error power, all outputs pooled) and cosine similarity,
     and the same for run_workload with its built-in calibration (what users got before --calib).

Needs torch (Debian 12: apt-get install python3-torch python3-torchvision python3-onnx) and a
build of run_workload; CI does not run it. Results go to docs/quantization.md.

    /usr/bin/python3 tools/onnx_models/ptq_compare.py --tool build/tools/run_workload \\
        [--models resnet18,mobilenet_v2] [--calib-count 16] [--eval-count 8] [--json out.json]
        [--layers]
"""

import argparse
import json
import math
import os
import subprocess
import sys
import tempfile
import time

import numpy as np
import torch
import torch.fx
import torch.nn.functional as F
from torch.ao.quantization import QConfig, QConfigMapping, get_default_qconfig_mapping
from torch.ao.quantization.observer import HistogramObserver, default_per_channel_weight_observer
from torch.ao.quantization.quantize_fx import convert_fx, prepare_fx
from torchvision import models as tvm

from export_corpus import build, export

IMAGE = (1, 3, 224, 224)
MODELS = {"resnet18": (tvm.resnet18, 200), "mobilenet_v2": (tvm.mobilenet_v2, 201)}


def smooth_images(count, seed):
    """`count` images [count, 3, 224, 224]: noise octaves at 1/32, 1/8 and full resolution with
    halving amplitude, then a random per-image brightness and contrast (seeded)."""
    g = torch.Generator().manual_seed(seed)
    n, c, h, w = (count,) + IMAGE[1:]
    x = torch.zeros(n, c, h, w)
    for div, amp in ((32, 1.0), (8, 0.5), (1, 0.25)):
        coarse = torch.randn((n, c, h // div, w // div), generator=g)
        x += amp * F.interpolate(coarse, size=(h, w), mode="bilinear", align_corners=False)
    contrast = torch.rand((n, 1, 1, 1), generator=g) + 0.5
    brightness = torch.randn((n, 1, 1, 1), generator=g) * 0.3
    return x * contrast + brightness


def torch_ptq(module, calib, qconfig_mapping):
    """FX graph mode PTQ of `module` calibrated on `calib` (one sample at a time)."""
    prepared = prepare_fx(module, qconfig_mapping, example_inputs=(calib[:1],))
    with torch.no_grad():
        for k in range(calib.shape[0]):
            prepared(calib[k:k + 1])
    return convert_fx(prepared)


def full_range_qconfig():
    """Per-channel symmetric int8 weights, histogram-observed quint8 activations over the full
    8 bits (fbgemm's default would reduce them to 7 bits to dodge an x86 overflow)."""
    qconfig = QConfig(activation=HistogramObserver.with_args(reduce_range=False),
                      weight=default_per_channel_weight_observer)
    return QConfigMapping().set_global(qconfig)


def run_ours(tool, onnx_path, calib_path, inputs, work):
    """run_workload's dequantised output for each input, calibrated on calib_path (None: its
    built-in calibration inputs)."""
    outputs = []
    for k in range(inputs.shape[0]):
        x_path = os.path.join(work, f"eval{k}.npy")
        np.save(x_path, inputs[k:k + 1].numpy().astype(np.float32))
        out_dir = os.path.join(work, f"out{k}" + ("" if calib_path else "_builtin"))
        cmd = [tool, onnx_path, "--input", x_path, "--output-dir", out_dir, "--quiet"]
        if calib_path:
            cmd += ["--calib", calib_path]
        subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
        floats = sorted(f for f in os.listdir(out_dir) if f.endswith(".float.npy"))
        if len(floats) != 1:
            raise RuntimeError(f"{out_dir}: expected one dequantised output, found {floats}")
        outputs.append(torch.from_numpy(np.load(os.path.join(out_dir, floats[0]))))
    return outputs


def scores(reference, outputs):
    """SNR (dB) and cosine similarity of `outputs` against `reference`, all samples pooled."""
    ref = torch.cat([r.flatten().double() for r in reference])
    out = torch.cat([o.flatten().double() for o in outputs])
    noise = float(((ref - out) ** 2).sum())
    snr = math.inf if noise == 0 else 10 * math.log10(float((ref ** 2).sum()) / noise)
    cos = float(torch.dot(ref, out) / (ref.norm() * out.norm()))
    return {"snr_db": round(snr, 2), "cosine": round(cos, 6)}


def torch_layer_snrs(module, quantized, evals):
    """resnet18 only: the SNR of each of torch's quantised convolution (without a ReLU), pool and
    classifier outputs against the float model's at the same point, on `evals`. Fused conv+bn
    modules are compared with the float BatchNorm's output (conv2 -> bn2, downsample.0 ->
    downsample.1); the conv+bn+relu ones are left out (torchvision's blocks reuse one ReLU
    module, so its hook cannot tell the two calls apart)."""
    floats, quants = {}, {}
    hooks = [m.register_forward_hook(
        lambda mod, i, o, name=name: floats.setdefault(name, []).append(o.detach().clone()))
        for name, m in module.named_modules() if name and not list(m.children())]

    class Recorder(torch.fx.Interpreter):
        def call_module(self, target, args, kwargs):
            out = super().call_module(target, args, kwargs)
            quants.setdefault(target, []).append(out.dequantize() if out.is_quantized else out)
            return out

    with torch.no_grad():
        for k in range(evals.shape[0]):
            module(evals[k:k + 1])
        for h in hooks:  # before the quantised run, which calls some of the same pool modules
            h.remove()
        for k in range(evals.shape[0]):
            Recorder(quantized).run(evals[k:k + 1])
    snrs = {}
    for target, outs in quants.items():
        point = target
        if target.endswith(".conv2"):
            point = target[:-len("conv2")] + "bn2"
        elif target.endswith("downsample.0"):
            point = target[:-1] + "1"
        elif target.endswith("conv1"):
            continue
        if point in floats:
            snrs[target] = scores(floats[point], outs)["snr_db"]
    return snrs


def compare(name, tool, calib_count, eval_count, work, layers=False):
    constructor, seed = MODELS[name]
    module, _, _ = build(constructor, IMAGE, seed)
    calib = smooth_images(calib_count, seed + 1000)
    evals = smooth_images(eval_count, seed + 2000)
    with torch.no_grad():
        reference = [module(evals[k:k + 1]) for k in range(eval_count)]
    result = {"model": name, "calibration_samples": calib_count, "eval_samples": eval_count}

    for label, engine, mapping in (
            ("torch_fx_ptq", "onednn", full_range_qconfig()),
            ("torch_fx_ptq_per_tensor", "qnnpack", get_default_qconfig_mapping("qnnpack"))):
        torch.backends.quantized.engine = engine
        started = time.time()
        quantized = torch_ptq(module, calib, mapping)
        with torch.no_grad():
            outs = [quantized(evals[k:k + 1]) for k in range(eval_count)]
        result[label] = dict(scores(reference, outs), seconds=round(time.time() - started, 1))
        if layers and label == "torch_fx_ptq" and name == "resnet18":
            result["torch_fx_ptq_layers"] = torch_layer_snrs(module, quantized, evals)

    onnx_path = os.path.join(work, f"{name}.onnx")
    with open(onnx_path, "wb") as f:
        f.write(export(module, evals[:1], reference[0], 13))
    calib_path = os.path.join(work, f"{name}.calib.npy")
    np.save(calib_path, calib.numpy().astype(np.float32))
    for label, path in (("run_workload_calib", calib_path), ("run_workload_builtin", None)):
        started = time.time()
        outs = run_ours(tool, onnx_path, path, evals, work)
        result[label] = dict(scores(reference, outs), seconds=round(time.time() - started, 1))
    return result


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tool", required=True, help="the run_workload binary")
    parser.add_argument("--models", default="resnet18,mobilenet_v2")
    parser.add_argument("--calib-count", type=int, default=16)
    parser.add_argument("--eval-count", type=int, default=8)
    parser.add_argument("--json", help="also write the results here")
    parser.add_argument("--layers", action="store_true",
                        help="resnet18: also the SNR of torch's quantised model layer by layer "
                             "(compare with `npu_quant MODEL.onnx --calib ... --eval ...`)")
    args = parser.parse_args()
    torch.set_num_threads(1)
    results = []
    with tempfile.TemporaryDirectory() as work:
        for name in args.models.split(","):
            if name not in MODELS:
                sys.exit(f"ptq_compare: unknown model {name!r} (known: {', '.join(MODELS)})")
            results.append(compare(name, os.path.abspath(args.tool), args.calib_count,
                                   args.eval_count, work, args.layers))
            r = results[-1]
            print(f"{name}: calibration {r['calibration_samples']}, evaluation "
                  f"{r['eval_samples']} (SNR dB / cosine against torch float)")
            for label in ("run_workload_calib", "torch_fx_ptq", "torch_fx_ptq_per_tensor",
                          "run_workload_builtin"):
                s = r[label]
                print(f"  {label:30s} {s['snr_db']:7.2f} dB  {s['cosine']:.6f}  "
                      f"({s['seconds']} s)")
            for layer, snr in r.get("torch_fx_ptq_layers", {}).items():
                print(f"    torch_fx_ptq {layer:28s} {snr:7.2f} dB")
    if args.json:
        with open(args.json, "w") as f:
            json.dump(results, f, indent=2)


if __name__ == "__main__":
    main()
