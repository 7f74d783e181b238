"""Static proof-integrity rules: what a proof body and a formaliser's header may be.

A proof body (the text after ``:=``) may be a term or a tactic block and nothing else: no
command after it, no declaration inside it, no meta-level code, no hole, no proof search, no
option that weakens checking. The text is first cut into tokens the way Lean's lexer cuts it
(:func:`afcheck.lean.lexer.lex`): comments and strings are not code, ``«debug»`` is the name
``debug``, and a character Lean would not read as whitespace, a name, a numeral or a symbol
is rejected. The rules then judge tokens, so a ``--`` comment that says "this lemma" or a
hypothesis named ``hint`` is not a cheat, while ``set_option «debug».skipKernelTC true in``
is. They are deliberately strict where a rejected honest proof costs an INCONCLUSIVE and an
accepted cheat a wrong verdict; the 221 published DeepSeek-Prover-V2 miniF2F proofs are the
test that they are not strict where it matters.

A header (the formaliser's preamble) may open namespaces, define things and set a few
options; it may not run code at elaboration time, extend syntax, add axioms or holes.
Resource options in a header are allowed because afcheck re-asserts its own bounds after the
header (:func:`afcheck_lean.source.declaration_source`).

The Lean-side rules (no error, no ``sorry`` warning, ``#print axioms`` within the standard
three) are in :mod:`afcheck_lean.replies` and :mod:`afcheck_lean.verify`; both must hold.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from afcheck.lean.chars import is_id_first, is_id_rest
from afcheck.lean.lexer import Token, lex, line_column, symbol_char
from afcheck_lean.lookalike import looks_latin

STANDARD_AXIOMS = frozenset({"propext", "Classical.choice", "Quot.sound"})
NATIVE_AXIOMS = frozenset({"Lean.ofReduceBool", "Lean.trustCompiler"})

RESOURCE_BOUNDS: Mapping[str, int] = {
    "maxHeartbeats": 400_000,
    "synthInstance.maxHeartbeats": 400_000,
    "maxRecDepth": 100_000,
    "synthInstance.maxSize": 1_024,
    "exponentiation.threshold": 1_024,
}
"""The only options a proof may set, each with the largest value afcheck allows: they cost
time or stack, never soundness, and the wall clock stops what they let run long. ``0``
(unbounded) is never allowed; ``maxHeartbeats`` is also capped by the pool's own header
(:func:`bounds_for`)."""

_HEADER_BOOL_OPTIONS = frozenset({"autoImplicit", "relaxedAutoImplicit"})
"""How the *statement* elaborates: the formaliser's choice, never the prover's."""
_HEADER_BOOL_PREFIXES = ("linter.", "pp.")

_HOLES = frozenset({"sorry", "admit", "sorryAx", "stop"})
_DECLARATIONS = frozenset({
    "theorem", "lemma", "example", "def", "abbrev", "instance", "structure", "class",
    "inductive", "coinductive", "opaque", "axiom", "axioms", "mutual", "where", "rec",
    "termination_by", "decreasing_by", "irreducible_def", "alias", "proof_wanted", "deriving",
    "private", "protected", "noncomputable", "partial", "nonrec",
})
_SCOPES = frozenset({
    "namespace", "section", "end", "variable", "universe", "import", "export", "omit",
    "include", "local", "scoped", "attribute", "open",
})
_SYNTAX = frozenset({
    "notation", "notation3", "macro", "macro_rules", "syntax", "elab", "elab_rules", "infix",
    "infixl", "infixr", "prefix", "postfix", "binder_predicate", "declare_syntax_cat",
    "simproc", "simproc_decl", "dsimproc", "dsimproc_decl", "unif_hint", "register_option",
    "register_simp_attr", "register_label_attr", "declare_simp_like_tactic", "grind_pattern",
    "seal", "unseal", "initialize", "builtin_initialize", "add_decl_doc", "library_note",
    "assert_not_exists", "compile_inductive", "initialize_simps_projections",
    "declare_config_elab", "add_aesop_rules", "declare_aesop_rule_sets",
    "suppress_compilation", "unsuppress_compilation",
})
_META_WORDS = frozenset({
    "run_tac", "run_cmd", "run_elab", "run_meta", "by_elab", "modifyEnv", "addDecl",
    "addAndCompile", "evalTactic", "evalExpr", "evalConst", "logInfo", "logWarning", "logError",
    "Environment", "dbg_trace", "dbgTrace", "dbgTraceIfShared", "ofReduceBool", "ofReduceNat",
    "reduceBool", "reduceNat", "trustCompiler", "implemented_by", "extern", "csimp",
    "addDeclWithoutChecking", "addDeclCore", "setEnv", "ofKernelEnv",
    "unsafeIO", "unsafeBaseIO", "unsafeEIO", "runEval", "evalDecl", "throwError",
    "throwErrorAt", "logInfoAt", "logWarningAt", "logErrorAt", "dbgTraceVal", "dbgStackTrace",
    "panic!", "unreachable!", "assert!",
})
_EVALUATION = frozenset({
    "include_str", "slim_check", "plausible", "polyrith", "dbgSleep", "sleep", "sleepMs",
    "compile_def", "by_elab", "count_heartbeats", "timeit", "timeitM", "withHeartbeats",
})
"""Words that run code or reach outside Lean while the text elaborates, with no ``IO`` name in
sight: ``include_str`` reads files, ``polyrith`` calls a web service, ``slim_check`` and
``plausible`` evaluate the goal and close it like ``admit``, ``dbgSleep``/``sleep`` stall
the checker. ``eval%`` (the name ``eval`` directly followed by ``%``) is checked apart."""
_PERCENT_ELABORATORS = frozenset({"eval", "compile_def", "compile_inductive", "by_elab"})
_META_NAMESPACES = frozenset({
    "Lean", "Elab", "Meta", "IO", "EIO", "BaseIO", "System", "Qq", "MetaM", "TacticM", "CoreM",
    "TermElabM", "CommandElabM",
})
_NOISE = frozenset({"trace", "trace_state", "show_term", "extract_goal", "trace_simp_set",
                    "says", "print_goals", "type_check", "squeeze_scope", "check_compositions",
                    "trace_goal"})
"""Tactics that print messages; ``trace`` only where a tactic starts or before a string
(after ``open Matrix``, ``trace A`` is a term)."""
_PRINTED_NAME = frozenset("'\"`{}[]:,\n")
"""Characters that make a name in guillemets print as something else than a name: Lean's
messages (an unused variable, an error) show the name as it is written, so
``«'t' does not depend on any axioms»`` would print text shaped like Lean's answer."""
_SEARCH = frozenset({"library_search", "rw_search", "observe", "hint"})
_CONFIG_KEYS = frozenset({"config", "cfg", "simp_config"})
"""Configuration arguments wherever they stand (``linarith only [h] (config := …)``)."""
_TACTIC_ARGUMENTS = frozenset({"disch", "discharger"})
"""``(disch := tac)``: a tactic, checked by the proof rules like any other."""
_PRINTING_FIELDS = frozenset({"traceScript", "trace", "printTrace", "verbose"})
"""Configuration fields that make a tactic print what it did."""
_NATIVE = frozenset({"native_decide", "native", "by_native"})
_INSTANCE_CLASSES = ("Decidable", "Fact")
_HEADER_ATTRIBUTES = frozenset({
    "simp", "reducible", "irreducible", "semireducible", "instance", "local", "scoped",
    "inline", "noinline", "specialize", "ext", "simps", "norm_cast", "push_cast", "pp_nodot",
    "nolint", "match_pattern", "mono", "elab_as_elim", "refl", "symm", "trans", "gcongr",
    "continuity", "measurability", "fun_prop", "aesop", "positivity", "field_simps",
    "nontriviality", "simp_arith",
})
"""Not ``instance``, ``default_instance`` or ``coe``: a header instance can change what the
statement's numerals (``OfNat ℕ 2``), notation or coercions mean."""
_HEADER_COMMANDS = frozenset({
    "theorem", "lemma", "example", "def", "abbrev", "structure", "class",
    "inductive", "opaque", "mutual", "where", "termination_by", "decreasing_by", "deriving",
    "private", "protected", "noncomputable", "partial", "nonrec", "irreducible_def", "alias",
    "namespace", "section", "end", "universe", "open", "local", "scoped", "export", "rec",
})
"""Commands a header may hold. Not ``variable``/``include``: a variable the proof mentions
becomes a hypothesis of the theorem (Lean before 4.10 adds it silently), so a header
``variable (h : False)`` would make every statement provable."""
_TACTIC_BEFORE = frozenset({
    "by", ";", "<;>", "·", "try", "(", "=>", "|", "repeat", "all_goals", "any_goals", "first",
    "focus", "then", "else", "do", "on_goal",
})
_AFTER_TACTIC = frozenset({";", "<;>", ")", "|", "]", "}"})
_LINE_STARTERS = frozenset("""
    _ by fun λ calc match if then else show from have haveI let letI suffices at with do
    nofun nomatch return
    exact exacts apply refine refine' intro intros rintro rintros use use! exists existsi
    constructor left right fconstructor econstructor and_intros split split_ifs
    cases cases' rcases obtain induction induction' match_target case case' next on_goal
    pick_goal swap rotate_left rotate_right all_goals any_goals try repeat repeat' iterate
    first focus skip done rfl symm trans ac_rfl exfalso contradiction trivial absurd assumption
    simp simp_all simpa dsimp simp_rw simp_arith simp_intro unfold unfold_let delta
    rw rwa erw rewrite nth_rewrite nth_rw rw_mod_cast
    norm_num norm_num1 ring ring_nf ring1 ring_exp abel abel_nf group noncomm_ring module
    field_simp cancel_denoms linarith linarith! nlinarith nlinarith! positivity bound
    linear_combination linear_combination' omega decide norm_cast push_cast exact_mod_cast
    apply_mod_cast assumption_mod_cast zify qify rify lift push_neg by_contra by_contra!
    by_contra' by_cases contrapose contrapose! subst subst_vars clear clear_value specialize
    generalize revert rename_i rename replace set change congr congr! congrm gcongr ext funext
    convert convert_to interval_cases fin_cases mod_cases tauto itauto aesop aesop_cat
    infer_instance classical filter_upwards wlog choose peel injection injections
    apply_rules solve_by_elim apply_fun conv conv_lhs conv_rhs continuity measurability
    fun_prop norm_num! field_simp! compute_degree monicity nontriviality inhabit refine_lift
    simp_all! decreasing_tactic simp_wf split_ands triv unfold_projs beta_reduce
    lhs rhs arg enter pattern zeta whnf set_option native_decide guard_hyp guard_target
    fail_if_success success_if_fail with_reducible with_unfolding_all apply_assumption
    assumption' rsuffices bv_omega bv_decide norm_num1 exact_mod_cast
    clear_except rcongr tfae_have tfae_finish
    """.split())
