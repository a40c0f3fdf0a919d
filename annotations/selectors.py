"""Read-side queries for the review workspace (HackSoft: selectors read, services write).

The page shows a transcript by *windows* of a few pages; one query loads every span of
the transcript as plain rows (``review_span_rows``) from which the entity list, the
progress counter and the navigation queue are computed in Python, so no query runs per
span. Offsets are characters into ``Transcript.text``, end exclusive.
"""

from bisect import bisect_left, bisect_right
from collections import Counter, defaultdict
from dataclasses import dataclass, field

from django.db.models import Count, Max, Min, Q, QuerySet

from annotations.locking import group_version
from annotations.models import Span
from engine.labels import LABELS, SPELLED_NAME
from engine.spans import Prediction
from transcripts.models import Transcript, Utterance

WINDOW_PAGES = 3  # pages per lazily loaded window
UNDECIDED = Span.Status.SUGGESTED


@dataclass(frozen=True)
class ReviewFilters:
    """What the reviewer narrowed the view to (query parameters of the page)."""

    undecided: bool = False
    label: str = ""
    detector: str = ""
    order: str = "position"  # or "score": lowest score first
    q: str = ""

    @classmethod
    def from_params(cls, params) -> "ReviewFilters":
        label = params.get("label", "")
        return cls(
            undecided=params.get("undecided") in {"1", "on", "true"},
            label=label if label in LABELS else "",
            detector=params.get("detector", "")[:64],
            order="score" if params.get("order") == "score" else "position",
            q=params.get("q", "").strip()[:100],
        )

    @property
    def active(self) -> bool:
        return bool(
            self.undecided or self.label or self.detector or self.q or self.order != "position"
        )

    def as_query(self) -> str:
        from urllib.parse import urlencode

        params = {
            "undecided": "1" if self.undecided else "",
            "label": self.label,
            "detector": self.detector,
            "order": "score" if self.order == "score" else "",
            "q": self.q,
        }
        return urlencode({k: v for k, v in params.items() if v})


@dataclass(slots=True)
class SpanRow:
    """One span as the page needs it (no model instance, no per-span query)."""

    id: int
    start: int
    end: int
    label: str
    status: str
    score: float
    provenance: list | None  # None until loaded (``review_fill_provenance``)
    version: int
    entity_id: int | None
    ref: str
    text: str
    page: int = 0
    flagged: bool = False

    @property
    def detectors(self) -> list[str]:
        return [p.get("detector", "") for p in self.provenance or [] if isinstance(p, dict)]

    @property
    def decided(self) -> bool:
        return self.status != UNDECIDED

    def provenance_text(self) -> str:
        parts = []
        for item in self.provenance or []:
            if not isinstance(item, dict):
                continue
            score = item.get("score")
            name = item.get("detector", "?")
            parts.append(f"{name} {score:.2f}" if isinstance(score, int | float) else name)
        return ", ".join(parts) or "no detector"

    def matches(self, filters: ReviewFilters) -> bool:
        if filters.undecided and self.decided:
            return False
        if filters.label and self.label != filters.label:
            return False
        if filters.detector and filters.detector not in self.detectors:
            return False
        return not (filters.q and filters.q.casefold() not in self.text.casefold())


@dataclass
class Window:
    index: int
    pages: list[int]
    chars: int
    utterances: int

    @property
    def first_page(self) -> int:
        return self.pages[0] if self.pages else 0

    @property
    def last_page(self) -> int:
        return self.pages[-1] if self.pages else 0

    @property
    def estimated_height(self) -> int:
        """Pixels the placeholder reserves before the window loads (fitted on the
        15,000-word benchmark in a 1440-px window: real/estimate 1.07–1.26 at 25.5 px,
        so 29.3 px a line; the page then rescales the rest from the windows it loaded)."""
        return max(120, int((self.chars / 62 + self.utterances * 0.5) * 29.3))


@dataclass
class EntityRow:
    id: int
    ref: str
    label: str
    forms: list[tuple[str, int]]
    mentions: int
    undecided: int
    rejected: int
    spelled: int = 0
    first_span_id: int | None = None
    first_page: int = 0
    version: str = ""  # the group's version (``annotations.locking.group_version``; the view)

    @property
    def decided(self) -> int:
        return self.mentions - self.undecided

    @property
    def status(self) -> str:
        if self.undecided:
            return "undecided"
        return "rejected" if self.rejected == self.mentions else "decided"


@dataclass
class LabelGroup:
    label: str
    entities: list[EntityRow] = field(default_factory=list)
    undecided: int = 0
    mentions: int = 0
    count: int = 0  # groups (entities) of the label


