"""A content-addressed result cache, one SQLite file in WAL mode.

SQLite in WAL mode is the store because it is in the standard library, survives SIGKILL
(every committed chunk is durable, a half-written one is rolled back; when a chunk is
committed: below), lets readers run while one writer appends, and needs no server. Each
stage of a method has its own name and key: the component's fingerprint and what its
result depends on (for the faithfulness method's stages: perturber fingerprint + seed + step
id + step text, context and problem; formaliser fingerprint + input text + context +
problem; checker or prover fingerprint + statement + header).

A component's fingerprint (:func:`afcheck.components.describe`) is its ``fingerprint``
attribute when it has one (a formaliser preset puts its prompt template, sampling and model id
there), else its name and version, with every option that can change an answer (all but its
registration's ``volatile`` ones); so a changed prompt, server or option misses the cache and
an unchanged one hits. Components whose output depends on more than these inputs set
``cacheable = False`` (``reference``, ``replay``: they read files that may change, and are
cheap). Each method stores its records under its own stage names, with its own ``dump`` and
``load``; this module has those of the records the Lean kinds share (:func:`load_formalisation`,
:func:`load_verdict`), and :func:`dump` writes any record.

Writes leave the caller's thread: :meth:`Cache.put_many` queues a chunk and returns, and a
writer thread of the cache's own commits the chunks in order, one transaction each. Every
chunk the writer has committed survives a SIGKILL; a killed run loses those still queued (at
most :data:`QUEUED` and the one being written), which the same command computes again.
:meth:`Cache.flush` waits for the queue to be committed; reads of a stage, :meth:`Cache.info`,
:meth:`Cache.clear` and :meth:`Cache.close` wait first, and so does the end of each
:meth:`Runtime.cached <afcheck.runtime.Runtime.cached>` call, so a run's results are committed
before its result files are written. A write that fails raises its :class:`CacheError` on the
caller's next put, flush or close, once.

A database that SQLite cannot read (truncated, overwritten, damaged pages) or cannot open
raises :class:`CacheError`, one line that says what to do, when it is opened or when the damage
is met; ``afcheck cache clear`` removes a damaged database (:func:`remove`).

A key is a 128-bit BLAKE2b digest of its parts, each written with its type and byte length
(a text as its UTF-8, anything else as sorted JSON), so distinct parts never share an encoding.
Entries live in the table ``results``, a rowid table with an index on (stage, key): the values
are appended in order and only the small index is in key order, which makes a chunk's insert
and commit about three times cheaper than a table ordered by key. A database written with the
first key format (64-character hex keys in a table ``entries``) is dropped when opened: none
of its keys can be met again, and they must not be misread.
"""

from __future__ import annotations

import functools
import queue
import sqlite3
import threading
from collections.abc import Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from hashlib import blake2b
from pathlib import Path
from typing import Any

from afcheck import json_text
from afcheck.errors import UsageError
from afcheck.types import (
    Formalisation,
    FormalisationStatus,
    Usage,
    Verdict,
    VerdictKind,
    to_json,
)

FORMAT = 1
"""Bumped when the stored records change shape; older entries are then ignored."""


def default_dir() -> Path:
    import platformdirs

    return Path(platformdirs.user_cache_dir("afcheck"))


def key(*parts: Any) -> bytes:
    """The key of ``parts``: stable across runs and machines, 16 bytes."""
    digest = _root.copy()
    _feed(digest, parts)
    return digest.digest()


def keys(shared: Sequence[Any], each: Iterable[Sequence[Any]]) -> list[bytes]:
    """``key(*shared, *parts)`` for each ``parts`` of ``each``; the shared parts (a stage and
    a component's fingerprint, often a long prompt template) are hashed once."""
    prefix = _root.copy()
    _feed(prefix, shared)
    out = []
    encoded: dict[object, bytes] = {}
    for parts in each:
        digest = prefix.copy()
        _feed(digest, parts, encoded)
        out.append(digest.digest())
    return out


def _feed(digest: Any, parts: Iterable[Any], encoded: dict[object, bytes] | None = None
          ) -> None:
    """Feed ``parts`` to ``digest``; ``encoded``: the JSON of parts already met (by value),
    which many keys of a batch share: a step's context of earlier paragraphs, long and
    the same for each claim of a paragraph and for both sides of a step."""
    for part in parts:
        kind = type(part)
        if kind is str:
            # surrogatepass: a lone surrogate (a model's reply can decode to one) still has a
            # key of its own.
            data = part.encode("utf-8", "surrogatepass")
            digest.update(b"s%d:" % len(data))
        elif kind is int:
            # An int's JSON is its decimal digits: the same bytes without the encoder.
            data = b"%d" % part
            digest.update(b"j%d:" % len(data))
        else:
            data = _json_of(part, encoded)
            digest.update(b"j%d:" % len(data))
        digest.update(data)


