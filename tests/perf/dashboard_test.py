#!/usr/bin/python3
"""The perf dashboard in a real browser: a store of three commits x two series (real run reports,
the later commits' cycles changed, one a regression) becomes a site; Debian's chromium, driven by
playwright-core (dashboard_browser.cjs), loads it from file:// with no console error, finds four
charts with one point per commit, red regression points, after a click on a point the run's
layer table with its diff against the previous run, and the latest sweep's chart and table.

Usage: dashboard_test.py RUN_WORKLOAD SOURCE_DIR
"""
import copy
import json
import os
import shutil
import subprocess
import sys
import tempfile

TOOL, SOURCE = sys.argv[1], sys.argv[2]
sys.path.insert(0, os.path.join(SOURCE, "tools", "perf"))

import dashboard  # noqa: E402
import node_deps  # noqa: E402
import reports  # noqa: E402
from store import Store  # noqa: E402

CHROMIUM = "/usr/bin/chromium"


def report(scratch, model):
    path = os.path.join(scratch, f"{model}.json")
    subprocess.run([TOOL, model, "--quiet", "--timing-only", "--json", path], check=True,
                   capture_output=True)
    return reports.load(path)


def fill_store(db, scratch):
    """Commits c0..c2; mlp's cycles go 100 % -> 90 % -> 95 % (a regression at c2, layer 0)."""
    base = {m: report(scratch, m) for m in ("mlp", "fc")}
    factors = {"mlp": [1.0, 0.9, 0.95], "fc": [1.0, 1.0, 1.0]}
    with Store(db) as store, store.transaction():
        for i in range(3):
            sha = f"{i:x}" * 40
            store.add_commit({"sha": sha, "subject": f"commit number {i}", "commit_time": 1000 + i,
                              "position": i + 1})
            for model, rep in base.items():
                r = copy.deepcopy(rep)
                r["layers"][0]["cycles"] = int(r["layers"][0]["cycles"] * factors[model][i])
                r["totals"]["cycles"] = sum(l["cycles"] for l in r["layers"])
                run = {"sha": sha, "dirty": 0, "model": model, "config": "default",
                       "variant": "", "wall_seconds": 0.5 + i}
                run.update(reports.run_row(r))
                store.add_run(run, reports.layer_rows(r))
        # A sweep of three points, one of them failed (left out of the chart).
        sweep = store.sweep_id("rows sweep", "hash", "spec text")
        for rows, cycles in (("8", 300), ("16", 200), ("0", None)):
            store.add_sweep_point({"sweep_id": sweep, "model": "mlp",
                                   "point": json.dumps({"mac.rows": rows}),
                                   "status": "pass" if cycles else "error",
                                   "error": None if cycles else "mac.rows = 0", "cycles": cycles},
                                  [])
    return {m: len(r["layers"]) for m, r in base.items()}


def main():
    if not os.access(CHROMIUM, os.X_OK):
        sys.exit(f"FAIL: {CHROMIUM} missing (Debian package chromium; tools/npu test installs it)")
    scratch = tempfile.mkdtemp(prefix="npu-dashboard-test-")
    try:
        db = os.path.join(scratch, "perf.sqlite")
        layers = fill_store(db, scratch)
        site = os.path.join(scratch, "site")
        with Store(db, create=False) as store:
            dashboard.write(store, site, SOURCE)
        expect = {"series": ["fc", "mlp"], "points": 3,
                  "layers": [layers["fc"], layers["mlp"]], "regression_series": 1,
                  "regression_point": 2, "sweep_points": 3, "sweep_bars": 2}
        modules = node_deps.node_modules(SOURCE)
        env = dict(os.environ, NODE_PATH=modules)
        script = os.path.join(os.path.dirname(os.path.abspath(__file__)), "dashboard_browser.cjs")
        result = subprocess.run(["node", script, os.path.join(site, "index.html"), CHROMIUM,
                                 json.dumps(expect)], env=env)
        sys.exit(result.returncode)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


if __name__ == "__main__":
    main()
