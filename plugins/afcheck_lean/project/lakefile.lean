import Lake
open Lake DSL

package afcheck_lean

require mathlib from git
  "https://github.com/leanprover-community/mathlib4.git" @ "v4.9.0"

@[default_target]
lean_lib AfcheckLean

-- The kernel-side checks (lean4checker-style replay, exact statement types): built by
-- `afcheck lean setup`, imported by the REPL's header only once built.
lean_lib AfcheckKernel
