"""The nl2fol method declares no kinds of its own: it asks for formulas through the kind
``fol_formaliser`` of the FOL plugin (:mod:`afcheck_fol.kinds`), as chains does."""