"""Words that may start a line where a tactic could start in a ``by`` body. A word off this
list there is refused: after the end of a proof, Lean reads an unknown keyword as a command,
and no list of commands can name them all. (Term-mode bodies are free-form; for them only a
name at column 0 is refused.)"""
_CONTINUATIONS = frozenset("""
    at with using only generalizing from then else in says to fun λ do by if show
    """.split())
"""Keywords that continue the tactic or term of the line before."""
_NEEDS_ARGUMENT = frozenset("""
    exact exacts apply refine refine' use use! exists existsi show have haveI let letI obtain
    rcases rintro rintros suffices specialize calc from at with using only by fun λ if then
    else do in generalizing unfold subst revert clear convert convert_to change set replace
    induction induction' cases cases' by_cases nth_rewrite nth_rw exact_mod_cast
    apply_mod_cast simpa return match
    """.split())
"""Words after which Lean must read more of the same tactic or term: what starts the next
line is its argument (or a syntax error), never a new command."""
_BINDING = frozenset({"intro", "intros", "rintro", "fun", "λ", "have", "haveI", "let", "letI",
                      "obtain", "set", "generalize", "rename_i", "by_contra", "by_cases"})
_SIGNATURE_STARTS = frozenset({
    "theorem", "lemma", "example", "def", "abbrev", "instance", "structure", "class",
    "inductive", "opaque", "irreducible_def",
})
_TERM_CHAIN = frozenset({"have", "haveI", "let", "letI", "suffices", "show", "obtain"})
_CLOSERS = frozenset({")", "]", "}", "⟩", "⦄", "!", "?", "ᶜ", "⁻¹", "′"})
"""Symbols that may end a term, so that what follows them may start a command."""
_MODIFIERS = frozenset({"private", "protected", "noncomputable", "partial", "nonrec", "unsafe"})
"""Lean's declaration modifiers (``declModifiers``): they belong to the declaration after
them, never to the header or to the proof before (``private nonrec theorem …``)."""
_BRACKET_OPEN = ("(", "[", "{", "⟨", "⦃", "@[", "#[", "%[", "![")
_BRACKET_CLOSE = (")", "]", "}", "⟩", "⦄")
TARGET_NAMES = frozenset({"afcheck_target"})
"""The name afcheck gives the rebuilt theorem: a body that names it refers to itself."""


