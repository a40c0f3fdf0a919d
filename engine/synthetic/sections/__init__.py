"""The hearing's middle sections: commitment offense, criminal and social history,
post-conviction programming, risk assessment, parole plans, questions, closing and decision.

Each section first draws from a bank of one-off exchanges (each used at most once, in a
seeded random order), then fills its word budget with record items made of fresh random
data (a prior arrest, a chrono, a support letter, ...), so long hearings stay varied.
One module per part; ``Sections`` mixes them into ``generator._Gen``. Django-free.
"""

from .childhood import Childhood
from .closing import Closing
from .constants import CERTIFICATION_WORDS, TAIL_WORDS
from .machinery import Machinery
from .offense import Offense
from .plans import Plans
from .programming import Programming


class Sections(Machinery, Offense, Childhood, Programming, Plans, Closing):
    """Section methods; expects the helpers of ``generator._Gen``."""


__all__ = ["CERTIFICATION_WORDS", "TAIL_WORDS", "Sections"]
