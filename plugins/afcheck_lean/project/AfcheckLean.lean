-- The environment every afcheck check runs in: building this file builds (or fetches) the
-- Mathlib modules the REPL imports.
import Mathlib
import Aesop
