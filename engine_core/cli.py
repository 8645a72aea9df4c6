"""The ``sanqi`` command: picks a protocol from the first input line, or runs a subcommand.

Games plug in through entry points so the core never imports them:

* ``sanqi.protocols``: a class with ``NAME``, ``detect(first_line) -> bool`` (static) and
  ``run(channel)``; ``sanqi`` with no arguments offers the first line to each in turn.
* ``sanqi.commands``: a function ``main(argv) -> int`` run by ``sanqi NAME args…``.
"""

import argparse
import os
import sys
from importlib.metadata import entry_points
from typing import Any, Optional

from engine_core import __version__
from engine_core.build_info import build_kind
from engine_core.loop import Channel, clean_line


def _group(name: str) -> dict[str, Any]:
    return {ep.name: ep for ep in entry_points(group=name)}


def protocol_names() -> list[str]:
    return sorted(_group("sanqi.protocols"))


def load_protocol(name: str) -> Any:
    return _group("sanqi.protocols")[name].load()


def detect(first: str) -> Optional[Any]:
    """The protocol class that claims ``first`` as its opening line, if any."""
    for ep in sorted(_group("sanqi.protocols").values(), key=lambda e: e.name):
        try:
            cls = ep.load()
        except ImportError as exc:
            # One broken game must not take the others down with it.
            sys.stderr.write(f"sanqi: protocol {ep.name} unavailable: {exc}\n")
            continue
        if cls.detect(first):
            return cls
    return None


def version_line() -> str:
    return f"sanqi {__version__} ({build_kind()})"


def serve(protocol: Optional[str]) -> int:
    """Run one protocol session on stdin/stdout, then leave at once.

    The reader thread may still be blocked on stdin; a normal interpreter shutdown would then
    abort on the stdin lock, so the session ends with ``os._exit`` after flushing.
    """
    code = 1
    try:
        code = _session(protocol)
    except Exception as exc:  # a crash must still end the process cleanly, with the reason on stderr
        sys.stderr.write(f"sanqi: {type(exc).__name__}: {exc}\n")
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):
            pass
    os._exit(code)


def _session(protocol: Optional[str]) -> int:
    chan = Channel()
    if protocol is not None:
        chan.start()
        load_protocol(protocol)().run(chan)
        return 0
    for raw in sys.stdin.buffer:
        first = clean_line(raw)
        if not first:
            continue
        cls = detect(first)
        if cls is None:
            # Nothing to answer in: no protocol is chosen yet, so say so where a human will see it.
            chan.log(f"sanqi: unknown protocol opening {first[:40]!r}; expected one of {protocol_names()}")
            continue
        chan.start(first)
        cls().run(chan)
        return 0
    return 0


def main(argv: Optional[list[str]] = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    commands = _group("sanqi.commands")
    if args and args[0] in commands:
        result: int = commands[args[0]].load()(args[1:])
        return result
    parser = argparse.ArgumentParser(
        prog="sanqi",
        description="Xiangqi (UCCI/UCI), Gomoku (Gomocup) and Junqi engine. With no arguments the "
        "protocol is picked from the first input line.",
        epilog="subcommands: " + ", ".join(sorted(commands)),
    )
    parser.add_argument("--protocol", choices=protocol_names(), help="speak this protocol from the start")
    parser.add_argument("--version", action="version", version=version_line())
    opts = parser.parse_args(args)
    return serve(opts.protocol)


if __name__ == "__main__":
    sys.exit(main())
