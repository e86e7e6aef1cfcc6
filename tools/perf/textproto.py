"""Textproto files read through their .proto schema: protoc generates the Python module into a
scratch folder once per process (python3-protobuf reads the text)."""
import functools
import importlib
import os
import subprocess
import sys
import tempfile

from errors import PerfError


@functools.lru_cache(maxsize=None)
def proto_module(proto_path):
    """The generated module of the .proto file at `proto_path`."""
    folder, name = os.path.split(os.path.abspath(proto_path))
    out = tempfile.mkdtemp(prefix="npu-proto-")
    result = subprocess.run(["protoc", f"--proto_path={folder}", f"--python_out={out}", name],
                            capture_output=True, text=True)
    if result.returncode != 0:
        raise PerfError(f"protoc {name}: {result.stderr.strip()}")
    sys.path.insert(0, out)
    return importlib.import_module(os.path.splitext(name)[0] + "_pb2")


def read(path, message_class):
    """The message in the textproto file `path`, or PerfError naming the file and the line."""
    from google.protobuf import text_format
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read()
    except OSError as e:
        raise PerfError(f"{path}: {e.strerror}") from e
    return parse(text, path, message_class)


def parse(text, where, message_class):
    from google.protobuf import text_format
    message = message_class()
    try:
        text_format.Parse(text, message)
    except text_format.ParseError as e:
        raise PerfError(f"{where}: {e}") from None
    return message
