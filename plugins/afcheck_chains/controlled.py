"""A rule-based translator of PrOntoQA's and ProofWriter's controlled English into FOL.

These data sets are generated from small grammars, so their sentences translate exactly; this
is the offline baseline formaliser of the chains method (no model, deterministic). Forms read:

- facts: ``Bob is cold.`` ``Bob is not a wumpus.`` ``The bald eagle chases the cat.``
  ``The cat does not eat the dog.`` ``Max is red and round.``;
- class rules: ``Jompuses are (not) shy.`` ``Each/Every yumpus is (not) a dumpus.``
  ``All quiet things are rough.`` ``Red, cold people are not round.``;
- conditionals: ``If something is quiet and cold then it is smart.`` ``If someone needs the
  bear and they are red then the bear is kind.`` ``If Dave is smart then Dave is quiet.``

Names: an adjective, noun or verb becomes a predicate named by its lemma with a capital
(``Cold``, ``Jompus``, ``Chase``); a person or ``the …`` phrase becomes a lower-case constant
(``bob``, ``bald_eagle``). "Something", "someone" and the pronouns that refer back to them
are one universally quantified variable; "things" and "people" restrict nothing (ProofWriter
uses them interchangeably). Anything else raises :class:`Untranslatable` naming the sentence:
a guess would make verdicts about a sentence nobody wrote.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from afcheck_fol.formula import And, Const, Forall, Formula, Implies, Not, Pred, Term, Var


class Untranslatable(ValueError):
    """A sentence outside the controlled grammar."""

    def __init__(self, sentence: str, reason: str) -> None:
        super().__init__(f"cannot translate {sentence!r}: {reason}")
        self.sentence = sentence
        self.reason = reason


_X = Var("x")
_GENERIC = {"something", "someone", "somebody", "everything", "everyone", "everybody"}
_PRONOUNS = {"it", "they", "he", "she", "them"}
_COPULAS = {"is", "are"}
_AUX = {"does", "do"}
_KINDS = {"things", "people", "ones", "thing", "person", "one", "animals", "animal"}
_QUANTIFIERS = {"all", "every", "each"}
_ARTICLES = {"a", "an"}


def _lemma_plural(word: str) -> str:
    """The singular of a plural noun (``jompuses`` → ``jompus``, ``puppies`` → ``puppy``)."""
    if word.endswith("uses"):
        return word[:-2]
    # Otherwise nouns lose their -s as verbs do.
    return _lemma_verb(word)


def _lemma_verb(word: str) -> str:
    """The base form of a third-person verb (``chases`` → ``chase``, ``needs`` → ``need``)."""
    if word.endswith("ies") and len(word) > 4:
        return word[:-3] + "y"
    if word.endswith(("sses", "shes", "ches", "xes", "zes")):
        return word[:-2]
    if word.endswith("s") and not word.endswith("ss"):
        return word[:-1]
    return word


def _is_plural_noun(word: str) -> bool:
    """Plural nouns of these data sets end in -s; adjectives ending in -s end in -ous/-ss."""
    return word.endswith("s") and not word.endswith(("ous", "ss", "us"))


def _pred_name(lemma: str) -> str:
    return lemma[:1].upper() + lemma[1:]


def _const_name(words: list[str]) -> str:
    return "_".join(w.lower() for w in words)


@dataclass(frozen=True)
class _Clause:
    """A clause: its subject term and the formula it says of that subject."""

    subject: Term
    formula: Formula


class _Parse:
    def __init__(self, sentence: str) -> None:
        self.sentence = sentence

    def fail(self, reason: str) -> Untranslatable:
        return Untranslatable(self.sentence, reason)

    # -- subjects --------------------------------------------------------------------------

    def subject(self, words: list[str], variable_ok: bool) -> tuple[Term, int] | None:
        """The subject at the start of ``words`` and how many words it takes."""
        if not words:
            return None
        first = words[0].lower()
        if first in _GENERIC or first in _PRONOUNS:
            if not variable_ok:
                raise self.fail(f"'{words[0]}' outside a rule")
            return _X, 1
        if first == "the":
            end = 1
            while end < len(words) and not self._ends_noun_phrase(words[end]):
                end += 1
            if end == 1:
                return None
            return Const(_const_name(words[1:end])), end
        if words[0][:1].isupper() and first not in _QUANTIFIERS | {"if", "no"}:
            return Const(_const_name(words[:1])), 1
        return None

    @staticmethod
    def _ends_noun_phrase(word: str) -> bool:
        lower = word.lower()
        return lower in _COPULAS | _AUX or (lower.endswith("s") and not lower.endswith("ss"))

    # -- predicates ------------------------------------------------------------------------

    def predicate(self, subject: Term, words: list[str]) -> tuple[Formula, str]:
        """What ``words`` (a verb phrase) says of ``subject``, and the frame for ellipsis.

        The frame is ``"is"`` or ``"is not"`` after a copula, so that ``is quiet and cold``
        reads ``cold`` under the same copula, else ``""``.
        """
        if not words:
            raise self.fail("a verb phrase is missing")
        head = words[0].lower()
        if head in _COPULAS:
            negated = len(words) > 1 and words[1].lower() == "not"
            rest = words[2:] if negated else words[1:]
            atom = self.complement(subject, rest, plural=head == "are")
            frame = "is not" if negated else "is"
            return (Not(atom) if negated else atom), frame
        if head in _AUX:
            if len(words) < 3 or words[1].lower() != "not":
                raise self.fail(f"'{words[0]}' without 'not'")
            return Not(self.transitive(subject, words[2], words[3:], base=True)), ""
        return self.transitive(subject, words[0], words[1:], base=False), ""

    def complement(self, subject: Term, words: list[str], plural: bool) -> Formula:
        if not words:
            raise self.fail("nothing after the copula")
        lowered = [w.lower() for w in words]
        if lowered[0] in _ARTICLES:
            if len(words) != 2:
                raise self.fail(f"noun phrase '{' '.join(words)}' is not one noun")
            return Pred(_pred_name(lowered[1]), (subject,))
        if len(words) != 1:
            raise self.fail(f"'{' '.join(words)}' is not one adjective or noun")
        word = lowered[0]
        if plural and _is_plural_noun(word):
            word = _lemma_plural(word)
        return Pred(_pred_name(word), (subject,))

    def transitive(self, subject: Term, verb: str, rest: list[str], base: bool) -> Formula:
        obj = self.subject(rest, variable_ok=True)
        if obj is None or obj[1] != len(rest):
            raise self.fail(f"the object of '{verb}' is not a name or 'the …'")
        lemma = verb.lower() if base else _lemma_verb(verb.lower())
        return Pred(_pred_name(lemma), (subject, obj[0]))

    # -- clauses ---------------------------------------------------------------------------

    def clauses(
        self, words: list[str], variable_ok: bool, default: Term | None = None
    ) -> list[_Clause]:
        """``A and B and …``: each part a clause, or a verb phrase of the previous subject.

        ``default`` is the subject of a first part that has none (a class rule's variable).
        """
        parts = _split_and(words)
        out: list[_Clause] = []
        frame = ""
        for part in parts:
            found = self.subject(part, variable_ok)
            if found is not None and len(part) > found[1]:
                subject, used = found
                formula, frame = self.predicate(subject, part[used:])
            elif out or default is not None:
                subject = out[-1].subject if out else default  # type: ignore[assignment]
                head = part[0].lower()
                if head in _COPULAS | _AUX or not frame:
                    formula, frame = self.predicate(subject, part)
                else:
                    # Ellipsis: "is quiet and cold" — "cold" under the last copula.
                    formula, frame = self.predicate(subject, frame.split() + part)
            else:
                raise self.fail(f"no subject in '{' '.join(part)}'")
            out.append(_Clause(subject, formula))
        return out


def _split_and(words: list[str]) -> list[list[str]]:
    parts: list[list[str]] = [[]]
    for word in words:
        if word.lower() == "and" or word == ",":
            if parts[-1]:
                parts.append([])
            continue
        parts[-1].append(word)
    if not parts[-1]:
        parts.pop()
    return parts


def _conjoin(formulas: list[Formula]) -> Formula:
    return formulas[0] if len(formulas) == 1 else And(tuple(formulas))


def _mentions_x(formula: Formula) -> bool:
    from afcheck_fol.formula import free_vars

    return "x" in free_vars(formula)


_TOKEN = re.compile(r"[A-Za-z][A-Za-z'-]*|,")


_COMPOUND = re.compile(
    r"^(?:since|because|as)\s+(?P<reason>.+?),\s*(?:so\s+|then\s+)?(?P<claim>.+)$"
    r"|^(?P<first>.+?)(?:,|;)\s*(?:and\s+)?(?:so|thus|therefore|hence|which means that"
    r"|this means that|it follows that)\s*,?\s+(?P<second>.+)$",
    re.IGNORECASE,
)


def translate(sentence: str) -> Formula:
    """The FOL formula of one controlled-English sentence; :class:`Untranslatable` otherwise.

    A model's step often joins a reason and a claim ("Since Max is a yumpus, Max is a
    dumpus.", "Each yumpus is a dumpus, so Max is a dumpus."): the step asserts both, so it
    reads as their conjunction.
    """
    text = sentence.strip().rstrip(".!").strip()
    match = _COMPOUND.match(text)
    if match is not None:
        left = match.group("reason") or match.group("first")
        right = match.group("claim") or match.group("second")
        try:
            return And((translate(left), translate(right[:1].upper() + right[1:])))
        except Untranslatable:
            pass  # not a reason-and-claim after all ("Red, cold things are round")
    if not text:
        raise Untranslatable(sentence, "empty sentence")
    words = _TOKEN.findall(text)
    if " ".join(w for w in words if w != ",").replace(" ", "") != re.sub(
        r"[\s,]", "", text
    ):
        raise Untranslatable(sentence, "characters outside plain words")
    parse = _Parse(sentence)
    lowered = [w.lower() for w in words]
    if lowered[0] == "if":
        return _conditional(parse, words)
    if lowered[0] in _QUANTIFIERS:
        return _class_rule(parse, words[1:], singular=lowered[0] != "all")
    verbs = [w for w in lowered if w in _COPULAS | _AUX]
    plural = bool(verbs) and verbs[0] in ("are", "do")
    found = None if plural else parse.subject(words, variable_ok=False)
    if found is not None and len(words) > found[1]:
        clauses = parse.clauses(words, variable_ok=False)
        return _conjoin([c.formula for c in clauses])
    # "Jompuses are shy." / "Red, cold things are round."
    return _class_rule(parse, words, singular=False)


def _conditional(parse: _Parse, words: list[str]) -> Formula:
    lowered = [w.lower() for w in words]
    if "then" not in lowered:
        raise parse.fail("'if' without 'then'")
    cut = lowered.index("then")
    condition = parse.clauses([w for w in words[1:cut] if w != ","], variable_ok=True)
    result = parse.clauses([w for w in words[cut + 1:] if w != ","], variable_ok=True)
    body = Implies(_conjoin([c.formula for c in condition]),
                   _conjoin([c.formula for c in result]))
    return Forall(_X, body) if _mentions_x(body) else body


def _class_rule(parse: _Parse, words: list[str], singular: bool) -> Formula:
    """``[All] A, B things are C`` / ``Each X is [not] [a] C``: ∀x (A(x) ∧ B(x) → C(x))."""
    lowered = [w.lower() for w in words]
    copula = "is" if singular else "are"
    if copula not in lowered:
        raise parse.fail(f"no '{copula}' in a class rule")
    cut = lowered.index(copula)
    restrictor = [w for w in lowered[:cut] if w not in {",", "and"}]
    if not restrictor:
        raise parse.fail("a class rule without a class")
    guards: list[Formula] = []
    for index, word in enumerate(restrictor):
        last = index == len(restrictor) - 1
        if word in _KINDS:
            if not last:
                raise parse.fail(f"'{word}' before the end of the class")
            continue
        if last and not singular:
            word = _lemma_plural(word)
        guards.append(Pred(_pred_name(word), (_X,)))
    if not guards:
        raise parse.fail("a class rule about everything")
    rest = words[cut:]
    consequent = _conjoin(
        [c.formula for c in parse.clauses(rest, variable_ok=True, default=_X)]
    )
    return Forall(_X, Implies(_conjoin(guards), consequent))
