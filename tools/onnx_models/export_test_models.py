#!/usr/bin/python3
"""Regenerates the ONNX test models in tests/onnx/data/ with torch.onnx.export.

CI does not install torch: the tests read the committed files, and this script is only for
regenerating them (Debian 12: apt-get install python3-torch python3-onnx python3-numpy).

    /usr/bin/python3 tools/onnx_models/export_test_models.py [--out tests/onnx/data]

For every model it writes:
  <model>.op<N>.onnx   torch.onnx.export at opset N (11, 13 and 17; the QDQ model at 13 and 17,
                       since per-channel QuantizeLinear needs opset 13)
  <model>.input.npy    a fixed float32 input (seeded)
  <model>.output.npy   torch's float32 output for that input
and manifest.txt, one line per exported file: "<onnx file> <input npy> <output npy>".

Everything is seeded, so a rerun writes the same tensors; channel counts are small to keep the
committed data well under 1.5 MB.
"""

import argparse
import io
import os
import sys
import warnings

import numpy as np
import onnx
import torch
import torch.nn as nn
import torch.nn.functional as F

OPSETS = (11, 13, 17)


def randomize_batchnorm(module):
    """Gives every BatchNorm non-trivial statistics, so folding mistakes change the output."""
    for m in module.modules():
        if isinstance(m, nn.BatchNorm2d):
            c = m.num_features
            m.weight.data = torch.rand(c) + 0.5
            m.bias.data = torch.randn(c) * 0.1
            m.running_mean = torch.randn(c) * 0.1
            m.running_var = torch.rand(c) + 0.5


class SmallCnn(nn.Module):
    """conv/bn/relu, maxpool, a residual block with its add, avgpool, flatten, linear.

    The BatchNorm after the residual add cannot be folded into a Conv by the exporter, so the
    ONNX file keeps a BatchNormalization node.
    """

    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(3, 8, 3, padding=1, bias=False)
        self.bn1 = nn.BatchNorm2d(8)
        self.conv2 = nn.Conv2d(8, 8, 3, padding=1)
        self.bn2 = nn.BatchNorm2d(8)
        self.conv3 = nn.Conv2d(8, 8, 3, padding=1)
        self.bn_add = nn.BatchNorm2d(8)
        self.fc = nn.Linear(8 * 4 * 4, 10)

    def forward(self, x):
        x = F.relu(self.bn1(self.conv1(x)))
        x = F.max_pool2d(x, 2)
        y = F.relu(self.bn2(self.conv2(x)))
        x = F.relu(self.bn_add(self.conv3(y) + x))
        x = F.avg_pool2d(x, 2)
        return self.fc(torch.flatten(x, 1))


class DepthwiseSeparable(nn.Module):
    """MobileNet-style: stride-2 conv, stride-2 depthwise conv, pointwise conv, each followed by
    BatchNorm (folded into the conv by the exporter) and ReLU6 (Clip); global average pool,
    flatten, linear. (No F.pad: torch 1.13 exports its pads through ConstantOfShape/Slice/Cast,
    which the importer does not take.)"""

    def __init__(self):
        super().__init__()
        self.stem = nn.Sequential(nn.Conv2d(3, 8, 3, stride=2, padding=1, bias=False),
                                  nn.BatchNorm2d(8), nn.ReLU6())
        self.dw = nn.Sequential(nn.Conv2d(8, 8, 3, stride=2, padding=1, groups=8, bias=False),
                                nn.BatchNorm2d(8), nn.ReLU6())
        self.pw = nn.Sequential(nn.Conv2d(8, 16, 1, bias=False), nn.BatchNorm2d(16), nn.ReLU6())
        self.fc = nn.Linear(16, 4)

    def forward(self, x):
        x = self.stem(x)
        x = self.dw(x)
        x = self.pw(x)
        x = F.adaptive_avg_pool2d(x, 1)
        return self.fc(torch.flatten(x, 1))


class Mlp(nn.Module):
    """Linear (Gemm), ReLU, matmul with a parameter (MatMul) plus bias (Add), an affine
    normalisation (Sub, Mul, Div) and softmax over the last axis."""

    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(16, 32)
        self.w2 = nn.Parameter(torch.randn(32, 24) * 0.2)
        self.b2 = nn.Parameter(torch.randn(24) * 0.1)
        self.shift = nn.Parameter(torch.randn(24) * 0.1)
        self.scale = nn.Parameter(torch.rand(24) + 0.5)
        self.fc3 = nn.Linear(24, 10)

    def forward(self, x):
        x = F.relu(self.fc1(x))
        x = torch.matmul(x, self.w2) + self.b2
        x = (x - self.shift) * self.scale / 4.0
        return F.softmax(self.fc3(x), dim=-1)


class ViewChain(nn.Module):
    """x.view(x.size(0), -1) with a dynamic batch: the exporter writes the Shape, Gather,
    Unsqueeze, Concat chain that feeds Reshape. Two conv branches joined by Concat, a
    Transpose, and an Unsqueeze/Squeeze pair (axes as attribute at opset 11, as input at 13+)."""

    def __init__(self):
        super().__init__()
        self.a = nn.Conv2d(3, 4, 3, padding=1)
        self.b = nn.Conv2d(3, 4, 1)
        self.fc = nn.Linear(8 * 8 * 8, 6)

    def forward(self, x):
        x = torch.cat([F.relu(self.a(x)), self.b(x)], dim=1)
        x = x.transpose(2, 3).contiguous()  # view needs contiguous memory; no ONNX node
        x = x.unsqueeze(1).squeeze(1)
        return self.fc(x.view(x.size(0), -1))


