"""The queue: leads see every transcript (states, assignees, progress, age) and assign
them; annotators see their own."""

from django.contrib import messages
from django.contrib.auth import get_user_model
from django.core.exceptions import PermissionDenied
from django.http import Http404
from django.shortcuts import redirect, render
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.http import require_POST

from anonreview import roles
from transcripts import selectors
from transcripts.models import Transcript
from transcripts.services import jobs
from transcripts.services.assignment import AssignmentError, annotators_available, transcript_assign


def transcript_list(request):
    """The queue, filterable by state (and by assignee for leads)."""
    state = request.GET.get("state", "")
    if state and state not in Transcript.State.values:
        state = ""
    is_lead = roles.is_lead(request.user)
    jobs.jobs_fail_stale()  # before listing: a job whose worker died shows as failed
    assignee = request.GET.get("assignee", "") if is_lead else ""
    transcripts = selectors.queue_list(user=request.user, state=state, assignee=assignee)
    counts = selectors.queue_counts(user=request.user)
    return render(
        request,
        "transcripts/list.html",
        {
            "transcripts": transcripts,
            "jobs": selectors.job_list_active(user=request.user),
            "state": state,
            "assignee": assignee,
            "states": [(v, label, counts.get(v, 0)) for v, label in Transcript.State.choices],
            "annotators": annotators_available() if is_lead else [],
        },
    )


@require_POST
def transcript_assign_view(request, pk: int):
    """Assign one annotator, or two for double annotation (leads only)."""
    if not roles.is_lead(request.user):
        raise PermissionDenied("Only leads can assign transcripts.")
    try:
        transcript = selectors.transcript_get_visible(user=request.user, pk=pk)
    except Transcript.DoesNotExist as exc:
        raise Http404("No such transcript.") from exc
    User = get_user_model()
    chosen = []
    for key in ("annotator", "second_annotator"):
        username = request.POST.get(key, "").strip()
        if username:
            try:
                chosen.append(User.objects.get(username=username, is_active=True))
            except User.DoesNotExist:
                messages.error(request, f"No active user called {username}.")
                return redirect(safe_next(request) or "transcripts:list")
    try:
        transcript_assign(transcript=transcript, annotators=chosen, actor=request.user)
    except AssignmentError as exc:
        messages.error(request, str(exc))
    else:
        names = " and ".join(u.get_username() for u in chosen)
        double = " (double annotation)" if len(chosen) == 2 else ""
        messages.success(request, f"Transcript {transcript.pk} assigned to {names}{double}.")
    return redirect(safe_next(request) or "transcripts:list")


def safe_next(request) -> str:
    """The ``next`` field when it points inside this site, else ``""``."""
    nxt = request.POST.get("next", "") or request.GET.get("next", "")
    if nxt and url_has_allowed_host_and_scheme(nxt, allowed_hosts={request.get_host()}):
        return nxt
    return ""