def _json_of(part: Any, encoded: dict[object, bytes] | None) -> bytes:
    # Only a tuple of texts is looked up: values that are equal as Python values must have
    # the same JSON, which (1,) and (True,), or (1,) and (1.0,), do not.
    if encoded is None or type(part) is not tuple or not all(type(p) is str for p in part):
        return _KEY_JSON(part).encode("utf-8", "surrogatepass")
    data = encoded.get(part)
    if data is None:
        data = encoded[part] = _KEY_JSON(part).encode("utf-8", "surrogatepass")
    return data


_KEY_JSON = json_text.encoder(ensure_ascii=False, sort_keys=True, default=str)
"""``json.dumps(part, ensure_ascii=False, sort_keys=True, default=str)``, set up once:
``json.dumps`` with options builds a new encoder per call, most of its cost on short parts."""


KEY_FORMAT = 2
"""The key's encoding (bumped with the table it is stored in, see the module docstring)."""
_root = blake2b(digest_size=16, person=b"afcheck-cache")
_root.update(b"%d:%d:" % (KEY_FORMAT, FORMAT))


def _stored(value: Any) -> str:
    """``value`` as the JSON text SQLite stores. SQLite takes only UTF-8, which a lone
    surrogate is not: such a record is stored with ``\\uXXXX`` escapes, which read back
    to the same value."""
    return json_text.utf8_safe(_VALUE_JSON(value))


_VALUE_JSON = json_text.encoder(ensure_ascii=False)
"""``json.dumps(value, ensure_ascii=False)``, set up once for every stored record."""


_READ = json_text.decoder()
"""``json.loads`` of a stored record, with the scanner set up once."""


class CacheError(UsageError):
    """The cache database cannot be used: one line with the path, SQLite's reason and what
    to do. ``damaged``: SQLite found the file corrupt or not a database (``afcheck cache
    clear`` removes it), rather than unreachable (permissions, a full disk, a lock)."""

    def __init__(self, path: Path, error: sqlite3.Error) -> None:
        reason = " ".join(str(error).split()) or type(error).__name__
        self.path = path
        self.damaged = _is_damage(error)
        if self.damaged:
            message = (f"the result cache is damaged ({reason}); run `afcheck cache clear"
                       f"{_dir_option(path)}` to remove it, or give --no-cache")
        else:
            message = (f"cannot use the result cache ({reason}); give --cache-dir DIR for "
                       "another one, or --no-cache")
        super().__init__(f"{path}: {message}")


def _is_damage(error: sqlite3.Error) -> bool:
    if any(words in str(error) for words in ("no such column", "no such table",
                                             "has no column")):
        return True  # a table of another shape: what `cache clear` replaces
    name = getattr(error, "sqlite_errorname", "")  # Python 3.11+
    if name:
        return name in ("SQLITE_CORRUPT", "SQLITE_NOTADB") or name.startswith("SQLITE_CORRUPT_")
    # Before 3.11: corruption is a plain DatabaseError; locks, permissions and a full disk
    # are OperationalError.
    return type(error) is sqlite3.DatabaseError


def _dir_option(path: Path) -> str:
    import shlex

    return "" if path.parent == default_dir() else f" --cache-dir {shlex.quote(str(path.parent))}"


_PROBE = "SELECT key, value FROM results WHERE stage = ? AND key = ? LIMIT 1"
"""A read of the table as a run makes it, which a table of another shape fails."""


