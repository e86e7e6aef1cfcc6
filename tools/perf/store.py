"""The results store: one SQLite file (docs/perf.md documents the schema).

Every write happens in one transaction, so a killed or failed command never leaves a run half
stored; re-recording the same (commit, dirty, model, config, variant) replaces the earlier run.
"""
import os
import sqlite3

from errors import PerfError

SCHEMA_NAME = "npu-perf-store"
SCHEMA_VERSION = 2

# Totals stored per run, in report.json's `totals` (except where noted in docs/perf.md).
TOTAL_FIELDS = [
    "cycles", "predicted_cycles", "macs", "mac_utilisation", "dram_read_bytes",
    "dram_write_bytes", "roofline_cycles", "roofline_ratio", "peak_sram_bytes", "latency_us",
]
LAYER_FIELDS = [
    "name", "op", "engine", "cycles", "predicted_cycles", "macs", "mac_utilisation",
    "dram_read_bytes", "dram_write_bytes", "roofline_cycles", "peak_sram_bytes",
]

_SCHEMA = """
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
-- position: the commit's number in history (git rev-list --count), which orders the dashboard.
CREATE TABLE commits (
  sha TEXT PRIMARY KEY, subject TEXT NOT NULL, commit_time INTEGER NOT NULL,
  position INTEGER NOT NULL);
CREATE TABLE runs (
  id INTEGER PRIMARY KEY,
  sha TEXT NOT NULL REFERENCES commits(sha), dirty INTEGER NOT NULL,
  model TEXT NOT NULL, config TEXT NOT NULL, variant TEXT NOT NULL,
  status TEXT NOT NULL,            -- pass, fail, skipped (timing-only), error
  error TEXT,                      -- why, when status is error
  version TEXT, build_type TEXT, timestamp TEXT, host TEXT, command_line TEXT,
  model_checksum TEXT, config_fingerprint TEXT,
  cycles INTEGER, predicted_cycles INTEGER, macs INTEGER, mac_utilisation REAL,
  dram_read_bytes INTEGER, dram_write_bytes INTEGER, roofline_cycles INTEGER,
  roofline_ratio REAL, peak_sram_bytes INTEGER, latency_us REAL,
  accuracy_cosine REAL, accuracy_snr_db REAL,
  compile_seconds REAL, simulate_seconds REAL, wall_seconds REAL,
  recorded_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now')),
  UNIQUE (sha, dirty, model, config, variant));
CREATE TABLE layers (
  run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE, idx INTEGER NOT NULL,
  name TEXT, op TEXT, engine TEXT, cycles INTEGER, predicted_cycles INTEGER, macs INTEGER,
  mac_utilisation REAL, dram_read_bytes INTEGER, dram_write_bytes INTEGER,
  roofline_cycles INTEGER, peak_sram_bytes INTEGER,
  PRIMARY KEY (run_id, idx));
-- Commits backfill tried and could not record (build failed, tool too old): not tried again.
CREATE TABLE skipped_commits (sha TEXT PRIMARY KEY, reason TEXT NOT NULL);
CREATE INDEX runs_by_key ON runs (model, config, variant);
"""

