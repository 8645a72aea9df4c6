"""The files shipped in ``gomoku_protocol/data/``: balanced openings and the reference positions
the benchmark times (copies of the checked reference's gomoku files).

>>> data_file("openings.txt").name
'openings.txt'
"""

import pathlib

DATA = pathlib.Path(__file__).resolve().parent / "data"


def data_file(name: str) -> pathlib.Path:
    """The packaged data file ``name`` (it ships with every install and one-file build)."""
    return DATA / name
