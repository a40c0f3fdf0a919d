from django.http import Http404
from django.shortcuts import render
from django_htmx.http import HttpResponseStopPolling

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
