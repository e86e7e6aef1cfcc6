"""Small-width versions of the torchvision classes that hard-code their widths, for the corpus.

Each Mini* class subclasses the torchvision class (AlexNet, VGG, ResNet, SqueezeNet, Inception3
and its InceptionA..E blocks, GoogLeNet, MNASNet), builds the same layers under the same
attribute names at a few channels from torchvision's own blocks (Bottleneck, Fire, Inception,
BasicConv2d, _stack...), and keeps torchvision's forward(), so the exported ops are
torchvision's. corpus_minis.py says what each miniature keeps of its family. Cnn1d is the 1-D
audio CNN of the corpus, and MainOutput picks the main tensor out of a model returning a dict.
"""

from functools import partial

import torch.nn as nn
from torchvision import models as tvm
from torchvision.models import inception as tv_inception
from torchvision.models import mnasnet as tv_mnasnet
from torchvision.models import resnet as tv_resnet
from torchvision.models import squeezenet as tv_squeezenet
from torchvision.models import vgg as tv_vgg
from torchvision.models.googlenet import GoogLeNet, Inception

NUM_CLASSES = 10
_conv = tv_inception.BasicConv2d


class MiniInceptionA(tv_inception.InceptionA):
    """1x1 | 1x1-5x5 | 1x1-3x3-3x3 | 3x3 avg pool (padding 1)-1x1, concatenated."""

    def __init__(self, in_channels, c1, c5, c3, pool):
        nn.Module.__init__(self)
        self.branch1x1 = _conv(in_channels, c1, kernel_size=1)
        self.branch5x5_1 = _conv(in_channels, c5[0], kernel_size=1)
        self.branch5x5_2 = _conv(c5[0], c5[1], kernel_size=5, padding=2)
        self.branch3x3dbl_1 = _conv(in_channels, c3[0], kernel_size=1)
        self.branch3x3dbl_2 = _conv(c3[0], c3[1], kernel_size=3, padding=1)
        self.branch3x3dbl_3 = _conv(c3[1], c3[1], kernel_size=3, padding=1)
        self.branch_pool = _conv(in_channels, pool, kernel_size=1)


class MiniInceptionB(tv_inception.InceptionB):
    """Grid reduction: 3x3/2 | 1x1-3x3-3x3/2 | 3x3/2 max pool, concatenated."""

    def __init__(self, in_channels, c3, c3dbl):
        nn.Module.__init__(self)
        self.branch3x3 = _conv(in_channels, c3, kernel_size=3, stride=2)
        self.branch3x3dbl_1 = _conv(in_channels, c3dbl[0], kernel_size=1)
        self.branch3x3dbl_2 = _conv(c3dbl[0], c3dbl[1], kernel_size=3, padding=1)
        self.branch3x3dbl_3 = _conv(c3dbl[1], c3dbl[1], kernel_size=3, stride=2)


class MiniInceptionC(tv_inception.InceptionC):
    """1x1 | 1x1-1x7-7x1 | 1x1-7x1-1x7-7x1-1x7 | avg pool-1x1, concatenated (4 * out)."""

    def __init__(self, in_channels, c7, out):
        nn.Module.__init__(self)
        row = dict(kernel_size=(1, 7), padding=(0, 3))
        col = dict(kernel_size=(7, 1), padding=(3, 0))
        self.branch1x1 = _conv(in_channels, out, kernel_size=1)
        self.branch7x7_1 = _conv(in_channels, c7, kernel_size=1)
        self.branch7x7_2 = _conv(c7, c7, **row)
        self.branch7x7_3 = _conv(c7, out, **col)
        self.branch7x7dbl_1 = _conv(in_channels, c7, kernel_size=1)
        self.branch7x7dbl_2 = _conv(c7, c7, **col)
        self.branch7x7dbl_3 = _conv(c7, c7, **row)
        self.branch7x7dbl_4 = _conv(c7, c7, **col)
        self.branch7x7dbl_5 = _conv(c7, out, **row)
        self.branch_pool = _conv(in_channels, out, kernel_size=1)


class MiniInceptionD(tv_inception.InceptionD):
    """Grid reduction: 1x1-3x3/2 | 1x1-1x7-7x1-3x3/2 | 3x3/2 max pool, concatenated."""

    def __init__(self, in_channels, c3, c7):
        nn.Module.__init__(self)
        self.branch3x3_1 = _conv(in_channels, c3[0], kernel_size=1)
        self.branch3x3_2 = _conv(c3[0], c3[1], kernel_size=3, stride=2)
        self.branch7x7x3_1 = _conv(in_channels, c7, kernel_size=1)
        self.branch7x7x3_2 = _conv(c7, c7, kernel_size=(1, 7), padding=(0, 3))
        self.branch7x7x3_3 = _conv(c7, c7, kernel_size=(7, 1), padding=(3, 0))
        self.branch7x7x3_4 = _conv(c7, c7, kernel_size=3, stride=2)


