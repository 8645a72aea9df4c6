"""The ``sanqi`` command: picks a protocol from the first input line, or runs a subcommand.

Games plug in through entry points so the core never imports them:

* ``sanqi.protocols``: a class with ``NAME``, ``detect(first_line) -> bool`` (static) and
  ``run(channel)``; ``sanqi`` with no arguments offers the first line to each in turn.
* ``sanqi.commands``: a function ``main(argv) -> int`` run by ``sanqi NAME args…``.
"""

import os
import sys
from importlib.metadata import entry_points
from typing import Any, Iterator, Optional

from engine_core import __version__
from engine_core.args import ArgParser, fail
from engine_core.build_info import build_kind
from engine_core.loop import Channel, clean_line


def _group(name: str) -> dict[str, Any]:
    return {ep.name: ep for ep in entry_points(group=name)}


def _loadable(group: str) -> Iterator[tuple[str, Any]]:
    """The entry points of ``group`` whose code is here, loaded one by one in name order.

    A build may carry only some games (``pbrain-sanqi`` has Gomoku alone); what it lacks is not offered.
    """
    for name, ep in sorted(_group(group).items()):
        try:
            yield name, ep.load()
        except ImportError:
            continue


def protocol_names() -> list[str]:
    return [name for name, _ in _loadable("sanqi.protocols")]


def load_protocol(name: str) -> Any:
    found = dict(_loadable("sanqi.protocols"))
    if name not in found:
        fail("sanqi", f"this build of sanqi has no {name!r} protocol; it has {', '.join(found)}")
    return found[name]


def detect(first: str) -> Optional[Any]:
    """The protocol class that claims ``first`` as its opening line, if any (loading no more than needed)."""
    for _, cls in _loadable("sanqi.protocols"):
        if cls.detect(first):
            return cls
    return None


def summary(function: Any) -> str:
    """One line on a subcommand: its module's first docstring line, less the ``sanqi NAME:`` prefix.

    >>> import engine_core.bench
    >>> summary(engine_core.bench.main)
    "each game's fixed benchmark: nodes per second and the game's own figures"
    """
    doc = (sys.modules[function.__module__].__doc__ or "").strip().splitlines()
    line = doc[0] if doc else ""
    if line.startswith(("``sanqi", "sanqi ")) and ": " in line:
        line = line.split(": ", 1)[1]
    return line.replace("``", "").rstrip(".")


def version_line() -> str:
    return f"sanqi {__version__} ({build_kind()})"


def serve(protocol: Optional[str]) -> int:
    """Run one protocol session on stdin/stdout, then leave at once.

    The reader thread may still be blocked on stdin; a normal interpreter shutdown would then
    abort on the stdin lock, so the session ends with ``os._exit`` after flushing.
    """
    if protocol is not None:
        load_protocol(protocol)  # a protocol this build lacks is a usage error, said before any session
    code = 1
    try:
        code = _session(protocol)
    except Exception as exc:  # noqa: BLE001 - a crash must still end the process cleanly, with the reason on stderr
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
        cls = load_protocol(protocol)
        chan.start()
        cls().run(chan)
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
    if args and args[0] in _group("sanqi.commands"):
        commands = dict(_loadable("sanqi.commands"))
        if args[0] not in commands:
            fail("sanqi", f"this build of sanqi has no {args[0]!r} command")
        result: int = commands[args[0]](args[1:])
        return result
    helping = bool({"-h", "--help"} & set(args))
    # Loading every game costs start-up time a Gomocup clock counts, so only the help loads them all.
    commands = dict(_loadable("sanqi.commands")) if helping else {}
    parser = ArgParser(
        prog="sanqi",
        description="Xiangqi (UCCI/UCI), Gomoku (Gomocup) and Junqi engine.\n"
        "With no arguments the protocol is picked from the first input line.",
        epilog="commands (sanqi COMMAND --help for each one's options):\n"
        + "\n".join(f"  {name:13} {summary(main)}" for name, main in commands.items()),
    )
    names = protocol_names() if helping else sorted(_group("sanqi.protocols"))
    parser.add_argument("--protocol", choices=names, help="speak this protocol from the start")
    parser.add_argument("--version", action="version", version=version_line())
    opts = parser.parse_args(args)
    return serve(opts.protocol)


if __name__ == "__main__":
    sys.exit(main())
