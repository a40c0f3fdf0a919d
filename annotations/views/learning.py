"""The learning page (leads): train the transformer detector on the approved
transcripts, watch the job's progress, and read the model history."""

from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.shortcuts import redirect, render

from annotations.services import learning
from anonreview import roles
from engine.labels import LABELS


def _rows(metrics: dict) -> list[dict]:
    """Rows for ``annotations/_prf_table.html``: overall first, then each label."""
    rows = []
    overall = metrics.get("overall") or {}
    if overall:
        rows.append({"name": "overall", **overall})
    for label, figures in (metrics.get("labels") or {}).items():
        rows.append({"name": label, **figures})
    return rows


def _int(value: str | None, default: int, low: int, high: int) -> int:
    try:
        return max(low, min(high, int(value)))
    except (TypeError, ValueError):
        return default


def learning_page(request):
    """GET: the page (``?partial=history`` for the polled history table); POST: start training."""
    if not roles.is_lead(request.user):
        raise PermissionDenied("Only leads train detectors.")
    if request.method == "POST":
        labels = [label for label in request.POST.getlist("labels") if label in LABELS]
        try:
            model = learning.trained_model_start(
                user=request.user,
                epochs=_int(request.POST.get("epochs"), 3, 1, 50),
                seed=_int(request.POST.get("seed"), 13, 0, 2**31 - 1),
                labels=labels or None,
            )
        except learning.LearningError as exc:
            messages.error(request, str(exc))
        else:
            messages.success(request, f"Training of model {model.pk} queued.")
        return redirect("annotations:learning")

    models = list(learning.trained_model_list())
    latest_ready = next((m for m in models if m.status == m.Status.READY), None)
    context = {
        "models": models,
        "job": learning.training_job_latest(),
        "active_job": learning.training_job_active(),
        "gold_count": learning.gold_transcripts().count(),
        "labels": LABELS,
        "latest_ready": latest_ready,
        "latest_rows": _rows(latest_ready.metrics) if latest_ready else [],
        "current_dir": learning.current_model_dir(),
    }
    template = "annotations/learning.html"
    if request.htmx and request.GET.get("partial") == "history":
        template += "#history"
    return render(request, template, context)
