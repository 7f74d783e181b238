"""Complete cheating Lean files, organised by the mechanism they use to get past a reader.

Each file is what ``afcheck lean audit`` might be given: imports, a header, a theorem and its
proof, often a false one. Every file must be rejected, by the rule named in ``rule`` and, where
``where`` is given, at that ``line:column`` of the file. The mechanisms are the classes of
attack in ``docs/trust-model.md``: each has several encodings, so that a fix for one spelling
is not mistaken for a fix of the class.
"""

from __future__ import annotations

from dataclasses import dataclass

HEADER = "import Mathlib\nimport Aesop\n\nset_option maxHeartbeats 400000\n\nopen Real Nat\n\n"
"""Seven lines, as the DeepSeek-Prover-V2 files start: a theorem after it is on line 8."""

FALSE = "theorem cheat_target : (1 : ℕ) = 2 := "


@dataclass(frozen=True)
class FileCheat:
    mechanism: str
    name: str
    text: str
    rule: str
    reason: str
    where: str = ""
    """``line:column`` of the finding, where the encoding is about positions."""


def _proof(body: str) -> str:
    return HEADER + FALSE + body + "\n"


def _header(header: str, statement: str = "theorem t : (1 : ℕ) = 1 := rfl") -> str:
    return HEADER + header + "\n" + statement + "\n"


LAYOUT: tuple[FileCheat, ...] = (
    FileCheat("layout", "more-indented-command", _proof("by\n  simp\n    erase_aesop_rules [x]"),
              "continuation", "a line right of the tactic block cannot continue `simp`: Lean "
              "reads it as a new command", "10:5"),
    FileCheat("layout", "more-indented-after-term", _proof("by\n  exact h\n      future_cmd x"),
              "continuation", "after a complete `exact h` a more-indented keyword is a command"),
    FileCheat("layout", "body-on-keyword-line", _proof("by simp\n    erase_aesop_rules [x]"),
              "command-position", "the tactic block starts at `simp` (column 42 in the file); "
              "column 4 is left of it", "9:5"),
    FileCheat("layout", "term-body-then-command", _proof("h.elim\n  future_cmd x"),
              "continuation", "a term that may be complete, then a keyword on the next line"),
    FileCheat("layout", "module-doc-line", _proof("by\n  simp\n/-! doc -/ erase_aesop_rules [x]"),
              "command", "`/-!` is a module-doc command, not a comment", "10:1"),
    FileCheat("layout", "module-doc-indented", _proof("by\n  simp\n  /-! doc -/ theorem x : "
                                                      "(1 : ℕ) = 2 := by simp"),
              "command", "an indented module doc still ends the proof"),
    FileCheat("layout", "doc-comment-in-proof", _proof("by\n  simp\n  /-- doc -/\n  future_cmd"),
              "command", "`/--` documents a declaration that follows"),
    FileCheat("layout", "module-doc-then-add-theorem",
              _proof("by\n  norm_num\n    /-! -/ add_decl_doc x"), "command",
              "a module doc after the proof, then a command"),
    FileCheat("layout", "after-semicolon-indented",
              _proof("by\n  simp;\n    erase_aesop_rules [x]"),
              "unknown-start", "a trailing `;` ends the block; what follows is a command"),
)

GUILLEMETS: tuple[FileCheat, ...] = (
    FileCheat("guillemets", "lemma-split-then-interpolation",
              _proof("by\n  exact foo\n«lemma» x : s!\"{run_tac pure ()}\" := 1"),
              "declaration", "«lemma» is a name to Lean: nothing is split there, and a name "
              "spelling a keyword in a proof is refused"),
    FileCheat("guillemets", "theorem-quoted", _proof("by\n  simp\n«theorem» other : True := "
                                                     "trivial"),
              "declaration", "«theorem» after the proof"),
    FileCheat("guillemets", "example-quoted-in-term", _proof("«example»"), "declaration",
              "«example» as the whole term"),
    FileCheat("guillemets", "quoted-tactic-at-line-start",
              _proof("by\n  simp\n  «erase_aesop_rules» [x]"), "unknown-start",
              "a quoted name where a tactic starts is no tactic afcheck knows"),
    FileCheat("guillemets", "sorry-quoted-part", _proof("by exact «sorry»"), "hole",
              "«sorry» is refused like sorry"),
)

