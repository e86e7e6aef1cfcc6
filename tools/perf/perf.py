#!/usr/bin/python3
"""Performance records over the project's history (docs/perf.md):

  perf.py record    [--db F] [--suite F] [--jobs N] [MODEL.onnx ...]  run a suite, store it
  perf.py compare   [--db F] [A] [B] [--json F] [--exact] [--threshold PCT]
  perf.py baseline  [--update]                   check (or rewrite) tests/perf/baseline.json
  perf.py backfill  [--db F] [--since REV] [--until REV] [--every N] [--limit N]
  perf.py dashboard [--db F] --out DIR           a static HTML dashboard

Every command takes --tool (run_workload's path) and --root (the repository). Exit status: 0 done,
1 a gate failed (compare, baseline) or a run failed, 2 bad input or an error.
"""
import argparse
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import backfill as backfill_mod  # noqa: E402
import baseline as baseline_mod  # noqa: E402
import compare as compare_mod  # noqa: E402
import git_info  # noqa: E402
import runner  # noqa: E402
import suite as suite_mod  # noqa: E402
from errors import PerfError  # noqa: E402
from store import Store, default_path  # noqa: E402

EXIT_GATE = 1
EXIT_ERROR = 2


def load_points(args, extra_models=()):
    models, configs = runner.builtin_names(args.tool)
    points = suite_mod.load(args.suite or suite_mod.DEFAULT_SUITE, args.root, models, configs)
    for path in extra_models:
        if not os.path.isfile(path):
            raise PerfError(f"{path}: no such model file")
        configs_seen = sorted({p.config for p in points}, key=[p.config for p in points].index)
        variants = {(p.variant, tuple(p.args)) for p in points}
        points += [suite_mod.Point(os.path.abspath(path), c, v, a, points[0].timing_only)
                   for c in configs_seen for v, a in sorted(variants)]
    return points


def cmd_record(args):
    points = load_points(args, args.models)
    start = time.monotonic()
    print(f"perf record: {len(points)} runs with {args.jobs} jobs", file=sys.stderr)
    results = runner.run_all(args.tool, points, args.jobs)
    sha, dirty = runner.provenance_commit(results)
    if not sha or sha == "unknown":
        raise PerfError(f"{args.tool} was not built from a git checkout: its reports name no "
                        "commit, so the runs cannot be recorded")
    with Store(args.db) as store, store.transaction():
        store.add_commit(git_info.describe(args.root, sha))
        for r in results:
            store.add_run(*runner.to_rows(r, sha, dirty))
    bad = [r for r in results if r.error or r.report["check"]["status"] == "fail"]
    print(f"perf record: {len(points)} runs of {sha[:12]}{'+dirty' if dirty else ''} stored in "
          f"{args.db} in {time.monotonic() - start:.1f} s; {len(bad)} failed", file=sys.stderr)
    return EXIT_GATE if bad else 0


def cmd_compare(args):
    store = Store(args.db, create=False) if os.path.exists(args.db) else None
    a, b = args.a, args.b
    if a is None or b is None:
        if store is None:
            raise PerfError(f"{args.db}: no results store; name two report.json files")
        a_default, b_default = compare_mod.default_sides(store)
        a, b = a or a_default, b or b_default
    result = compare_mod.compare(compare_mod.load_side(a, store, args.root, args.db),
                                 compare_mod.load_side(b, store, args.root, args.db))
    if args.json:
        text = runner.dumps(result)
        if args.json == "-":
            sys.stdout.write(text)
        else:
            with open(args.json, "w", encoding="utf-8") as f:
                f.write(text)
    print(compare_mod.format_table(result), end="", file=sys.stderr if args.json == "-" else sys.stdout)
    broken = compare_mod.gate(result, args.exact, args.threshold)
    if broken:
        print(f"perf compare: {len(broken)} run(s) beyond the gate: "
              + ", ".join(f"{e['model']} {e['config']}".strip() for e in broken), file=sys.stderr)
        return EXIT_GATE
    return 0


