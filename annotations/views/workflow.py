"""The transcript's overview page and the workflow actions: start review, submit,
approve (leak check), return with a comment, release. Thin: parse, call one service,
render or redirect. (In ``annotations``: the page shows agreement, approval runs
the leak check; the URLs stay under ``/transcripts/``.)"""

from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.html import format_html
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.http import require_POST

from annotations.models import LeakException
from annotations.services import review as review_services
from annotations.services import workflow as wf
from annotations.services.leaks import leak_places
from annotations.services.measurements import agreement_for_transcript
from annotations.services.review import review_edit_refusal
from annotations.summary import review_changes, review_summary
from anonreview import roles
from transcripts import selectors
from transcripts.models import Transcript

S = Transcript.State
STRATEGIES = ("tags", "surrogate", "mask", "redact")
SUMMARY_STATES = frozenset({S.SUBMITTED, S.APPROVED, S.RELEASED})


def _get(request, pk: int) -> Transcript:
    try:
        return selectors.transcript_get_visible(user=request.user, pk=pk)
    except Transcript.DoesNotExist as exc:
        raise Http404("No such transcript.") from exc


def _error(request, exc: Exception) -> None:
    """A refusal as a message, with a link to the place to act when it has one (the
    first undecided span)."""
    url = getattr(exc, "url", "")
    if url:
        text = str(exc).replace(f" The first: {url}", "")
        messages.error(
            request,
            format_html('{} <a href="{}" class="refusal-link">Go to the first one</a>.', text, url),
        )
    else:
        messages.error(request, str(exc))


def review_url(transcript: Transcript) -> str:
    return f"/transcripts/{transcript.pk}/review/"


def _context(request, transcript: Transcript, **extra) -> dict:
    user = request.user
    is_lead = roles.is_lead(user)
    spans = transcript.spans.all()
    total = spans.count()
    undecided = spans.filter(status="suggested").count()
    targets = set(wf.allowed_targets(transcript=transcript, actor=user))
    own_reason = wf.approval_refusal(transcript=transcript, actor=user)
    own = own_reason is not None
    is_copy = transcript.double_of_id is not None
    return {
        "transcript": transcript,
        "original": transcript.double_of,
        "copies": transcript.double_annotations.prefetch_related("assignees").defer("text"),
        "span_total": total,
        "span_undecided": undecided,
        "span_decided": total - undecided,
        "read_only": transcript.state in wf.READ_ONLY_STATES,
        "can_start_review": S.IN_REVIEW in targets,
        "can_submit": S.SUBMITTED in targets,
        "can_approve": S.APPROVED in targets and is_lead and not own and not is_copy,
        "own_work": own,
        "own_work_reason": own_reason,
        "can_return": S.RETURNED in targets and is_lead,
        "can_release": S.RELEASED in targets and is_lead and not is_copy,
        # Leads only: an annotator must not see the other's decisions before submitting.
        "agreement": agreement_for_transcript(transcript) if is_lead else None,
        "events": selectors.audit_list(user=user, transcript=transcript)[:8],
        "review_url": review_url(transcript),
        "strategies": STRATEGIES,
        "ocr": selectors.transcript_ocr_summary(transcript=transcript),
        "import_notices": selectors.transcript_import_notices(transcript=transcript),
        # The approval screen: what was decided against the machine's proposal (leads).
        "summary": review_summary(transcript=transcript, leaks=extra.get("all_leaks"))
        if is_lead and not is_copy and transcript.state in SUMMARY_STATES
        else None,
        "annotation_job": transcript.jobs.filter(kind="annotate").order_by("-id").first(),
        "can_annotate_again": is_lead and transcript.state in (S.FAILED, S.IMPORTED),
        **extra,
    }


def _leak_list(request, transcript: Transcript, leaks: list, message: str) -> dict:
    """The leak list's context: each leak with its place and the number of identical
    findings (same text, same kind: one "not a leak" decision covers them all), the
    count of blocking ones, and whether the user may add spans."""
    places = leak_places(transcript=transcript, leaks=leaks)
    same: dict[tuple[str, str], int] = {}
    for leak in leaks:
        if leak.source_start is not None:
            same[(leak.text, leak.kind)] = same.get((leak.text, leak.kind), 0) + 1
    for place in places:
        place["same"] = same.get((place["leak"].text, place["leak"].kind), 0)
    return {
        "leaks": leaks,
        "leak_places": places,
        "leak_message": message,
        "blocking_count": sum(1 for leak in leaks if leak.blocking),
        "can_add_spans": review_edit_refusal(transcript=transcript, user=request.user) is None,
        "not_a_leak_reasons": LeakException.Reason.choices,
    }