INTERPOLATION: tuple[FileCheat, ...] = (
    FileCheat("interpolation", "header-def-run-tac",
              _header("def msg : String := s!\"{(by run_tac pure () ; exact 1 : ℕ)}\""),
              "metaprogram", "run_tac inside an interpolated string in a header definition"),
    FileCheat("interpolation", "header-add-decl-without-checking",
              _header("def pwn : String := s!\"{Environment.addDeclWithoutChecking}\""),
              "metaprogram", "adds a declaration the kernel never sees"),
    FileCheat("interpolation", "header-io-process",
              _header("def out : String := s!\"{IO.Process.output {cmd := \"sh\"}}\""),
              "interpolated-string", "runs a process from inside a string; the code holds a "
              "string of its own, so afcheck cannot tell where it ends and refuses it"),
    FileCheat("interpolation", "header-m-bang-eval",
              _header("def m := m!\"{eval% (2 : ℕ)}\""), "evaluation",
              "eval% inside m!"),
    FileCheat("interpolation", "header-nested-braces",
              _header("def n := s!\"{ {x := 1 : Prod ℕ ℕ}.1 + (by exact sorry) }\""), "hole",
              "nested braces do not end the code early"),
    FileCheat("interpolation", "signature-string",
              HEADER + "theorem t (s : String := s!\"{sorry}\") : (1 : ℕ) = 2 := by simp\n",
              "hole", "a default value in the statement's binders"),
    FileCheat("interpolation", "proof-string", _proof("by\n  have := s!\"{(1 : ℕ)}\"\n  simp"),
              "interpolated-string", "any string with braces in a proof"),
)

EVALUATION: tuple[FileCheat, ...] = (
    FileCheat("evaluation", "eval-percent", _proof("by\n  exact eval% foo"), "evaluation",
              "eval% evaluates a term at elaboration time"),
    FileCheat("evaluation", "eval-percent-header", _header("def two : ℕ := eval% (1 + 1)"),
              "evaluation", "eval% in a header definition"),
    FileCheat("evaluation", "include-str", _header("def s : String := include_str "
                                                   "\"/etc/passwd\""),
              "evaluation", "include_str reads a file while elaborating"),
    FileCheat("evaluation", "slim-check", _proof("by\n  slim_check"), "evaluation",
              "slim_check closes goals like admit"),
    FileCheat("evaluation", "plausible", _proof("by plausible"), "evaluation",
              "plausible is slim_check's new name"),
    FileCheat("evaluation", "slim-check-helper",
              _header("theorem aux : (1 : ℕ) = 2 := by slim_check",
                      "theorem t : (1 : ℕ) = 2 := aux"), "evaluation",
              "a header lemma proved by slim_check, used later"),
    FileCheat("evaluation", "polyrith", _proof("by\n  polyrith"), "evaluation",
              "polyrith calls a web service"),
    FileCheat("evaluation", "dbg-sleep", _header("def slow := dbgSleep 100000 fun _ => 1"),
              "evaluation", "stalls the checker"),
    FileCheat("evaluation", "sleep-tactic", _proof("by\n  sleep 100000\n  simp"), "evaluation",
              "the sleep tactic stalls the checker"),
    FileCheat("evaluation", "hash-eval", _header("#eval IO.println \"ok\""), "hash-command",
              "#eval runs code"),
    FileCheat("evaluation", "hash-eval-bang", _header("#eval! (1 : ℕ)"), "hash-command",
              "#eval! runs code even with sorry"),
    FileCheat("evaluation", "hash-eval-guillemets", _header("#«eval» (1 : ℕ)"), "hash-command",
              "#eval with a quoted name"),
    FileCheat("evaluation", "run-tac-proof", _proof("by\n  run_tac Lean.Elab.Tactic.evalTactic "
                                                    "default"),
              "metaprogram", "run_tac runs a tactic program"),
    FileCheat("evaluation", "io-process-def",
              _header("def go : IO Unit := do\n  let _ ← IO.Process.output { cmd := \"sh\" }"),
              "metaprogram", "a process while elaborating"),
    FileCheat("evaluation", "add-decl-without-checking",
              _header("def hack := Environment.addDeclWithoutChecking"), "metaprogram",
              "a declaration that skips the kernel, invisible to #print axioms"),
    FileCheat("evaluation", "by-elab", _proof("by\n  exact by_elab pure default"), "evaluation",
              "by_elab runs a term elaborator written in the proof"),
)

