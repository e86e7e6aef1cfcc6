"""The miniature models of the ONNX model corpus (tests/corpus/data/), built from torchvision.

Each miniature keeps the ONNX op pattern of its full-size family model (the same op types in the
same structures: residual adds, channel concats, squeeze-excite, channel shuffle, grouped and
depthwise convs...) at a few channels and a small input, so that the whole corpus stays a few MB.
Where torchvision's classes are configurable the miniature is built from them; where a class
hard-codes its widths, a subclass in corpus_blocks.py sets small layers built from torchvision's
blocks and keeps torchvision's forward(), so the traced ops are torchvision's own. Each
builder's docstring says which torchvision pieces it uses and what it keeps of the family's op
pattern.

Builders take no arguments and return the module; MINIATURES lists them with their input shape
and seed. export_corpus.py seeds torch before calling them and randomises the normalisation
and Linear layers afterwards.
"""

from functools import partial

import torch.nn as nn
from torchvision import models as tvm
from torchvision.models import resnet as tv_resnet
from torchvision.models._utils import IntermediateLayerGetter
from torchvision.models.convnext import CNBlockConfig
from torchvision.models.efficientnet import MBConvConfig
from torchvision.models.mobilenetv3 import InvertedResidualConfig
from torchvision.models.regnet import BlockParams
from torchvision.models.segmentation.lraspp import LRASPP
from torchvision.ops.misc import Conv2dNormActivation

from corpus_blocks import NUM_CLASSES, Cnn1d, MainOutput, MiniAlexNet, MiniGoogLeNet, \
    MiniInception3, MiniMnasNet, MiniResNet, MiniSqueezeNet, MiniVgg



def alexnet():
    """torchvision.models.AlexNet's forward with its layer sequence at few channels (the class
    hard-codes 64..256 channels and 4096-wide Linear). The input (96x96) makes the features 2x2,
    so AdaptiveAvgPool2d((2,2)) is the identity AveragePool, as (6,6) is at 224x224."""
    return MiniAlexNet()


def vgg():
    """vgg11 ("A": 8 3x3 convs, 5 max pools) from torchvision.models.vgg.make_layers at 1/16 to
    1/32 of the channels, in VGG's forward; the classifier keeps its three Linear at width 32.
    A 64x64 input leaves 2x2 features, so the adaptive pool is an identity AveragePool."""
    return MiniVgg([4, "M", 8, "M", 8, 8, "M", 16, 16, "M", 16, 16, "M"])


def resnet():
    """resnet50's pattern: torchvision's Bottleneck (1x1, 3x3, 1x1, expansion 4, 1x1 strided
    downsample on the skip) in four stages [2,2,1,1] (full: [3,4,6,3]) at planes 4..8."""
    return MiniResNet(tv_resnet.Bottleneck, [2, 2, 1, 1], [4, 8, 8, 8])


def resnext():
    """resnext50_32x4d's pattern: the same Bottleneck with grouped 3x3 convs; groups=4 and
    width_per_group=32 give a bottleneck twice as wide as `planes`, as 32x4d does."""
    return MiniResNet(tv_resnet.Bottleneck, [2, 2, 1, 1], [4, 8, 8, 8], groups=4,
                      width_per_group=32)


def wide_resnet():
    """wide_resnet50_2's pattern: the Bottleneck with width_per_group=128 (a 3x3 twice as wide
    as `planes`), ungrouped."""
    return MiniResNet(tv_resnet.Bottleneck, [2, 2, 1, 1], [4, 8, 8, 8],
                      width_per_group=128)


def squeezenet():
    """squeezenet1_1: SqueezeNet's forward with the 1.1 sequence (3x3/2 stem, ceil-mode max
    pools, 8 Fire modules whose 1x1 and 3x3 expands meet in a channel Concat, conv classifier,
    global average pool) from torchvision's Fire at 1/8 of the channels."""
    return MiniSqueezeNet()


