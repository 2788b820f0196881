"""One request to an engine: its command is started (no shell), given one JSON request on
standard input, which is then closed, and must write one JSON answer on standard output and
exit 0 within the time allowed. Anything else is the engine's failure, said in one line:
it is never waited on past its time, and its output is never read without end.

The engine runs in a session of its own, so that a wrapper's children are stopped with it
when its time is up or once it has answered.
"""

from __future__ import annotations

import contextlib
import json
import os
import selectors
import signal
import subprocess
import time
from dataclasses import dataclass

from ..errors import quoted
from . import ASSIGN, CHECK, DEAL, DIVIDE, PROTOCOL

ANSWER_BYTES = 16 * 2**20  # an answer is a few hundred bytes; this keeps a runaway one out
ERROR_BYTES = 4096  # of the engine's standard error, the end is kept, to show on a failure
CHUNK = 65536


class EngineFailure(Exception):
    """The engine gave no answer that can be read: it could not be started, ran out of
    time, exited with an error, or wrote something other than one answer of the protocol.
    The engine's fault, reported for the ask that met it; never lethal's error."""

    def __init__(self, message: str, timed_out: bool = False):
        super().__init__(message)
        self.timed_out = timed_out


@dataclass(frozen=True)
class Unsupported:
    """The engine declined the question: `{"unsupported": "why"}`."""

    why: str


@dataclass(frozen=True)
class Engine:
    """An engine's command line, already split, and how long one request may take."""

    argv: tuple[str, ...]
    timeout: float

    def answer(self, ask: str, scenario: dict, timeout: float | None = None) -> dict | Unsupported:
        """The engine's answer to `ask` about `scenario`, its shape checked; EngineFailure
        when there is none. `timeout` may shorten the engine's own limit (the time the
        whole run has left)."""
        request = {"protocol": PROTOCOL, "ask": ask, "scenario": scenario}
        allowed = self.timeout if timeout is None else min(self.timeout, timeout)
        raw = _exchange(self.argv, json.dumps(request).encode(), allowed)
        return read_answer(ask, raw)


def _exchange(argv: tuple[str, ...], request: bytes, seconds: float) -> bytes:
    """What the command writes on standard output, given `request` on standard input."""
    try:
        process = subprocess.Popen(
            argv,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            start_new_session=True,
        )
    except OSError as error:
        raise EngineFailure(f"could not be started: {error.strerror or error}") from None
    out, err = bytearray(), bytearray()
    try:
        _talk(process, request, time.monotonic() + seconds, out, err)
    except EngineFailure as failure:
        raise EngineFailure(f"{failure}{_said(err)}", failure.timed_out) from None
    finally:
        _stop(process)
    if process.returncode != 0:
        raise EngineFailure(_ended(process.returncode) + _said(err))
    if not out.strip():
        raise EngineFailure("wrote no answer on standard output" + _said(err))
    return bytes(out)


def _talk(
    process: subprocess.Popen, request: bytes, end: float, out: bytearray, err: bytearray
) -> None:
    """Writes the request and reads both outputs into `out` and `err` at once, so that
    neither side waits on a full pipe; then waits for the engine to exit, until `end`."""
    pending = memoryview(request)
    with selectors.DefaultSelector() as selector:
        os.set_blocking(process.stdin.fileno(), False)
        selector.register(process.stdin, selectors.EVENT_WRITE)
        selector.register(process.stdout, selectors.EVENT_READ, out)
        selector.register(process.stderr, selectors.EVENT_READ, err)
        while selector.get_map():
            left = end - time.monotonic()
            if left <= 0:
                raise _out_of_time()
            for key, _ in selector.select(left):
                if key.fileobj is process.stdin:
                    try:
                        pending = pending[os.write(key.fd, pending[:CHUNK]) :]
                    except BrokenPipeError:  # it answers without reading all: its choice
                        pending = pending[:0]
                    if not pending:
                        selector.unregister(process.stdin)
                        process.stdin.close()
                    continue
                chunk = os.read(key.fd, CHUNK)
                if not chunk:
                    selector.unregister(key.fileobj)
                    continue
                key.data.extend(chunk)
                if key.data is err:
                    del err[:-ERROR_BYTES]
                elif len(out) > ANSWER_BYTES:
                    raise EngineFailure(f"wrote more than {ANSWER_BYTES // 2**20} MB")
    try:
        process.wait(max(0.0, end - time.monotonic()))
    except subprocess.TimeoutExpired:
        raise _out_of_time() from None


def _out_of_time() -> EngineFailure:
    return EngineFailure("gave no answer in the time allowed (--engine-timeout)", timed_out=True)


def _stop(process: subprocess.Popen) -> None:
    """Ends the engine's session (the engine, and whatever it started that is left), then
    reaps it. Once reaped, its id is not reused while its group lives on, so the group can
    still be ended by that id."""
    killpg = getattr(os, "killpg", None)
    with contextlib.suppress(ProcessLookupError, PermissionError):
        if killpg is not None:
            killpg(process.pid, signal.SIGKILL)
        else:  # no sessions: the engine alone
            process.kill()
    process.wait()
    for stream in (process.stdin, process.stdout, process.stderr):
        with contextlib.suppress(OSError):
            stream.close()


def _ended(code: int) -> str:
    if code < 0:
        with contextlib.suppress(ValueError):
            return f"was killed by signal {-code} ({signal.Signals(-code).name})"
        return f"was killed by signal {-code}"
    return f"exited with code {code}"


