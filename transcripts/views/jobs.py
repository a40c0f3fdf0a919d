from django.http import Http404
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.http import require_POST
from django_htmx.http import HttpResponseStopPolling

from anonreview import roles
from transcripts import selectors
from transcripts.models import Job
from transcripts.services import jobs


def job_status(request, job_id: int):
    """One job's progress bar; htmx polls it every second until it ends."""
    jobs.jobs_fail_stale()  # a worker killed mid-job must not leave the bar running forever
    try:
        job = selectors.job_get_visible(user=request.user, job_id=job_id)
    except Job.DoesNotExist as exc:
        raise Http404("No such job.") from exc
    job = selectors.job_with_batch_progress(job)
    response = render(request, "transcripts/_job.html", {"job": job})
    if request.htmx and not job.is_active:
        # Swap in the final state once, then stop polling (HTTP 286).
        response.status_code = HttpResponseStopPolling.status_code
    return response


@require_POST
def job_cancel(request, job_id: int):
    """Cancel a queued or running job (leads): htmx gets the ended bar, a plain form
    goes back to the page it came from."""
    if not roles.is_lead(request.user):
        return render(
            request,
            "transcripts/_job_forbidden.html",
            {"message": "Only leads and admins can cancel jobs."},
            status=403,
        )
    try:
        job = selectors.job_get_visible(user=request.user, job_id=job_id)
    except Job.DoesNotExist as exc:
        raise Http404("No such job.") from exc
    jobs.job_cancel(job_id=job.pk, user=request.user)
    job.refresh_from_db()
    if request.htmx:
        job = selectors.job_with_batch_progress(job)
        return render(request, "transcripts/_job.html", {"job": job})
    if job.kind == Job.Kind.IMPORT and job.batch_id is None:  # an upload: its results
        return redirect(f"{reverse('transcripts:upload')}?job={job.pk}")
    nxt = request.POST.get("next", "")
    if nxt and url_has_allowed_host_and_scheme(nxt, allowed_hosts={request.get_host()}):
        return redirect(nxt)
    return redirect(reverse("transcripts:list"))
