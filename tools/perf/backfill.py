"""History: builds earlier commits in a scratch worktree and records them, oldest first.

One scratch worktree (build/perf/backfill/src) moves from commit to commit and keeps its build
folder, so each commit rebuilds only what changed (with ccache when installed). A commit that
cannot be recorded (build failed, a tool without JSON reports) is remembered as skipped with the
reason and not tried again.
"""
import os
import shutil
import subprocess
import sys

import git_info
import runner
from errors import PerfError

TARGET = "run_workload"


def commits_to_record(root, store, since, until, every):
    """Commits on the first-parent line from `since` (exclusive) to `until`, oldest first, every
    `every`-th one, without those already recorded (clean) or skipped. `until` is always kept."""
    until_sha = git_info.resolve(root, until)
    spec = f"{git_info.resolve(root, since)}..{until_sha}" if since else until_sha
    line = git_info.git(root, "rev-list", "--reverse", "--first-parent", spec).split()
    chosen = [sha for i, sha in enumerate(line) if (len(line) - 1 - i) % every == 0]
    done = {r["sha"] for r in store.runs("runs.dirty = 0")} | set(store.skipped())
    return [sha for sha in chosen if sha not in done]


def _checkout(root, scratch, sha):
    if not os.path.exists(os.path.join(scratch, ".git")):
        if os.path.exists(scratch):
            shutil.rmtree(scratch)
        git_info.git(root, "worktree", "prune")
        git_info.git(root, "worktree", "add", "--detach", "--force", scratch, sha)
    else:
        git_info.git(scratch, "checkout", "--detach", "--force", sha)
        git_info.git(scratch, "clean", "-fdq", "-e", "build")


def _build(scratch, log):
    """The built tool's path, or None with the build's last lines in `log`."""
    build = os.path.join(scratch, "build")
    configure = ["cmake", "-S", scratch, "-B", build, "-G", "Ninja", "-DCMAKE_BUILD_TYPE=Release"]
    if shutil.which("ccache"):
        configure.append("-DCMAKE_CXX_COMPILER_LAUNCHER=ccache")
    with open(log, "w") as out:
        for cmd in (configure, ["cmake", "--build", build, "--target", TARGET]):
            if subprocess.run(cmd, stdout=out, stderr=subprocess.STDOUT).returncode != 0:
                return None
    for candidate in (os.path.join(build, "tools", TARGET),
                      os.path.join(build, "tools", TARGET, TARGET)):
        if os.path.isfile(candidate) and os.access(candidate, os.X_OK):
            return candidate
    return None


def _tail(log, n=3):
    with open(log, errors="replace") as f:
        lines = [l.strip() for l in f if l.strip()]
    return " | ".join(lines[-n:])


def backfill(root, store, points, since, until, every, limit, jobs, work):
    shas = commits_to_record(root, store, since, until, every)
    if limit:
        shas = shas[-limit:]
    print(f"backfill: {len(shas)} commit(s) to build and record", file=sys.stderr)
    scratch = os.path.join(work, "src")
    os.makedirs(work, exist_ok=True)
    recorded = 0
    for n, sha in enumerate(shas, 1):
        info = git_info.describe(root, sha)
        print(f"[{n}/{len(shas)}] {sha[:12]} {info['subject'][:70]}", file=sys.stderr, flush=True)
        _checkout(root, scratch, sha)
        log = os.path.join(work, "build.log")
        tool = _build(scratch, log)
        reason = None
        if tool is None:
            reason = f"build failed: {_tail(log)}"
        elif "--json" not in runner.tool_help(tool):
            reason = "run_workload of this commit writes no JSON report"
        if reason:
            print(f"  skipped: {reason}", file=sys.stderr)
            with store.transaction():
                store.skip_commit(sha, reason)
            continue
        results = runner.run_all(tool, points, jobs)
        with store.transaction():
            store.add_commit(info)
            for r in results:
                store.add_run(*runner.to_rows(r, sha, dirty=False))
        recorded += 1
    return recorded
