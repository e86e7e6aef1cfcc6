#!/usr/bin/python3
"""Regenerates the ONNX model corpus in tests/corpus/data/ with torch.onnx.export.

The corpus is one miniature of each model family the compiler should import (alexnet, vgg,
resnet/resnext/wide_resnet, squeezenet, densenet, inception_v3, googlenet, shufflenet_v2,
mobilenet_v2/v3, mnasnet, efficientnet, regnet, convnext, an LRASPP segmentation model, two
nn.TransformerEncoder variants and a 1-D CNN): the same ONNX op pattern as the full-size model at
a few channels and a small input. corpus_minis.py builds them and documents, per model, which
torchvision pieces it uses and what it keeps of the family's op pattern.

CI does not install torch: the tests read the committed files, and this script is only for
regenerating them (Debian 12: apt-get install python3-torch python3-torchvision python3-onnx).

    /usr/bin/python3 tools/onnx_models/export_corpus.py [--out DIR [--only resnet,lraspp]]
    /usr/bin/python3 tools/onnx_models/export_corpus.py --full DIR [--only resnet50,...]

For every model it writes:
  <model>.op<N>.onnx   torch.onnx.export at opset N (13 and 17), input "input", output "output"
  <model>.input.npy    a fixed float32 input, batch 1 (seeded)
  <model>.output.npy   torch's float32 output for that input (the 'out' tensor for LRASPP)
and manifest.txt, one line per exported file: "<onnx file> <input npy> <output npy>", and
census.txt: per model and opset the input shape, parameter count, file size and op types with
counts (also printed). Every file passes onnx.checker and strict ONNX shape inference, which
must give the output the shape torch computed.

Weights are random (torch.manual_seed per model, never downloaded) and scaled so that the
output depends on the input (see randomize). Every BatchNorm (1d and 2d) gets non-trivial
statistics: those of a seeded calibration batch, perturbed per channel, with a random affine
(see calibrate_batchnorm); the fixed ranges of export_test_models.py do not fit deep models,
whose activations then vanish. LayerNorms get a random affine and ConvNeXt's layer scales
(1e-6 at init) values near 1, so that folding and normalisation mistakes change the output.
Models run in eval() (dropout off, stochastic depth the identity) on one thread with
deterministic algorithms, so a rerun writes identical files.

--full DIR exports the full-size torchvision models of the same families (random weights, the
same per-model files, manifest and census) for benchmarks: several GB, never committed.
Miniatures that had to change for torch 1.13's exporter: none (see corpus_minis.py).
"""

import argparse
import collections
import io
import os
import sys
import warnings
from functools import partial

import numpy as np
import onnx
import torch
import torch.nn as nn
from torchvision import models as tvm
from torchvision.models.convnext import CNBlock

from corpus_blocks import Cnn1d, MainOutput
from corpus_minis import MINIATURES

OPSETS = (13, 17)


def full_transformer_encoder():
    """The full-size counterpart of the transformer_encoder miniature."""
    layer = nn.TransformerEncoderLayer(256, 8, dim_feedforward=1024, batch_first=True)
    return nn.TransformerEncoder(layer, 4)


def full_lraspp():
    """lraspp_mobilenet_v3_large returning its 'out' tensor; weights_backbone=None is the
    deprecated pretrained_backbone=False (no ImageNet backbone download)."""
    return MainOutput(tvm.segmentation.lraspp_mobilenet_v3_large(weights=None,
                                                                 weights_backbone=None), "out")


