"""Upload page: import several files at once (leads and admins).

Thin views: parse the request, call one service, render. The import runs as a
background Job; the page shows its live progress bar and, when it is done, the
result of every file and the progress of the annotation jobs it queued.
"""

from django.contrib.auth import get_user_model
from django.http import Http404
from django.shortcuts import redirect, render
from django.urls import reverse
from django_htmx.http import HttpResponseStopPolling

from anonreview import roles
from engine.importing.sources import TYPES
from transcripts import selectors
from transcripts.models import Job
from transcripts.services.importing import import_limits
from transcripts.services.jobs import import_batch_refresh
from transcripts.services.upload_staging import import_job_enqueue

FORBIDDEN = "Only leads and admins can import transcripts. Ask a lead to import the file for you."


def _forbidden(request):
    return render(request, "transcripts/upload.html", {"forbidden": FORBIDDEN}, status=403)


def _annotators():
    from transcripts.services.assignment import annotators_available

    return annotators_available()


def _panel_context(job: Job) -> dict:
    if selectors.job_batch_pending_end(job):
        import_batch_refresh(job_id=job.pk)
        job.refresh_from_db()
    job = selectors.job_with_batch_progress(job)
    files = (job.result or {}).get("files", []) if not job.is_active else []
    ids = [f["annotation_job_id"] for f in files if f.get("annotation_job_id")]
    annotation_jobs = list(
        Job.objects.filter(pk__in=ids).select_related("transcript").defer("transcript__text")
    )
    return {
        "job": job,
        "files": files,
        "imported": sum(1 for f in files if f.get("ok")),
        "annotation_jobs": annotation_jobs,
    }


def transcript_upload(request):
    """GET: the form and the user's recent imports. POST: queue an import of the files."""
    if not roles.is_lead(request.user):
        return _forbidden(request)
    limits = import_limits()
    context = {
        "annotators": _annotators(),
        "max_mb": limits["max_bytes"] // (1024 * 1024),
        "recent": [
            selectors.job_with_batch_progress(job)
            for job in Job.objects.filter(
                kind=Job.Kind.IMPORT, created_by=request.user, batch__isnull=True
            )[:5]
        ],
    }
    if request.method == "POST":
        uploads = request.FILES.getlist("files")
        if not uploads:
            context["form_error"] = f"Choose one or more files ({TYPES} or .zip)."
            return render(request, "transcripts/upload.html", context, status=400)
        assignees = []
        if assign := request.POST.get("assign"):
            User = get_user_model()
            user = User.objects.filter(pk=assign).first() if assign.isdigit() else None
            if user is None or not roles.is_annotator(user):
                context["form_error"] = "Choose an annotator from the list."
                return render(request, "transcripts/upload.html", context, status=400)
            assignees = [user]
        job = import_job_enqueue(uploads=uploads, user=request.user, assignees=assignees)
        job.refresh_from_db()
        if request.htmx:
            return render(request, "transcripts/upload.html#import-panel", _panel_context(job))
        return redirect(f"{reverse('transcripts:upload')}?job={job.pk}")
    if job_id := request.GET.get("job"):
        job = (
            Job.objects.filter(
                pk=job_id, kind=Job.Kind.IMPORT, created_by=request.user, batch__isnull=True
            ).first()
            if job_id.isdigit()
            else None
        )
        if job is not None:
            context.update(_panel_context(job))
    return render(request, "transcripts/upload.html", context)


def bad_request(request, exception=None):
    """The project's 400 handler: an upload of more files than the limit gets the upload
    page with the limit in words; anything else Django's plain 400 page."""
    from django.conf import settings
    from django.core.exceptions import TooManyFilesSent
    from django.views.defaults import bad_request as default_bad_request

    user = getattr(request, "user", None)  # unset when a middleware refused first
    if isinstance(exception, TooManyFilesSent) and user is not None and roles.is_lead(user):
        limit = settings.DATA_UPLOAD_MAX_NUMBER_FILES
        limits = import_limits()
        context = {
            "annotators": _annotators(),
            "max_mb": limits["max_bytes"] // (1024 * 1024),
            "recent": [],
            "form_error": (
                f"Too many files: at most {limit} per upload. Upload them in parts, or as "
                f".zip archives (up to {limits['max_members']} files and "
                f"{limits['max_total'] // (1024 * 1024)} MB each)."
            ),
        }
        return render(request, "transcripts/upload.html", context, status=400)
    return default_bad_request(request, exception)


def import_job_panel(request, job_id: int):
    """The import job's panel (progress, then per-file results); htmx polls it."""
    if not roles.is_lead(request.user):
        return _forbidden(request)
    try:
        job = selectors.job_get_visible(user=request.user, job_id=job_id)
    except Job.DoesNotExist as exc:
        raise Http404("No such job.") from exc
    if job.kind != Job.Kind.IMPORT:
        raise Http404("No such import.")
    response = render(request, "transcripts/upload.html#import-panel", _panel_context(job))
    if request.htmx and not job.is_active:
        response.status_code = HttpResponseStopPolling.status_code
    return response
