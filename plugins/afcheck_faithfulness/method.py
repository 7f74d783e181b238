"""The ``faithfulness`` method (FaithformBench): perturb each step, formalise both versions,
prove or refute both, and judge the pair."""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable, Mapping, Sequence

from afcheck.budget import Budget
from afcheck.method import Case, Choice, ItemOutcome, ItemResult, JsonObject, MethodBase, Selection
from afcheck.registry import CHECKER, FORMALISER, PROVER
from afcheck.runtime import Runtime
from afcheck.suites import Record
from afcheck.types import Status
from afcheck_faithfulness import pipeline, records
from afcheck_faithfulness.kinds import PERTURBER
from afcheck_faithfulness.metrics import FaithfulnessSummary, summarise
from afcheck_faithfulness.pipeline import CaseSpec, CaseTemplate
from afcheck_faithfulness.records import CaseResult, Step
from afcheck_faithfulness.render import details, one_line

_Choices = tuple[Choice, Choice, Choice, Choice]
"""A case's perturber, formaliser, checker and prover."""

PROVER_LIMITS = ("the prover's own limits (smt: 2 s a z3 call, a worker stopped after 10 s; "
                 "lean-tactics, deepseek: 60 s a Lean command)")
"""What bounds a prover call when ``faithfulness.prove`` sets no bound."""

FORMALISER_LIMITS = ("the formaliser's own limits (an LLM over HTTP: timeout_s each attempt, "
                     "max_retries retries)")
"""What bounds a formaliser's request when ``faithfulness.formalise`` sets no bound."""

CHECKER_LIMITS = "the checker's own limits (lean, kimina: 60 s a Lean command)"
"""What bounds one statement's type-check when ``faithfulness.check`` sets no bound."""

PERTURBER_LIMITS = ("the perturber's own limits (llm over HTTP: timeout_s each attempt, "
                    "max_retries retries)")
"""What bounds one step's perturbation when ``faithfulness.perturb`` sets no bound."""


NEXT_STEPS: Mapping[str, str] = {
    "oracle run": "afcheck {paths} --formaliser reference",
    "model run": "afcheck {paths} --formaliser frontier "
                 "--formaliser-opt model=NAME,base_url=http://127.0.0.1:8000/v1",
    "gate in CI": "afcheck {paths} --max-uflb 0.35 --json results.json --junitxml results.xml",
}
"""The next steps :meth:`Faithfulness.next_steps` chooses from."""


def _has_oracle(spec: object) -> bool:
    """Whether the ``reference`` formaliser can write both sides of this case: the step
    carries the suite's Lean statements and is perturbed by the suite's own perturbation."""
    if not isinstance(spec, CaseSpec):
        return False  # an unreadable record
    lean = spec.step.metadata.get("lean") or {}
    return (isinstance(lean, Mapping) and bool(lean.get("original"))
            and bool(lean.get("perturbed")) and spec.perturber.name == "given")


def _template(selection: Selection) -> CaseTemplate:
    """What every case of the suite shares, read from its selection once."""
    return CaseTemplate(
        selection.choices("perturber"), selection.choice("formaliser"),
        selection.choice("checker"), selection.choice("prover"),
        int(str(selection.setting("seed") or 0)), bool(selection.option("keep_ineffective")),
        tuple(selection.choose("detector", name) for name in _detector_names(selection)))


def _detector_names(selection: Selection) -> list[str]:
    """``--detectors``: every registered detector (``all``, the default), ``none``, or the
    ones named."""
    wanted = str(selection.option("detectors") or "all").strip()
    if wanted == "all":
        return selection.registered("detector")
    if wanted == "none":
        return []
    return [name.strip() for name in wanted.split(",") if name.strip()]


