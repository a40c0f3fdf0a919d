"""Cleaning: every member's finds, trimmed and decided, before the merge. Django-free.

``clean`` trims each find (surrounding spaces and punctuation, a determiner before a
place, body or date, the next sentence's ``I``), computes the candidate's features once
(``engine.detectors.features``) and lets the decision table (``engine.detectors.rules``)
decide it: kept (PERSON as name parts), relabelled, cut into pieces decided in turn, or
dropped by a named rule, a possible miss where its context makes it a name or a place.
One ``Decision`` per candidate records the row that decided it.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace

from engine.detectors.allow import AllowList
from engine.detectors.base import Detection
from engine.detectors.decisions import (
    DROPPED,
    POSSIBLE_MISS,
    SPAN,
    Decision,
    possible_miss_label,
)
from engine.detectors.extent import trim
from engine.detectors.features import Context, Features
from engine.detectors.public import public_terms
from engine.detectors.rules import (
    DROP,
    KEEP,
    MAYBE_MISS,
    PARTS,
    PLAIN_KEEP,
    RELABEL,
    SPLIT,
    decide,
)


def clean(
    text: str,
    detections: Iterable[Detection],
    allow: AllowList | None = None,
    decisions: list[Decision] | None = None,
) -> list[Detection]:
    """Decide every find with the decision table; returns the kept detections (PERSON
    ones as name parts), in text order.

    ``decisions``, when given, receives one ``Decision`` per candidate (each piece of a
    find the table cuts): ``span``, or ``dropped``/``possible_miss`` with the rule that
    dropped it (``engine.detectors.decisions``)."""
    ctx = Context(text, allow or AllowList(), public_terms(text))
    out: list[Detection] = []
    record = decisions is not None

    def drop(d: Detection, rule: str) -> None:
        if record:
            # a model's find dropped for its shape, that its context makes a name or a
            # place: the safety net shows it (decisions.possible_miss_label)
            miss = possible_miss_label(
                text, d.start, d.end, d.label, d.detector, d.explanation, rule
            )
            decisions.append(
                Decision(
                    d.detector,
                    d.start,
                    d.end,
                    miss or d.label,
                    POSSIBLE_MISS if miss else DROPPED,
                    rule,
                    d.explanation,
                )
            )

    def keep(d: Detection) -> None:
        out.append(d)
        if record:
            decisions.append(Decision(d.detector, d.start, d.end, d.label, SPAN, "", d.explanation))

    def settle(f: Features, start: int = 0, via: tuple[str, ...] = ()) -> None:
        """Decide ``f`` from row ``start`` of the table on (``via``: the rows that
        relabelled it on the way)."""
        while True:
            i, rule = decide(f, start)
            if rule.outcome == RELABEL:
                # the rows below decide the relabelled candidate
                f = Features(ctx, f.raw, rule.then(f), f.whole, f.expressions_cut)
                start, via = i + 1, (*via, rule.name)
                continue
            if rule.outcome == KEEP:
                rows = via if rule.name in PLAIN_KEEP else (*via, rule.name)
                keep(replace(f.d, rule=" → ".join(rows)) if rows else f.d)
            elif rule.outcome in (DROP, MAYBE_MISS):
                drop(f.d if f.d is not None else f.raw, rule.decision)
            elif rule.outcome == SPLIT:
                # pieces are trimmed and decided from the top
                cut = f.expressions_cut or rule.name == "date-time-expressions"
                pending.extend((piece, cut) for piece in rule.then(f))
            elif rule.outcome == PARTS:
                for part in rule.then(f):
                    settle(Features(ctx, f.raw, part, f.d), via=via)
            return

    pending = [(d, False) for d in detections]
    while pending:
        raw, cut = pending.pop()
        settle(Features(ctx, raw, trim(text, raw), None, cut))
    out.sort(key=lambda x: (x.start, x.end, x.label, x.detector))
    return out


def clean_members(
    text: str, found: dict[str, list[Detection]], allow: AllowList | None = None
) -> dict[str, tuple[list[Detection], list[Decision], Exception | None]]:
    """Decide a stage's finds, member by member in ``found``'s order: ``{member: (kept,
    decisions, error)}``; a member whose finds fail to be decided has its error (the
    others' are kept)."""
    out: dict[str, tuple[list[Detection], list[Decision], Exception | None]] = {}
    for name, raw in found.items():
        decided: list[Decision] = []
        try:
            out[name] = (clean(text, raw, allow, decided), decided, None)
        except Exception as exc:  # noqa: BLE001 - reported as the member's error
            out[name] = ([], [], exc)
    return out
