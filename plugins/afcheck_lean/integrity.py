"""Static proof-integrity rules, applied to a prover's proof body before Lean sees it.

These rules reject every known way of making Lean accept a proof of something other than
the statement, or of nothing at all. They are deliberately coarse: a rejected honest proof
costs an INCONCLUSIVE verdict, an accepted cheat costs a wrong one. The Lean-side rules
(no error, no ``sorry`` warning, ``#print axioms`` within the standard three) are in
:mod:`afcheck_lean.replies`; both must hold.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

STANDARD_AXIOMS = frozenset({"propext", "Classical.choice", "Quot.sound"})
NATIVE_AXIOMS = frozenset({"Lean.ofReduceBool", "Lean.trustCompiler"})


@dataclass(frozen=True)
class Rule:
    """One forbidden pattern and why it is forbidden."""

    name: str
    pattern: re.Pattern[str]
    why: str


def _rule(name: str, pattern: str, why: str) -> Rule:
    return Rule(name, re.compile(pattern, re.MULTILINE), why)


RULES: tuple[Rule, ...] = (
    _rule("sorry", r"sorry", "uses sorry (an unproved hole)"),
    _rule("admit", r"admit", "uses admit (an unproved hole)"),
    _rule("stop", r"\bstop\b", "uses stop (discards the rest of the proof with sorry)"),
    _rule("axiom", r"\baxioms?\b", "declares or mentions an axiom"),
    _rule("hash-command", r"#[A-Za-z_]\w*", "contains a # command (#exit, #print, #eval …)"),
    _rule(
        "syntax-extension",
        r"\b(?:notation|macro|macro_rules|syntax|elab|elab_rules|infix|infixl|infixr|prefix"
        r"|postfix|binder_predicate|declare_syntax_cat)\b",
        "redefines syntax (could change how the statement parses)",
    ),
    _rule(
        "command",
        r"\b(?:theorem|lemma|example|def|abbrev|instance|structure|class|inductive|namespace"
        r"|section|end|variable|universe|import|mutual|opaque|attribute|deriving|initialize"
        r"|builtin_initialize|export|omit|include)\b",
        "contains a top-level command (the proof must be a single body)",
    ),
    _rule("attribute", r"@\[", "adds attributes"),
    _rule(
        "metaprogram",
        r"\b(?:run_tac|run_cmd|run_elab|by_elab|modifyEnv|addDecl|addAndCompile|Lean\.\w+"
        r"|Elab\.\w+|Meta\.\w+|Environment|evalTactic|logInfo|dbg_trace|trace)\b",
        "runs meta-level code (could change the environment or fake messages)",
    ),
    _rule(
        "unsafe",
        r"unsafe|implemented_by|\bextern\b|\bcsimp\b|ofReduceBool|reduceBool|trustCompiler",
        "uses unsafe code or trusts the compiler",
    ),
    _rule(
        "search-tactic",
        r"\b(?:apply\?|exact\?|rw\?|hint\b|library_search\b)|(?:apply|exact|rw)\?",
        "uses a proof-search tactic (apply?/exact? can close goals with sorry on some Lean "
        "versions)",
    ),
    _rule("debug-option", r"\bdebug\.", "sets a debug option (debug.skipKernelTC …)"),
)

NATIVE_DECIDE = _rule(
    "native_decide", r"native_decide|decide\s*\+\s*native|Decidable\.by_native",
    "uses native_decide (trusts compiled code; allow with --allow-native-decide)",
)

_SET_OPTION = re.compile(r"\bset_option\s+(?P<name>[\w.]+)\s+(?P<value>\S+)")
_BOUNDS = frozenset({"maxHeartbeats", "maxRecDepth", "synthInstance.maxHeartbeats"})
"""Resource bounds: any value is sound (0 = unbounded, stopped by the wall-clock timeout)."""
_HEADER_ONLY = frozenset({"autoImplicit", "relaxedAutoImplicit"})
"""How the *statement* elaborates: the formaliser's choice, never the prover's."""
_COSMETIC_PREFIXES = ("linter.", "pp.")


def proof_violation(body: str, *, allow_native_decide: bool = False) -> str | None:
    """Why ``body`` (the text after ``:=``) must be rejected, or ``None`` if it may be checked."""
    odd = _odd_character(body)
    if odd is not None:
        return odd
    for rule in RULES:
        match = rule.pattern.search(body)
        if match is not None:
            return f"proof {rule.why}: {match.group(0)!r}"
    if not allow_native_decide:
        match = NATIVE_DECIDE.pattern.search(body)
        if match is not None:
            return f"proof {NATIVE_DECIDE.why}"
    return _option_violation(body, header=False)


def header_violation(header: str) -> str | None:
    """Why a task header must be rejected: a header may open namespaces and define things,
    but never add axioms, holes, syntax or unsafe code."""
    for rule in RULES:
        if rule.name in {"command", "attribute", "hash-command"}:
            continue
        match = rule.pattern.search(header)
        if match is not None:
            return f"header {rule.why}: {match.group(0)!r}"
    return _option_violation(header, header=True)


def allowed_axioms(allow_native_decide: bool) -> frozenset[str]:
    return STANDARD_AXIOMS | NATIVE_AXIOMS if allow_native_decide else STANDARD_AXIOMS


def _option_violation(text: str, *, header: bool) -> str | None:
    for match in _SET_OPTION.finditer(text):
        name, value = match.group("name"), match.group("value")
        if name in _BOUNDS:
            if not value.isdigit():
                return f"set_option {name} {value}: needs a numeric bound"
        elif not (name.startswith(_COSMETIC_PREFIXES) or (header and name in _HEADER_ONLY)):
            return f"set_option {name} is not allowed (it may weaken checking)"
    if re.search(r"\bset_option\b", text) and not _SET_OPTION.search(text):
        return "set_option in an unrecognised form"
    return None


def _odd_character(text: str) -> str | None:
    # Control and format characters (zero-width joiners, bidi overrides) can make the text a
    # reviewer or a regex sees differ from the text Lean reads.
    for index, ch in enumerate(text):
        category = unicodedata.category(ch)
        if (category == "Cc" and ch not in "\n\t\r") or category in {"Cf", "Co", "Cs"}:
            return f"proof contains the invisible character U+{ord(ch):04X} at offset {index}"
    return None