HEADER_MEANING: tuple[FileCheat, ...] = (
    FileCheat("header-meaning", "ofnat-instance", _header("instance : OfNat ℕ 2 := ⟨1⟩",
                                                          FALSE + "rfl"),
              "instance", "makes the numeral 2 mean 1", "8:1"),
    FileCheat("header-meaning", "local-instance",
              _header("local instance two : OfNat ℕ 2 := ⟨1⟩", FALSE + "rfl"), "instance",
              "a local instance"),
    FileCheat("header-meaning", "attribute-instance",
              _header("def two : OfNat ℕ 2 := ⟨1⟩\nattribute [instance] two", FALSE + "rfl"),
              "instance", "an instance through an attribute"),
    FileCheat("header-meaning", "at-instance",
              _header("@[instance] def two : OfNat ℕ 2 := ⟨1⟩", FALSE + "rfl"), "instance",
              "an instance through @[instance]"),
    FileCheat("header-meaning", "default-instance",
              _header("@[default_instance] def two : OfNat ℕ 2 := ⟨1⟩", FALSE + "rfl"),
              "instance", "a default instance changes how numerals elaborate"),
    FileCheat("header-meaning", "deriving-instance",
              _header("deriving instance Repr for Nat"), "instance", "an instance command"),
    FileCheat("header-meaning", "greek-nu-nat", _header("abbrev Νat := Unit",
                                                        "theorem t (a b : Νat) : a = b := rfl"),
              "look-alike", "Greek capital Nu looks like N", "8:8"),
    FileCheat("header-meaning", "math-script-a-nat",
              _header("abbrev N\U0001d4b6t := Unit",
                      "theorem t (a b : N\U0001d4b6t) : a = b := rfl"),
              "look-alike", "a mathematical script a (a Lean letter) inside Nat"),
    FileCheat("header-meaning", "kelvin-k", _header("def \u212aey := 1"), "look-alike",
              "the Kelvin sign looks like K"),
    FileCheat("header-meaning", "coptic-c", _header("def ϲos (x : ℝ) : ℝ := x"), "look-alike",
              "a lunate sigma looks like c"),
    FileCheat("header-meaning", "greek-omicron-real",
              _header("abbrev Reαl := ℕ\nabbrev Rοot := ℕ"), "look-alike",
              "a Greek omicron in a name"),
    FileCheat("header-meaning", "notation-numeral", _header("notation \"2\" => (1 : ℕ)",
                                                            FALSE + "rfl"),
              "syntax-extension", "notation that makes 2 mean 1"),
    FileCheat("header-meaning", "local-notation", _header("local notation \"ℕ\" => Unit"),
              "syntax-extension", "redefines ℕ"),
    FileCheat("header-meaning", "macro-rules-numeral",
              _header("macro_rules | `(2) => `(1)", FALSE + "rfl"), "syntax-extension",
              "rewrites numerals"),
    FileCheat("header-meaning", "unknown-command-first", "import Mathlib\n"
              "erase_aesop_rules [x]\ntheorem t : (1 : ℕ) = 2 := by aesop\n", "continuation",
              "a command afcheck does not know, first after the imports", "2:1"),
    FileCheat("header-meaning", "unknown-command-after-def",
              _header("def f := 1\n  erase_aesop_rules [x]"), "continuation",
              "a command after a complete definition, indented"),
    FileCheat("header-meaning", "unknown-command-after-module-doc",
              _header("/-! doc -/ erase_aesop_rules [x]"), "continuation",
              "a command on the line of a module doc"),
)

