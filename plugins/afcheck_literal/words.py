"""Word lists that decide how prose around the notation is read."""

from __future__ import annotations

from fractions import Fraction

STOP = frozenset(
    """and or but so then thus therefore hence which that is are was were be been being will
    would gives give gave get gets got means mean if since because when while where we he she
    they it i you has have had makes make made yields yield becomes become remains as to find
    calculate compute now also let lets let's using use after before this these those there
    here our their his her its with each every""".split()
)
"""Words that end a quantity's name: ``… and y = 6`` names ``y``, not ``… and y``."""

ARTICLES = frozenset({"the", "a", "an"})

MODIFIERS = frozenset(
    """half halves twice double doubled triple tripled thrice quarter quarters third thirds
    fourth fourths fifth fifths sixth sixths seventh sevenths eighth eighths ninth ninths tenth
    tenths percent percentage times than from by minus plus over into average mean squared
    cubed square cube root roots dozen dozens hundred hundreds thousand thousands million
    millions billion billions trillion reciprocal negative inverse power powers ratio less more
    fewer out digit digits""".split()
)
"""Words that change what a nearby number means (``half of 12 = 6``, ``2 dozen``): a claim
next to one of them cannot be read literally."""

UNITS_MODIFIERS = MODIFIERS | {"of"}
"""After a number, ``of`` also changes its meaning (``1/2 of the paint``)."""

NEGATIONS = frozenset(
    """not no never false neither nor cannot isn't aren't wasn't weren't doesn't don't didn't
    won't can't shouldn't wouldn't couldn't""".split()
)

FUNCTIONS = frozenset(
    """sin cos tan cot sec csc arcsin arccos arctan log ln lg exp max min gcd lcm floor ceil
    ceiling mod binom choose factorial""".split()
)

NUMBER_WORDS: dict[str, Fraction] = {
    word: Fraction(value)
    for value, word in enumerate(
        """zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen
        fifteen sixteen seventeen eighteen nineteen twenty""".split()
    )
}
NUMBER_WORDS.update(
    {
        w: Fraction(10 * (i + 3))
        for i, w in enumerate("thirty forty fifty sixty seventy eighty ninety".split())
    }
)

OPERATOR_WORDS = {"times": "*", "plus": "+", "minus": "-", "x": "*", "X": "*"}
"""Spelled operators, read only between two operands (``3 times 4``, ``3 x 4``)."""

OPERATOR_PHRASES: dict[tuple[str, ...], str] = {("divided", "by"): "/", ("multiplied", "by"): "*"}

RELATION_PHRASES: dict[tuple[str, ...], str] = {
    ("is", "equal", "to"): "=",
    ("equals",): "=",
    ("equal", "to"): "=",
}

RESERVED = frozenset(
    """at by fun have show from in end let if then else do match with theorem lemma def where
    structure class instance open import variable section namespace mut for unless return try
    catch finally calc suffices obtain nomatch deriving example axiom universe local private
    protected noncomputable partial unsafe macro syntax notation infix infixl infixr prefix
    postfix set_option attribute extends Type Sort Prop fun forall exists true false True False
    sorry step this termination_by decreasing_by mutual opaque abbrev inductive""".split()
)
"""Lean keywords and names a binder must not take."""

QUANTIFIERS = frozenset(
    """only all every any some exists exist unique uniquely whenever none""".split()
)
"""Words that make a relation next to them a claim about many values, or about which values
satisfy it (``the only n < 10 with n² = 2n + 15 is 5``)."""

QUANTIFIER_PHRASES = frozenset(
    {("there", "is"), ("there", "are"), ("there", "exists"), ("for", "each"), ("for", "every")}
)

COMPARISONS = frozenset({"exceed", "exceeds", "exceeding", "exceeded"})
"""Words that order two quantities (with ``than``, ``at least``, ``at most``)."""

CONCLUSIONS = frozenset("""so therefore thus hence answer means meaning left""".split())
"""Words after which a number in prose may be what the step concludes (``so she has 5 left``):
such a number must restate a value of the statement itself."""

LABELS = frozenset({"step", "case", "part"})
"""Words before a number that make it a label (``Step 2:``)."""

PERIODS = frozenset({"day", "week", "month", "year", "round", "stage", "phase"})
"""Words before a number that end its clause that make it a label (``Day 1: 100 customers``)."""

DIFFERENCES = frozenset({"more", "less", "fewer"})
"""After a number, with ``than`` later: a difference given (``5 more sticks than red``)."""

INTEGER_DIVISION = frozenset({"quotient", "quotients", "remainder", "remainders", "mod", "modulo"})
"""Words that make a division next to them the integer division (``17 ÷ 5 = 3 remainder 2``)."""

BINDERS = frozenset(
    """for let when if suppose assume assuming where given solve solving find consider take
    whenever unless provided""".split()
)
"""Words after which a name is bound or solved for by the text (``for n = 6``, ``solve for
n``): there it never takes the value an earlier step gave it."""

CONDITIONS = frozenset(
    """for if when whenever suppose assume assuming given provided unless consider""".split()
)
"""Words that make a relation after them in their clause a condition (``For n ≥ 6, …``)."""

ALTERNATIVES = frozenset({"or", "either"})
"""Words that make relations next to them alternatives (``r = 5 or r = -1``)."""

OF_WORDS = frozenset({"of", "in", "per", "for", "with"})
"""Words right before a chain that make its first number part of a name (``Total sum of 40
numbers = …``, ``units digit of 7^4 = 1``)."""

CONNECTIVES = frozenset({"so", "then", "now", "and", "thus", "hence", "next", "first", "second"})
"""Words that may open a clause before a condition word (``So for n = 6, …``)."""
