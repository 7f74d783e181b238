"""The faithfulness pipeline: exclusions, timings, observers' records."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

import arith
from afcheck_faithfulness import pipeline
from afcheck_faithfulness.pipeline import CaseSpec
from afcheck_faithfulness.records import CaseResult, Perturbation, Step

from afcheck import hookimpl
from afcheck.method import Choice
from afcheck.plugins import Plugins
from afcheck.runtime import Components, Runtime
from afcheck.runtime.spool import Spool
from afcheck.types import Formalisation, FormaliseRequest, VerdictKind


class SaysIneffective:
    """A perturber that calls every perturbation ineffective, as a judge might wrongly."""

    name = "says-ineffective"
    version = "1"

    def perturb(self, steps: Sequence[Step], seed: int) -> list[Perturbation]:
        return [Perturbation(s.id, self.name, s.text + "1", "number", effective=False)
                for s in steps]


class Verbose(arith.ArithFormaliser):
    """The arith formaliser with a chain of thought before each statement."""

    name = "verbose"

    def formalise(self, requests: Sequence[FormaliseRequest]) -> list[Formalisation]:
        return [replace(f, raw_output=f"Let me think. {f.raw_output}")
                for f in super().formalise(requests)]


@hookimpl(specname="afcheck_register_perturbers")
def _register(register):  # type: ignore[no-untyped-def]
    register("says-ineffective", lambda options: SaysIneffective())


@hookimpl(specname="afcheck_register_formalisers")
def _register_verbose(register):  # type: ignore[no-untyped-def]
    register("verbose", lambda options: Verbose())


def runtime(spool: Spool | None = None) -> Runtime:
    import afcheck_faithfulness

    plugins = Plugins(autoload=False)
    plugins.register(afcheck_faithfulness, "faithfulness")  # declares the perturber kind
    plugins.register(arith, "arith")
    plugins.register(__import__(__name__), "here")
    return Runtime(Components(plugins), spool=spool)


def case(text: str, perturber: str = "says-ineffective",
         formaliser: str = "arith") -> CaseSpec:
    step = Step(f"s/{text}", "s", "d", "p", "1", text)
    return CaseSpec(f"s::{text}", step, Choice(perturber), Choice(formaliser), Choice("arith"),
                    Choice("arith"))


def test_a_refuted_original_is_never_excluded_as_ineffective() -> None:
    refuted, proved = pipeline.run([case("So: 2 + 3 = 6"), case("So: 2 + 3 = 5")], runtime())
    assert refuted.z is not None and refuted.z.kind is VerdictKind.REFUTED
    assert refuted.excluded == "" and refuted.error_induction
    assert refuted.perturbation.effective is None
    assert proved.excluded.startswith("ineffective perturbation")


def test_each_case_carries_its_backend_seconds() -> None:
    (result,) = pipeline.run([case("So: 2 + 3 = 5", "bump")], runtime())
    assert set(result.timings) == {"perturb", "formalise", "check", "prove"}
    assert all(seconds >= 0 for seconds in result.timings.values())
    assert result.timings["formalise"] > 0


def test_observers_get_the_raw_outputs_the_run_spooled() -> None:
    seen: list[CaseResult] = []
    spool = Spool()
    try:
        (result,) = pipeline.run([case("So: 2 + 3 = 5", "bump", "verbose")], runtime(spool),
                                 seen.append)
    finally:
        spool.close()
    assert result.original.raw_output == ""  # moved to the spool during the run
    observed = seen[0]
    assert observed.original.raw_output == f"Let me think. {result.original.statement}"
    assert observed.perturbed is not None and result.perturbed is not None
    assert observed.perturbed.raw_output == f"Let me think. {result.perturbed.statement}"
    assert replace(observed, original=result.original, perturbed=result.perturbed) == result


def test_each_result_is_its_own_cases_in_the_order_given() -> None:
    texts = ["So: 2 + 3 = 6", "NOAF here", "So: 1 + 1 = 2", "no number at all: x = y"]
    results = pipeline.run([case(text, "bump") for text in texts], runtime())
    assert [r.case_id for r in results] == [f"s::{text}" for text in texts]
    assert [r.step.text for r in results] == texts
    wrong, unformalised, right, unperturbable = results
    assert wrong.error_induction and wrong.z is not None and wrong.z_bar is not None
    assert unformalised.af_fail_original and unformalised.z is None
    assert right.z is not None and right.z.kind is VerdictKind.PROVED
    assert right.z_bar is not None and right.z_bar.kind is VerdictKind.REFUTED
    assert right.perturbed is not None and right.perturbed.statement == (
        "theorem t : 1 + 1 = 3 := by sorry")
    assert unperturbable.perturbed is None and unperturbable.z_bar is None
    assert unperturbable.excluded == "unperturbable: no number"


def test_two_perturbers_of_one_step_share_its_original_formalisation() -> None:
    arith.CALLS.clear()
    bumped, ineffective = pipeline.run([case("So: 2 + 3 = 5", "bump"),
                                        case("So: 2 + 3 = 5", "says-ineffective")],
                                       runtime())
    # One original and two perturbed requests in one formaliser call; the original's
    # statement proved once for both cases.
    assert ("formalise", 3) in arith.CALLS
    assert bumped.original == ineffective.original
    assert bumped.original.key == "s/So: 2 + 3 = 5#original"
    assert bumped.perturbed is not None and ineffective.perturbed is not None
    assert bumped.perturbed.key.endswith("#perturbed@bump/0")
    assert ineffective.perturbed.key.endswith("#perturbed@says-ineffective/0")
    assert bumped.perturbed.statement == "theorem t : 2 + 3 = 6 := by sorry"
    assert ineffective.perturbed.statement == "theorem t : 2 + 3 = 51 := by sorry"
    assert bumped.excluded == ""
    assert ineffective.excluded.startswith("ineffective perturbation")