IMPORTS: tuple[FileCheat, ...] = (
    FileCheat("imports", "comment-axiom",
              "import Mathlib/-x-/axiom cheat : (1 : ℕ) = 2\n\ntheorem t : (1 : ℕ) = 2 := cheat\n",
              "axiom", "a comment instead of a space: the axiom is a command after the import",
              "1:20"),
    FileCheat("imports", "comment-eval", "import Mathlib/- -/#eval IO.println \"x\"\n\n"
              "theorem t : (1 : ℕ) = 1 := rfl\n", "hash-command", "#eval after a comment"),
    FileCheat("imports", "comment-macro-rules",
              "import Mathlib.Tactic/-x-/macro_rules | `(tactic| rfl) => `(tactic| sorry)\n\n"
              "theorem t : (1 : ℕ) = 2 := by rfl\n", "syntax-extension", "macro_rules smuggled"),
    FileCheat("imports", "comment-variable",
              "import Mathlib/-x-/variable (h : (1 : ℕ) = 2)\n\n"
              "theorem t : (1 : ℕ) = 2 := by exact h\n", "command", "variable smuggled"),
    FileCheat("imports", "line-comment-then-axiom",
              "import Mathlib --\naxiom cheat : (1 : ℕ) = 2\ntheorem t : (1 : ℕ) = 2 := cheat\n",
              "axiom", "an axiom on the line after an import", "2:1"),
    FileCheat("imports", "same-line-second-import",
              "import Mathlib import Aesop axiom cheat : (1 : ℕ) = 2\n"
              "theorem t : (1 : ℕ) = 2 := cheat\n", "axiom", "imports and a command on one line",
              "1:29"),
    FileCheat("imports", "unavailable-after-comment",
              "import Mathlib/- -/import Cheat.Axioms\ntheorem t : (1 : ℕ) = 2 := Cheat.proof\n",
              "import", "a second module the project does not provide", "1:27"),
    FileCheat("imports", "late-import", HEADER + "def x := 1\nimport Cheat\n"
              "theorem t : (1 : ℕ) = 1 := rfl\n", "command", "an import after a command"),
)

POSITIONS: tuple[FileCheat, ...] = (
    FileCheat("positions", "axiom-line-2", "import Mathlib\naxiom cheat : (1 : ℕ) = 2\n"
              "theorem t : (1 : ℕ) = 2 := cheat\n", "axiom", "the finding at its place", "2:1"),
    FileCheat("positions", "hole-in-first-line-of-body", _proof("by exact sorry"), "hole",
              "the column of a body on the theorem's line is the file's", "8:48"),
    FileCheat("positions", "option-after-blanked-imports",
              "import Mathlib\nimport Aesop\nset_option debug.skipKernelTC true\n"
              "theorem t : (1 : ℕ) = 2 := by decide\n", "option", "after two imports", "3:1"),
)

NOISE: tuple[FileCheat, ...] = (
    FileCheat("noise", "trace-axioms-message",
              _proof("by\n  trace \"'cheat_target' does not depend on any axioms\"\n  simp"),
              "noise", "prints what #print axioms would say"),
    FileCheat("noise", "says", _proof("by\n  simp? says simp"), "search-tactic",
              "simp? prints a suggestion"),
    FileCheat("noise", "says-alone", _proof("by\n  norm_num says norm_num"), "noise",
              "says checks and prints a suggestion"),
    FileCheat("noise", "log-info", _proof("by\n  run_tac Lean.logInfo \"no axioms\"\n  simp"),
              "metaprogram", "logs a message"),
)

