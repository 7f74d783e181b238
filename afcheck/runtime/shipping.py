"""Sending a stage's call to another process, and running it there.

An executor that runs chunks elsewhere (worker processes on this machine, actors of a Ray
cluster) never ships a live component: :func:`dumps` pickles the stage's ``call`` by value
(``cloudpickle``: a method's calls are closures) with every component it reaches replaced by
its :class:`~afcheck.runtime.executor.Recipe`, and a :class:`Host` on the other side builds each
recipe once, with the builder the stage's ``rebuild`` makes there, and keeps it warm for every
chunk and stage that uses it.
"""

from __future__ import annotations

import io
import pickle
import time
from collections.abc import Callable
from typing import Any

from afcheck.errors import AfcheckError
from afcheck.runtime.executor import Builder, Recipe

_TAG = "afcheck-component"

Shipped = tuple[str, object, float]
"""What :meth:`Host.run` answers: ``("ok", results, seconds)``; ``("afcheck", message, 0)``
for an :class:`~afcheck.errors.AfcheckError` (raised again as one); ``("error", "Type:
message", 0)`` for any other exception."""


def dumps(call: Callable[..., object], recipes: Callable[[object], Recipe | None]) -> bytes:
    """``call`` pickled by value, every component it reaches replaced by its recipe. Raises
    whatever the pickler raises for an object no process but this one can have (an open
    database, a lock)."""
    from cloudpickle import CloudPickler

    class _Pickler(CloudPickler):
        def persistent_id(self, obj: object) -> object:
            recipe = recipes(obj)
            return None if recipe is None else (_TAG, recipe)

    buffer = io.BytesIO()
    _Pickler(buffer, protocol=pickle.HIGHEST_PROTOCOL).dump(call)
    return buffer.getvalue()


def refusal(error: Exception) -> str:
    """Why :func:`dumps` refused a call, in one short line: the type and the first line of
    the message."""
    text = str(error).strip()
    first = text.splitlines()[0] if text else ""
    return f"{type(error).__name__}: {first}"[:160]


def loads(payload: bytes, build: Callable[[Recipe], object]) -> Callable[[list[Any]], Any]:
    """The call :func:`dumps` made, with each recipe built (once) by ``build``."""

    class _Unpickler(pickle.Unpickler):
        def persistent_load(self, pid: object) -> object:
            if not (isinstance(pid, tuple) and len(pid) == 2 and pid[0] == _TAG):
                raise pickle.UnpicklingError(f"unknown persistent id {pid!r}")
            return build(pid[1])

    made: Callable[[list[Any]], Any] = _Unpickler(io.BytesIO(payload)).load()
    return made


class Host:
    """Builds components from recipes and runs shipped calls on chunks, in a worker process.

    ``rebuild`` (picklable) is called once, on the first recipe, for the builder of every
    component of this host (:meth:`afcheck.plugins.Plugins.rebuilder`)."""

    def __init__(self, rebuild: Callable[[], Builder] | None = None) -> None:
        self._rebuild = rebuild
        self._builder: Builder | None = None
        self._built: dict[Recipe, object] = {}
        self._calls: dict[str, Callable[[list[Any]], Any]] = {}

    def build(self, recipe: Recipe) -> object:
        """The component of ``recipe``, built on first use."""
        if recipe not in self._built:
            if self._builder is None:
                if self._rebuild is None:
                    raise AfcheckError("this worker was not told how to build components")
                # The run's way of loading plugins, made here once: every recipe of this
                # host is built by the same plugin manager.
                self._builder = self._rebuild()
            self._built[recipe] = self._builder(recipe)
        return self._built[recipe]

    def run(self, digest: str, payload: bytes, chunk: list[Any]) -> Shipped:
        """The shipped call ``payload`` (known by ``digest`` once loaded) on ``chunk``."""
        try:
            call = self._calls.get(digest)
            if call is None:
                call = self._calls[digest] = loads(payload, self.build)
            # The component's time: building it (a Lean REPL importing Mathlib) is not.
            began = time.perf_counter()
            made = list(call(chunk))
        except AfcheckError as exc:
            return "afcheck", str(exc), 0.0
        except Exception as exc:  # noqa: BLE001 - raised again where the run is
            return "error", f"{type(exc).__name__}: {exc}", 0.0
        return "ok", made, time.perf_counter() - began

    def close(self) -> None:
        """Let every component built here release what it holds."""
        for component in self._built.values():
            close = getattr(component, "close", None)
            if callable(close):
                close()
        self._built.clear()
