"""The dashboard's reads: gold, the machine's proposals, double annotation."""

from django.db.models import QuerySet

from annotations.models import Span
from engine.spans import Prediction
from transcripts.models import Transcript

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
