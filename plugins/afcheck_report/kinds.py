"""The kind of component the report plugin declares: a method's ``view``.

Declared through ``afcheck_addkinds`` (see :mod:`afcheck_report.hookspecs` for its
registration hook); ``plugins.registry(VIEW)`` lists the views, ``plugins.create(VIEW,
method)`` builds one.
"""

from __future__ import annotations

from afcheck.registry import Kind
from afcheck_report.view import MethodView

VIEW: Kind[MethodView] = Kind(
    "view", "views", "afcheck_register_views", protocol=MethodView,
    description="a method's report section, step-browser records and compare keys, "
    "registered under the method's name")
