"""Perf suites (suite.proto) read from textproto, checked before anything runs."""
import os

import textproto

from errors import PerfError

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_SUITE = os.path.join(HERE, "default_suite.textproto")


def _suite_pb2():
    return textproto.proto_module(os.path.join(HERE, "suite.proto"))


class Point:
    """One run of a suite: a model on a config with a variant's extra arguments."""

    def __init__(self, model, config, variant, args, timing_only):
        self.model, self.config, self.variant = model, config, variant
        self.args, self.timing_only = list(args), timing_only

    def key(self):
        return (self.model_name(), self.config_name(), self.variant)

    def model_name(self):
        return _short(self.model)

    def config_name(self):
        return _short(self.config)

    def label(self):
        return " ".join(k for k in self.key() if k)


def _short(name):
    """A path's file name without extension; a built-in name as it is."""
    base = os.path.basename(name)
    return os.path.splitext(base)[0] if os.sep in name or "." in base else name


def load(path, root, builtin_models, builtin_configs):
    """The suite's points, every model and config checked to exist (PerfError otherwise)."""
    where = path
    suite = textproto.read(path, _suite_pb2().Suite)
    base = os.path.dirname(os.path.abspath(path))
    models = [_resolve(m, "model", builtin_models, (".onnx", ".csv"), base, root, where)
              for m in suite.models]
    configs = [_resolve(c, "config", builtin_configs, (".textproto", ".json", ".txt", ".pbtxt"),
                        base, root, where) for c in suite.configs]
    if not models:
        raise PerfError(f"{where}: no models")
    if not configs:
        configs = ["default"]
    variants = [(v.name, list(v.args)) for v in suite.variants] or [("", [])]
    names = [v[0] for v in variants]
    if len(set(names)) != len(names):
        raise PerfError(f"{where}: variant names must differ ({', '.join(names)})")
    return [Point(m, c, name, args, suite.timing_only)
            for m in models for c in configs for name, args in variants]


def _resolve(name, kind, builtins, extensions, base, root, where):
    if name in builtins:
        return name
    if name.endswith(extensions) or os.sep in name:
        for folder in (base, root):
            candidate = os.path.join(folder, name)
            if os.path.isfile(candidate):
                return os.path.abspath(candidate)
        raise PerfError(f"{where}: {kind} file '{name}' not found (relative to {base} or {root})")
    raise PerfError(f"{where}: unknown {kind} '{name}' (built-in: {', '.join(sorted(builtins))}; "
                    f"or a file)")