@dataclass
class Progress:
    decided: int
    total: int

    @property
    def percent(self) -> int:
        return round(100 * self.decided / self.total) if self.total else 100


@dataclass
class MinimapCell:
    page: int
    undecided: int
    total: int


# --- spans ------------------------------------------------------------------------


def review_span_rows(
    *,
    transcript: Transcript,
    provenance: bool = False,
    where: Q | None = None,
    pages: list[dict] | None = None,
) -> list[SpanRow]:
    """Every span of the transcript (or those ``where`` selects) as rows, in text order,
    with its page (two queries).

    Provenance (JSON) is loaded only with ``provenance=True``; otherwise call
    ``review_fill_provenance`` for the few rows a response renders.
    """
    text = transcript.text
    fields = [
        "id",
        "start",
        "end",
        "label",
        "status",
        "score",
        "version",
        "entity_id",
        "entity__ref",
        "flagged",
    ]
    if provenance:
        fields.append("provenance")
    rows = [
        SpanRow(
            id=r[0],
            start=r[1],
            end=r[2],
            label=r[3],
            status=r[4],
            score=r[5],
            version=r[6],
            entity_id=r[7],
            ref=r[8] or "",
            text=text[r[1] : r[2]],
            flagged=r[9],
            provenance=r[10] if provenance else None,
        )  # fmt: skip
        for r in Span.objects.filter(transcript=transcript)
        .filter(where if where is not None else Q())
        .order_by("start", "-end", "id")
        .values_list(*fields)
    ]
    if pages is not None:  # pages follow the text: a page's first start is enough
        bounds = sorted((p["first"], p["page"]) for p in pages)
    else:
        bounds = list(
            Utterance.objects.filter(transcript=transcript)
            .order_by("start")
            .values_list("start", "page")
        )
    i = 0
    for row in rows:
        while i + 1 < len(bounds) and bounds[i + 1][0] <= row.start:
            i += 1
        row.page = bounds[i][1] if bounds else 0
    return rows


# Above these sizes an answer reads every span of the transcript and keeps the ones it
# draws in Python: no query grows with the number of spans, groups or lines an action
# touched (SQLite refuses an expression tree deeper than 1,000; issue 21).
ANSWER_IDS_MAX = 500
ANSWER_RANGES_MAX = 40


def _utterance_ranges(utterances: list[Utterance]) -> list[tuple[int, int]]:
    """``[start, end)`` ranges of span starts covering ``utterances``, consecutive ones
    (by index) merged; an empty utterance covers its start."""
    ranges: list[tuple[int, int]] = []
    last_index = None
    for u in sorted(utterances, key=lambda u: u.index):
        low, high = u.start, max(u.end, u.start + 1)
        if ranges and last_index is not None and u.index == last_index + 1:
            ranges[-1] = (ranges[-1][0], max(ranges[-1][1], high))
        else:
            ranges.append((low, high))
        last_index = u.index
    return ranges


def review_answer_rows(
    *, transcript: Transcript, spans, entities, utterances: list[Utterance], pages=None
) -> list[SpanRow]:
    """The rows an action's answer draws, not every span: ``spans``, every mention of the
    groups ``entities`` (their entries), every span starting in ``utterances`` (their
    lines, and the neighbours that decide whether a span can be redrawn alone), and the
    spelled names (a group's "spelled ×N").

    A small answer is one query with bounded ``IN`` lists and start ranges; a bulk one
    (more than ``ANSWER_IDS_MAX`` ids or ``ANSWER_RANGES_MAX`` ranges) reads the
    transcript's rows and keeps those in Python."""
    spans, entities = set(spans), set(entities)
    ranges = _utterance_ranges(utterances)
    if len(spans) + len(entities) <= ANSWER_IDS_MAX and len(ranges) <= ANSWER_RANGES_MAX:
        where = Q(pk__in=list(spans)) | Q(entity_id__in=list(entities)) | Q(label=SPELLED_NAME)
        for low, high in ranges:
            where |= Q(start__gte=low, start__lt=high)
        return review_span_rows(transcript=transcript, where=where, pages=pages)
    lows = [low for low, _high in ranges]

    def in_lines(start: int) -> bool:
        i = bisect_right(lows, start) - 1
        return i >= 0 and start < ranges[i][1]

    return [
        r
        for r in review_span_rows(transcript=transcript, pages=pages)
        if r.id in spans or r.entity_id in entities or r.label == SPELLED_NAME or in_lines(r.start)
    ]


