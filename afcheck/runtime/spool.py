"""Raw model outputs kept on disk for the length of a run.

A formaliser's raw output (a chain of thought, several code blocks) is often a hundred times
longer than the statement extracted from it, and only the JSON result file needs it. The
pipeline moves each raw output here as soon as it has one, and the records in memory keep an
empty ``raw_output``; the JSON reporter reads them back one step at a time.
"""

from __future__ import annotations

import sqlite3
import tempfile
from collections.abc import Iterable
from pathlib import Path

PREFIX = "afcheck-spool-"
"""The spool folder's name starts with this and the process id of its run."""


class Spool:
    """Text by key in a temporary SQLite file, removed by :meth:`close`."""

    def __init__(self) -> None:
        from afcheck.runtime.interrupt import owned_name, remove_orphans

        # A run killed by SIGKILL cannot remove its spool: the next one does.
        remove_orphans(Path(tempfile.gettempdir()), PREFIX)
        self._dir = tempfile.TemporaryDirectory(prefix=owned_name(PREFIX))
        self._db = sqlite3.connect(str(Path(self._dir.name) / "raw.sqlite"))
        self._db.execute("PRAGMA journal_mode=OFF")
        self._db.execute("PRAGMA synchronous=OFF")
        self._db.execute("CREATE TABLE raw (key TEXT PRIMARY KEY, text TEXT NOT NULL)")
        # The keys held, in memory: the result file asks for every formalisation's raw
        # output, most have none here (empty, or the statement itself), and a query costs as
        # much to say so as to read one.
        self._keys: set[str] = set()

    def put_many(self, items: Iterable[tuple[str, str]]) -> None:
        # Stored as bytes with surrogatepass: SQLite's text must be UTF-8, and a model's reply
        # can decode to a lone surrogate, which must neither crash the run nor be altered.
        rows = [(k, text.encode("utf-8", "surrogatepass")) for k, text in items]
        self._db.executemany("INSERT OR REPLACE INTO raw (key, text) VALUES (?, ?)", rows)
        self._db.commit()
        self._keys.update(k for k, _ in rows)

    def get(self, key: str) -> str | None:
        if key not in self._keys:
            return None
        row = self._db.execute("SELECT text FROM raw WHERE key = ?", (key,)).fetchone()
        return None if row is None else bytes(row[0]).decode("utf-8", "surrogatepass")

    def close(self) -> None:
        self._db.close()
        self._dir.cleanup()
