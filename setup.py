"""Ship the suites in the wheel: ``suites/`` is copied into the package ``afcheck_suites`` as
``afcheck_suites/builtin/`` (package data cannot name a folder outside its package, and the
checkout keeps ``suites/`` at the top, where every command and document names it). Everything
else about the build is in pyproject.toml."""

from __future__ import annotations

import shutil
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

SUITES = Path(__file__).resolve().parent / "suites"


class BuildWithSuites(build_py):
    """``build_py`` that also copies the suites; an editable install reads ``suites/`` in
    place, so it copies nothing."""

    def run(self) -> None:
        super().run()
        if getattr(self, "editable_mode", False) or not SUITES.is_dir():
            return
        target = Path(self.build_lib) / "afcheck_suites" / "builtin"
        shutil.copytree(SUITES, target, dirs_exist_ok=True,
                        ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))


setup(cmdclass={"build_py": BuildWithSuites})
