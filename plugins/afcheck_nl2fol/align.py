"""Equivalence up to a signature alignment: the candidate's names mapped onto the gold's.

On open-vocabulary data (FOLIO) a model names its own predicates and constants, and a
translation that means what the gold means fails exact equivalence for a name alone
(``IsStriker(robertLewandowski)`` against ``Striker(robertLewandowski)``). An *alignment* is a
mapping of the candidate's predicate symbols (name and arity) and constants onto the gold's:

- **one per group** (a story or problem): all the group's items share it, so a model cannot
  rename one way in one sentence and another way in the next;
- **injective** and **arity-preserving**: two candidate symbols never become one gold symbol,
  and a predicate maps only onto one of the same arity;
- **earned**: a renaming is proposed only where a rule accepts it (:func:`_accepts`), each
  naming what it read:

  * *the same name* after normalisation (case, ``_``/``-``/``.``, accents, a leading
    ``Is``/``Are``/``The`` …, plural and verb endings; a letter before a number:
    ``y1984``/``1984``);
  * *meaning*: one name is the other with light words added (``HasFeud``/``Feud``,
    ``CanBlock``/``Block``), or with words the item's sentence or the model's own gloss says
    (``FootballPlayer``/``Player`` for "a football player"); or the model's gloss of its name
    (Logic-LM's ``Works(x) ::: x works in student jobs``) holds every word of the gold's
    name;
  * *respelling*, last: the same words, each spelt within an edit or two
    (``Favourite``/``Favorite``), never one word for another (``City``/``Country``);

  and only between symbols that meet in one item (the candidate's in its translation, the
  gold's in its gold formula): a renaming is a reading of one sentence two ways. Constants
  name individuals by all their words: only the same name is one individual
  (``georgeWashington`` is not ``georgeWashingtonCarver``, ``austria`` not ``australia``);
- **guarded** (:func:`opposed`): never between a name and its negation (``CannotFly``,
  ``NoTakeOutService``, a negating prefix: ``Illegal``, ``Unhappy``, ``Atypical``,
  ``Misinformed``, ``Decaffeinated``, ``Nonprofit``), a name that names something else
  (``FormerPlayer``), two roles of one stem (``Employee``/``Employer``, ``Payer``/``Payee``)
  or opposites (``Male``/``Female``, :data:`ANTONYMS`). The lexical part is a table of rules
  kept here, not a lexical database (see :data:`ANTONYMS`); ``Tall`` never becomes ``Short``;
- **greedy, deterministic**: identical names first, then the stronger rule, then the pair that
  meets in more items, then the closer spelling;
- **optionally judged** (:func:`judge`): a model confirms each renaming; one it does not
  confirm is dropped, and its answer is kept either way. With a judge, names alike in
  spelling that no rule settles (``Roundel``/``Rounded``, ``lewandowsky``/``lewandowski``)
  and predicates named by words of the sentence where they meet (``Rival``/``Feud``) are
  proposed too, for it alone to accept; never a longer name of an individual.

:func:`align` builds the mapping from the group's :class:`Evidence` (:func:`propose`: from
formulas alone); :meth:`Alignment.rename` applies it; the nl2fol decision then asks z3, exactly
as for exact equivalence, whether the renamed candidate is equivalent to a gold formula
(:func:`afcheck_nl2fol.decide.decide`). Symbols no rule maps keep their names.

A candidate equivalent to its gold as written stays equivalent after the renaming: every
renamed symbol has no same-named gold symbol (same-named ones map onto themselves), so the
renaming is a substitution that leaves the gold unchanged, and substitution preserves validity.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from difflib import SequenceMatcher

from afcheck_fol.formula import (
    And,
    Const,
    Eq,
    Exists,
    Forall,
    Formula,
    Iff,
    Implies,
    Not,
    Or,
    Pred,
    Term,
    Truth,
    Xor,
    constants,
    subformulas,
)

THRESHOLD = 0.8
"""Least similarity (difflib's ratio of the normalised names) for a pair proposed by spelling."""

_FILLERS = frozenset({"is", "are", "was", "were", "be", "the", "a", "an"})
"""Leading words a name may carry or drop without changing what it names."""

LIGHT_WORDS = frozenset({"is", "are", "was", "were", "be", "been", "being", "has", "have", "had",
                         "can", "could", "do", "does", "did", "get", "gets", "got", "a", "an",
                         "the", "of", "to", "as", "at", "in", "on", "by"})
"""Words a predicate's name may add to another's without naming something else: ``HasFeud``
is ``Feud``, ``CanBlock`` is ``Block`` (what a sentence says, read two ways)."""

NEGATION_WORDS = frozenset({"not", "no", "non", "never", "without", "cannot", "cant", "dont",
                            "doesnt", "isnt", "arent", "wont", "lack", "lacks", "lacking",
                            "none", "neither", "nor"})
"""Words that make a name its own negation: ``NoTakeOutService``, ``CannotFly``."""

NEGATING_PREFIXES = ("non", "un", "in", "im", "il", "ir", "dis", "mis", "de", "anti", "a", "no")
"""Prefixes that turn a word into its opposite or its negation: ``Illegal``, ``Unhappy``,
``Atypical``, ``Misinformed``, ``Decaffeinated``, ``Nonprofit``."""

ANTONYMS: frozenset[frozenset[str]] = frozenset(frozenset(pair) for pair in (
    ("male", "female"), ("man", "woman"), ("men", "women"), ("boy", "girl"),
    ("husband", "wife"), ("father", "mother"), ("son", "daughter"), ("brother", "sister"),
    ("king", "queen"), ("uncle", "aunt"), ("nephew", "niece"), ("groom", "bride"),
    ("masculine", "feminine"), ("he", "she"), ("his", "her"),
    ("buy", "sell"), ("buyer", "seller"), ("win", "lose"), ("winner", "loser"),
    ("win", "loss"), ("victory", "defeat"), ("lend", "borrow"), ("lender", "borrower"),
    ("give", "receive"), ("give", "take"), ("teach", "learn"), ("teacher", "student"),
    ("parent", "child"), ("host", "guest"), ("predator", "prey"), ("friend", "enemy"),
    ("ally", "enemy"), ("hero", "villain"), ("master", "servant"), ("employer", "worker"),
    ("tall", "short"), ("long", "short"), ("big", "small"), ("large", "small"),
    ("big", "little"), ("old", "young"), ("old", "new"), ("hot", "cold"), ("warm", "cold"),
    ("high", "low"), ("happy", "sad"), ("good", "bad"), ("good", "evil"), ("alive", "dead"),
    ("live", "die"), ("living", "dead"), ("open", "closed"), ("open", "close"),
    ("true", "false"), ("before", "after"), ("above", "below"), ("over", "under"),
    ("inside", "outside"), ("indoor", "outdoor"), ("love", "hate"), ("like", "hate"),
    ("accept", "reject"), ("include", "exclude"), ("increase", "decrease"),
    ("import", "export"), ("pass", "fail"), ("success", "failure"), ("present", "absent"),
    ("rich", "poor"), ("wealthy", "poor"), ("strong", "weak"), ("fast", "slow"),
    ("quick", "slow"), ("early", "late"), ("light", "dark"), ("light", "heavy"),
    ("wet", "dry"), ("full", "empty"), ("first", "last"), ("north", "south"),
    ("east", "west"), ("left", "right"), ("up", "down"), ("top", "bottom"),
    ("front", "back"), ("day", "night"), ("summer", "winter"), ("morning", "evening"),
    ("major", "minor"), ("maximum", "minimum"), ("max", "min"), ("most", "least"),
    ("more", "less"), ("more", "fewer"), ("many", "few"), ("all", "none"), ("all", "some"),
    ("always", "never"), ("positive", "negative"), ("public", "private"),
    ("domestic", "foreign"), ("native", "foreign"), ("internal", "external"),
    ("input", "output"), ("push", "pull"), ("start", "end"), ("begin", "end"),
    ("enter", "exit"), ("arrive", "depart"), ("attack", "defend"), ("offense", "defense"),
    ("safe", "dangerous"), ("healthy", "sick"), ("healthy", "ill"), ("guilty", "innocent"),
    ("cheap", "expensive"), ("easy", "hard"), ("easy", "difficult"), ("same", "different"),
    ("similar", "different"), ("urban", "rural"), ("online", "offline"), ("remote", "local"),
    ("wild", "domestic"), ("wild", "tame"), ("clean", "dirty"), ("rough", "smooth"),
    ("soft", "hard"), ("thick", "thin"), ("fat", "thin"), ("wide", "narrow"),
    ("deep", "shallow"), ("loud", "quiet"), ("noisy", "quiet"), ("sweet", "sour"),
    ("sweet", "bitter"), ("friendly", "hostile"), ("agree", "disagree"), ("allow", "forbid"),
    ("permit", "forbid"), ("pro", "con"), ("plus", "minus"), ("add", "remove"),
    ("odd", "even"), ("prime", "composite"), ("vegetarian", "carnivore"),
    ("herbivore", "carnivore"), ("import", "export"), ("senior", "junior"),
    ("elder", "younger"), ("older", "younger"), ("inner", "outer"), ("upper", "lower"),
    ("predecessor", "successor"), ("past", "future"), ("ancient", "modern"),
    ("amateur", "professional"), ("expert", "novice"), ("student", "teacher"),
    ("visible", "invisible"), ("asleep", "awake"), ("sleep", "wake"), ("on", "off"),
    ("in", "out"), ("win", "lost"), ("won", "lost"), ("gain", "loss"), ("profit", "loss"),
    ("introvert", "extrovert"), ("from", "to"), ("sender", "recipient"), ("cause", "effect"),
    ("question", "answer"), ("ask", "answer"), ("attacker", "defender"), ("min", "max"),
))
"""Pairs of words that name opposites, for names no rule of form tells apart. The table is
the guard's lexical part: the maintained WordNet interfaces on the package index (``wn``,
``nltk``) fetch their data at run time, which an offline run cannot, and no maintained
package ships it; so afcheck keeps its own table, and any pair it lacks stays a question for
the judge (:func:`judge`)."""

PRIVATIVE_WORDS = frozenset({"former", "ex", "fake", "false", "pseudo", "quasi", "mock",
                             "alleged", "potential", "would", "almost", "nearly", "half",
                             "semi", "counterfeit", "imitation", "toy", "fictional", "virtual",
                             "artificial", "future", "past", "previous", "retired"})
"""Words that make a name name something else: a ``FormerPlayer`` is no ``Player``."""

ROLE_SUFFIXES = (("ee", "er"), ("ee", "or"), ("ess", "er"), ("ress", "or"), ("ess", "e"),
                 ("ess", ""))
"""Endings that tell two roles of one stem apart: ``Employee``/``Employer``,
``Payee``/``Payer``, ``Lessee``/``Lessor``, ``Waitress``/``Waiter``, ``Actress``/``Actor``,
``Princess``/``Prince``, ``Hostess``/``Host``."""

Symbol = tuple[str, int]
"""A predicate symbol: name and arity."""


def normalised(name: str) -> str:
    """``name`` as names are compared: accents dropped, split into words (CamelCase, ``_``,
    ``-``, ``.``, digits), leading filler words dropped, lower case, joined."""
    return "".join(_words(name))


def _words(name: str) -> list[str]:
    decomposed = unicodedata.normalize("NFKD", name)
    plain = "".join(c for c in decomposed if not unicodedata.combining(c))
    words = [w.lower() for w in re.findall(r"[A-Z]+(?![a-z])|[A-Z]?[a-z]+|[^\W\d_]+|\d+",
                                           plain)]
    while len(words) > 1 and words[0] in _FILLERS:
        words.pop(0)
    return words


def stem(word: str) -> str:
    """A word without its plural or verb ending (``drugs`` → ``drug``, ``studies`` and
    ``study`` → ``study``, ``movies`` and ``movie`` → ``movy``), so that ``IllegalDrugs`` and
    ``LegalDrug`` compare word by word. Only for comparing: both sides are stemmed alike."""
    for ending, keep in (("sses", "ss"), ("xes", "x"), ("ches", "ch"), ("shes", "sh")):
        if word.endswith(ending) and len(word) > len(ending) + 2:
            return word[: -len(ending)] + keep
    if word.endswith("s") and not word.endswith(("ss", "us", "is")) and len(word) > 3:
        word = word[:-1]
    elif word.endswith("ing") and len(word) > 5:
        word = word[:-3]
    elif word.endswith("ed") and len(word) > 4 and not word.endswith("eed"):
        word = word[:-2]
    return word[:-2] + "y" if word.endswith("ie") and len(word) > 3 else word


def name_words(name: str) -> tuple[str, ...]:
    """The words of a name, stemmed: ``HasFeuds`` → ``("has", "feud")``."""
    return tuple(stem(w) for w in _words(name))


def text_words(text: str) -> set[str]:
    """The stemmed words of a sentence or a gloss (``take-out`` gives ``take`` and ``out``)."""
    decomposed = unicodedata.normalize("NFKD", text)
    plain = "".join(c for c in decomposed if not unicodedata.combining(c))
    return {stem(w) for w in re.findall(r"[a-z]+", plain.lower())}


def opposed(left: str, right: str) -> str:
    """Why two names cannot name the same thing, or empty: one negates the other
    (``CannotFly``/``CanFly``, ``NoTakeOutService``/``TakeOutService``, a negating prefix:
    ``Illegal``, ``Unhappy``, ``Atypical``, ``Misinformed``, ``Decaffeinated``), one adds a
    word that makes it name something else (``FormerPlayer``, :data:`PRIVATIVE_WORDS`), they
    name two roles of one stem (``Employee``/``Employer``), or two of their words are
    opposites (``Male``/``Female``, :data:`ANTONYMS`)."""
    a, b = name_words(left), name_words(right)
    only_a = [w for w in a if w not in b]
    only_b = [w for w in b if w not in a]
    for word in (*only_a, *only_b):
        if word in NEGATION_WORDS:
            return f"negation: {word!r}"
        if word in PRIVATIVE_WORDS:
            return f"a word that makes it name something else: {word!r}"
    whole_a, whole_b = "".join(a), "".join(b)
    for x, y in ((whole_a, whole_b), (whole_b, whole_a), *[(p, q) for p in only_a
                                                            for q in only_b],
                 *[(q, p) for p in only_a for q in only_b]):
        for prefix in NEGATING_PREFIXES:
            if x == prefix + y and len(y) > 2:
                return f"negating prefix {prefix!r}-: {x!r} against {y!r}"
        for one, other in ROLE_SUFFIXES:
            if x.endswith(one) and len(x) > len(one) + 2 and (
                    y == x[: -len(one)] + other) and x != y:
                return f"two roles of one stem: {x!r} against {y!r}"
        if frozenset((x, y)) in ANTONYMS:
            return f"opposites: {x!r} against {y!r}"
    return ""


def similarity(left: str, right: str) -> float:
    """How alike two names are, from 0 to 1 (1: the same after :func:`normalised`).

    Two names that one negates the other or that name opposites (:func:`opposed`:
    ``Happy``/``Unhappy``, ``Male``/``Female``) or differ in their numbers
    (``gpt3``/``gpt4``) name different things, however alike they look: 0.
    """
    a, b = normalised(left), normalised(right)
    if a == b:
        return 1.0
    if opposed(left, right):
        return 0.0
    numbers_a, numbers_b = re.findall(r"\d+", a), re.findall(r"\d+", b)
    if numbers_a and numbers_b and numbers_a != numbers_b:
        return 0.0
    return SequenceMatcher(None, a, b).ratio()


_GLOSS = re.compile(r"^\s*(?:[-*]\s*)?(?P<name>[A-Za-z][\w-]*)\s*\((?P<args>[^()]*)\)\s*:::\s*"
                    r"(?P<text>.+?)\s*$", re.MULTILINE)


def glosses(raw: str) -> dict[str, str]:
    """What a model says its predicates mean, from its own output: Logic-LM's declarations
    ``Dependent(x) ::: x is a person dependent on caffeine`` (an atom alone before ``:::``).
    The first gloss of a name wins."""
    found: dict[str, str] = {}
    for match in _GLOSS.finditer(raw):
        found.setdefault(match.group("name"), match.group("text"))
    return found


@dataclass(frozen=True)
class Evidence:
    """What one item tells the alignment: the candidate's formula, the gold formulas, the
    sentence both translate, and the model's glosses of its names."""

    candidate: Formula
    golds: tuple[Formula, ...]
    sentence: str = ""
    glosses: Mapping[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class Alignment:
    """The renamings of one group: candidate symbol → gold symbol, identities left out, each
    with what accepted it."""

    group: str
    predicates: tuple[tuple[Symbol, str], ...] = ()
    """``((name, arity), gold name)``: the gold symbol has the same arity."""
    constants: tuple[tuple[str, str], ...] = ()
    why: tuple[tuple[str, str], ...] = ()
    """``(key, reason)`` for each renaming (key ``Name/arity`` for a predicate, the name for
    a constant): the rule that proposed it and, where a judge was asked, its answer."""
    rejected: tuple[tuple[str, str], ...] = ()
    """``(renaming, why)`` for each renaming a judge refused (``Feud/2 → HasFeud``)."""

    @property
    def empty(self) -> bool:
        return not self.predicates and not self.constants

    def rename(self, formula: Formula) -> Formula:
        """``formula`` with every mapped symbol replaced by its gold counterpart."""
        return _rename(formula, dict(self.predicates), dict(self.constants))

    def restricted(self, formula: Formula) -> Alignment:
        """The renamings of the symbols ``formula`` uses (what one item shows)."""
        used = {(n.name, len(n.args)) for n in subformulas(formula) if isinstance(n, Pred)}
        names = constants(formula)
        predicates = tuple(p for p in self.predicates if p[0] in used)
        kept = tuple(c for c in self.constants if c[0] in names)
        keys = {f"{n}/{a}" for (n, a), _ in predicates} | {c for c, _ in kept}
        own = {f"{n}/{a}" for n, a in used} | names
        return replace(self, predicates=predicates, constants=kept,
                       why=tuple(w for w in self.why if w[0] in keys),
                       rejected=tuple(r for r in self.rejected
                                      if r[0].split(" → ")[0] in own))

    def reason(self, key: str) -> str:
        return dict(self.why).get(key, "")

    def describe(self) -> str:
        """``IsStriker/1 → Striker, y1984 → 1984`` (``(none)`` when nothing is renamed)."""
        parts = [f"{name}/{arity} → {gold}" for (name, arity), gold in self.predicates]
        parts += [f"{name} → {gold}" for name, gold in self.constants]
        return ", ".join(parts) or "(none)"

    def explain(self) -> list[str]:
        """One line per renaming with what accepted it (where known: a result file written
        before renamings said has none); then each one a judge refused."""
        lines = [f"{name}/{arity} → {gold}: {self.reason(f'{name}/{arity}')}"
                 for (name, arity), gold in self.predicates if self.reason(f"{name}/{arity}")]
        lines += [f"{name} → {gold}: {self.reason(name)}" for name, gold in self.constants
                  if self.reason(name)]
        lines += [f"not renamed {pair}: {why}" for pair, why in self.rejected]
        return lines

    def to_json(self) -> dict[str, object]:
        return {
            "group": self.group,
            "predicates": [{"from": name, "arity": arity, "to": gold,
                            "by": self.reason(f"{name}/{arity}")}
                           for (name, arity), gold in self.predicates],
            "constants": [{"from": name, "to": gold, "by": self.reason(name)}
                          for name, gold in self.constants],
            "rejected": [{"renaming": pair, "why": why} for pair, why in self.rejected],
        }

    @classmethod
    def from_json(cls, data: Mapping[str, object]) -> Alignment:
        """The alignment :meth:`to_json` wrote (entries of the wrong shape are skipped)."""
        raw_predicates = data.get("predicates")
        raw_constants = data.get("constants")
        raw_rejected = data.get("rejected")
        found: list[tuple[Symbol, str]] = []
        why: list[tuple[str, str]] = []
        for entry in raw_predicates if isinstance(raw_predicates, list) else []:
            if isinstance(entry, dict) and isinstance(entry.get("arity"), int):
                found.append(((str(entry.get("from")), int(entry["arity"])),
                              str(entry.get("to"))))
                if entry.get("by"):
                    why.append((f"{entry.get('from')}/{entry['arity']}", str(entry["by"])))
        names = []
        for entry in raw_constants if isinstance(raw_constants, list) else []:
            if isinstance(entry, dict):
                names.append((str(entry.get("from")), str(entry.get("to"))))
                if entry.get("by"):
                    why.append((str(entry.get("from")), str(entry["by"])))
        rejected = tuple((str(e.get("renaming")), str(e.get("why")))
                         for e in (raw_rejected if isinstance(raw_rejected, list) else [])
                         if isinstance(e, dict))
        return cls(str(data.get("group") or ""), tuple(found), tuple(names), tuple(why),
                   rejected)


def symbols(formulas: Iterable[Formula]) -> tuple[set[Symbol], set[str]]:
    """The predicate symbols (name, arity) and the constants of ``formulas``."""
    found: set[Symbol] = set()
    names: set[str] = set()
    for formula in formulas:
        for node in subformulas(formula):
            if isinstance(node, Pred):
                found.add((node.name, len(node.args)))
        names |= constants(formula)
    return found, names


def propose(group: str, candidates: Sequence[Formula], golds: Sequence[Formula]) -> Alignment:
    """The group's mapping from its candidates and golds alone, as if they were one item
    (no sentence, no gloss): :func:`align` with that one piece of evidence."""
    return align(group, [Evidence(c, tuple(golds)) for c in candidates] if candidates else [])


def align(group: str, items: Sequence[Evidence], judged: bool = False) -> Alignment:
    """The group's one mapping of the candidates' symbols onto the golds' (module docstring).

    A pair is proposed only when a rule accepts it (:func:`_accepts`) and the guard does not
    refuse it (:func:`opposed`); among the accepted pairs, same names first, then the
    stronger rule, then the pair used together in more items, then the closer spelling
    (greedy, injective, deterministic). ``judged``: a judge will confirm each renaming, so
    names alike in spelling that no rule settles are proposed too, for it to decide."""
    uses: dict[object, set[int]] = {}
    golds_of: dict[object, set[int]] = {}
    for index, evidence in enumerate(items):
        cand_predicates, cand_constants = symbols([evidence.candidate])
        gold_predicates, gold_constants = symbols(evidence.golds)
        for symbol in (*cand_predicates, *cand_constants):
            uses.setdefault(symbol, set()).add(index)
        for symbol in (*gold_predicates, *gold_constants):
            golds_of.setdefault(symbol, set()).add(index)
    cand_predicates, cand_constants = symbols(e.candidate for e in items)
    gold_predicates, gold_constants = symbols(g for e in items for g in e.golds)
    own_glosses: dict[str, str] = {}
    for evidence in items:
        for name, text in evidence.glosses.items():
            own_glosses.setdefault(name, text)

    def context(c: object, g: object) -> tuple[set[int], str]:
        shared = uses.get(c, set()) & golds_of.get(g, set())
        return shared, " ".join(items[i].sentence for i in sorted(shared))

    scored: list[tuple[tuple[float, ...], str, str, object, object, str]] = []
    for cp in cand_predicates:
        for gp in gold_predicates:
            if cp[1] != gp[1]:
                continue
            shared, sentences = context(cp, gp)
            found = _accepts(cp[0], gp[0], shared, sentences, own_glosses.get(cp[0], ""),
                             predicate=True)
            if found is not None and (judged or found[0] > FOR_JUDGE):
                scored.append(((-found[0], -len(shared), -similarity(cp[0], gp[0])),
                               cp[0], gp[0], cp, gp, found[1]))
    for cc in cand_constants:
        for gc in gold_constants:
            shared, sentences = context(cc, gc)
            found = _accepts(cc, gc, shared, sentences, "", predicate=False)
            if found is not None and (judged or found[0] > FOR_JUDGE):
                scored.append(((-found[0], -len(shared), -similarity(cc, gc)), cc, gc, cc, gc,
                               found[1]))
    # Fully ordered (arities too), so the matching never depends on set order.
    scored.sort(key=lambda entry: (entry[0], entry[1], entry[2], str(entry[3]), str(entry[4])))
    taken: set[object] = set()
    predicate_pairs: list[tuple[Symbol, str]] = []
    constant_pairs: list[tuple[str, str]] = []
    why: list[tuple[str, str]] = []
    for _, _, _, c, g, reason in scored:
        if ("c", c) in taken or ("g", g) in taken:
            continue
        taken |= {("c", c), ("g", g)}
        if c == g:
            continue
        if isinstance(c, tuple) and isinstance(g, tuple):
            predicate_pairs.append((c, g[0]))
            why.append((f"{c[0]}/{c[1]}", reason))
        elif isinstance(c, str) and isinstance(g, str):
            constant_pairs.append((c, g))
            why.append((c, reason))
    return Alignment(group, tuple(sorted(predicate_pairs)), tuple(sorted(constant_pairs)),
                     tuple(sorted(why)))


IDENTICAL, SAME, MEANING, SPELLING, FOR_JUDGE = 4.0, 3.0, 2.0, 1.0, 0.5
"""How strongly a rule speaks for a pair (the greedy matching's first key)."""


def _accepts(cand: str, gold: str, shared: set[int], sentences: str, gloss: str, *,
             predicate: bool) -> tuple[float, str] | None:
    """The rule that accepts mapping ``cand`` onto ``gold``, or ``None``.

    ``shared``: the items whose candidate uses ``cand`` and whose gold uses ``gold`` (a
    renaming is a reading of the same sentence, so the two must meet in one); ``sentences``
    their text; ``gloss``: what the model said ``cand`` means."""
    if cand == gold:
        return IDENTICAL, "the same name"
    a, b = normalised(cand), normalised(gold)
    if a == b and _marks(cand) == _marks(gold):
        return SAME, "the same name up to case, separators, accents and a leading 'is'"
    if not shared:
        return None
    guard = opposed(cand, gold)
    if guard:
        return None
    if not predicate:
        # An individual is named by all its words: australia is not austria, and
        # georgeWashington is not georgeWashingtonCarver. Only a letter before a number
        # (y1984 for 1984) is spelling.
        if re.search(r"\d", a) and _marks(cand) == _marks(gold) and \
                re.sub(r"^[a-z](?=\d)", "", a) == re.sub(r"^[a-z](?=\d)", "", b):
            return SAME, "the same number"
        if _extension(name_words(cand), name_words(gold)) is None and \
                _marks(cand) == _marks(gold) and similarity(cand, gold) >= THRESHOLD:
            # A respelt name (lewandowsky) or another individual (austria for australia):
            # no rule tells them apart, only a judge may say.
            return FOR_JUDGE, (f"similar spelling ({similarity(cand, gold):.2f}) in the same "
                               "sentence, which no rule settles")
        return None
    words_c, words_g = name_words(cand), name_words(gold)
    if words_c == words_g or stem(a) == stem(b):  # AMCs/AMC: one word to the reader
        return SAME, "the same words up to plural and verb endings"
    extra = _extension(words_c, words_g)
    if extra is not None:
        heavy = [w for w in extra if w not in LIGHT_WORDS]
        if not heavy:
            return MEANING, f"one name is the other with {' '.join(extra)!r} added"
        said = text_words(sentences) | text_words(gloss)
        if all(w in said for w in heavy):
            source = "the sentence" if all(w in text_words(sentences) for w in heavy) \
                else "the model's gloss"
            return MEANING, (f"one name is the other with {' '.join(heavy)!r} added, which "
                             f"{source} says")
    if gloss:
        glossed = text_words(gloss)
        if set(words_g) - LIGHT_WORDS <= glossed and set(words_g) - LIGHT_WORDS and not (
                glossed & NEGATION_WORDS and not set(words_g) & NEGATION_WORDS):
            return MEANING, f"the model's gloss {gloss!r} names {gold!r}"
    respelt = _respelt(words_c, words_g)
    if respelt and similarity(cand, gold) >= THRESHOLD:
        return SPELLING, f"the same words spelt differently ({respelt}), in the same sentence"
    if similarity(cand, gold) >= THRESHOLD:
        # Alike, but no rule can tell a respelling from another word: only a judge may say.
        return FOR_JUDGE, (f"similar spelling ({similarity(cand, gold):.2f}) in the same "
                           "sentence, which no rule settles")
    said = text_words(sentences)
    own = set(words_c) - LIGHT_WORDS
    theirs = set(words_g) - LIGHT_WORDS
    if own and theirs and own <= said | text_words(gloss) and theirs <= said:
        # Two words of one sentence (Rival/Feud for "Ann is Bo's rival in a feud"): they may
        # name one thing or two; only a judge may say.
        return FOR_JUDGE, ("both names are words of the same sentence, which no rule "
                           "settles")
    return None


def _respelt(one: tuple[str, ...], other: tuple[str, ...]) -> str:
    """The words two names spell differently (``favourite``/``favorite``), where each is
    a respelling: the same first letter, one letter more or less (up to two edits in a word
    of 8 letters or more); empty where a word is replaced (``Chess``/``Chest``,
    ``City``/``Country``, ``From``/``To``, ``PlanA``/``PlanB``) or added
    (``Roundel``/``Rounded``)."""
    if len(one) != len(other):
        return ""
    pairs = [(a, b) for a, b in zip(one, other, strict=True) if a != b]
    for a, b in pairs:
        if a[0] != b[0] or min(len(a), len(b)) < 4:
            return ""
        if max(len(a), len(b)) >= 8:
            if _edits(a, b) > 2:
                return ""
        elif abs(len(a) - len(b)) != 1 or _edits(a, b) != 1:
            # A short word with a letter replaced is often another word (chess/chest).
            return ""
    return ", ".join(f"{a}/{b}" for a, b in pairs)


def _edits(a: str, b: str) -> int:
    """Levenshtein distance."""
    previous = list(range(len(b) + 1))
    for i, x in enumerate(a, 1):
        current = [i]
        for j, y in enumerate(b, 1):
            current.append(min(previous[j] + 1, current[j - 1] + 1,
                               previous[j - 1] + (x != y)))
        previous = current
    return previous[-1]


def _marks(name: str) -> str:
    """The characters of a name that are neither letters, digits nor separators: ``a+`` is
    not ``a``, ``c++`` not ``c``."""
    return re.sub(r"[\w\s.\-]", "", name)


def _extension(one: tuple[str, ...], other: tuple[str, ...]) -> tuple[str, ...] | None:
    """The words the longer name adds, where the shorter one's words are a run of it
    (``Player`` in ``FootballPlayer``), else ``None``."""
    short, long = sorted((one, other), key=len)
    if not short or len(short) == len(long) or all(w in LIGHT_WORDS for w in short):
        return None
    for start in range(len(long) - len(short) + 1):
        if long[start:start + len(short)] == short:
            return long[:start] + long[start + len(short):]
    return None


JUDGE_SYSTEM = ("You check a renaming between two first-order translations of the same "
                "sentences. Answer 'yes' if the two names mean the same thing in these "
                "sentences, 'no' if they do not (a negation, an opposite, another individual "
                "or another property), then give one short reason.")


def judge_prompt(alignment: Alignment, key: str, gold: str, sentences: str,
                 gloss: str) -> str:
    """The question a judge answers about one renaming."""
    kind = "predicate" if "/" in key else "constant"
    lines = [f"Sentences: {sentences or '(none)'}",
             f"The model's {kind}: {key}" + (f" (the model's gloss: {gloss})" if gloss else ""),
             f"The reference's {kind}: {gold}",
             f"Proposed because: {alignment.reason(key)}",
             "Do the two names mean the same thing here? Answer yes or no, then why."]
    return "\n".join(lines)


def verdict_of(answer: str) -> bool | None:
    """A judge's yes (``True``) or no (``False``), from its first word; ``None`` when it
    says neither."""
    match = re.match(r"\W*(yes|no)\b", answer.strip().lower())
    return None if match is None else match.group(1) == "yes"


def judge(alignment: Alignment, items: Sequence[Evidence],
          ask: Callable[[list[str]], list[str]]) -> Alignment:
    """``alignment`` with only the renamings a judge confirms, each with its answer kept.

    ``ask`` sends the questions (:func:`questions`) to the judge, all in one call, and
    returns its answers in order. A renaming stays only on a clear ``yes``; a ``no`` or an
    answer that is neither drops it (the aligned figure is then the smaller, never wrong by
    a guess), and the answer is kept in :attr:`Alignment.rejected`."""
    asked = questions(alignment, items)
    return confirmed(alignment, ask(asked) if asked else [])


def _entries(alignment: Alignment) -> list[tuple[str, str, Symbol | str]]:
    entries: list[tuple[str, str, Symbol | str]] = [
        (f"{name}/{arity}", gold, (name, arity)) for (name, arity), gold in alignment.predicates]
    entries += [(name, gold, name) for name, gold in alignment.constants]
    return entries


def questions(alignment: Alignment, items: Sequence[Evidence]) -> list[str]:
    """One question per renaming of ``alignment`` (:func:`judge_prompt`), in its order."""
    asked = []
    for key, gold, symbol in _entries(alignment):
        name = symbol[0] if isinstance(symbol, tuple) else symbol
        sentences = " ".join(e.sentence for e in items
                             if name in _names(e.candidate) and e.sentence)
        gloss = next((e.glosses[name] for e in items if name in e.glosses), "")
        asked.append(judge_prompt(alignment, key, gold, sentences, gloss))
    return asked


def confirmed(alignment: Alignment, answers: Sequence[str]) -> Alignment:
    """``alignment`` as the judge's ``answers`` (one per question, in order) leave it."""
    kept_p: list[tuple[Symbol, str]] = []
    kept_c: list[tuple[str, str]] = []
    why: list[tuple[str, str]] = []
    rejected: list[tuple[str, str]] = []
    for (key, gold, symbol), answer in zip(_entries(alignment), answers, strict=True):
        said = " ".join(answer.split())[:300]
        if verdict_of(answer) is True:
            why.append((key, f"{alignment.reason(key)}; judge: {said}"))
            if isinstance(symbol, tuple):
                kept_p.append((symbol, gold))
            else:
                kept_c.append((symbol, gold))
        else:
            rejected.append((f"{key} → {gold}", f"judge: {said or '(no answer)'}"))
    return replace(alignment, predicates=tuple(kept_p), constants=tuple(kept_c),
                   why=tuple(why), rejected=tuple(rejected))


def _names(formula: Formula) -> set[str]:
    return {n.name for n in subformulas(formula) if isinstance(n, Pred)} | constants(formula)


def _rename(node: Formula, predicates: Mapping[Symbol, str], names: Mapping[str, str]) -> Formula:
    def term(t: Term) -> Term:
        return Const(names.get(t.name, t.name)) if isinstance(t, Const) else t

    if isinstance(node, Pred):
        return Pred(predicates.get((node.name, len(node.args)), node.name),
                    tuple(term(a) for a in node.args))
    if isinstance(node, Eq):
        return Eq(term(node.left), term(node.right))
    if isinstance(node, Truth):
        return node
    if isinstance(node, Not):
        return Not(_rename(node.body, predicates, names))
    if isinstance(node, And):
        return And(tuple(_rename(i, predicates, names) for i in node.items))
    if isinstance(node, Or):
        return Or(tuple(_rename(i, predicates, names) for i in node.items))
    if isinstance(node, (Xor, Implies, Iff)):
        return type(node)(_rename(node.left, predicates, names),
                          _rename(node.right, predicates, names))
    if isinstance(node, (Forall, Exists)):
        return type(node)(node.var, _rename(node.body, predicates, names))
    raise AssertionError(f"unknown formula node {type(node).__name__}")
