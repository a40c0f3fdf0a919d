"""Read side of the surface-form table: per label, the distinct surface forms
of its spans with their counts, a context line and every occurrence.

One query reads every span of the transcript (``review_span_rows``); forms are grouped
in Python by their case-folded text, so "Um", "um" and "UM" are one decision. Offsets are
characters into ``Transcript.text``, end exclusive.
"""

import bisect
from collections import Counter
from dataclasses import dataclass, field

from annotations.models import Span
from annotations.selectors.rows import SpanRow, review_span_rows
from annotations.services.review.bulk import normalize_form
from anonreview.core.models import AuditEvent
from engine.detectors.rule_labels import PLACE_AND_BODY, rule_labels
from engine.labels import LABELS
from transcripts.models import Transcript

CONTEXT_CHARS = 48  # characters of context on each side of an occurrence


@dataclass
class Occurrence:
    span_id: int
    page: int
    status: str
    text: str
    version: int = 0  # the span's version: a decision on this occurrence alone posts it
    start: int = -1  # the span's characters in ``Transcript.text``
    end: int = -1
    source: str = field(default="", repr=False)  # ``Transcript.text``, for the context
    _context: tuple[str, str] | None = field(default=None, repr=False)

    # The context is cut when drawn: a page draws 12 occurrences a row and an answer only
    # its rows, while cutting all 2,800 of a 24,000-word federal transcript's took 11 ms.
    def _cut(self) -> tuple[str, str]:
        if self._context is None:
            self._context = _line_context(self.source, self.start, self.end)
        return self._context

    @property
    def before(self) -> str:
        return self._cut()[0]

    @property
    def after(self) -> str:
        return self._cut()[1]


@dataclass
class FormRow:
    """One distinct surface form of a label: how often, how decided, where."""

    label: str
    key: str  # ``normalize_form`` of the text: what the form's actions match
    form: str  # the most frequent spelling, as shown
    occurrences: list[Occurrence] = field(default_factory=list)
    # the label these mentions may have instead, and why (``form_alternatives``)
    alternative: str = ""
    alternative_why: str = ""
    alternative_habit: bool = False  # proposed from the team's habits, not a detector
    moved_to: str = ""  # every mention went to this label (a row kept for its undo)
    moved_as: str = ""  # or its one mention was widened to these words
    insert_after: str = ""  # a row new to the page, drawn after this row's element id
    # the capitalised word right before / after its one open mention (``form_widenings``)
    widen_left: str = ""
    widen_right: str = ""
    widen_span: int = 0
    widen_version: int = 0
    # what reviewers decided for this form in approved transcripts (``selectors.carried``)
    carried: str = ""  # "reject" or "relabel"
    carried_why: str = ""  # "rejected in 4 approved hearings"
    carried_label: str = ""  # the label a carried decision gives (a relabel's target)
    carried_pending: int = 0  # undecided mentions holding it as a proposal (to confirm)

    @property
    def count(self) -> int:
        return len(self.occurrences)

    @property
    def span_ids(self) -> str:
        """Its spans' ids joined by commas (a row's ``data-spans``): joined in the
        template, a 24,000-word federal table's 2,800 ids took 40% of the page's drawing."""
        return ",".join(str(o.span_id) for o in self.occurrences)

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
    def context(self) -> Occurrence | None:
        """The first occurrence (none once every mention moved to another label)."""
        return self.occurrences[0] if self.occurrences else None


@dataclass
class LabelTab:
    label: str
    forms: int
    mentions: int
    open: int


