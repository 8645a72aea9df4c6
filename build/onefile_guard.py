"""Leave nothing behind when a one-file executable's launcher is killed.

A one-file build is a small launcher that unpacks the program into a ``_MEI…`` folder under the temporary
directory and runs it as a child process. The launcher forwards catchable signals and removes the folder
when the child ends; but a manager that kills the launcher outright (SIGKILL, as a referee ending a hung
engine does) leaves the child running and the folder on disk. So on Linux the child asks the kernel for
SIGTERM when its parent dies, and on that signal, with the launcher gone, removes the folder itself and
exits. In a one-folder build, or where there is no ``prctl``, this does nothing.
"""

import ctypes
import os
import shutil
import signal
import sys
from types import FrameType
from typing import Optional

PR_SET_PDEATHSIG = 1


def install() -> None:
    unpacked = getattr(sys, "_MEIPASS", "")
    if not getattr(sys, "frozen", False) or not os.path.basename(unpacked).startswith("_MEI"):
        return  # not a one-file build: nothing is unpacked, nothing to clean
    launcher = os.getppid()

    def orphaned(signum: int, frame: Optional[FrameType]) -> None:
        if os.getppid() != launcher:  # the launcher is gone: nobody else will clean up
            shutil.rmtree(unpacked, ignore_errors=True)
        os._exit(128 + signum)

    try:
        libc = ctypes.CDLL(None, use_errno=True)
        if libc.prctl(PR_SET_PDEATHSIG, signal.SIGTERM, 0, 0, 0) != 0:
            return
    except (OSError, AttributeError):
        return  # not Linux: the launcher's own clean-up is all there is
    signal.signal(signal.SIGTERM, orphaned)
    if os.getppid() != launcher:  # died before the request took effect
        orphaned(signal.SIGTERM, None)
