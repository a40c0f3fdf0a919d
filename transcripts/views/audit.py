"""Audit pages: per transcript (anyone who can see it) and corpus-wide (leads),
filterable by user, action and date."""

from datetime import date

from django.core.exceptions import PermissionDenied
from django.core.paginator import Paginator
from django.http import Http404, HttpResponseBadRequest
from django.shortcuts import render

from anonreview import roles
from transcripts import selectors
from transcripts.models import Transcript

PER_PAGE = 100


# Dates a filter may name: an audit log holds nothing before 1900 nor after 2199.
EARLIEST, LATEST = date(1900, 1, 1), date(2199, 12, 31)


class BadFilter(ValueError):
    """A filter value no date or text field takes (the message is for users)."""


def _date(value: str) -> date | None:
    value = value.strip()
    if not value:
        return None
    try:
        day = date.fromisoformat(value)
    except ValueError as exc:
        raise BadFilter("Write dates as YYYY-MM-DD, for example 2024-05-13.") from exc
    if not EARLIEST <= day <= LATEST:
        raise BadFilter(f"Give a date between {EARLIEST} and {LATEST}.")
    return day


def _render(request, *, transcript: Transcript | None):
    try:
        filters = {
            "username": request.GET.get("user", "").strip(),
            "action": request.GET.get("action", "").strip(),
            "date_from": _date(request.GET.get("from", "")),
            "date_to": _date(request.GET.get("to", "")),
        }
    except BadFilter as exc:
        return HttpResponseBadRequest(str(exc), content_type="text/plain; charset=utf-8")
    events = selectors.audit_list(user=request.user, transcript=transcript, **filters)
    visible = selectors.audit_list(user=request.user, transcript=transcript)
    page = Paginator(events, PER_PAGE).get_page(request.GET.get("page"))
    query = request.GET.copy()
    query.pop("page", None)
    template = "transcripts/audit.html#audit-table" if request.htmx else "transcripts/audit.html"
    return render(
        request,
        template,
        {
            "transcript": transcript,
            "page": page,
            "filters": filters,
            "query": query.urlencode(),
            "actions": selectors.audit_actions(events=visible),
            "usernames": selectors.audit_usernames(events=visible),
        },
    )


def transcript_audit(request, pk: int):
    """The audit log of one transcript (and of its second-annotation copies)."""
    try:
        transcript = selectors.transcript_get_visible(user=request.user, pk=pk)
    except Transcript.DoesNotExist as exc:
        raise Http404("No such transcript.") from exc
    return _render(request, transcript=transcript)


def audit_all(request):
    """The corpus-wide audit log (leads only)."""
    if not roles.is_lead(request.user):
        raise PermissionDenied("Only leads can read the corpus-wide audit log.")
    return _render(request, transcript=None)
