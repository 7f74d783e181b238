"""Parse Lean 4 theorem statements into :mod:`afcheck.lean.ast` trees.

A Pratt parser with Lean 4's precedences (``Init/Prelude``, ``Init/Core`` and Mathlib
notation): ``↔`` 20, ``→`` 25 (right), ``∨`` 30 (right), ``∧`` 35 (right), ``¬`` takes its
argument at 40, relations 50, ``+ -`` 65, ``* / %`` 70, prefix ``-`` and ``^`` 75 (``-x^2``
is ``-(x^2)``), application 1024. Binder notations (``∀ ∃ fun``) extend as far as possible;
a big operator's body is read at 67 (Mathlib's ``BigOperators``). A bracketed part the
parser does not model becomes an :class:`~afcheck.lean.ast.Opaque` node with its text.
"""

from __future__ import annotations

import sys

from afcheck.lean.ast import (
    App,
    Ascription,
    BigOp,
    Binder,
    BinOp,
    Coe,
    Expr,
    Lambda,
    Notation,
    Num,
    Opaque,
    Proj,
    Quant,
    Theorem,
    UnOp,
    Var,
    children,
)
from afcheck.lean.lexer import ParseError, Token, tokenize
from afcheck.lean.notation import BIG_BODY, BRACKETED_ARROWS, INFIX, mixfix_precedence

__all__ = [
    "MAX_DEPTH", "MAX_EXPONENT", "MAX_NESTING", "ParseError", "TooLarge", "parse_expr",
    "parse_theorem",
]

MAX_NESTING = 100
"""Brackets, prefix operators and binders nested deeper than this are refused: the parser
descends once per level, and Python's stack is not unbounded."""
MAX_DEPTH = 500
"""Trees deeper than this are refused (a 501-term sum is 500 deep): every consumer of the
tree (printer, negation, evaluator, SMT encoder) recurses over it."""


MAX_EXPONENT = 4000
"""The largest decimal exponent of a scientific literal (``1e4000``)."""


class TooLarge(ParseError):
    """Text the parser refuses for its size, not its syntax."""

MAX = 1024
_BINDER_OPEN = {"(": ")", "{": "}", "[": "]", "⦃": "⦄"}
_BINDER_KIND = {"(": "explicit", "{": "implicit", "[": "instance", "⦃": "strict"}
_CONSTANT_SYMS = {"⊤", "⊥", "∅", "∞"}
"""Symbols that are whole terms: ``⊤ ⊥`` (top, bottom), ``∅``, ``∞``."""
_ARG_START_SYMS = {"(", "⌊", "⌈", "↑", "⟨", "{", "[", "@"} | _CONSTANT_SYMS
_APPLY_LOW = {"$", "<|"}
"""``f $ x`` and ``f <| x``: application with the argument read at the lowest precedence."""
_POSTFIX = {"ᶜ": "·ᶜ", "ᵀ": "·ᵀ"}
_BINDER_NOTATION = {"∑", "∏", "⋃", "⋂", "⨆", "⨅", "∫", "∀ᶠ", "∃ᶠ"}
_MIN = 10
"""Lean's ``min`` precedence (the argument of ``$``/``<|``, the left of ``|>``)."""