def review_fill_provenance(rows: list[SpanRow]) -> None:
    """Load the provenance of ``rows`` that lack it (one query)."""
    missing = {r.id: r for r in rows if r.provenance is None}
    if not missing:
        return
    for span_id, provenance in Span.objects.filter(pk__in=list(missing)).values_list(
        "id", "provenance"
    ):
        missing[span_id].provenance = provenance or []


def review_progress(*, rows: list[SpanRow]) -> Progress:
    return Progress(decided=sum(1 for r in rows if r.decided), total=len(rows))


def review_progress_counts(*, transcript: Transcript) -> Progress:
    """``review_progress`` of every span, as one SQL aggregate (no pass over the rows)."""
    counts = Span.objects.filter(transcript=transcript).aggregate(
        total=Count("id"), decided=Count("id", filter=~Q(status=UNDECIDED))
    )
    return Progress(decided=counts["decided"], total=counts["total"])


def review_label_counts(*, transcript: Transcript, labels) -> list[LabelGroup]:
    """The headers of ``labels`` in the entity list (groups, mentions, undecided ones),
    without entries, as one SQL aggregate. Equal to ``review_entities``' unfiltered
    headers, which group by a group's first mention: a group's mentions all have its
    label (spans join groups of their own label, relabelling leaves the group, merging
    needs the same label)."""
    found = {
        r["label"]: LabelGroup(
            label=r["label"], count=r["groups"], mentions=r["mentions"], undecided=r["undecided"]
        )
        for r in Span.objects.filter(
            transcript=transcript, entity__isnull=False, label__in=list(labels)
        )
        .values("label")
        .annotate(
            groups=Count("entity", distinct=True),
            mentions=Count("id"),
            undecided=Count("id", filter=Q(status=UNDECIDED)),
        )
        .order_by()
    }
    return [found[label] for label in LABELS if label in found]


def review_minimap_cells(
    *, transcript: Transcript, pages, page_rows: list[dict] | None = None
) -> list[MinimapCell]:
    """``review_minimap``'s cells of ``pages`` only, as one SQL aggregate: a span is on
    the page of the last utterance starting at or before it (as in ``review_span_rows``).
    ``page_rows``: ``review_pages`` if the caller has it."""
    pages = sorted(set(pages))
    if not pages:
        return []
    if page_rows is None:
        page_rows = review_pages(transcript=transcript)
    firsts = sorted(((p["page"], p["first"]) for p in page_rows), key=lambda pf: pf[1])
    ranges = {}
    for i, (page, first) in enumerate(firsts):
        low = first if i else 0  # spans before the first utterance count on its page
        high = firsts[i + 1][1] if i + 1 < len(firsts) else None
        ranges[page] = Q(start__gte=low) & (Q(start__lt=high) if high is not None else Q())
    wanted = [p for p in pages if p in ranges]
    aggregates = {}
    for p in wanted:
        aggregates[f"t{p}"] = Count("id", filter=ranges[p])
        aggregates[f"u{p}"] = Count("id", filter=ranges[p] & Q(status=UNDECIDED))
    counts = Span.objects.filter(transcript=transcript).aggregate(**aggregates) if wanted else {}
    return [
        MinimapCell(page=p, undecided=counts.get(f"u{p}", 0), total=counts.get(f"t{p}", 0))
        for p in pages
    ]


def review_queue_entry(row: SpanRow) -> list:
    """``[span_id, page, decided, start, score]``: one entry of the ``j``/``k`` queue (the
    page keeps it in order by start, or by score with ``order=score``)."""
    return [row.id, row.page, int(row.decided), row.start, round(row.score, 3)]


def review_queue(*, rows: list[SpanRow], filters: ReviewFilters) -> list[list]:
    """The order of ``j``/``k``: one ``review_queue_entry`` per span the filters keep."""
    kept = [r for r in rows if r.matches(filters)]
    if filters.order == "score":
        kept.sort(key=lambda r: (r.score, r.start))
    return [review_queue_entry(r) for r in kept]


def review_minimap(*, rows: list[SpanRow], pages: int) -> list[MinimapCell]:
    """Per page: spans still undecided and all spans (the overview beside the panes)."""
    last = max([pages, *(r.page for r in rows)], default=0)
    cells = {p: MinimapCell(page=p, undecided=0, total=0) for p in range(1, last + 1)}
    for row in rows:
        cell = cells.setdefault(row.page, MinimapCell(page=row.page, undecided=0, total=0))
        cell.total += 1
        cell.undecided += 0 if row.decided else 1
    return [cells[p] for p in sorted(cells)]


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


