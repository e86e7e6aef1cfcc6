"""What the store needs to know about commits, from git."""
import subprocess

from errors import PerfError


def git(root, *args):
    result = subprocess.run(["git", "-C", root, *args], capture_output=True, text=True)
    if result.returncode != 0:
        raise PerfError(f"git {' '.join(args)}: {result.stderr.strip() or 'failed'}")
    return result.stdout.strip()


def resolve(root, rev):
    """The full hash of `rev`, or PerfError naming it."""
    try:
        return git(root, "rev-parse", "--verify", "--quiet", f"{rev}^{{commit}}")
    except PerfError:
        raise PerfError(f"unknown revision '{rev}' in {root}") from None


def describe(root, sha):
    """sha, subject, commit_time and position (the number of commits up to it) of a commit."""
    subject, time = git(root, "show", "-s", "--format=%s%n%ct", sha).rsplit("\n", 1)
    position = int(git(root, "rev-list", "--count", sha))
    return {"sha": sha, "subject": subject, "commit_time": int(time), "position": position}


def is_dirty(root):
    return git(root, "status", "--porcelain", "--untracked-files=no") != ""
