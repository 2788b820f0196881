"""Finding properties: in the files a user names, or in lethal's own library."""

from __future__ import annotations

import contextlib
import fnmatch
import importlib
import importlib.util
import inspect
import os
import pkgutil
import sys
import traceback
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

from ..deadline import deadline
from ..errors import LethalError
from . import Bounds, Property, processes
from .prover import PropertyError


class LibraryError(LethalError, ValueError):
    """Paths that hold no properties, or properties that cannot be told apart."""


def collect(
    paths: list[str], pattern: str | None = None, timeout: float | None = None
) -> list[Property]:
    """The properties of the given files and folders (lethal's own library when none), in
    the order they are written, keeping those whose name matches `pattern` (a substring, or
    a glob such as 'trample_*'). A file that does not import is one entry whose problem says
    why: whatever the pattern, since the properties it would have held are unknown; so is
    a file whose import takes longer than `timeout` seconds.

    A user's file is never imported here: a process of its own imports it and sends back
    what it declares, and each process proving one of its properties imports it again
    (`FromFile`), so that nothing a file does (end, hang in C, patch lethal, close or write
    to the standard streams, change folder, leave threads or processes behind) reaches
    the run."""
    if paths:
        files = [_declared(file, timeout) for file in _user_files(paths)]
    else:
        files = [_in_order(module) for module in _library_modules()]
    found = []
    for declared in files:
        if isinstance(declared, Property):  # a file that does not import
            found.append(declared)
            continue
        if pattern:
            declared = [
                p for p in declared if pattern in p.name or fnmatch.fnmatchcase(p.name, pattern)
            ]
        found += declared
    _named_once(found)
    return found


def _named_once(found: list[Property]) -> None:
    """Refuses two properties of one name, whose verdicts, reports and files (named by the
    property) could not be told apart."""
    first: dict[str, Property] = {}
    for prop in found:
        if prop.name in first:
            other = first[prop.name]
            raise LibraryError(
                f"two properties are named {prop.name!r}: {other.source}:{other.line} and "
                f"{prop.source}:{prop.line}; rename one, as its verdict and counterexample "
                "files are named by it"
            )
        first[prop.name] = prop


def _in_order(module) -> list[Property]:
    return [v for v in vars(module).values() if isinstance(v, Property)]


def _library_modules():
    import lethal.proofs as library

    return [
        importlib.import_module(f"lethal.proofs.{info.name}")
        for info in sorted(pkgutil.iter_modules(library.__path__), key=lambda i: i.name)
    ]


def _user_files(paths: list[str]) -> list[Path]:
    files: list[Path] = []
    for given in paths:  # each looked at before any is imported
        path = Path(given)
        if not given:  # which Path would read as the current folder
            raise LibraryError("'': an empty path; name a .py file or a folder")
        if path.is_dir():
            files += sorted(p for p in path.glob("*.py") if not p.name.startswith("_"))
        elif path.is_file() and path.suffix == ".py":
            files.append(path)
        elif path.exists():  # another file, a device, a pipe: never opened
            raise LibraryError(f"{given}: not a .py file or a folder")
        else:
            raise LibraryError(f"{given}: no such file or folder")
    return list({file.resolve(): file for file in files}.values())  # each file once


def _declared(file: Path, timeout: float | None) -> list[Property] | Property:
    """The properties a user's file declares, found by importing it in a process of its
    own, each with a function that imports the file again where it is called; or, if it
    does not import, the entry that says so."""
    limit = None if timeout is None else timeout + processes.GRACE
    ending = processes.apart(lambda: _declarations(file, timeout), limit)
    if ending.returned:
        return ending.value
    how = ending.how or (
        f"stopped after {ending.seconds:.1f} s (--timeout {timeout:g} s), {processes.IN_C}"
    )
    return _entry(file, 0, f"importing it ended the process ({how})")


def _declarations(file: Path, timeout: float | None) -> list[Property] | Property:
    loaded = _loaded(file, timeout)
    if isinstance(loaded, Property):
        return loaded
    return [
        replace(p, function=FromFile(file.resolve(), i, p.combats)) if p.function is not None else p
        for i, p in enumerate(_in_order(loaded))
    ]


