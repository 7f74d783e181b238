"""Stand-ins for the Lean toolchain's judging side: a ``lean`` that compiles to a JSON module
and a judge that checks it (see :mod:`fake_toolchain.harness`)."""
