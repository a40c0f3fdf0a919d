"""Where the printed layout splits tokens, and the index page's entries. Django-free."""

from __future__ import annotations

from . import layout, model


def _split_offsets(pages: list[layout.Page], lines: list[model._Line]) -> list[tuple[int, bool]]:
    """Offsets into the canonical text where a printed line ended inside a token, and
    whether that line was the last one of its page."""
    offsets = []
    pos = 0
    prev_split = False
    for page in pages:
        for slot, printed in enumerate(page.lines):
            if printed is None:
                continue
            if printed.starts:
                pos = lines[printed.line_index].start
            elif not prev_split:
                pos += 1  # the space that joins a continuation line
            pos += len(printed.text)
            prev_split = printed.split
            if printed.split:
                offsets.append((pos, slot == len(page.lines) - 1))
    return offsets


def _token_at(text: str, offset: int) -> tuple[int, int]:
    """The whitespace-delimited token around ``offset``."""
    start = text.rfind(" ", 0, offset) + 1
    start = max(start, text.rfind("\n", 0, offset) + 1)
    ends = [i for i in (text.find(" ", offset), text.find("\n", offset)) if i != -1]
    return start, min(ends) if ends else len(text)


def _index_pages(g, pages: list[layout.Page], first_page: dict[int, int]) -> list[tuple[str, str]]:
    def page_of(key: str) -> str:
        idx = g.section_lines.get(key)
        return str(first_page[idx]) if idx is not None and idx in first_page else "--"

    last_body = max(p.number for p in pages if p.kind == "body")
    cert = [p.number for p in pages if p.kind == "certification"]
    return [
        ("Proceedings", str(layout.FIRST_BODY_PAGE)),
        # Like the real index: sections without a printed heading get "--".
        ("Case Factors", "--"),
        ("Pre-Commitment Factors", "--"),
        ("Post-Commitment Factors", "--"),
        ("Parole Plans", "--"),
        ("Closing Statements", "--"),
        ("Recess", page_of("decision")),
        ("Decision", page_of("decision")),
        ("Adjournment", str(last_body)),
        ("Transcript Certification", str(cert[0]) if cert else "--"),
    ]
