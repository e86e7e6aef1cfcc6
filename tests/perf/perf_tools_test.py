#!/usr/bin/python3
"""tools/perf as its users run it: record a suite into the store (re-recording replaces), compare
commits, run ids and report.json files with the gates (a one-cycle change fails --exact), the
store's schema checks and transactions, and bad input: clear errors, exit status 2, nothing
half-written.

Usage: perf_tools_test.py RUN_WORKLOAD SOURCE_DIR
"""
import json
import os
import sqlite3
import subprocess
import sys
import tempfile
import unittest

TOOL, SOURCE = sys.argv[1], sys.argv[2]
PERF = os.path.join(SOURCE, "tools", "perf", "perf.py")
sys.path.insert(0, os.path.dirname(PERF))

import store as store_mod  # noqa: E402
from errors import PerfError  # noqa: E402

SUITE = """
models: ["mlp", "fc"]
configs: ["default", "tiny"]
variants { name: "" }
variants { name: "rows16" args: ["--set", "mac.rows=16"] }
timing_only: true
"""


def perf(*args, expect=0):
    p = subprocess.run([PERF, *args, "--tool", TOOL, "--root", SOURCE], capture_output=True,
                       text=True)
    if p.returncode != expect:
        raise AssertionError(f"perf {' '.join(args)}: exit {p.returncode}, expected {expect}\n"
                             f"{p.stdout}\n{p.stderr}")
    return p


def report(path, model="mlp", *extra):
    subprocess.run([TOOL, model, "--quiet", "--timing-only", "--json", path, *extra], check=True,
                   capture_output=True)
    return path


