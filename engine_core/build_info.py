"""Which build of the package is running: mypyc-compiled or pure Python."""

from importlib.machinery import EXTENSION_SUFFIXES


def build_kind() -> str:
    """'compiled' when the search core is a mypyc extension module, else 'pure Python'.

    Judged by the file's suffix being an extension module's: a pure-Python module is a ``.py``
    file when installed but a ``.pyc`` (or an archive member) inside a PyInstaller build.
    """
    from engine_core import search

    return "compiled" if (search.__file__ or "").endswith(tuple(EXTENSION_SUFFIXES)) else "pure Python"