IMAGE = (1, 3, 224, 224)
# (name, constructor, input shape, seed): the full-size models for --full.
FULL_MODELS = [
    ("alexnet", tvm.alexnet, IMAGE, 110),
    ("vgg11", tvm.vgg11, IMAGE, 111),
    ("resnet50", tvm.resnet50, IMAGE, 112),
    ("resnext50_32x4d", tvm.resnext50_32x4d, IMAGE, 113),
    ("wide_resnet50_2", tvm.wide_resnet50_2, IMAGE, 114),
    ("squeezenet1_1", tvm.squeezenet1_1, IMAGE, 115),
    ("densenet121", tvm.densenet121, IMAGE, 116),
    ("inception_v3", partial(tvm.inception_v3, init_weights=False, aux_logits=False),
     (1, 3, 299, 299), 117),
    ("googlenet", partial(tvm.googlenet, init_weights=False, aux_logits=False), IMAGE, 118),
    ("shufflenet_v2_x1_0", tvm.shufflenet_v2_x1_0, IMAGE, 119),
    ("mobilenet_v2", tvm.mobilenet_v2, IMAGE, 120),
    ("mobilenet_v3_large", tvm.mobilenet_v3_large, IMAGE, 121),
    ("mnasnet1_0", tvm.mnasnet1_0, IMAGE, 122),
    ("efficientnet_b0", tvm.efficientnet_b0, IMAGE, 123),
    ("regnet_y_400mf", tvm.regnet_y_400mf, IMAGE, 124),
    ("convnext_tiny", tvm.convnext_tiny, IMAGE, 125),
    ("lraspp_mobilenet_v3_large", full_lraspp, (1, 3, 520, 520), 126),
    ("transformer_encoder", full_transformer_encoder, (1, 64, 256), 127),
    ("cnn1d", partial(Cnn1d, channels=(128, 128, 256, 512), first_kernel=80, first_stride=4,
                      num_classes=35), (1, 1, 16000), 129),
]


def randomize(module):
    """Random weights that keep activations near unit scale, from torch's global generator
    (seeded by the caller): He-normal conv and Linear weights (with the default init the signal
    shrinks layer by layer until a deep model's output no longer depends on its input, and
    torchvision draws some classifiers with std 0.01) and small random biases, random BatchNorm
    and LayerNorm affines, ConvNeXt layer scales near 1 (1e-6 at init), and attention weights
    drawn per layer (nn.TransformerEncoder deep-copies one layer, so its layers would share
    them)."""
    for m in module.modules():
        if isinstance(m, (nn.Conv1d, nn.Conv2d, nn.Linear)):
            nn.init.kaiming_normal_(m.weight, nonlinearity="relu")
            if m.bias is not None:
                nn.init.uniform_(m.bias, -0.1, 0.1)
        elif isinstance(m, (nn.modules.batchnorm._BatchNorm, nn.LayerNorm)):
            m.weight.data = torch.rand(m.weight.shape) + 0.5
            m.bias.data = torch.randn(m.bias.shape) * 0.1
        elif isinstance(m, nn.MultiheadAttention) and m.in_proj_weight is not None:
            nn.init.xavier_uniform_(m.in_proj_weight)
            if m.in_proj_bias is not None:
                nn.init.uniform_(m.in_proj_bias, -0.1, 0.1)
        elif isinstance(m, CNBlock):
            m.layer_scale.data = torch.rand(m.layer_scale.shape) * 0.5 + 0.5


def calibrate_batchnorm(module, batch):
    """Sets every BatchNorm's running statistics to those of its input on `batch`, then moves
    each channel's mean by N(0, 0.1) standard deviations and scales its variance by U(0.5, 1.5):
    non-trivial statistics (a folding mistake changes the output) that still normalise."""
    norms = [m for m in module.modules() if isinstance(m, nn.modules.batchnorm._BatchNorm)]
    momenta = [m.momentum for m in norms]
    module.eval()
    for m in norms:
        m.reset_running_stats()
        m.momentum = None  # a cumulative average: after one batch, its statistics
        m.train()
    with torch.no_grad():
        module(batch)
    for m, momentum in zip(norms, momenta):
        m.eval()
        m.momentum = momentum
        m.running_mean += torch.randn(m.num_features) * 0.1 * m.running_var.sqrt()
        m.running_var *= torch.rand(m.num_features) + 0.5


def build(constructor, shape, seed):
    """The seeded, randomised eval() module, its input and torch's output for it. The
    BatchNorm statistics come from a batch of 2 other seeded inputs."""
    torch.manual_seed(seed)
    module = constructor()
    randomize(module)
    inputs = torch.Generator().manual_seed(seed)
    x = torch.randn(shape, generator=inputs)
    calibrate_batchnorm(module, torch.randn((2,) + tuple(shape[1:]), generator=inputs))
    module.eval()
    with torch.no_grad():
        y = module(x)
    return module, x, y


