"""Read side of the surface-form table: per label, the distinct surface forms
of its spans with their counts, a context line and every occurrence.

One query reads every span of the transcript (``review_span_rows``); forms are grouped
in Python by their case-folded text, so "Um", "um" and "UM" are one decision. Offsets are
characters into ``Transcript.text``, end exclusive.
"""

import bisect
import re
from collections import Counter
from dataclasses import dataclass, field

from annotations.models import Span
from annotations.selectors.rows import SpanRow, review_span_rows
from annotations.services.review.bulk import normalize_form
from anonreview.core.models import AuditEvent
from engine.detectors.names import is_given_name
from engine.detectors.recognizers.locations import STREET_SUFFIXES
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
HABIT_EVENTS = 5000  # the latest relabels and acceptances read for the habits
HABIT_EVENT_TYPES = (
    "review.relabel", "review.relabel_form",
    "review.accept", "review.accept_form", "review.accept_all", "review.accept_page",
)  # fmt: skip


def relabel_habits() -> dict[str, tuple[str, int]]:
    """``{label: (label reviewers most often relabel it to, how often)}`` from the latest
    relabel and acceptance audit rows of every transcript, where it happened at least
    ``HABIT_MIN`` times and more often than reviewers kept the label: what this team's
    reviews taught about the machine's confusions. One query."""
    moves: Counter = Counter()
    rows = (
        AuditEvent.objects.filter(event_type__in=HABIT_EVENT_TYPES)
        .order_by("-pk")
        # the labels and the count only: a form's audit row holds every span's snapshot
        .values_list("before__spans__0__label", "after__spans__0__label", "after__count")[
            :HABIT_EVENTS
        ]
    )
    for old, new, count in rows:
        if old and new:
            moves[(old, new)] += count or 1
    habits: dict[str, tuple[str, int]] = {}
    for (old, new), n in moves.most_common():
        # a move offered on every form of the label is right only where reviewers moved
        # the label more often than they kept it (on generated court transcripts a
        # benchmark's few relabels hinted "→ LOCATION" on every PERSON form: 2 right, 25
        # wrong)
        if old != new and n >= HABIT_MIN and n > moves[(old, old)] and old not in habits:
            habits[old] = (new, n)
    return habits