# Version 2: design-space sweeps (tools/sweep). A sweep is its spec (by content hash); each
# finished point is stored at once, with its layers, so a rerun skips it.
_SWEEP_SCHEMA = """
CREATE TABLE sweeps (
  id INTEGER PRIMARY KEY, name TEXT NOT NULL, spec_hash TEXT NOT NULL UNIQUE,
  spec TEXT NOT NULL,
  created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now')));
CREATE TABLE sweep_points (
  id INTEGER PRIMARY KEY,
  sweep_id INTEGER NOT NULL REFERENCES sweeps(id) ON DELETE CASCADE,
  model TEXT NOT NULL, point TEXT NOT NULL,   -- point: the swept fields, canonical JSON
  status TEXT NOT NULL, error TEXT,
  sha TEXT, dirty INTEGER, version TEXT, host TEXT, command_line TEXT,
  model_checksum TEXT, config_fingerprint TEXT,
  cycles INTEGER, predicted_cycles INTEGER, macs INTEGER, mac_utilisation REAL,
  dram_read_bytes INTEGER, dram_write_bytes INTEGER, roofline_cycles INTEGER,
  roofline_ratio REAL, peak_sram_bytes INTEGER, latency_us REAL,
  energy_pj REAL, area_mm2 REAL,
  accuracy_cosine REAL, accuracy_snr_db REAL,
  compile_seconds REAL, simulate_seconds REAL, wall_seconds REAL,
  recorded_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now')),
  UNIQUE (sweep_id, model, point));
CREATE TABLE sweep_layers (
  point_id INTEGER NOT NULL REFERENCES sweep_points(id) ON DELETE CASCADE, idx INTEGER NOT NULL,
  name TEXT, op TEXT, engine TEXT, cycles INTEGER, predicted_cycles INTEGER, macs INTEGER,
  mac_utilisation REAL, dram_read_bytes INTEGER, dram_write_bytes INTEGER,
  roofline_cycles INTEGER, peak_sram_bytes INTEGER,
  PRIMARY KEY (point_id, idx));
"""


def _add_sweeps(db):
    for statement in _SWEEP_SCHEMA.split(";"):
        if statement.strip():
            db.execute(statement)


# The column naming a layer's run (or sweep point), per layer table.
_LAYER_OWNER = {"layers": "run_id", "sweep_layers": "point_id"}

# Migrations from version N to N+1, each run in one transaction.
_MIGRATIONS = {1: _add_sweeps}


def default_path(root):
    return os.path.join(root, "build", "perf", "perf.sqlite")


