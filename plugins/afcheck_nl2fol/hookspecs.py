"""The nl2fol method declares no hooks of its own: its formalisers are registered with the
FOL plugin's ``afcheck_register_fol_formalisers`` (:mod:`afcheck_fol.hookspecs`)."""
