"""Evaluation methods: what a test item is, how a batch of them is decided, what is measured.

A method is a plugin kind (:func:`afcheck.hookspecs.afcheck_register_methods`). It owns what
differs between ways of testing a formaliser: the item records its suite kinds load, the
component kinds it needs, its batched stages, how one item's result becomes passed / failed /
skipped with a one-line message and full evidence, its metrics and the gates over them. The
run (:mod:`afcheck.run`) owns what they share: collection into test items, selection, one
batched execution per run, the result cache and resume, progress, reporters, gates, the
baseline and the exit status.

The life of an item: collection calls :meth:`Method.cases` on each loaded record (no backend
is called); once pytest has selected the items, :meth:`Method.run` decides every case of the
method in one batch; :meth:`Method.outcome` turns each result into a test outcome;
:meth:`Method.summarise` measures them all.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Generic, Protocol, TypeVar, cast

from afcheck.errors import LoadError
from afcheck.types import Location, Status

if TYPE_CHECKING:
    from afcheck.budget import Budget
    from afcheck.metrics import Metrics
    from afcheck.runtime import Runtime
    from afcheck.suites import Record, SuiteSpec

CaseT = TypeVar("CaseT")
ResultT = TypeVar("ResultT")
DerivedT = TypeVar("DerivedT")

JsonObject = dict[str, object]


@dataclass(frozen=True)
class Choice:
    """A component chosen for a case: its registered name and options."""

    name: str
    options: tuple[tuple[str, str], ...] = ()

    @classmethod
    def of(cls, name: str, options: Mapping[str, str] | None = None) -> Choice:
        return cls(name, tuple(sorted((options or {}).items())))

    def __str__(self) -> str:
        return self.name


@dataclass(frozen=True)
class Selection:
    """A suite's settings in one run: what :meth:`Method.cases` reads.

    ``settings`` are the suite's effective settings (the command line over the suite's
    ``[afcheck.defaults]`` over the method's :attr:`Method.defaults`); ``choose(kind, name)``
    makes the :class:`Choice` of a component with its ``--<kind>-opt`` options, the same object
    for the same choice across suites, so that equal work is batched and cached once.
    """

    suite: SuiteSpec
    choose: Callable[[str, str], Choice]
    option: Callable[[str], object]
    """The run's command-line options by name (``keep_ineffective``), for method options."""
    registered: Callable[[str], list[str]] = lambda kind: []
    """The names registered for a kind (``detector``), for a method that uses them all."""
    _made: dict[str, tuple[Choice, ...]] = field(default_factory=dict, compare=False,
                                                 repr=False)
    """Choices already made: a suite asks for the same ones for each of its records."""
    _derived: dict[str, object] = field(default_factory=dict, compare=False, repr=False)
    """What methods made of the suite's settings (:meth:`derived`), by key."""

    def derived(self, key: str, make: Callable[[Selection], DerivedT]) -> DerivedT:
        """What a method makes of this suite's settings alone, such as the part of its cases
        every record shares: ``make(self)``, called the first time ``key`` is asked. The
        method object keeps nothing of a run; the selection lives as long as its suite's
        collection."""
        if key not in self._derived:
            self._derived[key] = make(self)
        return cast(DerivedT, self._derived[key])

    def setting(self, key: str) -> object:
        return self.suite.setting(key)

    def choice(self, kind: str) -> Choice:
        """The one component of ``kind`` this suite uses."""
        made = self._made.get(kind)
        if made is None:
            made = self._made[kind] = (self.choose(kind, str(self.setting(kind))),)
        return made[0]

    def choices(self, kind: str) -> tuple[Choice, ...]:
        """Several components of ``kind`` (``--perturber regex,llm``), in the order given."""
        key = f"{kind}[]"
        made = self._made.get(key)
        if made is None:
            names = [n.strip() for n in str(self.setting(kind) or "").split(",") if n.strip()]
            made = self._made[key] = tuple(self.choose(kind, name) for name in names)
        return made


@dataclass(frozen=True)
class Case(Generic[CaseT]):
    """One test item as collection builds it."""

    case_id: str
    """The pytest node id, e.g. ``suites/gsm8k::gsm8k-216/4``."""
    name: str
    """The test name inside its suite (``gsm8k-216/4[regex]``)."""
    method: str
    suite: str
    group: str
    """What metrics and JUnit test suites are grouped by (the dataset)."""
    source: Location | None
    spec: CaseT
    """The method's own description of the case (its components, its record)."""


Text = str | Callable[[], str]
"""A text, or a function of no arguments that makes it (called at most once)."""