def _said(err: bytes | bytearray) -> str:
    """The last line the engine wrote on standard error, to say why it failed."""
    lines = err.decode("utf-8", "replace").strip().splitlines()
    return f"; its standard error ends: {quoted(lines[-1].strip())}" if lines else ""


def read_answer(ask: str, raw: bytes) -> dict | Unsupported:
    """The engine's answer, once it is known to be one JSON object of the shape the ask
    needs (fields the protocol does not name are allowed, and ignored)."""
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        not_text = f"wrote an answer that is not UTF-8 text (byte {error.start})"
        raise EngineFailure(not_text) from None
    try:
        answer = json.loads(
            text, parse_constant=_not_json, parse_int=_integer, object_pairs_hook=_object
        )
    except _Unreadable as error:
        raise EngineFailure(f"wrote an answer lethal cannot read: {error}") from None
    except (json.JSONDecodeError, ValueError) as error:
        where = getattr(error, "msg", str(error))
        if isinstance(error, json.JSONDecodeError):
            where += f" at line {error.lineno}, column {error.colno}"
        raise EngineFailure(
            f"wrote an answer that is not one JSON value ({where}): {quoted(text.strip())}"
        ) from None
    except RecursionError:
        raise EngineFailure("wrote JSON nested deeper than Python's decoder reads") from None
    if not isinstance(answer, dict):
        raise EngineFailure(f"answered {_kind(answer)}; expected a JSON object")
    if "unsupported" in answer:
        why = answer["unsupported"]
        if not isinstance(why, str) or not why.strip():
            found = "an empty string" if isinstance(why, str) else _kind(why)
            raise EngineFailure(f"unsupported: expected a string saying why, found {found}")
        # Declining and answering at once leaves the ask with no one answer to count.
        answered = [k for k in _ANSWERS[ask] if k in answer]
        if answered:
            raise EngineFailure(
                f"answered {ask} with both 'unsupported' and '{answered[0]}': expected one of them"
            )
        return Unsupported(why)
    problem = _SHAPES[ask](answer)
    if problem:
        raise EngineFailure(f"answered {ask} with {quoted(json.dumps(answer))}: {problem}")
    return answer


def _not_json(name: str):
    raise ValueError(f"{name} is not JSON")


class _Unreadable(ValueError):
    """JSON that is well formed but says nothing one way: a key given twice, or a number
    with more digits than Python reads."""


def _object(pairs: list[tuple[str, object]]) -> dict:
    seen: set[str] = set()
    for key, _ in pairs:
        if key in seen:
            raise _Unreadable(f"the key {quoted(key)} is given twice in one object")
        seen.add(key)
    return dict(pairs)


def _integer(digits: str) -> int:
    try:
        return int(digits)
    except ValueError:  # more digits than Python converts (sys.get_int_max_str_digits)
        raise _Unreadable(f"an integer of {len(digits.lstrip('-')):,} digits") from None


def _check_shape(answer: dict) -> str:
    if not isinstance(answer.get("legal"), bool):
        return "expected 'legal': true or false"
    rules = answer.get("rules", [])
    if not (isinstance(rules, list) and all(isinstance(r, str) for r in rules)):
        return "expected 'rules', when given, to be a list of rule numbers as strings"
    return ""


def _assign_shape(answer: dict) -> str:
    entries = answer.get("assignment")
    if not isinstance(entries, list):
        return "expected 'assignment': a list of {source, to, amount} entries"
    for n, e in enumerate(entries):
        if not (
            isinstance(e, dict)
            and isinstance(e.get("source"), str)
            and isinstance(e.get("to"), str)
            and _is_integer(e.get("amount"))
        ):
            return f'assignment[{n}]: expected {{"source": ID, "to": ID, "amount": N}}'
    return ""


def _deal_shape(answer: dict) -> str:
    life, graveyard = answer.get("life"), answer.get("graveyard")
    if not (isinstance(life, dict) and all(_is_integer(n) for n in life.values())):
        return "expected 'life': an object giving each player's life total, an integer"
    poison = answer.get("poison", {})
    if not (isinstance(poison, dict) and all(_is_integer(n) and n >= 0 for n in poison.values())):
        return (
            "expected 'poison', when given, to be an object giving players' poison counters, "
            "whole numbers from 0"
        )
    if not (isinstance(graveyard, list) and all(isinstance(i, str) for i in graveyard)):
        return "expected 'graveyard': a list of the ids of the permanents put there"
    return ""


def _divide_shape(answer: dict) -> str:
    divides = answer.get("divides")
    if not (isinstance(divides, dict) and all(isinstance(p, str) for p in divides.values())):
        return (
            "expected 'divides': an object giving, for each creature that assigns combat "
            "damage, the player who divides it"
        )
    return ""


_SHAPES = {CHECK: _check_shape, ASSIGN: _assign_shape, DEAL: _deal_shape, DIVIDE: _divide_shape}
# The fields that answer each ask (beside "unsupported", which declines it).
_ANSWERS = {
    CHECK: ("legal",),
    ASSIGN: ("assignment",),
    DEAL: ("life", "poison", "graveyard"),
    DIVIDE: ("divides",),
}


def _is_integer(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _kind(value) -> str:
    names = {dict: "an object", list: "a list", str: "a string", bool: "true or false"}
    if value is None:
        return "null"
    return names.get(type(value), "a number")