def _leak_context(request, transcript: Transcript, exc: wf.LeakCheckFailed) -> dict:
    """The overview with the leak list of a refused Submit or approval."""
    transcript.refresh_from_db()
    return _context(request, transcript, **_leak_list(request, transcript, exc.leaks, str(exc)))


def _blocking_now(transcript: Transcript) -> list:
    from annotations.services.leaks import blocking_leaks, release_leaks

    transcript.refresh_from_db()
    return blocking_leaks(release_leaks(transcript=transcript)[1])


def _leak_report(request, transcript: Transcript, leaks: list):
    """The leak list as the leak check reads it now (an htmx swap after a decision)."""
    then_submit = request.POST.get("then") == "submit"
    if leaks:
        noun = "place is" if len(leaks) == 1 else "places are"
        then = "the last decision submits" if then_submit else "then submit again"
        message = f"{len(leaks)} blocking {noun} left: decide each, {then}."
    else:
        message = "No blocking finding is left: submit again."
    context = {
        "transcript": transcript,
        "leak_then_submit": then_submit,
        **_leak_list(request, transcript, leaks, message),
    }
    return render(request, "transcripts/_leak_report.html", context)


def transcript_detail(request, pk: int):
    """One transcript: state, assignees, progress, the next workflow steps, agreement."""
    transcript = _get(request, pk)
    return render(request, "transcripts/detail.html", _context(request, transcript))


def transcript_changes(request, pk: int):
    """The curation view: every place the release differs from the machine's proposal."""
    transcript = _get(request, pk)
    if not roles.is_lead(request.user):
        raise PermissionDenied("Only leads see the changes against the proposal.")
    changes = review_changes(transcript=transcript)
    kinds: dict[str, int] = {}
    for c in changes:
        kinds[c.kind] = kinds.get(c.kind, 0) + 1
    return render(
        request,
        "transcripts/changes.html",
        {"transcript": transcript, "changes": changes, "kinds": sorted(kinds.items())},
    )


@require_POST
def transcript_annotate_view(request, pk: int):
    """A lead runs the automatic annotation again (a failed or never annotated
    transcript); the page then shows the job's progress bar."""
    from annotations.services.annotation_queue import transcript_annotate_rerun

    transcript = _get(request, pk)
    if not roles.is_lead(request.user):
        raise PermissionDenied("Only leads can run the automatic annotation again.")
    try:
        transcript_annotate_rerun(transcript=transcript, actor=request.user)
    except wf.TransitionError as exc:
        messages.error(request, str(exc))
    else:
        messages.success(request, f"The automatic annotation of transcript {pk} is queued.")
    return redirect("annotations:detail", pk=pk)


@require_POST
def transcript_start_review_view(request, pk: int):
    transcript = _get(request, pk)
    try:
        wf.transcript_start_review(transcript=transcript, actor=request.user)
    except wf.TransitionError as exc:
        _error(request, exc)
        return redirect("annotations:detail", pk=pk)
    return redirect(review_url(transcript))


@require_POST
def transcript_submit_view(request, pk: int):
    transcript = _get(request, pk)
    try:
        wf.transcript_submit(transcript=transcript, actor=request.user)
    except wf.LeakCheckFailed as exc:
        context = _leak_context(request, transcript, exc)
        # the annotator pressed Submit: answering the list's last place submits
        context["leak_then_submit"] = True
        return render(request, "transcripts/detail.html", context, status=409)
    except wf.TransitionError as exc:
        _error(request, exc)
        return redirect("annotations:detail", pk=pk)
    messages.success(request, f"Transcript {pk} submitted for approval.")
    return redirect("transcripts:list")