class PerfTools(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.dir = self.tmp.name
        self.db = os.path.join(self.dir, "perf.sqlite")
        self.suite = os.path.join(self.dir, "suite.textproto")
        with open(self.suite, "w") as f:
            f.write(SUITE)

    def tearDown(self):
        self.tmp.cleanup()

    def rows(self, sql):
        with sqlite3.connect(self.db) as db:
            return db.execute(sql).fetchall()

    def test_record_stores_every_point_and_rerecording_replaces(self):
        perf("record", "--db", self.db, "--suite", self.suite, "--jobs", "2")
        self.assertEqual(self.rows("SELECT COUNT(*) FROM runs")[0][0], 8)
        runs = self.rows("SELECT model, config, variant, status, cycles, command_line, sha "
                         "FROM runs ORDER BY model, config, variant")
        self.assertEqual({r[:3] for r in runs},
                         {(m, c, v) for m in ("mlp", "fc") for c in ("default", "tiny")
                          for v in ("", "rows16")})
        for r in runs:
            self.assertEqual(r[3], "skipped")  # timing-only: not checked
            self.assertGreater(r[4], 0)
            self.assertEqual("--config" in r[5], r[1] != "default")
            self.assertRegex(r[6], "^[0-9a-f]{40}$")
        rows16 = dict(((r[0], r[1]), r[4]) for r in runs if r[2] == "rows16")
        plain = dict(((r[0], r[1]), r[4]) for r in runs if r[2] == "")
        self.assertNotEqual(rows16[("fc", "default")], plain[("fc", "default")])
        layers = self.rows("SELECT COUNT(*) FROM layers")[0][0]
        self.assertGreater(layers, 8)
        perf("record", "--db", self.db, "--suite", self.suite)
        self.assertEqual(self.rows("SELECT COUNT(*) FROM runs")[0][0], 8)
        self.assertEqual(self.rows("SELECT COUNT(*) FROM layers")[0][0], layers)
        # The same commit against itself: nothing changed, every gate passes.
        sha = runs[0][6]
        out = perf("compare", "--db", self.db, sha, sha, "--exact").stdout
        self.assertIn("0 of 8 compared runs changed cycles", out)
        run_id = self.rows("SELECT MIN(id) FROM runs")[0][0]
        one = perf("compare", "--db", self.db, f"#{run_id}", f"#{run_id}", "--json", "-").stdout
        self.assertEqual(len(json.loads(one)["entries"]), 1)

    def test_compare_gates_catch_a_one_cycle_change(self):
        a = report(os.path.join(self.dir, "a.json"))
        with open(a) as f:
            data = json.load(f)
        data["totals"]["cycles"] += 1
        data["layers"][-1]["cycles"] += 1
        b = os.path.join(self.dir, "b.json")
        with open(b, "w") as f:
            json.dump(data, f)
        perf("compare", a, a, "--exact")
        out = perf("compare", a, b, "--exact", "--json", "-", expect=1)
        entry = json.loads(out.stdout)["entries"][0]
        self.assertEqual(entry["cycles_b"] - entry["cycles_a"], 1)
        self.assertEqual(entry["layers"][0]["delta_cycles"], 1)
        self.assertIn("beyond the gate", out.stderr)
        perf("compare", a, b, "--threshold", "1")  # a one-cycle change is far below 1 %
        perf("compare", a, b, "--threshold", "0", expect=1)
        table = perf("compare", a, b).stdout
        self.assertIn("1 of 1 compared runs changed cycles", table)

    def test_bad_input_is_a_clear_error(self):
        bad = os.path.join(self.dir, "bad.json")
        with open(bad, "w") as f:
            f.write("{\"schema\": \"npu-run-report\", \"model\": ")
        self.assertIn("not a JSON run report", perf("compare", bad, bad, expect=2).stderr)
        with open(bad, "w") as f:
            json.dump({"schema": "something-else"}, f)
        self.assertIn("not a run_workload report", perf("compare", bad, bad, expect=2).stderr)
        perf("record", "--db", self.db, "--suite", self.suite)
        self.assertIn("unknown revision 'no-such-rev'",
                      perf("compare", "--db", self.db, "no-such-rev", "HEAD", expect=2).stderr)
        for text, message in (('models: ["resnet99"]', "unknown model 'resnet99'"),
                              ('models: ["mlp"] configs: ["huge"]', "unknown config 'huge'"),
                              ('models: ["missing.onnx"]', "model file 'missing.onnx' not found"),
                              ('modelz: ["mlp"]', "modelz"),
                              ('models: ["mlp"] variants {name: "a"} variants {name: "a"}',
                               "variant names must differ")):
            with open(self.suite, "w") as f:
                f.write(text)
            self.assertIn(message, perf("record", "--db", self.db, "--suite", self.suite,
                                        expect=2).stderr, text)
        self.assertEqual(self.rows("SELECT COUNT(*) FROM runs")[0][0], 8)  # untouched

    def test_store_refuses_foreign_and_newer_databases(self):
        foreign = os.path.join(self.dir, "foreign.sqlite")
        with sqlite3.connect(foreign) as db:
            db.execute("CREATE TABLE t (x)")
        with self.assertRaisesRegex(PerfError, "not a results store"):
            store_mod.Store(foreign)
        with open(self.db, "wb") as f:
            f.write(b"garbage, not SQLite" * 100)
        with self.assertRaisesRegex(PerfError, "not a results store"):
            store_mod.Store(self.db)
        os.remove(self.db)
        store_mod.Store(self.db).db.close()
        with sqlite3.connect(self.db) as db:
            db.execute(f"PRAGMA user_version = {store_mod.SCHEMA_VERSION + 1}")
        with self.assertRaisesRegex(PerfError, "newer than this tool's"):
            store_mod.Store(self.db)

    def test_a_version_1_store_is_migrated(self):
        with store_mod.Store(self.db) as s, s.transaction():
            s.add_commit({"sha": "a" * 40, "subject": "s", "commit_time": 1, "position": 1})
            s.add_run({"sha": "a" * 40, "dirty": 0, "model": "m", "config": "c", "variant": "",
                       "status": "pass", "cycles": 5}, [])
        with sqlite3.connect(self.db) as db:  # as version 1 left it: no sweep tables
            for table in ("sweep_layers", "sweep_points", "sweeps"):
                db.execute(f"DROP TABLE {table}")
            db.execute("PRAGMA user_version = 1")
        with store_mod.Store(self.db) as s:
            self.assertEqual(s.db.execute("PRAGMA user_version").fetchone()[0],
                             store_mod.SCHEMA_VERSION)
            self.assertEqual([r["cycles"] for r in s.runs()], [5])
            sweep = s.sweep_id("n", "h", "spec")
            s.add_sweep_point({"sweep_id": sweep, "model": "m", "point": "{}", "status": "pass"},
                              [])
            self.assertEqual(len(s.sweep_points(sweep)), 1)

    def test_a_failed_write_leaves_the_store_as_it_was(self):
        with store_mod.Store(self.db) as s:
            commit = {"sha": "a" * 40, "subject": "s", "commit_time": 1, "position": 1}
            run = {"sha": "a" * 40, "dirty": 0, "model": "m", "config": "c", "variant": "",
                   "status": "pass", "cycles": 5}
            with s.transaction():
                s.add_commit(commit)
                s.add_run(run, [{"name": "l", "cycles": 5}])
            with self.assertRaises(sqlite3.IntegrityError):
                with s.transaction():
                    s.add_run(dict(run, cycles=6), [{"name": "l"}, {"name": "m"}])
                    s.add_run(dict(run, sha="b" * 40), [])  # no such commit: fails
            self.assertEqual([r["cycles"] for r in s.runs()], [5])
            self.assertEqual(len(s.layers(s.runs()[0]["id"])), 1)

    def test_backfill_chooses_unrecorded_commits_oldest_first(self):
        import backfill
        repo = os.path.join(self.dir, "repo")
        os.makedirs(repo)
        git = lambda *a: subprocess.run(["git", "-C", repo, *a], check=True, capture_output=True,
                                        text=True).stdout.strip()
        git("init", "-q")
        for i in range(6):
            git("-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q", "--allow-empty",
                "-m", f"c{i}")
        shas = git("rev-list", "--reverse", "HEAD").split()
        with store_mod.Store(self.db) as s:
            self.assertEqual(backfill.commits_to_record(repo, s, None, "HEAD", 1), shas)
            self.assertEqual(backfill.commits_to_record(repo, s, shas[1], "HEAD", 1), shas[2:])
            # Every 2nd, counted back from the newest, which is always kept.
            self.assertEqual(backfill.commits_to_record(repo, s, None, "HEAD", 2), shas[1::2])
            with s.transaction():
                s.add_commit({"sha": shas[5], "subject": "c5", "commit_time": 5, "position": 6})
                s.add_run({"sha": shas[5], "dirty": 0, "model": "m", "config": "c",
                           "variant": "", "status": "pass", "cycles": 1}, [])
                s.skip_commit(shas[3], "build failed")
            self.assertEqual(backfill.commits_to_record(repo, s, None, "HEAD", 1),
                             [shas[0], shas[1], shas[2], shas[4]])
            with self.assertRaisesRegex(PerfError, "unknown revision 'nope'"):
                backfill.commits_to_record(repo, s, "nope", "HEAD", 1)


if __name__ == "__main__":
    unittest.main(argv=sys.argv[:1], verbosity=2)