class Cache:
    """Stage-keyed JSON records in one SQLite database.

    Reads run on the caller's thread; writes go to a writer thread of the cache's own, with
    its own connection, started on the first :meth:`put_many` (see :class:`_Writer`)."""

    def __init__(self, path: Path) -> None:
        if path.parent.exists() and not path.parent.is_dir():
            raise UsageError(f"{path.parent}: the result cache's folder is a file; give "
                             "--cache-dir DIR, a folder, or --no-cache")
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise UsageError(f"{path.parent}: cannot make the result cache's folder "
                             f"({exc.strerror or exc}); give --cache-dir DIR for another one, "
                             "or --no-cache") from None
        self.path = path
        self._lock = threading.Lock()
        try:
            self._db = sqlite3.connect(str(path), timeout=30, check_same_thread=False)
        except sqlite3.Error as exc:
            raise CacheError(path, exc) from None
        try:
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=NORMAL")
            # The first key format's table: its keys can never be met again.
            self._db.execute("DROP TABLE IF EXISTS entries")
            self._db.execute(
                "CREATE TABLE IF NOT EXISTS results (stage TEXT NOT NULL, key BLOB NOT NULL, "
                "value TEXT NOT NULL, PRIMARY KEY (stage, key))"
            )
            self._db.execute(f"PRAGMA user_version = {KEY_FORMAT}")
            self._db.commit()
            # A table of another shape is met here, before any work, not at the first read.
            self._db.execute(_PROBE, ("", b"")).fetchall()
        except sqlite3.Error as exc:
            self._db.close()
            raise CacheError(path, exc) from None
        self._writer = _Writer(path)
        self.hits = 0
        self.misses = 0
        self.damaged = 0
        """Rows read that could not be used (not JSON, or not the record their stage keeps):
        each was a miss."""

    def unusable(self, count: int) -> None:
        """``count`` rows :meth:`get_many` gave could not be read as their stage's records:
        misses, not hits."""
        self.hits -= count
        self.misses += count
        self.damaged += count

    @property
    def stored(self) -> int:
        """Results this cache object committed (puts still queued or lost are not counted):
        read from the cache's writer, so that a stop line says only what is kept."""
        return self._writer.stored

    def get_many(self, stage: str, keys: Sequence[bytes]) -> dict[bytes, Any]:
        """The stored values of ``keys`` that ``stage`` holds, by key; every chunk put for
        ``stage`` before is committed first (chunks of other stages may still be queued)."""
        self._writer.flush(stage)
        found: dict[bytes, Any] = {}
        # Each key asked once: items of a batch with the same content share their key.
        unique = list(dict.fromkeys(keys))
        with self._lock, self._errors():
            for start in range(0, len(unique), 500):
                chunk = unique[start:start + 500]
                marks = ",".join("?" * len(chunk))
                rows = self._db.execute(
                    f"SELECT key, value FROM results WHERE stage = ? AND key IN ({marks})",
                    [stage, *chunk],
                )
                for k, v in rows:
                    try:
                        found[k] = _READ(v)
                    except ValueError:  # a damaged row: a miss, computed and stored again
                        self.damaged += 1
        self.hits += len(found)
        self.misses += len(unique) - len(found)
        return found

    def put_many(self, stage: str, items: Iterable[tuple[bytes, Any]]) -> None:
        """Queue ``items`` (key, JSON-ready value) to be stored under ``stage``, as one
        transaction; returns at once unless :data:`QUEUED` chunks are waiting already, and
        then when the writer has taken one (a slow disk slows the run, not its memory).

        The values are written to JSON on the writer thread: they must not be changed until
        :meth:`flush` returns (:meth:`Runtime.cached <afcheck.runtime.Runtime.cached>`
        flushes before it hands its results back). A write that failed before raises its
        :class:`CacheError` here, once."""
        self._writer.put(stage, list(items))

    def flush(self) -> None:
        """Return when every chunk put so far is committed (or lost to an error, which is
        raised here, once)."""
        self._writer.flush(None)

    def info(self) -> dict[str, Any]:
        self.flush()
        with self._lock, self._errors():
            counts = dict(self._db.execute(
                "SELECT stage, COUNT(*) FROM results GROUP BY stage ORDER BY stage"))
        size = sum(p.stat().st_size for p in self.path.parent.glob(self.path.name + "*"))
        return {"path": str(self.path), "entries": counts, "bytes": size}

    def clear(self) -> int:
        self.flush()
        with self._lock, self._errors():
            removed = self._db.execute("DELETE FROM results").rowcount
            self._db.commit()
            self._db.execute("VACUUM")
        return int(removed)

    def probe(self) -> None:
        """Read the table as a run does: :class:`CacheError` when it cannot be (another
        shape, damaged pages)."""
        with self._lock, self._errors():
            self._db.execute(_PROBE, ("", b"")).fetchall()
            self._db.execute("PRAGMA quick_check").fetchall()

    @contextmanager
    def _errors(self) -> Iterator[None]:
        """Damage SQLite meets after opening (a page overwritten in the middle) is the same
        one line as damage found when opening."""
        try:
            yield
        except sqlite3.Error as exc:
            raise CacheError(self.path, exc) from None

    def close(self) -> None:
        """Commit what is queued, stop the writer and close the database; a write that
        failed raises its :class:`CacheError` here (after the database is closed)."""
        try:
            self._writer.close()
        finally:
            with self._lock:
                self._db.close()


