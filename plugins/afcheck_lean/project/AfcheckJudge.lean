/-
afcheck's own judge (docs/trust-model.md, "The judges"): used only where no Comparator,
SafeVerify or lean4checker built for the project's Lean is at hand. It reads two compiled
modules and runs none of their code: `readModuleData` maps the `.olean` files, `importModules`
loads their imports without running initializers (this program never enables them), and
nothing is elaborated.

  afcheck_judge CHALLENGE.olean SOLUTION.olean THEOREM AXIOMS NONCE RESULT

certifies that the solution's `THEOREM` is accepted by the kernel and proves the challenge's
statement, and writes one JSON object to `RESULT` (a file it creates):
`{"nonce": NONCE, "certified": true|false, "reason": "…"}`. The checks, in order:

1. the solution imports nothing the challenge does not import;
2. the solution declares no axiom and no unsafe or partial constant;
3. every constant of the solution is replayed into the environment of its imports through
   the kernel (`Environment.replay`: theorems, definitions, opaque constants and inductive
   types are re-checked; constructors and recursors must equal those the kernel generates);
4. the solution's `THEOREM` is a theorem whose type and universe parameters equal the
   challenge's, and every constant that type names is the same (same type, same value) in
   both environments;
5. `THEOREM` depends on no axiom outside `AXIOMS` (comma-separated).
-/
import Lean

open Lean

namespace AfcheckJudge

def newConstants (mod : ModuleData) : HashMap Name ConstantInfo := Id.run do
  let mut out : HashMap Name ConstantInfo := {}
  for name in mod.constNames, ci in mod.constants do
    out := out.insert name ci
  return out

def loadReplayed (path : System.FilePath) : IO (ModuleData × Environment) := do
  let (mod, _) ← readModuleData path
  let env ← importModules mod.imports {} 0
  return (mod, ← env.replay (newConstants mod))

def sameKindAndValue : ConstantInfo → ConstantInfo → Bool
  | .defnInfo x, .defnInfo y => x.value == y.value
  | .thmInfo _, .thmInfo _ => true
  | .axiomInfo _, .axiomInfo _ => true
  | .opaqueInfo x, .opaqueInfo y => x.value == y.value
  | .inductInfo x, .inductInfo y => x.ctors == y.ctors
  | .ctorInfo _, .ctorInfo _ => true
  | .recInfo _, .recInfo _ => true
  | .quotInfo _, .quotInfo _ => true
  | _, _ => false

def sameConstant (a b : ConstantInfo) : Bool :=
  a.type == b.type && a.levelParams == b.levelParams && sameKindAndValue a b

def judge (challengePath solutionPath : System.FilePath) (target : Name)
    (permitted : List Name) : IO (Except String Unit) := do
  let (cmod, _) ← readModuleData challengePath
  let (smod, _) ← readModuleData solutionPath
  for imp in smod.imports do
    unless cmod.imports.any (·.module == imp.module) do
      return .error s!"the solution imports {imp.module}, which the challenge does not"
  for name in smod.constNames, ci in smod.constants do
    if ci.isUnsafe then return .error s!"unsafe constant {name}"
    if ci.isPartial then return .error s!"partial constant {name}"
    if let .axiomInfo _ := ci then return .error s!"the solution declares the axiom {name}"
  let (_, cenv) ← loadReplayed challengePath
  let senv ← match ← (loadReplayed solutionPath).toBaseIO with
    | .ok (_, env) => pure env
    | .error e => return .error s!"the kernel rejects the solution when it is replayed: {e}"
  let some (.thmInfo wanted) := cenv.find? target
    | return .error s!"the challenge has no theorem {target}"
  let some (.thmInfo proved) := senv.find? target
    | return .error s!"the solution has no theorem {target}"
  unless wanted.type == proved.type && wanted.levelParams == proved.levelParams do
    return .error s!"the solution's {target} does not state the challenge's statement"
  for used in wanted.type.getUsedConstants do
    match cenv.find? used, senv.find? used with
    | some a, some b =>
      unless sameConstant a b do
        return .error s!"{used} differs between the challenge and the solution"
    | _, _ => return .error s!"{used} is missing from the solution's environment"
  let (_, state) := (CollectAxioms.collect target).run senv |>.run {}
  for ax in state.axioms do
    unless permitted.contains ax do
      return .error s!"{target} depends on the axiom {ax}"
  return .ok ()

def answer (nonce : String) (certified : Bool) (reason : String) : String :=
  (Json.mkObj [("nonce", Json.str nonce), ("certified", Json.bool certified),
    ("reason", Json.str reason)]).compress

end AfcheckJudge

def main (args : List String) : IO UInt32 := do
  let [challenge, solution, target, axioms, nonce, result] := args
    | throw <| IO.userError
        "usage: afcheck_judge CHALLENGE.olean SOLUTION.olean THEOREM AXIOMS NONCE RESULT"
  initSearchPath (← findSysroot)
  let permitted := (axioms.splitOn ",").filter (· ≠ "") |>.map String.toName
  let outcome ← match ← (AfcheckJudge.judge challenge solution target.toName
      permitted).toBaseIO with
    | .ok outcome => pure outcome
    | .error e => pure (.error s!"the judge could not read the modules: {e}")
  let text := match outcome with
    | .ok () => AfcheckJudge.answer nonce true "certified"
    | .error why => AfcheckJudge.answer nonce false why
  IO.FS.writeFile result text
  return 0
