"""A one-file executable leaves nothing running and nothing unpacked when its launcher is killed.

Runs only against a one-file build (``SANQI_EXE=…/onefile/sanqi``, as ``.ci/run`` does).
"""

import os
import pathlib
import signal
import subprocess
import time

import pytest

from conftest import sanqi_command

EXE = os.environ.get("SANQI_EXE", "")
pytestmark = pytest.mark.skipif("onefile" not in pathlib.Path(EXE).parts, reason="needs SANQI_EXE set to a one-file build")


def children(pid: int) -> list[int]:
    found = []
    for entry in pathlib.Path("/proc").iterdir():
        try:
            stat = (entry / "stat").read_text()
        except (OSError, ValueError):
            continue
        if entry.name.isdigit() and int(stat.rsplit(")", 1)[1].split()[1]) == pid:
            found.append(int(entry.name))
    return found


def alive(pid: int) -> bool:
    try:
        state = pathlib.Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def wait_until(condition, seconds: float = 20.0) -> bool:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if condition():
            return True
        time.sleep(0.05)
    return condition()


@pytest.mark.parametrize("how", [signal.SIGKILL, signal.SIGTERM], ids=["SIGKILL", "SIGTERM"])
def test_killing_the_launcher_leaves_nothing(tmp_path: pathlib.Path, how: int) -> None:
    env = dict(os.environ, TMPDIR=str(tmp_path))
    launcher = subprocess.Popen(sanqi_command(), stdin=subprocess.PIPE, stdout=subprocess.PIPE, env=env)
    assert launcher.stdin is not None and launcher.stdout is not None
    launcher.stdin.write(b"ucci\n")
    launcher.stdin.flush()
    while not launcher.stdout.readline().startswith(b"ucciok"):
        pass
    (engine,) = children(launcher.pid)
    assert any(tmp_path.iterdir()), "the launcher unpacks into TMPDIR"
    launcher.send_signal(how)
    launcher.wait(20)
    assert wait_until(lambda: not alive(engine)), "the engine outlived its launcher"
    assert wait_until(lambda: not any(tmp_path.iterdir())), f"left behind: {list(tmp_path.iterdir())}"
