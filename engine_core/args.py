"""Command-line parsing shared by every ``sanqi`` subcommand: one-line errors and checked values.

A mistake on the command line is the user's, not the program's: it gets one line on stderr and exit
status 2 (as argparse's own errors), never a traceback. Help shows every default.

>>> p = ArgParser(prog="sanqi demo")
>>> _ = p.add_argument("--games", type=positive_int, default=2, help="games to play")
>>> p.parse_args(["--games", "3"]).games
3
>>> positive_int("0")
Traceback (most recent call last):
argparse.ArgumentTypeError: '0' is not a whole number of at least 1
"""

import argparse
import os
import re
import shlex
import shutil
import sys
from typing import Callable, NoReturn


class UsageError(Exception):
    """A mistake in what the user asked for, found after parsing (a file that cannot be read, …)."""


class ArgParser(argparse.ArgumentParser):
    """argparse with defaults in the help and a single ``prog: error: …`` line on a mistake.

    A description taken from a docstring is shown as plain text (reStructuredText marks removed).
    """

    def __init__(self, **kwargs: object) -> None:
        kwargs.setdefault("formatter_class", Formatter)
        for key in ("description", "epilog"):
            if isinstance(kwargs.get(key), str):
                kwargs[key] = plain(str(kwargs[key]))
        super().__init__(**kwargs)  # type: ignore[arg-type]

    def error(self, message: str) -> NoReturn:
        fail(self.prog, message)


class Formatter(argparse.RawDescriptionHelpFormatter):
    """Shows ``(default: …)`` after an option's help where there is a default, keeps line breaks."""

    def _get_help_string(self, action: argparse.Action) -> str:
        text = action.help or ""
        if action.default in (None, False, argparse.SUPPRESS) or "default" in text or not action.option_strings:
            return text
        return text + " (default: %(default)s)"


def plain(text: str) -> str:
    """Docstring text without reStructuredText marks.

    >>> plain("``sanqi match``: see :class:`Position`")
    'sanqi match: see Position'
    """
    return re.sub(r":\w+:`([^`]*)`", r"\1", text).replace("``", "")


def fail(prog: str, message: str) -> NoReturn:
    sys.stderr.write(f"{prog}: error: {message}\n")
    raise SystemExit(2)


def guarded(prog: str, main: Callable[[], int]) -> int:
    """Run a subcommand's body, turning a :class:`UsageError` into one line and status 2."""
    try:
        return main()
    except UsageError as exc:
        fail(prog, str(exc))


def int_at_least(low: int) -> Callable[[str], int]:
    """An argparse type: a whole number not below ``low``."""

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            value = low - 1
        if value < low:
            raise argparse.ArgumentTypeError(f"{text!r} is not a whole number of at least {low}")
        return value

    return parse


positive_int = int_at_least(1)
natural_int = int_at_least(0)


def int_between(low: int, high: int) -> Callable[[str], int]:
    """An argparse type: a whole number from ``low`` to ``high``."""

    def parse(text: str) -> int:
        value = int_at_least(low)(text)
        if value > high:
            raise argparse.ArgumentTypeError(f"{text!r} is over {high}")
        return value

    return parse


def positive_float(text: str) -> float:
    """An argparse type: a finite number above 0."""
    try:
        value = float(text)
    except ValueError:
        value = -1.0
    if not 0 < value < float("inf"):
        raise argparse.ArgumentTypeError(f"{text!r} is not a number above 0")
    return value


def readable_file(text: str) -> str:
    """An argparse type: a file that exists and can be read."""
    if not os.path.isfile(text) or not os.access(text, os.R_OK):
        raise argparse.ArgumentTypeError(f"cannot read the file {text!r}")
    return text


def writable_file(text: str) -> str:
    """An argparse type: a file path whose folder exists and can be written."""
    folder = os.path.dirname(os.path.abspath(text))
    if not os.path.isdir(folder) or not os.access(folder, os.W_OK) or os.path.isdir(text):
        raise argparse.ArgumentTypeError(f"cannot write the file {text!r} (is its folder there?)")
    return text


def program(command: str) -> str:
    """An argparse type: a command line whose program can be started (on PATH or a path).

    >>> program("sh -c true")
    'sh -c true'
    """
    try:
        words = shlex.split(command)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(f"cannot split the command {command!r}: {exc}") from None
    if not words or shutil.which(words[0]) is None:
        first = words[0] if words else ""
        raise argparse.ArgumentTypeError(f"no program {first!r} to run (not on PATH, or not executable)")
    return command
