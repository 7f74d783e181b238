"""Loaders of chain records: Logic-LLM's ProofWriter and PrOntoQA, FOLIO, recorded responses.

Released data is read from ``AFCHECK_DATA_DIR`` under its released file names
(``proofwriter/dev.json``, ``prontoqa/dev.json``, ``folio/folio-train.jsonl``) or from a path
given in the suite. A malformed record becomes one :class:`afcheck.errors.LoadError`
(file:line, what is wrong) and loading goes on.

- Logic-LLM (JSON array of ``{id, context, question, options, answer}``): premises are the
  context's sentences, the conclusion the question's statement (after its ``?``), the label
  the answer letter's option. PrOntoQA's gold ``explanation`` is the chain (the gold
  reasoning, so the predicted answer is the gold label); ProofWriter has no chain.
- FOLIO (JSON Lines ``{story_id, example_id, conclusion, premises, premises-FOL, label}``): no
  chain; ``premises-FOL`` is the reference FOL of the premises.
- Responses (JSON Lines, one chain a line): ``id``, ``premises`` (list) or ``context`` (text),
  ``conclusion``, ``label``, and the model's ``response`` (text) or ``steps`` (list), with
  ``answer`` (else read from the response, which ends where the model's answer ends:
  :func:`afcheck_chains.segment.answer_end`). Optional: ``expected_class``, ``step_labels``
  (gold step labels, one per kept step), ``premises_fol``, ``conclusion_fol``, ``steps_fol``.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator, Mapping
from pathlib import Path

from afcheck.errors import LoadError, SuiteError
from afcheck.jsonlines import place_name, read_json_array, read_json_lines
from afcheck.suites import DATA_DIR_ENV, find_in_data_dir
from afcheck.types import Location
from afcheck_chains.records import ChainRecord, GoldFol, Label, parse_label
from afcheck_chains.segment import Answered, answer_end, kept_steps, read_answer

Loaded = ChainRecord | LoadError  # noqa: UP007 - a runtime alias on 3.10

RELEASED: Mapping[str, tuple[str, ...]] = {
    "proofwriter": ("proofwriter/dev.json", "ProofWriter/dev.json"),
    "prontoqa": ("prontoqa/dev.json", "ProntoQA/dev.json"),
    "folio": ("folio/folio-train.jsonl", "folio-train.jsonl"),
}
"""Where each released data set lies under ``AFCHECK_DATA_DIR``, first match wins."""

_SENTENCE = re.compile(r"(?<=[.!?])\s+")


def find_data(source: str, where: Path | None = None) -> Path:
    """The released file of ``source`` under ``AFCHECK_DATA_DIR``; :class:`SuiteError` else,
    located at ``where`` (the suite's manifest) when given."""
    location: Path | str = where if where is not None else source
    names = RELEASED.get(source)
    if names is None:
        raise SuiteError(location,
                         f"unknown chains source; known: {', '.join(sorted(RELEASED))}")
    path = find_in_data_dir(names)
    if path is not None:
        return path
    base = os.environ.get(DATA_DIR_ENV)
    place = f"{DATA_DIR_ENV}={base}" if base else f"{DATA_DIR_ENV} (not set)"
    raise SuiteError(
        location,
        f"{names[0]} not found under {place}; put the released file there or set "
        f"'data' in suite.toml",
    )


def sentences(text: str) -> tuple[str, ...]:
    return tuple(s.strip() for s in _SENTENCE.split(text.strip()) if s.strip())


def _json_array(path: Path) -> Iterator[tuple[Location, int, object] | LoadError]:
    """Each element of a JSON array with where it is (the line it starts on and its number in
    the array, from 1); a bad element (bad bytes, too deep, not JSON) is a
    :class:`LoadError` of its own and the others still load."""
    try:
        elements = list(read_json_array(path))
    except OSError as exc:
        yield LoadError(Location(str(path)), f"cannot read: {exc}")
        return
    for number, element in enumerate(elements, 1):
        if element.ok:
            yield element.location, number, element.value
        else:
            yield LoadError(element.location, element.problem)


def load_logic_llm(path: Path, dataset: str) -> Iterator[Loaded]:
    """ProofWriter or PrOntoQA in Logic-LLM's format."""
    for entry in _json_array(path):
        if isinstance(entry, LoadError):
            yield entry
            continue
        location, number, item = entry
        yield _logic_llm_record(item, dataset, location, place_name(location, number))


def _logic_llm_record(item: object, dataset: str, location: Location, place: str) -> Loaded:
    """One problem; one without an ``id`` is named by its place in the array (``record3``)."""
    if not isinstance(item, dict):
        return LoadError(location, "expected an object with id, context, question, answer")
    rid = str(item.get("id") or "").strip() or place
    missing = [k for k in ("context", "question", "answer") if not item.get(k)]
    if missing:
        return LoadError(location, f"{rid}: missing {', '.join(missing)}", name=rid)
    question = str(item["question"])
    conclusion = question.split("?", 1)[1].strip() if "?" in question else question.strip()
    label = _option_label(item)
    if label is None:
        return LoadError(location, f"{rid}: answer {item['answer']!r} is not one of the "
                         "options", name=rid)
    chain = item.get("explanation")
    steps: tuple[str, ...] = ()
    if chain is not None:
        if not isinstance(chain, list) or not all(isinstance(s, str) for s in chain):
            return LoadError(location, f"{rid}: explanation must be a list of sentences",
                             name=rid)
        steps = tuple(s.strip() for s in chain)
    return ChainRecord(
        id=rid, dataset=dataset, premises=sentences(str(item["context"])),
        conclusion=conclusion, label=label, steps=steps,
        answer=label if steps else None, location=location, raw_steps=steps,
    )


def _option_label(item: Mapping[str, object]) -> Label | None:
    letter = str(item["answer"]).strip().upper()
    options = item.get("options")
    if isinstance(options, list):
        for option in options:
            text = str(option)
            if text.upper().startswith(f"{letter})"):
                return parse_label(text.split(")", 1)[1])
        return None
    return parse_label(letter)


def load_folio(path: Path) -> Iterator[Loaded]:
    """FOLIO's records (read by :mod:`afcheck_fol.folio`, the one reader of its files) with
    their reference FOL: the premises', and the conclusion's where the split gives it
    (``conclusion-FOL``, the validation split). A record whose premises are stated in more or
    fewer formulas than sentences is kept: the premises are one set in logic either way."""
    from afcheck_fol.folio import read_folio

    for record in read_folio(path):
        if isinstance(record, LoadError):
            yield record
            continue
        rid = record.example
        label = parse_label(record.label)
        if label is None or not record.conclusion:
            yield LoadError(record.location, f"{record.name}: needs a conclusion and a label "
                            "True/False/Unknown", name=f"folio-{rid}")
            continue
        yield ChainRecord(
            id=f"folio-{rid}", dataset="folio", premises=record.premises,
            conclusion=record.conclusion, label=label, steps=(), answer=None,
            location=record.location,
            gold_fol=GoldFol(premises=record.premises_fol, conclusion=record.conclusion_fol),
            metadata={"story_id": record.story},
        )


def _lines(path: Path) -> Iterator[tuple[int, dict[str, object] | LoadError]]:
    try:
        lines = list(read_json_lines(path))
    except OSError as exc:
        yield 0, LoadError(Location(str(path)), f"cannot read: {exc}")
        return
    for line in lines:
        number = line.location.line
        if not line.ok:
            yield number, LoadError(line.location, line.problem)
        elif not isinstance(line.value, dict):
            yield number, LoadError(line.location, "expected a JSON object")
        else:
            yield number, line.value


def load_responses(path: Path, dataset: str | None = None) -> Iterator[Loaded]:
    """Recorded model responses, one chain per line."""
    for number, raw in _lines(path):
        if isinstance(raw, LoadError):
            yield raw
            continue
        yield _response_record(raw, Location(str(path), number), dataset or path.stem)


def _strings(value: object) -> tuple[str, ...] | None:
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        return tuple(value)
    return None


def _response_record(raw: Mapping[str, object], location: Location, dataset: str) -> Loaded:
    rid = str(raw.get("id") or "").strip() or place_name(location)

    def bad(message: str) -> LoadError:
        return LoadError(location, message, name=rid)

    premises = _strings(raw.get("premises"))
    if premises is None:
        context = raw.get("context")
        if not isinstance(context, str):
            return bad("needs 'premises' (a list of sentences) or 'context' (a text)")
        premises = sentences(context)
    conclusion = raw.get("conclusion")
    if not isinstance(conclusion, str) or not conclusion.strip():
        return bad("needs a 'conclusion' sentence")
    label = parse_label(raw.get("label"))
    if label is None:
        return bad(f"label {raw.get('label')!r} is not True, False or Unknown")
    response, listed = raw.get("response"), _strings(raw.get("steps"))
    # The response ends where the model's answer ends: a few-shot continuation after it is
    # neither its reasoning nor its answer.
    answered = answer_end(response) if isinstance(response, str) else Answered("")
    if listed is not None:
        raw_steps = listed
        steps = kept_steps(list(listed))
        answer_text = answered.text
    elif isinstance(response, str):
        raw_steps = (answered.text,)
        steps = kept_steps(answered.text)
        answer_text = answered.text
    else:
        return bad("needs the model's 'response' (a text) or 'steps' (a list)")
    if "answer" in raw:
        given = raw["answer"]
        # A recorded answer may be the model's own words ("The correct option is: B").
        answer = parse_label(given) or (read_answer(given) if isinstance(given, str) else None)
        if answer is None:
            return bad(f"answer {given!r} is not True, False or Unknown, nor a sentence that "
                       "gives one; leave 'answer' out to read it from the response")
    else:
        answer = read_answer(answer_text)
    cut_off = _cut_off(raw)
    if not steps and answer is None and not cut_off:
        # An empty reply would otherwise pass as "the prover reproduces the gold label".
        return bad("the response has no reasoning step and no answer: nothing to check; "
                   "record the model's reply (or its 'answer')")
    expected = raw.get("expected_class")
    if expected is not None and not isinstance(expected, str):
        return bad("expected_class must be a class name such as 'T1'")
    gold_steps: tuple[Label, ...] | None = None
    if "step_labels" in raw:
        names = _strings(raw["step_labels"])
        parsed = [parse_label(n) for n in names] if names is not None else None
        if parsed is None or any(p is None for p in parsed):
            return bad("step_labels must be a list of True/False/Unknown")
        if len(parsed) != len(steps):
            return bad(f"{len(parsed)} step_labels for {len(steps)} kept steps")
        gold_steps = tuple(p for p in parsed if p is not None)
    gold_fol = None
    if any(k in raw for k in ("premises_fol", "conclusion_fol", "steps_fol")):
        p_fol = _strings(raw.get("premises_fol", []))
        s_fol = raw.get("steps_fol", [])
        c_fol = raw.get("conclusion_fol")
        if p_fol is None or not isinstance(s_fol, list) or not (
                c_fol is None or isinstance(c_fol, str)):
            return bad("premises_fol and steps_fol must be lists of formulas, "
                       "conclusion_fol a formula")
        gold_fol = GoldFol(p_fol, c_fol, tuple(s if isinstance(s, str) else None
                                               for s in s_fol))
    return ChainRecord(
        id=rid, dataset=str(raw.get("dataset") or dataset), premises=premises,
        conclusion=conclusion.strip(), label=label, steps=steps, answer=answer,
        location=location, raw_steps=raw_steps, expected_class=expected,
        gold_step_labels=gold_steps, gold_fol=gold_fol, cut_off=cut_off,
        response=response if isinstance(response, str) else "", answer_cut=answered.cut,
        metadata={k: str(raw[k]) for k in ("model", "source") if isinstance(raw.get(k), str)},
    )


LIMIT_REASONS = ("length", "max_tokens", "max_length", "max_new_tokens")
"""``finish_reason`` / ``stop_reason`` values that mean the generation limit stopped the
response (OpenAI and vLLM write ``length``)."""


def _cut_off(raw: Mapping[str, object]) -> str:
    """How the record says its response hit the generation limit, or empty."""
    for key in ("finish_reason", "stop_reason"):
        value = raw.get(key)
        if isinstance(value, str) and value.strip().lower() in LIMIT_REASONS:
            return f"{key} {value!r}"
    if raw.get("truncated") is True:
        return "truncated: true"
    return ""