class _Parser:
    def __init__(self, text: str) -> None:
        self.text = text
        self.tokens = tokenize(text)
        self.pos = 0
        self.depth = 0

    def nested(self) -> None:
        """Enter one level of nesting; :meth:`leave` must follow."""
        self.depth += 1
        if self.depth > MAX_NESTING:
            raise TooLarge(f"nested more than {MAX_NESTING} levels deep", self.text,
                           self.tok.start)

    def leave(self) -> None:
        self.depth -= 1

    def check_numeral(self, token: Token) -> None:
        """Refuse numerals Python will not convert (over ``sys.get_int_max_str_digits()``
        digits) or whose exponent would take unbounded time to expand (``1e99999999``)."""
        mantissa, _, exponent = token.text.lower().partition("e")
        limit = sys.get_int_max_str_digits()
        digits = sum(c.isdigit() for c in mantissa)
        if limit and digits > limit:
            raise TooLarge(f"a numeral of {digits} digits is longer than the {limit} digits "
                           "afcheck reads", self.text, token.start)
        if exponent and len(exponent.lstrip("+-")) > len(str(MAX_EXPONENT)):
            raise TooLarge(f"the exponent of {token.text[:20]}… is over {MAX_EXPONENT}",
                           self.text, token.start)
        if exponent and abs(int(exponent)) > MAX_EXPONENT:
            raise TooLarge(f"the exponent of {token.text} is over {MAX_EXPONENT}", self.text,
                           token.start)

    # --- token helpers -------------------------------------------------------------
    @property
    def tok(self) -> Token:
        return self.tokens[self.pos]

    def peek(self, k: int = 1) -> Token:
        return self.tokens[min(self.pos + k, len(self.tokens) - 1)]

    def at(self, *texts: str) -> bool:
        return self.tok.kind in ("sym", "ident") and self.tok.text in texts

    def advance(self) -> Token:
        token = self.tok
        self.pos += 1
        return token

    def expect(self, text: str) -> Token:
        if not self.at(text):
            found = self.tok.text or "end of input"
            raise self.error(f"expected '{text}', found '{found}'")
        return self.advance()

    def error(self, message: str, token: Token | None = None) -> ParseError:
        return ParseError(message, self.text, (token or self.tok).start)

    def ident(self) -> str:
        if self.tok.kind != "ident":
            raise self.error(f"expected a name, found '{self.tok.text or 'end of input'}'")
        return self.advance().text

    # --- theorem -------------------------------------------------------------------
    def theorem(self) -> Theorem:
        while self.at("@"):
            self.skip_brackets_from(self.pos + 1)
        for modifier in ("private", "protected", "nonrec"):
            if self.at(modifier):
                self.advance()
        if not self.at("theorem", "lemma", "example"):
            raise self.error("expected 'theorem', 'lemma' or 'example'")
        keyword = self.advance().text
        name = "" if keyword == "example" else self.ident()
        if self.at(".") and self.peek().text == "{":
            # Universe parameters ``theorem t.{u v}``: a universe name is a level, never a
            # term, so the statement reads the same without the list.
            self.advance()
            self.advance()
            while not self.at("}") and self.tok.kind != "eof":
                self.advance()
            self.expect("}")
        binders: list[Binder] = []
        while self.tok.text in _BINDER_OPEN and self.tok.kind == "sym":
            binders.extend(self.bracketed_binders())
        self.expect(":")
        conclusion = self.expr(0)
        if self.at(":="):
            self.advance()
            while self.tok.kind != "eof":
                self.advance()
        if self.tok.kind != "eof":
            raise self.error(f"unexpected '{self.tok.text}' after the statement")
        return Theorem(keyword, name, tuple(binders), conclusion)

    def skip_brackets_from(self, index: int) -> None:
        """Skip an attribute ``@[...]``."""
        self.pos = index
        self.expect("[")
        depth = 1
        while depth and self.tok.kind != "eof":
            token = self.advance()
            depth += {"[": 1, "]": -1}.get(token.text, 0)

    def bracketed_binders(self) -> list[Binder]:
        opener = self.advance().text
        closer = _BINDER_OPEN[opener]
        kind = _BINDER_KIND[opener]
        if kind == "instance":
            if self.tok.kind == "ident" and self.peek().text == ":":
                name = self.advance().text
                self.advance()
            else:
                name = ""
            instance_type = self.expr(0)
            self.expect(closer)
            return [Binder(name, instance_type, kind)]
        names = [self.binder_name()]
        while self.tok.kind == "ident" or self.at("_"):
            names.append(self.binder_name())
        type_: Expr | None = None
        default: Expr | None = None
        if self.at(":"):
            self.advance()
            type_ = self.expr(0)
        if self.at(":="):
            if kind != "explicit":
                raise self.error("a default value ':=' needs an explicit binder '( )'")
            self.advance()
            default = self.expr(0)
        self.expect(closer)
        return [Binder(n, type_, kind, default) for n in names]

    def binder_name(self) -> str:
        return self.ident()

    # --- expressions ---------------------------------------------------------------
    def expr(self, min_prec: int) -> Expr:
        self.nested()
        try:
            return self._expr(min_prec)
        finally:
            self.leave()

    def _expr(self, min_prec: int) -> Expr:
        left = self.prefix()
        while True:
            token = self.tok
            if token.kind == "sym" and token.text in INFIX:
                prec, _, right_min = INFIX[token.text]
                if prec < min_prec:
                    break
                self.advance()
                right = self.expr(right_min)
                left = BinOp(token.text, left, right)
                if token.text == "≡" and self.at("["):
                    left = self.modeq_suffix(left)
                continue
            if token.kind == "sym" and token.text in BRACKETED_ARROWS and self.peek().text == "[":
                if 25 < min_prec:
                    break
                self.advance()
                self.expect("[")
                ring = self.expr(0)
                self.expect("]")
                right = self.expr(25)
                left = Notation(BRACKETED_ARROWS[token.text], (left, ring, right))
                continue
            if token.kind == "sym" and token.text in _APPLY_LOW:
                if _MIN < min_prec:
                    break
                self.advance()
                left = _apply(left, (self.expr(_MIN),))
                continue
            if token.kind == "sym" and token.text == "|>":
                if _MIN < min_prec:
                    break
                self.advance()
                function = self.expr(_MIN + 1)
                left = _apply(function, (left,))
                continue
            if token.kind == "sym" and token.text in _POSTFIX:
                self.advance()
                left = Notation(_POSTFIX[token.text], (left,))
                continue
            if token.kind == "sym" and token.text in ("!", "⁻¹"):
                self.advance()
                style = "factorial" if token.text == "!" else "inv"
                fn = "Nat.factorial" if token.text == "!" else "Inv.inv"
                left = App(fn, (left,), style)
                continue
            if MAX >= min_prec and self.starts_argument():
                args = [self.argument()]
                while self.starts_argument():
                    args.append(self.argument())
                left = _apply(left, tuple(args))
                continue
            break
        return left

    def modeq_suffix(self, relation: BinOp) -> Expr:
        """``a ≡ b [ZMOD n]`` is kept whole, as opaque text."""
        start = self.pos
        self.skip_brackets_from(self.pos)
        suffix = self.text[self.tokens[start].start : self.tokens[self.pos - 1].end]
        from afcheck.lean.printer import print_expr

        return Opaque(f"{print_expr(relation)} {suffix}")

    def starts_argument(self) -> bool:
        token = self.tok
        if token.kind in ("ident", "num"):
            return token.text not in _KEYWORDS
        return token.kind == "sym" and token.text in _ARG_START_SYMS

    def argument(self) -> Expr:
        """An application argument: an atom with its postfix marks (``f x⁻¹`` is
        ``f (x⁻¹)``: Lean reads arguments at ``argPrec`` 1023, below ``⁻¹ ᶜ ᵀ`` at 1024
        and ``!`` at 10000)."""
        arg = self.atom()
        while self.tok.kind == "sym" and self.tok.text in ("!", "⁻¹", *_POSTFIX):
            text = self.advance().text
            if text in _POSTFIX:
                arg = Notation(_POSTFIX[text], (arg,))
            else:
                style = "factorial" if text == "!" else "inv"
                arg = App("Nat.factorial" if text == "!" else "Inv.inv", (arg,), style)
        return arg

    def prefix(self) -> Expr:
        token = self.tok
        text = token.text
        if token.kind == "sym":
            if text == "-":
                self.advance()
                return UnOp("-", self.expr(75))
            if text == "¬":
                self.advance()
                return UnOp("¬", self.expr(40))
            if text == "√":
                self.advance()
                return App("Real.sqrt", (self.expr(100),), "sqrt")
            if text in ("∀", "∃", "∃!", "Π"):
                return self.quantifier()
            if text in _BINDER_NOTATION:
                return self.big_operator()
            if text in ("⋃₀", "⋂₀"):
                self.advance()
                return Notation(f"{text} ·", (self.expr(mixfix_precedence(f"{text} ·")),))
            if text == "|":
                self.advance()
                inner = self.expr(0)
                self.expect("|")
                return App("abs", (inner,), "abs")
            if text == "fun":
                return self.lambda_()
        return self.atom()

    def atom(self) -> Expr:
        token = self.tok
        if token.kind == "num":
            self.check_numeral(token)
            self.advance()
            return Num(token.text)
        if token.kind == "ident":
            if token.text in _KEYWORDS:
                raise self.error(f"'{token.text}' is not supported in a statement")
            self.advance()
            if token.text in ("Type", "Sort") and self.at("*") and self.tok.start == token.end:
                self.advance()  # ``Type*``: a fresh universe
                return Var(token.text + "*")
            return Var(token.text)
        text = token.text
        if text == "(":
            return self.parenthesised()
        if text in _CONSTANT_SYMS:
            self.advance()
            return Var(text)
        if text == "@" and self.peek().kind == "ident" and self.peek().start == token.end:
            # ``@card G inst``: explicit arguments; the name is kept with its ``@``.
            self.advance()
            return Var("@" + self.advance().text)
        if text == "‖":
            return self.norm()
        if text in ("⟪", "⁅"):
            return self.pairing(text)
        if text == "↑":
            self.advance()
            self.nested()
            try:
                return Coe(self.atom())
            finally:
                self.leave()
        if text == "⌊":
            return self.delimited("⌋", "Int.floor", "floor")
        if text == "⌈":
            return self.delimited("⌉", "Int.ceil", "ceil")
        if text in ("⟨", "{", "["):
            return self.opaque_brackets()  # anonymous constructors, sets, list literals
        raise self.error(f"unexpected '{text or 'end of input'}'")

    def norm(self) -> Expr:
        """``‖x‖`` (``norm``) or ``‖x‖₊`` (``nnnorm``)."""
        self.advance()
        inner = self.expr(0)
        if self.at("‖₊"):
            self.advance()
            return Notation("‖·‖₊", (inner,))
        self.expect("‖")
        return Notation("‖·‖", (inner,))

    def pairing(self, opener: str) -> Expr:
        """``⟪x, y⟫_ℝ`` (inner product, with its field suffix) or ``⁅x, y⁆`` (Lie bracket)."""
        self.advance()
        first = self.expr(0)
        self.expect(",")
        second = self.expr(0)
        if opener == "⁅":
            self.expect("⁆")
            return Notation("⁅·, ·⁆", (first, second))
        close = self.expect("⟫")
        suffix = ""
        if self.tok.kind == "ident" and self.tok.start == close.end and self.tok.text[:1] == "_":
            suffix = self.advance().text
        return Notation(f"⟪·, ·⟫{suffix}", (first, second))

    def delimited(self, closer: str, fn: str, style: str) -> Expr:
        self.advance()
        inner = self.expr(0)
        self.expect(closer)
        return App(fn, (inner,), style)

    def parenthesised(self) -> Expr:
        start = self.pos
        try:
            self.advance()
            inner = self.expr(0)
            if self.at(":"):
                self.advance()
                inner = Ascription(inner, self.expr(0))
            self.expect(")")
        except TooLarge:
            raise
        except ParseError:
            self.pos = start
            return self.opaque_brackets()
        return self.projections(inner)

    def projections(self, inner: Expr) -> Expr:
        """``(x + 1).natAbs``: a ``.`` right after the closing bracket, then a name."""
        while self.at(".") and self.tok.start == self.tokens[self.pos - 1].end:
            self.advance()
            inner = Proj(inner, self.ident())
        return inner

    def opaque_brackets(self) -> Expr:
        """A bracketed expression the parser does not model, kept as its text."""
        start = self.tok
        depth = 0
        while True:
            token = self.advance()
            if token.kind == "eof":
                raise self.error(f"unclosed '{start.text}'", start)
            if token.text in "([{⟨⦃" and token.kind == "sym":
                depth += 1
            elif token.text in ")]}⟩⦄" and token.kind == "sym":
                depth -= 1
                if depth == 0:
                    return self.projections(Opaque(self.text[start.start : token.end]))

    def quantifier(self) -> Expr:
        q = self.advance().text
        if q == "Π":
            q = "∀"  # ``Π i, β i`` is Mathlib's spelling of the dependent arrow ``∀ i, β i``
        binders, bound = self.quantifier_binders()
        self.expect(",")
        body = self.expr(0)
        return Quant(q, binders, body, bound)

    def quantifier_binders(self) -> tuple[tuple[Binder, ...], tuple[str, Expr] | None]:
        if self.tok.text in _BINDER_OPEN and self.tok.kind == "sym":
            binders: list[Binder] = []
            while self.tok.text in _BINDER_OPEN and self.tok.kind == "sym":
                binders.extend(self.bracketed_binders())
            return tuple(binders), None
        names = [self.binder_name()]
        while self.tok.kind == "ident":
            names.append(self.binder_name())
        type_: Expr | None = None
        bound: tuple[str, Expr] | None = None
        if self.at(":"):
            self.advance()
            type_ = self.expr(0)
        elif self.tok.text in ("<", ">", "≤", "≥", "≠", "∈", "∉", "⊆") and self.tok.kind == "sym":
            op = self.advance().text
            bound = (op, self.expr(51))
        return tuple(Binder(n, type_) for n in names), bound

    def lambda_(self) -> Expr:
        self.advance()
        binders, _ = self.quantifier_binders()
        if self.at(","):
            self.advance()
        else:
            self.expect("=>")
        return Lambda(binders, self.expr(0))

    def big_operator(self) -> Expr:
        op = self.advance().text
        var_type: Expr | None = None
        if self.at("(") and self.peek().kind == "ident" and self.peek(2).text == ":":
            self.advance()  # ``⋃ (i : ι), s i``
            var = self.binder_name()
            self.expect(":")
            var_type = self.expr(0)
            self.expect(")")
        else:
            var = self.binder_name()
            if self.at(":"):
                self.advance()
                var_type = self.expr(51)
        domain: Expr | None = None
        keyword = "in"
        if self.at("in", "∈"):
            keyword = self.advance().text
            domain = self.expr(0)
        self.expect(",")
        body = self.expr(BIG_BODY[op])
        return BigOp(op, var, var_type, domain, body, keyword)


