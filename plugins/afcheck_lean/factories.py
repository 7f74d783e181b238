"""Factories of the Lean components: options → settings → a pool → the component.

Each factory checks first that Lean is installed and fails in one line naming
``afcheck lean setup`` if not; REPLs start lazily, on the first batch. With ``url=`` (a
kimina-lean-server, see :mod:`afcheck_lean.kimina`) the same components check over HTTP and
need no local Lean.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace

from afcheck.components import Prover
from afcheck.errors import AfcheckError, UsageError
from afcheck_lean.checker import LeanChecker
from afcheck_lean.deepseek import DeepSeekProver, Generate
from afcheck_lean.kernel import with_kernel_checks
from afcheck_lean.kimina import KIMINA_OPTIONS, KiminaPool, parse_kimina
from afcheck_lean.negation import front_end_negation
from afcheck_lean.pool import LeanPool, ReplPool
from afcheck_lean.session import lean_interact_starter, require_lean
from afcheck_lean.settings import LeanSettings, parse_bool, parse_settings
from afcheck_lean.tactics import LeanTacticsProver


def _pool(settings: LeanSettings, component: str,
          options: Mapping[str, str] | None = None) -> LeanPool:
    kimina = parse_kimina(options or {}, component)
    if kimina is not None:
        # A remote server has no AfcheckKernel module to import.
        return KiminaPool(replace(settings, kernel_checks="off"), kimina)
    require_lean(settings, component)
    settings = with_kernel_checks(settings)
    return ReplPool(lean_interact_starter(settings), settings)


def make_checker(options: Mapping[str, str]) -> LeanChecker:
    settings = parse_settings(options, "checker lean", set(KIMINA_OPTIONS))
    return LeanChecker(_pool(settings, "checker lean", options))


def make_kimina_checker(options: Mapping[str, str]) -> LeanChecker:
    """The ``lean`` checker on a kimina-lean-server: ``url=`` is required."""
    component = "checker kimina"
    if not options.get("url", "").strip():
        raise UsageError(f"{component}: give the server with --checker-opt url=http://HOST:PORT")
    settings = parse_settings(options, component, set(KIMINA_OPTIONS))
    return LeanChecker(_pool(settings, component, options))


def make_tactics(options: Mapping[str, str]) -> LeanTacticsProver:
    """Options: the pool's (:mod:`afcheck_lean.settings`), ``smt`` = auto|on|off (use the smt
    prover's counterexamples as witnesses), ``trust_smt`` (return uncertified smt verdicts)."""
    component = "prover lean-tactics"
    settings = parse_settings(options, component, {"smt", "trust_smt"} | KIMINA_OPTIONS)
    smt = _smt_prover(options.get("smt", "auto"), component)
    trust = parse_bool(component, "trust_smt", options.get("trust_smt", "false"))
    if trust and smt is None:
        raise UsageError(f"{component}: trust_smt=true needs the smt prover (smt=on)")
    return LeanTacticsProver(_pool(settings, component, options), front_end_negation, smt=smt,
                             trust_smt=trust, allow_native_decide=settings.allow_native_decide)


def make_deepseek(options: Mapping[str, str]) -> DeepSeekProver:
    """Options: the pool's, ``k`` (samples per side, default 2), ``cot`` (true), and the LLM
    client's (``model``, ``base_url``, ``max_tokens``, ``temperature`` …)."""
    component = "prover deepseek"
    from afcheck_lean.llm_bridge import llm_option_names

    # All of the client's options, the vLLM engine's included (gpu_memory_utilization,
    # max_model_len, tensor_parallel_size): the prover may share a GPU with a formaliser.
    llm_keys = llm_option_names()
    settings = parse_settings(options, component, {"k", "cot"} | llm_keys | KIMINA_OPTIONS)
    try:
        k = int(options.get("k", "2"))
    except ValueError:
        raise UsageError(f"{component}: option k={options['k']!r} must be an integer") from None
    if k < 1:
        raise UsageError(f"{component}: option k must be at least 1")
    cot = parse_bool(component, "cot", options.get("cot", "true"))
    pool = _pool(settings, component, options)
    generate = _llm_generate({key: options[key] for key in llm_keys if key in options})
    prover = DeepSeekProver(pool, generate, front_end_negation, k=k, cot=cot,
                            allow_native_decide=settings.allow_native_decide)
    prover.resources = _model_resources(options)
    return prover


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
        prover: Prover = get_plugins().create(PROVER, "smt", {})
    except AfcheckError:
        if mode == "on":
            raise
        return None
    return prover


def _llm_generate(options: Mapping[str, str]) -> Generate:
    from afcheck_lean.llm_bridge import deepseek_generate

    return deepseek_generate(options)
