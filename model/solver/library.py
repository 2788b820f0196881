"""Finding properties: in the files a user names, or in lethal's own library."""

from __future__ import annotations

import fnmatch
import importlib
import importlib.util
import pkgutil
import sys
import traceback
from pathlib import Path

from ..errors import LethalError
from ..proving import Bounds, Property


class LibraryError(LethalError, ValueError):
    """A path that holds no properties."""


def collect(paths: list[str], pattern: str | None = None) -> list[Property]:
    """The properties of the given files and folders (lethal's own library when none), in
    the order they are written, keeping those whose name matches `pattern` (a substring, or
    a glob such as 'trample_*'). A file that does not import is one entry whose problem says
    why: whatever the pattern, since the properties it would have held are unknown."""
    modules = _user_modules(paths) if paths else _library_modules()
    found = []
    for module in modules:
        if isinstance(module, Property):
            found.append(module)
            continue
        chosen = [v for v in vars(module).values() if isinstance(v, Property)]
        if pattern:
            chosen = [
                p for p in chosen if pattern in p.name or fnmatch.fnmatchcase(p.name, pattern)
            ]
        found += chosen
    return found


def _library_modules():
    import lethal.proofs as library

    return [
        importlib.import_module(f"lethal.proofs.{info.name}")
        for info in sorted(pkgutil.iter_modules(library.__path__), key=lambda i: i.name)
    ]


def _user_modules(paths: list[str]):
    files: list[Path] = []
    for given in paths:
        path = Path(given)
        if path.is_dir():
            files += sorted(p for p in path.glob("*.py") if not p.name.startswith("_"))
        elif path.is_file():
            files.append(path)
        else:
            raise LibraryError(f"{given}: no such file or folder")
    return [_imported(file) for file in files]


def _imported(file: Path):
    """The module of a user's file, its folder on the path while it runs so that it can
    import the modules beside it; or, if it does not import, the entry that says so."""
    spec = importlib.util.spec_from_file_location(f"lethal_user_{file.stem}", file)
    module = importlib.util.module_from_spec(spec)
    folder = str(file.resolve().parent)
    sys.path.insert(0, folder)
    try:
        spec.loader.exec_module(module)
    except (Exception, SystemExit) as error:  # a user's file: report it, and go on
        return _unimported(file, error)
    finally:
        if folder in sys.path:  # unless the file took it off itself
            sys.path.remove(folder)
    return module


def _unimported(file: Path, error: BaseException) -> Property:
    """The entry for a file that does not import, at the last line of it the error came
    through: its own syntax error, or the line that imports a module with one."""
    here, line, message = file.resolve(), 0, str(error)
    for frame in traceback.extract_tb(error.__traceback__):
        if Path(frame.filename).resolve() == here:
            line = frame.lineno
    if isinstance(error, SyntaxError) and Path(error.filename or "").resolve() == here:
        line, message = error.lineno or 0, error.msg
    return Property(
        name=str(file),
        statement="the file imports",
        cites=(),
        expected="imports",
        bounds=Bounds(),
        function=None,
        source=str(file),
        line=line,
        problem=f"the file does not import: {type(error).__name__}: {message}",
    )