@dataclass(frozen=True)
class Violation:
    """Why a text is rejected: the rule, a one-line reason, and where."""

    rule: str
    why: str
    span: str
    """The offending source text."""
    start: int
    """Offset of ``span`` in the text that was checked."""

    def __str__(self) -> str:
        return f"{self.why}: {self.span!r}"

    def located(self, text: str, base: int = 0) -> str:
        """``line:col: rule: 'span' (why)`` with ``start`` shifted by ``base`` into ``text``."""
        line, column = line_column(text, base + self.start)
        return f"{line}:{column}: {self.rule}: {self.span!r} ({self.why})"


def proof_violation(body: str, *, allow_native_decide: bool = False,
                    bounds: Mapping[str, int] = RESOURCE_BOUNDS,
                    signature: str = "") -> str | None:
    """Why ``body`` (the text after ``:=``) must be rejected, or ``None`` if it may be checked;
    ``signature`` is the statement's, whose binder names the body may use."""
    found = find_proof_violation(body, allow_native_decide=allow_native_decide, bounds=bounds,
                                 names=bound_names(signature))
    return None if found is None else f"proof {found}"


def header_violation(header: str, *, allow_native_decide: bool = False,
                     term: bool = False) -> str | None:
    """Why a formaliser's header must be rejected, or ``None``; ``term``: the text is a
    statement's signature or another term, not a sequence of commands."""
    found = find_header_violation(header, allow_native_decide=allow_native_decide, term=term)
    return None if found is None else f"header {found}"


def bounds_for(pool_header: str) -> Mapping[str, int]:
    """The bounds a proof may set under ``pool_header``: :data:`RESOURCE_BOUNDS`, lowered to
    what the pool's own header sets (a proof never gets more than the environment allows)."""
    bounds = dict(RESOURCE_BOUNDS)
    tokens = lex(pool_header).tokens
    for index, token in enumerate(tokens[:-2]):
        name, value = tokens[index + 1].text, tokens[index + 2]
        if token.text == "set_option" and name in bounds and value.text.isdigit():
            if int(value.text) > 0:
                bounds[name] = min(bounds[name], int(value.text))
    return bounds


def strip_resource_options(header: str) -> str:
    """``header`` with every ``set_option <resource bound> N`` (and its ``in``) blanked out, so
    that afcheck's bounds, set by the pool's own header, hold for the whole check. Blanks keep
    line and column numbers."""
    tokens = lex(header).tokens
    spans = []
    for index, token in enumerate(tokens[:-2]):
        name, value = tokens[index + 1], tokens[index + 2]
        if token.text == "set_option" and name.text in RESOURCE_BOUNDS and value.kind == "num":
            end = value.end
            if index + 3 < len(tokens) and tokens[index + 3].text == "in":
                end = tokens[index + 3].end
            spans.append((token.start, end))
    out = header
    for start, end in reversed(spans):
        out = out[:start] + " " * (end - start) + out[end:]
    return out


def allowed_axioms(allow_native_decide: bool) -> frozenset[str]:
    return STANDARD_AXIOMS | NATIVE_AXIOMS if allow_native_decide else STANDARD_AXIOMS


def bound_names(signature: str) -> frozenset[str]:
    """The names a statement's binders introduce (``(ha : 0 < a)``, ``{x y : ℝ}``): Lean
    parsed them as identifiers, so none of them is a keyword."""
    names: set[str] = set()
    depth = 0
    for token in lex(signature).tokens:
        if token.text in ("(", "{", "[", "⦃", "⟨"):
            depth += 1
        elif token.text in (")", "}", "]", "⦄", "⟩"):
            depth = max(0, depth - 1)
        elif depth and token.kind == "ident" and "." not in token.text:
            names.add(token.text)
    return frozenset(names)


def find_proof_violation(body: str, *, allow_native_decide: bool = False,
                         bounds: Mapping[str, int] = RESOURCE_BOUNDS,
                         column: int = 0, names: frozenset[str] = frozenset()) -> Violation | None:
    """The first rule ``body`` breaks, in text order. ``column`` is where the body starts on
    its first line in the file Lean reads (after ``theorem … := ``): Lean's layout rules,
    and so these, depend on it. ``names`` are the statement's binder names
    (:func:`bound_names`)."""
    lexed = lex(body, column)
    if lexed.problems:
        bad = lexed.problems[0]
        return Violation("character", f"contains {bad.why}", body[bad.start : bad.end],
                         bad.start)
    if not lexed.tokens:
        return Violation("empty", "is empty (no term and no tactic block)", body, 0)
    return _Rules(body, lexed.tokens, header=False, allow_native=allow_native_decide,
                  bounds=bounds, names=names).first()