def _line_context(text: str, start: int, end: int) -> tuple[str, str]:
    line_start = text.rfind("\n", 0, start) + 1
    line_end = text.find("\n", end)
    line_end = len(text) if line_end < 0 else line_end
    low = max(line_start, start - CONTEXT_CHARS)
    high = min(line_end, end + CONTEXT_CHARS)
    before = ("…" if low > line_start else "") + text[low:start]
    after = text[end:high] + ("…" if high < line_end else "")
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
        form.occurrences.append(
            Occurrence(
                span_id=row.id,
                page=row.page,
                status=row.status,
                text=row.text,
                version=row.version,
                start=row.start,
                end=row.end,
                source=text,
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


HABIT_MIN = 3  # relabels from one label to another before the table proposes that move
HABIT_EVENTS = 5000  # the latest relabels read for the habits


def relabel_habits() -> dict[str, tuple[str, int]]:
    """``{label: (label reviewers most often relabel it to, how often)}`` from the latest
    relabel audit rows of every transcript, where it happened at least ``HABIT_MIN``
    times: what this team's reviews taught about the machine's confusions. One query."""
    moves: Counter = Counter()
    rows = (
        AuditEvent.objects.filter(event_type__in=("review.relabel", "review.relabel_form"))
        .order_by("-pk")
        # the labels and the count only: a form's audit row holds every span's snapshot
        .values_list("before__spans__0__label", "after__spans__0__label", "after__count")[
            :HABIT_EVENTS
        ]
    )
    for old, new, count in rows:
        if old and new and old != new:
            moves[(old, new)] += count or 1
    habits: dict[str, tuple[str, int]] = {}
    for (old, new), n in moves.most_common():
        if n >= HABIT_MIN and old not in habits:
            habits[old] = (new, n)
    return habits


def form_alternatives(*, transcript: Transcript, table: dict) -> None:
    """Give each form with undecided mentions the label it may have instead: the label
    another detector proposed for its mentions (the ensemble keeps a dissenting
    detector's label in the provenance), else the move reviewers made most often from
    its label (``relabel_habits``). A place or body form without dissent gets the label a
    hand-written rule reads in its mentions' words where they stand (``rule_labels``:
    ``Yes. St. Lucie County.`` a county, ``the Westin`` a hotel) before the habits. The
    table then offers that relabel as one input. Two queries: the undecided spans'
    provenance and the habits."""
    dissent: dict[int, Counter] = {}
    for span_id, provenance in Span.objects.filter(
        transcript=transcript, status=Span.Status.SUGGESTED
    ).values_list("id", "provenance"):
        labels = Counter(
            item["label"]
            for item in provenance or []
            if isinstance(item, dict) and item.get("label") in LABELS
        )
        if labels:
            dissent[span_id] = labels
    habits = relabel_habits()
    by_rule = rule_labels(
        transcript.text,
        [
            (o.start, o.end)
            for label, forms in table.items()
            if label in PLACE_AND_BODY
            for form in forms
            if form.open and not any(o.span_id in dissent for o in form.occurrences)
            for o in form.occurrences
            if o.status == Span.Status.SUGGESTED and o.start >= 0
        ],
    )
    for label, forms in table.items():
        for form in forms:
            if not form.open:
                continue
            votes: Counter = Counter()
            for o in form.occurrences:
                votes.update(dissent.get(o.span_id, Counter()))
            votes.pop(label, None)
            if form.form[:1].isdigit():
                # no name begins with a house number: a model's PERSON for a street name
                # ("17837 Stephanie Circles", relabelled by the full-name row) hinted → PERSON
                votes.pop("PERSON", None)
            # what the rules read in its mentions, when most readings are another label
            read = Counter(
                by_rule[o.start, o.end] for o in form.occurrences if (o.start, o.end) in by_rule
            )
            reading = read.most_common(1)[0] if read else (label, 0)
            if votes:
                form.alternative = votes.most_common(1)[0][0]
                n = sum(
                    1 for o in form.occurrences if form.alternative in dissent.get(o.span_id, ())
                )
                form.alternative_why = (
                    f"a detector proposed {form.alternative} for {n} of its "
                    f"{form.count} mention{'s' if form.count != 1 else ''}"
                )
            elif reading[0] != label:
                form.alternative, n = reading
                form.alternative_why = (
                    f"a rule reads {form.alternative} in the words of {n} of its "
                    f"{form.count} mention{'s' if form.count != 1 else ''}"
                )
            elif label in habits:
                form.alternative, n = habits[label]
                form.alternative_habit = True
                form.alternative_why = (
                    f"reviewers relabelled {label} as {form.alternative} {n} times"
                )
    # A decision reviewers made for this very form in approved transcripts comes first.
    from annotations.selectors.carried import form_carried

    form_carried(transcript=transcript, table=table)


# A place or a body cut short by a word ("State Prison" for "Corvane State Prison"): the
# table offers the word beside it, so that the annotator widens it where the context line
# shows it, without finding and focusing the mention in the review first. Name parts are
# spans of their own ("Dana" before "Quill"): PERSON is never widened.
WIDEN_LABELS = PLACE_AND_BODY
_SENTENCE_END = frozenset('.?!:;"“(')
_PLACE_ABBREVIATIONS = frozenset({"St.", "Mt.", "Ft."})  # Saint, Mount, Fort


def _word_beside(text: str, start: int, end: int, *, left: bool) -> tuple[str, int, int] | None:
    """The capitalised word one space before ``start`` (``left``) or after ``end``, with
    its offsets; none at a sentence's or a line's start (any word is capitalised there)
    or in capitals (a speaker label)."""
    if left:
        if start < 2 or text[start - 1] != " ":
            return None
        abbreviation = text[max(0, start - 4) : start - 1]
        if abbreviation in _PLACE_ABBREVIATIONS and (start < 5 or not text[start - 5].isalnum()):
            return abbreviation, start - 4, start - 1  # "St. Lucie County", even first
        b = start - 1
        a = b
        while a > 0 and (text[a - 1].isalnum() or text[a - 1] in "'’-&"):
            a -= 1
        before = text[:a].rstrip(" ")
        if not before or before[-1] in _SENTENCE_END or before[-1] == "\n" or a == len(before):
            return None
    else:
        if end + 1 >= len(text) or text[end] != " ":
            return None
        a = end + 1
        b = a
        while b < len(text) and (text[b].isalnum() or text[b] in "'’-&"):
            b += 1
    word = text[a:b]
    if not word or not word[0].isupper() or not word[0].isalpha() or word.isupper():
        return None
    return word, a, b


def form_widenings(*, transcript: Transcript, table: dict) -> None:
    """Give each place or body form with one open mention the capitalised word right
    before or after it that no span holds (``FormRow.widen_left`` / ``widen_right``), and
    the mention's span and version: the row's widening is one input."""
    text = transcript.text
    taken = sorted(
        (o.start, o.end) for forms in table.values() for f in forms for o in f.occurrences
    )
    starts = [a for a, _b in taken]

    def free(a: int, b: int) -> bool:
        i = bisect.bisect_left(starts, b)
        return not any(s < b and e > a for s, e in taken[max(0, i - 8) : i])

    for label, forms in table.items():
        if label not in WIDEN_LABELS:
            continue
        for form in forms:
            if form.open != 1:
                continue
            o = next(o for o in form.occurrences if o.status == Span.Status.SUGGESTED)
            for left in (True, False):
                beside = _word_beside(text, o.start, o.end, left=left)
                if beside is None or not free(beside[1], beside[2]):
                    continue
                if left:
                    form.widen_left = beside[0]
                else:
                    form.widen_right = beside[0]
                form.widen_span, form.widen_version = o.span_id, o.version
