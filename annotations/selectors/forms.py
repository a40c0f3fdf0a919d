"""Read side of the surface-form table (issue 21): per label, the distinct surface forms
of its spans with their counts, a context line and every occurrence.

One query reads every span of the transcript (``review_span_rows``); forms are grouped
in Python by their case-folded text, so "Um", "um" and "UM" are one decision. Offsets are
characters into ``Transcript.text``, end exclusive.
"""

from dataclasses import dataclass, field

from annotations.models import Span
from annotations.selectors.rows import SpanRow, review_span_rows
from annotations.services.review.bulk import normalize_form
from engine.labels import LABELS
from transcripts.models import Transcript

CONTEXT_CHARS = 48  # characters of context on each side of an occurrence


@dataclass
class Occurrence:
    span_id: int
    page: int
    status: str
    before: str
    text: str
    after: str


@dataclass
class FormRow:
    """One distinct surface form of a label: how often, how decided, where."""

    label: str
    key: str  # ``normalize_form`` of the text: what the form's actions match
    form: str  # the most frequent spelling, as shown
    occurrences: list[Occurrence] = field(default_factory=list)

    @property
    def count(self) -> int:
        return len(self.occurrences)

    def _n(self, status: str) -> int:
        return sum(1 for o in self.occurrences if o.status == status)

    @property
    def open(self) -> int:
        return self._n(Span.Status.SUGGESTED)

    @property
    def rejected(self) -> int:
        return self._n(Span.Status.REJECTED)

    @property
    def kept(self) -> int:
        return self.count - self.open - self.rejected

    @property
    def status(self) -> str:
        """``open`` while a mention is undecided; else ``accepted``, ``rejected`` or
        ``mixed``."""
        if self.open:
            return "open"
        if not self.rejected:
            return "accepted"
        return "rejected" if not self.kept else "mixed"

    @property
    def context(self) -> Occurrence:
        return self.occurrences[0]


@dataclass
class LabelTab:
    label: str
    forms: int
    mentions: int
    open: int


def _line_context(text: str, row: SpanRow) -> tuple[str, str]:
    line_start = text.rfind("\n", 0, row.start) + 1
    line_end = text.find("\n", row.end)
    line_end = len(text) if line_end < 0 else line_end
    low = max(line_start, row.start - CONTEXT_CHARS)
    high = min(line_end, row.end + CONTEXT_CHARS)
    before = ("…" if low > line_start else "") + text[low : row.start]
    after = text[row.end : high] + ("…" if high < line_end else "")
    return before, after


def review_form_table(*, transcript: Transcript, rows: list[SpanRow] | None = None) -> dict:
    """``{label: [FormRow, ...]}`` for every label with spans, forms by count (most
    mentions first), then alphabetically; occurrences in text order."""
    if rows is None:
        rows = review_span_rows(transcript=transcript)
    text = transcript.text
    by_key: dict[tuple[str, str], FormRow] = {}
    spellings: dict[tuple[str, str], dict[str, int]] = {}
    for row in rows:
        key = (row.label, normalize_form(row.text))
        form = by_key.get(key)
        if form is None:
            form = by_key[key] = FormRow(label=row.label, key=key[1], form=row.text)
        before, after = _line_context(text, row)
        form.occurrences.append(
            Occurrence(
                span_id=row.id,
                page=row.page,
                status=row.status,
                before=before,
                text=row.text,
                after=after,
            )  # fmt: skip
        )
        counts = spellings.setdefault(key, {})
        counts[row.text] = counts.get(row.text, 0) + 1
    table: dict[str, list[FormRow]] = {}
    for key, form in by_key.items():
        counts = spellings[key]
        order = list(counts)  # spellings in the order they first occur
        form.form = max(order, key=lambda s: (counts[s], -order.index(s)))
        table.setdefault(form.label, []).append(form)
    for forms in table.values():
        forms.sort(key=lambda f: (-f.count, f.key))
    return {label: table[label] for label in LABELS if label in table}


def review_form_tabs(table: dict) -> list[LabelTab]:
    return [
        LabelTab(
            label=label,
            forms=len(forms),
            mentions=sum(f.count for f in forms),
            open=sum(f.open for f in forms),
        )
        for label, forms in table.items()
    ]