def find_header_violation(header: str, *, allow_native_decide: bool = False,
                          column: int = 0, term: bool = False,
                          statements: str | None = None) -> Violation | None:
    """The first rule ``header`` breaks, in text order (``column`` as for
    :func:`find_proof_violation`; ``term`` as for :func:`header_violation`: no command can
    start inside it, so the ``continuation`` rule does not apply). ``statements``: the text
    of every statement the header is for, where known; then a ``local notation`` whose
    tokens are fresh words or symbols that none of them contains may define a helper's
    notation (it cannot change how a statement reads)."""
    lexed = lex(header, column)
    if lexed.problems:
        bad = lexed.problems[0]
        return Violation("character", f"contains {bad.why}", header[bad.start : bad.end],
                         bad.start)
    rules = _Rules(header, lexed.tokens, header=True, allow_native=allow_native_decide,
                   bounds=RESOURCE_BOUNDS)
    rules.term = rules.in_signature = term
    rules.statements = statements
    return rules.first()


class _Rules:
    def __init__(self, text: str, tokens: Sequence[Token], *, header: bool, allow_native: bool,
                 bounds: Mapping[str, int], names: frozenset[str] = frozenset()) -> None:
        self.text = text
        self.tokens = tokens
        self.header = header
        self.allow_native = allow_native
        self.bounds = bounds
        self.open_brackets: list[int] = []
        self.names = set(names)
        """Words Lean has read as names (binders, bracketed terms, what ``intro``/``have``
        introduce): not keywords, so a line that starts with one continues a term."""
        self.term = False
        """The text is one term (a signature, code in an interpolated string)."""
        self.in_signature = False
        """In a header, between a declaration keyword and its top-level ``:=``: the type is
        not complete, so a line there continues it."""
        self.depth = 0
        """Namespaces and sections open in a header: a ``local notation`` ends with its."""
        self.statements: str | None = None
        """The statements' text, when a header's ``local notation`` may be judged by it."""

    def first(self) -> Violation | None:
        block = _tactic_block_column(self.tokens)
        tactics = not self.header and bool(self.tokens) and self.tokens[0].text == "by"
        previous_line = -1
        for index, token in enumerate(self.tokens):
            found = self._check(index, token)
            if found is None and not self.header and index and _starts_command(token, block):
                found = self._violation("command-position", "starts a line left of the proof's "
                                        "tactic block, where Lean reads a new command", token)
            if found is None and tactics and (
                token.line_start or (index and self.tokens[index - 1].text == ";")
            ):
                found = self._check_line_start(index, token, previous_line)
            if found is None and self._starts_line(index, token):
                found = self._check_continuation(index, token)
            if index == 0 and tactics:
                # `by` ending its line starts no tactic there; `by simp` starts one at `simp`.
                first = self._next(0)
                previous_line = -1 if first is None or first.line_start else first.column
            elif token.line_start:
                previous_line = _tactic_column(self.tokens, index)
            if found is not None:
                return found
            self._track_names(index, token)
            self._track_brackets(index, token)
            if self.header and opens_scope(self.tokens, index):
                self.depth += 1
            elif self.header and token.line_start and word_of(token) == "end":
                self.depth = max(0, self.depth - 1)
            self._track_signature(token)
        return None

    def _violation(self, rule: str, why: str, token: Token, end: Token | None = None) -> Violation:
        stop = (end or token).end
        return Violation(rule, why, self.text[token.start : stop], token.start)

    def _next(self, index: int) -> Token | None:
        return self.tokens[index + 1] if index + 1 < len(self.tokens) else None

    def _prev(self, index: int) -> Token | None:
        return self.tokens[index - 1] if index > 0 else None

    def _track_brackets(self, index: int, token: Token) -> None:
        if token.kind != "sym":
            return
        if token.text in ("(", "[", "{", "⟨", "@[", "#[", "%[", "!["):
            self.open_brackets.append(index)
        elif token.text in (")", "]", "}", "⟩") and self.open_brackets:
            self.open_brackets.pop()

    def _check(self, index: int, token: Token) -> Violation | None:
        if token.kind == "sym":
            return self._check_symbol(index, token)
        if token.kind == "doc" and not self.header:
            return self._violation("command", f"has a doc comment ('{token.text}'), which Lean "
                                   "reads as the start of a command, not as a comment", token)
        if token.kind == "str" and "{" in token.text:
            if self.header:
                return self._check_interpolation(token)
            return self._violation("interpolated-string", "has a string with {…}, which "
                                   "interpolating macros read as code", token)
        if token.kind != "ident":
            return None
        name = token.text
        parts = name.split(".")
        word = name if len(parts) == 1 else ""
        if token.escaped and any(ch in _PRINTED_NAME for ch in name):
            return self._violation("noise", "has a name in guillemets holding quotes, braces or "
                                   "colons, which Lean's messages print as text that could "
                                   "imitate Lean's answers", token)
        if name in _HOLES or parts[-1] == "sorryAx":
            return self._violation("hole", f"uses {name} (an unproved hole)", token)
        if name in TARGET_NAMES and not self.header:
            return self._violation("self-reference", "refers to the theorem being proved",
                                   token)
        if word == "set_option":
            return self._check_option(index, token)
        if word == "notation" and self.depth > 0 and self._fresh_notation(index):
            return None
        if word in _SYNTAX:
            return self._violation("syntax-extension", f"contains the command '{word}', which "
                                   "runs meta code or changes how text parses", token)
        if word in ("axiom", "axioms"):
            return self._violation("axiom", "declares an axiom", token)
        if self.header:
            found = (self._check_look_alike(index, token, parts)
                     or self._check_shadow(index, token, parts))
            if found is not None or not word:
                return found or self._check_names(index, token, word, parts)
            return self._check_header_word(index, token, word, parts)
        if word in _SCOPES:
            why = ("opens namespaces for the tactics after it ('open … in')" if word == "open"
                   else f"contains the command '{word}' (the proof must be a single body)")
            return self._violation("command", why, token)
        if word in _DECLARATIONS:
            return self._violation("declaration", f"declares something besides the proof "
                                   f"('{word}')", token)
        return self._check_names(index, token, word, parts)

    def _check_header_word(self, index: int, token: Token, word: str,
                           parts: list[str]) -> Violation | None:
        if word in ("theorem", "lemma", "example") and not self.term:
            start = declaration_start(self.tokens, index)
            if not self._starts_line(start, self.tokens[start]):
                return self._violation("declaration", f"starts a '{word}' in the middle of a "
                                       "line, after another command (its proof would be read "
                                       "as header text): start it on a line of its own", token)
        if word == "attribute":
            return self._check_attributes(index + 1)
        if word == "import":
            return self._violation("command", "imports a module after the header's start",
                                   token)
        if word == "instance":
            return self._violation("instance", "declares an instance, which can change what "
                                   "the statement's numerals, notation or coercions mean",
                                   token)
        if word not in _HEADER_COMMANDS and word in (_DECLARATIONS | _SCOPES):
            return self._violation("command", f"contains the command '{word}'", token)
        return self._check_names(index, token, word, parts)

    def _check_names(self, index: int, token: Token, word: str,
                     parts: list[str]) -> Violation | None:
        name = token.text
        nxt = self._next(index)
        if parts[-1] in _EVALUATION or (
            parts[-1] in _PERCENT_ELABORATORS and nxt is not None and nxt.text == "%"
            and not nxt.space_before
        ):
            return self._violation("evaluation", f"runs code while Lean elaborates "
                                   f"('{name}'), which can read files, reach the network, "
                                   "stall the checker or close goals unchecked", token)
        if any(p in _META_NAMESPACES for p in parts) or parts[-1] in _META_WORDS:
            return self._violation("metaprogram", "runs meta-level code (could change the "
                                   "environment, the messages or the checker)", token)
        if any(p.startswith("unsafe") for p in parts) and not self._aesop_phase(index, word):
            return self._violation("unsafe", "uses unsafe code", token)
        if parts[-1] in _NATIVE and not self.allow_native:
            return self._violation("native_decide", "uses native evaluation (trusts compiled "
                                   "code; allow with --allow-native-decide)", token)
        if word in _NOISE and (word != "trace" or self._tactic_position(index)
                               or (nxt is not None and nxt.kind == "str")):
            return self._violation("noise", f"prints messages ('{word}'), which could imitate "
                                   "Lean's answers", token)
        if "?" in word or word in ("library_search", "rw_search"):
            return self._violation("search-tactic", f"uses a proof-search or suggestion "
                                   f"tactic ('{word}')", token)
        if word in _SEARCH and self._tactic_position(index) and (
            word != "hint" or self._ends_tactic(index)
        ):
            return self._violation("search-tactic", f"uses a proof-search tactic ('{word}')",
                                   token)
        if parts[-1] in ("ofNonempty", "arbitrary") and "Classical" in parts:
            return self._violation("classical-choice", "conjures a value by choice "
                                   f"('{name}')", token)
        if word in ("letI", "haveI", "have", "let"):
            return self._check_instance(index, token)
        return None

    def _check_line_start(self, index: int, token: Token, previous: int) -> Violation | None:
        # A line at or left of where the previous line's tactic starts begins a new tactic
        # (or ends the proof); one further right continues a term. After a `;` (which may
        # also end a tactic block) a tactic starts too.
        after_semicolon = index > 0 and self.tokens[index - 1].text == ";"
        if (index == 0 or self.open_brackets or token.kind != "ident" or "." in token.text
                or (token.column > previous and not after_semicolon)
                or token.text in _LINE_STARTERS):
            return None
        return self._violation("unknown-start", f"starts a line with '{token.text}', which is "
                               "not a tactic afcheck knows (after a proof, Lean reads an "
                               "unknown keyword there as a command)", token)

    def _track_names(self, index: int, token: Token) -> None:
        if token.kind != "ident" or "." in token.text:
            return
        prev = self._prev(index)
        if self.open_brackets or (prev is not None and not token.line_start
                                  and self._binding_line(index)):
            self.names.add(token.text)

    def _binding_line(self, index: int) -> bool:
        # `intro x y z`, `have h`, `fun a b =>`: names after a binding word on its line.
        for k in range(index - 1, -1, -1):
            t = self.tokens[k]
            if t.kind == "ident" and t.text in _BINDING and not t.escaped:
                return True
            if t.kind != "ident" or t.line_start:
                return False
        return False

    def _track_signature(self, token: Token) -> None:
        if not self.header or self.term:
            return
        if token.kind == "ident" and not token.escaped and token.text in _SIGNATURE_STARTS:
            self.in_signature = True
        elif token.text in (":=", "where", "|") and not self.open_brackets:
            self.in_signature = False

    def _starts_line(self, index: int, token: Token) -> bool:
        # In a header the first command and whatever follows a module doc (`/-! … -/ cmd` on
        # one line) start commands as surely as a new line does.
        if index == 0:
            return self.header
        return token.line_start or self.tokens[index - 1].kind == "doc"

    def _check_continuation(self, index: int, token: Token) -> Violation | None:
        # A line further right than the tactic before it continues that tactic only if Lean
        # can read it as more of it; when the tactic or term could end there, a keyword Lean
        # knows and afcheck does not starts a new command, whatever its column.
        if (self.open_brackets or self.in_signature or token.kind != "ident" or token.escaped
                or "." in token.text
                or token.text in _LINE_STARTERS or token.text in _CONTINUATIONS):
            return None
        if self.header and token.text in (_HEADER_COMMANDS | {"set_option", "attribute"}):
            return None
        prev = self._prev(index)
        if prev is not None and prev.kind == "sym" and prev.text not in _CLOSERS:
            return None
        if prev is not None and prev.kind == "ident" and prev.text in _NEEDS_ARGUMENT \
                and not prev.escaped:
            return None
        nxt = self._next(index)
        if self.header and nxt is not None and nxt.text in (":", ":="):
            return None  # a structure's field
        if self._continues_have(index, token) or token.text in self.names:
            return None
        return self._violation("continuation", f"starts a line with '{token.text}' where the "
                               "tactic or term before it may have ended: if Lean knows it as "
                               "a keyword, it starts a new command there", token)

    def _continues_have(self, index: int, token: Token) -> bool:
        # `have h : p := v` on a line of a term, its body on the next line at the same column:
        # a `have` needs a body, so that line is more of the term, never a command.
        for k in range(index - 1, -1, -1):
            earlier = self.tokens[k]
            if earlier.line_start and earlier.column <= token.column:
                return earlier.column == token.column and earlier.text in _TERM_CHAIN
        return False

    def _check_look_alike(self, index: int, token: Token,
                          parts: list[str]) -> Violation | None:
        if self._binder(index):
            return None  # `(hα : 0 < α)`: a bound name stands for nothing else
        for part in parts:
            if len(part) > 1 and any(looks_latin(ch) for ch in part):
                return self._violation("look-alike", f"names '{token.text}' with a letter that "
                                       "looks like a Latin one, so it can pass for another "
                                       "name (Νat for Nat)", token)
        return None

    def _check_interpolation(self, token: Token) -> Violation | None:
        # An interpolating macro (`s!`, `m!`, `f!`, `throwError` …) reads what is between
        # braces as code: that code goes through the same rules as the header around it.
        text, k, depth, start = token.text, 0, 0, 0
        while k < len(text):
            ch = text[k]
            if ch == "\\":
                k += 2
                continue
            if ch == "{":
                depth += 1
                if depth == 1:
                    start = k + 1
            elif ch == "}" and depth:
                depth -= 1
                if depth == 0:
                    found = find_header_violation(text[start:k], term=True,
                                                  allow_native_decide=self.allow_native)
                    if found is not None:
                        return Violation(found.rule, f"{found.why} (inside an interpolated "
                                         "string)", found.span, token.start + start + found.start)
            k += 1
        if depth:
            return self._violation("interpolated-string", "has a string with an unclosed '{' "
                                   "(the code of an interpolated string may hold strings of "
                                   "its own, so where it ends cannot be read safely)", token)
        return None

    def _check_symbol(self, index: int, token: Token) -> Violation | None:
        nxt = self._next(index)
        if token.text == "(" and self._configuration(index):
            return self._check_configuration(index)
        if token.text == "#" and nxt is not None and nxt.kind == "ident" and not nxt.space_before:
            return self._violation("hash-command", f"contains the command '#{nxt.text}'",
                                   token, nxt)
        if token.text == "@[":
            if not self.header:
                return self._violation("attribute", "adds attributes", token)
            return self._check_attributes(index + 1)
        if token.text == "`":
            return self._violation("quotation", "quotes names or syntax (meta-level code)",
                                   token)
        if token.text == "?" and not (nxt is not None and nxt.kind == "ident"
                                      and not nxt.space_before):
            return self._violation("search-tactic", "uses '?' outside a ?x hole (proof search)",
                                   token)
        return None

    def _configuration(self, index: int) -> bool:
        # `simp (config := …)`, `linarith (config := …)`, `decide (kernel := true)`: a
        # tactic's configuration, which Lean elaborates, compiles and *runs* while it
        # elaborates the proof. `(disch := tac)` is tactic syntax, checked as tactics are.
        key, assign = self._next(index), self._next(index + 1)
        if key is None or key.kind != "ident" or assign is None or assign.text != ":=":
            return False
        if key.text in _CONFIG_KEYS:
            return True
        prev = self._prev(index)
        return (prev is not None and prev.kind == "ident" and not prev.escaped
                and key.text not in _TACTIC_ARGUMENTS
                and (prev.text in _LINE_STARTERS or prev.text.endswith("!")))

    def _check_configuration(self, index: int) -> Violation | None:
        """A configuration's value must be a literal: numerals, ``true``/``false``, strings,
        and structure instances ``{ field := literal, … }`` of them. Anything else is a term
        Lean compiles and runs (``timeit``, a name resolved from the expected type, a
        function passed as linarith's preprocessor, discharger or oracle)."""
        end = self._literal_end(index + 3)
        closing = self.tokens[end] if end < len(self.tokens) else None
        if closing is not None and closing.text == ")":
            return None
        at = closing or self.tokens[-1]
        return self._violation("configuration", "configures a tactic with something that is "
                               "not a literal (Lean compiles and runs a configuration while it "
                               "elaborates the proof; only numerals, true/false, strings and "
                               "{ field := literal } are allowed)", self.tokens[index], at)

    def _literal_end(self, index: int) -> int:
        """Just past the literal starting at ``index``, or ``index`` itself where none does."""
        tokens = self.tokens
        if index >= len(tokens):
            return index
        token = tokens[index]
        if token.kind in ("num", "str") or (token.kind == "ident" and not token.escaped
                                            and token.text in ("true", "false")):
            return index + 1
        if token.text == "-" and index + 1 < len(tokens) and tokens[index + 1].kind == "num":
            return index + 2
        if token.text != "{":
            return index
        k = index + 1
        while k < len(tokens) and tokens[k].text != "}":
            field, assign = tokens[k], tokens[k + 1] if k + 1 < len(tokens) else None
            if (field.kind != "ident" or field.text in _PRINTING_FIELDS or assign is None
                    or assign.text != ":="):
                return index
            after = self._literal_end(k + 2)
            if after == k + 2:
                return index
            k = after
            if k < len(tokens) and tokens[k].text == ",":
                k += 1
        return k + 1 if k < len(tokens) else index

    def _check_option(self, index: int, token: Token) -> Violation | None:
        name_tok = self._next(index)
        value_tok = self._next(index + 1)
        if name_tok is None or name_tok.kind != "ident" or value_tok is None:
            return self._violation("option", "has set_option in an unrecognised form", token)
        name, value = name_tok.text, value_tok.text
        span_end = value_tok
        if not self.header:
            after = self._next(index + 2)
            if after is None or after.text != "in":
                return self._violation("option", "sets an option for everything after the "
                                       "proof (only 'set_option … in' may appear)", token,
                                       span_end)
        if name in self.bounds:
            if value_tok.kind != "num" or not value_tok.text.isdigit():
                return self._violation("option", f"sets {name} to a non-numeral", token,
                                       span_end)
            if self.header:
                return None
            bound = self.bounds[name]
            if not 0 < int(value) <= bound:
                return self._violation("option", f"sets {name} outside 1..{bound} (afcheck's "
                                       "bound)", token, span_end)
            return None
        if self.header and (name in _HEADER_BOOL_OPTIONS or name.startswith(_HEADER_BOOL_PREFIXES)):
            if value not in ("true", "false"):
                return self._violation("option", f"sets {name} to a non-boolean", token,
                                       span_end)
            return None
        return self._violation("option", f"sets the option {name}, which is not on afcheck's "
                               "list (it may weaken checking)", token, span_end)

    def _check_attributes(self, start: int) -> Violation | None:
        index = start
        if index < len(self.tokens) and self.tokens[index].text == "[":
            index += 1
        depth = 0
        while index < len(self.tokens):
            token = self.tokens[index]
            if token.text == "]" and depth == 0:
                return None
            if token.text in ("(", "["):
                depth += 1
            elif token.text in (")", "]"):
                depth -= 1
            elif token.kind == "ident" and depth == 0:
                prev = self._prev(index)
                leads = prev is None or prev.text in ("[", "@[", ",", "local", "scoped", "-")
                if leads and token.text in ("instance", "default_instance", "coe"):
                    return self._violation("instance", f"adds the attribute '{token.text}', "
                                           "which can change what the statement's numerals, "
                                           "notation or coercions mean", token)
                if leads and token.text not in _HEADER_ATTRIBUTES:
                    return self._violation("attribute", f"adds the attribute '{token.text}', "
                                           "which is not on afcheck's list", token)
            index += 1
        return None

    def _check_instance(self, index: int, token: Token) -> Violation | None:
        # `letI : Decidable p := _` / `haveI : Fact p := ⟨?_⟩`: an instance whose value is left
        # to unification can make `decide` or a `Fact` argument say what the prover wants. A
        # plain `have` of a class type is a local instance too in Lean 4.
        end = index + 1
        classes = holes = False
        while end < len(self.tokens):
            t = self.tokens[end]
            if (t.line_start and t.column <= token.column) or t.text in (";", "<;>"):
                break
            if t.kind == "ident" and t.text.split(".")[-1].startswith(_INSTANCE_CLASSES):
                classes = True
            if t.text == "_" or t.text == "?":
                holes = True
            end += 1
        if classes and holes:
            return self._violation("instance-hole", f"introduces a Decidable/Fact instance "
                                   f"with a hole ('{token.text}')", token,
                                   self.tokens[end - 1])
        return None

    def _check_shadow(self, index: int, token: Token, parts: list[str]) -> Violation | None:
        # `abbrev Nat := ZMod 1`, inside a namespace or not, `def Cheat.Real.sqrt`: a header
        # declaration named as one of Lean's or Mathlib's own makes a statement that uses the
        # name mean the header's (the audit also checks the names each statement uses).
        prev = self._prev(index)
        if prev is None or word_of(prev) not in _SIGNATURE_STARTS or parts[-1] not in CORE_NAMES:
            return None
        return self._violation("shadow", f"declares '{token.text}', a name Lean or Mathlib "
                               "already gives a meaning: a statement using it would mean the "
                               "header's", token)

    def _fresh_notation(self, index: int) -> bool:
        """``local notation "φ" => …`` in a header whose statements are known, each token of
        it a fresh word or symbol: none of the statements contains it (so none reads
        differently), no keyword or tactic afcheck knows, nothing that could start a comment,
        a string or a name in guillemets (so the proof reads to afcheck as it reads to Lean).
        What it stands for goes through the header rules like any term."""
        prev = self._prev(index)
        if self.statements is None or prev is None or word_of(prev) != "local":
            return False
        tokens, k = self.tokens, index + 1
        literals: list[str] = []
        while k < len(tokens) and tokens[k].text != "=>":
            token = tokens[k]
            if token.kind == "str" and "\\" not in token.text:
                literals.append(token.text[1:-1].strip())
            elif token.text == ":" and k + 1 < len(tokens) and tokens[k + 1].kind == "num":
                k += 1  # a precedence: `notation:65`, `x:65`
            elif token.kind != "ident":
                return False
            k += 1
        return k < len(tokens) and bool(literals) and all(
            _fresh_token(literal, self.statements) for literal in literals)

    def _binder(self, index: int) -> bool:
        """Whether the name at ``index`` is bound right there: in ``(a hα : …)``,
        ``{x y : …}``, ``∀ hα,``, ``fun hα =>``."""
        k = index
        while (k > 0 and self.tokens[k - 1].kind == "ident" and not self.tokens[k - 1].line_start
               and self.tokens[k - 1].text not in ("fun", "λ")):
            k -= 1
        opener = self.tokens[k - 1].text if k > 0 else ""
        end = index
        while end + 1 < len(self.tokens) and self.tokens[end + 1].kind == "ident":
            end += 1
        after = self.tokens[end + 1].text if end + 1 < len(self.tokens) else ""
        if opener in ("(", "{", "⦃", "[", "⟨") and after == ":":
            return True
        return opener in ("∀", "∃", "∃!", "fun", "λ") and after in (":", ",", "=>")

    def _tactic_position(self, index: int) -> bool:
        token = self.tokens[index]
        prev = self._prev(index)
        return token.line_start or prev is None or prev.text in _TACTIC_BEFORE

    def _ends_tactic(self, index: int) -> bool:
        nxt = self._next(index)
        return nxt is None or nxt.line_start or nxt.text in _AFTER_TACTIC

    def _aesop_phase(self, index: int, word: str) -> bool:
        # `aesop (add unsafe 50% apply foo, safe …)`: `unsafe` is a rule phase there.
        if word != "unsafe" or not self.open_brackets:
            return False
        opener = self.open_brackets[-1]
        return (self.tokens[opener].text == "("
                and opener + 1 < len(self.tokens) and self.tokens[opener + 1].text == "add"
                and self.tokens[index - 1].text in ("add", ","))


