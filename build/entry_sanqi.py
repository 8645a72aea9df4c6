"""Entry script of the frozen ``sanqi``: the console command, protocol picked from the first line."""

import sys

from engine_core.cli import main
from onefile_guard import install

install()

sys.exit(main())
