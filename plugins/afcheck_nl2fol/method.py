"""The ``nl2fol`` evaluation method on the run API (:mod:`afcheck.method`).

A test item is a sentence with its gold formulas (:class:`~afcheck_nl2fol.suite.Item`). The
candidate comes from the run's FOL formaliser (kind ``fol_formaliser``): ``--fol-formaliser
NAME`` (``reference``, ``replay`` with ``path=FILE``, ``llm``, the nl2fol presets), else the
model of ``--formaliser`` asked with the seed's prompt, else the suite's ``[afcheck.defaults]
fol_formaliser``, else ``reference``. The background theory is
``--nl2fol-theory``, else the suite's ``[afcheck.options] theory``, else each language's
default (Tarski's World: ``analytic``).

Two batched stages, both through the run's result cache (:mod:`afcheck_nl2fol.pipeline`):
``fol-formalise`` (one call of the formaliser for every item) and ``nl2fol-decide`` (parse,
nearest gold, z3: :mod:`afcheck_nl2fol.decide`).

Outcome: passed when the candidate is equivalent to a gold formula; failed with the syntax
error's class or the counter-model; skipped when z3 could not decide. Beside it, the aligned
outcome (:mod:`afcheck_nl2fol.align`): before deciding, each group's (story's) candidates and gold
formulas give one signature alignment, and each item is also judged with its symbols renamed;
the aligned outcome is evidence and a metric, never the test's status. With
``--nl2fol-align-judge`` the run's model (``--formaliser``, adopted as the FOL formaliser
kind adopts it) confirms each renaming before it is used, all questions in one call.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence

from afcheck_fol.equiv import SEARCH_BUDGET
from afcheck_fol.formaliser import FORMALISER_LIMITS
from afcheck_fol.presets import PRESETS
from afcheck_fol.ted import BUDGET as TED_BUDGET

from afcheck.budget import Budget
from afcheck.errors import SuiteError, UsageError
from afcheck.method import Case, Choice, ItemOutcome, ItemResult, JsonObject, MethodBase, Selection
from afcheck.runtime import Runtime
from afcheck.suites import Record
from afcheck.types import Status
from afcheck_nl2fol.decide import Settings, outcome
from afcheck_nl2fol.metrics import GATES, Nl2FolSummary, summarise
from afcheck_nl2fol.pipeline import Nl2FolCase, run
from afcheck_nl2fol.records import Decision, from_json, to_json
from afcheck_nl2fol.suite import Item

DEFAULT_FORMALISER = "reference"


class Nl2FolMethod(MethodBase[Nl2FolCase, Decision]):
    """Parse → syntax-error class, or nearest gold by tree edit distance → z3 equivalence."""

    name = "nl2fol"
    version = "1"
    kinds: tuple[str, ...] = ("fol_formaliser",)
    defaults: Mapping[str, object] = {"fol_formaliser": DEFAULT_FORMALISER}
    gates: Mapping[str, str] = GATES
    next_steps: Mapping[str, str] = {
        "model run": "afcheck {paths} --formaliser frontier "
                     "--formaliser-opt model=NAME,base_url=http://127.0.0.1:8000/v1",
        "gate in CI": "afcheck {paths} --gate 'nl2fol.aligned_accuracy>=0.6' "
                      "--json results.json --junitxml results.xml",
    }
    """What to try after a first run: a model's translations (behind an OpenAI-compatible
    server), a gate."""
    budgets: Mapping[str, Budget] = {"ted": TED_BUDGET, "search": SEARCH_BUDGET,
                                     "formalise": Budget(otherwise=FORMALISER_LIMITS)}
    """``formalise``: one FOL formaliser request for one sentence; its ``seconds`` reach the
    formaliser as the options that bound it (:meth:`afcheck.runtime.Runtime.budgeted`; an LLM
    over HTTP: the whole request, retries included), and a request stopped there is that
    item's backend error, never cached; unset, the formaliser's own limits hold. The tree edit
    distance is computed only on trees up to a size (see
    :mod:`afcheck_fol.ted`): above it the golds are ranked by a bound and the item says so.
    The finite-model search before z3 expands only up to a size and for a time
    (:mod:`afcheck_fol.equiv`); the z3 attempts after it are bounded by ``rlimit``."""

    def cases(self, record: Record, selection: Selection) -> Iterable[tuple[str, Nl2FolCase]]:
        if not isinstance(record, Item):
            raise TypeError(f"the nl2fol method reads sentences, got {type(record).__name__}")
        options = selection.suite.options
        theory = selection.option("nl2fol_theory") or options.get("theory")
        rlimit = options.get("rlimit", Settings.rlimit)
        if not isinstance(rlimit, int) or rlimit < 1:
            raise SuiteError(selection.suite.manifest,
                             f"[afcheck.options] rlimit = {rlimit!r}: give z3's resource limit "
                             "per call as a whole number >= 1")
        if theory is not None and not selection.option("nl2fol_theory"):
            from afcheck_fol.theory import TheoryError, theory_named

            try:  # the suite's own choice: its file is the place to fix it
                theory_named(record.language, str(theory))
            except TheoryError as exc:
                raise SuiteError(selection.suite.where("theory"),
                                 f"[afcheck.options] theory: {exc}") from None
        settings = Settings(theory=None if theory is None else str(theory), rlimit=rlimit)
        judge = None
        if selection.option("nl2fol_align_judge"):
            model = selection.option("formaliser")
            if not model:
                raise UsageError("--nl2fol-align-judge asks the run's model: name it with "
                                 "--formaliser MODEL (--formaliser-opt K=V for its options)")
            # The run's one model, as the FOL formaliser kind adopts it (afcheck.model).
            judge = selection.choose("fol_formaliser", str(model))
            if judge.name not in PRESETS:
                raise UsageError(f"--nl2fol-align-judge asks the run's model, and --formaliser "
                                 f"{model} is no model; name one (--formaliser frontier "
                                 "--formaliser-opt model=NAME,base_url=URL)")
        yield record.case_name, Nl2FolCase(record, selection.choice("fol_formaliser"), settings,
                                           judge)

    def choices(self, case: Nl2FolCase) -> Iterable[tuple[str, Choice]]:
        own = (("fol_formaliser", case.formaliser),)
        return own if case.judge is None else (*own, ("fol_formaliser", case.judge))

    def run(self, cases: Sequence[Case[Nl2FolCase]], runtime: Runtime,
            notify: Callable[[Decision], None] | None) -> list[Decision]:
        return run(self.name, cases, runtime, notify)

    def outcome(self, result: Decision) -> ItemOutcome:
        shown = outcome(result)
        status = shown.status
        # A passed item has no message (the run's contract); its evidence stays in details.
        return ItemOutcome(status, "" if status is Status.PASSED else shown.message,
                           shown.details)

    def timings(self, result: Decision) -> Mapping[str, float]:
        return {"nl2fol-decide": result.seconds}

    def to_json(self, result: Decision) -> JsonObject:
        return to_json(result)

    def from_json(self, data: JsonObject) -> Decision:
        """The decision :meth:`to_json` wrote (:func:`afcheck_nl2fol.records.from_json`)."""
        return from_json(data)

    def summarise(self, items: Sequence[ItemResult[Decision]]) -> Nl2FolSummary:
        return summarise([item.result for item in items])