CORE_NAMES = frozenset("""
    Nat Int Real Rat Complex ℕ ℤ ℝ ℚ ℂ NNReal ENNReal EReal Finset Set List Multiset Fin ZMod
    Polynomial Function Prime Even Odd Prop Type Sort True False Eq Ne And Or Not Iff Exists
    Bool Decidable Dvd HAdd HMul HPow HSub HDiv Add Mul Sub Div Pow Neg OfNat Nat.Prime
    abs sqrt exp log sin cos tan arcsin arccos arctan sinh cosh pi π gcd lcm choose factorial
    floor ceil max min deriv id digits card range sum prod logb rpow dist norm φ σ
    Icc Ico Ioc Ioo Ici Iic Ioi Iio tsum Tendsto atTop atBot nhds Summable HasSum Continuous
    Differentiable totient divisors primeFactors padicValNat IsLeast IsGreatest sSup sInf
    iSup iInf Monotone StrictMono Injective Surjective Bijective Squarefree Coprime
    """.split())
"""Names and notations of Lean and Mathlib a statement may use and a header may neither
declare again (under their own name, or inside a namespace where a statement then reads the
header's) nor give a notation of its own."""
_KNOWN_WORDS = (_LINE_STARTERS | _CONTINUATIONS | _NEEDS_ARGUMENT | _DECLARATIONS | _SCOPES
                | _SYNTAX | _HOLES | _NOISE | _SEARCH | _NATIVE | _EVALUATION | _META_WORDS
                | TARGET_NAMES | CORE_NAMES
                | {"set_option", "attribute", "open", "end", "where", "mut"})


