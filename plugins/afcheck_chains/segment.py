"""Step segmentation and filtering of a model's reasoning, rule-based (seed §3.2.1).

A response is split into sentences; list markers (``1.``, ``Step 2:``, ``-``) and discourse
openers (``So,``, ``Therefore,``, ``We know that``) are stripped, because they carry no
claim. Dropped, each with its reason: questions, meta-talk about the task or the answer
(``Let's check…``, ``The answer is True``), and hedged or speculative statements (the seed's
cue words: "possible", "not necessarily", "contradict", and their kin), which assert
nothing a prover could check. The final answer is read from the response's answer line.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from afcheck_chains.records import Label, parse_label


@dataclass(frozen=True)
class Segment:
    text: str
    kept: bool
    reason: str = ""
    """Why a dropped sentence was dropped (``question``, ``meta``, ``hedged``, ``empty``)."""


_SENTENCE_END = re.compile(r"(?<=[.!?])\s+")
_LIST_MARKER = re.compile(r"^\s*(?:step\s*\d+\s*[:.)-]|\(?\d+[.)]|[-*•])\s*", re.IGNORECASE)
_OPENERS = re.compile(
    r"^(?:so|thus|therefore|hence|then|consequently|as a result|it follows that|this means that"
    r"|which means that|we know that|we can conclude that|we can infer that|we have that"
    r"|from this|in conclusion|finally|first|second|next|also|and)\s*,?\s+",
    re.IGNORECASE,
)
_META = re.compile(
    r"^(?:let'?s|let us|we need to|we want to|we must|i need to|i will|i'll|we will|we'll"
    r"|to determine|to answer|to check|now,? (?:let|we)|the question|the statement"
    r"|the answer|answer\b|based on|looking at|recall|note that|in summary|checking)"
    r"|\b(?:the (?:final )?answer is|is (?:true|false|unknown)\s*$)",
    re.IGNORECASE,
)
_HEDGES = re.compile(
    r"\b(?:possibl[ey]|possibility|not necessarily|necessarily|might|may|perhaps|maybe"
    r"|probably|likely|unlikely|could be|cannot be determined|can't be determined"
    r"|can not be determined|not enough information|uncertain|unclear|unknown|seems?"
    r"|appears?|assum(?:e|ing|ption)|suppose|contradict\w*|if we|whether)\b",
    re.IGNORECASE,
)
_ANSWER = re.compile(
    r"(?:final answer|the answer is|answer)\s*(?:is)?\s*[:=]?\s*\**\s*\(?"
    r"(true|false|unknown|uncertain|[abc])\b",
    re.IGNORECASE,
)


def split_sentences(text: str) -> list[str]:
    """Sentences, line by line; a line's list marker (``1.``) is not a sentence of its own."""
    out: list[str] = []
    for line in text.splitlines():
        body = _LIST_MARKER.sub("", line, count=1)
        out.extend(part.strip() for part in _SENTENCE_END.split(body) if part.strip())
    return out


def clean(sentence: str) -> str:
    """The sentence without list markers, discourse openers or emphasis."""
    text = sentence.replace("**", "").strip()
    previous = None
    while previous != text:
        previous = text
        text = _LIST_MARKER.sub("", text, count=1).strip()
        text = _OPENERS.sub("", text, count=1).strip()
    if text[:1].islower():
        text = text[0].upper() + text[1:]
    return text


def classify_sentence(sentence: str) -> Segment:
    text = clean(sentence)
    if not text or not re.search(r"[A-Za-z]", text):
        return Segment(text, False, "empty")
    if text.endswith("?"):
        return Segment(text, False, "question")
    if _META.search(text):
        return Segment(text, False, "meta")
    if _HEDGES.search(text):
        return Segment(text, False, "hedged")
    return Segment(text, True)


def segment(response: str | list[str]) -> list[Segment]:
    """Every sentence of a response (a text, or steps already split) with its keep decision."""
    parts = response if isinstance(response, list) else [response]
    out: list[Segment] = []
    for part in parts:
        out.extend(classify_sentence(sentence) for sentence in split_sentences(part))
    return out


def kept_steps(response: str | list[str]) -> tuple[str, ...]:
    return tuple(s.text for s in segment(response) if s.kept)


def read_answer(response: str) -> Label | None:
    """The label of the response's last answer line (``Answer: True``, ``(B)``…)."""
    found = _ANSWER.findall(response)
    return parse_label(found[-1]) if found else None
