#!/usr/bin/python3
"""Design-space sweep: run models over config points, store each finished point at once, and
tabulate and chart what each measured (docs/sweeps.md).

  tools/npu sweep conv3x3 --grid mac.rows=16,32,64 --grid sram.size_bytes=262144,1048576
  tools/npu sweep --spec my_sweep.textproto --csv sweep.csv --pareto charts/sweep
  tools/npu sweep --spec my_sweep.textproto --slurm --slurm-option=--partition=big

One run_workload --points per model prepares the model once (front end, quantisation,
calibration) and compiles and simulates each point in a process of its own (SystemC elaborates
once per process), --jobs at a time. Every finished point goes into the results store
(tools/perf, default build/perf/perf.sqlite) in its own transaction, so a rerun of the same sweep
skips the points already finished by the same build, `kill -9` loses only the points in flight
(the children die with the sweep), and Ctrl-C stops cleanly keeping what finished. The CSV holds each point once, with a
column per swept field; it is rewritten as points finish (at most once a second, and at the end).
Exit status: 0 every point ran and passed its check; 1 a point failed; 2 bad input or no point
met the constraints; 130 interrupted.
"""
import argparse
import csv
import json
import os
import re
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import spec as spec_mod  # noqa: E402  (puts tools/perf on the path)
import children as children_mod  # noqa: E402
import reports  # noqa: E402
import svg_plot  # noqa: E402
from errors import PerfError  # noqa: E402
from google.protobuf import text_format  # noqa: E402
from store import Store, default_path  # noqa: E402

COLUMNS = ["cycles", "predicted_cycles", "latency_us", "mac_utilisation", "dram_read_bytes",
           "dram_write_bytes", "roofline_cycles", "roofline_ratio", "peak_sram_bytes",
           "energy_pj", "area_mm2"]
EXIT_FAIL, EXIT_ERROR, EXIT_INTERRUPTED = 1, 2, 130
# The CSV is rewritten whole from the store as points finish, at most this often (a 1,000-point
# sweep would otherwise rewrite it 1,000 times); the store has every point at once regardless.
CSV_EVERY_SECONDS = 1.0


def tool_build(tool):
    """(commit prefix, dirty) of the tool's build, from --version."""
    try:
        out = subprocess.run([tool, "--version"], capture_output=True, text=True, check=True)
    except (OSError, subprocess.CalledProcessError) as e:
        raise PerfError(f"{tool} --version: {e}") from e
    m = re.search(r"\(commit ([0-9a-f]+|unknown)(\+dirty)?", out.stdout)
    if not m:
        raise PerfError(f"{tool} --version: unexpected answer '{out.stdout.strip()}'")
    return m.group(1), bool(m.group(2))


def point_key(assignment):
    return json.dumps(dict(assignment), sort_keys=True)


def batch_command(tool, spec, model, points, report_dir, jobs):
    cmd = [tool, model.name, "--quiet", "--points", points, "--report-dir", report_dir,
           "--jobs", str(jobs)]
    if model.precision:
        cmd += ["--precision", model.precision]
    if model.accuracy_budget_db:
        cmd += ["--accuracy-budget-db", repr(model.accuracy_budget_db)]
    if model.HasField("accuracy_target_db"):
        cmd += ["--accuracy-target-db", repr(model.accuracy_target_db)]
    if spec.base_config:
        cmd += ["--config", spec.base_config]
    for item in spec.set:
        cmd += ["--set", item]
    if spec.timing_only:
        cmd.append("--timing-only")
    return cmd


def run_batch(children, tool, spec, model, assignments, jobs):
    """Yields (assignment, row, layers) for each point as it finishes. One run_workload --points
    runs them all: it prepares the model once (front end, quantisation, reference) and compiles
    and simulates each point in a child process, `jobs` at a time. Rows name the model by its
    label (name and precision)."""
    label = spec_mod.model_label(model)
    with tempfile.TemporaryDirectory(prefix="npu-sweep-") as scratch:
        left = {f"p{i}": a for i, a in enumerate(assignments)}
        points, report_dir = os.path.join(scratch, "points.txt"), os.path.join(scratch, "reports")
        with open(points, "w") as f:
            for name, a in left.items():
                f.write(" ".join([name] + [f"{k}={v}" for k, v in a]) + "\n")
        with open(os.path.join(scratch, "stderr"), "w+") as err:
            child = children.start(batch_command(tool, spec, model, points, report_dir, jobs), err)
            if child is None:
                return
            try:
                for line in child.stdout:
                    name, status, seconds = line.split()
                    yield (left[name],) + point_row(label, left.pop(name), int(status),
                                                    float(seconds), report_dir, name)
                child.wait()
            except BaseException:  # interrupted, or the caller stopped listening
                child.kill()
                raise
            finally:
                children.release(child)
            if left and not children.stopping:  # the batch could not start: bad input
                err.seek(0)
                lines = err.read().strip().splitlines()
                why = lines[-1] if lines else f"exit status {child.returncode}"
                for a in left.values():
                    yield a, {"model": label, "point": point_key(a), "status": "error",
                              "error": why}, []


