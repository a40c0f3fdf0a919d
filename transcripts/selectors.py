"""Read-side queries for transcripts (HackSoft: selectors read, services write)."""

from django.db.models import Count, Q, QuerySet

from anonreview import roles
from transcripts.models import Job, Transcript


def transcript_list(*, user) -> QuerySet[Transcript]:
    """Transcripts the user may see, with span counts for the queue."""
    return (
        Transcript.objects.visible_to(user)
        .prefetch_related("assignees")
        .annotate(
            span_total=Count("spans", distinct=True),
            span_undecided=Count("spans", filter=Q(spans__status="suggested"), distinct=True),
        )
        .defer("text")
    )


def job_list_active(*, user) -> QuerySet[Job]:
    """Recent jobs the user may watch: their own, or on transcripts they can see."""
    return (
        _jobs_visible_to(user)
        .select_related("transcript")
        .defer("transcript__text")
        .order_by("-created_at")[:20]
    )


def job_get_visible(*, user, job_id: int) -> Job:
    return _jobs_visible_to(user).distinct().get(pk=job_id)


def _jobs_visible_to(user) -> QuerySet[Job]:
    """Leads see every job (training, dashboards); others their own or their transcripts'."""
    if roles.is_lead(user):
        return Job.objects.all()
    visible = Transcript.objects.visible_to(user).values("pk")
    return Job.objects.filter(Q(created_by=user) | Q(transcript__in=visible))


def transcript_ocr_summary(*, transcript: Transcript, limit: int = 40) -> dict | None:
    """For a transcript read by OCR: pages, seconds per page, mean confidence and the
    words read with low confidence (text and character range, first ``limit``)."""
    report = (transcript.metadata or {}).get("ocr")
    if not isinstance(report, dict):
        return None
    ranges = [
        r
        for r in report.get("low_confidence") or []
        if isinstance(r, list | tuple) and len(r) == 2 and 0 <= r[0] < r[1] <= len(transcript.text)
    ]
    return {
        "pages": report.get("pages"),
        "seconds_per_page": report.get("seconds_per_page"),
        "mean_confidence": report.get("mean_confidence"),
        "low_confidence_count": len(ranges),
        "low_confidence": [
            {"start": s, "end": e, "text": transcript.text[s:e]} for s, e in ranges[:limit]
        ],
    }