QUEUED = 8
"""Chunks that may wait for the writer thread, besides the one it is writing: enough to ride
out a slow commit, few enough that memory stays bounded."""

_Chunk = tuple[str, list[tuple[bytes, Any]]]


class _Writer:
    """The thread that stores a :class:`Cache`'s chunks, in the order they were put, one
    transaction each, through a connection of its own (WAL lets the cache's readers go on
    meanwhile).

    Each chunk is one transaction of multi-row ``INSERT OR REPLACE`` statements
    (:data:`_ROWS` rows each). The rows and their JSON are made here, so the caller's thread
    spends nothing on them (the JSON alone is a quarter of a chunk's write: 0.13-0.19 of
    0.57 s for 100 chunks of 256 formalisation records, which the caller would still spend if
    it wrote the JSON itself), and sqlite3 releases the GIL while SQLite works, so the insert
    and the commit overlap the run on another core. Not ``executemany``: it takes the GIL
    back after every row, and while the caller's thread runs Python (a formaliser in
    process) each of those waits out the interpreter's switch interval; on 8,000 steps of
    ``literal`` the writer then took 22.8 s of wall for 1.0 s of CPU and fell behind, so that
    the caller waited on a full queue, against 2.7 s of wall with one statement per
    :data:`_ROWS` rows.

    A chunk that fails (a full disk, a damaged page, a value JSON cannot write) is rolled
    back and its error kept; the writer goes on with the next chunk, and the first error kept
    is raised once, on the caller's next :meth:`put`, :meth:`flush` or :meth:`close`. If the
    thread itself ends before it is told to, whatever ended it is kept the same way, and the
    next call starts a new thread for what is still queued, so a full queue never waits on a
    thread that is gone."""

    _STOP: _Chunk = ("", [])
    """Put by :meth:`close`: the writer stops when it takes it (identity, not value)."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._queue: queue.Queue[_Chunk] = queue.Queue(maxsize=QUEUED)
        self._changed = threading.Condition()
        self._pending: dict[str, int] = {}
        """Chunks put and not yet committed or failed, by stage."""
        self._error: BaseException | None = None
        self._thread: threading.Thread | None = None
        self.stored = 0
        """Rows committed so far: what a stop line may say the cache holds of this run."""

    def put(self, stage: str, items: list[tuple[bytes, Any]]) -> None:
        self._raise_kept()
        if not items:
            return
        with self._changed:
            self._pending[stage] = self._pending.get(stage, 0) + 1
        try:
            self._offer((stage, items))
        except BaseException:
            self._settled(stage)
            raise

    def flush(self, stage: str | None) -> None:
        """Wait until no chunk of ``stage`` (of any stage: ``None``) is pending."""
        with self._changed:
            while self._waiting(stage) and self._running():
                self._changed.wait(0.1)
        self._raise_kept()

    def close(self) -> None:
        try:
            self.flush(None)
        finally:
            if self._alive():
                self._offer(self._STOP)
                assert self._thread is not None
                self._thread.join()
            self._thread = None
        self._raise_kept()

    def _waiting(self, stage: str | None) -> bool:
        return bool(self._pending.get(stage, 0) if stage is not None
                    else any(self._pending.values()))

    def _offer(self, chunk: _Chunk) -> None:
        """Queue ``chunk``, waiting while the queue is full and the writer lives."""
        while self._running():
            try:
                self._queue.put(chunk, timeout=0.1)
                return
            except queue.Full:
                continue
        self._raise_kept()

    def _running(self) -> bool:
        """Whether a writer is there to take the queue: the one running, or a new one when
        it ended with nothing kept; ``False`` when it ended on an error not yet raised (the
        caller raises it)."""
        with self._changed:
            if self._alive():
                return True
            if self._error is not None:
                return False
            self._start()
            return True

    def _alive(self) -> bool:
        return self._thread is not None and self._thread.is_alive()

    def _start(self) -> None:
        self._thread = threading.Thread(target=self._run, name="afcheck-cache-writer",
                                        daemon=True)
        self._thread.start()

    def _raise_kept(self) -> None:
        with self._changed:
            error, self._error = self._error, None
        if error is not None:
            raise error

    def _keep(self, error: BaseException) -> None:
        if isinstance(error, sqlite3.Error):
            error = CacheError(self.path, error)
        with self._changed:
            if self._error is None:
                self._error = error

    def _settled(self, stage: str) -> None:
        with self._changed:
            self._pending[stage] -= 1
            self._changed.notify_all()

    def _run(self) -> None:
        try:
            db = sqlite3.connect(str(self.path), timeout=30)
        except sqlite3.Error as exc:
            self._keep(exc)
            return
        try:
            db.execute("PRAGMA synchronous=NORMAL")
            while True:
                chunk = self._queue.get()
                if chunk is self._STOP:
                    return
                stage, items = chunk
                try:
                    _insert(db, stage, items)
                    with self._changed:
                        self.stored += len(items)
                except Exception as exc:  # noqa: BLE001 - kept and raised on the caller's thread
                    _rollback(db)
                    self._keep(exc)
                finally:
                    self._settled(stage)
        except BaseException as exc:  # noqa: BLE001 - the same, and this writer ends
            self._keep(exc)
        finally:
            db.close()



def _insert(db: sqlite3.Connection, stage: str, items: list[tuple[bytes, Any]]) -> None:
    """Store ``items`` under ``stage`` in one transaction: the writer's work on a chunk."""
    for start in range(0, len(items), _ROWS):
        rows = items[start:start + _ROWS]
        db.execute(_insert_sql(len(rows)),
                   [part for k, v in rows for part in (stage, k, _stored(v))])
    db.commit()


