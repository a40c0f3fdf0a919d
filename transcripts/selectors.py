"""Read-side queries (HackSoft: selectors read, services write): the queue, the
transcript overview, the audit pages and the job list."""

from datetime import date, datetime, time

from django.contrib.auth import get_user_model
from django.db.models import Count, F, OuterRef, Prefetch, Q, QuerySet, Subquery
from django.db.models.functions import Coalesce
from django.utils import timezone

from anonreview import roles
from anonreview.core.models import AuditEvent
from transcripts.models import Job, Transcript


def queue_list(
    *, user, state: str = "", assignee: str = "", include_copies: bool = True
) -> QuerySet[Transcript]:
    """Transcripts the user may see, newest first, with span progress, the time of
    the last state change, and the second annotators' copies prefetched."""
    last_change = (
        AuditEvent.objects.filter(transcript=OuterRef("pk"), event_type="transcript.transition")
        .order_by("-created_at", "-id")
        .values("created_at")[:1]
    )
    qs = (
        Transcript.objects.visible_to(user)
        .select_related("double_of")
        .prefetch_related(
            "assignees",
            Prefetch(
                "double_annotations",
                queryset=Transcript.objects.prefetch_related("assignees")
                .defer("text")
                .order_by("pk"),
            ),
        )
        .annotate(
            span_total=Count("spans", distinct=True),
            span_undecided=Count("spans", filter=Q(spans__status="suggested"), distinct=True),
            span_decided=Count("spans", filter=~Q(spans__status="suggested"), distinct=True),
            state_since=Subquery(last_change),
        )
        .defer("text", "double_of__text")
    )
    if state:
        qs = qs.filter(state=state)
    if assignee:
        qs = qs.filter(
            Q(assignees__username=assignee) | Q(double_annotations__assignees__username=assignee)
        )
    if not include_copies:
        qs = qs.filter(double_of__isnull=True)
    # Newest first, each second-annotation copy right after its original.
    return (
        qs.distinct()
        .annotate(group=Coalesce("double_of_id", "id"))
        .order_by("-group", F("double_of_id").asc(nulls_first=True), "id")
    )


def transcript_get_visible(*, user, pk: int) -> Transcript:
    return Transcript.objects.visible_to(user).get(pk=pk)


def queue_counts(*, user) -> dict[str, int]:
    # order_by(): the model's ordering would join GROUP BY and split the counts per row.
    rows = (
        Transcript.objects.visible_to(user)
        .order_by()
        .values("state")
        .annotate(n=Count("pk", distinct=True))
    )
    return {row["state"]: row["n"] for row in rows}


def _day_start(value: date) -> datetime:
    return timezone.make_aware(datetime.combine(value, time.min))


def audit_list(
    *,
    user,
    transcript: Transcript | None = None,
    username: str = "",
    action: str = "",
    date_from: date | None = None,
    date_to: date | None = None,
) -> QuerySet[AuditEvent]:
    """Audit rows the user may read, filtered. Leads read everything; others read the
    rows of transcripts visible to them (only through a transcript's page)."""
    qs = AuditEvent.objects.select_related("transcript", "span").defer("transcript__text")
    if transcript is not None:
        if roles.is_lead(user) or double_annotation_submitted(transcript=transcript):
            qs = qs.filter(Q(transcript=transcript) | Q(transcript__double_of=transcript))
        else:
            # Double annotation: until both annotators submitted, each reads only the
            # events of their own copy (never the other's decisions).
            qs = qs.filter(transcript=transcript)
    elif not roles.is_lead(user):
        return qs.none()
    if username:
        qs = qs.filter(actor_username=username)
    if action:
        qs = qs.filter(event_type=action)
    if date_from:
        qs = qs.filter(created_at__gte=_day_start(date_from))
    if date_to:
        qs = qs.filter(created_at__lt=_day_start(date.fromordinal(date_to.toordinal() + 1)))
    return qs.order_by("-created_at", "-id")


SUBMITTED_OR_LATER = frozenset({Transcript.State.SUBMITTED, Transcript.State.APPROVED,
                                Transcript.State.RELEASED})  # fmt: skip


def double_annotation_submitted(*, transcript: Transcript) -> bool:
    """Whether every annotation of ``transcript`` (the original and its second-annotation
    copies) has been submitted; a transcript without copies counts as submitted."""
    original_id = transcript.double_of_id or transcript.pk
    states = Transcript.objects.filter(Q(pk=original_id) | Q(double_of_id=original_id))
    return not states.exclude(state__in=SUBMITTED_OR_LATER).exists()


def audit_actions(*, events: QuerySet[AuditEvent] | None = None) -> list[str]:
    """Event types to filter by: of ``events`` (what the reader may see), or all."""
    qs = AuditEvent.objects.all() if events is None else events
    return list(qs.order_by("event_type").values_list("event_type", flat=True).distinct())


def audit_usernames(*, events: QuerySet[AuditEvent] | None = None) -> list[str]:
    """Actors to filter by: of ``events`` (what the reader may see), or all."""
    qs = AuditEvent.objects.all() if events is None else events
    return list(
        qs.exclude(actor_username="")
        .order_by("actor_username")
        .values_list("actor_username", flat=True)
        .distinct()
    )


def users_by_username(names) -> dict:
    return {u.username: u for u in get_user_model().objects.filter(username__in=list(names))}


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


def transcript_import_notices(*, transcript: Transcript) -> list[str]:
    """The import's notices (sentences for people: read by OCR, part of the text read as
    the cover, no speaker turns recognised, ...), as stored with the transcript."""
    notices = (transcript.metadata or {}).get("import_notices")
    return [n for n in notices if isinstance(n, str)] if isinstance(notices, list) else []


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


def job_with_batch_progress(job: Job) -> Job:
    """``job`` with, while it is an upload batch still running, its files' progress.

    A batch row is written only when its last file ends (``import_batch_refresh``); in
    between, its bar shows the mean progress of its files' Jobs and how many are done.
    Changes the instance in memory only.
    """
    if not job.is_active:
        return job
    files = list(Job.objects.filter(batch_id=job.pk).only("status", "progress"))
    if not files:
        return job
    done = sum(1 for f in files if not f.is_active)
    job.progress = sum(100 if not f.is_active else f.progress for f in files) // len(files)
    if any(f.status == Job.Status.RUNNING for f in files) or done:
        job.status = Job.Status.RUNNING
    job.message = f"{done} of {len(files)} file(s) done"
    return job


def job_batch_pending_end(job: Job) -> bool:
    """A batch still marked active although none of its files' Jobs is (its end was lost,
    e.g. a worker killed between a file's end and the batch's)."""
    return (
        job.is_active
        and Job.objects.filter(batch_id=job.pk).exists()
        and not Job.objects.filter(
            batch_id=job.pk, status__in=[Job.Status.QUEUED, Job.Status.RUNNING]
        ).exists()
    )
