"""Compares two sets of results (commits, run ids or report.json files): per model x config x
variant and per layer, deltas of cycles, DRAM bytes and utilisation, sorted by impact."""
import os
import re

import git_info
import reports
from errors import PerfError

LAYERS_SHOWN = 8  # per changed entry, the layers whose cycles moved most


class Side:
    """One side of a comparison: a label and its entries {key: (run, layers)}."""

    def __init__(self, label, entries):
        self.label, self.entries = label, entries


def load_side(spec, store, root, db_path=None):
    if spec.endswith(".json") or os.path.isfile(spec):
        report = reports.load(spec)
        run = reports.run_row(report)
        key = (report["model"], (report.get("config") or {}).get("name", "?"), "")
        return Side(spec, {key: (run, reports.layer_rows(report))})
    if store is None:
        raise PerfError(f"'{spec}' is not a report.json file, and there is no results store "
                        f"({db_path}) to look it up in")
    match = re.fullmatch(r"(?:#|run:)(\d+)", spec)
    if match:
        runs = store.runs("runs.id = ?", (int(match.group(1)),))
        if not runs:
            raise PerfError(f"no run with id {match.group(1)} in {store.path}")
        return Side(f"run {match.group(1)}", {_key(runs[0]): (runs[0], store.layers(runs[0]["id"]))})
    sha = _find_commit(spec, store, root)
    runs = store.runs("runs.sha = ?", (sha,))
    clean = [r for r in runs if not r["dirty"]]
    runs = clean or runs
    return Side(f"{sha[:12]}{'' if clean else '+dirty'}",
                {_key(r): (r, store.layers(r["id"])) for r in runs})


def _key(run):
    return (run["model"], run["config"], run["variant"])


def _find_commit(spec, store, root):
    try:
        sha = git_info.resolve(root, spec)
    except PerfError:
        found = [c["sha"] for c in store.commits() if c["sha"].startswith(spec.lower())]
        if len(found) != 1:
            raise PerfError(f"unknown revision '{spec}': not a commit of {root}"
                            + (" and ambiguous in the store" if found else
                               " nor a recorded one")) from None
        sha = found[0]
    if not store.runs("runs.sha = ?", (sha,)):
        raise PerfError(f"commit {sha[:12]} ({spec}) has no recorded runs in {store.path}")
    return sha


def default_sides(store):
    commits = store.commits()
    if len(commits) < 2:
        raise PerfError(f"{store.path} holds {len(commits)} recorded commit(s); "
                        "name two commits, run ids or report.json files")
    return commits[-2]["sha"], commits[-1]["sha"]


def _pct(a, b):
    if a is None or b is None:
        return None
    if a == 0:
        return 0.0 if b == 0 else float("inf")
    return 100.0 * (b - a) / a


def _dram(run):
    if run.get("dram_read_bytes") is None:
        return None
    return run["dram_read_bytes"] + (run.get("dram_write_bytes") or 0)


def _layer_deltas(layers_a, layers_b):
    by_name = {l["name"]: l for l in layers_a}
    deltas = []
    for lb in layers_b:
        la = by_name.get(lb["name"])
        if la is None or (la["cycles"] == lb["cycles"] and _dram(la) == _dram(lb)):
            continue
        deltas.append({"name": lb["name"], "op": lb["op"], "cycles_a": la["cycles"],
                       "cycles_b": lb["cycles"], "delta_cycles": lb["cycles"] - la["cycles"],
                       "delta_pct": _pct(la["cycles"], lb["cycles"]),
                       "dram_bytes_a": _dram(la), "dram_bytes_b": _dram(lb),
                       "dram_delta_pct": _pct(_dram(la), _dram(lb)),
                       "mac_utilisation_a": la.get("mac_utilisation"),
                       "mac_utilisation_b": lb.get("mac_utilisation")})
    deltas.sort(key=lambda d: (-abs(d["delta_cycles"]), -abs(d["dram_delta_pct"] or 0)))
    return deltas