class MiniInceptionE(tv_inception.InceptionE):
    """1x1 | 1x1-(1x3, 3x1) | 1x1-3x3-(1x3, 3x1) | avg pool-1x1; the pairs concatenated inside
    their branch, then all four."""

    def __init__(self, in_channels, c1, c3, c3dbl, pool):
        nn.Module.__init__(self)
        self.branch1x1 = _conv(in_channels, c1, kernel_size=1)
        self.branch3x3_1 = _conv(in_channels, c3[0], kernel_size=1)
        self.branch3x3_2a = _conv(c3[0], c3[1], kernel_size=(1, 3), padding=(0, 1))
        self.branch3x3_2b = _conv(c3[0], c3[1], kernel_size=(3, 1), padding=(1, 0))
        self.branch3x3dbl_1 = _conv(in_channels, c3dbl[0], kernel_size=1)
        self.branch3x3dbl_2 = _conv(c3dbl[0], c3dbl[1], kernel_size=3, padding=1)
        self.branch3x3dbl_3a = _conv(c3dbl[1], c3dbl[1], kernel_size=(1, 3), padding=(0, 1))
        self.branch3x3dbl_3b = _conv(c3dbl[1], c3dbl[1], kernel_size=(3, 1), padding=(1, 0))
        self.branch_pool = _conv(in_channels, pool, kernel_size=1)


class MiniAlexNet(tvm.AlexNet):
    """AlexNet's layer sequence (11x11/4, 5x5, three 3x3 convs, three 3x3/2 max pools, adaptive
    average pool, three Linear with dropout) at 1/8 to 1/16 of the channels."""

    def __init__(self):
        nn.Module.__init__(self)
        self.features = nn.Sequential(
            nn.Conv2d(3, 8, 11, stride=4, padding=2), nn.ReLU(inplace=True),
            nn.MaxPool2d(3, stride=2),
            nn.Conv2d(8, 16, 5, padding=2), nn.ReLU(inplace=True),
            nn.MaxPool2d(3, stride=2),
            nn.Conv2d(16, 24, 3, padding=1), nn.ReLU(inplace=True),
            nn.Conv2d(24, 16, 3, padding=1), nn.ReLU(inplace=True),
            nn.Conv2d(16, 16, 3, padding=1), nn.ReLU(inplace=True),
            nn.MaxPool2d(3, stride=2))
        self.avgpool = nn.AdaptiveAvgPool2d((2, 2))
        self.classifier = nn.Sequential(
            nn.Dropout(), nn.Linear(16 * 2 * 2, 32), nn.ReLU(inplace=True),
            nn.Dropout(), nn.Linear(32, 32), nn.ReLU(inplace=True), nn.Linear(32, NUM_CLASSES))


class MiniVgg(tv_vgg.VGG):
    """VGG's forward: features, adaptive average pool, flatten, Linear-ReLU-Dropout x2, Linear."""

    def __init__(self, cfg):
        nn.Module.__init__(self)
        self.features = tv_vgg.make_layers(cfg)
        width = [c for c in cfg if c != "M"][-1]
        self.avgpool = nn.AdaptiveAvgPool2d((2, 2))
        self.classifier = nn.Sequential(
            nn.Linear(width * 2 * 2, 32), nn.ReLU(True), nn.Dropout(),
            nn.Linear(32, 32), nn.ReLU(True), nn.Dropout(), nn.Linear(32, NUM_CLASSES))


class MiniResNet(tv_resnet.ResNet):
    """torchvision's ResNet with a narrow stem and narrow stages: _make_layer and forward are
    torchvision's, only the widths (hard-coded 64..512 there) are parameters."""

    def __init__(self, block, layers, planes, stem=8, groups=1, width_per_group=64):
        nn.Module.__init__(self)
        self._norm_layer = nn.BatchNorm2d
        self.inplanes, self.dilation = stem, 1
        self.groups, self.base_width = groups, width_per_group
        self.conv1 = nn.Conv2d(3, stem, kernel_size=7, stride=2, padding=3, bias=False)
        self.bn1 = nn.BatchNorm2d(stem)
        self.relu = nn.ReLU(inplace=True)
        self.maxpool = nn.MaxPool2d(kernel_size=3, stride=2, padding=1)
        self.layer1 = self._make_layer(block, planes[0], layers[0])
        self.layer2 = self._make_layer(block, planes[1], layers[1], stride=2)
        self.layer3 = self._make_layer(block, planes[2], layers[2], stride=2)
        self.layer4 = self._make_layer(block, planes[3], layers[3], stride=2)
        self.avgpool = nn.AdaptiveAvgPool2d((1, 1))
        self.fc = nn.Linear(planes[3] * block.expansion, NUM_CLASSES)


