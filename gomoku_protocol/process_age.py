"""How long this process has existed, as the operating system counts it.

A Gomocup referee may start its clock for the first move when it starts the brain, before the
interpreter has run a line of ours; the kernel records that moment (``/proc/self/stat`` field 22,
in clock ticks since boot), so the first move can be charged with it.

>>> 0.0 <= process_age() < 1e6
True
>>> age_from("1 (a b) S " + "0 " * 18 + "250 0", "10.00 3.00", 100)
7.5
"""

import os
import time

_START = time.monotonic()  # fallback: the age counted from this module's import


def age_from(stat: str, uptime: str, ticks_per_second: int) -> float:
    """Seconds between the start recorded in ``stat`` and the ``uptime`` (``/proc`` texts)."""
    fields = stat[stat.rindex(")") + 2:].split()  # the name in parentheses may hold spaces
    started = int(fields[19]) / ticks_per_second  # field 22 of the whole line
    return max(0.0, float(uptime.split()[0]) - started)


def process_age() -> float:
    """Seconds since this process was started (since this module was imported where /proc is absent)."""
    try:
        with open("/proc/self/stat") as f:
            stat = f.read()
        with open("/proc/uptime") as f:
            uptime = f.read()
        return age_from(stat, uptime, os.sysconf("SC_CLK_TCK"))
    except (OSError, ValueError, IndexError):
        return time.monotonic() - _START
