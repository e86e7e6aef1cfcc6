"""run_workload processes that never outlive the sweep: each child asks the kernel to kill it when
its parent dies (PR_SET_PDEATHSIG), so a `kill -9` of the sweep leaves no orphan; on Ctrl-C the
sweep kills the children it is waiting for (kill_all)."""
import ctypes
import os
import signal
import subprocess
import threading

_PR_SET_PDEATHSIG = 1
_libc = ctypes.CDLL(None, use_errno=True)


class Children:
    def __init__(self):
        self._live = set()
        self._lock = threading.Lock()
        self.stopping = False

    def run(self, cmd):
        """(exit status, stdout, stderr) of `cmd`; (None, "", "stopped") once kill_all ran."""
        parent = os.getpid()

        def die_with_parent():
            _libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL)
            if os.getppid() != parent:  # the parent died before prctl took effect
                os._exit(1)

        with self._lock:
            if self.stopping:
                return None, "", "stopped"
            child = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE, text=True,
                                     preexec_fn=die_with_parent)
            self._live.add(child)
        try:
            out, err = child.communicate()
        finally:
            with self._lock:
                self._live.discard(child)
        return (None if self.stopping else child.returncode), out, err

    def kill_all(self):
        with self._lock:
            self.stopping = True
            for child in self._live:
                child.kill()
