"""Export page for leads: release text/zip (leak-checked), key (leads only), gold data."""

from __future__ import annotations

from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.views.decorators.http import require_GET, require_http_methods

from annotations.services import export as export_services
from annotations.services.leaks import LeakError
from anonreview import roles
from engine.pseudonymize import STRATEGIES
from transcripts.models import Transcript

CONTENT_TYPES = {
    "jsonl": ("application/x-ndjson", "jsonl"),
    "spacy": ("application/octet-stream", "spacy"),
    "conll": ("text/plain; charset=utf-8", "conll"),
    "svala": ("application/json", "svala.json"),
}


def _require_lead(request: HttpRequest) -> None:
    if not roles.is_lead(request.user):
        raise PermissionDenied("Only leads may export.")


def _strategy(request: HttpRequest) -> str:
    strategy = request.POST.get("strategy") or request.GET.get("strategy") or "tags"
    return strategy if strategy in STRATEGIES else "tags"


def _download(data: bytes | str, name: str, content_type: str) -> HttpResponse:
    response = HttpResponse(data, content_type=content_type)
    response["Content-Disposition"] = f'attachment; filename="{name}"'
    response["Cache-Control"] = "no-store"
    return response


def _selected(request: HttpRequest):
    ids = [int(i) for i in request.POST.getlist("transcripts") if i.isdigit()]
    return list(Transcript.objects.visible_to(request.user).filter(pk__in=ids).order_by("pk"))


def _leak_response(request: HttpRequest, exc: LeakError) -> HttpResponse:
    leaks = [
        {"transcript": pk, "leaks": [leak.to_json() for leak in items]}
        for pk, items in exc.leaks.items()
    ]
    return render(request, "annotations/export_leaks.html", {"results": leaks}, status=409)


@require_GET
def export_page(request: HttpRequest) -> HttpResponse:
    _require_lead(request)
    transcripts = Transcript.objects.visible_to(request.user).order_by("-id")
    state = request.GET.get("state") or ""
    if state:
        transcripts = transcripts.filter(state=state)
    return render(
        request,
        "annotations/export.html",
        {
            "transcripts": transcripts,
            "strategies": STRATEGIES,
            "gold_formats": export_services.GOLD_FORMATS,
            "states": Transcript.State.choices,
            "state": state,
        },
    )


@require_GET
def release_text_download(request: HttpRequest, transcript_id: int) -> HttpResponse:
    _require_lead(request)
    transcript = get_object_or_404(Transcript.objects.visible_to(request.user), pk=transcript_id)
    try:
        text = export_services.release_text_export(
            transcript=transcript, strategy=_strategy(request), actor=request.user
        )
    except LeakError as exc:
        return _leak_response(request, exc)
    return _download(text, export_services.release_name(transcript), "text/plain; charset=utf-8")


@require_http_methods(["POST"])
def release_zip_download(request: HttpRequest) -> HttpResponse:
    _require_lead(request)
    transcripts = _selected(request)
    if not transcripts:
        return HttpResponse("Select at least one transcript.", status=400)
    try:
        data = export_services.release_build(
            transcripts=transcripts, strategy=_strategy(request), actor=request.user
        )
    except LeakError as exc:
        return _leak_response(request, exc)
    return _download(data, "release.zip", "application/zip")


@require_http_methods(["GET", "POST"])
def key_download(request: HttpRequest, transcript_id: int | None = None) -> HttpResponse:
    """The key (original → pseudonym): leads only, a separate file, never in a release."""
    _require_lead(request)
    if transcript_id is not None:
        transcripts = [
            get_object_or_404(Transcript.objects.visible_to(request.user), pk=transcript_id)
        ]
        name = f"key-transcript-{transcript_id}.json"
    else:
        transcripts = _selected(request)
        name = "key.json"
    if not transcripts:
        return HttpResponse("Select at least one transcript.", status=400)
    data = export_services.key_build(
        transcripts=transcripts, actor=request.user, strategy=_strategy(request)
    )
    return _download(data, name, "application/json")


@require_http_methods(["GET", "POST"])
def gold_download(request: HttpRequest) -> HttpResponse:
    _require_lead(request)
    fmt = request.POST.get("format") or request.GET.get("format") or "jsonl"
    if fmt not in export_services.GOLD_FORMATS:
        return HttpResponse("Unknown format.", status=400)
    if request.method == "POST":
        transcripts = _selected(request)
    else:
        state = request.GET.get("state") or Transcript.State.APPROVED
        transcripts = list(
            Transcript.objects.visible_to(request.user).filter(state=state).order_by("pk")
        )
    data = export_services.gold_export(transcripts=transcripts, fmt=fmt, actor=request.user)
    content_type, ext = CONTENT_TYPES[fmt]
    return _download(data, f"gold.{ext}", content_type)
