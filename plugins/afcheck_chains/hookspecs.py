"""The hooks the chains plugin declares: none of its own.

It implements the core's registration hooks (:mod:`afcheck.hookspecs`: the method, the suite
kind ``chains``, the command ``afcheck chains``), the report's ``afcheck_register_views``
(:mod:`afcheck_report.hookspecs`) and the FOL language's ``afcheck_register_fol_formalisers``
(:mod:`afcheck_fol.hookspecs`); see :mod:`afcheck_chains`.
"""

from __future__ import annotations
