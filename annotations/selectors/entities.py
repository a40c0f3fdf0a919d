"""The entity list: reference groups by label, with their surface forms and counts."""

from collections import Counter, defaultdict
from dataclasses import dataclass, field

from django.db.models import Count, Q

from annotations.locking import group_version
from annotations.models import Span
from annotations.selectors.rows import UNDECIDED, ReviewFilters, SpanRow
from engine.labels import LABELS, SPELLED_NAME
from transcripts.models import Transcript


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
