"""Reading the arithmetic a step writes in prose and LaTeX: one reader for every plugin.

The ``literal`` formaliser writes what this reader reads as a Lean statement, and the ``regex``
perturber's judge evaluates the same reading exactly, so a perturbation the judge calls
effective changes what the formaliser states. Every numeral and math span any plugin reads
in a step is read here (the ``regex`` perturber's literals, the ``drift`` detectors' numbers).
It is a plain package, imported by those plugins; it registers nothing.

- :mod:`afcheck_arith.numerals`: the grammar of numerals and the numerals a text writes;
- :mod:`afcheck_arith.spans`: where a text is in LaTeX math;
- :mod:`afcheck_arith.asserted`: the numbers a step asserts and the value it arrives at;
- :mod:`afcheck_arith.tokens`: notation (LaTeX, unicode, currency, numerals) to tokens;
- :mod:`afcheck_arith.words`: the word lists that decide how prose around it is read;
- :mod:`afcheck_arith.claims`: the relation chains and numerals of a step;
- :mod:`afcheck_arith.expr`: the expression tree a chain's sides are read into;
- :mod:`afcheck_arith.values`: exact values of those trees.
"""