class MiniSqueezeNet(tv_squeezenet.SqueezeNet):
    """SqueezeNet 1.1's layer sequence with torchvision's Fire at 1/8 of the channels."""

    def __init__(self):
        nn.Module.__init__(self)
        fire = tv_squeezenet.Fire
        self.num_classes = NUM_CLASSES
        self.features = nn.Sequential(
            nn.Conv2d(3, 8, kernel_size=3, stride=2), nn.ReLU(inplace=True),
            nn.MaxPool2d(kernel_size=3, stride=2, ceil_mode=True),
            fire(8, 2, 8, 8), fire(16, 2, 8, 8),
            nn.MaxPool2d(kernel_size=3, stride=2, ceil_mode=True),
            fire(16, 4, 16, 16), fire(32, 4, 16, 16),
            nn.MaxPool2d(kernel_size=3, stride=2, ceil_mode=True),
            fire(32, 6, 24, 24), fire(48, 6, 24, 24), fire(48, 8, 32, 32), fire(64, 8, 32, 32))
        self.classifier = nn.Sequential(
            nn.Dropout(p=0.5), nn.Conv2d(64, NUM_CLASSES, kernel_size=1), nn.ReLU(inplace=True),
            nn.AdaptiveAvgPool2d((1, 1)))


class MiniInception3(tv_inception.Inception3):
    """Inception3's forward with its stem, one block of each kind (A, B, C, D, E) at few
    channels, and identities for the repeated blocks (Mixed_5c, 5d, 6c, 6d, 6e, 7c)."""

    def __init__(self):
        nn.Module.__init__(self)
        conv = tv_inception.BasicConv2d
        self.aux_logits, self.transform_input, self.AuxLogits = False, False, None
        self.Conv2d_1a_3x3 = conv(3, 8, kernel_size=3, stride=2)
        self.Conv2d_2a_3x3 = conv(8, 8, kernel_size=3)
        self.Conv2d_2b_3x3 = conv(8, 16, kernel_size=3, padding=1)
        self.maxpool1 = nn.MaxPool2d(kernel_size=3, stride=2)
        self.Conv2d_3b_1x1 = conv(16, 16, kernel_size=1)
        self.Conv2d_4a_3x3 = conv(16, 16, kernel_size=3)
        self.maxpool2 = nn.MaxPool2d(kernel_size=3, stride=2)
        self.Mixed_5b = MiniInceptionA(16, c1=8, c5=(4, 8), c3=(4, 8), pool=8)  # -> 32
        self.Mixed_6a = MiniInceptionB(32, c3=8, c3dbl=(4, 8))  # -> 48
        self.Mixed_6b = MiniInceptionC(48, c7=4, out=8)  # -> 32
        self.Mixed_7a = MiniInceptionD(32, c3=(8, 16), c7=8)  # -> 56
        self.Mixed_7b = MiniInceptionE(56, c1=8, c3=(8, 8), c3dbl=(8, 8), pool=8)  # -> 48
        for name in ("Mixed_5c", "Mixed_5d", "Mixed_6c", "Mixed_6d", "Mixed_6e", "Mixed_7c"):
            setattr(self, name, nn.Identity())
        self.avgpool = nn.AdaptiveAvgPool2d((1, 1))
        self.dropout = nn.Dropout(p=0.5)
        self.fc = nn.Linear(48, NUM_CLASSES)