class Faithfulness(MethodBase[CaseSpec, CaseResult]):
    """Faithful pair → passed; a failure event → failed; otherwise skipped with the reason."""

    name = "faithfulness"
    version = "1"
    kinds = ("perturber", "formaliser", "checker", "prover")
    defaults: Mapping[str, object] = {
        "perturber": "regex", "formaliser": "literal", "checker": "none", "prover": "smt",
        "seed": 0, "steps": "paragraph",
    }
    gates: Mapping[str, str] = {"UFLB": "max", "FPR": "max", "FNR": "max", "AFFR": "max",
                                "TPR": "min", "FI": "min"}
    budgets: Mapping[str, Budget] = {"prove": Budget(otherwise=PROVER_LIMITS),
                                     "formalise": Budget(otherwise=FORMALISER_LIMITS),
                                     "check": Budget(otherwise=CHECKER_LIMITS),
                                     "perturb": Budget(otherwise=PERTURBER_LIMITS)}
    """``prove``: one prover call on one statement. Its ``seconds`` (and ``memory_mb``, where
    the prover can bound it) reach the prover as the options that bound it
    (:meth:`afcheck.runtime.Runtime.budgeted`); unset, the prover's own limits hold. A
    statement stopped at a limit is INCONCLUSIVE with the reason (its case skipped), and that
    verdict is never cached. ``formalise``: one formaliser request for one side of a step,
    reaching the formaliser the same way (an LLM over HTTP: ``seconds`` is the whole request,
    retries included); a request stopped there is that side's backend error, never cached.
    ``check``: one checker's type-check of one side's statement, reaching the checker the
    same way (``lean``, ``kimina``: ``seconds`` is the Lean command's wall clock); a check
    stopped there is that side's AF-Fail (not type-checked), never cached. ``perturb``: one
    step's perturbation (``llm`` over HTTP: ``seconds`` is the whole request, retries
    included); a step whose request is stopped there has no perturbation (its case skipped
    with the reason), never cached."""
    settings: Mapping[str, type] = {"seed": int, "steps": str}
    """``--seed N`` (of the perturbers) and ``--steps MODE`` (how a suite splits chains)."""
    def next_steps(self, items: Sequence[ItemResult[object]]) -> Mapping[str, str]:
        """What to try after a first run: the suite's own statements (the pipeline's oracle,
        FNR = FPR = 0 with a sound prover) where every step has them for both sides and its
        perturbation is the suite's own (the statements are of that one), a model behind an
        OpenAI-compatible server, a gate."""
        steps = dict(NEXT_STEPS)
        if not items or not all(_has_oracle(item.case.spec) for item in items):
            del steps["oracle run"]
        return steps

    def cases(self, record: Record, selection: Selection) -> Iterable[tuple[str, CaseSpec]]:
        """One case per perturber of the suite: the step with the suite's template, which the
        selection keeps (:func:`_template`), so that the method object keeps nothing of a run,
        neither here nor in :meth:`run`."""
        if not isinstance(record, Step):
            raise TypeError(f"the faithfulness method reads steps, got {type(record).__name__}")
        shared = selection.derived("faithfulness.cases", _template)
        several = len(shared.perturbers) > 1
        for perturber in shared.perturbers:
            name = record.case_name + (f"[{perturber.name}]" if several else "")
            yield name, CaseSpec("", record, perturber, shared.formaliser, shared.checker,
                                 shared.prover, shared.seed, shared.keep_ineffective,
                                 shared.detectors)

    def choices(self, case: CaseSpec) -> Iterable[tuple[str, Choice]]:
        return (("perturber", case.perturber), ("formaliser", case.formaliser),
                ("checker", case.checker), ("prover", case.prover),
                *(("detector", detector) for detector in case.detectors))

    def run(self, cases: Sequence[Case[CaseSpec]], runtime: Runtime,
            notify: Callable[[CaseResult], None] | None) -> list[CaseResult]:
        # The choices under their stages' budgets, asked of the runtime once per set of
        # choices: the cases of a suite share one set (their template's).
        bound: dict[_Choices, _Choices] = {}
        specs = []
        for case in cases:
            s = case.spec
            chosen = (s.perturber, s.formaliser, s.checker, s.prover)
            under = bound.get(chosen)
            if under is None:
                # In this order, so that of two budgets a component cannot take, the same one
                # is reported as before.
                perturber = runtime.budgeted(PERTURBER, s.perturber, self.name, "perturb")
                prover = runtime.budgeted(PROVER, s.prover, self.name, "prove")
                formaliser = runtime.budgeted(FORMALISER, s.formaliser, self.name, "formalise")
                checker = runtime.budgeted(CHECKER, s.checker, self.name, "check")
                under = bound[chosen] = (perturber, formaliser, checker, prover)
            perturber, formaliser, checker, prover = under
            specs.append(CaseSpec(case.case_id, s.step, perturber, formaliser, checker, prover,
                                  s.seed, s.keep_ineffective, s.detectors))
        return pipeline.run(specs, runtime, notify)

    def outcome(self, result: CaseResult) -> ItemOutcome:
        status = result.status
        notes = tuple(f"drift warning ({w.side.value}): {w.detector}: {w.message}"
                      for w in result.warnings)
        if status is Status.PASSED:
            return ItemOutcome(status, notes=notes)
        line = one_line(result)
        # The body is made when read: the terminal shows a few failures, most runs write no
        # JUnit file, and the JSON result file has the record instead.
        return ItemOutcome(status, line,
                           functools.partial(details, result, line)
                           if status is Status.FAILED else "", notes)

    def timings(self, result: CaseResult) -> Mapping[str, float]:
        return result.timings

    def to_json(self, result: CaseResult) -> JsonObject:
        return records.to_json(result)

    def to_json_text(self, result: CaseResult) -> str:
        """The JSON text of :meth:`to_json`, for the result file."""
        return records.to_json_text(result)

    def from_json(self, data: JsonObject) -> CaseResult:
        """The result :meth:`to_json` wrote (:func:`afcheck_faithfulness.records.from_json`)."""
        return records.from_json(data)

    def summarise(self, items: Sequence[ItemResult[CaseResult]]) -> FaithfulnessSummary:
        return summarise([item.result for item in items])