def point_row(model, assignment, status, seconds, report_dir, name):
    """The stored row (and layers) of one finished point, from its NAME.json or NAME.error."""
    row = {"model": model, "point": point_key(assignment), "wall_seconds": seconds}
    report_path = os.path.join(report_dir, name + ".json")
    if status not in (0, 1) or not os.path.exists(report_path):
        try:
            with open(os.path.join(report_dir, name + ".error")) as f:
                lines = f.read().strip().splitlines()
        except OSError:
            lines = []
        row.update(status="error", error=lines[-1] if lines else f"exit status {status}")
        return row, []
    report = reports.load(report_path)
    run = reports.run_row(report)
    p = report.get("provenance", {})
    row.update({k: run.get(k) for k in COLUMNS if k in run})
    row.update(status=run["status"], sha=p.get("commit"), dirty=int(bool(p.get("dirty"))),
               version=p.get("version"), host=p.get("host"), command_line=p.get("command_line"),
               model_checksum=p.get("model_checksum"),
               config_fingerprint=run.get("config_fingerprint"),
               accuracy_cosine=run.get("accuracy_cosine"),
               accuracy_snr_db=run.get("accuracy_snr_db"),
               compile_seconds=run.get("compile_seconds"),
               simulate_seconds=run.get("simulate_seconds"),
               energy_pj=(report.get("energy") or {}).get("total_pj"),
               area_mm2=(report.get("area") or {}).get("total_mm2"))
    return row, reports.layer_rows(report)


def finished_points(store, sweep_id, build):
    """Points this build already ran ((model, point) keys): a rerun skips them."""
    sha, dirty = build
    return {(r["model"], r["point"]) for r in store.sweep_points(sweep_id)
            if r["sha"] and r["sha"].startswith(sha) and bool(r["dirty"]) == dirty}


def table(spec, store, sweep_id, todo_order):
    """The rows of every point of the sweep, in the sweep's order, each once."""
    stored = {(r["model"], r["point"]): r for r in store.sweep_points(sweep_id)}
    rows = []
    for model, assignment in todo_order:
        r = stored.get((model, point_key(assignment)))
        if r is None:
            continue
        row = dict(assignment)
        row.update(r)
        row["dram_bytes"] = ((r["dram_read_bytes"] or 0) + (r["dram_write_bytes"] or 0)
                             if r["dram_read_bytes"] is not None else None)
        broken = spec_mod.satisfies(spec, row) if r["status"] in ("pass", "skipped") else []
        row["excluded"] = "; ".join(broken)
        rows.append(row)
    return rows


def write_csv_rows(stream, spec, rows):
    """The table: a column per swept field (and `model` with several models), then the figures."""
    fields = [a.field for a in spec.axes] + [a.field for g in spec.linked for a in g.axes]
    if len(spec.models) > 1:
        fields.append("model")
    fields += ["status"] + COLUMNS + ["simulate_seconds", "wall_seconds", "excluded", "error"]
    writer = csv.DictWriter(stream, fieldnames=fields, restval="", extrasaction="ignore")
    writer.writeheader()
    for r in rows:
        writer.writerow({k: ("" if r.get(k) is None else r.get(k)) for k in fields})


def write_csv(path, spec, rows):
    """The table as a file, replaced whole (it is rewritten as points finish)."""
    tmp = path + ".tmp"
    with open(tmp, "w", newline="") as f:
        write_csv_rows(f, spec, rows)
    os.replace(tmp, path)