class Store:
    """An open results store. Use as a context manager; writes go through transaction()."""

    def __init__(self, path, create=True):
        self.path = path
        if not create and not os.path.exists(path):
            raise PerfError(f"{path}: no results store (run `tools/npu perf record` first)")
        if create:
            os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
        try:
            # Several processes may write one store (parallel sweeps, Slurm tasks): wait for locks.
            self.db = sqlite3.connect(path, timeout=60)
            self.db.row_factory = sqlite3.Row
            self.db.execute("PRAGMA foreign_keys = ON")
            self._open_schema()
        except sqlite3.DatabaseError as e:
            raise PerfError(f"{path}: not a results store ({e})") from e

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.db.close()

    def _open_schema(self):
        tables = {r[0] for r in self.db.execute("SELECT name FROM sqlite_master WHERE type='table'")}
        if not tables:
            with self.db:
                self.db.executescript("BEGIN;" + _SCHEMA + _SWEEP_SCHEMA + "COMMIT;")
                self.db.execute("INSERT INTO meta VALUES ('schema', ?)", (SCHEMA_NAME,))
                self.db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
            return
        name = None
        if "meta" in tables:
            row = self.db.execute("SELECT value FROM meta WHERE key='schema'").fetchone()
            name = row[0] if row else None
        if name != SCHEMA_NAME:
            raise PerfError(f"{self.path}: an SQLite database but not a results store "
                            f"(tables: {', '.join(sorted(tables))})")
        version = self.db.execute("PRAGMA user_version").fetchone()[0]
        if version > SCHEMA_VERSION:
            raise PerfError(f"{self.path}: schema version {version} is newer than this tool's "
                            f"({SCHEMA_VERSION}); use a newer checkout")
        while version < SCHEMA_VERSION:
            if version not in _MIGRATIONS:
                raise PerfError(f"{self.path}: schema version {version} cannot be migrated to "
                                f"{SCHEMA_VERSION}")
            with self.db:
                _MIGRATIONS[version](self.db)
                version += 1
                self.db.execute(f"PRAGMA user_version = {version}")

    def transaction(self):
        """`with store.transaction():` commits on success, rolls back on any exception."""
        return self.db

    # Writes (call inside transaction()).

    def add_commit(self, commit):
        """`commit`: a dict with sha, subject, commit_time, position (git_info.describe)."""
        self.db.execute("INSERT OR REPLACE INTO commits VALUES (?, ?, ?, ?)",
                        (commit["sha"], commit["subject"], commit["commit_time"],
                         commit["position"]))

    def _replace(self, table, key, row, layer_table, layers):
        """Deletes `table`'s row matching `row` on the `key` columns (its layers go with it: ON
        DELETE CASCADE), inserts `row` and its `layers` into `layer_table`; returns the new id."""
        self.db.execute(f"DELETE FROM {table} WHERE " + " AND ".join(f"{k}=?" for k in key),
                        [row[k] for k in key])
        cols = list(row)
        row_id = self.db.execute(f"INSERT INTO {table} ({', '.join(cols)}) VALUES "
                                 f"({', '.join('?' for _ in cols)})",
                                 [row[c] for c in cols]).lastrowid
        self.db.executemany(
            f"INSERT INTO {layer_table} ({_LAYER_OWNER[layer_table]}, idx, "
            f"{', '.join(LAYER_FIELDS)}) VALUES (?, ?, {', '.join('?' for _ in LAYER_FIELDS)})",
            [[row_id, i] + [l.get(f) for f in LAYER_FIELDS] for i, l in enumerate(layers)])
        return row_id

    def add_run(self, run, layers):
        """Stores `run` (a dict of runs' columns) and its layers, replacing an earlier run of the
        same key. Returns the new run id."""
        return self._replace("runs", ("sha", "dirty", "model", "config", "variant"), run,
                             "layers", layers)

    def skip_commit(self, sha, reason):
        self.db.execute("INSERT OR REPLACE INTO skipped_commits VALUES (?, ?)", (sha, reason))

    # Reads.

    def runs(self, where="1", args=()):
        return [dict(r) for r in self.db.execute(
            f"SELECT runs.*, commits.subject, commits.commit_time FROM runs "
            f"JOIN commits USING (sha) WHERE {where} ORDER BY commits.position, commits.commit_time, runs.id", args)]

    def layers(self, run_id):
        return [dict(r) for r in self.db.execute(
            "SELECT * FROM layers WHERE run_id=? ORDER BY idx", (run_id,))]

    def commits(self):
        """Recorded commits, oldest first."""
        return [dict(r) for r in self.db.execute(
            "SELECT * FROM commits WHERE sha IN (SELECT sha FROM runs) "
            "ORDER BY position, commit_time, sha")]

    def skipped(self):
        return {r[0]: r[1] for r in self.db.execute("SELECT sha, reason FROM skipped_commits")}

    # Sweeps (tools/sweep).

    def sweep_id(self, name, spec_hash, spec):
        """The id of the sweep with this spec, created if new."""
        row = self.db.execute("SELECT id FROM sweeps WHERE spec_hash=?", (spec_hash,)).fetchone()
        if row:
            return row[0]
        with self.db:
            return self.db.execute("INSERT INTO sweeps (name, spec_hash, spec) VALUES (?, ?, ?)",
                                   (name, spec_hash, spec)).lastrowid

    def add_sweep_point(self, point, layers):
        """Stores one finished point and its layers in one transaction, replacing an earlier
        result of the same point."""
        with self.db:
            return self._replace("sweep_points", ("sweep_id", "model", "point"), point,
                                 "sweep_layers", layers)

    def sweep_points(self, sweep_id):
        return [dict(r) for r in self.db.execute(
            "SELECT * FROM sweep_points WHERE sweep_id=? ORDER BY id", (sweep_id,))]

    def latest_sweep(self):
        row = self.db.execute("SELECT * FROM sweeps WHERE id IN (SELECT sweep_id FROM "
                              "sweep_points) ORDER BY id DESC LIMIT 1").fetchone()
        return dict(row) if row else None