def review_detectors(*, transcript: Transcript) -> list[str]:
    """The detectors named in the transcript's span provenance (for the filter)."""
    names = set()
    for provenance in Span.objects.filter(transcript=transcript).values_list(
        "provenance", flat=True
    ):
        names.update(p.get("detector", "") for p in provenance or [] if isinstance(p, dict))
    return sorted(n for n in names if n)


def review_entities(
    *, rows: list[SpanRow], filters: ReviewFilters | None = None, only: set[int] | None = None
) -> list[LabelGroup]:
    """Reference groups by label: surface forms with counts, spelled-out mentions, status.

    With ``only``, the groups' counts still cover every entity but entries are built for
    the entities in ``only`` alone (an action's answer sends just those).
    """
    by_entity: dict[int, list[SpanRow]] = defaultdict(list)
    for row in rows:
        if row.entity_id is not None:
            by_entity[row.entity_id].append(row)
    spelled_by_ref: Counter = Counter()
    for row in rows:
        if row.label == SPELLED_NAME and row.status != Span.Status.REJECTED and row.ref:
            target = row.ref.removeprefix(f"{SPELLED_NAME}_")
            if target != row.ref:
                spelled_by_ref[target] += 1
    groups: dict[str, LabelGroup] = {}
    for entity_id, spans in by_entity.items():
        first = spans[0]
        if only is not None and entity_id not in only:
            if filters is not None and not any(s.matches(filters) for s in spans):
                continue
            group = groups.setdefault(first.label, LabelGroup(label=first.label))
            group.count += 1
            group.undecided += sum(1 for s in spans if not s.decided)
            group.mentions += len(spans)
            continue
        kept = [s for s in spans if s.status != Span.Status.REJECTED] or spans
        forms = Counter(s.text for s in kept).most_common()
        entity = EntityRow(
            id=entity_id,
            ref=first.ref,
            label=first.label,
            forms=forms,
            mentions=len(spans),
            undecided=sum(1 for s in spans if not s.decided),
            rejected=sum(1 for s in spans if s.status == Span.Status.REJECTED),
            spelled=spelled_by_ref.get(first.ref, 0)
            + sum(1 for s in kept if s.label == SPELLED_NAME and first.label != SPELLED_NAME),
            first_span_id=first.id,
            first_page=first.page,
            version=group_version((s.id, s.version) for s in spans),
        )
        if filters is not None and not any(s.matches(filters) for s in spans):
            continue
        group = groups.setdefault(first.label, LabelGroup(label=first.label))
        group.entities.append(entity)
        group.count += 1
        group.undecided += entity.undecided
        group.mentions += entity.mentions
    ordered = [groups[label] for label in LABELS if label in groups]
    for group in ordered:
        group.entities.sort(key=lambda e: _ref_key(e.ref))
    return ordered


def _ref_key(ref: str) -> tuple:
    head, _, tail = ref.rpartition("_")
    return (head, int(tail)) if tail.isdigit() else (ref, 0)


# --- windows of pages ---------------------------------------------------------------


def review_pages(*, transcript: Transcript) -> list[dict]:
    """Per page: ``page``, ``n`` utterances, ``first`` start and ``last`` end (one
    aggregate query; windows, span pages and minimap cells are computed from it)."""
    return list(
        Utterance.objects.filter(transcript=transcript)
        .values("page")
        .annotate(n=Count("id"), first=Min("start"), last=Max("end"))
        .order_by("page")
    )


def review_windows(
    *, transcript: Transcript, pages_per_window: int = WINDOW_PAGES, pages: list[dict] | None = None
) -> list[Window]:
    """The transcript cut into windows of a few pages (one aggregate query, none with
    ``pages`` from ``review_pages``)."""
    if pages is None:
        pages = review_pages(transcript=transcript)
    windows = []
    for i in range(0, len(pages), pages_per_window):
        chunk = pages[i : i + pages_per_window]
        windows.append(
            Window(
                index=len(windows),
                pages=[p["page"] for p in chunk],
                chars=sum(p["last"] - p["first"] for p in chunk),
                utterances=sum(p["n"] for p in chunk),
            )
        )
    return windows


def review_window_of_page(*, windows: list[Window], page: int) -> int:
    for window in windows:
        if page in window.pages:
            return window.index
    return 0


def review_utterances(
    *,
    transcript: Transcript,
    pages: list[int] | None = None,
    indices: list[int] | None = None,
    containing=None,
) -> list[Utterance]:
    """Utterances in text order; of ``pages``, ``indices``, and/or those ``containing``
    one of the given offsets (an empty utterance contains its start)."""
    queryset = Utterance.objects.filter(transcript=transcript).defer("transcript")
    if pages is not None:
        queryset = queryset.filter(page__in=pages)
    if indices is not None:
        queryset = queryset.filter(index__in=indices)
    found = list(queryset.order_by("index"))
    if containing is None:
        return found
    # In Python, not one ``Q`` per offset: the query stays the same size however many
    # offsets an action touched (issue 21).
    offsets = sorted(set(containing))

    def contains(u: Utterance) -> bool:
        i = bisect_left(offsets, u.start)
        return i < len(offsets) and (offsets[i] < u.end or offsets[i] == u.start)

    return [u for u in found if contains(u)]


