#!/usr/bin/python3
"""A sweep on a real one-node Slurm (Debian's slurm-wlm and munge): the test starts munged,
slurmctld and slurmd with a private config and ports, runs `sweep --slurm` as a job array, and
checks every point is stored and tabulated once; with the controller stopped, --slurm is a clear
error (exit 2). It needs root to start the daemons: otherwise, or if they will not start, it says
why and exits 77 (ctest: skipped).

Usage: slurm_test.py RUN_WORKLOAD SOURCE_DIR
"""
import csv
import os
import shutil
import socket
import sqlite3
import subprocess
import sys
import tempfile
import time

TOOL, SOURCE = sys.argv[1], sys.argv[2]
SWEEP = os.path.join(SOURCE, "tools", "sweep", "sweep.py")
SKIP = 77


def skip(why):
    print(f"SKIPPED: {why}")
    sys.exit(SKIP)


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def write_config(folder):
    host = socket.gethostname().split(".")[0]
    cpus = os.cpu_count() or 1
    conf = os.path.join(folder, "slurm.conf")
    for sub in ("state", "spool"):
        os.makedirs(os.path.join(folder, sub))
    with open(conf, "w") as f:
        f.write(f"""ClusterName=npu-sweep-test
SlurmctldHost={host}
SlurmctldPort={free_port()}
SlurmdPort={free_port()}
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
StateSaveLocation={folder}/state
SlurmdSpoolDir={folder}/spool
SlurmctldPidFile={folder}/slurmctld.pid
SlurmdPidFile={folder}/slurmd.pid
SlurmctldLogFile={folder}/slurmctld.log
SlurmdLogFile={folder}/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
JobAcctGatherType=jobacct_gather/none
MpiDefault=none
ReturnToService=2
NodeName={host} NodeAddr=127.0.0.1 CPUs={cpus} State=UNKNOWN
PartitionName=sweep Nodes={host} Default=YES MaxTime=INFINITE State=UP
""")
    return conf


def munge_works():
    p = subprocess.run("munge -n | unmunge", shell=True, capture_output=True)
    return p.returncode == 0


def start_daemons(folder, env):
    started = []
    if not munge_works():
        os.makedirs("/run/munge", exist_ok=True)
        subprocess.run(["munged", "--force"], capture_output=True)
        if not munge_works():
            skip("munged would not start (munge -n | unmunge fails)")
        started.append("munged")
    for daemon in (["slurmctld", "-i"], ["slurmd"]):
        p = subprocess.run(daemon, env=env, capture_output=True, text=True)
        if p.returncode != 0:
            skip(f"{daemon[0]} would not start: {p.stderr.strip()}")
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        p = subprocess.run(["sinfo", "-h", "-o", "%T"], env=env, capture_output=True, text=True)
        if p.returncode == 0 and p.stdout.strip() in ("idle", "mixed"):
            return started
        time.sleep(0.5)
    logs = open(os.path.join(folder, "slurmd.log"), errors="replace").read()[-400:]
    skip(f"the node did not become idle within 60 s: {logs}")


def stop_daemons(folder):
    for name in ("slurmd", "slurmctld"):
        try:
            with open(os.path.join(folder, f"{name}.pid")) as f:
                os.kill(int(f.read().strip()), 15)
        except (OSError, ValueError):
            pass
    time.sleep(1)


def check(condition, what):
    if not condition:
        print(f"FAIL: {what}")
        sys.exit(1)
    print(f"ok: {what}")


def main():
    if os.geteuid() != 0:
        skip("not root: starting slurmctld, slurmd and munged needs root")
    missing = [d for d in ("slurmctld", "slurmd", "sbatch", "munged") if not shutil.which(d)]
    if missing:
        skip(f"{', '.join(missing)} not installed (Debian: slurm-wlm, munge; tools/npu test "
             "installs them)")
    folder = tempfile.mkdtemp(prefix="npu-slurm-")
    os.chmod(folder, 0o755)
    env = dict(os.environ, SLURM_CONF=write_config(folder))
    db, out = os.path.join(folder, "store.sqlite"), os.path.join(folder, "sweep.csv")
    cmd = [SWEEP, "conv3x3", "--grid", "mac.rows=8,16", "--grid", "mac.cols=8,16",
           "--timing-only", "--slurm", "--slurm-tasks", "2", "--tool", TOOL, "--db", db,
           "--csv", out]
    try:
        start_daemons(folder, env)
        p = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=600)
        print(p.stderr)
        check(p.returncode == 0, f"sweep --slurm exited {p.returncode}")
        check("Slurm job" in p.stderr and "2 array tasks" in p.stderr, "submitted as an array")
        with sqlite3.connect(db) as c:
            hosts = c.execute("SELECT COUNT(*), COUNT(DISTINCT point) FROM sweep_points").fetchone()
        check(hosts == (4, 4), f"4 distinct points stored (got {hosts})")
        rows = list(csv.DictReader(open(out)))
        check(len(rows) == 4 and all(int(r["cycles"]) > 0 for r in rows), "the CSV has 4 rows")
        logs = [f for f in os.listdir(os.path.join(folder, "slurm")) if f.startswith("sweep")]
        check(len(logs) == 1, "task logs kept beside the store")
        again = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=600)
        check(again.returncode == 0 and "running 0" in again.stderr and
              "Slurm job" not in again.stderr, "a rerun finds every point done, submits nothing")
    finally:
        stop_daemons(folder)
    os.remove(db)
    p = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=120)
    check(p.returncode == 2 and "Slurm" in p.stderr and "Traceback" not in p.stderr,
          f"an unreachable controller is a clear error: {p.stderr.strip()[-200:]}")
    shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
