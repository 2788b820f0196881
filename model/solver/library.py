"""Finding properties: in the files a user names, or in lethal's own library."""

from __future__ import annotations

import fnmatch
import importlib
import importlib.util
import pkgutil
from pathlib import Path

from ..errors import LethalError
from ..proving import Property


class LibraryError(LethalError, ValueError):
    """A path that holds no properties, or a file that does not import."""


def collect(paths: list[str], pattern: str | None = None) -> list[Property]:
    """The properties of the given files and folders (lethal's own library when none), in
    the order they are written, keeping those whose name matches `pattern` (a substring, or
    a glob such as 'trample_*')."""
    modules = _user_modules(paths) if paths else _library_modules()
    found = []
    for module in modules:
        found += [v for v in vars(module).values() if isinstance(v, Property)]
    if pattern:
        found = [p for p in found if pattern in p.name or fnmatch.fnmatchcase(p.name, pattern)]
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
    modules = []
    for file in files:
        spec = importlib.util.spec_from_file_location(f"lethal_user_{file.stem}", file)
        module = importlib.util.module_from_spec(spec)
        try:
            spec.loader.exec_module(module)
        except Exception as error:  # a user's file: report it, don't crash
            raise LibraryError(
                f"{file}: does not import: {type(error).__name__}: {error}"
            ) from None
        modules.append(module)
    return modules