def review_replacements(
    *, transcript: Transcript, rows: list[SpanRow]
) -> dict[int, tuple[int, int, str]]:
    """Span id → ``(start, end, replacement)`` for the given spans, tags strategy.

    Runs the pseudonymization core (``engine.pseudonymize.pseudonymize``, the same
    code ``transcript_pseudonymize`` runs) on just these spans with the refs of their
    reference groups, so that rendering a window or an action's lines costs milliseconds,
    not a pass over the whole transcript. Rejected spans are not replaced. A span
    replaced in several pieces (a date → ``[MONTH] [DAY], [YEAR]``) keeps the original
    text between its pieces.
    """
    from engine.pseudonymize import SpanInput, pseudonymize
    from engine.pseudonymize.refs import RefAssigner

    inputs = [
        SpanInput(r.start, r.end, r.label, ref=r.ref or None, span_id=r.id)
        for r in rows
        if r.status != Span.Status.REJECTED
    ]
    if not inputs:
        return {}
    result = pseudonymize(transcript.text, inputs, strategy="tags", assigner=RefAssigner())
    pieces: dict[int, list] = defaultdict(list)
    for r in result.replacements:
        if r.span_id is not None:
            pieces[r.span_id].append(r)
    text = transcript.text
    out = {}
    for span_id, reps in pieces.items():
        reps.sort(key=lambda r: r.start)
        start, pos, parts = reps[0].start, reps[0].start, []
        for r in reps:
            if r.start < pos:
                continue
            parts.append(text[pos : r.start])
            parts.append(r.replacement)
            pos = r.end
        out[span_id] = (start, pos, "".join(parts))
    return out


# --- the dashboard's reads (gold, the machine's proposals, double annotation) ---------

S = Transcript.State
GOLD_STATES = (S.APPROVED, S.RELEASED)
REVIEWED_STATES = (S.SUBMITTED, S.APPROVED, S.RELEASED)
GOLD_STATUSES = (Span.Status.ACCEPTED, Span.Status.ADDED)


def gold_transcripts() -> QuerySet[Transcript]:
    """Approved and released originals (never double-annotation copies)."""
    return Transcript.objects.filter(state__in=GOLD_STATES, double_of__isnull=True).order_by("pk")


def gold_spans(transcript: Transcript) -> list[Prediction]:
    return [
        Prediction(s.start, s.end, s.label, entity=s.entity_id)
        for s in transcript.spans.filter(status__in=GOLD_STATUSES).order_by("start", "end")
    ]


HUMAN_DETECTORS = frozenset({"human", ""})


def machine_provenance(provenance) -> list[dict]:
    """The provenance entries of real detectors (not the reviewer's ``human`` marker)."""
    out = []
    for item in provenance or []:
        name = item.get("detector", "") if isinstance(item, dict) else str(item)
        if name not in HUMAN_DETECTORS:
            out.append(item if isinstance(item, dict) else {"detector": name})
    return out


def machine_predictions(transcript: Transcript) -> list[Prediction]:
    """Every span the detectors proposed, in its proposed shape, with its detectors,
    including proposals a reviewer later changed or deleted (``Proposal`` rows)."""
    return [
        Prediction(
            p.start, p.end, p.label, detectors=machine_provenance(p.provenance), score=p.score
        )
        for p in transcript.proposals.order_by("start", "end", "label")
    ]


def double_pairs(*, reviewed_only: bool = True) -> list[tuple[Transcript, Transcript]]:
    """(original, copy) pairs of double-annotated transcripts; by default only pairs
    both of whose annotators have submitted."""
    copies = (
        Transcript.objects.filter(double_of__isnull=False)
        .select_related("double_of")
        .order_by("pk")
    )
    pairs = []
    for copy in copies:
        original = copy.double_of
        if reviewed_only and not (
            copy.state in REVIEWED_STATES and original.state in REVIEWED_STATES
        ):
            continue
        pairs.append((original, copy))
    return pairs


def reviewed_transcripts() -> QuerySet[Transcript]:
    """Every reviewed transcript (submitted or later), originals and copies."""
    return Transcript.objects.filter(state__in=REVIEWED_STATES).order_by("pk")