def densenet():
    """densenet121's pattern from torchvision.models.DenseNet(growth_rate=4, block_config=
    (3,3,3,3), num_init_features=8, bn_size=2): each dense layer concats all earlier features
    and applies BatchNormalization to the concat (not foldable into a conv), transitions with
    2x2 average pools (Pad + AveragePool in the export), a final BatchNorm-ReLU."""
    return tvm.DenseNet(growth_rate=4, block_config=(3, 3, 3, 3), num_init_features=8,
                        bn_size=2, num_classes=NUM_CLASSES)


def inception_v3():
    """inception_v3's pattern: Inception3's forward and stem (unpadded 3x3/2 and 3x3 convs, 3x3/2
    max pools), then one each of InceptionA (5x5; 3x3 avg pool with padding, exported as Pad +
    AveragePool), B (3x3/2 conv next to a 3x3/2 max pool), C (asymmetric 1x7/7x1 chains), D and
    E (1x3 and 3x1 branches concatenated inside the branch) with torchvision's BasicConv2d and
    forward()s (corpus_blocks.MiniInception*: the torchvision blocks hard-code 48..448 channels).
    The input (107x107, full 299) leaves 2x2 after the last reduction, as 8x8 in the full model."""
    return MiniInception3()


def googlenet():
    """googlenet: GoogLeNet's full layer sequence (all nine Inception blocks, no aux heads as in
    eval) built from torchvision's Inception and BasicConv2d at 16..36 channels."""
    return MiniGoogLeNet()


def shufflenet_v2():
    """shufflenet_v2_x1_0's pattern from torchvision.models.ShuffleNetV2(stages_repeats=[2,2,2],
    stages_out_channels=[8,16,32,48,64]) (full: [4,8,4], [24,116,232,464,1024]): stride-2 units
    with two branches, stride-1 units that chunk the channels in two (exported as the Shape,
    Gather, Div, Mul, Slice arithmetic), Concat, the Reshape-Transpose-Reshape channel shuffle,
    and the global mean (ReduceMean)."""
    return tvm.ShuffleNetV2([2, 2, 2], [8, 16, 32, 48, 64], num_classes=NUM_CLASSES)


def mobilenet_v2():
    """mobilenet_v2's pattern from torchvision.models.MobileNetV2 (32-channel stem) with seven
    inverted-residual stages [t, c, n, s] at the full model's strides, 8..24 channels, expansion
    4 (full: 6) and n <= 2: ReLU6 as Clip, depthwise 3x3, residual Add. MobileNetV2 fixes the
    last 1x1 conv at 1280 channels; the miniature swaps it (and the classifier's Linear) for a
    32-channel Conv2dNormActivation with ReLU6, the same ops."""
    setting = [[1, 8, 1, 1], [4, 8, 2, 2], [4, 16, 2, 2], [4, 16, 1, 2], [4, 16, 1, 1],
               [4, 24, 1, 2], [4, 24, 1, 1]]
    model = tvm.MobileNetV2(num_classes=NUM_CLASSES, inverted_residual_setting=setting)
    model.features[-1] = Conv2dNormActivation(24, 32, kernel_size=1, norm_layer=nn.BatchNorm2d,
                                              activation_layer=nn.ReLU6)
    model.classifier[-1] = nn.Linear(32, NUM_CLASSES)
    return model


def mobilenet_v3_setting(dilation=1):
    """A small InvertedResidualConfig list with each kind of mobilenet_v3_large block: no
    expansion, ReLU, squeeze-excite (HardSigmoid scale) with ReLU and with HardSwish, 3x3 and 5x5
    depthwise, residual and strided; the last stage dilated when `dilation` is 2 (lraspp)."""
    cnf = partial(InvertedResidualConfig, width_mult=1.0)
    return [
        cnf(8, 3, 8, 8, False, "RE", 1, 1),
        cnf(8, 3, 24, 8, False, "RE", 2, 1),  # C1
        cnf(8, 5, 24, 16, True, "RE", 2, 1),  # C2
        cnf(16, 5, 32, 16, True, "RE", 1, 1),
        cnf(16, 3, 32, 16, False, "HS", 2, 1),  # C3
        cnf(16, 3, 32, 16, False, "HS", 1, 1),
        cnf(16, 3, 32, 16, True, "HS", 1, 1),
        cnf(16, 5, 32, 16, True, "HS", 2, dilation),  # C4
        cnf(16, 5, 32, 16, True, "HS", 1, dilation),
    ]