class MiniGoogLeNet(GoogLeNet):
    """GoogLeNet's forward and layer sequence with torchvision's Inception block at few
    channels: 7x7/2 stem, ceil-mode max pools, nine Inception blocks (1x1, 1x1-3x3, 1x1-3x3,
    3x3 max pool-1x1, Concat)."""

    def __init__(self):
        nn.Module.__init__(self)
        conv, inception = tv_inception.BasicConv2d, Inception
        self.aux_logits, self.transform_input, self.aux1, self.aux2 = False, False, None, None
        self.conv1 = conv(3, 8, kernel_size=7, stride=2, padding=3)
        self.maxpool1 = nn.MaxPool2d(3, stride=2, ceil_mode=True)
        self.conv2 = conv(8, 8, kernel_size=1)
        self.conv3 = conv(8, 16, kernel_size=3, padding=1)
        self.maxpool2 = nn.MaxPool2d(3, stride=2, ceil_mode=True)
        self.inception3a = inception(16, 4, 4, 8, 2, 4, 4)  # -> 20
        self.inception3b = inception(20, 8, 4, 8, 2, 4, 4)  # -> 24
        self.maxpool3 = nn.MaxPool2d(3, stride=2, ceil_mode=True)
        self.inception4a = inception(24, 8, 4, 8, 2, 4, 4)  # -> 24
        self.inception4b = inception(24, 8, 4, 8, 2, 4, 4)
        self.inception4c = inception(24, 8, 4, 8, 2, 4, 4)
        self.inception4d = inception(24, 8, 4, 8, 2, 4, 4)
        self.inception4e = inception(24, 8, 6, 12, 2, 4, 8)  # -> 32
        self.maxpool4 = nn.MaxPool2d(2, stride=2, ceil_mode=True)
        self.inception5a = inception(32, 8, 6, 12, 2, 4, 8)  # -> 32
        self.inception5b = inception(32, 12, 6, 12, 2, 4, 8)  # -> 36
        self.avgpool = nn.AdaptiveAvgPool2d((1, 1))
        self.dropout = nn.Dropout(p=0.2)
        self.fc = nn.Linear(36, NUM_CLASSES)


class MiniMnasNet(tv_mnasnet.MNASNet):
    """MNASNet's forward and layer sequence (stem conv, depthwise separable conv without skip,
    six stacks of torchvision's _InvertedResidual, 1x1 conv, ReLU, spatial mean, Linear) at
    8..24 channels, expansion 3 and 1-2 blocks per stack; the last conv has 48 channels (1280
    in MNASNet)."""

    def __init__(self):
        nn.Module.__init__(self)
        stack, bn = partial(tv_mnasnet._stack, bn_momentum=0.1), nn.BatchNorm2d
        self.alpha, self.num_classes = 0.25, NUM_CLASSES
        self.layers = nn.Sequential(
            nn.Conv2d(3, 8, 3, padding=1, stride=2, bias=False), bn(8), nn.ReLU(inplace=True),
            nn.Conv2d(8, 8, 3, padding=1, stride=1, groups=8, bias=False), bn(8),
            nn.ReLU(inplace=True),
            nn.Conv2d(8, 8, 1, padding=0, stride=1, bias=False), bn(8),
            stack(8, 8, 3, 2, 3, 2), stack(8, 16, 5, 2, 3, 1), stack(16, 16, 5, 2, 3, 2),
            stack(16, 16, 3, 1, 3, 1), stack(16, 24, 5, 2, 3, 1), stack(24, 24, 3, 1, 3, 1),
            nn.Conv2d(24, 48, 1, padding=0, stride=1, bias=False), bn(48), nn.ReLU(inplace=True))
        self.classifier = nn.Sequential(nn.Dropout(p=0.2, inplace=True),
                                        nn.Linear(48, NUM_CLASSES))


class Cnn1d(nn.Module):
    """A raw-waveform classifier shaped like M5 (Dai et al., "Very deep convolutional neural
    networks for raw waveforms", 2017): a wide strided Conv1d, then three 3-tap Conv1d (padding
    1), each followed by BatchNorm1d, ReLU and MaxPool1d(4); AdaptiveAvgPool1d(1), flatten,
    Linear. The exporter folds each BatchNorm1d into its Conv1d."""

    def __init__(self, channels, first_kernel, first_stride, num_classes=10):
        super().__init__()
        layers, c_in = [], 1
        for i, c in enumerate(channels):
            conv = (nn.Conv1d(c_in, c, first_kernel, stride=first_stride) if i == 0
                    else nn.Conv1d(c_in, c, 3, padding=1))
            layers += [conv, nn.BatchNorm1d(c), nn.ReLU(inplace=True), nn.MaxPool1d(4)]
            c_in = c
        self.features = nn.Sequential(*layers)
        self.pool = nn.AdaptiveAvgPool1d(1)
        self.fc = nn.Linear(c_in, num_classes)

    def forward(self, x):
        x = self.pool(self.features(x))
        return self.fc(x.flatten(1))


class MainOutput(nn.Module):
    """Returns `model(x)[key]`: one output tensor for models that return a dict."""

    def __init__(self, model, key):
        super().__init__()
        self.model, self.key = model, key

    def forward(self, x):
        return self.model(x)[self.key]
