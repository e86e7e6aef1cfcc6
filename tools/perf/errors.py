"""The one error type of the perf tools: a message naming what and where, exit status 2."""


class PerfError(Exception):
    """Bad input or an environment problem; the command stops with the message and status 2."""