@require_POST
def transcript_not_a_leak_view(request, pk: int):
    """Mark one place of the leak list "not a leak here" (with a reason), or with
    ``scope=all`` every identical finding; from htmx the list is answered again in place
    (the decision's places gone, the count updated), else back to the overview."""
    transcript = _get(request, pk)
    try:
        start, end = int(request.POST.get("start", "")), int(request.POST.get("end", ""))
    except ValueError:
        return HttpResponse("Give the place as two numbers.", status=400)
    add = (
        review_services.leak_exception_add_all
        if request.POST.get("scope") == "all"
        else review_services.leak_exception_add
    )
    try:
        made = add(
            transcript=transcript, actor=request.user, start=start, end=end,
            reason=request.POST.get("reason", ""), note=request.POST.get("note", ""),
        )  # fmt: skip
    except review_services.ReviewPermissionError as exc:
        messages.error(request, str(exc))
        return redirect("annotations:detail", pk=pk)
    except review_services.ReviewError as exc:
        return HttpResponse(str(exc), status=400, content_type="text/plain; charset=utf-8")
    leaks = _blocking_now(transcript)
    if not leaks and request.POST.get("then") == "submit":
        # The list came from the annotator's Submit and this answered its last place: the
        # Submit goes through (a second press decided nothing; the leak check runs again).
        try:
            wf.transcript_submit(transcript=transcript, actor=request.user)
        except wf.LeakCheckFailed as exc:
            leaks = exc.leaks
        except wf.TransitionError as exc:
            _error(request, exc)
        else:
            messages.success(
                request, f"Transcript {pk} submitted for approval: every place of the leak "
                "list decided.",
            )  # fmt: skip
            if request.htmx:
                response = HttpResponse(status=204)
                response["HX-Redirect"] = reverse("transcripts:list")
                return response
            return redirect("transcripts:list")
    if request.htmx:
        return _leak_report(request, transcript, leaks)
    count = len(made) if isinstance(made, list) else 1
    places = "this place" if count == 1 else f"these {count} places"
    messages.success(
        request, f"Marked {places} “not a leak here” (the lead sees it with your reason); "
        "submit again.",
    )  # fmt: skip
    return redirect("annotations:detail", pk=pk)


@require_POST
def transcript_approve_view(request, pk: int):
    transcript = _get(request, pk)
    if not roles.is_lead(request.user):
        raise PermissionDenied("Only leads can approve.")
    try:
        wf.transcript_approve(transcript=transcript, actor=request.user)
    except wf.LeakCheckFailed as exc:
        context = _leak_context(request, transcript, exc)
        return render(request, "transcripts/detail.html", context, status=409)
    except wf.TransitionError as exc:
        _error(request, exc)
        return redirect("annotations:detail", pk=pk)
    messages.success(request, f"Transcript {pk} approved: the leak check passed.")
    return redirect("annotations:detail", pk=pk)


@require_POST
def transcript_return_view(request, pk: int):
    transcript = _get(request, pk)
    if not roles.is_lead(request.user):
        raise PermissionDenied("Only leads can return a transcript.")
    try:
        wf.transcript_return(
            transcript=transcript, actor=request.user, comment=request.POST.get("comment", "")
        )
    except wf.TransitionError as exc:
        _error(request, exc)
        return redirect("annotations:detail", pk=pk)
    messages.success(request, f"Transcript {pk} returned to its annotator.")
    return redirect("annotations:detail", pk=pk)


@require_POST
def transcript_release_view(request):
    """Release the posted approved transcripts; the response is the release zip."""
    if not roles.is_lead(request.user):
        raise PermissionDenied("Only leads can release.")
    ids = [int(v) for v in request.POST.getlist("transcript") if v.isdigit()]
    strategy = request.POST.get("strategy", "tags")
    back = request.POST.get("back", "")
    # Only a path on this site ("/\\evil.example" is another host to a browser).
    if not url_has_allowed_host_and_scheme(
        back, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ) or not back.startswith("/"):
        back = ""
    if strategy not in STRATEGIES:
        messages.error(request, "Unknown release strategy.")
        return redirect(back or "transcripts:list")
    transcripts = list(
        Transcript.objects.visible_to(request.user).filter(pk__in=ids).order_by("pk")
    )
    try:
        data = wf.transcript_release(transcripts=transcripts, actor=request.user, strategy=strategy)
    except wf.LeakCheckFailed as exc:
        messages.error(request, f"{exc} Nothing was released.")
        return redirect(back or "transcripts:list")
    except wf.TransitionError as exc:
        _error(request, exc)
        return redirect(back or "transcripts:list")
    stamp = timezone.now().strftime("%Y%m%d-%H%M%S")
    response = HttpResponse(data, content_type="application/zip")
    response["Content-Disposition"] = f'attachment; filename="release-{stamp}.zip"'
    return response
