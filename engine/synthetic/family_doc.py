"""What a layout family's generator returns (``FamilyDoc``) and the pieces every family
builds it with: the gold's meta and distinct names. Django-free.

The families themselves are ``families`` (board, federal, appellate) and ``testimony``
(grand jury, deposition); both import this module, and testimony does not import families.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from faker import Faker

from engine.gold import GoldDoc


@dataclass
class FamilyDoc:
    family: str
    seed: int
    cover: list[list[str]]  # printed cover pages (lines)
    body: list[str]  # printed body lines, before wrapping: turns, headings, Q./A. lines
    turns: list[tuple[str, str]]  # expected (speaker, text) of every speaker turn, in order
    metadata: dict  # expected cover metadata (a subset of what the importer finds)
    header: str = ""
    footer: str = ""
    contents: list[str] = field(default_factory=list)  # printed contents page lines
    word_index: bool = False
    numbered_cover: bool = False
    clock: bool = False
    filing: str = ""  # "Case ... Document N Filed DATE" (page numbers are added)
    # Gold spans, offsets into the canonical text the importer makes of the body.
    gold: GoldDoc | None = None
    hard_cases: dict[str, list[tuple[int, int]]] = field(default_factory=dict)

    @property
    def id(self) -> str:
        return f"{self.family}-{self.seed:05d}"


def family_meta(family: str, seed: int, words: int, metadata: dict) -> dict:
    """The gold document's meta of a generated transcript of ``family``."""
    from .generator import GENERATOR_VERSION

    return {
        "source": "synthetic",
        "generator_version": GENERATOR_VERSION,
        "layout": family,
        "seed": seed,
        "words": words,
        "metadata": metadata,
    }


def distinct_names(fake: Faker, n: int) -> list[tuple[str, str]]:
    """``n`` (first, last) names, no two with the same surname, letters only."""
    seen: set[str] = set()
    out = []
    while len(out) < n:
        first, last = fake.first_name(), fake.last_name()
        if last.upper() in seen or not last.isalpha():
            continue
        seen.add(last.upper())
        out.append((first, last))
    return out