def write_plot(path, spec, rows):
    """Cycles against the first axis, one line per value of the others (and per model); against
    the models (and precisions) when only precision is swept."""
    axes = [a.field for a in spec.axes] + [a.field for g in spec.linked for a in g.axes]
    if not axes:
        axes = ["model"]
    x_key, x_values = axes[0], []
    for r in rows:
        if r[x_key] not in x_values:
            x_values.append(r[x_key])
    series = {}
    for r in rows:
        name = ", ".join([f"{k}={r[k]}" for k in axes[1:]] +
                         ([r["model"]] if len(spec.models) > 1 and x_key != "model" else [])) \
            or ("cycles" if x_key == "model" else r["model"])
        series.setdefault(name, {})[r[x_key]] = r.get("cycles")
    lines = [(name, [by_x.get(x) for x in x_values]) for name, by_x in series.items()]
    svg = svg_plot.line_chart(f"{spec.name}: cycles per inference", x_key, x_values, lines,
                              "cycles")
    with open(path + ".tmp", "w") as f:
        f.write(svg)
    os.replace(path + ".tmp", path)


def label_of(spec):
    fields = [a.field for a in spec.axes] + [a.field for g in spec.linked for a in g.axes]
    several = len(spec.models) > 1
    return lambda r: " ".join([f"{k.split('.')[-1]}={r[k]}" for k in fields] +
                              ([r["model"]] if several else []))


def run_sweep(args, spec):
    build = tool_build(args.tool)
    order = [(spec_mod.model_label(m), p) for m in spec.models for p in spec_mod.points(spec)]
    with Store(args.db) as store:
        sweep_id = store.sweep_id(spec.name, spec_mod.spec_hash(spec),
                                  text_format.MessageToString(spec))
        done = finished_points(store, sweep_id, build)
        todo = [(m, p) for i, (m, p) in enumerate(order) if (m, point_key(p)) not in done
                and (args.task_index is None or i % args.task_count == args.task_index)]
        where = "" if args.task_index is None else \
            f" (Slurm task {args.task_index} of {args.task_count})"
        print(f"sweep '{spec.name}'{where}: {len(order)} points; {len(done)} finished "
              f"before by this build (skipped); running {len(todo)} with "
              f"{'Slurm' if args.slurm else f'{args.jobs} jobs'}; store {args.db}",
              file=sys.stderr)
        if args.slurm and todo:
            run_on_slurm(args, store, sweep_id, build, len(order), len(todo))
            todo = []
        children = children_mod.Children()
        interrupted = False
        csv_written = 0.0
        try:
            n = 0
            for model in spec.models:
                mine = [p for m, p in todo if m == spec_mod.model_label(model)]
                if not mine:
                    continue
                for assignment, row, layers in run_batch(children, args.tool, spec, model,
                                                         mine, args.jobs):
                    n += 1
                    store.add_sweep_point(dict(row, sweep_id=sweep_id), layers)
                    print(f"  [{n}/{len(todo)}] {row['model']} {dict(assignment)}: "
                          f"{row['status']}" + (f" ({row['error']})" if row.get("error") else
                                                f", {row.get('cycles'):,} cycles"),
                          file=sys.stderr, flush=True)
                    if args.csv and time.monotonic() - csv_written >= CSV_EVERY_SECONDS:
                        write_csv(args.csv, spec, table(spec, store, sweep_id, order))
                        csv_written = time.monotonic()
        except KeyboardInterrupt:
            interrupted = True
            children.kill_all()
        rows = table(spec, store, sweep_id, order)
    if args.task_index is not None:  # a Slurm task: the driver writes the outputs
        return 0
    if args.csv:
        write_csv(args.csv, spec, rows)
    if interrupted:
        print(f"sweep: interrupted; {len(rows)} of {len(order)} points stored, rerun the same "
              "command to finish the rest", file=sys.stderr)
        return EXIT_INTERRUPTED
    if not args.csv:
        write_csv_rows(sys.stdout, spec, rows)
    if args.plot:
        write_plot(args.plot, spec, rows)
    if args.pareto:
        import pareto
        for path in pareto.charts(rows, label_of(spec), args.pareto, spec.name):
            print(f"sweep: wrote {path}", file=sys.stderr)
    if spec.constraints and rows and all(r["excluded"] or r["status"] not in ("pass", "skipped")
                                         for r in rows):
        raise PerfError("no point meets the constraints ("
                        + "; ".join(f"{c.metric} {c.op} {c.value:g}" for c in spec.constraints)
                        + "); every point is stored")
    failed = [r for r in rows if r["status"] not in ("pass", "skipped")]
    return EXIT_FAIL if failed else 0


def task_command(args):
    """The command each Slurm array task runs: this sweep, one share of its points."""
    cmd = [os.path.abspath(__file__)]
    if args.spec:
        cmd += ["--spec", os.path.abspath(args.spec)]
    else:
        cmd.append(args.model)
        for g in args.grid:
            cmd += ["--grid", g]
        for item in args.set:
            cmd += ["--set", item]
        if args.timing_only:
            cmd.append("--timing-only")
    return cmd + ["--tool", os.path.abspath(args.tool), "--db", os.path.abspath(args.db),
                  "--jobs", "1", "--task-count", str(args.slurm_tasks)]