class LazyText:
    """A dataclass field of type :data:`Text` that reads as ``str``: a function given for it
    is called on the first read and its text kept, so that text only some readers need (a
    failure's body: most items' are never shown) costs nothing until one of them reads it.

    A data descriptor, so the frozen dataclass's own ``__init__`` (``object.__setattr__``)
    stores the value through :meth:`__set__`, while assignment from outside is still refused
    by the dataclass."""

    def __init__(self, default: str = "") -> None:
        self._default = default
        self._slot = ""

    def __set_name__(self, owner: type, name: str) -> None:
        self._slot = f"_{name}_text"

    def __get__(self, instance: object | None, owner: type) -> str:
        if instance is None:  # the class's attribute: dataclasses reads it as the default
            return self._default
        value: Text = instance.__dict__.get(self._slot, self._default)
        if isinstance(value, str):
            return value
        text = value()
        if not isinstance(text, str):
            raise TypeError(f"a lazy text's function gave {type(text).__name__}, not str")
        instance.__dict__[self._slot] = text
        return text

    def __set__(self, instance: object, value: Text) -> None:
        if not isinstance(value, str) and not callable(value):
            raise TypeError(f"a text or a function that makes one, not {type(value).__name__}")
        instance.__dict__[self._slot] = value


@dataclass(frozen=True)
class ItemOutcome:
    """One item's test outcome: its status, why in one line, and the full evidence."""

    status: Status
    """PASSED, FAILED or SKIPPED: how the method judges the item. XFAILED is not a method's
    to give (the run gives it to a failure the baseline expects) and is refused."""
    message: str = ""
    """Empty for a passed item; one line otherwise (what CI pages and ``-rs`` show)."""
    details: LazyText = LazyText()
    """Both inputs, the statements, the verdicts and their evidence: the failure's body. Read
    as ``str``; given as a ``str`` or as a function of no arguments that makes it
    (``functools.partial(render, result)``), called once, on the first read (most items'
    bodies are never read: a passed item's, a failure the terminal does not show)."""
    notes: tuple[str, ...] = ()
    """Things worth a look that do not decide the outcome (drift warnings), one line each."""

    def __post_init__(self) -> None:
        if self.status is Status.XFAILED:
            raise ValueError("an item's outcome is passed, failed or skipped: xfailed is given "
                             "by the run, to a failure the baseline expects")


@dataclass(frozen=True)
class ItemResult(Generic[ResultT]):
    """One item at the end of a run: its case, the method's result and the final status."""

    case: Case[object]
    result: ResultT
    outcome: ItemOutcome
    status: Status
    """The outcome's status, with a failure that the baseline expects shown as XFAILED."""
    timings: Mapping[str, float] = field(default_factory=dict)


@dataclass(frozen=True)
class BadRecord:
    """A record of a suite that cannot be read, as a test item of its own: it fails with its
    one line (file:line, what is wrong, what to do), and it is in every result file like any
    other item."""

    case: Case[object]
    """Its test item; the ``spec`` is :attr:`error`."""
    error: LoadError

    def result(self) -> ItemResult[object]:
        """The failed item the run records for it."""
        outcome = ItemOutcome(Status.FAILED, f"unreadable record: {self.error.message}",
                              str(self.error))
        return ItemResult(self.case, self.error, outcome, Status.FAILED)


class MethodSummary(Protocol):
    """A method's measurements over the items of a run."""

    method: str

    @property
    def evaluated(self) -> int:
        """How many items entered the metrics (N); a gate over no item fails."""
        ...

    def metrics(self) -> Metrics:
        """The method's typed metrics, overall and per group (dataset): every figure a gate
        may bound (:attr:`Method.gates`) is in ``overall``. What gates read, what the result
        file writes as ``methods.<name>.metrics``, what JUnit writes as each group's
        properties and what the report shows: none of them reads a figure any other way."""
        ...

    def lines(self) -> list[str]:
        """The terminal summary (tables), as lines of text."""
        ...

    def sections(self) -> JsonObject:
        """The method's own top-level sections of the JSON result file (``perturbations``,
        ``details``), written beside ``metrics`` (written from :meth:`metrics`, which
        replaces a section of that name)."""
        ...

    def properties(self, group: str) -> dict[str, str]:
        """JUnit testsuite properties of one group beyond its metrics (which are written from
        :meth:`metrics`): counts of its own (a contingency table, warnings); may be empty."""
        ...


