"""Synthetic parole suitability hearings: canonical text, gold spans and PDFs. Django-free.

>>> h = generate_hearing(7)
>>> render_pdf(h, "hearing.pdf")
>>> write_gold_jsonl([h], "gold.jsonl")
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from engine.gold import write_jsonl

from .generator import GENERATOR_VERSION, HARD_CASES, generate_hearing
from .model import SyntheticHearing, SyntheticUtterance
from .pdf import render_pdf, render_pdf_bytes


def write_gold_jsonl(hearings: Iterable[SyntheticHearing], path: str | Path) -> int:
    """Write the hearings' gold documents as JSON Lines (DESIGN.md); returns the count."""
    return write_jsonl((h.gold for h in hearings), path)


__all__ = [
    "GENERATOR_VERSION",
    "HARD_CASES",
    "SyntheticHearing",
    "SyntheticUtterance",
    "generate_hearing",
    "render_pdf",
    "render_pdf_bytes",
    "write_gold_jsonl",
]