def run_on_slurm(args, store, sweep_id, build, total, todo):
    import slurm
    args.slurm_tasks = max(1, min(args.slurm_tasks or todo, todo))
    log_dir = os.path.join(os.path.dirname(os.path.abspath(args.db)), "slurm",
                           f"sweep{sweep_id}-{int(time.time())}")
    job = slurm.submit(task_command(args), args.slurm_tasks, log_dir, args.slurm_option)
    slurm.log(f"sweep: Slurm job {job}: {args.slurm_tasks} array tasks, logs in {log_dir}")

    def progress(left):
        stored = len(finished_points(store, sweep_id, build))
        slurm.log(f"  Slurm job {job}: {stored} of {total} points stored, {left} tasks left")
    slurm.wait(job, progress)
    failures = slurm.failed_tasks(log_dir, args.slurm_tasks)
    if failures:
        slurm.log("sweep: Slurm tasks that failed:\n  " + "\n  ".join(failures))


def parse_args(argv):
    root = os.path.dirname(os.path.dirname(HERE))
    p = argparse.ArgumentParser(prog="sweep", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("model", nargs="?", help="a model run_workload knows (or give --spec)")
    p.add_argument("--spec", help="a sweep spec textproto (tools/sweep/sweep_spec.proto)")
    p.add_argument("--grid", action="append", default=[], metavar="KEY=V1,V2,...",
                   help="a config field and the values to sweep (repeatable: cross product); "
                        "precision=int8,w4a8,auto sweeps run_workload's --precision")
    p.add_argument("--set", action="append", default=[], metavar="KEY=VALUE",
                   help="a config override for every point")
    p.add_argument("--timing-only", action="store_true", help="skip data (cycles identical)")
    p.add_argument("--csv", help="write the table here, as points finish (default: stdout at "
                                 "the end)")
    p.add_argument("--plot", metavar="FILE.svg", help="cycles against the first axis, as SVG")
    p.add_argument("--pareto", metavar="PREFIX",
                   help="Pareto charts PREFIX-<cost>-vs-<cost>.svg (matplotlib)")
    p.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    p.add_argument("--db", default=default_path(root), help="results store")
    p.add_argument("--tool", default=os.path.join(root, "build", "tools", "run_workload"))
    p.add_argument("--slurm", action="store_true",
                   help="run the points as a Slurm job array (sbatch); wait and collect")
    p.add_argument("--slurm-tasks", type=int, metavar="N",
                   help="array tasks (default: one per point to run)")
    p.add_argument("--slurm-option", action="append", default=[], metavar="OPT",
                   help="an sbatch option for the array, e.g. --partition=big (repeatable)")
    p.add_argument("--task-index", type=int, help=argparse.SUPPRESS)  # a Slurm array task
    p.add_argument("--task-count", type=int, help=argparse.SUPPRESS)
    args = p.parse_args(argv)
    if bool(args.spec) == bool(args.model):
        p.error("give a MODEL with --grid, or --spec FILE")
    if args.spec and (args.grid or args.set or args.timing_only):
        p.error("--grid, --set and --timing-only go in the spec file with --spec")
    if args.jobs < 1:
        p.error("--jobs must be at least 1")
    if (args.task_index is None) != (args.task_count is None) or \
            (args.task_count is not None and not 0 <= args.task_index < args.task_count):
        p.error("--task-index and --task-count go together, index below count")
    if args.slurm_tasks is not None and args.slurm_tasks < 1:
        p.error("--slurm-tasks must be at least 1")
    if not os.access(args.tool, os.X_OK):
        p.error(f"--tool {args.tool}: not an executable (build run_workload first)")
    return args


def main(argv):
    args = parse_args(argv)
    try:
        spec = (spec_mod.load(args.spec) if args.spec else
                spec_mod.from_command_line(args.model, args.grid, args.set, args.timing_only))
        return run_sweep(args, spec)
    except PerfError as e:
        print(f"sweep: {e}", file=sys.stderr)
        return EXIT_ERROR
    except KeyboardInterrupt:  # outside the points loop: while submitting or waiting for Slurm
        print("sweep: interrupted (a Slurm job was cancelled); finished points are stored, rerun "
              "to finish the rest", file=sys.stderr)
        return EXIT_INTERRUPTED


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
