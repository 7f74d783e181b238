"""The seed's NL2FOL prompt (Fig. 3): what the chains method asks a model, one per chain.

Premises go under ``Premises:``; the kept steps and then the conclusion under
``Conclusions:`` (the seed translates them in one pass, so names agree). The model answers one
line per sentence, ``formula ::: (index) sentence``, in FOLIO's Unicode syntax; a line per
sentence is required, in order (read by :func:`afcheck_fol.formaliser.read_answer`). Retries
(a new seed per attempt, no feedback, as in the seed) are the method's business.
"""

from __future__ import annotations

from afcheck_chains.records import ChainRecord

TASK = "Parse the given premises and conclusions into first-order logic formulas."

RULES = """### Rules
1. Each sentence must be converted into a single FOL formula.
2. Use the following FOL syntax: logical conjunction of expr1 and expr2: expr1 ∧ expr2; \
logical disjunction of expr1 and expr2: expr1 ∨ expr2; logical exclusive disjunction of expr1 \
and expr2: expr1 ⊕ expr2; logical negation of expr1: ¬expr1; expr1 implies expr2: \
expr1 → expr2; expr1 if and only if expr2: expr1 ↔ expr2; logical universal quantification: \
∀x; logical existential quantification: ∃x.
3. Every formula must explicitly include quantifiers (∀x or ∃x) where applicable; put \
parentheses around the scope of every quantifier and around complex sub-formulas.
4. When an existential entity reappears with new properties, all properties (both old and \
new) should be conjoined within the scope of a single existential quantifier into the later \
formula.
5. Reuse the predicates and constants already introduced before introducing new ones; the \
same word always gets the same name. Predicates are CamelCase, constants lower-case.
6. "Either A or B" means A ⊕ B only when the sentence says that not both hold; otherwise \
it is A ∨ B."""

OUTPUT_FORMAT = """### Output Format
Premises:
fol-formula ::: (index) reference sentence
Conclusions:
fol-formula ::: (index) reference sentence"""

EXAMPLE = """### Examples
Premises:
(1) The cow is cold.
(2) The cow is not round.
(3) If something is cold then it needs the mouse.
Conclusions:
(1) The mouse needs the cow.
(2) The cow needs the mouse.
###
Premises:
Cold(cow) ::: (1) The cow is cold.
¬Round(cow) ::: (2) The cow is not round.
∀x (Cold(x) → Needs(x, mouse)) ::: (3) If something is cold then it needs the mouse.
Conclusions:
Needs(mouse, cow) ::: (1) The mouse needs the cow.
Needs(cow, mouse) ::: (2) The cow needs the mouse."""

TASK_TEMPLATE = """### Your Task
Return first-order logic formulas with NO other texts.
Premises:
{premises}
Conclusions:
{conclusions}"""


def prompt_text(record: ChainRecord) -> str:
    premises = "\n".join(f"({i}) {s}" for i, s in enumerate(record.premises, 1))
    conclusions = "\n".join(
        f"({i}) {s}" for i, s in enumerate((*record.steps, record.conclusion), 1))
    return "\n".join((TASK, RULES, OUTPUT_FORMAT, EXAMPLE,
                      TASK_TEMPLATE.format(premises=premises, conclusions=conclusions)))
