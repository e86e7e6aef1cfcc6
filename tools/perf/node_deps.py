"""The npm packages of tools/perf/dashboard (package-lock.json), installed with `npm ci` into the
build area (build/perf/node) the first time and whenever the lockfile changes."""
import filecmp
import os
import shutil
import subprocess

from errors import PerfError

HERE = os.path.dirname(os.path.abspath(__file__))
PACKAGE = os.path.join(HERE, "dashboard")


def node_modules(root):
    """The node_modules folder holding the pinned packages; installs them if needed."""
    prefix = os.path.join(root, "build", "perf", "node")
    lock, installed_lock = (os.path.join(PACKAGE, "package-lock.json"),
                            os.path.join(prefix, "package-lock.json"))
    modules = os.path.join(prefix, "node_modules")
    if os.path.isdir(modules) and os.path.exists(installed_lock) and \
            filecmp.cmp(lock, installed_lock, shallow=False):
        return modules
    if not shutil.which("npm"):
        raise PerfError("npm is not installed (Debian: apt-get install nodejs npm; "
                        "tools/npu perf installs it)")
    os.makedirs(prefix, exist_ok=True)
    for name in ("package.json", "package-lock.json"):
        shutil.copyfile(os.path.join(PACKAGE, name), os.path.join(prefix, name))
    result = subprocess.run(["npm", "ci", "--no-audit", "--no-fund", "--loglevel=error"],
                            cwd=prefix, capture_output=True, text=True)
    if result.returncode != 0:
        os.remove(installed_lock)  # not installed: try again next time
        raise PerfError(f"npm ci in {prefix}: {result.stderr.strip()[-500:]}")
    return modules
