"""Factories of the Lean components: options → settings → a pool → the component.

Each factory checks first that Lean is installed and fails in one line naming
``afcheck lean setup`` if not; REPLs start lazily, on the first batch. With ``url=`` (a
kimina-lean-server, see :mod:`afcheck_lean.kimina`) the same components check over HTTP and
need no local Lean.
"""

from __future__ import annotations

import math
import sys
from collections.abc import Mapping
from dataclasses import replace
from typing import IO, TYPE_CHECKING

from afcheck.components import Prover
from afcheck.errors import AfcheckError, UsageError
from afcheck.lean.session import LeanSession
from afcheck_lean.checker import LeanChecker
from afcheck_lean.deepseek import DeepSeekProver, Generate
from afcheck_lean.judge import Judge, JudgeUnavailable, default_trust
from afcheck_lean.kernel import with_kernel_checks
from afcheck_lean.kimina import KIMINA_OPTIONS, KiminaPool, parse_kimina
from afcheck_lean.negation import front_end_negation
from afcheck_lean.pool import LeanPool, ReplPool
from afcheck_lean.session import lean_interact_starter, require_lean
from afcheck_lean.settings import LeanSettings, parse_bool, parse_settings
from afcheck_lean.tactics import LeanTacticsProver

if TYPE_CHECKING:
    from afcheck.budget import Budget


def _pool(settings: LeanSettings, component: str,
          options: Mapping[str, str] | None = None) -> LeanPool:
    kimina = parse_kimina(options or {}, component)
    if kimina is not None:
        # A remote server has no AfcheckKernel module to import.
        return KiminaPool(replace(settings, kernel_checks="off"), kimina)
    require_lean(settings, component)
    settings = with_kernel_checks(settings)
    return ReplPool(lean_interact_starter(settings), settings)


def make_session(options: Mapping[str, str]) -> LeanSession:
    """The ``repl`` Lean session: the pool's options (:mod:`afcheck_lean.settings`), its
    commands checked as given (no kernel re-check: its user reads Lean's answers itself)."""
    component = "lean session repl"
    settings = parse_settings(options, component, set())
    require_lean(settings, component)
    return ReplPool(lean_interact_starter(settings), settings)


def make_checker(options: Mapping[str, str]) -> LeanChecker:
    """Options: the pool's (:mod:`afcheck_lean.settings`) and ``statement_s``, the wall clock
    of one statement's check (its one command's timeout, at most ``timeout_s``)."""
    component = "checker lean"
    settings = parse_settings(options, component, {"statement_s"} | KIMINA_OPTIONS)
    statement_s = statement_seconds(options, component)
    return LeanChecker(_pool(settings, component, options), statement_s=statement_s)


def make_kimina_checker(options: Mapping[str, str]) -> LeanChecker:
    """The ``lean`` checker on a kimina-lean-server: ``url=`` is required."""
    component = "checker kimina"
    if not options.get("url", "").strip():
        raise UsageError(f"{component}: give the server with --checker-opt url=http://HOST:PORT")
    settings = parse_settings(options, component, {"statement_s"} | KIMINA_OPTIONS)
    statement_s = statement_seconds(options, component)
    return LeanChecker(_pool(settings, component, options), statement_s=statement_s)


def make_tactics(options: Mapping[str, str]) -> LeanTacticsProver:
    """Options: the pool's (:mod:`afcheck_lean.settings`), ``smt`` = auto|on|off (use the smt
    prover's counterexamples as witnesses), ``trust_smt`` (return uncertified smt verdicts),
    ``judge`` (:func:`judge_for`)."""
    component = "prover lean-tactics"
    settings = parse_settings(options, component,
                              {"smt", "trust_smt", "statement_s", "judge"} | KIMINA_OPTIONS)
    statement_s = statement_seconds(options, component)
    smt = _smt_prover(options.get("smt", "auto"), component)
    trust = parse_bool(component, "trust_smt", options.get("trust_smt", "false"))
    if trust and smt is None:
        raise UsageError(f"{component}: trust_smt=true needs the smt prover (smt=on)")
    return LeanTacticsProver(_pool(settings, component, options), front_end_negation, smt=smt,
                             trust_smt=trust, allow_native_decide=settings.allow_native_decide,
                             statement_s=statement_s, judge=judge_for(options, settings,
                                                                      component),
                             trust=default_trust())


def make_deepseek(options: Mapping[str, str]) -> DeepSeekProver:
    """Options: the pool's, ``k`` (samples per side, default 2), ``cot`` (true), and the LLM
    client's (``model``, ``base_url``, ``max_tokens``, ``temperature`` …), ``judge``
    (:func:`judge_for`)."""
    component = "prover deepseek"
    from afcheck_lean.llm_bridge import llm_option_names

    # All of the client's options, the vLLM engine's included (gpu_memory_utilization,
    # max_model_len, tensor_parallel_size): the prover may share a GPU with a formaliser.
    llm_keys = llm_option_names()
    settings = parse_settings(options, component,
                              {"k", "cot", "statement_s", "judge"} | llm_keys | KIMINA_OPTIONS)
    try:
        k = int(options.get("k", "2"))
    except ValueError:
        raise UsageError(f"{component}: option k={options['k']!r} must be an integer") from None
    if k < 1:
        raise UsageError(f"{component}: option k must be at least 1")
    cot = parse_bool(component, "cot", options.get("cot", "true"))
    statement_s = statement_seconds(options, component)
    pool = _pool(settings, component, options)
    generate = _llm_generate({key: options[key] for key in llm_keys if key in options})
    prover = DeepSeekProver(pool, generate, front_end_negation, k=k, cot=cot,
                            allow_native_decide=settings.allow_native_decide,
                            statement_s=statement_s,
                            judge=judge_for(options, settings, component),
                            trust=default_trust())
    prover.resources = _model_resources(options)
    return prover


