"""``python -m afcheck`` is the ``afcheck`` command."""

from afcheck.cli import entry

entry()
