"""A rule-based translator of PrOntoQA's and ProofWriter's controlled English into FOL.

These data sets are generated from small grammars, so their sentences translate exactly; this
is the offline baseline formaliser of the chains method (no model, deterministic). Forms read:

- facts: ``Bob is cold.`` ``Bob is not a wumpus.`` ``The bald eagle chases the cat.``
  ``The cat does not eat the dog.`` ``Max is red and round.``;
- class rules: ``Jompuses are (not) shy.`` ``Each/Every/Any yumpus is (not) a dumpus.``
  ``All quiet things are rough.`` ``Red, cold people are not round.``;
- conditionals: ``If something is quiet and cold then it is smart.`` ``If someone needs the
  bear and they are red then the bear is kind.`` ``If Dave is smart then Dave is quiet.``
- quantified class statements, read exactly: ``No cats are dogs.`` / ``No cat is a dog.``
  ∀x (Cat(x) → ¬Dog(x)); ``Some cats are red.`` ∃x (Cat(x) ∧ Red(x)); ``Only cats are
  pets.`` ∀x (Pet(x) → Cat(x)); ``Not all cats are red.`` / ``Not every cat is red.``
  ¬∀x (Cat(x) → Red(x)); ``Nothing is red.`` ∀x ¬Red(x). ``Most``, ``many``, ``few`` and
  their kin have no first-order reading and are refused.

In a chain (:func:`translate` with a :class:`Context`), a capitalised subject that is one of
the chain's classes and none of its names (``Zumpus is a jompus.`` where "Zumpuses are
small" is a premise) is read as the class rule it states; one that is both is refused. A
pronoun outside a rule (``They are sour.``) refers to the chain's subject: the named subject
of the nearest earlier sentence. After a class statement it refers to the named subject
before that only when it cannot mean the class ("he", "she", "it" after a plural class,
"They are a dumpus"); otherwise, and after a sentence about several names, it is refused.

Names: an adjective, noun or verb becomes a predicate named by its lemma with a capital
(``Cold``, ``Jompus``, ``Chase``); a person or ``the …`` phrase becomes a lower-case constant
(``bob``, ``bald_eagle``). "Something", "someone" and the pronouns that refer back to them
are one universally quantified variable; "things" and "people" restrict nothing (ProofWriter
uses them interchangeably). Anything else raises :class:`Untranslatable` naming the sentence:
a guess would make verdicts about a sentence nobody wrote. As a last guard, a formula whose
predicate or constant is a quantifier word or a pronoun (``No``, ``Most``, ``They``) is
refused: such a name means a quantifier was read as a class.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence
from dataclasses import dataclass, replace

from afcheck_fol.formula import (
    And,
    Const,
    Exists,
    Forall,
    Formula,
    Implies,
    Not,
    Pred,
    Term,
    Var,
    constants,
    predicates,
    subformulas,
)


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
_QUANTIFIERS = {"all", "every", "each", "any"}
_ARTICLES = {"a", "an"}
_VAGUE = {"most", "many", "few", "several", "some of", "almost", "nearly", "usually",
          "often", "sometimes", "generally", "typically", "mostly"}
"""Quantity words with no first-order reading."""
_FUNCTION_WORDS = frozenset({
    "no", "not", "some", "most", "only", "all", "every", "each", "nothing", "none", "any",
    "few", "many", "several", "both", "either", "neither", "nobody", "noone", "everything",
    "everyone", "everybody", "something", "someone", "somebody", "anything", "anyone",
    "they", "it", "he", "she", "them", "this", "that", "these", "those", "there", "also",
    "if", "then", "and", "or", "so", "thus", "therefore", "hence", "because", "since",
    "of", "the", "a", "an", "yes", "except", "but", "unless", "besides", "than", "nor",
    "which", "who", "whose", "where", "when",
})
"""Words that name no class or individual: a formula with a predicate or constant of this
name misread a quantifier, a pronoun or a connective."""


@dataclass(frozen=True)
class Context:
    """What a chain tells the translator about one of its sentences.

    ``classes`` are the predicate names the chain uses as classes (``Zumpus``), ``names`` its
    constants (``max``); ``antecedent`` is the named subject of the nearest earlier sentence
    (what a pronoun outside a rule refers to), ``None`` when there is none, and
    ``antecedent_why`` says why (the earlier sentence is about a class, or about several
    names). After a general statement (``after_general``: ``"plural"`` for "Dumpuses are
    wumpuses", ``"singular"`` for "Each dumpus is a wumpus" and conditionals), a pronoun that
    cannot mean the class refers to ``individual``, the named subject before it: "he" or
    "she", "it" after a plural class, "they" before a singular noun ("They are a dumpus")."""

    classes: frozenset[str] = frozenset()
    names: frozenset[str] = frozenset()
    antecedent: Const | None = None
    antecedent_why: str = "no earlier sentence names its subject"
    after_general: str = ""
    individual: Const | None = None


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
    def __init__(self, sentence: str, context: Context | None = None) -> None:
        self.sentence = sentence
        self.context = context
        self.antecedent = context.antecedent if context is not None else None
        """What a pronoun outside a rule refers to (updated clause by clause)."""
        self.mentioned: set[str] = set() if self.antecedent is None else {
            self.antecedent.name}
        """The names the sentence has mentioned so far (with the chain's subject)."""
        self.generic = False
        """The sentence is a rule about "something" or a class: its pronouns are the
        rule's variable. In "If Max is a cat then it is red", "it" is Max."""

    def fail(self, reason: str) -> Untranslatable:
        return Untranslatable(self.sentence, reason)

    # -- subjects --------------------------------------------------------------------------

    def subject(self, words: list[str], variable_ok: bool) -> tuple[Term, int] | None:
        """The subject at the start of ``words`` and how many words it takes."""
        if not words:
            return None
        first = words[0].lower()
        if first in _PRONOUNS and not (variable_ok and self.generic):
            if self.antecedent is not None:
                return self.antecedent, 1
            context = self.context
            if context is not None and context.individual is not None \
                    and _individual(words, context.after_general):
                return context.individual, 1
            why = self.context.antecedent_why if self.context is not None else \
                "the sentence stands alone"
            raise self.fail(f"'{words[0]}' refers to no single named subject ({why})")
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
        if any(w[:1].isupper() for w in words):
            # "Max is red and Rex.": a name is not a property.
            raise self.fail(f"the name '{next(w for w in words if w[:1].isupper())}' where a "
                            "property or class should be")
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
            self.mentioned |= constants(formula)
            # A pronoun later in the sentence refers to the one name mentioned so far; with
            # two ("If the cat likes the dog then it is red") it could be either.
            self.antecedent = Const(next(iter(self.mentioned))) \
                if len(self.mentioned) == 1 else None
            if len(self.mentioned) > 1 and self.context is not None:
                self.context = replace(self.context, antecedent=None, individual=None,
                                       antecedent_why="two names come before it")
            elif len(self.mentioned) > 1:
                self.context = Context(antecedent_why="two names come before it")
        return out


def _individual(words: list[str], after: str) -> bool:
    """Whether the pronoun opening ``words``, after a general statement of number ``after``,
    cannot refer to that statement's class: "he"/"she"; "it" after a plural class; "they"
    with a singular noun ("They are (not) a dumpus")."""
    lowered = [w.lower() for w in words]
    if not after:
        return False
    if lowered[0] in ("he", "she"):
        return True
    if lowered[0] == "it":
        return after == "plural"
    rest = lowered[1:]
    if rest[:1] == ["are"] or rest[:1] == ["is"]:
        rest = rest[1:]
        if rest[:1] == ["not"]:
            rest = rest[1:]
        return rest[:1] in (["a"], ["an"])
    return False


def _number(sentence: str) -> str:
    """``singular`` or ``plural``: how a general statement names its class."""
    words = sentence.lower().split()
    if words[:1] in (["each"], ["every"], ["if"], ["no"], ["nothing"]) or words[1:2] == ["is"]:
        return "singular"
    return "plural"


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
    r"|this means that|it follows that)\s*,?\s+(?P<second>.+)$"
    r"|^(?P<stated>.+?),?\s+(?:because|since|as)\s+(?P<why>.+)$",
    re.IGNORECASE,
)


def translate(sentence: str, context: Context | None = None) -> Formula:
    """The FOL formula of one controlled-English sentence; :class:`Untranslatable` otherwise.

    A model's step often joins a reason and a claim ("Since Max is a yumpus, Max is a
    dumpus.", "Each yumpus is a dumpus, so Max is a dumpus.", "Bob is red because he is
    big."): the step asserts both, so it reads as their conjunction. ``context`` is what the
    chain says about the sentence (classes, names, what a pronoun refers to); without it the
    sentence stands alone.
    """
    read = _read(sentence, context)
    if isinstance(read, _Refusal):
        raise Untranslatable(read.sentence, read.reason)
    return read


def clear_cache() -> None:
    """Forget every kept answer of :func:`translate` (a benchmark's first run starts cold)."""
    _read.cache_clear()


@dataclass(frozen=True)
class _Refusal:
    """Why a sentence has no translation: what :class:`Untranslatable` says."""

    sentence: str
    reason: str


@functools.lru_cache(maxsize=1 << 14)
def _read(sentence: str, context: Context | None) -> Formula | _Refusal:
    """:func:`translate`'s answer, kept: a chain's premises are read twice (alone for its
    context, then in it), and chains of one theory share their premises (ProofWriter's 600
    dev chains have 345 sets of them). A refusal is kept as its words, so that each caller
    raises an exception of its own."""
    try:
        formula = _translate(sentence, context)
    except Untranslatable as exc:
        return _Refusal(exc.sentence, exc.reason)
    for name in (*predicates(formula), *constants(formula)):
        if name.lower() in _FUNCTION_WORDS:
            return _Refusal(sentence, f"'{name}' would be read as a class or a name, but it "
                                     "is a quantifier, pronoun or connective")
    return formula


def _translate(sentence: str, context: Context | None) -> Formula:
    text = sentence.strip().rstrip(".!").strip()
    match = _COMPOUND.match(text)
    if match is not None:
        left = match.group("reason") or match.group("first") or match.group("stated")
        right = match.group("claim") or match.group("second") or match.group("why")
        try:
            first = translate(left, context)
            about = subject_of(first)
            after = context or Context()
            if about is not None:
                after = replace(after, antecedent=about)
            second = translate(right[:1].upper() + right[1:], after)
            # The reason first, then the claim ("Bob is red because he is big").
            return And((second, first) if match.group("stated") else (first, second))
        except Untranslatable:
            pass  # not a reason-and-claim after all ("Red, cold things are round")
    if not text:
        raise Untranslatable(sentence, "empty sentence")
    words = _TOKEN.findall(text)
    if " ".join(w for w in words if w != ",").replace(" ", "") != re.sub(
        r"[\s,]", "", text
    ):
        raise Untranslatable(sentence, "characters outside plain words")
    parse = _Parse(sentence, context)
    lowered = [w.lower() for w in words]
    vague = [w for w in lowered if w in _VAGUE]
    if vague:
        raise parse.fail(f"'{vague[0]}' states a proportion, which first-order logic "
                         "cannot express")
    if lowered[0] == "if":
        return _conditional(parse, words)
    quantified = _quantified(parse, words, lowered)
    if quantified is not None:
        return quantified
    if lowered[0] in _QUANTIFIERS:
        return _class_rule(parse, words[1:], singular=lowered[0] != "all")
    if context is not None and words[0][:1].isupper() and len(words) > 1 \
            and lowered[1] == "is" and _pred_name(lowered[0]) in context.classes:
        # "Zumpus is a jompus.": a class noun written as a name states the class rule.
        if lowered[0] in context.names:
            raise parse.fail(f"'{words[0]}' is both a class and a name in this chain")
        return _class_rule(parse, words, singular=True)
    if lowered[0] in _PRONOUNS:
        found = parse.subject(words, variable_ok=False)
    else:
        verbs = [w for w in lowered if w in _COPULAS | _AUX]
        plural = bool(verbs) and verbs[0] in ("are", "do")
        found = None if plural else parse.subject(words, variable_ok=False)
    if found is not None and len(words) > found[1]:
        clauses = parse.clauses(words, variable_ok=False)
        return _conjoin([c.formula for c in clauses])
    # "Jompuses are shy." / "Red, cold things are round."
    return _class_rule(parse, words, singular=False)


def _quantified(parse: _Parse, words: list[str], lowered: list[str]) -> Formula | None:
    """The quantified class statements (``No``, ``Some``, ``Only``, ``Not all``,
    ``Nothing``, ``Everything``), read exactly; ``None`` for any other sentence."""
    head = lowered[0]
    if head in ("nothing", "nobody") or (head == "no" and len(lowered) > 1
                                         and lowered[1] in ("one", "thing")):
        rest = words[2:] if head == "no" else words[1:]
        return Forall(_X, Not(_conjoin(
            [c.formula for c in parse.clauses(rest, variable_ok=True, default=_X)])))
    if head in ("no", "some", "only") and (len(words) < 3 or not words[1][:1].islower()):
        # "No, Max is not sour." / "Only Max is red.": not a quantified class.
        raise parse.fail(f"'{words[0]}' is not followed by a class")
    if head == "no":
        singular = len(lowered) > 2 and "is" in lowered and (
            "are" not in lowered or lowered.index("is") < lowered.index("are"))
        guard, claim = _class_parts(parse, words[1:], singular)
        return Forall(_X, Implies(guard, Not(claim)))
    if head == "some":
        singular = "is" in lowered and ("are" not in lowered
                                        or lowered.index("is") < lowered.index("are"))
        guard, claim = _class_parts(parse, words[1:], singular)
        return Exists(_X, And((guard, claim)))
    if head == "only":
        guard, claim = _class_parts(parse, words[1:], singular=False)
        return Forall(_X, Implies(claim, guard))
    if head == "not" and len(lowered) > 1 and lowered[1] in ("all", "every", "each"):
        return Not(_class_rule(parse, words[2:], singular=lowered[1] != "all"))
    if head in ("everything", "everyone", "everybody"):
        rest = words[1:]
        return Forall(_X, _conjoin(
            [c.formula for c in parse.clauses(rest, variable_ok=True, default=_X)]))
    if head in ("none", "few", "both", "either", "neither"):
        raise parse.fail(f"'{words[0]}' as a quantifier is outside the grammar")
    return None


def subject_of(formula: Formula) -> Const | None:
    """The one named individual a fact is about (``Max is a dumpus`` → ``max``): the first
    argument of every atom of a quantifier-free formula that names no one else; for a
    conjunction, the one its
    quantifier-free parts agree on (``Each yumpus is red, so Max is red`` is about Max;
    ``The cat likes the dog and the dog is red`` about no single name). ``None``
    otherwise."""
    if isinstance(formula, And):
        found = {subject_of(part) for part in formula.items
                 if not isinstance(part, (Forall, Exists))}
        return found.pop() if len(found) == 1 else None
    atoms = []
    stack: list[Formula] = [formula]
    while stack:
        node = stack.pop()
        if isinstance(node, Pred):
            atoms.append(node)
        elif isinstance(node, Not):
            stack.append(node.body)
        elif isinstance(node, And):
            stack.extend(node.items)
        else:
            return None
    firsts = {atom.args[0] for atom in atoms if atom.args}
    if len(firsts) != 1 or len(atoms) != sum(1 for a in atoms if a.args):
        return None
    (first,) = firsts
    # "Max likes the cat" mentions two names: a pronoun after it could mean either.
    if not isinstance(first, Const) or constants(formula) != {first.name}:
        return None
    return first


def chain_context(premises: Sequence[str]) -> Context:
    """The classes and names of a chain, read from the premises it translates.

    A class is a one-place predicate applied to a variable; a name a constant, except one
    that only ever stands alone as the subject of a one-place fact and spells a class (that
    is the class-noun-as-name form, decided sentence by sentence)."""
    formulas = []
    for sentence in premises:
        try:
            formulas.append(translate(sentence))
        except Untranslatable:
            continue
    classes: set[str] = set()
    names: set[str] = set()
    for formula in formulas:
        for node in subformulas(formula):
            if isinstance(node, Pred) and len(node.args) == 1 and isinstance(node.args[0], Var):
                classes.add(node.name)
    for formula in formulas:
        for node in subformulas(formula):
            if not isinstance(node, Pred):
                continue
            for arg in node.args:
                if isinstance(arg, Const) and (len(node.args) > 1
                                               or _pred_name(arg.name) not in classes):
                    names.add(arg.name)
    return Context(frozenset(classes), frozenset(names))


def translate_chain(sentences: Sequence[str], premise_count: int) -> list[Formula]:
    """Every sentence of a chain (premises first), in order, each in the chain's context
    (:func:`chain_context` of the first ``premise_count``); a pronoun outside a rule refers
    to the named subject of the nearest earlier sentence, or across a general statement when
    it cannot mean its class (:class:`Context`). :class:`Untranslatable` names the
    first sentence outside the grammar."""
    base = chain_context(sentences[:premise_count])
    antecedent: Const | None = None
    individual: Const | None = None
    after = ""
    why = base.antecedent_why
    out: list[Formula] = []
    for sentence in sentences:
        formula = translate(sentence, replace(base, antecedent=antecedent, antecedent_why=why,
                                              after_general=after, individual=individual))
        out.append(formula)
        antecedent = subject_of(formula)
        if antecedent is not None:
            individual, after = antecedent, ""
        elif isinstance(formula, (Forall, Exists)) or (
                isinstance(formula, Not) and isinstance(formula.body, Forall)):
            after = _number(sentence)
            why = "the sentence before it is about a class (a general statement)"
        else:
            individual, after = None, ""
            why = "the sentence before it names no single subject"
    return out


def _conditional(parse: _Parse, words: list[str]) -> Formula:
    lowered = [w.lower() for w in words]
    if "then" not in lowered:
        raise parse.fail("'if' without 'then'")
    cut = lowered.index("then")
    parse.generic = any(w in _GENERIC for w in lowered[1:cut])
    condition = parse.clauses([w for w in words[1:cut] if w != ","], variable_ok=True)
    result = parse.clauses([w for w in words[cut + 1:] if w != ","], variable_ok=True)
    body = Implies(_conjoin([c.formula for c in condition]),
                   _conjoin([c.formula for c in result]))
    return Forall(_X, body) if _mentions_x(body) else body


def _class_rule(parse: _Parse, words: list[str], singular: bool) -> Formula:
    """``[All] A, B things are C`` / ``Each X is [not] [a] C``: ∀x (A(x) ∧ B(x) → C(x))."""
    guard, claim = _class_parts(parse, words, singular)
    return Forall(_X, Implies(guard, claim))


def _class_parts(parse: _Parse, words: list[str], singular: bool) -> tuple[Formula, Formula]:
    """The class (``A(x) ∧ B(x)``) and what is said of it (``C(x)``) of ``A, B things are
    C`` / ``X is [not] [a] C``."""
    lowered = [w.lower() for w in words]
    copula = "is" if singular else "are"
    if copula not in lowered:
        raise parse.fail(f"no '{copula}' in a class rule")
    cut = lowered.index(copula)
    restrictor = [w for w in lowered[:cut] if w not in {",", "and"}]
    if not restrictor:
        raise parse.fail("a class rule without a class")
    named = [w for w in words[1:cut] if w[:1].isupper()]
    if named:
        # "Max and Rex are red": names, not a class.
        raise parse.fail(f"the name '{named[0]}' where a class should be")
    if "and" in lowered[:cut] and (singular or any(
            _is_plural_noun(w) and w not in _KINDS for w in restrictor[:-1])):
        # "Red and cold things" is one class; "Cats and dogs are animals" is two.
        raise parse.fail("'and' joins two classes (each has the property) or two properties "
                         "of one class; the sentence does not say which")
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
    parse.generic = True
    clauses = parse.clauses(rest, variable_ok=True, default=_X)
    if any(c.subject != _X for c in clauses):
        # "Wumpuses are not red, and Max is a wumpus": two statements, not one rule.
        raise parse.fail("a class rule that goes on about another subject")
    return _conjoin(guards), _conjoin([c.formula for c in clauses])
