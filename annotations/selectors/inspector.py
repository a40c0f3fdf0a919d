"""What the inspector proposes for the focused span: free occurrences of its text, merge
candidates for its group and the group's spelling variants."""

from bisect import bisect_right
from collections import defaultdict
from dataclasses import dataclass

from annotations.models import Span
from annotations.selectors.entities import EntityRow, _ref_key
from annotations.selectors.rows import SpanRow


def review_free_occurrences(*, text: str, row: SpanRow, rows: list[SpanRow]) -> list:
    """Whole-word occurrences of ``row``'s text that no (non-rejected) span covers yet:
    what "Suggest at all occurrences" would add."""
    from annotations.services.review import occurrences

    taken = sorted((r.start, r.end) for r in rows if r.status != Span.Status.REJECTED)
    starts = [s for s, _e in taken]
    free = []
    for start, end in occurrences(text, row.text):
        i = bisect_right(starts, end)  # spans starting before the occurrence's end
        if not any(e > start for _s, e in taken[max(0, i - 8) : i]):
            free.append((start, end))
    return free


@dataclass
class MergeCandidate:
    entity: "EntityRow"
    form: str  # the other group's form that looks like one of ours
    score: float


def review_merge_candidates(
    *, entity: "EntityRow", others: list["EntityRow"], limit: int = 5
) -> list[MergeCandidate]:
    """Groups of the same label whose surface forms look like a misspelling of this
    group's (Walker/Walkor, Green/Greene): Jaro-Winkler ≥ 0.88 between case-folded forms
    of at least four letters, or the same form. Best first."""
    import jellyfish

    ours = {f.casefold() for f, _n in entity.forms if len(f) >= 4}
    found = []
    for other in others:
        if other.label != entity.label or other.id == entity.id:
            continue
        best = None
        for form, _n in other.forms:
            folded = form.casefold()
            if len(folded) < 4:
                continue
            for mine in ours:
                score = 1.0 if folded == mine else jellyfish.jaro_winkler_similarity(mine, folded)
                if score >= 0.88 and (best is None or score > best.score):
                    best = MergeCandidate(entity=other, form=form, score=score)
        if best:
            found.append(best)
    found.sort(key=lambda c: (-c.score, _ref_key(c.entity.ref)))
    return found[:limit]


@dataclass
class SpellingVariant:
    form: str
    span_ids: list[int]


def review_spelling_variants(group: list[SpanRow]) -> list[SpellingVariant]:
    """A group's surface forms (case-folded) when it has more than one: each can be split
    out into its own group at once. The most frequent form is the group's own and is not
    offered."""
    by_form: dict[str, list[SpanRow]] = defaultdict(list)
    for row in group:
        if row.status != Span.Status.REJECTED:
            by_form[row.text.casefold()].append(row)
    if len(by_form) < 2:
        return []
    ordered = sorted(by_form.values(), key=lambda rs: (-len(rs), rs[0].start))
    return [SpellingVariant(form=rs[0].text, span_ids=[r.id for r in rs]) for rs in ordered[1:]]
