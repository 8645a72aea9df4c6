"""Install sanqi into the interpreter that runs this script, saying what happens and for how long.

``pip install .`` is silent for the minute or two mypyc and the C compiler take; this runs it with
``-v``, keeps the whole log in ``build/install.log`` and shows only the steps (setup.py's ``sanqi
setup: …`` lines, pip's result and errors) with the time spent so far, plus a heartbeat line while a
step takes long. Arguments go to pip (``python build/install.py -e .`` for an editable install);
``SANQI_PURE=1`` in the environment installs pure Python without compiling.

    python3 -m venv .venv && .venv/bin/python build/install.py
"""

import os
import queue
import subprocess
import sys
import threading
import time
from typing import IO, Optional

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
LOG = os.path.join(HERE, "install.log")
HEARTBEAT = 20.0  # seconds of silence before saying the install is still at work
SHOWN = ("sanqi setup:", "Successfully installed", "ERROR", "error:")


def shown(line: str) -> Optional[str]:
    """The part of a pip log line worth showing, if any.

    >>> shown("  sanqi setup: compiling the generated C code")
    'compiling the generated C code'
    >>> shown("  running build_ext") is None
    True
    """
    text = line.strip()
    for mark in SHOWN:
        if text.startswith(mark):
            return text[len("sanqi setup:"):].strip() if mark == "sanqi setup:" else text
    return None


def pump(stream: IO[str], lines: "queue.Queue[Optional[str]]") -> None:
    for line in stream:
        lines.put(line)
    lines.put(None)


def main(args: list[str]) -> int:
    pure = os.environ.get("SANQI_PURE", "").strip() not in ("", "0")
    how = "pure Python (SANQI_PURE is set)" if pure else (
        "with the hot modules compiled by mypyc: about 2 to 6 minutes on 2 cores (two compiles with GCC); SANQI_PURE=1 skips the compile")
    print(f"[install] sanqi into {sys.prefix}, {how}; full log: {os.path.relpath(LOG)}", flush=True)
    command = [sys.executable, "-m", "pip", "install", "-v", *(args or ["."])]
    start = time.monotonic()
    lines: queue.Queue[Optional[str]] = queue.Queue()
    with open(LOG, "w", encoding="utf-8") as log:
        proc = subprocess.Popen(command, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                                errors="replace")
        assert proc.stdout is not None
        threading.Thread(target=pump, args=(proc.stdout, lines), daemon=True).start()
        while True:
            try:
                line = lines.get(timeout=HEARTBEAT)
            except queue.Empty:
                print(f"[install] {time.monotonic() - start:5.0f} s  still at work", flush=True)
                continue
            if line is None:
                break
            log.write(line)
            step = shown(line)
            if step is not None:
                print(f"[install] {time.monotonic() - start:5.0f} s  {step}", flush=True)
        code = proc.wait()
    verdict = "done" if code == 0 else f"pip failed with status {code}: see {os.path.relpath(LOG)}"
    print(f"[install] {time.monotonic() - start:5.0f} s  {verdict}", flush=True)
    return code


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
