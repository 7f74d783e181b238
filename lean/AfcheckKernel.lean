/-
Kernel-side checks afcheck runs after Lean has elaborated a checked command
(docs/trust-model.md). Built by `afcheck lean setup` (`lake build AfcheckKernel`); the REPL's
header imports it only when it is built, so a failure here never stops the other checks.
-/
import Lean

open Lean Elab Command

namespace AfcheckKernel

/-- Re-check through the kernel every theorem, definition and opaque constant that the
current environment holds beyond its imports: lean4checker's method, on a copy of each under
a fresh name (so the environment without the original is not needed). A constant that was
added past the kernel (`addDeclWithoutChecking`, `debug.skipKernelTC`) and whose value does
not have its type fails here although `#print axioms` is clean. Answers with one message,
`afcheck-replay: ok N checked, M not replayed` (inductive types, constructors, recursors and
unsafe constants are not replayed) or `afcheck-replay: rejected NAME: MESSAGE`. -/
syntax (name := replayCmd) "#afcheck_replay" : command

/-- The explicit type of a constant, every constant and instance by its full name
(`Expr.dbgToString`), as `afcheck-type NAME: TYPE`: two elaborations of a statement are the
same exactly when these strings are equal. -/
syntax (name := typeCmd) "#afcheck_type " ident : command

private def copyName (name : Name) : Name := `_afcheck_replay ++ name

private def copyDecl? : ConstantInfo → Option Declaration
  | .thmInfo v => some (.thmDecl { v with name := copyName v.name })
  | .defnInfo v =>
    if v.safety == .safe then some (.defnDecl { v with name := copyName v.name }) else none
  | .opaqueInfo v =>
    if v.isUnsafe then none else some (.opaqueDecl { v with name := copyName v.name })
  | _ => none

private def kernelCheck (decl : Declaration) : CoreM (Option String) :=
  withOptions (fun o => o.setBool `debug.skipKernelTC false) do
    try
      addDecl decl
      return none
    catch e =>
      return some (← e.toMessageData.toString)

@[command_elab replayCmd] def elabReplay : CommandElab := fun _ => do
  let env ← getEnv
  let mut checked := 0
  let mut skipped := 0
  for (name, info) in env.constants.map₂.toList do
    match copyDecl? info with
    | none => skipped := skipped + 1
    | some decl =>
      match ← liftCoreM (kernelCheck decl) with
      | none => checked := checked + 1
      | some why =>
        setEnv env
        logInfo m!"afcheck-replay: rejected {name}: {why}"
        return
  setEnv env
  logInfo m!"afcheck-replay: ok {checked} checked, {skipped} not replayed"

@[command_elab typeCmd] def elabType : CommandElab := fun stx => do
  let name := stx[1].getId
  match (← getEnv).find? name with
  | some info => logInfo m!"afcheck-type {name}: {toString info.type}"
  | none => logInfo m!"afcheck-type {name}: unknown constant"

end AfcheckKernel
