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

-- afcheck's own judge (docs/trust-model.md, "The judges"): a program of its own that reads
-- compiled modules and runs none of their code. Built by `afcheck lean setup`.
lean_exe afcheck_judge where
  root := `AfcheckJudge
  supportInterpreter := true
