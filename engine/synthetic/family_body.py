"""The body of a layout family's transcript, printed and canonical at once, with gold.

A family writes each body line once, with inline marks (``model.m``) around its
mentions; ``FamilyBody`` keeps three views of it:

- ``printed``: the line as the family prints it (``Q  text``, ``THE COURT: text``),
- ``turns``: the (speaker, text) the importer must find for a speaker turn,
- the canonical text (``TextBuilder``): what the importer's text is, line by line, with
  the gold spans as offsets into it (``gold``).

So the gold of every family is an offset into the imported canonical text, by
construction; ``tests/test_synthetic_family_gold.py`` imports each family as text and
PDF and checks that the text is the gold's text. Django-free.
"""

from __future__ import annotations

from engine.gold import GoldDoc

from .model import BODY, TextBuilder, strip_marks


class FamilyBody:
    def __init__(self) -> None:
        self.printed: list[str] = []
        self.turns: list[tuple[str, str]] = []
        self.builder = TextBuilder()

    def line(self, marked: str) -> None:
        """An untagged line (heading, stage direction, ``BY MR. X:``, swearing-in)."""
        self.builder.add(marked, section=BODY)
        self.printed.append(self.builder.lines[-1].body)

    def say(self, speaker: str, marked: str, *, printed_as: str | None = None) -> None:
        """A speaker turn; ``printed_as`` is the printed prefix when it is not
        ``SPEAKER:`` (``Q.``, ``Q``, ``A``): the importer must restore the speaker."""
        self.builder.add(marked, speaker=speaker, section=BODY)
        last = self.builder.lines[-1]
        self.turns.append((last.speaker, last.body))
        if printed_as is None:
            self.printed.append(f"{last.speaker}: {last.body}")
        else:
            self.printed.append(f"{printed_as} {last.body}")

    @property
    def words(self) -> int:
        """Words of the canonical text so far, speaker tags included (as ``bph`` counts)."""
        return self.builder.words

    def gold(self, doc_id: str, meta: dict) -> GoldDoc:
        b = self.builder
        return GoldDoc(doc_id, b.text, sorted(b.spans), meta=meta)

    @property
    def hard_cases(self) -> dict[str, list[tuple[int, int]]]:
        return {k: list(v) for k, v in self.builder.hard_cases.items()}


def plain(marked: str) -> str:
    return strip_marks(marked)
