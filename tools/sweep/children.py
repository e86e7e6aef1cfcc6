"""run_workload processes that never outlive the sweep: each child asks the kernel to kill it when
its parent dies (PR_SET_PDEATHSIG; run_workload --points does the same for the point processes it
forks), so a `kill -9` of the sweep leaves no orphan; on Ctrl-C the sweep kills the children it is
waiting for (kill_all)."""
import ctypes
import os
import signal
import subprocess

_PR_SET_PDEATHSIG = 1
_libc = ctypes.CDLL(None, use_errno=True)


def _die_with(parent):
    def die_with_parent():
        _libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL)
        if os.getppid() != parent:  # the parent died before prctl took effect
            os._exit(1)
    return die_with_parent


class Children:
    def __init__(self):
        # No lock: the sweep runs in one thread, and kill_all runs in a signal handler of that
        # thread, where waiting for a lock start() holds would never end.
        self._live = set()
        self.stopping = False

    def start(self, cmd, stderr):
        """`cmd` started with its standard output a pipe (text) and standard error to the file
        `stderr`; None once kill_all ran. Give it back with release() when it ends."""
        if self.stopping:
            return None
        child = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                 stderr=stderr, text=True, preexec_fn=_die_with(os.getpid()))
        self._live.add(child)
        return child

    def release(self, child):
        self._live.discard(child)
        child.stdout.close()
        child.wait()

    def kill_all(self):
        self.stopping = True
        for child in list(self._live):
            child.kill()