def cmd_baseline(args):
    file = baseline_mod.path(args.root)
    old = baseline_mod.load(file)
    new = baseline_mod.measure(args.tool, args.jobs)
    changes = baseline_mod.diff(old, new)
    if args.update:
        baseline_mod.write(file, new)
        print("perf baseline: " + (f"updated {file}:" if changes else "unchanged"))
        for line in changes:
            print(line)
        return 0
    if changes:
        print("perf baseline: cycles or DRAM bytes differ from tests/perf/baseline.json:\n"
              + "\n".join(changes) + "\nIf intended, run `tools/npu perf baseline --update` "
              "and commit the new baseline with the change (the diff above for the message).",
              file=sys.stderr)
        return EXIT_GATE
    print(f"perf baseline: {len(new)} runs match exactly")
    return 0


def cmd_backfill(args):
    points = load_points(args)
    with Store(args.db) as store:
        n = backfill_mod.backfill(args.root, store, points, args.since, args.until, args.every,
                                  args.limit, args.jobs, args.work)
    print(f"perf backfill: {n} commit(s) recorded in {args.db}", file=sys.stderr)
    return 0


def cmd_dashboard(args):
    import dashboard
    with Store(args.db, create=False) as store:
        dashboard.write(store, args.out, args.root)
    print(f"perf dashboard: {os.path.join(args.out, 'index.html')}", file=sys.stderr)
    return 0


def parse_args(argv):
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("--root", default=root, help="the repository (default: this checkout)")
    common.add_argument("--tool", default=os.path.join(root, "build", "tools", "run_workload"),
                        help="run_workload to run")
    common.add_argument("--db", help="results store (default: build/perf/perf.sqlite)")
    common.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    p = argparse.ArgumentParser(prog="perf", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = p.add_subparsers(dest="command", required=True)
    rec = sub.add_parser("record", parents=[common], help="run a suite and store it")
    rec.add_argument("--suite", help="suite textproto (default: tools/perf/default_suite.textproto)")
    rec.add_argument("models", nargs="*", help="ONNX models to add to the suite")
    cmp_ = sub.add_parser("compare", parents=[common], help="compare two commits, runs or reports")
    cmp_.add_argument("a", nargs="?", help="commit, #RUN_ID or report.json (default: the "
                                           "second-latest recorded commit)")
    cmp_.add_argument("b", nargs="?", help="as A (default: the latest recorded commit)")
    cmp_.add_argument("--json", help="also write the comparison as JSON (- for stdout)")
    cmp_.add_argument("--exact", action="store_true", help="exit 1 on any change of cycles")
    cmp_.add_argument("--threshold", type=float, metavar="PCT",
                      help="exit 1 on a change of cycles beyond PCT percent")
    base = sub.add_parser("baseline", parents=[common], help="check or update the baseline")
    base.add_argument("--update", action="store_true", help="rewrite it and print the diff")
    back = sub.add_parser("backfill", parents=[common], help="build and record earlier commits")
    back.add_argument("--suite")
    back.add_argument("--since", help="start after this revision (default: the first commit)")
    back.add_argument("--until", default="HEAD")
    back.add_argument("--every", type=int, default=1, help="record every N-th commit")
    back.add_argument("--limit", type=int, help="at most N commits (the latest of those due)")
    back.add_argument("--work", help="scratch folder (default: build/perf/backfill)")
    dash = sub.add_parser("dashboard", parents=[common], help="write the HTML dashboard")
    dash.add_argument("--out", required=True, help="folder to write index.html and assets into")
    args = p.parse_args(argv)
    args.db = args.db or default_path(args.root)
    if getattr(args, "work", None) is None:
        args.work = os.path.join(args.root, "build", "perf", "backfill")
    if args.jobs < 1:
        p.error("--jobs must be at least 1")
    if getattr(args, "every", 1) < 1:
        p.error("--every must be at least 1")
    if getattr(args, "suite", None) is None:
        args.suite = None
    if args.command in ("record", "baseline", "backfill") and not os.access(args.tool, os.X_OK):
        p.error(f"--tool {args.tool}: not an executable (build run_workload first)")
    return args


def main(argv):
    args = parse_args(argv)
    try:
        return globals()[f"cmd_{args.command}"](args)
    except PerfError as e:
        print(f"perf {args.command}: {e}", file=sys.stderr)
        return EXIT_ERROR
    except KeyboardInterrupt:
        print(f"perf {args.command}: interrupted; nothing half-written", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