class DynamicBatch(nn.Module):
    """A small conv net whose batch dimension is symbolic ("batch") in the ONNX file."""

    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(3, 4, 3, stride=2, padding=1)
        self.fc = nn.Linear(4, 3)

    def forward(self, x):
        x = F.relu(self.conv(x))
        x = F.adaptive_avg_pool2d(x, 1)
        return self.fc(torch.flatten(x, 1))


class QdqCnn(nn.Module):
    """Quantisation-aware style: fake quantisation of the input (per tensor, uint8), the conv
    weight (per output channel, int8) and the ReLU output. torch.onnx.export writes each fake
    quantisation as a QuantizeLinear/DequantizeLinear pair around the float ops (QDQ format).
    Scales come from the calibration batch, as an observer would compute them."""

    def __init__(self, calibration):
        super().__init__()
        self.conv = nn.Conv2d(3, 4, 3, padding=1)
        self.fc = nn.Linear(4 * 8 * 8, 5)
        w_max = self.conv.weight.detach().abs().amax(dim=(1, 2, 3))
        self.register_buffer("w_scale", w_max / 127.0)
        self.register_buffer("w_zero", torch.zeros(4, dtype=torch.int32))
        lo, hi = float(calibration.min()), float(calibration.max())
        self.x_scale = (hi - lo) / 255.0
        self.x_zero = int(round(-lo / self.x_scale))
        with torch.no_grad():
            y = F.relu(self.conv(calibration))
        self.y_scale = float(y.max()) / 255.0

    def forward(self, x):
        x = torch.fake_quantize_per_tensor_affine(x, self.x_scale, self.x_zero, 0, 255)
        w = torch.fake_quantize_per_channel_affine(self.conv.weight, self.w_scale, self.w_zero, 0,
                                                   -128, 127)
        y = F.relu(F.conv2d(x, w, self.conv.bias, padding=1))
        y = torch.fake_quantize_per_tensor_affine(y, self.y_scale, 0, 0, 255)
        return self.fc(torch.flatten(y, 1))


def build_models():
    """(name, module, input, opsets, dynamic_axes) for every test model, built from seeds."""
    torch.manual_seed(3)
    small_cnn = SmallCnn()
    randomize_batchnorm(small_cnn)
    torch.manual_seed(4)
    dw = DepthwiseSeparable()
    randomize_batchnorm(dw)
    torch.manual_seed(5)
    mlp = Mlp()
    torch.manual_seed(6)
    view = ViewChain()
    torch.manual_seed(7)
    dyn = DynamicBatch()
    torch.manual_seed(8)
    calibration = torch.randn(4, 3, 8, 8)
    qdq = QdqCnn(calibration)

    batch_axis = {"input": {0: "batch"}, "output": {0: "batch"}}
    g = torch.Generator().manual_seed(100)
    return [
        ("small_cnn", small_cnn, torch.randn(1, 3, 16, 16, generator=g), OPSETS, None),
        ("dw_separable", dw, torch.randn(1, 3, 16, 16, generator=g), OPSETS, None),
        ("mlp", mlp, torch.randn(2, 16, generator=g), OPSETS, None),
        ("view_chain", view, torch.randn(1, 3, 8, 8, generator=g), OPSETS, batch_axis),
        ("dynamic_batch", dyn, torch.randn(2, 3, 8, 8, generator=g), OPSETS, batch_axis),
        ("qdq_cnn", qdq, torch.randn(1, 3, 8, 8, generator=g), (13, 17), None),
    ]


def export(module, x, opset, dynamic_axes):
    """The ONNX bytes of `module` traced on `x`, checked with onnx.checker."""
    buf = io.BytesIO()
    torch.onnx.export(module, (x,), buf, opset_version=opset, input_names=["input"],
                      output_names=["output"], dynamic_axes=dynamic_axes,
                      do_constant_folding=True)
    model = onnx.load_from_string(buf.getvalue())
    onnx.checker.check_model(model)
    return buf.getvalue()


def main():
    default_out = os.path.join(os.path.dirname(__file__), "..", "..", "tests", "onnx", "data")
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default=os.path.normpath(default_out))
    args = parser.parse_args()
    warnings.filterwarnings("ignore")  # the exporter's shape-inference chatter
    os.makedirs(args.out, exist_ok=True)

    manifest = []
    for name, module, x, opsets, dynamic_axes in build_models():
        module.eval()
        with torch.no_grad():
            y = module(x)
        np.save(os.path.join(args.out, f"{name}.input.npy"), x.numpy().astype("<f4"))
        np.save(os.path.join(args.out, f"{name}.output.npy"), y.numpy().astype("<f4"))
        for opset in opsets:
            file = f"{name}.op{opset}.onnx"
            with open(os.path.join(args.out, file), "wb") as f:
                f.write(export(module, x, opset, dynamic_axes))
            manifest.append(f"{file} {name}.input.npy {name}.output.npy")
            print(f"wrote {file}", file=sys.stderr)
    with open(os.path.join(args.out, "manifest.txt"), "w") as f:
        f.write("\n".join(manifest) + "\n")


if __name__ == "__main__":
    main()