def form_alternatives(*, transcript: Transcript, table: dict) -> None:
    """Give each form with undecided mentions the label it may have instead, where that
    is more often right than wrong: the label a hand-written rule reads in most of its
    mentions' words where they stand (``rule_labels``: ``Yes. St. Lucie County.`` a
    county, ``the Westin`` a hotel); none where the rules or the words around it confirm
    its label (``letters from Hanford`` a town, ``Mr. Wellby`` a person); else the label
    another detector proposed for most of its mentions (the ensemble keeps a dissenting
    detector's label in the provenance; never a name for a street or a pattern's find);
    else the move reviewers made most often from its label (``relabel_habits``). The
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
    text = transcript.text
    by_rule = rule_labels(
        text,
        [
            (o.start, o.end)
            for label, forms in table.items()
            if label in PLACE_AND_BODY
            for form in forms
            if form.open
            for o in form.occurrences
            if o.status == Span.Status.SUGGESTED and o.start >= 0
        ],
    )
    names = [o for form in table.get("PERSON", []) for o in form.occurrences]
    name_edges = ({o.start for o in names}, {o.end for o in names})
    for label, forms in table.items():
        for form in forms:
            if not form.open:
                continue
            votes = _dissent_votes(form, label, dissent)
            alt = votes.most_common(1)[0][0] if votes else ""
            dissenting = sum(1 for o in form.occurrences if alt in dissent.get(o.span_id, ()))
            # what the rules read in its mentions, and what the words around them say
            read = Counter(
                by_rule[o.start, o.end] for o in form.occurrences if (o.start, o.end) in by_rule
            )
            kept = read.pop(label, 0) + sum(
                1 for o in form.occurrences if _words_keep(text, o, label, alt, name_edges)
            )
            other = read.most_common(1)[0] if read else ("", 0)
            mentions = f"{form.count} mention{'s' if form.count != 1 else ''}"
            if other[1] > kept:
                form.alternative, n = other
                form.alternative_why = (
                    f"a rule reads {form.alternative} in the words of {n} of its {mentions}"
                )
            elif kept and not _name_over_rule(form.form, alt):
                continue  # the words where it stands say it is what it is labelled
            elif alt and 2 * dissenting > form.count:
                form.alternative = alt
                form.alternative_why = (
                    f"a detector proposed {alt} for {dissenting} of its {mentions}"
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


# Labels a pattern finds (a spelling, a number, an address on the web): a model's name
# label for one is its misreading ("adam.harmon@hotmail.com" → PERSON, a VIN →
# ORGANIZATION; 12 such hints on four generated transcripts, none right).
PATTERN_LABELS = frozenset(
    {"SPELLED_NAME", "SPELLED_OUT_ITEM", "CDCR_ID", "TIME", "AGE", "HEIGHT", "PHONE_NUMBER",
     "EMAIL_ADDRESS", "URL", "OTHER_ID"}
)  # fmt: skip
STREET_WORDS = frozenset(STREET_SUFFIXES.split("|"))
# a title before a name ("Mr. Wellby", "BY MR. WARNER:", "DEPUTY COMMISSIONER LAMB:")
_TITLE_BEFORE = re.compile(
    r"\b(?i:mr|mrs|ms|miss|dr|judge|officer|detective|sergeant|deputy|commissioner|agent)\.? $"
)
# a preposition of place before a place a model took for a person ("moved out to Carson",
# "your friend, in Delano")
_PLACE_BEFORE = re.compile(r"\b(?i:in|near|past|outside|around|to|from) $")
_DEMONYM = re.compile(r"(?:an|ese|ish|ian|ic|i)$")  # "Honduran", "Congolese"
_LOWER_AFTER = re.compile(r" [a-z]")
NOT_A_NAME_END = STREET_WORDS | {
    "County", "Parish", "Borough", "Township", "LLC", "LLP", "Inc", "Corp", "Corporation",
    "Ltd", "Company", "Co",
}  # fmt: skip


def _dissent_votes(form: FormRow, label: str, dissent: dict[int, Counter]) -> Counter:
    """The other labels detectors proposed for the form's mentions, less those its own
    shape rules out."""
    votes: Counter = Counter()
    if label in PATTERN_LABELS:
        return votes
    for o in form.occurrences:
        votes.update(dissent.get(o.span_id, Counter()))
    votes.pop(label, None)
    words = form.form.split()
    street = len(words) > 1 and words[-1] in STREET_WORDS
    if form.form[:1].isdigit() or (len(words) > 1 and words[-1].rstrip(".,") in NOT_A_NAME_END):
        # no name begins with a house number or ends with a street's, a county's or a
        # company's word ("17837 Stephanie Circles", "Allen Court", "Stanislaus County",
        # "Nelson LLC"): a model's PERSON for them
        votes.pop("PERSON", None)
    if form.form[:1].isdigit() and street:
        votes.pop("ORGANIZATION", None)  # "9368 Mill Ridge Court" is an address
    if label == "NRP" and len(words) == 1 and _DEMONYM.search(form.form):
        votes.pop("LOCATION", None)  # "My father is Honduran"
    return votes


def _words_keep(text: str, o: Occurrence, label: str, alt: str, name_edges) -> bool:
    """Whether the words around a mention say it keeps ``label`` against ``alt``: a
    title before a PERSON, or a name part beside it ("Who is Drew Kadlec?"); a place's
    preposition before a LOCATION a model read as a PERSON; a lower-case word after a
    nationality or religion a model read as a PERSON ("Christian services")."""
    before = text[max(text.rfind("\n", 0, o.start) + 1, o.start - 30) : o.start]
    if label == "PERSON":
        starts, ends = name_edges
        return bool(_TITLE_BEFORE.search(before)) or o.end + 1 in starts or o.start - 1 in ends
    if alt != "PERSON":
        return False
    if label == "LOCATION":
        return bool(_PLACE_BEFORE.search(before))
    return label == "NRP" and bool(_DEMONYM.search(o.text) and _LOWER_AFTER.match(text, o.end))


def _name_over_rule(form: str, alt: str) -> bool:
    """A given name and one more word that a rule read as a body or place ("Edward
    Church" and a friend of hers: an institution's word as a surname) stays a possible
    person."""
    words = form.split()
    return (
        alt == "PERSON" and len(words) == 2 and words[1] not in STREET_WORDS
        and is_given_name(words[0])
    )  # fmt: skip


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
