"""The model under test: one ``--formaliser`` for every method of a run that formalises.

``--formaliser NAME --formaliser-opt K=V`` names the model (or other formaliser) a run tests.
Every kind whose components write the candidates a method scores has a :class:`ModelAdapter`,
declared with the kind (``kinds.add(KIND, hookspecs, model=ModelAdapter(...))``, see
:func:`afcheck.hookspecs.afcheck_addkinds`): the core's ``formaliser`` has the plain one
(:data:`MODEL_UNDER_TEST`: its own option names the model). A plugin's formaliser kind that
writes another language says which option names the model (:attr:`ModelAdapter.follows`) and
which of its registered components asks a model (:attr:`ModelAdapter.entry`); when its own
option (``--fol-formaliser``) is not given it takes the run's model (:func:`adopt`):

- a name registered in the adapted kind too (``reference``, ``replay``) is that entry,
  with the same options;
- a name registered as a model (an entry with a :class:`ModelRef`: the LLM presets
  ``kimina``, ``frontier`` …) is the adapter's :attr:`~ModelAdapter.entry` (``llm``) with the
  model's id and the client options given, so the same model is asked with the method's own
  prompt;
- anything else (``literal`` writes Lean only) is a usage error that names what to give.

So a run never scores fixed candidates while the user believes a model was asked. A method
that asks the run's model for something besides its kind's own choice (a judge) chooses the
adapted kind by the model's name, and gets it adopted the same way.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING

from afcheck.errors import UsageError

if TYPE_CHECKING:
    from afcheck.registry import Entry, Kind, Registry


@dataclass(frozen=True)
class ModelRef:
    """What a registered component that is a model tells the methods that would ask it."""

    model: str
    """The default model id (HF id for vLLM, served name for HTTP); ``""``: ``model=…`` must
    be given."""
    context_tokens: int = 0
    """The model's context window (vLLM's ``max_model_len`` default); 0: unknown."""


@dataclass(frozen=True)
class ModelAdapter:
    """How the components of one kind take the model under test.

    A kind with an adapter writes the candidates its methods score: the run says per method
    which of its components (and which model) wrote them, or that the suite's fixed
    candidates were scored (:class:`afcheck.summary.Candidates`).
    """

    follows: str | None = None
    """The kind whose command-line choice names the model when this kind's own option is not
    given (``formaliser``); ``None``: this kind's own option names it."""
    entry: str | None = None
    """The registered component of this kind that asks a model of the followed kind with this
    kind's own prompt (``llm``): a model given with ``--formaliser kimina`` becomes that entry
    with the model's id and client options. ``None``: only names both kinds register."""


MODEL_UNDER_TEST = ModelAdapter()
"""The adapter of the core's ``formaliser`` kind: ``--formaliser`` names the model."""


def adopt(kind: Kind[object], adapter: ModelAdapter, own: Registry[object],
          followed: Registry[object], name: str, options: Mapping[str, str],
          method: str) -> tuple[str, dict[str, str]]:
    """The entry of ``kind`` and its options for ``--<followed> NAME`` with ``options``.

    ``adapter`` is ``kind``'s, ``own`` the registry of ``kind``, ``followed`` that of the kind
    it follows; ``method`` names the method asking, for the message when ``name`` cannot
    serve it.
    """
    if name in own:
        return name, dict(options)
    source: Entry[object] = followed.get(name)
    if source.model is not None and adapter.entry is not None and adapter.entry in own:
        return adapter.entry, model_options(source.model, options)
    flag = (adapter.follows or "formaliser").replace("_", "-")
    raise UsageError(
        f"--{flag} {name}: the {method} method needs a "
        f"{kind.name.replace('_', ' ')} and '{name}' is not one or a model; give "
        f"--{kind.option} NAME ({', '.join(own.names())}) or a model "
        f"(--{flag} {_models(followed) or 'NAME'})")


def model_options(model: ModelRef, options: Mapping[str, str]) -> dict[str, str]:
    """The client and sampling options of a model for another method's formaliser: the
    model's own id unless ``model=…`` is given, and what the client reads of ``options``
    (a Lean formaliser's own options, ``theorem_name`` say, mean nothing to it)."""
    from afcheck.llm.options import CLIENT_OPTIONS, SAMPLING_OPTIONS

    kept = {key: value for key, value in options.items()
            if key in CLIENT_OPTIONS or key in SAMPLING_OPTIONS}
    if model.model and "model" not in kept:
        kept["model"] = model.model
    if model.context_tokens and "max_model_len" not in kept and "base_url" not in kept:
        kept["max_model_len"] = str(model.context_tokens)
    return kept


def _models(registry: Registry[object]) -> str:
    return "|".join(entry.name for entry in registry.entries() if entry.model is not None)
