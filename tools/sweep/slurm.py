"""Scale-out: a sweep as a Slurm job array. Each array task runs `sweep.py ... --task-index I
--task-count N`, the points whose index is I modulo N, storing each finished point in the results
store as a local sweep does; the driver waits, follows progress through the store and builds the
table from it. On a cluster the store must be on a file system every node shares."""
import os
import shlex
import shutil
import subprocess
import sys
import time

from errors import PerfError

POLL_SECONDS = 2


def _slurm(cmd):
    if not shutil.which(cmd[0]):
        raise PerfError(f"Slurm: {cmd[0]} not found (Debian: slurm-wlm; or run without --slurm)")
    result = subprocess.run(cmd, capture_output=True, text=True)
    if result.returncode != 0:
        raise PerfError(f"Slurm: {' '.join(cmd[:2])} failed: "
                        f"{(result.stderr or result.stdout).strip() or result.returncode}")
    return result.stdout.strip()


def submit(task_command, tasks, log_dir, options):
    """Submits the array; returns the job id. task_command gets --task-index from Slurm."""
    os.makedirs(log_dir, exist_ok=True)
    script = os.path.join(log_dir, "task.sh")
    with open(script, "w") as f:
        f.write("#!/bin/sh\n# One task of a sweep's Slurm job array (tools/sweep/slurm.py).\n"
                f"exec {shlex.join(task_command)} --task-index \"$SLURM_ARRAY_TASK_ID\"\n")
    os.chmod(script, 0o755)
    return _slurm(["sbatch", "--parsable", f"--array=0-{tasks - 1}", "--job-name=npu-sweep",
                   f"--output={os.path.join(log_dir, 'task-%a.log')}", *options,
                   script]).split(";")[0]


def running(job):
    """Array tasks of `job` still queued or running."""
    return len(_slurm(["squeue", "-h", "-j", job, "-o", "%i"]).split())


def wait(job, progress):
    """Waits for the job to leave the queue, calling progress(tasks left) as it goes; on Ctrl-C
    cancels the job and re-raises."""
    try:
        while True:
            left = running(job)
            progress(left)
            if left == 0:
                return
            time.sleep(POLL_SECONDS)
    except KeyboardInterrupt:
        subprocess.run(["scancel", job], capture_output=True)
        raise


def failed_tasks(log_dir, tasks):
    """Tail lines of task logs that ended in an error (a traceback or 'sweep:' error)."""
    failures = []
    for i in range(tasks):
        log = os.path.join(log_dir, f"task-{i}.log")
        if not os.path.exists(log):
            failures.append(f"task {i}: no log (did it run?)")
            continue
        with open(log, errors="replace") as f:
            lines = f.read().strip().splitlines()
        if any(l.startswith("Traceback") or l.startswith("sweep: ") for l in lines):
            failures.append(f"task {i}: {lines[-1] if lines else ''}")
    return failures


def log(message):
    print(message, file=sys.stderr, flush=True)
