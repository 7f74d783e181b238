"""Criterion ``sae``: structure-aware equivalence (Definitions 2.1–2.3 of the seed).

Both statements are put in normal form (:mod:`afcheck_equivalence.normal`); the admissible
binder alignments are enumerated (:mod:`afcheck_equivalence.align`); under each alignment π
the obligations below are built as Lean theorem statements over the reference's binders, and
all obligations of all pairs go to the prover in one batch.

- Premise-bearing statements (both have premises), Definition 2.1:
  ``Δ ⊢ (⋀Γ) ↔ (⋀Γ'π)`` (component ``premises``) and ``Δ ⊢ C ↔ C'π`` (``conclusion``). A
  refutation of the latter is evidence only where the premises hold: its Noneq needs
  ``Δ, Γ, Γ'π ⊢ C ↔ C'π`` refuted; proved, the pair is Inconclusive (the same proposition,
  not SAE-equivalent).
- Premise-free statements (neither has premises), Definition 2.2: the conclusion trees must
  have the same connectives and quantifiers (``a ≠ b`` read as ``¬ a = b``, ``¬ a < b`` as
  ``b ≤ a``), and each relational leaf ``E₁ ρ E₂`` / ``E₁' ρ' E₂'`` either has ``ρ' = ρ`` and
  ``Δ ⊢ E₁ = E₁'``, ``Δ ⊢ E₂ = E₂'``, or ``ρ' = dual ρ`` and ``Δ ⊢ E₁ = E₂'``, ``Δ ⊢ E₂ = E₁'``.
  Leaves are compared on the elaborated statement and printed with their types ascribed, so an
  equation means what it meant in place; outside the typed fragment the trees are matched on
  the syntax (:class:`_Untyped`) and each side equation is a Lean statement over the binders.
- One premise-bearing and one premise-free statement are not SAE-equivalent (Definition 2.3).
- Parts that differ after normalisation but agree in the orientation of the Mathlib rewrites
  (:mod:`afcheck_equivalence.rewrites`) are proved, one certificate line per rewrite.

Decision: Eq when some alignment has every obligation proved — unless a statement's premises
are provably inconsistent (``Δ, Γ ⊢ False``, checked in the same batch), which is flagged and
Inconclusive, since a vacuous statement is equivalent to every other vacuous one. Noneq only
with evidence that the meanings differ, when every alignment has it (and the enumeration was
not capped): a refuted obligation (``refuted``: a counter-model), or a difference the
definition itself rules out (``structural``: different closed computations of a closed
statement). A difference of structure that nothing refutes — no admissible alignment, one side
with premises, conclusion trees of different shapes — carries a refutation-only obligation
(the closed ``T ↔ T'``, or ``Δ ⊢ S ↔ S'`` for the parts that differ); unrefuted, the pair is
Inconclusive with the reason. Obligations are pointwise in every binder, ``∃`` ones included:
pointwise equivalence under the same prefix gives equivalence of the whole statements, so an
Eq is also a logical equivalence.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace

from afcheck.components import Prover
from afcheck.lean import ast as A
from afcheck.lean import typed as T
from afcheck.lean.printer import (
    print_binder_group,
    print_expr,
    print_formula,
    print_statement,
    print_term,
    print_theorem,
    print_typed_binder,
)
from afcheck.lean.rename import free_names, rename
from afcheck.types import Verdict, VerdictKind
from afcheck_equivalence.align import alignments
from afcheck_equivalence.discharge import discharge
from afcheck_equivalence.normal import NormalForm, NotNormalisable, normalise
from afcheck_equivalence.read import ReadError, read_pair, shared_header
from afcheck_equivalence.records import Decision, Eq, Inconclusive, Noneq, Obligation, Pair
from afcheck_equivalence.rewrites import RULES, Step, rewrite
from afcheck_equivalence.syntactic import aliases, canonical

__all__ = ["Sae"]

_DUAL = {"=": "=", "<": ">", ">": "<", "≤": "≥", "≥": "≤"}
_TIES = 8
"""At most this many equally likely alignments are tried after an undecided first one."""


# --- what an alignment needs --------------------------------------------------------------
@dataclass(frozen=True)
class _Leaf:
    """One relational leaf: it holds when some orientation has every equation proved."""

    label: str
    orientations: tuple[tuple[Obligation, ...], ...]
    note: str = ""
    """Why no orientation could be built (types differ) — the leaf stays undecided."""


@dataclass
class _Plan:
    """Obligations of one alignment, by component."""

    alignment: tuple[tuple[str, str], ...]
    premises: list[Obligation] = field(default_factory=list)
    conclusion: list[Obligation] = field(default_factory=list)
    leaves: list[_Leaf] = field(default_factory=list)
    witness: list[Obligation] = field(default_factory=list)
    mismatch: tuple[str, str] | None = None
    """``(component, reason)`` of a structural difference. It fails the alignment only with
    evidence: :attr:`certain` (the criterion's definition rules it out), or a refuted
    :attr:`distinguish` obligation; otherwise the alignment stays undecided."""
    certain: bool = False
    """The mismatch itself shows the meanings differ (different closed computations of a
    closed statement): a ``structural`` Noneq."""
    distinguish: list[Obligation] = field(default_factory=list)
    """Refutation only, beside a mismatch: ``Δ ⊢ S ↔ S′`` for the parts that differ. A
    refutation is a point where one side holds and the other fails; a proof is never used
    (a structural difference is not an Eq)."""
    undecided: str = ""
    """A reason the alignment cannot be decided at all."""
    trivial: list[Obligation] = field(default_factory=list)
    """Premise-bearing only: ``Δ ⊢ C`` and ``Δ ⊢ ¬C`` for the reference conclusion. When one
    is proved, ``C ↔ C'`` compares two truth values that do not depend on the binders, and
    the conclusions are compared leaf by leaf instead (:attr:`structural`)."""
    trivial_premises: list[Obligation] = field(default_factory=list)
    """``Δ ⊢ ⋀Γ`` when the premises differ: proved, ``(⋀Γ) ↔ (⋀Γ')`` compared two truths
    (``(h : 1 < 2)`` and ``(h : 3 < 5)``), which says nothing about what the premises say."""
    structural: _Plan | None = None
    """The premise-free rule applied to the two conclusions (``None`` outside the typed
    fragment)."""

    def obligations(self) -> list[Obligation]:
        """The obligations the prover must still decide."""
        out = self.premises + self.conclusion + self.distinguish
        for leaf in self.leaves:
            for orientation in leaf.orientations:
                out.extend(orientation)
        return [o for o in out if o.verdict is None]


@dataclass
class _Case:
    pair: Pair
    header: str = ""
    done: Decision | None = None
    plans: list[_Plan] = field(default_factory=list)
    capped: bool = False
    read: tuple[bool, bool] = (False, False)
    """Whether the front end read the reference and the candidate."""
    scores: list[int] = field(default_factory=list)
    skipped: int = 0
    """Alignments left untried (see :meth:`Sae.decide`): like a cap, they rule out Noneq."""
    vacuity: list[Obligation] = field(default_factory=list)


def _every(plan: _Plan) -> Iterator[Obligation]:
    """Every obligation of ``plan``, decided or not, its structural plan's included."""
    yield from plan.premises + plan.conclusion + plan.witness + plan.trivial + plan.distinguish
    yield from plan.trivial_premises
    for leaf in plan.leaves:
        for orientation in leaf.orientations:
            yield from orientation
    if plan.structural is not None:
        yield from _every(plan.structural)


def _rests_on_limit(case: _Case, verdicts: Mapping[tuple[str, str], Verdict]) -> bool:
    """Whether any obligation of ``case`` got a ``transient`` verdict. Checked over every
    alignment and step, not only those the decision shows: a vacuity check or a trivial
    conclusion that a limit left open changes which decision the others give."""
    asked = [*case.vacuity, *(o for plan in case.plans for o in _every(plan))]
    return any((v := verdicts.get((o.statement, case.header))) is not None and v.transient
               for o in asked)


def _one_sided(ref: NormalForm, cand: NormalForm, alignment: tuple[tuple[str, str], ...],
               used: set[str], reason: str) -> _Plan:
    """One statement has premises and the other none: not SAE-equivalent by Definition 2.3,
    but Noneq only when ``Δ ⊢ (⋀Γ → C) ↔ (⋀Γ′ → C′)`` is refuted at some point."""
    plan = _Plan(alignment, mismatch=("premises", reason))
    captured = sorted((used - set(cand.names)) & set(ref.names))
    if captured:
        plan.mismatch = None
        plan.undecided = (f"the candidate uses '{captured[0]}' as a constant, which the "
                          "reference binds")
        return plan
    mapping = dict(alignment)

    def body(form: NormalForm, renamed: bool) -> A.Expr:
        out = rename(form.conclusion, mapping) if renamed else form.conclusion
        if form.premises:
            premises = [rename(p, mapping) if renamed else p for p in form.premises]
            out = A.BinOp("→", _conj(premises), out)
        return out

    plan.distinguish.append(Obligation("statements (refutation only)", _theorem(
        "sae_statements", ref.binders(), A.BinOp("↔", body(ref, False), body(cand, True)))))
    return plan


def _theorem(name: str, binders: tuple[A.Binder, ...], body: A.Expr) -> str:
    return print_theorem(A.Theorem("theorem", name, binders, body))


def _conj(parts: Sequence[A.Expr]) -> A.Expr:
    if not parts:
        return A.Var("True")
    out = parts[-1]
    for part in reversed(parts[:-1]):
        out = A.BinOp("∧", part, out)
    return out


class Sae:
    """See the module docstring."""

    name = "sae"
    version = "3"

    def __init__(self, prover: Prover, cap: int = 64) -> None:
        self.prover = prover
        self.cap = cap

    @property
    def contained(self) -> bool:
        """Decided in the run's process when the prover is ``contained``: its long steps
        run in processes it bounds itself (a Lean REPL pool); see
        :mod:`afcheck_equivalence.limit`."""
        return bool(getattr(self.prover, "contained", False))

    # --- batch ------------------------------------------------------------------------
    def decide(self, pairs: Sequence[Pair]) -> list[Decision]:
        """Three prover batches, each over every pair that still needs it:

        1. the obligations of each pair's likeliest alignment (most premises and names
           already matching);
        2. the other alignments, where they can still change the decision: all of them when
           the first was refuted, under the premises or perhaps only without them (Noneq
           needs every alignment refuted), otherwise only those
           as likely as the first (an Eq under a less natural alignment is rare, and each
           costs a prover call per obligation); untried ones rule out Noneq, as a cap does;
        3. what the answers leave open: vacuity of the pairs about to be Eq, whether their
           reference conclusion holds (or fails) whatever the binders, and, for conclusions
           still undecided or refuted only without the premises, ``C ↔ C'`` under both
           sides' premises (with the vacuity checks for the latter);
        4. the leaf equations of the conclusions found to be such constants (only those pairs):
           ``C ↔ C'`` between two constants says nothing about relational content.
        """
        cases = [self._plan(pair) for pair in pairs]
        verdicts = discharge(self.prover, [
            (o.statement, case.header) for case in cases for plan in case.plans[:1]
            for o in plan.obligations()])
        more: list[tuple[str, str]] = []
        for case in cases:
            if len(case.plans) < 2:
                continue
            first = _judge(case.plans[0], _filler(verdicts, case.header))
            if first.status == "proved":
                case.skipped, case.plans = len(case.plans) - 1, case.plans[:1]
                continue
            # ``pending``: refuted without the premises; may yet be refuted under them.
            if first.status not in ("refuted", "pending") or case.capped:
                keep = [p for p, sc in zip(case.plans, case.scores, strict=True)
                        if sc >= case.scores[0]][:_TIES]
                case.skipped, case.plans = len(case.plans) - len(keep), keep
            more.extend((o.statement, case.header) for plan in case.plans[1:]
                        for o in plan.obligations())
        verdicts.update(discharge(self.prover, more))
        last: list[tuple[str, str]] = []
        for case in cases:
            if case.done is not None:
                continue
            outcomes = [_judge(plan, _filler(verdicts, case.header)) for plan in case.plans]
            if any(o.status == "proved" for o in outcomes):
                last.extend((o.statement, case.header) for o in case.vacuity)
                plan = case.plans[[o.status for o in outcomes].index("proved")]
                last.extend((o.statement, case.header)
                            for o in plan.trivial + plan.trivial_premises)
                continue
            for plan, judged in zip(case.plans, outcomes, strict=True):
                if judged.status == "pending" or (judged.status == "undecided"
                                                  and judged.component == "conclusion"):
                    last.extend((o.statement, case.header) for o in plan.witness)
            if any(o.status == "pending" for o in outcomes):
                # The conclusions may agree wherever the premises hold only because nothing
                # satisfies them: the vacuity checks tell.
                last.extend((o.statement, case.header) for o in case.vacuity)
        verdicts.update(discharge(self.prover, last))
        relational: list[tuple[str, str]] = []
        for case in cases:
            if case.done is not None:
                continue
            filled = _filler(verdicts, case.header)
            for plan in case.plans:
                if plan.structural is not None and any(filled(o).proved for o in plan.trivial):
                    relational.extend((o.statement, case.header)
                                      for o in plan.structural.obligations())
        verdicts.update(discharge(self.prover, relational))
        return [replace(case.done, read=case.read) if case.done is not None
                else replace(self._decide(case, verdicts), read=case.read,
                             transient=_rests_on_limit(case, verdicts))
                for case in cases]

    # --- planning ---------------------------------------------------------------------
    def _plan(self, pair: Pair) -> _Case:
        case = _Case(pair)
        both = read_pair(pair.reference, pair.candidate, pair.header)
        case.read = both.read
        try:
            ref_read, cand_read = both.sides()
            header = shared_header(ref_read, cand_read)
            case.header = header
            ref = normalise(ref_read.theorem, header)
            cand = normalise(cand_read.theorem, header)
        except (ReadError, NotNormalisable) as error:
            case.done = Inconclusive(self.name, str(error))
            return case
        except RecursionError:
            case.done = Inconclusive(self.name, "the statement is too deeply nested to read")
            return case
        # A local binder shadows every global of its name (Lean's scoping): under
        # ``open Real`` a binder ``sqrt`` is not ``Real.sqrt``.
        bound = set(ref.names) | set(cand.names)
        names = {k: v for k, v in aliases(header).items() if k not in bound}
        found = alignments(ref, cand, self.cap, names)
        if not found.found:
            closed = _theorem("sae_statements", (), A.BinOp("↔", ref.closed(), cand.closed()))
            case.plans = [_Plan((), mismatch=("prefix", found.mismatch), distinguish=[
                Obligation("statements (refutation only)", closed)])]
            case.scores = [0]
            return case
        case.capped = found.capped
        if bool(ref.premises) != bool(cand.premises):
            which = "reference" if ref.premises else "candidate"
            reason = (f"only the {which} has premises ({len(ref.premises)} vs "
                      f"{len(cand.premises)}): a premise-bearing and a premise-free statement "
                      "are not SAE-equivalent")
            used = set().union(*(free_names(p) for p in (*cand.premises, cand.conclusion)))
            for alignment in found.found:
                case.plans.append(_one_sided(ref, cand, alignment, used, reason))
            case.scores = [0] * len(case.plans)
            return case
        for label, form in (("reference", ref), ("candidate", cand)):
            if form.premises:
                hyps = tuple(A.Binder(f"h{i}", p) for i, p in enumerate(form.premises))
                case.vacuity.append(Obligation(
                    f"vacuity {label}",
                    _theorem(f"sae_vacuity_{label}", form.binders() + hyps, A.Var("False"))))
        from afcheck.lean.names import short_names

        forms = _Forms(names, {b.name: print_expr(canonical(b.type, names)) for b in ref.prefix
                               if b.name},
                       {k: v for k, v in short_names(header).items() if k not in bound})
        # What an alignment reads of the candidate, once per pair: its free names, and each
        # alignment's renaming of it (the plan and the likeness score read the same one).
        used = set().union(*(free_names(p) for p in (*cand.premises, cand.conclusion)))
        scores = []
        for alignment in found.found:
            mapping = dict(alignment)
            renamed = _Renamed(tuple(rename(p, mapping) for p in cand.premises),
                               rename(cand.conclusion, mapping))
            case.plans.append(self._plan_alignment(ref, cand, alignment, header, forms, used,
                                                   renamed))
            scores.append(_likeness(ref, renamed, alignment, forms))
        order = sorted(range(len(case.plans)), key=lambda i: -scores[i])
        case.plans = [case.plans[i] for i in order]
        case.scores = [scores[i] for i in order]
        return case

    def _plan_alignment(self, ref: NormalForm, cand: NormalForm,
                        alignment: tuple[tuple[str, str], ...], header: str, forms: _Forms,
                        used: set[str], renamed: _Renamed) -> _Plan:
        plan = _Plan(alignment)
        binders = ref.binders()
        captured = sorted((used - set(cand.names)) & set(ref.names))
        if captured:
            # A name the candidate uses freely (a constant) would be captured by a reference
            # binder of the same name: the obligations would not say what the candidate says.
            plan.undecided = (f"the candidate uses '{captured[0]}' as a constant, which the "
                              "reference binds")
            return plan
        cand_premises, cand_conclusion = list(renamed.premises), renamed.conclusion
        if ref.premises:
            same = _same_premises(ref.premises, cand_premises, forms)
            steps: tuple[Obligation, ...] = ()
            if same is None:
                same, steps = _rewritten_premises(ref.premises, cand_premises, forms, binders)
            plan.premises.append(Obligation("premises", _theorem(
                "sae_premises", binders,
                A.BinOp("↔", _conj(ref.premises), _conj(cand_premises))), same))
            plan.premises.extend(steps)
            if same is None:
                plan.trivial_premises = [Obligation(
                    "reference premises hold for every value of the binders",
                    forms.theorem("sae_trivial_premises",
                                  lambda: _theorem("sae_trivial_premises", binders,
                                                   _conj(ref.premises))))]
            claim = A.BinOp("↔", ref.conclusion, cand_conclusion)
            same = _same(ref.conclusion, cand_conclusion, forms, "identical conclusions")
            steps = ()
            if same is None:
                same, steps = _rewritten(ref.conclusion, cand_conclusion, forms, binders)
            plan.conclusion.append(Obligation("conclusion", _theorem(
                "sae_conclusion", binders, claim), same))
            plan.conclusion.extend(steps)
            # ``C ↔ C′`` is stated without the premises (Definition 2.1), so its refutation
            # may sit where the premises fail, which says nothing of what the statements
            # mean. Its Noneq needs this one refuted: a point where both sides' premises hold
            # and the conclusions differ, so one statement holds there and the other fails.
            # Its proof never makes an Eq (see :func:`_judge`).
            seen = {forms.printed(p) for p in ref.premises}
            extra = [p for p in cand_premises if forms.printed(p) not in seen]
            hyps = tuple(A.Binder(f"h{i}", p) for i, p in enumerate([*ref.premises, *extra]))
            plan.witness.append(Obligation("conclusion under premises",
                                           _theorem("sae_conclusion_witness", binders + hyps,
                                                    claim)))
            if same is None:
                plan.trivial = [
                    Obligation("reference conclusion holds for every value of the binders",
                               forms.theorem("sae_trivial_true", lambda: _theorem(
                                   "sae_trivial_true", binders, ref.conclusion))),
                    Obligation("reference conclusion fails for every value of the binders",
                               forms.theorem("sae_trivial_false", lambda: _theorem(
                                   "sae_trivial_false", binders,
                                   A.UnOp("¬", ref.conclusion))))]
                structural = _Plan(alignment)
                _plan_premise_free(structural, ref, cand_conclusion, header, forms)
                plan.structural = structural
            return plan
        _plan_premise_free(plan, ref, cand_conclusion, header, forms)
        return plan

    # --- deciding ---------------------------------------------------------------------
    def _decide(self, case: _Case, verdicts: dict[tuple[str, str], Verdict]) -> Decision:
        filled = _filler(verdicts, case.header)
        vacuity = [o for o in map(filled, case.vacuity) if o.verdict is not None]
        flags = tuple(f"vacuous-{o.role.split()[-1]}" for o in vacuity if o.proved)
        if case.capped:
            flags += ("alignments-capped",)
        outcomes = [_judge(plan, filled) for plan in case.plans]
        proved = [o for o in outcomes if o.status == "proved"]
        if proved:
            best = proved[0]
            plan = case.plans[outcomes.index(best)]
            trivial = [o for o in map(filled, plan.trivial) if o.proved]
            constant = [o for o in map(filled, plan.trivial_premises) if o.proved]
            if constant and not any(f.startswith("vacuous") for f in flags):
                return Inconclusive(
                    self.name, "the reference premises hold for every value of the binders, so "
                    "'⋀Γ ↔ ⋀Γ′' compares truth values only, and the premises differ",
                    "premises", best.alignment, tuple(best.obligations) + tuple(constant)
                    + tuple(vacuity), flags)
            if trivial and not any(f.startswith("vacuous") for f in flags):
                return self._relational(case, best, plan, trivial, tuple(vacuity), flags,
                                        filled)
            if any(f.startswith("vacuous") for f in flags):
                return Inconclusive(
                    self.name, "the premises are provably inconsistent (vacuous statement); "
                    "every obligation holds trivially", "premises", best.alignment,
                    tuple(best.obligations) + tuple(vacuity), flags)
            return self._eq(f"every obligation proved under alignment {_show(best)}",
                            best.alignment, tuple(best.obligations) + tuple(vacuity), flags)
        if case.skipped and not proved:
            flags += (f"alignments-untried-{case.skipped}",)
        if all(o.status == "refuted" for o in outcomes) and not case.capped and not case.skipped:
            first = outcomes[0]
            more = f" (and under all {len(outcomes)} alignments)" if len(outcomes) > 1 else ""
            evidence = ("structural" if any(o.evidence == "structural" for o in outcomes)
                        else "refuted")
            return Noneq(self.name, first.reason + more, first.component, first.failed,
                         first.alignment, tuple(first.obligations) + tuple(vacuity), flags,
                         evidence=evidence)
        open_ = [o for o in outcomes if o.status in ("undecided", "pending")]
        if open_:
            first = open_[0]
            reason = first.reason
            if first.under_premises and any(f.startswith("vacuous") for f in flags):
                reason = f"the premises are provably inconsistent (vacuous statement); {reason}"
            return Inconclusive(self.name, reason, first.component, first.alignment,
                                tuple(first.obligations) + tuple(vacuity), flags)
        return Inconclusive(
            self.name, f"every alignment failed, but the enumeration stopped at {self.cap}",
            "prefix", (), tuple(vacuity), flags)


    def _eq(self, reason: str, alignment: tuple[tuple[str, str], ...],
            certificate: tuple[Obligation, ...], flags: tuple[str, ...]) -> Decision:
        """Eq, with its certificate: an Eq rests on proved obligations (an identical part is
        an obligation proved by normalisation), never on nothing."""
        if not any(o.proved for o in certificate):
            return Inconclusive(self.name, "no obligation was proved, so there is no "
                                "certificate for an Eq", "statement", alignment, certificate,
                                flags)
        return Eq(self.name, reason, alignment, certificate, flags)

    def _relational(self, case: _Case, best: _Outcome, plan: _Plan, trivial: list[Obligation],
                    vacuity: tuple[Obligation, ...], flags: tuple[str, ...],
                    filled: Callable[[Obligation], Obligation]) -> Decision:
        """``C ↔ C'`` was proved, but ``C`` holds (or fails) whatever the binders are: the
        equivalence compares two truth values, as ``logical`` does. SAE keeps the relational
        content, so the conclusions are compared leaf by leaf, as premise-free ones are."""
        why = (f"{trivial[0].role}, so 'C ↔ C′' compares truth values only; the conclusions "
               "are compared leaf by leaf")
        certificate = tuple(best.obligations) + tuple(trivial) + vacuity
        if plan.structural is None:
            return Inconclusive(self.name, why + ", and they are outside the typed fragment",
                                "conclusion", best.alignment, certificate, flags)
        judged = _judge(plan.structural, filled)
        certificate += tuple(judged.obligations)
        if judged.status == "proved":
            return self._eq(f"{why}: every leaf proved under alignment {_show(best)}",
                            best.alignment, certificate, flags)
        if judged.status == "refuted" and not case.capped and not case.skipped:
            return Noneq(self.name, f"{why}: {judged.reason}", "conclusion", judged.failed,
                         best.alignment, certificate, flags, evidence=judged.evidence)
        return Inconclusive(self.name, f"{why}: {judged.reason}", "conclusion", best.alignment,
                            certificate, flags)


@dataclass(frozen=True)
class _Outcome:
    status: str
    """``proved``, ``refuted`` or ``undecided``."""
    alignment: tuple[tuple[str, str], ...]
    obligations: list[Obligation]
    component: str = ""
    reason: str = ""
    failed: Obligation | None = None
    evidence: str = "refuted"
    """For a refuted outcome: ``refuted`` (an obligation) or ``structural``."""
    under_premises: bool = False
    """Undecided because the conclusions agree wherever the premises hold (proved) though
    not without them: with inconsistent premises that proof is vacuous."""


def _show(outcome: _Outcome) -> str:
    moved = [f"{c}↦{r}" for c, r in outcome.alignment]
    return "{" + ", ".join(moved) + "}" if moved else "{}"


@dataclass(frozen=True)
class _Renamed:
    """The candidate's premises and conclusion under one alignment's renaming."""

    premises: tuple[A.Expr, ...]
    conclusion: A.Expr


class _Forms:
    """The syntactic normal form (:func:`canonical`) of each expression one pair's planning
    compares, and its printing, each computed once: every alignment compares the same
    reference premises and conclusion, and an alignment's plan and its likeness score the
    same renamed candidate. Keyed by the expression object, which is kept beside its form,
    so the key is not reused while the pair is planned. Likewise the text of each obligation
    about the reference alone (``Δ ⊢ C``, ``Δ ⊢ ¬C``, ``Δ ⊢ ⋀Γ``), the same under every
    alignment, by its theorem name."""

    def __init__(self, names: dict[str, str], types: dict[str, str] | None = None,
                 opened: dict[str, str] | None = None) -> None:
        self.names = names
        self.types = types or {}
        """The canonical type of each reference binder (what the rewrites may assume)."""
        self.opened = opened or {}
        """Every short name the header opens, to its full name (locals removed)."""
        self._rewritten: dict[int, tuple[A.Expr, tuple[A.Expr, tuple[Step, ...]]]] = {}
        self._forms: dict[int, tuple[A.Expr, A.Expr]] = {}
        self._printed: dict[int, tuple[A.Expr, str]] = {}
        self._theorems: dict[str, str] = {}

    def theorem(self, name: str, text: Callable[[], str]) -> str:
        """The obligation ``name`` about the reference alone, printed on first use."""
        if name not in self._theorems:
            self._theorems[name] = text()
        return self._theorems[name]

    def form(self, expr: A.Expr) -> A.Expr:
        kept = self._forms.get(id(expr))
        if kept is None or kept[0] is not expr:
            kept = (expr, canonical(expr, self.names))
            self._forms[id(expr)] = kept
        return kept[1]

    def rewritten(self, expr: A.Expr) -> tuple[A.Expr, tuple[Step, ...]]:
        """The normal form in the orientation of the Mathlib rewrites, and the rewrites."""
        kept = self._rewritten.get(id(expr))
        if kept is None or kept[0] is not expr:
            kept = (expr, rewrite(self.form(expr), self.types, self.opened))
            self._rewritten[id(expr)] = kept
        return kept[1]

    def printed(self, expr: A.Expr) -> str:
        kept = self._printed.get(id(expr))
        if kept is None or kept[0] is not expr:
            kept = (expr, print_expr(self.form(expr)))
            self._printed[id(expr)] = kept
        return kept[1]


def _same(left: A.Expr, right: A.Expr, forms: _Forms, why: str) -> Verdict | None:
    """A proof by normalisation when both sides are the same, else ``None``."""
    if forms.form(left) != forms.form(right):
        return None
    return Verdict(VerdictKind.PROVED, "normalisation",
                   reason=f"{why} after normalisation: ↔ holds by reflexivity")


def _same_premises(left: Sequence[A.Expr], right: Sequence[A.Expr],
                   forms: _Forms) -> Verdict | None:
    """Premise lists equal up to order and repetition: their conjunctions are equivalent
    (∧ is associative, commutative and idempotent)."""
    ours = {forms.printed(e) for e in left}
    theirs = {forms.printed(e) for e in right}
    if ours != theirs:
        return None
    return Verdict(VerdictKind.PROVED, "normalisation",
                   reason="the same premises after normalisation, up to order: ↔ holds")


def _rewrite_lines(steps: Sequence[Step],
                   binders: tuple[A.Binder, ...]) -> tuple[Obligation, ...]:
    """One certificate line per rewrite, each an instance of the Mathlib lemma it names."""
    lines: dict[str, Obligation] = {}
    for step in steps:
        statement = print_statement(
            "sae_rewrite", [print_binder_group((b,)) for b in binders], step.claim)
        lines.setdefault(statement, Obligation(
            f"rewrite ({step.lemma})", statement,
            Verdict(VerdictKind.PROVED, "rewrite",
                    reason=f"Mathlib's {step.lemma}: {RULES[step.lemma]}")))
    return tuple(lines.values())


def _rewritten(left: A.Expr, right: A.Expr, forms: _Forms,
               binders: tuple[A.Binder, ...]) -> tuple[Verdict | None, tuple[Obligation, ...]]:
    """A proof that ``left ↔ right`` by the Mathlib rewrites of :mod:`.rewrites`, with one
    line per rewrite; ``(None, ())`` when their rewritten forms differ."""
    ours, our_steps = forms.rewritten(left)
    theirs, their_steps = forms.rewritten(right)
    if ours != theirs:
        return None, ()
    steps = (*our_steps, *their_steps)
    return (Verdict(VerdictKind.PROVED, "normalisation",
                    reason=f"the same after normalisation{_by(steps)}: ↔ holds"),
            _rewrite_lines(steps, binders))


def _by(steps: Sequence[Step]) -> str:
    if not steps:
        return " (notation unfolded)"
    return " and the Mathlib rewrites " + ", ".join(dict.fromkeys(s.lemma for s in steps))


def _rewritten_premises(left: Sequence[A.Expr], right: Sequence[A.Expr], forms: _Forms,
                        binders: tuple[A.Binder, ...]
                        ) -> tuple[Verdict | None, tuple[Obligation, ...]]:
    """Premise lists equal up to order and repetition once rewritten (see :func:`_rewritten`)."""
    steps: list[Step] = []

    def parts(side: Sequence[A.Expr]) -> set[str]:
        out: set[str] = set()
        for premise in side:
            form, made = forms.rewritten(premise)
            steps.extend(made)
            out.update(print_expr(p) for p in _conjuncts(form))
        return out

    if parts(left) != parts(right):
        return None, ()
    return (Verdict(VerdictKind.PROVED, "normalisation",
                    reason=f"the same premises after normalisation{_by(steps)}, up to order: "
                    "↔ holds"), _rewrite_lines(steps, binders))


def _conjuncts(expr: A.Expr) -> list[A.Expr]:
    if isinstance(expr, A.BinOp) and expr.op == "∧":
        return _conjuncts(expr.left) + _conjuncts(expr.right)
    return [expr]


def _filler(verdicts: dict[tuple[str, str], Verdict],
            header: str) -> Callable[[Obligation], Obligation]:
    def fill(o: Obligation) -> Obligation:
        if o.verdict is not None:
            return o
        return Obligation(o.role, o.statement, verdicts.get((o.statement, header)))

    return fill


def _judge(plan: _Plan, fill: Callable[[Obligation], Obligation]) -> _Outcome:
    premises = [fill(o) for o in plan.premises]
    conclusion = [fill(o) for o in plan.conclusion]
    witness = [o for o in map(fill, plan.witness) if o.verdict is not None]
    leaves = [
        _Leaf(leaf.label, tuple(tuple(fill(o) for o in ori) for ori in leaf.orientations),
              leaf.note)
        for leaf in plan.leaves
    ]
    obligations = premises + conclusion + [o for leaf in leaves for ori in leaf.orientations
                                           for o in ori]
    if plan.mismatch is not None:
        component, reason = plan.mismatch
        distinguish = [fill(o) for o in plan.distinguish]
        obligations += distinguish
        refuted = next((o for o in distinguish if o.refuted), None)
        if refuted is not None:
            return _Outcome("refuted", plan.alignment, obligations, component,
                            f"{reason}; {refuted.role} refuted: {_verdict_text(refuted)}",
                            refuted)
        if plan.certain:
            return _Outcome("refuted", plan.alignment, obligations, component, reason,
                            evidence="structural")
        why = f"a structural difference, not a proof that the meanings differ: {reason}"
        if distinguish:
            why += f"; {distinguish[0].role}: {_verdict_text(distinguish[0])}"
        return _Outcome("undecided", plan.alignment, obligations, component, why)
    if plan.undecided:
        return _Outcome("undecided", plan.alignment, obligations, "conclusion", plan.undecided)
    for o in premises:
        if o.refuted:
            return _Outcome("refuted", plan.alignment, obligations, "premises",
                            f"premises obligation refuted: {_verdict_text(o)}", o)
    refuted = next((o for o in conclusion if o.refuted), None)
    if refuted is not None and plan.witness:
        return _under_premises(plan, refuted, obligations, witness)
    if refuted is not None:
        return _Outcome("refuted", plan.alignment, obligations, "conclusion",
                        f"conclusion obligation refuted: {_verdict_text(refuted)}", refuted)
    for o in witness:
        if o.refuted:
            return _Outcome("refuted", plan.alignment, obligations + [o], "conclusion",
                            f"conclusions differ where the premises hold: {_verdict_text(o)}",
                            o)
    for leaf in leaves:
        if leaf.orientations and all(any(o.refuted for o in ori) for ori in leaf.orientations):
            failed = next(o for o in leaf.orientations[0] if o.refuted)
            return _Outcome("refuted", plan.alignment, obligations, "conclusion",
                            f"{leaf.label}: no orientation holds; {failed.role} refuted: "
                            f"{_verdict_text(failed)}", failed)
    for part, name in ((premises, "premises"), (conclusion, "conclusion")):
        for o in part:
            if not o.proved:
                return _Outcome("undecided", plan.alignment, obligations, name,
                                f"{name} obligation undecided: {_verdict_text(o)}")
    for leaf in leaves:
        if not any(all(o.proved for o in ori) for ori in leaf.orientations):
            if leaf.note:
                reason = f"{leaf.label}: {leaf.note}"
            else:
                pending = next(o for ori in leaf.orientations for o in ori if not o.proved)
                reason = f"{leaf.label}: {pending.role} undecided: {_verdict_text(pending)}"
            return _Outcome("undecided", plan.alignment, obligations, "conclusion", reason)
    return _Outcome("proved", plan.alignment, obligations)


def _under_premises(plan: _Plan, refuted: Obligation, obligations: list[Obligation],
                    witness: list[Obligation]) -> _Outcome:
    """``C ↔ C′`` is refuted, but at a point the premises may exclude: only the refutation of
    ``Δ, Γ, Γ′ ⊢ C ↔ C′`` is evidence that the statements differ. Proved, the conclusions
    agree wherever the premises hold — the same proposition in Lean's sense, yet not SAE
    (Definition 2.1 compares the conclusions without the premises, or ``(h : x = 2) : x² = 4``
    would be ``(h : x = 2) : x + 2 = 4``): Inconclusive, never Noneq. ``pending`` until asked."""
    text = _verdict_text(refuted)
    if not witness:
        return _Outcome("pending", plan.alignment, obligations, "conclusion",
                        f"conclusion obligation refuted ({text}); "
                        f"{plan.witness[0].role} not yet asked", refuted)
    under = witness[0]
    obligations = obligations + [under]
    if under.refuted:
        return _Outcome("refuted", plan.alignment, obligations, "conclusion",
                        f"conclusions differ where the premises hold: {_verdict_text(under)}",
                        under)
    if under.proved:
        return _Outcome("undecided", plan.alignment, obligations, "conclusion",
                        "the conclusions agree wherever the premises hold and differ only "
                        f"where they fail ({text}): not SAE-equivalent (the conclusions must "
                        "agree without the premises), and no evidence that the meanings differ",
                        refuted, under_premises=True)
    return _Outcome("undecided", plan.alignment, obligations, "conclusion",
                    f"conclusion obligation refuted ({text}), perhaps only where the premises "
                    f"fail; {under.role} undecided: {_verdict_text(under)}", refuted)


def _verdict_text(o: Obligation) -> str:
    if o.verdict is None:
        return "no verdict"
    text = o.verdict.reason or o.verdict.kind.value
    if o.verdict.evidence:
        text += f" ({o.verdict.evidence})"
    return text


# --- premise-free rule ----------------------------------------------------------------------
def _plan_premise_free(plan: _Plan, ref: NormalForm, cand_conclusion: A.Expr, header: str,
                       forms: _Forms) -> None:
    from afcheck.lean.elaborate import Unsupported, elaborate

    binders = ref.binders()
    if forms.form(ref.conclusion) != forms.form(cand_conclusion):
        same, steps = _rewritten(ref.conclusion, cand_conclusion, forms, binders)
        if same is not None:
            plan.conclusion.append(Obligation("conclusion", _theorem(
                "sae_conclusion", binders, A.BinOp("↔", ref.conclusion, cand_conclusion)), same))
            plan.conclusion.extend(steps)
            return
    try:
        left = elaborate(A.Theorem("theorem", "r", binders, ref.conclusion), header)
        right = elaborate(A.Theorem("theorem", "c", binders, cand_conclusion), header)
    except (Unsupported, RecursionError) as error:
        if forms.form(ref.conclusion) == forms.form(cand_conclusion):
            plan.conclusion.append(Obligation("conclusion", _theorem(
                "sae_conclusion", binders, A.BinOp("↔", ref.conclusion, cand_conclusion)),
                Verdict(VerdictKind.PROVED, "normalisation",
                        reason="identical conclusions after normalisation: ↔ holds by "
                        "reflexivity")))
            return
        _Untyped(plan, binders, forms, f"outside the typed fragment ({error})").match(
            ref.conclusion, cand_conclusion, ())
        if plan.mismatch is not None:
            plan.leaves.clear()
            plan.distinguish.append(Obligation("conclusions (refutation only)", _theorem(
                "sae_conclusions", binders, A.BinOp("↔", ref.conclusion, cand_conclusion))))
        elif not plan.leaves and not plan.undecided:
            plan.conclusion.append(Obligation("conclusion", _theorem(
                "sae_conclusion", binders, A.BinOp("↔", ref.conclusion, cand_conclusion)),
                Verdict(VerdictKind.PROVED, "normalisation",
                        reason="the same connectives, quantifiers and atoms after "
                        "normalisation: ↔ holds")))
        return
    matcher = _Matcher(plan, tuple(left.params))
    matcher.match(_norm(left.conclusion), _norm(right.conclusion), ())
    if plan.mismatch is not None and not plan.certain:
        plan.leaves.clear()
        plan.distinguish.append(Obligation("conclusions (refutation only)", _theorem(
            "sae_conclusions", binders, A.BinOp("↔", ref.conclusion, cand_conclusion))))


def _norm(f: T.Formula) -> T.Formula:
    """``a ≠ b`` as ``¬ a = b``; ``¬ a < b`` as ``b ≤ a`` and ``¬ a ≤ b`` as ``b < a`` (every
    number type here is linearly ordered)."""
    if isinstance(f, T.Cmp) and f.op == "≠":
        return T.Not(T.Cmp("=", f.left, f.right))
    if isinstance(f, T.Not):
        inner = _norm(f.operand)
        if isinstance(inner, T.Cmp) and inner.op in ("<", "≤", ">", "≥"):
            flipped = {"<": "≤", "≤": "<", ">": "≥", "≥": ">"}[inner.op]
            return T.Cmp(flipped, inner.right, inner.left)
        if isinstance(inner, T.Quantified):  # not_exists, not_forall
            return T.Quantified("∃" if inner.q == "∀" else "∀", inner.name, inner.ty,
                                _norm(T.Not(inner.body)))
        return T.Not(inner)
    if isinstance(f, T.Logic):
        return T.Logic(f.op, _norm(f.left), _norm(f.right))
    if isinstance(f, T.Quantified):
        return T.Quantified(f.q, f.name, f.ty, _norm(f.body))
    return f


_SHAPE = {T.Cmp: "relation", T.Logic: "connective", T.Not: "¬", T.Truth: "constant",
          T.Quantified: "quantifier"}


@dataclass
class _Matcher:
    plan: _Plan
    params: tuple[tuple[str, str], ...]
    depth: int = 0

    def mismatch(self, reason: str, certain: bool = False) -> None:
        if self.plan.mismatch is None:
            self.plan.mismatch = ("conclusion", f"conclusion trees differ: {reason}")
            self.plan.certain = certain

    def match(self, f: T.Formula, g: T.Formula, bound: tuple[tuple[str, str], ...]) -> None:
        from afcheck.lean.elaborate import rename as rename_formula

        if self.plan.mismatch is not None:
            return
        if type(f) is not type(g):
            self.mismatch(f"{_SHAPE[type(f)]} '{print_formula(f)}' vs {_SHAPE[type(g)]} "
                          f"'{print_formula(g)}'")
            return
        if isinstance(f, T.Truth) and isinstance(g, T.Truth):
            if f.value != g.value:
                self.mismatch(f"{print_formula(f)} vs {print_formula(g)}")
        elif isinstance(f, T.Not) and isinstance(g, T.Not):
            self.match(f.operand, g.operand, bound)
        elif isinstance(f, T.Logic) and isinstance(g, T.Logic):
            if f.op != g.op:
                self.mismatch(f"'{f.op}' vs '{g.op}'")
                return
            self.match(f.left, g.left, bound)
            self.match(f.right, g.right, bound)
        elif isinstance(f, T.Quantified) and isinstance(g, T.Quantified):
            if f.q != g.q or f.ty != g.ty:
                self.mismatch(f"'{f.q} {f.name} : {f.ty}' vs '{g.q} {g.name} : {g.ty}'")
                return
            self.depth += 1
            name = f"ξ{self.depth}"
            self.match(rename_formula(f.body, f.name, name), rename_formula(g.body, g.name, name),
                       bound + ((name, f.ty),))
        elif isinstance(f, T.Cmp) and isinstance(g, T.Cmp):
            self.leaf(f, g, bound)

    def leaf(self, f: T.Cmp, g: T.Cmp, bound: tuple[tuple[str, str], ...]) -> None:
        index = len(self.plan.leaves) + 1
        label = f"leaf {index} ('{print_formula(f)}' vs '{print_formula(g)}')"
        options: list[tuple[tuple[T.Term, T.Term], ...]] = []
        if g.op == f.op:
            options.append(((f.left, g.left), (f.right, g.right)))
        if _DUAL.get(f.op) == g.op:  # for ``=`` both orientations are tried
            reversed_ = ((f.left, g.right), (f.right, g.left))
            if reversed_ not in options:
                options.append(reversed_)
        if not options:
            self.mismatch(f"relation '{f.op}' vs '{g.op}' in {label}")
            return
        context = [print_typed_binder(n, t) for n, t in self.params + bound]
        orientations: list[tuple[Obligation, ...]] = []
        note = ""
        for k, sides in enumerate(options):
            if any(a.ty != b.ty for a, b in sides):
                note = "the two sides have different types; no equation can compare them"
                continue
            different = [(a, b) for a, b in sides if _ground(a) and _ground(b)
                         and computation(a) != computation(b)]
            if different:
                a, b = different[0]
                # Name the sides compared: the reversed orientation pairs the reference's
                # left side with the candidate's right one.
                which = (("left sides", "right sides") if k == 0 else
                         ("reference left and candidate right side",
                          "reference right and candidate left side"))
                mine = (f"'{print_term(a)}' and '{print_term(b)}' "
                        f"({which[0] if different[0] == sides[0] else which[1]}) are different "
                        "closed computations (equal values would make any two true statements "
                        "alike)")
                if k == 0 or not note:
                    note = mine
                if self.params:
                    # Not a refutation: under binders this orientation stays open, so the
                    # leaf cannot be refuted through the other one alone.
                    kind = "direct" if k == 0 and g.op == f.op else "reversed"
                    orientations.append((Obligation(
                        f"leaf {index} {kind}", f"{print_term(a)} = {print_term(b)}",
                        Verdict(VerdictKind.INCONCLUSIVE, "normalisation", reason=note)),))
                continue
            kind = "direct" if k == 0 and g.op == f.op else "reversed"
            equations = []
            for side, (a, b) in zip(("left", "right"), sides, strict=True):
                text = print_statement("sae_leaf", context, f"{print_term(a)} = {print_term(b)}")
                same = None
                if _ground(a) and _ground(b):
                    same = Verdict(VerdictKind.PROVED, "normalisation",
                                   reason="the same closed computation after normalisation")
                equations.append(Obligation(f"leaf {index} {kind} {side}", text, same))
            orientations.append(tuple(equations))
        if not orientations and "closed computations" in note and not self.params:
            self.mismatch(f"{label}: {note}", certain=True)
            return
        self.plan.leaves.append(_Leaf(label, tuple(orientations), note if not orientations
                                      else ""))


_LOGIC = frozenset({"∧", "∨", "→", "↔"})
_RELATIONS = frozenset({"=", "<", ">", "≤", "≥", "∈", "⊆", "⊂", "∣", "≡"})


@dataclass
class _Untyped:
    """The premise-free rule outside the typed fragment (function-typed parameters, a
    ``Type*``, sets): the same connectives and quantifiers, atoms equal after normalisation,
    and each relational leaf ``E₁ ρ E₂`` / ``E₁' ρ' E₂'`` with ``Δ ⊢ E₁ = E₁'``, ``Δ ⊢ E₂ = E₂'``
    (or reversed, for a dual relation). Each equation goes to the prover as a Lean statement
    over the binders, so a prover that reads such parameters (uninterpreted sorts and
    functions) decides it; sides equal after normalisation are proved by normalisation. A
    side pair of which one mentions no variable gets no equation: out of context its type is
    not known (``7 / 2 = 3`` holds in ``ℕ``), and the leaf stays undecided."""

    plan: _Plan
    params: tuple[A.Binder, ...]
    forms: _Forms
    why: str
    depth: int = 0

    def mismatch(self, reason: str) -> None:
        if self.plan.mismatch is None:
            self.plan.mismatch = ("conclusion", f"conclusion trees differ: {reason}")

    def match(self, f: A.Expr, g: A.Expr, bound: tuple[A.Binder, ...]) -> None:
        if self.plan.mismatch is not None or self.plan.undecided:
            return
        f, g = _shape(f), _shape(g)
        if isinstance(f, A.BinOp) and isinstance(g, A.BinOp) and f.op in _LOGIC \
                and g.op in _LOGIC:
            if f.op != g.op:
                self.mismatch(f"'{f.op}' vs '{g.op}'")
                return
            self.match(f.left, g.left, bound)
            self.match(f.right, g.right, bound)
        elif isinstance(f, A.UnOp) and isinstance(g, A.UnOp) and f.op == g.op == "¬":
            self.match(f.operand, g.operand, bound)
        elif isinstance(f, A.Quant) and isinstance(g, A.Quant):
            self.quantifier(f, g, bound)
        elif isinstance(f, A.BinOp) and isinstance(g, A.BinOp) and f.op in _RELATIONS \
                and g.op in _RELATIONS:
            self.leaf(f, g, bound)
        elif self.forms.form(f) != self.forms.form(g):
            self.mismatch(f"'{print_expr(f)}' vs '{print_expr(g)}'")

    def quantifier(self, f: A.Quant, g: A.Quant, bound: tuple[A.Binder, ...]) -> None:
        f, g = _single(f), _single(g)
        if f.q != g.q or f.q == "∃!" or f.bound is not None or g.bound is not None:
            self.mismatch(f"'{f.q}' vs '{g.q}'")
            return
        ours, theirs = f.binders[0], g.binders[0]
        if ours.type is None or theirs.type is None:
            self.plan.undecided = (f"a bound variable has no written type, so its leaves "
                                   f"cannot be stated out of context ({self.why})")
            return
        if ours.kind == "instance" or theirs.kind == "instance":
            self.mismatch("an instance binder inside the conclusion")
            return
        if self.forms.form(ours.type) != self.forms.form(theirs.type):
            self.mismatch(f"'{f.q} {ours.name} : {print_expr(ours.type)}' vs "
                          f"'{g.q} {theirs.name} : {print_expr(theirs.type)}'")
            return
        self.depth += 1
        name = f"ξ{self.depth}"
        self.match(rename(f.body, {ours.name: name}), rename(g.body, {theirs.name: name}),
                   bound + (A.Binder(name, ours.type),))

    def leaf(self, f: A.BinOp, g: A.BinOp, bound: tuple[A.Binder, ...]) -> None:
        index = len(self.plan.leaves) + 1
        label = f"leaf {index} ('{print_expr(f)}' vs '{print_expr(g)}')"
        options: list[tuple[str, tuple[tuple[A.Expr, A.Expr], ...]]] = []
        if g.op == f.op:
            options.append(("direct", ((f.left, g.left), (f.right, g.right))))
        if _DUAL.get(f.op) == g.op:
            options.append(("reversed", ((f.left, g.right), (f.right, g.left))))
        if not options:
            self.mismatch(f"relation '{f.op}' vs '{g.op}' in {label}")
            return
        context = self.params + bound
        variables = {b.name for b in context if b.name}
        orientations: list[tuple[Obligation, ...]] = []
        note = ""
        for kind, sides in options:
            equations = []
            for side, (a, b) in zip(("left", "right"), sides, strict=True):
                statement = _theorem("sae_leaf", context, A.BinOp("=", a, b))
                role = f"leaf {index} {kind} {side}"
                if self.forms.form(a) == self.forms.form(b):
                    equations.append(Obligation(role, statement, Verdict(
                        VerdictKind.PROVED, "normalisation",
                        reason="the same term after normalisation")))
                elif free_names(a) & variables and free_names(b) & variables:
                    equations.append(Obligation(role, statement))
                else:
                    note = note or (f"'{print_expr(a)}' and '{print_expr(b)}' differ and one "
                                    "mentions no variable: out of the typed fragment its type "
                                    "is not known, so no equation compares them")
                    break
            else:
                orientations.append(tuple(equations))
        self.plan.leaves.append(_Leaf(label, tuple(orientations),
                                      "" if orientations else note))


def _shape(expr: A.Expr) -> A.Expr:
    """The forms Lean identifies, at the root: ``(h : P) → B``, ``¬ ∃``/``¬ ∀``, ``a ≠ b`` as
    ``¬ a = b``, ``a ∉ s`` as ``¬ a ∈ s``, a binder predicate expanded."""
    from afcheck_equivalence.normal import named_arrow, push_negation

    expr = push_negation(named_arrow(expr))
    if isinstance(expr, A.BinOp) and expr.op in ("≠", "∉"):
        return A.UnOp("¬", A.BinOp("=" if expr.op == "≠" else "∈", expr.left, expr.right))
    if isinstance(expr, A.Quant) and expr.bound is not None and len(expr.binders) == 1 \
            and expr.q in ("∀", "∃"):
        op, limit = expr.bound
        guard = A.BinOp(op, A.Var(expr.binders[0].name), limit)
        body = A.BinOp("→" if expr.q == "∀" else "∧", guard, expr.body)
        return A.Quant(expr.q, expr.binders, body)
    return expr


def _single(expr: A.Quant) -> A.Quant:
    """``∀ x y, P`` as ``∀ x, ∀ y, P`` (a binder predicate stays on each binder)."""
    if len(expr.binders) == 1 or expr.q == "∃!":
        return expr
    inner = A.Quant(expr.q, expr.binders[1:], expr.body, expr.bound)
    return A.Quant(expr.q, expr.binders[:1], inner, expr.bound)


def _ground(term: T.Term) -> bool:
    """Whether ``term`` mentions no variable (free or bound): a closed computation."""
    if isinstance(term, T.Sym):
        return False
    if isinstance(term, T.Const):
        return True
    if isinstance(term, (T.Cast, T.Neg)):
        return _ground(term.expr if isinstance(term, T.Cast) else term.operand)
    if isinstance(term, T.Arith):
        return _ground(term.left) and _ground(term.right)
    if isinstance(term, T.Pow):
        return _ground(term.base)
    return all(_ground(a) for a in term.args)


def computation(term: T.Term) -> object:
    """A key equal for two closed terms that compute the same way, up to the order and
    grouping of ``+`` and ``*``, the spelling of a numeral (``0.5``, ``1 / 2``, ``(2 : ℕ)``
    cast to ℝ) and a double negation — not up to evaluation: ``54 % 6`` and ``2006 % 7`` are
    different computations of the same value."""
    if isinstance(term, T.Const):
        return ("const", term.value, term.ty)
    if isinstance(term, T.Sym):
        return ("sym", term.name, term.ty)
    if isinstance(term, T.Cast):
        inner = computation(term.expr)
        if isinstance(inner, tuple) and inner[0] == "const":
            return ("const", inner[1], term.ty)
        return ("cast", inner, term.ty)
    if isinstance(term, T.Neg):
        inner = computation(term.operand)
        if isinstance(inner, tuple) and inner[0] == "const":
            return ("const", -inner[1], term.ty)
        if isinstance(inner, tuple) and inner[0] == "neg":
            return inner[1]
        return ("neg", inner, term.ty)
    if isinstance(term, T.Arith):
        left, right = computation(term.left), computation(term.right)
        if (term.op == "/" and term.ty in ("ℚ", "ℝ") and isinstance(left, tuple)
                and isinstance(right, tuple) and left[0] == right[0] == "const" and right[1]):
            return ("const", left[1] / right[1], term.ty)  # a numeral written as a fraction
        if term.op in ("+", "*"):
            parts: list[object] = []
            for side in (left, right):
                if isinstance(side, tuple) and side[:2] == ("ac", term.op) and side[2] == term.ty:
                    parts.extend(side[3])
                else:
                    parts.append(side)
            return ("ac", term.op, term.ty, tuple(sorted(parts, key=repr)))
        return ("arith", term.op, left, right, term.ty)
    if isinstance(term, T.Pow):
        return ("pow", computation(term.base), term.exponent, term.ty)
    return ("call", term.fn, tuple(computation(a) for a in term.args), term.ty)


def _likeness(ref: NormalForm, renamed: _Renamed, alignment: tuple[tuple[str, str], ...],
              forms: _Forms) -> int:
    """How natural an alignment is: premises (and the conclusion) that become identical after
    renaming, then binders that keep their name."""
    theirs = {forms.printed(p) for p in renamed.premises}
    ours = {forms.printed(p) for p in ref.premises}
    same_conclusion = forms.form(renamed.conclusion) == forms.form(ref.conclusion)
    return 4 * (len(theirs & ours) + same_conclusion) + sum(c == r for c, r in alignment)