_KEYWORDS = {"in", "then", "else", "if", "by", "at", "with", "from", "have", "show", "let"}


def _apply(fn: Expr, args: tuple[Expr, ...]) -> Expr:
    if isinstance(fn, Var):
        return App(fn.name, args)
    if isinstance(fn, App) and fn.style == "prefix":
        return App(fn.fn, fn.args + args)
    from afcheck.lean.printer import print_expr

    return App(f"({print_expr(fn)})", args)


def parse_theorem(text: str) -> Theorem:
    """Parse one statement ``theorem name binders : type [:= proof]``.

    Raises :class:`ParseError` (with line and column) when ``text`` is not one, and
    :class:`TooLarge` when it nests deeper than :data:`MAX_NESTING` / :data:`MAX_DEPTH` or
    has a numeral longer than Python converts.
    """
    theorem = _Parser(text).theorem()
    roots = [theorem.conclusion]
    for binder in theorem.binders:
        roots += [e for e in (binder.type, binder.default) if e is not None]
    for root in roots:
        _check_depth(root, text)
    return theorem


def parse_expr(text: str) -> Expr:
    """Parse a single expression (same refusals as :func:`parse_theorem`)."""
    parser = _Parser(text)
    expr = parser.expr(0)
    if parser.tok.kind != "eof":
        raise parser.error(f"unexpected '{parser.tok.text}'")
    _check_depth(expr, text)
    return expr


def _check_depth(root: Expr, text: str) -> None:
    """Refuse a tree deeper than :data:`MAX_DEPTH`; iterative, so it cannot overflow itself."""
    stack: list[tuple[Expr, int]] = [(root, 1)]
    while stack:
        expr, depth = stack.pop()
        if depth > MAX_DEPTH:
            raise TooLarge(f"the statement nests more than {MAX_DEPTH} levels deep "
                           "(e.g. a sum of that many terms)", text, 0)
        stack.extend((child, depth + 1) for child in children(expr))