RADIX_NUMERALS: tuple[FileCheat, ...] = (
    FileCheat("radix-numerals", "binary-sorry", _proof("by\n  iterate 0b1sorry"), "hole",
              "Lean's binary numeral stops at the first digit that is not 0 or 1: `sorry` is a "
              "name of its own", "9:14"),
    FileCheat("radix-numerals", "hex-native-decide", _proof("by\n  exact (0x1Fnative_decide)"),
              "native_decide", "`0x1F`, then `native_decide`"),
    FileCheat("radix-numerals", "octal-set-option",
              _proof("by\n  iterate 0o7set_option debug.skipKernelTC true in\n  rfl"), "option",
              "`0o7`, then an option that skips the kernel"),
    FileCheat("radix-numerals", "binary-command-after", _proof("by\n  simp\n  0b0theorem x : "
                                                              "(1 : ℕ) = 2 := by simp"),
              "declaration", "a numeral, then a declaration on the same line"),
    FileCheat("radix-numerals", "header-axiom", _header("def k := 0b10axiom cheat : (1 : ℕ) = 2",
                                                        FALSE + "cheat"),
              "axiom", "an axiom glued to a binary numeral in a header"),
    FileCheat("radix-numerals", "header-ofnat-instance",
              _header("def k := 0x2instance : OfNat ℕ 2 := ⟨1⟩", FALSE + "rfl"), "instance",
              "a numeral instance glued to a hexadecimal numeral"),
    FileCheat("radix-numerals", "scientific-admit", _proof("by\n  norm_num [1.5e10admit]"),
              "hole", "a scientific literal ends after its exponent's digits"),
    FileCheat("radix-numerals", "negative-exponent-sorry", _proof("by\n  simp [2e-3sorry]"),
              "hole", "`2e-3`, then `sorry`"),
)

DECLARATION_PREFIXES: tuple[FileCheat, ...] = (
    FileCheat("declaration-prefixes", "nonrec-heartbeats",
              _header("nonrec theorem cheat : (1 : ℕ) = 2 := by\n  set_option maxHeartbeats 0 in"
                      "\n  decide", FALSE + "cheat"), "option",
              "`nonrec` starts a declaration: its proof is a proof, not header text"),
    FileCheat("declaration-prefixes", "private-nonrec-command-after",
              _header("private nonrec theorem cheat : (1 : ℕ) = 2 := by\n  simp\n"
                      "  erase_aesop_rules [x]", FALSE + "cheat"), "unknown-start",
              "`private nonrec`: the proof's own rules see the command after it"),
    FileCheat("declaration-prefixes", "protected-noncomputable",
              _header("protected noncomputable theorem cheat : (1 : ℕ) = 2 := by\n  exact?",
                      FALSE + "cheat"), "search-tactic", "modifiers Lean knows"),
    FileCheat("declaration-prefixes", "theorem-mid-line",
              _header("def k := 1 theorem cheat : (1 : ℕ) = 2 := by\n  set_option maxHeartbeats 0"
                      " in\n  decide", FALSE + "cheat"), "declaration",
              "a theorem after a command on its line: Lean starts it there, so must afcheck",
              "8:12"),
    FileCheat("declaration-prefixes", "unsafe-theorem",
              _header("unsafe theorem cheat : (1 : ℕ) = 2 := by decide", FALSE + "cheat"),
              "unsafe", "an unsafe declaration is not checked"),
    FileCheat("declaration-prefixes", "set-option-in-line",
              _proof("by\n  decide").replace(FALSE, "set_option maxRecDepth 1000 in " + FALSE)
              + "set_option debug.skipKernelTC true\n", "option",
              "`set_option … in theorem` on one line, then a command after the proof"),
    FileCheat("declaration-prefixes", "open-in-line-weaken",
              HEADER + "open Lean in " + FALSE + "by\n  run_tac pure ()\n", "metaprogram",
              "`open … in theorem`: the prefix belongs to the declaration and is read"),
    FileCheat("declaration-prefixes", "namespace-end-then-command",
              HEADER + "namespace P\n" + FALSE + "by\n  simp\nend P\nattribute [simp] foo\n",
              "command", "a command after the `end` that closes the theorem's namespace"),
    FileCheat("declaration-prefixes", "end-closing-nothing",
              _proof("by\n  simp") + "end\n#exit\n", "command",
              "an `end` that closes no namespace is a command after the proof"),
    FileCheat("declaration-prefixes", "end-with-a-command-on-its-line",
              HEADER + "namespace P\n" + FALSE + "by\n  simp\nend P axiom c : False\n",
              "command", "an `end` line holds only the name it closes"),
)

