"""Sweep specs (sweep_spec.proto): read from a textproto or built from the command line's --grid,
checked before anything runs (every field against the config schema, axes, constraints)."""
import hashlib
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "tools", "perf"))

import textproto  # noqa: E402
from errors import PerfError  # noqa: E402

METRICS = ["cycles", "latency_us", "energy_pj", "area_mm2", "dram_bytes", "mac_utilisation",
           "roofline_ratio", "peak_sram_bytes"]
# What run_workload --precision takes; a "precision" axis sweeps them (one model per value).
PRECISIONS = ["int8", "w4a8", "fp16", "auto"]
OPS = {"<": lambda a, b: a < b, "<=": lambda a, b: a <= b, ">": lambda a, b: a > b,
       ">=": lambda a, b: a >= b, "==": lambda a, b: a == b}


def pb2():
    return textproto.proto_module(os.path.join(HERE, "sweep_spec.proto"))


def config_fields():
    """Every leaf field of the architecture config, as --set names it ("mac.rows")."""
    config = textproto.proto_module(os.path.join(ROOT, "hw", "spec", "npu_config.proto"))
    fields = set()

    def walk(descriptor, prefix):
        for f in descriptor.fields:
            if f.message_type is not None:
                walk(f.message_type, prefix + f.name + ".")
            else:
                fields.add(prefix + f.name)
    walk(config.NpuConfig.DESCRIPTOR, "")
    return fields


def load(path):
    spec = textproto.read(path, pb2().SweepSpec)
    base = os.path.dirname(os.path.abspath(path))
    for m in spec.models:
        if m.name.endswith((".onnx", ".csv")) and not os.path.isabs(m.name):
            m.name = os.path.join(base, m.name)
    if spec.base_config and os.sep in spec.base_config and not os.path.isabs(spec.base_config):
        spec.base_config = os.path.join(base, spec.base_config)
    if not spec.name:
        spec.name = os.path.splitext(os.path.basename(path))[0]
    expand_precision(spec, path)
    check(spec, path)
    return spec


def from_command_line(model, grid, overrides, timing_only, where="--grid"):
    """The spec of `sweep MODEL --grid key=v1,v2 ... --set key=value`."""
    spec = pb2().SweepSpec(name=f"{model} " + " ".join(grid), timing_only=timing_only)
    spec.models.add(name=model)
    for item in grid:
        key, sep, values = item.partition("=")
        if not sep or not key or not values:
            raise PerfError(f"--grid '{item}': expected key=v1,v2,... e.g. mac.rows=16,32")
        spec.axes.add(field=key, values=values.split(","))
    spec.set.extend(overrides)
    expand_precision(spec, where)
    check(spec, where)
    return spec


def expand_precision(spec, where):
    """A "precision" axis is no config field: each model becomes one model per precision (the
    quantisation is per model, prepared once per run_workload batch)."""
    axes = [a for a in spec.axes if a.field == "precision"]
    if not axes:
        return
    if len(axes) > 1:
        raise PerfError(f"{where}: field 'precision' swept twice")
    values = list(axes[0].values)
    if not values:
        raise PerfError(f"{where}: axis 'precision' has no values")
    kept = [a for a in spec.axes if a.field != "precision"]
    del spec.axes[:]
    spec.axes.extend(kept)
    models = list(spec.models)
    del spec.models[:]
    for m in models:
        if m.precision:
            raise PerfError(f"{where}: model '{m.name}' sets a precision and the sweep has a "
                            "precision axis")
        for v in values:
            copy = spec.models.add()
            copy.CopyFrom(m)
            copy.precision = v


def model_label(model):
    """How tables, charts and the store name a model: its name, and its precision if given."""
    return f"{model.name} {model.precision}" if model.precision else model.name


def check(spec, where):
    if not spec.models:
        raise PerfError(f"{where}: no models")
    for m in spec.models:
        if m.precision and m.precision not in PRECISIONS:
            raise PerfError(f"{where}: model '{m.name}': unknown precision '{m.precision}' "
                            f"(known: {', '.join(PRECISIONS)})")
        if m.accuracy_budget_db and m.precision != "auto":
            raise PerfError(f"{where}: model '{m.name}': accuracy_budget_db needs precision auto")
        if m.HasField("accuracy_target_db") and (m.precision != "auto" or m.accuracy_budget_db):
            raise PerfError(f"{where}: model '{m.name}': accuracy_target_db needs precision auto "
                            "and no accuracy_budget_db")
    labels = [model_label(m) for m in spec.models]
    if len(set(labels)) != len(labels):
        raise PerfError(f"{where}: a model (and precision) is listed twice")
    known = config_fields()
    axes = list(spec.axes) + [a for group in spec.linked for a in group.axes]
    if not axes and not any(m.precision for m in spec.models):
        raise PerfError(f"{where}: no axes to sweep")
    seen = set()
    for axis in axes:
        if axis.field not in known:
            raise PerfError(f"{where}: unknown config field '{axis.field}' "
                            "(fields as --set names them, e.g. mac.rows)")
        if not axis.values:
            raise PerfError(f"{where}: axis '{axis.field}' has no values")
        if axis.field in seen:
            raise PerfError(f"{where}: field '{axis.field}' swept twice")
        seen.add(axis.field)
    for group in spec.linked:
        lengths = {len(a.values) for a in group.axes}
        if len(lengths) > 1:
            raise PerfError(f"{where}: linked axes {', '.join(a.field for a in group.axes)} "
                            f"have different numbers of values")
    for item in spec.set:
        key, sep, _ = item.partition("=")
        if not sep or key not in known:
            raise PerfError(f"{where}: --set/set '{item}': expected a config field=value")
    for c in spec.constraints:
        if c.metric not in METRICS:
            raise PerfError(f"{where}: constraint on unknown metric '{c.metric}' "
                            f"(known: {', '.join(METRICS)})")
        if c.op not in OPS:
            raise PerfError(f"{where}: constraint op '{c.op}' (known: {' '.join(OPS)})")


def spec_hash(spec):
    """Identifies the sweep: equal specs resume each other's points."""
    return hashlib.sha256(spec.SerializeToString(deterministic=True)).hexdigest()[:16]


def points(spec):
    """Every point, as [(field, value)], axes crossed with each other and with linked groups."""
    groups = [[[(a.field, v)] for v in a.values] for a in spec.axes]
    for group in spec.linked:
        n = len(group.axes[0].values)
        groups.append([[(a.field, a.values[i]) for a in group.axes] for i in range(n)])
    result = [[]]
    for group in groups:
        result = [p + choice for p in result for choice in group]
    return result


def satisfies(spec, metrics):
    """The constraints `metrics` breaks, as text (empty: all hold). A metric a run does not
    report (energy without an energy model) breaks its constraint."""
    broken = []
    for c in spec.constraints:
        value = metrics.get(c.metric)
        if value is None or not OPS[c.op](value, c.value):
            broken.append(f"{c.metric} {c.op} {c.value:g}")
    return broken