_ROWS = 256
"""Rows per ``INSERT`` statement: 768 bound variables, within the limit of every SQLite
version (999 before 3.32)."""


@functools.cache
def _insert_sql(rows: int) -> str:
    return ("INSERT OR REPLACE INTO results (stage, key, value) VALUES "
            + ",".join(("(?,?,?)",) * rows))


def _rollback(db: sqlite3.Connection) -> None:
    try:
        db.rollback()
    except sqlite3.Error:  # the connection is past use; the next chunk will say so
        pass


def open_cache(directory: Path | None) -> Cache:
    return Cache(cache_path(directory))


def cache_path(directory: Path | None) -> Path:
    return (directory or default_dir()) / "results.sqlite"


def clear(directory: Path) -> str:
    """Empty the result cache in ``directory`` whatever its state, and say what was done in
    one line: a readable cache is emptied in place (a run using it meanwhile goes on); one
    that is damaged or of another shape is removed. Either way a usable, empty cache is left,
    checked by reading it."""
    path = cache_path(directory)
    line = ""
    try:
        cache = Cache(path)
        try:
            line = f"removed {cache.clear()} cached results from {path}"
            cache.probe()
        finally:
            cache.close()
    except CacheError as exc:
        if not exc.damaged:
            raise  # locked by a run, not writable: not ours to remove
        remove(path)
        line = f"removed the damaged result cache {path}"
    fresh = Cache(path)  # raises if even a new one cannot be made (a folder not writable)
    try:
        fresh.probe()
    finally:
        fresh.close()
    return line


def remove(path: Path) -> None:
    """Delete the database at ``path`` and its WAL and shared-memory files."""
    for name in (path.name, path.name + "-wal", path.name + "-shm", path.name + "-journal"):
        (path.parent / name).unlink(missing_ok=True)


# -- records <-> JSON ---------------------------------------------------------------------


def dump(record: Any) -> Any:
    return to_json(record)


def load_formalisation(data: Mapping[str, Any]) -> Formalisation:
    usage = data.get("usage")
    return Formalisation(
        key=data["key"], formaliser=data["formaliser"],
        status=FormalisationStatus(data["status"]), statement=data["statement"],
        header=data["header"], raw_output=data["raw_output"], reason=data["reason"],
        usage=Usage(**usage) if usage else None, transient=data.get("transient", False),
    )


def load_verdict(data: Mapping[str, Any]) -> Verdict:
    return Verdict(
        kind=VerdictKind(data["kind"]), backend=data["backend"], certified=data["certified"],
        reason=data["reason"], evidence=data["evidence"],
        counterexample=data["counterexample"], elapsed_s=data["elapsed_s"],
        transient=data.get("transient", False), judged_by=data.get("judged_by", ""),
        unjudged=VerdictKind(data["unjudged"]) if data.get("unjudged") else None,
    )