class Method(Protocol[CaseT, ResultT]):
    """An evaluation method. Built once per run by its registered factory."""

    name: str
    version: str
    kinds: tuple[str, ...]
    """The component kinds its items use; the run validates and builds each choice before
    any work, and ``afcheck list methods`` shows them."""
    defaults: Mapping[str, object]
    """The method's default settings: a component name per kind, and its own settings."""
    gates: Mapping[str, str]
    """The metrics a gate may bound, each with the direction that is good: ``"max"`` for a
    rate to keep low (``--gate UFLB<=0.3``), ``"min"`` for one to keep high. Each is in
    the overall :meth:`MethodSummary.metrics` of the method's summary."""
    settings: Mapping[str, type]
    """The method's own settings with their types (``{"seed": int}``), read by
    :func:`settings_of`; its plugin adds their options. Default (:class:`MethodBase`):
    none."""
    budgets: Mapping[str, Budget]
    """The limits of its stages, by stage (``prove``), read by
    :func:`afcheck.budget.budgets_of` and changed with ``--budget``. Default: none."""
    next_steps: NextSteps
    """What to run after a first run of the method, read by :func:`next_steps_of`.
    Default: nothing."""

    def cases(self, record: Record, selection: Selection) -> Iterable[tuple[str, CaseT]]:
        """The test items of one loaded record: ``(name, case)`` pairs. Collection only: no
        backend is called, nothing is built."""
        ...

    def choices(self, case: CaseT) -> Iterable[tuple[str, Choice]]:
        """The components one case uses, as ``(kind, choice)``: the run checks and builds each
        before any work."""
        ...

    def run(self, cases: Sequence[Case[CaseT]], runtime: Runtime,
            notify: Callable[[ResultT], None] | None) -> list[ResultT]:
        """Decide every case in one batch: one call per stage and component, through
        ``runtime.cached`` (the result cache and resume). One result per case, in order;
        ``notify``, when given, is called with each complete result (raw outputs included)
        as soon as it is known."""
        ...

    def outcome(self, result: ResultT) -> ItemOutcome:
        """The test outcome of one result."""
        ...

    def timings(self, result: ResultT) -> Mapping[str, float]:
        """Seconds the backends spent on this result, by stage (JUnit ``time``)."""
        ...

    def to_json(self, result: ResultT) -> JsonObject:
        """The result's record in the JSON result file (``status`` and ``method`` are added)."""
        ...

    def to_json_text(self, result: ResultT) -> str | None:
        """The JSON text of :meth:`to_json`, written without building the record (a record
        with the same top-level keys for every result), or ``None``: the record is built and
        encoded (:meth:`afcheck.summary.RunSummary.record_texts`). Default: ``None``."""
        ...

    def from_json(self, data: JsonObject) -> ResultT:
        """The result :meth:`to_json` wrote (the keys the run adds ignored): its inverse, the
        one codec of the method's records. Default: :class:`NotImplementedError`."""
        ...

    def summarise(self, items: Sequence[ItemResult[ResultT]]) -> MethodSummary:
        """The method's metrics over the items of a run."""
        ...


NextSteps = Mapping[str, str] | Callable[[Sequence[ItemResult[object]]], Mapping[str, str]]
"""A method's next steps: a short label (``"oracle run"``) → a command with ``{paths}``
where the paths of the run's suites of this method go; or, for steps that depend on the
suites at hand (an oracle that only some suites' data can feed), a function of the
method's items of the run that returns them."""


class MethodBase(Generic[CaseT, ResultT]):
    """The defaults of a :class:`Method`'s declared members that a method may leave out:
    subclass it and define the rest (``name``, ``version``, ``kinds``, ``defaults``,
    ``gates``, :meth:`~Method.cases`, :meth:`~Method.choices`, :meth:`~Method.run`,
    :meth:`~Method.outcome`, :meth:`~Method.timings`, :meth:`~Method.to_json`,
    :meth:`~Method.summarise`)."""

    name: str
    settings: Mapping[str, type] = {}
    budgets: Mapping[str, Budget] = {}
    next_steps: NextSteps = {}

    def to_json_text(self, result: ResultT) -> str | None:
        return None

    def from_json(self, data: JsonObject) -> ResultT:
        raise NotImplementedError(f"the method {self.name!r} reads no record back")


V = TypeVar("V")


def checked(method: AnyMethod, attribute: str, declaration: object,
            of: type[V]) -> dict[str, V]:
    """One of a method's declarations (``settings``, ``next_steps``, ``budgets``), given as
    ``declaration``, as a new dict of name → ``of``; empty for ``None``. The one check of
    them all, so that a declaration means the same whichever part of the run reads it.

    :class:`~afcheck.errors.AfcheckError` (one line naming the method) when a value is not
    an ``of``: a plugin's mistake is found where it is read, not later as a traceback."""
    from afcheck.errors import AfcheckError

    name = method.name
    if declaration is not None and not isinstance(declaration, Mapping):
        raise AfcheckError(f"method {name!r} declares {attribute} = {declaration!r}; "
                           "expected a mapping")
    found = dict(declaration or {})
    for key, value in found.items():
        if not isinstance(value, of):
            raise AfcheckError(f"method {name!r} declares {attribute}[{key!r}] = {value!r}; "
                               f"expected a {of.__name__}")
    return found


def settings_of(method: AnyMethod) -> Mapping[str, type]:
    """A method's own settings (``settings``: name → ``int`` or ``str``), given on the command
    line by the options its plugin adds and in ``[afcheck.defaults]``."""
    return checked(method, "settings", method.settings, type)


def next_steps_of(method: AnyMethod,
                  items: Sequence[ItemResult[object]] = ()) -> Mapping[str, str]:
    """What to run after a first run of a method (:attr:`Method.next_steps`, given the
    method's ``items`` of the run when it is a function). The end of a run without gates
    prints them, so that the first run says where to go from there; each must work as
    printed on the suites it is printed for."""
    declaration: object = method.next_steps
    if callable(declaration):
        declaration = declaration(items)
    return checked(method, "next_steps", declaration, str)


AnyMethod = Method[object, object]
"""A method of any case and result types, as the registry holds them."""
