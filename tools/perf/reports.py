"""report.json (docs/report.md) as the store's rows: one run and its layers.

Reads every schema version run_workload has written (1 and 2); a file that is not a run report
is refused naming the file and what is wrong.
"""
import json

from errors import PerfError
from store import LAYER_FIELDS, TOTAL_FIELDS


def load(path):
    try:
        with open(path, encoding="utf-8") as f:
            report = json.load(f)
    except OSError as e:
        raise PerfError(f"{path}: {e.strerror}") from e
    except (json.JSONDecodeError, UnicodeDecodeError) as e:
        raise PerfError(f"{path}: not a JSON run report ({e})") from e
    check(report, path)
    return report


def check(report, where):
    if not isinstance(report, dict) or report.get("schema") != "npu-run-report":
        raise PerfError(f"{where}: not a run_workload report (no \"schema\": \"npu-run-report\")")
    for field, kind in (("model", str), ("totals", dict), ("layers", list)):
        if not isinstance(report.get(field), kind):
            raise PerfError(f"{where}: field '{field}' missing or not a {kind.__name__}")
    if not isinstance(report["totals"].get("cycles"), int):
        raise PerfError(f"{where}: totals.cycles missing or not an integer")


def _first_output_accuracy(report):
    outputs = (report.get("accuracy") or {}).get("outputs") or []
    if not outputs:
        return None, None
    return outputs[0].get("cosine"), outputs[0].get("snr_db")


def run_row(report):
    """The runs columns a report gives (everything but the key and the commit)."""
    totals = report["totals"]
    provenance = report.get("provenance", {})
    status = (report.get("check") or {}).get("status", "skipped")
    cosine, snr = _first_output_accuracy(report)
    row = {f: totals.get(f) for f in TOTAL_FIELDS}
    row.update({
        "status": status,
        "version": provenance.get("version"),
        "build_type": provenance.get("build_type"),
        "timestamp": provenance.get("timestamp"),
        "host": provenance.get("host"),
        "command_line": provenance.get("command_line"),
        "model_checksum": provenance.get("model_checksum"),
        "config_fingerprint": (report.get("config") or {}).get("fingerprint"),
        "accuracy_cosine": cosine,
        "accuracy_snr_db": snr,
        "compile_seconds": (report.get("compile") or {}).get("seconds"),
        "simulate_seconds": (report.get("simulation") or {}).get("wall_seconds"),
    })
    return row


def layer_rows(report):
    return [{f: layer.get(f) for f in LAYER_FIELDS} for layer in report["layers"]]
