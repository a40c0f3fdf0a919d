"""The leak check at Submit, for a reviewer who accepted a given set of spans. Django-free.

``leak_report`` measures with it what Submit costs an annotator: every blocking finding
is one more decision ("add" or "not a leak here"). With the machine's proposal accepted,
a blocking finding is a name the machine missed or a false alarm; with the gold accepted
(a perfect review), every blocking finding is a false alarm.
"""

from __future__ import annotations

from collections.abc import Iterable

from engine.pseudonymize import SpanInput, pseudonymize
from engine.pseudonymize.leaks import (
    Leak,
    beside_name_needles,
    find_leaks,
    name_needles,
    source_offset,
    span_needles,
)


def submit_findings(
    text: str, metadata: dict, speakers: Iterable[str], spans: Iterable[tuple[int, int, str]]
) -> list[Leak]:
    """The leak check's findings (``source_start``/``source_end`` into ``text``) when
    ``spans`` (``start, end, label``) are accepted and nothing else: the release text
    (tags) read with the transcript's needles, as ``annotations.services.leaks`` does."""
    spans = [(s, e, label) for s, e, label in spans if e > s]
    pseudo = pseudonymize(text, [SpanInput(s, e, label) for s, e, label in spans])
    needles = []
    for form, label in dict.fromkeys((text[s:e], label) for s, e, label in spans):
        needles.extend(span_needles(form, label))
    needles.extend(name_needles(text, metadata or {}, speakers))
    needles.extend(beside_name_needles(pseudo.text, pseudo.replacements, text))
    replaced = [(r.out_start, r.out_end) for r in pseudo.replacements]
    out = []
    for leak in find_leaks(pseudo.text, needles, replaced=replaced):
        start = source_offset(leak.start, pseudo.replacements)
        out.append(
            Leak(leak.kind, leak.label, leak.start, leak.end, leak.text, leak.context,
                 leak.blocking, start, start + (leak.end - leak.start))
        )  # fmt: skip
    return out
