"""Export page for leads: release text/zip (leak-checked), key (leads only), gold data.

Only approved or released transcripts (never double-annotation copies) are offered and
exported; anything else is answered 409 with a sentence. Every download is a POST (each
writes an audit row) and is sent with ``Cache-Control: no-store``.
"""

from __future__ import annotations

from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.utils.html import format_html
from django.views.decorators.http import require_GET, require_POST

from annotations.services import export as export_services
from annotations.services.export import NotReleasable
from annotations.services.leaks import LeakError
from anonreview import roles
from engine.datasheet import parse_ratios, parse_seed
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


def _refused(exc: NotReleasable) -> HttpResponse:
    """409 with the sentence, and a link where there is a place to act (the first
    undecided span)."""
    url = getattr(exc, "url", "")
    if url:
        body = format_html(
            '<!doctype html><title>Not exported</title><p class="refusal">{}</p>'
            '<p><a href="{}" id="refusal-link">Go to the first undecided span</a></p>',
            str(exc), url,
        )  # fmt: skip
        return HttpResponse(body, status=409, content_type="text/html; charset=utf-8")
    return HttpResponse(str(exc), status=409, content_type="text/plain; charset=utf-8")


def releasable(user):
    """What the Export page offers: approved or released originals the user may see."""
    return (
        Transcript.objects.visible_to(user)
        .filter(state__in=export_services.RELEASABLE_STATES, double_of__isnull=True)
        .defer("text")
    )


def _leak_response(request: HttpRequest, exc: LeakError) -> HttpResponse:
    leaks = [
        {"transcript": pk, "leaks": [leak.to_json() for leak in items]}
        for pk, items in exc.leaks.items()
    ]
    return render(request, "annotations/export_leaks.html", {"results": leaks}, status=409)


@require_GET
def export_page(request: HttpRequest) -> HttpResponse:
    _require_lead(request)
    transcripts = releasable(request.user).order_by("-id")
    state = request.GET.get("state") or ""
    if state in export_services.RELEASABLE_STATES:
        transcripts = transcripts.filter(state=state)
    else:
        state = ""
    return render(
        request,
        "annotations/export.html",
        {
            "transcripts": transcripts,
            "strategies": STRATEGIES,
            "gold_formats": export_services.GOLD_FORMATS,
            "states": [
                (value, label)
                for value, label in Transcript.State.choices
                if value in export_services.RELEASABLE_STATES
            ],
            "state": state,
        },
    )


@require_POST
def release_text_download(request: HttpRequest, transcript_id: int) -> HttpResponse:
    _require_lead(request)
    transcript = get_object_or_404(Transcript.objects.visible_to(request.user), pk=transcript_id)
    try:
        text = export_services.release_text_export(
            transcript=transcript, strategy=_strategy(request), actor=request.user
        )
    except NotReleasable as exc:
        return _refused(exc)
    except LeakError as exc:
        return _leak_response(request, exc)
    return _download(text, export_services.release_name(transcript), "text/plain; charset=utf-8")


@require_POST
def release_zip_download(request: HttpRequest) -> HttpResponse:
    _require_lead(request)
    transcripts = _selected(request)
    if not transcripts:
        return HttpResponse("Select at least one transcript.", status=400)
    try:
        data = export_services.release_build(
            transcripts=transcripts, strategy=_strategy(request), actor=request.user
        )
    except NotReleasable as exc:
        return _refused(exc)
    except LeakError as exc:
        return _leak_response(request, exc)
    return _download(data, "release.zip", "application/zip")


@require_POST
def key_download(request: HttpRequest, transcript_id: int | None = None) -> HttpResponse:
    """The key (original → pseudonym): leads only, a separate file, never in a release.

    A POST: the audit row (``key_exported``) is written in the same transaction as the
    file is built, when it is served."""
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
    try:
        data = export_services.key_build(
            transcripts=transcripts, actor=request.user, strategy=_strategy(request)
        )
    except NotReleasable as exc:
        return _refused(exc)
    return _download(data, name, "application/json")


@require_POST
def gold_download(request: HttpRequest) -> HttpResponse:
    """Gold data: the selected transcripts, or (``scope=all``) every approved one.

    Double-annotation copies are left out unless ``include_copies=1`` is posted; then the
    submitted copies of the chosen transcripts join, each flagged in its ``meta``. The
    services refuse anything not approved or released whoever calls them."""
    _require_lead(request)
    fmt = request.POST.get("format") or "jsonl"
    if fmt not in export_services.GOLD_FORMATS:
        return HttpResponse("Unknown format.", status=400)
    include_copies = request.POST.get("include_copies") == "1"
    visible = Transcript.objects.visible_to(request.user)
    state = request.POST.get("state") or Transcript.State.APPROVED
    if state not in export_services.RELEASABLE_STATES:
        return HttpResponse(
            "Gold data is exported of approved or released transcripts.", status=400
        )
    if request.POST.get("scope") != "all":
        visible = visible.filter(pk__in=[t.pk for t in _selected(request)])
        state = "releasable"
        if not visible.exists():
            return HttpResponse("Select at least one transcript.", status=400)
    transcripts = export_services.gold_transcripts(
        queryset=visible, state=state, include_copies=include_copies
    )
    if not transcripts:
        return HttpResponse(
            "Nothing to export: gold data is exported of approved or released transcripts "
            "(second annotations only when asked for).",
            status=409,
        )
    name_parts = request.POST.get("name_parts") == "1"
    split = (request.POST.get("split") or "").strip()
    if split:
        try:
            ratios = parse_ratios(split)
            seed = parse_seed(request.POST.get("seed") or "")
        except ValueError as exc:
            return HttpResponse(f"{str(exc)[:1].upper()}{str(exc)[1:]}.", status=400)
        try:
            members = export_services.gold_export_split(
                transcripts=transcripts,
                fmt=fmt,
                actor=request.user,
                ratios=ratios,
                seed=seed,
                name_parts=name_parts,
            )
        except NotReleasable as exc:
            return _refused(exc)
        return _download(export_services.gold_zip(members), "gold.zip", "application/zip")
    try:
        data = export_services.gold_export(
            transcripts=transcripts, fmt=fmt, actor=request.user, name_parts=name_parts
        )
    except NotReleasable as exc:
        return _refused(exc)
    content_type, ext = CONTENT_TYPES[fmt]
    return _download(data, f"gold.{ext}", content_type)