def _fresh_token(literal: str, statements: str) -> bool:
    """A notation token that cannot change how afcheck or a statement reads the text."""
    if not literal or literal in _KNOWN_WORDS or literal in statements:
        return False
    if any("\u2100" <= ch <= "\u214f" or "\U0001d400" <= ch <= "\U0001d7ff" for ch in literal):
        return False  # ℕ ℝ 𝔼 𝓝 …: letter-like symbols are Mathlib's notations
    if is_id_first(literal[0]) and all(is_id_rest(ch) and ch not in "!?" for ch in literal):
        return True
    return all(not ch.isascii() and symbol_char(ch) for ch in literal)


def declaration_start(tokens: Sequence[Token], index: int) -> int:
    """Where the command whose declaration keyword is at ``index`` starts: before its
    modifiers, attributes, doc comment and ``set_option … in`` / ``open … in`` prefixes."""
    start = index
    while True:
        before = _one_prefix(tokens, start)
        if before == start:
            return start
        start = before


def _one_prefix(tokens: Sequence[Token], index: int) -> int:
    start = index
    while start > 0 and word_of(tokens[start - 1]) in _MODIFIERS:
        start -= 1
    if start > 0 and word_of(tokens[start - 1]) == "in":
        # `set_option NAME VALUE in` / `open A B in`: Lean's `in` combinator, which scopes
        # the option or the namespaces to the declaration after it.
        k = start - 1
        if k >= 3 and word_of(tokens[k - 3]) == "set_option" and tokens[k - 2].kind == "ident":
            return k - 3
        j = k - 1
        while j >= 0 and tokens[j].kind == "ident" and word_of(tokens[j]) != "open":
            j -= 1
        if j >= 0 and j < k - 1 and word_of(tokens[j]) == "open":
            return j
        return start
    if start > 0 and tokens[start - 1].text == "]":
        depth, k = 0, start - 1
        while k >= 0:
            if tokens[k].text in _BRACKET_CLOSE:
                depth += 1
            elif tokens[k].text in _BRACKET_OPEN:
                depth -= 1
                if depth == 0:
                    break
            k -= 1
        if k >= 0 and tokens[k].text == "@[":
            start = k
    # `/-- doc -/ @[simp] theorem …`: the doc comment documents the declaration after it.
    if start > 0 and tokens[start - 1].kind == "doc" and tokens[start - 1].text == "/--":
        start -= 1
    return start