def mobilenet_v3():
    """mobilenet_v3_large's pattern from torchvision.models.MobileNetV3 with
    mobilenet_v3_setting(): HardSwish (HardSigmoid + Mul at opset 13), squeeze-excite as
    GlobalAveragePool, 1x1 conv, ReLU, 1x1 conv, HardSigmoid, broadcast Mul; the head's
    Linear-HardSwish-Linear."""
    return tvm.MobileNetV3(mobilenet_v3_setting(), last_channel=32, num_classes=NUM_CLASSES)


def mnasnet():
    """mnasnet1_0's pattern (ReLU inverted residuals with 3x3 and 5x5 depthwise convs, residual
    Add where shapes allow, ReduceMean instead of a global pool) from torchvision's _stack."""
    return MiniMnasNet()


def efficientnet():
    """efficientnet_b0's pattern from torchvision.models.EfficientNet with seven MBConvConfig
    stages at b0's kernels and strides, expansion 3-4 (b0: 6), 8..24 channels, 1-2 layers each:
    SiLU (Sigmoid + Mul), squeeze-excite with SiLU and Sigmoid scale, residual Add (stochastic
    depth is the identity in eval); last conv 48 channels."""
    setting = [MBConvConfig(1, 3, 1, 8, 8, 1), MBConvConfig(4, 3, 2, 8, 8, 2),
               MBConvConfig(4, 5, 2, 8, 16, 1), MBConvConfig(3, 3, 2, 16, 16, 1),
               MBConvConfig(3, 5, 1, 16, 16, 1), MBConvConfig(3, 5, 2, 16, 24, 1),
               MBConvConfig(3, 3, 1, 24, 24, 1)]
    return tvm.EfficientNet(setting, dropout=0.2, num_classes=NUM_CLASSES, last_channel=48)


def regnet():
    """regnet_y_400mf's pattern from torchvision.models.RegNet with BlockParams(depths=[1,2,1,1],
    widths=[8,16,24,32], group_widths=[4,4,8,8], bottleneck 1, strides 2, se_ratio=0.25): the
    ResBottleneckBlock with grouped 3x3 conv, squeeze-excite (ReLU, Sigmoid scale, Mul),
    projection shortcut, Add, ReLU."""
    params = BlockParams(depths=[1, 2, 1, 1], widths=[8, 16, 24, 32], group_widths=[4, 4, 8, 8],
                         bottleneck_multipliers=[1.0] * 4, strides=[2] * 4, se_ratio=0.25)
    return tvm.RegNet(params, num_classes=NUM_CLASSES, stem_width=8)


def convnext():
    """convnext_tiny's pattern from torchvision.models.ConvNeXt with four CNBlockConfig stages of
    one block each at 8..24 channels: 4x4/4 stem with LayerNorm2d (Transpose, LayerNorm,
    Transpose), CNBlock (7x7 depthwise, Transpose, LayerNorm, Linear as MatMul + Add, GELU as
    Erf, Linear, Transpose, layer-scale Mul, residual Add), LayerNorm2d + 2x2/2 downsampling,
    LayerNorm-Flatten-Linear head. LayerNorm is decomposed (ReduceMean, Sub, Pow, Sqrt, Div) at
    opset 13 and LayerNormalization at 17. export_corpus.py randomises the layer scales (1e-6 at
    init) so the blocks are not a no-op."""
    setting = [CNBlockConfig(8, 12, 1), CNBlockConfig(12, 16, 1), CNBlockConfig(16, 24, 1),
               CNBlockConfig(24, None, 1)]
    return tvm.ConvNeXt(setting, stochastic_depth_prob=0.0, num_classes=NUM_CLASSES)