def compare(a, b):
    """The comparison as a dict (what --json writes)."""
    entries = []
    single = len(a.entries) == 1 and len(b.entries) == 1
    pairs = ([(next(iter(a.entries)), next(iter(b.entries)))] if single else
             [(k, k) for k in a.entries if k in b.entries])
    for ka, kb in pairs:
        (ra, la), (rb, lb) = a.entries[ka], b.entries[kb]
        entry = {"model": kb[0], "config": kb[1], "variant": kb[2],
                 "status_a": ra.get("status"), "status_b": rb.get("status")}
        for field in ("cycles", "mac_utilisation", "roofline_ratio"):
            entry[f"{field}_a"], entry[f"{field}_b"] = ra.get(field), rb.get(field)
        entry["dram_bytes_a"], entry["dram_bytes_b"] = _dram(ra), _dram(rb)
        entry["cycles_delta_pct"] = _pct(ra.get("cycles"), rb.get("cycles"))
        entry["dram_delta_pct"] = _pct(entry["dram_bytes_a"], entry["dram_bytes_b"])
        entry["layers"] = _layer_deltas(la, lb)
        entries.append(entry)
    entries.sort(key=lambda e: (-abs(e["cycles_delta_pct"] or 0), e["model"], e["config"]))
    return {"a": a.label, "b": b.label, "entries": entries,
            "only_in_a": sorted(" ".join(filter(None, k)) for k in a.entries if k not in b.entries
                                and not single),
            "only_in_b": sorted(" ".join(filter(None, k)) for k in b.entries if k not in a.entries
                                and not single)}


def _fmt(value, pct=False):
    if value is None:
        return "-"
    if pct:
        return "inf" if value == float("inf") else f"{value:+.2f}%"
    if isinstance(value, float):
        return f"{value:.3f}"
    return f"{value:,}"


def format_table(result):
    lines = [f"A = {result['a']}    B = {result['b']}", ""]
    header = f"{'model':<14}{'config':<12}{'variant':<10}{'cycles A':>15}{'cycles B':>15}" \
             f"{'delta':>10}{'DRAM delta':>12}{'util A':>8}{'util B':>8}"
    lines += [header, "-" * len(header)]
    for e in result["entries"]:
        lines.append(f"{e['model']:<14}{e['config']:<12}{e['variant']:<10}"
                     f"{_fmt(e['cycles_a']):>15}{_fmt(e['cycles_b']):>15}"
                     f"{_fmt(e['cycles_delta_pct'], True):>10}"
                     f"{_fmt(e['dram_delta_pct'], True):>12}"
                     f"{_fmt(e['mac_utilisation_a']):>8}{_fmt(e['mac_utilisation_b']):>8}")
    for e in result["entries"]:
        if not e["layers"]:
            continue
        lines += ["", f"{e['model']} {e['config']} {e['variant']}".rstrip()
                  + f": the layers that moved most, of {len(e['layers'])} that moved"
                  + f" (cycles A, B, change)"]
        for d in e["layers"][:LAYERS_SHOWN]:
            lines.append(f"  {d['name']:<28}{d['op']:<16}{_fmt(d['cycles_a']):>13}"
                         f"{_fmt(d['cycles_b']):>13}{_fmt(d['delta_pct'], True):>10}"
                         f"  DRAM {_fmt(d['dram_delta_pct'], True)}")
    for side in ("a", "b"):
        if result[f"only_in_{side}"]:
            lines += ["", f"only in {side.upper()}: " + ", ".join(result[f"only_in_{side}"])]
    changed = sum(1 for e in result["entries"] if e["cycles_a"] != e["cycles_b"])
    lines += ["", f"{changed} of {len(result['entries'])} compared runs changed cycles"]
    return "\n".join(lines) + "\n"


def gate(result, exact, threshold):
    """The entries that break the gate: any cycle change (exact), or beyond threshold percent."""
    broken = []
    for e in result["entries"]:
        delta = e["cycles_delta_pct"]
        if exact and e["cycles_a"] != e["cycles_b"]:
            broken.append(e)
        elif threshold is not None and delta is not None and abs(delta) > threshold:
            broken.append(e)
    return broken
