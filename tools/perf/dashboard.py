"""The perf dashboard: a static site (index.html, assets/, data.js, runs/) that works from file://
with no network. data.js holds every series over commits; runs/ID.js each run's layer table,
loaded on demand when a point is clicked. Charts use the pinned chart.js (node_deps.py), copied
into assets/. The site is staged beside --out and moved into place only when complete."""
import json
import os
import shutil
import tempfile
import time

import node_deps
from errors import PerfError

HERE = os.path.dirname(os.path.abspath(__file__))
ASSETS = os.path.join(HERE, "dashboard")
MARKER = ".npu-perf-dashboard"  # names a folder this tool may replace


def _js(name, value):
    text = json.dumps(value, separators=(",", ":"), sort_keys=True)
    return f"{name}({text});\n"


def series_data(store):
    commits = store.commits()
    index = {c["sha"]: i for i, c in enumerate(commits)}
    series = {}
    for run in store.runs("runs.dirty = 0 AND runs.cycles IS NOT NULL"):
        key = (run["model"], run["config"], run["variant"])
        points = series.setdefault(key, [])
        previous = points[-1] if points else None
        points.append({
            "commit": index[run["sha"]], "run": run["id"], "status": run["status"],
            "cycles": run["cycles"],
            "dram": (run["dram_read_bytes"] or 0) + (run["dram_write_bytes"] or 0),
            "util": run["mac_utilisation"], "wall": run["wall_seconds"],
            "previous_run": previous["run"] if previous else None,
            "regression": bool(previous and run["cycles"] > previous["cycles"]),
        })
    return {
        "commits": [{"sha": c["sha"], "subject": c["subject"], "time": c["commit_time"]}
                    for c in commits],
        "series": [{"model": k[0], "config": k[1], "variant": k[2], "points": v}
                   for k, v in sorted(series.items())],
    }


def sweep_data(store):
    """The latest sweep's points (None without one): swept fields, model, status and costs."""
    sweep = store.latest_sweep()
    if sweep is None:
        return None
    points = []
    for p in store.sweep_points(sweep["id"]):
        fields = json.loads(p["point"])
        points.append({"fields": fields, "model": p["model"], "status": p["status"],
                       "error": p["error"], "cycles": p["cycles"], "latency_us": p["latency_us"],
                       "energy_pj": p["energy_pj"], "area_mm2": p["area_mm2"],
                       "mac_utilisation": p["mac_utilisation"]})
    return {"name": sweep["name"], "created_at": sweep["created_at"], "points": points}


def run_data(store, run):
    keep = ("id", "sha", "model", "config", "variant", "status", "cycles", "predicted_cycles",
            "mac_utilisation", "dram_read_bytes", "dram_write_bytes", "roofline_ratio",
            "accuracy_cosine", "accuracy_snr_db", "command_line", "host", "timestamp",
            "version", "build_type", "model_checksum", "config_fingerprint", "wall_seconds",
            "subject")
    data = {k: run.get(k) for k in keep}
    data["layers"] = [{k: l[k] for k in ("name", "op", "engine", "cycles", "predicted_cycles",
                                         "mac_utilisation", "dram_read_bytes", "dram_write_bytes")}
                      for l in store.layers(run["id"])]
    return data


def _check_target(out):
    if os.path.lexists(out):
        if not os.path.isdir(out) or os.path.islink(out):
            raise PerfError(f"--out {out}: exists and is not a folder")
        if os.listdir(out) and not os.path.exists(os.path.join(out, MARKER)):
            raise PerfError(f"--out {out}: a folder with other files in it; give a new or "
                            "empty folder, or an earlier dashboard's")


def write(store, out, root):
    out = os.path.abspath(out)
    _check_target(out)
    data = series_data(store)
    if not data["series"] and store.latest_sweep() is None:
        raise PerfError(f"{store.path}: no recorded runs or sweeps to show")
    chart_js = os.path.join(node_deps.node_modules(root), "chart.js", "dist", "chart.umd.js")
    if not os.path.isfile(chart_js):
        raise PerfError(f"{chart_js}: missing from the installed chart.js package")
    parent = os.path.dirname(out)
    os.makedirs(parent, exist_ok=True)
    stage = tempfile.mkdtemp(prefix=".dashboard-", dir=parent)
    try:
        os.makedirs(os.path.join(stage, "assets"))
        os.makedirs(os.path.join(stage, "runs"))
        for name in ("index.html",):
            shutil.copyfile(os.path.join(ASSETS, name), os.path.join(stage, name))
        for name in ("dashboard.js", "dashboard.css"):
            shutil.copyfile(os.path.join(ASSETS, name), os.path.join(stage, "assets", name))
        shutil.copyfile(chart_js, os.path.join(stage, "assets", "chart.umd.js"))
        data["generated"] = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
        data["sweep"] = sweep_data(store)
        with open(os.path.join(stage, "data.js"), "w", encoding="utf-8") as f:
            f.write(_js("PERF_DATA_LOADED", data))
        for run in store.runs("runs.dirty = 0 AND runs.cycles IS NOT NULL"):
            with open(os.path.join(stage, "runs", f"{run['id']}.js"), "w", encoding="utf-8") as f:
                f.write(_js("PERF_RUN_LOADED", run_data(store, run)))
        open(os.path.join(stage, MARKER), "w").close()
        if os.path.exists(out):
            old = out + ".old"
            shutil.rmtree(old, ignore_errors=True)
            os.rename(out, old)
            os.rename(stage, out)
            shutil.rmtree(old)
        else:
            os.rename(stage, out)
    except BaseException:
        shutil.rmtree(stage, ignore_errors=True)
        raise
