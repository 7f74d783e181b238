"""The nl2fol signature alignment on FOLIO's own names: true renamings aligned, false ones not.

For every story of ``$AFCHECK_DATA_DIR/folio/folio-train.jsonl`` whose gold formulas parse,
one of its predicates (the one its premises use most, ties by name) is renamed in every gold
formula of the story, and the renamed golds are judged as a model's candidates, story by
story, exactly as a run judges them (:func:`afcheck_nl2fol.pipeline.align_groups`, then
:func:`afcheck_nl2fol.decide.decide`):

- *true renamings*, as models write them (``HasX``, ``IsX``, ``X`` in snake case, a noun's
  plural):
  the aligned figure should count each item right;
- *false renamings*, which name another thing (``NotX``, ``NonX``, ``UnX``, ``CannotX``,
  ``FormerX``): the aligned figure must count none right, although renaming them back would.

Prints ``name value target``: the share of renamed items aligned right, per kind (of the
items wrong as written: an item the renamed predicate does not matter to is left out).
``--quick``: the first 60 stories.
"""

from __future__ import annotations

import os
import re
import sys
from collections import Counter
from collections.abc import Callable
from pathlib import Path

from afcheck_fol.formula import Pred, subformulas
from afcheck_fol.printer import folio as printed
from afcheck_nl2fol.align import Alignment
from afcheck_nl2fol.decide import decide
from afcheck_nl2fol.pipeline import align_groups
from afcheck_nl2fol.records import CORRECT, Candidate
from afcheck_nl2fol.suite import Item, folio_path, load_folio

ROOT = Path(__file__).resolve().parent.parent


def _snake(name: str) -> str:
    words = re.findall(r"[A-Z]+(?![a-z])|[A-Z]?[a-z]+|\d+", name)
    return "_".join([words[0], *(w.lower() for w in words[1:])]) if words else name


def _plural(name: str) -> str:
    """The plural of a name that is a noun (``Movies``); ``None`` for any other name."""
    if re.search(r"(?:ed|ing|s|[A-Z][a-z]?|In|On|At|By|As|Of|To|For|With|From)$", name):
        return name
    return name + ("es" if name.endswith(("s", "x", "ch", "sh")) else "s")


TRUE: dict[str, Callable[[str], str]] = {
    "has": lambda n: f"Has{n}", "is": lambda n: f"Is{n}", "snake": _snake, "plural": _plural,
}
FALSE: dict[str, Callable[[str], str]] = {
    "not": lambda n: f"Not{n}", "non": lambda n: f"Non{n[0].lower()}{n[1:]}",
    "un": lambda n: f"Un{n[0].lower()}{n[1:]}", "cannot": lambda n: f"Cannot{n}",
    "former": lambda n: f"Former{n}",
}


def _stories(quick: bool) -> list[list[Item]]:
    path = folio_path(os.environ.get("AFCHECK_DATA_DIR", str(ROOT.parent / "shared" / "data")))
    if path is None:
        return []
    groups: dict[str, list[Item]] = {}
    for item in load_folio(path).items:
        groups.setdefault(item.group, []).append(item)
    stories = [items for items in groups.values() if all(i.formulas for i in items)]
    return stories[:60] if quick else stories


def _renamed_share(stories: list[list[Item]], rename: Callable[[str], str]) -> tuple[int, int]:
    """(items aligned right, items that use the renamed predicate and are wrong as written)."""
    right = total = 0
    for items in stories:
        uses = Counter((n.name, len(n.args)) for i in items for f in i.formulas
                       for n in subformulas(f) if isinstance(n, Pred))
        (name, arity), _ = min(uses.items(), key=lambda e: (-e[1], e[0]))
        new = rename(name)
        if new == name or any(n == new for n, _ in uses):
            continue
        mapping = Alignment("", ((((name, arity)), new),))
        candidates = [Candidate(i.id, printed(mapping.rename(i.formulas[0]))) for i in items]
        alignments = align_groups(items, candidates)
        for item, candidate, alignment in zip(items, candidates, alignments, strict=True):
            if candidate.formula == printed(item.formulas[0]):
                continue  # the item does not use the renamed predicate
            decision = decide(item, candidate, alignment=alignment)
            if decision.status == CORRECT:
                continue  # right as written (the renamed predicate does not matter to it)
            total += 1
            right += decision.aligned_decision == CORRECT
    return right, total


def main(quick: bool) -> None:
    stories = _stories(quick)
    if not stories:
        print("# skipped: no folio/folio-train.jsonl under AFCHECK_DATA_DIR", file=sys.stderr)
        print("align_true_renamings_aligned nan 1")
        print("align_false_renamings_aligned nan 0")
        return
    print(f"align_folio_stories {len(stories)} -")
    for kinds, target, figure in ((TRUE, "1", "true"), (FALSE, "0", "false")):
        right = total = 0
        for name, rename in kinds.items():
            got, of = _renamed_share(stories, rename)
            print(f"# {figure} renaming {name}: {got}/{of} items aligned right", file=sys.stderr)
            right, total = right + got, total + of
        print(f"align_{figure}_renamings_aligned {right / max(1, total):.4f} {target}")


if __name__ == "__main__":
    main("--quick" in sys.argv)