def lraspp():
    """lraspp_mobilenet_v3_large's pattern: torchvision's LRASPP head (1x1 conv-BN-ReLU, a
    GlobalAveragePool-1x1 conv-Sigmoid scale branch and Mul, bilinear Resize to the low-level
    size, two 1x1 classifiers and Add, bilinear Resize to the input size) on a MobileNetV3
    backbone with mobilenet_v3_setting(dilation=2) through IntermediateLayerGetter, as
    torchvision's _lraspp_mobilenetv3 builds it, with inter_channels=16 (128 in the full model).
    Wrapped to return the 'out' tensor."""
    backbone = tvm.MobileNetV3(mobilenet_v3_setting(dilation=2), last_channel=32).features
    stage_indices = ([0] + [i for i, b in enumerate(backbone) if getattr(b, "_is_cn", False)]
                     + [len(backbone) - 1])
    low_pos, high_pos = stage_indices[-4], stage_indices[-1]  # C2 (stride 8), C5 (stride 16)
    getter = IntermediateLayerGetter(backbone, return_layers={str(low_pos): "low",
                                                              str(high_pos): "high"})
    head = LRASPP(getter, backbone[low_pos].out_channels, backbone[high_pos].out_channels,
                  num_classes=3, inter_channels=16)
    return MainOutput(head, "out")


def transformer_encoder():
    """nn.TransformerEncoder (post-norm, ReLU): 2 layers of d_model=32, nhead=4,
    dim_feedforward=64, batch_first=True on [1,16,32]."""
    layer = nn.TransformerEncoderLayer(32, 4, dim_feedforward=64, batch_first=True)
    return nn.TransformerEncoder(layer, 2)


def transformer_encoder_gelu_prenorm():
    """nn.TransformerEncoder with activation='gelu' (Erf) and norm_first=True, plus a final
    LayerNorm as pre-norm stacks have: 2 layers of d_model=32, nhead=4, dim_feedforward=64."""
    layer = nn.TransformerEncoderLayer(32, 4, dim_feedforward=64, activation="gelu",
                                       batch_first=True, norm_first=True)
    return nn.TransformerEncoder(layer, 2, norm=nn.LayerNorm(32))


def cnn1d():
    """The M5 raw-waveform CNN shape (corpus_blocks.Cnn1d: Conv1d-BatchNorm1d-ReLU-MaxPool1d x4,
    AdaptiveAvgPool1d, Linear) at 8..32 channels on a 2048-sample input, which leaves 3
    samples before the average pool, as 16000 does in the full model."""
    return Cnn1d(channels=(8, 8, 16, 32), first_kernel=8, first_stride=2)


# (name, builder, input shape, seed): the corpus, in the order of the manifest.
MINIATURES = [
    ("alexnet", alexnet, (1, 3, 96, 96), 10),
    ("vgg", vgg, (1, 3, 64, 64), 11),
    ("resnet", resnet, (1, 3, 48, 48), 12),
    ("resnext", resnext, (1, 3, 48, 48), 13),
    ("wide_resnet", wide_resnet, (1, 3, 48, 48), 14),
    ("squeezenet", squeezenet, (1, 3, 48, 48), 15),
    ("densenet", densenet, (1, 3, 64, 64), 16),
    ("inception_v3", inception_v3, (1, 3, 107, 107), 17),
    ("googlenet", googlenet, (1, 3, 48, 48), 18),
    ("shufflenet_v2", shufflenet_v2, (1, 3, 48, 48), 19),
    ("mobilenet_v2", mobilenet_v2, (1, 3, 48, 48), 20),
    ("mobilenet_v3", mobilenet_v3, (1, 3, 48, 48), 21),
    ("mnasnet", mnasnet, (1, 3, 48, 48), 22),
    ("efficientnet", efficientnet, (1, 3, 48, 48), 23),
    ("regnet", regnet, (1, 3, 48, 48), 24),
    ("convnext", convnext, (1, 3, 64, 64), 25),
    ("lraspp", lraspp, (1, 3, 48, 48), 26),
    ("transformer_encoder", transformer_encoder, (1, 16, 32), 27),
    ("transformer_encoder_gelu_prenorm", transformer_encoder_gelu_prenorm, (1, 16, 32), 28),
    ("cnn1d", cnn1d, (1, 1, 2048), 29),
]
