"""Entry script of the frozen ``pbrain-sanqi``: Gomocup from the first line.

A Gomocup manager starts the brain with no arguments and opens with ``START`` (or ``INFO``/``ABOUT``),
so the protocol is fixed rather than detected. Extra arguments (``--version``) still reach the CLI.
"""

import sys

from engine_core.cli import main
from onefile_guard import install

install()

sys.exit(main(["--protocol", "gomocup", *sys.argv[1:]]))