CONFIGURATIONS: tuple[FileCheat, ...] = (
    FileCheat("configurations", "simp-timeit", _proof("by\n  simp (config := timeit \"ok\" "
                                                      "(pure {}))"), "configuration",
              "timeit runs IO while the configuration is evaluated"),
    FileCheat("configurations", "simp-expected-type-name",
              _proof("by\n  simp (config := .mk 1 2 3)"), "configuration",
              "a constructor or function found through the expected type"),
    FileCheat("configurations", "omega-config-term",
              _proof("by\n  omega (config := id { splitDisjunctions := true })"),
              "configuration", "any function applied in a configuration"),
    FileCheat("configurations", "norm-num-computed-field",
              _proof("by\n  norm_num (config := { maxSteps := loop 0 })"), "configuration",
              "a field computed by a function that may never return"),
    FileCheat("configurations", "aesop-trace-script",
              _proof("by\n  aesop (config := { traceScript := true })"), "configuration",
              "a configuration that makes the tactic print"),
    FileCheat("configurations", "linarith-preprocessor",
              _proof("by\n  linarith (config := { preprocessors := [cheat] })"), "configuration",
              "linarith runs its preprocessors (meta code) on the goal"),
    FileCheat("configurations", "linarith-discharger",
              _proof("by\n  linarith (config := { discharger := admitGoal })"), "configuration",
              "the discharger is a tactic program passed as a term"),
    FileCheat("configurations", "linarith-oracle",
              _proof("by\n  linarith only [h] (config := { oracle := some cheatOracle })"),
              "configuration", "a certificate oracle is meta code"),
    FileCheat("configurations", "field-simp-cfg",
              _proof("by\n  field_simp (config := Lean.Meta.Simp.neutralConfig)"),
              "configuration", "a configuration taken from a name"),
    FileCheat("configurations", "congr-bang",
              _proof("by\n  congr! (config := { closePost := (dbgSleep 100000 fun _ => true) })"),
              "configuration", "a field that stalls the checker"),
    FileCheat("configurations", "simp-all-with",
              _proof("by\n  simp_all (config := { cfg with decide := true })"), "configuration",
              "a structure update names a term that is not a literal"),
    FileCheat("configurations", "new-style-option",
              _proof("by\n  simp (maxSteps := Nat.succ (dbgSleep 1 fun _ => 1))"),
              "configuration", "`(name := value)` options are configurations too"),
)