# The files imported again in this process, each once: a property's function is called
# for its claim and again to re-check a counterexample.
_imported_again: dict[Path, object] = {}


class FromFile:
    """The function of the `index`-th property of a user's file, called where the file is
    imported again, silently (it had its say when its properties were listed), in the
    folder it was imported from."""

    def __init__(self, file: Path, index: int, combats: int):
        self.file, self.index, self.combats = file, index, combats

    @property
    def __signature__(self) -> inspect.Signature:  # what `Property.combats` reads
        only = inspect.Parameter.POSITIONAL_ONLY
        return inspect.Signature([inspect.Parameter(f"c{n}", only) for n in range(self.combats)])

    def __call__(self, *combats):
        loaded = _imported_again.get(self.file)
        if loaded is None:
            here = os.getcwd()
            try:
                with _silenced():
                    loaded = _imported_again[self.file] = _loaded(self.file, None)
            finally:
                os.chdir(here)
        if isinstance(loaded, Property):
            raise PropertyError(f"imported again, {loaded.problem}")
        found = _in_order(loaded)
        if self.index >= len(found):
            raise PropertyError("imported again, the file declares fewer properties")
        return found[self.index].function(*combats)


def _loaded(file: Path, timeout: float | None):
    """The module of a user's file, its folder on the path while it runs so that it can
    import the modules beside it; or, if it does not import, the entry that says so."""
    spec = importlib.util.spec_from_file_location(f"lethal_user_{file.stem}", file)
    module = importlib.util.module_from_spec(spec)
    folder = file.resolve().parent
    sys.path.insert(0, str(folder))
    loaded = set(sys.modules)
    limit = f"importing it took longer than --timeout {timeout:g} s" if timeout else ""
    try:
        with deadline(timeout, limit), contextlib.redirect_stdout(sys.stderr):
            spec.loader.exec_module(module)
    except (Exception, SystemExit, KeyboardInterrupt) as error:  # a user's file's: go on
        return _unimported(file, error)
    finally:
        if str(folder) in sys.path:  # unless the file took it off itself
            sys.path.remove(str(folder))
        _forget_beside(folder, loaded)
    return module


@contextlib.contextmanager
def _silenced() -> Iterator[None]:
    """Nothing written to standard output or error while the block runs, by Python or to
    the file descriptors themselves."""
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(Exception):
            stream.flush()
    saved = {fd: os.dup(fd) for fd in (1, 2) if _is_open(fd)}
    null = os.open(os.devnull, os.O_WRONLY)
    try:
        for fd in saved:
            os.dup2(null, fd)
        with open(os.devnull, "w") as nowhere:
            with contextlib.redirect_stdout(nowhere), contextlib.redirect_stderr(nowhere):
                yield
    finally:
        for fd, copy in saved.items():
            os.dup2(copy, fd)
            os.close(copy)
        os.close(null)


def _is_open(fd: int) -> bool:
    try:
        os.fstat(fd)
    except OSError:
        return False
    return True


def _forget_beside(folder: Path, loaded: set[str]) -> None:
    """Forgets the modules a file imported from its own folder, so that a file in another
    folder importing a module of the same name gets its own, not this one."""
    for name in set(sys.modules) - loaded:
        origin = getattr(sys.modules[name], "__file__", None)
        if origin and Path(origin).resolve().parent == folder:
            del sys.modules[name]


def _unimported(file: Path, error: BaseException) -> Property:
    """The entry for a file that does not import, at the last line of it the error came
    through: its own syntax error, or the line that imports a module with one."""
    here, line, message = file.resolve(), 0, str(error)
    for frame in traceback.extract_tb(error.__traceback__):
        if Path(frame.filename).resolve() == here:
            line = frame.lineno
    if isinstance(error, SyntaxError) and Path(error.filename or "").resolve() == here:
        line, message = error.lineno or 0, error.msg
    return _entry(file, line, f"{type(error).__name__}: {message}")


def _entry(file: Path, line: int, why: str) -> Property:
    return Property(
        name=str(file),
        statement="the file imports",
        cites=(),
        expected="imports",
        bounds=Bounds(),
        function=None,
        source=str(file),
        line=line,
        problem=f"the file does not import: {why}",
    )
