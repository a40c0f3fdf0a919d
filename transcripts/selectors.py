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