LOOK_ALIKES: tuple[FileCheat, ...] = (
    FileCheat("look-alikes", "greek-alpha-nat", _header("abbrev Nαt := Unit",
                                                        "theorem t (a b : Nαt) : a = b := rfl"),
              "look-alike", "a Greek alpha in Nat", "8:8"),
    FileCheat("look-alikes", "greek-tau-nat", _header("abbrev Naτ := Unit",
                                                      "theorem t (a b : Naτ) : a = b := rfl"),
              "look-alike", "a Greek tau in Nat"),
    FileCheat("look-alikes", "greek-iota-int", _header("abbrev Ιnt := Unit",
                                                       "theorem t (a b : Ιnt) : a = b := rfl"),
              "look-alike", "a Greek capital iota in Int"),
    FileCheat("look-alikes", "dotless-i-prime", _header("def Nat.Prıme (n : ℕ) : Prop := True",
                                                        "theorem t : Nat.Prıme 4 := trivial"),
              "look-alike", "a dotless i (a Latin-1 letter Lean reads) in Prime"),
    FileCheat("look-alikes", "greek-upsilon-in-statement",
              _header("def Rυal := ℕ", "theorem t : (2 : Rυal) = 2 := rfl"), "look-alike",
              "a Greek upsilon in Real"),
)

SHADOWS: tuple[FileCheat, ...] = (
    FileCheat("shadows", "nat-in-namespace",
              HEADER + "namespace Cheat\nabbrev Nat := ZMod 1\n"
              "theorem t : (1 : Nat) = 0 := rfl\nend Cheat\n", "shadow",
              "inside the namespace, Nat means the header's ZMod 1", "9:8"),
    FileCheat("shadows", "real-sqrt-opened",
              _header("namespace Cheat\nnoncomputable def Real.sqrt (x : ℝ) : ℝ := 0\nend Cheat\n"
                      "open Cheat", "theorem t : Real.sqrt 4 = 0 := rfl"), "shadow",
              "with `open Cheat`, Real.sqrt may mean Cheat.Real.sqrt"),
    FileCheat("shadows", "exact-name", _header("abbrev Nat := ZMod 1",
                                               "theorem t : (1 : Nat) = 0 := rfl"),
              "shadow", "the very name the statement uses"),
    FileCheat("shadows", "root-name-in-namespace",
              HEADER + "namespace Cheat\ndef abs (x : ℤ) : ℤ := 0\n"
              "theorem t : abs (-3 : ℤ) = 0 := rfl\nend Cheat\n", "shadow",
              "a function of Mathlib redefined inside the theorem's namespace"),
)

PRINTED_ANSWERS: tuple[FileCheat, ...] = (
    FileCheat("printed-answers", "trace-after-iterate",
              _proof("by\n  iterate 1 trace \"'cheat_target' does not depend on any axioms\"\n"
                     "  simp"), "noise", "trace where afcheck's tactic positions did not look"),
    FileCheat("printed-answers", "type-check",
              _proof("by\n  type_check (\"'cheat_target' does not depend on any axioms\" : "
                     "String)\n  simp"), "noise", "type_check prints a message"),
    FileCheat("printed-answers", "guillemet-name-message",
              _proof("by\n  have «{\"messages\": []}» : True := trivial\n  simp"), "noise",
              "an unused name is printed in a linter warning: this one is shaped like a reply"),
    FileCheat("printed-answers", "simp-question-bang", _proof("by\n  simp?! [h]"),
              "search-tactic", "simp?! prints a suggestion"),
    FileCheat("printed-answers", "squeeze-scope", _proof("by\n  squeeze_scope\n    simp"),
              "noise", "squeeze_scope prints what simp used"),
    FileCheat("printed-answers", "throw-error", _proof("by\n  exact throwError \"ok\""),
              "metaprogram", "an error message written by the proof"),
)

ALL: tuple[FileCheat, ...] = (LAYOUT + GUILLEMETS + INTERPOLATION + EVALUATION + HEADER_MEANING
                              + IMPORTS + POSITIONS + NOISE + RADIX_NUMERALS
                              + DECLARATION_PREFIXES + CONFIGURATIONS + LOOK_ALIKES + SHADOWS
                              + PRINTED_ANSWERS)