JUDGE_OPTIONS = ("project", "lake", "sandbox", "pass_env", "readable", "memory_mb")
"""The Lean options a prover passes on to the judge it builds."""


def judge_for(options: Mapping[str, str], settings: LeanSettings, component: str,
              stream: IO[str] | None = None) -> Judge | None:
    """The judge of a Lean prover, from its option ``judge``: ``auto`` (default: the first
    built-in judge that serves the project's Lean), ``none``, or a registered judge's name
    (a usage error when it cannot serve). Without one, says so in one line: nothing the
    prover finds is then certified."""
    name = options.get("judge", "auto").strip() or "auto"
    if name == "none":
        _no_judge(component, "judge=none", stream)
        return None
    if name == "auto":
        from afcheck_lean.judges import build, toolchain_for

        try:
            return build("auto", toolchain_for(settings))
        except JudgeUnavailable as exc:
            _no_judge(component, str(exc), stream)
            return None
    from afcheck.plugins import get_plugins
    from afcheck_lean.kinds import JUDGE

    return get_plugins().create(JUDGE, name, {k: options[k] for k in JUDGE_OPTIONS
                                              if k in options})


def _no_judge(component: str, why: str, stream: IO[str] | None) -> None:
    print(f"afcheck: {component}: no judge ({why}); nothing it proves is certified"
          + (" and, under --trust judge, it counts as inconclusive" if default_trust() ==
             "judge" else ""), file=stream or sys.stderr)


def statement_seconds(options: Mapping[str, str], component: str) -> float | None:
    """``statement_s``: a prover's wall clock for one statement across its Lean commands
    (:mod:`afcheck_lean.deadline`); ``None`` when not given."""
    raw = options.get("statement_s")
    if raw is None:
        return None
    try:
        value = float(raw)
    except ValueError:
        value = math.nan
    if not value > 0 or math.isinf(value):
        raise UsageError(f"{component}: option statement_s={raw!r} must be a number of seconds "
                         "above 0")
    return value


VOLATILE: frozenset[str] = frozenset({"statement_s"})
"""Options of ``lean-tactics`` and ``deepseek`` that change no verdict the cache keeps
(:attr:`afcheck.registry.Entry.volatile`): a statement that spends its ``statement_s`` is
INCONCLUSIVE and ``transient``, and one decided within it is decided the same without it."""


def budget_options(budget: Budget, options: Mapping[str, str]) -> dict[str, str]:
    """The options of the Lean checkers and provers that carry a stage's budget
    (:class:`afcheck.registry.BudgetOptions`): ``seconds`` is ``statement_s``, the wall clock
    of one statement across all its Lean commands (a checker's: its one command);
    ``memory_mb`` is the REPL's memory cap (``memory_mb``, lean-interact's
    ``memory_hard_limit_mb`` and the sandbox's address-space limit), which holds for each
    REPL and so for every statement it checks. With ``url=`` the REPLs are a
    kimina-lean-server's, whose memory afcheck does not set: refused."""
    out: dict[str, str] = {}
    if budget.seconds is not None:
        out["statement_s"] = f"{budget.seconds:g}"
    if budget.memory_mb is not None:
        if options.get("url", "").strip():
            raise ValueError("with url= the Lean REPLs are a kimina-lean-server's, whose "
                             "memory afcheck does not set; leave memory_mb unset")
        out["memory_mb"] = str(budget.memory_mb)
    return out


def _model_resources(options: Mapping[str, str]) -> dict[str, float]:
    """What a cluster worker needs for the prover's model: the GPUs of an offline vLLM
    engine (``tensor_parallel_size``), nothing for a server's client."""
    backend = options.get("backend", "http" if options.get("base_url") else "vllm")
    if backend != "vllm":
        return {}
    try:
        return {"GPU": max(1.0, float(options.get("tensor_parallel_size", "1")))}
    except ValueError:
        return {"GPU": 1.0}


def _smt_prover(mode: str, component: str) -> Prover | None:
    if mode not in {"auto", "on", "off"}:
        raise UsageError(f"{component}: option smt={mode!r} must be auto, on or off")
    if mode == "off":
        return None
    from afcheck.plugins import get_plugins
    from afcheck.registry import PROVER

    try:
        # Isolated: the hints' z3 runs in workers killed past their deadline, so the Lean
        # prover stays within bounds (its commands are bounded by the REPL).
        prover: Prover = get_plugins().create(PROVER, "smt", {"isolate": "true"})
    except AfcheckError:
        if mode == "on":
            raise
        return None
    return prover


def _llm_generate(options: Mapping[str, str]) -> Generate:
    from afcheck_lean.llm_bridge import deepseek_generate

    return deepseek_generate(options)
