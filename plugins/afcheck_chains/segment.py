"""Step segmentation and filtering of a model's reasoning, rule-based (seed §3.2.1).

A response is split into sentences; list markers (``1.``, ``Step 2:``, ``-``) and discourse
openers (``So,``, ``Therefore,``, ``We know that``) are stripped, because they carry no
claim. Dropped, each with its reason: questions, meta-talk about the task or the answer
(``Let's check…``, ``The answer is True``), and hedged or speculative statements (the seed's
cue words: "possible", "not necessarily", "contradict", and their kin), which assert
nothing a prover could check. The final answer is read from the response's answer line.

A response ends where the model's answer ends (:func:`answer_end`): a model prompted with
few-shot examples often goes on into an example of its own after answering (a separator such
as ``------``, a new ``Context:`` or ``Question:``), and what follows is neither its reasoning
nor its answer. Lines that echo the prompt (``Question: …``, ``Context: …``) are dropped as
``echo``: the question's statement is not a claim of the model's.
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
    """Why a dropped sentence was dropped (``question``, ``meta``, ``hedged``, ``empty``,
    ``echo``: a line of the prompt repeated)."""


_SENTENCE_END = re.compile(r"(?<=[.!?])\s+")
_LIST_MARKER = re.compile(r"^\s*(?:step\s*\d+\s*[:.)-]|\(?\d+[.)]|[-*•])\s*", re.IGNORECASE)
_OPENERS = re.compile(
    r"^(?:so|thus|therefore|hence|then|consequently|as a result|it follows that|this means that"
    r"|which means that|we know that|we can conclude that|we can infer that|we have that"
    r"|from this|in conclusion|finally|first|second|next|also|and|okay|ok|well|now|yes|alright"
    r"|since we know that|we are (?:told|given) that|it is given that|we can see that"
    r"|this (?:tells us|implies|shows) that"
    r"|(?:based on|from|according to) (?:the|this|these|that)(?: \w+){0,3},? we (?:can )?"
    r"(?:conclude|infer|know|see|deduce|get) that)\s*,?\s+"
    # A phrase that names where a claim comes from, closed by its comma ("Based on the
    # given information, Max is an impus." claims that Max is an impus).
    r"|^(?:based on|according to|from|given|using|by) (?:the|this|these|that|premise|rule|fact"
    r"|step|our)\b[^,.]{0,40},\s*",
    re.IGNORECASE,
)
_CITATION = re.compile(
    r"\s*[(\[](?:premises?|from|by|steps?|rules?|facts?|given|using|lines?|p\d)[^)\]]*[)\]]",
    re.IGNORECASE)
"""A source cited after a claim: "Max is a yumpus (premise 10)." """
_META = re.compile(
    r"^(?:let'?s|let us|we need to|we want to|we must|i need to|i will|i'll|we will|we'll"
    r"|to determine|to answer|to check|now,? (?:let|we)|the question|the statement"
    r"|the answer|answer\b|based on|looking at|recall|note that|in summary|checking"
    r"|(?:the )?(?:correct|final) (?:option|answer|choice)|option\b|choice\b"
    # Chat-model courtesies: "Sure!", "Here's my reasoning:", "I hope this helps!".
    r"|sure\b|great\b|certainly|of course|absolutely|i hope|hope this|let me|here'?s|here is"
    r"|here are|i'?d be happy|happy to|thank|good question|in this (?:problem|question))"
    r"|:\s*$"
    r"|\b(?:the (?:final )?answer is|is (?:true|false|unknown|uncertain)\s*$)"
    r"|^\(?[abc]?\)?\s*(?:true|false|unknown|uncertain)\s*$|^\(?[abc]\)$",
    re.IGNORECASE,
)
_HEDGES = re.compile(
    r"\b(?:possibl[ey]|possibility|not necessarily|necessarily|might|may|perhaps|maybe"
    r"|probably|likely|unlikely|could be|cannot be determined|can't be determined"
    r"|can not be determined|not enough information|uncertain|unclear|unknown|seems?"
    r"|appears?|assum(?:e|ing|ption)|suppose|contradict\w*|if we|whether)\b",
    re.IGNORECASE,
)
_LABEL = r"(true|false|unknown|uncertain)"
_LETTER = r"\(?([ABC])\)?(?![A-Za-z])"
_ANSWER_FORMS = (
    # "Answer: True", "The final answer is (B)", "The correct option is: B) False",
    # "So the answer is **False**".
    re.compile(r"(?i:\b(?:final answer|answer|correct option|correct answer|correct choice"
               r"|option|choice)\b(?:\s+(?:is|would be|should be))?\s*[:=]?\s*[*\s]*)"
               rf"(?:{_LETTER}(?:\s*[:)]?\s*(?i:{_LABEL}))?|(?i:{_LABEL}\b))"),
    # "Therefore, the statement is false.", 'The statement "Max is sour" is true.'
    re.compile(r"(?i:\bthe (?:statement|conclusion|claim|hypothesis)(?:\s*[\"“'][^\"”']*"
               r"[\"”'])?\s+is\s+(?:therefore\s+|thus\s+|hence\s+)?(not\s+)?\**"
               rf"{_LABEL}\b)"),
    # "So, Max is sour is false.", "Whether Max is sour is unknown." (a line's end).
    re.compile(rf"(?im)\bis\s+(not\s+)?\**{_LABEL}\**\s*[.!]?\s*$"),
    # "**False**", "**(B) False**", a last line that is only a label.
    re.compile(rf"\*\*\s*(?:{_LETTER}\s*)?(?i:{_LABEL})?\s*\.?\s*\*\*"),
    re.compile(rf"(?m)^\s*(?:{_LETTER}\s*)?(?i:{_LABEL})\s*\.?\s*$"),
)
_OPEN_QUESTION = re.compile(r"(?i)\b(?:whether|if|determine|decide|check|verify|know|see|"
                            r"find out|evaluate|assess)\b")
"""Words before "the statement is true" in its sentence that make it a question ("we need
to determine if the statement is true"), not an answer."""
_SEPARATOR = re.compile(r"^\s*(?:-{3,}|={3,}|_{3,}|\*{3,}|#{3,}|~{3,})\s*$")
"""A line that separates few-shot examples (or a markdown rule)."""
_PROMPT_PART = re.compile(
    r"^\s*(?:#+\s*|\*\*)?(?:context|question|problem|premises|options|example(?:\s*\d+)?)"
    r"\s*(?:\*\*)?\s*:", re.IGNORECASE)
"""A line that opens a part of a prompt: an echo at a response's start, a new example after
its answer."""
_NEW_PROBLEM = re.compile(r"^\s*(?:#+\s*|\*\*)?(?:context|problem|example(?:\s*\d+)?)"
                          r"\s*(?:\*\*)?\s*:", re.IGNORECASE)
"""A line that opens a new problem, whatever came before it."""


@dataclass(frozen=True)
class Answered:
    """A response up to where the model's answer ends."""

    text: str
    cut: str = ""
    """What ended it (``the answer line 5``, ``a few-shot separator '------' at line 6``, ``a
    new Context: at line 6``) and how much was dropped; empty when nothing follows."""


def answer_end(response: str) -> Answered:
    """``response`` up to the end of the model's answer, where what follows is not the
    model's: after the line that gives its answer (``Answer: True``, ``The correct option
    is: B``) when reasoning came before it; at a few-shot separator (``------``) or a new
    ``Question:``/``Options:`` once an answer has been given; at a new ``Context:``
    (``Problem:``, ``Example 2:``), or a separator right before one, in any case once the
    response has begun. A markdown rule between the reasoning and the answer, or an answer
    given first and explained after, is no end. Nothing is cut when only blank lines
    follow."""
    lines = response.splitlines(keepends=True)
    offset, begun = 0, False
    for number, line in enumerate(lines, 1):
        reason, end = "", offset
        if begun:
            # Read only at a line that could end the response: a long one has many lines.
            def answered(upto: int = offset) -> bool:
                return read_answer(response[:upto]) is not None

            if _SEPARATOR.match(line) and (_NEW_PROBLEM.match(
                    next((rest for rest in lines[number:] if rest.strip()), "")) or answered()):
                reason = f"a few-shot separator {line.strip()[:12]!r} at line {number}"
            elif _NEW_PROBLEM.match(line) or (_PROMPT_PART.match(line) and answered()):
                reason = f"a new {line.strip().split(':', 1)[0].strip('#* ')}: at line {number}"
            elif _explicit_answer(line):
                reason, end = f"the answer line {number}", offset + len(line)
        offset += len(line)
        begun = begun or (bool(line.strip()) and not _PROMPT_PART.match(line))
        if reason:
            rest = response[end:]
            if not rest.strip():
                return Answered(response)
            return Answered(response[:end].rstrip(),
                            f"after {reason}: {len(rest.strip())} characters dropped")
    return Answered(response)


def _explicit_answer(line: str) -> bool:
    """Whether ``line`` states the model's answer outright (the first answer form, not in a
    question such as "we need to find the answer")."""
    for match in _ANSWER_FORMS[0].finditer(line):
        sentence = re.split(r"[.!?]", line[:match.start()])[-1]
        if _label_of(match) is not None and not _OPEN_QUESTION.search(sentence) \
                and not _SEEKING.search(sentence):
            return True
    return False


_SEEKING = re.compile(r"(?i)\b(?:need|needs|find|what|which|to give|must give)\b")
"""Words before "the answer: …" that make it a task, not the model's answer."""


def split_sentences(text: str) -> list[str]:
    """Sentences, line by line; a line's list marker (``1.``) is not a sentence of its own."""
    out: list[str] = []
    for line in text.splitlines():
        body = _LIST_MARKER.sub("", line, count=1)
        out.extend(part.strip() for part in _SENTENCE_END.split(body) if part.strip())
    return out


def clean(sentence: str) -> str:
    """The sentence without list markers, discourse openers, cited sources or emphasis."""
    text = sentence.replace("**", "").strip()
    previous = None
    while previous != text:
        previous = text
        text = _LIST_MARKER.sub("", text, count=1).strip()
        text = _OPENERS.sub("", text, count=1).strip()
    text = _CITATION.sub("", text).strip()
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
        for line in part.splitlines():
            if _PROMPT_PART.match(line):
                out.append(Segment(line.strip(), False, "echo"))
                continue
            out.extend(classify_sentence(sentence) for sentence in split_sentences(line))
    return out


def kept_steps(response: str | list[str]) -> tuple[str, ...]:
    return tuple(s.text for s in segment(response) if s.kept)


def read_answer(response: str) -> Label | None:
    """The model's final answer: the last of the forms models write it in (``Answer:
    True``, ``The correct option is: B``, ``the statement is false``, a line ending in ``is
    false``, ``**False**``, a last line that is only a label), or ``None`` when the response
    gives none. Letters are
    Logic-LLM's options (A True, B False, C Unknown); "the statement is true" after
    "whether" or "determine if" is a question, not an answer."""
    found: list[tuple[int, Label]] = []
    for form in _ANSWER_FORMS:
        for match in form.finditer(response):
            label = _label_of(match)
            before = response[:match.start()]
            sentence = re.split(r"[.!?\n]", before)[-1]
            if label is None or _OPEN_QUESTION.search(sentence):
                continue
            found.append((match.end(), label))
    return max(found, key=lambda hit: hit[0])[1] if found else None


def _label_of(match: re.Match[str]) -> Label | None:
    groups = [g for g in match.groups() if g]
    negated = any(g.strip().lower() == "not" for g in groups)
    words = [g for g in groups if g.strip().lower() != "not"]
    if not words:
        return None
    # "(B) False": the word is what the model meant to say; a lone letter maps by option.
    label = parse_label(words[-1])
    if label is not None and negated:
        return {Label.TRUE: Label.FALSE, Label.FALSE: Label.TRUE}.get(label)
    return label
