"""The allow-list page: everyone sees the terms; leads add and remove them.

Thin: each POST calls one service; with htmx only the ``terms`` partial comes back.
"""

from django.contrib import messages
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_http_methods, require_POST

from annotations.models import AllowListTerm
from annotations.services import allowlist as services
from anonreview import roles

TEMPLATE = "annotations/allowlist.html"


def _render(
    request: HttpRequest, *, error: str = "", term: str = "", status: int = 200
) -> HttpResponse:
    context = {
        "terms": AllowListTerm.objects.order_by("term"),
        "can_edit": roles.is_lead(request.user),
        "error": error,
        "term_value": term,
    }
    template = f"{TEMPLATE}#terms" if request.htmx else TEMPLATE
    return render(request, template, context, status=status)


@require_http_methods(["GET", "POST"])
def allowlist_page(request: HttpRequest) -> HttpResponse:
    if request.method == "GET":
        return _render(request)
    if not roles.is_lead(request.user):
        raise PermissionDenied("Only leads may change the allow-list.")
    term = request.POST.get("term", "")
    try:
        services.allowlist_term_add(term=term, note=request.POST.get("note", ""), user=request.user)
    except ValidationError as exc:
        if request.htmx:
            return _render(request, error=" ".join(exc.messages), term=term, status=422)
        messages.error(request, " ".join(exc.messages))
        return redirect("annotations:allowlist")
    if request.htmx:
        return _render(request)
    messages.success(request, "Term added.")
    return redirect("annotations:allowlist")


@require_POST
def allowlist_delete(request: HttpRequest, term_id: int) -> HttpResponse:
    try:
        services.allowlist_term_delete(term_id=term_id, user=request.user)
    except AllowListTerm.DoesNotExist:
        pass  # already gone: the list below shows the truth
    if request.htmx:
        return _render(request)
    messages.success(request, "Term removed.")
    return redirect("annotations:allowlist")