def export(module, x, y, opset):
    """The ONNX bytes of `module` traced on `x`, checked with onnx.checker and strict shape
    inference, which must give the output the shape of torch's output `y`."""
    buf = io.BytesIO()
    torch.onnx.export(module, (x,), buf, opset_version=opset, input_names=["input"],
                      output_names=["output"], do_constant_folding=True)
    data = buf.getvalue()
    model = onnx.load_from_string(data)
    onnx.checker.check_model(model)
    inferred = onnx.shape_inference.infer_shapes(model, check_type=True, strict_mode=True)
    dims = [d.dim_value for d in inferred.graph.output[0].type.tensor_type.shape.dim]
    if dims != list(y.shape):
        raise RuntimeError(f"opset {opset}: shape inference gives output {dims}, torch "
                           f"{list(y.shape)}")
    return data


def census_line(name, x, params, opset, data):
    """One census row: model, opset, input shape, parameters, bytes, op types with counts."""
    ops = collections.Counter(n.op_type for n in onnx.load_from_string(data).graph.node)
    shape = "x".join(str(d) for d in x.shape)
    ops_text = " ".join(f"{op}:{n}" for op, n in sorted(ops.items()))
    return f"{name:34} {opset:5} {shape:>14} {params:>10} {len(data):>10}  {ops_text}"


def export_all(models, out_dir):
    """Writes every model's files, manifest.txt and census.txt into out_dir; returns the census."""
    os.makedirs(out_dir, exist_ok=True)
    manifest = []
    census = [f"# {'model':32} {'opset':5} {'input':>14} {'params':>10} {'bytes':>10}  ops"]
    for name, constructor, shape, seed in models:
        module, x, y = build(constructor, shape, seed)
        params = sum(p.numel() for p in module.parameters())
        np.save(os.path.join(out_dir, f"{name}.input.npy"), x.numpy().astype("<f4"))
        np.save(os.path.join(out_dir, f"{name}.output.npy"), y.numpy().astype("<f4"))
        for opset in OPSETS:
            file = f"{name}.op{opset}.onnx"
            data = export(module, x, y, opset)
            with open(os.path.join(out_dir, file), "wb") as f:
                f.write(data)
            manifest.append(f"{file} {name}.input.npy {name}.output.npy")
            census.append(census_line(name, x, params, opset, data))
            print(f"wrote {file}", file=sys.stderr)
    with open(os.path.join(out_dir, "manifest.txt"), "w") as f:
        f.write("\n".join(manifest) + "\n")
    with open(os.path.join(out_dir, "census.txt"), "w") as f:
        f.write("\n".join(census) + "\n")
    return census


def select(models, only):
    """The models named in the comma-separated `only` (all if empty); unknown names fail."""
    if not only:
        return models
    names = only.split(",")
    unknown = set(names) - {m[0] for m in models}
    if unknown:
        sys.exit(f"unknown model(s): {', '.join(sorted(unknown))}; "
                 f"known: {', '.join(m[0] for m in models)}")
    return [m for m in models if m[0] in names]


def main():
    default_out = os.path.join(os.path.dirname(__file__), "..", "..", "tests", "corpus", "data")
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", help="directory for the miniatures (default: tests/corpus/data)")
    parser.add_argument("--full", metavar="DIR",
                        help="export the full-size models into DIR instead (several GB)")
    parser.add_argument("--only", default="", help="comma-separated model names")
    args = parser.parse_args()
    warnings.filterwarnings("ignore")  # the exporter's shape-inference chatter
    torch.set_num_threads(1)
    torch.use_deterministic_algorithms(True)

    if args.only and not (args.full or args.out):
        sys.exit("--only needs --out or --full: it would cut the committed manifest and census")
    if args.full:
        models, out_dir = select(FULL_MODELS, args.only), args.full
    else:
        models, out_dir = select(MINIATURES, args.only), args.out or os.path.normpath(default_out)
    census = export_all(models, out_dir)
    print("\n".join(census))


if __name__ == "__main__":
    main()