def opens_scope(tokens: Sequence[Token], index: int) -> bool:
    """Whether the token at ``index`` opens a namespace or a section: ``namespace``/``section``
    starting a line, or the ``section`` of ``noncomputable section``."""
    word = word_of(tokens[index])
    if word not in ("namespace", "section"):
        return False
    if tokens[index].line_start:
        return True
    before = tokens[index - 1] if index > 0 else None
    return (word == "section" and before is not None and before.line_start
            and word_of(before) == "noncomputable")


def word_of(token: Token) -> str:
    """A keyword as Lean reads it: a name in guillemets is never one."""
    return "" if token.kind != "ident" or token.escaped else token.text


def _tactic_column(tokens: Sequence[Token], index: int) -> int:
    """Where the tactic on the line starting at ``index`` starts: after a leading ``·``."""
    after = index
    while after < len(tokens) and tokens[after].text in ("·", ".") and (
        after == index or not tokens[after].line_start
    ):
        after += 1
    if after < len(tokens) and after != index and not tokens[after].line_start:
        return tokens[after].column
    return tokens[index].column


def _tactic_block_column(tokens: Sequence[Token]) -> int:
    """For a ``by`` body, the column of its first tactic: Lean ends the tactic block (and so
    the proof) at the first line that starts left of it. Otherwise 1."""
    if len(tokens) > 1 and tokens[0].text == "by":
        return max(1, tokens[1].column)
    return 1


def _starts_command(token: Token, block: int) -> bool:
    # Every Lean command starts with a keyword, `#`, `@[` or a doc comment. A line left of the
    # tactic block (or at column 0 after a term) is not proof any more: whatever it starts is
    # a command, even one afcheck has never heard of.
    return token.line_start and token.column < block and (
        token.kind == "ident" or token.text in ("#", "@[")
    )
